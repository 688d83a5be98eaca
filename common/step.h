/** @file step.h
 * @brief The contract between the harness and a step: a step reduces `n` values on the
 * device to one value on the device; the harness owns the rest (flags, data, memory,
 * timing, verification), so a step file holds only its kernel and its launch. */
#ifndef REDUCE_STEP_H
#define REDUCE_STEP_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "element.h"
#include "options.h"

struct reference;   /* data.h: the CPU's sum, for a step's own error bound */

#ifdef __cplusplus
extern "C" {
#endif

/** Largest n for the steps whose kernels index with 32-bit `unsigned int`. */
#define MAX_N_32BIT ((uint64_t)INT32_MAX)
/** "Any n that fits in memory": the steps with 64-bit indices. */
#define MAX_N_64BIT ((uint64_t)INT64_MAX)

/** A step's own flags, knobs the harness need not know (step 14's --blocks, CUB's --determinism):
 * parsed with the core's (errors exit 2), listed after them in --help and --describe. */
typedef struct step_flags {
    driver_flags parse;       /**< the flags and the step's function that takes each value */
    const char *usage_lines;  /**< their --help lines, "      --name V   what it does\n" */
    void (*describe)(void);   /**< prints their values as key=value lines for --describe */
    const char *sanitize_run; /**< a run of its own for the sanitizers ("N FLAG..."), or NULL */
} step_flags;

/** What a step tells the harness, so that the harness and the scripts know no step: the text feeds
 * the table, report, `--help` and `--describe`; the functions size scratch and the float bound.
 * Definitions name their fields in the order below: designated initializers are C++20 in CUDA C++
 * (a GNU extension in nvcc's C++17), and C++20 wants declaration order. */
typedef struct step_info {
    int number;            /**< the step's number, -1 for the CUB reference */
    const char *name;      /**< directory name, e.g. "step3_add_during_load" */
    const char *title;     /**< table label after "stepN", e.g. "first add during load" */
    const char *citation;  /**< where the idea comes from, e.g. "Harris kernel 4" */
    const char *idea;      /**< the step's one idea, one line (make lab copies it) */
    uint64_t max_n;        /**< largest n: MAX_N_32BIT or MAX_N_64BIT, the width of its indices */
    unsigned int threads;  /**< threads per block */
    /** The kernel each pass launches with `threads` threads and no dynamic shared memory, for
     * `--resources`; NULL when the library picks it (CUB). */
    const void *kernel;
    /** Elements one block reduces, as blocks_for() divides (a grid-stride block may loop for more),
     * for --check's sizes and diagnosis. 0: not the step's (CUB). */
    size_t elements_per_block;
    /** Blocks of one pass over `count` values: the partial sums it leaves. 0 when the step cannot
     * tell (an occupancy query failed: step_reduce() then returns its error). */
    size_t (*blocks_for)(size_t count);
    /** Elements each of the two scratch buffers must hold for n inputs; NULL: blocks_for(n). */
    size_t (*scratch_elements)(size_t n);
    /** Longest chain of additions from an input to the result, for the float bound; NULL:
     * depth_of_passes() of blocks_for() and threads, right for steps in passes. */
    uint64_t (*addition_depth)(size_t n);
    /** The step's own flags (step_flags), or NULL: omitted in every step that has none. */
    const step_flags *own_flags;
    /** Accepted error of its float sum of n inputs where the sum is no tree of rounded additions
     * (CUB's gpu_to_gpu: binned_error_bound()); NULL, in every step: error_bound() at addition_depth. */
    double (*error_bound)(const struct reference *ref, size_t n);
} step_info;

/** The step's metadata: one definition per program, in the step's .cu file. */
extern const step_info STEP;

/** Reduces `n` device values at `in` to one at `*out`, queued on `stream`, with the harness's two
 * scratch buffers (no pass reads the array it writes). Returns the first CUDA error, never exits:
 * the harness decides what it means (exit 4). */
cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                        element_t *scratch_a, element_t *scratch_b, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
