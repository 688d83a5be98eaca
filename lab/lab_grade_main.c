/** @file lab_grade_main.c
 * @brief build/tools/lab_grade: lab-check's table and lab-grade's score, from the lab scripts' rows and record.
 *
 *     lab_grade table ROWS.csv FROM K START YOURS OURS           (make lab-check's table)
 *     lab_grade grade RECORD WEIGHTS OUT.json [STUDENT GRADES.csv] (make lab-grade's score)
 *     lab_grade weights WEIGHTS                                  (the points of lab/weights.conf)
 *     lab_grade class GRADES.csv                                 (make lab-grade-all's class table)
 *     lab_grade missing GRADES.csv WEIGHTS STUDENT K WHY         (the row of a submission not graded)
 *     lab_grade note RECORD ITEM ID STATUS TEXT                  (one row of lab-grade's record)
 *     lab_grade detail RECORD ID                                 (each line on stdin: a detail row of test ID)
 *     lab_grade size SIZE...                                     (each size in decimal, as -n reads it)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"
#include "lab_grade.h"
#include "options.h"
#include "results.h"

#define MAX_ROWS 16

/** Says one line on stderr, "lab_grade: " first; returns 2, the exit code of bad input. */
static int say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("lab_grade: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return 2;
}

static int cannot_write(const char *path) { return say("cannot write '%s'", path); }

/** Opens grades.csv or a record to append a row, its header first when it is new or empty. */
static FILE *open_append(const char *path, const char *header)
{
    FILE *f = fopen(path, "a");
    if (!f)
        say("cannot append to '%s'", path);
    else if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0)
        fprintf(f, "%s\n", header);
    return f;
}

/** `table`: lab-check's rows in lab.sh's order, not by name (a pasted kernel has ours), the verdict; 1: one failed. */
static int lab_table(const char *rows_path, const char *from_text, const char *step_text, char **programs)
{
    static result_row rows[MAX_ROWS];
    int count = csv_read_all(rows_path, rows, MAX_ROWS), missing = 0;
    for (int p = 0; p < 3; p++) {
        if (p >= count || strcmp(rows[p].step, programs[p]) != 0)
            missing_row(&rows[p], programs[p]);   /* a program that left no row (it crashed first): FAILED */
        missing |= !row_passed(&rows[p]);
    }
    print_lab_table(stdout, rows, atoi(from_text), atoi(step_text));
    return missing ? 1 : 0;
}

/** Reads the weights file; 0, or 2 after its one error line. */
static int load_weights(const char *path, grade_weights *w)
{
    char error[512];
    FILE *f = fopen(path, "r");
    if (!f)
        return say("cannot read the weights '%s' (LAB_WEIGHTS names another file)", path);
    int status = parse_weights(f, path, w, error, sizeof error);
    fclose(f);
    return status != 0 ? say("%s", error) : 0;
}

/** `grade`: results.json, summary, with STUDENT a GRADES.csv row; 0 once written; 3: no GPU answered (no grade). */
static int lab_grade(const char *record_path, const char *weights_path, const char *json_path,
                        const char *student, const char *csv_path)
{
    static grade_record record;
    static grade g;
    grade_weights w;
    char error[512];
    if (load_weights(weights_path, &w) != 0)
        return 2;
    FILE *f = fopen(record_path, "r");
    if (!f)
        return say("cannot read the record '%s'", record_path);
    int status = read_grade_record(f, record_path, &record, error, sizeof error);
    fclose(f);
    if (status != 0)
        return say("%s", error);
    score_grade(&record, &w, &g);
    FILE *json = fopen(json_path, "w");
    if (json)
        write_results_json(json, &record, &g);
    if (!json || fclose(json) != 0)
        return cannot_write(json_path);
    print_grade_summary(stdout, &record, &g);
    if (csv_path) {
        FILE *csv = open_append(csv_path, GRADES_HEADER);
        if (!csv)
            return 2;
        write_grades_csv_row(csv, student, &record, &g);
        if (fclose(csv) != 0)
            return cannot_write(csv_path);
    }
    return record.no_gpu ? 3 : 0;
}

static int lab_weights(const char *path)
{
    grade_weights w;
    if (load_weights(path, &w) != 0)
        return 2;
    printf("%s: correct %.2f (split over the types), memcheck %.2f, racecheck %.2f, timed_runs %.2f, performance "
           "%.2f; total %.2f\n", path, w.correct / 100.0, w.memcheck / 100.0, w.racecheck / 100.0,
           w.timed_runs / 100.0, w.performance / 100.0, weights_total(&w) / 100.0);
    return 0;
}

static int lab_class(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return say("cannot read '%s'", path);
    int rows = print_class_table(stdout, f);
    fclose(f);
    return rows < 0 ? say("'%s' is not a grades file of make lab-grade-all", path) : 0;
}

static int lab_missing(const char *csv_path, const char *weights_path, const char *student, const char *step,
                       const char *why)
{
    grade_weights w;
    if (load_weights(weights_path, &w) != 0)
        return 2;
    FILE *csv = open_append(csv_path, GRADES_HEADER);
    if (!csv)
        return 2;
    write_grades_csv_missing(csv, student, step, why, weights_total(&w));
    return fclose(csv) == 0 ? 0 : cannot_write(csv_path);
}

/** `note`, and `detail` with text NULL (lab/lab_check.sh's note, note_item, note_detail). */
static int lab_note(const char *path, const char *item, const char *id, const char *status, const char *text)
{
    static char line[GRADE_DETAIL];
    FILE *f = open_append(path, RECORD_HEADER);
    if (!f)
        return 2;
    if (text)
        write_record_item(f, item, id, status, text);
    while (!text && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        write_record_item(f, item, id, status, line);
    }
    return fclose(f) == 0 ? 0 : cannot_write(path);
}

/** `size`: each size in decimal as -n reads it; 2 on the first not >= 1, named last (lab_check.sh quotes it). */
static int lab_size(int count, char **texts)
{
    uint64_t n;
    for (int i = 0; i < count; i++)   /* all read first: on a bad one, nothing on stdout */
        if (parse_size(texts[i], &n) != 0 || n == 0)
            return say("size: not a size >= 1 (N, 2^K, 2^K+M or 2^K-M): '%s'", texts[i]);
    for (int i = 0; i < count; i++) {
        parse_size(texts[i], &n);
        printf("%llu\n", (unsigned long long)n);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 8 && strcmp(argv[1], "table") == 0)
        return lab_table(argv[2], argv[3], argv[4], argv + 5);
    if ((argc == 5 || argc == 7) && strcmp(argv[1], "grade") == 0)
        return lab_grade(argv[2], argv[3], argv[4], argc == 7 ? argv[5] : NULL, argc == 7 ? argv[6] : NULL);
    if (argc == 3 && strcmp(argv[1], "weights") == 0)
        return lab_weights(argv[2]);
    if (argc == 3 && strcmp(argv[1], "class") == 0)
        return lab_class(argv[2]);
    if (argc == 7 && strcmp(argv[1], "missing") == 0)
        return lab_missing(argv[2], argv[3], argv[4], argv[5], argv[6]);
    if (argc == 7 && strcmp(argv[1], "note") == 0)
        return lab_note(argv[2], argv[3], argv[4], argv[5], argv[6]);
    if (argc == 4 && strcmp(argv[1], "detail") == 0)
        return lab_note(argv[2], "detail", argv[3], "", NULL);
    if (argc >= 3 && strcmp(argv[1], "size") == 0)
        return lab_size(argc - 2, argv + 2);
    return say("usage: lab_grade table|grade|weights|class|missing|note|detail|size ... (lab/lab_grade_main.c says "
               "what each takes)");
}
