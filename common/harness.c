/** @file harness.c
 * @brief What every driver shares (see harness.h). */
/* setenv() is POSIX, not C11 */
#define _POSIX_C_SOURCE 200112L
#include "harness.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"

int harness_writes_files = 1;

void say_error(const char *message)
{
    fprintf(stderr, "%s: %s\n", harness_program, message);
}

void say_errorf(const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    say_error(message);
}

int check_max_n(const step_info *info, size_t n, const char *what)
{
    if (n <= info->max_n)
        return 0;
    say_errorf("%s = %zu is above %s's maximum of %llu: %s", what, n, info->name,
               (unsigned long long)info->max_n, max_n_reason(info->max_n));
    return EXIT_USAGE;
}

/** adversarial_sizes() of the kernel that runs, STEP (in a multi-GPU program, the step each
 * GPU runs), up to `info`'s largest n, into `sizes` (MAX_CHECK_SIZES); returns how many. */
static int auto_check_sizes(const step_info *info, size_t *sizes)
{
    return adversarial_sizes(STEP.threads, STEP.elements_per_block, VECTOR_BYTES / sizeof(element_t),
                             info->max_n > MAX_N_32BIT ? 64 : 32, sizes, MAX_CHECK_SIZES);
}

/** --describe: step_info and what follows from it, key=value lines for the scripts; then the driver's or step's. */
static void describe(const step_info *info, const harness_driver *driver)
{
    size_t sizes[MAX_CHECK_SIZES];
    int count = auto_check_sizes(info, sizes);
    printf("number=%d\nname=%s\ntitle=%s\ncitation=%s\nidea=%s\ntype=%s\nthreads=%u\n"
           "elements_per_block=%zu\nmax_n=%llu\nindex_bits=%d\nkernel=%s\n", info->number,
           info->name, info->title, info->citation, info->idea, ELEMENT_NAME, info->threads, info->elements_per_block,
           (unsigned long long)info->max_n, info->max_n > MAX_N_32BIT ? 64 : 32, info->kernel ? "own" : "library");
    printf("check_sizes=");
    for (int i = 0; i < count; i++)
        printf("%s%zu", i ? "," : "", sizes[i]);
    /* the sanitizers' runs, "N [FLAG...]" by ';': small, and covering a partial block */
    const step_flags *own = driver ? NULL : info->own_flags;
    printf("\nsanitize_runs=1000;4099%s%s\n", own && own->sanitize_run ? ";" : "",
           own && own->sanitize_run ? own->sanitize_run : "");
    if (driver)
        driver->describe();
    else if (info->own_flags)
        info->own_flags->describe();
}

int same_bits_sizes(const step_info *info, size_t *sizes)
{
    size_t all[MAX_CHECK_SIZES + 3];
    int count = auto_check_sizes(info, all);
    while (count > 0 && all[count - 1] > SAME_BITS_MOST_N)   /* sorted: the largest last */
        count--;
    all[count++] = (size_t)1 << 20;
    all[count++] = ((size_t)1 << 24) + 7;
    all[count++] = (size_t)1 << 26;
    return sorted_sizes(all, count, sizes, MAX_CHECK_SIZES);
}

/** -1 and one line in `error` where --same-bits cannot hold: without --blocks, or for integers. */
static int same_bits_refused(const step_info *info, const harness_driver *driver, char *error, size_t size)
{
    const step_flags *own = driver ? NULL : info->own_flags;
    if (!own || own->parse.count < 1 || strcmp(own->parse.flags[0].name, "blocks") != 0)
        snprintf(error, size, "--same-bits runs the program with --blocks B, which %s does not take "
                              "(its --describe says no most_blocks=)", info->name);
    else if (ELEMENT_IS_INTEGER)
        snprintf(error, size, "--same-bits is for float and double (TYPE=float, TYPE=double): an integer "
                              "sum has the same bits in any order");
    else
        return 0;
    return -1;
}

int record_verdict(const options *opt, const char *what, size_t n, int ok, const char *why)
{
    if (!opt->verdicts_path || !harness_writes_files)
        return 1;
    FILE *file = fopen(opt->verdicts_path, "a");
    int written = file && fprintf(file, "%s %zu %s%s%s\n", what, n, ok ? "pass" : "fail", why ? " " : "", why ? why : "") > 0;
    if (file && fclose(file) != 0)
        written = 0;
    if (!written)
        say_errorf("--verdicts %s: cannot write the verdict of n=%zu", opt->verdicts_path, n);
    return written;
}

void load_kernels_eagerly(void)
{
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
}

int harness_begin(int argc, char **argv, options *opt, const step_info *info, const harness_driver *driver)
{
    harness_program = argv[0];
    char error[512];
    /* the one-GPU driver's program takes the step's own flags too; another driver, its own */
    const step_flags *own = driver ? NULL : info->own_flags;
    const driver_flags *extra = driver ? &driver->flags : own ? &own->parse : NULL;
    switch (parse_driver_options(argc, argv, opt, extra, error, sizeof error)) {
    case PARSE_HELP:
        print_usage(argv[0], info->name, info->max_n, driver ? &driver->usage : NULL, own ? own->usage_lines : NULL);
        return EXIT_OK;
    case PARSE_ERROR:
        say_error(error);
        return EXIT_USAGE;
    case PARSE_OK:
        break;
    }
    if (driver && driver->check_flags(opt, error, sizeof error) != 0) {
        say_error(error);
        return EXIT_USAGE;
    }
    if (opt->describe) {
        describe(info, driver);
        return EXIT_OK;
    }
    if (opt->check_auto)
        opt->check_count = auto_check_sizes(info, opt->check_sizes);
    if (check_max_n(info, opt->n, "n"))
        return EXIT_USAGE;
    for (int i = 0; i < opt->check_count; i++)
        if (check_max_n(info, opt->check_sizes[i], "--check: n"))
            return EXIT_USAGE;
    if ((opt->csv_path && harness_writes_files && csv_check_writable(opt->csv_path, error, sizeof error) != 0) ||
        (opt->same_bits && same_bits_refused(info, driver, error, sizeof error) != 0)) {
        say_error(error);
        return EXIT_USAGE;
    }
    /* --verdicts: a new, empty file now, so that a file that cannot be written stops the run here */
    FILE *verdicts = opt->verdicts_path && harness_writes_files ? fopen(opt->verdicts_path, "w") : NULL;
    if (opt->verdicts_path && harness_writes_files && (!verdicts || fclose(verdicts) != 0)) {
        say_errorf("--verdicts %s: cannot write it (%s); give a file in a folder that exists",
                   opt->verdicts_path, strerror(errno));
        return EXIT_USAGE;
    }
    /* compute-sanitizer and ncu (CUDA_INJECTION64_PATH) make each launch wait for the one
       before it: the gate would hold every run until it gave up, reported as timed out */
    load_kernels_eagerly();
    if (getenv("CUDA_INJECTION64_PATH"))
        opt->no_gate = 1;
    return HARNESS_GO_ON;
}

size_t scratch_for(size_t n)
{
    return STEP.scratch_elements ? STEP.scratch_elements(n) : STEP.blocks_for(n);
}

uint64_t depth_for(size_t n)
{
    return STEP.addition_depth ? STEP.addition_depth(n) : depth_of_passes(n, STEP.threads, STEP.blocks_for);
}

double accepted_error(const reference *ref, size_t n)
{
    return STEP.error_bound ? STEP.error_bound(ref, n) : error_bound(ref, depth_for(n));
}

element_t *host_alloc(size_t n)
{
    element_t *p = (n <= SIZE_MAX / sizeof(element_t)) ? malloc(n * sizeof(element_t)) : NULL;
    if (!p) {
        char bytes[32];
        format_bytes(bytes, sizeof bytes, (unsigned long long)n * sizeof(element_t));
        say_errorf("cannot allocate %s of host memory for the input; use a smaller -n", bytes);
    }
    return p;
}

int is_poison(const void *value, size_t size)
{
    const unsigned char *bytes = value;
    for (size_t i = 0; i < size; i++)
        if (bytes[i] != POISON_BYTE)
            return 0;
    return 1;
}

int one_hot_positions(size_t n, size_t *positions)
{
    static const size_t boundaries[] = { 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 65536, 1 << 20 };
    size_t candidates[3 * sizeof boundaries / sizeof boundaries[0] + 5];
    int count = 0, kept = 0;
    candidates[count++] = 0;
    candidates[count++] = n / 2;
    for (size_t k = 1; k <= 3 && k <= n; k++)
        candidates[count++] = n - k;   /* last index and the vector tail */
    for (size_t k = 0; k < sizeof boundaries / sizeof boundaries[0]; k++)
        for (size_t d = 0; d < 3; d++)
            candidates[count++] = boundaries[k] - 1 + d;   /* b-1, b, b+1 */
    for (int c = 0; c < count && kept < MAX_ONE_HOT; c++) {
        int duplicate = 0;
        for (int d = 0; d < kept; d++)
            duplicate |= (positions[d] == candidates[c]);
        if (candidates[c] < n && !duplicate)
            positions[kept++] = candidates[c];
    }
    return kept;
}

void fill_row(result_row *row, const step_info *info, size_t n, const gpu_info *gpu, const options *opt,
              const timing_stats *t, double rel_error, int ok)
{
    unsigned long long bytes = (unsigned long long)n * sizeof(element_t);
    *row = (result_row){ .n = n, .bytes = bytes, .peak_gbs = gpu->peak_gbs, .reps = opt->reps, .flushed = opt->flush,
                         .median_ms = t->median_ms, .min_ms = t->min_ms, .max_ms = t->max_ms, .ci_low_ms = t->ci_low_ms,
                         .ci_high_ms = t->ci_high_ms, .gbs = bandwidth_gbs(bytes, t->median_ms), .rel_error = rel_error,
                         .gpus = 1 };
    snprintf(row->step, sizeof row->step, "%s", info->name);
    if (info->number >= 0)   /* "step3 first add during load", or the title alone */
        snprintf(row->label, sizeof row->label, "step%d %s", info->number, info->title);
    else
        snprintf(row->label, sizeof row->label, "%s", info->title);
    snprintf(row->type, sizeof row->type, "%s", ELEMENT_NAME);
    snprintf(row->device, sizeof row->device, "%s", gpu->name);
    snprintf(row->status, sizeof row->status, "%s", ok ? "PASSED" : "FAILED");
}

timing_stats time_runs(float (*run_once)(void *ctx, int run), void *ctx, int warmup, int reps)
{
    timing_stats t = { 0.0, 0.0, 0.0, 0.0, 0.0 };
    double *times = malloc((size_t)reps * sizeof *times);
    if (!times) {
        say_error("out of host memory for the timings");
        exit(EXIT_USAGE);
    }
    int r = 0;
    for (; r < warmup + reps; r++) {
        float ms = run_once(ctx, r);
        if (ms < 0.0f)
            break;
        if (r >= warmup)
            times[r - warmup] = ms;
    }
    if (r == warmup + reps)
        t = summarize_times(times, reps);
    free(times);
    return t;
}

void print_timing(const result_row *row, const options *opt)
{
    printf("  time     %.4f ms median, %.4f min, %.4f max of %d runs after %d warm-up, %s\n", row->median_ms,
           row->min_ms, row->max_ms, opt->reps, opt->warmup, cache_state(row));
    printf("           the median lies in [%.4f, %.4f] ms with 95%% confidence\n", row->ci_low_ms,
           row->ci_high_ms);
    if (row_is_noisy(row))
        printf("  noisy    the median is uncertain by more than 2%%: more runs (-r 50) or "
               "is another process using the GPU?\n");
}

int append_csv(const options *opt, const result_row *row)
{
    if (!opt->csv_path || csv_append(opt->csv_path, row) == 0)
        return 1;
    say_errorf("--csv: cannot append to '%s'", opt->csv_path);
    return 0;
}
