/**
 * @file
 * @brief Step 14: the same bits on every GPU: the input is cut by n, not by the grid.
 *
 * A kernel is two parts: each thread loads its share of the input, then block_sum()
 * combines the block's threads into one partial sum. The blocks' sums then become one,
 * in more passes of the kernel (steps 0 to 10, common/passes.c) or in its last block
 * (step 11). The steps change one of these parts at a time.
 */
#define SAME_BITS 1
#include "blocks_flag.h"
#include "step.h"

/**
 * Threads per block: 512, fewer blocks to launch and to combine: 4 fit on an SM of 2048
 * threads, 3 on one of 1536, 2 on sm_75's 1024 (registers permitting).
 * `make resources` prints the blocks per SM on your GPU.
 */
#define THREADS 512
/** 16-byte loads each thread issues back to back before it needs their values. */
#define LOADS_IN_FLIGHT 4
/**
 * Most chunks the input is cut into, each leaving one partial sum: a constant, so the cut
 * depends on n alone. 1024: more than an H100 runs blocks of 512 at once (528 for int
 * and float; 396 for double, whose 34 registers fit 3 a SM: make resources TYPE=double).
 */
#define MOST_CHUNKS 1024
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
 * adds any: more bytes in flight per SM. Chunk `chunk` is every `chunks`-th tile of
 * LOADS_IN_FLIGHT * blockDim.x vectors from tile `chunk` on; chunk 0 adds the n % VEC_WIDTH
 * elements after the last whole vector. `in` must be 16-byte aligned (cudaMalloc's is).
 */
__device__ element_t chunk_sum(const element_t *in, size_t n, unsigned int chunk, unsigned int chunks)
{
    const element_vec_t *vectors = (const element_vec_t *)in;
    size_t vector_count = n / VEC_WIDTH, tile = (size_t)LOADS_IN_FLIGHT * blockDim.x;
    element_t sum = 0;
    for (size_t i = chunk * tile + threadIdx.x; i < vector_count; i += chunks * tile) {
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
    if (chunk == 0 && tail < n)
        sum += in[tail];
    return block_sum<THREADS>(sum);
}

/** Each block sums whole chunks, whichever the grid gives it, into partials[chunk]. */
__global__ void reduce_pass(const element_t *in, element_t *partials, element_t *out, size_t n, unsigned int chunks)
{
    for (unsigned int chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
        element_t sum = chunk_sum(in, n, chunk, chunks);
        if (threadIdx.x == 0)
            partials[chunk] = sum;
        __syncthreads();  // warp 0 has read block_sum()'s shared memory before the next chunk writes it
    }
    bool last = false;
    if (threadIdx.x == 0) {
        __threadfence();  // release: fence, then ticket: this block's partials are visible before it counts
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
        __threadfence();  // acquire: ticket, then fence: every counted partial is visible after it
    }
    if (!__syncthreads_or(last))  // a barrier: all threads learn "last" and see what thread 0 saw
        return;
    element_t sum = 0;
    for (unsigned int b = threadIdx.x; b < chunks; b += blockDim.x)
        sum += __ldcg(&partials[b]);  // at L2, not kept in L1: each partial is read once
    sum = block_sum<THREADS>(sum);  // a fixed order: the same result on every call
    if (threadIdx.x == 0)
        *out = sum;
}

/** The occupancy query's error, if it failed: step_reduce() returns it (no step exits). */
static cudaError_t query_error = cudaSuccess;
/** Chunks, and so partial sums, of n inputs: one per tile, 1 to MOST_CHUNKS: n alone decides. */
static size_t chunks_for(size_t count)
{
    size_t tiles = (count / VEC_WIDTH + LOADS_IN_FLIGHT * THREADS - 1) / (LOADS_IN_FLIGHT * THREADS);
    return tiles < 1 ? 1 : tiles < MOST_CHUNKS ? tiles : MOST_CHUNKS;
}

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
    size_t blocks = chunks_for(count), most = most_blocks ? (size_t)most_blocks : (size_t)resident;
    return blocks < most ? blocks : most;
}

extern "C" const step_info STEP = {
    .number = 14, .name = "step14_same_bits", .title = "same bits on every GPU", .citation = "beyond Harris",
    .idea = "cut the input by n, not by the grid: the same float bits on every GPU",
    .max_n = MAX_N_64BIT, .threads = THREADS, .kernel = (const void *)reduce_pass,
    .elements_per_block = THREADS * VEC_WIDTH * LOADS_IN_FLIGHT,
    .blocks_for = chunks_for, .scratch_elements = NULL, .addition_depth = NULL, .own_flags = &blocks_flag,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    if (blocks_for(n) == 0) return query_error;  // the occupancy query failed: no exit, its error
    reduce_pass<<<(unsigned int)blocks_for(n), THREADS, 0, stream>>>(in, scratch_a, out, n, (unsigned int)chunks_for(n));
    return cudaGetLastError();
}
