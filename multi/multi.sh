# shellcheck shell=bash
# Sourced after scripts/gpus.sh by the multi-GPU scripts and tests: what they share of steps
# 12 and 13. No `set` here: the sourcing script's options hold.

# shellcheck disable=SC2034  # read by the scripts that source this file
{
# What to do where step 12 or 13 was not built (multi/multi.mk skips them without NCCL, MPI)
NCCL_MISSING="NCCL not found: install libnccl-dev or set NCCL_HOME=..."
MPI_MISSING="MPI not found: install libmpich-dev or libopenmpi-dev, set MPI_HOME=..., or run make mpich"
# The two steps' folders, from multi/multi.mk (exported; asked for when run outside make)
one_process_step=${MULTI_ONE_PROCESS_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_ONE_PROCESS_STEP)}
rank_per_gpu_step=${MULTI_RANK_PER_GPU_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_RANK_PER_GPU_STEP)}
}
# mpi_launcher: the mpiexec of the MPI that step 13 was built with (multi/multi.mk), or
# nothing: another MPI's mpiexec would start N programs that each think they are alone
mpi_launcher() { make -s --no-print-directory -C "$rank_per_gpu_step" mpiexec-path 2> /dev/null || true; }
# mpi_run LAUNCHER RANKS PROGRAM ARGS...: RANKS ranks of PROGRAM on this machine, as every
# run of step 13 here (the tests, make scaling) starts them. Open MPI refuses to run as root
# and to start more ranks than there are cores unless told (CI runs as root on two cores),
# and binds each of one or two ranks to one core, where a rank's input would be made on one
# thread (common/data.c): on the H100's host, Open MPI 4.1.6 gave a lone rank
# Cpus_allowed_list 0, and 0-15 with OMPI_MCA_hwloc_base_binding_policy=none. Open MPI 5's
# launcher (PRRTE) reads PRTE_MCA_hwloc_default_binding_policy instead (its source's name;
# not run here). MPICH ignores these variables and binds nothing unless asked.
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
