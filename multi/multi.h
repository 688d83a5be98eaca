/**
 * @file multi.h
 * @brief The multi-GPU extension's host code that needs no GPU (no CUDA, no NCCL), so that
 * its unit tests (unit_tests.c) check all of it: the programs' own flag, --help and
 * --describe lines (multi_options.c), the reference of an input made in parts
 * (shard_reference.c), and `make scaling`'s setups and crossovers (multi_report.c).
 */
#ifndef REDUCE_MULTI_H
#define REDUCE_MULTI_H

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
 * harness_begin()'s driver for a multi-GPU program of `kind` running `shard_step`'s kernel
 * on every GPU: parses --gpus into `*flags` (zeroed here), prints its --help, refuses the
 * one-GPU flags (--device, --input, --resources) and --gpus where the ranks are the GPUs,
 * adds multi_gpu=1, shard_step and processes (one, one_per_gpu) to --describe. One per
 * program: it and `flags` must outlive harness_begin().
 */
const harness_driver *multi_driver(enum multi_kind kind, const char *shard_step, multi_flags *flags);

/**
 * Adds the reference of one part of an input (data.h's cpu_reference()) to that of the
 * parts before it, so that an input made in parts, one per GPU, is checked against the sum
 * of its parts' references and no process needs the whole input. The first NaN's or
 * infinity's index (nonfinite_index) stays the one in its part.
 */
void reference_add(reference *total, const reference *part);

/** A row's setup, its label after the GPU count: "one process", "one MPI rank per GPU", ... */
const char *scaling_setup(const result_row *r);

/**
 * The crossover on `gpus` GPUs of one setup (scaling_setup(); NULL: any): the smallest n
 * from which it beats one GPU at every n of `rows` (in increasing n, as make scaling writes
 * them), 0 if none; below it the all-reduce's fixed cost outweighs the time G GPUs save.
 */
unsigned long long scaling_crossover(const result_row *rows, int count, int gpus, const char *setup);

#endif
