#!/usr/bin/env bash
# make run-all: runs every program on the same input, one at a time with progress, then
# prints Harris's table and writes results/run-all.csv and results/run-all.svg
# (results/run-all_float.* for TYPE=float). Exits 1 if any program failed.
# Then each script of RUN_ALL_EXTRAS (the extensions' tables), given the rows.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
suffix=${SUFFIX-}
n=${N:-2^26}
reps=${REPS:-20}
device=${DEVICE:-0}
mkdir -p results
raw=results/run-all${suffix}-rows.csv
rm -f "$raw"

i=0
failed=0
for dir in "$@"; do
    i=$((i + 1))
    printf '[%2d/%d] %-24s ' "$i" "$#" "$dir"
    start=$(date +%s%N)
    status=0
    "./$dir/reduce$suffix" -n "$n" -r "$reps" --device "$device" --quiet --csv "$raw" 2> results/run-all-err.txt ||
        status=$?
    seconds=$(( ($(date +%s%N) - start) / 1000000 ))
    case $status in
        0) printf 'verified  (%d.%03d s)\n' $((seconds / 1000)) $((seconds % 1000)) ;;
        # no GPU, or bad input: not the step's failure, and every program would say the
        # same, so say the program's line and stop here
        2|3) echo "not run"; cat results/run-all-err.txt >&2; exit "$status" ;;
        *) printf 'FAILED, exit code %d\n' "$status"; cat results/run-all-err.txt >&2; failed=1 ;;
    esac
done
echo
# the reference every row is compared with: the program that says it is no step (number -1, CUB)
reference=-
for dir in "$@"; do
    if [ "$(describe "./$dir/reduce$suffix" number)" = -1 ]; then reference=$dir; fi
done
build/tools/report run "$raw" "results/run-all${suffix}.csv" "results/run-all${suffix}.svg" "$reference" "$@" || failed=1

# the extensions' tables after the core's (RUN_ALL_EXTRAS, from their .mk files: a script
# each, given the rows above, e.g. a multi-GPU table)
for extra in $(make_var RUN_ALL_EXTRAS); do
    "$extra" "$raw" || failed=1
done
exit "$failed"
