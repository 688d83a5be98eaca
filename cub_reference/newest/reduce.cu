/**
 * @file cub_reference/newest/reduce.cu
 * @brief The CUB reference, ../reduce.cu, built against the newest CCCL (see the Makefile).
 *
 * The same file, so that the toolkit's and the newest CUB's rows differ only in the headers
 * they were built with: ../reduce.cu chooses by the headers' version macros.
 */
#include "../reduce.cu"
