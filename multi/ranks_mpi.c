/**
 * @file ranks_mpi.c
 * @brief ranks.h for step 13: one MPI rank per GPU, started by mpiexec, mpirun or srun.
 */
/* on_exit(), dup(), dup2(), fileno(): glibc and POSIX, not C11 */
#define _DEFAULT_SOURCE
#include "ranks.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "options.h"

/** The ranks of this rank's node (MPI_COMM_TYPE_SHARED): local ranks and GPU sharing. */
static MPI_Comm node_comm = MPI_COMM_NULL;
/** 1 once MPI_Finalize ran: exiting later is a normal end. */
static int finalized;
/** While error lines are held: the file they go to, and the real stderr. */
static FILE *held;
static int real_stderr = -1;

/** Sends stderr to a temporary file until release_errors(). */
void ranks_hold_errors(const ranks *w)
{
    (void)w;
    if (held)
        return;
    fflush(stderr);
    held = tmpfile();
    if (!held)
        return;   /* nothing held: every rank prints its own lines */
    real_stderr = dup(STDERR_FILENO);
    dup2(fileno(held), STDERR_FILENO);
}

/** Gives stderr back; prints what was held when `print`, else drops it. */
static void release_errors(int print)
{
    if (!held)
        return;
    fflush(stderr);
    dup2(real_stderr, STDERR_FILENO);
    close(real_stderr);
    if (print) {
        char buf[4096];
        size_t got;
        rewind(held);
        while ((got = fread(buf, 1, sizeof buf, held)) > 0)
            fwrite(buf, 1, got, stderr);
        fflush(stderr);
    }
    fclose(held);
    held = NULL;
}

/**
 * Runs at every exit: one that comes before MPI_Finalize is a rank giving up alone (a
 * CUDA or NCCL error, exit() anywhere), and the other ranks may be waiting for it in a
 * collective; MPI_Abort ends them all, with this rank's exit code.
 */
static void abort_unless_finalized(int code, void *unused)
{
    (void)unused;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized || finalized)
        return;
    release_errors(1);
    fflush(NULL);   /* MPI_Abort ends the process before exit would flush what it printed */
    MPI_Abort(MPI_COMM_WORLD, code != 0 ? code : EXIT_CUDA_ERROR);
}

void ranks_begin(int *argc, char ***argv, ranks *w)
{
    memset(w, 0, sizeof *w);
    load_kernels_eagerly();   /* before MPI_Init, which may initialize CUDA itself */
    int provided = 0;   /* NCCL's and CUDA's own threads never call MPI: only this one does */
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    on_exit(abort_unless_finalized, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w->size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node_comm);
    MPI_Comm_rank(node_comm, &w->local_rank);
    MPI_Comm_size(node_comm, &w->local_size);
    int length = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(name, &length);
    snprintf(w->host, sizeof w->host, "%.63s", name);
    w->one_gpu_each = 1;
    if (w->rank != 0 && !freopen("/dev/null", "w", stdout))
        fclose(stdout);   /* rank 0 prints the report; the others print nothing there */
    ranks_hold_errors(w);
}

int ranks_agree(const ranks *w, int failed, int status)
{
    int mine = failed ? w->rank : w->size, first = w->size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    release_errors(first == w->size || first == w->rank);
    if (first == w->size)
        return status;
    MPI_Bcast(&status, 1, MPI_INT, first, MPI_COMM_WORLD);
    return status;
}

int ranks_pick_gpu(const ranks *w, int visible, int *device, char *error, size_t error_size)
{
    if (w->local_size <= visible || visible == 1) {
        /* one GPU seen: the launcher gave each rank its own, or two share it (checked next) */
        *device = visible == 1 ? 0 : w->local_rank;
        return 0;
    }
    snprintf(error, error_size, "%d ranks on %s, which has %d GPUs: start one rank per GPU, at most %d per node "
             "(mpiexec -n %d on one node; -ppn %d, or srun --ntasks-per-node=%d, on several)", w->local_size,
             w->host, visible, visible, visible, visible, visible);
    return EXIT_USAGE;
}

int ranks_check_distinct_gpus(const ranks *w, const char *pci_bus_id, char *error, size_t error_size)
{
    enum { ID = 32 };
    char mine[ID] = { 0 };
    snprintf(mine, sizeof mine, "%s", pci_bus_id);
    char *all = calloc((size_t)w->local_size, ID);
    if (!all) {
        snprintf(error, error_size, "out of host memory");
        return EXIT_USAGE;
    }
    MPI_Allgather(mine, ID, MPI_CHAR, all, ID, MPI_CHAR, node_comm);
    int status = 0;
    for (int other = 0; other < w->local_size && status == 0; other++)
        if (other != w->local_rank && strcmp(all + (size_t)other * ID, mine) == 0) {
            snprintf(error, error_size, "ranks %d and %d of node %s both use its GPU %s: start one rank per GPU, "
                     "at most as many ranks per node as it has GPUs", other < w->local_rank ? other : w->local_rank,
                     other < w->local_rank ? w->local_rank : other, w->host, mine);
            status = EXIT_USAGE;
        }
    free(all);
    return status;
}

void ranks_barrier(const ranks *w)
{
    (void)w;
    MPI_Barrier(MPI_COMM_WORLD);
}

void ranks_gather(const ranks *w, const void *mine, void *all, size_t bytes)
{
    (void)w;
    MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}

int ranks_end(const ranks *w, int status)
{
    (void)w;
    release_errors(1);
    if (node_comm != MPI_COMM_NULL)
        MPI_Comm_free(&node_comm);
    MPI_Finalize();
    finalized = 1;
    return status;
}

const char *ranks_describe(void)
{
    static char text[96];
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    version[strcspn(version, "\n,")] = '\0';   /* its first line, up to the first comma */
    char *out = version;
    for (const char *in = version; *in; in++)   /* blanks squeezed: "MPICH Version:\t5.0.2" */
        if (!((*in == ' ' || *in == '\t') && (out == version || out[-1] == ' ')))
            *out++ = *in == '\t' ? ' ' : *in;
    *out = '\0';
    snprintf(text, sizeof text, "MPI, %.80s", version);
    return text;
}
