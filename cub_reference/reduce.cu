/**
 * @file cub_reference/reduce.cu
 * @brief The library's own reduction, cub::DeviceReduce::Sum, in the same harness: the
 * toolkit's CUB here, the newest CCCL's (make cccl) in cub_reference/newest.
 *
 * CUB ships with the CUDA Toolkit and is what production code calls. Built and timed
 * exactly like the steps, its row closes the `make run-all` table and the "vs CUB"
 * column divides every step's bandwidth by its bandwidth, measured in the same run.
 *
 * One file, two builds. Against the toolkit's headers (this folder) it calls the two-phase
 * Sum(storage, bytes, ...) that every CCCL has. cub_reference/newest compiles this same
 * file against the newest CCCL headers (build/cccl/include, first on its include path),
 * once per determinism mode: CCCL 3.1 added `--determinism`'s three modes, chosen through
 * the environment overload Sum(in, out, n, env). Which one a build gets is decided by the
 * headers' version macros at compile time (CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION), never
 * at run time; `--describe` says which (cccl_version=, determinism=).
 */
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

/**
 * The mode of this run: the program's own (cub_reference/newest's Makefile gives it with
 * -DDEFAULT_DETERMINISM), or --determinism's; -1 in the toolkit's build (this folder),
 * which calls the two-phase Sum, CUB's default (run_to_run), unless --determinism names
 * a mode its headers have (a toolkit with CCCL 3.1 or later: make check-toolkit's, say).
 */
#ifdef DEFAULT_DETERMINISM
static int mode = DEFAULT_DETERMINISM;
#else
static int mode = -1;
#endif

/** Name and title with the CCCL version and the mode in them: every row says which CUB it is
 * (the title short enough for the tables' 42 columns: "CUB Sum, CCCL 3.5.0, not_guaranteed"). */
static char step_name[64], step_title[96];

/** Fills step_name and step_title for the mode; before main (and again after --determinism). */
static int name_the_step(void)
{
    if (mode >= 0) {
        snprintf(step_name, sizeof step_name, "cub_reference_%s", DETERMINISM_NAMES[mode]);
        snprintf(step_title, sizeof step_title, "CUB Sum, CCCL %d.%d.%d, %s", CCCL_MAJOR_VERSION,
                 CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, DETERMINISM_NAMES[mode]);
    } else {
        snprintf(step_name, sizeof step_name, "cub_reference");
        snprintf(step_title, sizeof step_title, "CUB Sum, CCCL %d.%d.%d, toolkit", CCCL_MAJOR_VERSION,
                 CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
    }
    return 0;
}
/** Names the step before main, so that --help and --describe see the names too. */
static const int step_named = name_the_step();

/** --determinism M: a mode by name; where the headers have none, every mode is refused. */
static int take_flag(int index, const char *value, char *error, size_t error_size)
{
    (void)index;  // the one flag
    int chosen = -1;
    for (int i = 0; i < DETERMINISM_COUNT; i++)
        if (strcmp(value, DETERMINISM_NAMES[i]) == 0)
            chosen = i;
    if (chosen < 0) {
        snprintf(error, error_size, "--determinism: '%s' is not a mode; give run_to_run, not_guaranteed or gpu_to_gpu",
                 value);
        return -1;
    }
#if HAS_DETERMINISM
    mode = chosen;
    name_the_step();
    return 0;
#else
    snprintf(error, error_size,
             "--determinism %s: this program was built with CCCL %d.%d.%d (the toolkit's headers), which has no "
             "determinism modes; they came with CCCL 3.1: make cccl, then make builds cub_reference/newest",
             value, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
    return -1;
#endif
}

/** --describe's lines of its own: the CCCL the program was built with and its mode. */
static void describe_flags(void)
{
    printf("cccl_version=%d.%d.%d\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
    // the two-phase Sum (mode -1) gives CUB's default guarantee, run_to_run
    printf("determinism=%s\n", mode >= 0 ? DETERMINISM_NAMES[mode] : "run_to_run");
    printf("determinism_modes=%s\n", HAS_DETERMINISM ? "run_to_run,not_guaranteed,gpu_to_gpu" : "none");
}

/** The one flag of its own: --determinism MODE. */
static const driver_flag DETERMINISM_FLAG[] = { { "determinism", 1 } };
/** What the harness parses, lists in --help and describes for this program (step.h: step_flags). */
static const step_flags OWN_FLAGS = {
    .parse = { .flags = DETERMINISM_FLAG, .count = 1, .take = take_flag },
#if HAS_DETERMINISM
    .usage_lines = "      --determinism M  CUB's mode: run_to_run (one fixed tree per GPU model), not_guaranteed\n"
                   "                   (one pass, atomics), gpu_to_gpu (the same bits on every GPU)\n",
#else
    .usage_lines = "      --determinism M  refused: this build's CCCL has no modes (they came with CCCL 3.1: make cccl)\n",
#endif
    .describe = describe_flags,
};

#if HAS_DETERMINISM
/**
 * The memory resource the environment carries, so that Sum(in, out, n, env) takes its
 * temporary storage from us rather than allocating and freeing it on every call.
 *
 * What the headers say (CCCL 3.5.0, build/cccl/include): cub/detail/env_dispatch.cuh,
 * dispatch_with_env(), queries `::cuda::mr::__get_memory_resource` on the env, else uses
 * cub::detail::device_memory_resource (cub/detail/device_memory_resource.cuh:
 * cudaMallocAsync, then cudaFreeAsync, on every call). It then runs the algorithm once
 * with no storage (phase 1: the size only; cub/device/dispatch/dispatch_reduce.cuh and
 * dispatch_reduce_deterministic.cuh return at `if (d_temp_storage == nullptr)` before
 * any launch; the single-tile and the atomic (not_guaranteed) paths ask for 1 byte, the
 * latter before it reaches its cudaMemsetAsync of the output), calls
 * `mr.allocate(stream, temp_storage_bytes, alignof(max_align_t))` (through
 * cub/detail/temporary_storage.cuh, which catches any exception and returns
 * cudaErrorMemoryAllocation), runs it again (phase 2: the kernels), and calls
 * `mr.deallocate(stream, ptr, bytes, alignment)`. The resource is taken by value
 * (`auto mr = __call_or(...)`), so a copy must hand out the same storage. The concept it
 * must meet, cuda::mr::resource (cuda/__memory_resource/resource.h): allocate and
 * deallocate with a stream_ref, allocate_sync and deallocate_sync, and ==.
 *
 * So the storage is the harness's scratch buffer, allocated once before any run, sized by
 * temp_bytes() below, which asks Sum for the size: a resource that records what is asked
 * and throws ends the call after phase 1, before any launch. The timed calls then allocate
 * nothing. A request larger than what was sized is an error (the call returns
 * cudaErrorMemoryAllocation, the harness exits), never a silent allocation.
 */
struct scratch_storage {
    void *base;         /**< the harness's scratch (NULL: measure the size, then throw) */
    size_t bytes;       /**< its size */
    size_t asked;       /**< the bytes of the last request */
    int requests;       /**< how many requests it had */
};

/** The resource itself: a handle on the storage, so that CUB's copies hand out the same. */
struct scratch_resource {
    scratch_storage *storage;  /**< the storage every copy hands out */

    /** The storage, if it holds `bytes`; else throws (CUB then returns cudaErrorMemoryAllocation). */
    void *allocate(cuda::stream_ref stream, size_t bytes, size_t alignment)
    {
        (void)stream;  // the storage is not stream-ordered: made before the runs, kept after
        storage->asked = bytes;
        storage->requests++;
        // cudaMalloc's storage is aligned to 256 bytes; CUB asks for alignof(max_align_t)
        if (storage->base == NULL || bytes > storage->bytes || alignment > 256)
            throw storage;
        return storage->base;
    }
    /** Nothing: the storage stays for the next call. */
    void deallocate(cuda::stream_ref stream, void *ptr, size_t bytes, size_t alignment) noexcept
    {
        (void)stream, (void)ptr, (void)bytes, (void)alignment;  // kept for the next call
    }
    /** allocate() without a stream (the concept asks for both). */
    void *allocate_sync(size_t bytes, size_t alignment)
    {
        return allocate(cuda::stream_ref{cudaStream_t{}}, bytes, alignment);
    }
    /** deallocate() without a stream. */
    void deallocate_sync(void *ptr, size_t bytes, size_t alignment) noexcept
    {
        deallocate(cuda::stream_ref{cudaStream_t{}}, ptr, bytes, alignment);
    }
    /** Two resources are equal when they hand out the same storage. */
    bool operator==(const scratch_resource &other) const { return storage == other.storage; }
    /** The converse of ==. */
    bool operator!=(const scratch_resource &other) const { return storage != other.storage; }
    /** The storage is device memory (cudaMalloc): kernels may read and write it. */
    friend void get_property(const scratch_resource &, cuda::mr::device_accessible) noexcept {}
};
static_assert(cuda::mr::resource<scratch_resource>, "scratch_resource must be a cuda::mr::resource");

/**
 * Sum through the environment overload, in mode M, on `stream`, with `storage`'s memory.
 * The env carries three things: the requirement (the mode), the memory resource, and the
 * stream (cuda::get_stream; without it CUB would use stream 0, not the harness's).
 */
template <typename Mode>
static cudaError_t sum_in_mode(Mode m, const element_t *in, size_t n, element_t *out, scratch_storage *storage,
                               cudaStream_t stream)
{
    auto env = cuda::std::execution::env{
        cuda::execution::require(m),
        cuda::std::execution::prop{cuda::mr::get_memory_resource, scratch_resource{storage}},
        cuda::std::execution::prop{cuda::get_stream, cuda::stream_ref{stream}}};
    return cub::DeviceReduce::Sum(in, out, n, env);
}

/**
 * What Sum(in, out, n, env) asks its memory resource for, at n in this run's mode. The
 * environment overload has no size query of its own, so it is asked with a resource that
 * has no storage: the call stops at the request (after phase 1, the size alone, before any
 * launch), and returns cudaErrorMemoryAllocation, which is expected here. Any other error is
 * the call's own; success, or no request, would mean the headers' dispatch changed.
 */
static size_t env_temp_bytes(size_t n);

/** sum_in_mode() in this run's mode. */
static cudaError_t sum(const element_t *in, size_t n, element_t *out, scratch_storage *storage, cudaStream_t stream)
{
    switch (mode) {
    case NOT_GUARANTEED:
        return sum_in_mode(cuda::execution::determinism::not_guaranteed, in, n, out, storage, stream);
    case GPU_TO_GPU:
        return sum_in_mode(cuda::execution::determinism::gpu_to_gpu, in, n, out, storage, stream);
    default:
        return sum_in_mode(cuda::execution::determinism::run_to_run, in, n, out, storage, stream);
    }
}

static size_t env_temp_bytes(size_t n)
{
    scratch_storage measure = { NULL, 0, 0, 0 };
    cudaError_t status = sum((const element_t *)NULL, n, (element_t *)NULL, &measure, cudaStream_t{});
    if (status != cudaErrorMemoryAllocation)
        CUDA_CHECK(status);
    if (status == cudaSuccess || measure.requests != 1)
        cuda_check(cudaErrorNotSupported, "Sum(in, out, n, env) did not ask its memory resource once: see scratch_resource",
                   __FILE__, __LINE__);
    return measure.asked;
}
#endif

/**
 * Bytes of temporary storage CUB needs for n inputs (a call with no storage asks). Kept
 * for the last n, so the timed call does not pay for the query.
 */
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
static size_t scratch_elements(size_t n)
{
    return temp_bytes(n) / sizeof(element_t) + 1;
}

/** CUB decides its own grid; the harness asks this only where the functions below don't. */
static size_t blocks_for(size_t count)
{
    (void)count;
    return 1;
}

/**
 * Longest chain of additions, for the float error bound. CUB's internals are not ours to
 * count, so assume the worst structure it could have: two passes, each by blocks of at
 * least 128 threads that each add their share serially and then combine in a tree.
 * The same bound serves every mode of the newest CUB. run_to_run is that structure.
 * not_guaranteed is one pass of such blocks whose partials are added atomically into the
 * result: a chain of one addition per block, and with at least 128 inputs a block that is
 * fewer than the n/128 the assumed second pass allows. gpu_to_gpu adds each value into
 * bins of fixed exponent ranges (Ahrens, Demmel and Nguyen, ACM TOMS 2020), where the
 * additions lose nothing until the bins are rounded to one value at the end; its error
 * bound, about u * |sum| plus a term in n * 2^-(bin width) * max|x|, is far below the
 * gamma(depth) * sum|x| allowed here. `make test` checks each mode against this bound on
 * the GPU (--check auto, every program the Makefile builds).
 */
static uint64_t addition_depth(size_t n)
{
    return 2 * pass_depth(n, 1, 128);
}

extern "C" const step_info STEP = {
    .number = -1, .name = step_name, .title = step_title,
    .citation = "cub::DeviceReduce::Sum (CUB, in CCCL)",
    .idea = "the library's tuned reduction: the bar every step is measured against",
    .max_n = MAX_N_64BIT, .threads = 0, .kernel = NULL,  // CUB launches its own kernels
    .elements_per_block = 0,  // CUB decides its own grid
    .blocks_for = blocks_for, .scratch_elements = scratch_elements, .addition_depth = addition_depth,
    .own_flags = &OWN_FLAGS,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    (void)scratch_b;
    (void)step_named;
    size_t bytes = temp_bytes(n);
#if HAS_DETERMINISM
    if (mode >= 0) {
        static scratch_storage storage;
        storage = scratch_storage{ scratch_a, bytes, 0, 0 };
        return sum(in, n, out, &storage, stream);
    }
#endif
    return cub::DeviceReduce::Sum(scratch_a, bytes, in, out, n, stream);
}
