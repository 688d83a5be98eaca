#!/usr/bin/env bash
# make run-all (its help line says what; results/run-all_float.* for TYPE=float): the
# programs one at a time with progress; exit 1 if any failed.
# Usage: scripts/run_all.sh DIR...   each folder's ./reduce, else each program it builds
# (make -C DIR programs: the newest CUB's modes); a folder that builds none is named.
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

programs=()
for dir in "$@"; do
    if [ -x "./$dir/reduce$suffix" ]; then programs+=("$dir/reduce$suffix"); continue; fi
    built=$(make --no-print-directory -s -C "$dir" programs)
    for program in $built; do programs+=("$dir/$program"); done
    [ -n "$built" ] || echo "skipped $dir: it built no program here (the newest CUB's need make cccl)"
done

i=0
failed=0
for program in "${programs[@]}"; do
    i=$((i + 1))
    printf '[%2d/%d] %-40s ' "$i" "${#programs[@]}" "${program%/reduce"$suffix"}"
    start=$(date +%s%N)
    status=0
    "./$program" -n "$n" -r "$reps" --device "$device" --quiet --csv "$raw" 2> results/run-all-err.txt ||
        status=$?
    seconds=$(( ($(date +%s%N) - start) / 1000000 ))
    case $status in
        0) printf 'verified  (%d.%03d s)\n' $((seconds / 1000)) $((seconds % 1000)) ;;
        # no GPU, or bad input: not the step's failure, and every program would say it: stop
        2|3) echo "not run"; cat results/run-all-err.txt >&2; exit "$status" ;;
        *) printf 'FAILED, exit code %d\n' "$status"; cat results/run-all-err.txt >&2; failed=1 ;;
    esac
done
echo
# the rows, by the names the programs give them, each against the fastest reference
names=()
for program in "${programs[@]}"; do
    name=$(describe "./$program" name)
    names+=("${name:-$program}")
done
reference=$(references "${programs[@]/#/./}")
build/tools/report run "$raw" "results/run-all${suffix}.csv" "results/run-all${suffix}.svg" "$reference" "${names[@]}" ||
    failed=1

# the extensions' tables after the core's (RUN_ALL_EXTRAS: a script each, from its .mk file)
for extra in $(make_var RUN_ALL_EXTRAS); do
    "$extra" "$raw" || failed=1
done
exit "$failed"
