/**
 * @file options.h
 * @brief Command-line flags of every step program, parsed with getopt_long.
 *
 * Parsing is pure (no CUDA), so every bad input is unit-tested without a GPU and gets
 * exit code 2 before the GPU is touched.
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
/** Most GPUs --gpus accepts (one process, one node). */
#define MAX_GPUS 64

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
    int device_given;        /**< 1 if --device was on the command line (step 12 refuses it, any value) */
    const char *csv_path;    /**< append one result row here, or NULL */
    int hot;                 /**< 1: skip the L2 flush (time a warm cache) */
    int no_gate;             /**< 1: do not hold the GPU until a run is queued (gate.h) */
    int quiet;               /**< 1: print nothing but errors and --print-sum */
    const char *input_path;  /**< reduce this file's raw elements, or NULL */
    int print_sum;           /**< 1: print the result alone on a line */
    size_t check_sizes[MAX_CHECK_SIZES]; /**< --check: sizes to verify, no timing */
    int check_count;         /**< number of sizes in check_sizes (0: no --check) */
    int check_auto;          /**< 1: --check auto, the step's adversarial sizes (the harness
                                  fills check_sizes from its STEP: adversarial_sizes()) */
    int describe;            /**< 1: print the step's metadata as key=value lines, run nothing */
    int gpus;                /**< --gpus: GPUs of step 12 (0: not given, all it sees) */
    int latency;             /**< --latency: step 12 times its combine alone, each variant */
    int resources;           /**< --resources: print the kernel's registers, shared memory and
                                  occupancy on this GPU as key=value lines (resources.h), run nothing */
} options;

/** Result of parse_options(). */
enum parse_result { PARSE_OK, PARSE_HELP, PARSE_ERROR };

/**
 * Parses argv into `opt` (defaults first). On PARSE_ERROR, `error` holds one line that
 * says what is wrong and what is accepted.
 */
enum parse_result parse_options(int argc, char **argv, options *opt, char *error, size_t error_size);

/**
 * Parses a size: a whole decimal number, or 2^K, or 2^K+M / 2^K-M (so scripts can say
 * 2^31+5). Returns 0 and sets *value, or -1 when the text is not such a size or its
 * value lies outside 0 .. 2^64-1: every notation overflows alike, and never wraps around
 * (2^0+18446744073709551615 is not 0). Whether a size fits a program is the program's
 * question (its largest n), asked after this one.
 */
int parse_size(const char *text, uint64_t *value);

/**
 * Why a program's largest n is `max_n`, for its error line and --help: a 32-bit index,
 * and where larger n go (the programs whose --describe says index_bits=64), or a signed
 * 64-bit count, which device memory bounds long before. Derived from the value, so each
 * program says its own reason, and names no other step.
 */
const char *max_n_reason(uint64_t max_n);

/** What kind of program the harness runs: the `multi_gpu` of harness_begin() and print_usage(). */
enum program_kind {
    ONE_GPU = 0,              /**< steps 0-11 and CUB: one GPU, --device D */
    MULTI_ONE_PROCESS = 1,    /**< step 12: one process drives GPUs 0 .. G-1, --gpus G */
    MULTI_RANK_PER_GPU = 2    /**< step 13: one MPI rank per GPU, as many ranks as GPUs */
};

/**
 * Refuses the flags that belong to another kind of program, whatever their value:
 * --device, --input and --resources on the multi-GPU programs (they use GPUs 0 .. G-1,
 * make their input on each and run `shard_step`'s kernel on every GPU), --gpus and
 * --latency on the one-GPU programs (`shard_step` NULL), and --gpus on the program of one
 * rank per GPU (`kind` MULTI_RANK_PER_GPU: the ranks are the GPUs). Returns 0, or -1 with
 * one line in `error`.
 */
int check_program_flags(const options *opt, const char *shard_step, int kind, char *error, size_t error_size);

/**
 * Prints the usage text for `program`, naming the step and its largest n; `multi_gpu`
 * (a program_kind) lists --gpus and --latency (step 12), or --latency and how to start
 * one rank per GPU (step 13), instead of the one-GPU flags --device and --input.
 */
void print_usage(const char *program, const char *step_name, uint64_t max_n, int multi_gpu);

#ifdef __cplusplus
}
#endif

#endif
