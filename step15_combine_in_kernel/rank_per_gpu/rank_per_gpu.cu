/**
 * @file step15_combine_in_kernel/rank_per_gpu/rank_per_gpu.cu
 * @brief Step 15 with one MPI rank per GPU: the same file, built with MPI (multi.mk).
 */
#include "../multi_gpu.cu"
