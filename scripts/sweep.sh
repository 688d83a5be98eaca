#!/usr/bin/env bash
# make sweep: the designs past Harris over a range of sizes, to show where each wins:
# steps 6 to 10 (several passes; from step 10 on, two), step 11 (one kernel: last block)
# and its two atomic finishes (block atomic, warp atomic), and CUB.
# Writes results/sweep.csv and results/sweep.svg.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # describe
suffix=${SUFFIX-}
reps=${REPS:-20}
device=${DEVICE:-0}
sizes=${SIZES:-2^16 2^18 2^20 2^22 2^24 2^26 2^28}
programs=(step6_multi_add/reduce step7_shuffle/reduce step8_vectorized/reduce
          step9_loads_in_flight/reduce step10_full_wave/reduce step11_single_pass/reduce
          step11_single_pass/atomic_finish/reduce_block_atomic
          step11_single_pass/atomic_finish/reduce_warp_atomic cub_reference/reduce)
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
# the reference: the program that says it is no step (--describe: number -1, CUB)
reference=-
for program in "${programs[@]}"; do
    if [ "$(describe "./$program$suffix" number)" = -1 ]; then reference=$(describe "./$program$suffix" name); fi
done
build/tools/report sweep "$raw" "results/sweep${suffix}.csv" "results/sweep${suffix}.svg" "$reference" || failed=1
exit "$failed"
