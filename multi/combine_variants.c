/**
 * @file combine_variants.c
 * @brief --latency: what the multi-GPU steps' combine costs, and the variants of it that
 * might be cheaper (step 12's README sets trying them in your own combine() as an
 * exercise): ncclReduce to GPU 0 instead of an all-reduce, the all-reduce on buffers
 * registered with NCCL, and the all-reduce captured in a CUDA graph. Each variant is the
 * work it queues on every GPU (a group_work), timed as a run is (gpu_group.h's time_work()).
 * A new variant is a queue function here and one time_work() call below.
 */
#include "combine_variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Buffers and graphs of the --latency variants that need their own (NULL: unused). */
typedef struct variant_resources {
    void *registered[MAX_GPUS];        /**< ncclMemAlloc'd, one value each */
    void *handles[MAX_GPUS];           /**< ncclCommRegister's handles */
    cudaGraphExec_t graphs[MAX_GPUS];  /**< combine() captured per GPU */
} variant_resources;

/** Nothing: what the gate and the events cost, the floor of the method. */
static void queue_nothing(gpu_group *m, const void *arg)
{
    (void)m;
    (void)arg;
}

/** Step 11 on each GPU's shard, no combine. */
static void queue_step11(gpu_group *m, const void *arg)
{
    (void)arg;
    for (int g = 0; g < m->count; g++) {
        const shard *s = &m->shards[g];
        if (s->n == 0)
            continue;
        CUDA_CHECK(cudaSetDevice(s->device));
        CUDA_CHECK(step_reduce(s->in, s->n, s->partial, s->scratch_a, s->scratch_b, s->stream));
    }
}

/** ncclReduce of one value to GPU 0 instead of an all-reduce. */
static void queue_reduce(gpu_group *m, const void *arg)
{
    (void)arg;
    NCCL_CHECK(ncclGroupStart());
    for (int g = 0; g < m->count; g++)
        NCCL_CHECK(ncclReduce(m->shards[g].sum, m->shards[g].sum, 1, COMBINE_NCCL_TYPE, ncclSum, 0,
                              m->comms[g], m->shards[g].stream));
    NCCL_CHECK(ncclGroupEnd());
}

/** The all-reduce on buffers from ncclMemAlloc, registered with NCCL. */
static void queue_registered(gpu_group *m, const void *arg)
{
    const variant_resources *res = arg;
    NCCL_CHECK(ncclGroupStart());
    for (int g = 0; g < m->count; g++)
        NCCL_CHECK(ncclAllReduce(res->registered[g], res->registered[g], 1, COMBINE_NCCL_TYPE, ncclSum,
                                 m->comms[g], m->shards[g].stream));
    NCCL_CHECK(ncclGroupEnd());
}

/** combine() captured once in a CUDA graph per GPU, then launched. */
static void queue_graph(gpu_group *m, const void *arg)
{
    const variant_resources *res = arg;
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        CUDA_CHECK(cudaGraphLaunch(res->graphs[g], m->shards[g].stream));
    }
}

/** Width of the --latency table's first column: its longest label, the CUDA graph's. */
#define LATENCY_LABEL_WIDTH 68

/** Prints one row of the --latency table. */
static void print_latency(const char *what, const timing_stats *t)
{
    printf("  %-*s %8.1f %8.1f %8.1f\n", LATENCY_LABEL_WIDTH, what, t->median_ms * 1e3, t->ci_low_ms * 1e3,
           t->ci_high_ms * 1e3);
    fflush(stdout);
}

/**
 * --latency: what combining costs, with one element per GPU (n = G), L2 warm. Each
 * variant is timed like a run (gate, events on each process's first GPU, median): the gate and the events
 * alone (this method's floor), step 11 alone, the whole step, the all-reduce alone,
 * ncclReduce to GPU 0, the all-reduce on registered buffers, and in a CUDA graph.
 * NCCL_PROTO and NCCL_ALGO, read by NCCL at start-up, select its protocol and algorithm.
 * With several processes, each time is the slowest rank's (run_once()).
 * With --csv, two rows of the step at n = G (its sum verified on every GPU): the first's
 * combine_ms is the all-reduce alone, the second's (its setup ends in ", CUDA graph") the
 * all-reduce launched as a CUDA graph: what scripts read (make latency), not the table.
 */
int run_latency(gpu_group *m, options *opt)
{
    opt->hot = 1;
    size_t n = (size_t)m->total;
    int status = group_allocate(m, n, 0, !opt->no_gate);
    if (status != 0)
        return status;
    set_sizes(m, n);
    group_runs r = { .m = m, .n = n, .ref = load_random(m, opt->seed), .what = "--latency's data", .runs = 1, .ok = 1 };

    char nccl_text[32];
    format_nccl_version(nccl_text, sizeof nccl_text);
    const char *proto = getenv("NCCL_PROTO"), *algo = getenv("NCCL_ALGO");
    printf("Combine latency on %d x %s, NCCL %s, NCCL_PROTO=%s NCCL_ALGO=%s, one %s per GPU\n", m->total,
           m->info[0].name, nccl_text, proto ? proto : "(NCCL's choice)", algo ? algo : "(NCCL's choice)",
           ELEMENT_NAME);
    if (m->world.one_gpu_each)
        printf("%d process%s, one MPI rank per GPU (%s)\n", m->world.size, m->world.size == 1 ? "" : "es",
               ranks_describe());
    else
        printf("one process drives every GPU\n");
    printf("median of %d runs after %d warm-up, microseconds, %s; 95%% confidence interval\n", opt->reps,
           opt->warmup, m->world.size > 1 ? "each run the slowest rank's events" : "GPU 0's events");
    printf("  %-*s %8s %8s %8s\n", LATENCY_LABEL_WIDTH, "what is timed", "median", "low", "high");
    variant_resources res;
    memset(&res, 0, sizeof res);
    timing_stats t = time_work(m, queue_nothing, NULL, opt->warmup, opt->reps);
    print_latency("nothing: the gate and the events alone (floor of the method)", &t);
    t = time_work(m, queue_step11, NULL, opt->warmup, opt->reps);
    print_latency("step 11 alone on each GPU's element, no combine", &t);
    timing_stats whole = time_work(m, queue_step, NULL, opt->warmup, opt->reps);
    char label[LATENCY_LABEL_WIDTH + 1];
    snprintf(label, sizeof label, "step %d: step 11, %sncclAllReduce", MULTI_STEP.number,
             ELEMENT_IS_INTEGER ? "widen to 64 bits, " : "");
    print_latency(label, &whole);
    timing_stats alone = time_work(m, queue_combine, NULL, opt->warmup, opt->reps);
    snprintf(label, sizeof label, "ncclAllReduce of one value alone (step %d's combine)", MULTI_STEP.number);
    print_latency(label, &alone);
    result_row row;
    if (opt->csv_path) {   /* the row's sum verified on every GPU */
        verified_run(&r, 0);
        fill_multi_row(&row, m, n, opt, &whole, &alone, r.v.rel_error, r.ok);
        if ((m->world.rank == 0 && !append_csv(opt, &row)) || !r.ok)
            status = EXIT_WRONG;
    }
    if (algo && strcmp(algo, "Ring") != 0) {
        /* NCCL runs ncclReduce with Ring only; any other NCCL_ALGO makes it "invalid usage" */
        printf("  %-*s %s\n", LATENCY_LABEL_WIDTH, "ncclReduce of one value to GPU 0", "(Ring only: not run)");
    } else {
        t = time_work(m, queue_reduce, &res, opt->warmup, opt->reps);
        print_latency("ncclReduce of one value to GPU 0", &t);
    }

    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        NCCL_CHECK(ncclMemAlloc(&res.registered[g], sizeof(combine_t)));
        CUDA_CHECK(cudaMemset(res.registered[g], 0, sizeof(combine_t)));
        NCCL_CHECK(ncclCommRegister(m->comms[g], res.registered[g], sizeof(combine_t), &res.handles[g]));
    }
    t = time_work(m, queue_registered, &res, opt->warmup, opt->reps);
    print_latency("ncclAllReduce, buffers from ncclMemAlloc + ncclCommRegister", &t);
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        NCCL_CHECK(ncclCommDeregister(m->comms[g], res.handles[g]));
        NCCL_CHECK(ncclMemFree(res.registered[g]));
    }

    /* every GPU's stream is captured at once: the group's G calls land in G graphs */
    cudaGraph_t graphs[MAX_GPUS];
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        CUDA_CHECK(cudaStreamBeginCapture(m->shards[g].stream, cudaStreamCaptureModeRelaxed));
    }
    NCCL_CHECK(combine(m->shards, m->count));
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaSetDevice(m->shards[g].device));
        CUDA_CHECK(cudaStreamEndCapture(m->shards[g].stream, &graphs[g]));
        CUDA_CHECK(cudaGraphInstantiate(&res.graphs[g], graphs[g], 0));
        CUDA_CHECK(cudaGraphUpload(res.graphs[g], m->shards[g].stream));
        CUDA_CHECK(cudaStreamSynchronize(m->shards[g].stream));
    }
    t = time_work(m, queue_graph, &res, opt->warmup, opt->reps);
    print_latency("ncclAllReduce captured in a CUDA graph, one cudaGraphLaunch per GPU", &t);
    if (opt->csv_path) {   /* the first row's run, with the graph's time as its combine */
        row.combine_ms = t.median_ms;
        snprintf(row.label + strlen(row.label), sizeof row.label - strlen(row.label), ", CUDA graph");
        if (m->world.rank == 0 && !append_csv(opt, &row))
            status = EXIT_WRONG;
    }
    for (int g = 0; g < m->count; g++) {
        CUDA_CHECK(cudaGraphExecDestroy(res.graphs[g]));
        CUDA_CHECK(cudaGraphDestroy(graphs[g]));
    }
    group_release(m);
    return status;
}
