/** @file lab_grade.c
 * @brief lab-check's verdict and table; lab-grade's score, results.json, summary and CSV row (lab_grade.h). */
#define _POSIX_C_SOURCE 200809L   /* strtok_r() and fmemopen() are POSIX, not C11 */
#include "lab_grade.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"

/** Copies a string into an array, cut to its size. */
#define COPY(to, from) snprintf(to, sizeof to, "%s", from)

lab_gain lab_verdict(double start_ms, double yours_ms, double ours_ms, int start, int step, char *text, size_t size)
{
    if (!(start_ms > 0.0) || !(yours_ms > 0.0) || !(ours_ms > 0.0)) {
        snprintf(text, size, "no verdict: a time is missing");
        return GAIN_NO_DATA;
    }
    double ours = start_ms / ours_ms, yours = start_ms / yours_ms;
    if (ours < 1.0 + LAB_NOISE) {
        snprintf(text, size, "time can't tell: our step %d is only %.2fx step %d's speed on this GPU, too "
                 "little to judge yours by (yours: %.2fx); PROFILE=1 compares the metric step %d moves", step,
                 ours, start, yours, step);
        return GAIN_CANT_TELL;
    }
    double share = (yours - 1.0) / (ours - 1.0);
    if (share >= 0.75) {
        snprintf(text, size, "gain reached: yours is %.2fx faster than step %d, where you started; ours is "
                 "%.2fx%s", yours, start, ours, yours > ours * (1.0 + LAB_NOISE) ? ": yours is faster than ours!" : "");
        return GAIN_REACHED;
    }
    if (share >= 0.25) {
        snprintf(text, size, "part of the gain: yours is %.2fx faster than step %d, ours %.2fx: the idea is "
                 "partly there; compare your change with the exercise", yours, start, ours);
        return GAIN_PART;
    }
    snprintf(text, size, "gain not yet: yours runs at %.2fx step %d's speed, ours at %.2fx: step %d's idea is "
             "not in your kernel yet (the TODOs mark where it goes)", yours, start, ours, step);
    return GAIN_NOT_YET;
}

lab_gain print_lab_table(FILE *out, const result_row rows[3], int start, int step)
{
    static const char *roles[3] = { "start", "yours", "ours" };
    const result_row *head = &rows[row_passed(&rows[0]) ? 0 : row_passed(&rows[2]) ? 2 : 1];
    char n_text[32];
    format_count(n_text, sizeof n_text, head->n);
    fprintf(out, "Sum of %s %s, %s, peak %.0f GB/s, median of %d runs, %s\n", n_text, head->type, head->device,
            head->peak_gbs, head->reps, cache_state(head));
    fprintf(out, "%-6s %-42s %9s %17s %7s %9s\n", "", "Step", "Time (ms)", "Bandwidth (GB/s)", "% peak", "vs start");
    int all = 1;
    for (int i = 0; i < 3; i++) {
        const result_row *r = &rows[i];
        if (!row_passed(r)) {
            fprintf(out, "%-6s %-42s %9s\n", roles[i], r->label[0] ? r->label : r->step, "FAILED");
            all = 0;
            continue;
        }
        char speedup[16] = "";
        if (row_passed(&rows[0]))
            snprintf(speedup, sizeof speedup, "%.2fx", rows[0].median_ms / r->median_ms);
        fprintf(out, "%-6s %-42s %9.3f %17.1f %6.1f%% %9s", roles[i], r->label, r->median_ms, r->gbs,
                r->peak_gbs > 0.0 ? 100.0 * r->gbs / r->peak_gbs : 0.0, speedup);
        if (row_is_noisy(r))
            fprintf(out, "  noisy: median uncertain by more than 2%%");
        fputc('\n', out);
    }
    if (!all) {
        fprintf(out, "verdict: none, a program failed\n");
        return GAIN_NO_DATA;
    }
    char text[512];
    lab_gain gain = lab_verdict(rows[0].median_ms, rows[1].median_ms, rows[2].median_ms, start, step, text, sizeof text);
    fprintf(out, "verdict: %s\n", text);
    return gain;
}

/** Formats one error line and returns -1. */
static int fail(char *error, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
    return -1;
}

/** Strips the newline and trailing blanks of a line in place. */
static void chomp(char *line)
{
    size_t length = strlen(line);
    while (length > 0 && isspace((unsigned char)line[length - 1]))
        line[--length] = '\0';
}

/** Parses "12", "12.5" or "12.25" (at most 1000000) into hundredths; -1 on anything else. */
static long parse_points(const char *text)
{
    const char *dot = strchr(text, '.');
    size_t decimals = dot ? strlen(dot + 1) : 0;
    if (!isdigit((unsigned char)text[0]) || text[strspn(text, "0123456789.")] || (dot && strchr(dot + 1, '.')) ||
        (dot && (decimals == 0 || decimals > 2)) || strtod(text, NULL) > 1000000.0)
        return -1;
    return (long)llround(strtod(text, NULL) * 100.0);
}

int parse_weights(FILE *f, const char *path, grade_weights *w, char *error, size_t size)
{
    static const char *keys[] = { "correct", "memcheck", "racecheck", "timed_runs", "performance" };
    long *fields[] = { &w->correct, &w->memcheck, &w->racecheck, &w->timed_runs, &w->performance };
    enum { KEYS = sizeof keys / sizeof keys[0] };
    int seen[KEYS] = { 0 }, number = 0;
    char line[512], key[64];
    memset(w, 0, sizeof *w);
    while (fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "#")] = '\0';
        chomp(line);
        int at = 0;   /* where the value starts, after "key =" */
        if (sscanf(line, " %63[^= \t] =%n", key, &at) == EOF)
            continue;   /* a blank line */
        if (at == 0)
            return fail(error, size, "%s line %d: '%s' is not 'key = value' (e.g. performance = 30)", path, number,
                        line + strspn(line, " \t"));
        const char *value = line + at + strspn(line + at, " \t");
        int k = 0;
        while (k < KEYS && strcmp(key, keys[k]) != 0)
            k++;
        if (k == KEYS)
            return fail(error, size, "%s line %d: unknown key '%s'; the keys are correct, memcheck, racecheck, "
                        "timed_runs and performance", path, number, key);
        if (seen[k])
            return fail(error, size, "%s line %d: '%s' is given twice", path, number, key);
        long points = parse_points(value);
        if (points < 0)
            return fail(error, size, "%s line %d: %s = '%s' is not a number of points >= 0 with at most two "
                        "decimals (e.g. 30 or 12.5)", path, number, key, value);
        *fields[k] = points;
        seen[k] = 1;
    }
    for (int k = 0; k < KEYS; k++)
        if (!seen[k])
            return fail(error, size, "%s: '%s = ...' is missing; give all of correct, memcheck, racecheck, "
                        "timed_runs and performance (0 leaves a part out)", path, keys[k]);
    if (weights_total(w) == 0)
        return fail(error, size, "%s: every weight is 0; give some points", path);
    return 0;
}

/** The test with this id in the record, or NULL. */
static const recorded_test *find_test(const grade_record *r, const char *id)
{
    for (int i = r->test_count - 1; i >= 0; i--)
        if (strcmp(r->tests[i].id, id) == 0)
            return &r->tests[i];
    return NULL;
}

/** Appends one detail line to a test, or "[...]" once it no longer fits. */
static void add_detail(recorded_test *t, const char *text)
{
    size_t used = strlen(t->detail), room = sizeof t->detail - sizeof "[...]\n";
    if (used < room)   /* else already cut */
        snprintf(t->detail + used, sizeof t->detail - used, "%s\n", used + strlen(text) + 1 < room ? text : "[...]");
}

void write_record_item(FILE *f, const char *item, const char *id, const char *status, const char *text)
{
    const char *fields[4] = { item, id, status, text };
    for (int i = 0; i < 4; i++) {
        csv_write_field(f, fields[i]);
        fputc(i < 3 ? ',' : '\n', f);
    }
}

int read_grade_record(FILE *f, const char *path, grade_record *r, char *error, size_t size)
{
    static char line[GRADE_DETAIL + 256];
    int number = 0;
    memset(r, 0, sizeof *r);
    while (fgets(line, sizeof line, f)) {
        number++;
        chomp(line);
        if (line[0] == '\0' || (number == 1 && strcmp(line, RECORD_HEADER) == 0))
            continue;
        char *field[4];
        if (csv_split(line, field, 4) != 4)
            return fail(error, size, "%s line %d: not a row 'item,id,status,text'", path, number);
        char *key = field[0], *id = field[1], *status = field[2], *rest = field[3];
        char *end = NULL;
        if (strcmp(key, "step") == 0) {
            r->step = (int)strtol(id, &end, 10);
            if (end == id || *end != '\0' || rest[0] == '\0')
                return fail(error, size, "%s line %d: 'step,K,,NAME' expected", path, number);
            COPY(r->step_name, rest);
        } else if (strcmp(key, "start") == 0) {
            r->start = (int)strtol(id, &end, 10);
            if (end == id || *end != '\0' || r->start < 0)
                return fail(error, size, "%s line %d: 'start,B,,NAME' expected", path, number);
        } else if (strcmp(key, "title") == 0) {
            COPY(r->title, rest);
        } else if (strcmp(key, "copy") == 0) {
            COPY(r->copy, rest);
        } else if (strcmp(key, "device") == 0) {
            COPY(r->device, rest);
        } else if (strcmp(key, "seed") == 0) {
            r->seed = strtoull(rest, NULL, 10);
        } else if (strcmp(key, "types") == 0) {
            r->type_count = 0;
            for (char *save = NULL, *t = strtok_r(rest, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                if (r->type_count == 3 || (strcmp(t, "int") && strcmp(t, "float") && strcmp(t, "double")))
                    return fail(error, size, "%s line %d: types are int, float and double", path, number);
                COPY(r->types[r->type_count++], t);
            }
        } else if (strcmp(key, "test") == 0) {
            grade_status s = strcmp(status, "pass") == 0 ? GRADE_PASS : strcmp(status, "fail") == 0 ? GRADE_FAIL
                           : strcmp(status, "skip") == 0 ? GRADE_SKIP : GRADE_NOT_RUN;
            if (id[0] == '\0')
                return fail(error, size, "%s line %d: 'test,ID,STATUS,SUMMARY' expected", path, number);
            if (s == GRADE_NOT_RUN)
                return fail(error, size, "%s line %d: a test's status is pass, fail or skip (got '%s')", path,
                            number, status);
            recorded_test *t = (recorded_test *)find_test(r, id);
            if (!t) {
                if (r->test_count == GRADE_MAX_TESTS)
                    return fail(error, size, "%s line %d: more than %d tests", path, number, GRADE_MAX_TESTS);
                t = &r->tests[r->test_count++];
            }
            memset(t, 0, sizeof *t);
            COPY(t->id, id);
            t->status = s;
            COPY(t->summary, rest);
        } else if (strcmp(key, "detail") == 0) {
            recorded_test *t = (recorded_test *)find_test(r, id);
            if (!t)
                return fail(error, size, "%s line %d: a detail of test '%s', which has no row before it", path,
                            number, id);
            add_detail(t, rest);
        } else if (strcmp(key, "time") == 0) {
            double ms = strtod(rest, &end);
            if (end == rest || *end != '\0' || !(ms > 0.0))
                return fail(error, size, "%s line %d: 'time,ROLE,,MS' expected", path, number);
            double *to = !strcmp(id, "start") ? &r->start_ms : !strcmp(id, "yours") ? &r->yours_ms
                       : !strcmp(id, "ours") ? &r->ours_ms : NULL;
            if (!to)
                return fail(error, size, "%s line %d: a time's role is start, yours or ours", path, number);
            *to = ms;
        } else if (strcmp(key, "built") == 0) {
            COPY(r->built, rest);
        } else if (strcmp(key, "nogpu") == 0) {
            r->no_gpu = 1;
        } else if (strcmp(key, "phase") == 0) {
            COPY(r->phase, rest);
        } else if (strcmp(key, "timeout") == 0) {
            r->timeout_s = atoi(rest) > 0 ? atoi(rest) : 1;
        } else if (strcmp(key, "elapsed") == 0) {
            r->elapsed_s = atol(rest);
        } else {
            return fail(error, size, "%s line %d: unknown item '%s'", path, number, key);
        }
    }
    if (r->step_name[0] == '\0')
        return fail(error, size, "%s: no 'step,K,,NAME' row: not a record of lab/lab.sh", path);
    if (r->type_count == 0) {
        COPY(r->types[0], "int");
        r->type_count = 1;
    }
    return 0;
}

/** Where a time limit struck, in words: the build's time is not the kernel's fault. */
static const char *timeout_phase(const grade_record *r)
{
    return !strcmp(r->phase, "build") ? "during the build (LAB_TIMEOUT shorter than a build?)"
           : !strcmp(r->phase, "checks") ? "during the checks (a kernel that never ends?)" : "(a kernel that never ends?)";
}

/** What stopped every check before the build: nothing, the check of the include lines, an empty file. */
enum stopped_by { STOPPED_BY_NOTHING, STOPPED_BY_INCLUDES, STOPPED_BY_EMPTY_FILE };

/** Why a test that has no line was not run. */
static void not_run_reason(const grade_record *r, enum stopped_by stopped, const char *needs, char *text, size_t size)
{
    if (stopped == STOPPED_BY_EMPTY_FILE)
        snprintf(text, size, "not run: the file is empty, so there was nothing to build or run");
    else if (stopped == STOPPED_BY_INCLUDES)
        snprintf(text, size, "not run: the #include check failed, so nothing of this copy was built or run");
    else if (r->timeout_s > 0)
        snprintf(text, size, "not run: the time limit of %d s ran out first, %s", r->timeout_s, timeout_phase(r));
    else if (r->no_gpu)
        snprintf(text, size, "not run: no GPU on this machine; this check needs one%s%s%s",
                 r->built[0] ? " (the copy builds for " : "", r->built, r->built[0] ? ")" : "");
    else
        snprintf(text, size, "not run: %s", needs);
}

/** Fills one graded test from its record line (or its absence). */
static void grade_test(graded_test *t, const recorded_test *rec, const char *name, const char *short_name,
                       long max, const char *not_run)
{
    COPY(t->name, name);
    COPY(t->short_name, short_name);
    t->max_score = max;
    t->status = rec ? rec->status : GRADE_NOT_RUN;
    t->score = t->status == GRADE_PASS ? max : 0;
    COPY(t->summary, rec ? rec->summary : not_run);
    snprintf(t->output, sizeof t->output, "%s%s%s%s", !rec ? "" : t->status == GRADE_PASS ? "PASS: " :
             t->status == GRADE_FAIL ? "FAIL: " : "not run: ", t->summary, rec && rec->detail[0] ? "\n" : "",
             rec ? rec->detail : "");
}

/** Points of `max` at the fraction earned/out_of (all of them when out_of is 0), rounded. */
static long share_of(long max, long earned, long out_of)
{
    return out_of <= 0 ? max : (long)llround((double)max * (double)earned / (double)out_of);
}

/** "12.50" from hundredths. */
static void format_points(char *buf, size_t size, long hundredths)
{
    snprintf(buf, size, "%s%ld.%02ld", hundredths < 0 ? "-" : "", labs(hundredths) / 100, labs(hundredths) % 100);
}

void score_grade(const grade_record *r, const grade_weights *w, grade *g)
{
    memset(g, 0, sizeof *g);
    g->gain = GAIN_NO_DATA;
    const recorded_test *includes = find_test(r, "includes");
    /* an empty file fails in place of the #include check, not as pages of link errors */
    const recorded_test *empty = find_test(r, "empty");
    int empty_file = empty && empty->status == GRADE_FAIL;
    enum stopped_by stopped = empty_file ? STOPPED_BY_EMPTY_FILE
                              : includes && includes->status == GRADE_FAIL ? STOPPED_BY_INCLUDES
                                                                            : STOPPED_BY_NOTHING;
    char reason[256], name[112], id[32], needs[160];

    not_run_reason(r, stopped, "an earlier failure stopped it", reason, sizeof reason);
    if (empty_file) {
        grade_test(&g->tests[g->count++], empty, "Own code: a kernel file with code in it", "file", 0, reason);
    } else {
        snprintf(name, sizeof name, "Own code: only the #include lines of step %d's file", r->step);
        grade_test(&g->tests[g->count++], includes, name, "includes", 0, reason);
    }

    int first = g->count;
    long correct_each = w->correct / r->type_count, correct_left = w->correct % r->type_count;
    for (int i = 0; i < r->type_count; i++) {
        snprintf(id, sizeof id, "correct:%s", r->types[i]);
        snprintf(name, sizeof name, "Correct, %s: random and one-hot data at every size, each call on new data",
                 r->types[i]);
        grade_test(&g->tests[g->count++], find_test(r, id), name, r->types[i],
                   correct_each + (i < correct_left ? 1 : 0), reason);
    }
    snprintf(needs, sizeof needs, "needs the %s checks to pass first", r->types[0]);
    not_run_reason(r, stopped, needs, reason, sizeof reason);
    grade_test(&g->tests[g->count++], find_test(r, "memcheck"), "memcheck: no access out of bounds", "memcheck",
               w->memcheck, reason);
    grade_test(&g->tests[g->count++], find_test(r, "racecheck"), "racecheck: no shared-memory race", "racecheck",
               w->racecheck, reason);
    grade_test(&g->tests[g->count++], find_test(r, "timed"), "Timed runs: every run verified, each on new data",
               "timed runs", w->timed_runs, reason);
    int after = g->count;

    /* skipped tests (not the student's doing) earn the share of the others' points */
    long earned = 0, out_of = 0;
    for (int i = first; i < after; i++)
        if (g->tests[i].status != GRADE_SKIP) {
            earned += g->tests[i].score;
            out_of += g->tests[i].max_score;
        }
    long correct_earned = earned, correct_max = out_of;
    for (int i = first; i < after; i++) {
        graded_test *t = &g->tests[i];
        if (t->status != GRADE_SKIP)
            continue;
        t->score = share_of(t->max_score, earned, out_of);
        correct_earned += t->score;
        correct_max += t->max_score;
        char points[32];
        format_points(points, sizeof points, t->score);
        size_t used = strlen(t->output);
        snprintf(t->output + used, sizeof t->output - used,
                 "\n(not the copy's doing: its points follow the other correctness tests: %s)", points);
    }

    graded_test *perf = &g->tests[g->count++];
    int start = r->start ? r->start : r->step - 1;
    snprintf(name, sizeof name, "Performance: speedup over step %d, against our step %d's", start, r->step);
    grade_test(perf, NULL, name, "performance", w->performance, "");
    const recorded_test *timed = find_test(r, "timed");
    char verdict[512];
    if (r->start_ms > 0.0 && r->yours_ms > 0.0)
        g->speedup = r->start_ms / r->yours_ms;
    if (r->start_ms > 0.0 && r->ours_ms > 0.0)
        g->ours_speedup = r->start_ms / r->ours_ms;
    if (!timed || timed->status != GRADE_PASS || !(r->yours_ms > 0.0)) {
        perf->status = timed && timed->status == GRADE_FAIL ? GRADE_FAIL : GRADE_NOT_RUN;
        if (timed && timed->status == GRADE_FAIL)
            snprintf(perf->output, sizeof perf->output, "0 points: a timed run returned a wrong sum, so its time "
                     "counts for nothing");
        else
            not_run_reason(r, stopped, "needs the timed runs to pass", perf->output, sizeof perf->output);
    } else if (!(r->start_ms > 0.0) || !(r->ours_ms > 0.0)) {
        perf->status = GRADE_SKIP;
        perf->score = share_of(perf->max_score, correct_earned, correct_max);
        snprintf(perf->output, sizeof perf->output, "not measured: the timing of step %d or of our step %d is "
                 "missing (not the copy's doing): the points follow correctness", start, r->step);
    } else {
        g->gain = lab_verdict(r->start_ms, r->yours_ms, r->ours_ms, start, r->step, verdict, sizeof verdict);
        char times[160];
        snprintf(times, sizeof times, "\nmedian times: step %d %.4f ms, yours %.4f ms, ours %.4f ms", start,
                 r->start_ms, r->yours_ms, r->ours_ms);
        if (g->gain == GAIN_CANT_TELL) {
            perf->status = GRADE_SKIP;
            perf->score = share_of(perf->max_score, correct_earned, correct_max);
            snprintf(perf->output, sizeof perf->output, "%s%s\nour step's own gain is within the noise of a "
                     "timing on this GPU, so the points follow correctness", verdict, times);
        } else {
            double share = (g->speedup - 1.0) / (g->ours_speedup - 1.0);
            double part = share >= GRADE_FULL_SHARE ? 1.0 : share <= 0.0 ? 0.0 : share / GRADE_FULL_SHARE;
            perf->score = (long)llround((double)perf->max_score * part);
            perf->status = part >= 1.0 ? GRADE_PASS : GRADE_FAIL;
            snprintf(perf->output, sizeof perf->output, "%s%s\nyour share of our gain: %.0f%% (full points from "
                     "%.0f%% on, scaled down to none at no gain)", verdict, times, share * 100.0,
                     GRADE_FULL_SHARE * 100.0);
        }
    }

    /* totals (nothing scores without code or with a library's #include), correct, first failure */
    int any_fail = 0, all_ran = 1;
    for (int i = 0; i < g->count; i++) {
        graded_test *t = &g->tests[i];
        if (stopped != STOPPED_BY_NOTHING)
            t->score = 0;
        g->score += t->score;
        g->max_score += t->max_score;
        if (t == perf)
            continue;
        if (t->status == GRADE_FAIL && !any_fail) {
            any_fail = 1;
            snprintf(g->first_failure, sizeof g->first_failure, "%s: %s", t->short_name, t->summary);
        }
        all_ran &= t->status != GRADE_NOT_RUN;
    }
    snprintf(g->correct, sizeof g->correct, "%s", any_fail ? "no" : r->timeout_s > 0 ? "timed out"
             : r->no_gpu ? "not run (no GPU)" : all_ran ? "yes" : "incomplete");
    if (empty_file)
        snprintf(g->first_failure, sizeof g->first_failure, "%.*s", (int)sizeof g->first_failure - 1, empty->summary);
    else if (!any_fail && r->timeout_s > 0)
        snprintf(g->first_failure, sizeof g->first_failure, "timed out after %d s %s", r->timeout_s,
                 timeout_phase(r));
    else if (!any_fail && r->no_gpu)
        snprintf(g->first_failure, sizeof g->first_failure, "GPU checks not run (no GPU here)%s%s",
                 r->built[0] ? "; builds for " : "", r->built);
}

void write_json_string(FILE *f, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    fputc('"', f);
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n' || c == '\t')
            fputs(c == '\n' ? "\\n" : "\\t", f);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else if (c < 0x80)
            fputc(c, f);
        else {
            /* a whole, valid UTF-8 sequence passes; any other byte becomes '?' */
            int extra = (c & 0xe0) == 0xc0 && c >= 0xc2 ? 1 : (c & 0xf0) == 0xe0 ? 2
                      : (c & 0xf8) == 0xf0 && c <= 0xf4 ? 3 : -1;
            int ok = extra > 0;
            for (int k = 1; ok && k <= extra; k++)
                ok = (p[k] & 0xc0) == 0x80;
            if (ok && extra == 2)
                ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);   /* overlong, surrogates */
            if (ok && extra == 3)
                ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
            fwrite(ok ? p : (const unsigned char *)"?", 1, ok ? (size_t)extra + 1 : 1, f);
            p += ok ? extra : 0;
        }
        p++;
    }
    fputc('"', f);
}

void write_results_json(FILE *f, const grade_record *r, const grade *g)
{
    static char summary[8192];   /* the summary is results.json's top-level output */
    char points[32];
    FILE *text = fmemopen(summary, sizeof summary - 1, "w");   /* terminated when closed */
    summary[0] = summary[sizeof summary - 1] = '\0';
    if (text) {
        print_grade_summary(text, r, g);
        fclose(text);
    }
    format_points(points, sizeof points, g->score);
    fprintf(f, "{\n  \"score\": %s,\n  \"execution_time\": %ld,\n  \"output\": ", points, r->elapsed_s);
    write_json_string(f, summary);
    fprintf(f, ",\n  \"tests\": [\n");
    for (int i = 0; i < g->count; i++) {
        const graded_test *t = &g->tests[i];
        char max[32];
        format_points(points, sizeof points, t->score);
        format_points(max, sizeof max, t->max_score);
        fprintf(f, "    {\n      \"name\": ");
        write_json_string(f, t->name);
        fprintf(f, ",\n      \"score\": %s,\n      \"max_score\": %s,\n      \"status\": \"%s\",\n      \"output\": ",
                points, max, t->score == t->max_score && t->status != GRADE_FAIL && t->status != GRADE_NOT_RUN
                                 ? "passed" : "failed");
        write_json_string(f, t->output);
        fprintf(f, "\n    }%s\n", i + 1 < g->count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/** The widest a table's line gets before its last column wraps (a terminal's width). */
enum { TABLE_WIDTH = 120, TABLE_LAST_COLUMN_MIN = 40 };

/** The first line of `text` as the last column, from column `indent`, wrapped between words within TABLE_WIDTH
 * (at least TABLE_LAST_COLUMN_MIN wide), never cutting a word: a longer one gets a line of its own. */
static void print_last_column(FILE *f, const char *text, int indent)
{
    int width = TABLE_WIDTH - indent;
    if (width < TABLE_LAST_COLUMN_MIN)
        width = TABLE_LAST_COLUMN_MIN;
    size_t end = strcspn(text, "\n");
    int used = 0;
    for (size_t at = 0; at < end;) {
        while (at < end && text[at] == ' ')
            at++;
        size_t word = at;
        while (at < end && text[at] != ' ')
            at++;
        int length = (int)(at - word);
        if (length == 0)
            break;
        if (used > 0 && used + 1 + length > width) {
            fprintf(f, "\n%*s", indent, "");
            used = 0;
        }
        fprintf(f, "%s%.*s", used > 0 ? " " : "", length, text + word);
        used += (used > 0) + length;
    }
    fputc('\n', f);
}

void print_grade_summary(FILE *f, const grade_record *r, const grade *g)
{
    char points[32], max[32];
    fprintf(f, "lab-grade: step %d (%s), %s\n", r->step, r->title[0] ? r->title : r->step_name,
            r->copy[0] ? r->copy : "(no copy)");
    fprintf(f, "seed %llu (LAB_SEED=%llu grades the same data again)%s%s, %ld s\n", r->seed, r->seed,
            r->device[0] || r->no_gpu ? ", " : "", r->device[0] ? r->device : r->no_gpu ? "no GPU" : "", r->elapsed_s);
    if (r->no_gpu)
        fprintf(f, "NO GPU HERE: only the #include lines and the build were checked; the GPU checks did not run, "
                   "so this is not a grade\n");
    if (r->timeout_s > 0)
        fprintf(f, "TIMED OUT: the time limit of %d s (LAB_TIMEOUT) ran out %s; what had not run scores 0\n",
                r->timeout_s, timeout_phase(r));
    /* the columns as wide as their widest cell: nothing is cut, nothing shifts */
    int score_width = 6, test_width = 4;
    for (int i = 0; i < g->count; i++) {
        format_points(max, sizeof max, g->tests[i].max_score);
        int length = (int)strlen(max);
        score_width = length > score_width ? length : score_width;
        length = (int)strlen(g->tests[i].short_name);
        test_width = length > test_width ? length : test_width;
    }
    int indent = 2 * score_width + 1 + 2 + test_width + 2;
    fprintf(f, "%*s %*s  %-*s  %s\n", score_width, "score", score_width, "max", test_width, "test", "result");
    for (int i = 0; i < g->count; i++) {
        const graded_test *t = &g->tests[i];
        format_points(points, sizeof points, t->score);
        format_points(max, sizeof max, t->max_score);
        fprintf(f, "%*s %*s  %-*s  ", score_width, points, score_width, max, test_width, t->short_name);
        print_last_column(f, t->output, indent);
    }
    format_points(points, sizeof points, g->score);
    format_points(max, sizeof max, g->max_score);
    fprintf(f, "correct: %s%s%s\n", g->correct, g->first_failure[0] ? "; first failure: " : "", g->first_failure);
    fprintf(f, "score: %s / %s\n", points, max);
}

/** A text cell of grades.csv: one that begins with =, +, - or @ (the student's text) would be a spreadsheet's
 * formula, so it gets a ' before it, which shows it as text; print_class_table() drops it. */
static void csv_text(FILE *f, const char *text)
{
    char cell[2048];
    snprintf(cell, sizeof cell, "%s%s", text[0] && strchr("=+-@", text[0]) ? "'" : "", text);
    csv_write_field(f, cell);
}

/** A cell as read back: without the ' that csv_text() put before a formula's first character. */
static const char *cell_text(const char *cell)
{
    return cell[0] == '\'' && strchr("=+-@", cell[1]) && cell[1] ? cell + 1 : cell;
}

void write_grades_csv_row(FILE *f, const char *student, const grade_record *r, const grade *g)
{
    char points[32], max[32], speedup[32] = "", ours[32] = "";
    format_points(points, sizeof points, g->score);
    format_points(max, sizeof max, g->max_score);
    if (g->speedup > 0.0)
        snprintf(speedup, sizeof speedup, "%.2f", g->speedup);
    if (g->ours_speedup > 0.0)
        snprintf(ours, sizeof ours, "%.2f", g->ours_speedup);
    csv_text(f, student);
    fprintf(f, ",%d,", r->step);
    csv_text(f, g->correct);
    fputc(',', f);
    csv_text(f, g->first_failure);
    fprintf(f, ",%s,%s,%s,%s,%llu\n", speedup, ours, points, max, r->seed);
}

void write_grades_csv_missing(FILE *f, const char *student, const char *step, const char *why, long max_score)
{
    char max[32];
    format_points(max, sizeof max, max_score);
    csv_text(f, student);
    fprintf(f, ",%s,", step);
    csv_text(f, "no");
    fputc(',', f);
    csv_text(f, why);
    fprintf(f, ",,,0.00,%s,\n", max);
}

/** The class table's columns but the last, first failure (print_class_table()). */
enum { CLASS_COLUMNS = 7 };

/** Student and correct to the left, the numbers to the right, two spaces apart; then `last`, whole. */
static void class_line(FILE *out, char cell[CLASS_COLUMNS][256], const int *width, const char *last)
{
    for (int c = 0; c < CLASS_COLUMNS; c++)
        fprintf(out, "%s%*s", c ? "  " : "", c == 0 || c == 2 ? -width[c] : width[c], cell[c]);
    fprintf(out, "  %.*s\n", (int)strcspn(last, "\n"), last);
}

/** One row of grades.csv as the class table shows it: its cells, "x" added to the speedups. */
static int class_row(char *line, char cell[CLASS_COLUMNS][256], const char **failure)
{
    char *field[9];
    chomp(line);
    if (line[0] == '\0' || csv_split(line, field, 9) != 9)
        return 0;
    const int from[CLASS_COLUMNS] = {0, 1, 2, 4, 5, 6, 7};   /* student, step, correct, speedup, ours, score, max */
    for (int c = 0; c < CLASS_COLUMNS; c++) {
        const char *text = cell_text(field[from[c]]);
        snprintf(cell[c], sizeof cell[c], "%.*s%s", 250, text, (c == 3 || c == 4) && text[0] ? "x" : "");
    }
    *failure = cell_text(field[3]);
    return 1;
}

int print_class_table(FILE *out, FILE *csv)
{
    char line[2048];
    if (!fgets(line, sizeof line, csv))
        return -1;
    chomp(line);
    if (strcmp(line, GRADES_HEADER) != 0)
        return -1;
    /* every column as wide as its widest cell (a first pass): nothing is cut, columns stay in line */
    static char title[CLASS_COLUMNS][256] = {"student", "step", "correct", "speedup", "ours", "score", "max"};
    int width[CLASS_COLUMNS];
    for (int c = 0; c < CLASS_COLUMNS; c++)
        width[c] = (int)strlen(title[c]);
    static char cell[CLASS_COLUMNS][256];
    const char *failure = NULL;
    long body = ftell(csv);
    while (fgets(line, sizeof line, csv))
        if (class_row(line, cell, &failure))
            for (int c = 0; c < CLASS_COLUMNS; c++) {
                int length = (int)strlen(cell[c]);
                width[c] = length > width[c] ? length : width[c];
            }
    fseek(csv, body, SEEK_SET);
    /* the first failure last (its first line): nothing after it can shift */
    class_line(out, title, width, "first failure");
    int rows = 0, correct = 0, not_run = 0, nothing = 0;   /* a row of nothing handed in is no grade */
    double total = 0.0, total_max = 0.0;
    while (fgets(line, sizeof line, csv)) {
        if (!class_row(line, cell, &failure))
            continue;
        class_line(out, cell, width, failure);
        rows++;
        correct += strcmp(cell[2], "yes") == 0;
        not_run += strncmp(cell[2], "not run", 7) == 0;
        nothing += strncmp(failure, "nothing handed in", 17) == 0 || strncmp(failure, "not graded", 10) == 0;
        total += atof(cell[5]);
        total_max += atof(cell[6]);
    }
    if (rows > 0)
        fprintf(out, "%d graded, %d correct, of %d rows (%d not run: no GPU; %d with nothing graded); mean score %.2f of %.2f\n",
                rows - not_run - nothing, correct, rows, not_run, nothing, total / rows, total_max / rows);
    else
        fprintf(out, "nothing graded\n");
    return rows;
}
