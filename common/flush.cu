/**
 * @file flush.cu
 * @brief The L2 flushes before a timed run (see gpu.h's flush_l2()).
 */
#include "gpu.h"
#include "options.h"

/** Threads per block of the reading flush, and 16-byte loads each thread makes in a row. */
#define FLUSH_THREADS 256
#define FLUSH_LOADS_PER_THREAD 8

/**
 * Reads `count` 16-byte words through L2 (`__ldcg`: cached in L2 only), so that they take
 * L2's lines and its earlier contents leave. The buffer holds zeros: the store, which keeps
 * the compiler from dropping the loads, never runs.
 */
__global__ void flush_l2_by_reading(const uint4 *buffer, size_t count, unsigned int *never_written)
{
    unsigned int seen = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(buffer + i);
        seen |= v.x | v.y | v.z | v.w;
    }
    if (seen != 0)
        *never_written = seen;
}

extern "C" void flush_l2(void *buffer, size_t bytes, int mode, int pass, cudaStream_t stream)
{
    if (mode == FLUSH_WRITE) {
        CUDA_CHECK(cudaMemsetAsync(buffer, pass & 0xff, bytes, stream));
        return;
    }
    size_t count = bytes / sizeof(uint4);
    size_t blocks = count / (FLUSH_THREADS * FLUSH_LOADS_PER_THREAD) + 1;
    flush_l2_by_reading<<<(unsigned int)(blocks < 65535 ? blocks : 65535), FLUSH_THREADS, 0, stream>>>(
        (const uint4 *)buffer, count, (unsigned int *)buffer);
    CUDA_CHECK(cudaGetLastError());
}
