/**
 * @file combine_variants.h
 * @brief --latency (combine_variants.c): what the combine costs, and its variants.
 */
#ifndef REDUCE_COMBINE_VARIANTS_H
#define REDUCE_COMBINE_VARIANTS_H

#include "gpu_group.h"

/** --latency on the opened group: the combine alone and its variants, each timed like a run; the exit status. */
int run_latency(gpu_group *m, options *opt);

#endif
