/** @file gpu_slot.h
 * @brief One GPU's part of a run, the same for every driver (main.c has one slot, multi/ one
 * per GPU): buffers, stream, events and timing gate. A run: slot_begin() on each, the timed
 * work queued, slot_end() on each, slots_go() (every gate at once), slot_wait() on each; a run
 * that spans GPUs first waits for each gated slot's `ready` (multi_main.c's run_once() says why). */
#ifndef REDUCE_GPU_SLOT_H
#define REDUCE_GPU_SLOT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "element.h"
#include "gate.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One GPU's buffers and timing tools for a run of the step. */
typedef struct gpu_slot {
    int device;              /**< CUDA device index */
    element_t *in;           /**< the input on this GPU (all of it, or this GPU's part) */
    element_t *out;          /**< the step's result, one element */
    element_t *scratch[2];   /**< the step's two scratch buffers */
    void *flush;             /**< read or written before each timed run to evict L2; NULL with --hot */
    size_t flush_bytes;      /**< its size: FLUSH_L2_MULTIPLE x the GPU's L2 */
    int flush_mode;          /**< how: enum l2_flush (gpu.h's flush_l2()) */
    gpu_gate gate;           /**< holds the GPU until a run is queued (gate.h) */
    int gated;               /**< 0 with --no-gate, and in --check */
    cudaStream_t stream;     /**< everything of this GPU is queued here */
    cudaEvent_t start, stop; /**< around the timed work */
    cudaEvent_t ready;       /**< flush and poisoning done: the GPU waits at its gate */
} gpu_slot;

/** Device bytes slot_allocate() takes for max_n inputs, `scratch` elements a scratch buffer and the
 * flush buffer (unless FLUSH_NONE), plus `extra_bytes` the driver allocates beside them. */
size_t slot_bytes(size_t max_n, size_t scratch, size_t extra_bytes, int flush, const gpu_info *gpu);

/** 1 if `need` bytes (slot_bytes()) and `slack` more (the context's, a library's) fit in the GPU's
 * free memory, and max_n elements in a size_t; the driver says why not. */
int slot_fits(size_t max_n, size_t need, size_t slack, const gpu_info *gpu);

/** Makes `device` current and allocates there slot_bytes()'s buffers (the flush buffer zeroed, as
 * flush_l2() by reading needs), a stream, the events, the gate when `gated`; each call checked (exit 4). */
void slot_allocate(gpu_slot *s, int device, size_t max_n, size_t scratch, int flush, int gated,
                   const gpu_info *gpu);

/** Frees what slot_allocate() took (its device made current). */
void slot_release(gpu_slot *s);

/** Queues what comes before the timed work (its device current): the L2 flush (`pass` varies what a
 * write writes), the result poisoned (a run that writes nothing fails), ready, the gate closed, start. */
void slot_begin(gpu_slot *s, int pass);

/** Queues the stop event after the timed work (its device made current). */
void slot_end(gpu_slot *s);

/** Opens every gate of `count` slots: the timed work starts. */
void slots_go(gpu_slot *slots, int count);

/** Waits for the stop event; returns the ms from start. Exits 4 when the gate gave up: the timed work
 * waited for the host (it must only queue, never synchronize), so the time would mean nothing. */
float slot_wait(gpu_slot *s);

#ifdef __cplusplus
}
#endif

#endif
