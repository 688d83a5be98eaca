/**
 * @file options.h
 * @brief Command-line flags of every step program, parsed with getopt_long. Pure C: every
 * bad input is unit-tested without a GPU, and exits 2 before the GPU is touched.
 */
#ifndef REDUCE_OPTIONS_H
#define REDUCE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default n: 2^26 ints are 256 MiB, larger than the L2 of any current GPU. */
#define DEFAULT_N ((size_t)1 << 26)
#define DEFAULT_REPS 20
#define DEFAULT_WARMUP 3
#define MAX_REPS 100000
#define MAX_CHECK_SIZES 64

/** How the L2 cache is emptied of the input before each timed run (gpu.h's flush_l2()). */
enum l2_flush {
    FLUSH_NONE = 0,   /**< --hot: no flush, the input may still be in L2 */
    FLUSH_WRITE = 1,  /**< --flush write: a memset of 4 x L2 (nvbench's, Triton's): L2 left full of dirty lines */
    FLUSH_READ = 2    /**< --flush read: a kernel reads 4 x L2: L2 left full of clean lines */
};
/** The flush a run gets without --flush or --hot: switching the method is this one line. */
#define DEFAULT_FLUSH FLUSH_READ

/** Exit codes, so that scripts can tell the failures apart. */
enum exit_code {
    EXIT_OK = 0,          /**< ran, result verified */
    EXIT_WRONG = 1,       /**< a result did not match the reference */
    EXIT_USAGE = 2,       /**< bad flags or input: nothing was run */
    EXIT_NO_GPU = 3,      /**< no CUDA device (or no driver) on this machine */
    EXIT_CUDA_ERROR = 4   /**< a CUDA call or launch failed */
};

/** Everything the flags can say. */
typedef struct options {
    size_t n;                /**< elements to reduce */
    int n_given;             /**< 1 if -n was on the command line */
    int reps;                /**< timed repetitions */
    int warmup;              /**< untimed runs first */
    uint64_t seed;           /**< seed of the random data */
    int device;              /**< CUDA device index */
    int device_given;        /**< 1 if --device was on the command line (a driver may refuse it, any value) */
    const char *csv_path;    /**< append one result row here, or NULL */
    int flush;               /**< enum l2_flush: FLUSH_NONE with --hot (time a warm cache) */
    int no_gate;             /**< 1: do not hold the GPU until a run is queued (gate.h) */
    int quiet;               /**< 1: print nothing but errors and --print-sum */
    const char *input_path;  /**< reduce this file's raw elements, or NULL */
    int print_sum;           /**< 1: print the result alone on a line */
    size_t check_sizes[MAX_CHECK_SIZES]; /**< --check: sizes to verify, no timing */
    int check_count;         /**< number of sizes in check_sizes (0: no --check) */
    int check_auto;          /**< 1: --check auto, the step's adversarial_sizes() (the harness fills them in) */
    int describe;            /**< 1: print the step's metadata as key=value lines, run nothing */
    int resources;           /**< --resources: print the kernel's use of an SM (resources.h), run nothing */
    int same_bits;           /**< --same-bits: hold the result's bits to n and the data alone (main.c: run_same_bits()) */
    const char *verdicts_path; /**< --verdicts FILE: each size's verdict, one line, for scripts (record_verdict()) */
} options;

/** Result of parse_driver_options(). */
enum parse_result { PARSE_OK, PARSE_HELP, PARSE_ERROR };

/** A flag that a driver adds to the core's (driver_flags): its long name, and whether it takes a value. */
typedef struct driver_flag {
    const char *name;        /**< "name" for --name */
    int takes_value;         /**< 1: --name VALUE */
} driver_flag;

/**
 * A driver's (or a step's) flags, parsed with the core's: `take` gets each one's index in
 * `flags` and value (NULL: none), and returns 0, or -1 with a line in `error`.
 */
typedef struct driver_flags {
    const driver_flag *flags;
    int count;
    int (*take)(int index, const char *value, char *error, size_t error_size);
} driver_flags;

/** Parses argv into `opt` (defaults first) with a driver's flags (or NULL); PARSE_ERROR: one line in `error`. */
enum parse_result parse_driver_options(int argc, char **argv, options *opt, const driver_flags *driver,
                                       char *error, size_t error_size);

/** Parses an integer flag value within [low, high]: 0 and *value, or -1 if not a whole number in range. */
int parse_int_in(const char *text, long low, long high, int *value);

/**
 * Parses a size: a whole decimal number, 2^K, 2^K+M or 2^K-M (scripts say 2^31+5). Returns
 * 0 and sets *value, or -1 when the text is no such size or lies outside 0 .. 2^64-1 (never
 * wrapped around). Whether it fits a program (its largest n) is asked after.
 */
int parse_size(const char *text, uint64_t *value);

/**
 * Why a program's largest n is `max_n`, for its error line and --help: a 32-bit index, or a
 * signed 64-bit count. Derived from the value, so that it names no other step.
 */
const char *max_n_reason(uint64_t max_n);

/** What a driver other than the one-GPU one says in its --help (print_usage()). */
typedef struct driver_usage {
    const char *runs_on;     /**< after "Times the X reduction on ", e.g. "the GPUs" */
    const char *flag_lines;  /**< its own flags' lines, printed where --device is for one GPU */
    void (*print_footer)(const char *program);  /**< lines after the flags: how to start it */
} driver_usage;

/**
 * Prints the usage text for `program`, naming the step and its largest n: the one-GPU
 * program's (`driver` NULL: with --device, --input, --resources), or a driver's, with its own
 * flags and footer instead. `step_lines`: the step's own flags' lines (step_flags), or NULL.
 */
void print_usage(const char *program, const char *step_name, uint64_t max_n, const driver_usage *driver,
                 const char *step_lines);

#ifdef __cplusplus
}
#endif

#endif
