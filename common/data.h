/**
 * @file data.h
 * @brief Input data, the CPU reference and the verdict: whether a GPU result is right.
 * No CUDA, so it is unit-tested on any machine.
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
 * Fills `a` with elements first ... first + n - 1 of `seed`'s random sequence and returns
 * their cpu_reference(), summed as they are made. Ints in [-7, 7]: symmetric, so partial
 * sums wander around zero and cannot overflow int (2^32 of them: a deviation near 2^18);
 * floats and doubles in [0, 1): positive, so the sum's relative error means something.
 * A part of a larger input (one GPU's) holds what the whole input holds there.
 */
reference random_input(element_t *a, size_t n, uint64_t seed, uint64_t first);

/**
 * Writes n values of mixed magnitudes from `seed` to `v`: data on which the order of a float
 * sum shows in its result (--same-bits, build/tools/mixed_data, step 14's README). Most are
 * uniform in [0, 1); n/128 times two random places get a large value (2^20 to 2^31, 25
 * significant bits: a float rounds it, symmetrically, so the pair still cancels) and its
 * negative. A later pair may overwrite an earlier one's half: the large values left alone
 * (about 1%) set the exact sum. A partial sum holding a large value rounds each small one
 * added to it, so which meet which, the order, shows in many bits.
 */
void mixed_values(double *v, size_t n, uint64_t seed);

/** One line describing what random_input() draws, for the program's report. */
const char *random_data_description(void);

/**
 * Sums `a` on the CPU: exactly in 128-bit integers for int, with Neumaier's compensated
 * summation in long double for floats (far more accurate than any GPU order). From 2^22
 * elements up in parts fixed by n, on the host's cores, added in order: the same
 * reference on every machine. A NaN or infinite element gives IEEE addition's sum and is
 * recorded (reference.nonfinite).
 */
reference cpu_reference(const element_t *a, size_t n);

/**
 * 1, with one line in `why`, when a GPU sum of this input cannot be verified (the input's
 * fault): an int sum outside int; a NaN or infinite float; or positive (or negative)
 * elements adding up to over half the type's largest value. Every partial sum lies between
 * those two sums times (1 + u)^depth < e^(1/2) < 2 wherever error_bound() is finite, so
 * below half, no order can overflow. Else 0.
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
 * Height of one pass's summation tree over `count` values, `blocks` blocks of `threads`:
 * ceil(count / (blocks * threads)) serial additions per thread, then ceil(log2(threads))
 * tree levels (one more than needed). 0 blocks (unknown grid): count, one chain.
 */
uint64_t pass_depth(size_t count, size_t blocks, unsigned int threads);

/** Sum of pass_depth() over the passes of reduce_in_passes() for n inputs. */
uint64_t depth_of_passes(size_t n, unsigned int threads, size_t (*blocks_for)(size_t count));

/**
 * Accepted error of a float sum whose summation tree has height `depth`. Each rounded
 * addition returns (a + b)(1 + d), |d| <= u; an input through h additions is off by a
 * factor within gamma(h) = h u / (1 - h u) of 1 (Higham, Accuracy and Stability of
 * Numerical Algorithms, lemma 3.1), so
 *
 *     |computed - exact| <= gamma(depth) * sum_i |x_i|
 *
 * whatever the order: one bound serves every step. Plus the reference's own error (below
 * 2^-60 sum |x_i|). 0 for int; INFINITY when depth * u >= 1/2, where it says nothing.
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
 * New data for every call: before call `call` (1, 2, ...) of a timed run, or the second of
 * --check's random data, the element fresh_index() draws (a new place each call) becomes
 * fresh_value(), so that a kernel returning an earlier result fails. Never an --input file.
 */
size_t fresh_index(uint64_t seed, int call, size_t n);

/**
 * The new value of fresh_index()'s element (`old`), `ref` updated to match: an int moves by 1 to 7
 * either way, a float up by 4 times the accepted error at `depth`, plus 1 (none if that is infinite).
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
