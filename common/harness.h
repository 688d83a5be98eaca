/**
 * @file harness.h
 * @brief What the one-GPU driver (main.c) shares with any other (harness_driver), so that
 * every driver checks, times and reports alike (each GPU's buffers and run: gpu_slot.h).
 */
#ifndef REDUCE_HARNESS_H
#define REDUCE_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "data.h"
#include "gpu.h"
#include "options.h"
#include "results.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Byte the result is poisoned with before each run, so a run that writes nothing fails. */
#define POISON_BYTE 0xA5
/** The L2 flush reads (--flush write: writes) this many times the L2 size. */
#define FLUSH_L2_MULTIPLE 4
/** Most one-hot positions one_hot_positions() returns for one size. */
#define MAX_ONE_HOT 40

/** The program's name (argv[0]) for error lines; set by harness_begin(). */
extern const char *harness_program;

/** 1 where this process writes --csv's and --verdicts' files; 0 in a program's others (no lost header). */
extern int harness_writes_files;

/** Prints one error line prefixed with the program name. */
void say_error(const char *message);

/** say_error() of a printf format and its values (at most 511 characters). */
void say_errorf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/**
 * Makes CUDA load every kernel when the context is created: lazily loaded, a kernel's first
 * launch behind a closed gate would wait for the gate, which waits for the launch. Before
 * anything initializes CUDA: harness_begin() calls it (a driver, before its libraries).
 */
void load_kernels_eagerly(void);

/** What harness_begin() returns when the program should go on (any other value: exit with it). */
#define HARNESS_GO_ON (-1)

/** What a driver other than the one-GPU one adds to harness_begin(): the core knows none of its flags. */
typedef struct harness_driver {
    driver_flags flags;      /**< its own flags, parsed with the core's */
    driver_usage usage;      /**< its --help */
    /** Refuses the core's flags it does not take, once all are parsed: 0, or -1 with one line in `error`. */
    int (*check_flags)(const options *opt, char *error, size_t error_size);
    /** Prints its own --describe lines (key=value), after the core's. */
    void (*describe)(void);
} harness_driver;

/**
 * Parses the flags, answers --help and --describe from `info`, rejects sizes above
 * info->max_n, flags the program does not take and --csv or --verdicts files that cannot
 * be written (before the GPU is touched), and prepares CUDA for the gate (eager loading; no
 * gate under compute-sanitizer or ncu). Returns HARNESS_GO_ON, or the exit code to return.
 * `driver`: NULL for the one-GPU driver (main.c, which answers --resources itself), or another's.
 */
int harness_begin(int argc, char **argv, options *opt, const step_info *info, const harness_driver *driver);

/** 0, or EXIT_USAGE after a line saying why n (named by `what`: "n", ...) is above info->max_n. */
int check_max_n(const step_info *info, size_t n, const char *what);

/** Largest size --same-bits sums: 2^26+1, the edge of its largest size. */
#define SAME_BITS_MOST_N (((size_t)1 << 26) + 1)

/**
 * The sizes --same-bits sums into `sizes` (MAX_CHECK_SIZES), sorted, and returns how many: --check
 * auto's up to SAME_BITS_MOST_N, and 2^20, 2^24+7 and 2^26, where many chunks and blocks meet.
 */
int same_bits_sizes(const step_info *info, size_t *sizes);

/**
 * Appends "WHAT N pass|fail [WHY]" (`why`: one word, or NULL) to --verdicts' file, if any, for
 * scripts (not the lines for people). Returns 0, after an error line, when it cannot.
 */
int record_verdict(const options *opt, const char *what, size_t n, int ok, const char *why);

/** Scratch elements for n inputs: the step's own need, or its first pass's partials. */
size_t scratch_for(size_t n);

/** Height of the step's summation tree for n inputs (for the float error bound). */
uint64_t depth_for(size_t n);

/** The error a float sum of n inputs may have: the step's own bound, or error_bound() at depth_for(n). */
double accepted_error(const reference *ref, size_t n);

/** Allocates host memory for n elements, or says how much could not be had (NULL). */
element_t *host_alloc(size_t n);

/** 1 if the `size` bytes at `value` are still the poison written before the run. */
int is_poison(const void *value, size_t size);

/**
 * The indices --check sets to 1 one at a time for size n (0, n/2, the last three, both sides
 * of block and warp boundaries), each once, below n: at most MAX_ONE_HOT; returns how many.
 */
int one_hot_positions(size_t n, size_t *positions);

/** Fills the CSV/table row of a finished run of `info` on one GPU (gpus = 1). */
void fill_row(result_row *row, const step_info *info, size_t n, const gpu_info *gpu, const options *opt,
              const timing_stats *t, double rel_error, int ok);

/**
 * The timing protocol of every driver: `warmup` runs, then `reps` timed ones, each a call
 * run_once(ctx, run), run = 0, 1, ... (new data, flush and gate, the timed work, its check),
 * that returns its time in ms, or a negative value when wrong: the runs stop there. Returns
 * summarize_times() of the timed runs (all 0 after a wrong one); exits 2 without memory.
 */
timing_stats time_runs(float (*run_once)(void *ctx, int run), void *ctx, int warmup, int reps);

/** Prints the report's time, confidence and noise lines of a row. */
void print_timing(const result_row *row, const options *opt);

/** Appends the row to --csv's file, if given. Returns 0, after an error line, when it cannot (the run fails). */
int append_csv(const options *opt, const result_row *row);

#ifdef __cplusplus
}
#endif

#endif
