/** @file cub_reference/defect/trigger.cuh
 * @brief ../reduce.cu with what its newest builds' --describe says of CCCL 3.5.0's gpu_to_gpu defect
 * (README.md here), and the name of the patched build (make cub-defect). */
#ifdef CUB_GPU_TO_GPU_RENORM
#define BUILD_NOTE "_renorm"   // newest/Makefile's build against build/cccl-patched
#endif
static void describe_defect(void);
#define DESCRIBE_BUILD describe_defect
#include "../reduce.cu"

#if HAS_DETERMINISM && !ELEMENT_IS_INTEGER
/**
 * The smallest n at which a thread of DeterministicDeviceReduceKernel deposits more than endurance() values,
 * its last turn's zeros counted as the kernel counts them; `every`: the n at which every thread's last turn is
 * whole. Sizes past which threads are exposed, not the smallest (README.md, "Where"). CUB's dispatch: min(grid,
 * tiles) blocks of the policy's threads x `items` a turn, the grid from the storage CUB asks for a chunk of 2^31-1
 * inputs (round_up(grid x sizeof(accumulator), 256) + 255 B), a multiple of 5 x SMs. 0: no n up to a chunk; -1: no GPU.
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

/** --describe's lines for floats: gpu_to_gpu_renorm=missing (3.5.0), patched or unknown; if missing, exposed_from(). */
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
