/**
 * @file svg.h
 * @brief The charts of `make run-all` and `make sweep` as plain SVG: how far each step climbs
 * towards the card's peak, at a glance. Pure C, no GPU: redrawn from saved CSV files anywhere.
 */
#ifndef REDUCE_SVG_H
#define REDUCE_SVG_H

#include "tables.h"

/**
 * The bar chart of one `make run-all` to `path`: a bar of GB/s per row under a dashed line at
 * the peak (a memory-bound kernel is judged by how close it gets), labelled with its
 * cumulative speedup (compute_speedups(), as the table); the reference row (CUB; -1: none)
 * in another colour; a failed row keeps its slot, "FAILED". 0, or -1 if it cannot be written.
 */
int svg_write_run_chart(const char *path, const result_row *rows, int count, int reference_index);

/**
 * The line chart of `make sweep` to `path`: GB/s against n on a log2 axis, a line per design
 * (`step`, in order of appearance), the peak dashed: where each design stops being limited by
 * launches and starts being limited by memory. Failed rows are left out. 0, or -1.
 */
int svg_write_sweep_chart(const char *path, const result_row *rows, int count);

#endif
