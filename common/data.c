/**
 * @file data.c
 * @brief Input data, CPU reference and verification (see data.h).
 */
#define _GNU_SOURCE   /* sched_getaffinity() */
#include "data.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

/** SplitMix64: a tiny, fast, well-mixed generator; the same seed gives the same data. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void mixed_values(double *v, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        v[i] = (double)(splitmix64(&state) >> 11) * 0x1.0p-53;
    for (size_t pair = 0; pair < n / 128; pair++) {
        uint64_t r = splitmix64(&state);
        size_t plus = splitmix64(&state) % n, minus = splitmix64(&state) % n;
        if (plus == minus)
            continue;
        double large = ldexp(1.0 + (double)(r >> 40) * 0x1.0p-24, 20 + (int)(r % 11));
        v[plus] = large;
        v[minus] = -large;
    }
}

/** A running sum of elements, as cpu_reference() keeps it (data.h). */
typedef struct accumulator {
#if ELEMENT_IS_INTEGER
    __int128 sum, abs_sum;
#else
    long double sum, carry, abs_sum;
#endif
    long double max_abs;   /* the largest |x|, for a binned sum's bound (binned_error_bound()) */
} accumulator;

#if !ELEMENT_IS_INTEGER
_Static_assert(LDBL_MAX_EXP >= 16384 && LDBL_MANT_DIG >= 64, "the float reference needs a long double of "
               "x86-64's or aarch64's range and precision: 2^64 doubles sum below its largest value");
/** Adds x to a Neumaier-compensated sum; a sum not finite leaves the carry, which would turn NaN. */
static void neumaier_add(long double *sum, long double *carry, long double x)
{
    long double t = *sum + x;
    if (isfinite(t)) {
        if (fabsl(*sum) >= fabsl(x))
            *carry += (*sum - t) + x;
        else
            *carry += (x - t) + *sum;
    }
    *sum = t;
}
#endif

static void accumulate(accumulator *acc, const element_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
#if ELEMENT_IS_INTEGER
        acc->sum += a[i];
        acc->abs_sum += (a[i] < 0) ? -(__int128)a[i] : a[i];
#else
        neumaier_add(&acc->sum, &acc->carry, (long double)a[i]);
        acc->abs_sum += fabsl((long double)a[i]);
#endif
        acc->max_abs = fmaxl(acc->max_abs, fabsl((long double)a[i]));
    }
}

/**
 * Element first + i of seed's sequence into a[i], for i < n, on one core, and their sum into
 * `acc`: each is an integer (a float's or double's times 2^-24 or 2^-53), added as one, exactly
 * but for a double chunk's one rounding to long double; on one core 2 to 5 times as fast as
 * accumulate()'s compensated long doubles, which --input's data needs.
 */
static void fill_serial(element_t *a, size_t n, uint64_t seed, uint64_t first, accumulator *acc)
{
    uint64_t state = seed + first * 0x9E3779B97F4A7C15ull;   /* SplitMix64 skips ahead by adding */
#if ELEMENT_IS_INTEGER
    long long sum = 0, abs_sum = 0, most = 0;
    for (size_t i = 0; i < n; i++) {
        long long x = (long long)(splitmix64(&state) % (2 * RANDOM_INT_RANGE + 1)) - RANDOM_INT_RANGE;
        a[i] = (element_t)x;
        sum += x;
        x = x < 0 ? -x : x;
        abs_sum += x;
        most = x > most ? x : most;
    }
    acc->sum += sum;
    acc->abs_sum += abs_sum;
    acc->max_abs = fmaxl(acc->max_abs, (long double)most);
#else
#if defined(ELEMENT_DOUBLE)
    const int bits = DBL_MANT_DIG;   /* random bits: uniform in [0, 1) */
#else
    const int bits = FLT_MANT_DIG;
#endif
    const long double unit = ldexpl(1.0L, -bits);
    unsigned __int128 units = 0;   /* below FILL_CHUNK * 2^53 */
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = splitmix64(&state) >> (64 - bits);
        a[i] = (element_t)k * (element_t)unit;
        units += k;
        most = k > most ? k : most;
    }
    long double sum = (long double)units * unit;   /* exact for floats; doubles: within 2^-64 */
    neumaier_add(&acc->sum, &acc->carry, sum);
    acc->abs_sum += sum;
    acc->max_abs = fmaxl(acc->max_abs, (long double)most * unit);
#endif
}

/** Inputs from this size up are split: below it a thread costs more than it saves. */
#define PART_MIN_N ((size_t)1 << 22)
#define MOST_PARTS 64

/**
 * A large input's parts, made and summed on the host's cores; they depend on n alone, so every
 * machine has the same result.
 */
typedef struct parts {
    const element_t *in;         /**< the input summed */
    element_t *fill;             /**< the same input, to be filled first from seed; NULL: summed only */
    size_t n;                    /**< its element count */
    int count;                   /**< its number of parts, n * i / count the first of part i */
    uint64_t seed, first;        /**< fill: the seed, and the index of fill[0] in its sequence */
    atomic_int next;             /**< the next part a thread takes */
    accumulator sums[MOST_PARTS];/**< each part's sum */
} parts;

/** At most this many threads, however many cores the host has. */
#define MOST_THREADS 16
/** Elements filled, then summed, at a time: they are still in the core's cache. */
#define FILL_CHUNK 4096

/** Takes the next part until none is left: fills it (when asked) and sums it. */
static void *work_on_parts(void *arg)
{
    parts *p = arg;
    for (int i; (i = atomic_fetch_add(&p->next, 1)) < p->count;) {
        size_t begin = (size_t)((unsigned __int128)p->n * i / p->count);
        size_t end = (size_t)((unsigned __int128)p->n * (i + 1) / p->count);
        accumulator acc = { 0 };
        for (size_t c = begin; c < end; c += FILL_CHUNK) {
            size_t length = end - c < FILL_CHUNK ? end - c : FILL_CHUNK;
            if (p->fill)
                fill_serial(p->fill + c, length, p->seed, p->first + c, &acc);
            else
                accumulate(&acc, p->in + c, length);
        }
        p->sums[i] = acc;
    }
    return NULL;
}

/** Fills `fill` (NULL, or `a`) and sums `a` in parts on up to one thread a core; their sums added in order. */
static reference in_parts(const element_t *a, element_t *fill, size_t n, uint64_t seed, uint64_t first)
{
    parts p = { .in = a, .fill = fill, .n = n, .count = 1, .seed = seed, .first = first };
    if (n >= PART_MIN_N)   /* each part PART_MIN_N / 2 long or more */
        p.count = n / (PART_MIN_N / 2) < MOST_PARTS ? (int)(n / (PART_MIN_N / 2)) : MOST_PARTS;
    cpu_set_t allowed;
    int cores = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
    int threads = cores < 1 ? 1 : cores > MOST_THREADS ? MOST_THREADS : cores;
    threads = threads > p.count ? p.count : threads;
    pthread_t ids[MOST_THREADS];
    int started[MOST_THREADS] = { 0 };
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&ids[t], NULL, work_on_parts, &p) == 0;
    work_on_parts(&p);
    for (int t = 1; t < threads; t++)
        if (started[t])
            pthread_join(ids[t], NULL);

    accumulator total = p.sums[0];
    for (int i = 1; i < p.count; i++) {
#if ELEMENT_IS_INTEGER
        total.sum += p.sums[i].sum;
#else
        neumaier_add(&total.sum, &total.carry, p.sums[i].sum);   /* the parts' sums, compensated too */
        total.carry += p.sums[i].carry;
#endif
        total.abs_sum += p.sums[i].abs_sum;
        total.max_abs = fmaxl(total.max_abs, p.sums[i].max_abs);
    }
    reference ref = { .fits_element = 1, .max_abs = total.max_abs };
#if ELEMENT_IS_INTEGER
    ref.exact = total.sum > LLONG_MAX ? LLONG_MAX : total.sum < LLONG_MIN ? LLONG_MIN : (long long)total.sum;
    ref.fits_element = (total.sum >= INT_MIN && total.sum <= INT_MAX);
    ref.sum = (long double)total.sum;
    ref.abs_sum = (long double)total.abs_sum;
#else
    ref.sum = total.sum + total.carry;
    ref.abs_sum = total.abs_sum;
    /* finite elements never overflow a long double (the assertion at the top) */
    for (size_t i = 0; !isfinite(ref.sum) && !ref.nonfinite && i < n; i++)
        if (!isfinite(a[i])) {
            ref.nonfinite = 1;
            ref.nonfinite_index = i;
            ref.nonfinite_value = (double)a[i];
        }
#endif
    return ref;
}

reference random_input(element_t *a, size_t n, uint64_t seed, uint64_t first)
{
    return in_parts(a, a, n, seed, first);
}

reference cpu_reference(const element_t *a, size_t n)
{
    return in_parts(a, NULL, n, 0, 0);
}

const char *random_data_description(void)
{
#if ELEMENT_IS_INTEGER
    return "random in [-7, 7]";
#else
    return "random in [0, 1)";
#endif
}

reference one_hot_reference(element_t value)
{
    reference ref = { .fits_element = 1, .sum = (long double)value, .abs_sum = fabsl((long double)value),
                      .max_abs = fabsl((long double)value) };
#if ELEMENT_IS_INTEGER
    ref.exact = value;
#endif
    return ref;
}

int reference_problem(const reference *ref, char *why, size_t size)
{
#if ELEMENT_IS_INTEGER
    if (!ref->fits_element) {
        snprintf(why, size, "its exact sum is %.0Lf, outside int's range %d .. %d, so the GPU's int sum "
                 "would wrap around; give values whose sum fits in int", ref->sum, INT_MIN, INT_MAX);
        return 1;
    }
#else
#ifdef ELEMENT_DOUBLE
    const double largest = DBL_MAX;
#else
    const double largest = FLT_MAX;
#endif
    if (ref->nonfinite) {
        snprintf(why, size, "element %zu is %g, and a sum with NaN or infinity has no value to verify; "
                 "give finite values", ref->nonfinite_index, ref->nonfinite_value);
        return 1;
    }
    long double positives = (ref->abs_sum + ref->sum) / 2, negatives = (ref->abs_sum - ref->sum) / 2;
    if (positives > largest / 2 || negatives > largest / 2) {
        snprintf(why, size, "its %s values add up to %Lg, over half of %s's largest value %g, so a partial "
                 "sum may overflow to infinity; give smaller values", positives >= negatives ? "positive" :
                 "negative", positives >= negatives ? positives : -negatives, ELEMENT_NAME, largest);
        return 1;
    }
#endif
    return 0;
}

/** ceil(log2(x)) for x >= 1: the levels of a binary tree over x leaves. */
static unsigned int ceil_log2(uint64_t x)
{
    unsigned int levels = 0;
    while (((uint64_t)1 << levels) < x)
        levels++;
    return levels;
}

uint64_t pass_depth(size_t count, size_t blocks, unsigned int threads)
{
    uint64_t total_threads = (uint64_t)blocks * threads;
    if (total_threads == 0)
        return count;   /* no grid known (blocks_for() said 0): one chain through every element */
    uint64_t serial = (count + total_threads - 1) / total_threads;
    return serial + ceil_log2(threads);
}

uint64_t depth_of_passes(size_t n, unsigned int threads, size_t (*blocks_for)(size_t count))
{
    uint64_t depth = 0;
    size_t count = n;
    do {
        size_t blocks = blocks_for(count);
        depth += pass_depth(count, blocks, threads);
        count = blocks;   /* 0 (the step could not tell) ends it too */
    } while (count > 1);
    return depth;
}

double error_bound(const reference *ref, uint64_t depth)
{
    if (ELEMENT_IS_INTEGER)
        return 0.0;
    double hu = (double)depth * ELEMENT_UNIT_ROUNDOFF;
    if (hu >= 0.5)
        return INFINITY;
    double gamma = hu / (1.0 - hu);
    return (double)(gamma * ref->abs_sum + ldexpl(ref->abs_sum, -60));
}

double binned_error_bound(const reference *ref, size_t n, int bin_width, int folds)
{
    if (ELEMENT_IS_INTEGER)
        return 0.0;
    long double deposits = ldexpl((long double)n * ref->max_abs, bin_width * (1 - folds));
    return (double)(deposits + 7 * ELEMENT_UNIT_ROUNDOFF * fabsl(ref->sum) + ldexpl(ref->abs_sum, -60));
}

verdict check_sum(element_t got, const reference *ref, uint64_t depth)
{
    return check_within(got, ref, error_bound(ref, depth));
}

verdict check_within(element_t got, const reference *ref, double bound)
{
    verdict v;
    long double diff = fabsl((long double)got - ref->sum);
    v.error = (double)diff;
    v.bound = bound;
    v.rel_error = (ref->sum != 0.0L) ? (double)(diff / fabsl(ref->sum)) : (diff == 0.0L ? 0.0 : INFINITY);
#if ELEMENT_IS_INTEGER
    v.ok = ref->fits_element && (long long)got == ref->exact;
#else
    v.ok = (diff <= (long double)v.bound);   /* false for NaN */
#endif
    return v;
}

void format_element(char *buf, size_t size, element_t value)
{
#if ELEMENT_IS_INTEGER
    snprintf(buf, size, "%d", value);
#elif defined(ELEMENT_DOUBLE)
    snprintf(buf, size, "%.17g", value);
#else
    snprintf(buf, size, "%.9g", (double)value);
#endif
}

void format_reference(char *buf, size_t size, const reference *ref)
{
#if ELEMENT_IS_INTEGER
    snprintf(buf, size, "%lld", ref->exact);
#else
    snprintf(buf, size, "%.20Lg", ref->sum);
#endif
}

/** One SplitMix64 draw of the pair (seed, k): fresh_index() and fresh_value() draw from it. */
static uint64_t draw(uint64_t seed, uint64_t k)
{
    uint64_t state = seed ^ (k * 0xD1B54A32D192ED03ull);
    return splitmix64(&state);
}

size_t fresh_index(uint64_t seed, int call, size_t n)
{
    return n > 0 ? (size_t)(draw(seed, 2 * (uint64_t)call) % n) : 0;
}

element_t fresh_value(uint64_t seed, int call, element_t old, reference *ref, uint64_t depth)
{
    uint64_t r = draw(seed, 2 * (uint64_t)call + 1);
#if ELEMENT_IS_INTEGER
    (void)depth;
    int delta = 1 + (int)(r % RANDOM_INT_RANGE);   /* 1 .. 7, never 0: the sum always moves */
    if ((r >> 32) & 1)
        delta = -delta;
    if ((delta > 0 && old > INT_MAX - RANDOM_INT_RANGE) || (delta < 0 && old < INT_MIN + RANDOM_INT_RANGE))
        delta = -delta;
    element_t value = old + delta;
    ref->exact += delta;
    ref->fits_element = (ref->exact >= INT_MIN && ref->exact <= INT_MAX);
    ref->sum = (long double)ref->exact;
    ref->abs_sum += fabsl((long double)value) - fabsl((long double)old);
#else
    double bound = error_bound(ref, depth);
    if (!isfinite(bound))
        return old;
    /* a stale result is off by the change, less its own error: more than the new bound */
    element_t value = (element_t)((double)old + 4.0 * bound + 1.0 + (double)(r >> 11) * 0x1.0p-53);
    ref->sum += (long double)value - (long double)old;
    ref->abs_sum += fabsl((long double)value) - fabsl((long double)old);
#endif
    ref->max_abs = fmaxl(ref->max_abs, fabsl((long double)value));   /* an upper bound: old may have been the largest */
    return value;
}
