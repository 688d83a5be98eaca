/**
 * @file cub_reference/defect/host_emulation.cpp
 * @brief CCCL's own binned accumulator (cub/detail/rfa.cuh: plain C++ outside nvcc, g++) driven as
 * DeterministicDeviceReduceKernel drives it, then the threads' accumulators added (+=, as its
 * BlockReduce does), without and with renorm() after each thread's loop (renorm.patch). No GPU.
 */
#define __shared__   // rfa.cuh's bin table is a __shared__ static: one array on the host
#include <cub/detail/rfa.cuh>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <vector>

template <typename T> using accumulator = cub::detail::rfa::ReproducibleFloatingAccumulator<T>;

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

/** Threads with nothing to add, which the patch renorm()s too: a block of idle and all-zero ones, then with 0.75 in one. */
template <typename T>
static void idle_threads(const char *type, int threads, int items)
{
    std::vector<T> zeros(64, T(0)), one(zeros);
    one[7] = T(0.75);
    printf("%-6s %3d threads, idle or depositing zeros: block sum", type, threads);
    for (int run = 0; run < 4; run++) {   // as released, patched; then both with one value
        accumulator<T> sum = thread_loop(&zeros[0], 0, items, run % 2);
        for (int k = 1; k < threads; k++)   // odd threads deposit zeros, even ones none; 0.75 in thread 1
            sum += thread_loop(run > 1 && k == 1 ? &one[0] : &zeros[0], k % 2 ? 64 : 0, items, run % 2);
        printf("%s %.9g %s", run == 2 ? "; with 0.75:" : "", (double)sum.conv_to_fp(), run % 2 ? "patched" : "as released,");
    }
    printf("\n");
}

int main(void)
{
    // CUB's H100 policy (tuning_reduce.cuh): 224 threads x 13 floats, 128 x 5 doubles a turn; 806 and 2115:
    // the fewest deposits of a thread at 2^30+5 floats and 2^31+5 doubles (reduce.cu: gpu_to_gpu_exposed_from())
    show<float>("float", 224, 13, { 507, 806, 1300 });
    show<double>("double", 128, 5, { 2045, 2115, 3000 });
    idle_threads<float>("float", 224, 13);
    idle_threads<double>("double", 128, 5);
    return 0;
}
