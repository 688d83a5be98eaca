/**
 * @file multi_report.h
 * @brief What the unit tests check of build/tools/multi_report, the multi-GPU steps' tables
 * (multi_report.c): `make scaling`'s setups and crossovers.
 */
#ifndef REDUCE_MULTI_REPORT_H
#define REDUCE_MULTI_REPORT_H

#include "results.h"

/** A row's setup, its label after the GPU count: "one process", "one MPI rank per GPU", ... */
const char *scaling_setup(const result_row *r);

/**
 * The crossover on `gpus` GPUs of one setup (scaling_setup(); NULL: any): the smallest n
 * from which it beats one GPU at every n of `rows` (in increasing n, as make scaling writes
 * them), 0 if none; below it the all-reduce's fixed cost outweighs the time G GPUs save.
 */
unsigned long long scaling_crossover(const result_row *rows, int count, int gpus, const char *setup);

#endif
