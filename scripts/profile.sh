#!/usr/bin/env bash
# make profile: Nsight Compute on the first (largest) pass of each program at a fixed size, one
# table of the metrics the steps' ideas move and how many kernels one sum launches, the card's
# clocks as they are (--clock-control none); make lab-check PROFILE=1: the student's copy and ours.
# Usage: scripts/profile.sh PROGRAM_DIR...   (PROFILE_N, DEVICE; a PROGRAM_DIR may be a path,
# e.g. a lab copy; PROFILE_CALLER names the caller in errors)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
suffix=${SUFFIX-}
##= PROFILE_N=2^24: the size make profile runs Nsight Compute on
n=${PROFILE_N:-2^24}
. scripts/gpus.sh
caller=${PROFILE_CALLER:-make profile}
device=${DEVICE:-0}
ncu=$(need_tool ncu "$caller")

# column title | metric (checked against `ncu --query-metrics` on an H100). Pred-on thr
# counts only lanes whose predicate is on: nvcc turns short divergent `if`s into predication,
# so divergence shows there rather than as divergent branches. Barrier/warp: the lines under
# the table say what (step 7 on an H100: about 1,850).
columns=(
    "Thr/inst|smsp__average_thread_inst_executed_per_inst_executed.ratio"
    "Pred-on thr|smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio"
    "Uniform br %|smsp__sass_average_branch_targets_threads_uniform.pct"
    "Divergent br|smsp__sass_branch_targets_threads_divergent.sum"
    "Shm ld confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    "Shm st confl|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    "Instructions|smsp__inst_executed.sum"
    "Barrier/warp|smsp__average_warp_latency_issue_stalled_barrier.ratio"
    "DRAM % peak|dram__throughput.avg.pct_of_peak_sustained_elapsed"
    "Occupancy %|sm__warps_active.avg.pct_of_peak_sustained_active"
    "Waves/SM|launch__waves_per_multiprocessor"
    "Time (us)|gpu__time_duration.sum"
)
metrics=$(printf '%s\n' "${columns[@]}" | cut -d'|' -f2 | paste -sd,)

mkdir -p results/profile
width=24   # the program column: as wide as the longest name given
for dir in "$@"; do [ "${#dir}" -le "$width" ] || width=${#dir}; done
printf '%-*s' "$width" "Program"
for c in "${columns[@]}"; do printf ' %13s' "${c%%|*}"; done
printf ' %13s\n' "Launches"
# ncu_csv OUT.csv METRICS [NCU FLAGS...]: ncu's raw CSV of the program's kernels named
# "educe" (header, units, a row per launch) in OUT.csv, its log beside
ncu_csv() {
    local out=$1 metric_list=$2
    shift 2
    "$ncu" --clock-control none --metrics "$metric_list" --kernel-name-base function --kernel-name regex:educe \
        "$@" --csv --page raw "$program" -n "$n" -r 1 --warmup 0 --hot --no-gate --quiet --device "$device" \
        > "$out.log" 2>&1 || return 1
    grep -E '^"' "$out.log" > "$out" || true
}
status=0
for dir in "$@"; do
    program=$dir/reduce$suffix
    [[ $program == /* ]] || program=./$program
    csv=results/profile/${dir//\//_}$suffix.csv
    # the first launch: a step's first pass, CUB's first kernel; then every launch of one
    # sum, counted (the units row and the header are not launches)
    if ! ncu_csv "$csv" "$metrics" --launch-count 1 || ! ncu_csv "$csv.launches" gpu__time_duration.sum; then
        echo "$caller: ncu failed on $dir: $(grep -h -m1 -E 'ERR|rror' "$csv.log" "$csv.launches.log" 2> /dev/null || true)" >&2
        status=1
        continue
    fi
    if [ "$(wc -l < "$csv")" -lt 3 ]; then
        echo "$caller: ncu read no counters for $dir: $(grep -m1 -E 'ERR|rror|WARN' "$csv.log" || true)" >&2
        status=1
        continue
    fi
    launches=$(($(wc -l < "$csv.launches") - 2))
    # each metric's column found by its name in the header; a metric with no column, or a
    # row not as wide as the header, is an error that names it (never a wrong figure)
    awk -v dir="$dir" -v width="$width" -v metrics="$metrics" -v launches="$launches" -v caller="$caller" -F'","' '
        function broken(what) { printf "%s: ncu CSV for %s (%s): %s\n", caller, dir, FILENAME, what > "/dev/stderr"; bad = 1; exit 1 }
        NR == 1 {
            if ($0 !~ /^"/) broken("the header is not a row of quoted names: " substr($0, 1, 80))
            for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); column[$i] = i }
            columns = NF
            m = split(metrics, names, ",")
            for (k = 1; k <= m; k++) if (!(names[k] in column)) broken("no column named " names[k])
        }
        NF != columns { broken("row " NR " has " NF " fields, the header " columns) }
        NR == 2 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); unit[i] = $i } }
        NR == 3 {
            printf "%-*s", width, dir
            for (k = 1; k <= m; k++) {
                i = column[names[k]]; v = $i; gsub(/[",]/, "", v)
                if (unit[i] ~ /^(ns|nsecond)$/) v = sprintf("%.1f", v / 1000)
                else if (unit[i] ~ /^(us|usecond)$/) v = sprintf("%.1f", v)
                else if (unit[i] ~ /^(ms|msecond)$/) v = sprintf("%.1f", v * 1000)
                else if (v ~ /\./) v = sprintf("%.2f", v)
                printf " %13s", v
            }
            printf " %13s\n", launches
        }
        END { if (!bad && NR < 3) broken("no row of figures") }' "$csv" || status=1
done
echo
echo "n = $n, first pass of each program (Launches: every kernel of one sum), ncu --clock-control none; raw CSV in results/profile/"
echo "Barrier/warp: the cycles an average warp spends stalled at __syncthreads(), waiting for the other warps of its block,"
echo "over its whole life (not per instruction)"
exit "$status"
