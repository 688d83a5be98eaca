/**
 * @file data.h
 * @brief Input data, the CPU reference and the verdict: the pure logic that decides
 * whether a GPU result is right. No CUDA here, so it is unit-tested on any machine.
 */
#ifndef REDUCE_DATA_H
#define REDUCE_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "element.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Random ints are drawn from [-RANDOM_INT_RANGE, RANDOM_INT_RANGE]. */
#define RANDOM_INT_RANGE 7

/** The exact (int) or high-precision (float, double) sum of an input, from the CPU. */
typedef struct reference {
    long long exact;       /**< int builds: the exact sum, held at LLONG_MIN/MAX beyond 64 bits */
    int fits_element;      /**< int builds: 1 if the exact sum is representable as element_t */
    long double sum;       /**< the sum (compensated, in long double, for floats) */
    long double abs_sum;   /**< sum of |x|: what the float error bound scales with */
    long double max_abs;   /**< the largest |x| (at least): what a binned sum's bound scales with */
    int nonfinite;         /**< float builds: 1 if an element is NaN or infinite */
    size_t nonfinite_index;/**< the first such element (its index in the array summed) */
    double nonfinite_value;/**< its value: nan, inf or -inf */
} reference;

/**
 * Fills `a` with elements first ... first + n - 1 of a reproducible random sequence drawn
 * from `seed`, and returns their cpu_reference(), summed as they are made (the data read
 * once). Ints in [-7, 7] (symmetric, so partial sums wander around zero instead of growing
 * with n and can't overflow int in practice: the sum of 2^32 of them has a standard
 * deviation near 2^18), floats and doubles in [0, 1) (positive, so the relative error of
 * the sum means something). One part of a larger input (on each of several GPUs, say)
 * holds the values the whole input would hold there, whatever the number of parts.
 */
reference random_input(element_t *a, size_t n, uint64_t seed, uint64_t first);

/**
 * Writes n values of mixed magnitudes from `seed` to `v`: data on which the order of a float
 * sum shows in its result (--same-bits, build/tools/mixed_data for --input, step 14's README).
 * Most values are small, uniform in [0, 1). n/128 times, two places drawn at random get a
 * large value and its negative (magnitude from 2^20 to just under 2^31, with 25 significant
 * bits, one more than a float holds: a float build rounds each, and rounding to nearest is
 * symmetric in sign, so the pair still cancels exactly; a double holds them exactly). The places
 * are drawn with replacement, so a later pair can overwrite one value of an earlier one:
 * about 1% of the large values are left without their negative (2,021 of 260,103 at
 * n = 2^24+7, seed 1), and those set the exact sum. A partial sum that holds a large value
 * rounds every small value added to it to the large value's last bit; which small values
 * meet which large ones depends on the order of the additions, so two orders give results
 * that differ in many more bits than on uniform data. The same values on every machine.
 */
void mixed_values(double *v, size_t n, uint64_t seed);

/** One line describing what random_input() draws, for the program's report. */
const char *random_data_description(void);

/**
 * Sums `a` on the CPU: exactly in 128-bit integers for int (no n the machine can hold
 * overflows them), with Neumaier's compensated summation in long double for floats, so
 * the reference is far more accurate than any GPU order of additions in element_t.
 * From 2^22 elements up it sums in parts fixed by n, on the host's cores, and adds the
 * parts' sums in order, compensated too: the same reference on every machine.
 * Right for every input: a NaN or infinite element makes the sum what IEEE addition
 * gives (inf, or NaN for inf + -inf or a NaN) and is recorded, never a NaN out of the
 * compensation itself; finite float or double elements never overflow a long double.
 */
reference cpu_reference(const element_t *a, size_t n);

/**
 * Whether a GPU sum of this input can be verified at all; the input's fault, not the
 * kernel's, when it cannot. Writes one line saying why and returns 1, or returns 0:
 *  - int: the exact sum does not fit in int, so the GPU's int sum wraps around;
 *  - float, double: an element is NaN or infinite (there is no right answer to compare);
 *  - float, double: the positive (or the negative) elements add up to more than half the
 *    type's largest value. Every partial sum, in any order, lies between the sum of the
 *    negatives and that of the positives, times the rounding growth (1 + u)^depth, which
 *    is below e^(1/2) < 2 wherever error_bound() says anything (depth * u < 1/2): so
 *    below half the largest value, no order of additions can overflow to infinity.
 */
int reference_problem(const reference *ref, char *why, size_t size);

/** The reference for an input that is all zeros but one element equal to `value`. */
reference one_hot_reference(element_t value);

/** The outcome of comparing a GPU result with the reference. */
typedef struct verdict {
    int ok;               /**< 1 if the result is exact (int) or within the bound (float) */
    double error;         /**< |got - reference| */
    double bound;         /**< accepted error: 0 for int */
    double rel_error;     /**< error / |reference| (0 if the reference is 0 and got too) */
} verdict;

/**
 * Height of one pass's summation tree: `count` values, `blocks` blocks of `threads`
 * threads. Each thread adds at most ceil(count / (blocks * threads)) values one after
 * another (a grid-stride loop, or the two of "add during load"), then the block combines
 * its threads in a tree of ceil(log2(threads)) levels. The sum of the two bounds the
 * additions any one input passes through in this pass (one more than needed, for safety).
 * No grid (0 blocks: the step could not tell) gives count, one chain through them all.
 */
uint64_t pass_depth(size_t count, size_t blocks, unsigned int threads);

/** Sum of pass_depth() over the passes of reduce_in_passes() for n inputs. */
uint64_t depth_of_passes(size_t n, unsigned int threads, size_t (*blocks_for)(size_t count));

/**
 * Accepted error of a float sum whose summation tree has height `depth`.
 *
 * Derivation. Each rounded addition returns (a + b)(1 + d) with |d| <= u, the unit
 * roundoff. An input x_i that passes through h_i additions on its way to the result is
 * therefore multiplied by a product of h_i factors (1 + d), which differs from 1 by at
 * most gamma(h_i) = h_i u / (1 - h_i u) (Higham, Accuracy and Stability of Numerical
 * Algorithms, lemma 3.1). Summing over the inputs:
 *
 *     |computed - exact| <= sum_i gamma(h_i) |x_i| <= gamma(depth) * sum_i |x_i|
 *
 * where depth = max h_i is the height of the tree, which the step knows (elements each
 * thread adds serially plus the tree levels, for every pass). The order of the additions
 * does not matter, which is why one bound serves every step. We add the reference's own
 * error (compensated summation in long double: below 2^-60 sum |x_i| for any n we can
 * allocate). Returns 0 for int (exact comparison), and INFINITY when depth * u >= 1/2,
 * where the bound says nothing.
 */
double error_bound(const reference *ref, uint64_t depth);

/**
 * Accepted error of a sum made through a binned, reproducible accumulator (Ahrens, Demmel and
 * Nguyen, "Algorithms for Efficient Reproducible Floating Point Summation", ACM TOMS 46(3),
 * 2020; CUB's gpu_to_gpu mode): n 2^(W(1-K)) max|x| + 7 u |sum|, for bins W bits wide and K
 * folds. Each deposit keeps the value's bits down to the last fold's and rounds away the
 * rest, so the first term grows with n and the largest element, not with the order; the
 * second is the final rounding of the bins to one value. Plus the reference's own error,
 * as in error_bound(). 0 for int.
 */
double binned_error_bound(const reference *ref, size_t n, int bin_width, int folds);

/** Compares a GPU result with the reference: exact for int, within error_bound() else. */
verdict check_sum(element_t got, const reference *ref, uint64_t depth);

/** check_sum() against a bound given (a step's own, step.h: error_bound). */
verdict check_within(element_t got, const reference *ref, double bound);

/**
 * New data for every call. Before call `call` (1, 2, ...) of a timed run, or before the
 * second call of --check's random data, the harness changes one element of the input:
 * fresh_index() says which (drawn from `seed` and `call`: a new place each call, that no
 * kernel can know without reading every element), fresh_value() its new value. The sum
 * then differs from the previous call's by more than twice the accepted error, so a
 * kernel that returns an earlier result (kept in a __device__ variable, say) fails, and
 * one that reads every element cannot tell. Random data only, never an --input file.
 */
size_t fresh_index(uint64_t seed, int call, size_t n);

/**
 * The new value of the element fresh_index() chose, which held `old`, and `ref` updated
 * to stay the exact (int) or compensated (float) sum of the changed input: an int moves by
 * 1 to 7 either way, a float up by 4 times the accepted error of `ref` at `depth`, plus 1.
 * Returns `old` unchanged when the bound is infinite (no result could be told wrong).
 */
element_t fresh_value(uint64_t seed, int call, element_t old, reference *ref, uint64_t depth);

/** Writes `value` as the program prints it (all significant digits for floats). */
void format_element(char *buf, size_t size, element_t value);

/** Writes the reference as the program prints it (exact for int, 20 digits for floats). */
void format_reference(char *buf, size_t size, const reference *ref);

#ifdef __cplusplus
}
#endif

#endif
