#!/usr/bin/env bash
# make sanitize: compute-sanitizer's memcheck, racecheck, synccheck and initcheck on every
# program at small sizes (one of them not a multiple of any block size). Any error, and
# any racecheck warning (warp-level hazards are warnings), fails: --error-exitcode makes
# the tool exit non-zero for both.
# The multi-GPU programs (steps 12, 13: their --describe says multi_gpu=1) run on one GPU:
# step 12 with --gpus 1, step 13 as a single MPI rank
# (without NCCL nothing is built for it, so nothing is run), and memcheck does not report
# its API errors: NCCL asks cudaFuncGetAttributes about kernels built for other GPUs and
# handles "no kernel image" itself (seen on H200); the program checks every call of its
# own and exits 4 on any error, which still fails here.
# Usage: scripts/sanitize.sh PROGRAM_DIR...
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
if ! find_sanitizer > /dev/null; then
    echo "make sanitize: $SANITIZER_MISSING" >&2
    exit 2
fi
mkdir -p results/sanitize
failed=0 runs=0
for dir in "$@"; do
    for name in $(make -s --no-print-directory -C "$dir" programs); do
        program=$dir/$name
        [ -x "$program" ] || continue
        multi_gpu=$(describe "$program" multi_gpu) processes=$(describe "$program" processes)
        for tool in memcheck racecheck synccheck initcheck; do
            for n in 1000 4099; do
                runs=$((runs + 1))
                log=results/sanitize/$(echo "$program" | tr / _)-$tool-$n.log
                tool_flags=() args=()
                if [ "$multi_gpu" = 1 ]; then   # one GPU: step 11 + NCCL's one-rank all-reduce
                    # (step 13 runs as one MPI rank, started without mpiexec: its GPUs are its ranks)
                    [ "$processes" = one ] && args=(--gpus 1)
                    [ "$tool" = memcheck ] && tool_flags=(--report-api-errors no)
                fi
                if sanitizer_run "$tool" "${tool_flags[@]}" -- "./$program" "${args[@]}" -n "$n" -r 2 > "$log" 2>&1; then
                    printf 'ok      %-44s %-9s n=%s\n' "$program" "$tool" "$n"
                else
                    printf 'FAILED  %-44s %-9s n=%s: %s\n' "$program" "$tool" "$n" \
                        "$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|Error|Warning' "$log" || true)"
                    failed=$((failed + 1))
                fi
            done
        done
    done
done
echo "make sanitize: $runs runs, $failed failed (logs in results/sanitize/)"
[ "$failed" -eq 0 ]
