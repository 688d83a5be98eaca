/**
 * @file cub_reference/newest/reduce.cu
 * @brief The CUB reference, ../reduce.cu, built against the newest CCCL (see the Makefile), with
 * what ../defect/ tells of those headers: the same file, so that the toolkit's and the newest
 * CUB's rows differ only in the headers they were built with.
 */
#include "../defect/trigger.cuh"
