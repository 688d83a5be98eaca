#!/usr/bin/env bash
# make latency: what step 12's combine costs, on all visible GPUs, one value per GPU:
# the gate and events alone, step 11 alone, the whole step, the all-reduce alone,
# ncclReduce to GPU 0, registered buffers, a CUDA graph (step12 --latency), first with
# NCCL's own choices, then under each NCCL_PROTO (LL, LL128, Simple) and NCCL_ALGO (Ring,
# Tree). Ends with one line per setting: the all-reduce alone (combine_ms of the row each
# run appends with --csv, read by column name). Writes results/latency.txt.
# LATENCY_REPS=200 by default (small times need many runs for a tight median).
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
suffix=${SUFFIX-}
##= LATENCY_REPS=200: runs per variant of make latency (small times need many for a tight median)
reps=${LATENCY_REPS:-200}
program=$(step12_program latency) || exit 2
mkdir -p results
out=results/latency${suffix}.txt
: > "$out"
failed=0
summary=()
for setting in "" NCCL_PROTO=LL NCCL_PROTO=LL128 NCCL_PROTO=Simple NCCL_ALGO=Ring NCCL_ALGO=Tree; do
    status=0
    rm -f results/latency-row.csv
    env ${setting:+"$setting"} "./$program" --latency -r "$reps" --warmup 20 --csv results/latency-row.csv \
        > results/latency-one.txt 2>&1 || status=$?
    tee -a "$out" < results/latency-one.txt
    echo | tee -a "$out"
    [ "$status" -eq 3 ] && exit 3
    [ "$status" -eq 0 ] || failed=1
    line=""
    if [ -f results/latency-row.csv ]; then
        line=$(build/tools/report field results/latency-row.csv combine_ms | awk '{ printf "%.1f", $1 * 1000 }')
    fi
    label=${setting:-"NCCL's own choice"}
    summary+=("$(printf '%-20s %10s' "$label" "${line:-failed (exit $status)}")")
done
{
    echo "The all-reduce of one value alone, median us, $(visible_gpus) GPUs:"
    printf '%s\n' "${summary[@]}"
} | tee -a "$out"
echo "Wrote $out"
exit "$failed"
