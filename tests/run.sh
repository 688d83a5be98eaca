#!/usr/bin/env bash
# make test: everything that can run on this machine, one line per test.
#
#   unit      host unit tests of the harness (flags, data, verdict, tables, CSV, SVG)
#   build     every program builds (make -C DIR)
#   stale     a change of flags (SM=80) rebuilds a copy of step 0; a second make nothing
#   diff      consecutive steps' kernel files differ by at most 40 lines (every step)
#   docs      the Doxygen site builds with zero warnings (skipped without doxygen)
#   scripts   every script passes shellcheck (skipped, by name, without shellcheck)
#   help      make help lists every target and each variable's true default; README's
#             flags table lists every flag of --help
#   input     bad input against a real step binary: one line, exit 2, GPU untouched
#   targets   make run-all and the other GPU targets ask for a GPU (and their tool) first,
#             in one line, before building; what is missing is said as it is
#   gpu       every program verified exactly on sizes that break careless code, on random
#             and one-hot data; 2^31+5 for the 64-bit steps; step11 and its atomic
#             finishes called 100 times; --input and --print-sum; device-memory and
#             device-index errors.
#   resources make resources: registers and shared memory per step everywhere (the
#             compiler's without a GPU), blocks per SM and occupancy on a GPU.
#   lab       make lab for every step (exercise text, TODOs, the copy builds), bad input,
#             FORCE=1, lab-status, the broken copies and shortcuts of tests/lab_broken
#             build; the #include check rejects the one that calls CUB; lab-grade and
#             lab-grade-all without a GPU (builds graded, GPU checks "not run", valid
#             results.json, the time limit); on a GPU lab-check passes every starting
#             copy and our kernels and rejects each broken copy and shortcut with the
#             right reason, lab-grade gives our kernel full marks and times out a kernel
#             that never ends, and lab-grade-all grades a small class.
#             Without a GPU the GPU checks are listed as SKIP, by name.
#   suites    then each extension's own suite (TEST_SUITES; multi/tests.sh: the multi-GPU
#             steps), which tests the programs of its folders (SUITE_PROGRAM_DIRS).
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
# section NAME: starts a section; the one before it ends with a line giving its time, so a
# slow suite shows where its minutes go (section_times at the end lists them all again)
section_name="" section_start=$SECONDS section_times=""
section() {
    if [ -n "$section_name" ]; then
        echo "-- $section_name: $((SECONDS - section_start)) s"
        section_times+="$section_name $((SECONDS - section_start))s; "
    fi
    section_name=$1 section_start=$SECONDS
}
# step_dir K: the folder of step K, e.g. step3_add_during_load
step_dir() { local dirs=("step$1"_*/); echo "${dirs[0]%/}"; }

# ---------------------------------------------------------------- unit
section unit
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
section build
programs=()        # the programs the sections below test: every folder's but SUITE_PROGRAM_DIRS'
programs_64=()     # those whose kernels index with 64 bits: checked at 2^31+5 too
# suite_owned DIR: true if DIR's programs are tested by an extension's suite (its .mk adds
# the folder to SUITE_PROGRAM_DIRS): built here, then left to that suite
suite_owned() { case " ${SUITE_PROGRAM_DIRS:-} " in *" $1 "*) return 0 ;; esac; return 1; }
for dir in "${dirs[@]}"; do
    build_log=$log/build-${dir////_}.txt
    # what the folder builds here: an extension's folder may build nothing (a library it
    # needs is missing); its build then says why, in one line: "DIR: skipped, why"
    built=$(make --no-print-directory -s -C "$dir" TYPE="$type" programs)
    if ! make --no-print-directory -C "$dir" TYPE="$type" > "$build_log" 2>&1; then
        fail "build $dir ($type)" "see $build_log"
        tail -5 "$build_log"
    elif [ -z "$built" ]; then
        reason=$(sed -n 's/^[^ ]*: skipped, //p' "$build_log" | head -1)
        skip "build $dir ($type)" "${reason:-it built nothing}"
    else
        pass "build $dir ($type)"
    fi
    suite_owned "$dir" && continue
    for program in $built; do
        programs+=("$dir/$program")
        if [ "$(describe "$dir/$program" index_bits)" = 64 ]; then programs_64+=("$dir/$program"); fi
    done
done

# ---------------------------------------------------------------- stale builds
section stale
# Objects depend on the command line they were built with: a copy of step 0 built for
# sm_75, then SM=80 must rebuild it (for sm_80: cuobjdump says so where it is), and a
# second SM=80 must rebuild nothing. In build/, so the step's own build is untouched.
stale=$log/stale/step0_interleaved
rm -rf "$log/stale" && mkdir -p "$stale" && cp step0_interleaved/reduce.cu "$stale/"
echo "include $(pwd)/common/step.mk" > "$stale/Makefile"
stale_make() { make --no-print-directory -C "$stale" TYPE="$type" "$@" > "$log/stale.txt" 2>&1; }
cuobjdump=$(command -v cuobjdump || command -v "${CUDA_PATH:-/usr/local/cuda}/bin/cuobjdump")
if ! stale_make SM=75; then
    fail "stale builds: a copy of step 0 builds" "$(tail -3 "$log/stale.txt" | tr '\n' ' ')"
else
    sleep 1   # a file system that keeps whole seconds must still see the rebuild as newer
    stale_make SM=80
    if grep -q "NVCC" "$log/stale.txt" && grep -q "sm_80" "$stale/build/$type/nvcc.cmd" &&
       [ "$stale/build/$type/step.o" -nt "$stale/build/$type/cc.cmd" ] &&
       { [ -z "$cuobjdump" ] || grep -q sm_80 < <("$cuobjdump" -lelf "$stale/reduce$suffix"); }; then
        pass "stale builds: make SM=80 after a default build rebuilds for sm_80${cuobjdump:+ (cuobjdump -lelf)}"
    else
        fail "stale builds: make SM=80 after a default build rebuilds for sm_80" "$(tr '\n' ' ' < "$log/stale.txt")"
    fi
    touch "$log/stale/mark"
    stale_make SM=80
    if ! grep -q "NVCC" "$log/stale.txt" && [ -z "$(find "$stale" -newer "$log/stale/mark" ! -type d)" ]; then
        pass "stale builds: make SM=80 again rebuilds nothing"
    else
        fail "stale builds: make SM=80 again rebuilds nothing" "$(tr '\n' ' ' < "$log/stale.txt")"
    fi
fi

# ---------------------------------------------------------------- diff
section diff
previous=""
for dir in "${dirs[@]}"; do
    case $dir in step*/*|cub_*) continue ;; step[0-9]_*|step[0-9][0-9]_*) ;; *) continue ;; esac
    suite_owned "$dir" && continue   # an extension's steps: its suite compares them
    if [ -n "$previous" ]; then
        lines=$(diff "$previous/reduce.cu" "$dir/reduce.cu" | grep -c '^[<>]')
        name="diff ${previous%%_*} -> ${dir%%_*} changes $lines lines"
        if [ "$lines" -le 40 ]; then pass "$name (at most 40)"; else fail "$name" "more than 40"; fi
    fi
    previous=$dir
done

# ---------------------------------------------------------------- docs
section docs
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
section scripts
# every script (make's, the tests', CI's) passes shellcheck; .shellcheckrc lets it follow
# the helpers they source
scripts=(scripts/*.sh tests/*.sh .ci/run)
for suite in ${TEST_SUITES:-}; do scripts+=("$(dirname "$suite")"/*.sh); done   # the extensions' scripts
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

# make_expect NAME CODE TEXT ARGS...: make ARGS exits CODE and its output holds TEXT (an
# error: exactly one line from the script, plus make's own "Error" line)
make_expect() {
    local name=$1 code=$2 text=$3 status lines
    shift 3
    make --no-print-directory "$@" > "$log/lab-out.txt" 2> "$log/lab-err.txt" < /dev/null
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

# ---------------------------------------------------------------- make help
section help
# Every target a user runs is in make help (the top Makefile's .PHONY list, step.mk's and
# step 4's but the internal `programs` and `sanitize-flags`), and every variable's default that help shows is
# the one in force: make's own value (print-VAR, from an empty environment) for the
# makefiles' variables, ${VAR:-default} in the script that documents it.
make --no-print-directory help > "$log/help.txt" 2>&1
read -ra target_files <<< "$(make --no-print-directory -s print-TARGET_FILES)"
read -ra help_files <<< "$(make --no-print-directory -s print-HELP_FILES)"
phony=$(awk '/^\.PHONY:/ { on = 1 } on { print; if ($0 !~ /\\$/) on = 0 }' "${target_files[@]}" common/step.mk step4_unroll_warp/Makefile |
        tr ' \134' '\n' | grep -vE '^(\.PHONY:|\$\(.*\)|programs|sanitize-flags|FORCE|)$' | sort -u)
missing=$(for t in $phony; do grep -qE "^  (-C [^ ]+ )?([a-z0-9|_-]*\|)?$t([ :|]|$)" "$log/help.txt" || echo "$t"; done | tr '\n' ' ')
if [ -n "$phony" ] && [ -z "$missing" ]; then pass "make help lists every target ($(wc -w <<< "$phony") of them)"
else fail "make help lists every target" "missing: ${missing:-the .PHONY list was not found}"; fi
wrong=""
while IFS= read -r line; do
    file=${line%%:*} line=${line#*:##= }
    name=${line%%=*} value=${line#*=}
    value=${value%%: *} value=${value#\"} value=${value%\"}
    case $value in "("*) continue ;; esac   # a default that depends on the machine, in words
    case $file in
        *.sh) grep -qF "\${$name:-$value}" "$file" || wrong="$wrong $name ($file has no \${$name:-$value})" ;;
        *) actual=$(env -i PATH="$PATH" HOME="${HOME:-/}" make --no-print-directory -s "print-$name")
           [ "$actual" = "$value" ] || wrong="$wrong $name (make says '$actual', help '$value')" ;;
    esac
done < <(grep -H '^##= ' "${help_files[@]}")
count=$(grep -c '^  [A-Z_]*=' "$log/help.txt")
for name in TYPE N REPS SIZES SM NVCC_ARCH CUDA_PATH DEVICE V LAB_DIR LAB_TYPES; do
    grep -q "^  $name=" "$log/help.txt" || wrong="$wrong $name (not in make help)"
done
if [ -z "$wrong" ] && [ "$count" -ge 12 ]; then pass "make help shows every variable with its real default ($count of them)"
else fail "make help shows every variable with its real default" "${wrong:-only $count variables}"; fi

# ---------------------------------------------------------------- README
section readme
# README's flags table lists every flag the programs' --help names (the one-GPU programs';
# an extension's suite checks its own), the notations of -n included; and README says how
# to test the other types and how to clean.
table=$(awk '/^\| flag \| meaning \|/ { on = 1 } on && !/^\|/ { exit } on' README.md)
helps=$("step3_add_during_load/reduce$suffix" --help 2>&1)
flags=$(echo "$helps" | grep -oE -- '(^|[ ,(])(--[a-z][a-z-]*|-[a-z],|2\^K[+-]M)' | sed 's/^[ ,(]//; s/,$//' | sort -u)
missing=$(for f in $flags; do grep -qF -e "\`$f" -e ", $f" <<< "$table" || echo "$f"; done | tr '\n' ' ')
if [ -n "$table" ] && [ "$(wc -w <<< "$flags")" -ge 17 ] && [ -z "$missing" ]; then
    pass "README's flags table lists every flag of --help ($(wc -w <<< "$flags"))"
else
    fail "README's flags table lists every flag of --help" "missing: ${missing:-the table, or flags in --help}"
fi
if grep -qF 'make test TYPE=float' README.md && grep -qF 'make test TYPE=double' README.md && grep -qF 'make clean' README.md; then
    pass "README says make test TYPE=float, TYPE=double and make clean"
else
    fail "README says make test TYPE=float, TYPE=double and make clean" "one of them is not in README.md"
fi

# ---------------------------------------------------------------- bad input
section input
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
case $type in   # the element 1, raw
    int)    one='\x01\x00\x00\x00' ;;
    float)  one='\x00\x00\x80\x3f' ;;
    double) one='\x00\x00\x00\x00\x00\x00\xf0\x3f' ;;
esac
small=$(for p in "${programs[@]}"; do [ "$(describe "$p" index_bits)" = 32 ] && echo "$p"; done | head -1)  # a 32-bit step
large=${programs_64[0]:-}   # a 64-bit step
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
    # sizes that overflow 64 bits are "not a size" in every notation, never wrapped around
    expect "input: n = 2^0+(2^64-1) overflows" 2 "not a size"    "$small" -n 2^0+18446744073709551615
    expect "input: n = 2^1+(2^64-1) overflows" 2 "not a size"    "$small" -n 2^1+18446744073709551615
    "$small" -n 2^63 2> "$log/pow.txt"; "$small" -n 9223372036854775808 2> "$log/dec.txt"
    if cmp -s "$log/pow.txt" "$log/dec.txt" && [ -s "$log/pow.txt" ]; then pass "input: -n 2^63 and -n 9223372036854775808 get the same line"
    else fail "input: -n 2^63 and -n 9223372036854775808 get the same line" "$(cat "$log/pow.txt" "$log/dec.txt" | tr '\n' ' ')"; fi
    # each program says its own maximum and why
    expect "input: a 32-bit step's maximum says why" 2 "indexes with 32-bit integers" "$small" -n 2^31
    expect "input: a 64-bit step's maximum says why" 2 "maximum of 9223372036854775807" "$large" -n 2^63
    if grep -q "step6 or later\|32-bit" "$log/err.txt"; then fail "input: a 64-bit step never says 'use step6'" "$(cat "$log/err.txt")"
    else pass "input: a 64-bit step never says 'use step6'"; fi
    # --csv that cannot be written: refused before anything runs
    expect "input: --csv in a folder that does not exist" 2 "--csv" "$small" -n 1000 --csv /nonexistent/dir/x.csv
    expect "input: --csv names a directory" 2 "--csv"     "$small" -n 1000 --csv "$log"
    expect "input: --csv empty"             2 "--csv"     "$small" -n 1000 --csv ""
    # --input whose sum cannot be verified: the data's fault, said before the GPU
    case $type in
        int)
            printf '\xff\xff\xff\x7f\xff\xff\xff\x7f' > "$log/overflow.bin"
            expect "input: --input whose int sum overflows" 2 "4294967294" "$small" --input "$log/overflow.bin" ;;
        float|double)
            if [ "$type" = float ]; then nan='\x00\x00\xc0\x7f' inf='\x00\x00\x80\x7f' max='\xff\xff\x7f\x7f'
            else nan='\x00\x00\x00\x00\x00\x00\xf8\x7f' inf='\x00\x00\x00\x00\x00\x00\xf0\x7f' max='\xff\xff\xff\xff\xff\xff\xef\x7f'; fi
            printf '%b' "$one$one$nan" > "$log/nan.bin"; printf '%b' "$inf$inf" > "$log/inf.bin"
            printf '%b' "$max$max" > "$log/overflow.bin"
            expect "input: --input with a NaN element"    2 "element 2 is nan" "$small" --input "$log/nan.bin"
            expect "input: --input with infinity"         2 "element 0 is inf" "$small" --input "$log/inf.bin"
            expect "input: --input whose sum overflows"   2 "overflow"         "$small" --input "$log/overflow.bin" ;;
    esac
else
    fail "bad input tests" "no 32-bit program ('$small') or no 64-bit one ('$large') was built"
fi

# ---------------------------------------------------------------- gpu
section gpu
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
    # without libcuda there is no driver to update: the line says so
    if have_libcuda; then skip "no GPU: without a driver the line says so" "libcuda.so.1 is here"
    elif grep -q "no NVIDIA driver" "$log/probe.txt" && ! grep -q "insufficient" "$log/probe.txt"; then
        pass "no GPU: without a driver the line says so"
    else
        fail "no GPU: without a driver the line says so" "$(cat "$log/probe.txt")"
    fi
elif [ "$probe" -eq 0 ]; then
    gpu=yes
else
    gpu=yes
    fail "gpu probe: step0 -n 1" "exit $probe: $(head -c 300 "$log/probe.txt")"
fi

# ------------------------------------------------ targets that need a GPU, asked first
# scripts/preflight.sh, the first line of make run-all, sweep, scaling, latency, profile,
# sanitize and race-demo: it agrees with the programs, and without a GPU make run-all says
# so in one line before building anything (NVCC=false: a build would fail) and calls no
# step FAILED.
scripts/preflight.sh run-all 2> "$log/preflight.txt"
preflight=$?
if { [ "$probe" -eq 3 ] && [ "$preflight" -eq 3 ]; } || { [ "$probe" -ne 3 ] && [ "$preflight" -eq 0 ]; }; then
    pass "make run-all's GPU check agrees with the programs (exit $preflight)"
else
    fail "make run-all's GPU check agrees with the programs" "programs exit $probe, the check $preflight: $(cat "$log/preflight.txt")"
fi
if [ -z "$gpu" ]; then
    make_expect "make run-all without a GPU: one line, nothing built, no step FAILED" 2 "not run, " run-all NVCC=false
    if grep -q "FAILED\|NVCC" "$log/lab-out.txt" "$log/lab-err.txt"; then
        fail "make run-all without a GPU never says FAILED" "$(cat "$log/lab-out.txt" "$log/lab-err.txt" | head -3 | tr '\n' ' ')"
    else
        pass "make run-all without a GPU never says FAILED"
    fi
else
    skip "make run-all without a GPU: one line, nothing built, no step FAILED" "a GPU is here"
    skip "make run-all without a GPU never says FAILED" "a GPU is here"
fi
# what is missing, said as it is: a stand-in nvidia-smi for each case (any machine)
fake=$log/fake-smi
mkdir -p "$fake"
# missing_says NAME TEXT SCRIPT [VAR=VALUE...]: gpu_missing with nvidia-smi replaced by SCRIPT says TEXT
missing_says() {
    local name=$1 text=$2 script=$3 out
    shift 3
    printf '#!/bin/sh\n%s\n' "$script" > "$fake/nvidia-smi"
    chmod +x "$fake/nvidia-smi"
    out=$(env NVIDIA_SMI="$fake/nvidia-smi" "$@" bash -c '. scripts/gpus.sh; have_libcuda() { false; }; gpu_missing')
    if { [ -z "$text" ] && [ -z "$out" ]; } || { [ -n "$text" ] && [[ $out == *"$text"* ]] && [ "$(echo "$out" | wc -l)" -eq 1 ]; }; then
        pass "$name"
    else
        fail "$name" "said '$out', expected '${text:-nothing}'"
    fi
}
# (the stand-ins answer what gpus.sh asks: --query-gpu=index's CSV, and -q -x's XML)
# shellcheck disable=SC2016  # $1 is the stand-in's own argument
listing='[ "$1" = --query-gpu=index ] && { echo 0; exit 0; }'
missing_says "no GPU, said as it is: no driver"  "no NVIDIA driver" "" NVIDIA_SMI=/nonexistent/nvidia-smi
missing_says "no GPU, said as it is: driver not answering" "not answering" \
    "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9"
# shellcheck disable=SC2016  # $1 is the stand-in's own argument
missing_says "no GPU, said as it is: a driver and no GPU" "no GPU: the NVIDIA driver is installed" \
    '[ "$1" = --query-gpu=index ] && { echo "No devices were found"; exit 6; }; echo "<cuda_version>13.0</cuda_version>"'
missing_says "no GPU, said as it is: CUDA_VISIBLE_DEVICES hides them" "CUDA_VISIBLE_DEVICES=''" \
    "$listing; echo '<cuda_version>99.0</cuda_version>'" CUDA_VISIBLE_DEVICES=
missing_says "no GPU, said as it is: a GPU and a new driver is no complaint" "" "$listing; echo '<cuda_version>99.0</cuda_version>'"
toolkit=$("${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}" --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
if [ "${toolkit:-0}" -ge 12 ]; then
    missing_says "no GPU, said as it is: a driver older than the toolkit" "driver too old: it supports CUDA 11.8" \
        "$listing; echo '<cuda_version>11.8</cuda_version>'"
else
    skip "no GPU, said as it is: a driver older than the toolkit" "nvcc's version unknown"
fi
# a missing compute-sanitizer: one line saying where it comes from, before any build,
# the same line for make -C step4_unroll_warp race-demo as for make sanitize
make_expect "race-demo without compute-sanitizer says how to get it" 2 "compute-sanitizer not found: it ships with the CUDA Toolkit" \
    -C step4_unroll_warp race-demo SANITIZER=/nonexistent/compute-sanitizer NVCC=false
cp "$log/lab-err.txt" "$log/race-demo-err.txt"
make_expect "make sanitize without compute-sanitizer says how to get it" 2 "compute-sanitizer not found: it ships with the CUDA Toolkit" \
    sanitize SANITIZER=/nonexistent/compute-sanitizer NVCC=false
if diff <(grep -o 'compute-sanitizer not found.*' "$log/race-demo-err.txt") <(grep -o 'compute-sanitizer not found.*' "$log/lab-err.txt") > /dev/null; then
    pass "race-demo and make sanitize give the same hint"
else
    fail "race-demo and make sanitize give the same hint" "$(cat "$log/race-demo-err.txt" "$log/lab-err.txt" | tr '\n' ' ')"
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
for program in "${programs_64[@]}"; do
    check "$program" "$huge"
done
# every program's state (step 11's ticket counter, a cache of any kind) must survive many calls
for program in "${programs[@]}"; do
    gpu_expect "gpu $program: 100 calls in a row, every result verified" 0 "" \
        "$program" -n 2^20+7 -r 100 --warmup 0 --quiet
done

# --input: a file with a known sum, and --print-sum for scripts; then large values whose
# sum is exact although partial sums are not (int: they wrap; floats: 2^100 - 2^100 + 1)
for _ in $(seq 1000); do printf '%b' "$one"; done > "$log/ones.bin"
case $type in
    int)    printf '\xff\xff\xff\x7f\xff\xff\xff\x7f\x01\x00\x00\x80\x01\x00\x00\x80\x05\x00\x00\x00' > "$log/large.bin"
            large_sum=5 ;;
    float)  printf '%b' "\x00\x00\x80\x71$one\x00\x00\x80\xf1" > "$log/large.bin"; large_sum="" ;;
    double) printf '%b' "\x00\x00\x00\x00\x00\x00\x30\x46$one\x00\x00\x00\x00\x00\x00\x30\xc6" > "$log/large.bin"
            large_sum="" ;;
esac
# gpu_sum NAME FILE SUM: step 8 --input FILE --print-sum exits 0 and prints SUM (any: any sum)
gpu_sum() {
    local out status
    if [ -z "$gpu" ]; then skip "$1" "no GPU"; return; fi
    out=$("step8_vectorized/reduce$suffix" --input "$2" --print-sum --quiet 2>&1)
    status=$?
    if [ "$status" -eq 0 ] && { [ "$3" = any ] || [ "$out" = "$3" ]; }; then pass "$1"
    else fail "$1" "exit $status, printed '$out', expected $3"; fi
}
gpu_sum "gpu --input 1000 ones and --print-sum" "$log/ones.bin" 1000
gpu_sum "gpu --input large values that cancel" "$log/large.bin" "${large_sum:-any}"
gpu_expect "gpu input: more memory than the card has" 2 "free"       "$large" -n 2^40
gpu_expect "gpu input: device index that does not exist" 2 "--device" "$large" -n 1000 --device 99

# ---------------------------------------------------------------- resources
section resources
# make resources: a row per step and one for CUB. Everywhere: registers > 0 and shared
# memory = threads x element size (every step's block_sum() holds one THREADS-sized
# array); without a GPU, the compiler's figures and one line saying the rest needs a GPU;
# on a GPU, blocks per SM >= 1 and occupancy = blocks x threads / the most threads an SM
# holds (from the table's header), SKIP by name without one.
make --no-print-directory resources TYPE="$type" > "$log/resources.txt" 2>&1
status=$?
if [ "$status" -eq 0 ]; then pass "resources: make resources TYPE=$type runs"
else fail "resources: make resources TYPE=$type runs" "exit $status: $(tail -3 "$log/resources.txt" | tr '\n' ' ')"; fi
if [ -z "$gpu" ]; then
    name="resources without a GPU: the compiler's figures, and one line says the rest needs a GPU"
    if grep -q "^no GPU: compiler figures (ptxas, sm_[0-9]*[a-z]*), TYPE=$type\$" "$log/resources.txt" &&
       grep -qx "resident blocks and occupancy need a GPU" "$log/resources.txt"; then pass "$name"
    else fail "$name" "$(head -1 "$log/resources.txt"), ... $(tail -1 "$log/resources.txt")"; fi
fi
case $type in double) element_bytes=8 ;; *) element_bytes=4 ;; esac
max_threads=$(sed -n 's/.* per SM at most \([0-9]*\) threads.*/\1/p' "$log/resources.txt" | head -1)
for dir in "${dirs[@]}"; do
    # make resources' rows: every program of its own folder but an extension's (a folder of
    # variants, step*/*, is not a step)
    case $dir in step*/*) continue ;; esac
    if [ ! -x "$dir/reduce$suffix" ] || suite_owned "$dir"; then continue; fi
    row=$(awk -v name="$dir" '$1 == name' "$log/resources.txt")
    if [ "$(describe "$dir/reduce$suffix" kernel)" = library ]; then
        if grep -q "not reported" <<< "$row"; then pass "resources: $dir's row says its kernels are not reported"
        else fail "resources: $dir's row says its kernels are not reported" "row: '$row'"; fi
        continue
    fi
    threads="" registers="" shared="" blocks="" occupancy=""
    read -r _ threads registers shared blocks occupancy _ <<< "$row"
    name="resources $dir $type: registers > 0, shared memory = threads x $element_bytes bytes"
    if [[ $registers =~ ^[0-9]+$ ]] && [ "$registers" -gt 0 ] && [[ $threads =~ ^[0-9]+$ ]] &&
       [ "$shared" = "$((threads * element_bytes))" ]; then pass "$name"
    else fail "$name" "row: '$row'"; fi
    name="gpu resources $dir $type: blocks per SM >= 1, occupancy = blocks x threads / threads per SM"
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; continue; fi
    expected=$(awk -v b="$blocks" -v t="$threads" -v m="${max_threads:-0}" 'BEGIN { if (m > 0) printf "%.1f%%", 100 * b * t / m }')
    if [[ $blocks =~ ^[0-9]+$ ]] && [ "$blocks" -ge 1 ] && [ -n "$expected" ] && [ "$occupancy" = "$expected" ]; then
        pass "$name"
    else fail "$name" "row: '$row', threads per SM '$max_threads', expected occupancy $expected"; fi
done

# ---------------------------------------------------------------- lab
section lab
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

make_expect "lab: no STEP"        2 "give STEP=k" lab LAB_DIR="$lab_root/start"
make_expect "lab: STEP=0"         2 "give STEP=k" lab STEP=0 LAB_DIR="$lab_root/start"
make_expect "lab: STEP=12"        2 "give STEP=k" lab STEP=$((${lab_steps[-1]} + 1)) LAB_DIR="$lab_root/start"
make_expect "lab: STEP=x"         2 "give STEP=k" lab STEP=x LAB_DIR="$lab_root/start"
make_expect "lab-check: STEP=x"   2 "give STEP=k" lab-check STEP=x LAB_DIR="$lab_root/start"
make_expect "lab-check: no copy"  2 "make lab STEP=3 starts one" lab-check STEP=3 LAB_DIR="$lab_root/none"
make_expect "lab-check: LAB_TYPES=long" 2 "LAB_TYPES" lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_TYPES=long
make_expect "lab-check: LAB_SIZES=2^x" 2 "LAB_SIZES" lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_SIZES="1 2^x"
if [ -d "$lab_root/start" ]; then fail "lab: bad input leaves no folder behind" "$lab_root/start exists"
else pass "lab: bad input leaves no folder behind"; fi

# every exercise starts: the README's exercise in the header, TODOs, and it builds
copies=()
for k in "${lab_steps[@]}"; do
    step=$(step_dir "$k")
    copy=$lab_root/start/$step
    make_expect "lab: make lab STEP=$k" 0 "TODO(step $k)" lab STEP="$k" LAB_DIR="$lab_root/start"
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
    if [ "$lines" -le 30 ]; then pass "lab: $name is $step's kernel with one bug or shortcut ($lines lines differ)"
    else fail "lab: $name is $step's kernel with one bug or shortcut" "$lines lines differ, more than 30"; fi
    broken+=("$name")
    copies+=("$lab_root/$name/$step")
done
build_all "${copies[@]}"

# a copy that exists is never overwritten without FORCE=1
copy=$lab_root/start/$(step_dir 3)
echo "// the student's work" >> "$copy/reduce.cu"
make_expect "lab: refuses to overwrite a copy" 2 "FORCE=1" lab STEP=3 LAB_DIR="$lab_root/start"
if grep -q "the student's work" "$copy/reduce.cu"; then pass "lab: the refused copy is untouched"
else fail "lab: the refused copy is untouched" "the student's line is gone"; fi
make_expect "lab: FORCE=1 replaces a copy" 0 "TODO(step 3)" lab STEP=3 LAB_DIR="$lab_root/start" FORCE=1
if grep -q "the student's work" "$copy/reduce.cu"; then fail "lab: FORCE=1 starts from a fresh copy" "old line kept"
else pass "lab: FORCE=1 starts from a fresh copy"; fi

# lab-status: started, checked, changed since the check
echo "correct, gain reached" > "$copy/.lab-check"
touch -d '-1 hour' "$copy/reduce.cu"
make_expect "lab-status: every started step listed" 0 "${#lab_steps[@]} of ${lab_steps[-1]} started" lab-status LAB_DIR="$lab_root/start"
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
# report field: a CSV read by column name, the scripts' way (make latency, lab-check's times)
name="report field reads a column of the rows by its name, and refuses a name it has not"
if [ "$(build/tools/report field "$log/lab-rows.csv" median_ms | paste -sd' ')" = "2.000000 1.500000 1.000000" ] &&
   [ "$(build/tools/report field "$log/lab-rows.csv" label | sed -n 2p)" = "step3 (yours)" ] &&
   ! build/tools/report field "$log/lab-rows.csv" no_such_column > /dev/null 2>&1; then pass "$name"
else fail "$name" "$(build/tools/report field "$log/lab-rows.csv" median_ms 2>&1 | tr '\n' ' ')"; fi

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
sanitizer=$(find_sanitizer)
for k in "${lab_steps[@]}"; do
    extra=()
    [ "$k" = 4 ] && [ -n "$sanitizer" ] && extra=(LAB_SANITIZE=1)   # racecheck passes a correct last warp
    lab_check "gpu lab-check STEP=$k, our kernel copied in: correct, gain reached" 0 \
        "verdict: (gain reached|time can't tell)" "$k" "$lab_root/ours" "${extra[@]}"
done
# each broken copy and shortcut, and the check that must reject it (LAB.md, "Grading a
# class", says why each is caught)
for name in "${broken[@]}"; do
    k=${name#step}; k=${k%%_*}
    case $name in
        step3_no_tail|step8_no_tail)
            lab_check "gpu lab-check rejects $name: lost tail" 1 "hint: lost tail" "$k" "$lab_root/$name" ;;
        step4_no_syncwarp)
            if [ -n "$gpu" ] && [ -z "$sanitizer" ]; then skip "gpu lab-check rejects $name: racecheck" "no compute-sanitizer"
            # racecheck finds it; should the race ever change a sum, the check's hint names it
            else lab_check "gpu lab-check rejects $name: racecheck" 1 "hint: racecheck|hint: race or lost values" \
                     "$k" "$lab_root/$name" LAB_SANITIZE=1; fi ;;
        step6_int_index) lab_check "gpu lab-check rejects $name: 32-bit index at 2^31+5" 1 "hint: 32-bit index" "$k" \
                     "$lab_root/$name" LAB_HUGE=1 LAB_SIZES="1 4099" ;;
        step11_no_ticket_reset)
            lab_check "gpu lab-check rejects $name: state not reset" 1 "hint: state not reset" "$k" "$lab_root/$name" ;;
        step8_cached_result)   # right on the same data: only new data in every timed run catches it
            lab_check "gpu lab-check rejects $name: the second timed run, on new data" 1 "FAILED n=[0-9]+, run 2 of" \
                "$k" "$lab_root/$name" ;;
        step6_timed_differs)   # right at every checked size: the verified timed runs catch it
            lab_check "gpu lab-check rejects $name: the first timed run is verified" 1 "FAILED n=[0-9]+, run 1 of" \
                "$k" "$lab_root/$name" ;;
        step5_half_sampled)
            lab_check "gpu lab-check rejects $name: random and one-hot data" 1 "FAIL $type n=[0-9]+" "$k" "$lab_root/$name" ;;
        step4_check_patterns)  # passes every one-hot: random data at every size catches it
            lab_check "gpu lab-check rejects $name: random data at every size" 1 "FAIL $type n=[0-9]+" "$k" \
                "$lab_root/$name" ;;
        step7_calls_cub)       # static: rejected before it is built, GPU or not
            LAB_DIR="$lab_root/$name" LAB_TYPES="$type" scripts/lab.sh check "$k" > "$log/lab-check.txt" 2>&1
            status=$?
            if [ "$status" -eq 1 ] && grep -q "^FAIL includes: line [0-9]*: #include <cub/cub.cuh>" "$log/lab-check.txt" &&
               ! grep -q "^== build" "$log/lab-check.txt"; then
                pass "lab-check rejects $name before building it: its #include <cub/cub.cuh>"
            else
                fail "lab-check rejects $name before building it: its #include <cub/cub.cuh>" \
                     "exit $status: $(head -3 "$log/lab-check.txt" | tr '\n' ' ')"
            fi ;;
        step3_never_ends) ;;   # lab-grade's time limit, below
        *) fail "lab: broken copy $name has no test" "add one to tests/run.sh" ;;
    esac
done

# ---------------------------------------------------------------- lab-grade
section lab-grade
# The scorer is unit-tested on canned records (the unit tests "grade ..."); here the
# whole chain: lab-grade and lab-grade-all write a valid results.json whose scores add up.
# json_ok FILE: "ok SCORE MAX" for a results.json in Gradescope's format whose tests add
# up to its score, "skip" without python3, else why not
json_ok() {
    command -v python3 > /dev/null 2>&1 || { echo skip; return; }
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert all(k in d for k in ("score", "execution_time", "output", "tests")), "a top-level field is missing"
t = d["tests"]
assert t and all(all(k in x for k in ("name", "score", "max_score", "output")) for x in t), "a test field is missing"
assert all(0 <= x["score"] <= x["max_score"] for x in t), "a score outside 0 .. max_score"
s, m = sum(x["score"] for x in t), sum(x["max_score"] for x in t)
assert abs(s - d["score"]) < 0.005, "tests add up to %.2f, score says %.2f" % (s, d["score"])
print("ok %.2f %.2f" % (d["score"], m))
' "$1" 2>&1 | tail -1
}
# lab_json NAME FILE PATTERN: FILE is valid, adds up, and json_ok's "ok SCORE MAX" matches PATTERN
lab_json() {
    local name=$1 file=$2 pattern=$3 result
    result=$(json_ok "$file")
    if [ "$result" = skip ]; then skip "$name" "python3 not installed (it only checks the JSON)"
    elif [[ $result =~ $pattern ]]; then pass "$name"
    else fail "$name" "$result"; fi
}
build/tools/report weights lab/weights.conf > "$log/weights.txt" 2>&1
if grep -q "total 100.00$" "$log/weights.txt"; then pass "lab-grade: lab/weights.conf is valid and adds up to 100"
else fail "lab-grade: lab/weights.conf is valid and adds up to 100" "$(cat "$log/weights.txt")"; fi
printf 'correct = 50\nmemchek = 5\n' > "$log/bad-weights.conf"
make_expect "lab-grade: a misspelt weight"  2 "unknown key 'memchek'" lab-grade STEP=3 LAB_DIR="$lab_root/start" \
    LAB_WEIGHTS="$log/bad-weights.conf"
make_expect "lab-grade: STEP=x"             2 "give STEP=k" lab-grade STEP=x LAB_DIR="$lab_root/start"
make_expect "lab-grade: no copy"            2 "make lab STEP=3 starts one" lab-grade STEP=3 LAB_DIR="$lab_root/none"
make_expect "lab-grade: LAB_TIMEOUT=soon"   2 "LAB_TIMEOUT" lab-grade STEP=3 LAB_DIR="$lab_root/start" LAB_TIMEOUT=soon
make_expect "lab-grade: LAB_SEED=x"         2 "LAB_SEED" lab-grade STEP=3 LAB_DIR="$lab_root/start" LAB_SEED=x
make_expect "lab-grade-all: no SUBMISSIONS" 2 "give SUBMISSIONS=dir" lab-grade-all
mkdir -p "$lab_root/empty-class/nobody"
make_expect "lab-grade-all: nothing to grade" 2 "no stepK_name/reduce.cu in any folder" lab-grade-all \
    SUBMISSIONS="$lab_root/empty-class"
grade_env=(LAB_TYPES="$type" LAB_HUGE=0 N=2^24 LAB_SANITIZE=0)
step3=$(step_dir 3)
step7=$(step_dir 7)
copy3=$lab_root/start/$step3
# the starting copy: without a GPU it builds and the GPU checks are "not run"; on one it
# is correct and gets no performance points (it is step 2, not yet step 3)
env "${grade_env[@]}" LAB_DIR="$lab_root/start" scripts/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
status=$?
if [ -z "$gpu" ]; then
    if [ "$status" -eq 3 ] && grep -q "^NO GPU HERE" "$log/lab-grade.txt" &&
       grep -q "^correct: not run (no GPU); first failure: GPU checks not run (no GPU here); builds for $type" "$log/lab-grade.txt"; then
        pass "lab-grade without a GPU: built, the GPU checks said not run, exit 3"
    else
        fail "lab-grade without a GPU: built, the GPU checks said not run, exit 3" "exit $status: $(tail -3 "$log/lab-grade.txt" | tr '\n' ' ')"
    fi
    lab_json "lab-grade without a GPU: results.json valid, 0 of 100" "$copy3/results.json" "^ok 0.00 100.00$"
else
    if [ "$status" -eq 0 ] && grep -q "^correct: yes" "$log/lab-grade.txt"; then
        pass "gpu lab-grade: the starting copy of step 3 is correct"
    else
        fail "gpu lab-grade: the starting copy of step 3 is correct" "exit $status: $(tail -3 "$log/lab-grade.txt" | tr '\n' ' ')"
    fi
    # correctness 70 of 70 (no sanitizers: their points follow); performance about 0 of 30
    lab_json "gpu lab-grade: the starting copy's results.json: hardly any performance points" "$copy3/results.json" \
        "^ok 7[0-4]\.[0-9]{2} 100\.00$"
fi
# our kernel: full marks; a shortcut: less, its first failure named; a kernel that never
# ends: "timed out" (GPU); the time limit, on any machine: 1 s is shorter than any build
if [ -n "$gpu" ]; then
    env "${grade_env[@]}" LAB_DIR="$lab_root/ours" scripts/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
    if grep -q "^score: 100.00 / 100.00" "$log/lab-grade.txt"; then pass "gpu lab-grade: our step 3 copied in: full marks"
    else fail "gpu lab-grade: our step 3 copied in: full marks" "$(tail -3 "$log/lab-grade.txt" | tr '\n' ' ')"; fi
    lab_json "gpu lab-grade: our step 3's results.json: 100 of 100" "$lab_root/ours/$step3/results.json" "^ok 100.00 100.00$"
    env "${grade_env[@]}" LAB_DIR="$lab_root/step6_timed_differs" scripts/lab.sh grade 6 > "$log/lab-grade.txt" 2>&1
    if grep -q "^correct: no; first failure: timed runs: " "$log/lab-grade.txt"; then
        pass "gpu lab-grade: step6_timed_differs: the timed runs fail, no performance points"
    else
        fail "gpu lab-grade: step6_timed_differs: the timed runs fail, no performance points" "$(tail -2 "$log/lab-grade.txt" | tr '\n' ' ')"
    fi
    env "${grade_env[@]}" LAB_TIMEOUT=20 LAB_DIR="$lab_root/step3_never_ends" scripts/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
    if grep -q "^correct: timed out; first failure: timed out after 20 s" "$log/lab-grade.txt"; then
        pass "gpu lab-grade: step3_never_ends is killed at the time limit: timed out"
    else
        fail "gpu lab-grade: step3_never_ends is killed at the time limit: timed out" "$(tail -2 "$log/lab-grade.txt" | tr '\n' ' ')"
    fi
else
    skip "gpu lab-grade: our step 3 copied in: full marks" "no GPU"
    skip "gpu lab-grade: step6_timed_differs: the timed runs fail, no performance points" "no GPU"
    skip "gpu lab-grade: step3_never_ends is killed at the time limit: timed out" "no GPU"
fi
make --no-print-directory lab STEP=3 LAB_DIR="$lab_root/limit" > /dev/null 2>&1
env "${grade_env[@]}" LAB_TIMEOUT=1 LAB_DIR="$lab_root/limit" scripts/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
if grep -q "^correct: timed out; first failure: timed out after 1 s" "$log/lab-grade.txt" &&
   grep -qx "timeout 1" "$lab_root/limit/$step3/build/lab-grade/record.txt"; then
    pass "lab-grade: LAB_TIMEOUT=1 kills the checks (the build) and grades what ran"
else
    fail "lab-grade: LAB_TIMEOUT=1 kills the checks (the build) and grades what ran" "$(tail -2 "$log/lab-grade.txt" | tr '\n' ' ')"
fi

# lab-grade-all over a small class: our step 3, the CUB shortcut (in a lab/ folder), a
# build error shipped with a Makefile of its own, and a student who handed in nothing
class=$lab_root/class
mkdir -p "$class/alice/$step3" "$class/bob/lab/$step7" "$class/carol/$step3" "$class/dave"
cp "$step3/reduce.cu" "$class/alice/$step3/reduce.cu"
cp tests/lab_broken/step7_calls_cub.cu "$class/bob/lab/$step7/reduce.cu"
sed 's/return partial\[0\];/return partial[0]/' "$step3/reduce.cu" > "$class/carol/$step3/reduce.cu"
echo "this is not a Makefile" > "$class/carol/$step3/Makefile"   # never copied: the grader writes its own
env "${grade_env[@]}" LAB_GRADES_CSV="$lab_root/grades.csv" LAB_TIMEOUT=600 \
    scripts/lab_grade_all.sh "$class" > "$log/lab-grade-all.txt" 2>&1
status=$?
csv=$lab_root/grades.csv
if [ -n "$gpu" ]; then alice='^"alice",3,"yes","",[0-9.]+,[0-9.]+,100\.00,100\.00,'
else alice='^"alice",3,"not run \(no GPU\)","GPU checks not run \(no GPU here\); builds for '"$type"'",,,0\.00,100\.00,'; fi
rows_ok=1
grep -qE "$alice" "$csv" 2>/dev/null || rows_ok=0
grep -qE '^"bob",7,"no","includes: line [0-9]+: #include <cub/cub.cuh>",,,0\.00,100\.00,' "$csv" 2>/dev/null || rows_ok=0
grep -qE '^"carol",3,"no","'"$type"': does not compile"' "$csv" 2>/dev/null || rows_ok=0
grep -qE '^"dave",,"no","nothing handed in' "$csv" 2>/dev/null || rows_ok=0
if [ "$rows_ok" = 1 ] && [ "$(wc -l < "$csv")" -eq 5 ]; then
    pass "lab-grade-all: one row per student in grades.csv, each with its reason"
else
    fail "lab-grade-all: one row per student in grades.csv, each with its reason" "exit $status: $(tr '\n' ' ' < "$csv" 2>/dev/null)"
fi
if [ -z "$gpu" ]; then
    if [ "$status" -eq 3 ] && grep -q "^NO GPU HERE" "$log/lab-grade-all.txt" &&
       grep -q "^4 graded, 0 correct" "$log/lab-grade-all.txt"; then
        pass "lab-grade-all without a GPU: every submission built, the class table, NO GPU said, exit 3"
    else
        fail "lab-grade-all without a GPU: every submission built, the class table, NO GPU said, exit 3" \
             "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
    fi
elif [ "$status" -eq 0 ] && grep -q "^4 graded, 1 correct" "$log/lab-grade-all.txt"; then
    pass "gpu lab-grade-all: the class table, alice correct"
else
    fail "gpu lab-grade-all: the class table, alice correct" "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
fi
lab_json "lab-grade-all: alice's results.json, in her folder" "$class/alice/$step3/results.json" \
    "^ok $([ -n "$gpu" ] && echo 100.00 || echo 0.00) 100.00$"
lab_json "lab-grade-all: bob's results.json (the CUB shortcut): 0 points" "$class/bob/lab/$step7/results.json" \
    "^ok 0.00 100.00$"
left=$(find build/lab-grade-all -mindepth 1 -maxdepth 1 ! -name logs ! -name submissions.txt ! -name builds.txt \
       -printf '%f ' 2>/dev/null)
if [ -z "$left" ]; then
    pass "lab-grade-all: the scratch copies are gone"
else
    fail "lab-grade-all: the scratch copies are gone" "$left"
fi

# the extensions' suites (multi-GPU steps, lab): the top Makefile passes their files, each
# sourced here with the functions above, each its own section
for suite in ${TEST_SUITES:-}; do
    section "$suite"
    # shellcheck disable=SC1090  # the suites are named by the Makefile
    . "$suite"
done
section ""
echo "time per section: ${section_times%; }"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
