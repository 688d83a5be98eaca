#!/usr/bin/env bash
# make test's GPU sections, sourced by tests/run.sh after its own, with its functions and variables
# (pass, expect, step_copy, programs, small, large, newest_cub, log ...); no GPU: SKIP lines, by name.
# gpu: the GPU targets ask for a GPU first; every program's --check auto, a 32-bit step's unsigned
# index, each timed path verified 100 times, --input and --print-sum. same-bits: the programs that
# claim the same bits whatever the grid, and the controls. resources: make resources; report field.
# shellcheck shell=bash disable=SC2154,SC2034  # the variables are tests/run.sh's (and budget is read there)
section gpu
"$(step_dir 0)/reduce$suffix" -n 1 -r 1 --warmup 0 --quiet > "$log/probe.txt" 2>&1; probe=$?
gpu=yes
if [ "$probe" -eq 3 ]; then
    gpu=""
    [ "$(wc -l < "$log/probe.txt")" -eq 1 ]
    result "no GPU: one line and exit code 3" $? "$(cat "$log/probe.txt")"
    # without libcuda there is no driver to update: the line says so
    if have_libcuda; then skip "no GPU: without a driver the line says so" "libcuda.so.1 is here"
    else
        grep -q "no NVIDIA driver" "$log/probe.txt" && ! grep -q "insufficient" "$log/probe.txt"
        result "no GPU: without a driver the line says so" $? "$(cat "$log/probe.txt")"
    fi
elif [ "$probe" -eq 0 ]; then budget=240
else fail "gpu probe: step0 -n 1" "exit $probe: $(head -c 300 "$log/probe.txt")"; fi

# the targets that need a GPU ask first (scripts/preflight.sh: run-all, sweep, scaling,
# profile, sanitize, race-demo; NVCC=false: nothing is built, a build would fail)
scripts/preflight.sh run-all 2> "$log/preflight.txt"; preflight=$?
{ [ "$probe" -eq 3 ] && [ "$preflight" -eq 3 ]; } || { [ "$probe" -ne 3 ] && [ "$preflight" -eq 0 ]; }
result "make run-all's GPU check agrees with the programs (exit $preflight)" $? \
       "programs exit $probe, the check $preflight: $(cat "$log/preflight.txt")"
# without a GPU (none visible, also where there is one): one line, nothing built, no step FAILED
expect "make run-all without a GPU: one line, nothing built" 2 "not run, " env CUDA_VISIBLE_DEVICES= make --no-print-directory run-all NVCC=false
! grep -q "FAILED\|NVCC" "$log/out.txt" "$log/err.txt"
result "make run-all without a GPU never says FAILED" $? "$(cat "$log/out.txt" "$log/err.txt" | head -3 | tr '\n' ' ')"
# what is missing, said as it is: a stand-in nvidia-smi (index CSV, -q -x XML) for each case
fake=$log/fake-smi
mkdir -p "$fake"
# missing_says NAME TEXT SCRIPT [VAR=VALUE...]: gpu_missing with nvidia-smi replaced by SCRIPT says TEXT
missing_says() {
    local name=$1 text=$2 script=$3 out
    shift 3
    printf '#!/bin/sh\n%s\n' "$script" > "$fake/nvidia-smi"
    chmod +x "$fake/nvidia-smi"
    out=$(env -u CUDA_VISIBLE_DEVICES NVIDIA_SMI="$fake/nvidia-smi" "$@" bash -c '. scripts/gpus.sh; have_libcuda() { false; }; gpu_missing')
    { [ -z "$text" ] && [ -z "$out" ]; } || { [ -n "$text" ] && [[ $out == *"$text"* ]] && [ "$(echo "$out" | wc -l)" -eq 1 ]; }
    result "$name" $? "said '$out', expected '${text:-nothing}'"
}
listing="[ \"\$1\" = --query-gpu=index ] && { echo 0; exit 0; }"   # $1: the stand-in's argument
missing_says "no GPU, said as it is: no driver"  "no NVIDIA driver" "" NVIDIA_SMI=/nonexistent/nvidia-smi
missing_says "no GPU, said as it is: driver not answering" "not answering" \
    "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9"
missing_says "no GPU, said as it is: a driver and no GPU" "no GPU: the NVIDIA driver is installed" \
    "[ \"\$1\" = --query-gpu=index ] && { echo 'No devices were found'; exit 6; }; echo '<cuda_version>13.0</cuda_version>'"
missing_says "no GPU, said as it is: CUDA_VISIBLE_DEVICES hides them" "CUDA_VISIBLE_DEVICES=''" \
    "$listing; echo '<cuda_version>99.0</cuda_version>'" CUDA_VISIBLE_DEVICES=
missing_says "no GPU, said as it is: a GPU and a new driver is no complaint" "" "$listing; echo '<cuda_version>99.0</cuda_version>'"
if [[ $(nvcc_release | cut -d. -f1) -ge 12 ]]; then   # (unknown: 0)
    missing_says "no GPU, said as it is: a driver older than the toolkit" "driver too old: it supports CUDA 11.8" \
        "$listing; echo '<cuda_version>11.8</cuda_version>'"
else
    skip "no GPU, said as it is: a driver older than the toolkit" "nvcc's version unknown"
fi
# a missing compute-sanitizer: the same words for step 4's make race-demo as for make sanitize
# (a course's handout, lab/handout.sh, may lack step 4, 8 or 14: their tests are then skipped)
handout_lacks() { [ -n "$(step_dir "$1")" ] && return 1; skip "$2" "no step $1 here: a course's handout (make handout)"; }
handout_lacks 4 "race-demo without compute-sanitizer says how to get it" ||
    make_expect "race-demo without compute-sanitizer says how to get it" 2 "compute-sanitizer not found: SANITIZER=/nonexistent/compute-sanitizer is no program" \
        -C "$(step_dir 4)" race-demo SANITIZER=/nonexistent/compute-sanitizer NVCC=false
make_expect "make sanitize without compute-sanitizer says how to get it" 2 "compute-sanitizer not found: SANITIZER=/nonexistent/compute-sanitizer is no program" \
    sanitize SANITIZER=/nonexistent/compute-sanitizer NVCC=false

# library_defect PROGRAM: "SIZES REASON", the sizes of its --check auto that a library it calls
# is known to sum wrong on this GPU, else nothing: CCCL 3.5.0's gpu_to_gpu (cub_reference/defect/),
# from the n where every thread of CUB's grid deposits more than endurance() values (where only
# some do, it is held to pass), as --describe says (its trigger.cuh); check_all fails if one passes.
library_defect() {
    local from sizes
    [ "$(describe "$1" gpu_to_gpu_renorm)" = missing ] || return 0
    from=$(describe "$1" gpu_to_gpu_every_thread_exposed_from)
    [[ $from =~ ^[1-9][0-9]*$ ]] || return 0
    sizes=$(describe "$1" check_sizes | tr ',' '\n' | awk -v f="$from" '$1 >= f' | paste -sd,)
    [ -n "$sizes" ] && echo "$sizes CCCL $(describe "$1" cccl_version)'s gpu_to_gpu: from n=$from every thread deposits more than endurance() values, and none renorm()s after its last"
}

# check_all PROGRAM: its --check auto run (--describe's check_sizes), one line: PASS when it
# exited 0 and its verdicts pass every size in order, else FAIL naming the failed sizes and its
# first FAILED and hint lines. library_defect's sizes: a line of their own, passing if each failed.
check_all() {
    local program=$1 sizes count name status failing_sizes passed_sizes saved=$log/check-${1//\//_} defect="" known="" size verdict wrong=""
    sizes=$(describe "$program" check_sizes)
    if ! grep -q '[0-9]' <<< "$sizes"; then fail "gpu $program $type: --check auto" "its --describe gives no check_sizes"; return; fi
    [ -n "$gpu" ] && defect=$(library_defect "$program")   # its condition asks the GPU
    known=${defect%% *}
    [ -z "$known" ] || sizes=$(tr ',' '\n' <<< "$sizes" | grep -vxF -f <(tr ',' '\n' <<< "$known") | paste -sd,)
    count=$(tr ',' '\n' <<< "$sizes" | grep -c '^[0-9]')
    name="gpu $program $type: --check auto, $count sizes from ${sizes%%,*} to ${sizes##*,}${known:+ (all but n=$known)}, random and one-hot data"
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; return; fi
    status=$(cat "$saved.status" 2>/dev/null)
    # the program's verdicts (--verdicts: "check N pass|fail"), not its lines for people
    passed_sizes=$(awk -v k=",${known}," '$3 == "pass" && index(k, "," $2 ",") == 0 { print $2 }' "$saved.verdicts" 2>/dev/null | paste -sd,)
    failing_sizes=$(awk -v k=",${known}," '$3 == "fail" && index(k, "," $2 ",") == 0 { print $2 }' "$saved.verdicts" 2>/dev/null | paste -sd,)
    for size in ${known//,/ }; do
        verdict=$(awk -v k="$size" '$2 == k { print $3 }' "$saved.verdicts" 2>/dev/null)
        [ "$verdict" = fail ] || wrong+=" n=$size ${verdict:-no verdict}"
    done
    if [ -n "$known" ]; then
        [ -z "$wrong" ]
        result "gpu $program $type: n=$known fail, a library's known defect (${defect#* })" $? \
               "exit ${status:-unknown}, not failed:$wrong (a pass: the defect gone, or library_defect()'s condition wrong)"
    fi
    # those failures were the exit's one cause
    [ -n "$known" ] && [ -z "$wrong" ] && [ "$status" = 1 ] && [ -z "$failing_sizes" ] && status=0
    if [ "$status" = 0 ] && [ "$passed_sizes" = "$sizes" ]; then
        pass "$name"
    elif [ -n "$failing_sizes" ]; then
        fail "$name" "exit $status, failed at n=${failing_sizes//,/, n=}: $(grep -m4 -E ': FAILED |: hint: ' "$saved.err" |
             sed 's/^[^:]*: //' | tr '\n' ' ')(see $saved.err)"
    else
        fail "$name" "exit ${status:-unknown}, passed ${passed_sizes:-no size} of $sizes: $(head -c 300 "$saved.err" 2>/dev/null | tr '\n' ' ')"
    fi
}

# gpu_expect NAME CODE TEXT PROGRAM ARGS...: expect, on a GPU
gpu_expect() { if [ -z "$gpu" ]; then skip "$1" "no GPU"; else expect "$@"; fi; }

if [ -n "$gpu" ]; then
    # how many --check runs go at once: as many as the GPU's free memory and the host's each
    # hold 2^31+5 elements (and a tenth more), 1 to 4. A run spends most of its time making data
    # on the host's cores: four side by side halve the time (16 cores: 25 s, not 53).
    element_bytes=4 at_once=4
    [ "$type" = double ] && element_bytes=8
    need_mib=$(( (2**31 + 5) * element_bytes * 11 / 10 / 2**20 ))
    gpu_mib=$("$NVIDIA_SMI" --query-gpu=memory.free --format=csv,noheader,nounits 2>/dev/null | sort -n | head -1)
    host_mib=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null)
    for mib in "$gpu_mib" "$host_mib"; do
        if [[ $mib =~ ^[0-9]+$ ]]; then [ $((mib / need_mib)) -lt "$at_once" ] && at_once=$((mib / need_mib))
        else at_once=1; fi
    done
    at_once=$((at_once < 1 ? 1 : at_once))
    echo "     --check auto runs: $at_once at once"
    # the 64-bit programs first (2^31+5: the longest); the output, verdicts and status check_all reads
    # shellcheck disable=SC2016  # $0 and $1 are the inner shell's: the log folder and one program
    printf '%s\n' "${programs_64[@]}" "${programs[@]}" | awk '!seen[$0]++' | xargs -d '\n' -n 1 -P "$at_once" bash -c '
        saved=$0/check-${1//\//_}
        rm -f "$saved".*
        timeout 900 "$1" --check auto --verdicts "$saved.verdicts" > "$saved.out" 2> "$saved.err"; echo $? > "$saved.status"' "$log"
fi
for program in "${programs[@]}"; do check_all "$program"; done
# diagnose.h's claim (DIAG_INDEX_32BIT): 2^31+5 catches a signed 32-bit index only; an unsigned one
# wraps above 2^32 - 1. A copy of a 32-bit step patched to claim 64-bit indices (the fixture says why)
# passes --check 2^31+5, fails 2^32+5 blaming unsigned indices too (16 GiB: beyond --check auto; int).
fixture=tests/fixtures/unsigned_index.patch
unsigned_step=$(sed -n -e '/^--- /q' -e 's/^# step: //p' "$fixture")
unsigned_dir=$(step_dir "$unsigned_step")
unsigned_copy=$log/unsigned-index/$unsigned_dir
unsigned_name="unsigned index: a copy of ${unsigned_dir:-step $unsigned_step} that claims 64-bit indices (MAX_N_64BIT, $fixture) and keeps its unsigned int index builds"
unsigned_built=""
if [ "$type" != int ]; then
    skip "$unsigned_name" "TYPE=int only: the indices are the same in every type"
elif ! handout_lacks "$unsigned_step" "$unsigned_name"; then
    step_copy "$unsigned_copy" "$unsigned_dir"
    why=""
    if [ "$(describe "$unsigned_dir/reduce$suffix" index_bits) $(describe "$unsigned_dir/reduce$suffix" kernel)" != "32 own" ]; then
        why="$unsigned_dir's --describe does not say index_bits=32 and kernel=own: not the 32-bit kernel of its own this tests"
    elif ! { if command -v patch > /dev/null; then patch -s --no-backup-if-mismatch -d "$unsigned_copy" -p1 < "$fixture"
             else git apply --unsafe-paths --directory="$unsigned_copy" -p1 "$fixture"; fi; } > "$log/unsigned-index.txt" 2>&1; then
        why="$fixture does not apply to $unsigned_dir/reduce.cu: $(head -1 "$log/unsigned-index.txt")"
    elif changed=$(diff "$unsigned_dir/reduce.cu" "$unsigned_copy/reduce.cu" | grep -c '^>'); [ "$changed" -ne 1 ]; then
        why="$changed lines changed, not the one '.max_n = MAX_N_32BIT,' of its STEP"
    elif ! grep -q 'unsigned int i = ' "$unsigned_copy/reduce.cu"; then why="its kernel has no 'unsigned int i = ': not the unsigned index this tests"
    elif ! make --no-print-directory -C "$unsigned_copy" TYPE="$type" > "$log/unsigned-index.txt" 2>&1; then why=$(tail -3 "$log/unsigned-index.txt" | tr '\n' ' ')
    elif [ "$(describe "$unsigned_copy/reduce$suffix" index_bits)" != 64 ]; then why="its --describe says index_bits=$(describe "$unsigned_copy/reduce$suffix" index_bits), not 64"
    fi
    if [ -z "$why" ]; then pass "$unsigned_name"; unsigned_built=yes; else fail "$unsigned_name" "$why"; fi
fi
# unsigned_check NAME SIZE CODE VERDICT TEXT...: the copy's --check SIZE exits CODE, its
# --verdicts say VERDICT, its output holds every TEXT; SKIP where memory is too small
unsigned_check() {
    local name=$1 size=$2 code=$3 verdict=$4 status text what out=$log/unsigned-check
    shift 4
    [ "$type" = int ] || return 0
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; return; fi
    if [ -z "$unsigned_built" ]; then fail "$name" "the copy was not built"; return; fi
    timeout 600 "$unsigned_copy/reduce$suffix" --check "$size" --verdicts "$out.verdicts" > "$out.txt" 2> "$out-err.txt"
    status=$?
    if [ "$status" -eq 2 ] && grep -q 'of device memory\|of host memory' "$out-err.txt"; then
        skip "$name" "$(sed 's/^[^ :]*: //' "$out-err.txt" | head -1)"; return
    fi
    what=$(grep -h -m3 -E 'FAILED|hint' "$out-err.txt" | sed 's/^[^ :]*: //' | tr '\n' ' ')
    if [ "$status" -eq 124 ]; then fail "$name" "still running after 600 s: killed"; return; fi
    if [ "$status" -ne "$code" ] || ! grep -qx "check .* $verdict" "$out.verdicts"; then
        fail "$name" "exit $status, expected $code, verdict $(cat "$out.verdicts" 2> /dev/null): $what"; return
    fi
    for text in "$@"; do
        if ! grep -qF -- "$text" "$out-err.txt"; then fail "$name" "no '$text' in the output: $what"; return; fi
    done
    pass "$name"
}
unsigned_check "gpu unsigned index: that copy passes --check 2^31+5 (an unsigned 32-bit index holds there)" 2^31+5 0 pass
unsigned_check "gpu unsigned index: that copy fails --check 2^32+5, its hint blaming signed or unsigned 32-bit indices" 2^32+5 1 fail \
    "hint: 32-bit index overflow: wrong at n = 4294967301, above 2^32 - 1" "signed or unsigned"
# --check catches state that survives a call; this is the timed path's (the gate, the L2
# flush, one element changed before each call), as make run-all runs every program
for program in "${programs[@]}"; do
    gpu_expect "gpu $program: the timed path, 100 calls in a row, every result verified" 0 "" \
        "$program" -n 2^20+7 -r 100 --warmup 0 --quiet
done

# --input with a known sum, and --print-sum; then large values that cancel, exact in every
# order: int wraps around and back; every partial sum of 2^A, 2^B, -2^A (A - B below the
# mantissa) is exact: 2^100, 2^80, -2^100 for float, 2^1000, 2^960, -2^1000 for double
for _ in $(seq 1000); do printf '%b' "$one"; done > "$log/ones.bin"
case $type in
    int)    printf '\xff\xff\xff\x7f\xff\xff\xff\x7f\x01\x00\x00\x80\x01\x00\x00\x80\x05\x00\x00\x00' > "$log/large.bin"
            large_sum=5 ;;
    float)  printf '\x00\x00\x80\x71\x00\x00\x80\x67\x00\x00\x80\xf1' > "$log/large.bin"
            large_sum=1.20892582e+24 ;;   # 2^80, as %.9g prints it
    double) printf '\x00\x00\x00\x00\x00\x00\x70\x7e\x00\x00\x00\x00\x00\x00\xf0\x7b\x00\x00\x00\x00\x00\x00\x70\xfe' \
                > "$log/large.bin"
            large_sum=9.7453140113999991e+288 ;;   # 2^960, as %.17g prints it
esac
# gpu_sum NAME FILE SUM: step 8 (16-byte loads: 3 values are a vector tail) --input FILE -r 3 --print-sum
# exits 0, printing SUM once per timed run
gpu_sum() {
    local out status
    if [ -z "$gpu" ]; then skip "$1" "no GPU"; return; fi
    handout_lacks 8 "$1" && return
    out=$("$(step_dir 8)/reduce$suffix" --input "$2" -r 3 --print-sum --quiet 2>&1)
    status=$?
    [ "$status" -eq 0 ] && [ "$out" = "$(printf '%s\n%s\n%s' "$3" "$3" "$3")" ]
    result "$1" $? "exit $status, printed '$(tr '\n' ' ' <<< "$out")', expected $3 three times"
}
gpu_sum "gpu --input 1000 ones and --print-sum" "$log/ones.bin" 1000
gpu_sum "gpu --input large values that cancel: $large_sum exactly" "$log/large.bin" "$large_sum"
gpu_expect "gpu input: more memory than the card has" 2 "free"       "$large" -n 2^40
gpu_expect "gpu input: device index that does not exist" 2 "--device" "$large" -n 1000 --device 99
# CUB's gpu_to_gpu mode (the newest CCCL's, make cccl): the same float bits run after run
# (--print-sum's %.9g tells every float apart), at a size of many blocks and a ragged tail
for p in "${newest_cub[@]}"; do
    if [ "$type" != float ] || [ "$(describe "$p" determinism)" != gpu_to_gpu ]; then continue; fi
    name="gpu $p float: --print-sum bit-identical over 10 runs at n=2^24+7"
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; continue; fi
    sums=() why=""
    for _ in $(seq 10); do
        if out=$("$p" -n 2^24+7 -r 5 --print-sum --quiet 2> "$log/err.txt"); then sums+=("$out")
        else why="exit $?: $(head -c 200 "$log/err.txt")"; break; fi
    done
    distinct=$(printf '%s\n' "${sums[@]}" | sort -u)
    [ -z "$why" ] && [ ${#sums[@]} -eq 10 ] && [ "$(wc -l <<< "$distinct")" -eq 1 ] && [ -n "$distinct" ]
    result "$name" $? "${why:-$(wc -l <<< "$distinct") distinct sums: $(tr '\n' ' ' <<< "$distinct")}"
done

# same_bits=1 (--describe) claims float and double bits that depend on n and the input alone,
# never on the grid (--blocks B) or the run; --same-bits holds a program to it (mixed
# magnitudes, one verdict a size). The controls, every program with --blocks and no claim, must
# fail at 2^24+7: one whose runs differ (block-atomic), one whose grid changes its value (step
# 11): else the data shows no order. build/tools/mixed_data writes the same data, for --input.
section same-bits
same_bits_programs=() grid_programs=()
for program in "${programs[@]}"; do
    "$program" --describe > "$log/describe.txt" 2> /dev/null
    grep -q '^most_blocks=' "$log/describe.txt" && grid_programs+=("$program")
    grep -qx 'same_bits=1' "$log/describe.txt" && same_bits_programs+=("$program")
done
if handout_lacks 14 "same-bits: programs with --blocks, and that claim the same bits"; then :
elif [ ${#grid_programs[@]} -eq 0 ]; then fail "same-bits: programs with --blocks" "no program's --describe says most_blocks="
elif [ ${#same_bits_programs[@]} -eq 0 ]; then fail "same-bits: programs that claim the same bits" "no program's --describe says same_bits=1"; fi
# refused NAME TEXT PROGRAM ARGS...: PROGRAM ARGS says TEXT in one line, exit 2, before the GPU
refused() { expect "same-bits input: $1" 2 "$2" env CUDA_VISIBLE_DEVICES= "${@:3}"; }
for program in "${grid_programs[@]}"; do
    for value in 0 -1 x "" 1048577 2^20+1 1.5; do
        refused "$program --blocks '$value': one line, exit 2, before the GPU (none visible)" "--blocks" "$program" -n 1000 --blocks "$value"
    done
    refused "$program --blocks without its value: one line, exit 2" "needs a value" "$program" -n 1000 --blocks
    name="same-bits input: $program takes --blocks 1 and --blocks 1048576 (2^20), as --describe's most_blocks= says"
    low=$("$program" --blocks 1 --describe 2>&1 | sed -n 's/^most_blocks=//p')
    high=$("$program" --blocks 1048576 --describe 2>&1 | sed -n 's/^most_blocks=//p')
    if [ "$low" = 1 ] && [ "$high" = 1048576 ]; then pass "$name"; else fail "$name" "most_blocks=$low and $high"; fi
done
[ -z "$small" ] || refused "--same-bits in a program without --blocks: one line, exit 2" "does not take" "$small" --same-bits
if [ ${#same_bits_programs[@]} -gt 0 ]; then
    refused "--same-bits with -n: one line, exit 2" "makes its own data" "${same_bits_programs[0]}" --same-bits -n 1000
    [ "$type" = int ] && refused "--same-bits of an int build: one line, exit 2" "float and double" "${same_bits_programs[0]}" --same-bits
fi
mixed=build/tools/mixed_data same_bits_dir=$log/same-bits
rm -rf "$same_bits_dir" && mkdir -p "$same_bits_dir"
bad=$same_bits_dir/bad.bin
while IFS='|' read -r text args; do
    read -ra words <<< "${args//FILE/$bad}"
    expect "same-bits: mixed_data ${args:-without arguments}: one line, exit 2" 2 "$text" "$mixed" "${words[@]}"
done <<'CASES'
usage: |
usage: |int 10 1 FILE
usage: |float 0 1 FILE
usage: |float 2147483649 1 FILE
cannot write|float 10 1 /nonexistent/folder/data.bin
CASES
for t in float double; do
    bytes=4; [ "$t" = double ] && bytes=8
    name="same-bits: mixed_data $t: the same seed writes the same bytes, another seed others, n * $bytes bytes"
    "$mixed" $t 100003 7 "$same_bits_dir/a.bin" && "$mixed" $t 100003 7 "$same_bits_dir/b.bin" &&
        "$mixed" $t 100003 8 "$same_bits_dir/c.bin"
    status=$?
    [ "$status" -eq 0 ] && cmp -s "$same_bits_dir/a.bin" "$same_bits_dir/b.bin" &&
        ! cmp -s "$same_bits_dir/a.bin" "$same_bits_dir/c.bin" &&
        [ "$(stat -c %s "$same_bits_dir/a.bin")" -eq $((100003 * bytes)) ]
    result "$name" $? "exit $status, $(stat -c %s "$same_bits_dir/a.bin" 2>&1) bytes"
done
rm -f "$same_bits_dir"/*.bin

claim="one value at each size over --blocks 1, 2, 7, 132, 528, 1024 and its own grid, 100 runs each, L2 flushed (and hot at 2^20, 2^24+7, 2^26)"
if [ "$type" = int ] || [ -z "$gpu" ]; then
    why="no GPU"
    [ "$type" = int ] && why="TYPE=int: integer addition gives the same bits in any order, whatever the kernel; the test runs for float and double"
    for program in "${same_bits_programs[@]}"; do skip "gpu same-bits $program $type: $claim" "$why"; done
    skip "gpu same-bits control: each program with --blocks and no same-bits claim fails at 2^24+7" "$why"
else
    # shellcheck disable=SC2016  # $1 is the inner shell's: one program
    printf '%s\n' "${grid_programs[@]}" | xargs -d '\n' -n 1 -P 8 bash -c 'out=$0/${1//\//_}
        timeout 600 "$1" --same-bits -r 100 --verdicts "$out.verdicts" > "$out.out" 2> "$out.err"; echo $? > "$out.status"' "$same_bits_dir"
    controls=""
    for program in "${grid_programs[@]}"; do
        out=$same_bits_dir/${program////_} status=$(cat "$same_bits_dir/${program////_}.status" 2> /dev/null)
        sizes=$(grep -c '^same-bits n=' "$out.out" 2> /dev/null) verdicts=$(grep -c . "$out.verdicts" 2> /dev/null)
        failing=$(awk '$3 == "fail" { printf " %s", $2 }' "$out.verdicts" 2> /dev/null)
        if [[ " ${same_bits_programs[*]} " == *" $program "* ]]; then
            name="gpu same-bits $program $type: $claim"
            if [ "$status" = 0 ] && [ "${sizes:-0}" -gt 0 ] && [ "$sizes" = "$verdicts" ] && [ -z "$failing" ]; then pass "$name ($sizes sizes)"
            else fail "$name" "exit ${status:-none}, failing n:${failing:- none}: $(grep -h -m2 'FAIL' "$out.out" "$out.err" 2> /dev/null | head -2 | tr '\n' ' ')$(head -c 200 "$out.err")"; fi
            continue
        fi
        why=$(awk '$2 == 16777223 && $3 == "fail" { print $4 }' "$out.verdicts" 2> /dev/null)
        controls+=" $why"
        name="gpu same-bits control: $program $type, no same-bits claim, differs at n=16777223 (the data shows the order of the additions)"
        if [ "$status" = 1 ] && [ -n "$why" ]; then pass "$name: $(grep -m1 '^same-bits n=16777223' "$out.out" | cut -d, -f2- | cut -c1-80)"
        else fail "$name" "exit ${status:-none}, verdict: $(grep -h '16777223' "$out.verdicts" 2> /dev/null) $(head -c 200 "$out.err")"; fi
    done
    [[ $controls == *" runs"* && $controls == *" grid"* ]] ||
        fail "gpu same-bits control: one program whose runs differ and one whose grid changes its value" "found:${controls:- none}"
fi
section resources
# make resources: a row per step and CUB's; on a GPU the API's blocks per SM fit the header's SM
make --no-print-directory resources TYPE="$type" > "$log/resources.txt" 2>&1; status=$?
result "resources: make resources TYPE=$type runs" "$status" "exit $status: $(tail -3 "$log/resources.txt" | tr '\n' ' ')"
if [ -z "$gpu" ]; then
    grep -q "^no GPU: compiler figures (ptxas, sm_[0-9]*[a-z]*), TYPE=$type\$" "$log/resources.txt" &&
        grep -qx "resident blocks and occupancy need a GPU" "$log/resources.txt"
    result "resources without a GPU: the compiler's figures, and one line says the rest needs a GPU" $? \
           "$(head -1 "$log/resources.txt"), ... $(tail -1 "$log/resources.txt")"
fi
# the SM's limits, from the header: "per SM at most T threads, B blocks, R registers, S KiB shared memory"
read -r max_threads max_blocks max_registers max_shared_kib < <(sed -n \
    's/.* per SM at most \([0-9]*\) threads, \([0-9]*\) blocks, \([0-9]*\) registers, \([0-9]*\) KiB shared.*/\1 \2 \3 \4/p' \
    "$log/resources.txt" | head -1)
for dir in "${dirs[@]}"; do
    # a row per folder of its own program but an extension's (step*/*: variants, no step)
    case $dir in step*/*) continue ;; esac
    if [ ! -x "$dir/reduce$suffix" ] || suite_owned "$dir"; then continue; fi
    row=$(awk -v name="$dir" '$1 == name' "$log/resources.txt")
    if [ "$(describe "$dir/reduce$suffix" kernel)" = library ]; then
        grep -q "not reported" <<< "$row"; result "resources: $dir's row says its kernels are not reported" $? "row: '$row'"
        continue
    fi
    read -r _ threads registers shared blocks _ <<< "$row"
    [[ $registers =~ ^[0-9]+$ ]] && [ "$registers" -gt 0 ] && [[ $threads =~ ^[0-9]+$ ]] && [[ $shared =~ ^[0-9]+$ ]]
    result "resources $dir $type: registers > 0, shared memory in bytes" $? "row: '$row'"
    name="gpu resources $dir $type: the API's blocks per SM fit the SM's blocks, threads, registers and shared memory"
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; continue; fi
    why=""
    if ! [[ "$blocks $max_threads $max_blocks $max_registers $max_shared_kib" =~ ^[0-9]+( [0-9]+){4}$ ]]; then
        why="no number in the row or the header: $(head -1 "$log/resources.txt")"
    elif [ "$blocks" -lt 1 ] || [ "$blocks" -gt "$max_blocks" ]; then why="$blocks blocks, not 1 .. $max_blocks"
    elif [ $((blocks * threads)) -gt "$max_threads" ]; then why="$blocks x $threads threads > $max_threads"
    elif [ $((blocks * threads * registers)) -gt "$max_registers" ]; then why="$blocks x $threads threads x $registers registers > $max_registers"
    elif [ $((blocks * shared)) -gt $(((max_shared_kib + 1) * 1024)) ]; then why="$blocks x $shared bytes > $max_shared_kib KiB"
    fi
    if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why; row: '$row'"; fi
done

{ build/tools/report header
  row prev_x "prev start" 2.000000; row next_x "next (yours)" 1.500000; row next_x "next ours" 1.000000
} > "$log/field-rows.csv"
[ "$(build/tools/report field "$log/field-rows.csv" median_ms | paste -sd' ')" = "2.000000 1.500000 1.000000" ] &&
    [ "$(build/tools/report field "$log/field-rows.csv" label | sed -n 2p)" = "next (yours)" ] &&
    ! build/tools/report field "$log/field-rows.csv" no_such_column > /dev/null 2>&1
result "report field reads a column of the rows by its name, and refuses a name it has not" $? \
       "$(build/tools/report field "$log/field-rows.csv" median_ms 2>&1 | tr '\n' ' ')"

