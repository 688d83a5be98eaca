/** @file gpu_slot.c
 * @brief One GPU's part of a run (see gpu_slot.h). */
#include "gpu_slot.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* here, not in harness.c: the slots name the program in their messages, and link without it */
const char *harness_program = "reduce";

/** Bytes of the L2 flush buffer on `gpu` (1 MiB of L2 assumed when it says none). */
static size_t flush_bytes_for(const gpu_info *gpu)
{
    return FLUSH_L2_MULTIPLE * (gpu->l2_bytes > 0 ? gpu->l2_bytes : (size_t)1 << 20);
}

size_t slot_bytes(size_t max_n, size_t scratch, size_t extra_bytes, int flush, const gpu_info *gpu)
{
    return max_n * sizeof(element_t) + (2 * scratch + 1) * sizeof(element_t) + extra_bytes +
           (flush ? flush_bytes_for(gpu) : 0);
}

int slot_fits(size_t max_n, size_t need, size_t slack, const gpu_info *gpu)
{
    return max_n <= SIZE_MAX / sizeof(element_t) && need + slack <= gpu->free_bytes;
}

void slot_allocate(gpu_slot *s, int device, size_t max_n, size_t scratch, int flush, int gated,
                   const gpu_info *gpu)
{
    memset(s, 0, sizeof *s);
    s->device = device;
    s->gated = gated;
    s->flush_bytes = flush ? flush_bytes_for(gpu) : 0;
    s->flush_mode = flush;
    size_t scratch_bytes = (scratch > 0 ? scratch : 1) * sizeof(element_t);
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaMalloc((void **)&s->in, max_n * sizeof(element_t)));
    CUDA_CHECK(cudaMalloc((void **)&s->out, sizeof(element_t)));
    CUDA_CHECK(cudaMalloc((void **)&s->scratch[0], scratch_bytes));
    CUDA_CHECK(cudaMalloc((void **)&s->scratch[1], scratch_bytes));
    if (s->flush_bytes) {
        CUDA_CHECK(cudaMalloc(&s->flush, s->flush_bytes));
        CUDA_CHECK(cudaMemset(s->flush, 0, s->flush_bytes));
    }
    if (s->gated)
        gate_create(&s->gate);
    CUDA_CHECK(cudaStreamCreate(&s->stream));
    CUDA_CHECK(cudaEventCreate(&s->start));
    CUDA_CHECK(cudaEventCreate(&s->stop));
    CUDA_CHECK(cudaEventCreateWithFlags(&s->ready, cudaEventDisableTiming));
}

void slot_release(gpu_slot *s)
{
    CUDA_CHECK(cudaSetDevice(s->device));
    CUDA_CHECK(cudaFree(s->in));
    CUDA_CHECK(cudaFree(s->out));
    CUDA_CHECK(cudaFree(s->scratch[0]));
    CUDA_CHECK(cudaFree(s->scratch[1]));
    if (s->flush)
        CUDA_CHECK(cudaFree(s->flush));
    if (s->gated)
        gate_destroy(&s->gate);
    CUDA_CHECK(cudaEventDestroy(s->start));
    CUDA_CHECK(cudaEventDestroy(s->stop));
    CUDA_CHECK(cudaEventDestroy(s->ready));
    CUDA_CHECK(cudaStreamDestroy(s->stream));
}

void slot_begin(gpu_slot *s, int pass)
{
    if (s->flush)
        flush_l2(s->flush, s->flush_bytes, s->flush_mode, pass, s->stream);
    CUDA_CHECK(cudaMemsetAsync(s->out, POISON_BYTE, sizeof(element_t), s->stream));
    CUDA_CHECK(cudaEventRecord(s->ready, s->stream));
    if (s->gated)
        gate_close(&s->gate, s->stream);
    CUDA_CHECK(cudaEventRecord(s->start, s->stream));
}

void slot_end(gpu_slot *s)
{
    CUDA_CHECK(cudaEventRecord(s->stop, s->stream));
}

void slots_go(gpu_slot *slots, int count)
{
    for (int g = 0; g < count; g++)
        if (slots[g].gated)
            gate_open(&slots[g].gate);
}

float slot_wait(gpu_slot *s)
{
    CUDA_CHECK(cudaEventSynchronize(s->stop));
    if (s->gated && gate_timed_out(&s->gate)) {
        fprintf(stderr, "%s: the timing gate of GPU %d waited over a second: the timed work must only be "
                "queued, never wait for the GPU (step_reduce() must not synchronize; --no-gate times it "
                "anyway)\n", harness_program, s->device);
        exit(EXIT_CUDA_ERROR);
    }
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, s->start, s->stop));
    return ms;
}
