#!/usr/bin/env bash
# make sweep: the programs the top Makefile names (SWEEP_PROGRAMS) over SIZES, to show where
# each wins.
# Usage: scripts/sweep.sh PROGRAM...   (paths of the int build; SUFFIX picks the type)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # references, usage
suffix=${SUFFIX-}
reps=${REPS:-20}
device=${DEVICE:-0}
sizes=${SIZES:-2^16 2^18 2^20 2^22 2^24 2^26 2^28}
[ $# -gt 0 ] || usage "scripts/sweep.sh PROGRAM... (or: make sweep)"
programs=()
for program in "$@"; do
    if [ -x "./$program$suffix" ]; then programs+=("$program")
    else echo "skipped $program$suffix: not built (the newest CUB's programs need make cccl)"; fi
done
mkdir -p results
raw=results/sweep${suffix}-rows.csv
rm -f "$raw"

failed=0
for n in $sizes; do
    printf 'n = %-6s' "$n"
    for program in "${programs[@]}"; do
        status=0
        "./$program$suffix" -n "$n" -r "$reps" --device "$device" --quiet --csv "$raw" || status=$?
        case $status in
            0) printf ' .' ;;
            # no GPU, or bad input (the program said which): not the step's failure, stop
            2|3) echo " $program not run"; exit "$status" ;;
            *) printf ' %s FAILED (exit %d)' "$program" "$status"; failed=1 ;;
        esac
    done
    echo
done
echo
paths=("${programs[@]/#/./}")
reference=$(references "${paths[@]/%/$suffix}")   # vs CUB: the fastest of these at each size
build/tools/report sweep "$raw" "results/sweep${suffix}.csv" "results/sweep${suffix}.svg" "$reference" || failed=1
exit "$failed"
