/**
 * @file multi_main.c
 * @brief The multi-GPU steps' program: G GPUs each hold a shard of the input, reduce it
 * with step 11, and NCCL adds the G partial sums on every GPU. Step 12 links it with
 * ranks_one.c (one process drives every GPU), step 13 with ranks_mpi.c (one MPI rank per
 * GPU): what the processes must agree on goes through ranks.h, the rest is the same.
 *
 * The GPUs are a group (gpu_group.h), timed with the core's protocol (time_runs():
 * warm-up, repetitions, each on new data, flushed and gated, verified, the median); with
 * several processes each run's time is the slowest process's. --latency times the combine
 * alone, and the variants of it that might be cheaper (combine_variants.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine_variants.h"
#include "gpu_group.h"

/**
 * --check: for each size, random data and one-hot data (a single 1 at the positions of
 * one_hot_positions(), and on both sides of every shard's edge), each reduced twice in a
 * row (random data changed in between, as main.c's), the sum checked on every GPU.
 */
static int run_checks(gpu_group *m, const options *opt)
{
    size_t max_n = 0;
    for (int i = 0; i < opt->check_count; i++)
        max_n = opt->check_sizes[i] > max_n ? opt->check_sizes[i] : max_n;
    int status = group_allocate(m, max_n, 0, 0);
    if (status != 0)
        return status;
    size_t *positions = malloc((MAX_ONE_HOT + 2 * (size_t)m->total) * sizeof *positions);
    if (!positions) {
        say_error("out of host memory");
        exit(EXIT_USAGE);   /* with MPI: the exit handler aborts every rank */
    }
    int failures = 0;
    for (int i = 0; i < opt->check_count; i++) {
        size_t n = opt->check_sizes[i];
        set_sizes(m, n);
        char what[96];
        uint64_t seed = opt->seed + n;
        snprintf(what, sizeof what, "random data (seed %llu)", (unsigned long long)seed);
        group_runs r = { .m = m, .n = n, .ref = load_random(m, seed), .what = what, .fresh = &seed, .runs = 2,
                         .ok = 1 };
        for (int call = 0; call < 2 && r.ok; call++)
            verified_run(&r, call);

        int count = one_hot_positions(n, positions);
        for (int k = 1; k < m->total; k++) {   /* both sides of every shard edge, on every rank */
            size_t edge = shard_first(n, m->total, k);
            if (edge > 0 && edge < n) {
                positions[count++] = edge - 1;
                positions[count++] = edge;
            }
        }
        for (int g = 0; g < m->count; g++)
            if (m->shards[g].n > 0)
                CUDA_CHECK(cudaMemset((void *)m->shards[g].in, 0, m->shards[g].n * sizeof(element_t)));
        group_runs one_hot = { .m = m, .n = n, .ref = one_hot_reference(1), .what = what, .runs = 2, .ok = r.ok };
        const element_t one = 1, zero = 0;
        for (int c = 0; c < count && one_hot.ok; c++) {
            element_t *at = element_at(m, positions[c]);
            snprintf(what, sizeof what, "one-hot at index %zu", positions[c]);
            if (at)
                CUDA_CHECK(cudaMemcpy(at, &one, sizeof one, cudaMemcpyHostToDevice));
            for (int call = 0; call < 2 && one_hot.ok; call++)
                verified_run(&one_hot, call);
            if (at)
                CUDA_CHECK(cudaMemcpy(at, &zero, sizeof zero, cudaMemcpyHostToDevice));
        }
        printf("check n=%zu: %s (random data and %d one-hot positions on %d GPU%s, each reduced twice)\n", n,
               one_hot.ok ? "PASS" : "FAIL", count, m->total, m->total == 1 ? "" : "s");
        fflush(stdout);
        failures += !one_hot.ok;
    }
    free(positions);
    group_release(m);
    return failures ? EXIT_WRONG : EXIT_OK;
}

/** Prints the report of a timed run that passed: main.c's lines, on G GPUs, and the combine alone. */
static void print_report(const gpu_group *m, const result_row *row, const options *opt, const group_runs *r,
                         const timing_stats *c)
{
    char n_text[32], bytes_text[32], shard_text[32], l2_text[32], nccl_text[32], got_text[64], expected_text[64];
    format_nccl_version(nccl_text, sizeof nccl_text);
    format_count(n_text, sizeof n_text, r->n);
    format_bytes(bytes_text, sizeof bytes_text, row->bytes);
    format_count(shard_text, sizeof shard_text, m->shards[0].n);
    format_bytes(l2_text, sizeof l2_text, m->info[0].l2_bytes);
    format_total(got_text, sizeof got_text, r->got);
    format_reference(expected_text, sizeof expected_text, &r->ref);
    printf("%s: %s (%s)\n", MULTI_STEP.name, MULTI_STEP.title, MULTI_STEP.citation);
    printf("  input    %s %s (%s), %s, in %d shard%s of up to %s, each made on its GPU, one element changed "
           "before each run\n", n_text, ELEMENT_NAME, bytes_text, random_data_description(), m->total,
           m->total == 1 ? "" : "s", shard_text);
    printf("  devices  %d x %s (%d SMs, %s L2), peak %.0f GB/s each; NCCL %s\n", m->total, m->info[0].name,
           m->info[0].sm_count, l2_text, m->info[0].peak_gbs, nccl_text);
    if (m->world.one_gpu_each)
        printf("  ranks    %d, one per GPU (%s); rank 0's GPU above; times: the slowest rank's\n", m->world.size,
               ranks_describe());
    print_timing(row, opt);
    printf("  combine  %.4f ms median: the all-reduce of one value alone, [%.4f, %.4f] ms with 95%% confidence\n",
           c->median_ms, c->ci_low_ms, c->ci_high_ms);
    printf("  speed    %.1f GB/s in all (input bytes / time), %.1f%% of %d x peak\n", row->gbs,
           100.0 * row->gbs / row->peak_gbs, m->total);
    if (ELEMENT_IS_INTEGER)
        printf("  result   %s on every GPU, expected %s: PASSED (every run verified)\n", got_text, expected_text);
    else
        printf("  result   %s on every GPU, reference %s, relative error %.2e: PASSED (every run verified)\n",
               got_text, expected_text, r->v.rel_error);
}

/** The timed run (time_runs() of verified_run()), then the combine alone timed the same way. */
static int run_benchmark(gpu_group *m, const options *opt)
{
    int status = group_allocate(m, opt->n, !opt->hot, !opt->no_gate);
    if (status != 0)
        return status;
    set_sizes(m, opt->n);
    char what[64];
    snprintf(what, sizeof what, "random data (seed %llu)", (unsigned long long)opt->seed);
    group_runs r = { .m = m, .n = opt->n, .ref = load_random(m, opt->seed), .what = what, .fresh = &opt->seed,
                     .runs = opt->warmup + opt->reps, .ok = 1 };
    timing_stats t = time_runs(verified_run, &r, opt->warmup, opt->reps), c = t;
    if (r.ok)
        c = time_work(m, queue_combine, NULL, opt->warmup, opt->reps);
    result_row row;
    fill_multi_row(&row, m, opt->n, opt, &t, &c, r.v.rel_error, r.ok);
    if (r.ok && !opt->quiet)
        print_report(m, &row, opt, &r, &c);
    if (r.ok && opt->print_sum) {
        char got_text[64];
        format_total(got_text, sizeof got_text, r.got);
        printf("%s\n", got_text);
    }
    if (m->world.rank == 0 && !append_csv(opt, &row))
        r.ok = 0;
    group_release(m);
    return r.ok ? EXIT_OK : EXIT_WRONG;
}

/**
 * A hash of the flags and of the NCCL settings the program branches on (FNV-1a over
 * argv[1..], NCCL_ALGO and NCCL_PROTO, each ended by a 0 byte): ranks started with other
 * ones would run other collectives, or wait in different ones.
 */
static unsigned long long hash_flags(int argc, char **argv)
{
    unsigned long long hash = 14695981039346656037ULL;
    const char *nccl[] = { getenv("NCCL_ALGO"), getenv("NCCL_PROTO") };
    for (int i = 1; i < argc + 2; i++) {
        const char *text = i < argc ? argv[i] : nccl[i - argc];
        for (const char *c = text ? text : "";; c++) {
            hash = (hash ^ (unsigned char)*c) * 1099511628211ULL;
            if (!*c)
                break;
        }
    }
    return hash;
}

/**
 * Starts the processes (one, or the MPI ranks), parses and validates the flags, opens the
 * GPUs and runs the benchmark, the checks or --latency; every rank exits with the same
 * status.
 */
int main(int argc, char **argv)
{
    ranks world;
    ranks_begin(&argc, &argv, &world);
    harness_writes_files = world.rank == 0;
    options opt;
    multi_flags flags;
    const harness_driver *driver = multi_driver(world.one_gpu_each ? MULTI_RANK_PER_GPU : MULTI_ONE_PROCESS,
                                                STEP.name, &flags);
    int status = harness_begin(argc, argv, &opt, &MULTI_STEP, driver);
    if (!ranks_same(&world, hash_flags(argc, argv)) && status == HARNESS_GO_ON) {
        say_error("the ranks were started with different flags, or NCCL_ALGO or NCCL_PROTO: give every rank "
                  "the same ones");
        status = EXIT_USAGE;
    }
    gpu_group *m = status == HARNESS_GO_ON ? calloc(1, sizeof *m) : NULL;
    if (status == HARNESS_GO_ON && !m) {
        say_error("out of host memory");
        status = EXIT_USAGE;
    }
    status = ranks_agree(&world, status != HARNESS_GO_ON, status);   /* a bad flag: every rank stops */
    if (status == HARNESS_GO_ON) {
        m->world = world;
        ranks_hold_errors(&world);
        if ((status = group_open(m, flags.gpus)) == 0) {
            if (flags.latency)
                status = run_latency(m, &opt);
            else
                status = opt.check_count ? run_checks(m, &opt) : run_benchmark(m, &opt);
        }
        status = ranks_agree(&world, status != 0, status);
    }
    free(m);
    return ranks_end(&world, status);
}
