/**
 * @file passes.c
 * @brief The multi-pass driver (see passes.h).
 */
#include "passes.h"

cudaError_t reduce_in_passes(pass_launcher launch, size_t (*blocks_for)(size_t count),
                             const element_t *in, size_t n, element_t *out,
                             element_t *scratch_a, element_t *scratch_b, cudaStream_t stream)
{
    element_t *scratch[2] = { scratch_a, scratch_b };
    const element_t *src = in;
    size_t count = n;
    int next = 0;

    do {
        size_t blocks = blocks_for(count);
        element_t *dst = (blocks == 1) ? out : scratch[next];
        launch(src, dst, count, blocks, stream);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
        src = dst;
        next ^= 1;
        count = blocks;
    } while (count > 1);
    return cudaSuccess;
}
