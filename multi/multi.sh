# shellcheck shell=bash
# Sourced after scripts/gpus.sh by the multi-GPU scripts and tests: what they share of the
# multi-GPU steps. No `set` here: the sourcing script's options hold.

# shellcheck disable=SC2034  # read by the scripts that source this file
{
# What to do where a step was not built (multi/multi.mk skips it without NCCL, MPI)
NCCL_MISSING="NCCL not found: install libnccl-dev or set NCCL_HOME=..."
MPI_MISSING="MPI not found: install libmpich-dev or libopenmpi-dev, set MPI_HOME=..., or run make mpich"
# The steps' folders (12, 13, 15), from multi/multi.mk (exported; asked for when run outside make)
one_process_step=${MULTI_ONE_PROCESS_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_ONE_PROCESS_STEP)}
rank_per_gpu_step=${MULTI_RANK_PER_GPU_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_RANK_PER_GPU_STEP)}
kernel_step=${MULTI_KERNEL_STEP:-$(make -s --no-print-directory -C "$REPO_ROOT" print-MULTI_KERNEL_STEP)}
# "${MPI_RUN[@]}" LAUNCHER -n RANKS PROGRAM ARGS...: every MPI run here (tests, make scaling).
# Open MPI refuses root and more ranks than cores unless told (CI: root, two cores), and binds ranks to
# a core each, where a rank makes its input on one thread (common/data.c; Open MPI 5's PRRTE: PRTE_); MPICH ignores them.
MPI_RUN=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
         OMPI_MCA_hwloc_base_binding_policy=none PRTE_MCA_hwloc_default_binding_policy=none)
# After MPI_RUN: NCCL off NVLink and shared memory, on its network transport (sockets, InfiniBand) on one box
NETWORK_ENV=(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)
}
# mpi_launcher: the mpiexec of step 13's MPI (multi.mk), or nothing: another MPI's would start N lone programs
mpi_launcher() { make -s --no-print-directory -C "$rank_per_gpu_step" mpiexec-path 2> /dev/null || true; }
