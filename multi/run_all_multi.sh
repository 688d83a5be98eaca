#!/usr/bin/env bash
# make run-all's multi-GPU table (RUN_ALL_EXTRAS): with 2+ GPUs, steps 12 and 15 on G = 1, 2, ...
# all (results/run-all-multi-rows.csv), sped up over the step each GPU runs (--describe) in run-all's
# rows; else one line says why not. Exits 1 if a run failed. Usage: multi/run_all_multi.sh RUN-ALL-ROWS.csv
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh
. multi/multi.sh
raw=$1
suffix=${SUFFIX-}
program=$one_process_step/reduce$suffix   # multi/multi.sh: step 12's folder
multi_raw=results/run-all-multi${suffix}-rows.csv
gpus=$(visible_gpus)
failed=0
echo
if [ ! -x "$program" ]; then
    echo "$one_process_step: not built ($NCCL_MISSING), no multi-GPU table"
elif [ "$gpus" -lt 2 ]; then
    echo "$one_process_step: one GPU here, so no multi-GPU table (it needs 2 or more; make scaling too)"
else
    rm -f "$multi_raw"
    for p in "$program" "$kernel_step/reduce$suffix"; do   # step 15 where it was built (NCCL 2.28)
        for g in $(seq 1 "$gpus"); do
            [ ! -x "$p" ] || "./$p" -n "${N:-2^26}" --gpus "$g" -r "${REPS:-20}" --quiet --csv "$multi_raw" ||
                { echo "$p --gpus $g: FAILED"; failed=1; }
        done
    done
    build/tools/multi_report multi "$multi_raw" "$raw" "$(describe "./$program" shard_step)" || failed=1
fi
exit "$failed"
