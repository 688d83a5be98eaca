# shellcheck shell=bash
# Sourced by the scripts that meet step 12 (no `set` here: the sourcing script's options
# hold). visible_gpus prints how many GPUs CUDA will show a program (CUDA_VISIBLE_DEVICES
# when set, else nvidia-smi's CSV of GPU indices; 0 without a driver).
visible_gpus() {
    if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
        echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[0-9]' || true
    else
        { nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null || true; } | grep -c '[0-9]' || true
    fi
}
# gpu_counts ALL: 1 2 4 ... below ALL, then ALL
gpu_counts() {
    local g=1 powers=()
    while [ "$g" -lt "$1" ]; do powers+=("$g"); g=$((g * 2)); done
    echo "${powers[@]}" "$1"
}
# What to do where step 12 was not built (common/nccl.mk skips it without NCCL)
NCCL_MISSING="NCCL not found: install libnccl-dev or set NCCL_HOME=..."
# step12_program TARGET: step 12's program of this TYPE, or one line and status 2 when
# NCCL kept it from being built
step12_program() {
    local program=step12_multi_gpu/reduce${SUFFIX-}
    if [ ! -x "$program" ]; then
        echo "make $1: $program was not built: $NCCL_MISSING" >&2
        return 2
    fi
    echo "$program"
}
