/** @file diagnose.c
 * @brief The patterns of diagnose() (see diagnose.h). */
#include "diagnose.h"
#include "element.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/** 1 if index p lies in the last n % unit elements (past the last whole unit); unit 0: no. */
static int in_remainder(uint64_t n, uint64_t unit, uint64_t p)
{
    return unit > 1 && n % unit != 0 && p >= n - n % unit;
}

/** Writes the line that names diagnosis `d` to `text`, and returns `d`. */
__attribute__((format(printf, 4, 5)))
static diagnosis named(diagnosis d, char *text, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(text, size, format, args);
    va_end(args);
    return d;
}

/** "lost tail: ..." with the units (block, vector) the lost index lies past. */
static diagnosis lost_tail(const check_outcome *o, int block_tail, int vector_tail, char *text, size_t size)
{
    char block[160] = "", vector[160] = "";
    if (block_tail)
        snprintf(block, sizeof block, "past the last whole block of %llu elements (n %% %llu = %llu left over)",
                 (unsigned long long)o->per_block, (unsigned long long)o->per_block,
                 (unsigned long long)(o->n % o->per_block));
    if (vector_tail)
        snprintf(vector, sizeof vector,
                 "(in a step that loads 16-byte vectors) past the last whole 16-byte vector (n %% %u = %llu left over)",
                 o->vector_width, (unsigned long long)(o->n % o->vector_width));
    return named(DIAG_LOST_TAIL, text, size, "lost tail: the one-hot at index %llu of n = %llu was never added; it "
                 "lies %s%s%s: the code for the leftover elements (the tail) is missing or its bounds test is off "
                 "by one", (unsigned long long)o->one_hot_index, (unsigned long long)o->n, block,
                 block_tail && vector_tail ? " and " : "", vector);
}

diagnosis diagnose(const check_outcome *o, char *text, size_t size)
{
    unsigned long long n = o->n, p = o->one_hot_index;
    if (o->random_wrong_call == 0 && o->one_hot_wrong_call == 0)
        return named(DIAG_NONE, text, size, "no failure: random data and %d one-hot positions right on every call",
                     o->one_hots_tested);
    /* the first input right on its first call, wrong on its second (and maybe every later call) */
    if (o->random_wrong_call == 2 || (o->random_wrong_call == 0 && o->one_hot_wrong_call == 2))
        return named(DIAG_STATE, text, size, "state not reset: right on the first call, wrong on the second call "
                     "of the same input at n = %llu; something the kernel keeps between launches (a ticket counter, "
                     "a __device__ variable, an accumulator) is not returned to its first value, or the result "
                     "changes from run to run (a race: run racecheck)", n);
    /* two ranges, two culprits (DIAG_INDEX_32BIT): above 2^32 - 1, unsigned indices too */
    if (n > UINT32_MAX)
        return named(DIAG_INDEX_32BIT, text, size, "32-bit index overflow: wrong at n = %llu, above 2^32 - 1, where "
                     "every 32-bit index or count wraps, signed or unsigned (an int or unsigned int index, n passed "
                     "as unsigned int, blockIdx.x * blockDim.x multiplied in 32 bits); index with size_t, cast "
                     "before multiplying ((size_t)blockIdx.x * blockDim.x), and set STEP.max_n to MAX_N_64BIT", n);
    if (n > INT32_MAX)
        return named(DIAG_INDEX_32BIT, text, size, "32-bit index overflow: wrong at n = %llu, above 2^31 - 1: a "
                     "signed 32-bit index or count wraps (an int index or n, or blockIdx.x * blockDim.x stored in "
                     "an int); an unsigned one would hold until about 2^32 (n, or an index plus a stride, past "
                     "2^32 - 1); index with size_t and set STEP.max_n to MAX_N_64BIT", n);
    if (o->got_poison)
        return named(DIAG_NOT_WRITTEN, text, size, "result not written: at n = %llu the result still holds the "
                     "poison the harness wrote before the run; no thread stored the sum (out[blockIdx.x] or *out), "
                     "or the block that should finish never did", n);
    double got = o->one_hot_got;
    if (o->one_hot_wrong_call != 0 && got == 0.0) {
        int block_tail = in_remainder(o->n, o->per_block, o->one_hot_index);
        int vector_tail = in_remainder(o->n, o->vector_width, o->one_hot_index);
        if (block_tail || vector_tail)
            return lost_tail(o, block_tail, vector_tail, text, size);
        return named(DIAG_LOST_ELEMENT, text, size, "element lost: the one-hot at index %llu of n = %llu was never "
                     "added, and it is not in the tail: a gap between the ranges the threads or blocks cover (an "
                     "index or stride off), or a tree level that drops values (a block size that is not a power of "
                     "two?)", p, n);
    }
    if (o->one_hot_wrong_call != 0 && got >= 2.0 && got == floor(got) && got <= 1e6)
        return named(DIAG_COUNTED_TWICE, text, size, "counted twice: the one-hot at index %llu of n = %llu came "
                     "back %.0f: that element was added %.0f times; two threads or blocks read it (overlapping "
                     "ranges, a tail also covered by the main loop, a stride too small)", p, n, got, got);
    if (o->one_hot_wrong_call != 0)
        return named(DIAG_GARBAGE, text, size, "garbage in the sum: the one-hot at index %llu of n = %llu came "
                     "back %g, not 0 or a count: values from outside the input reached the sum (reads past the "
                     "end, shared memory not written before it is read); run memcheck and racecheck", p, n, got);
    if (o->one_hots_tested > 0)
        return named(DIAG_RACE, text, size, "race or lost values: random data wrong at n = %llu but all %d "
                     "one-hot positions right: the sum depends on the values' order or timing (a thread reads "
                     "shared memory before another wrote it: a missing __syncthreads() or __syncwarp()), or "
                     "elements no one-hot tested are lost; run compute-sanitizer --tool racecheck", n,
                     o->one_hots_tested);
    return named(DIAG_UNKNOWN, text, size, "no known pattern: random data wrong at n = %llu and no one-hot position "
                 "tested; reduce a smaller n, or a one-hot, to see which elements go wrong", n);
}

void describe_no_gpu(const gpu_absence *a, char *text, size_t size)
{
    int major = a->runtime_version / 1000, minor = a->runtime_version % 1000 / 10;
    if (a->driver_version == 0)
        snprintf(text, size, "no NVIDIA driver: libcuda.so.1 was not found, so CUDA sees no GPU; run on a "
                 "machine with an NVIDIA GPU and its driver (nvidia-smi lists the GPUs there)");
    else if (a->driver_too_old)
        snprintf(text, size, "NVIDIA driver too old: it supports CUDA %d.%d, and this program was built with "
                 "CUDA %d.%d; update the driver, or build with an older toolkit (make CUDA_PATH=...)",
                 a->driver_version / 1000, a->driver_version % 1000 / 10, major, minor);
    else if (a->error)
        snprintf(text, size, "no usable GPU: CUDA says \"%s\"; nvidia-smi shows the GPUs and what uses them",
                 a->error);
    else if (a->visible)
        snprintf(text, size, "no GPU visible: CUDA_VISIBLE_DEVICES='%s' lets none of this machine's GPUs "
                 "through; unset it, or give indices that nvidia-smi -L lists", a->visible);
    else
        snprintf(text, size, "no GPU: the NVIDIA driver (CUDA %d.%d) is installed but finds no GPU; "
                 "nvidia-smi -L lists the GPUs it sees", a->driver_version / 1000, a->driver_version % 1000 / 10);
}

/** Orders sizes for qsort(). */
static int compare_sizes(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/** Largest size a step's own numbers add: larger ones would cost a test more memory than they tell. */
#define LARGEST_DERIVED_SIZE ((uint64_t)1 << 27)

/** Appends `size` when the number it comes from is known (`basis` > 0) and the size is affordable. */
static void add_derived(size_t *all, int *count, uint64_t basis, uint64_t size)
{
    if (basis > 0 && size >= 1 && size <= LARGEST_DERIVED_SIZE)
        all[(*count)++] = (size_t)size;
}

int adversarial_sizes(unsigned int threads, uint64_t elements_per_block, unsigned int vector_width,
                      int index_bits, size_t *sizes, int capacity)
{
    static const uint64_t every_step[] = {
        1, 2, 3, 31, 32, 33, 63, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4099,
        65535, 65536, 65537, (1u << 20) + 3, (1u << 20) + 7, 1u << 24, (1u << 24) + 1, 1u << 26,
    };
    size_t all[sizeof every_step / sizeof every_step[0] + 20];
    int count = 0;
    for (size_t i = 0; i < sizeof every_step / sizeof every_step[0]; i++)
        all[count++] = (size_t)every_step[i];
    uint64_t t = threads, b = elements_per_block, v = vector_width;
    for (uint64_t d = 0; d < 3; d++) {   /* one below, at, one above */
        add_derived(all, &count, t, t - 1 + d);
        add_derived(all, &count, t, 2 * t - 1 + d);
        add_derived(all, &count, b, b - 1 + d);
    }
    add_derived(all, &count, t, 16 * t + 1);
    for (uint64_t d = 0; d <= 2; d += 2) {   /* one below, one above */
        add_derived(all, &count, b, 2 * b - 1 + d);
        if (b <= LARGEST_DERIVED_SIZE)   /* so that b * b cannot wrap around */
            add_derived(all, &count, b, b * b - 1 + d);
        add_derived(all, &count, v, v - 1 + d);
    }
    if (index_bits == 64)
        all[count++] = ((size_t)1 << 31) + 5;
#if !ELEMENT_IS_INTEGER && !defined(ELEMENT_DOUBLE)
    if (index_bits == 64)   /* float: see diagnose.h */
        all[count++] = ((size_t)1 << 30) + 5;
#endif
    return sorted_sizes(all, count, sizes, capacity);
}

int sorted_sizes(size_t *all, int count, size_t *sizes, int capacity)
{
    qsort(all, (size_t)count, sizeof all[0], compare_sizes);
    int kept = 0;
    for (int i = 0; i < count && kept < capacity; i++)
        if (kept == 0 || all[i] != sizes[kept - 1])
            sizes[kept++] = all[i];
    return kept;
}
