/**
 * @file options.c
 * @brief Flag parsing (see options.h).
 */
#define _GNU_SOURCE
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Parses a whole decimal number with nothing after it; -1 on anything else. */
static int parse_decimal(const char *text, uint64_t *value)
{
    if (text[0] < '0' || text[0] > '9')
        return -1;  /* rejects "", "-5", "+5", " 5" */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *value = v;
    return 0;
}

int parse_size(const char *text, uint64_t *value)
{
    if (strncmp(text, "2^", 2) != 0)
        return parse_decimal(text, value);

    const char *rest = text + 2;
    size_t digits = strspn(rest, "0123456789");
    uint64_t exponent = digits ? strtoull(rest, NULL, 10) : 0, offset = 0;   /* up to 7 digits: no overflow */
    if (digits == 0 || digits >= 8 || exponent > 64)
        return -1;
    rest += digits;
    /* 2^64 itself does not fit, 2^64-M (M >= 1) does: the top of the range has a name too */
    if (exponent == 64) {
        if (*rest != '-' || parse_decimal(rest + 1, &offset) != 0 || offset == 0)
            return -1;
        *value = UINT64_MAX - (offset - 1);
        return 0;
    }
    uint64_t base = (uint64_t)1 << exponent;
    if (*rest != '\0' && ((*rest != '+' && *rest != '-') || parse_decimal(rest + 1, &offset) != 0))
        return -1;
    /* out of 0 .. 2^64-1 is not a size, as for a plain decimal: never wrap around */
    if ((*rest == '-' && offset > base) || (*rest == '+' && offset > UINT64_MAX - base))
        return -1;
    *value = (*rest == '-') ? base - offset : base + offset;   /* 2^K alone: offset 0 */
    return 0;
}

/** Formats one error line into the caller's buffer and returns PARSE_ERROR. */
static enum parse_result fail(char *error, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
    return PARSE_ERROR;
}

int parse_int_in(const char *text, long low, long high, int *value)
{
    uint64_t v;
    if (parse_decimal(text, &v) != 0 || (long)v < low || v > (uint64_t)high)
        return -1;
    *value = (int)v;
    return 0;
}

/**
 * Parses --check into opt: `auto` (the step's own sizes, filled in by the harness) or a
 * comma-separated list. An empty item ("1,,2", a comma at either end) is an error, not
 * skipped: a script that built the list wrong must hear it.
 */
static enum parse_result parse_check_list(const char *text, options *opt, char *error, size_t size)
{
    char buffer[1024];
    opt->check_count = 0;
    opt->check_auto = strcmp(text, "auto") == 0;
    if (opt->check_auto)
        return PARSE_OK;
    if (strlen(text) >= sizeof buffer)
        return fail(error, size, "--check: the list is too long (at most %d sizes)", MAX_CHECK_SIZES);
    strcpy(buffer, text);
    for (char *item = buffer, *next; item; item = next) {
        uint64_t n;
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (item[0] == '\0')
            return fail(error, size, "--check: an empty size in '%s'; give sizes >= 1 separated by single "
                                     "commas, e.g. --check 1,257,2^20+7, or --check auto", text);
        if (parse_size(item, &n) != 0 || n == 0)
            return fail(error, size, "--check: '%s' is not a size; give sizes >= 1 separated by commas, "
                                     "e.g. --check 1,257,2^20+7", item);
        if (opt->check_count == MAX_CHECK_SIZES)
            return fail(error, size, "--check: at most %d sizes in one run", MAX_CHECK_SIZES);
        opt->check_sizes[opt->check_count++] = (size_t)n;
    }
    return PARSE_OK;
}

/** Most flags a driver may add to the core's (driver_flags). */
#define MAX_DRIVER_FLAGS 16

enum parse_result parse_driver_options(int argc, char **argv, options *opt, const driver_flags *driver,
                                       char *error, size_t error_size)
{
    enum { OPT_WARMUP = 1000, OPT_SEED, OPT_DEVICE, OPT_CSV, OPT_HOT, OPT_FLUSH, OPT_NO_GATE, OPT_QUIET, OPT_INPUT,
           OPT_PRINT_SUM, OPT_CHECK, OPT_DESCRIBE, OPT_RESOURCES, OPT_SAME_BITS, OPT_VERDICTS, OPT_DRIVER = 2000 };
    static const struct option core_options[] = {
        { "size", required_argument, NULL, 'n' },
        { "reps", required_argument, NULL, 'r' },
        { "warmup", required_argument, NULL, OPT_WARMUP },
        { "seed", required_argument, NULL, OPT_SEED },
        { "device", required_argument, NULL, OPT_DEVICE },
        { "csv", required_argument, NULL, OPT_CSV },
        { "hot", no_argument, NULL, OPT_HOT },
        { "flush", required_argument, NULL, OPT_FLUSH },
        { "no-gate", no_argument, NULL, OPT_NO_GATE },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "input", required_argument, NULL, OPT_INPUT },
        { "print-sum", no_argument, NULL, OPT_PRINT_SUM },
        { "check", required_argument, NULL, OPT_CHECK },
        { "describe", no_argument, NULL, OPT_DESCRIBE },
        { "resources", no_argument, NULL, OPT_RESOURCES },
        { "same-bits", no_argument, NULL, OPT_SAME_BITS },
        { "verdicts", required_argument, NULL, OPT_VERDICTS },
        { "help", no_argument, NULL, 'h' },
    };
    enum { CORE_COUNT = sizeof core_options / sizeof core_options[0] };
    /* the core's flags, then the driver's (their codes: OPT_DRIVER + index), then the end */
    struct option long_options[CORE_COUNT + MAX_DRIVER_FLAGS + 1];
    int driver_count = driver ? driver->count : 0;
    if (driver_count > MAX_DRIVER_FLAGS)
        return fail(error, error_size, "internal: a driver adds %d flags, at most %d", driver_count,
                    MAX_DRIVER_FLAGS);
    memcpy(long_options, core_options, sizeof core_options);
    for (int i = 0; i < driver_count; i++)
        long_options[CORE_COUNT + i] = (struct option){ driver->flags[i].name,
            driver->flags[i].takes_value ? required_argument : no_argument, NULL, OPT_DRIVER + i };
    long_options[CORE_COUNT + driver_count] = (struct option){ NULL, 0, NULL, 0 };
    const options defaults = { .n = DEFAULT_N, .reps = DEFAULT_REPS, .warmup = DEFAULT_WARMUP, .seed = 1,
                              .flush = DEFAULT_FLUSH };
    *opt = defaults;
    error[0] = '\0';

    optind = 0;  /* GNU: full reset, so the parser can run more than once (unit tests) */
    opterr = 0;  /* we word the errors ourselves */
    int c, hot = 0, flush_given = 0;
    while ((c = getopt_long(argc, argv, ":n:r:h", long_options, NULL)) != -1) {
        uint64_t value;
        switch (c) {
        case 'n':
            if (parse_size(optarg, &value) != 0)
                return fail(error, error_size, "-n/--size: '%s' is not a size; give a whole number "
                                               "from 1 to 2^64-1 as N, 2^K, 2^K+M or 2^K-M, e.g. -n 1000000 "
                                               "or -n 2^26", optarg);
            if (value == 0)
                return fail(error, error_size, "-n/--size must be at least 1 (got 0)");
            opt->n = (size_t)value;
            opt->n_given = 1;
            break;
        case 'r':
            if (parse_int_in(optarg, 1, MAX_REPS, &opt->reps) != 0)
                return fail(error, error_size, "-r/--reps: '%s' is not allowed; give a whole number "
                                               "from 1 to %d", optarg, MAX_REPS);
            break;
        case OPT_WARMUP:
            if (parse_int_in(optarg, 0, MAX_REPS, &opt->warmup) != 0)
                return fail(error, error_size, "--warmup: '%s' is not allowed; give a whole number "
                                               "from 0 to %d", optarg, MAX_REPS);
            break;
        case OPT_SEED:
            if (parse_decimal(optarg, &value) != 0)
                return fail(error, error_size, "--seed: '%s' is not allowed; give a whole number "
                                               "from 0 to 2^64-1 (18446744073709551615)", optarg);
            opt->seed = value;
            break;
        case OPT_DEVICE:
            if (parse_int_in(optarg, 0, 1023, &opt->device) != 0)
                return fail(error, error_size, "--device: '%s' is not a device index; give 0, 1, ... "
                                               "(nvidia-smi -L lists them)", optarg);
            opt->device_given = 1;
            break;
        case OPT_CSV: opt->csv_path = optarg; break;
        case OPT_HOT: hot = 1; opt->flush = FLUSH_NONE; break;
        case OPT_FLUSH:
            if (strcmp(optarg, "read") != 0 && strcmp(optarg, "write") != 0)
                return fail(error, error_size, "--flush: '%s' is not a flush; give read (L2 left clean) or write "
                                               "(a memset, L2 left dirty), or --hot for none", optarg);
            flush_given = 1;
            opt->flush = optarg[0] == 'r' ? FLUSH_READ : FLUSH_WRITE;
            break;
        case OPT_NO_GATE: opt->no_gate = 1; break;
        case OPT_QUIET: opt->quiet = 1; break;
        case OPT_INPUT: opt->input_path = optarg; break;
        case OPT_PRINT_SUM: opt->print_sum = 1; break;
        case OPT_DESCRIBE: opt->describe = 1; break;
        case OPT_RESOURCES: opt->resources = 1; break;
        case OPT_SAME_BITS: opt->same_bits = 1; break;
        case OPT_VERDICTS: opt->verdicts_path = optarg; break;
        case OPT_CHECK:
            if (parse_check_list(optarg, opt, error, error_size) != PARSE_OK)
                return PARSE_ERROR;
            break;
        case 'h':
            return PARSE_HELP;
        case ':':
            return fail(error, error_size, "option '%s' needs a value; see --help", argv[optind - 1]);
        default:
            if (c >= OPT_DRIVER && c < OPT_DRIVER + driver_count) {
                if (driver->take(c - OPT_DRIVER, optarg, error, error_size) != 0)
                    return PARSE_ERROR;
                break;
            }
            return fail(error, error_size, "unknown option '%s'; see --help for the accepted flags",
                        argv[optind - 1]);
        }
    }
    if (optind < argc)
        return fail(error, error_size, "unexpected argument '%s'; sizes go after -n, see --help",
                    argv[optind]);
    if (hot && flush_given)
        return fail(error, error_size, "give --hot (no flush) or --flush MODE, not both");
    if (opt->input_path && opt->n_given)
        return fail(error, error_size, "give either --input FILE or -n, not both: "
                                       "the file's size decides n");
    if (opt->input_path && (opt->check_count || opt->check_auto))
        return fail(error, error_size, "give either --input FILE or --check, not both");
    if (opt->verdicts_path && !opt->same_bits && !opt->check_count && !opt->check_auto)
        return fail(error, error_size, "--verdicts F writes the verdicts of --check or --same-bits: give one of them");
    if (opt->same_bits && (opt->input_path || opt->check_count || opt->check_auto || opt->n_given))
        return fail(error, error_size, "--same-bits makes its own data and sizes: give it without --input, "
                                       "--check or -n");
    return PARSE_OK;
}

const char *max_n_reason(uint64_t max_n)
{
    if (max_n <= UINT32_MAX)
        return "its kernel indexes with 32-bit integers; the steps whose --describe says index_bits=64 take more";
    return "its kernel indexes with 64-bit integers, so n is a signed 64-bit count; "
           "the device's memory runs out long before";
}

void print_usage(const char *program, const char *step_name, uint64_t max_n, const driver_usage *driver,
                 const char *step_lines)
{
    printf("Usage: %s [flags]\n"
           "Times the %s reduction on %s and verifies every result.\n\n"
           "  -n, --size N     elements to reduce (default 2^26): N, 2^K, 2^K+M or 2^K-M, at most %llu\n"
           "                   (%s)\n"
           "  -r, --reps R     timed repetitions, median reported (default %d)\n"
           "      --warmup W   untimed runs first (default %d)\n"
           "      --seed S     seed of the random data (default 1)\n",
           program, step_name, driver ? driver->runs_on : "the GPU", (unsigned long long)max_n,
           max_n_reason(max_n), DEFAULT_REPS, DEFAULT_WARMUP);
    printf("%s", driver ? driver->flag_lines : "      --device D   CUDA device index (default 0)\n");
    printf("      --csv FILE   append one result row to FILE\n"
           "      --flush MODE how to flush the L2 cache before each run: read (a kernel reads 4 x L2,\n"
           "                   which leaves it clean) or write (a memset of 4 x L2, which leaves it\n"
           "                   dirty); default %s\n"
           "      --hot        do not flush the L2 cache before each run\n"
           "      --no-gate    let the GPU start before the whole run is queued (times host delays)\n"
           "      --quiet      print only errors (and --print-sum)\n", DEFAULT_FLUSH == FLUSH_READ ? "read" : "write");
    if (!driver)
        printf("      --input FILE reduce FILE's raw little-endian elements (n = size / element size)\n");
    printf("      --print-sum  print the result alone on a line, for scripts (with --input: each timed\n"
           "                   run's, the same data every run)\n"
           "      --check LIST verify sizes, e.g. 1,257,2^20+7, on random and one-hot data, no timing;\n"
           "                   --check auto: the sizes that break reductions, from the step's geometry\n"
           "      --verdicts F write each size's verdict of --check or --same-bits to F, one line each,\n"
           "                   for scripts: WHAT N pass|fail [WHY]\n"
           "      --describe   print the step's metadata (number, name, threads, largest n ...) for scripts\n");
    if (!driver)
        printf("      --resources  print the kernel's registers, shared memory, blocks per SM and\n"
               "                   occupancy on this GPU (for scripts: make resources)\n");
    if (step_lines)
        printf("%s", step_lines);
    printf("  -h, --help       this text\n\n");
    if (driver)
        driver->print_footer(program);
    printf("Exit codes: 0 verified, 1 wrong result, 2 bad input, 3 no GPU, 4 CUDA error.\n");
}
