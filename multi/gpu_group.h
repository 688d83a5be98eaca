/**
 * @file gpu_group.h
 * @brief The G GPUs of a multi-GPU run, as common/gpu_slot.h is one GPU's: each GPU a slot
 * and a shard of the input, one NCCL communicator over all, and a timed run of any work on
 * all of them at once. The driver (multi_main.c) and the combine's variants
 * (combine_variants.c) both build on it; it calls neither.
 */
#ifndef REDUCE_GPU_GROUP_H
#define REDUCE_GPU_GROUP_H

#include "data.h"
#include "gpu_slot.h"
#include "harness.h"
#include "multi_options.h"
#include "multi_step.h"
#include "ranks.h"

/** The GPUs of a run: each one's slot, and the shards, sums and communicators of the step. */
typedef struct gpu_group {
    ranks world;                   /**< the processes of the run, and this one's place */
    int count;                     /**< the GPUs this process drives: 0 .. count-1 (1 per MPI rank) */
    int total;                     /**< G, the GPUs of the run: world.size x count */
    int base;                      /**< the run's index of this process's GPU 0: world.rank x count */
    gpu_slot slots[MAX_GPUS];      /**< one per GPU: buffers, stream, events, gate */
    shard shards[MAX_GPUS];        /**< the step's view of each: its slot's buffers, its sum, its rank */
    size_t first[MAX_GPUS];        /**< index in the whole input of each shard's first element */
    size_t max_shard;              /**< elements each shard's buffer holds (at least 1) */
    element_t *host;               /**< room for max_shard elements on the host: a shard's data is made there */
    gpu_info info[MAX_GPUS];       /**< each GPU, as gpu_open() found it */
    ncclComm_t comms[MAX_GPUS];    /**< this process's ranks of one communicator of G (connect_gpus()) */
} gpu_group;

/** Work queued on every GPU of the group in a timed run; it never waits for a GPU. */
typedef void (*group_work)(gpu_group *m, const void *arg);

/**
 * Opens this process's GPUs (`gpus` of them from 0, 0: every one visible; or this rank's
 * own with one rank per GPU) and connects them with the step's connect_gpus(). Every rank
 * agrees first, so none waits in NCCL for a rank that gave up. Returns 0, EXIT_USAGE or
 * EXIT_NO_GPU, the lowest failing rank's one line said.
 */
int group_open(gpu_group *m, int gpus);

/**
 * Allocates every GPU's slot for inputs of up to max_n elements in all, after checking that
 * each shard fits (every rank agrees), then connects NCCL with one untimed combine.
 * Returns 0 or EXIT_USAGE.
 */
int group_allocate(gpu_group *m, size_t max_n, int flush, int gated);

/** Frees what group_allocate() and group_open() took. */
void group_release(gpu_group *m);

/** Index of shard k's first element of n on G GPUs: n/G each, the first n % G shards one more. */
size_t shard_first(size_t n, int gpus, int k);

/** Spreads n elements over the G shards (shard_first()): this process's sizes and first indices. */
void set_sizes(gpu_group *m, size_t n);

/** Where element i of the whole input lies on this process's GPUs; NULL on another process's. */
element_t *element_at(const gpu_group *m, size_t i);

/** Makes each GPU's shard of the random input (seed); the whole's reference, the same on every rank. */
reference load_random(gpu_group *m, uint64_t seed);

/** group_work: the whole step, shard_reduce() on every GPU then combine(). */
void queue_step(gpu_group *m, const void *arg);
/** group_work: combine() alone, the all-reduce of one value. */
void queue_combine(gpu_group *m, const void *arg);

/**
 * One timed run of `work` on every GPU, all started together (each slot flushed, poisoned
 * and gated); returns its time in ms: this process's GPU 0's events, the slowest process's
 * with several.
 */
float run_once(gpu_group *m, group_work work, const void *arg, int pass);

/** Times `work` with the core's protocol (time_runs(): warm-up, repetitions, median). */
timing_stats time_work(gpu_group *m, group_work work, const void *arg, int warmup, int reps);

/** Runs of the whole step on the group, each verified on every GPU: verified_run()'s state. */
typedef struct group_runs {
    gpu_group *m;
    size_t n;                /**< elements of the input in all */
    reference ref;           /**< its reference, changed with it */
    const char *what;        /**< the data, for the failure line */
    const uint64_t *fresh;   /**< random data's seed: each run after the first changes an element; NULL: none */
    int runs;                /**< how many runs there will be, for the failure line */
    int ok;                  /**< 1 while every run was right on every GPU of every rank */
    combine_t got;           /**< the last sum checked */
    verdict v;               /**< its verdict */
} group_runs;

/**
 * One run of the whole step (time_runs()'s callback, `ctx` a group_runs): new data as
 * main.c's runs get, the timed run, then the sum on every GPU checked. Returns the time,
 * or -1 on every rank when a GPU of any rank holds a wrong sum (its rank says which).
 */
float verified_run(void *ctx, int run);

/** Writes a combined sum as the program prints it. */
void format_total(char *buf, size_t size, combine_t value);

/** NCCL's version as "major.minor.patch", for the report's headers. */
void format_nccl_version(char *buf, size_t size);

/**
 * Fills the step's CSV row of a run: fill_row()'s, on G GPUs with G x the peak, `combine`'s
 * median as the combine's time, and the setup in the label: one process or one MPI rank per
 * GPU, and ", network transport" when NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1 keep NCCL
 * off NVLink and shared memory, as between nodes.
 */
void fill_multi_row(result_row *row, const gpu_group *m, size_t n, const options *opt, const timing_stats *t,
                    const timing_stats *combine, double rel_error, int ok);

#endif
