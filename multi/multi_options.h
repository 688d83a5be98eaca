/**
 * @file multi_options.h
 * @brief The multi-GPU programs' own flag (--gpus), their --help and their
 * --describe lines, given to the core's harness_begin() as a harness_driver: the core
 * parses them with its own flags and knows none of them.
 *
 * Pure (no CUDA, no NCCL), so that the unit tests (multi/unit_tests.c) check every flag.
 */
#ifndef REDUCE_MULTI_OPTIONS_H
#define REDUCE_MULTI_OPTIONS_H

#include "harness.h"

/** Most GPUs --gpus accepts (one process, one node). */
#define MAX_GPUS 64

/** Which multi-GPU program runs: how its processes map to its GPUs. */
enum multi_kind {
    MULTI_ONE_PROCESS = 1,    /**< step 12: one process drives GPUs 0 .. G-1, --gpus G */
    MULTI_RANK_PER_GPU = 2    /**< step 13: one MPI rank per GPU, as many ranks as GPUs */
};

/** The multi-GPU flags, as parsed. */
typedef struct multi_flags {
    int gpus;                /**< --gpus: GPUs of step 12 (0: not given, all it sees) */
} multi_flags;

/**
 * The driver that harness_begin() takes for a multi-GPU program of `kind`, which runs
 * `shard_step`'s kernel on every GPU: it parses --gpus into `*flags`
 * (zeroed here), prints the --help of its kind, refuses the one-GPU flags (--device,
 * --input, --resources, whatever their value) and --gpus where the ranks are the GPUs,
 * and adds multi_gpu=1, shard_step and processes (one or one_per_gpu) to --describe.
 * One driver per program: the returned one, and `flags`, must outlive harness_begin().
 */
const harness_driver *multi_driver(enum multi_kind kind, const char *shard_step, multi_flags *flags);

#endif
