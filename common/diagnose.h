/** @file diagnose.h
 * @brief From how a `--check` size failed to the kind of bug that pattern usually means. The check
 * reduces random data and one-hots (a single 1 at a chosen index) twice each, so a failure says where
 * and when: a one-hot back as 0 was never added, 2 was added twice, a wrong second call means state
 * survived the launch. diagnose() says it in one line. Pure C, unit-tested on any machine. */
#ifndef REDUCE_DIAGNOSE_H
#define REDUCE_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>

/** What `--check` saw for one size: the input of diagnose(). */
typedef struct check_outcome {
    uint64_t n;               /**< elements */
    uint64_t per_block;       /**< elements one block covers in the first pass (0: unknown) */
    unsigned int vector_width;/**< elements in one 16-byte vector of this type (0: unknown) */
    int random_wrong_call;    /**< 0: random data right on both calls; else the first wrong call (1 or 2) */
    int one_hots_tested;      /**< one-hot positions reduced */
    int one_hot_wrong_call;   /**< 0: every one-hot right; else the first wrong call at the first wrong index */
    uint64_t one_hot_index;   /**< that index */
    double one_hot_got;       /**< what came back for it (1 is right) */
    int got_poison;           /**< 1: a wrong result was the poison the harness wrote before the run */
} check_outcome;

/** The kinds of bug diagnose() can name. */
typedef enum diagnosis {
    DIAG_NONE,          /**< nothing failed */
    DIAG_STATE,         /**< right on the first call, wrong on the second: state not reset */
    DIAG_INDEX_32BIT,   /**< wrong above 2^31 - 1 elements: a signed 32-bit index or count overflows
                             (an unsigned one near 2^32: make test's "unsigned index" tests, not --check auto) */
    DIAG_NOT_WRITTEN,   /**< the result still holds the poison: nothing wrote it */
    DIAG_LOST_TAIL,     /**< a one-hot in the leftover after the whole blocks/vectors was lost */
    DIAG_LOST_ELEMENT,  /**< a one-hot elsewhere was lost: a gap in the ranges or the tree */
    DIAG_COUNTED_TWICE, /**< a one-hot came back 2 or more: an element read more than once */
    DIAG_GARBAGE,       /**< a one-hot came back neither 0 nor a count: values from outside */
    DIAG_RACE,          /**< random data wrong, every one-hot right: order-dependent, a race */
    DIAG_UNKNOWN        /**< wrong, but in no pattern this function knows */
} diagnosis;

/** Names the likely bug behind a failed check in one line in `text`: a label scripts grep ("lost tail:
 * ..."), what was seen and where to look; the most specific pattern first (when, how large n). */
diagnosis diagnose(const check_outcome *o, char *text, size_t size);

/** Bytes of the widest load a step makes: a 16-byte vector (int4, float4, double2). */
#define VECTOR_BYTES 16

/** The sizes `--check auto` verifies for a step, those that break careless reductions: every step's
 * (diagnose.c), and around its own threads, elements per block (a second pass, a third) and vector up
 * to 2^27 (0: unknown, none). With 64-bit `index_bits`, 2^31 + 5 (above every signed 32-bit index),
 * and for float 2^30 + 5 (where CUB's gpu_to_gpu was 3% off: cub_reference/defect/). Sorted, each
 * once (at most 46, within MAX_CHECK_SIZES); writes at most `capacity`, the smallest. */
int adversarial_sizes(unsigned int threads, uint64_t elements_per_block, unsigned int vector_width,
                      int index_bits, size_t *sizes, int capacity);

/** Sorts `all` in place, writes each size once, smallest first, to `sizes` (at most `capacity`): how many. */
int sorted_sizes(size_t *all, int count, size_t *sizes, int capacity);

/** What the CUDA runtime said when it found no GPU to use: the input of describe_no_gpu(). */
typedef struct gpu_absence {
    int driver_version;    /**< cudaDriverGetVersion(): 0 when no driver (libcuda.so.1) was found */
    int runtime_version;   /**< cudaRuntimeGetVersion(): the toolkit the program was built with */
    int driver_too_old;    /**< 1 if the runtime said cudaErrorInsufficientDriver */
    const char *error;     /**< the runtime's message, or NULL when it found no device */
    const char *visible;   /**< CUDA_VISIBLE_DEVICES, or NULL when not set */
} gpu_absence;

/** Says in one line what is missing when no GPU can be used, and what to do: no driver, an old one (the
 * runtime says the same of both), no GPU (or none CUDA_VISIBLE_DEVICES lets through), another error. */
void describe_no_gpu(const gpu_absence *a, char *text, size_t size);

#endif
