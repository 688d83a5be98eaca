# shellcheck shell=bash
# Sourced after scripts/gpus.sh by the multi-GPU scripts and tests (make scaling, latency,
# run-all's multi-GPU table, multi/tests.sh): where steps 12 and 13 are, what to say when
# NCCL or MPI kept them from being built, and how to start MPI ranks. No `set` here: the
# sourcing script's options hold.

# What to do where step 12 was not built (multi/nccl.mk skips it without NCCL)
NCCL_MISSING="NCCL not found: install libnccl-dev or set NCCL_HOME=..."
# The two steps' folders, from multi/multi.mk (exported; asked for when run outside make)
one_process_step=${MULTI_ONE_PROCESS_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_ONE_PROCESS_STEP)}
rank_per_gpu_step=${MULTI_RANK_PER_GPU_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_RANK_PER_GPU_STEP)}
# multi_gpu_program TARGET: step 12's program of this TYPE, or one line and status 2 when
# NCCL kept it from being built
multi_gpu_program() {
    local program=$one_process_step/reduce${SUFFIX-}
    if [ ! -x "$program" ]; then
        echo "make $1: $program was not built: $NCCL_MISSING" >&2
        return 2
    fi
    echo "$program"
}

# What to do where step 13 was not built (multi/mpi.mk skips it without MPI)
# shellcheck disable=SC2034  # read by the scripts that source this file
MPI_MISSING="MPI not found: install libmpich-dev or libopenmpi-dev, set MPI_HOME=..., or run make mpich"
# rank_per_gpu_program: step 13's program of this TYPE, or nothing when it was not built (no
# MPI or no NCCL); step 13 is optional beside step 12, so the scripts go on without it
rank_per_gpu_program() {
    local program=$rank_per_gpu_step/reduce${SUFFIX-}
    if [ -x "$program" ]; then echo "$program"; fi
}
# mpi_launcher: the mpiexec of the MPI that step 13 was built with (multi/mpi.mk), or
# nothing: another MPI's mpiexec would start N programs that each think they are alone
mpi_launcher() { make -s --no-print-directory -C "$rank_per_gpu_step" mpiexec-path 2> /dev/null || true; }
# mpi_run LAUNCHER RANKS PROGRAM ARGS...: RANKS ranks of PROGRAM on this machine. Open MPI
# refuses to run as root and to start more ranks than there are cores unless told (CI
# runs as root on two cores), and binds each of one or two ranks to one core, where a
# rank's input would be made on one thread (common/data.c): on the H100's host, Open MPI
# 4.1.6 gave a lone rank Cpus_allowed_list 0, and 0-15 with
# OMPI_MCA_hwloc_base_binding_policy=none. Open MPI 5's launcher (PRRTE) reads
# PRTE_MCA_hwloc_default_binding_policy instead (its source's name; no Open MPI 5 was run
# here, and its name for oversubscribing differs too). For every run of step 13 here: the
# tests, scaling and latency. MPICH ignores these variables and binds nothing unless
# asked.
MPI_ENV=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
         OMPI_MCA_hwloc_base_binding_policy=none PRTE_MCA_hwloc_default_binding_policy=none)
mpi_run() {
    local launcher=$1 ranks=$2
    shift 2
    env "${MPI_ENV[@]}" "$launcher" -n "$ranks" "$@"
}
# NCCL kept off NVLink and shared memory: it then takes its network transport (sockets or
# InfiniBand), the path between nodes, on one box
NETWORK_ENV=(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)
# network_run LAUNCHER RANKS PROGRAM ARGS...: mpi_run over the network transport
network_run() {
    local launcher=$1 ranks=$2
    shift 2
    env "${NETWORK_ENV[@]}" "${MPI_ENV[@]}" "$launcher" -n "$ranks" "$@"
}
