/**
 * @file step15_combine_in_kernel/multi_gpu.cu
 * @brief Step 15: step 12 with the combine inside the kernel: the last block on each GPU
 * stores its GPU's sum into every GPU's memory (NCCL's device API) and adds the G sums.
 *
 * Step 11's kernel file is included as it is; reduce_across() repeats its reduce_pass()
 * with a new end. One launch per GPU, no ncclAllReduce, no host in between.
 */
#include <cuda/atomic>
#include <nccl_device.h>  // NCCL 2.28 or newer: ncclDevComm, windows, LSA pointers
#ifdef MPICH_SKIP_MPICXX  // multi.mk defines it where it builds for MPI: one rank per GPU
#include <mpi.h>
#endif
#include "../step11_single_pass/reduce.cu"
#include "multi_step.h"
#include "harness.h"  // say_errorf(): the one line of a refusal

/** Most GPUs that reach each other by load and store (an NVLink domain). */
#define MAX_PEERS 64
/** One GPU's sum in another GPU's memory, and the call it belongs to (1, 2, ...: never reset). */
struct slot {
    combine_t value;
    unsigned long long call;
};
/** Two halves of MAX_PEERS slots: call k + 1 stores into the other half, never over call k's. */
#define WINDOW_BYTES (2 * MAX_PEERS * sizeof(slot))
/** How long the last block waits for a GPU's sum before it gives up (ns): a peer is lost. */
#define WAIT_NS 10000000000ull
#ifdef COMBINE_STAMPS  // a measuring build (README, "Why it is faster, measured"), not the lesson
#define STAMP(k) stamps[k][p] = clock64()
#else
#define STAMP(k)
#endif

/** Slot `index` of GPU `gpu`'s window; one GPU has no window (connect_gpus()): its slots are `alone`. */
__device__ slot *slot_at(ncclWindow_t window, slot *alone, size_t index, int gpu)
{
    return window ? (slot *)ncclGetLsaPointer(window, index * sizeof(slot), gpu) : alone + index;
}

/**
 * Says which GPU's sum never came and ends the kernel (trap). Never inlined: inlined, in
 * the int build for sm_90 nvcc issued two of step 11's four loads after the first one's
 * add: 0.8% slower (docs/runs/step15-printf.txt).
 */
__device__ __noinline__ void give_up(int gpu, int peer, unsigned long long call)
{
    printf("GPU %d: no sum from GPU %d for call %llu in %llu s: a GPU or rank is lost\n", gpu, peer, call,
           WAIT_NS / 1000000000ull);
    __trap();
}

/**
 * Thread p of the last block stores this GPU's sum into slot `lsaRank` of GPU p's window
 * (an LSA pointer: a store over NVLink), then waits for GPU p's sum in slot p of this GPU's.
 * Thread 0 adds the G sums in GPU order: the same total, and for floats the same bits, on every GPU.
 * A sum that does not come within WAIT_NS ends the kernel (trap): the program's next CUDA
 * call fails, and it exits with that error.
 */
__device__ void combine_across(ncclDevComm dev, ncclWindow_t window, slot *alone, combine_t mine, combine_t *sum,
                               unsigned long long call)
{
    __shared__ combine_t sums[MAX_PEERS];
    size_t half = (call & 1) * MAX_PEERS;
    int p = threadIdx.x;
#ifdef COMBINE_STAMPS
    __shared__ long long stamps[5][MAX_PEERS];
#endif
    if (p < dev.lsaSize) {
        STAMP(0);
        slot *there = slot_at(window, alone, half + dev.lsaRank, p);
        there->value = mine;
        STAMP(1);
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(there->call).store(call, cuda::memory_order_release);
        STAMP(2);
        slot *here = slot_at(window, alone, half + p, dev.lsaRank);
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> arrived(here->call);
        unsigned long long start, now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
        while (arrived.load(cuda::memory_order_acquire) != call) {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (now - start > WAIT_NS)
                give_up(dev.lsaRank, p, call);
        }
        sums[p] = here->value;
        STAMP(3);
    }
    __syncthreads();
    if (p == 0) {
        combine_t total = 0;
        for (int g = 0; g < dev.lsaSize; g++)
            total += sums[g];
        *sum = total;
        STAMP(4);
    }
#ifdef COMBINE_STAMPS  // every 4th call: a print's own time is not in the next call's figures
    __syncthreads();
    if (p < dev.lsaSize && call % 4 == 0)
        printf("stamps GPU %d peer %d call %llu, clocks: store %lld release %lld wait %lld, the sum %lld from the start\n",
               dev.lsaRank, p, call, stamps[1][p] - stamps[0][p], stamps[2][p] - stamps[1][p],
               stamps[3][p] - stamps[2][p], stamps[4][0] - stamps[0][0]);
#endif
}

/** Step 11's reduce_pass(); its last block then combines the G GPUs' sums (combine_across()). */
__global__ void reduce_across(const element_t *in, element_t *partials, size_t n, ncclDevComm dev,
                              ncclWindow_t window, slot *alone, combine_t *sum, unsigned long long call)
{
    const element_vec_t *vectors = (const element_vec_t *)in;
    size_t vector_count = n / VEC_WIDTH, tile = (size_t)LOADS_IN_FLIGHT * blockDim.x;
    element_t mine = 0;
    for (size_t i = blockIdx.x * tile + threadIdx.x; i < vector_count; i += gridDim.x * tile) {
        element_vec_t v[LOADS_IN_FLIGHT] = {};
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            if (i + k * blockDim.x < vector_count)
                v[k] = vectors[i + k * blockDim.x];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; k++)
            mine += vec_sum(v[k]);
    }
    size_t tail = vector_count * VEC_WIDTH + threadIdx.x;
    if (blockIdx.x == 0 && tail < n)
        mine += in[tail];
    mine = block_sum<THREADS>(mine);
    bool last = false;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = mine;
        __threadfence();
        last = atomicInc(&blocks_done, gridDim.x - 1) == gridDim.x - 1;
        __threadfence();
    }
    if (!__syncthreads_or(last))
        return;
    mine = 0;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        mine += __ldcg(&partials[b]);
    __shared__ combine_t gpu_sum;
    mine = block_sum<THREADS>(mine);
    if (threadIdx.x == 0)
        gpu_sum = mine;  // widened (int): G sums of up to INT_MAX each fit in 64 bits
    __syncthreads();
    combine_across(dev, window, alone, gpu_sum, sum, call);
}

/** The combine alone, adding 0: a GPU with no elements (n < G), or make scaling's combine column. */
__global__ void combine_only(ncclDevComm dev, ncclWindow_t window, slot *alone, combine_t *sum, unsigned long long call)
{
    combine_across(dev, window, alone, 0, sum, call);
}

extern "C" const step_info MULTI_STEP = {
    .number = 15, .name = "step15_combine_in_kernel", .title = "the combine in the kernel", .citation = "beyond Harris",
    .idea = "step 11 on each GPU; its last block stores the GPU's sum on every GPU (NCCL LSA) and adds the G sums",
    .max_n = MAX_N_64BIT, .threads = THREADS, .kernel = (const void *)reduce_across,
    .elements_per_block = THREADS * VEC_WIDTH * LOADS_IN_FLIGHT,
    .blocks_for = blocks_for, .scratch_elements = NULL, .addition_depth = NULL,
};
/** make scaling's rows of this step apart from step 12's and 13's (multi_main.c's label). */
extern "C" const char MULTI_SETUP[] = ", kernel combine";  // "one MPI rank per GPU, kernel combine": 36 of 38 columns

/** Each GPU's device communicator and window, the calls made, and whether the last one combined. */
static struct peer_state {
    ncclComm_t comm;
    ncclDevComm dev;
    ncclWindow_t window;
    slot *slots;
    unsigned long long calls;
    int combined;
} peers[MAX_PEERS];
static int peer_count;

static peer_state *peer_of(const shard *s)
{
    int g = 0;
    while (g < peer_count - 1 && peers[g].comm != s->comm)
        g++;
    return &peers[g];
}

extern "C" cudaError_t shard_reduce(const shard *s)
{
    cudaError_t err = cudaSetDevice(s->device);
    peer_state *p = peer_of(s);
    if (err == cudaSuccess && s->n > 0 && blocks_for(s->n) == 0)
        return query_error;  // step 11's occupancy query failed
    if (err == cudaSuccess && s->n == 0)  // n < G: this GPU holds nothing and adds 0
        combine_only<<<1, THREADS, 0, s->stream>>>(p->dev, p->window, p->slots, s->sum, ++p->calls);
    else if (err == cudaSuccess)
        reduce_across<<<(unsigned int)blocks_for(s->n), THREADS, 0, s->stream>>>(s->in, s->scratch_a, s->n, p->dev,
                                                                               p->window, p->slots, s->sum, ++p->calls);
    p->combined = 1;
    return err == cudaSuccess ? cudaGetLastError() : err;
}

/** Refuses, in one line, where there is no window over every GPU, and exits 4 (NCCL's own
 * words: run with NCCL_DEBUG=WARN). */
static ncclResult_t no_window(void)
{
    say_errorf("step 15 needs NCCL's symmetric memory over every GPU (at most %d): one node, each GPU reaching "
               "the others directly (NVLink or PCIe P2P, NCCL_P2P_DISABLE unset); else use step 12 or 13", MAX_PEERS);
    exit(EXIT_CUDA_ERROR);
}

extern "C" ncclResult_t connect_gpus(ncclComm_t *comms, const int *devices, int gpus)
{
#ifdef MPICH_SKIP_MPICXX
    // step 13's connect: one GPU per process, this rank's (devices[0])
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    ncclUniqueId id;
    ncclResult_t result = rank == 0 ? ncclGetUniqueId(&id) : ncclSuccess;
    if (result != ncclSuccess)
        return result;
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    result = ncclCommInitRank(&comms[0], ranks, id, rank);
#else
    ncclResult_t result = ncclCommInitAll(comms, gpus, devices);
#endif
    peer_count = gpus;
    for (int g = 0; g < gpus && result == ncclSuccess; g++) {  // the window: symmetric memory, zeroed
        peers[g].comm = comms[g];
        if (cudaSetDevice(devices[g]) != cudaSuccess)
            return ncclUnhandledCudaError;
        result = ncclMemAlloc((void **)&peers[g].slots, WINDOW_BYTES);
        // zeroed before any peer may store into it (cudaMemset may return before it is done)
        if (result == ncclSuccess && (cudaMemset(peers[g].slots, 0, WINDOW_BYTES) != cudaSuccess ||
                                      cudaDeviceSynchronize() != cudaSuccess))
            return ncclUnhandledCudaError;
    }
    int count = 0;
    if (result == ncclSuccess && (result = ncclCommCount(comms[0], &count)) == ncclSuccess && count == 1) {
        // One GPU: NCCL 2.28.3 gives a communicator of one no symmetric memory (its src/transport.cc,
        // localRanks == 1), so no window: the kernel stores to and waits on its own slots (slot_at()).
        peers[0].dev.nRanks = peers[0].dev.lsaSize = 1;
        return ncclSuccess;
    }
    if (result != ncclSuccess)
        return result;
    result = ncclGroupStart();  // collectives: every rank of this process in one group, ended whatever happened
    for (int g = 0; g < gpus && result == ncclSuccess; g++)
        result = ncclCommWindowRegister(comms[g], peers[g].slots, WINDOW_BYTES, &peers[g].window,
                                        NCCL_WIN_COLL_SYMMETRIC);
    ncclResult_t end = ncclGroupEnd();
    if (result != ncclSuccess || end != ncclSuccess)
        return result != ncclSuccess ? result : end;
    for (int g = 0; g < gpus; g++)
        if (!peers[g].window)
            return no_window();
#ifdef NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER  // 2.29 refuses a struct without its magic number
    ncclDevCommRequirements needs = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;  // nothing but the windows
#else
    ncclDevCommRequirements needs = {};  // 2.28: nothing but the windows
#endif
    result = ncclGroupStart();
    for (int g = 0; g < gpus && result == ncclSuccess; g++)
        result = ncclDevCommCreate(comms[g], &needs, &peers[g].dev);
    end = ncclGroupEnd();
    if (result != ncclSuccess || end != ncclSuccess)  // 2.28: "Communicator does not support symmetric memory"
        return no_window();
    for (int g = 0; g < gpus; g++)
        if (peers[g].dev.lsaSize != peers[g].dev.nRanks || peers[g].dev.nRanks > MAX_PEERS)  // a GPU out of reach
            return no_window();
    return ncclSuccess;
}

extern "C" ncclResult_t combine(const shard *shards, int gpus)
{
    for (int g = 0; g < gpus; g++) {  // after shard_reduce(): done in its kernel; else the combine alone
        const shard *s = &shards[g];
        peer_state *p = peer_of(s);
        if (!p->combined && cudaSetDevice(s->device) == cudaSuccess)
            combine_only<<<1, THREADS, 0, s->stream>>>(p->dev, p->window, p->slots, s->sum, ++p->calls);
        p->combined = 0;
    }
    return cudaGetLastError() == cudaSuccess ? ncclSuccess : ncclUnhandledCudaError;
}
