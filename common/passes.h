/**
 * @file passes.h
 * @brief Reduction in passes: the loop that turns a one-block-one-partial kernel into a
 * whole reduction. Shared by steps 0 to 10, so a step file shows only its kernel.
 */
#ifndef REDUCE_PASSES_H
#define REDUCE_PASSES_H

#include "step.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Launches one pass: `blocks` blocks reduce `count` values at `in` to `blocks` partial
 * sums at `out`. A step implements it with its kernel's `<<<...>>>`.
 */
typedef void (*pass_launcher)(const element_t *in, element_t *out, size_t count,
                              size_t blocks, cudaStream_t stream);

/**
 * Runs passes until one value is left: n -> blocks_for(n) -> ... -> 1. Blocks of an
 * ordinary launch cannot wait for each other (grid.sync() needs a cooperative launch), so
 * each level of the tree across blocks is a launch, its end the barrier. Passes alternate
 * between the scratch buffers (none reads what it writes); the last writes to `out`.
 */
cudaError_t reduce_in_passes(pass_launcher launch, size_t (*blocks_for)(size_t count),
                             const element_t *in, size_t n, element_t *out,
                             element_t *scratch_a, element_t *scratch_b, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
