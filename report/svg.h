/**
 * @file svg.h
 * @brief Measurements as pictures: the charts of `make run-all` and `make sweep` as plain
 * SVG files. A table says how fast each step is; a chart shows at a glance how far each
 * step climbs towards the card's peak, which is the story of the tutorial. Pure C (no
 * plotting library, no GPU), so the charts can be redrawn from saved CSV files anywhere.
 */
#ifndef REDUCE_SVG_H
#define REDUCE_SVG_H

#include "tables.h"

/**
 * Writes the bar chart of one `make run-all` to `path`: one bar per row, in row order,
 * of its bandwidth in GB/s, under a dashed line at the card's theoretical peak. Bandwidth
 * rather than time, because a memory-bound kernel is judged by how close it gets to the
 * peak. Each bar is labelled with its cumulative speedup over row 0 (from
 * compute_speedups(), so the chart and the table agree), and the reference row
 * (`reference_index`, CUB; -1 for none) is drawn in another colour, because it is the
 * target to beat, not a step. A failed row keeps its slot, labelled "FAILED", so that a
 * broken step is seen rather than silently missing. Returns 0, or -1 if the file cannot
 * be written.
 */
int svg_write_run_chart(const char *path, const result_row *rows, int count, int reference_index);

/**
 * Writes the line chart of `make sweep` to `path`: bandwidth against the number of
 * elements n (log2 scale: the sweep's sizes are powers of two, 4x apart by default), one line per design (rows grouped
 * by `step` in order of first appearance, legend from `label`), with the peak as a dashed
 * line. It shows where each design stops being limited by launch overhead and starts
 * being limited by memory, which a single size cannot show. Failed rows are left out.
 * Returns 0, or -1 if the file cannot be written.
 */
int svg_write_sweep_chart(const char *path, const result_row *rows, int count);

#endif
