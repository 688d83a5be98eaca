/**
 * @file multi_driver.h
 * @brief What the multi-GPU driver (multi_main.c) lends the combine's variants
 * (combine_variants.c, --latency): the group of GPUs of a run, and its allocation, timed
 * runs, checks and CSV row, so that a variant adds only the work it queues.
 */
#ifndef REDUCE_MULTI_DRIVER_H
#define REDUCE_MULTI_DRIVER_H

#include "data.h"
#include "gpu.h"
#include "gpu_slot.h"
#include "harness.h"
#include "multi_options.h"
#include "multi_step.h"
#include "options.h"
#include "ranks.h"
#include "results.h"

/**
 * The G GPUs of a run: each one's slot (buffers, stream, events, gate: gpu_slot.h, as
 * the one-GPU driver has one), and what is the multi-GPU steps' own: the shards, a view of the
 * slots for the step file, the 64-bit sums and the communicators.
 */
typedef struct gpu_group {
    ranks world;                   /**< the processes of the run, and this one's place */
    int count;                     /**< the GPUs this process drives: 0 .. count-1 (1 per MPI rank) */
    int total;                     /**< G, the GPUs of the run: world.size x count */
    int base;                      /**< the run's index of this process's GPU 0: world.rank x count */
    gpu_slot slots[MAX_GPUS];      /**< one per GPU */
    shard shards[MAX_GPUS];        /**< one per GPU: its slot's buffers and stream, its sum, its rank */
    size_t first[MAX_GPUS];        /**< index in the whole input of each shard's first element */
    size_t max_shard;              /**< elements each shard's buffer holds (at least 1) */
    gpu_info info[MAX_GPUS];       /**< each GPU, as gpu_open() found it */
    ncclComm_t comms[MAX_GPUS];    /**< this process's ranks of one communicator of G (connect_gpus()) */
} gpu_group;

/** What the timed region of run_once() holds. */
typedef enum work {
    WORK_EMPTY,        /**< nothing: what the gate and the events cost */
    WORK_STEP11,       /**< step 11 on each shard, no combine */
    WORK_WHOLE_STEP,   /**< the whole step: shard_reduce() on every GPU, then combine() */
    WORK_COMBINE,      /**< combine() alone: the all-reduce of one value */
    WORK_OWN           /**< what an own_work queues: a variant of the combine (combine_variants.c) */
} work;

/** Work that the driver does not know, queued on every GPU by `queue` (WORK_OWN). */
typedef struct own_work {
    void (*queue)(gpu_group *m, const void *arg);   /**< queues it, never waits for the GPU */
    const void *arg;                                /**< its buffers, graphs ... */
} own_work;

/** NCCL's version as "major.minor.patch", for the report's headers. */
void format_nccl_version(char *buf, size_t size);

/** Spreads n elements over the run's G shards: this process's sizes and first indices. */
void set_sizes(gpu_group *m, size_t n);

/**
 * Allocates every GPU's buffers for inputs of up to max_n elements in all, after checking
 * that each shard fits (every rank agrees), then connects NCCL with one untimed combine.
 * Returns 0 or EXIT_USAGE.
 */
int allocate(gpu_group *m, size_t max_n, int flush, int gated);

/** Frees what allocate() and the opening of the GPUs took. */
void release(gpu_group *m);

/**
 * One timed run of `what` (`own`: the work of WORK_OWN, else unused) on every GPU, all
 * started together; returns its time in ms (this process's first GPU's events, the
 * slowest process's with several).
 */
float run_once(gpu_group *m, work what, int pass, const own_work *own);

/** Times `reps` runs of `what` after `warmup` (run_once()), their statistics. */
timing_stats time_work(gpu_group *m, work what, int warmup, int reps, const own_work *own);

/** Copies every GPU's combined sum back into got[0 .. count-1]. */
void fetch_sums(const gpu_group *m, combine_t *got);

/** Longest chain of additions of a run: step 11 on the largest shard, then the combine. */
uint64_t total_depth(const gpu_group *m);

/** Compares a combined sum with the reference: exact in 64 bits for int, else the float bound. */
verdict check_total(combine_t got, const reference *ref, uint64_t depth);

/** Runs the whole step once and checks the sum on every GPU: 1 when all hold it (every rank the same). */
int verify_once(gpu_group *m, const reference *ref, const char *what, size_t n, int call);

/** Makes each GPU's shard of the random input (seed); the reference of the whole, the same on every rank. */
reference load_random(gpu_group *m, element_t *host, uint64_t seed);

/** Fills the step's CSV row of a run on the group: its time `t`, its combine's `combine`, its setup in the label. */
void fill_multi_row(result_row *row, const gpu_group *m, size_t n, const options *opt, const timing_stats *t,
                    const timing_stats *combine, double rel_error, int ok);

/**
 * --latency (combine_variants.c): the combine alone and its variants, each timed like a
 * run, with n = G; returns the exit status.
 */
int run_latency(gpu_group *m, options *opt);

#endif
