/**
 * @file tests/lab_broken/step7_calls_cub.cu
 * @brief A SHORTCUT, for make test: step 7 whose step_reduce() calls CUB's
 * DeviceReduce::Sum instead of its own kernel: right, and as fast as the toolkit, and
 * not the student's work. The #include check rejects it before anything is built: the
 * copy may include only what our step's own file includes.
 *
 * A kernel is two parts: each thread loads its share of the input, then block_sum()
 * combines the block's threads into one partial sum; step_reduce(), at the end, turns
 * the blocks' sums into one. The steps change one of these parts at a time.
 */
#include <cub/cub.cuh>   /* SHORTCUT */

#include "passes.h"

/** Threads per block: 256 keeps eight blocks per SM resident on every GPU we support. */
#define THREADS 256
/** Blocks of the first pass at most: enough to fill a 132-SM H100 (8 per SM). */
#define MAX_BLOCKS 1024

/**
 * The last six levels, when only the first warp is active, in registers: after one
 * addition from shared memory, __shfl_down_sync() hands each lane the value of the lane
 * `offset` above it. No shared-memory round trips, no __syncwarp(): the shuffle itself
 * synchronises the lanes named in its mask, so it is correct on every architecture.
 */
__device__ element_t warp_reduce(element_t *partial, unsigned int tid)
{
    element_t sum = partial[tid] + partial[tid + 32];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    return sum;
}

/**
 * Sums one value per thread over the block; the result is valid in thread 0.
 * block_size is a template parameter, so the compiler decides every `if` below: the
 * tree is straight-line code, with no loop counter, compare or branch.
 *
 * The stride starts at half the block and halves: thread tid adds partial[tid + s] to
 * partial[tid]. A warp's 32 threads touch 32 consecutive words, one per bank, so there
 * are no bank conflicts, and the active threads stay contiguous. Half the threads are
 * idle from the first level on (step 3 makes up for it while loading).
 */
template <unsigned int block_size>
__device__ element_t block_sum(element_t value)
{
    __shared__ element_t partial[block_size];
    unsigned int tid = threadIdx.x;
    partial[tid] = value;
    __syncthreads();

    if (block_size >= 1024) { if (tid < 512) partial[tid] += partial[tid + 512]; __syncthreads(); }
    if (block_size >= 512) { if (tid < 256) partial[tid] += partial[tid + 256]; __syncthreads(); }
    if (block_size >= 256) { if (tid < 128) partial[tid] += partial[tid + 128]; __syncthreads(); }
    if (block_size >= 128) { if (tid < 64) partial[tid] += partial[tid + 64]; __syncthreads(); }
    return (tid < 32) ? warp_reduce(partial, tid) : 0;
}

/**
 * One pass of at most MAX_BLOCKS blocks: each thread adds many elements, a grid apart
 * (a grid-stride loop), before the tree, which is now paid once per hundreds of
 * elements instead of once per two (Brent's algorithm cascading). 64-bit indices.
 */
__global__ void reduce_pass(const element_t *in, element_t *out, size_t n)
{
    size_t grid_stride = (size_t)gridDim.x * blockDim.x * 2;
    element_t sum = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x * 2 + threadIdx.x; i < n; i += grid_stride) {
        sum += in[i];
        if (i + blockDim.x < n)
            sum += in[i + blockDim.x];
    }
    sum = block_sum<THREADS>(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/** SHORTCUT: CUB's temporary storage, in elements, as the harness's scratch */
static size_t cub_scratch(size_t n)
{
    size_t bytes = 0;
    cub::DeviceReduce::Sum(NULL, bytes, (const element_t *)NULL, (element_t *)NULL, n);
    return bytes / sizeof(element_t) + 1;
}

/** Blocks of one pass: two elements per thread, but no more than MAX_BLOCKS. */
static size_t blocks_for(size_t count)
{
    size_t blocks = (count + 2 * THREADS - 1) / (2 * THREADS);
    return blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS;
}

/** Launches one pass; the passes driver (common/passes.c) repeats it until one sum is left. */
static void launch_pass(const element_t *in, element_t *out, size_t count, size_t blocks, cudaStream_t stream)
{
    reduce_pass<<<(unsigned int)blocks, THREADS, 0, stream>>>(in, out, count);
}

extern "C" const step_info STEP = {
    7, "step7_shuffle", "warp shuffle", "beyond Harris",
    "__shfl_down_sync() sums the last warp in registers instead of shared memory",
    MAX_N_64BIT, THREADS, blocks_for, cub_scratch, NULL,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    size_t bytes = cub_scratch(n) * sizeof(element_t);
    return cub::DeviceReduce::Sum(scratch_a, bytes, in, out, n, stream);
}
