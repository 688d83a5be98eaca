#!/usr/bin/env bash
# make scaling: step 12 over SCALING_SIZES (2^20 ... 2^30) on G = 1, 2, 4 ... all visible
# GPUs; a size that does not fit is skipped and said so. Prints time, GB/s in all,
# speedup and efficiency over one GPU, the all-reduce's own time and the crossover size;
# writes results/scaling.csv and results/scaling.svg (results/scaling_float.* for floats).
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
suffix=${SUFFIX-}
reps=${REPS:-20}
sizes=${SCALING_SIZES:-2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30}
program=$(step12_program scaling) || exit 2
all=$(visible_gpus)
if [ "$all" -lt 1 ]; then
    echo "make scaling: no GPU here (nvidia-smi lists none); run it on a machine with NVIDIA GPUs" >&2
    exit 3
fi
counts=$(gpu_counts "$all")
mkdir -p results
raw=results/scaling${suffix}-rows.csv
rm -f "$raw"
echo "step12 on G = $counts GPUs, n = $sizes"
failed=0
for n in $sizes; do
    printf 'n = %-6s' "$n"
    for g in $counts; do
        status=0
        "./$program" -n "$n" --gpus "$g" -r "$reps" --quiet --csv "$raw" 2> results/scaling-err.txt || status=$?
        case $status in
            0) printf ' G=%s .' "$g" ;;
            2) printf ' G=%s does not fit' "$g" ;;
            3) echo; cat results/scaling-err.txt >&2; exit 3 ;;
            *) printf ' G=%s FAILED (exit %d: %s)' "$g" "$status" "$(head -c 200 results/scaling-err.txt)"; failed=1 ;;
        esac
    done
    echo
done
echo
build/tools/report scaling "$raw" "results/scaling${suffix}.csv" "results/scaling${suffix}.svg" || failed=1
[ "$all" -ge 2 ] || echo "(one GPU here: the table has G = 1 only; the scaling needs 2 or more)"
exit "$failed"
