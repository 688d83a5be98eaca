/**
 * @file step13_rank_per_gpu/multi_gpu.cu
 * @brief Step 13: step 12 with one process per GPU, started by MPI, so the ranks may span nodes.
 *
 * Step 11's kernel file is included as it is, not copied: its kernel, its STEP and its
 * step_reduce() reduce each GPU's shard. This file adds only what G processes need.
 */
#include <mpi.h>
#include "../step11_single_pass/reduce.cu"
#include "multi_step.h"

extern "C" const step_info MULTI_STEP = {
    .number = 13, .name = "step13_rank_per_gpu", .title = "one MPI rank per GPU", .citation = "beyond Harris",
    .idea = "one process per GPU, started by MPI: the ranks share an NCCL id, so the GPUs may sit on many nodes",
    .max_n = MAX_N_64BIT, .threads = THREADS, .kernel = (const void *)reduce_pass,
    .elements_per_block = THREADS * VEC_WIDTH * LOADS_IN_FLIGHT,
    .blocks_for = blocks_for, .scratch_elements = NULL, .addition_depth = NULL,
};

/** An int partial sum widened to 64 bits, so that adding G of them cannot overflow. */
__global__ void widen(const element_t *partial, combine_t *sum)
{
    *sum = *partial;
}

extern "C" cudaError_t shard_reduce(const shard *s)
{
    cudaError_t err = cudaSetDevice(s->device);
    if (err != cudaSuccess)
        return err;
    if (s->n == 0)  // n < G: this GPU holds nothing and adds 0
        return cudaMemsetAsync(s->sum, 0, sizeof(combine_t), s->stream);
    err = step_reduce(s->in, s->n, s->partial, s->scratch_a, s->scratch_b, s->stream);
    if (err == cudaSuccess && (void *)s->partial != (void *)s->sum) {
        widen<<<1, 1, 0, s->stream>>>(s->partial, s->sum);
        err = cudaGetLastError();
    }
    return err;
}

extern "C" ncclResult_t connect_gpus(ncclComm_t *comms, const int *devices, int gpus)
{
    (void)devices, (void)gpus;  // one: this process's GPU, already current
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    ncclUniqueId id;  // the communicator's name: rank 0 makes it, MPI hands it to every rank
    if (rank == 0) {
        ncclResult_t result = ncclGetUniqueId(&id);
        if (result != ncclSuccess)
            return result;  // the driver exits, and MPI_Abort ends the ranks waiting below
    }
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    return ncclCommInitRank(&comms[0], ranks, id, rank);  // waits until all G ranks have joined
}

extern "C" ncclResult_t combine(const shard *shards, int gpus)
{
    (void)gpus;  // one process, one GPU: one call, no group
    return ncclAllReduce(shards[0].sum, shards[0].sum, 1, COMBINE_NCCL_TYPE, ncclSum, shards[0].comm,
                         shards[0].stream);
}
