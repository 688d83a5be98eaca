/**
 * @file multi_step.h
 * @brief The contract between the multi-GPU driver (multi_main.c) and steps 12 and 13:
 * what the step file provides on top of step 11's STEP and step_reduce().
 *
 * The driver owns the GPUs, the shards, the processes, the timing and the verification;
 * the step file holds only its idea: connect the GPUs in one NCCL communicator, reduce
 * each shard, then combine the partial sums with NCCL.
 */
#ifndef REDUCE_MULTI_STEP_H
#define REDUCE_MULTI_STEP_H

#include <nccl.h>
#include "gpu.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The type the partial sums are added in: int partials in 64 bits (G sums of up to
 * INT_MAX each would overflow int), floats and doubles in their own type.
 */
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

/**
 * Queues the reduction of one shard on its GPU, leaving the shard's sum in s->sum as
 * combine_t. Only queues: never waits for the GPU. Returns the first CUDA error, as
 * step_reduce() does: no step exits inside it.
 */
cudaError_t shard_reduce(const shard *s);

/**
 * Makes the NCCL communicator of the run: one rank for each of this process's `gpus` GPUs
 * (their CUDA indices in `devices`), in `comms`. Step 12 makes every rank at once in its
 * one process; step 13, one rank per process, shares a unique id through MPI. Returns
 * NCCL's first error (the driver exits on it; with MPI that aborts every rank).
 */
ncclResult_t connect_gpus(ncclComm_t *comms, const int *devices, int gpus);

/**
 * Queues the combine: one all-reduce over the G GPUs adds their s->sum values, and every
 * GPU gets the total in its own s->sum. `shards` and `gpus`: this process's GPUs. Only
 * queues: never waits for the GPU. Returns NCCL's first error; the driver exits 4 on it.
 */
ncclResult_t combine(const shard *shards, int gpus);

#ifdef __cplusplus
}
#endif

#endif
