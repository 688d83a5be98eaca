/**
 * @file multi_main.c
 * @brief The multi-GPU steps' program: G GPUs each hold a shard of the input, reduce it
 * with step 11, and NCCL adds the G partial sums on every GPU. Step 12 links it with
 * ranks_one.c (one process drives every GPU), step 13 with ranks_mpi.c (one MPI rank per
 * GPU): what the processes must agree on goes through ranks.h, the rest is the same.
 *
 * The same method as main.c, on every GPU at once: each GPU fills its own shard (the
 * input never goes through one GPU), the L2 of every GPU is flushed and a gate holds
 * every GPU until the whole run is queued; events on each process's first GPU time from
 * the start of the shard reductions until that GPU holds the combined sum (an all-reduce:
 * its stop waits for every GPU's shard); with several processes, each run's time is the
 * slowest process's. --latency times the combine alone, and the variants of it that
 * might be cheaper (combine_variants.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "gpu.h"
#include "gpu_slot.h"
#include "harness.h"
#include "multi_driver.h"
#include "multi_options.h"
#include "multi_step.h"
#include "options.h"
#include "ranks.h"
#include "results.h"
#include "shard_reference.h"
#include "step.h"

void nccl_check(ncclResult_t result, const char *call, const char *file, int line)
{
    if (result == ncclSuccess)
        return;
    fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", call, file, line, ncclGetErrorString(result));
    exit(EXIT_CUDA_ERROR);
}

/** NCCL's version as "major.minor.patch", for the report's headers. */
void format_nccl_version(char *buf, size_t size)
{
    int version = 0;
    NCCL_CHECK(ncclGetVersion(&version));
    snprintf(buf, size, "%d.%d.%d", version / 10000, version / 100 % 100, version % 100);
}

/** Index of shard g's first element: n/G each, the first n % G shards one more. */
static size_t shard_first(size_t n, int gpus, int g)
{
    size_t q = n / (size_t)gpus, r = n % (size_t)gpus;
    return (size_t)g * q + ((size_t)g < r ? (size_t)g : r);
}

/** Spreads n elements over the run's G shards: this process's sizes and first indices. */
void set_sizes(gpu_group *m, size_t n)
{
    for (int g = 0; g < m->count; g++) {
        m->first[g] = shard_first(n, m->total, m->base + g);
        m->shards[g].n = shard_first(n, m->total, m->base + g + 1) - m->first[g];
    }
}

/** Says `message` on stderr, with the rank and node when there are several processes. */
static void say_rank_error(const gpu_group *m, const char *message)
{
    char line[768];
    if (m->world.size > 1)
        snprintf(line, sizeof line, "rank %d of %d (%s): %s", m->world.rank, m->world.size, m->world.host, message);
    else
        snprintf(line, sizeof line, "%s", message);
    say_error(line);
}

/**
 * One process per GPU: opens the GPU of this rank's place on its node (ranks_pick_gpu()).
 * Returns 0, or the exit status after one line in `error`.
 */
static int open_rank_gpu(gpu_group *m, int visible, char *error, size_t error_size)
{
    int device = 0;
    int status = ranks_pick_gpu(&m->world, visible, &device, error, error_size);
    if (status == 0)
        status = gpu_open(device, &m->info[0], error, error_size);
    m->count = 1;
    m->shards[0].device = device;
    return status;
}

/**
 * Opens this process's GPUs: GPUs 0 .. G-1 (G: `gpus`, from --gpus, or every GPU visible) when it
 * drives them all, its own when it is one rank per GPU; then one NCCL communicator over
 * every GPU of the run (connect_gpus(), the step's). Every rank agrees on the outcome
 * before the communicator, so that none waits there for a rank that gave up. Returns 0,
 * EXIT_USAGE (--gpus above what the machine has, more ranks than GPUs) or EXIT_NO_GPU,
 * the lowest failing rank's one line said.
 */
static int open_gpus(gpu_group *m, int gpus)
{
    char error[512];
    int status = 0, visible = 0;
    /* no context yet: a rank opens its own GPU only, never GPU 0 on the way */
    if (cudaGetDeviceCount(&visible) != cudaSuccess || visible == 0)
        status = gpu_open(0, &m->info[0], error, sizeof error);   /* says why there is none */
    if (status == 0 && m->world.one_gpu_each) {
        status = open_rank_gpu(m, visible, error, sizeof error);
    } else if (status == 0 && gpus > visible) {
        snprintf(error, sizeof error, "--gpus %d: this machine has %d GPU%s; give 1 to %d", gpus,
                 visible, visible == 1 ? "" : "s", visible);
        status = EXIT_USAGE;
    } else if (status == 0) {
        m->count = gpus ? gpus : (visible < MAX_GPUS ? visible : MAX_GPUS);
        for (int g = 0; g < m->count; g++) {
            if (status == 0)
                status = gpu_open(g, &m->info[g], error, sizeof error);
            m->shards[g].device = g;
        }
    }
    if (status != 0)
        say_rank_error(m, error);
    if ((status = ranks_agree(&m->world, status != 0, status)) != 0)
        return status;
    if (m->world.one_gpu_each) {   /* two ranks of a node on one GPU: NCCL would refuse them later */
        char bus[32];
        CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, m->shards[0].device));
        ranks_hold_errors(&m->world);
        if ((status = ranks_check_distinct_gpus(&m->world, bus, error, sizeof error)) != 0)
            say_error(error);
        if ((status = ranks_agree(&m->world, status != 0, status)) != 0)
            return status;
    }
    m->total = m->world.size * m->count;
    m->base = m->world.rank * m->count;
    int devices[MAX_GPUS];
    for (int g = 0; g < m->count; g++)
        devices[g] = m->shards[g].device;
    NCCL_CHECK(connect_gpus(m->comms, devices, m->count));
    for (int g = 0; g < m->count; g++)
        m->shards[g].comm = m->comms[g];
    return 0;
}

/**
 * Allocates every GPU's buffers for inputs of up to max_n elements in all, after checking
 * that each shard fits in its GPU's free memory (on every rank: all agree). Then runs one
 * combine without the gate, so that NCCL connects its ranks before anything is timed.
 * Returns 0 or EXIT_USAGE.
 */
int allocate(gpu_group *m, size_t max_n, int flush, int gated)
{
    m->max_shard = shard_first(max_n, m->total, 1);   /* the largest shard: the first */
    m->max_shard = m->max_shard > 0 ? m->max_shard : 1; /* every GPU's buffers exist */
    size_t scratch = scratch_for(m->max_shard);
    scratch = scratch > 0 ? scratch : 1;
    int status = 0;
    ranks_hold_errors(&m->world);
    for (int g = 0; g < m->count && status == 0; g++) {
        const gpu_info *gpu = &m->info[g];
        size_t need = slot_bytes(m->max_shard, scratch, sizeof(combine_t), flush, gpu);
        size_t slack = (size_t)256 << 20;  /* the context's and NCCL's own needs */
        if (!slot_fits(max_n, need, slack, gpu)) {
            char asked[32], free_text[32], message[512];
            format_bytes(asked, sizeof asked, (unsigned long long)need);
            format_bytes(free_text, sizeof free_text, (unsigned long long)gpu->free_bytes);
            snprintf(message, sizeof message, "n = %zu on %d GPUs needs %s on GPU %d but %s has %s free; "
                     "use a smaller -n or more GPUs", max_n, m->total, asked, m->base + g, gpu->name, free_text);
            say_rank_error(m, message);
            status = EXIT_USAGE;
        }
    }
    if ((status = ranks_agree(&m->world, status != 0, status)) != 0)
        return status;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        const gpu_info *gpu = &m->info[g];
        gpu_slot *slot = &m->slots[g];
        slot_allocate(slot, s->device, m->max_shard, scratch, flush, gated, gpu);
        s->in = slot->in;
        s->partial = slot->out;
        s->scratch_a = slot->scratch[0];
        s->scratch_b = slot->scratch[1];
        s->stream = slot->stream;
        if (sizeof(combine_t) == sizeof(element_t))
            s->sum = (combine_t *)s->partial;   /* float, double: combined in place */
        else
            CUDA_CHECK(cudaMalloc((void **)&s->sum, sizeof(combine_t)));
        CUDA_CHECK(cudaMemsetAsync(s->sum, 0, sizeof(combine_t), s->stream));
    }
    NCCL_CHECK(combine(m->shards, m->count));
    for (int g = 0; g < m->count; g++)
        CUDA_CHECK(cudaStreamSynchronize(m->shards[g].stream));
    return 0;
}

/** Frees what allocate() and open_gpus() took. */
void release(gpu_group *m)
{
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        CUDA_CHECK(cudaSetDevice(s->device));
        if ((void *)s->sum != (void *)s->partial)
            CUDA_CHECK(cudaFree(s->sum));
        NCCL_CHECK(ncclCommDestroy(m->comms[g]));
        slot_release(&m->slots[g]);
    }
}

/** Queues `what` on every GPU (the timed part of run_once()). */
static void queue_work(gpu_group *m, work what, const own_work *own)
{
    int G = m->count;
    switch (what) {
    case WORK_EMPTY:
        break;
    case WORK_STEP11:
        for (int g = 0; g < G; g++) {
            const shard *s = &m->shards[g];
            if (s->n == 0)
                continue;
            CUDA_CHECK(cudaSetDevice(s->device));
            CUDA_CHECK(step_reduce(s->in, s->n, s->partial, s->scratch_a, s->scratch_b, s->stream));
        }
        break;
    case WORK_WHOLE_STEP:
        for (int g = 0; g < G; g++)
            CUDA_CHECK(shard_reduce(&m->shards[g]));
        NCCL_CHECK(combine(m->shards, G));
        break;
    case WORK_COMBINE:
        NCCL_CHECK(combine(m->shards, G));
        break;
    case WORK_OWN:
        own->queue(m, own->arg);
        break;
    }
}

/**
 * One timed run on every GPU: flush each L2 (unless --hot), poison each result, close
 * each gate, record the start events, queue `what`, record the stop events, open the
 * gates once every GPU has finished its flush, so that all of them start together: the
 * host queues GPU 1's flush after GPU 0's, and a GPU 0 let go first would time its wait
 * for GPU 1 in the all-reduce (measured on 2 x H200: 20-25 us of combine instead of 9).
 * With one rank per GPU the ranks meet at a barrier before they close their gates (a rank
 * still busy elsewhere would otherwise hold the others at their gates past the gate's
 * one-second limit), and again after their flushes; each then opens its own gate. Returns the time from start to stop in ms of this process's GPU 0,
 * whose stop waits for the all-reduce, which waits for every GPU's shard; with several
 * processes, the slowest process's (each one's events see only its own GPU).
 */
float run_once(gpu_group *m, work what, int pass, const own_work *own)
{
    if (m->world.size > 1)
        ranks_barrier(&m->world);
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        CUDA_CHECK(cudaSetDevice(s->device));
        if ((void *)s->sum != (void *)s->partial)   /* the slot poisons the partial */
            CUDA_CHECK(cudaMemsetAsync(s->sum, POISON_BYTE, sizeof(combine_t), s->stream));
        slot_begin(&m->slots[g], pass);
    }
    queue_work(m, what, own);
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        slot_end(&m->slots[g]);
    }
    if (m->total > 1) {
        for (int g = 0; g < m->count; g++) {   /* each GPU has reached its gate: its flush is done */
            if (m->slots[g].gated)
                CUDA_CHECK(cudaEventSynchronize(m->slots[g].ready));
        }
    }
    ranks_barrier(&m->world);
    slots_go(m->slots, m->count);
    float ms = slot_wait(&m->slots[0]);
    for (int g = 1; g < m->count; g++)
        slot_wait(&m->slots[g]);
    return ranks_slowest(&m->world, ms);
}

/** Copies every GPU's combined sum back (cudaMemcpy with unified addressing: any GPU). */
void fetch_sums(const gpu_group *m, combine_t *got)
{
    for (int g = 0; g < m->count; g++)
        CUDA_CHECK(cudaMemcpy(&got[g], m->shards[g].sum, sizeof(combine_t), cudaMemcpyDeviceToHost));
}

/** Longest chain of additions: step 11 on the largest shard, then up to G in the combine. */
uint64_t total_depth(const gpu_group *m)
{
    return depth_for(m->max_shard) + (uint64_t)m->total + 1;
}

/** Compares a combined sum with the reference: exact in 64 bits for int, else the float bound. */
verdict check_total(combine_t got, const reference *ref, uint64_t depth)
{
#if ELEMENT_IS_INTEGER
    (void)depth;   /* exact: no bound */
    double difference = (double)got - (double)ref->exact, magnitude = (double)ref->exact;
    verdict v = { got == ref->exact, difference < 0 ? -difference : difference, 0.0, 0.0 };
    magnitude = magnitude < 0 ? -magnitude : magnitude;
    v.rel_error = magnitude > 0 ? v.error / magnitude : (v.error == 0.0 ? 0.0 : 1.0);
    return v;
#else
    return check_sum(got, ref, depth);
#endif
}

/** Writes a combined sum as the program prints it. */
static void format_total(char *buf, size_t size, combine_t value)
{
#if ELEMENT_IS_INTEGER
    snprintf(buf, size, "%lld", value);
#else
    format_element(buf, size, value);
#endif
}

/**
 * Runs the reduction once and checks the sum on every GPU; prints the first mismatch of
 * this process (stderr) and returns 0, or returns 1 when all G GPUs hold the right sum
 * (every rank returns the same).
 */
int verify_once(gpu_group *m, const reference *ref, const char *what, size_t n, int call)
{
    combine_t got[MAX_GPUS];
    run_once(m, WORK_WHOLE_STEP, call, NULL);
    fetch_sums(m, got);
    int ok = 1;
    for (int g = 0; g < m->count && ok; g++) {
        verdict v = check_total(got[g], ref, total_depth(m));
        if (!v.ok) {
            char got_text[64], expected_text[64];
            format_total(got_text, sizeof got_text, got[g]);
            format_reference(expected_text, sizeof expected_text, ref);
            fprintf(stderr, "%s: FAILED n=%zu on %d GPUs, %s, call %d: GPU %d holds %s, expected %s%s\n",
                    harness_program, n, m->total, what, call + 1, m->base + g, got_text, expected_text,
                    is_poison(&got[g], sizeof got[g]) ? " (nothing was written)" : "");
            ok = 0;
        }
    }
    return ranks_all(&m->world, ok);
}

/**
 * Each GPU makes its own shard of the random input (seed); returns the sum of every
 * shard's reference, the same on every rank (each rank's added in rank order).
 */
reference load_random(gpu_group *m, element_t *host, uint64_t seed)
{
    reference mine = { .fits_element = 1 }, total = mine;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        if (s->n == 0)
            continue;
        reference part = random_input(host, s->n, seed, m->first[g]);
        reference_add(&mine, &part);
        CUDA_CHECK(cudaMemcpy((void *)s->in, host, s->n * sizeof(element_t), cudaMemcpyHostToDevice));
    }
    reference *parts = malloc((size_t)m->world.size * sizeof *parts);
    if (!parts) {
        say_rank_error(m, "out of host memory for the references");
        exit(EXIT_USAGE);   /* with MPI: the exit handler aborts every rank */
    }
    ranks_gather(&m->world, &mine, parts, sizeof mine);
    for (int r = 0; r < m->world.size; r++)
        reference_add(&total, &parts[r]);
    free(parts);
    return total;
}

/** Sets element `index` of the whole input to `value`, on the GPU whose shard holds it. */
static void set_element(gpu_group *m, size_t index, element_t value)
{
    for (int g = 0; g < m->count; g++)
        if (index >= m->first[g] && index < m->first[g] + m->shards[g].n)
            CUDA_CHECK(cudaMemcpy((element_t *)m->shards[g].in + (index - m->first[g]), &value, sizeof value,
                                  cudaMemcpyHostToDevice));
}

/**
 * --check: for each size, random data and one-hot data (a single 1 at the positions of
 * one_hot_positions(), which now also fall at and around the shards' edges), each reduced
 * twice in a row, and the sum checked on every GPU.
 */
static int run_checks(gpu_group *m, const options *opt)
{
    size_t max_n = 0;
    for (int i = 0; i < opt->check_count; i++)
        max_n = opt->check_sizes[i] > max_n ? opt->check_sizes[i] : max_n;
    int status = allocate(m, max_n, 0, 0);
    if (status != 0)
        return status;
    element_t *host = host_alloc(m->max_shard);
    if ((status = ranks_agree(&m->world, !host, host ? 0 : EXIT_USAGE)) != 0)
        return status;
    size_t *positions = malloc((MAX_ONE_HOT + 2 * (size_t)m->total) * sizeof *positions);
    if (!positions) {
        say_rank_error(m, "out of host memory");
        exit(EXIT_USAGE);   /* with MPI: the exit handler aborts every rank */
    }
    int failures = 0;
    for (int i = 0; i < opt->check_count; i++) {
        size_t n = opt->check_sizes[i];
        set_sizes(m, n);
        char what[96];
        snprintf(what, sizeof what, "random data (seed %llu)", (unsigned long long)(opt->seed + n));
        reference ref = load_random(m, host, opt->seed + n);
        int ok = verify_once(m, &ref, what, n, 0) && verify_once(m, &ref, what, n, 1);

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
        reference one_hot = one_hot_reference(1);
        for (int c = 0; c < count && ok; c++) {
            snprintf(what, sizeof what, "one-hot at index %zu", positions[c]);
            set_element(m, positions[c], 1);
            ok = verify_once(m, &one_hot, what, n, 0) && verify_once(m, &one_hot, what, n, 1);
            set_element(m, positions[c], 0);
        }
        printf("check n=%zu: %s (random data and %d one-hot positions on %d GPU%s, each reduced twice)\n", n,
               ok ? "PASS" : "FAIL", count, m->total, m->total == 1 ? "" : "s");
        fflush(stdout);
        failures += !ok;
    }
    free(positions);
    free(host);
    release(m);
    return failures ? EXIT_WRONG : EXIT_OK;
}

/**
 * Times `reps` runs of `what` after `warmup` (each run's time: run_once()'s, this process's
 * first GPU's events, the slowest process's with several); exits if the host has no
 * memory for them.
 */
timing_stats time_work(gpu_group *m, work what, int warmup, int reps, const own_work *own)
{
    timing_stats t = { 0.0, 0.0, 0.0, 0.0, 0.0 };
    double *times = malloc((size_t)reps * sizeof *times);
    if (!times) {
        say_error("out of host memory for the timings");
        exit(EXIT_USAGE);
    }
    for (int r = 0; r < warmup + reps; r++) {
        float ms = run_once(m, what, r, own);
        if (r >= warmup)
            times[r - warmup] = ms;
    }
    t = summarize_times(times, reps);
    free(times);
    return t;
}

/**
 * Fills the step's CSV row: fill_row()'s, on G GPUs, the G cards' peaks together, the
 * median of the combine alone (`combine`), and a label that names the setup (scaling_setup():
 * one process, or one MPI rank per GPU; ", network transport" when NCCL_P2P_DISABLE=1 and
 * NCCL_SHM_DISABLE=1 keep NCCL off NVLink and shared memory, as between nodes).
 */
void fill_multi_row(result_row *row, const gpu_group *m, size_t n, const options *opt,
                           const timing_stats *t, const timing_stats *combine, double rel_error, int ok)
{
    fill_row(row, &MULTI_STEP, n, &m->info[0], opt, t, rel_error, ok);
    row->gpus = m->total;
    row->peak_gbs = m->total * m->info[0].peak_gbs;
    row->combine_ms = combine->median_ms;
    const char *p2p = getenv("NCCL_P2P_DISABLE"), *shm = getenv("NCCL_SHM_DISABLE");
    int network = p2p && shm && strcmp(p2p, "1") == 0 && strcmp(shm, "1") == 0;
    snprintf(row->label, sizeof row->label, "step%d %d GPU%s, %s%s", MULTI_STEP.number, m->total,
             m->total == 1 ? "" : "s", m->world.one_gpu_each ? "one MPI rank per GPU" : "one process",
             network ? ", network transport" : "");
}

/** The timed run: warm-up and repetitions (each verified on every GPU), then the combine alone. */
static int run_benchmark(gpu_group *m, const options *opt)
{
    size_t n = opt->n;
    int status = allocate(m, n, !opt->hot, !opt->no_gate);
    if (status != 0)
        return status;
    set_sizes(m, n);
    element_t *host = host_alloc(m->max_shard);
    double *times = malloc((size_t)opt->reps * sizeof *times);
    if (host && !times)
        say_error("out of host memory for the timings");
    int failed = !host || !times;
    if ((status = ranks_agree(&m->world, failed, failed ? EXIT_USAGE : 0)) != 0) {
        free(host);
        free(times);
        return status;
    }
    reference ref = load_random(m, host, opt->seed);
    free(host);

    combine_t got[MAX_GPUS];
    verdict v = { 1, 0.0, 0.0, 0.0 };
    int ok = 1, mine_ok = 1, failed_run = 0, failed_gpu = 0;
    for (int r = 0; r < opt->warmup + opt->reps && ok; r++) {
        float ms = run_once(m, WORK_WHOLE_STEP, r, NULL);
        if (r >= opt->warmup)
            times[r - opt->warmup] = ms;
        fetch_sums(m, got);
        for (int g = 0; g < m->count && mine_ok; g++) {
            v = check_total(got[g], &ref, total_depth(m));
            mine_ok = v.ok;
            failed_gpu = g;
        }
        ok = ranks_all(&m->world, mine_ok);   /* every rank checks; all stop at the first wrong run */
        failed_run = r + 1;
    }
    timing_stats t = { 0.0, 0.0, 0.0, 0.0, 0.0 }, c = t;
    if (ok) {
        t = summarize_times(times, opt->reps);
        c = time_work(m, WORK_COMBINE, opt->warmup, opt->reps, NULL);
    }
    free(times);

    result_row row;
    fill_multi_row(&row, m, n, opt, &t, &c, v.rel_error, ok);
    char got_text[64], expected_text[64];
    format_total(got_text, sizeof got_text, got[failed_gpu]);
    format_reference(expected_text, sizeof expected_text, &ref);
    if (!mine_ok) {
        fprintf(stderr, "%s: FAILED n=%zu on %d GPUs, run %d of %d: GPU %d holds %s, expected %s\n",
                harness_program, n, m->total, failed_run, opt->warmup + opt->reps, m->base + failed_gpu,
                got_text, expected_text);
    } else if (ok && !opt->quiet) {
        char n_text[32], bytes_text[32], shard_text[32], l2_text[32], nccl_text[32];
        format_nccl_version(nccl_text, sizeof nccl_text);
        format_count(n_text, sizeof n_text, n);
        format_bytes(bytes_text, sizeof bytes_text, row.bytes);
        format_count(shard_text, sizeof shard_text, m->shards[0].n);
        format_bytes(l2_text, sizeof l2_text, m->info[0].l2_bytes);
        printf("%s: %s (%s)\n", MULTI_STEP.name, MULTI_STEP.title, MULTI_STEP.citation);
        printf("  input    %s %s (%s), %s, in %d shard%s of up to %s, each made on its GPU\n", n_text,
               ELEMENT_NAME, bytes_text, random_data_description(), m->total, m->total == 1 ? "" : "s",
               shard_text);
        printf("  devices  %d x %s (%d SMs, %s L2), peak %.0f GB/s each; NCCL %s\n", m->total,
               m->info[0].name, m->info[0].sm_count, l2_text, m->info[0].peak_gbs, nccl_text);
        if (m->world.one_gpu_each)
            printf("  ranks    %d, one per GPU (%s); rank 0's GPU above; times: the slowest rank's\n",
                   m->world.size, ranks_describe());
        print_timing(&row, opt);
        printf("  combine  %.4f ms median: the all-reduce of one value alone, [%.4f, %.4f] ms with 95%% "
               "confidence\n", c.median_ms, c.ci_low_ms, c.ci_high_ms);
        printf("  speed    %.1f GB/s in all (input bytes / time), %.1f%% of %d x peak\n", row.gbs,
               100.0 * row.gbs / row.peak_gbs, m->total);
        if (ELEMENT_IS_INTEGER)
            printf("  result   %s on every GPU, expected %s: PASSED (every run verified)\n", got_text,
                   expected_text);
        else
            printf("  result   %s on every GPU, reference %s, relative error %.2e: PASSED (every run "
                   "verified)\n", got_text, expected_text, v.rel_error);
    }
    if (ok && opt->print_sum)
        printf("%s\n", got_text);
    if (m->world.rank == 0 && !append_csv(opt, &row))
        ok = 0;
    release(m);
    return ok ? EXIT_OK : EXIT_WRONG;
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
        if ((status = open_gpus(m, flags.gpus)) == 0) {
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
