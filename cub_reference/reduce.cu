/**
 * @file cub_reference/reduce.cu
 * @brief The toolkit's own reduction, cub::DeviceReduce::Sum, in the same harness.
 *
 * CUB ships with the CUDA Toolkit and is what production code calls. Built and timed
 * exactly like the steps, its row closes the `make run-all` table and the "vs CUB"
 * column divides every step's bandwidth by its bandwidth, measured in the same run.
 */
#include <cub/cub.cuh>

#include "data.h"
#include "gpu.h"
#include "step.h"

/**
 * Bytes of temporary storage CUB needs for n inputs (a call with no storage asks). Kept
 * for the last n, so the timed call does not pay for the query.
 */
static size_t temp_bytes(size_t n)
{
    static size_t cached_n = 0, cached_bytes = 0;
    if (n != cached_n) {
        cached_bytes = 0;
        CUDA_CHECK(cub::DeviceReduce::Sum(NULL, cached_bytes, (const element_t *)NULL, (element_t *)NULL, n));
        cached_n = n;
    }
    return cached_bytes;
}

/** CUB's temporary storage, in elements: the harness allocates it as scratch. */
static size_t scratch_elements(size_t n)
{
    return temp_bytes(n) / sizeof(element_t) + 1;
}

/** CUB decides its own grid; the harness asks this only where the functions below don't. */
static size_t blocks_for(size_t count)
{
    (void)count;
    return 1;
}

/**
 * Longest chain of additions, for the float error bound. CUB's internals are not ours to
 * count, so assume the worst structure it could have: two passes, each by blocks of at
 * least 128 threads that each add their share serially and then combine in a tree.
 */
static uint64_t addition_depth(size_t n)
{
    return 2 * pass_depth(n, 1, 128);
}

extern "C" const step_info STEP = {
    .number = -1, .name = "cub_reference", .title = "cub::DeviceReduce::Sum (CUDA Toolkit)",
    .citation = "CUB, CUDA Toolkit",
    .idea = "the toolkit's tuned reduction: the bar every step is measured against",
    .max_n = MAX_N_64BIT, .threads = 0, .kernel = NULL,  // CUB launches its own kernels
    .elements_per_block = 0,  // CUB decides its own grid
    .blocks_for = blocks_for, .scratch_elements = scratch_elements, .addition_depth = addition_depth,
};

extern "C" cudaError_t step_reduce(const element_t *in, size_t n, element_t *out,
                                   element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    (void)scratch_b;
    size_t bytes = temp_bytes(n);
    return cub::DeviceReduce::Sum(scratch_a, bytes, in, out, n, stream);
}
