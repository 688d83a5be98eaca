/**
 * @file cub_reference/defect/gpu_to_gpu_repro.cu
 * @brief CUB's gpu_to_gpu DeviceReduce::Sum against an exact sum, float and double: the
 * standalone reproducer of docs/cub-gpu-to-gpu-defect.md (no harness, one file).
 *
 *   nvcc -std=c++17 -arch=native -I build/cccl/include gpu_to_gpu_repro.cu -o repro
 *   ./repro 1073741829 2147483653          (sizes: N, or 2^K, or 2^K+M, 2^K-M)
 *
 * Element i is h / 2^32 in [0, 1), h = (i mod 2^20) x 2654435761 mod 2^32, cut to 24 bits for
 * float and 30 for double: exact in its type, so the sum is a count of 2^-24 (2^-30) that the
 * host adds exactly (one period of 2^20 values, times the whole periods, plus the rest).
 * Bits below the accumulator's first fold are needed: they are what the later folds hold,
 * and the defect is in theirs (docs/cub-gpu-to-gpu-defect.md). The GPU's
 * sum passes when it is within the bound of the binned accumulator CUB uses (Ahrens,
 * Demmel and Nguyen: n 2^(W(1-K)) max|x| + 7 u |sum|, K = 3 folds, W = 13 bits for float,
 * 40 for double, cub/detail/rfa.cuh). Prints one line per type and size; exits 1 if any
 * failed, 2 on bad input, 3 on a CUDA error.
 */
#include <cub/device/device_reduce.cuh>
#include <cuda/execution>
#include <cuda/std/__cccl/version.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** The bits of element i: a multiplicative hash of i mod 2^20, its top `bits` (see the file comment). */
__host__ __device__ static uint32_t units(uint64_t i, int bits)
{
    return (uint32_t)(((i & ((1u << 20) - 1)) * 2654435761ull) & 0xffffffffu) >> (32 - bits);
}

template <typename T>
__global__ static void fill(T *x, uint64_t n, int bits)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        x[i] = (T)ldexp((double)units(i, bits), -bits);
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
static int run(const char *type, uint64_t n, int bin_width)
{
    const int bits = sizeof(T) == 4 ? 24 : 30;
    uint64_t period = 0, rest = 0;   // exact, in units of 2^-bits
    for (uint64_t i = 0; i < (1u << 20); i++) {
        period += units(i, bits);
        rest += i < n % (1u << 20) ? units(i, bits) : 0;
    }
    // (n >> 20) x period < 2^64 for n < 2^34: exact in long double's 64-bit significand
    long double expected = ldexpl((long double)(n >> 20) * period + rest, -bits);
    T *x, *out, got;
    check(cudaMalloc(&x, n * sizeof(T)), "cudaMalloc of the input");
    check(cudaMalloc(&out, sizeof(T)), "cudaMalloc of the result");
    fill<<<4096, 256>>>(x, n, bits);
    check(cudaGetLastError(), "fill");
    auto env = cuda::execution::require(cuda::execution::determinism::gpu_to_gpu);
    check(cub::DeviceReduce::Sum(x, out, (int64_t)n, env), "DeviceReduce::Sum");
    check(cudaMemcpy(&got, out, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy of the result");
    cudaFree(x);
    cudaFree(out);
    long double u = ldexpl(1, -(int)(sizeof(T) == 4 ? 24 : 53));
    long double bound = ldexpl((long double)n, bin_width * (1 - 3)) + 7 * u * expected;
    long double error = fabsl((long double)got - expected);
    printf("%-6s n=%-11llu expected %.6Lf got %.6Lf error %.3Lg bound %.3Lg %s\n", type, (unsigned long long)n, expected,
           (long double)got, error, bound, error <= bound ? "PASS" : "FAIL");
    return error > bound;
}

/** N, 2^K, 2^K+M or 2^K-M; 0 for anything else. */
static uint64_t parse_size(const char *text)
{
    char *end;
    if (text[0] == '2' && text[1] == '^') {
        unsigned long k = strtoul(text + 2, &end, 10);
        long long m = *end ? strtoll(end, &end, 10) : 0;
        return k < 63 && !*end ? (uint64_t)((1ull << k) + m) : 0;
    }
    unsigned long long v = strtoull(text, &end, 10);
    return *end ? 0 : v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SIZE...   (e.g. 2^30+5 2^31+5)\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; a++)
        if (parse_size(argv[a]) == 0) {
            fprintf(stderr, "gpu_to_gpu_repro: '%s' is no size: give N, 2^K or 2^K+M, e.g. 2^31+5\n", argv[a]);
            return 2;
        }
    int device = 0, sms = 0;
    cudaDeviceProp prop;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
#ifdef CUB_GPU_TO_GPU_RENORM
    const char *headers = "patched: renorm() after the thread loop";
#else
    const char *headers = "as released";
#endif
    printf("CCCL %d.%d.%d (%s), %s, %d SMs\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION, headers,
           prop.name, sms);
    int failed = 0;
    for (int a = 1; a < argc; a++) {
        failed |= run<float>("float", parse_size(argv[a]), 13);
        failed |= run<double>("double", parse_size(argv[a]), 40);
    }
    return failed;
}
