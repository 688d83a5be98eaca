/**
 * @file step.h
 * @brief The contract between the harness and a step: what every step file provides.
 *
 * A step reduces `n` values that are already on the device to one value on the device.
 * The harness owns everything else (flags, data, memory, timing, verification), so a step
 * file holds only its kernel and the few lines that launch it.
 */
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

/**
 * Flags of the step's own, for a step whose lesson needs a knob the harness has no reason
 * to know (step 14's --blocks, CUB's --determinism); NULL in every other step. Parsed
 * with the core's flags in one pass (so errors exit 2 before the GPU, like theirs), listed
 * in --help after them, and described after the core's --describe lines.
 */
typedef struct step_flags {
    driver_flags parse;       /**< the flags and the step's function that takes each value */
    const char *usage_lines;  /**< their --help lines, "      --name V   what it does\n" */
    void (*describe)(void);   /**< prints their values as key=value lines for --describe */
    const char *sanitize_run; /**< a run of its own for the sanitizers ("N FLAG..."), or NULL */
} step_flags;

/**
 * What a step tells the harness about itself, declared, so that the harness and the
 * scripts know no step: the text fields feed the table, the report and `--help`, and
 * `--describe` prints them all (with the numbers) for the scripts; the functions let the
 * harness size scratch memory and the float error bound without knowing how the step
 * works inside.
 *
 * Every definition names its fields (`.number = 9, .name = ...`), in the order below: a
 * reader sees what each value is without counting commas, and a field added later cannot
 * shift the others. The step files are CUDA C++, where designated initializers are C++20
 * (nvcc's default C++17 accepts them as the GNU extension every host compiler we support
 * has); C++20 also wants them in declaration order, which is why the order is fixed.
 */
typedef struct step_info {
    int number;            /**< the step's number, -1 for the CUB reference */
    const char *name;      /**< directory name, e.g. "step3_add_during_load" */
    const char *title;     /**< table label after "stepN", e.g. "first add during load" */
    const char *citation;  /**< where the idea comes from, e.g. "Harris kernel 4" */
    const char *idea;      /**< the step's one idea, one line (make lab copies it) */
    uint64_t max_n;        /**< largest n: MAX_N_32BIT or MAX_N_64BIT, the width of its indices */
    unsigned int threads;  /**< threads per block */
    /**
     * The kernel each pass launches (`(const void *)reduce_pass`), launched with
     * `threads` threads and no dynamic shared memory: what `--resources` reports
     * (resources.h). NULL when the kernels are not the step's own (CUB picks its kernels
     * inside the library).
     */
    const void *kernel;
    /**
     * Elements one block reduces when the grid has one block per that many elements, as
     * blocks_for() divides by it (a grid-stride step's blocks may then loop for more);
     * --check's diagnosis says "past the last whole block" with it. 0 when the step does
     * not decide its grid (CUB).
     */
    size_t elements_per_block;
    /**
     * Blocks of one pass over `count` values: also how many partial sums it leaves.
     * 0 when the step cannot tell: steps 10 and 11 ask the GPU (the occupancy API), and if
     * that fails, blocks_for() says 0 and step_reduce() returns the query's error.
     */
    size_t (*blocks_for)(size_t count);
    /**
     * Elements each of the two scratch buffers must hold for n inputs;
     * NULL means blocks_for(n) (the partial sums of the first pass).
     */
    size_t (*scratch_elements)(size_t n);
    /**
     * Longest chain of additions between an input and the result, for the float error
     * bound; NULL means the harness derives it from blocks_for() and threads, which is
     * right for every step that reduces in passes (see depth_of_passes()).
     */
    uint64_t (*addition_depth)(size_t n);
    /** The step's own flags (step_flags), or NULL: omitted in every step that has none. */
    const step_flags *own_flags;
    /**
     * Accepted error of its float sum of n inputs with this reference, where the sum is no
     * tree of rounded additions (CUB's gpu_to_gpu: data.h, binned_error_bound()); NULL, in
     * every step: error_bound() at addition_depth.
     */
    double (*error_bound)(const struct reference *ref, size_t n);
} step_info;

/** The step's metadata: one definition per program, in the step's .cu file. */
extern const step_info STEP;

/**
 * Reduces `n` device values at `in` to one value written to `*out` (device memory).
 * Scratch buffers come from the harness, two of them, so that no pass reads and writes
 * the same array. Everything is queued on `stream`; the harness times it with events.
 * Returns the first CUDA error (launches are checked with cudaGetLastError(), a failed
 * occupancy query by the step's own check): no step exits inside it, the harness decides
 * what an error means (common/main.c and multi_main.c exit with code 4 and the message).
 */
cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                        element_t *scratch_a, element_t *scratch_b, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
