/**
 * @file gate.cu
 * @brief The gate kernel and its host side (see gate.h).
 */
#include "gate.h"
#include "gpu.h"

/** How long a gate waits for the host before it gives up, in nanoseconds. */
#define GATE_TIMEOUT_NS 1000000000ull

/** Nanoseconds from the GPU's global timer, which runs at a fixed rate whatever the clock. */
__device__ static unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/**
 * One thread spins until the host's flag reaches `opening`, reading it over PCIe (volatile)
 * and sleeping between reads so as not to flood the bus; after GATE_TIMEOUT_NS it gives up
 * and says so, rather than hang the program.
 */
__global__ void gate_kernel(const volatile unsigned int *flag, unsigned int opening, unsigned int *timed_out)
{
    unsigned long long start = global_ns();
    while (*flag < opening) {
        if (global_ns() - start > GATE_TIMEOUT_NS) {
            *timed_out = 1;
            return;
        }
        __nanosleep(1000);
    }
}

extern "C" void gate_create(gpu_gate *gate)
{
    CUDA_CHECK(cudaHostAlloc((void **)&gate->flag, sizeof *gate->flag, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostAlloc((void **)&gate->timed_out, sizeof *gate->timed_out, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&gate->flag_on_device, (void *)gate->flag, 0));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&gate->timed_out_on_device, gate->timed_out, 0));
    *gate->flag = 0;
    *gate->timed_out = 0;
    gate->openings = 0;
}

extern "C" void gate_close(gpu_gate *gate, cudaStream_t stream)
{
    gate_kernel<<<1, 1, 0, stream>>>(gate->flag_on_device, gate->openings + 1, gate->timed_out_on_device);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void gate_open(gpu_gate *gate)
{
    gate->openings++;
    *gate->flag = gate->openings;
}

extern "C" int gate_timed_out(const gpu_gate *gate)
{
    return *(volatile unsigned int *)gate->timed_out != 0;
}

extern "C" void gate_destroy(gpu_gate *gate)
{
    CUDA_CHECK(cudaFreeHost((void *)gate->flag));
    CUDA_CHECK(cudaFreeHost(gate->timed_out));
}
