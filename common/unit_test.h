/**
 * @file unit_test.h
 * @brief Every layer's unit tests report through it (from below; no step includes it): one
 * line a test, "PASS unit NAME" or "FAIL unit NAME: condition", which make test counts; and
 * the helpers more than one needs (a result row, an argv, a file read back).
 */
#ifndef UNIT_TEST_H
#define UNIT_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results.h"

/** Failed tests so far: main() returns 1 when there are any. */
static int failures = 0;

/** Records one test: prints PASS, or FAIL with the failed condition. */
static inline void report(const char *name, int ok, const char *why)
{
    if (ok) {
        printf("PASS unit %s\n", name);
    } else {
        printf("FAIL unit %s: %s\n", name, why);
        failures++;
    }
}

/** One named test: its condition, stringified as the reason when it fails. */
#define TEST(name, condition) report(name, (condition), #condition)

/** A passing row with the given time and bandwidth. */
static inline result_row make_row(const char *step, double ms, double gbs)
{
    result_row r = { .type = "int", .device = "NVIDIA \"Test\" GPU, 80GB", .status = "PASSED",
                     .n = 67108864, .bytes = 268435456, .peak_gbs = 3352.0, .reps = 20, .flushed = 1,
                     .median_ms = ms, .min_ms = ms, .max_ms = ms, .ci_low_ms = ms, .ci_high_ms = ms, .gbs = gbs };
    snprintf(r.step, sizeof r.step, "%s", step);
    snprintf(r.label, sizeof r.label, "%s label, with comma", step);
    return r;
}

/** Builds argv ("reduce" then the words up to NULL); returns argc. */
static inline int make_argv(char **argv, const char *word, va_list args)
{
    int argc = 0;
    argv[argc++] = (char *)"reduce";
    for (const char *w = word; w && argc < 31; w = va_arg(args, const char *))
        argv[argc++] = (char *)w;
    argv[argc] = NULL;
    return argc;
}

/** Reads a whole small file into buf; returns its length or -1. */
static inline long slurp(const char *path, char *buf, long size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long len = (long)fread(buf, 1, (size_t)size - 1, f);
    buf[len] = '\0';
    fclose(f);
    return len;
}

#endif
