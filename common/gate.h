/**
 * @file gate.h
 * @brief Holds the GPU until a whole timed run is queued, so host delays are not timed.
 *
 * A host slower to queue a run's launches than the GPU is to run them (small n, a busy
 * CPU) leaves the GPU idle between them, timed as the kernel's. The gate, a one-thread
 * kernel queued before the start event, spins until the host has queued the stop event
 * too (nvbench's blocking kernel).
 */
#ifndef REDUCE_GATE_H
#define REDUCE_GATE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A host flag the GPU can read, and how many times the gate has been opened. */
typedef struct gpu_gate {
    volatile unsigned int *flag;  /**< pinned, mapped host memory: the opening count */
    unsigned int *flag_on_device; /**< the same memory as the kernel sees it */
    unsigned int *timed_out;      /**< pinned, mapped: set by a gate that gave up waiting */
    unsigned int *timed_out_on_device;
    unsigned int openings;        /**< the count the next close() waits to see */
} gpu_gate;

/** Allocates the flags (CUDA_CHECK on every call: exits 4 on failure). */
void gate_create(gpu_gate *gate);

/** Queues the spinning kernel on `stream`: work queued after it waits for gate_open(). */
void gate_close(gpu_gate *gate, cudaStream_t stream);

/** Lets the spinning kernel finish: call it once everything to be timed is queued. */
void gate_open(gpu_gate *gate);

/**
 * 1 if a gate gave up waiting (after a second): the host never opened it, or the work
 * queued behind it synchronized with the device. The run's time is then meaningless.
 */
int gate_timed_out(const gpu_gate *gate);

/** Frees the flags. */
void gate_destroy(gpu_gate *gate);

#ifdef __cplusplus
}
#endif

#endif
