/**
 * @file unit_tests.c
 * @brief The lab's unit tests, no GPU: lab-check's timing verdict and table, and
 * lab-grade's weights, record, score, results.json, grades.csv and class table. One line
 * per test, as the core's unit tests print them (lab/tests.sh runs it).
 */
/* fmemopen() is POSIX, not C11: the texts are read and written in memory, no file left */
#define _POSIX_C_SOURCE 200809L
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_grade.h"
#include "results.h"

#include "unit_test.h"

/** lab_verdict() gives `expected` and its text contains `label`. */
static int judges(double start, double yours, double ours, lab_gain expected, const char *label)
{
    char text[512];
    return lab_verdict(start, yours, ours, 3, 4, text, sizeof text) == expected && strstr(text, label) != NULL;
}

/** The stream fmemopen() gave; where it gave none, the tests stop: nothing below could run. */
static FILE *opened(FILE *f)
{
    if (!f) {
        perror("fmemopen");
        exit(1);
    }
    return f;
}
/** A stream that writes into `buf` (terminated when closed), or one that reads `text`. */
static FILE *into(char *buf, size_t size)
{
    buf[size - 1] = '\0';
    return opened(fmemopen(buf, size - 1, "w"));
}
static FILE *text_file(const char *text) { return opened(fmemopen((char *)text, strlen(text), "r")); }

/** The class table (print_class_table()) of the grades CSV `csv` into `text`: its row count. */
static int class_table_of(const char *csv, char *text, size_t size)
{
    FILE *in = text_file(csv), *out = into(text, size);
    int rows = print_class_table(out, in);
    fclose(in);
    fclose(out);
    return rows;
}

/** Where `needle` starts in line `line` (0: the first) of `text`; -1 when not there. */
static long column_of(const char *text, int line, const char *needle)
{
    for (; line > 0 && text; line--)
        text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
    const char *at = text ? strstr(text, needle) : NULL, *end = text ? strchr(text, '\n') : NULL;
    return at && (!end || at < end) ? at - text : -1;
}

/** 1 if a line of `text` matches the extended regular expression `pattern`. */
static int has_line(const char *text, const char *pattern)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0)
        return 0;
    int found = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return found;
}

/** How many times `needle` is in `text`. */
static int count_of(const char *text, const char *needle)
{
    int count = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        count++;
    return count;
}

static void test_lab_verdict(void)
{
    TEST("lab verdict: the start copy has not the gain", judges(0.173, 0.172, 0.137, GAIN_NOT_YET, "gain not yet"));
    TEST("lab verdict: our kernel copied in has it", judges(0.173, 0.138, 0.137, GAIN_REACHED, "gain reached"));
    TEST("lab verdict: faster than ours says so", judges(0.173, 0.120, 0.137, GAIN_REACHED, "faster than ours"));
    TEST("lab verdict: half the gain is part of it", judges(0.200, 0.150, 0.100, GAIN_PART, "part of the gain"));
    TEST("lab verdict: slower than the start is not yet", judges(0.173, 0.200, 0.137, GAIN_NOT_YET, "not yet"));
    TEST("lab verdict: our gain within noise can't tell", judges(0.137, 0.137, 0.134, GAIN_CANT_TELL, "can't tell"));
    TEST("lab verdict: a 6% gain is enough to tell", judges(0.106, 0.106, 0.100, GAIN_NOT_YET, "not yet"));
    TEST("lab verdict: a missing time", judges(0.1, 0.0, 0.1, GAIN_NO_DATA, "missing"));

    result_row rows[3] = { make_row("step3_add_during_load", 0.173, 1547.6), make_row("lab/work/step4_unroll_warp", 0.140, 1900),
                           make_row("step4_unroll_warp", 0.137, 1954.2) };
    static char text[1 << 14];
    FILE *f = into(text, sizeof text);
    lab_gain gain = print_lab_table(f, rows, 3, 4);
    fclose(f);
    TEST("lab table: three rows and the verdict", gain == GAIN_REACHED && strstr(text, "start ") &&
                                                  strstr(text, "yours ") && strstr(text, "ours ") &&
                                                  strstr(text, "1.24x") && strstr(text, "verdict: gain reached"));
    snprintf(rows[1].status, sizeof rows[1].status, "FAILED");
    f = into(text, sizeof text);
    gain = print_lab_table(f, rows, 3, 4);
    fclose(f);
    TEST("lab table: a failed row, no verdict", gain == GAIN_NO_DATA && strstr(text, "FAILED") &&
                                                strstr(text, "verdict: none"));
}

/** parse_weights() of `text`: 0 or -1; the error line in `error`. */
static int weights_of(const char *text, grade_weights *w, char *error)
{
    FILE *f = text_file(text);
    int status = parse_weights(f, "weights.conf", w, error, 512);
    fclose(f);
    return status;
}

/** A weights file must be refused with one line containing `expected`. */
static int weights_refused(const char *text, const char *expected)
{
    grade_weights w;
    char error[512] = "";
    return weights_of(text, &w, error) == -1 && strstr(error, expected) != NULL && strchr(error, '\n') == NULL;
}

static const char *weights_text = "# the default\ncorrect = 50\nmemcheck = 5   # trailing comment\n\n"
                                  "racecheck=5\ntimed_runs = 10\nperformance = 30\n";

/** read_grade_record() refuses a record holding `text`, with one line containing `expected`. */
static int record_refused(const char *text, const char *expected)
{
    static grade_record r;
    char error[512] = "";
    FILE *f = text_file(text);
    int refused = read_grade_record(f, "rec", &r, error, sizeof error) == -1 && strstr(error, expected);
    fclose(f);
    return refused;
}

/** The record of a step 3 copy with every check passed, then `extra` lines. */
static int graded(const char *extra, grade_record *r, grade *g)
{
    static char text[8192];
    snprintf(text, sizeof text,
             RECORD_HEADER "\nstep,3,,step3_add_during_load\ntitle,,,first add during load\n"
             "copy,,,lab/work/step3_add_during_load/reduce.cu\nseed,,,99\ntypes,,,int float double\ndevice,,,GPU\n%s",
             extra);
    grade_weights w;
    char error[512];
    FILE *f = text_file(text);
    int status = weights_of(weights_text, &w, error) || read_grade_record(f, "record", r, error, sizeof error);
    fclose(f);
    if (status != 0) {
        printf("  (record refused: %s)\n", error);
        return 0;
    }
    score_grade(r, &w, g);
    return 1;
}

/** 1 if the tests' scores add up to the grade's, and their maximums to the weights' 100. */
static int adds_up(const grade *g)
{
    long score = 0, max = 0;
    for (int i = 0; i < g->count; i++) {
        score += g->tests[i].score;
        max += g->tests[i].max_score;
        if (g->tests[i].score < 0 || g->tests[i].score > g->tests[i].max_score)
            return 0;
    }
    return score == g->score && max == g->max_score && max == 10000;
}

/** The graded test named `short_name`, or an empty one. */
static const graded_test *test_named(const grade *g, const char *short_name)
{
    static graded_test none;
    for (int i = 0; i < g->count; i++)
        if (strcmp(g->tests[i].short_name, short_name) == 0)
            return &g->tests[i];
    return &none;
}

#define TWO_TYPES_PASS "test,includes,pass,x\ntest,correct:int,pass,x\ntest,correct:float,pass,x\n"
#define ALL_CORRECT "test,includes,pass,\"only \"\"passes.h\"\"\"\ntest,correct:int,pass,17 sizes\n" \
                    "test,correct:float,pass,17 sizes\ntest,correct:double,pass,17 sizes\n" \
                    "test,memcheck,pass,clean\ntest,racecheck,pass,clean\ntest,timed,pass,23 runs\n"
static void test_lab_grade(void)
{
    grade_weights w;
    char error[512];
    TEST("grade weights: the default file", weights_of(weights_text, &w, error) == 0 && w.correct == 5000 &&
                                            w.memcheck == 500 && w.racecheck == 500 && w.timed_runs == 1000 &&
                                            w.performance == 3000);
    TEST("grade weights: decimals", weights_of("correct = 12.5\nmemcheck = 0.25\nracecheck = 0\ntimed_runs = 1\n"
                                               "performance = 86.25\n", &w, error) == 0 &&
                                    w.correct == 1250 && w.memcheck == 25 && w.performance == 8625);
    TEST("grade weights: a misspelt key", weights_refused("corect = 50\n", "unknown key 'corect'"));
    TEST("grade weights: a key missing", weights_refused("correct = 50\nmemcheck = 5\nracecheck = 5\n"
                                                         "timed_runs = 10\n", "'performance = ...' is missing"));
    TEST("grade weights: a key twice", weights_refused("correct = 50\ncorrect = 40\n", "given twice"));
    TEST("grade weights: three decimals", weights_refused("correct = 12.345\n", "at most two"));
    TEST("grade weights: negative", weights_refused("correct = -5\n", "not a number"));
    TEST("grade weights: words", weights_refused("correct = fifty\n", "not a number"));
    TEST("grade weights: no equals sign", weights_refused("correct 50\n", "line 1"));
    TEST("grade weights: all zero", weights_refused("correct = 0\nmemcheck = 0\nracecheck = 0\ntimed_runs = 0\n"
                                                    "performance = 0\n", "every weight is 0"));

    static grade_record r;
    static grade g;
    int ok = graded(ALL_CORRECT "time,start,,0.32\ntime,yours,,0.18\ntime,ours,,0.18\nelapsed,,,80\n", &r, &g);
    TEST("grade: all correct, gain reached: full marks", ok && g.score == 10000 && adds_up(&g) &&
         strcmp(g.correct, "yes") == 0 && g.first_failure[0] == 0 && g.gain == GAIN_REACHED);
    TEST("grade: the types share the correctness points", ok && test_named(&g, "int")->max_score == 1667 &&
         test_named(&g, "float")->max_score == 1667 && test_named(&g, "double")->max_score == 1666);
    ok = graded(ALL_CORRECT "time,start,,0.32\ntime,yours,,0.12\ntime,ours,,0.18\n", &r, &g);
    TEST("grade: faster than ours is full marks, no more", ok && g.score == 10000 && adds_up(&g));
    ok = graded(ALL_CORRECT "time,start,,0.32\ntime,yours,,0.32\ntime,ours,,0.18\n", &r, &g);
    TEST("grade: the starting copy gets no performance points", ok && test_named(&g, "performance")->score == 0 &&
         g.score == 7000 && strcmp(g.correct, "yes") == 0 && adds_up(&g));
    ok = graded(ALL_CORRECT "time,start,,0.30\ntime,yours,,0.40\ntime,ours,,0.20\n", &r, &g);
    TEST("grade: slower than the start gets none either", ok && test_named(&g, "performance")->score == 0);
    /* ours 1.6x, yours 1.3x: half our gain, 2/3 of the full share: 20 of 30 */
    ok = graded(ALL_CORRECT "time,start,,0.32\ntime,yours,,0.246153846\ntime,ours,,0.2\n", &r, &g);
    TEST("grade: half our gain scales the points", ok && test_named(&g, "performance")->score == 2000 && adds_up(&g));
    ok = graded(ALL_CORRECT "time,start,,0.100\ntime,yours,,0.101\ntime,ours,,0.099\n", &r, &g);
    TEST("grade: time can't tell: the points follow correctness", ok && g.gain == GAIN_CANT_TELL && g.score == 10000 &&
         adds_up(&g) && strstr(test_named(&g, "performance")->output, "follow correctness"));
    ok = graded(TWO_TYPES_PASS "test,correct:double,fail,n=33: lost tail\ndetail,correct:double,,FAIL double n=33\n"
                "detail,correct:double,,\"  hint: lost tail\"\ntest,memcheck,pass,x\ntest,racecheck,pass,x\n"
                "test,timed,pass,x\ntime,start,,0.100\ntime,yours,,0.101\ntime,ours,,0.099\n", &r, &g);
    /* correctness earns 53.34 of 70; performance 30 * 53.34 / 70 = 22.86 */
    TEST("grade: time can't tell with a type wrong: performance as correctness", ok &&
         test_named(&g, "performance")->score == 2286 && g.score == 5334 + 2286 && adds_up(&g) &&
         strcmp(g.correct, "no") == 0 && strcmp(g.first_failure, "double: n=33: lost tail") == 0 &&
         strstr(test_named(&g, "double")->output, "hint: lost tail"));
    ok = graded(TWO_TYPES_PASS "test,correct:double,pass,x\ntest,memcheck,skip,compute-sanitizer not found\n"
                "test,racecheck,skip,compute-sanitizer not found\ntest,timed,pass,x\ntime,start,,0.32\n"
                "time,yours,,0.18\ntime,ours,,0.18\n", &r, &g);
    TEST("grade: no compute-sanitizer is not the copy's fault", ok && g.score == 10000 && adds_up(&g) &&
         strcmp(g.correct, "yes") == 0);
    ok = graded("test,includes,fail,line 9: #include <cub/cub.cuh>\n"
                "detail,includes,,\"our step 3 includes \"\"passes.h\"\"\"\n", &r, &g);
    TEST("grade: a library's #include scores 0", ok && g.score == 0 && adds_up(&g) && strcmp(g.correct, "no") == 0 &&
         strstr(g.first_failure, "includes: line 9") && strstr(test_named(&g, "int")->output, "#include check failed"));
    ok = graded(TWO_TYPES_PASS "test,correct:double,pass,x\ntest,memcheck,pass,x\ntest,racecheck,pass,x\n"
                "test,timed,fail,\"run 2 of 23: expected 5, got 7\"\n"
                "detail,timed,,\"FAILED n=16777216, run 2 of 23\"\ntime,start,,0.32\ntime,ours,,0.18\n", &r, &g);
    TEST("grade: a wrong timed run: no performance points", ok && test_named(&g, "performance")->score == 0 &&
         g.score == 6000 && adds_up(&g) && strcmp(g.correct, "no") == 0 &&
         strstr(g.first_failure, "timed runs: run 2 of 23"));
    ok = graded("test,includes,pass,x\ntest,correct:int,pass,x\ntimeout,,,300\nelapsed,,,301\n", &r, &g);
    TEST("grade: timed out: what ran keeps its points", ok && g.score == 1667 && adds_up(&g) &&
         strcmp(g.correct, "timed out") == 0 && strstr(g.first_failure, "timed out after 300 s") &&
         strstr(test_named(&g, "float")->output, "time limit"));
    ok = graded("phase,,,build\ntimeout,,,5\n", &r, &g);
    TEST("grade: a time limit that cuts the build short says so", ok && g.score == 0 && adds_up(&g) &&
         strcmp(g.correct, "timed out") == 0 && strstr(g.first_failure, "5 s during the build") &&
         !strstr(g.first_failure, "never ends"));
    ok = graded("test,includes,pass,x\nphase,,,build\nbuilt,,,int\nphase,,,checks\ntimeout,,,300\n", &r, &g);
    TEST("grade: a time limit during the checks says so", ok && strstr(g.first_failure, "300 s during the checks"));
    ok = graded("test,empty,fail,empty file: reduce.cu holds no code\n", &r, &g);
    TEST("grade: an empty file is its own first failure", ok && g.score == 0 && adds_up(&g) &&
         strcmp(g.correct, "no") == 0 && strcmp(g.first_failure, "empty file: reduce.cu holds no code") == 0 &&
         strstr(test_named(&g, "int")->output, "the file is empty"));
    ok = graded("test,includes,pass,x\ntest,correct:int,fail,n=1: hangs\ntimeout,,,300\n", &r, &g);
    TEST("grade: a failure before the time limit is the first failure", ok && strcmp(g.correct, "no") == 0 &&
         strstr(g.first_failure, "int: n=1"));
    ok = graded("test,includes,pass,x\nbuilt,,,int float double\nnogpu,,,\n", &r, &g);
    TEST("grade: no GPU: nothing run, said so", ok && g.score == 0 && adds_up(&g) &&
         strcmp(g.correct, "not run (no GPU)") == 0 && strstr(test_named(&g, "int")->output, "no GPU") &&
         strstr(g.first_failure, "builds for int float double"));
    ok = graded("test,includes,pass,x\ntest,correct:int,fail,does not compile\nnogpu,,,\n", &r, &g);
    TEST("grade: no GPU, a build error is graded as such", ok && strcmp(g.correct, "no") == 0 &&
         strstr(g.first_failure, "does not compile"));
    /* the step the copy started from: the record's start item (step 11 for exercise 14), else k-1 */
    ok = graded("start,1,,step1_strided\ntest,includes,pass,x\ntest,timed,pass,x\n"
                "time,start,,0.2\ntime,yours,,0.1\ntime,ours,,0.1\n", &r, &g) &&
         strstr(test_named(&g, "performance")->name, "speedup over step 1,");
    TEST("grade: a start item names the step the copy started from; without one, step k-1",
         ok && graded("test,includes,pass,x\n", &r, &g) && strstr(test_named(&g, "performance")->name, "speedup over step 2,"));

    grade_record bad;
    static char text[1 << 15], csv[1 << 14];
    /* the record as lab.sh writes it (lab_grade note): commas, quotes and a line break in a summary */
    FILE *f = into(csv, sizeof csv);
    fprintf(f, "%s\n", RECORD_HEADER);
    write_record_item(f, "step", "3", "", "step3_x");
    write_record_item(f, "test", "timed", "fail", "run 2 of 23: expected 5, got \"7\"\nsecond line");
    write_record_item(f, "detail", "timed", "", "  hint: a, b");
    write_record_item(f, "time", "ours", "", "0.18");
    fclose(f);
    f = text_file(csv);
    TEST("grade record: written by write_record_item(), read back field by field",
         read_grade_record(f, "rec", &bad, error, sizeof error) == 0 && bad.step == 3 && bad.test_count == 1 &&
         strcmp(bad.tests[0].summary, "run 2 of 23: expected 5, got \"7\" second line") == 0 &&
         strcmp(bad.tests[0].detail, "  hint: a, b\n") == 0 && bad.ours_ms == 0.18);
    fclose(f);
    TEST("grade record: an unknown item is refused", record_refused("step,3,,step3_x\nwhatever,,,1\n",
                                                                    "unknown item 'whatever'"));
    TEST("grade record: a status other than pass, fail, skip is refused",
         record_refused("step,3,,step3_x\ntest,includes,maybe,x\n", "pass, fail or skip"));
    TEST("grade record: no step line is refused", record_refused("test,includes,pass,x\n", "no 'step,K,,NAME' row"));

    f = into(text, sizeof text);
    write_json_string(f, "a \"quoted\" back\\slash\nnew\tline \x01 caf\xc3\xa9 bad\xff end \xe2\x80");
    fclose(f);
    TEST("grade JSON: strings escaped, valid UTF-8 kept, invalid bytes '?'",
         strcmp(text, "\"a \\\"quoted\\\" back\\\\slash\\nnew\\tline \\u0001 caf\xc3\xa9 bad? end ??\"") == 0);
    graded(ALL_CORRECT "time,start,,0.32\ntime,yours,,0.18\ntime,ours,,0.18\nelapsed,,,80\n", &r, &g);
    f = into(text, sizeof text);
    write_results_json(f, &r, &g);
    fclose(f);
    TEST("grade JSON: Gradescope's fields", strstr(text, "\"score\": 100.00,") && strstr(text, "\"execution_time\": 80,") &&
                                            strstr(text, "\"tests\": [") && strstr(text, "\"max_score\": 16.67,") &&
                                            strstr(text, "\"output\": \"lab-grade: step 3"));

    f = into(csv, sizeof csv);
    fprintf(f, "%s\n", GRADES_HEADER);
    write_grades_csv_row(f, "o'brien, \"jo\"", &r, &g);
    graded("test,includes,fail,\"line 9: #include <cub/cub.cuh>, then \"\"more\"\"\"\n", &r, &g);
    write_grades_csv_row(f, "bob", &r, &g);
    fclose(f);
    TEST("grade CSV: quoted fields", strstr(csv, "\"o'brien, \"\"jo\"\"\",3,\"yes\",\"\",1.78,1.78,100.00,100.00,99\n") &&
                                     strstr(csv, "\"bob\",3,\"no\",\"includes: line 9: #include <cub/cub.cuh>, then "
                                                 "\"\"more\"\"\",,,0.00,100.00,99\n"));
    int rows = class_table_of(csv, text, sizeof text);
    TEST("grade class table: a row per submission and the mean",
         rows == 2 && strstr(text, "o'brien, \"jo\"") && strstr(text, "1.78x") &&
         strstr(text, "includes: line 9: #include <cub/cub.cuh>, then \"more\"") &&
         strstr(text, "2 graded, 1 correct, of 2 rows (0 not run: no GPU; 0 with nothing graded); mean score 50.00 of 100.00"));
}

/** grades.csv's cells that would be formulas (lab_grade.c's csv_text() says why). */
static void test_grades_csv_formulas(void)
{
    static grade_record r;
    static grade g;
    static char text[1 << 14], csv[1 << 14];
    graded("test,includes,fail,=cmd|' /C calc'!A0\n", &r, &g);
    FILE *f = into(csv, sizeof csv);
    fprintf(f, "%s\n", GRADES_HEADER);
    write_grades_csv_row(f, "=HYPERLINK(\"http://x\")", &r, &g);
    write_grades_csv_row(f, "+alice", &r, &g);
    write_grades_csv_missing(f, "@bob", "3", "-nothing handed in", 10000);
    write_grades_csv_missing(f, "carol-ann", "", "nothing handed in", 10000);
    fclose(f);
    TEST("grade CSV: a cell that begins with = + - @ gets a ' inside its quotes",
         strstr(csv, "\n\"'=HYPERLINK(\"\"http://x\"\")\",3,\"no\",\"includes: =cmd|' /C calc'!A0\",") &&
         strstr(csv, "\n\"'+alice\",3,") && strstr(csv, "\n\"'@bob\",3,\"no\",\"'-nothing handed in\",,,0.00,100.00,\n") &&
         strstr(csv, "\n\"carol-ann\",,\"no\",\"nothing handed in\",,,0.00,100.00,\n"));
    int rows = class_table_of(csv, text, sizeof text);
    TEST("grade class table: the escaped cells read back as written", rows == 4 &&
         strstr(text, "\n=HYPERLINK(\"http://x\") ") && strstr(text, "\n+alice ") && strstr(text, "\n@bob ") &&
         strstr(text, " -nothing handed in") && !strstr(text, "'=") && !strstr(text, "'+") &&
         !strstr(text, "'@") && !strstr(text, "'-"));
}

/** The class table and the summary: columns as wide as their widest cell, no word cut. */
static void test_table_widths(void)
{
    static grade_record r;
    static grade g;
    static char text[1 << 14], csv[1 << 14];
    const char *name = "a-student-whose-folder-name-is-longer-than-forty-characters-by-far",
               *no_gpu = "GPU checks not run (no GPU here); builds for int float double";
    FILE *f = into(csv, sizeof csv);
    fprintf(f, "%s\n", GRADES_HEADER);
    write_grades_csv_missing(f, name, "3", no_gpu, 10000);
    write_grades_csv_missing(f, "bo", "11", "nothing handed in", 10000);
    fclose(f);
    class_table_of(csv, text, sizeof text);
    long column = column_of(text, 0, "first failure");
    TEST("grade class table: a long name shifts no column, no cell is cut",
         column > 0 && column_of(text, 1, no_gpu) == column && column_of(text, 2, "nothing handed in") == column &&
         column_of(text, 1, name) == 0 && column_of(text, 1, " ") == (long)strlen(name) &&
         column_of(text, 1, "  ") == (long)strlen(name) && count_of(text, "first failure") == 1);
    int ok = graded("test,includes,pass,only ours\nbuilt,,,int float double\nnogpu,,,\n", &r, &g);
    f = into(text, sizeof text);
    print_grade_summary(f, &r, &g);
    fclose(f);
    static const char *tests[] = { "int", "float", "double", "memcheck", "racecheck", "timed runs", "performance" };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        char pattern[160];
        snprintf(pattern, sizeof pattern, "^ +0\\.00 +[0-9.]+  %s +not run: no GPU on this machine", tests[i]);
        ok &= has_line(text, pattern);
    }
    TEST("grade summary: the columns in line, no word cut", ok && count_of(text, "int float double") >= 8 &&
         !has_line(text, "doubl($|[^e])"));
}

int main(void)
{
    test_lab_verdict();
    test_lab_grade();
    test_grades_csv_formulas();
    test_table_widths();
    return failures ? 1 : 0;
}
