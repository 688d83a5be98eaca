# Sourced by the step-12 scripts: visible_gpus prints how many GPUs CUDA will show a
# program (CUDA_VISIBLE_DEVICES when set, else nvidia-smi's list; 0 without a driver).
visible_gpus() {
    if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
        echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[0-9]'
    else
        nvidia-smi -L 2>/dev/null | grep -c '^GPU'
    fi
}
# gpu_counts ALL: 1 2 4 ... below ALL, then ALL
gpu_counts() {
    local g=1 list=""
    while [ "$g" -lt "$1" ]; do list="$list $g"; g=$((g * 2)); done
    echo $list "$1"
}
