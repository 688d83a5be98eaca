/**
 * @file multi_results.h
 * @brief The tables of the multi-GPU steps, from the rows of results.h: `make scaling`'s
 * (steps 12 and 13 over n, setup and G) and `make run-all`'s table of step 12 (multi_report.c).
 */
#ifndef REDUCE_MULTI_RESULTS_H
#define REDUCE_MULTI_RESULTS_H

#include <stdio.h>

#include "tables.h"

/** A row's setup, its label after the GPU count: "one process", "one MPI rank per GPU", ... */
const char *scaling_setup(const result_row *r);

/**
 * The crossover on `gpus` GPUs of one setup (scaling_setup(); NULL: any): the smallest n
 * from which it beats one GPU at every n of `rows` (in increasing n, as make scaling writes
 * them), 0 if none; below it the all-reduce's fixed cost outweighs the time G GPUs save.
 */
unsigned long long scaling_crossover(const result_row *rows, int count, int gpus, const char *setup);

/**
 * Prints `make scaling`: per n, setup and G, time, aggregate GB/s, speedup and efficiency
 * over one GPU at that n, the all-reduce's own time, then the crossover for each setup
 * and G > 1.
 */
void print_scaling_table(FILE *out, const result_row *rows, int count);

/** Writes the scaling table as CSV: step, setup, n, gpus, median us, GB/s, speedup, efficiency, combine us. */
int write_scaling_csv(const char *path, const result_row *rows, int count);

/** Prints run-all's table of step 12 (a row per G), with its speedup over `baseline` (step 11's row; NULL: none). */
void print_multi_table(FILE *out, const result_row *rows, int count, const result_row *baseline);

#endif
