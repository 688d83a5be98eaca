/**
 * @file multi_main.c
 * @brief The multi-GPU steps' program: G GPUs each reduce a shard of the input with step
 * 11, and the step combines the G sums on every GPU (multi_step.h); its processes: ranks.h.
 *
 * main.c's driver_run() with hooks of its own (driver.h): each GPU is a slot (gpu_slot.h)
 * and makes its own shard. Events on each process's first GPU time from the start of the
 * reductions until that GPU holds the combined sum, which waits for every GPU's shard.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "driver.h"
#include "gpu_slot.h"
#include "harness.h"
#include "multi.h"
#include "multi_step.h"
#include "ranks.h"

/** The GPUs of a run: each one's slot, and the shards, sums and communicators of the step. */
typedef struct gpu_group {
    ranks world;                   /**< the processes of the run, and this one's place */
    int count;                     /**< the GPUs this process drives: 0 .. count-1 (1 per MPI rank) */
    int total;                     /**< G, the GPUs of the run: world.size x count */
    int base;                      /**< the run's index of this process's GPU 0: world.rank x count */
    gpu_slot slots[MAX_GPUS];      /**< one per GPU: buffers, stream, events, gate */
    shard shards[MAX_GPUS];        /**< the step's view of each: its slot's buffers, its sum, its rank */
    size_t first[MAX_GPUS];        /**< index in the whole input of each shard's first element */
    size_t max_shard;              /**< elements each shard's buffer holds (at least 1) */
    element_t *host;               /**< room for max_shard elements: each shard's data is made there */
    size_t *positions;             /**< one_hots()'s: MAX_ONE_HOT and both sides of each shard's edge */
    char spread[32];               /**< " on G GPUs", for --check's lines */
    gpu_info info[MAX_GPUS];       /**< each GPU, as gpu_open() found it */
    ncclComm_t comms[MAX_GPUS];    /**< this process's ranks of one communicator of G (connect_gpus()) */
} gpu_group;

__attribute__((weak)) const char MULTI_SETUP[] = "";   /* a step's own (multi_step.h), else none */

/** Checks an NCCL call as CUDA_CHECK does a CUDA call: on an error, one line and exit 4. */
#define NCCL_CHECK(call) nccl_check((call), #call, __FILE__, __LINE__)
static void nccl_check(ncclResult_t result, const char *call, const char *file, int line)
{
    if (result == ncclSuccess)
        return;
    fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", call, file, line, ncclGetErrorString(result));
    exit(EXIT_CUDA_ERROR);
}

/** Says `message` on stderr, with the rank and node when there are several processes. */
static void say_rank_error(const gpu_group *m, const char *message)
{
    char line[768];
    snprintf(line, sizeof line, "rank %d of %d (%s): %s", m->world.rank, m->world.size, m->world.host, message);
    say_error(m->world.size > 1 ? line : message);
}

/** malloc(), or exit 2 after one line; with MPI, the exit handler then aborts every rank. */
static void *host_memory(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        say_error("out of host memory");
        exit(EXIT_USAGE);
    }
    return p;
}

/** Every rank's `bytes` at `mine` (rank r's at r x bytes; free() it): to compare flags, agree, take the slowest. */
static void *gather(const ranks *w, const void *mine, size_t bytes)
{
    void *all = host_memory((size_t)w->size * bytes);
    ranks_gather(w, mine, all, bytes);
    return all;
}

/**
 * Opens GPUs 0 .. G-1 (`gpus`: --gpus, 0: every GPU visible), or with one rank per GPU
 * this rank's (ranks_pick_gpu()); then one NCCL communicator over every GPU of the run
 * (the step's connect_gpus()), once every rank has agreed, so that none waits there for a
 * rank that gave up. Returns 0, EXIT_USAGE (--gpus above the GPUs there are, more ranks
 * than GPUs) or EXIT_NO_GPU, the lowest failing rank's one line said.
 */
static int open_gpus(gpu_group *m, int gpus)
{
    char error[512];
    int status = 0, visible = 0;
    /* no context yet: a rank opens its own GPU only, never GPU 0 on the way */
    if (cudaGetDeviceCount(&visible) != cudaSuccess || visible == 0)
        status = gpu_open(0, &m->info[0], error, sizeof error);   /* says why there is none */
    if (status == 0 && m->world.one_gpu_each) {
        m->count = 1;
        status = ranks_pick_gpu(&m->world, visible, &m->shards[0].device, error, sizeof error);
        if (status == 0)
            status = gpu_open(m->shards[0].device, &m->info[0], error, sizeof error);
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

/** Index of shard k's first element of n on G GPUs: n/G each, the first n % G shards one more. */
static size_t shard_first(size_t n, int gpus, int k)
{
    size_t q = n / (size_t)gpus, r = n % (size_t)gpus;
    return (size_t)k * q + ((size_t)k < r ? (size_t)k : r);
}

/** Spreads n elements over the G shards: this process's sizes and first indices. */
static void set_sizes(gpu_group *m, size_t n)
{
    for (int g = 0; g < m->count; g++) {
        m->first[g] = shard_first(n, m->total, m->base + g);
        m->shards[g].n = shard_first(n, m->total, m->base + g + 1) - m->first[g];
    }
}

/** Where element i of the whole input lies, on this process's GPUs; NULL on another process's. */
static element_t *element_at(const gpu_group *m, size_t i)
{
    for (int g = 0; g < m->count; g++)
        if (i >= m->first[g] && i < m->first[g] + m->shards[g].n)
            return (element_t *)m->shards[g].in + (i - m->first[g]);
    return NULL;
}

/**
 * The allocate hook: every GPU's slot for inputs of up to the largest of `sizes` in all,
 * and the host's room for a shard, once every rank has found that they fit; then one combine, untimed,
 * so that NCCL connects its ranks before anything is timed. Returns 0 or EXIT_USAGE.
 */
static int allocate(void *ctx, const size_t *sizes, int count, int flush, int gated)
{
    gpu_group *m = ctx;
    size_t max_n = 0;
    for (int i = 0; i < count; i++)
        max_n = sizes[i] > max_n ? sizes[i] : max_n;
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
    m->positions = host_memory((MAX_ONE_HOT + 2 * (size_t)m->total) * sizeof *m->positions);
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
    NCCL_CHECK(combine(m->shards, m->count));
    for (int g = 0; g < m->count; g++)
        CUDA_CHECK(cudaStreamSynchronize(m->shards[g].stream));
    return 0;
}

/** Frees what allocate() and open_gpus() took. */
static void release(void *ctx)
{
    gpu_group *m = ctx;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        CUDA_CHECK(cudaSetDevice(s->device));
        if ((void *)s->sum != (void *)s->partial)
            CUDA_CHECK(cudaFree(s->sum));
        NCCL_CHECK(ncclCommDestroy(m->comms[g]));
        slot_release(&m->slots[g]);
    }
    free(m->host);
    free(m->positions);
}

/** The load hook: each GPU makes its shard of the random input (seed); the whole's reference, the same on every rank. */
static reference load(void *ctx, size_t n, uint64_t seed)
{
    gpu_group *m = ctx;
    set_sizes(m, n);
    reference mine = { .fits_element = 1 }, total = mine;
    for (int g = 0; g < m->count; g++) {
        shard *s = &m->shards[g];
        if (s->n == 0)
            continue;
        reference part = random_input(m->host, s->n, seed, m->first[g]);
        reference_add(&mine, &part);
        CUDA_CHECK(cudaMemcpy((void *)s->in, m->host, s->n * sizeof(element_t), cudaMemcpyHostToDevice));
    }
    reference *parts = gather(&m->world, &mine, sizeof mine);
    for (int r = 0; r < m->world.size; r++)   /* in rank order: the same sum on every rank */
        reference_add(&total, &parts[r]);
    free(parts);
    return total;
}

/**
 * One timed run on every GPU, of the whole step or (`combine_only`) the combine alone:
 * each slot flushed, poisoned and gated (slot_begin()), every gate opened once every GPU
 * has finished its flush (a GPU 0 let go before GPU 1's flush ends times its wait in the
 * all-reduce: 20-25 us of combine instead of 9 on 2 x H200). The ranks meet before they
 * close their gates (one busy elsewhere would hold the others past the gate's one-second
 * limit), and after their flushes. Returns the slowest process's time in ms of its GPU 0.
 */
static float run_once(gpu_group *m, int combine_only, int pass)
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
    for (int g = 0; g < m->count && !combine_only; g++)
        CUDA_CHECK(shard_reduce(&m->shards[g]));
    NCCL_CHECK(combine(m->shards, m->count));
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        slot_end(&m->slots[g]);
    }
    for (int g = 0; g < m->count && m->total > 1; g++)   /* each GPU has reached its gate: its flush is done */
        if (m->slots[g].gated)
            CUDA_CHECK(cudaEventSynchronize(m->slots[g].ready));
    ranks_barrier(&m->world);
    slots_go(m->slots, m->count);
    float ms = slot_wait(&m->slots[0]);
    for (int g = 1; g < m->count; g++)
        slot_wait(&m->slots[g]);
    float *times = gather(&m->world, &ms, sizeof ms);
    for (int r = 0; r < m->world.size; r++)   /* a run ends when its slowest process ends */
        ms = times[r] > ms ? times[r] : ms;
    free(times);
    return ms;
}

/** The combine hook (time_runs()'s callback): the combine alone, nothing to verify. */
static float combine_run(void *ctx, int run)
{
    return run_once(ctx, 1, run);
}

/** The run hook: run_once(), then the sum on every GPU checked, until a wrong one; every rank stops at once. */
static float run(void *ctx, size_t n, int pass, driver_check check, void *arg)
{
    (void)n;   /* set_sizes() spread it */
    gpu_group *m = ctx;
    float ms = run_once(m, 0, pass);
    int ok = 1;
    for (int g = 0; g < m->count && ok; g++) {   /* cudaMemcpy with unified addressing: from any GPU */
        combine_t got;
        char where[64];
        CUDA_CHECK(cudaMemcpy(&got, m->shards[g].sum, sizeof got, cudaMemcpyDeviceToHost));
        int poison = is_poison(&got, sizeof got);
        snprintf(where, sizeof where, " on GPU %d of %d%s", m->base + g, m->total, poison ? " (nothing was written)" : "");
        ok = check(arg, got, poison, where);
    }
    int *oks = gather(&m->world, &ok, sizeof ok);
    for (int r = 0; r < m->world.size; r++)
        ok = ok && oks[r];
    free(oks);
    return ok ? ms : -1.0f;
}

/** The depth hook: step 11 on the largest shard, then up to G additions in the combine. */
static uint64_t depth(void *ctx, size_t n)
{
    (void)n;
    const gpu_group *m = ctx;
    return depth_for(m->max_shard) + (uint64_t)m->total + 1;
}

/** The zero hook: every shard of n elements all zeros, each from its own GPU (cudaMemset() of another's needs peer access). */
static void zero(void *ctx, size_t n)
{
    gpu_group *m = ctx;
    set_sizes(m, n);
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        CUDA_CHECK(cudaMemset((void *)m->shards[g].in, 0, m->shards[g].n * sizeof(element_t)));
    }
}

/** The get hook: element i of the whole input, on every rank, from its GPU (each rank's answer gathered). */
static element_t get(void *ctx, size_t n, size_t i)
{
    gpu_group *m = ctx;
    int k = 0;   /* the shard that holds element i; its GPU's rank is k / count */
    while (shard_first(n, m->total, k + 1) <= i)
        k++;
    element_t old = 0, *at = element_at(m, i);
    if (at)
        CUDA_CHECK(cudaMemcpy(&old, at, sizeof old, cudaMemcpyDeviceToHost));
    element_t *olds = gather(&m->world, &old, sizeof old);
    old = olds[k / m->count];
    free(olds);
    return old;
}

/** The set hook: element i written on the GPU that holds it, by its rank. */
static void set(void *ctx, size_t n, size_t i, element_t value)
{
    (void)n;
    element_t *at = element_at(ctx, i);
    if (at)
        CUDA_CHECK(cudaMemcpy(at, &value, sizeof value, cudaMemcpyHostToDevice));
}

/** The one_hots hook: one_hot_positions(), and both sides of every shard's edge. */
static const size_t *one_hots(void *ctx, size_t n, int *count)
{
    gpu_group *m = ctx;
    *count = one_hot_positions(n, m->positions);
    for (int k = 1; k < m->total; k++) {
        size_t edge = shard_first(n, m->total, k);
        if (edge > 0 && edge < n) {
            m->positions[(*count)++] = edge - 1;
            m->positions[(*count)++] = edge;
        }
    }
    return m->positions;
}

/**
 * The report hook: the row on G GPUs, its combine timed alone, its setup in the label (", network
 * transport": NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1); then main.c's report, and the combine.
 */
static void report(void *ctx, result_row *row, const options *opt, const driver_outcome *o, int print)
{
    const gpu_group *m = ctx;
    row->gpus = m->total;
    row->peak_gbs = m->total * m->info[0].peak_gbs;
    row->combine_ms = o->combine.median_ms;
    int nccl = 0, used = (int)strlen(row->device);   /* the GPU's name, then NCCL's version: in make scaling's header */
    NCCL_CHECK(ncclGetVersion(&nccl));
    snprintf(row->device + used, sizeof row->device - used, ", NCCL %d.%d.%d", nccl / 10000, nccl / 100 % 100, nccl % 100);
    const char *p2p = getenv("NCCL_P2P_DISABLE"), *shm = getenv("NCCL_SHM_DISABLE");
    int network = p2p && shm && strcmp(p2p, "1") == 0 && strcmp(shm, "1") == 0;
    snprintf(row->label, sizeof row->label, "step%d %d GPU%s, %s%s%s", MULTI_STEP.number, m->total,
             m->total == 1 ? "" : "s", m->world.one_gpu_each ? "one MPI rank per GPU" : "one process",
             network ? ", network transport" : "", MULTI_SETUP);
    if (!print)
        return;
    char n_text[32], bytes_text[32], shard_text[32], l2_text[32], got_text[64], expected_text[64];
    format_count(n_text, sizeof n_text, row->n);
    format_bytes(bytes_text, sizeof bytes_text, row->bytes);
    format_count(shard_text, sizeof shard_text, m->shards[0].n);
    format_bytes(l2_text, sizeof l2_text, m->info[0].l2_bytes);
    snprintf(got_text, sizeof got_text, ELEMENT_IS_INTEGER ? "%lld" : "%.17g", o->got);
    format_reference(expected_text, sizeof expected_text, &o->ref);
    printf("%s: %s (%s)\n", MULTI_STEP.name, MULTI_STEP.title, MULTI_STEP.citation);
    printf("  input    %s %s (%s), %s, in %d shard%s of up to %s, each made on its GPU, one element changed "
           "before each run\n", n_text, ELEMENT_NAME, bytes_text, random_data_description(), m->total,
           m->total == 1 ? "" : "s", shard_text);
    printf("  devices  %d x %s (%d SMs, %s L2), peak %.0f GB/s each; NCCL %d.%d.%d\n", m->total, m->info[0].name,
           m->info[0].sm_count, l2_text, m->info[0].peak_gbs, nccl / 10000, nccl / 100 % 100, nccl % 100);
    if (m->world.one_gpu_each)
        printf("  ranks    %d, one per GPU (%s); rank 0's GPU above; times: the slowest rank's\n", m->world.size,
               ranks_describe());
    print_timing(row, opt);
    printf("  combine  %.4f ms median: the combine of one value alone, [%.4f, %.4f] ms with 95%% confidence\n",
           o->combine.median_ms, o->combine.ci_low_ms, o->combine.ci_high_ms);
    printf("  speed    %.1f GB/s in all (input bytes / time), %.1f%% of %d x peak\n", row->gbs,
           100.0 * row->gbs / row->peak_gbs, m->total);
    if (ELEMENT_IS_INTEGER)
        printf("  result   %s on every GPU, expected %s: PASSED (every run verified)\n", got_text, expected_text);
    else
        printf("  result   %s on every GPU, reference %s, relative error %.2e: PASSED (every run verified)\n",
               got_text, expected_text, o->v.rel_error);
}

/** FNV-1a of argv[1..], NCCL_ALGO and NCCL_PROTO (each 0-ended): ranks started with others would wait apart. */
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

/** Every rank exits with the same status (ranks_agree()). */
int main(int argc, char **argv)
{
    ranks world;
    ranks_begin(&argc, &argv, &world);
    harness_writes_files = world.rank == 0;
    options opt;
    multi_flags flags;
    const harness_driver *driver = multi_driver(world.one_gpu_each ? MULTI_RANK_PER_GPU : MULTI_ONE_PROCESS,
                                                STEP.name, &flags);
    int status = harness_begin(argc, argv, &opt, &MULTI_STEP, driver), same = 1;
    unsigned long long hash = hash_flags(argc, argv), *hashes = gather(&world, &hash, sizeof hash);
    for (int r = 0; r < world.size; r++)
        same = same && hashes[r] == hash;
    free(hashes);
    if (!same && status == HARNESS_GO_ON) {
        say_error("the ranks were started with different flags, or NCCL_ALGO or NCCL_PROTO: give every rank "
                  "the same ones");
        status = EXIT_USAGE;
    }
    status = ranks_agree(&world, status != HARNESS_GO_ON, status);   /* a bad flag: every rank stops */
    if (status == HARNESS_GO_ON) {
        static gpu_group group;   /* one per process; large (MAX_GPUS of everything), zeroed */
        gpu_group *m = &group;
        m->world = world;
        ranks_hold_errors(&world);
        if ((status = open_gpus(m, flags.gpus)) == 0) {
            snprintf(m->spread, sizeof m->spread, " on %d GPU%s", m->total, m->total == 1 ? "" : "s");
            driver_hooks hooks = { m, &MULTI_STEP, &m->info[0], m->spread, allocate, release, load, zero, get, set,
                                   one_hots, depth, run, combine_run, report };
            status = driver_run(&opt, &hooks);
        }
        status = ranks_agree(&world, status != 0, status);
    }
    return ranks_end(&world, status);
}
