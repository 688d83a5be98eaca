/**
 * @file diagnose.h
 * @brief From how a `--check` size failed to the kind of bug that pattern usually means.
 *
 * A wrong sum alone says little; which input went wrong says much more. The check
 * reduces random data and one-hot data (a single 1 at a chosen index), each twice in a
 * row, so a failure comes with where and when: a one-hot that came back 0 was never
 * added, 2 was added twice, a wrong second call means state survived the first launch.
 * diagnose() turns that into one line for the student of `make lab-check`. Pure C, no
 * CUDA, so every pattern is unit-tested on any machine.
 */
#ifndef REDUCE_DIAGNOSE_H
#define REDUCE_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    DIAG_INDEX_32BIT,   /**< wrong above 2^31 - 1 elements: a signed 32-bit index or count
                             overflows. An unsigned one breaks only from about 2^32 (n >=
                             2^32, or within a grid stride of it), which --check auto does
                             not try (16 GiB of ints a run); make test does, once
                             (tests/gpu.sh's "unsigned index" tests, 16.2 GiB of GPU memory free) */
    DIAG_NOT_WRITTEN,   /**< the result still holds the poison: nothing wrote it */
    DIAG_LOST_TAIL,     /**< a one-hot in the leftover after the whole blocks/vectors was lost */
    DIAG_LOST_ELEMENT,  /**< a one-hot elsewhere was lost: a gap in the ranges or the tree */
    DIAG_COUNTED_TWICE, /**< a one-hot came back 2 or more: an element read more than once */
    DIAG_GARBAGE,       /**< a one-hot came back neither 0 nor a count: values from outside */
    DIAG_RACE,          /**< random data wrong, every one-hot right: order-dependent, a race */
    DIAG_UNKNOWN        /**< wrong, but in no pattern this function knows */
} diagnosis;

/**
 * Names the likely bug behind a failed check in one line written to `text` (no newline),
 * starting with a short label ("lost tail: ...", "state not reset: ...") that scripts and
 * tests can grep, then what was seen and where to look. The patterns are tried from the
 * most specific (when it failed, then how large n was) to the least (random data only).
 */
diagnosis diagnose(const check_outcome *o, char *text, size_t size);

/** Bytes of the widest load a step makes: a 16-byte vector (int4, float4, double2). */
#define VECTOR_BYTES 16

/**
 * The sizes `--check auto` verifies for a step: those that break careless reductions,
 * from the step's geometry, so that no script or document lists them. Every step gets
 * 1, 2 and 3 (fewer elements than a warp, a vector or a block), 31, 32, 33 and 63 (around
 * a warp), both sides of every power of two a block or its elements per block might be
 * (256 ... 2048), 4099, both sides of 2^16, 2^20 + 3 and 2^20 + 7 (vector tails), 2^24,
 * 2^24 + 1 and 2^26; then, from its own numbers: `threads` and 2 x `threads`, each and
 * one either side, and 16 x `threads` + 1; `elements_per_block` and one either side, two
 * blocks but one and two blocks and one (the tail of a grid of two); one either side of
 * `elements_per_block` squared (the first pass leaves one block of partial sums for the
 * second, or one more: a third pass; only up to 2^27, memory a test can afford); one
 * either side of `vector_width`; and 2^31 + 5 where `index_bits` is 64 (above every
 * signed 32-bit index, and no multiple of a vector; 2^32: see DIAG_INDEX_32BIT), and for float
 * 2^30 + 5 too (4 GiB: a sum near 2^29, where each value in [0, 1) added to it keeps few of its
 * bits, and CUB's gpu_to_gpu mode of CCCL 3.5.0 was 3% off on an H100:
 * cub_reference/defect/README.md). A 0
 * (CUB: the library decides its grid) adds nothing of its own. Sorted, without repeats: at
 * most 46, so --check's list (MAX_CHECK_SIZES) holds them all. Writes at most `capacity` sizes (the smallest) to
 * `sizes` and returns how many.
 */
int adversarial_sizes(unsigned int threads, uint64_t elements_per_block, unsigned int vector_width,
                      int index_bits, size_t *sizes, int capacity);

/**
 * Sorts the `count` sizes of `all` (in place) and writes each once, smallest first, to
 * `sizes`, at most `capacity` of them; returns how many (adversarial_sizes(), --same-bits).
 */
int sorted_sizes(size_t *all, int count, size_t *sizes, int capacity);

/** What the CUDA runtime said when it found no GPU to use: the input of describe_no_gpu(). */
typedef struct gpu_absence {
    int driver_version;    /**< cudaDriverGetVersion(): 0 when no driver (libcuda.so.1) was found */
    int runtime_version;   /**< cudaRuntimeGetVersion(): the toolkit the program was built with */
    int driver_too_old;    /**< 1 if the runtime said cudaErrorInsufficientDriver */
    const char *error;     /**< the runtime's message, or NULL when it found no device */
    const char *visible;   /**< CUDA_VISIBLE_DEVICES, or NULL when not set */
} gpu_absence;

/**
 * Says in one line what is missing when no GPU can be used, and what to do: no driver at
 * all, a driver older than the toolkit, no GPU (or none that CUDA_VISIBLE_DEVICES lets
 * through), or another error. The runtime alone says "CUDA driver version is insufficient
 * for CUDA runtime version" both when the driver is too old and when there is none, which
 * sends a student without a driver to update one; cudaDriverGetVersion() tells them apart.
 */
void describe_no_gpu(const gpu_absence *a, char *text, size_t size);

#ifdef __cplusplus
}
#endif

#endif
