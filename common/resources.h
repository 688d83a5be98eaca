/**
 * @file resources.h
 * @brief `--resources`: what a step's kernel takes from an SM and how many of its blocks
 * fit there, as the CUDA runtime reports it for the GPU the program runs on.
 *
 * `make resources` (scripts/resources.sh) reads these lines for every step, so that each
 * register count, shared-memory size and occupancy the READMEs quote is a number a
 * student can regenerate on their own GPU.
 */
#ifndef REDUCE_RESOURCES_H
#define REDUCE_RESOURCES_H

#include "gpu.h"
#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Prints, as key=value lines on stdout, the step's kernel (`info->kernel`) on the GPU
 * `gpu` (already opened by gpu_open()):
 *
 *   - name, type, threads (per block, from `info`); kernel=own, or kernel=library when
 *     `info->kernel` is NULL (CUB's kernels, chosen inside CUB: nothing more is printed);
 *   - the GPU: device, arch (sm_XY), sm_count, and per SM max_threads_per_sm,
 *     max_blocks_per_sm, registers_per_sm, shared_bytes_per_sm;
 *   - registers (per thread) and shared_bytes (static, per block), from
 *     cudaFuncGetAttributes();
 *   - blocks_per_sm, from cudaOccupancyMaxActiveBlocksPerMultiprocessor() with `threads`
 *     threads and no dynamic shared memory, as every step launches it;
 *   - occupancy_pct = 100 x blocks_per_sm x threads / max_threads_per_sm, one decimal;
 *   - limited_by (threads, registers, shared memory, blocks, barriers: every limit the
 *     count reaches, comma-separated) and the blocks each limit alone would allow
 *     (blocks_by_threads, blocks_by_registers, blocks_by_shared, blocks_by_blocks), from
 *     the toolkit's occupancy calculator (cuda_occupancy.h); printed only when its block
 *     count is the runtime's, "limited_by=-" otherwise, so that no line is a guess.
 *
 * Every CUDA call is checked (exit 4). Returns EXIT_OK.
 */
int print_resources(const step_info *info, const gpu_info *gpu);

#ifdef __cplusplus
}
#endif

#endif
