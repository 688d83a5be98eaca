#!/usr/bin/env bash
# make latency: what combining costs, on all visible GPUs, one value per GPU: the gate and
# events alone, step 11 alone, the whole step, the all-reduce alone, ncclReduce to GPU 0,
# registered buffers, a CUDA graph (--latency). Step 12 (one process drives every GPU)
# first with NCCL's own choices, then under each NCCL_PROTO (LL, LL128, Simple) and
# NCCL_ALGO (Ring, Tree); then, where it was built (MPI), step 13 (one MPI rank per GPU),
# and step 13 over NCCL's network transport (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1, the
# path between nodes). Ends with one line per setup: the all-reduce alone, plain and
# launched as a CUDA graph (combine_ms of the two rows each run appends with --csv, read by
# column name). Writes results/latency.txt.
# LATENCY_REPS=200 by default (small times need many runs for a tight median).
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
. multi/multi.sh
suffix=${SUFFIX-}
##= LATENCY_REPS=200: runs per variant of make latency (small times need many for a tight median)
reps=${LATENCY_REPS:-200}
program=$(multi_gpu_program latency) || exit 2
ranks_program=$(rank_per_gpu_program)
launcher=$(mpi_launcher)
gpus=$(visible_gpus)
mkdir -p results
out=results/latency${suffix}.txt
: > "$out"
failed=0
summary=()
# run_setup LABEL COMMAND...: one --latency run, its table appended to $out, its two
# combine times (plain, CUDA graph) to the summary
run_setup() {
    local label=$1 status=0 plain="" graph=""
    shift
    rm -f results/latency-row.csv
    "$@" --latency -r "$reps" --warmup 20 --csv results/latency-row.csv > results/latency-one.txt 2>&1 || status=$?
    tee -a "$out" < results/latency-one.txt
    echo | tee -a "$out"
    [ "$status" -eq 3 ] && exit 3
    [ "$status" -eq 0 ] || failed=1
    if [ -f results/latency-row.csv ]; then
        { read -r plain; read -r graph; } < <(build/tools/report field results/latency-row.csv combine_ms |
                                                awk '{ printf "%.1f\n", $1 * 1000 }') || true
    fi
    if [ "$status" -eq 0 ] && [ -n "$plain" ]; then
        summary+=("$(printf '%-52s %8s %8s' "$label" "$plain" "${graph:--}")")
    else
        summary+=("$(printf '%-52s %s' "$label" "failed (exit $status)")")
    fi
}
for setting in "" NCCL_PROTO=LL NCCL_PROTO=LL128 NCCL_PROTO=Simple NCCL_ALGO=Ring NCCL_ALGO=Tree; do
    run_setup "step12, one process${setting:+, $setting}" env ${setting:+"$setting"} "./$program"
done
if [ -n "$ranks_program" ]; then
    run_setup "step13, one MPI rank per GPU" mpi_run "$launcher" "$gpus" "./$ranks_program"
    run_setup "step13, one MPI rank per GPU, network transport" network_run "$launcher" "$gpus" "./$ranks_program"
else
    summary+=("step13: not built ($MPI_MISSING)")
fi
{
    echo "The all-reduce of one value alone, median us, $gpus GPUs:"
    printf '%-52s %8s %8s\n' "setup" "plain" "graph"
    printf '%s\n' "${summary[@]}"
} | tee -a "$out"
echo "Wrote $out"
exit "$failed"
