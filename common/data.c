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
#include <stdio.h>

/** SplitMix64: a tiny, fast, well-mixed generator; the same seed gives the same data. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/** fill_random_from() on one core: element first + i of the sequence into a[i]. */
static void fill_serial(element_t *a, size_t n, uint64_t seed, uint64_t first)
{
    uint64_t state = seed + first * 0x9E3779B97F4A7C15ull;   /* SplitMix64 skips ahead by adding */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = splitmix64(&state);
#if ELEMENT_IS_INTEGER
        a[i] = (element_t)(r % (2 * RANDOM_INT_RANGE + 1)) - RANDOM_INT_RANGE;
#elif defined(ELEMENT_DOUBLE)
        a[i] = (element_t)(r >> 11) * 0x1.0p-53;   /* 53 random bits: uniform in [0, 1) */
#else
        a[i] = (element_t)(r >> 40) * 0x1.0p-24f;  /* 24 random bits: uniform in [0, 1) */
#endif
    }
}

/**
 * A running sum of elements: exact in 128-bit integers for int (no n the machine can hold
 * overflows them), Neumaier-compensated in long double for floats, with the first element
 * that is NaN or infinite.
 */
typedef struct accumulator {
#if ELEMENT_IS_INTEGER
    __int128 sum, abs_sum;
#else
    long double sum, carry, abs_sum;
#endif
    int nonfinite;
    size_t nonfinite_index;
    double nonfinite_value;
} accumulator;

/**
 * One part of a large input, made or summed on its own. Making the data and summing it is
 * the CPU's work in every --check and timed run: make test's --check 2^31+5 of ints (the
 * largest size of --check auto, for every 64-bit step; the unsigned-index test's run, in
 * test-log/times.txt) took 13.6 s on the H100's host on one core, 4.4 s in parts on its 16
 * (2026-11-26). The parts depend on n alone, and a part's elements are the same wherever
 * it starts (fill_serial() skips ahead), so the data and the reference are the same on
 * every machine, whatever its number of cores.
 */
typedef struct part {
    element_t *a;        /**< the part's first element */
    size_t n;            /**< its element count */
    uint64_t seed;       /**< fill: the seed of the whole input */
    uint64_t first;      /**< the index of a[0] in the whole input */
    accumulator acc;     /**< sum: the part's sum */
} part;

/** Inputs from this size up are split: below it a thread costs more than it saves. */
#define PART_MIN_N ((size_t)1 << 22)
/** At most this many parts, each PART_MIN_N / 2 long or more (the last one may be up to
 *  MOST_PARTS - 1 elements short of it). */
#define MOST_PARTS 64
/** At most this many threads, however many cores the host has. */
#define MOST_THREADS 16

/** Splits a[0 .. n-1] into parts (their number depends on n alone); returns the number. */
static int split(element_t *a, size_t n, part parts[MOST_PARTS])
{
    size_t count = n < PART_MIN_N ? 1 : n / (PART_MIN_N / 2);
    count = count > MOST_PARTS ? MOST_PARTS : count;
    size_t length = (n + count - 1) / count;   /* so every part starts below n */
    for (size_t i = 0; i < count; i++)
        parts[i] = (part){ .a = a + i * length, .first = i * length,
                           .n = n - i * length < length ? n - i * length : length };
    return (int)count;
}

/** A thread's share of run_parts(): parts thread, thread + threads, ... */
typedef struct share {
    void (*work)(part *);
    part *parts;
    int count, thread, threads;
} share;

static void *run_share(void *arg)
{
    share *s = arg;
    for (int i = s->thread; i < s->count; i += s->threads)
        s->work(&s->parts[i]);
    return NULL;
}

/** Runs work() on every part, on as many threads as this process may use cores (this one
 *  among them: a process bound to one core runs one); a share whose thread cannot start
 *  is done here. */
static void run_parts(void (*work)(part *), part *parts, int count)
{
    cpu_set_t allowed;
    int cores = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
    int threads = cores < 1 ? 1 : cores > MOST_THREADS ? MOST_THREADS : cores;
    threads = threads > count ? count : threads;
    pthread_t ids[MOST_THREADS];
    share shares[MOST_THREADS];
    int started[MOST_THREADS] = { 0 };
    for (int t = 0; t < threads; t++) {
        shares[t] = (share){ .work = work, .parts = parts, .count = count, .thread = t, .threads = threads };
        started[t] = t > 0 && pthread_create(&ids[t], NULL, run_share, &shares[t]) == 0;
    }
    for (int t = 0; t < threads; t++) {
        if (started[t])
            pthread_join(ids[t], NULL);
        else
            run_share(&shares[t]);
    }
}

static void fill_part(part *p)
{
    fill_serial(p->a, p->n, p->seed, p->first);
}

void fill_random(element_t *a, size_t n, uint64_t seed)
{
    fill_random_from(a, n, seed, 0);
}

void fill_random_from(element_t *a, size_t n, uint64_t seed, uint64_t first)
{
    part parts[MOST_PARTS];
    int count = split(a, n, parts);
    for (int i = 0; i < count; i++) {
        parts[i].seed = seed;
        parts[i].first += first;
    }
    run_parts(fill_part, parts, count);
}

const char *random_data_description(void)
{
#if ELEMENT_IS_INTEGER
    return "random in [-7, 7]";
#else
    return "random in [0, 1)";
#endif
}

#if !ELEMENT_IS_INTEGER
/**
 * Adds x to a Neumaier-compensated sum (sum, carry): the carry keeps the lost bits. Once
 * the sum is not finite (an infinite or NaN x) the carry is left alone: (sum - t) would
 * be inf - inf, a NaN that no later addition removes.
 */
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

/** Adds a[0 .. n-1], element first + i of the whole input in a[i], to acc. */
static void accumulate(accumulator *acc, const element_t *a, size_t n, size_t first)
{
    (void)first;   /* int builds: no element can be NaN */
    for (size_t i = 0; i < n; i++) {
#if ELEMENT_IS_INTEGER
        acc->sum += a[i];
        acc->abs_sum += (a[i] < 0) ? -(__int128)a[i] : a[i];
#else
        if (!isfinite(a[i]) && !acc->nonfinite) {
            acc->nonfinite = 1;
            acc->nonfinite_index = first + i;
            acc->nonfinite_value = (double)a[i];
        }
        neumaier_add(&acc->sum, &acc->carry, (long double)a[i]);
        acc->abs_sum += fabsl((long double)a[i]);
#endif
    }
}

static void sum_part(part *p)
{
    p->acc = (accumulator){ 0 };
    accumulate(&p->acc, p->a, p->n, p->first);
}

reference cpu_reference(const element_t *a, size_t n)
{
    part parts[MOST_PARTS];
    int count = split((element_t *)a, n, parts);
    run_parts(sum_part, parts, count);
    /* the parts in order: the first non-finite element is the first part's that has one */
    accumulator total = parts[0].acc;
    for (int i = 1; i < count; i++) {
        const accumulator *p = &parts[i].acc;
#if ELEMENT_IS_INTEGER
        total.sum += p->sum;
        total.abs_sum += p->abs_sum;
#else
        neumaier_add(&total.sum, &total.carry, p->sum);   /* the parts' sums, compensated too */
        total.carry += p->carry;
        total.abs_sum += p->abs_sum;
        if (p->nonfinite && !total.nonfinite) {
            total.nonfinite = 1;
            total.nonfinite_index = p->nonfinite_index;
            total.nonfinite_value = p->nonfinite_value;
        }
#endif
    }
    reference ref = { .fits_element = 1 };
#if ELEMENT_IS_INTEGER
    ref.exact = total.sum > LLONG_MAX ? LLONG_MAX : total.sum < LLONG_MIN ? LLONG_MIN : (long long)total.sum;
    ref.fits_element = (total.sum >= INT_MIN && total.sum <= INT_MAX);
    ref.sum = (long double)total.sum;
    ref.abs_sum = (long double)total.abs_sum;
#else
    ref.sum = total.sum + total.carry;
    ref.abs_sum = total.abs_sum;
    ref.nonfinite = total.nonfinite;
    ref.nonfinite_index = total.nonfinite_index;
    ref.nonfinite_value = total.nonfinite_value;
#endif
    return ref;
}

reference one_hot_reference(element_t value)
{
    reference ref = { .fits_element = 1, .sum = (long double)value, .abs_sum = fabsl((long double)value) };
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

verdict check_sum(element_t got, const reference *ref, uint64_t depth)
{
    verdict v;
    long double diff = fabsl((long double)got - ref->sum);
    v.error = (double)diff;
    v.bound = error_bound(ref, depth);
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
    return value;
}
