/**
 * @file ranks.h
 * @brief The processes of a multi-GPU run (multi_main.c): one that drives every GPU
 * (ranks_one.c), or one MPI rank per GPU (ranks_mpi.c), asked where they must agree (did
 * anyone fail? the slowest time? the whole input's sum?): one process answers alone, MPI
 * with one collective, reached by every rank in the same order.
 *
 * Never hang: a rank that fails before the collectives says so through ranks_agree(), so
 * that all stop together; one that fails later exits, and ranks_mpi.c aborts the whole job
 * rather than leave the others waiting in an all-reduce.
 */
#ifndef REDUCE_RANKS_H
#define REDUCE_RANKS_H

#include <stddef.h>

/** Where this process stands among the processes of the run. */
typedef struct ranks {
    int rank;          /**< this process, 0 .. size-1 (0 without MPI) */
    int size;          /**< processes in the run (1 without MPI) */
    int local_rank;    /**< this process among those on its node */
    int local_size;    /**< processes on its node */
    int one_gpu_each;  /**< 1: one process per GPU (MPI); 0: this process drives every GPU */
    char host[64];     /**< this node's name, for error lines */
} ranks;

/**
 * Starts the processes (MPI_Init) and fills `w`. With MPI, every rank but 0 prints nothing
 * on stdout (rank 0 prints the report), and error lines are held until ranks_agree(), so
 * that an error every rank makes (a bad flag) prints once.
 */
void ranks_begin(int *argc, char ***argv, ranks *w);

/**
 * Every rank says whether it `failed`, with the exit `status` it would return. Returns, on
 * every rank, the status of the lowest failed rank (whose held error lines alone are
 * printed, the others' dropped), or this rank's own `status` when none failed. Collective:
 * every rank calls it at the same point. Ends the holding of error lines.
 */
int ranks_agree(const ranks *w, int failed, int status);

/** Holds error lines again until the next ranks_agree() (no-op without MPI). */
void ranks_hold_errors(const ranks *w);

/**
 * One process per GPU: the CUDA device of this rank among `visible`, by its place on the
 * node. Returns 0, or EXIT_USAGE with one line in `error` when the node has more ranks
 * than GPUs. Without MPI: device 0.
 */
int ranks_pick_gpu(const ranks *w, int visible, int *device, char *error, size_t error_size);

/**
 * Refuses two ranks of a node on one GPU (a launcher that gives each rank one GPU of its
 * own through CUDA_VISIBLE_DEVICES, as `srun --gpus-per-task=1` does, makes every rank
 * see "device 0": what tells them apart is the PCI bus id). Collective. Returns 0, or
 * EXIT_USAGE with one line in `error` on the ranks that share.
 */
int ranks_check_distinct_gpus(const ranks *w, const char *pci_bus_id, char *error, size_t error_size);

/** Waits until every rank has reached it (MPI_Barrier). */
void ranks_barrier(const ranks *w);

/** Gathers `bytes` from every rank into `all` (rank r's at r x bytes), on every rank. */
void ranks_gather(const ranks *w, const void *mine, void *all, size_t bytes);

/** Finishes (MPI_Finalize) and returns `status`, which every rank then exits with. */
int ranks_end(const ranks *w, int status);

/** How the processes started, for the report: "one process", or "MPI, " and the MPI library's version line. */
const char *ranks_describe(void);

#endif
