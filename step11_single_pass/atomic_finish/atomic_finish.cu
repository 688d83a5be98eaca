/**
 * @file step11_single_pass/atomic_finish/atomic_finish.cu
 * @brief Step 11's two other ways for the blocks' sums to meet, for `make sweep`, and
 * step 11's own with a --blocks flag, for step 14's README.
 *
 * Not a step: step 11 (../reduce.cu) finishes with the last block, which is
 * deterministic. This file has step 11's loads and grid and ends instead with atomics
 * on the result, chosen at build time (the Makefile builds all three):
 *   GRID_FINISH=BLOCK_ATOMIC  one atomicAdd() per block, after the block tree;
 *   GRID_FINISH=WARP_ATOMIC   one atomicAdd() per warp, after five shuffles, no tree;
 *   GRID_FINISH=LAST_BLOCK    step 11's last block, as in ../reduce.cu.
 * Atomics add in whatever order blocks finish, so a float result can change from call to
 * call, and *out must be zeroed before the launch. `--blocks B` (common/blocks_flag.h)
 * takes the wave's place as the grid's most blocks, so that one GPU runs the grid of
 * another: step 14's README shows that the float bits of every finish, the last block's
 * too, change with the grid.
 */
#include "blocks_flag.h"
#include "data.h"
#include "step.h"

#define BLOCK_ATOMIC 1
#define WARP_ATOMIC 2
#define LAST_BLOCK 3
#ifndef GRID_FINISH
#error "build with -DGRID_FINISH=BLOCK_ATOMIC, WARP_ATOMIC or LAST_BLOCK (see the Makefile)"
#endif
#if GRID_FINISH == LAST_BLOCK
/** Tickets drawn in this launch; atomicInc() wraps it back to 0 for the next one (as in step 11). */
__device__ unsigned int blocks_done = 0;
#endif

/**
 * Threads per block: 512, fewer blocks to launch and to combine: 4 fit on an SM of 2048
 * threads, 3 on one of 1536, 2 on sm_75's 1024 (registers permitting).
 * `make resources` prints the blocks per SM on your GPU.
 */
#define THREADS 512
/** 16-byte loads each thread issues back to back before it needs their values. */
#define LOADS_IN_FLIGHT 4

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
 * are no bank conflicts (4-byte elements; for doubles see step 2's README). The active
 * threads stay contiguous: whole warps down to s = 64 (the constants below), then
 * warp_reduce() does s = 32 ... 1 with all of warp 0. Half the threads are idle from
 * the first level on (step 3 makes up for it while loading).
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
 * The whole reduction in one launch: step 11's loads (LOADS_IN_FLIGHT 16-byte vectors per
 * thread, block 0 adds the tail), then atomics on *out as GRID_FINISH says.
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
#if GRID_FINISH == WARP_ATOMIC
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, sum);
#elif GRID_FINISH == BLOCK_ATOMIC
    sum = block_sum<THREADS>(sum);
    if (threadIdx.x == 0)
        atomicAdd(out, sum);
#else
    /* step 11's finish (../reduce.cu explains each line) */
    sum = block_sum<THREADS>(sum);
    bool last = false;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
        __threadfence();
    }
    if (!__syncthreads_or(last))
        return;
    sum = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        sum += __ldcg(&partials[b]);
    sum = block_sum<THREADS>(sum);
    if (threadIdx.x == 0)
        *out = sum;
#endif
    (void)partials;
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
    size_t most = most_blocks ? (size_t)most_blocks : (size_t)resident;
    return blocks < most ? blocks : most;
}

/**
 * Longest chain of additions (float error bound): the loads and the block tree, then
 * every block's sum (or every warp's) chained through *out, one atomic after another.
 */
static uint64_t addition_depth(size_t n)
{
    size_t blocks = blocks_for(n);
    if (GRID_FINISH == LAST_BLOCK)   /* a second pass of one block, as step 11's */
        return pass_depth(n, blocks, THREADS) + pass_depth(blocks, 1, THREADS);
    if (GRID_FINISH == BLOCK_ATOMIC)
        return pass_depth(n, blocks, THREADS) + blocks;
    return pass_depth(n, blocks, THREADS) + blocks * (THREADS / 32);
}

#if GRID_FINISH == WARP_ATOMIC
#define VARIANT_NAME "step11_single_pass_warp_atomic"
#define VARIANT_TITLE "single pass, warp atomic"
#elif GRID_FINISH == LAST_BLOCK
#define VARIANT_NAME "step11_single_pass_last_block"
#define VARIANT_TITLE "single pass, last block, --blocks"
#else
#define VARIANT_NAME "step11_single_pass_block_atomic"
#define VARIANT_TITLE "single pass, block atomic"
#endif

extern "C" const step_info STEP = {
    .number = 11, .name = VARIANT_NAME, .title = VARIANT_TITLE, .citation = "beyond Harris",
    .idea = "one launch: blocks (or warps) add their sums to the result with atomicAdd()",
    .max_n = MAX_N_64BIT, .threads = THREADS, .kernel = (const void *)reduce_pass,
    .elements_per_block = THREADS * VEC_WIDTH * LOADS_IN_FLIGHT,
    .blocks_for = blocks_for, .scratch_elements = NULL, .addition_depth = addition_depth, .own_flags = &blocks_flag,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    if (blocks_for(n) == 0) return query_error;  // the occupancy query failed: no exit, its error
    (void)scratch_b;  /* the atomic finishes keep no partial sums: they go straight into *out */
    cudaError_t err = GRID_FINISH == LAST_BLOCK ? cudaSuccess : cudaMemsetAsync(out, 0, sizeof(element_t), stream);
    if (err != cudaSuccess)
        return err;
    reduce_pass<<<(unsigned int)blocks_for(n), THREADS, 0, stream>>>(in, scratch_a, out, n);
    return cudaGetLastError();
}
