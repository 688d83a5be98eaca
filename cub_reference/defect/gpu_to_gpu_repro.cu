/** @file cub_reference/defect/gpu_to_gpu_repro.cu
 * @brief CUB's gpu_to_gpu DeviceReduce::Sum against an exact sum, float and double (README.md here), one file:
 *   nvcc -std=c++17 -arch=native -I build/cccl/include gpu_to_gpu_repro.cu -o repro
 *   ./repro 1073741829 2147483653          (sizes: 2^30+5 and 2^31+5)
 * Element i: the top 24 (float) or 53 (double) bits of SplitMix64's draw i + 1 of seed n + 1, over 2^24 or 2^53
 * (the harness's --check data). The host adds the draws exactly (a 128-bit integer, rounded once to long double); a
 * sum passes within the binned accumulator's bound (n 2^(W(1-K)) max|x| + 7 u |sum|, K = 3, W = 13 for float, 40 for
 * double). A line per type and size; exits 1 if any failed, 2 on bad input, 3 on a CUDA error. */
#include <cub/device/device_reduce.cuh>
#include <cuda/execution>
#include <cuda/std/__cccl/version.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** Which headers: defect.sh builds it against both, -DCUB_GPU_TO_GPU_RENORM the patched. */
#ifdef CUB_GPU_TO_GPU_RENORM
#define HEADERS "patched: renorm() after the thread loop"
#else
#define HEADERS "as released"
#endif

/** Element i of seed's data in units of 2^-bits: SplitMix64's draw i + 1, its top `bits`. */
__host__ __device__ static uint64_t units(uint64_t seed, uint64_t i, int bits)
{
    uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) >> (64 - bits);
}

template <typename T>
__global__ static void fill(T *x, uint64_t n, int bits)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        x[i] = (T)ldexp((double)units(n + 1, i, bits), -bits);
}

/** Exits with status 3 and the call's error. */
static void check(cudaError_t status, const char *what)
{
    if (status != cudaSuccess) {
        fprintf(stderr, "gpu_to_gpu_repro: %s: %s\n", what, cudaGetErrorString(status));
        exit(3);
    }
}

/** Sums n elements of type T with gpu_to_gpu determinism; prints the line; 1 if wrong. */
template <typename T>
static int run(const char *type, uint64_t n, int bin_width, long double expected)
{
    const int bits = sizeof(T) == 4 ? 24 : 53;
    T *x, *out, got;
    check(cudaMalloc(&x, n * sizeof(T)), "cudaMalloc of the input");
    check(cudaMalloc(&out, sizeof(T)), "cudaMalloc of the result");
    fill<<<4096, 256>>>(x, n, bits);
    check(cudaGetLastError(), "fill");
    auto env = cuda::execution::require(cuda::execution::determinism::gpu_to_gpu);
    check(cub::DeviceReduce::Sum(x, out, (int64_t)n, env), "DeviceReduce::Sum");
    check(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy of the result");
    check(cudaFree(x), "cudaFree");
    check(cudaFree(out), "cudaFree");
    long double bound = ldexpl((long double)n, bin_width * (1 - 3)) + 7 * ldexpl(expected, -bits);  // u = 2^-bits
    long double error = fabsl((long double)got - expected);
    printf("%-6s n=%-11llu expected %.6Lf got %.6Lf error %.3Lg bound %.3Lg %s\n", type, (unsigned long long)n,
           expected, (long double)got, error, bound, error <= bound ? "PASS" : "FAIL");
    return error > bound;
}

int main(int argc, char **argv)
{
    uint64_t sizes[64];
    if (argc < 2 || argc > 65) {
        fprintf(stderr, "usage: %s SIZE...   (1 to 64 of them, e.g. 1073741829 2147483653: 2^30+5, 2^31+5)\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        char *end;
        sizes[a - 1] = strtoull(argv[a], &end, 10);
        if (*end || sizes[a - 1] == 0) {
            fprintf(stderr, "gpu_to_gpu_repro: '%s' is no size: give N > 0\n", argv[a]);
            return 2;
        }
    }
    int device = 0;
    cudaDeviceProp prop;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    printf("CCCL %d.%d.%d (%s), %s, %d SMs\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION,
           HEADERS, prop.name, prop.multiProcessorCount);
    int failed = 0;
    for (int a = 1; a < argc; a++) {
        uint64_t n = sizes[a - 1];
        unsigned __int128 floats = 0, doubles = 0;   // in 2^-24 and 2^-53: below 2^87 for n < 2^34
        for (uint64_t i = 0; i < n; i++) {
            uint64_t draw = units(n + 1, i, 64);
            floats += draw >> 40;
            doubles += draw >> 11;
        }
        failed |= run<float>("float", n, 13, ldexpl((long double)floats, -24));
        failed |= run<double>("double", n, 40, ldexpl((long double)doubles, -53));
    }
    return failed;
}
