/** @file driver.h
 * @brief The hooks of driver_run() (main.c): where the input lives (main.c's: one GPU; multi/'s) and how
 * a run goes. driver_run() owns the method: --check's data, new data each run, warm-up, timing, every
 * result verified, report, row, --verdicts. */
#ifndef REDUCE_DRIVER_H
#define REDUCE_DRIVER_H

#include "harness.h"

/** A sum a run leaves, as it is verified: element_t, for int in 64 bits (a driver may add int sums). */
#if ELEMENT_IS_INTEGER
typedef long long sum_t;
#else
typedef element_t sum_t;
#endif

/** Verifies one sum of a run; `poison`: it still holds POISON_BYTE; `where`: for the failure line. 1: right. */
typedef int (*driver_check)(void *arg, sum_t got, int poison, const char *where);

/** What driver_run() knows of a timed run that finished, for the report hook. */
typedef struct driver_outcome {
    sum_t got;              /**< the last run's sum */
    reference ref;          /**< and its reference */
    verdict v;              /**< and its verdict */
    timing_stats combine;   /**< the combine hook's runs (all 0 without one) */
} driver_outcome;

/** The hooks; each gets `ctx` first. */
typedef struct driver_hooks {
    void *ctx;
    const step_info *info;   /**< the program, for the row and the report */
    const gpu_info *gpu;     /**< the GPU the row names (of several, the first) */
    const char *spread;      /**< where the input lies, for --check's lines: "", or " on 2 GPUs" */
    /** Device memory for the inputs of `sizes`: 0, or EXIT_USAGE after one line. */
    int (*allocate)(void *ctx, const size_t *sizes, int count, int flush, int gated);
    void (*release)(void *ctx);
    /** Random data from `seed` as the n elements of the input; its reference, alike in every process. */
    reference (*load)(void *ctx, size_t n, uint64_t seed);
    void (*zero)(void *ctx, size_t n);
    /** Element i of the n of the input, in every process (get); set where it lives (set). */
    element_t (*get)(void *ctx, size_t n, size_t i);
    void (*set)(void *ctx, size_t n, size_t i, element_t value);
    /** The indices --check sets to 1 one at a time (one_hot_positions() and the driver's own). */
    const size_t *(*one_hots)(void *ctx, size_t n, int *count);
    /** Height of the additions of a run of n, for the float bound (data.h's error_bound()). */
    uint64_t (*depth)(void *ctx, size_t n);
    /** One run of n between the events, each sum handed to `check`: the ms, or -1 (in every process) if wrong. */
    float (*run)(void *ctx, size_t n, int pass, driver_check check, void *arg);
    /** A part of the run timed alone after the timed runs (time_runs()'s callback), or NULL. */
    float (*combine)(void *ctx, int run);
    /** Completes the row with what is the driver's own, and prints the report when `print`. */
    void (*report)(void *ctx, result_row *row, const options *opt, const driver_outcome *o, int print);
} driver_hooks;

/** --check (opt->check_count sizes) or the timed runs, with `hooks`; returns the exit code. */
int driver_run(const options *opt, const driver_hooks *hooks);

#endif
