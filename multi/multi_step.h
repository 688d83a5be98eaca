/**
 * @file multi_step.h
 * @brief The contract between the multi-GPU driver (multi_main.c), which owns the GPUs,
 * shards, processes, timing and checks, and a multi-GPU step's file (12, 13, 15), which
 * holds its idea: connect the GPUs in one NCCL communicator, reduce each shard, combine.
 */
#ifndef REDUCE_MULTI_STEP_H
#define REDUCE_MULTI_STEP_H

#include <nccl.h>
#include "gpu.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The partial sums' type: int's in 64 bits (G sums of up to INT_MAX overflow int), others' own. */
#if ELEMENT_IS_INTEGER
typedef long long combine_t;
#define COMBINE_NCCL_TYPE ncclInt64
#elif defined(ELEMENT_DOUBLE)
typedef double combine_t;
#define COMBINE_NCCL_TYPE ncclFloat64
#else
typedef float combine_t;
#define COMBINE_NCCL_TYPE ncclFloat32
#endif

/** One GPU's part of the input and the buffers it reduces it with. */
typedef struct shard {
    int device;              /**< CUDA device index */
    const element_t *in;     /**< this GPU's elements, on this GPU (16-byte aligned) */
    size_t n;                /**< how many: n/G or n/G + 1, and 0 when n < G */
    element_t *partial;      /**< step 11 writes this GPU's sum here */
    combine_t *sum;          /**< the combined sum, on every GPU (== partial unless int) */
    element_t *scratch_a;    /**< step 11's scratch: its blocks' partial sums */
    element_t *scratch_b;    /**< unused by step 11, given as to every step */
    cudaStream_t stream;     /**< everything of this GPU is queued here */
    ncclComm_t comm;         /**< this GPU's rank in the communicator */
} shard;

/** The multi-GPU step's metadata (number, name, title, idea, ...), as STEP is a step's. */
extern const step_info MULTI_STEP;
/** Words after the setup in the rows' label, so that make scaling tells this step's apart ("" if not defined). */
extern const char MULTI_SETUP[];

/**
 * Queues the reduction of one shard on its GPU, its sum into s->sum as combine_t (step 15:
 * the combined sum). Never waits for the GPU; returns the first CUDA error (no step exits).
 */
cudaError_t shard_reduce(const shard *s);

/**
 * Makes the run's NCCL communicator: one rank for each of this process's `gpus` GPUs (CUDA
 * indices in `devices`), in `comms`: all at once in one process (step 12), or one rank per
 * process with an id shared through MPI (13). Returns NCCL's first error (the driver exits).
 */
ncclResult_t connect_gpus(ncclComm_t *comms, const int *devices, int gpus);

/**
 * Queues the combine of this process's `gpus` shards: every GPU gets the total of the G
 * GPUs' s->sum in its own (an all-reduce; step 15: done in shard_reduce()'s kernel, alone
 * only when called without it). Never waits for the GPU; returns NCCL's first error.
 */
ncclResult_t combine(const shard *shards, int gpus);

#ifdef __cplusplus
}
#endif

#endif
