/**
 * @file method.cu
 * @brief The `method` tool of scripts/flush_study.sh: what the timing method itself costs
 * and allows, timed as the harness times a step (one gpu_slot: its flush, gate and events,
 * the median of the runs), with each flush (--hot, --flush write, --flush read): nothing
 * between the events (the method's floor), an empty kernel, a device-to-device copy of the
 * first half of the buffer onto its second half (the practical bandwidth limit), a kernel
 * that only loads the whole buffer (what a sum cannot beat: it must read every byte), and the
 * flush itself, once more after the slot's own.
 *
 * Usage: method [-n N] [-r R] [--warmup W] [--device D]   (a buffer of N ints, 2^26 by default)
 * Prints CSV: what,flush,bytes,median_us,gbs, where gbs counts the bytes read and the bytes
 * written, as the CUDA samples' bandwidthTest does for a device-to-device copy.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_slot.h"
#include "harness.h"
#include "options.h"
#include "results.h"

/** The least a step can launch: one thread that does nothing. */
__global__ void empty_kernel(void) {}

/**
 * Reads every 16 bytes of `in` once and combines nothing: a grid of whole waves, four loads in
 * flight per thread. `sink` is NULL, which the compiler cannot know, so the loads stay.
 */
__global__ void loads_only(const int4 *in, size_t count, int *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    int acc = 0;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < count; i += 4 * stride) {
        int4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
        acc ^= a.x ^ a.w ^ b.y ^ b.z ^ c.x ^ c.w ^ d.y ^ d.z ^ a.y ^ a.z ^ b.x ^ b.w ^ c.y ^ c.z ^ d.x ^ d.w;
    }
    for (; i < count; i += stride)
        acc ^= in[i].x ^ in[i].y ^ in[i].z ^ in[i].w;
    if (sink)
        *sink = acc;
}

/** What runs between the events. */
enum timed_work { NOTHING, EMPTY_KERNEL, COPY, LOADS, FLUSH, WORKS };
static const char *const work_names[WORKS] = { "nothing", "empty_kernel", "copy_d2d", "loads_only", "the_flush" };

/** The median in us of `reps` runs of `work` after `warmup` ones; `times` holds reps values. */
static double median_us(gpu_slot *slot, int work, size_t half_bytes, int grid, int warmup, int reps, double *times)
{
    for (int r = 0; r < warmup + reps; r++) {
        slot_begin(slot, r);
        if (work == EMPTY_KERNEL)
            empty_kernel<<<1, 1, 0, slot->stream>>>();
        if (work == LOADS)
            loads_only<<<grid, 256, 0, slot->stream>>>((const int4 *)slot->in, 2 * half_bytes / sizeof(int4), NULL);
        if (work == FLUSH)
            flush_l2(slot->flush, slot->flush_bytes, slot->flush_mode, r, slot->stream);
        if (work == COPY)
            CUDA_CHECK(cudaMemcpyAsync((char *)slot->in + half_bytes, slot->in, half_bytes, cudaMemcpyDeviceToDevice,
                                       slot->stream));
        CUDA_CHECK(cudaGetLastError());
        slot_end(slot);
        slots_go(slot, 1);
        float ms = slot_wait(slot);
        if (r >= warmup)
            times[r - warmup] = ms;
    }
    return summarize_times(times, reps).median_ms * 1e3;
}

int main(int argc, char **argv)
{
    options opt;
    char error[512];
    harness_program = argv[0];
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);   /* harness.h's load_kernels_eagerly() says why */
    enum parse_result parsed = parse_driver_options(argc, argv, &opt, NULL, error, sizeof error);
    if (parsed != PARSE_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], parsed == PARSE_HELP ? "usage: method [-n N] [-r R] [--warmup W] "
                "[--device D]; prints what,flush,bytes,median_us,gbs" : error);
        return parsed == PARSE_HELP ? EXIT_OK : EXIT_USAGE;
    }
    gpu_info gpu;
    int status = gpu_open(opt.device, &gpu, error, sizeof error);
    double *times = (double *)malloc((size_t)opt.reps * sizeof *times);
    if (status != 0 || !times) {
        fprintf(stderr, "%s: %s\n", argv[0], status ? error : "out of host memory");
        return status ? status : EXIT_USAGE;
    }
    size_t half_bytes = opt.n / 2 * sizeof(element_t);
    int blocks_per_sm = 0;   /* whole waves: as many 256-thread blocks as fit, on every SM */
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, loads_only, 256, 0));
    int grid = blocks_per_sm * gpu.sm_count;
    printf("what,flush,bytes,median_us,gbs\n");
    for (int flush = FLUSH_NONE; flush <= FLUSH_READ; flush++) {
        gpu_slot slot;
        slot_allocate(&slot, opt.device, opt.n, 1, flush, 1, &gpu);
        for (int work = NOTHING; work < (flush == FLUSH_NONE ? FLUSH : WORKS); work++) {
            double us = median_us(&slot, work, half_bytes, grid, opt.warmup, opt.reps, times);
            /* bytes moved: the copy reads and writes half the buffer, the loads read all of it */
            size_t bytes = work == COPY || work == LOADS ? 2 * half_bytes : 0;
            printf("%s,%s,%zu,%.2f,%.1f\n", work_names[work], flush_name(flush), bytes, us, bytes / us / 1e3);
        }
        slot_release(&slot);
    }
    free(times);
    return EXIT_OK;
}
