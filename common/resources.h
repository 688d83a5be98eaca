/**
 * @file resources.h
 * @brief `--resources`: what a step's kernel takes from an SM and how many of its blocks
 * fit there, on this GPU, so that every such number the READMEs quote can be regenerated
 * (`make resources`, scripts/resources.sh).
 */
#ifndef REDUCE_RESOURCES_H
#define REDUCE_RESOURCES_H

#include "gpu.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Prints, as key=value lines, the step's kernel (`info->kernel`) on the opened GPU `gpu`:
 * name, type, threads; kernel=library and nothing more when `info->kernel` is NULL (CUB);
 * the GPU and its per-SM limits; the kernel's registers per thread and static shared bytes
 * (cudaFuncGetAttributes()); blocks_per_sm (the occupancy API, `threads` threads, no dynamic
 * shared memory) and occupancy_pct; and from the toolkit's occupancy calculator
 * (cuda_occupancy.h) limited_by (every limit the count reaches) and the blocks each limit
 * alone allows, only when its count is the runtime's ("limited_by=-" else: no guess).
 * Every CUDA call is checked (exit 4). Returns EXIT_OK.
 */
int print_resources(const step_info *info, const gpu_info *gpu);

#ifdef __cplusplus
}
#endif

#endif
