# shellcheck shell=bash
# The multi-GPU extension's suite (steps 12, 13, 15), sourced by tests/run.sh (TEST_SUITES)
# after its own sections, with its helpers; the core built SUITE_PROGRAM_DIRS for it. Without
# NCCL, MPI, a GPU, or enough GPUs, each test that needs them is a SKIP line, by name.
# shellcheck disable=SC2154  # tests/run.sh sets $type, $log, $suffix, $dirs ... before it sources this
. multi/multi.sh
section multi-unit
unit_tests multi_unit_tests
section multi-programs
# The programs, as they say they are; a folder that built nothing: why_not DIR, its build's skip line
multi_program="" multi_name="$one_process_step/reduce$suffix"   # step 12, when NCCL was found
rank_program="" rank_name="$rank_per_gpu_step/reduce$suffix"    # step 13, when MPI and NCCL were
why_not() { sed -n 's/^[^ ]*: skipped, //p' "$log/build-${1////_}.txt" 2> /dev/null | grep -m1 . || echo "not built"; }
rank_missing=$(why_not "$rank_per_gpu_step")
for dir in "$one_process_step" "$rank_per_gpu_step"; do
    for program in $(make --no-print-directory -s -C "$dir" TYPE="$type" programs); do
        if [ "$(describe "$dir/$program" multi_gpu)" != 1 ]; then
            fail "multi: $dir/$program says multi_gpu=1 (--describe)" "it says '$(describe "$dir/$program" multi_gpu)'"
        elif [ "$(describe "$dir/$program" processes)" = one_per_gpu ]; then
            rank_program=$dir/$program rank_name=$dir/$program
        else
            multi_program=$dir/$program multi_name=$dir/$program
        fi
    done
done
section multi-diff
# Step 12 includes the one-GPU step just below it and adds its own file, counted without blank
# and comment lines (a comment's `*` is followed by a space, `/` or the end); 13 changes 12's.
first_multi=${one_process_step%%_*}
previous=$(step_dir $((${first_multi#step} - 1)))
files=("$one_process_step"/*.cu "$rank_per_gpu_step"/*.cu)
lines=$(grep -cvE '^[[:space:]]*($|//|/\*|\*/|\*([[:space:]]|$))' "${files[0]}")
name="diff ${previous%%_*} -> $first_multi: ${files[0]} includes $previous/reduce.cu and adds $lines code lines"
if grep -q "#include \"../$previous/reduce.cu\"" "${files[0]}" && [ "$lines" -le 40 ]; then pass "$name (at most 40)"
else fail "$name" "it must include ../$previous/reduce.cu and add at most 40 code lines"; fi
lines=$(diff "${files[0]}" "${files[1]}" | grep -c '^[<>]')
name="diff $first_multi -> ${rank_per_gpu_step%%_*} changes $lines lines"
if [ "$lines" -le 40 ]; then pass "$name (at most 40)"; else fail "$name" "more than 40"; fi
section multi-help
make --no-print-directory help > "$log/multi-help.txt" 2>&1
missing=$(for name in NCCL_HOME MPI_HOME SCALING_SIZES; do grep -q "^  $name=" "$log/multi-help.txt" || printf ' %s' "$name"; done)
[ -z "$missing" ]; result "make help shows the multi-GPU variables (NCCL_HOME, MPI_HOME, SCALING_SIZES)" $? "missing:$missing"
name="README's flags table lists every flag of the multi-GPU programs' --help"
if [ -z "$multi_program" ]; then skip "$name" "NCCL not found"
else
    table=$(awk '/^\| flag \| meaning \|/ { on = 1 } on && !/^\|/ { exit } on' README.md)
    helps=$("$multi_program" --help 2>&1; [ -n "$rank_program" ] && "$rank_program" --help 2>&1)
    flags=$(echo "$helps" | grep -oE -- '(^|[ ,(])(--[a-z][a-z-]*|-[a-z],|2\^K[+-]M)' | sed 's/^[ ,(]//; s/,$//' | sort -u)
    missing=$(for f in $flags; do grep -qF -e "\`$f" -e ", $f" <<< "$table" || echo "$f"; done | tr '\n' ' ')
    [ -n "$table" ] && grep -qx -- '--gpus' <<< "$flags" && [ -z "$missing" ]
    result "$name ($(wc -w <<< "$flags"))" $? "missing: ${missing:-the table, or --gpus in --help}"
fi

visible=$( [ -n "$gpu" ] && visible_gpus || echo 0)
# size_notes G N...: what makes the sizes adversarial on G GPUs, for the test's name
size_notes() {
    [ "$1" = all ] || printf '%s\n' "${@:2}" | awk -v g="$1" '$1 < g { a = "n < G" } g > 1 && $1 % g { b = "n % G != 0" }
        END { s = a (a != "" && b != "" ? ", " : "") b; if (s != "") print " (" s ")" }'
}
# gpu_check NAME G WHY COMMAND... -- SIZE...: --check of COMMAND on G GPUs (all: every GPU), passed when its
# verdicts pass every size, else the failing ones named; SKIP by name when WHY says why not, or too few GPUs
gpu_check() {
    local name=$1 g=$2 why=$3 command=() n failing=""
    shift 3
    while [ "$1" != -- ]; do command+=("$1"); shift; done
    shift
    name="$name: $# sizes$(size_notes "$g" "$@")"
    if [ -z "$why" ] && [ -z "$gpu" ]; then why="no GPU"
    elif [ -z "$why" ] && [ "$g" != all ] && [ "$visible" -lt "$g" ]; then why="needs $g GPUs, this machine has $visible"; fi
    if [ -n "$why" ]; then skip "$name" "$why"; return; fi
    rm -f "$log/verdicts.txt"
    timeout 900 "${command[@]}" --check "$(IFS=,; echo "$*")" --verdicts "$log/verdicts.txt" > "$log/check.txt" \
        2> "$log/check-err.txt"
    for n in "$@"; do grep -qx "check $n pass" "$log/verdicts.txt" 2> /dev/null || failing="$failing $n"; done
    if [ -z "$failing" ]; then pass "$name"; return; fi
    n=${failing# } n=${n%% *}   # the first failing size: what the program said of it
    fail "$name" "failing n:$failing: $(grep -h "n=${n}[ :,]" "$log/check.txt" "$log/check-err.txt" | head -2 | tr '\n' ' ')$(head -c 200 "$log/check-err.txt")"
}
echo "not a zip file" > "$log/not-a-wheel.whl"
make_expect "mpich: MPICH_WHEEL that is not a wheel" 2 "is not a wheel" mpich MPICH_WHEEL="$log/not-a-wheel.whl"
make_expect "mpich: MPICH_WHEEL that does not exist" 2 "no such file" mpich MPICH_WHEEL=/nonexistent/mpich.whl
make_expect "nccl: NCCL_WHEEL that does not exist" 2 "no such file" nccl NCCL_WHEEL=/nonexistent/nccl.whl

# make -C DIR run where the step was skipped: its skip line and a failure (MPICC=: no MPI found)
make_expect "make -C (step 13) run without MPI: the skip line, exit 2" 2 "skipped, MPI not found" \
    -C "$rank_per_gpu_step" run MPICC=
section step12
# the sizes that break reductions (--describe's check_sizes), 2^31+5 apart: on one GPU or rank
all_sizes=$( [ -n "$multi_program" ] && describe "$multi_program" check_sizes | tr , '\n')
mapfile -t sizes < <(awk 'NF && $1 <= 2147483647' <<< "$all_sizes")
mapfile -t huge < <(awk '$1 > 2147483647' <<< "$all_sizes")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 3 257)   # without a program the checks below SKIP, by name
# multi_check G SIZE...: step 12 --check on G GPUs (all: every GPU it sees)
multi_check() {
    local g=$1 args=()
    shift
    [ "$g" = all ] || args=(--gpus "$g")
    gpu_check "gpu $multi_name $type G=$g" "$g" "$( [ -n "$multi_program" ] || echo "${multi_missing:-NCCL not found}")" \
        "$multi_program" "${args[@]}" -- "$@"
}
multi_check 1 "${sizes[@]}" "${huge[@]}"
multi_check 2 "${sizes[@]}"
if [ "$visible" -gt 2 ]; then multi_check all "${sizes[@]}" "${huge[@]}"
else multi_check all 1 3 257 $((2**20 + 7)); fi   # all = 1 or 2 here: a few sizes
# multi_expect EXPECT NAME CODE TEXT ARGS...: EXPECT (expect, gpu_expect) of step 12 ARGS; SKIP where it was not built
multi_expect() {
    if [ -z "$multi_program" ]; then skip "$2" "${multi_missing:-NCCL not found}"; else "$1" "${@:2:3}" "$multi_program" "${@:5}"; fi
}
multi_expect expect "input: $multi_name --gpus 0" 2 "--gpus" --gpus 0 -n 1000
multi_expect expect "input: $multi_name --gpus 99" 2 "--gpus" --gpus 99 -n 1000
multi_expect expect "input: $multi_name --device 0" 2 "CUDA_VISIBLE_DEVICES" --device 0 -n 1000
multi_expect expect "input: $multi_name --device 1" 2 "CUDA_VISIBLE_DEVICES" --device 1 -n 1000
multi_expect expect "input: $multi_name --resources" 2 "$(describe "$multi_program" shard_step)/reduce --resources" --resources
multi_expect gpu_expect "gpu input: $multi_name --gpus above the GPUs there are" 2 "this machine has" --gpus $((visible + 1)) -n 1000
multi_expect gpu_expect "gpu $multi_name --gpus 1: 100 calls in a row, every result verified" 0 "" \
    --gpus 1 -n 2^20+7 -r 100 --warmup 0 --quiet
expect "input: --gpus on a one-GPU step" 2 "unknown option '--gpus'" "$large" --gpus 2 -n 1000
section step13
# One MPI rank per GPU, started with the mpiexec of the MPI it was built with (mpi_launcher)
launcher=$( [ -n "$rank_program" ] && mpi_launcher)
# ranks_expect NAME CODE TEXT RANKS ARGS...: RANKS ranks (ARGS: program, flags) exit CODE in under 30 s, TEXT
# in their output, if CODE is not 0 one line of the program's. SKIP where not built (gpu_: or without a GPU)
ranks_expect() {
    local name=$1 code=$2 text=$3 ranks=$4 start=$SECONDS status took lines
    shift 4
    if [ -z "$rank_program" ]; then skip "$name" "$rank_missing"; return; fi
    timeout 60 "${MPI_RUN[@]}" "$launcher" -n "$ranks" "$@" > "$log/out.txt" 2> "$log/err.txt"
    status=$? took=$((SECONDS - start))
    lines=$(grep -c "^$rank_program: " "$log/err.txt")
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status after $took s, expected $code: $(head -c 300 "$log/err.txt")"
    elif [ "$took" -ge 30 ]; then
        fail "$name" "took $took s"
    elif [ "$code" -ne 0 ] && [ "$lines" -ne 1 ]; then
        fail "$name" "expected one line from the program, got $lines: $(head -c 300 "$log/err.txt")"
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$log/err.txt" "$log/out.txt"; then
        fail "$name" "no '$text' in the output: $(head -c 300 "$log/err.txt")"
    else
        pass "$name ($took s)"
    fi
}
gpu_ranks_expect() { if [ -z "$gpu" ] && [ -n "$rank_program" ]; then skip "$1" "no GPU"; else ranks_expect "$@"; fi; }
# rank_script FILE LINE: $log/FILE, which runs LINE ($rank: its rank) and then its arguments
rank_script() {
    # shellcheck disable=SC2016  # the script written expands its own variables
    printf '%s\n' '#!/usr/bin/env bash' 'rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-0}}}' "$2" 'exec "$@"' > "$log/$1"
    chmod +x "$log/$1"
}
# rank_check G SIZE...: step 13 --check on G ranks (NETWORK=1: over NCCL's network transport)
rank_check() {
    local g=$1 how="" network=()
    shift
    if [ "${NETWORK:-0}" = 1 ]; then how=", network transport" network=("${NETWORK_ENV[@]}"); fi
    gpu_check "gpu $rank_name $type ranks=$g$how" "$g" "$( [ -n "$rank_program" ] || echo "$rank_missing")" \
        "${MPI_RUN[@]}" "${network[@]}" "$launcher" -n "$g" "$rank_program" -- "$@"
}
ranks_expect "input: $rank_name 2 ranks --bogus" 2 "--bogus" 2 "$rank_program" --bogus
ranks_expect "input: $rank_name 2 ranks -n 0" 2 "at least 1" 2 "$rank_program" -n 0
ranks_expect "input: $rank_name 2 ranks --gpus 2" 2 "mpiexec -n G" 2 "$rank_program" --gpus 2 -n 1000
ranks_expect "input: $rank_name ranks given different flags" 2 "different flags" 1 "$rank_program" -n 1000 \
    : -n 1 "$rank_program" -n 2000
# rank 0 sees no GPU (CUDA_VISIBLE_DEVICES empty), rank 1 every GPU: both stop, one line
# shellcheck disable=SC2016  # $rank: the script's own
rank_script rank0_without_gpu.sh '[ "$rank" = 0 ] && export CUDA_VISIBLE_DEVICES='
ranks_expect "input/gpu $rank_name: a rank without a GPU stops every rank" 3 "rank 0 of 2" 2 \
    "$log/rank0_without_gpu.sh" "$rank_program" -n 1000
if [ -n "$gpu" ]; then skip "input $rank_name: no GPU: every rank stops, one line" "a GPU is here"
else ranks_expect "input $rank_name: no GPU: every rank stops, one line" 3 "" 2 "$rank_program" -n 1000; fi
gpu_ranks_expect "gpu input: $rank_name more ranks than GPUs" 2 "one rank per GPU" $((visible + 1)) "$rank_program" -n 1000
gpu_ranks_expect "gpu $rank_name 1 rank: 100 calls in a row, every result verified" 0 "" 1 \
    "$rank_program" -n 2^20+7 -r 100 --warmup 0 --quiet
# kill_test: rank 1 SIGKILLed 5 s into 100000 calls at 2^28 (over 10 s): rank 0, waiting in the
# combine, must not stay there: the launcher ends the job, non-zero, well before the minute (not
# step 15's own wait). Under 5 s fails: a run that ended before the kill proves nothing.
kill_test() {
    local name="gpu $rank_name: a rank killed during a run ends every rank" start status took
    if [ -z "$rank_program" ]; then skip "$name" "$rank_missing"; return; fi
    if [ -z "$gpu" ] || [ "$visible" -lt 2 ]; then skip "$name" "needs 2 GPUs, this machine has $visible"; return; fi
    # shellcheck disable=SC2016  # $rank and $$: the script's own
    rank_script kill_rank1.sh 'if [ "$rank" = 1 ]; then (sleep 5; kill -KILL $$) & fi'
    start=$SECONDS
    timeout 60 "${MPI_RUN[@]}" "$launcher" -n 2 "$log/kill_rank1.sh" "$rank_program" -n 2^28 -r 100000 --quiet \
        > "$log/kill.txt" 2>&1
    status=$? took=$((SECONDS - start))
    [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$took" -ge 5 ] && [ "$took" -lt 50 ] && ! grep -q "no sum from" "$log/kill.txt"
    result "$name (exit $status, $took s)" $? "124: still running at 60 s; under 5 s: ended before the kill; 'no sum from': step 15's wait ended it, not the launcher: $(head -c 200 "$log/kill.txt")"
}
kill_test
rank_check 1 "${sizes[@]}" "${huge[@]}"
rank_check 2 "${sizes[@]}"
NETWORK=1 rank_check 2 "${sizes[@]}"
if [ "$visible" -gt 2 ]; then rank_check "$visible" "${sizes[@]}"; fi
section step15
# The combine in the kernel (NCCL's device API), both setups, through step 12's and 13's checks
multi_name=$kernel_step/reduce$suffix rank_name=$kernel_step/rank_per_gpu/reduce$suffix launcher=${launcher:-$(mpi_launcher)}
multi_program=$(make --no-print-directory -s -C "$kernel_step" TYPE="$type" programs) multi_missing=$(why_not "$kernel_step")
rank_program=$(make --no-print-directory -s -C "${rank_name%/*}" TYPE="$type" programs) rank_missing=$(why_not "${rank_name%/*}")
multi_program=${multi_program:+$multi_name} rank_program=${rank_program:+$rank_name}   # what each builds here
multi_check 1 "${sizes[@]}" "${huge[@]}"
multi_check 2 "${sizes[@]}"
for g in 1 2; do rank_check "$g" "${sizes[@]}"; done
multi_expect gpu_expect "gpu $multi_name: 100 calls in a row on all GPUs, each verified" 0 "" -n 2^20+7 -r 100 --warmup 0 --quiet
kill_test
# A GPU that misses a call (a copy patched by multi/lost_gpu.patch, which says how): GPU 0's wait
# ends in 1 s, says which GPU and call, and the program exits 4 with one line, not a hang
name="gpu $multi_name: a GPU that misses a call: the others' wait ends, exit 4"
lost=$log/lost-gpu
rm -rf "$lost" && mkdir -p "$lost" && cp "$kernel_step/multi_gpu.cu" "$lost/"
printf '%s\n' 'MULTI_RANKS := one' 'MULTI_DEVICE_API := yes' "EXTRA_NVCC_FLAGS += -I$PWD/$kernel_step" \
    "include $PWD/multi/multi.mk" > "$lost/Makefile"
patch -s -d "$lost" -p1 < multi/lost_gpu.patch > "$lost/patch.txt" 2>&1
result "multi/lost_gpu.patch applies to $kernel_step/multi_gpu.cu" $? "$(head -c 200 "$lost/patch.txt")"
if [ -z "$multi_program" ]; then skip "$name" "$multi_missing"
elif [ -z "$gpu" ] || [ "$visible" -lt 2 ]; then skip "$name" "needs 2 GPUs, this machine has $visible"
elif ! make -C "$lost" TYPE="$type" > "$lost/build.txt" 2>&1; then fail "$name" "the copy does not build: $(tail -2 "$lost/build.txt")"
else expect "$name" 4 "no sum from GPU 1 for call 3 in 1 s" timeout 60 "$lost/reduce$suffix" --gpus 2 -n 2^20 -r 5 --warmup 0
fi
