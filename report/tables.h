/** @file tables.h
 * @brief The tables and CSV files of make run-all and make sweep (report_main.c), and multi-GPU helpers. */
#ifndef TABLES_H
#define TABLES_H

#include <stdio.h>

#include "results.h"

/** Index of the first row that passed, or 0: the row a table's or a chart's title is taken from. */
int first_passed(const result_row *rows, int count);

/** Creates the file at `path` and writes the header line; NULL if it cannot be created. */
FILE *create_csv(const char *path, const char *header);

/** Closes a file a table's CSV writer wrote: 0, or -1 if any write failed (disk full). */
int close_csv(FILE *f);

/** Speedups of one table row against its neighbours in the same run. */
typedef struct speedups {
    double step;        /**< previous row's time / this row's time (0: none) */
    double cumulative;  /**< first row's time / this row's time (0: none) */
    double vs_reference;/**< this row's bandwidth / the reference row's (0: none) */
} speedups;

/** Row i's speedups over row i-1 (between two steps' rows), row 0 and the reference (CUB; < 0: none); failed rows: 0. */
speedups compute_speedups(const result_row *rows, int count, int i, int reference_index);

/** The row "vs CUB" divides by: the fastest passing one of `candidates` ("a,b"), of size n unless n is 0; or -1. */
int fastest_reference(const result_row *rows, int count, const char *candidates, unsigned long long n);

/** Harris's table of one `make run-all`: a row per program (time, GB/s, % of peak, speedups, vs CUB; floats'
 * relative error; noisy and failed rows say so), then its reference. */
void print_run_table(FILE *out, const result_row *rows, int count, int reference_index);

/** Writes the run-all rows with their speedups as CSV to `path`: 0, or -1 (so do the writers below). */
int write_run_csv(const char *path, const result_row *rows, int count, int reference_index);

/** Prints the sweep: a line per n and design (us, GB/s, % of peak, vs the reference at that n, named under it). */
void print_sweep_table(FILE *out, const result_row *rows, int count, const char *reference_step);

/** Writes the sweep as CSV: step, label, type, n, median us, GB/s, % peak, vs CUB, status. */
int write_sweep_csv(const char *path, const result_row *rows, int count, const char *reference_step);

/** A straight line t = c + bytes / b through one program's median times over its sizes. */
typedef struct time_fit {
    double fixed_us;  /**< c: the time of no bytes at all (launch, gate, finish), in us */
    double gbs;       /**< b: the rate the time grows with the bytes at, GB/s (10^9 bytes/s) */
    int points;       /**< sizes it was fit over; 0: no line (fewer than two sizes, or times that do not grow) */
} time_fit;

/** Least squares fit of `us` (median times, us) against `bytes` over `count` sizes, each weighing the same. */
time_fit fit_time(const double *bytes, const double *us, int count);

/** Per program, type and flush, its passed sizes' fit_time() (c, b, % of peak), also as CSV to `csv_path`. */
int print_fit_table(FILE *out, const result_row *rows, int count, const char *csv_path);

/** Writes n as "2^K" when it is a power of two, else with separators. */
void format_size(char *buf, size_t size, unsigned long long n);

/** Row i's size for a table's first column, blank when it repeats the row above. */
void format_size_cell(char *buf, size_t size, const result_row *rows, int i);

#endif
