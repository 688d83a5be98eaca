/** @file unit_tests.c
 * @brief Host unit tests of the harness's pure logic (flags, data, reference, verdict and float bound,
 * statistics, speedups, CSV, pictures, diagnosis; the lab's: lab/unit_tests.c). A line per test, `PASS
 * unit NAME` or `FAIL unit NAME: why`, counted by tests/run.sh; built per type, to test each bound. */
#define _GNU_SOURCE   /* sched_setaffinity(): the data made on one core */
#include <sched.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"
#include "data.h"
#include "diagnose.h"
#include "options.h"
#include "results.h"
#include "tables.h"
#include "svg.h"

#include "unit_test.h"

/** Parses a command line given as a NULL-terminated list of words. */
static enum parse_result parse(options *opt, char *error, const char *word, ...)
{
    char *argv[32];
    va_list args;
    va_start(args, word);
    int argc = make_argv(argv, word, args);
    va_end(args);
    return parse_driver_options(argc, argv, opt, NULL, error, 512);
}

/** 1 if a parse gave PARSE_ERROR with an `error` of exactly one line containing expected_text. */
static int says_error(const char *expected_text, enum parse_result r, const char *error)
{
    return r == PARSE_ERROR && error[0] != '\0' && strchr(error, '\n') == NULL && strstr(error, expected_text) != NULL;
}

/** A bad command line (words up to NULL) must be refused, saying expected_text (test_options()'s opt and error). */
#define rejects(expected_text, ...) says_error(expected_text, parse(&opt, error, __VA_ARGS__), error)

static void test_sizes(void)
{
    uint64_t v = 0;
    TEST("parse_size decimal", parse_size("1000", &v) == 0 && v == 1000);
    TEST("parse_size 2^26", parse_size("2^26", &v) == 0 && v == 67108864);
    TEST("parse_size 2^31+5", parse_size("2^31+5", &v) == 0 && v == 2147483653ull);
    TEST("parse_size 2^10-1", parse_size("2^10-1", &v) == 0 && v == 1023);
    TEST("parse_size rejects empty", parse_size("", &v) != 0);
    TEST("parse_size rejects negative", parse_size("-5", &v) != 0);
    TEST("parse_size rejects plus sign", parse_size("+5", &v) != 0);
    TEST("parse_size rejects words", parse_size("abc", &v) != 0);
    TEST("parse_size rejects trailing junk", parse_size("5x", &v) != 0);
    TEST("parse_size rejects 2^", parse_size("2^", &v) != 0);
    TEST("parse_size 2^63, like 9223372036854775808", parse_size("2^63", &v) == 0 && v == (uint64_t)1 << 63 &&
         parse_size("9223372036854775808", &v) == 0 && v == (uint64_t)1 << 63);
    TEST("parse_size 2^63+(2^63-1) is 2^64-1", parse_size("2^63+9223372036854775807", &v) == 0 && v == UINT64_MAX);
    TEST("parse_size rejects 2^64", parse_size("2^64", &v) != 0);
    TEST("parse_size 2^64-1, the top of the range its message names", parse_size("2^64-1", &v) == 0 && v == UINT64_MAX &&
                                                              parse_size("2^64-2", &v) == 0 && v == UINT64_MAX - 1);
    TEST("parse_size rejects 2^64-0 and 2^64+1", parse_size("2^64-0", &v) != 0 && parse_size("2^64+1", &v) != 0);
    TEST("parse_size rejects 2^64 in decimal", parse_size("18446744073709551616", &v) != 0);
    TEST("parse_size 2^0+(2^64-1) overflows, never wraps to 0", parse_size("2^0+18446744073709551615", &v) != 0);
    TEST("parse_size 2^1+(2^64-1) overflows, never wraps to 1", parse_size("2^1+18446744073709551615", &v) != 0);
    TEST("parse_size 2^63+2^63 overflows", parse_size("2^63+9223372036854775808", &v) != 0);
    TEST("parse_size rejects 2^3+", parse_size("2^3+", &v) != 0);
    TEST("parse_size rejects 2^3-9", parse_size("2^3-9", &v) != 0);
    TEST("parse_size rejects overflow", parse_size("99999999999999999999999", &v) != 0);
}

static void test_options(void)
{
    options opt;
    char error[512];
    TEST("options all flags",
         parse(&opt, error, "-n", "1000", "-r", "5", "--warmup", "0", "--seed", "7", "--device", "1",
               "--csv", "out.csv", "--hot", "--no-gate", "--quiet", "--print-sum", NULL) == PARSE_OK &&
             opt.n == 1000 && opt.n_given && opt.reps == 5 && opt.warmup == 0 && opt.seed == 7 &&
             opt.device == 1 && strcmp(opt.csv_path, "out.csv") == 0 && opt.flush == FLUSH_NONE && opt.no_gate && opt.quiet &&
             opt.print_sum);
    TEST("options long size", parse(&opt, error, "--size=2^20", "--reps=3", NULL) == PARSE_OK &&
                              opt.n == 1048576 && opt.reps == 3);
    TEST("options input", parse(&opt, error, "--input", "data.bin", NULL) == PARSE_OK &&
                          strcmp(opt.input_path, "data.bin") == 0);
    TEST("options check list", parse(&opt, error, "--check", "1,257,2^20+7", NULL) == PARSE_OK &&
         opt.check_count == 3 && opt.check_sizes[0] == 1 && opt.check_sizes[1] == 257 && opt.check_sizes[2] == 1048583);
    TEST("options help, -h and --help", parse(&opt, error, "-h", NULL) == PARSE_HELP &&
                                        parse(&opt, error, "--help", NULL) == PARSE_HELP);
    TEST("options describe", parse(&opt, error, "--describe", NULL) == PARSE_OK && opt.describe);
    TEST("options resources", parse(&opt, error, "--resources", NULL) == PARSE_OK && opt.resources);
    TEST("options parse twice", parse(&opt, error, "-n", "5", NULL) == PARSE_OK && opt.n == 5 &&
                                parse(&opt, error, "-n", "6", NULL) == PARSE_OK && opt.n == 6);

    TEST("rejects() is false for a valid command line", !rejects("", "-n", "5", NULL));
    TEST("rejects() is false for the wrong message", !rejects("no such text", "-n", "0", NULL));
    TEST("bad n = 0", rejects("at least 1", "-n", "0", NULL));
    TEST("bad n negative", rejects("not a size", "-n", "-5", NULL));
    TEST("bad n non-numeric", rejects("not a size", "-n", "abc", NULL));
    TEST("bad n empty", rejects("not a size", "-n", "", NULL));
    TEST("bad n fraction", rejects("not a size", "-n", "1.5", NULL));
    TEST("bad n 2^K+M overflow is not a size, like a decimal",
         rejects("not a size", "-n", "2^0+18446744073709551615", NULL) &&
         rejects("not a size", "-n", "18446744073709551616", NULL));
    TEST("bad --check 2^K+M overflow", rejects("not a size", "--check", "1,2^1+18446744073709551615", NULL));
    TEST("bad reps = 0", rejects("from 1 to", "-r", "0", NULL));
    TEST("bad reps negative", rejects("from 1 to", "-r", "-3", NULL));
    TEST("bad reps non-numeric", rejects("from 1 to", "--reps", "many", NULL));
    TEST("bad reps too many", rejects("from 1 to", "-r", "100001", NULL));
    TEST("bad warmup", rejects("--warmup", "--warmup", "-1", NULL));
    TEST("bad seed", rejects("--seed", "--seed", "x", NULL) && rejects("2^64-1", "--seed", "18446744073709551616", NULL));
    TEST("bad device", rejects("--device", "--device", "-1", NULL));
    TEST("bad unknown long flag", rejects("unknown option '--bogus'", "--bogus", NULL));
    TEST("bad unknown short flag", rejects("unknown option '-x'", "-x", NULL));
    TEST("bad missing value", rejects("needs a value", "-n", NULL));
    TEST("bad missing csv value", rejects("needs a value", "--csv", NULL));
    TEST("bad positional argument", rejects("unexpected argument", "1000", NULL));
    TEST("bad input with n", rejects("not both", "--input", "f", "-n", "5", NULL));
    TEST("bad check zero", rejects("--check", "--check", "1,0", NULL));
    TEST("bad check words", rejects("--check", "--check", "abc", NULL));
    TEST("bad check empty", rejects("--check", "--check", ",", NULL));
    TEST("bad check empty item between commas, never dropped", rejects("an empty size", "--check", "1,,2", NULL));
    TEST("bad check empty item at either end", rejects("an empty size", "--check", ",1", NULL) &&
         rejects("an empty size", "--check", "1,", NULL) && rejects("an empty size", "--check", "", NULL));
    TEST("options check auto", parse(&opt, error, "--check", "auto", NULL) == PARSE_OK && opt.check_auto &&
                               opt.check_count == 0);
    TEST("options check auto off by default", parse(&opt, error, "--check", "5", NULL) == PARSE_OK &&
                                              !opt.check_auto && opt.check_count == 1);
    TEST("bad check auto among sizes", rejects("not a size", "--check", "1,auto", NULL));
    TEST("bad check auto with input", rejects("not both", "--check", "auto", "--input", "f", NULL));
    TEST("options same-bits and verdicts", parse(&opt, error, "--same-bits", "--verdicts", "v.txt", NULL) == PARSE_OK &&
                                          opt.same_bits && strcmp(opt.verdicts_path, "v.txt") == 0);
    /* after the flags above, each back to its default when not given */
    TEST("options defaults", parse(&opt, error, NULL) == PARSE_OK && opt.n == DEFAULT_N && opt.reps == DEFAULT_REPS &&
         opt.warmup == DEFAULT_WARMUP && opt.seed == 1 && opt.device == 0 && opt.flush == DEFAULT_FLUSH &&
         !opt.no_gate && !opt.quiet && !opt.csv_path && !opt.check_count && !opt.check_auto && !opt.describe &&
         !opt.resources && !opt.same_bits && !opt.verdicts_path);
    TEST("bad same-bits with -n, --check or --input", rejects("makes its own data", "--same-bits", "-n", "5", NULL) &&
                                                     rejects("makes its own data", "--same-bits", "--check", "auto", NULL) &&
                                                     rejects("makes its own data", "--input", "f", "--same-bits", NULL));
    TEST("bad verdicts without its file, or without --check or --same-bits", rejects("needs a value", "--verdicts", NULL) &&
                                                                         rejects("--check or --same-bits", "--verdicts", "v", NULL));
    TEST("options flush read and write", parse(&opt, error, "--flush", "read", NULL) == PARSE_OK &&
         opt.flush == FLUSH_READ && parse(&opt, error, "--flush=write", NULL) == PARSE_OK && opt.flush == FLUSH_WRITE);
    TEST("bad flush mode", rejects("--flush: 'clean' is not a flush; give read", "--flush", "clean", NULL) &&
                           rejects("needs a value", "--flush", NULL));
    TEST("bad flush with hot", rejects("not both", "--hot", "--flush", "read", NULL) &&
                               rejects("not both", "--flush", "write", "--hot", NULL));
}

/** 1 if `n` is among the `count` sizes. */
static int holds(const size_t *sizes, int count, size_t n)
{
    for (int i = 0; i < count; i++)
        if (sizes[i] == n)
            return 1;
    return 0;
}

/** 1 if the sizes are strictly increasing: sorted, no repeats, and none is 0. */
static int sorted_distinct(const size_t *sizes, int count)
{
    for (int i = 0; i < count; i++)
        if (sizes[i] == 0 || (i > 0 && sizes[i] <= sizes[i - 1]))
            return 0;
    return 1;
}

static void test_adversarial_sizes(void)
{
    size_t s[MAX_CHECK_SIZES + 1];
    /* step 3's geometry: 256 threads, 512 elements per block, 4 ints a vector, 32-bit indices */
    int c = adversarial_sizes(256, 512, 4, 32, s, MAX_CHECK_SIZES);
    TEST("check auto sizes: sorted, distinct, none 0", c > 20 && sorted_distinct(s, c));
    TEST("check auto sizes: 1, around a warp, 2^24 and 2^26", holds(s, c, 1) && holds(s, c, 31) && holds(s, c, 32) &&
         holds(s, c, 33) && holds(s, c, 1u << 24) && holds(s, c, 1u << 26));
    TEST("check auto sizes: a block's elements and one either side",
         holds(s, c, 511) && holds(s, c, 512) && holds(s, c, 513));
    TEST("check auto sizes: two blocks but one, and two blocks and one", holds(s, c, 1023) && holds(s, c, 1025));
    TEST("check auto sizes: the threads and one either side", holds(s, c, 255) && holds(s, c, 256) && holds(s, c, 257));
    TEST("check auto sizes: the second pass gets one block, or one more",
         holds(s, c, 512 * 512 - 1) && holds(s, c, 512 * 512 + 1));
    TEST("check auto sizes: one either side of a vector", holds(s, c, 3) && holds(s, c, 5));
    TEST("check auto sizes: no 2^31+5 with 32-bit indices", s[c - 1] == 1u << 26 && !holds(s, c, (1ul << 31) + 5));
    TEST("check auto sizes: today's every-program sizes stay", holds(s, c, 2) && holds(s, c, 63) && holds(s, c, 2049) &&
         holds(s, c, 4099) && holds(s, c, 65535) && holds(s, c, 65537) && holds(s, c, (1u << 20) + 3) &&
         holds(s, c, (1u << 20) + 7) && holds(s, c, (1u << 24) + 1));
    int c64 = adversarial_sizes(512, 8192, 4, 64, s, MAX_CHECK_SIZES);
    TEST("check auto sizes: 2^31+5 with 64-bit indices, last", sorted_distinct(s, c64) &&
                                                               s[c64 - 1] == (1ul << 31) + 5);
    TEST("check auto sizes: 2^30+5 for float with 64-bit indices, for no other type",
         holds(s, c64, (1ul << 30) + 5) == (!ELEMENT_IS_INTEGER && sizeof(element_t) == 4));
    TEST("check auto sizes: from the step's own numbers (step 11's 512 threads, 8192 per block)",
         holds(s, c64, 8191) && holds(s, c64, 8193) && holds(s, c64, 16383) && holds(s, c64, 16385) &&
         holds(s, c64, 16 * 512 + 1) && holds(s, c64, (1u << 26) - 1) && holds(s, c64, (1u << 26) + 1));
    int big = adversarial_sizes(1024, (uint64_t)1 << 20, 2, 64, s, MAX_CHECK_SIZES);
    TEST("check auto sizes: none of its own above 2^27 (a huge block's square is left out)",
         sorted_distinct(s, big) && holds(s, big, ((size_t)1 << 20) + 1) &&
         s[big - (!ELEMENT_IS_INTEGER && sizeof(element_t) == 4 ? 3 : 2)] <= (1u << 27));   /* below 2^30+5, 2^31+5 */
    size_t library[MAX_CHECK_SIZES];
    int cub = adversarial_sizes(0, 0, 4, 64, library, MAX_CHECK_SIZES);
    TEST("check auto sizes: a library's step (threads 0) gets the common sizes, none derived from 0",
         sorted_distinct(library, cub) && cub >= 25 && holds(library, cub, 1) && holds(library, cub, 3) &&
         holds(library, cub, (1ul << 31) + 5));
    int most = 0;
    for (unsigned int t = 32; t <= 1024; t *= 2)
        for (uint64_t b = t; b <= 64 * (uint64_t)t; b *= 2) {
            int k = adversarial_sizes(t, b, 4, 64, s, MAX_CHECK_SIZES + 1);
            most = k > most ? k : most;
        }
    TEST("check auto sizes: every geometry fits --check's list (MAX_CHECK_SIZES)", most > 0 && most <= MAX_CHECK_SIZES);
    TEST("check auto sizes: capacity keeps the smallest", adversarial_sizes(256, 512, 4, 64, s, 2) == 2 &&
                                                          s[0] == 1 && s[1] == 2);
}

static void test_program_flags(void)
{
    const char *narrow = max_n_reason(INT32_MAX), *wide = max_n_reason(INT64_MAX);
    TEST("32-bit maximum: says why and where to go", strstr(narrow, "32-bit") && strstr(narrow, "index_bits=64"));
    TEST("64-bit maximum: says why, never 'use step6'", strstr(wide, "64-bit") && !strstr(wide, "step6"));

    char error[512];
    const char *fresh = "build/unit_test_csv_probe.csv";
    remove(fresh);
    TEST("--csv probe: a new file is writable and left absent",
         csv_check_writable(fresh, error, sizeof error) == 0 && fopen(fresh, "r") == NULL);
    TEST("--csv probe: empty name", csv_check_writable("", error, sizeof error) != 0 && strstr(error, "--csv"));
    TEST("--csv probe: folder that does not exist",
         csv_check_writable("build/no/such/dir/x.csv", error, sizeof error) != 0 &&
         strstr(error, "build/no/such/dir/x.csv") && strchr(error, '\n') == NULL);
    TEST("--csv probe: a directory", csv_check_writable("build", error, sizeof error) != 0);
    FILE *f = fopen(fresh, "w");
    if (f) {
        fputs("kept\n", f);
        fclose(f);
    }
    char kept[16] = "";
    csv_check_writable(fresh, error, sizeof error);
    TEST("--csv probe: an existing file is kept as it is", slurp(fresh, kept, sizeof kept) > 0 && strcmp(kept, "kept\n") == 0);
    remove(fresh);
}

/** Inputs of 2^22 elements and more are made and summed in parts fixed by n on the host's cores
 * (data.c): the same elements as made in pieces, the same reference (int exactly; floats within
 * 2^-60 sum|x| of the exact sum of their multiples of 2^-24 or 2^-53 in 128-bit integers, the
 * reference's error error_bound() adds) whatever the cores, and the first NaN or infinity anywhere. */
static void test_data_in_parts(void)
{
    const size_t n = ((size_t)3 << 22) + 5, piece = (size_t)1 << 21;
    element_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (!a || !b) {
        TEST("data in parts: memory for two inputs of 3 * 2^22 + 5 elements", 0);
        free(a);
        free(b);
        return;
    }
    reference made = random_input(a, n, 42, 0);
    for (size_t first = 0; first < n; first += piece)
        random_input(b + first, n - first < piece ? n - first : piece, 42, first);
    TEST("data in parts: 3 * 2^22 + 5 elements, the same as made in pieces of 2^21", memcmp(a, b, n * sizeof *a) == 0);
    reference r = cpu_reference(a, n);
    /* sum|x|: cpu_reference()'s is a plain long double sum, within n 2^-64 of made's (exact for ints and floats) */
    TEST("data in parts: the reference summed as the data is made is cpu_reference()'s (sum to the bit, sum |x| within n 2^-64)",
         made.exact == r.exact && made.fits_element == r.fits_element && made.sum == r.sum &&
         fabsl(made.abs_sum - r.abs_sum) <= ldexpl(r.abs_sum * n, -64) && !made.nonfinite && !r.nonfinite);
    /* the same on one thread as on every core this test may use (on one core: the same
       run twice). Double's sum|x|, a plain long double sum, rounds here, so parts that
       followed the number of cores would change its bits; the compensated sum rounds
       once, to the same bits whatever the parts, and int's and float's sums are exact */
    cpu_set_t cores, one;
    int first_core = 0, same = sched_getaffinity(0, sizeof cores, &cores) == 0;
    while (same && first_core < CPU_SETSIZE - 1 && !CPU_ISSET(first_core, &cores))
        first_core++;
    CPU_ZERO(&one);
    CPU_SET(first_core, &one);
    memset(b, 0, n * sizeof *b);
    same = same && sched_setaffinity(0, sizeof one, &one) == 0;
    reference alone = random_input(b, n, 42, 0);
    same = same && sched_setaffinity(0, sizeof cores, &cores) == 0 && memcmp(a, b, n * sizeof *a) == 0 &&
           alone.exact == made.exact && alone.sum == made.sum && alone.abs_sum == made.abs_sum;
    TEST("data in parts: the same data and reference, to the bit, made on one core as on all of them", same);
#if ELEMENT_IS_INTEGER
    long long slow = 0;
    for (size_t i = 0; i < n; i++)
        slow += a[i];
    TEST("data in parts: the int reference of 3 * 2^22 + 5 elements is exact", r.exact == slow);
#else
    /* every element is k * 2^-bits (k a whole number below 2^bits): the k add up exactly */
    const int bits = ELEMENT_UNIT_ROUNDOFF < 1e-10 ? 53 : 24;
    unsigned __int128 whole = 0;
    for (size_t i = 0; i < n; i++)
        whole += (unsigned __int128)ldexpl((long double)a[i], bits);
    long double exact = ldexpl((long double)whole, -bits);   /* to long double: 2^-64 of it at most */
    TEST("data in parts: the " ELEMENT_NAME " reference of 3 * 2^22 + 5 elements within 2^-60 sum|x| of the exact sum",
         fabsl(r.sum - exact) <= ldexpl(exact, -60));
    /* sum|x| only scales the bound: a plain long double sum, within n u = 2^-40.4 of it */
    TEST("data in parts: sum|x| of 3 * 2^22 + 5 elements within 2^-40 of it", fabsl(r.abs_sum - exact) <= ldexpl(exact, -40));
    b[n - 2] = (element_t)INFINITY;
    r = cpu_reference(b, n);
    int last = r.nonfinite && r.nonfinite_index == n - 2 && isinf(r.sum);
    b[((size_t)1 << 22) + 1] = (element_t)NAN;
    r = cpu_reference(b, n);
    TEST("data in parts: the first NaN or infinity is found in any part, by its index in the whole",
         last && r.nonfinite && r.nonfinite_index == ((size_t)1 << 22) + 1 && isnan(r.nonfinite_value));
#endif
    free(a);
    free(b);
}

static void test_data(void)
{
    enum { N = 100000 };
    static element_t a[N], b[N];
    random_input(a, N, 42, 0);
    random_input(b, N, 42, 0);
    TEST("random data reproducible", memcmp(a, b, sizeof a) == 0);
    random_input(b, N, 43, 0);
    TEST("random data depends on seed", memcmp(a, b, sizeof a) != 0);
    int in_range = 1;
    for (int i = 0; i < N; i++)
#if ELEMENT_IS_INTEGER
        in_range &= (a[i] >= -RANDOM_INT_RANGE && a[i] <= RANDOM_INT_RANGE);
#else
        in_range &= (a[i] >= 0 && a[i] < 1);
#endif
    TEST("random data in range", in_range);
    random_input(b, 1000, 42, 0);
    random_input(b + 1000, N - 1000, 42, 1000);
    TEST("random data in shards equals the whole", memcmp(a, b, sizeof a) == 0);

    element_t small[5] = { 1, 2, 3, 4, 5 };
    reference r = cpu_reference(small, 5);
    TEST("reference of 1..5", r.sum == 15 && r.abs_sum == 15);
    TEST("one-hot reference", one_hot_reference(1).sum == 1 && one_hot_reference(1).abs_sum == 1);

#if ELEMENT_IS_INTEGER
    long long slow = 0;
    for (int i = 0; i < N; i++)
        slow += a[i];
    r = cpu_reference(a, N);
    TEST("int reference exact", r.exact == slow && r.fits_element);
    TEST("int verdict exact", check_sum((element_t)slow, &r, 20).ok);
    TEST("int verdict off by one fails", !check_sum((element_t)(slow + 1), &r, 20).ok);
    TEST("int bound is zero", error_bound(&r, 1000) == 0.0);
    element_t big[2] = { INT_MAX, 1 };
    r = cpu_reference(big, 2);
    TEST("int overflowing sum detected", !r.fits_element && !check_sum((element_t)INT_MIN, &r, 1).ok);
    char why[256];
    element_t two_max[2] = { INT_MAX, INT_MAX };
    r = cpu_reference(two_max, 2);
    TEST("int input whose sum overflows int is refused, with the sum",
         reference_problem(&r, why, sizeof why) && strstr(why, "4294967294") && r.exact == 4294967294ll);
    element_t wraps_back[5] = { INT_MAX, INT_MAX, -INT_MAX, -INT_MAX, 5 };
    r = cpu_reference(wraps_back, 5);
    TEST("int input whose partial sums overflow but whose sum fits is accepted",
         !reference_problem(&r, why, sizeof why) && r.exact == 5 && check_sum(5, &r, 10).ok);
#else
    element_t cancel[3] = { (element_t)1e8, 1, (element_t)-1e8 };
    r = cpu_reference(cancel, 3);
    TEST("float reference compensated", r.sum == 1.0L);
    r = cpu_reference(a, N);
    uint64_t depth = 30;
    double bound = error_bound(&r, depth);
    double u = ELEMENT_UNIT_ROUNDOFF;
    TEST("float bound is gamma(depth) sum|x|", bound >= depth * u * (double)r.abs_sum &&
                                               bound < 1.01 * depth * u * (double)r.abs_sum);
    TEST("float bound far below the answer", bound < 1e-3 * (double)r.sum);
    element_t exact = (element_t)r.sum;
    TEST("float verdict rounded reference passes", check_sum(exact, &r, depth).ok);
    element_t above = (element_t)(r.sum + 2.0L * bound), below = (element_t)(r.sum - 2.0L * bound);
    verdict v = check_sum(above, &r, depth);
    TEST("float result perturbed above the bound FAILS", !v.ok && v.error > v.bound);
    TEST("float result perturbed below the bound FAILS", !check_sum(below, &r, depth).ok);
    TEST("float NaN FAILS", !check_sum((element_t)NAN, &r, depth).ok);
    TEST("float infinity FAILS", !check_sum((element_t)INFINITY, &r, depth).ok);
    TEST("float bound gives up when depth*u >= 1/2", isinf(error_bound(&r, (uint64_t)(1.0 / u))));
    TEST("float relative error", fabs(check_sum(above, &r, depth).rel_error -
                                      (double)fabsl((long double)above - r.sum) / (double)r.sum) < 1e-12);

    char why[256];
    const element_t inf = (element_t)INFINITY, largest = sizeof(element_t) == 4 ? (element_t)FLT_MAX : (element_t)DBL_MAX;
    element_t infinities[3] = { inf, 1, inf };
    r = cpu_reference(infinities, 3);
    TEST("float reference of infinities is inf, not NaN (no inf - inf in the compensation)",
         isinf(r.sum) && r.sum > 0 && r.nonfinite && r.nonfinite_index == 0);
    TEST("float input with infinity refused, naming the element",
         reference_problem(&r, why, sizeof why) && strstr(why, "element 0 is inf"));
    element_t nan_second[3] = { 1, (element_t)NAN, 2 };
    r = cpu_reference(nan_second, 3);
    TEST("float input with NaN refused, naming the element",
         reference_problem(&r, why, sizeof why) && strstr(why, "element 1 is") && strstr(why, "nan"));
    element_t huge[4] = { largest, largest / 2, -largest, 1 };
    r = cpu_reference(huge, 4);
    TEST("float reference of finite values beyond the type's range is finite and exact",
         isfinite(r.sum) && r.sum == (long double)largest / 2 + 1);
    TEST("float input whose positive values overflow is refused",
         reference_problem(&r, why, sizeof why) && strstr(why, "positive values") && strstr(why, "overflow"));
    element_t negative[2] = { -largest / 2, -largest / 2 };
    r = cpu_reference(negative, 2);
    TEST("float input whose negative values overflow is refused",
         reference_problem(&r, why, sizeof why) && strstr(why, "negative values"));
    element_t cancelling[3] = { (element_t)1e30, 1, (element_t)-1e30 };
    r = cpu_reference(cancelling, 3);
    TEST("float input of large values that cancel is accepted", !reference_problem(&r, why, sizeof why) && r.sum == 1);
    r = cpu_reference(a, N);
    TEST("float random data is accepted", !reference_problem(&r, why, sizeof why) && !r.nonfinite);
#endif
}

/** blocks_for of a step with 256 threads, one element each (step 0). */
static size_t one_per_thread(size_t count) { return (count + 255) / 256; }

/** blocks_for of a step whose GPU query failed: it cannot tell (steps 10 and 11). */
static size_t no_grid(size_t count) { (void)count; return 0; }

/** CUB gpu_to_gpu's bound (binned_error_bound(), cub_reference/reduce.cu: W and K): finite at the
 * largest float size --check auto runs, and failing the wrong sums CCCL 3.5.0 gave on an H100
 * (issue 38: seed 1, data in [0, 1), against step 11's and run_to_run's result there). */
static void test_binned_bound(void)
{
    element_t mixed[3] = { 1, (element_t)-3, 2 };
    reference r = cpu_reference(mixed, 3);
    TEST("reference keeps max|x|", r.max_abs == 3);
#if !ELEMENT_IS_INTEGER
    size_t big = ((size_t)1 << 31) + 5;
    reference at_big = { .sum = 1073753860.0L, .abs_sum = 1073753860.0L, .max_abs = 1 };
#ifdef ELEMENT_DOUBLE
    double bound = binned_error_bound(&at_big, big, 40, 3);
    TEST("double binned bound at 2^31+5 finite and below 1e-5", isfinite(bound) && bound < 1e-5);
    TEST("double binned bound fails 558 off (CCCL 3.5.0, H100)",
         !check_within((element_t)(at_big.sum + 558), &at_big, bound).ok);
#else   /* and 2^30+5, for float only, where it was wrong */
    reference at_mid = { .sum = 536866080.0L, .abs_sum = 536866080.0L, .max_abs = 1 };
    double bound = binned_error_bound(&at_big, big, 13, 3);
    TEST("float binned bound at 2^31+5 finite, below 1e-6 |sum|", isfinite(bound) && bound < 1e-6 * 1073753860.0);
    TEST("float binned bound fails 1.07550362e9 at 2^31+5 (CCCL 3.5.0, H100)",
         !check_within(1.07550362e9f, &at_big, bound).ok);
    TEST("float binned bound fails 553187904 at 2^30+5 (CCCL 3.5.0, H100)",
         !check_within(553187904.0f, &at_mid, binned_error_bound(&at_mid, ((size_t)1 << 30) + 5, 13, 3)).ok);
#endif
    TEST("binned bound passes the rounded sum", check_within((element_t)at_big.sum, &at_big, bound).ok);
#endif
}

static void test_depth(void)
{
    TEST("pass depth one element per thread", pass_depth(256, 1, 256) == 1 + 8);
    TEST("pass depth grid-stride", pass_depth(1 << 20, 4, 256) == 1024 + 8);
    TEST("pass depth rounds up", pass_depth(1000, 1, 256) == 4 + 8);
    TEST("depth of passes 2^16", depth_of_passes(1 << 16, 256, one_per_thread) == 18);
    TEST("depth of passes n = 1", depth_of_passes(1, 256, one_per_thread) == 9);
    TEST("depth of passes 2^24", depth_of_passes(1 << 24, 256, one_per_thread) == 27);
    TEST("pass depth without a grid does not divide by 0", pass_depth(1000, 0, 256) == 1000);
    TEST("depth of passes ends when blocks_for() says 0", depth_of_passes(1 << 20, 256, no_grid) == (1 << 20));
}

static void test_stats(void)
{
    double odd[3] = { 3, 1, 2 }, even[4] = { 4, 1, 3, 2 };
    timing_stats t = summarize_times(odd, 3);
    TEST("median odd", t.median_ms == 2 && t.min_ms == 1 && t.max_ms == 3);
    t = summarize_times(even, 4);
    TEST("median even", t.median_ms == 2.5 && t.min_ms == 1 && t.max_ms == 4);
    TEST("bandwidth GB/s", fabs(bandwidth_gbs(1000000000ull, 1.0) - 1000.0) < 1e-9);
    /* twenty runs: the median's interval is the 6th to the 15th smallest */
    double twenty[20];
    for (int i = 0; i < 20; i++)
        twenty[i] = 20 - i;   /* 20, 19, ..., 1: sorted in place */
    t = summarize_times(twenty, 20);
    TEST("median interval of 20 runs: 6th to 15th", t.ci_low_ms == 6 && t.ci_high_ms == 15 && t.median_ms == 10.5);
    TEST("median interval under 6 runs: min to max", summarize_times(even, 4).ci_low_ms == 1 &&
                                                     summarize_times(even, 4).ci_high_ms == 4);
    /* one slow outlier among steady runs does not move the median: not noisy */
    double steady[20];
    for (int i = 0; i < 20; i++)
        steady[i] = 1.0 + 0.001 * (i % 5);
    steady[7] = 1.5;
    t = summarize_times(steady, 20);
    TEST("one slow run is not noise", t.max_ms == 1.5 && !is_noisy(&t));
    /* runs spread evenly from 0.9 to 1.1: the median is uncertain by about 5% */
    double spread[20];
    for (int i = 0; i < 20; i++)
        spread[i] = 0.9 + 0.2 * i / 19.0;
    t = summarize_times(spread, 20);
    TEST("a wide middle is noise", is_noisy(&t));
    timing_stats edge_in = { 1.0, 0.9, 1.2, 0.981, 1.019 }, edge_out = { 1.0, 0.9, 1.2, 0.985, 1.021 };
    TEST("noise threshold 2%: inside", !is_noisy(&edge_in));
    TEST("noise threshold 2%: outside", is_noisy(&edge_out));
}

static void test_speedups(void)
{
    result_row rows[4] = { make_row("step0", 8, 100), make_row("step1", 4, 200), make_row("step2", 2, 400),
                           make_row("cub_reference", 1, 800) };
    speedups s = compute_speedups(rows, 4, 1, 3);
    TEST("step speedup", s.step == 2.0 && s.cumulative == 2.0 && s.vs_reference == 0.25);
    s = compute_speedups(rows, 4, 2, 3);
    TEST("cumulative speedup", s.step == 2.0 && s.cumulative == 4.0 && s.vs_reference == 0.5);
    s = compute_speedups(rows, 4, 3, 3);
    TEST("reference row", s.step == 0.0 && s.cumulative == 8.0 && s.vs_reference == 1.0);
    s = compute_speedups(rows, 4, 0, 3);
    TEST("first row", s.step == 0.0 && s.cumulative == 1.0);
    snprintf(rows[1].status, sizeof rows[1].status, "FAILED");
    s = compute_speedups(rows, 4, 2, 3);
    TEST("no speedup against a failed row", s.step == 0.0 && s.cumulative == 4.0);
    TEST("failed row has no speedups", compute_speedups(rows, 4, 1, 3).cumulative == 0.0);
    TEST("no reference", compute_speedups(rows, 4, 2, -1).vs_reference == 0.0);
    /* a library's rows below the reference: no step speedup over the row above, which is no step */
    result_row libraries[3] = { make_row("step11", 2, 400), make_row("cub_reference", 1, 800),
                                make_row("cub_reference_not_guaranteed", 0.5, 1600) };
    TEST("a library's row has no step speedup", compute_speedups(libraries, 3, 2, 1).step == 0.0 &&
         compute_speedups(libraries, 3, 2, 1).vs_reference == 2.0);
}

static void test_csv(void)
{
    result_row row = make_row("step3", 0.41234, 651.25), back;
    row.rel_error = 1.25e-7;
    row.min_ms = 0.4;
    row.max_ms = 0.5;
    row.ci_low_ms = 0.405;
    row.ci_high_ms = 0.425;
    row.gpus = 2;
    row.combine_ms = 0.0165;
    const char *path = "build/unit_test_roundtrip.csv";
    remove(path);
    int ok = csv_append(path, &row) == 0 && csv_append(path, &row) == 0;
    result_row all[4];
    int count = csv_read_all(path, all, 4);
    back = all[0];
    TEST("csv round trip count (header written once)", ok && count == 2);
    TEST("csv round trip strings", count >= 1 && strcmp(back.step, row.step) == 0 &&
                                   strcmp(back.label, row.label) == 0 && strcmp(back.device, row.device) == 0 &&
                                   strcmp(back.status, row.status) == 0 && strcmp(back.type, row.type) == 0);
    TEST("csv round trip numbers", count >= 1 && back.n == row.n && back.bytes == row.bytes && back.reps == row.reps &&
         back.flushed == row.flushed && fabs(back.median_ms - row.median_ms) < 1e-6 && fabs(back.min_ms - 0.4) < 1e-6 &&
         fabs(back.max_ms - 0.5) < 1e-6 && fabs(back.ci_low_ms - 0.405) < 1e-6 &&
         fabs(back.ci_high_ms - 0.425) < 1e-6 && fabs(back.gbs - row.gbs) < 0.01 && fabs(back.peak_gbs - 3352) < 0.1 &&
         fabs(back.rel_error - 1.25e-7) < 1e-10 && back.gpus == 2 && fabs(back.combine_ms - 0.0165) < 1e-6);
    remove(path);
    TEST("csv header is not a row", csv_parse_row(CSV_HEADER, &back) != 0);
    TEST("csv malformed line rejected", csv_parse_row("\"step0\",\"unterminated", &back) != 0);
    TEST("csv short line rejected", csv_parse_row("a,b,c", &back) != 0);
    TEST("csv missing file", csv_read_all("build/no/such/file.csv", all, 4) == -1);
}

/** 1 if format (format_count or format_bytes) writes `text` for n. */
#define FORMATS(format, n, text) (format(buf, sizeof buf, n), strcmp(buf, text) == 0)

static void test_format(void)
{
    char buf[64];
    TEST("count separators", FORMATS(format_count, 67108864, "67,108,864"));
    TEST("count below 1000", FORMATS(format_count, 999, "999"));
    TEST("count 1000", FORMATS(format_count, 1000, "1,000"));
    TEST("bytes MiB", FORMATS(format_bytes, 268435456, "256 MiB"));
    TEST("bytes fraction", FORMATS(format_bytes, 1536, "1.5 KiB"));
}

/** The run table of the rows, the sweep table against the CUB steps `sweep` names, or (`fit_csv`) the fit
 * table, its CSV written there, as printed, in memory (fmemopen(): POSIX); "" if the function failed. */
static const char *table_text(const result_row *rows, int count, int reference, const char *sweep, const char *fit_csv)
{
    static char text[1 << 16];
    FILE *f = fmemopen(text, sizeof text - 1, "w");   /* text ends with its '\0' when closed */
    text[0] = '\0';
    int ok = f != NULL;
    if (ok && fit_csv)
        ok = print_fit_table(f, rows, count, fit_csv) == 0;
    else if (ok && sweep)
        print_sweep_table(f, rows, count, sweep);
    else if (ok)
        print_run_table(f, rows, count, reference);
    if (f)
        fclose(f);
    return ok ? text : "";
}

/** "vs CUB" divides by the fastest of several CUBs in their default mode (the toolkit's, the newest
 * CCCL's run_to_run), never by another mode, at each size its own. */
static void test_reference_choice(void)
{
    enum { ROWS = 7 };
    result_row rows[ROWS] = { make_row("step11", 1, 700), make_row("cub_reference", 1, 800),
                              make_row("cub_reference_run_to_run", 1, 900),
                              make_row("cub_reference_not_guaranteed", 1, 1000),
                              make_row("step11", 1, 500), make_row("cub_reference", 1, 600),
                              make_row("cub_reference_run_to_run", 1, 550) };
    for (int i = 4; i < ROWS; i++)
        rows[i].n = 1 << 16;
    const char *both = "cub_reference,cub_reference_run_to_run";
    TEST("reference: the fastest default-mode CUB, not a faster other mode", fastest_reference(rows, ROWS, both, 0) == 2);
    TEST("reference at one size: that size's fastest", fastest_reference(rows, ROWS, both, 1 << 16) == 5 &&
                                                           fastest_reference(rows, ROWS, both, 67108864) == 2);
    TEST("reference: a name is matched whole, not as a prefix",
         fastest_reference(rows, ROWS, "cub_reference", 67108864) == 1 &&
             fastest_reference(rows, ROWS, "cub_ref", 0) == -1);
    TEST("reference: none named", fastest_reference(rows, ROWS, "-", 0) == -1);
    snprintf(rows[2].status, sizeof rows[2].status, "FAILED");
    TEST("reference: a failed CUB is passed over", fastest_reference(rows, ROWS, both, 67108864) == 1);
    snprintf(rows[2].status, sizeof rows[2].status, "PASSED");

    const char *text = table_text(rows, ROWS, -1, both, NULL);
    TEST("sweep says which CUB each size was divided by",
         strstr(text, "vs CUB: against cub_reference_run_to_run label, with comma at 2^26\n") &&
             strstr(text, "vs CUB: against cub_reference label, with comma at 2^16\n"));
    TEST("sweep: vs CUB against the fastest (700 / 900)", strstr(text, "0.78x") != NULL);
    text = table_text(rows, 4, fastest_reference(rows, 4, both, 0), NULL, NULL);
    TEST("run-all table says which CUB it divided by",
         strstr(text, "vs CUB: against cub_reference_run_to_run label, with comma\n") != NULL);
}

static void test_tables_and_pictures(void)
{
    result_row rows[4] = { make_row("step0", 8, 100), make_row("step1", 4, 200),
                           make_row("step2", 2, 400), make_row("cub_reference", 1, 800) };
    rows[2].ci_high_ms = 2.5;  /* the median (2 ms) could be 25% higher: noisy */
    snprintf(rows[1].status, sizeof rows[1].status, "FAILED");
    const char *table = table_text(rows, 4, 3, NULL, NULL);
    TEST("table title", strstr(table, "Sum of 67,108,864 int (256 MiB), NVIDIA \"Test\" GPU, 80GB, peak 3352 GB/s, "
                                      "median of 20 runs, L2 flushed") != NULL);
    TEST("table header", strstr(table, "Step speedup") && strstr(table, "Cumulative") && strstr(table, "vs CUB"));
    TEST("table failed row", strstr(table, "FAILED") != NULL);
    TEST("table noisy row", strstr(table, "noisy: median uncertain by more than 2%") != NULL);
    TEST("table: one noisy row only", strstr(strstr(table, "noisy") + 1, "noisy") == NULL);
    TEST("table cumulative", strstr(table, "4.00x") != NULL && strstr(table, "8.00x") != NULL);

    static char text[1 << 16];
    const char *svg = "build/unit_test_chart.svg";
    TEST("run chart written", svg_write_run_chart(svg, rows, 4, 3) == 0 && slurp(svg, text, sizeof text) > 0 &&
                              strstr(text, "<svg") && strstr(text, "</svg>") && strstr(text, "&quot;Test&quot;"));
    TEST("sweep chart written", svg_write_sweep_chart(svg, rows, 4) == 0 && slurp(svg, text, sizeof text) > 0 &&
                                strstr(text, "<svg") && strstr(text, "</svg>"));
    TEST("chart of nothing", svg_write_run_chart(svg, rows, 0, -1) == 0 && slurp(svg, text, sizeof text) > 0 &&
                             strstr(text, "</svg>"));
    TEST("chart to an unwritable path fails", svg_write_run_chart("build/no/such/dir/x.svg", rows, 4, 3) != 0);
    remove(svg);
}

/** A row of `step` at n ints taking 5 us + n x 4 bytes at 3000 GB/s (plus `extra_us`), flushed by `flush`. */
static result_row fit_row(const char *step, unsigned long long n, double extra_us, int flush)
{
    result_row r = make_row(step, 0.0, 0.0);
    r.n = n;
    r.bytes = 4 * n;
    r.median_ms = (5.0 + r.bytes / 3e6 + extra_us) / 1e3;
    r.flushed = flush;
    return r;
}

/** t = c + bytes / b by least squares: the line itself, what cannot be fit, the table under the sweep. */
static void test_fit(void)
{
    double bytes[4] = { 1e6, 2e6, 4e6, 8e6 }, us[4], off[4] = { 1, -1, -1, 1 };
    for (int i = 0; i < 4; i++)
        us[i] = 5.0 + bytes[i] / 3e6;
    time_fit fit = fit_time(bytes, us, 4);
    TEST("fit: points on a line give its c (us) and b (GB/s)",
         fit.points == 4 && fabs(fit.fixed_us - 5.0) < 1e-9 && fabs(fit.gbs - 3000.0) < 1e-6);
    double even[4] = { 1e6, 2e6, 3e6, 4e6 };
    for (int i = 0; i < 4; i++)
        us[i] = 5.0 + even[i] / 3e6 + off[i];   /* errors of mean 0 and no slope of their own */
    fit = fit_time(even, us, 4);
    TEST("fit: least squares, errors that cancel leave c and b", fabs(fit.fixed_us - 5.0) < 1e-9 &&
                                                                  fabs(fit.gbs - 3000.0) < 1e-6);
    double same[2] = { 1e6, 1e6 }, falling[2] = { 9.0, 8.0 };
    TEST("fit: none from one size, one size twice, or times that fall with the bytes",
         fit_time(bytes, us, 1).points == 0 && fit_time(same, us, 2).points == 0 &&
             fit_time(bytes, falling, 2).points == 0);

    result_row rows[7] = { fit_row("step11", 1 << 20, 0, FLUSH_WRITE), fit_row("cub_reference", 1 << 20, 2, FLUSH_WRITE),
                           fit_row("step11", 1 << 24, 0, FLUSH_WRITE), fit_row("cub_reference", 1 << 24, 2, FLUSH_WRITE),
                           fit_row("step11", 1 << 26, 900, FLUSH_WRITE), fit_row("step11", 1 << 20, 0, FLUSH_READ),
                           fit_row("step11", 1 << 24, 0, FLUSH_READ) };
    snprintf(rows[4].status, sizeof rows[4].status, "FAILED");   /* left out of the fit */
    const char *csv = "build/unit_test_fit.csv", *text = table_text(rows, 7, -1, NULL, csv);
    TEST("fit table: one line per program and flush, failed rows left out, c and b and % of peak",
         strstr(text, "step11 label, with comma                   int    write        5.00    3000.0   89.5%") &&
             strstr(text, "cub_reference label, with comma            int    write        7.00    3000.0") &&
             strstr(text, "step11 label, with comma                   int    read         5.00"));
    static char file[4096];
    TEST("fit table's CSV", slurp(csv, file, sizeof file) > 0 &&
                            strstr(file, "step11,\"step11 label, with comma\",int,read,2,5.000,3000.0,89.50\n"));
    remove(csv);
}

/** What diagnose() must say for what a check saw: each case's diagnosis and a text its one line holds
 * (`also`: a second; `never`: one it must not), or with `negated`, that it does not give them. */
static void test_diagnose(void)
{
    const struct {
        const char *name;
        check_outcome seen;   /* as diagnose.h orders it: n, per_block, vector_width,
                                 random_wrong_call, one_hots_tested, one_hot_wrong_call,
                                 one_hot_index, one_hot_got, got_poison */
        int negated;
        diagnosis expected;
        const char *says, *also, *never;
    } cases[] = {
        { "diagnose: nothing failed",
          { 513, 512, 4, 0, 20, 0, 0, 0, 0 }, 0, DIAG_NONE, "no failure", NULL, NULL },
        /* step 3 without the tail: the one element of the last, partial block is lost */
        { "diagnose: one-hot lost in the last partial block is a lost tail",
          { 513, 512, 4, 1, 20, 1, 512, 0, 0 }, 0, DIAG_LOST_TAIL, "lost tail", "whole block of 512", NULL },
        /* step 8 without the scalar tail: n = 1027, index 1026 is past the last whole vector */
        { "diagnose: one-hot lost after the last whole vector is a lost tail",
          { 1027, 1024, 4, 1, 20, 1, 1026, 0, 0 }, 0, DIAG_LOST_TAIL, "16-byte vector (n % 4 = 3 left over)", NULL, NULL },
        { "diagnose: one-hot lost before the tail is a lost element",
          { 1027, 1024, 4, 1, 20, 1, 100, 0, 0 }, 0, DIAG_LOST_ELEMENT, "element lost", NULL, NULL },
        { "diagnose: no tail without block or vector size",
          { 1027, 0, 0, 1, 20, 1, 1026, 0, 0 }, 0, DIAG_LOST_ELEMENT, "element lost", NULL, NULL },
        { "diagnose: one-hot counted twice",
          { 1000, 512, 4, 0, 20, 1, 7, 2, 0 }, 0, DIAG_COUNTED_TWICE, "counted twice", NULL, NULL },
        { "diagnose: one-hot garbage",
          { 1000, 512, 4, 0, 20, 1, 7, -1515870811.0, 0 }, 0, DIAG_GARBAGE, "garbage", NULL, NULL },
        { "diagnose: poison means not written",
          { 1000, 512, 4, 0, 20, 1, 7, -1515870811.0, 1 }, 0, DIAG_NOT_WRITTEN, "not written", NULL, NULL },
        /* step 11 without resetting the ticket: the first call right, the second wrong */
        { "diagnose: wrong on the second call only is state not reset",
          { 1, 512, 4, 2, 20, 0, 0, 0, 1 }, 0, DIAG_STATE, "not reset", NULL, NULL },
        /* every call after the second is wrong too */
        { "diagnose: random right once, then everything wrong: state not reset",
          { 1, 512, 4, 2, 20, 1, 0, 0, 1 }, 0, DIAG_STATE, "not reset", NULL, NULL },
        { "diagnose: a one-hot right once, then wrong: state not reset",
          { 1, 512, 4, 0, 20, 2, 0, 0, 0 }, 0, DIAG_STATE, "not reset", NULL, NULL },
        { "diagnose: a wrong first call is not a state bug",
          { 1, 512, 4, 1, 20, 2, 0, 0, 0 }, 1, DIAG_STATE, "not reset", NULL, NULL },
        /* step 6 with an int index: fine below 2^31, wrong above */
        { "diagnose: wrong above 2^31 - 1 is a 32-bit index",
          { 2147483653ull, 512, 4, 1, 20, 1, 2147483652ull, 0, 0 }, 0, DIAG_INDEX_32BIT, "32-bit index", NULL, NULL },
        { "diagnose: wrong at 2^31+5 blames a signed index, not an unsigned one",
          { 2147483653ull, 512, 4, 1, 20, 1, 2147483652ull, 0, 0 }, 0, DIAG_INDEX_32BIT,
          "above 2^31 - 1: a signed 32-bit index", "an unsigned one would hold until about 2^32", "signed or unsigned" },
        /* 2^32 - 1: still a count an unsigned int holds */
        { "diagnose: wrong at 2^32 - 1 still blames a signed index",
          { 4294967295ull, 512, 4, 1, 20, 1, 2147483652ull, 0, 0 }, 0, DIAG_INDEX_32BIT, "a signed 32-bit index", NULL, NULL },
        /* step 0 claiming 64-bit indices (make test's unsigned-index test): passes 2^31+5,
           wrong at 2^32+5, where block 2^24's unsigned index wrapped around to 0 */
        { "diagnose: wrong above 2^32 - 1 is a 32-bit index, signed or unsigned",
          { 4294967301ull, 512, 4, 1, 20, 1, 0, 2, 0 }, 0, DIAG_INDEX_32BIT,
          "above 2^32 - 1, where every 32-bit index or count wraps, signed or unsigned", NULL, "an unsigned one would hold" },
        /* 2^32: a count an unsigned int cannot hold */
        { "diagnose: from 2^32 on, an unsigned index is blamed too",
          { 4294967296ull, 512, 4, 1, 20, 1, 0, 2, 0 }, 0, DIAG_INDEX_32BIT, "signed or unsigned", NULL, NULL },
        { "diagnose: 2^31 - 1 itself fits in 32 bits",
          { 2147483647ull, 512, 4, 1, 20, 1, 0, 2, 0 }, 1, DIAG_INDEX_32BIT, "32-bit", NULL, NULL },
        { "diagnose: random wrong, every one-hot right is a race",
          { 4099, 512, 4, 1, 20, 0, 0, 0, 0 }, 0, DIAG_RACE, "racecheck", NULL, NULL },
        { "diagnose: can say no known pattern",
          { 4099, 512, 4, 1, 0, 0, 0, 0, 0 }, 0, DIAG_UNKNOWN, "no known pattern", NULL, NULL },
    };
    enum { CASES = sizeof cases / sizeof cases[0] };
    char text[768];
    for (int i = 0; i < CASES; i++) {
        int says = diagnose(&cases[i].seen, text, sizeof text) == cases[i].expected && strstr(text, cases[i].says) &&
                   (!cases[i].also || strstr(text, cases[i].also));
        report(cases[i].name, says != cases[i].negated && (!cases[i].never || !strstr(text, cases[i].never)) &&
                              !strchr(text, '\n'), text);
    }
    char small[16];
    TEST("diagnose: text truncated, never overrun", diagnose(&cases[CASES - 1].seen, small, sizeof small) == DIAG_UNKNOWN &&
                                                    strlen(small) == sizeof small - 1);
}

/** New data for every call: after fresh_value(), the new sum passes and the previous call's fails, at
 * every call of a long timed run; the change lands anywhere in the input. */
static void test_fresh(void)
{
    enum { N = 4099, CALLS = 200 };
    static element_t a[N];
    reference ref = random_input(a, N, 7, 0);
    uint64_t depth = 40;
    int stale_fails = 1, fresh_passes = 1, tracked = 1, spread_low = 0, spread_high = 0;
    for (int call = 1; call <= CALLS; call++) {
        element_t before = (element_t)ref.sum;   /* the previous call's right answer */
        size_t i = fresh_index(7, call, N);
        a[i] = fresh_value(7, call, a[i], &ref, depth);
        reference exact = cpu_reference(a, N);
        tracked &= fabsl(exact.sum - ref.sum) <= 1e-12L * exact.abs_sum && exact.exact == ref.exact &&
                   fabsl(exact.abs_sum - ref.abs_sum) <= 1e-12L * exact.abs_sum;
        stale_fails &= !check_sum(before, &ref, depth).ok;
        fresh_passes &= check_sum((element_t)exact.sum, &ref, depth).ok;
        spread_low |= i < N / 4;
        spread_high |= i > 3 * N / 4;
    }
    TEST("fresh data: the previous call's answer fails, every call", stale_fails);
    TEST("fresh data: the new answer passes, every call", fresh_passes);
    TEST("fresh data: the reference follows the change exactly", tracked);
    TEST("fresh data: the change lands anywhere", spread_low && spread_high);
    TEST("fresh data: the place depends on the call and the seed",
         fresh_index(7, 1, 1u << 30) != fresh_index(7, 2, 1u << 30) &&
         fresh_index(7, 1, 1u << 30) != fresh_index(8, 1, 1u << 30));
    TEST("fresh data: n = 1 changes element 0", fresh_index(7, 3, 1) == 0);
}

/** describe_no_gpu()'s line for `a` holds `text` and no newline. */
static int says_no_gpu(gpu_absence a, const char *text)
{
    char line[512];
    describe_no_gpu(&a, line, sizeof line);
    return strstr(line, text) != NULL && strchr(line, '\n') == NULL;
}

static void test_no_gpu(void)
{
    const char *insufficient = "CUDA driver version is insufficient for CUDA runtime version";
    gpu_absence none = { 0, 13000, 1, insufficient, NULL };
    TEST("no GPU: no driver at all is said so, not 'insufficient'",
         says_no_gpu(none, "no NVIDIA driver") && !says_no_gpu(none, "insufficient"));
    gpu_absence old = { 12020, 13000, 1, insufficient, NULL };
    TEST("no GPU: a driver older than the toolkit, with both versions",
         says_no_gpu(old, "driver too old") && says_no_gpu(old, "CUDA 12.2") && says_no_gpu(old, "CUDA 13.0"));
    gpu_absence empty = { 13000, 13000, 0, NULL, NULL };
    TEST("no GPU: a driver and no GPU", says_no_gpu(empty, "no GPU:") && says_no_gpu(empty, "driver"));
    gpu_absence hidden = { 13000, 13000, 0, NULL, "" };
    TEST("no GPU: CUDA_VISIBLE_DEVICES hides them", says_no_gpu(hidden, "CUDA_VISIBLE_DEVICES=''"));
    gpu_absence busy = { 13000, 13000, 0, "CUDA-capable device(s) is/are busy or unavailable", NULL };
    TEST("no GPU: another error is quoted", says_no_gpu(busy, "busy or unavailable"));
}

/** Runs every group and exits non-zero if any test failed. */
int main(void)
{
    test_sizes();
    test_options();
    test_adversarial_sizes();
    test_program_flags();
    test_data();
    test_data_in_parts();
    test_fresh();
    test_depth();
    test_binned_bound();
    test_stats();
    test_speedups();
    test_reference_choice();
    test_csv();
    test_format();
    test_tables_and_pictures();
    test_fit();
    test_diagnose();
    test_no_gpu();
    return failures ? 1 : 0;
}
