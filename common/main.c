/** @file main.c
 * @brief The program every step links: a step gives STEP and step_reduce() (step.h), this the rest,
 * the same for every step, so the table compares kernels alone. driver_run() asks hooks (driver.h)
 * where the input lives; main()'s hold it on one GPU; main() is weak, so multi/ links its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diagnose.h"
#include "driver.h"   /* and harness.h: data, options, results, step, gpu */
#include "gpu_slot.h"
#include "resources.h"

/* ---------------------------------------------------------------- the method: driver_run() */

/** Writes a sum as the program prints it (format_element()'s digits). */
static void format_sum(char *buf, size_t size, sum_t value)
{
#if ELEMENT_IS_INTEGER
    snprintf(buf, size, "%lld", value);
#else
    format_element(buf, size, value);
#endif
}

/** --print-sum: the result alone on a line. */
static void print_sum(sum_t got)
{
    char text[64];
    format_sum(text, sizeof text, got);
    printf("%s\n", text);
}

/** Verified runs on one input: verify_run()'s state, shared by --check and the timed runs. */
typedef struct verified_runs {
    const driver_hooks *h;
    const options *opt;
    size_t n;
    reference ref;           /**< of the data now on the GPU, changed with it */
    const char *what;        /**< the data, for the failure line (NULL: the timed runs') */
    const uint64_t *fresh;   /**< random data's seed: each run after the first changes an element */
    int runs;                /**< runs there will be, for the failure line */
    sum_t got;               /**< the last sum checked, and its verdict */
    verdict v;
    int poison;              /**< 1: a wrong sum was still the poison */
    int run;                 /**< the run now checked: 0, 1, ... */
} verified_runs;

/** Prints "expected X, got Y" for a wrong sum (stderr); `where`: where it lies, after Y. */
static void report_mismatch(const char *what, sum_t got, const char *where, const reference *ref, const verdict *v)
{
    char got_text[64], expected_text[64];
    format_sum(got_text, sizeof got_text, got);
    format_reference(expected_text, sizeof expected_text, ref);
    if (ELEMENT_IS_INTEGER)
        fprintf(stderr, "%s: FAILED %s: expected %s, got %s%s\n", harness_program, what, expected_text, got_text, where);
    else
        fprintf(stderr, "%s: FAILED %s: expected %s, got %s%s (error %.3g, bound %.3g)\n", harness_program, what,
                expected_text, got_text, where, v->error, v->bound);
}

/** driver_check for verified_runs: the verdict, and the failure line of a wrong sum. */
static int check_sum_of_run(void *arg, sum_t got, int poison, const char *where)
{
    verified_runs *r = arg;
    const driver_hooks *h = r->h;
    r->got = got;
    r->v = check_within((element_t)got, &r->ref, STEP.error_bound ? STEP.error_bound(&r->ref, r->n)
                                                                  : error_bound(&r->ref, h->depth(h->ctx, r->n)));
#if ELEMENT_IS_INTEGER
    r->v.ok = got == r->ref.exact;   /* exact in 64 bits: a driver's int sum may be wider than element_t */
#endif
    r->poison = poison;
    if (r->v.ok)
        return 1;
    char at[160];
    if (r->what)
        snprintf(at, sizeof at, "n=%zu %s, call %d of %d%s", r->n, r->what, r->run + 1, r->runs,
                 r->run > 0 && r->fresh ? " (one element changed since call 1)" : "");
    else
        snprintf(at, sizeof at, "n=%zu, run %d of %d", r->n, r->run + 1, r->runs);
    report_mismatch(at, got, where, &r->ref, &r->v);
    return 0;
}

/** time_runs()'s callback: with `fresh`, one element changed (outside the timed events) before each
 * run after the first (fresh_index() says why); the run, its sums verified. -1: wrong. */
static float verify_run(void *ctx, int run)
{
    verified_runs *r = ctx;
    const driver_hooks *h = r->h;
    r->run = run;
    if (run > 0 && r->fresh) {
        size_t i = fresh_index(*r->fresh, run, r->n);
        element_t old = h->get(h->ctx, r->n, i);
        h->set(h->ctx, r->n, i, fresh_value(*r->fresh, run, old, &r->ref, h->depth(h->ctx, r->n)));
    }
    float ms = h->run(h->ctx, r->n, run, check_sum_of_run, r);
    if (ms >= 0.0f && r->what == NULL && r->opt->print_sum && r->opt->input_path && run >= r->opt->warmup)
        print_sum(r->got);   /* the same data every run: each run's result, to compare their bits */
    return ms;
}

/** Runs `r` twice in a row (--check); returns the first wrong call (1 or 2), 0 when both were right. */
static int verify_twice(verified_runs *r)
{
    for (int call = 0; call < 2; call++)
        if (verify_run(r, call) < 0.0f)
            return call + 1;
    return 0;
}

/** --check: each size on random data, then one-hot at each of one_hots, each reduced twice (diagnose.h);
 * after a random failure the one-hots run on, to the first wrong, for the hint. */
static int run_checks(const options *opt, const driver_hooks *h)
{
    int status = h->allocate(h->ctx, opt->check_sizes, opt->check_count, 0, 0);
    if (status != 0)
        return status;
    int failures = 0;
    for (int i = 0; i < opt->check_count; i++) {
        size_t n = opt->check_sizes[i];
        check_outcome outcome = { .n = n, .per_block = STEP.elements_per_block,
                                  .vector_width = VECTOR_BYTES / sizeof(element_t) };
        char what[96];
        uint64_t seed = opt->seed + n;
        snprintf(what, sizeof what, "random data (seed %llu)", (unsigned long long)seed);
        verified_runs r = { .h = h, .opt = opt, .n = n, .ref = h->load(h->ctx, n, seed), .what = what,
                            .fresh = &seed, .runs = 2 };
        outcome.random_wrong_call = verify_twice(&r);
        outcome.got_poison = outcome.random_wrong_call && r.poison;

        int count = 0;
        const size_t *positions = h->one_hots(h->ctx, n, &count);
        r.ref = one_hot_reference(1);
        r.fresh = NULL;
        h->zero(h->ctx, n);
        for (int c = 0; c < count && outcome.one_hot_wrong_call == 0; c++) {
            size_t p = positions[c];
            snprintf(what, sizeof what, "one-hot at index %zu", p);
            h->set(h->ctx, n, p, 1);
            int wrong = verify_twice(&r);
            h->set(h->ctx, n, p, 0);
            outcome.one_hots_tested++;
            if (wrong) {
                outcome.one_hot_wrong_call = wrong;
                outcome.one_hot_index = p;
                outcome.one_hot_got = (double)r.got;
                outcome.got_poison |= r.poison;
            }
        }
        int ok = outcome.random_wrong_call == 0 && outcome.one_hot_wrong_call == 0;
        if (!ok) {
            char hint[768];
            diagnose(&outcome, hint, sizeof hint);
            fprintf(stderr, "%s: hint: %s\n", harness_program, hint);
        }
        printf("check n=%zu: %s (random data and %d one-hot positions%s, each reduced twice)\n", n,
               ok ? "PASS" : "FAIL", outcome.one_hots_tested, h->spread);
        fflush(stdout);
        failures += !ok + !record_verdict(opt, "check", n, ok, NULL);
    }
    h->release(h->ctx);
    return failures ? EXIT_WRONG : EXIT_OK;
}

/** The timed runs, each verified and on new data but with --input; then combine's, the report, the row. */
static int run_benchmark(const options *opt, const driver_hooks *h)
{
    /* device memory first: a too-large n must fail before the host fills gigabytes */
    int status = h->allocate(h->ctx, &opt->n, 1, opt->flush, !opt->no_gate);
    if (status != 0)
        return status;
    verified_runs r = { .h = h, .opt = opt, .n = opt->n, .ref = h->load(h->ctx, opt->n, opt->seed),
                        .fresh = opt->input_path ? NULL : &opt->seed, .runs = opt->warmup + opt->reps };
    timing_stats t = time_runs(verify_run, &r, opt->warmup, opt->reps);
    driver_outcome o = { r.got, r.ref, r.v, { 0, 0, 0, 0, 0 } };
    int ok = r.v.ok;
    if (ok && h->combine)
        o.combine = time_runs(h->combine, h->ctx, opt->warmup, opt->reps);
    result_row row;
    fill_row(&row, h->info, opt->n, h->gpu, opt, &t, r.v.rel_error, ok);
    h->report(h->ctx, &row, opt, &o, ok && !opt->quiet);
    if (ok && opt->print_sum && !opt->input_path)
        print_sum(r.got);
    if (harness_writes_files && !append_csv(opt, &row))
        ok = 0;
    h->release(h->ctx);
    return ok ? EXIT_OK : EXIT_WRONG;
}

int driver_run(const options *opt, const driver_hooks *hooks)
{
    return opt->check_count ? run_checks(opt, hooks) : run_benchmark(opt, hooks);
}

/* ---------------------------------------------------------------- one GPU: main.c's hooks */

/** The one GPU's run: its slot (gpu_slot.h), and --input's data for the timed runs. */
typedef struct one_gpu {
    gpu_info gpu;
    gpu_slot slot;
    element_t *input;               /**< --input's elements (NULL: random data), freed once on the GPU */
    reference input_ref;            /**< and their reference */
    size_t positions[MAX_ONE_HOT];  /**< one_hots()'s */
} one_gpu;

/** The allocate hook: one slot (gpu_slot.h) for the largest of `sizes`, if it fits in free memory. */
static int one_allocate(void *ctx, const size_t *sizes, int count, int flush, int gated)
{
    one_gpu *one = ctx;
    size_t max_n = 0, max_scratch = 1;
    for (int i = 0; i < count; i++) {
        size_t s = scratch_for(sizes[i]);
        max_n = sizes[i] > max_n ? sizes[i] : max_n;
        max_scratch = s > max_scratch ? s : max_scratch;
    }
    size_t need = slot_bytes(max_n, max_scratch, 0, flush, &one->gpu);
    size_t slack = (size_t)64 << 20; /* allocation granularity and the context's own needs */
    if (!slot_fits(max_n, need, slack, &one->gpu)) {
        char asked[32], free_text[32];
        format_bytes(asked, sizeof asked, (unsigned long long)need);
        format_bytes(free_text, sizeof free_text, (unsigned long long)one->gpu.free_bytes);
        say_errorf("n = %zu needs %s of device memory but %s has %s free; use a smaller -n", max_n, asked,
                   one->gpu.name, free_text);
        return EXIT_USAGE;
    }
    slot_allocate(&one->slot, one->gpu.device, max_n, max_scratch, flush, gated, &one->gpu);
    return 0;
}

static void one_release(void *ctx)
{
    slot_release(&((one_gpu *)ctx)->slot);
}

/** The load hook: --input's data once, else random data made on the host and copied. */
static reference one_load(void *ctx, size_t n, uint64_t seed)
{
    one_gpu *one = ctx;
    element_t *host = one->input ? one->input : host_alloc(n);
    if (!host)
        exit(EXIT_USAGE);   /* host_alloc() said why */
    reference ref = one->input ? one->input_ref : random_input(host, n, seed, 0);
    CUDA_CHECK(cudaMemcpy(one->slot.in, host, n * sizeof(element_t), cudaMemcpyHostToDevice));
    free(host);
    one->input = NULL;
    return ref;
}

static void one_zero(void *ctx, size_t n)
{
    CUDA_CHECK(cudaMemset(((one_gpu *)ctx)->slot.in, 0, n * sizeof(element_t)));
}

static element_t one_get(void *ctx, size_t n, size_t i)
{
    (void)n;
    element_t value;
    CUDA_CHECK(cudaMemcpy(&value, ((one_gpu *)ctx)->slot.in + i, sizeof value, cudaMemcpyDeviceToHost));
    return value;
}

static void one_set(void *ctx, size_t n, size_t i, element_t value)
{
    (void)n;
    CUDA_CHECK(cudaMemcpy(((one_gpu *)ctx)->slot.in + i, &value, sizeof value, cudaMemcpyHostToDevice));
}

static const size_t *one_hots(void *ctx, size_t n, int *count)
{
    one_gpu *one = ctx;
    *count = one_hot_positions(n, one->positions);
    return one->positions;
}

static uint64_t one_depth(void *ctx, size_t n)
{
    (void)ctx;
    return depth_for(n);
}

/** The step once on n inputs between the slot's events (slot_begin()); returns the ms. */
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

/** The run hook: run_once(), its one result checked. */
static float one_run(void *ctx, size_t n, int pass, driver_check check, void *arg)
{
    element_t got;
    float ms = run_once(&((one_gpu *)ctx)->slot, n, pass, &got);
    return check(arg, got, is_poison(&got, sizeof got), "") ? ms : -1.0f;
}

/** The report hook: the human-readable report of one timed run. */
static void one_report(void *ctx, result_row *row, const options *opt, const driver_outcome *o, int print)
{
    const gpu_info *gpu = &((one_gpu *)ctx)->gpu;
    if (!print)
        return;
    char n_text[32], bytes_text[32], l2_text[32], got_text[64], expected_text[64];
    format_count(n_text, sizeof n_text, row->n);
    format_bytes(bytes_text, sizeof bytes_text, row->bytes);
    format_bytes(l2_text, sizeof l2_text, gpu->l2_bytes);
    format_sum(got_text, sizeof got_text, o->got);
    format_reference(expected_text, sizeof expected_text, &o->ref);
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
               "(every run verified)\n", got_text, expected_text, o->v.rel_error, o->v.bound);
}

/** Size in elements of the --input file; 0 after an error message. */
static size_t input_elements(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        say_errorf("--input: '%s' is not a readable file", path);
    else if (st.st_size == 0 || st.st_size % sizeof(element_t) != 0)
        say_errorf("--input: '%s' has %lld bytes, not a whole number (>= 1) of %zu-byte %s elements; write raw "
                   "little-endian %s values", path, (long long)st.st_size, sizeof(element_t), ELEMENT_NAME,
                   ELEMENT_NAME);
    else
        return (size_t)st.st_size / sizeof(element_t);
    return 0;
}

/** --input read and checked before the GPU is touched (size, reference_problem()); NULL after one line. */
static element_t *load_input(const char *path, size_t *n, reference *ref)
{
    if ((*n = input_elements(path)) == 0 || check_max_n(&STEP, *n, "--input: the file's n"))
        return NULL;
    char why[256];
    FILE *f = fopen(path, "rb");
    element_t *host = f ? host_alloc(*n) : NULL;   /* host_alloc() says why not */
    int whole = host && fread(host, sizeof(element_t), *n, f) == *n;
    if (f)
        fclose(f);
    if (whole)
        *ref = cpu_reference(host, *n);
    if (!f)
        say_errorf("--input: cannot open '%s'; give a readable file", path);
    else if (host && !whole)
        say_error("--input: the file could not be read to the end");
    else if (whole && reference_problem(ref, why, sizeof why))
        say_errorf("--input: '%s': %s", path, why);
    else if (whole)
        return host;
    free(host);
    return NULL;
}

/** The grids --same-bits tries after the program's own, as --blocks values (blocks_flag.h). */
static const char *const other_grids[] = { "1", "2", "7", "132", "528", "1024" };
#define OTHER_GRIDS ((int)(sizeof other_grids / sizeof other_grids[0]))
/** Seed of --same-bits' data (mixed_values()). */
#define SAME_BITS_SEED 14

/** --same-bits: the bits depend on n and the data alone, never on the grid (--blocks) or the run, on
 * mixed_values(), where the order shows. Each size, each grid (its own first): R runs flushed, and at
 * 2^20, 2^24+7, 2^26 R more unflushed, which moves when blocks finish (the order a ticket or atomicAdd
 * adds in); verdict fail runs, grid or wrong (which stops it). */
static int run_same_bits(const options *opt, one_gpu *one)
{
    size_t sizes[MAX_CHECK_SIZES];
    int count = same_bits_sizes(&STEP, sizes), failures = 0, wrong = 0;
    size_t max_n = sizes[count - 1];
    int status = one_allocate(one, &max_n, 1, opt->flush ? opt->flush : DEFAULT_FLUSH, 0);
    if (status != 0)
        return status;
    gpu_slot *slot = &one->slot;
    element_t *host = host_alloc(max_n);
    double *values = malloc(max_n * sizeof *values);
    if (!host || !values) {
        say_error("out of host memory for --same-bits' data");
        return EXIT_USAGE;
    }
    void *flush = slot->flush;
    for (int i = 0; i < count && !wrong; i++) {
        size_t n = sizes[i];
        mixed_values(values, n, SAME_BITS_SEED);
        for (size_t k = 0; k < n; k++)
            host[k] = (element_t)values[k];
        reference ref = cpu_reference(host, n);
        CUDA_CHECK(cudaMemcpy(slot->in, host, n * sizeof(element_t), cudaMemcpyHostToDevice));
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
                slot->flush = r < opt->reps ? flush : NULL;   /* the second R runs: no flush */
                run_once(slot, n, r, &got);
                verdict v = check_within(got, &ref, accepted_error(&ref, n));
                if (!v.ok) {
                    char where[160];
                    snprintf(where, sizeof where, "--same-bits n=%zu, %s%s, run %d", n, g ? "--blocks " : "its own grid",
                             g ? blocks : "", r + 1);
                    report_mismatch(where, got, "", &ref, &v);
                    wrong = 1;
                } else if (g == 0 && r == 0) {
                    first = got;
                } else if (differs < 0 && memcmp(&got, &first, sizeof got) != 0) {
                    differs = g;
                    other = got;
                }
            }
            slot->flush = flush;
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
    slot_release(slot);
    return failures ? EXIT_WRONG : EXIT_OK;
}

/** Weak: a program with hooks of its own links its own main() (driver.h). */
__attribute__((weak)) int main(int argc, char **argv)
{
    options opt;
    int status = harness_begin(argc, argv, &opt, &STEP, NULL);
    if (status != HARNESS_GO_ON)
        return status;
    one_gpu one = { .input = NULL };
    if (opt.input_path && !(one.input = load_input(opt.input_path, &opt.n, &one.input_ref)))
        return EXIT_USAGE;
    char error[512];
    status = gpu_open(opt.device, &one.gpu, error, sizeof error);
    if (status != 0) {
        say_error(error);
        if (opt.verdicts_path && harness_writes_files)
            remove(opt.verdicts_path);   /* no check ran: no verdicts file, not an empty one */
        return status;
    }
    if (opt.resources)
        return print_resources(&STEP, &one.gpu);
    if (opt.same_bits)
        return run_same_bits(&opt, &one);
    driver_hooks hooks = { &one, &STEP, &one.gpu, "", one_allocate, one_release, one_load, one_zero, one_get, one_set,
                           one_hots, one_depth, one_run, NULL, one_report };
    return driver_run(&opt, &hooks);
}
