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
    GPU_TO_GPU,        /**< floats through a reproducible accumulator: the same bits on every GPU, in CCCL
                            3.5.0 only below the smallest gpu_to_gpu_exposed_from() of the GPUs compared
                            (fewer SMs: a smaller threshold) */
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
#ifdef CUB_GPU_TO_GPU_RENORM
        const char *headers = "_renorm";   // make cub-defect's patched copy of the headers
#else
        const char *headers = "";
#endif
        snprintf(step_name, sizeof step_name, "cub_reference_%s%s", DETERMINISM_NAMES[mode], headers);
        snprintf(step_title, sizeof step_title, "CUB Sum, CCCL %d.%d.%d, %s%s", CCCL_MAJOR_VERSION,
                 CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, DETERMINISM_NAMES[mode], headers);
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

#if HAS_DETERMINISM
static size_t env_temp_bytes(size_t n);
#endif
#if HAS_DETERMINISM && !ELEMENT_IS_INTEGER

/**
 * gpu_to_gpu: the smallest n at which a thread of CUB's first kernel makes more deposits
 * into its accumulator than the accumulator's endurance() (512 floats, 2048 doubles:
 * 1 << (mant_dig - bin_width - 2), cub/detail/rfa.cuh:561-563, bin_width 13 or 40 at :57),
 * on this GPU; 0 where no n does (the largest chunk, 2^31 - 1, stays below). CCCL 3.5.0's
 * DeterministicDeviceReduceKernel (cub/device/dispatch/kernels/kernel_reduce_deterministic.cuh)
 * calls renorm() only when its count reaches endurance() (lines 218-222 and 262-266), not
 * after its loops end (line 269), before BlockReduce combines the threads (line 271); so from
 * this n its sum may be wrong (docs/cub-gpu-to-gpu-defect.md). From CUB's own dispatch
 * (dispatch_reduce_deterministic.cuh:200-226): the input in chunks of 2^31 - 1, each on
 * min(max_blocks, tiles) blocks of `threads` threads, max_blocks = occupancy x SMs x 5, a
 * thread taking `items` at a time; threads and items from CUB's policy for this binary's
 * architecture, max_blocks from the temporary storage CUB asks for a chunk
 * (round_up(grid x sizeof(accumulator), 256) + 255 bytes, util_temporary_storage.cuh:60-64),
 * resolved to the multiple of 5 x SMs it must be. The first thread then deposits items x
 * ceil(n / (max_blocks x threads x items)), the last items x floor(...): with `every`, the
 * smallest n at which every thread deposits more. -1 when it cannot be told (no GPU).
 */
static long long gpu_to_gpu_exposed_from(int every)
{
    int device = 0, sms = 0, ptx = 0, saved = mode;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) !=
        cudaSuccess || cub::PtxVersion(ptx, device) != cudaSuccess || sms < 3) {
        cudaGetLastError();
        return -1;
    }
    const auto policy = cub::detail::reduce::policy_selector_from_types<element_t, int,
        cub::detail::rfa::deterministic_sum_t<element_t>, cuda::execution::determinism::__determinism_t::__gpu_to_gpu>{}(
        cuda::compute_capability{ ptx / 100, ptx / 10 % 10 }).multi_tile;
    const long long chunk = INT32_MAX, endurance = sizeof(element_t) == 4 ? 512 : 2048;
    mode = GPU_TO_GPU;
    // a chunk but one: CCCL 3.5.0 sizes an exact multiple of 2^31 - 1 with no blocks (NVIDIA/cccl#9771)
    const long long bytes = (long long)env_temp_bytes((size_t)chunk - 1);
    mode = saved;
    const long long accumulator = sizeof(cub::detail::rfa::ReproducibleFloatingAccumulator<element_t>);
    const long long grid = (bytes - 255) / accumulator / (5 * sms) * (5 * sms);
    const long long threads = policy.threads_per_block, items = policy.items_per_thread;
    const long long turns = endurance / items + (every ? 1 : 0);   /* a thread's loop turns, each of `items` */
    const long long from = every ? turns * items * grid * threads : turns * items * grid * threads + 1;
    return grid > 0 && from <= chunk ? from : 0;
}
#endif

/** --describe's lines of its own: the CCCL the program was built with and its mode. */
static void describe_flags(void)
{
    printf("cccl_version=%d.%d.%d\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
    // the two-phase Sum (mode -1) gives CUB's default guarantee, run_to_run
    printf("determinism=%s\n", mode >= 0 ? DETERMINISM_NAMES[mode] : "run_to_run");
    printf("determinism_modes=%s\n", HAS_DETERMINISM ? "run_to_run,not_guaranteed,gpu_to_gpu" : "none");
#if HAS_DETERMINISM && !ELEMENT_IS_INTEGER
#ifdef CUB_GPU_TO_GPU_RENORM
    const char *renorm = "patched";   // built against make cub-defect's copy of the headers
#else
    const char *renorm = CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION == 5 ? "missing" : "unknown";
#endif
    printf("gpu_to_gpu_renorm=%s\n", renorm);
    // where it is missing, the n from which some thread, and every thread, is exposed to it
    if (mode == GPU_TO_GPU && strcmp(renorm, "missing") == 0)
        printf("gpu_to_gpu_exposed_from=%lld\ngpu_to_gpu_every_thread_exposed_from=%lld\n", gpu_to_gpu_exposed_from(0),
               gpu_to_gpu_exposed_from(1));
#endif
}

/** The one flag of its own: --determinism MODE. */
static const driver_flag DETERMINISM_FLAG[] = { { "determinism", 1 } };
/** What the harness parses, lists in --help and describes for this program (step.h: step_flags). */
static const step_flags OWN_FLAGS = {
    .parse = { .flags = DETERMINISM_FLAG, .count = 1, .take = take_flag },
#if HAS_DETERMINISM
    .usage_lines = "      --determinism M  CUB's mode: run_to_run (one fixed tree per GPU model), not_guaranteed\n"
                   "                   (one pass, atomics), gpu_to_gpu (the same bits on every GPU; CCCL 3.5.0:\n"
                   "                   only below the smallest gpu_to_gpu_exposed_from= (--describe) of the\n"
                   "                   GPUs compared)\n",
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

/** The device's SMs, threads per SM and compute capability (major * 10 + minor), asked once. */
static int device_attribute(cudaDeviceAttr what)
{
    int device = 0, value = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device));
    return value;
}

/**
 * Additions in a chain of one block's reduction of `threads` values: BLOCK_REDUCE_WARP_REDUCTIONS
 * (cub/block/specializations/block_reduce_warp_reductions.cuh), a shuffle tree in each warp of
 * 32 (5 levels), then thread 0 adds the other warps' totals one by one (ApplyWarpAggregates).
 */
static uint64_t block_reduce_depth(uint64_t threads)
{
    return 5 + (threads + 31) / 32 - 1;
}

/**
 * Longest chain of additions with blocks of `threads` threads taking `items` inputs a turn,
 * from the structure CUB really uses (CCCL 3.5.0, build/cccl/include):
 * cub/device/dispatch/dispatch_reduce.cuh launches min(tiles, max_blocks) blocks, max_blocks
 * = occupancy x SMs x 5 (cub/util_arch.cuh: subscription_factor), each summing an even share
 * of tiles (cub/grid/grid_even_share.cuh) of `threads` x `items` inputs; a thread adds its
 * items serially, then the block's reduction; run_to_run adds the blocks' partials in one
 * more block (ceil(grid/threads) + items serially, then the block's reduction), not_guaranteed
 * adds them one by one with atomics (a chain of grid). Occupancy is at least 1 and at most
 * the SM's threads / threads, so the serial part is at most ceil(tiles / min(tiles, 5 SMs)) x
 * items and the grid at most min(tiles, 5 SMs x threads per SM / threads). Plus one for the
 * initial value.
 */
static uint64_t depth_with(size_t n, uint64_t threads, uint64_t items)
{
    const uint64_t sms = (uint64_t)device_attribute(cudaDevAttrMultiProcessorCount);
    const uint64_t per_sm = (uint64_t)device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor) / threads;
    const uint64_t tiles = (n + threads * items - 1) / (threads * items) + 1;
    const uint64_t fewest = tiles < 5 * sms ? tiles : 5 * sms, most = tiles < 5 * sms * per_sm ? tiles : 5 * sms * per_sm;
    // + items: a thread's share rounded up to a whole turn, whatever the real items per turn
    uint64_t depth = 1 + (tiles + fewest - 1) / fewest * items + items + block_reduce_depth(threads);
    if (mode == NOT_GUARANTEED)
        return depth + most;
    return depth + (most + threads - 1) / threads + items + block_reduce_depth(threads);
}

/**
 * The float error bound's depth for run_to_run and not_guaranteed: the deepest chain of
 * depth_with() over the block sizes CUB may pick, cub/device/dispatch/tuning/tuning_reduce.cuh
 * (get_two_phase_tuning()): 256 threads for compute capability 6.0 to 9.x, and from 10.0
 * its sm100 tuning's 512 or 640 threads, or 256 where it has none. No one size is the worst:
 * fewer threads make the serial chains longer (more tiles per block, more partials per
 * thread of the second pass), more threads the block's reduction, so each is tried. Items:
 * 16 x 4 bytes / sizeof(T) below 10.0, 16 from it; the larger is assumed, which can only
 * lengthen a chain (one turn more). The toolkit's CUB (CCCL 3.0.1) has the same two-phase
 * structure.
 */
static uint64_t addition_depth(size_t n)
{
    static const uint64_t threads[] = { 256, 512, 640 };
    const int sizes = device_attribute(cudaDevAttrComputeCapabilityMajor) >= 10 ? 3 : 1;
    const uint64_t items = 16 * 4 / sizeof(element_t) > 16 ? 16 * 4 / sizeof(element_t) : 16;
    uint64_t deepest = 0;
    for (int i = 0; i < sizes; i++) {
        const uint64_t depth = depth_with(n, threads[i], items);
        deepest = depth > deepest ? depth : deepest;
    }
    return deepest;
}

/**
 * gpu_to_gpu's accepted error: no tree of rounded additions, but every value deposited into
 * a binned accumulator, cub/detail/rfa.cuh's ReproducibleFloatingAccumulator<T, Fold = 3>
 * (CCCL 3.5.0: `Fold = 3` at line 47, `bin_width = ... double ? 40 : 13` at line 57), whose
 * error is at most n 2^(W(1-K)) max|x| + 7 u |sum| (data.h: binned_error_bound()): W = 13
 * and K = 3 for float (2^-26 n max|x|), W = 40 and K = 3 for double (2^-80 n max|x|).
 * The other modes (and --determinism's choice of them): error_bound() at addition_depth().
 * The harness's fresh data between calls (data.h: fresh_value()) moves the sum by four times
 * error_bound() at addition_depth(), which from about 2^25 floats is less than twice this
 * bound (its first term grows with the new largest value): a stale result could pass there,
 * but CUB keeps none; each call's own result is still held to this bound.
 */
static double own_error_bound(const reference *ref, size_t n)
{
    if (mode != GPU_TO_GPU)
        return error_bound(ref, addition_depth(n));
#ifdef ELEMENT_DOUBLE
    return binned_error_bound(ref, n, 40, 3);
#else
    return binned_error_bound(ref, n, 13, 3);
#endif
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
