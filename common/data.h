/** @file data.h
 * @brief Input data, the CPU reference and the verdict on a GPU result; no CUDA, unit-tested anywhere. */
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

/** Fills `a` with elements first ... first + n - 1 of `seed`'s sequence (a GPU's part as in the whole);
 * returns their cpu_reference(). Ints in [-7, 7]: partial sums stay near zero, never overflow; floats in
 * [0, 1): positive, so relative error means something. */
reference random_input(element_t *a, size_t n, uint64_t seed, uint64_t first);

/** n values from `seed` on which a float sum's order shows (--same-bits, mixed_data): uniform in [0, 1),
 * and n/128 pairs of a large value (2^20 to 2^31) and its negative, which round the small ones added. */
void mixed_values(double *v, size_t n, uint64_t seed);

/** One line describing what random_input() draws, for the program's report. */
const char *random_data_description(void);

/** Sums `a` on the CPU: exactly in 128 bits for int, Neumaier-compensated in long double for floats;
 * in parts fixed by n on the host's cores, so the same on every machine; a NaN or infinity recorded. */
reference cpu_reference(const element_t *a, size_t n);

/** 1, with one line in `why`, when the input's GPU sum cannot be verified: an int sum outside int, a NaN
 * or infinity, or positives (negatives) over half the largest value; below half no order overflows, as
 * (1 + u)^depth < 2 wherever error_bound() is finite. */
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

/** Height of one pass's tree over `count` values: ceil(count / (blocks * threads)) serial additions,
 * then ceil(log2(threads)) levels. 0 blocks (unknown grid): count, one chain. */
uint64_t pass_depth(size_t count, size_t blocks, unsigned int threads);

/** Sum of pass_depth() over the passes of reduce_in_passes() for n inputs. */
uint64_t depth_of_passes(size_t n, unsigned int threads, size_t (*blocks_for)(size_t count));

/** Accepted error of a float sum whose tree has height `depth`: gamma(depth) sum |x_i|, gamma(h) =
 * h u / (1 - h u) (Higham, Accuracy and Stability of Numerical Algorithms, lemma 3.1) in any order,
 * plus the reference's own 2^-60 sum |x_i|. 0 for int; INFINITY when depth * u >= 1/2. */
double error_bound(const reference *ref, uint64_t depth);

/** Accepted error of a binned, reproducible sum (Ahrens, Demmel and Nguyen, ACM TOMS 46(3), 2020; CUB's
 * gpu_to_gpu): n 2^(W(1-K)) max|x| (each deposit rounds below the last of K folds of W bits) + 7 u |sum|
 * (the bins' final rounding) + the reference's error. 0 for int. */
double binned_error_bound(const reference *ref, size_t n, int bin_width, int folds);

/** Compares a GPU result with the reference: exact for int, within error_bound() else. */
verdict check_sum(element_t got, const reference *ref, uint64_t depth);

/** check_sum() against a bound given (a step's own, step.h: error_bound). */
verdict check_within(element_t got, const reference *ref, double bound);

/** Before call `call` (1, 2, ...) of random data, the element at fresh_index() becomes fresh_value(),
 * so that a kernel returning an earlier result fails. */
size_t fresh_index(uint64_t seed, int call, size_t n);

/** `old`'s new value, `ref` updated: an int moves by 1 to 7, a float up by 4 error_bound()s + 1 (not if infinite). */
element_t fresh_value(uint64_t seed, int call, element_t old, reference *ref, uint64_t depth);

/** Writes `value` as the program prints it (all significant digits for floats). */
void format_element(char *buf, size_t size, element_t value);

/** Writes the reference as the program prints it (exact for int, 20 digits for floats). */
void format_reference(char *buf, size_t size, const reference *ref);

#ifdef __cplusplus
}
#endif

#endif
