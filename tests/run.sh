#!/usr/bin/env bash
# make test: everything that can run on this machine, one line per test.
#
#   unit      host unit tests of the harness (flags, data, verdict, tables, CSV, SVG)
#   build     every program builds (make -C DIR)
#   diff      consecutive steps' kernel files differ by at most 40 lines (every step)
#   docs      the Doxygen site builds with zero warnings (skipped without doxygen)
#   input     bad input against a real step binary: one line, exit 2, GPU untouched
#   gpu       every program verified exactly on sizes that break careless code, on random
#             and one-hot data; 2^31+5 for the 64-bit steps; step11 and its atomic
#             finishes called 100 times;
#             --input and --print-sum; device-memory and device-index errors.
#             Without a GPU these are listed as SKIP, by name.
#
# The last line is "N passed, N failed, N skipped"; the exit code is 1 if any failed.
# Usage: tests/run.sh PROGRAM_DIR...   (TYPE and SUFFIX come from the Makefile)
set -u
cd "$(dirname "$0")/.."
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
for dir in "${dirs[@]}"; do
    if make --no-print-directory -C "$dir" TYPE="$type" > "$log/build-${dir////_}.txt" 2>&1; then
        pass "build $dir ($type)"
    else
        fail "build $dir ($type)" "see $log/build-${dir////_}.txt"
        tail -5 "$log/build-${dir////_}.txt"
    fi
    for program in $(make --no-print-directory -s -C "$dir" TYPE="$type" programs); do
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

# check PROGRAM SIZE...: one test per size, from the program's "check n=N: PASS" lines.
check() {
    local program=$1 list n
    shift
    if [ -z "$gpu" ]; then
        for n in "$@"; do skip "gpu $program $type n=$n" "no GPU"; done
        return
    fi
    list=$(IFS=,; echo "$*")
    timeout 900 "$program" --check "$list" > "$log/check.txt" 2> "$log/check-err.txt"
    for n in "$@"; do
        if grep -q "^check n=$n: PASS" "$log/check.txt"; then
            pass "gpu $program $type n=$n"
        else
            fail "gpu $program $type n=$n" "$(grep -h "n=$n[ :,]" "$log/check.txt" "$log/check-err.txt" | head -2 | tr '\n' ' ')$(head -c 200 "$log/check-err.txt")"
        fi
    done
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
for _ in $(seq 1000); do printf "$one"; done > "$log/ones.bin"
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

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
