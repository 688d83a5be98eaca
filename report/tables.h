/**
 * @file tables.h
 * @brief The tables of make run-all and make sweep, and their CSV files: the report tool's
 * (scripts/report_main.c), and the multi-GPU tables' helpers. No step links them.
 */
#ifndef TABLES_H
#define TABLES_H

#include <stdio.h>

#include "results.h"

/**
 * Index of the first row that passed, or 0 when none did: the row the title of a table
 * or a chart (size, type, GPU, peak) is taken from.
 */
int first_passed(const result_row *rows, int count);

/** Creates the file at `path` and writes the header line; NULL if it cannot be created. */
FILE *create_csv(const char *path, const char *header);

/** Closes a file written by a table's CSV writer: 0, or -1 if any write failed (disk full). */
int close_csv(FILE *f);

/** Speedups of one table row against its neighbours in the same run. */
typedef struct speedups {
    double step;        /**< previous row's time / this row's time (0: none) */
    double cumulative;  /**< first row's time / this row's time (0: none) */
    double vs_reference;/**< this row's bandwidth / the reference row's (0: none) */
} speedups;

/**
 * Speedups for row i of a table: against row i-1 (step; only between two steps' rows),
 * row 0 (cumulative) and the reference row (CUB), ignoring rows that failed.
 * reference_index < 0: no reference.
 */
speedups compute_speedups(const result_row *rows, int count, int i, int reference_index);

/**
 * The reference row ("vs CUB" divides by it): among the passing rows whose step is one of
 * `candidates` (comma-separated program names, e.g. the toolkit's CUB and the newest
 * CCCL's in its default mode) and, when n is not 0, whose size is n, the one with the
 * highest bandwidth. Returns its index, or -1 if there is none.
 */
int fastest_reference(const result_row *rows, int count, const char *candidates, unsigned long long n);

/**
 * Prints Harris's table for one `make run-all`: a title line with the size, type, GPU,
 * peak and method, then one row per program with time, bandwidth, % of peak, step and
 * cumulative speedup and the ratio to the reference (CUB), and under them which row that
 * is. Float builds gain a relative error column; noisy and failed rows say so.
 */
void print_run_table(FILE *out, const result_row *rows, int count, int reference_index);

/**
 * Writes the run-all rows with their speedups as CSV (the table, machine-readable) to the
 * file at `path`. Returns 0, or -1 if the file cannot be written. So do the other tables'
 * CSV writers below.
 */
int write_run_csv(const char *path, const result_row *rows, int count, int reference_index);

/**
 * Prints the sweep: one block per n, one line per design, with median time in
 * microseconds, GB/s, % of peak and the ratio to the reference at that n: the fastest of
 * the comma-separated names in `reference_step` (fastest_reference()), which the lines
 * under the table name with their sizes.
 */
void print_sweep_table(FILE *out, const result_row *rows, int count, const char *reference_step);

/** Writes the sweep as CSV: step, n, median us, GB/s, % peak, vs CUB. */
int write_sweep_csv(const char *path, const result_row *rows, int count, const char *reference_step);

/** A straight line t = c + bytes / b through one program's median times over its sizes. */
typedef struct time_fit {
    double fixed_us;  /**< c: the time of no bytes at all (launch, gate, finish), in us */
    double gbs;       /**< b: the rate the time grows with the bytes at, GB/s (10^9 bytes/s) */
    int points;       /**< sizes it was fit over; 0: no line (fewer than two sizes, or times that do not grow) */
} time_fit;

/**
 * Least squares fit of `us` (median times, us) against `bytes` over `count` sizes: c and b
 * with the sum of squared time errors smallest, every size weighing the same.
 */
time_fit fit_time(const double *bytes, const double *us, int count);

/**
 * Prints, under a table, one line per program, type and flush among the rows (in the
 * order they first appear) with its passed sizes' fit_time(): c in us, b in GB/s and % of
 * peak; and writes the same as CSV to `csv_path` unless NULL. Returns 0, or -1 when that
 * file cannot be written.
 */
int print_fit_table(FILE *out, const result_row *rows, int count, const char *csv_path);

/** Writes n as "2^K" when it is a power of two, else with separators. */
void format_size(char *buf, size_t size, unsigned long long n);

/** Row i's size for a table's first column, blank when it repeats the row above (one size, several rows). */
void format_size_cell(char *buf, size_t size, const result_row *rows, int i);

#endif
