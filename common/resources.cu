/**
 * @file resources.cu
 * @brief `--resources` (see resources.h); compiled by nvcc because the toolkit's occupancy
 * calculator, cuda_occupancy.h, is C++.
 */
#include "resources.h"

#include <stdio.h>

#include <cuda_occupancy.h>

#include "element.h"
#include "options.h"

/** The limits of `result` that its block count reaches, as "threads,registers"; "-" if none. */
static void limit_names(const cudaOccResult *result, char *text, size_t size)
{
    static const struct { unsigned int bit; const char *name; } limits[] = {
        { OCC_LIMIT_WARPS, "threads" },          /* warps per SM: threads / 32 */
        { OCC_LIMIT_REGISTERS, "registers" },
        { OCC_LIMIT_SHARED_MEMORY, "shared memory" },
        { OCC_LIMIT_BLOCKS, "blocks" },          /* blocks per SM, whatever their size */
        { OCC_LIMIT_BARRIERS, "barriers" },
    };
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if ((result->limitingFactors & limits[i].bit) && used < size)
            used += (size_t)snprintf(text + used, size - used, "%s%s", used ? "," : "", limits[i].name);
    if (used == 0)
        snprintf(text, size, "-");
}

extern "C" int print_resources(const step_info *info, const gpu_info *gpu)
{
    printf("name=%s\ntype=%s\nthreads=%u\n", info->name, ELEMENT_NAME, info->threads);
    if (!info->kernel) {
        printf("kernel=library\n");
        return EXIT_OK;
    }
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu->device));
    cudaFuncAttributes attributes;
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, info->kernel));
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, info->kernel, (int)info->threads, 0));
    printf("kernel=own\ndevice=%s\narch=sm_%d%d\nsm_count=%d\n", gpu->name, prop.major, prop.minor,
           prop.multiProcessorCount);
    printf("max_threads_per_sm=%d\nmax_blocks_per_sm=%d\nregisters_per_sm=%d\nshared_bytes_per_sm=%zu\n",
           prop.maxThreadsPerMultiProcessor, prop.maxBlocksPerMultiProcessor, prop.regsPerMultiprocessor,
           prop.sharedMemPerMultiprocessor);
    printf("registers=%d\nshared_bytes=%zu\nblocks_per_sm=%d\noccupancy_pct=%.1f\n", attributes.numRegs,
           attributes.sharedSizeBytes, blocks, 100.0 * blocks * info->threads / prop.maxThreadsPerMultiProcessor);

    cudaOccDeviceProp occ_prop(prop);
    cudaOccFuncAttributes occ_attributes(attributes);
    cudaOccDeviceState occ_state;
    cudaOccResult result;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &occ_prop, &occ_attributes, &occ_state,
                                                (int)info->threads, 0) != CUDA_OCC_SUCCESS ||
        result.activeBlocksPerMultiprocessor != blocks) {
        printf("limited_by=-\n");
        return EXIT_OK;
    }
    char names[96];
    limit_names(&result, names, sizeof names);
    printf("limited_by=%s\nblocks_by_threads=%d\nblocks_by_registers=%d\nblocks_by_shared=%d\nblocks_by_blocks=%d\n",
           names, result.blockLimitWarps, result.blockLimitRegs, result.blockLimitSharedMem, result.blockLimitBlocks);
    return EXIT_OK;
}
