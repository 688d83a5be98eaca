/**
 * @file gpu_group.c
 * @brief The G GPUs of a multi-GPU run (see gpu_group.h). The method is main.c's, on every
 * GPU at once: each GPU makes its own shard (the input never goes through one GPU), each L2
 * is flushed and a gate holds every GPU until the whole run is queued; events on each
 * process's first GPU time from the start of the shard reductions until that GPU holds the
 * combined sum (an all-reduce: its stop waits for every GPU's shard).
 */
#include "gpu_group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard_reference.h"

void nccl_check(ncclResult_t result, const char *call, const char *file, int line)
{
    if (result == ncclSuccess)
        return;
    fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", call, file, line, ncclGetErrorString(result));
    exit(EXIT_CUDA_ERROR);
}

void format_nccl_version(char *buf, size_t size)
{
    int version = 0;
    NCCL_CHECK(ncclGetVersion(&version));
    snprintf(buf, size, "%d.%d.%d", version / 10000, version / 100 % 100, version % 100);
}

size_t shard_first(size_t n, int gpus, int k)
{
    size_t q = n / (size_t)gpus, r = n % (size_t)gpus;
    return (size_t)k * q + ((size_t)k < r ? (size_t)k : r);
}

void set_sizes(gpu_group *m, size_t n)
{
    for (int g = 0; g < m->count; g++) {
        m->first[g] = shard_first(n, m->total, m->base + g);
        m->shards[g].n = shard_first(n, m->total, m->base + g + 1) - m->first[g];
    }
}

element_t *element_at(const gpu_group *m, size_t i)
{
    for (int g = 0; g < m->count; g++)
        if (i >= m->first[g] && i < m->first[g] + m->shards[g].n)
            return (element_t *)m->shards[g].in + (i - m->first[g]);
    return NULL;
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

/** Exits for want of host memory; with MPI the exit handler then aborts every rank. */
static void out_of_host_memory(const gpu_group *m)
{
    say_rank_error(m, "out of host memory");
    exit(EXIT_USAGE);
}

/** One process per GPU: opens the GPU of this rank's place on its node (ranks_pick_gpu()). */
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

int group_open(gpu_group *m, int gpus)
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

int group_allocate(gpu_group *m, size_t max_n, int flush, int gated)
{
    m->max_shard = shard_first(max_n, m->total, 1);     /* the largest shard: the first */
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
    if (status == 0 && !(m->host = host_alloc(m->max_shard)))
        status = EXIT_USAGE;   /* host_alloc() said why */
    if ((status = ranks_agree(&m->world, status != 0, status)) != 0)
        return status;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        gpu_slot *slot = &m->slots[g];
        slot_allocate(slot, s->device, m->max_shard, scratch, flush, gated, &m->info[g]);
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
    queue_combine(m, NULL);
    for (int g = 0; g < m->count; g++)
        CUDA_CHECK(cudaStreamSynchronize(m->shards[g].stream));
    return 0;
}

void group_release(gpu_group *m)
{
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        CUDA_CHECK(cudaSetDevice(s->device));
        if ((void *)s->sum != (void *)s->partial)
            CUDA_CHECK(cudaFree(s->sum));
        NCCL_CHECK(ncclCommDestroy(m->comms[g]));
        slot_release(&m->slots[g]);
    }
    free(m->host);
}

reference load_random(gpu_group *m, uint64_t seed)
{
    reference mine = { .fits_element = 1 }, total = mine;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        if (s->n == 0)
            continue;
        reference part = random_input(m->host, s->n, seed, m->first[g]);
        reference_add(&mine, &part);
        CUDA_CHECK(cudaMemcpy((void *)s->in, m->host, s->n * sizeof(element_t), cudaMemcpyHostToDevice));
    }
    reference *parts = malloc((size_t)m->world.size * sizeof *parts);
    if (!parts)
        out_of_host_memory(m);
    ranks_gather(&m->world, &mine, parts, sizeof mine);
    for (int r = 0; r < m->world.size; r++)   /* in rank order: the same sum on every rank */
        reference_add(&total, &parts[r]);
    free(parts);
    return total;
}

void queue_step(gpu_group *m, const void *arg)
{
    (void)arg;
    for (int g = 0; g < m->count; g++)
        CUDA_CHECK(shard_reduce(&m->shards[g]));
    NCCL_CHECK(combine(m->shards, m->count));
}

void queue_combine(gpu_group *m, const void *arg)
{
    (void)arg;
    NCCL_CHECK(combine(m->shards, m->count));
}

/*
 * Every GPU starts together: the gates open only once every GPU has finished its flush (the
 * host queues GPU 1's flush after GPU 0's, and a GPU 0 let go first would time its wait for
 * GPU 1 in the all-reduce: measured on 2 x H200, 20-25 us of combine instead of 9). With one
 * rank per GPU the ranks meet at a barrier before they close their gates (a rank still busy
 * elsewhere would hold the others at their gates past the gate's one-second limit), and
 * again after their flushes; each then opens its own gate.
 */
float run_once(gpu_group *m, group_work work, const void *arg, int pass)
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
    work(m, arg);
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        slot_end(&m->slots[g]);
    }
    if (m->total > 1)
        for (int g = 0; g < m->count; g++)   /* each GPU has reached its gate: its flush is done */
            if (m->slots[g].gated)
                CUDA_CHECK(cudaEventSynchronize(m->slots[g].ready));
    ranks_barrier(&m->world);
    slots_go(m->slots, m->count);
    float ms = slot_wait(&m->slots[0]);
    for (int g = 1; g < m->count; g++)
        slot_wait(&m->slots[g]);
    return ranks_slowest(&m->world, ms);
}

/** What time_work() hands time_runs() for each run. */
typedef struct timed_work {
    gpu_group *m;
    group_work work;
    const void *arg;
} timed_work;

/** time_runs()'s callback of time_work(): one run of the work, never wrong. */
static float timed_run(void *ctx, int run)
{
    const timed_work *w = ctx;
    return run_once(w->m, w->work, w->arg, run);
}

timing_stats time_work(gpu_group *m, group_work work, const void *arg, int warmup, int reps)
{
    timed_work w = { m, work, arg };
    return time_runs(timed_run, &w, warmup, reps);
}

/** Longest chain of additions of a run: step 11 on the largest shard, then up to G in the combine. */
static uint64_t total_depth(const gpu_group *m)
{
    return depth_for(m->max_shard) + (uint64_t)m->total + 1;
}

/** Compares a combined sum with the reference: exact in 64 bits for int, else the float bound. */
static verdict check_total(combine_t got, const reference *ref, uint64_t depth)
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

void format_total(char *buf, size_t size, combine_t value)
{
#if ELEMENT_IS_INTEGER
    snprintf(buf, size, "%lld", value);
#else
    format_element(buf, size, value);
#endif
}

/**
 * New data for a run (main.c's refresh_input()): one element of the whole input changed,
 * on the GPU that holds it, and the reference with it on every rank; the element's old
 * value goes to every rank first (it decides the new one), so that all change it alike.
 */
static void refresh(gpu_group *m, size_t n, reference *ref, uint64_t seed, int run)
{
    size_t i = fresh_index(seed, run, n);
    int k = 0;   /* the shard that holds element i, and the rank of its GPU: k / count */
    while (shard_first(n, m->total, k + 1) <= i)
        k++;
    element_t old = 0, *at = element_at(m, i);
    if (at)
        CUDA_CHECK(cudaMemcpy(&old, at, sizeof old, cudaMemcpyDeviceToHost));
    element_t *olds = malloc((size_t)m->world.size * sizeof *olds);
    if (!olds)
        out_of_host_memory(m);
    ranks_gather(&m->world, &old, olds, sizeof old);
    element_t value = fresh_value(seed, run, olds[k / m->count], ref, total_depth(m));
    free(olds);
    if (at)
        CUDA_CHECK(cudaMemcpy(at, &value, sizeof value, cudaMemcpyHostToDevice));
}

float verified_run(void *ctx, int run)
{
    group_runs *r = ctx;
    gpu_group *m = r->m;
    if (run > 0 && r->fresh)
        refresh(m, r->n, &r->ref, *r->fresh, run);
    float ms = run_once(m, queue_step, NULL, run);
    combine_t got[MAX_GPUS];
    for (int g = 0; g < m->count; g++)   /* cudaMemcpy with unified addressing: from any GPU */
        CUDA_CHECK(cudaMemcpy(&got[g], m->shards[g].sum, sizeof(combine_t), cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int g = 0; g < m->count && ok; g++) {
        r->got = got[g];
        r->v = check_total(got[g], &r->ref, total_depth(m));
        ok = r->v.ok;
        if (!ok) {
            char got_text[64], expected_text[64];
            format_total(got_text, sizeof got_text, got[g]);
            format_reference(expected_text, sizeof expected_text, &r->ref);
            fprintf(stderr, "%s: FAILED n=%zu on %d GPUs, %s, run %d of %d%s: GPU %d holds %s, expected %s%s\n",
                    harness_program, r->n, m->total, r->what, run + 1, r->runs,
                    run > 0 && r->fresh ? " (one element changed since run 1)" : "", m->base + g, got_text,
                    expected_text, is_poison(&got[g], sizeof got[g]) ? " (nothing was written)" : "");
        }
    }
    r->ok = ranks_all(&m->world, ok);   /* every rank checks; all stop at the first wrong run */
    return r->ok ? ms : -1.0f;
}

void fill_multi_row(result_row *row, const gpu_group *m, size_t n, const options *opt, const timing_stats *t,
                    const timing_stats *combine, double rel_error, int ok)
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
