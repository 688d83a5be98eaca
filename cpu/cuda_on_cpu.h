/**
 * @file cuda_on_cpu.h
 * @brief The CUDA the single-GPU steps use, for g++: a step's kernel file compiles unchanged
 * against it (the build rewrites `k<<<g, b, s, q>>>(args)` into `cpu_launch(k, g, b, s, q)(args)`).
 *
 * A block's threads run as fibers (runtime.cpp) that meet at __syncthreads(); a warp's lanes
 * meet at __syncwarp() and the shuffles. Blocks run one after another. The kernel file is
 * compiled with -fsanitize=thread, whose calls on every load and store runtime.cpp answers
 * itself (no TSan library): that is how it sees shared memory races.
 */
#ifndef CUDA_ON_CPU_H
#define CUDA_ON_CPU_H

#include <cuda_runtime_api.h>
#include <cuda_occupancy.h>
#include <stdint.h>
#include <string.h>
#include <tuple>

#define __CUDACC__ 1
/* Shared memory: the program's thread-local storage (one OS thread runs every fiber; at block
   scope thread_local is static), which holds nothing else: the runtime finds it, poisons it
   before each block and watches it. `extern __shared__ T name[]` (dynamic) is defined by the
   build, 48 KiB, whatever the launch asks. */
#undef __shared__
#define __shared__ thread_local
#define NO_TSAN __attribute__((no_sanitize_thread, always_inline)) inline

namespace cpu {
/** One CUDA thread: a fiber. */
struct thread_state {
    uint3 idx;
    unsigned int tid;
};
extern thread_state *current;
extern dim3 block_idx, block_dim, grid_dim;
/** Runs body(arg) as every thread of every block of the grid; returns the launch's error. */
cudaError_t launch(void (*body)(void *), void *arg, dim3 grid, dim3 block);
int barrier(int op, int predicate);
/** A warp meeting: the lanes of `mask` wait for each other; op 0 __syncwarp, 1 a shuffle, 2 a vote. */
uint64_t warp_meet(unsigned int mask, int op, uint64_t bits, int src_lane);
void exempt(int on);   /**< atomics: not races */

template <class... P> struct launcher {
    void (*kernel)(P...);
    dim3 grid, block;
    template <class... A> void operator()(A... a) const
    {
        std::tuple<P...> args(static_cast<P>(a)...);
        auto run = [&]() { std::apply(kernel, args); };
        launch([](void *f) { (*static_cast<decltype(run) *>(f))(); }, &run, grid, block);
    }
};
template <class T> NO_TSAN T shuffle(unsigned int mask, T v, int src)
{
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof v);
    bits = warp_meet(mask, 1, bits, src);
    memcpy(&v, &bits, sizeof v);
    return v;
}
NO_TSAN unsigned int lane() { return current->tid % 32; }
}  // namespace cpu

template <class... P>
cpu::launcher<P...> cpu_launch(void (*k)(P...), dim3 grid, dim3 block, size_t = 0, cudaStream_t = 0)
{
    return cpu::launcher<P...>{ k, grid, block };
}

#define threadIdx (cpu::current->idx)
#define blockIdx (cpu::block_idx)
#define blockDim (cpu::block_dim)
#define gridDim (cpu::grid_dim)
#define warpSize 32

inline void __syncthreads() { cpu::barrier(0, 0); }
inline int __syncthreads_or(int p) { return cpu::barrier(1, p); }
inline int __syncthreads_and(int p) { return cpu::barrier(2, p); }
inline int __syncthreads_count(int p) { return cpu::barrier(3, p); }
inline void __syncwarp(unsigned int mask = 0xffffffffu) { cpu::warp_meet(mask, 0, 0, 0); }
inline unsigned int __ballot_sync(unsigned int mask, int p) { return (unsigned int)cpu::warp_meet(mask, 2, p != 0, 0); }

template <class T> T __shfl_sync(unsigned int m, T v, int src, int w = 32)
{
    return cpu::shuffle(m, v, (int)(cpu::lane() & ~(w - 1)) + (src & (w - 1)));
}
template <class T> T __shfl_down_sync(unsigned int m, T v, unsigned int d, int w = 32)
{
    unsigned int l = cpu::lane();
    return cpu::shuffle(m, v, (int)((l % w) + d < (unsigned)w ? l + d : l));
}
template <class T> T __shfl_up_sync(unsigned int m, T v, unsigned int d, int w = 32)
{
    unsigned int l = cpu::lane();
    return cpu::shuffle(m, v, (int)((l % w) >= d ? l - d : l));
}
template <class T> T __shfl_xor_sync(unsigned int m, T v, int x, int w = 32)
{
    unsigned int l = cpu::lane(), s = l ^ (unsigned)x;
    return cpu::shuffle(m, v, (int)(s / w == l / w ? s : l));
}

/* Fences order nothing here: one thread runs at a time, and blocks one after another. */
inline void __threadfence() {}
inline void __nanosleep(unsigned int) {}
template <class T> T __ldg(const T *p) { return *p; }
template <class T> T __ldcg(const T *p) { return *p; }

/* The atomics the steps use: a thread runs alone between two meetings, so a plain update is atomic. */
#define CPU_ATOMIC(name, expr)                                                  \
    template <class T, class U> T name(T *p, U v)                             \
    {                                                                           \
        cpu::exempt(1);                                                         \
        T old = *p;                                                             \
        *p = (expr);                                                            \
        cpu::exempt(0);                                                         \
        return old;                                                             \
    }
CPU_ATOMIC(atomicAdd, old + (T)v)
CPU_ATOMIC(atomicInc, old >= (T)v ? 0 : old + 1)

/* The runtime API's C++ overloads (cuda_runtime.h's) that take a kernel itself */
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T *k, int threads, size_t shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)k, threads, shared);
}
template <class T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, T *k)
{
    return cudaFuncGetAttributes(a, (const void *)k);
}

#endif
