/**
 * @file multi/unit_tests.c
 * @brief Host unit tests of the multi-GPU extension's pure logic (multi.h): its flags
 * (through the core's parser and multi_driver()), the crossover of `make scaling`'s table
 * and the reference of an input made in parts. No GPU, no NCCL. One line a test, `PASS
 * unit NAME` or `FAIL unit NAME: why`, as tests/unit_tests.c prints them.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "multi.h"

#include "unit_test.h"

/**
 * One command line of a multi-GPU program of `kind` (it runs a step called "stepK_shard"
 * on every GPU), parsed and checked as harness_begin() does, or of a one-GPU program
 * (`kind` 0: the core's flags alone). Fills *flags; returns 0 if accepted, -1 if refused
 * with one line holding `text`, -2 or -3 if refused otherwise.
 */
static int program_flags(int kind, multi_flags *flags, const char *text, const char *word, ...)
{
    char *argv[32], error[512] = "";
    va_list args;
    va_start(args, word);
    int argc = make_argv(argv, word, args);
    va_end(args);
    options opt;
    const harness_driver *driver = kind ? multi_driver((enum multi_kind)kind, "stepK_shard", flags) : NULL;
    enum parse_result r = parse_driver_options(argc, argv, &opt, driver ? &driver->flags : NULL, error, sizeof error);
    if (r == PARSE_OK && (!driver || driver->check_flags(&opt, error, sizeof error) == 0))
        return 0;
    if (r != PARSE_OK && r != PARSE_ERROR)
        return -2;
    return strstr(error, text) != NULL && strchr(error, '\n') == NULL ? -1 : -3;
}

static void test_flags(void)
{
    multi_flags f;
    TEST("options gpus", program_flags(MULTI_ONE_PROCESS, &f, "", "--gpus", "2", NULL) == 0 && f.gpus == 2);
    TEST("options gpus off by default", program_flags(MULTI_ONE_PROCESS, &f, "", NULL) == 0 && f.gpus == 0);
    TEST("options gpus with the core's flags, in any order",
         program_flags(MULTI_ONE_PROCESS, &f, "", "-n", "5", "--gpus=3", "--check", "1,7", NULL) == 0 && f.gpus == 3);
    TEST("bad gpus = 0", program_flags(MULTI_ONE_PROCESS, &f, "--gpus", "--gpus", "0", NULL) == -1);
    TEST("bad gpus words", program_flags(MULTI_ONE_PROCESS, &f, "--gpus", "--gpus", "two", NULL) == -1);
    TEST("bad gpus too many", program_flags(MULTI_ONE_PROCESS, &f, "--gpus", "--gpus", "65", NULL) == -1);
    TEST("bad gpus missing value", program_flags(MULTI_ONE_PROCESS, &f, "needs a value", "--gpus", NULL) == -1);

    TEST("step 12 refuses --device 0", program_flags(MULTI_ONE_PROCESS, &f, "CUDA_VISIBLE_DEVICES", "--device", "0", NULL) == -1);
    TEST("step 12 refuses --device 1 alike",
         program_flags(MULTI_ONE_PROCESS, &f, "CUDA_VISIBLE_DEVICES", "--device", "1", NULL) == -1);
    TEST("step 12 refuses --input", program_flags(MULTI_ONE_PROCESS, &f, "--input", "--input", "f", NULL) == -1);
    TEST("step 12 refuses --resources, naming the step it runs",
         program_flags(MULTI_ONE_PROCESS, &f, "stepK_shard/reduce --resources", "--resources", NULL) == -1);
    TEST("one rank per GPU refuses --gpus, saying how to start G ranks",
         program_flags(MULTI_RANK_PER_GPU, &f, "mpiexec -n G", "--gpus", "2", NULL) == -1);
    TEST("one rank per GPU takes the core's flags", program_flags(MULTI_RANK_PER_GPU, &f, "", "-n", "5", NULL) == 0);
    TEST("one rank per GPU refuses --device too",
         program_flags(MULTI_RANK_PER_GPU, &f, "mpiexec -n G", "--device", "0", NULL) == -1);
    TEST("one-GPU program refuses --gpus", program_flags(0, &f, "unknown option '--gpus'", "--gpus", "2", NULL) == -1);
    TEST("one-GPU program takes --device 1", program_flags(0, &f, "", "--device", "1", NULL) == 0);
}

/** A passed row of `step` on `gpus` GPUs at size n taking ms. */
static result_row scaling_row(const char *step, unsigned long long n, int gpus, double ms)
{
    result_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.step, sizeof r.step, "%s", step);
    snprintf(r.label, sizeof r.label, "step12 %d GPUs, one process", gpus);
    snprintf(r.status, sizeof r.status, "PASSED");
    r.n = n;
    r.gpus = gpus;
    r.median_ms = ms;
    return r;
}

static void test_scaling(void)
{
    /* n = 2^20, 2^22, 2^24, 2^26: 2 GPUs slower, faster, slower, faster (noise), then faster */
    static const double one[] = { 10, 20, 50, 160, 600 }, two[] = { 30, 18, 60, 90, 310 };
    result_row rows[10];
    for (int i = 0; i < 5; i++) {
        rows[2 * i] = scaling_row("step12_multi_gpu", 1ull << (20 + 2 * i), 1, one[i]);
        rows[2 * i + 1] = scaling_row("step12_multi_gpu", 1ull << (20 + 2 * i), 2, two[i]);
    }
    TEST("scaling setup: the label after the GPU count", strcmp(scaling_setup(&rows[1]), "one process") == 0);
    TEST("scaling crossover: the first n from which 2 GPUs stay ahead",
         scaling_crossover(rows, 10, 2, NULL) == (1ull << 26));
    TEST("scaling crossover of one setup", scaling_crossover(rows, 10, 2, "one process") == (1ull << 26));
    TEST("scaling crossover of a setup with no rows is none", scaling_crossover(rows, 10, 2, "one MPI rank per GPU") == 0);
    TEST("scaling crossover of 1 GPU is none", scaling_crossover(rows, 10, 1, NULL) == 0);
    rows[9].median_ms = 700;
    TEST("scaling crossover: slower at the largest n means none", scaling_crossover(rows, 10, 2, NULL) == 0);
}

static void test_shard_reference(void)
{
    enum { N = 100000 };
    static element_t a[N];
    random_input(a, N, 42, 0);
    reference whole = cpu_reference(a, N), parts = cpu_reference(a, 1000), rest = cpu_reference(a + 1000, N - 1000);
    reference_add(&parts, &rest);
    TEST("reference of shards adds up", parts.exact == whole.exact && parts.fits_element == whole.fits_element &&
                                        fabsl(parts.sum - whole.sum) <= 1e-9L * fabsl(whole.abs_sum) &&
                                        fabsl(parts.abs_sum - whole.abs_sum) <= 1e-9L * whole.abs_sum);
#if ELEMENT_IS_INTEGER
    element_t two_max[2] = { INT_MAX, INT_MAX }, one_element[1] = { 1 };
    reference near = cpu_reference(two_max, 2), one = cpu_reference(one_element, 1);
    near.exact = LLONG_MAX;
    reference_add(&near, &one);
    TEST("int reference of parts held at the 64-bit limit, not wrapped",
         near.exact == LLONG_MAX && !near.fits_element);
#endif
}

int main(void)
{
    test_flags();
    test_scaling();
    test_shard_reference();
    return failures ? 1 : 0;
}
