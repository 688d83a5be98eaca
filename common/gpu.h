/**
 * @file gpu.h
 * @brief The harness's CUDA side: every runtime call checked, the device described, the
 * L2 flushed. Kept apart from the pure logic so that the rest is testable without a GPU.
 */
#ifndef REDUCE_GPU_H
#define REDUCE_GPU_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the harness needs to know about the GPU it runs on. */
typedef struct gpu_info {
    int device;             /**< CUDA device index */
    char name[128];         /**< e.g. "NVIDIA H100 80GB HBM3" */
    int sm_count;           /**< streaming multiprocessors */
    size_t l2_bytes;        /**< L2 cache size */
    double peak_gbs;        /**< 2 x memory clock x bus width: the theoretical DRAM peak */
    size_t free_bytes;      /**< device memory free when the program started */
} gpu_info;

/**
 * Exits with code 4 and one line naming the call, its file and line, and CUDA's error string when
 * `err` is not cudaSuccess. A failed launch or call must never go on to print a timing.
 */
void cuda_check(cudaError_t err, const char *call, const char *file, int line);

/** Checks a CUDA runtime call: CUDA_CHECK(cudaMalloc(&p, bytes)). */
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)

/**
 * Selects `device` and fills `info`. Returns 0, or EXIT_NO_GPU with one line in `error`
 * when there is no usable GPU or driver, or EXIT_USAGE when the index does not exist.
 */
int gpu_open(int device, gpu_info *info, char *error, size_t error_size);

/**
 * Evicts the input from L2 before a timed run (else a second run of an input that fits in L2
 * times the cache), by `mode` (enum l2_flush), over a buffer of 4 x L2, queued on `stream`.
 * FLUSH_WRITE is a memset of it (`pass` varies the byte), as nvbench's and Triton's flushes
 * are: L2 is left dirty, written back by the timed kernel's loads. FLUSH_READ, the default, is
 * a kernel that reads the (zeroed) buffer: L2 is left clean. What each costs, measured:
 * docs/reference.md, "The flush, and what it costs a streaming kernel".
 */
void flush_l2(void *buffer, size_t bytes, int mode, int pass, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
