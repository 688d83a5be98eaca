/** @file results.h
 * @brief Statistics of the repetitions and one CSV row per run (read back by report/csv_read.h); pure C. */
#ifndef REDUCE_RESULTS_H
#define REDUCE_RESULTS_H

#include <stddef.h>
#include <stdio.h>

/** A row is "noisy" when the median's 95% confidence interval reaches further than this fraction of it
 * on either side: as much as the smallest speedups shown (one slow run does not move it). */
#define NOISE_THRESHOLD 0.02

/** Median, fastest and slowest of the timed repetitions, and where the median may lie. */
typedef struct timing_stats {
    double median_ms, min_ms, max_ms;
    /** 95% confidence interval of the median, from order statistics (no distribution assumed). */
    double ci_low_ms, ci_high_ms;
} timing_stats;

/** Median (of an even count, the mean of the middle two), min, max and the median's 95% confidence
 * interval; sorts `ms` in place. The interval: the j-th to k-th smallest, j, k = n/2 -+ 0.98 sqrt(n)
 * (+1 for k) rounded, the ranks the binomial distribution of "runs below the true median" gives (6th
 * and 15th of 20); under 6 runs [min, max]. */
timing_stats summarize_times(double *ms, int count);

/** Bytes read over time: the figure of merit of a memory-bound kernel, in GB/s (10^9). */
double bandwidth_gbs(unsigned long long bytes, double ms);

/** 1 if the median's confidence interval reaches more than NOISE_THRESHOLD from it. */
int is_noisy(const timing_stats *t);

/** One program's run: what a step appends to a CSV file and the table prints. */
typedef struct result_row {
    char step[64];            /**< program, e.g. "step3_add_during_load" */
    char label[96];           /**< table label, e.g. "step3 first add during load" */
    char type[8];             /**< "int", "float", "double" */
    unsigned long long n;     /**< elements */
    unsigned long long bytes; /**< n * sizeof(element) */
    char device[128];         /**< GPU name */
    double peak_gbs;          /**< theoretical DRAM bandwidth of that GPU */
    int reps;                 /**< timed repetitions */
    int flushed;              /**< how L2 was flushed before each repetition: enum l2_flush (0: --hot) */
    double median_ms, min_ms, max_ms;
    double ci_low_ms, ci_high_ms; /**< the median's 95% confidence interval */
    double gbs;               /**< bytes / median */
    double rel_error;         /**< |result - reference| / |reference| (0 for exact int) */
    char status[16];          /**< "PASSED" or "FAILED" */
    int gpus;                 /**< GPUs the input was spread over (1: the one-GPU driver's programs) */
    double combine_ms;        /**< median time of a program's combining phase timed alone (0: none) */
} result_row;

/** 1 if the row holds a verified measurement (PASSED, and a time): every table's and exit code's one test. */
int row_passed(const result_row *r);

/** 1 if the row's median is noisy (is_noisy() of the row's timing statistics). */
int row_is_noisy(const result_row *r);

/** The CSV header matching csv_write_fields(). */
extern const char CSV_HEADER[];

/** Writes `text` as one CSV field: quoted, a quote doubled, a line break as a space (a row is one line). */
void csv_write_field(FILE *f, const char *text);

/** Writes a row's fields (strings quoted) to `f`, no newline, so that a table can add columns. */
void csv_write_fields(FILE *f, const result_row *r);

/** Appends `row` to the file at `path`, writing the header first if the file is new. */
int csv_append(const char *path, const result_row *row);

/** Checks before anything runs that csv_append() can write to `path` (opened for append, removed if
 * new), so a run that cannot keep its row is refused up front: 0, or -1 with a line in `error`. */
int csv_check_writable(const char *path, char *error, size_t size);

/** Writes n with thousands separators ("67,108,864"). */
void format_count(char *buf, size_t size, unsigned long long n);

/** Writes a byte count in the largest binary unit that keeps it >= 1 ("256 MiB"). */
void format_bytes(char *buf, size_t size, unsigned long long bytes);

/** A flush (enum l2_flush, a row's `flushed`) as the flags name it: "hot", "write" or "read". */
const char *flush_name(int flushed);

/** How a row's runs met the L2 cache ("L2 flushed by reading (--flush read)", "L2 warm (--hot)" ...), for reports' titles. */
const char *cache_state(const result_row *r);

#endif
