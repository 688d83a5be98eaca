/** @file cub_reference/defect/host_emulation.cpp
 * @brief CCCL 3.5.0's own binned accumulator (cub/detail/rfa.cuh, plain C++ for g++) driven as
 * DeterministicDeviceReduceKernel drives it, then one block's accumulators added (+=) in thread
 * order, not BlockReduce's order: without and with renorm() after each thread's loop (renorm.patch).
 *   g++ -std=c++17 -O2 -I <CCCL 3.5.0>/include host_emulation.cpp -o host_emulation && ./host_emulation
 */
#define __shared__   // rfa.cuh's bin table is a __shared__ static: one array on the host
#include <cub/detail/rfa.cuh>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <vector>

template <typename T> using accumulator = cub::detail::rfa::ReproducibleFloatingAccumulator<T>;

/** One thread's loop over `deposits` values, `items` a turn, zeros past them, as the kernel's. */
template <typename T>
static accumulator<T> thread_loop(const T *x, int deposits, int items, bool renorm_after)
{
    accumulator<T> acc{};
    for (int i = 0, count = 0; i < deposits; i += items) {
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

/** How many of 20 blocks of `threads` x `deposits` values in [0, 1) (24 or 53 random bits) sum wrong. */
template <typename T>
static int wrong_sums(int threads, int deposits, int items, bool renorm_after)
{
    uint64_t state = 1;   // a 64-bit LCG, its top bits
    int wrong = 0;
    std::vector<T> x((size_t)threads * deposits);
    for (int trial = 0; trial < 20; trial++) {
        long double exact = 0;
        for (T &v : x) {
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

/** The lines for one type: wrong sums per deposit count; then a block of idle and all-zero threads, alone and with 0.75. */
template <typename T>
static void show(const char *type, int threads, int items, std::vector<int> deposits)
{
    constexpr int bins = accumulator<T>::max_index + accumulator<T>::max_fold;
    T *table = cub::detail::rfa::get_shared_bin_array<T, bins>();
    for (int i = 0; i < bins; i++)
        table[i] = accumulator<T>::initialize_bin(i);
    for (int d : deposits)
        printf("%-6s %3d threads x %4d deposits (endurance %d): wrong sums %2d of 20 as released, %2d patched\n", type,
               threads, d, accumulator<T>{}.endurance(), wrong_sums<T>(threads, d, items, false),
               wrong_sums<T>(threads, d, items, true));
    std::vector<T> zeros(64, T(0)), one(zeros);
    one[7] = T(0.75);
    printf("%-6s %3d threads, idle or depositing zeros: block sum", type, threads);
    for (int run = 0; run < 4; run++) {   // odd threads deposit 64 zeros, even ones none; runs 2, 3: 0.75 in thread 1
        accumulator<T> sum = thread_loop(&zeros[0], 0, items, run % 2);
        for (int k = 1; k < threads; k++)
            sum += thread_loop(run > 1 && k == 1 ? &one[0] : &zeros[0], k % 2 ? 64 : 0, items, run % 2);
        printf("%s %.9g %s", run == 2 ? "; with 0.75:" : "", (double)sum.conv_to_fp(), run % 2 ? "patched" : "as released,");
    }
    printf("\n");
}

int main(void)
{
    // CUB 3.5.0's policy for cc 9.0 (tuning_reduce.cuh): 224 threads x 13 floats, 128 x 5 doubles a turn; why these
    // deposit counts: README.md, "Host emulation" (a renorm() at the 512th float, 2048th double)
    show<float>("float", 224, 13, { 507, 512, 513, 520, 806, 1300 });
    show<double>("double", 128, 5, { 2045, 2048, 2049, 2050, 2115, 3000 });
    return 0;
}
