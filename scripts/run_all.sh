#!/usr/bin/env bash
# make run-all: runs every program on the same input, one at a time with progress, then
# prints Harris's table and writes results/run-all.csv and results/run-all.svg
# (results/run-all_float.* for TYPE=float). Exits 1 if any program failed.
# With 2+ GPUs it adds step 12 on G = 1, 2, ... all of them (results/run-all-multi-rows.csv),
# with the speedup over step 11 on one GPU; with one GPU, one line says so.
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

# step 12, where the course has it (the Makefile lists a step 12) and it was built
multi_dir=$(step_dir 12 || true)
gpus=$(visible_gpus)
echo
if [ -z "$multi_dir" ]; then
    echo "no step 12 in this course: no multi-GPU table"
elif [ ! -x "$multi_dir/reduce$suffix" ]; then
    echo "$multi_dir: not built ($NCCL_MISSING), no multi-GPU table"
elif [ "$gpus" -lt 2 ]; then
    echo "$multi_dir: one GPU here, so no multi-GPU table (it needs 2 or more; make scaling too)"
else
    multi_program=$multi_dir/reduce$suffix
    multi_raw=results/run-all-multi${suffix}-rows.csv
    rm -f "$multi_raw"
    for g in $(seq 1 "$gpus"); do
        "./$multi_program" -n "$n" --gpus "$g" -r "$reps" --quiet --csv "$multi_raw" ||
            { echo "$multi_dir --gpus $g: FAILED"; failed=1; }
    done
    # step 12's speedup is over the step each of its GPUs runs, as it says (--describe)
    build/tools/report multi "$multi_raw" "$raw" "$(describe "./$multi_program" shard_step)" || failed=1
fi
exit "$failed"
