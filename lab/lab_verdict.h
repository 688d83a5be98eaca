/**
 * @file lab_verdict.h
 * @brief `make lab-check`'s timing table: where the student started (step k-1), their
 * kernel and ours (step k), and one line saying whether their kernel got step k's gain.
 *
 * Pure C over result rows (results.h), so the verdict's thresholds are unit-tested
 * without a GPU; `lab_grade table` (lab/lab_grade_main.c) prints it from the rows the
 * three programs wrote.
 */
#ifndef REDUCE_LAB_VERDICT_H
#define REDUCE_LAB_VERDICT_H

#include <stddef.h>
#include <stdio.h>
#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A speedup of our step k over step k-1 below 1 + LAB_NOISE is too small for the time to
 * say whether a student's step k has the idea: a quarter and three quarters of it (the
 * verdict's thresholds) are then less than 2.5% apart, while two timings of one kernel
 * can differ by up to 1.1% (two sweeps on the H100, from 2^24 on). Steps 5, 7 and 9 to 11
 * on an H100; the profiler metric can tell.
 */
#define LAB_NOISE 0.05

/** The verdict on the student's time. */
typedef enum lab_gain {
    GAIN_REACHED,    /**< at least 3/4 of our step's speedup over step k-1 (or faster than ours) */
    GAIN_PART,       /**< between 1/4 and 3/4 of it */
    GAIN_NOT_YET,    /**< under 1/4 of it: step k's idea is not in the kernel yet */
    GAIN_CANT_TELL,  /**< our own step gains less than LAB_NOISE: time cannot decide */
    GAIN_NO_DATA     /**< a time is missing or not positive */
} lab_gain;

/**
 * Compares the student's median time with step `start`'s (where the copy started: step
 * k-1, or the step before k in the list, 11 for 14) and with our step k's, and writes one
 * line: "gain reached: ...", "part of the gain: ...", "gain not yet: ...", "time can't
 * tell: ..." (labels scripts grep). The student's share of the gain is
 * (start/yours - 1) / (start/ours - 1): 1 is all of ours, 0 none.
 */
lab_gain lab_verdict(double start_ms, double yours_ms, double ours_ms, int start, int step, char *text, size_t size);

/**
 * Prints the three-row table (time, GB/s, % of peak, speedup over step `start`) and the
 * verdict line. rows[0] is step `start` (k-1, or 11 for 14), rows[1] the student's,
 * rows[2] our step k; a row that did not pass prints FAILED. Returns the verdict
 * (GAIN_NO_DATA if a row failed).
 */
lab_gain print_lab_table(FILE *out, const result_row rows[3], int start, int step);

#ifdef __cplusplus
}
#endif

#endif
