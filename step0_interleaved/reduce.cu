/**
 * @file
 * @brief Step 0 (Harris kernel 1): a tree in shared memory with interleaved addressing.
 *
 * A kernel is two parts: each thread loads its share of the input, then block_sum()
 * combines the block's threads into one partial sum. The blocks' sums then become one,
 * in more passes of the kernel (steps 0 to 10, common/passes.c) or in its last block
 * (step 11). The steps change one of these parts at a time.
 */
#include "passes.h"

/**
 * Threads per block: 256. 8 blocks fit on an SM of 2048 threads (sm_80, sm_90, sm_100),
 * 6 on one of 1536 (sm_86, sm_89, sm_120), 4 on sm_75's 1024 (registers permitting).
 * `make resources` prints the blocks per SM on your GPU.
 */
#define THREADS 256

/**
 * Sums one value per thread over the block; the result is valid in thread 0.
 *
 * At level s, thread tid adds its neighbour s away when tid is a multiple of 2*s. That
 * test is a remainder by a value known only at run time: 17 of the loop's 28 instructions
 * per level on sm_90. The busy threads are scattered (16 per warp at s = 1, 1 at s = 16,
 * from s = 32 on none in half the warps or more), but nvcc predicates the short `if`: every
 * warp issues every level, its idle lanes switched off. Step 1 packs them, without modulo.
 */
__device__ element_t block_sum(element_t value)
{
    __shared__ element_t partial[THREADS];
    unsigned int tid = threadIdx.x;
    partial[tid] = value;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    return partial[0];
}

/**
 * One pass: block b sums elements [b*THREADS, (b+1)*THREADS) and writes out[b].
 * Threads past the end contribute 0, so n need not be a multiple of the block size.
 */
__global__ void reduce_pass(const element_t *in, element_t *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    element_t sum = block_sum((i < n) ? in[i] : 0);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/** Blocks of one pass: one element per thread. */
static size_t blocks_for(size_t count)
{
    return (count + STEP.elements_per_block - 1) / STEP.elements_per_block;
}

/** Launches one pass; the passes driver (common/passes.c) repeats it until one sum is left. */
static void launch_pass(const element_t *in, element_t *out, size_t count, size_t blocks, cudaStream_t stream)
{
    reduce_pass<<<(unsigned int)blocks, THREADS, 0, stream>>>(in, out, (unsigned int)count);
}

extern "C" const step_info STEP = {
    .number = 0, .name = "step0_interleaved", .title = "interleaved addressing, divergent", .citation = "Harris kernel 1",
    .idea = "a tree in shared memory; busy threads picked by a slow tid % (2*s), scattered over the warps",
    .max_n = MAX_N_32BIT, .threads = THREADS, .kernel = (const void *)reduce_pass,
    .elements_per_block = THREADS,
    .blocks_for = blocks_for, .scratch_elements = NULL, .addition_depth = NULL,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    return reduce_in_passes(launch_pass, blocks_for, in, n, out, scratch_a, scratch_b, stream);
}
