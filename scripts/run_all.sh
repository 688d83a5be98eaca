#!/usr/bin/env bash
# make run-all and make sweep (their help lines say what; results/run-all_float.* for TYPE=float):
# the programs one at a time with progress, then the report's table and chart; exit 1 if any
# failed. run-all: each folder's ./reduce at N, else each program it builds (make -C DIR programs:
# the newest CUB's modes); a folder that builds none is named. --sweep: SWEEP_PROGRAMS over SIZES.
# Usage: scripts/run_all.sh DIR...   or   scripts/run_all.sh --sweep PROGRAM...   (the int
# build's paths; SUFFIX picks the type)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
suffix=${SUFFIX-} reps=${REPS:-20} device=${DEVICE:-0}
what=run-all sizes=${N:-2^26}
if [ "${1:-}" = --sweep ]; then
    shift
    what=sweep sizes=${SIZES:-2^16 2^18 2^20 2^22 2^24 2^26 2^28}
fi
[ $# -gt 0 ] || usage "scripts/run_all.sh [--sweep] DIR|PROGRAM... (or: make run-all, make sweep)"
mkdir -p results
raw=results/$what${suffix}-rows.csv
rm -f "$raw"

programs=()
for arg in "$@"; do
    program=$arg/reduce
    [ "$what" = run-all ] || program=$arg
    if [ -x "./$program$suffix" ]; then programs+=("$program$suffix"); continue; fi
    built=""
    [ "$what" = sweep ] || built=$(make --no-print-directory -s -C "$arg" programs)
    for program in $built; do programs+=("$arg/$program"); done
    [ -n "$built" ] || echo "skipped $arg: it built no program here (the newest CUB's need make cccl)"
done

i=0 failed=0
for n in $sizes; do
    [ "$what" = run-all ] || printf 'n = %-6s' "$n"
    for program in "${programs[@]}"; do
        i=$((i + 1))
        [ "$what" = sweep ] || printf '[%2d/%d] %-40s ' "$i" "${#programs[@]}" "${program%/reduce"$suffix"}"
        start=$(date +%s%N) status=0
        "./$program" -n "$n" -r "$reps" --device "$device" --quiet --csv "$raw" 2> "results/$what-err.txt" ||
            status=$?
        seconds=$(( ($(date +%s%N) - start) / 1000000 ))
        case $status:$what in
            0:sweep) printf ' .' ;;
            0:*) printf 'verified  (%d.%03d s)\n' $((seconds / 1000)) $((seconds % 1000)) ;;
            # no GPU, or bad input: not the step's failure, and every program would say it: stop
            2:*|3:*) echo " $program not run"; cat "results/$what-err.txt" >&2; exit "$status" ;;
            *:sweep) printf ' %s FAILED (exit %d)' "$program" "$status"; cat "results/$what-err.txt" >&2; failed=1 ;;
            *) printf 'FAILED, exit code %d\n' "$status"; cat "results/$what-err.txt" >&2; failed=1 ;;
        esac
    done
    [ "$what" = run-all ] || echo
done
echo
reference=$(references "${programs[@]/#/./}")   # vs CUB: the fastest of these (at each size)
if [ "$what" = sweep ]; then
    build/tools/report sweep "$raw" "results/sweep${suffix}.csv" "results/sweep${suffix}.svg" "$reference" || failed=1
    exit "$failed"
fi
# the rows, by the names the programs give them
names=()
for program in "${programs[@]}"; do
    name=$(describe "./$program" name)
    names+=("${name:-$program}")
done
build/tools/report run "$raw" "results/run-all${suffix}.csv" "results/run-all${suffix}.svg" "$reference" "${names[@]}" ||
    failed=1

# the extensions' tables after the core's (RUN_ALL_EXTRAS: a script each, from its .mk file)
for extra in $(make_var RUN_ALL_EXTRAS); do
    "$extra" "$raw" || failed=1
done
exit "$failed"
