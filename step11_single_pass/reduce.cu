/**
 * @file
 * @brief Step 11: one launch for the whole reduction; the last block adds the partials.
 *
 * A kernel is two parts: each thread loads its share of the input, then block_sum()
 * combines the block's threads into one partial sum. The blocks' sums then become one,
 * in more passes of the kernel (steps 0 to 10, common/passes.c) or in its last block
 * (step 11). The steps change one of these parts at a time.
 */
#include "step.h"

/**
 * Threads per block: 512, fewer blocks to launch and to combine: 4 fit on an SM of 2048
 * threads, 3 on one of 1536, 2 on sm_75's 1024 (registers permitting).
 * `make resources` prints the blocks per SM on your GPU.
 */
#define THREADS 512
/** 16-byte loads each thread issues back to back before it needs their values. */
#define LOADS_IN_FLIGHT 4
/** Tickets drawn in this launch; atomicInc() wraps it back to 0 for the next one. */
__device__ unsigned int blocks_done = 0;

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
 * block_size is a template parameter, so every `if (block_size >= ...)` below is decided
 * at compile time: no loop counter, no branch back; only the `tid < ...` compares remain.
 *
 * The stride starts at half the block and halves: thread tid adds partial[tid + s] to
 * partial[tid]. A warp's 32 threads touch 32 consecutive words, one per bank, so there
 * are no bank conflicts (4-byte elements; for doubles see step 2's README). Half the
 * threads idle from the first level on (step 3 makes up for it while loading).
 * Busy threads stay contiguous: whole warps down to s = 64, then all of warp 0 in warp_reduce().
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
 * The whole reduction in one launch: each thread reads 16-byte vectors (four ints or
 * floats, two doubles) and issues LOADS_IN_FLIGHT of them, all independent, before it
 * adds any: more bytes in flight per SM. A block reads a tile of LOADS_IN_FLIGHT *
 * blockDim.x vectors per step of its grid-stride loop. Block 0 adds the n % VEC_WIDTH
 * elements after the last whole vector. `in` must be 16-byte aligned (cudaMalloc's is).
 */
__global__ void reduce_pass(const element_t *in, element_t *partials, element_t *out, size_t n)
{
    const element_vec_t *vectors = (const element_vec_t *)in;
    size_t vector_count = n / VEC_WIDTH, tile = (size_t)LOADS_IN_FLIGHT * blockDim.x;
    element_t sum = 0;
    for (size_t i = blockIdx.x * tile + threadIdx.x; i < vector_count; i += gridDim.x * tile) {
        element_vec_t v[LOADS_IN_FLIGHT] = {};
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            if (i + k * blockDim.x < vector_count)
                v[k] = vectors[i + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            sum += vec_sum(v[k]);
    }
    size_t tail = vector_count * VEC_WIDTH + threadIdx.x;
    if (blockIdx.x == 0 && tail < n)
        sum += in[tail];
    sum = block_sum<THREADS>(sum);
    bool last = false;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();  // release: fence, then ticket: this partial is visible before it counts
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
        __threadfence();  // acquire: ticket, then fence: every counted partial is visible after it
    }
    if (!__syncthreads_or(last))  // a barrier: all threads learn "last" and see what thread 0 saw
        return;
    sum = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        sum += __ldcg(&partials[b]);  // at L2, not kept in L1: each partial is read once
    sum = block_sum<THREADS>(sum);  // a fixed order: the same result on every call
    if (threadIdx.x == 0)
        *out = sum;
}

/** The occupancy query's error, if it failed: step_reduce() returns it (no step exits). */
static cudaError_t query_error = cudaSuccess;

/**
 * Blocks of one pass: LOADS_IN_FLIGHT vectors per thread, but no more than fit on the
 * GPU at once (occupancy API x SMs), so the grid is one full wave on any GPU.
 */
static size_t blocks_for(size_t count)
{
    static int resident = 0;
    if (resident == 0 && query_error == cudaSuccess) {
        int device = 0, sms = 0;
        query_error = cudaGetDevice(&device);
        if (query_error == cudaSuccess)
            query_error = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (query_error == cudaSuccess)
            query_error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, reduce_pass, THREADS, 0);
        resident *= sms;
    }
    size_t blocks = (count + STEP.elements_per_block - 1) / STEP.elements_per_block;
    return blocks < (size_t)resident ? blocks : (size_t)resident;
}

extern "C" const step_info STEP = {
    .number = 11, .name = "step11_single_pass", .title = "single pass, last block", .citation = "beyond Harris",
    .idea = "one launch: blocks store partial sums, the last block to finish adds them",
    .max_n = MAX_N_64BIT, .threads = THREADS, .kernel = (const void *)reduce_pass,
    .elements_per_block = THREADS * VEC_WIDTH * LOADS_IN_FLIGHT,
    .blocks_for = blocks_for, .scratch_elements = NULL, .addition_depth = NULL,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    if (blocks_for(n) == 0) return query_error;  // the occupancy query failed: no exit, its error
    reduce_pass<<<(unsigned int)blocks_for(n), THREADS, 0, stream>>>(in, scratch_a, out, n);
    return cudaGetLastError();
}
