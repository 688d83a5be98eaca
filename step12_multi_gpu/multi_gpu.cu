/**
 * @file step12_multi_gpu/multi_gpu.cu
 * @brief Step 12: the input in shards on G GPUs; step 11 on each; NCCL adds the G sums.
 *
 * Step 11's kernel file is included as it is, not copied: its kernel, its STEP and its
 * step_reduce() reduce each GPU's shard. This file adds only what G GPUs need.
 */
#include "../step11_single_pass/reduce.cu"
#include "multi_step.h"

extern "C" const step_info MULTI_STEP = {
    .number = 12, .name = "step12_multi_gpu", .title = "G GPUs, NCCL all-reduce", .citation = "beyond Harris",
    .idea = "the input in shards on G GPUs: step 11 on each, ncclAllReduce adds the G partial sums",
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
    return ncclCommInitAll(comms, gpus, devices);  // every rank at once, in this process: one node only
}

extern "C" ncclResult_t combine(const shard *shards, int gpus)
{
    ncclResult_t result = ncclGroupStart();  // one thread drives every GPU: G calls, one collective
    for (int g = 0; g < gpus && result == ncclSuccess; g++)
        result = ncclAllReduce(shards[g].sum, shards[g].sum, 1, COMBINE_NCCL_TYPE, ncclSum, shards[g].comm,
                               shards[g].stream);
    ncclResult_t end = ncclGroupEnd();  // the group ends whatever happened in it
    return result != ncclSuccess ? result : end;
}
