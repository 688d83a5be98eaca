#!/usr/bin/env bash
# make scaling (its help line says what; results/scaling_float.* for floats; the network
# transport: multi/multi.sh's NETWORK_ENV). A size that does not fit is skipped and said so.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
. multi/multi.sh
suffix=${SUFFIX-}
reps=${REPS:-20}
sizes=${SCALING_SIZES:-2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30}
program=$one_process_step/reduce$suffix ranks_program=$rank_per_gpu_step/reduce$suffix
[ -x "$program" ] || { echo "make scaling: $program was not built: $NCCL_MISSING" >&2; exit 2; }
[ -x "$ranks_program" ] || ranks_program=""   # step 13 is optional beside step 12 (no MPI)
launcher=$(mpi_launcher)
all=$(visible_gpus)
[ "$all" -ge 1 ] || { echo "make scaling: no GPU here (nvidia-smi lists none); run it on a machine with NVIDIA GPUs" >&2; exit 3; }
counts=$(gpu_counts "$all")
mkdir -p results
raw=results/scaling${suffix}-rows.csv
rm -f "$raw"
echo "step12 on G = $counts GPUs, n = $sizes; step15 (the combine in the kernel) too where built"
[ -z "$ranks_program" ] || echo "step13 (one MPI rank per GPU, $launcher) on the same G, and over the network transport on G >= 2"
[ -n "$ranks_program" ] || echo "step13: not built ($MPI_MISSING), so only step 12"
failed=0
# measure LABEL COMMAND...: one run, its row appended to $raw; says how it went in a word
measure() {
    local label=$1 status=0
    shift
    "$@" -n "$n" -r "$reps" --quiet --csv "$raw" 2> results/scaling-err.txt || status=$?
    case $status in
        0) printf ' %s .' "$label" ;;
        2) printf ' %s does not fit' "$label" ;;
        3) echo; cat results/scaling-err.txt >&2; exit 3 ;;
        *) printf ' %s FAILED (exit %d: %s)' "$label" "$status" "$(head -c 200 results/scaling-err.txt)"; failed=1 ;;
    esac
}
for n in $sizes; do
    printf 'n = %-6s' "$n"
    for p in "$program" "$kernel_step/reduce$suffix"; do   # step 15 where it was built
        [ ! -x "$p" ] || for g in $counts; do measure "${p%%_*} G=$g" "./$p" --gpus "$g"; done
    done
    for p in "$ranks_program" "$kernel_step/rank_per_gpu/reduce$suffix"; do
        [ ! -x "$p" ] || for g in $counts; do measure "${p%%_*} ranks=$g" "${MPI_RUN[@]}" "$launcher" -n "$g" "./$p"; done
    done
    for g in $counts; do   # step 13 over the network transport
        [ -z "$ranks_program" ] || [ "$g" -lt 2 ] || measure "ranks=$g,network" "${MPI_RUN[@]}" "${NETWORK_ENV[@]}" \
            "$launcher" -n "$g" "./$ranks_program"
    done
    echo
done
echo
build/tools/multi_report scaling "$raw" "results/scaling${suffix}.csv" "results/scaling${suffix}.svg" || failed=1
[ "$all" -ge 2 ] || echo "(one GPU here: the table has G = 1 only; the scaling needs 2 or more)"
exit "$failed"
