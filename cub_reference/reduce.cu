/** @file cub_reference/reduce.cu
 * @brief cub::DeviceReduce::Sum in the steps' harness, the bar of "vs CUB": the toolkit's Sum(storage, bytes,
 * ...); in cub_reference/newest, the newest CCCL's (make cccl) Sum(in, out, n, env) per determinism mode. */
#include <stdio.h>
#include <string.h>
#include <cub/cub.cuh>
#include <cuda/std/__cccl/version.h>
#include "data.h"
#include "gpu.h"
#include "step.h"

/** 1 where the headers have CUB's determinism modes (CCCL 3.1 and later). */
#if CCCL_MAJOR_VERSION > 3 || (CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION >= 1)
#define HAS_DETERMINISM 1
#include <cuda/execution>
#include <cuda/memory_resource>
#include <cuda/stream_ref>
#else
#define HAS_DETERMINISM 0
#endif
/** --determinism's values, in the order of DETERMINISM_NAMES. */
enum determinism {
    RUN_TO_RUN,        /**< CUB's default: a fixed tree per GPU model */
    NOT_GUARANTEED,    /**< one pass, the blocks' partials added with atomics */
    GPU_TO_GPU,        /**< floats through a reproducible accumulator: the same bits on every GPU */
    DETERMINISM_COUNT  /**< how many there are */
};
/** The modes as --determinism and --describe spell them (CUB's names). */
static const char *const DETERMINISM_NAMES[DETERMINISM_COUNT] = { "run_to_run", "not_guaranteed", "gpu_to_gpu" };

/** A build's mode (newest/Makefile; -1: the two-phase Sum), and a word after it in its names. */
#ifndef DEFAULT_DETERMINISM
#define DEFAULT_DETERMINISM -1
#endif
#ifndef BUILD_NOTE
#define BUILD_NOTE ""  // ../defect/trigger.cuh's "_renorm": the build against the patched headers
#endif
/** This run's mode: the build's, or --determinism's. */
static int mode = DEFAULT_DETERMINISM;
/** Name and title with the CCCL version and the mode: every row says which CUB it is. */
static char step_name[64], step_title[96];

/** Fills step_name and step_title for the mode; before main (and again after --determinism). */
static int name_the_step(void)
{
    const char *what = mode >= 0 ? DETERMINISM_NAMES[mode] : "toolkit";
    if (mode >= 0)
        snprintf(step_name, sizeof step_name, "cub_reference_%s%s", what, BUILD_NOTE);
    else
        snprintf(step_name, sizeof step_name, "cub_reference");
    snprintf(step_title, sizeof step_title, "CUB Sum, CCCL %d.%d.%d, %s%s", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION,
             CCCL_PATCH_VERSION, what, BUILD_NOTE);
    return 0;
}
/** Names the step before main, so that --help and --describe see the names too. */
static const int step_named = name_the_step();

/** --determinism M: a mode by name; where the headers have none, every mode is refused. */
static int take_flag(int, const char *value, char *error, size_t error_size)
{
    for (int i = 0; i < DETERMINISM_COUNT; i++) {
        if (strcmp(value, DETERMINISM_NAMES[i]) != 0)
            continue;
        if (!HAS_DETERMINISM) {
            snprintf(error, error_size, "--determinism %s: built with CCCL %d.%d.%d (the toolkit's), which has no "
                     "modes; they came with CCCL 3.1: make cccl, then make builds cub_reference/newest", value,
                     CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
            return -1;
        }
        mode = i;
        return name_the_step();
    }
    snprintf(error, error_size, "--determinism '%s' is no mode: give run_to_run, not_guaranteed or gpu_to_gpu", value);
    return -1;
}

/** --describe's lines of its own: the CCCL the program was built with and its mode. */
static void describe_flags(void)
{
    printf("cccl_version=%d.%d.%d\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
    printf("determinism=%s\n", mode >= 0 ? DETERMINISM_NAMES[mode] : "run_to_run");  // -1: the default's
    printf("determinism_modes=%s\n", HAS_DETERMINISM ? "run_to_run,not_guaranteed,gpu_to_gpu" : "none");
#ifdef DESCRIBE_BUILD
    DESCRIBE_BUILD();  // a build's own lines (newest/reduce.cu: what ../defect/ knows of its headers)
#endif
}

static const driver_flag DETERMINISM_FLAG[] = { { "determinism", 1 } };  /**< its one flag */
/** What the harness parses, lists in --help and describes for this program (step.h: step_flags). */
static const step_flags OWN_FLAGS = {
    .parse = { .flags = DETERMINISM_FLAG, .count = 1, .take = take_flag },
    .usage_lines = HAS_DETERMINISM
        ? "      --determinism M  CUB's mode: run_to_run (one fixed tree per GPU model), not_guaranteed\n"
          "                   (one pass, atomics), gpu_to_gpu (the same bits on every GPU)\n"
        : "      --determinism M  refused: this build's CCCL has no modes (they came with CCCL 3.1: make cccl)\n",
    .describe = describe_flags,
};

#if HAS_DETERMINISM
/** What the env's memory resource hands out instead of a cudaMallocAsync per call: the harness's scratch. CCCL
 * 3.5.0 (cub/detail/env_dispatch.cuh) calls allocate() on a copy of the resource before any launch (an exception
 * becomes cudaErrorMemoryAllocation): one without storage that records the request sizes it. */
struct scratch_storage {
    void *base;         /**< the harness's scratch (NULL: record the size, then throw) */
    size_t bytes;       /**< its size */
    size_t asked;       /**< the bytes of the last request */
    int requests;       /**< how many requests it had */
};
/** The resource itself, cuda::mr::resource: a handle on the storage, so that copies hand out the same. */
struct scratch_resource {
    scratch_storage *storage;  /**< the storage every copy hands out */
    /** The storage, if it holds `bytes` (not stream-ordered: made before the runs); else throws. */
    void *allocate(cuda::stream_ref, size_t bytes, size_t alignment)
    {
        storage->asked = bytes;
        storage->requests++;
        if (storage->base == NULL || bytes > storage->bytes || alignment > 256)  // cudaMalloc aligns to 256
            throw storage;
        return storage->base;
    }
    void deallocate(cuda::stream_ref, void *, size_t, size_t) noexcept {}  // kept for the next call
    /** allocate() and deallocate() without a stream (the concept asks for both). */
    void *allocate_sync(size_t bytes, size_t alignment) { return allocate(cudaStream_t{}, bytes, alignment); }
    void deallocate_sync(void *, size_t, size_t) noexcept {}
    /** Equal when they hand out the same storage; which is device memory (cudaMalloc). */
    bool operator==(const scratch_resource &other) const { return storage == other.storage; }
    bool operator!=(const scratch_resource &other) const { return storage != other.storage; }
    friend void get_property(const scratch_resource &, cuda::mr::device_accessible) noexcept {}
};
static_assert(cuda::mr::resource<scratch_resource>, "scratch_resource must be a cuda::mr::resource");

/** Sum(in, out, n, env) in this run's mode: the env carries the mode, the memory resource and the stream. */
static cudaError_t sum(const element_t *in, size_t n, element_t *out, scratch_storage *storage, cudaStream_t stream)
{
    auto sum_in = [&](auto determinism) {
        return cub::DeviceReduce::Sum(in, out, n, cuda::std::execution::env{
            cuda::execution::require(determinism),
            cuda::std::execution::prop{cuda::mr::get_memory_resource, scratch_resource{storage}},
            cuda::std::execution::prop{cuda::get_stream, cuda::stream_ref{stream}}});  // else stream 0
    };
    switch (mode) {
    case NOT_GUARANTEED: return sum_in(cuda::execution::determinism::not_guaranteed);
    case GPU_TO_GPU: return sum_in(cuda::execution::determinism::gpu_to_gpu);
    default: return sum_in(cuda::execution::determinism::run_to_run);
    }
}

/** What Sum(in, out, n, env) asks its resource for; without storage it ends there with cudaErrorMemoryAllocation. */
static size_t env_temp_bytes(size_t n)
{
    scratch_storage measure = { NULL, 0, 0, 0 };
    cudaError_t status = sum((const element_t *)NULL, n, (element_t *)NULL, &measure, cudaStream_t{});
    if (status != cudaErrorMemoryAllocation)
        CUDA_CHECK(status);
    if (status == cudaSuccess || measure.requests != 1)
        cuda_check(cudaErrorNotSupported, "Sum(in, out, n, env) did not ask its resource once", __FILE__, __LINE__);
    return measure.asked;
}
#endif

/** Bytes of temporary storage CUB needs for n inputs, kept for the last n: the timed call does not ask. */
static size_t temp_bytes(size_t n)
{
    static size_t cached_n = 0, cached_bytes = 0;
    if (n != cached_n) {
        cached_bytes = 0;
#if HAS_DETERMINISM
        if (mode >= 0)
            cached_bytes = env_temp_bytes(n);
        else
#endif
            CUDA_CHECK(cub::DeviceReduce::Sum(NULL, cached_bytes, (const element_t *)NULL, (element_t *)NULL, n));
        cached_n = n;
    }
    return cached_bytes;
}

/** CUB's temporary storage, in elements: the harness allocates it as scratch. */
static size_t scratch_elements(size_t n) { return temp_bytes(n) / sizeof(element_t) + 1; }
/** CUB decides its own grid: only the functions below tell the harness of it. */
static size_t blocks_for(size_t) { return 1; }

/** An upper bound on the longest chain of additions of CUB's two-pass Sum (CCCL 3.0.1 and 3.5.0, dispatch_reduce.cuh,
 * tuning_reduce.cuh): min(tiles, occupancy x SMs x 5) blocks of 256 threads (512, 640 from cc 10.0) share tiles of
 * threads x 16 inputs; a thread adds its share serially, a block its threads' values (at most threads - 1 deep, any
 * tree); run_to_run adds the partials in one more block, not_guaranteed one by one (atomics). 256 threads make the
 * most tiles, occupancy 1 the longest shares. */
static uint64_t addition_depth(size_t n)
{
    int device = 0;
    cudaDeviceProp gpu;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&gpu, device));
    const uint64_t sms = (uint64_t)gpu.multiProcessorCount, items = 16, threads = 256;
    const uint64_t per_sm = (uint64_t)gpu.maxThreadsPerMultiProcessor / threads;
    const uint64_t block = (gpu.major >= 10 ? 640 : threads) - 1;
    const uint64_t tiles = (n + threads * items - 1) / (threads * items) + 1;
    const uint64_t fewest = tiles < 5 * sms ? tiles : 5 * sms;
    const uint64_t most = tiles < 5 * sms * per_sm ? tiles : 5 * sms * per_sm;
    const uint64_t depth = 1 + (tiles + fewest - 1) / fewest * items + items + block;
    if (mode == NOT_GUARANTEED)
        return depth + most;
    return depth + (most + threads - 1) / threads + items + block;
}

/** error_bound() at addition_depth(); for gpu_to_gpu's binned accumulator (rfa.cuh: K = 3 folds of W = 13 bits for
 * float, 40 for double) binned_error_bound(). From about 2^25 floats, fresh data (data.h: fresh_value()) move the
 * sum by less than twice it: a stale result, which CUB never keeps, could pass. */
static double own_error_bound(const reference *ref, size_t n)
{
    if (mode != GPU_TO_GPU)
        return error_bound(ref, addition_depth(n));
    return binned_error_bound(ref, n, sizeof(element_t) == 8 ? 40 : 13, 3);
}

extern "C" const step_info STEP = {
    .number = -1, .name = step_name, .title = step_title,
    .citation = "cub::DeviceReduce::Sum (CUB, in CCCL)",
    .idea = "the library's tuned reduction: the bar every step is measured against",
    .max_n = MAX_N_64BIT, .threads = 0, .kernel = NULL,  // CUB launches its own kernels
    .elements_per_block = 0,  // CUB decides its own grid
    .blocks_for = blocks_for, .scratch_elements = scratch_elements, .addition_depth = addition_depth,
    .own_flags = &OWN_FLAGS, .error_bound = own_error_bound,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out, element_t *scratch_a, element_t *,
                                   cudaStream_t stream)
{
    (void)step_named;
    size_t bytes = temp_bytes(n);
#if HAS_DETERMINISM
    if (mode >= 0) {
        scratch_storage storage = { scratch_a, bytes, 0, 0 };  // asked for within the call, never after
        return sum(in, n, out, &storage, stream);
    }
#endif
    return cub::DeviceReduce::Sum(scratch_a, bytes, in, out, n, stream);
}
