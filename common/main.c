/**
 * @file main.c
 * @brief The program every step links: flags, data, memory, timing, verification, report.
 *
 * A step provides STEP and step_reduce() (step.h); this file does the rest the same way
 * for every step, so the table compares kernels and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data.h"
#include "diagnose.h"
#include "gpu.h"
#include "gpu_slot.h"
#include "harness.h"
#include "options.h"
#include "resources.h"
#include "results.h"
#include "step.h"

/**
 * Allocates the GPU's slot (gpu_slot.h) for inputs of up to max_n elements, after
 * checking that it fits in free memory. Returns 0 or EXIT_USAGE (with a message saying
 * how much was asked and how much is free).
 */
static int allocate(gpu_slot *slot, size_t max_n, size_t max_scratch, int flush, int gated, const gpu_info *gpu)
{
    size_t need = slot_bytes(max_n, max_scratch > 0 ? max_scratch : 1, 0, flush, gpu);
    size_t slack = (size_t)64 << 20; /* allocation granularity and the context's own needs */
    if (!slot_fits(max_n, need, slack, gpu)) {
        char asked[32], free_text[32], message[512];
        format_bytes(asked, sizeof asked, (unsigned long long)need);
        format_bytes(free_text, sizeof free_text, (unsigned long long)gpu->free_bytes);
        snprintf(message, sizeof message, "n = %zu needs %s of device memory but %s has %s free; "
                 "use a smaller -n", max_n, asked, gpu->name, free_text);
        say_error(message);
        return EXIT_USAGE;
    }
    slot_allocate(slot, gpu->device, max_n, max_scratch, flush, gated, gpu);
    return 0;
}

/**
 * Runs the step once on n inputs between the slot's events (slot_begin(): flush, poison,
 * gate), then copies the result to *result. Returns the GPU time in ms.
 */
static float run_once(gpu_slot *slot, size_t n, int pass, element_t *result)
{
    slot_begin(slot, pass);
    CUDA_CHECK(step_reduce(slot->in, n, slot->out, slot->scratch[0], slot->scratch[1], slot->stream));
    slot_end(slot);
    slots_go(slot, 1);
    float ms = slot_wait(slot);
    CUDA_CHECK(cudaMemcpy(result, slot->out, sizeof(element_t), cudaMemcpyDeviceToHost));
    return ms;
}

/**
 * Changes one element of the input, and `ref` with it, before call `call` (fresh_index()
 * says why), outside the timed events.
 */
static void refresh_input(gpu_slot *slot, size_t n, reference *ref, uint64_t seed, int call, uint64_t depth)
{
    size_t i = fresh_index(seed, call, n);
    element_t value;
    CUDA_CHECK(cudaMemcpy(&value, slot->in + i, sizeof value, cudaMemcpyDeviceToHost));
    value = fresh_value(seed, call, value, ref, depth);
    CUDA_CHECK(cudaMemcpy(slot->in + i, &value, sizeof value, cudaMemcpyHostToDevice));
}

/** Prints "expected X, got Y" for a wrong result (stderr). */
static void report_mismatch(const char *what, element_t got, const reference *ref, const verdict *v)
{
    char got_text[64], expected_text[64];
    format_element(got_text, sizeof got_text, got);
    format_reference(expected_text, sizeof expected_text, ref);
    if (ELEMENT_IS_INTEGER)
        fprintf(stderr, "%s: FAILED %s: expected %s, got %s\n", harness_program, what, expected_text, got_text);
    else
        fprintf(stderr, "%s: FAILED %s: expected %s, got %s (error %.3g, bound %.3g)\n", harness_program, what,
                expected_text, got_text, v->error, v->bound);
}

/** The first wrong call of verify_runs(), for diagnose(): which call and what it returned. */
typedef struct wrong_call {
    int call;        /**< 0: every call right; else 1-based */
    element_t got;   /**< the wrong result */
} wrong_call;

/**
 * Reduces the data at slot->in (n elements, reference `ref`) `runs` times in a row and
 * verifies every result. With `fresh` (the data's seed), each call after the first gets
 * new data (refresh_input()); without, the same data each time (one-hot data, whose sum
 * is 1 whatever the call). Returns which call went wrong first (call 0: all right),
 * after printing the mismatch.
 */
static wrong_call verify_runs(gpu_slot *slot, size_t n, reference ref, int runs, const char *what,
                              const uint64_t *fresh)
{
    uint64_t depth = depth_for(n);
    wrong_call wrong = { 0, 0 };
    for (int r = 0; r < runs; r++) {
        element_t got;
        if (r > 0 && fresh)
            refresh_input(slot, n, &ref, *fresh, r, depth);
        run_once(slot, n, r, &got);
        verdict v = check_within(got, &ref, accepted_error(&ref, n));
        if (!v.ok) {
            char where[160];
            snprintf(where, sizeof where, "n=%zu %s, call %d of %d%s", n, what, r + 1, runs,
                     r > 0 && fresh ? " (one element changed since call 1)" : "");
            report_mismatch(where, got, &ref, &v);
            wrong.call = r + 1;
            wrong.got = got;
            return wrong;
        }
    }
    return wrong;
}

/**
 * --check: each size on random data, then one-hot at each of one_hot_positions(), each
 * reduced twice in a row (diagnose.h says what a failure's pattern tells). After a random
 * failure the one-hots still run, up to the first wrong one, for diagnose()'s "hint:" line.
 */
static int run_checks(const options *opt, const gpu_info *gpu)
{
    size_t max_n = 0, max_scratch = 0;
    for (int i = 0; i < opt->check_count; i++) {
        size_t n = opt->check_sizes[i];
        max_n = n > max_n ? n : max_n;
        size_t s = scratch_for(n);
        max_scratch = s > max_scratch ? s : max_scratch;
    }
    gpu_slot slot;
    int status = allocate(&slot, max_n, max_scratch, 0, 0, gpu);
    if (status != 0)
        return status;
    element_t *host = host_alloc(max_n);
    if (!host)
        return EXIT_USAGE;

    int failures = 0;
    for (int i = 0; i < opt->check_count; i++) {
        size_t n = opt->check_sizes[i];
        check_outcome outcome;
        memset(&outcome, 0, sizeof outcome);
        outcome.n = n;
        outcome.per_block = STEP.elements_per_block;
        outcome.vector_width = VECTOR_BYTES / sizeof(element_t);

        char what[96];
        uint64_t seed = opt->seed + n;
        snprintf(what, sizeof what, "random data (seed %llu)", (unsigned long long)seed);
        reference ref = random_input(host, n, seed, 0);
        CUDA_CHECK(cudaMemcpy(slot.in, host, n * sizeof(element_t), cudaMemcpyHostToDevice));
        wrong_call wrong = verify_runs(&slot, n, ref, 2, what, &seed);
        outcome.random_wrong_call = wrong.call;
        outcome.got_poison |= wrong.call && is_poison(&wrong.got, sizeof wrong.got);

        size_t positions[MAX_ONE_HOT];
        int count = one_hot_positions(n, positions);
        const element_t one = 1, zero = 0;
        reference one_hot = one_hot_reference(one);
        CUDA_CHECK(cudaMemset(slot.in, 0, n * sizeof(element_t)));
        for (int c = 0; c < count && outcome.one_hot_wrong_call == 0; c++) {
            size_t p = positions[c];
            snprintf(what, sizeof what, "one-hot at index %zu", p);
            CUDA_CHECK(cudaMemcpy(slot.in + p, &one, sizeof one, cudaMemcpyHostToDevice));
            wrong = verify_runs(&slot, n, one_hot, 2, what, NULL);
            CUDA_CHECK(cudaMemcpy(slot.in + p, &zero, sizeof zero, cudaMemcpyHostToDevice));
            outcome.one_hots_tested++;
            if (wrong.call) {
                outcome.one_hot_wrong_call = wrong.call;
                outcome.one_hot_index = p;
                outcome.one_hot_got = (double)wrong.got;
                outcome.got_poison |= is_poison(&wrong.got, sizeof wrong.got);
            }
        }
        int ok = outcome.random_wrong_call == 0 && outcome.one_hot_wrong_call == 0;
        if (!ok) {
            char hint[768];
            diagnose(&outcome, hint, sizeof hint);
            fprintf(stderr, "%s: hint: %s\n", harness_program, hint);
        }
        printf("check n=%zu: %s (random data and %d one-hot positions, each reduced twice)\n", n,
               ok ? "PASS" : "FAIL", outcome.one_hots_tested);
        fflush(stdout);
        failures += !ok;
        if (!record_verdict(opt, "check", n, ok, NULL))
            failures++;
    }
    slot_release(&slot);
    free(host);
    return failures ? EXIT_WRONG : EXIT_OK;
}

/** Reads --input into a new host buffer; returns it (NULL after an error message). */
static element_t *read_input(const char *path, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        char message[512];
        snprintf(message, sizeof message, "--input: cannot open '%s'; give a readable file", path);
        say_error(message);
        return NULL;
    }
    element_t *host = host_alloc(n);
    if (host && fread(host, sizeof(element_t), n, f) != n) {
        say_error("--input: the file could not be read to the end");
        free(host);
        host = NULL;
    }
    fclose(f);
    return host;
}

/** Size in elements of the --input file; 0 after an error message. */
static size_t input_elements(const char *path)
{
    struct stat st;
    char message[512];
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(message, sizeof message, "--input: '%s' is not a readable file", path);
        say_error(message);
        return 0;
    }
    if (st.st_size == 0 || st.st_size % sizeof(element_t) != 0) {
        snprintf(message, sizeof message, "--input: '%s' has %lld bytes, not a whole number (>= 1) of "
                 "%zu-byte %s elements; write raw little-endian %s values", path, (long long)st.st_size,
                 sizeof(element_t), ELEMENT_NAME, ELEMENT_NAME);
        say_error(message);
        return 0;
    }
    return (size_t)st.st_size / sizeof(element_t);
}

/** Prints the human-readable report of one timed run. */
static void print_report(const result_row *row, const gpu_info *gpu, const options *opt, element_t got,
                         const reference *ref, const verdict *v)
{
    char n_text[32], bytes_text[32], l2_text[32], got_text[64], expected_text[64];
    format_count(n_text, sizeof n_text, row->n);
    format_bytes(bytes_text, sizeof bytes_text, row->bytes);
    format_bytes(l2_text, sizeof l2_text, gpu->l2_bytes);
    format_element(got_text, sizeof got_text, got);
    format_reference(expected_text, sizeof expected_text, ref);
    printf("%s: %s (%s)\n", STEP.name, STEP.title, STEP.citation);
    printf("  input    %s %s (%s), %s%s\n", n_text, ELEMENT_NAME, bytes_text,
           opt->input_path ? opt->input_path : random_data_description(),
           opt->input_path ? "" : ", one element changed before each run");
    printf("  device   %s (%d SMs, %s L2), peak %.0f GB/s\n", gpu->name, gpu->sm_count, l2_text, gpu->peak_gbs);
    print_timing(row, opt);
    printf("  speed    %.1f GB/s, %.1f%% of peak\n", row->gbs, 100.0 * row->gbs / gpu->peak_gbs);
    if (ELEMENT_IS_INTEGER)
        printf("  result   %s, expected %s: PASSED (every run verified)\n", got_text, expected_text);
    else
        printf("  result   %s, reference %s, relative error %.2e, within the bound %.3g: PASSED "
               "(every run verified)\n", got_text, expected_text, v->rel_error, v->bound);
}

/** --print-sum: the result alone on a line, every bit of it (format_element()). */
static void print_sum(element_t got)
{
    char text[64];
    format_element(text, sizeof text, got);
    printf("%s\n", text);
}

/**
 * Reads and checks --input before the GPU is touched: its size against the step's
 * maximum, then whether its sum can be verified (reference_problem()). Returns the data
 * and its reference, or NULL after one line (bad input: exit 2).
 */
static element_t *load_input(const char *path, size_t *n, reference *ref)
{
    if ((*n = input_elements(path)) == 0 || check_max_n(&STEP, *n, "--input: the file's n"))
        return NULL;
    element_t *host = read_input(path, *n);
    if (!host)
        return NULL;
    *ref = cpu_reference(host, *n);
    char why[256], message[768];
    if (reference_problem(ref, why, sizeof why)) {
        snprintf(message, sizeof message, "--input: '%s': %s", path, why);
        say_error(message);
        free(host);
        return NULL;
    }
    return host;
}

/** What run_benchmark()'s runs share: time_runs() hands it to each benchmark_run(). */
typedef struct benchmark_runs {
    gpu_slot *slot;
    const options *opt;
    size_t n;
    reference *ref;   /**< of the data now on the GPU */
    element_t got;    /**< the last run's result */
    verdict v;        /**< and its verdict */
    int runs;         /**< runs made: the last one is the wrong one when !v.ok */
} benchmark_runs;

/** One run of the benchmark (time_runs()'s callback): new data, the timed run, its check. */
static float benchmark_run(void *ctx, int r)
{
    benchmark_runs *b = ctx;
    uint64_t depth = depth_for(b->n);
    if (r > 0 && !b->opt->input_path)
        refresh_input(b->slot, b->n, b->ref, b->opt->seed, r, depth);   /* every run on new data */
    float ms = run_once(b->slot, b->n, r, &b->got);
    b->v = check_within(b->got, b->ref, accepted_error(b->ref, b->n));
    b->runs = r + 1;
    if (b->v.ok && b->opt->print_sum && b->opt->input_path && r >= b->opt->warmup)
        print_sum(b->got);   /* the same data every run: each run's result, to compare their bits */
    return b->v.ok ? ms : -1.0f;
}

/**
 * The timed run: warm-up, repetitions (each verified), statistics, report, CSV row.
 * `input` (with its reference) is --input's data, already checked; NULL: random data.
 */
static int run_benchmark(const options *opt, const gpu_info *gpu, size_t n, element_t *input,
                         const reference *input_ref)
{
    /* device memory first: a too-large n must fail before the host fills gigabytes */
    gpu_slot slot;
    int status = allocate(&slot, n, scratch_for(n), opt->flush, !opt->no_gate, gpu);
    if (status != 0)
        return status;
    element_t *host = input ? input : host_alloc(n);
    if (!host)
        return EXIT_USAGE;
    reference ref = input ? *input_ref : random_input(host, n, opt->seed, 0);
    CUDA_CHECK(cudaMemcpy(slot.in, host, n * sizeof(element_t), cudaMemcpyHostToDevice));
    free(host);

    benchmark_runs b = { &slot, opt, n, &ref, 0, { 1, 0.0, 0.0, 0.0 }, 0 };
    timing_stats t = time_runs(benchmark_run, &b, opt->warmup, opt->reps);
    element_t got = b.got;
    verdict v = b.v;
    int ok = v.ok, failed_run = b.runs;
    result_row row;
    fill_row(&row, &STEP, n, gpu, opt, &t, v.rel_error, ok);

    if (!ok) {
        char where[96];
        snprintf(where, sizeof where, "n=%zu, run %d of %d", n, failed_run, opt->warmup + opt->reps);
        report_mismatch(where, got, &ref, &v);
    } else if (!opt->quiet) {
        print_report(&row, gpu, opt, got, &ref, &v);
    }
    if (ok && opt->print_sum && !opt->input_path)
        print_sum(got);
    if (!append_csv(opt, &row))
        ok = 0;
    slot_release(&slot);
    return ok ? EXIT_OK : EXIT_WRONG;
}

/** The grids --same-bits tries after the program's own, as --blocks values (blocks_flag.h). */
static const char *const other_grids[] = { "1", "2", "7", "132", "528", "1024" };
#define OTHER_GRIDS ((int)(sizeof other_grids / sizeof other_grids[0]))
/** Seed of --same-bits' data (mixed_values()). */
#define SAME_BITS_SEED 14

/**
 * --same-bits: the claim that the result's bits depend on n and the data alone, never on
 * the grid (--blocks B lets one GPU run the grids of others) or the run, held to data of
 * mixed magnitudes, where the order of the additions shows (mixed_values()). Each size of
 * same_bits_sizes(), each grid (the program's own first, then other_grids): R runs with
 * the L2 flushed, and at 2^20, 2^24+7 and 2^26 R more without the flush, which starts and
 * finishes the blocks at other times (the order a ticket or an atomicAdd finish adds in);
 * every result verified; --verdicts' "same-bits N pass", or "fail runs" (the own grid's
 * runs differ), "fail grid" or "fail wrong" (a wrong sum, which stops it: exit 1).
 * Untimed: no gate.
 */
static int run_same_bits(const options *opt, const gpu_info *gpu)
{
    size_t sizes[MAX_CHECK_SIZES];
    int count = same_bits_sizes(&STEP, sizes), failures = 0, wrong = 0;
    size_t max_n = sizes[count - 1];
    gpu_slot slot;
    int status = allocate(&slot, max_n, scratch_for(max_n), opt->flush ? opt->flush : DEFAULT_FLUSH, 0, gpu);
    if (status != 0)
        return status;
    element_t *host = host_alloc(max_n);
    double *values = malloc(max_n * sizeof *values);
    if (!host || !values) {
        say_error("out of host memory for --same-bits' data");
        return EXIT_USAGE;
    }
    void *flush = slot.flush;
    for (int i = 0; i < count && !wrong; i++) {
        size_t n = sizes[i];
        mixed_values(values, n, SAME_BITS_SEED);
        for (size_t k = 0; k < n; k++)
            host[k] = (element_t)values[k];
        reference ref = cpu_reference(host, n);
        CUDA_CHECK(cudaMemcpy(slot.in, host, n * sizeof(element_t), cudaMemcpyHostToDevice));
        int runs = opt->reps * (n == (size_t)1 << 20 || n == ((size_t)1 << 24) + 7 || n == (size_t)1 << 26 ? 2 : 1);
        element_t first = 0, other = 0;
        int differs = -1;   /* the grid whose result differs first (0: the own grid's runs) */
        for (int g = 0; g <= OTHER_GRIDS && !wrong; g++) {
            char error[256];
            const char *blocks = g ? other_grids[g - 1] : NULL;   /* NULL: the program's own grid */
            if (STEP.own_flags->parse.take(0, blocks, error, sizeof error) != 0) {
                say_error(error);
                return EXIT_USAGE;
            }
            for (int r = 0; r < runs && !wrong; r++) {
                element_t got;
                slot.flush = r < opt->reps ? flush : NULL;   /* the second R runs: no flush */
                run_once(&slot, n, r, &got);
                verdict v = check_within(got, &ref, accepted_error(&ref, n));
                if (!v.ok) {
                    char where[160];
                    snprintf(where, sizeof where, "--same-bits n=%zu, %s%s, run %d", n, g ? "--blocks " : "its own grid",
                             g ? blocks : "", r + 1);
                    report_mismatch(where, got, &ref, &v);
                    wrong = 1;
                } else if (g == 0 && r == 0) {
                    first = got;
                } else if (differs < 0 && memcmp(&got, &first, sizeof got) != 0) {
                    differs = g;
                    other = got;
                }
            }
            slot.flush = flush;
        }
        char value[64], second[64];
        format_element(value, sizeof value, first);
        format_element(second, sizeof second, other);
        if (wrong)
            printf("same-bits n=%zu: FAIL, a wrong sum (above)\n", n);
        else if (differs == 0)
            printf("same-bits n=%zu: FAIL, its own grid gives %s, then %s: the partial sums must be added in a "
                   "fixed order, not in the order the blocks finish (a ticket's order, atomicAdd)\n", n, value, second);
        else if (differs > 0)
            printf("same-bits n=%zu: FAIL, its own grid gives %s, --blocks %s gives %s: the order of the additions "
                   "must depend on n alone (chunks fixed by n, not by gridDim.x or blockIdx.x)\n", n, value,
                   other_grids[differs - 1], second);
        else
            printf("same-bits n=%zu: PASS, %s over its own grid and --blocks 1, 2, 7, 132, 528, 1024, %d runs each%s\n",
                   n, value, opt->reps, runs > opt->reps ? ", and as many without the L2 flush" : "");
        fflush(stdout);
        int ok = !wrong && differs < 0;
        failures += !ok + !record_verdict(opt, "same-bits", n, ok, ok ? NULL : wrong ? "wrong" : differs ? "grid" : "runs");
    }
    free(values);
    free(host);
    slot_release(&slot);
    return failures ? EXIT_WRONG : EXIT_OK;
}

int main(int argc, char **argv)
{
    options opt;
    int status = harness_begin(argc, argv, &opt, &STEP, NULL);
    if (status != HARNESS_GO_ON)
        return status;
    size_t n = opt.n;
    element_t *input = NULL;
    reference input_ref;
    if (opt.input_path && !(input = load_input(opt.input_path, &n, &input_ref)))
        return EXIT_USAGE;
    char error[512];
    gpu_info gpu;
    status = gpu_open(opt.device, &gpu, error, sizeof error);
    if (status != 0) {
        say_error(error);
        return status;
    }
    if (opt.resources)
        return print_resources(&STEP, &gpu);
    if (opt.same_bits)
        return run_same_bits(&opt, &gpu);
    return opt.check_count ? run_checks(&opt, &gpu) : run_benchmark(&opt, &gpu, n, input, &input_ref);
}
