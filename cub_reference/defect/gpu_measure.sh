#!/usr/bin/env bash
# Issue 38's GPU measurements (several minutes on an H100) under $OUT (or results/defect): the reproducer,
# released and patched (make cub-defect), at the issue's sizes and around this GPU's thresholds; --check of
# gpu_to_gpu (both), run_to_run and step 14 there; the issue's runs (--seed 1 --print-sum); make sweep of
# gpu_to_gpu both ways up to 2^29. Needs build/cccl (make cccl) and a GPU; no network.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit
out=${OUT:-results/defect}
mkdir -p "$out"
summary=$out/summary.txt
note() { echo "$*" | tee -a "$summary"; }
: > "$summary"
note "$(date -u +%F\ %T) commit $(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || echo "no nvidia-smi"; } | tee -a "$summary"
note "== build: make cub-defect (patched copy, reproducers), then CUB, step 11 and step 14 for float and double"
DEFECT_SIZES=1000 make --no-print-directory cub-defect > "$out/build.txt" 2>&1
for type in float double; do
    make --no-print-directory -j16 TYPE=$type cub_reference/newest step11_single_pass step14_same_bits build/tools/report \
        >> "$out/build.txt" 2>&1
done
newest=cub_reference/newest
# --check at the issue's sizes; the reproducer (about a minute: its host adds the data) also
# either side of where this GPU's threads pass endurance(): at `from` one does, at `every` all
sizes_float="2^30+5 2^31+5" sizes_double="2^31+5 2^31-2" around=""
for type in float double; do
    from=$("$newest/reduce_gpu_to_gpu_$type" --describe | sed -n 's/^gpu_to_gpu_exposed_from=//p')
    every=$("$newest/reduce_gpu_to_gpu_$type" --describe | sed -n 's/^gpu_to_gpu_every_thread_exposed_from=//p')
    note "$type: a thread deposits more than endurance() from n=$from, every thread from n=$every (0: no n)"
    [ "${from:-0}" -gt 1 ] && around+=" $((from - 1)) $from"
    [ "${every:-0}" -gt 0 ] && around+=" $every"
done
note "== the reproducer (float and double at each size), released then patched headers"
for build in released patched; do
    # shellcheck disable=SC2086 # the sizes are words
    build/defect/gpu_to_gpu_repro_$build $sizes_float $sizes_double $around 2>&1 | tee -a "$summary" || true
done
for type in float double; do
    sizes=sizes_$type
    list=$(tr ' ' ',' <<< "${!sizes}")
    note "== $type --check $list"
    programs=("$newest/reduce_gpu_to_gpu" "$newest/reduce_gpu_to_gpu_renorm")
    # run_to_run and step 14 for float, where the issue compares them (doubles: make test's)
    [ "$type" = float ] && programs+=("$newest/reduce_run_to_run" step14_same_bits/reduce)
    for p in "${programs[@]}"; do
        status=0
        "./${p}_$type" --check "$list" --verdicts "$out/verdicts-${p//\//_}-$type.txt" > "$out/check-${p//\//_}-$type.txt" 2>&1 ||
            status=$?
        note "$p $type: exit $status: $(tr '\n' ' ' < "$out/verdicts-${p//\//_}-$type.txt" 2> /dev/null)"
        grep -m2 -E 'FAILED' "$out/check-${p//\//_}-$type.txt" | tee -a "$summary" || true
    done
done
note "== the issue's runs: --seed 1 --print-sum -r 1, float at 2^30+5 and 2^31+5, double at 2^31+5"
for run in "float 2^30+5" "float 2^31+5" "double 2^31+5"; do
    read -r type n <<< "$run"
    for p in step11_single_pass/reduce step14_same_bits/reduce $newest/reduce_run_to_run $newest/reduce_gpu_to_gpu \
             $newest/reduce_gpu_to_gpu_renorm; do
        note "$type n=$n $p: $("./${p}_$type" -n "$n" --seed 1 --print-sum -r 1 --quiet 2>&1 | tail -1)"
    done
done
note "== timing: gpu_to_gpu released against patched (scripts/sweep.sh, median of 20 runs)"
for type in float double; do
    TYPE=$type SUFFIX=_$type SIZES="2^20 2^24 2^26 2^28 2^29" REPS=20 \
        scripts/sweep.sh $newest/reduce_gpu_to_gpu $newest/reduce_gpu_to_gpu_renorm 2>&1 | tee -a "$summary" || true
    cp "results/sweep_$type.csv" "$out/sweep_$type.csv" 2> /dev/null || true
done
note "done: $out"
