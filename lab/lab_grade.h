/**
 * @file lab_grade.h
 * @brief The lab's host tool (build/tools/lab_grade): `make lab-check`'s timing table and
 * verdict, and `make lab-grade`'s score, from what the checks recorded to Gradescope's
 * results.json, a one-screen summary and a row of results/grades.csv.
 *
 * The table: where the student started (step k-1), their kernel and ours (step k), and
 * one line saying whether their kernel got step k's gain, from the rows the three
 * programs wrote (results.h).
 *
 * The score: lab/lab.sh runs the checks of `make lab-check` and records one row per outcome in a CSV
 * file (the record, format below), written and read through the core's CSV functions
 * (write_record_item(), csv_split()); the score is a pure function of that record and the
 * instructor's weights (lab/weights.conf), so every rule here is unit-tested without a GPU
 * by feeding it records.
 *
 * The record: the header `item,id,status,text`, then one row per item:
 *
 *     step,K,,NAME             our step k and its folder, e.g. step,3,,step3_add_during_load
 *     start,B,,NAME            the step the copy started from, B and its folder (absent:
 *                              step K-1)
 *     title,,,TEXT             its title
 *     copy,,,PATH              the kernel file graded
 *     seed,,,N                 the seed of the data (LAB_SEED=N grades the same data again)
 *     types,,,T...             the element types checked, e.g. types,,,int float double
 *     device,,,TEXT            the GPU
 *     test,ID,STATUS,SUMMARY   one check: ID is empty (fail: the file holds no code), includes,
 *                              correct:TYPE, memcheck, racecheck or timed; STATUS pass,
 *                              fail or skip (not run for a reason
 *                              that is not the student's: its points follow correctness)
 *     detail,ID,,TEXT          a line of detail for test ID (a failure's hint)
 *     time,ROLE,,MS            median time of start (step B), yours or ours
 *     built,,,T...             the types that compiled
 *     nogpu,,,                 no GPU answered: the GPU checks were not run
 *     phase,,,NAME             what runs from here on: build (the #include check and the
 *                              builds), then checks (a time limit says which it cut short)
 *     timeout,,,S              the time limit of S seconds killed the checks
 *     elapsed,,,S              seconds the grading took
 *
 * A test with no line was not run (an earlier failure, the time limit, no GPU).
 */
#ifndef REDUCE_LAB_GRADE_H
#define REDUCE_LAB_GRADE_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

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


/** Most tests of one grade: includes, three types, two sanitizers, timed runs, performance. */
#define GRADE_MAX_TESTS 12
#define GRADE_SUMMARY 512
#define GRADE_DETAIL 4096
/** Performance is full from this share of our step's gain on: lab_verdict()'s "gain reached". */
#define GRADE_FULL_SHARE 0.75

/** What the record says of one test. */
typedef enum grade_status { GRADE_NOT_RUN, GRADE_PASS, GRADE_FAIL, GRADE_SKIP } grade_status;

/** Points of each part, in hundredths of a point (lab/weights.conf, see parse_weights()). */
typedef struct grade_weights {
    long correct;       /**< split evenly over the types checked */
    long memcheck;
    long racecheck;
    long timed_runs;
    long performance;
} grade_weights;

/** One test as recorded. */
typedef struct recorded_test {
    char id[32];
    grade_status status;
    char summary[GRADE_SUMMARY];
    char detail[GRADE_DETAIL];
} recorded_test;

/** Everything a record holds (see the format above). */
typedef struct grade_record {
    int step;
    int start;                            /**< the step the copy started from (0: step - 1) */
    char step_name[64];
    char title[128];
    char copy[256];
    char device[128];
    unsigned long long seed;
    char types[3][8];
    int type_count;
    recorded_test tests[GRADE_MAX_TESTS];
    int test_count;
    double start_ms, yours_ms, ours_ms;   /**< 0: not measured */
    char built[32];                       /**< the types that compiled, "int float" */
    int no_gpu;
    int timeout_s;                        /**< > 0: killed by the time limit */
    char phase[16];                       /**< what ran last: "build", "checks" ("": not said) */
    long elapsed_s;
} grade_record;

/** One entry of results.json's tests[]. */
typedef struct graded_test {
    char name[112];
    char short_name[32];                  /**< for the summary and the CSV's first failure */
    long score, max_score;                /**< hundredths */
    grade_status status;                  /**< as recorded; GRADE_NOT_RUN if absent */
    char summary[GRADE_SUMMARY];          /**< the recorded summary, or why it did not run */
    char output[GRADE_SUMMARY + GRADE_DETAIL + 256];
} graded_test;

/** The score of a record. */
typedef struct grade {
    graded_test tests[GRADE_MAX_TESTS];
    int count;
    long score, max_score;                /**< hundredths: sums of the tests' */
    char correct[32];                     /**< yes, no, timed out, not run (no GPU) */
    char first_failure[256];              /**< "" when nothing failed */
    double speedup, ours_speedup;         /**< over step k-1; 0 when not measured */
    lab_gain gain;
} grade;

/**
 * Reads the weights: `key = value` lines (keys correct, memcheck, racecheck, timed_runs,
 * performance, each exactly once), values of at most two decimals, `#` comments, blank
 * lines. Returns 0, or -1 with one line in `error` naming the file and the line.
 */
int parse_weights(FILE *f, const char *path, grade_weights *w, char *error, size_t size);

/** The record's header line (without the newline). */
#define RECORD_HEADER "item,id,status,text"

/**
 * Appends one row to a record (format above): four CSV fields through the core's
 * csv_write_field(), so a summary may hold commas, quotes and anything else.
 */
void write_record_item(FILE *f, const char *item, const char *id, const char *status, const char *text);

/** Reads a record (format above). Returns 0, or -1 with one line in `error`. */
int read_grade_record(FILE *f, const char *path, grade_record *r, char *error, size_t size);

/**
 * Scores a record. Tests, in order: includes (0 points: when it fails, every test gets
 * 0), correct per type (`correct` split over the types), memcheck, racecheck, timed runs,
 * performance. A passed test gets its points, a failed or missing one 0. A skipped test
 * (not the student's doing: no compute-sanitizer, our own timing missing) gets its points
 * times the share of the other correctness points earned. Performance needs the timed runs
 * passed: full from GRADE_FULL_SHARE of our step's gain over step k-1, scaled down to 0 at
 * no gain; where our step's own gain is within noise ("time can't tell"), its points
 * follow correctness like a skipped test's. Scores add up exactly (hundredths).
 */
void score_grade(const grade_record *r, const grade_weights *w, grade *g);

/** Writes Gradescope's results.json: score, execution_time, output, tests[]. */
void write_results_json(FILE *f, const grade_record *r, const grade *g);

/** Writes `text` as a JSON string (quotes, escapes, invalid UTF-8 bytes as '?'). */
void write_json_string(FILE *f, const char *text);

/** Prints the one-screen summary; its last line is "score: X / Y". */
void print_grade_summary(FILE *f, const grade_record *r, const grade *g);

/** The header line of results/grades.csv (without the newline). */
#define GRADES_HEADER "student,step,correct,first_failure,speedup,ours_speedup,score,max_score,seed"

/**
 * One row of results/grades.csv for `student`. Text cells are quoted (the core's
 * csv_write_field()); one that begins with =, +, - or @ gets a ' first (see lab_grade.c).
 */
void write_grades_csv_row(FILE *f, const char *student, const grade_record *r, const grade *g);

/**
 * The row of a submission that could not be graded (nothing handed in, no results.json):
 * 0 points of `max_score` (hundredths), correct "no", `why` as its first failure; `step`
 * may be empty (a student who handed in no step at all).
 */
void write_grades_csv_missing(FILE *f, const char *student, const char *step, const char *why, long max_score);

/**
 * Prints the class table from results/grades.csv and a closing line (how many graded,
 * correct, the mean score). Returns the number of rows, or -1 if the file does not begin
 * with GRADES_HEADER.
 */
int print_class_table(FILE *out, FILE *csv);

#endif
