/**
 * @file cub_reference/defect/trigger.cuh
 * @brief ../reduce.cu with what its newest builds say of CCCL 3.5.0's gpu_to_gpu defect
 * (README.md here): --describe's gpu_to_gpu_renorm= and, where the renorm() is missing, from
 * which n the defect can strike on this GPU; the name of the patched build (make cub-defect).
 */
#ifdef CUB_GPU_TO_GPU_RENORM
#define BUILD_NOTE "_renorm"   // newest/Makefile's build against build/cccl-patched
#endif
static void describe_defect(void);
#define DESCRIBE_BUILD describe_defect
#include "../reduce.cu"

#if HAS_DETERMINISM && !ELEMENT_IS_INTEGER
/**
 * The smallest n at which a thread of DeterministicDeviceReduceKernel deposits more values than its
 * accumulator's endurance() (512 floats, 2048 doubles: cub/detail/rfa.cuh:561-563), and so enters
 * BlockReduce unnormalised; with `every`, at which every thread does. CUB's dispatch
 * (dispatch_reduce_deterministic.cuh:200-226): chunks of 2^31 - 1 inputs on min(grid, tiles) blocks
 * of the policy's threads taking `items` a turn; the grid from the storage CUB asks for a chunk
 * (round_up(grid x sizeof(accumulator), 256) + 255 bytes), a multiple of 5 x SMs. A thread deposits
 * items x ceil(n / (grid x threads x items)) at most, items x floor(...) at least. 0: no n up to a
 * chunk; -1: no GPU.
 */
static long long exposed_from(int every)
{
    int device = 0, sms = 0, ptx = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) !=
        cudaSuccess || cub::PtxVersion(ptx, device) != cudaSuccess || sms < 3) {
        cudaGetLastError();
        return -1;
    }
    namespace cd = cub::detail;
    const auto policy = cd::reduce::policy_selector_from_types<element_t, int, cd::rfa::deterministic_sum_t<element_t>,
        cuda::execution::determinism::__determinism_t::__gpu_to_gpu>{}(
        cuda::compute_capability{ ptx / 100, ptx / 10 % 10 }).multi_tile;
    const long long chunk = INT32_MAX, endurance = sizeof(element_t) == 4 ? 512 : 2048;
    // gpu_to_gpu (this run's mode) at a chunk but one: a whole chunk gets no blocks (NVIDIA/cccl#9771)
    const long long bytes = (long long)env_temp_bytes((size_t)chunk - 1);
    const long long accumulator = sizeof(cd::rfa::ReproducibleFloatingAccumulator<element_t>);
    const long long grid = (bytes - 255) / accumulator / (5 * sms) * (5 * sms);
    const long long threads = policy.threads_per_block, items = policy.items_per_thread;
    const long long deposited = (endurance / items + (every ? 1 : 0)) * items * grid * threads;  // in whole turns
    const long long from = every ? deposited : deposited + 1;
    return grid > 0 && from <= chunk ? from : 0;
}
#endif

/** --describe's lines for floats: gpu_to_gpu_renorm=missing (CCCL 3.5.0 as released), patched or unknown;
 * where missing, in gpu_to_gpu, from which n some thread, and every thread, is exposed. */
static void describe_defect(void)
{
#if HAS_DETERMINISM && !ELEMENT_IS_INTEGER
#ifdef CUB_GPU_TO_GPU_RENORM
    const char *renorm = "patched";
#else
    const char *renorm = CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION == 5 ? "missing" : "unknown";
#endif
    printf("gpu_to_gpu_renorm=%s\n", renorm);
    if (mode == GPU_TO_GPU && strcmp(renorm, "missing") == 0)
        printf("gpu_to_gpu_exposed_from=%lld\ngpu_to_gpu_every_thread_exposed_from=%lld\n", exposed_from(0),
               exposed_from(1));
#endif
}
