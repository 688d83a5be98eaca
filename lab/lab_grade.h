/** @file lab_grade.h
 * @brief build/tools/lab_grade: lab-check's table and verdict; lab-grade's score, a pure function of the
 * record and the weights (%lab/README.md, "The record"), as results.json, a summary and a grades.csv row. */
#ifndef REDUCE_LAB_GRADE_H
#define REDUCE_LAB_GRADE_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/** Under 1 + LAB_NOISE of our speedup, the thresholds lie within 2.5%, timings vary 1.1% (H100): no verdict. */
#define LAB_NOISE 0.05

/** The verdict on the student's time. */
typedef enum lab_gain {
    GAIN_REACHED,    /**< at least 3/4 of our step's speedup over step k-1 (or faster than ours) */
    GAIN_PART,       /**< between 1/4 and 3/4 of it */
    GAIN_NOT_YET,    /**< under 1/4 of it: step k's idea is not in the kernel yet */
    GAIN_CANT_TELL,  /**< our own step gains less than LAB_NOISE: time cannot decide */
    GAIN_NO_DATA     /**< a time is missing or not positive */
} lab_gain;

/** The student's time against step `start`'s (k-1; 11 for 14) and ours, in `text` after the verdict's label;
 * the share: (start/yours - 1) / (start/ours - 1). */
lab_gain lab_verdict(double start_ms, double yours_ms, double ours_ms, int start, int step, char *text, size_t size);

/** The table of step `start`, the student's and our step k (rows[0..2]), and the verdict. */
lab_gain print_lab_table(FILE *out, const result_row rows[3], int start, int step);

#define GRADE_MAX_TESTS 12   /**< includes, three types, two sanitizers, timed runs, performance, and room */
#define GRADE_SUMMARY 512
#define GRADE_DETAIL 4096
/** Performance is full from this share of our step's gain on: lab_verdict()'s "gain reached". */
#define GRADE_FULL_SHARE 0.75

/** What the record says of one test. */
typedef enum grade_status { GRADE_NOT_RUN, GRADE_PASS, GRADE_FAIL, GRADE_SKIP } grade_status;

/** Points of each part in hundredths (lab/weights.conf, parse_weights()). */
typedef struct grade_weights {
    long correct, memcheck, racecheck, timed_runs, performance;   /**< correct: split over the types */
} grade_weights;

typedef struct recorded_test {
    char id[32];
    grade_status status;
    char summary[GRADE_SUMMARY];
    char detail[GRADE_DETAIL];
} recorded_test;

/** A record as read (%lab/README.md, "The record"). */
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

/** Reads lab/weights.conf's format (%lab/README.md, "The weights"); -1 with one line in `error`. */
int parse_weights(FILE *f, const char *path, grade_weights *w, char *error, size_t size);

/** The points of every part together, in hundredths. */
static inline long weights_total(const grade_weights *w)
{
    return w->correct + w->memcheck + w->racecheck + w->timed_runs + w->performance;
}

#define RECORD_HEADER "item,id,status,text"

/** Appends one row to a record: four fields through csv_write_field(), any text safe. */
void write_record_item(FILE *f, const char *item, const char *id, const char *status, const char *text);

/** Reads a record; -1 with one line in `error`. */
int read_grade_record(FILE *f, const char *path, grade_record *r, char *error, size_t size);

/** Scores a record by the rules of %lab/README.md's "The weights", in the order of its table. */
void score_grade(const grade_record *r, const grade_weights *w, grade *g);

/** Writes Gradescope's results.json: score, execution_time, output, tests[]. */
void write_results_json(FILE *f, const grade_record *r, const grade *g);

/** `text` as a JSON string: escaped, invalid UTF-8 bytes as '?'. */
void write_json_string(FILE *f, const char *text);

/** Prints the one-screen summary; its last line is "score: X / Y". */
void print_grade_summary(FILE *f, const grade_record *r, const grade *g);

#define GRADES_HEADER "student,step,correct,first_failure,speedup,ours_speedup,score,max_score,seed"

/** One row of results/grades.csv; a text cell that begins with =, +, - or @ gets a ' (lab_grade.c). */
void write_grades_csv_row(FILE *f, const char *student, const grade_record *r, const grade *g);

/** The 0-point row of a submission not graded, `why` its first failure; `step` may be "". */
void write_grades_csv_missing(FILE *f, const char *student, const char *step, const char *why, long max_score);

/** The class table of results/grades.csv and its mean; the rows, or -1 without GRADES_HEADER. */
int print_class_table(FILE *out, FILE *csv);

#endif
