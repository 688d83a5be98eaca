#!/usr/bin/env bash
# make profile: runs Nsight Compute on the first (largest) pass of each program at a
# fixed size and prints one table of the metrics the steps' ideas move. Clocks are left
# as they are (--clock-control none): the card's settings are never changed.
# Usage: scripts/profile.sh PROGRAM_DIR...   (PROFILE_N=2^24 by default)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
suffix=${SUFFIX-}
##= PROFILE_N=2^24: the size make profile runs Nsight Compute on
n=${PROFILE_N:-2^24}
. scripts/gpus.sh
if ! ncu=$(find_ncu); then
    echo "make profile: $NCU_MISSING" >&2
    exit 2
fi

# column title | metric (names checked against `ncu --query-metrics` on an H100):
# threads per executed instruction (32: every lane busy; predicated-off lanes count),
# the same counting only lanes whose predicate is on (nvcc turns short divergent `if`s
# into predication, so divergence shows here rather than as divergent branches),
# branch uniformity and divergent branch targets, shared-memory bank conflicts of loads
# and stores, instructions executed, cycles warps wait at a barrier per instruction,
# DRAM throughput, achieved occupancy and the kernel's time.
columns=(
    "Thr/inst|smsp__average_thread_inst_executed_per_inst_executed.ratio"
    "Pred-on thr|smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio"
    "Uniform br %|smsp__sass_average_branch_targets_threads_uniform.pct"
    "Divergent br|smsp__sass_branch_targets_threads_divergent.sum"
    "Shm ld confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    "Shm st confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    "Instructions|smsp__inst_executed.sum"
    "Barrier stall|smsp__average_warp_latency_issue_stalled_barrier.ratio"
    "DRAM % peak|dram__throughput.avg.pct_of_peak_sustained_elapsed"
    "Occupancy %|sm__warps_active.avg.pct_of_peak_sustained_active"
    "Time (us)|gpu__time_duration.sum"
)
metrics=$(printf '%s\n' "${columns[@]}" | cut -d'|' -f2 | paste -sd,)

mkdir -p results/profile
printf '%-24s' "Program"
for c in "${columns[@]}"; do printf ' %13s' "${c%%|*}"; done
echo
status=0
for dir in "$@"; do
    csv=results/profile/$dir$suffix.csv
    # the first launch whose name contains "educe": a step's first pass, CUB's first kernel
    if ! "$ncu" --clock-control none --metrics "$metrics" --kernel-name-base function \
            --kernel-name regex:educe --launch-count 1 --csv --page raw \
            "./$dir/reduce$suffix" -n "$n" -r 1 --warmup 0 --hot --no-gate --quiet > "$csv.log" 2>&1; then
        echo "make profile: ncu failed on $dir: $(grep -m1 -E 'ERR|rror' "$csv.log" || true)" >&2
        status=1
        continue
    fi
    grep -E '^"' "$csv.log" > "$csv" || true
    if [ "$(wc -l < "$csv")" -lt 3 ]; then
        echo "make profile: ncu read no counters for $dir: $(grep -m1 -E 'ERR|rror|WARN' "$csv.log" || true)" >&2
        status=1
        continue
    fi
    # header row, units row, then the kernel's row: pick the metric columns by name
    awk -v dir="$dir" -v metrics="$metrics" -F'","' '
        NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); column[$i] = i } }
        NR == 2 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); unit[i] = $i } }
        NR == 3 {
            printf "%-24s", dir
            m = split(metrics, names, ",")
            for (k = 1; k <= m; k++) {
                i = column[names[k]]; v = $i; gsub(/[",]/, "", v)
                if (i == "") v = "n/a"
                else if (unit[i] ~ /^(ns|nsecond)$/) v = sprintf("%.1f", v / 1000)
                else if (unit[i] ~ /^(us|usecond)$/) v = sprintf("%.1f", v)
                else if (unit[i] ~ /^(ms|msecond)$/) v = sprintf("%.1f", v * 1000)
                else if (v ~ /\./) v = sprintf("%.2f", v)
                printf " %13s", v
            }
            printf "\n"
        }' "$csv"
done
echo
echo "n = $n, first pass of each program, ncu --clock-control none; raw CSV in results/profile/"
exit "$status"
