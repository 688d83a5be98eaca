#!/usr/bin/env bash
# make sanitize: compute-sanitizer's memcheck, racecheck, synccheck and initcheck on every program, at the
# runs its --describe names (sanitize_runs); any error or racecheck warning fails. A folder's build may add
# flags (make -C DIR sanitize-flags, common/step.mk).
# Usage: scripts/sanitize.sh PROGRAM_DIR...
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
need_tool compute-sanitizer "make sanitize" > /dev/null
mkdir -p results/sanitize
failed=0 runs=0
for dir in "$@"; do
    program_flags="" memcheck_flags=""
    { read -r program_flags; read -r memcheck_flags; } < <(make -s --no-print-directory -C "$dir" sanitize-flags) || true
    for name in $(make -s --no-print-directory -C "$dir" programs); do
        program=$dir/$name
        [ -x "$program" ] || continue
        # the program's own runs for the sanitizers: "N [FLAG...]" separated by ';' (--describe)
        IFS=';' read -ra own_runs <<< "$(describe "$program" sanitize_runs)"
        [ ${#own_runs[@]} -gt 0 ] || { echo "FAILED  $program: its --describe gives no sanitize_runs"; failed=$((failed + 1)); }
        for tool in memcheck racecheck synccheck initcheck; do
            for run in "${own_runs[@]}"; do
                read -r n run_flags <<< "$run"
                runs=$((runs + 1))
                log=results/sanitize/$(echo "$program" | tr / _)-$tool-$n.log
                tool_flags=()
                read -ra args <<< "$program_flags $run_flags"
                [ "$tool" = memcheck ] && read -ra tool_flags <<< "$memcheck_flags"
                if sanitizer_run "$tool" "${tool_flags[@]}" -- "./$program" "${args[@]}" -n "$n" -r 2 > "$log" 2>&1; then
                    printf 'ok      %-44s %-9s n=%s\n' "$program" "$tool" "$run"
                else
                    printf 'FAILED  %-44s %-9s n=%s: %s\n' "$program" "$tool" "$run" \
                        "$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|Error|Warning' "$log" || true)"
                    failed=$((failed + 1))
                fi
            done
        done
    done
done
echo "make sanitize: $runs runs, $failed failed (logs in results/sanitize/)"
[ "$failed" -eq 0 ]
