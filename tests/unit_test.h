/**
 * @file unit_test.h
 * @brief The unit tests' one way of reporting, shared by the core's (tests/unit_tests.c)
 * and each extension's: one line per test, "PASS unit NAME" or "FAIL unit NAME: the
 * condition that failed", which make test counts as it counts its own lines.
 */
#ifndef UNIT_TEST_H
#define UNIT_TEST_H

#include <stdio.h>

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

#endif
