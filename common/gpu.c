/** @file gpu.c
 * @brief CUDA-side helpers of the harness (see gpu.h). */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>

#include "diagnose.h"
#include "options.h"

void cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "CUDA error: %s failed at %s:%d: %s (%s)\n", call, file, line,
            cudaGetErrorString(err), cudaGetErrorName(err));
    exit(EXIT_CUDA_ERROR);
}

int gpu_open(int device, gpu_info *info, char *error, size_t error_size)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        gpu_absence a = { 0, 0, err == cudaErrorInsufficientDriver,
                          err != cudaSuccess && err != cudaErrorNoDevice ? cudaGetErrorString(err) : NULL,
                          getenv("CUDA_VISIBLE_DEVICES") };
        /* both answer without a driver: the driver's version is then 0 */
        if (cudaDriverGetVersion(&a.driver_version) != cudaSuccess)
            a.driver_version = 0;
        CUDA_CHECK(cudaRuntimeGetVersion(&a.runtime_version));
        describe_no_gpu(&a, error, error_size);
        return EXIT_NO_GPU;
    }
    if (device >= count) {
        snprintf(error, error_size, "--device %d does not exist: this machine has %d GPU%s, "
                 "give 0 to %d", device, count, count == 1 ? "" : "s", count - 1);
        return EXIT_USAGE;
    }
    CUDA_CHECK(cudaSetDevice(device));

    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    int clock_khz = 0, bus_bits = 0;
    /* cudaDeviceProp::memoryClockRate is gone in CUDA 13: ask for the attribute. */
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));

    info->device = device;
    snprintf(info->name, sizeof info->name, "%.127s", prop.name);
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    /* double data rate: two transfers per clock, bus_bits / 8 bytes each */
    info->peak_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    size_t total = 0;
    CUDA_CHECK(cudaMemGetInfo(&info->free_bytes, &total));
    return 0;
}
