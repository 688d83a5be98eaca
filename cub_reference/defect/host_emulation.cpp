/**
 * @file cub_reference/defect/host_emulation.cpp
 * @brief CCCL's own binned accumulator (cub/detail/rfa.cuh, compiled for the host by g++:
 * its functions are plain C++ outside nvcc) driven the way DeterministicDeviceReduceKernel
 * drives it: each thread sets the largest value of `items` values, deposits them with
 * unsafe_add(), renorm()s when its count reaches endurance(); then the threads' accumulators
 * are added (+=, as its BlockReduce does), without and with one renorm() after each
 * thread's loop (renorm.patch). No GPU: make cub-defect runs it first.
 */
#define __shared__   // rfa.cuh's bin table is a __shared__ static: one array on the host
#include <cub/detail/rfa.cuh>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <vector>

template <typename T>
using accumulator = cub::detail::rfa::ReproducibleFloatingAccumulator<T>;

/** One thread's loop over its `deposits` values, `items` at a time, as the kernel's. */
template <typename T>
static accumulator<T> thread_loop(const T *x, int deposits, int items, bool renorm_after)
{
    accumulator<T> acc{};
    int count = 0;
    for (int i = 0; i < deposits; i += items) {
        T largest = 0;
        for (int j = 0; j < items && i + j < deposits; j++)
            largest = fmax(fabs(x[i + j]), largest);
        acc.set_max_val(largest);
        for (int j = 0; j < items; j++) {
            acc.unsafe_add(i + j < deposits ? x[i + j] : T(0));
            if (++count >= acc.endurance()) {
                acc.renorm();
                count = 0;
            }
        }
    }
    if (renorm_after)
        acc.renorm();
    return acc;
}

/** How many of `trials` sums of `threads` threads x `deposits` values in [0, 1) are wrong. */
template <typename T>
static int wrong_sums(int threads, int deposits, int items, bool renorm_after, int trials)
{
    constexpr int bins = accumulator<T>::max_index + accumulator<T>::max_fold;
    T *table = cub::detail::rfa::get_shared_bin_array<T, bins>();
    for (int i = 0; i < bins; i++)
        table[i] = accumulator<T>::initialize_bin(i);
    uint64_t state = 1;
    int wrong = 0;
    std::vector<T> x((size_t)threads * deposits);
    for (int t = 0; t < trials; t++) {
        long double exact = 0;
        for (T &v : x) {   // 24 or 53 random bits (a 64-bit LCG's top bits)
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            v = sizeof(T) == 4 ? (T)(state >> 40) * 0x1.0p-24f : (T)(state >> 11) * 0x1.0p-53;
            exact += v;
        }
        accumulator<T> sum = thread_loop(&x[0], deposits, items, renorm_after);
        for (int k = 1; k < threads; k++)
            sum += thread_loop(&x[(size_t)k * deposits], deposits, items, renorm_after);
        wrong += fabsl((long double)sum.conv_to_fp() - exact) > 8 * (sizeof(T) == 4 ? 0x1.0p-24 : 0x1.0p-53) * exact;
    }
    return wrong;
}

/** One line per deposit count: wrong sums of one block, as released and with renorm() after the loop. */
template <typename T>
static void show(const char *type, int threads, int items, std::vector<int> deposits)
{
    const int trials = 20;
    for (int d : deposits)
        printf("%-6s %3d threads x %4d deposits (endurance %d): wrong sums %2d of %d as released, %2d patched\n", type,
               threads, d, accumulator<T>{}.endurance(), wrong_sums<T>(threads, d, items, false, trials), trials,
               wrong_sums<T>(threads, d, items, true, trials));
}

int main(void)
{
    // CUB's policy on an H100 (tuning_reduce.cuh, get_deterministic_tuning()): blocks of 224
    // threads taking 13 floats a turn, 128 taking 5 doubles; 806 and 2115 deposits: its threads
    // at 2^30+5 floats and 2^31+5 doubles (cub_reference/reduce.cu: gpu_to_gpu_exposed_from())
    show<float>("float", 224, 13, { 507, 806, 1300 });
    show<double>("double", 128, 5, { 2045, 2115, 3000 });
    return 0;
}
