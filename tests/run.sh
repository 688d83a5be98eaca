#!/usr/bin/env bash
# make test: everything that can run on this machine, one line per test.
#
#   unit      host unit tests of the harness (flags, data, verdict, tables, CSV, SVG)
#   build     every program builds (make -C DIR)
#   diff      consecutive steps' kernel files differ by at most 40 lines (every step)
#   docs      the Doxygen site builds with zero warnings (skipped without doxygen)
#   scripts   every script passes shellcheck (skipped, by name, without shellcheck)
#   input     bad input against a real step binary: one line, exit 2, GPU untouched
#   gpu       every program verified exactly on sizes that break careless code, on random
#             and one-hot data; 2^31+5 for the 64-bit steps; step11 and its atomic
#             finishes called 100 times; step12 on 1 GPU, on 2 and on all (n < G and
#             n % G != 0 among the sizes; the 2-GPU checks SKIP by name on one GPU);
#             --input and --print-sum; device-memory and device-index errors.
#   lab       make lab for every step (exercise text, TODOs, the copy builds), bad input,
#             FORCE=1, lab-status, the broken copies of tests/lab_broken build; on a GPU
#             lab-check passes every starting copy and our kernels and rejects each
#             broken copy with the right hint.
#             Without a GPU the GPU checks are listed as SKIP, by name; without NCCL,
#             step12's build and checks are.
#
# LAB_TESTS=0 leaves out the lab section (one SKIP line): the quick run on a GPU machine.
# The last line is "N passed, N failed, N skipped"; the exit code is 1 if any failed.
# Usage: tests/run.sh PROGRAM_DIR...   (TYPE and SUFFIX come from the Makefile)
# No -e: a command that fails is a FAIL line to count, and the run goes on to the next test.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/gpus.sh
type=${TYPE:-int}
suffix=${SUFFIX-}
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
    echo "usage: tests/run.sh PROGRAM_DIR... (make test passes them)" >&2
    exit 2
fi
passed=0 failed=0 skipped=0
log=build/$type/test-log
mkdir -p "$log"

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }
skip() { echo "SKIP $1${2:+ ($2)}"; skipped=$((skipped + 1)); }
# step_dir K: the folder of step K, e.g. step3_add_during_load
step_dir() { local dirs=("step$1"_*/); echo "${dirs[0]%/}"; }

# ---------------------------------------------------------------- unit
if [ -x "build/$type/unit_tests" ]; then
    build/"$type"/unit_tests > "$log/unit.txt" 2>&1
    status=$?
    while read -r verdict rest; do
        case $verdict in
            PASS) pass "$rest" ;;
            FAIL) fail "$rest" ;;
        esac
    done < "$log/unit.txt"
    grep -q '^PASS' "$log/unit.txt" || fail "unit tests" "no test ran (exit $status)"
    [ "$status" -eq 0 ] || grep -q '^FAIL' "$log/unit.txt" || fail "unit tests" "exit $status"
else
    fail "unit tests" "build/$type/unit_tests was not built"
fi

# ---------------------------------------------------------------- build
programs=()
multi_program=""   # step 12's program, when NCCL was found and it built
for dir in "${dirs[@]}"; do
    build_log=$log/build-${dir////_}.txt
    # what the folder builds here: nothing for step 12 without NCCL (common/nccl.mk)
    built=$(make --no-print-directory -s -C "$dir" TYPE="$type" programs)
    if ! make --no-print-directory -C "$dir" TYPE="$type" > "$build_log" 2>&1; then
        fail "build $dir ($type)" "see $build_log"
        tail -5 "$build_log"
    elif [ -z "$built" ]; then
        skip "build $dir ($type)" "$NCCL_MISSING"
    else
        pass "build $dir ($type)"
    fi
    for program in $built; do
        case $dir in step12_*) multi_program=$dir/$program; continue ;; esac   # tested on its own below
        programs+=("$dir/$program")
    done
done
# the one-launch programs, whose state (a ticket counter) must survive many calls
single_pass=()
for p in "${programs[@]}"; do
    case $p in step11_*) single_pass+=("$p") ;; esac
done

# ---------------------------------------------------------------- diff
previous=""
for dir in "${dirs[@]}"; do
    case $dir in step*/*|cub_*) continue ;; step[0-9]_*|step[0-9][0-9]_*) ;; *) continue ;; esac
    if [ ! -f "$dir/reduce.cu" ]; then
        # step 12 includes step 11's kernel file: what it adds is the whole of its own file
        files=("$dir"/*.cu)
        file=${files[0]}
        lines=$(grep -cvE '^[[:space:]]*($|//|/?\*)' "$file")
        name="diff ${previous%%_*} -> ${dir%%_*}: $file includes $previous/reduce.cu and adds $lines code lines"
        if grep -q "#include \"../$previous/reduce.cu\"" "$file" && [ "$lines" -le 40 ]; then pass "$name (at most 40)"
        else fail "$name" "it must include ../$previous/reduce.cu and add at most 40 code lines"; fi
        continue
    fi
    if [ -n "$previous" ]; then
        lines=$(diff "$previous/reduce.cu" "$dir/reduce.cu" | grep -c '^[<>]')
        name="diff ${previous%%_*} -> ${dir%%_*} changes $lines lines"
        if [ "$lines" -le 40 ]; then pass "$name (at most 40)"; else fail "$name" "more than 40"; fi
    fi
    previous=$dir
done

# ---------------------------------------------------------------- docs
if command -v doxygen > /dev/null 2>&1; then
    if make --no-print-directory docs > "$log/docs.txt" 2>&1; then
        pass "docs build with zero warnings"
    else
        fail "docs build with zero warnings" "see $log/docs.txt"
        tail -5 "$log/docs.txt"
    fi
else
    skip "docs build with zero warnings" "doxygen not installed"
fi

# ---------------------------------------------------------------- scripts
# every script (make's, the tests', CI's) passes shellcheck; .shellcheckrc lets it follow
# the helpers they source
scripts=(scripts/*.sh tests/*.sh .ci/run)
if command -v shellcheck > /dev/null 2>&1; then
    for script in "${scripts[@]}"; do
        if shellcheck -f gcc "$script" > "$log/shellcheck.txt" 2>&1; then
            pass "shellcheck $script"
        else
            fail "shellcheck $script" "$(wc -l < "$log/shellcheck.txt") findings, the first: $(head -1 "$log/shellcheck.txt")"
        fi
    done
else
    for script in "${scripts[@]}"; do skip "shellcheck $script" "shellcheck not installed"; done
    echo "     shellcheck: apt-get install -y shellcheck (Debian, Ubuntu), dnf install ShellCheck, brew install shellcheck"
fi

# ---------------------------------------------------------------- bad input
# expect NAME CODE TEXT PROGRAM ARGS...: exit CODE, one line on stderr containing TEXT.
expect() {
    local name=$1 code=$2 text=$3 program=$4
    shift 4
    "$program" "$@" > "$log/out.txt" 2> "$log/err.txt"
    local status=$? lines
    lines=$(wc -l < "$log/err.txt")
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status, expected $code: $(head -c 200 "$log/err.txt")"
    elif [ "$code" -ne 0 ] && [ "$lines" -ne 1 ]; then
        fail "$name" "expected one line on stderr, got $lines"
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$log/err.txt" "$log/out.txt"; then
        fail "$name" "no '$text' in the output"
    else
        pass "$name"
    fi
}
small=step3_add_during_load/reduce$suffix   # a 32-bit step
large=step6_multi_add/reduce$suffix         # a 64-bit step
printf 'not a whole element' > "$log/odd.bin"   # 19 bytes: no element size divides it
if [ -x "$small" ] && [ -x "$large" ]; then
    expect "input: n = 0"                2 "at least 1"          "$small" -n 0
    expect "input: n negative"           2 "not a size"          "$small" -n -5
    expect "input: n non-numeric"        2 "not a size"          "$small" -n ten
    expect "input: n above the step max" 2 "maximum"             "$small" -n 2^31
    expect "input: reps = 0"             2 "from 1 to"           "$small" -r 0
    expect "input: reps non-numeric"     2 "from 1 to"           "$small" --reps x
    expect "input: unknown flag"         2 "unknown option"      "$small" --frobnicate
    expect "input: missing value"        2 "needs a value"       "$small" -n
    expect "input: stray argument"       2 "unexpected argument" "$small" 1000
    expect "input: --input and -n"       2 "not both"            "$small" --input "$log/odd.bin" -n 4
    expect "input: --input missing file" 2 "not a readable file" "$small" --input "$log/no-such-file"
    expect "input: --input odd size"     2 "not a whole number"  "$small" --input "$log/odd.bin"
    expect "input: --check size 0"       2 "--check"             "$small" --check 1,0
    expect "input: --check above max"    2 "maximum"             "$small" --check 1,2^31
    expect "input: --help"               0 "Usage:"              "$small" --help
else
    fail "bad input tests" "$small or $large was not built"
fi

# ---------------------------------------------------------------- gpu
sizes=(1 2 3 31 32 33 63 255 256 257 511 512 513 1023 1024 1025 2047 2048 2049
       65535 65536 65537 $((2**20 + 7)) $((2**24)) $((2**26)))
huge=$((2**31 + 5))   # above 32-bit indices, and not a multiple of the vector width

"step0_interleaved/reduce$suffix" -n 1 -r 1 --warmup 0 --quiet > "$log/probe.txt" 2>&1
probe=$?
if [ "$probe" -eq 3 ]; then
    gpu=""
    if [ "$(wc -l < "$log/probe.txt")" -eq 1 ]; then
        pass "no GPU: one line and exit code 3"
    else
        fail "no GPU: one line and exit code 3" "$(cat "$log/probe.txt")"
    fi
elif [ "$probe" -eq 0 ]; then
    gpu=yes
else
    gpu=yes
    fail "gpu probe: step0 -n 1" "exit $probe: $(head -c 300 "$log/probe.txt")"
fi

# check_verdict NAME N: the test of size N, from the "check n=N: PASS" line of the last
# --check run (its output in $log/check.txt and check-err.txt)
check_verdict() {
    if grep -q "^check n=$2: PASS" "$log/check.txt"; then
        pass "$1"
    else
        fail "$1" "$(grep -h "n=${2}[ :,]" "$log/check.txt" "$log/check-err.txt" | head -2 | tr '\n' ' ')$(head -c 200 "$log/check-err.txt")"
    fi
}

# check PROGRAM SIZE...: one test per size.
check() {
    local program=$1 list n
    shift
    if [ -z "$gpu" ]; then
        for n in "$@"; do skip "gpu $program $type n=$n" "no GPU"; done
        return
    fi
    list=$(IFS=,; echo "$*")
    timeout 900 "$program" --check "$list" > "$log/check.txt" 2> "$log/check-err.txt"
    for n in "$@"; do check_verdict "gpu $program $type n=$n" "$n"; done
}

# gpu_expect NAME CODE TEXT PROGRAM ARGS...: like expect, but needs a GPU.
gpu_expect() {
    if [ -z "$gpu" ]; then skip "$1" "no GPU"; else expect "$@"; fi
}

for program in "${programs[@]}"; do
    check "$program" "${sizes[@]}"
done
for program in "${programs[@]}"; do
    case $program in step[6-9]_*|step1[0-9]_*|cub_reference/*) check "$program" "$huge" ;; esac
done
for program in "${single_pass[@]}"; do
    gpu_expect "gpu $program: 100 calls in a row, every result verified" 0 "" \
        "$program" -n 2^20+7 -r 100 --warmup 0 --quiet
done

# --input: a file with a known sum, and --print-sum for scripts
case $type in
    int)    one='\x01\x00\x00\x00' ;;
    float)  one='\x00\x00\x80\x3f' ;;
    double) one='\x00\x00\x00\x00\x00\x00\xf0\x3f' ;;
esac
for _ in $(seq 1000); do printf '%b' "$one"; done > "$log/ones.bin"
if [ -z "$gpu" ]; then
    skip "gpu --input 1000 ones and --print-sum" "no GPU"
else
    out=$("step8_vectorized/reduce$suffix" --input "$log/ones.bin" --print-sum --quiet 2>&1)
    status=$?
    if [ "$status" -eq 0 ] && [ "$out" = "1000" ]; then
        pass "gpu --input 1000 ones and --print-sum"
    else
        fail "gpu --input 1000 ones and --print-sum" "exit $status, printed '$out', expected 1000"
    fi
fi
gpu_expect "gpu input: more memory than the card has" 2 "free"       "$large" -n 2^40
gpu_expect "gpu input: device index that does not exist" 2 "--device" "$large" -n 1000 --device 99

# ---------------------------------------------------------------- step 12
# multi_check G SIZE...: step 12 on G GPUs (G = all: every GPU), one test per size; SKIP
# by name when the machine has fewer GPUs, or no GPU, or NCCL was not found.
multi_name=step12_multi_gpu/reduce$suffix
visible=$( [ -n "$gpu" ] && visible_gpus || echo 0)
# size_note G N: what makes size N adversarial on G GPUs, for the test's name
size_note() {
    [ "$1" = all ] && return
    if [ "$2" -lt "$1" ]; then echo " (n < G)"
    elif [ "$1" -gt 1 ] && [ $(($2 % $1)) -ne 0 ]; then echo " (n % G != 0)"; fi
}
multi_check() {
    local g=$1 list n name reason="" args=()
    shift
    [ "$g" = all ] || args=(--gpus "$g")
    if [ -z "$multi_program" ]; then reason="NCCL not found"
    elif [ -z "$gpu" ]; then reason="no GPU"
    elif [ "$g" != all ] && [ "$visible" -lt "$g" ]; then reason="needs $g GPUs, this machine has $visible"; fi
    if [ -z "$reason" ]; then
        list=$(IFS=,; echo "$*")
        timeout 900 "$multi_program" "${args[@]}" --check "$list" > "$log/check.txt" 2> "$log/check-err.txt"
    fi
    for n in "$@"; do
        name="gpu $multi_name $type G=$g n=$n$(size_note "$g" "$n")"
        if [ -n "$reason" ]; then skip "$name" "$reason"; else check_verdict "$name" "$n"; fi
    done
}
multi_check 1 "${sizes[@]}" "$huge"
multi_check 2 "${sizes[@]}"
if [ "$visible" -gt 2 ]; then multi_check all "${sizes[@]}" "$huge"
else multi_check all 1 3 257 $((2**20 + 7)); fi   # all = 1 or 2 here: a few sizes
if [ -z "$multi_program" ]; then
    for name in "--gpus 0" "--gpus 99" "--gpus above the GPUs there are" "--device" "one GPU at a time: 100 calls"; do
        skip "input/gpu $multi_name: $name" "NCCL not found"
    done
else
    expect "input: $multi_name --gpus 0"  2 "--gpus" "$multi_program" --gpus 0 -n 1000
    expect "input: $multi_name --gpus 99" 2 "--gpus" "$multi_program" --gpus 99 -n 1000
    expect "input: $multi_name --device"  2 "CUDA_VISIBLE_DEVICES" "$multi_program" --device 1 -n 1000
    gpu_expect "gpu input: $multi_name --gpus above the GPUs there are" 2 "this machine has" \
        "$multi_program" --gpus $((visible + 1)) -n 1000
    gpu_expect "gpu $multi_name --gpus 1: 100 calls in a row, every result verified" 0 "" \
        "$multi_program" --gpus 1 -n 2^20+7 -r 100 --warmup 0 --quiet
fi
expect "input: --gpus on a one-GPU step" 2 "step12_multi_gpu" "$large" --gpus 2 -n 1000

# ---------------------------------------------------------------- lab
if [ "${LAB_TESTS:-1}" = 0 ]; then
    skip "lab: every lab test" "LAB_TESTS=0"
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
    exit
fi
# make lab / lab-check / lab-status, always in a folder under build/ (LAB_DIR), never in
# a student's lab/. On any machine: every exercise starts, carries the README's exercise
# and TODOs, and builds; bad input; lab-status; the broken copies in tests/lab_broken
# build. On a GPU: lab-check accepts every starting copy (correct, gain not yet) and our
# kernel copied in (gain reached), and rejects each broken copy with the right hint.
lab_root=build/$type/test-lab
rm -rf "$lab_root"
lab_steps=()
for dir in "${dirs[@]}"; do
    [ -f "$dir/reduce.cu" ] || continue   # step 12 is no lab exercise
    case $dir in step0_*|step*/*) ;; step[0-9]_*|step[0-9][0-9]_*) k=${dir#step}; lab_steps+=("${k%%_*}") ;; esac
done

# lab_make NAME CODE TEXT ARGS...: make ARGS exits CODE and its output holds TEXT (an
# error: exactly one line from the script, plus make's own "Error" line)
lab_make() {
    local name=$1 code=$2 text=$3 status lines
    shift 3
    make --no-print-directory "$@" > "$log/lab-out.txt" 2> "$log/lab-err.txt"
    status=$?
    lines=$(grep -vcE '^make(\[[0-9]+\])?: \*\*\*' "$log/lab-err.txt")
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status, expected $code: $(head -c 300 "$log/lab-err.txt")"
    elif [ "$code" -ne 0 ] && [ "$lines" -ne 1 ]; then
        fail "$name" "expected one line on stderr, got $lines"
    elif ! grep -qF -- "$text" "$log/lab-out.txt" "$log/lab-err.txt"; then
        fail "$name" "no '$text' in the output"
    else
        pass "$name"
    fi
}
lab_make "lab: no STEP"        2 "give STEP=k" lab LAB_DIR="$lab_root/start"
lab_make "lab: STEP=0"         2 "give STEP=k" lab STEP=0 LAB_DIR="$lab_root/start"
lab_make "lab: STEP=12"        2 "give STEP=k" lab STEP=$((${lab_steps[-1]} + 1)) LAB_DIR="$lab_root/start"
lab_make "lab: STEP=x"         2 "give STEP=k" lab STEP=x LAB_DIR="$lab_root/start"
lab_make "lab-check: STEP=x"   2 "give STEP=k" lab-check STEP=x LAB_DIR="$lab_root/start"
lab_make "lab-check: no copy"  2 "make lab STEP=3 starts one" lab-check STEP=3 LAB_DIR="$lab_root/none"
lab_make "lab-check: LAB_TYPES=long" 2 "LAB_TYPES" lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_TYPES=long
lab_make "lab-check: LAB_SIZES=2^x" 2 "LAB_SIZES" lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_SIZES="1 2^x"
if [ -d "$lab_root/start" ]; then fail "lab: bad input leaves no folder behind" "$lab_root/start exists"
else pass "lab: bad input leaves no folder behind"; fi

# every exercise starts: the README's exercise in the header, TODOs, and it builds
copies=()
for k in "${lab_steps[@]}"; do
    step=$(step_dir "$k")
    copy=$lab_root/start/$step
    lab_make "lab: make lab STEP=$k" 0 "TODO(step $k)" lab STEP="$k" LAB_DIR="$lab_root/start"
    todos=$(grep -c "// TODO(step $k, " "$copy/reduce.cu" 2>/dev/null)
    # every line of the README's exercise section, in the copy's header comment
    exercise=$(awk -f scripts/lab_exercise.awk "$step/README.md" | grep '[^[:space:]]')
    missing=$(while IFS= read -r line; do
                  grep -qxF -- " * ${line//\*\//*\\/}" "$copy/reduce.cu" 2>/dev/null || echo "$line"
              done <<< "$exercise" | head -1)
    lines=$(grep -c . <<< "$exercise")
    if [ "${todos:-0}" -ge 1 ] && [ "$lines" -ge 3 ] && [ -z "$missing" ]; then
        pass "lab: step $k's copy has the README's exercise ($lines lines) and $todos TODOs"
    else
        fail "lab: step $k's copy has the README's exercise and TODOs" "$todos TODOs, $lines exercise lines, missing: '$missing'"
    fi
    copies+=("$copy")
done

# build_all DIR...: make every copy for $type at once (one job per core); one test each
build_all() {
    local dir
    # shellcheck disable=SC2016  # $1 and $2 are the inner sh's: the copy and the type
    printf '%s\n' "$@" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c \
        'make --no-print-directory -s -C "$1" TYPE="$2" > "$1/build.log" 2>&1; echo $? > "$1/build.status"' _ {} "$type"
    for dir in "$@"; do
        if [ "$(cat "$dir/build.status" 2>/dev/null)" = 0 ]; then
            pass "lab: $dir builds ($type)"
        else
            fail "lab: $dir builds ($type)" "$(tail -3 "$dir/build.log" 2>/dev/null | tr '\n' ' ')"
        fi
    done
}

# on a GPU, our step k's kernel in a copy of its own: lab-check must find the gain
if [ -n "$gpu" ]; then
    for k in "${lab_steps[@]}"; do
        step=$(step_dir "$k")
        make --no-print-directory lab STEP="$k" LAB_DIR="$lab_root/ours" > /dev/null 2>&1 &&
            cp "$step/reduce.cu" "$lab_root/ours/$step/reduce.cu" && copies+=("$lab_root/ours/$step")
    done
fi

# the broken copies: each is its step's kernel with one bug, in a copy made by make lab
broken=()
for file in tests/lab_broken/*.cu; do
    name=$(basename "$file" .cu)
    k=${name#step}; k=${k%%_*}
    step=$(step_dir "$k")
    if ! make --no-print-directory lab STEP="$k" LAB_DIR="$lab_root/$name" > "$log/lab-out.txt" 2>&1 ||
       ! cp "$file" "$lab_root/$name/$step/reduce.cu"; then
        fail "lab: broken copy $name set up" "$(head -c 300 "$log/lab-out.txt")"
        continue
    fi
    lines=$(diff "$step/reduce.cu" "$file" | grep -c '^[<>]')
    if [ "$lines" -le 20 ]; then pass "lab: $name is $step's kernel with one bug ($lines lines differ)"
    else fail "lab: $name is $step's kernel with one bug" "$lines lines differ, more than 20"; fi
    broken+=("$name")
    copies+=("$lab_root/$name/$step")
done
build_all "${copies[@]}"

# a copy that exists is never overwritten without FORCE=1
copy=$lab_root/start/$(step_dir 3)
echo "// the student's work" >> "$copy/reduce.cu"
lab_make "lab: refuses to overwrite a copy" 2 "FORCE=1" lab STEP=3 LAB_DIR="$lab_root/start"
if grep -q "the student's work" "$copy/reduce.cu"; then pass "lab: the refused copy is untouched"
else fail "lab: the refused copy is untouched" "the student's line is gone"; fi
lab_make "lab: FORCE=1 replaces a copy" 0 "TODO(step 3)" lab STEP=3 LAB_DIR="$lab_root/start" FORCE=1
if grep -q "the student's work" "$copy/reduce.cu"; then fail "lab: FORCE=1 starts from a fresh copy" "old line kept"
else pass "lab: FORCE=1 starts from a fresh copy"; fi

# lab-status: started, checked, changed since the check
echo "correct, gain reached" > "$copy/.lab-check"
touch -d '-1 hour' "$copy/reduce.cu"
lab_make "lab-status: every started step listed" 0 "${#lab_steps[@]} of ${lab_steps[-1]} started" lab-status LAB_DIR="$lab_root/start"
if grep -qE "^3 .*checked: correct, gain reached" "$log/lab-out.txt"; then pass "lab-status: a checked copy shows its verdict"
else fail "lab-status: a checked copy shows its verdict" "$(grep '^3 ' "$log/lab-out.txt")"; fi
touch "$copy/reduce.cu"
touch -d '-1 hour' "$copy/.lab-check"
make --no-print-directory lab-status LAB_DIR="$lab_root/start" > "$log/lab-out.txt" 2>&1
if grep -qE "^3 .*changed since" "$log/lab-out.txt"; then pass "lab-status: a copy edited after its check is not passed"
else fail "lab-status: a copy edited after its check is not passed" "$(grep '^3 ' "$log/lab-out.txt")"; fi
rm -f "$copy/.lab-check"
make --no-print-directory lab-status LAB_DIR="$lab_root/none" > "$log/lab-out.txt" 2>&1
if grep -q "0 of ${lab_steps[-1]} started" "$log/lab-out.txt" && grep -q "not started" "$log/lab-out.txt"; then
    pass "lab-status: nothing started"
else
    fail "lab-status: nothing started" "$(tail -1 "$log/lab-out.txt")"
fi

# the lab table takes its three rows in the order lab-check ran them: a student who pasted
# our kernel has a copy with our name, and must still see their own time, not ours
row() { echo "\"$1\",\"$2\",\"int\",1024,4096,\"GPU\",1000.0,20,1,$3,$3,$3,$3,$3,1.0,0.1,0.000e+00,\"PASSED\",1,0"; }
{ build/tools/report header
  row step2_x "step2 start" 2.000000; row step3_x "step3 (yours)" 1.500000; row step3_x "step3 ours" 1.000000
} > "$log/lab-rows.csv"
build/tools/report lab "$log/lab-rows.csv" 3 step2_x step3_x step3_x > "$log/lab-table.txt" 2>&1
if grep -qE '^yours .* 1\.500 ' "$log/lab-table.txt" && grep -qE '^ours .* 1\.000 ' "$log/lab-table.txt"; then
    pass "lab: the lab table shows your time even when your copy has our step's name"
else
    fail "lab: the lab table shows your time even when your copy has our step's name" "$(tr '\n' ' ' < "$log/lab-table.txt")"
fi

# lab_check NAME CODE PATTERN K LAB_DIR [VAR=VALUE...]: scripts/lab.sh check K exits CODE
# and its output matches the extended regex PATTERN (GPU only)
lab_sizes="1 2 3 31 33 255 257 511 513 1023 1025 4099 65537 1048579"
lab_check() {
    local name=$1 code=$2 pattern=$3 k=$4 dir=$5 status
    shift 5
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; return; fi
    env LAB_DIR="$dir" LAB_TYPES="$type" LAB_SIZES="$lab_sizes" LAB_HUGE=0 LAB_SANITIZE=0 N=2^24 REPS=20 PROFILE=0 "$@" \
        timeout 900 scripts/lab.sh check "$k" > "$log/lab-check.txt" 2>&1
    status=$?
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status, expected $code: $(grep -m3 -E 'FAIL|hint|verdict|lab-check' "$log/lab-check.txt" | tr '\n' ' ')"
    elif ! grep -qE -- "$pattern" "$log/lab-check.txt"; then
        fail "$name" "no /$pattern/ in: $(grep -m3 -E 'FAIL|hint|verdict' "$log/lab-check.txt" | tr '\n' ' ')"
    else
        pass "$name"
    fi
    cp "$log/lab-check.txt" "$log/$(echo "$name" | tr -c 'A-Za-z0-9\n' _).txt"
}

if [ -z "$gpu" ]; then
    # without a GPU, lab-check builds every type asked for, then says so and exits 3
    LAB_DIR="$lab_root/start" LAB_TYPES="$type" scripts/lab.sh check 3 > "$log/lab-check.txt" 2>&1
    status=$?
    if [ "$status" -eq 3 ] && grep -q "no GPU here" "$log/lab-check.txt"; then pass "lab-check without a GPU: built, exit 3"
    else fail "lab-check without a GPU: built, exit 3" "exit $status: $(tail -2 "$log/lab-check.txt" | tr '\n' ' ')"; fi
fi
for k in "${lab_steps[@]}"; do
    lab_check "gpu lab-check STEP=$k, the starting copy: correct, gain not yet" 0 \
        "verdict: (gain not yet|time can't tell)" "$k" "$lab_root/start"
done
sanitizer=$(command -v "${SANITIZER:-compute-sanitizer}" || command -v "${CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer")
for k in "${lab_steps[@]}"; do
    extra=()
    [ "$k" = 4 ] && [ -n "$sanitizer" ] && extra=(LAB_SANITIZE=1)   # racecheck passes a correct last warp
    lab_check "gpu lab-check STEP=$k, our kernel copied in: correct, gain reached" 0 \
        "verdict: (gain reached|time can't tell)" "$k" "$lab_root/ours" "${extra[@]}"
done
for name in "${broken[@]}"; do
    k=${name#step}; k=${k%%_*}
    case $name in
        step3_*) lab_check "gpu lab-check rejects $name: lost tail" 1 "hint: lost tail" "$k" "$lab_root/$name" ;;
        step4_*)
            if [ -n "$gpu" ] && [ -z "$sanitizer" ]; then skip "gpu lab-check rejects $name: racecheck" "no compute-sanitizer"
            # racecheck finds it; should the race ever change a sum, the check's hint names it
            else lab_check "gpu lab-check rejects $name: racecheck" 1 "hint: racecheck|hint: race or lost values" \
                     "$k" "$lab_root/$name" LAB_SANITIZE=1; fi ;;
        step6_*) lab_check "gpu lab-check rejects $name: 32-bit index at 2^31+5" 1 "hint: 32-bit index" "$k" \
                     "$lab_root/$name" LAB_HUGE=1 LAB_SIZES="1 4099" ;;
        step8_*) lab_check "gpu lab-check rejects $name: lost tail" 1 "hint: lost tail" "$k" "$lab_root/$name" ;;
        step11_*) lab_check "gpu lab-check rejects $name: state not reset" 1 "hint: state not reset" "$k" "$lab_root/$name" ;;
        *) fail "lab: broken copy $name has no test" "add one to tests/run.sh" ;;
    esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
