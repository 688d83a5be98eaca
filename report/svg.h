/** @file svg.h
 * @brief The charts of run-all and sweep as plain SVG: each step's climb to the peak; pure C, from saved CSV. */
#ifndef REDUCE_SVG_H
#define REDUCE_SVG_H

#include "tables.h"

/** The bar chart of a run-all: GB/s per row under the dashed peak (how close a memory-bound kernel gets), with
 * its cumulative speedup; the reference (-1: none) in another colour; a failed row says FAILED. 0, or -1. */
int svg_write_run_chart(const char *path, const result_row *rows, int count, int reference_index);

/** The line chart of a sweep: GB/s against log2 n, a line per design (`step`), the peak dashed: where launches
 * stop limiting a design and memory starts. Failed rows are left out. 0, or -1. */
int svg_write_sweep_chart(const char *path, const result_row *rows, int count);

#endif
