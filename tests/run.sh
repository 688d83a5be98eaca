#!/usr/bin/env bash
# make test: everything that can run on this machine, one line per test (and a progress
# line per folder built). The sections, each ending with its "-- NAME: S s" line: unit (the
# harness's host unit tests), build (the harness, then every folder at once), stale (a change
# of flags rebuilds), diff (consecutive steps' kernels), tools (step_dir, make sweep's programs,
# check-archs), input (bad input: one line, exit 2, GPU untouched); then tests/gpu.sh's and
# each extension's suite (TEST_SUITES). Without a GPU the GPU checks are SKIP lines, by name.
# make test-ci (TEST_TIER=ci): below. Last line "N passed, N failed, N skipped"; exit 1 if any failed.
# Usage: tests/run.sh PROGRAM_DIR...   (TYPE and SUFFIX come from the Makefile)
# No -e: a command that fails is a FAIL line to count, and the run goes on to the next test.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/gpus.sh
type=${TYPE:-int} suffix=${SUFFIX-}
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || usage "tests/run.sh PROGRAM_DIR... (make test passes them)"
passed=0 failed=0 skipped=0
log=build/$type/test-log${TEST_TIER:+-$TEST_TIER}   # a tier its own: CI runs them side by side
mkdir -p "$log"

# each result's time to $log/times.txt, for finish() (EPOCHREALTIME: bash 5's, the locale's decimal mark)
now_s() { local t=${EPOCHREALTIME:-$(date +%s.%N)}; echo "${t/,/.}"; }
first_result=$(now_s)
: > "$log/times.txt"
took() { echo "$(now_s) $1" >> "$log/times.txt"; }
pass() { echo "PASS $1"; passed=$((passed + 1)); took "$1"; }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); took "$1"; }
skip() { echo "SKIP $1${2:+ ($2)}"; skipped=$((skipped + 1)); took "$1"; }
# result NAME STATUS DETAIL: pass NAME when STATUS (a condition's $?) is 0, else fail it with
# DETAIL. $? must come before any $(...) of the line: a command substitution resets it.
result() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
# section NAME: ends the section before with its time, starts NAME
section_name="" section_start=$SECONDS section_times=""
section() {
    if [ -n "$section_name" ]; then
        echo "-- $section_name: $((SECONDS - section_start)) s"
        section_times+="$section_name $((SECONDS - section_start))s; "
    fi
    section_name=$1 section_start=$SECONDS
}
# ---------------------------------------------------------------- unit
# unit_tests NAME: build/TYPE/NAME's PASS or FAIL lines (common/unit_test.h), each counted
unit_tests() {
    local name=$1 status verdict rest
    if [ ! -x "build/$type/$name" ]; then fail "$name" "build/$type/$name was not built"; return; fi
    "build/$type/$name" > "$log/$name.txt" 2>&1; status=$?
    while read -r verdict rest; do
        case $verdict in PASS) pass "$rest" ;; FAIL) fail "$rest" ;; esac
    done < "$log/$name.txt"
    grep -q '^PASS' "$log/$name.txt" || fail "$name" "no test ran (exit $status)"
    [ "$status" -eq 0 ] || grep -q '^FAIL' "$log/$name.txt" || fail "$name" "exit $status"
}
# expect NAME CODE TEXT COMMAND...: COMMAND exits CODE, its output holds TEXT (none: "") and, when CODE
# is not 0, its stderr is one line (make's "***" line aside); its output left in $log/out.txt, err.txt
expect() {
    local name=$1 code=$2 text=$3 status lines
    shift 3
    "$@" > "$log/out.txt" 2> "$log/err.txt" < /dev/null; status=$?
    lines=$(grep -vcE '^make(\[[0-9]+\])?: \*\*\*' "$log/err.txt")
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status, expected $code: $(head -c 300 "$log/err.txt")"
    elif [ "$code" -ne 0 ] && [ "$lines" -ne 1 ]; then
        fail "$name" "expected one line on stderr, got $lines"
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$log/out.txt" "$log/err.txt"; then
        fail "$name" "no '$text' in the output"
    else
        pass "$name"
    fi
}
# make_expect NAME CODE TEXT ARGS...: expect of make ARGS
make_expect() { expect "$1" "$2" "$3" make --no-print-directory "${@:4}"; }
# step_copy DIR FROM: DIR, emptied, holds FROM's kernel file and a Makefile of common/step.mk alone
step_copy() { rm -rf "$1" && mkdir -p "$1" && cp "$2/reduce.cu" "$1/" && echo "include $PWD/common/step.mk" > "$1/Makefile"; }
row() { echo "\"$1\",\"$2\",\"int\",1024,4096,\"GPU\",1000.0,20,1,$3,$3,$3,$3,$3,1.0,0.1,0.000e+00,\"PASSED\",1,0"; }
# ---------------------------------------------------------------- the CI tier
# make test-ci (.ci/run). removable: in a copy of git's files without an extension's folders (NAME_FOLDERS)
# and include line, make all, test (no GPU, LAB_TESTS=0) and docs pass; TYPE=int only. With the core's and the
# program folders' builds, no extension's: make rebuilds what the removal changed (common/ stays as it is).
read -ra extensions <<< "$(make --no-print-directory -s print-EXTENSIONS)"
removable_checks() {
    local ext scratch folders status last name installed why=""
    name="removable: each extension taken out"
    git rev-parse --is-inside-work-tree > /dev/null 2>&1 || why="not a git checkout: the scratch copies are of git's files"
    [ "$type" = int ] || why="TYPE=int only: no folder depends on the type"
    if [ -n "$why" ]; then skip "$name" "$why"; return; fi
    if [ ${#extensions[@]} -eq 0 ]; then fail "$name" "the Makefile names no EXTENSIONS"; return; fi
    rm -rf build/removable
    for ext in "${extensions[@]}"; do
        scratch=build/removable/$ext
        mkdir -p "$scratch"
        { git ls-files -z -co --exclude-standard; git ls-files -z -oi --exclude-standard -- "build/$type/harness-*" "build/$type/unit_tests*"
          git ls-files -z -oi --exclude-standard | grep -zE "^[^/]+/([^/]+/)?(build/$type/|reduce[^/]*$)" | grep -zvE '^build/|_(float|double)$'; } |
            while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf - | tar -xf - -C "$scratch"
        read -ra folders <<< "$(make --no-print-directory -s "print-${ext}_FOLDERS")"
        echo "  removable: building and testing a copy without ${folders[*]} ..."
        ( cd "$scratch" && rm -rf "${folders[@]}" && grep -qx "include $ext/$ext.mk" Makefile &&
          sed -i "\|^include $ext/$ext.mk\$|d" Makefile &&
          export NVCC_ARCH=sm_75 CUDA_VISIBLE_DEVICES="" &&
          make --no-print-directory -s -j"$(nproc)" all > build-all.txt 2>&1 &&
          LAB_TESTS=0 TEST_TIER='' make --no-print-directory test > test.txt 2>&1 &&
          { ! command -v doxygen > /dev/null || make --no-print-directory docs > docs.txt 2>&1; } )
        status=$?
        name="removable: without $ext (git rm -r ${folders[*]}, one Makefile line)"
        last=$(tail -1 "$scratch/test.txt" 2>/dev/null)
        if [ "$status" = 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed ]]; then
            pass "$name: make all, make test and make docs pass ($last)"
            # a built tree to try make clean (keeps what make installed) and make distclean on
            if [ "$ext" = "${extensions[0]}" ]; then
                read -ra installed <<< "$(make --no-print-directory -s print-INSTALLED)"
                ( cd "$scratch" && mkdir -p "${installed[@]}" &&
                  make --no-print-directory -s clean && for d in "${installed[@]}"; do [ -d "$d" ] || exit 1; done &&
                  [ ! -e "build/$type" ] && [ -z "$(find . -name reduce -type f)" ] &&
                  make --no-print-directory -s distclean && [ ! -e build ] )
                result "make clean keeps what make installed (${installed[*]}) and removes every build; make distclean removes build/" \
                       $? "left: $(cd "$scratch" && find build -maxdepth 1 2>&1 | tr '\n' ' ')"
            fi
            rm -rf "$scratch"
        else
            fail "$name" "exit $status: $(grep -h '^FAIL\|rror' "$scratch/build-all.txt" "$scratch/test.txt" "$scratch/docs.txt" 2>/dev/null | head -3 | tr '\n' ' ')${last}"
        fi
    done
}

# finish: the section times, the last line; exit 1 if any failed. Every result line must be
# counted (one made in a subshell, or under a local counter's name, would print and not count)
finish() {
    local results
    results=$(wc -l < "$log/times.txt")
    [ "$results" -eq $((passed + failed + skipped)) ] ||
        fail "the suite counted each of its result lines" "$results lines, $((passed + failed + skipped)) counted"
    section ""
    echo "time per section: ${section_times%; }"
    [ -n "${TEST_TIER:-}" ] || echo "time: $SECONDS s; the budget: ${budget:-120} s ($([ -n "${gpu:-}" ] &&
        echo "with a GPU, its build included" || echo "without a GPU"))"
    echo "longest waits for a result (s since the one before): $(awk -v t="$first_result" \
         '{ d = $1 - t; t = $1; $1 = ""; printf "%.1f%s\n", d, $0 }' "$log/times.txt" |
         sort -rn | head -5 | cut -c1-70 | paste -sd'|' | sed 's/|/; /g')"
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}
if [ "${TEST_TIER:-}" = ci ]; then
    section toolkit
    # the toolkit is found as a user expects (the nvcc on PATH, else CUDA_HOME,
    # else /usr/local/cuda); without one a build says so in one line before anything else
    mkdir -p "$log/fake-cuda/bin" "$log/no-nvcc"
    printf '#!/bin/sh\nexit 0\n' > "$log/fake-cuda/bin/nvcc"; chmod +x "$log/fake-cuda/bin/nvcc"
    for tool in make sh echo; do ln -sf "$(type -P "$tool")" "$log/no-nvcc/$tool"; done
    found=$(env -u CUDA_PATH -u CUDA_HOME PATH="$log/fake-cuda/bin:$PATH" make --no-print-directory -s print-CUDA_PATH)
    [ "$found" = "$log/fake-cuda" ]; result "toolkit: the nvcc on PATH gives CUDA_PATH" $? "got '$found'"
    found=$(env -u CUDA_PATH PATH="$log/no-nvcc" CUDA_HOME="$log/fake-cuda" make --no-print-directory -s print-CUDA_PATH)
    [ "$found" = "$log/fake-cuda" ]; result "toolkit: without nvcc on PATH, CUDA_HOME gives CUDA_PATH" $? "got '$found'"
    env -u NVCC make --no-print-directory all CUDA_PATH=/nonexistent > "$log/no-nvcc.txt" 2>&1; status=$?
    [ "$status" -eq 2 ] && [ "$(wc -l < "$log/no-nvcc.txt")" -eq 1 ] && grep -q "no nvcc" "$log/no-nvcc.txt"
    result "toolkit: make all without nvcc says so in one line, exit 2" $? "exit $status: $(head -3 "$log/no-nvcc.txt" | tr '\n' ' ')"
    section removable; removable_checks
fi
if [ -n "${TEST_TIER:-}" ]; then   # CI's and an extension's tier (make test-lab: lab/lab.mk): their suites
    # shellcheck disable=SC1090  # the suites are named by the Makefile
    for suite in $TEST_SUITES; do section "$suite"; . "$suite"; done
    finish; exit
fi
section unit
unit_tests unit_tests
section build
programs=()        # the programs the sections below test: every folder's but SUITE_PROGRAM_DIRS'
programs_64=()     # those whose kernels index with 64 bits: checked at 2^31+5 too
# suite_owned DIR: DIR's programs are an extension's suite's (its .mk adds DIR to SUITE_PROGRAM_DIRS)
SUITE_PROGRAM_DIRS=$(make_var SUITE_PROGRAM_DIRS)
suite_owned() { case " $SUITE_PROGRAM_DIRS " in *" $1 "*) return 0 ;; esac; return 1; }
# the harness library once, then every folder at once, one job a core (logs: build-DIR.txt)
if ! make --no-print-directory -s -j"$(nproc)" TYPE="$type" harness > "$log/build-harness.txt" 2>&1; then
    fail "build the harness library ($type)" "see $log/build-harness.txt"
    tail -5 "$log/build-harness.txt"
fi
# shellcheck disable=SC2016  # $0, $1, $2: the inner shell's log folder, type and folder
printf '%s\n' "${dirs[@]}" | xargs -d '\n' -n 1 -P "$(nproc)" bash -c 'log=$0/build-${2//\//_}.txt
    make --no-print-directory -j"$(nproc)" -C "$2" TYPE="$1" > "$log" 2>&1; echo $? > "$log.status"; echo "  .. built $2"' "$log" "$type"
for dir in "${dirs[@]}"; do
    build_log=$log/build-${dir////_}.txt
    # what the folder builds here: nothing where a library is missing ("DIR: skipped, why")
    built=$(make --no-print-directory -s -C "$dir" TYPE="$type" programs)
    if [ "$(cat "$build_log.status" 2> /dev/null)" != 0 ]; then
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
section stale
# Objects depend on their command line: a copy of step 0 built for sm_75, then SM=80 rebuilds
# it for sm_80 (cuobjdump says so where it is), and a second SM=80 rebuilds nothing.
step0=$(step_dir 0)   # step_dir (scripts/gpus.sh): the folder the Makefile lists for step K
stale=$log/stale/$step0
step_copy "$stale" "$step0"
stale_make() { make --no-print-directory -C "$stale" TYPE="$type" "$@" > "$log/stale.txt" 2>&1; }
cuobjdump=$(command -v cuobjdump || command -v "${CUDA_PATH:-/usr/local/cuda}/bin/cuobjdump")
if [ "$type" != int ]; then
    skip "stale builds: a copy of step 0 rebuilds for SM=80, then nothing" "TYPE=int only: how a build follows its flags does not depend on the type"
elif ! stale_make SM=75; then
    fail "stale builds: a copy of step 0 builds" "$(tail -3 "$log/stale.txt" | tr '\n' ' ')"
else
    sleep 1   # a file system that keeps whole seconds must still see the rebuild as newer
    stale_make SM=80
    grep -q "NVCC" "$log/stale.txt" && grep -q "sm_80" "$stale/build/$type/nvcc.cmd" &&
       [ "$stale/build/$type/step.o" -nt "$stale/build/$type/nvcc.cmd" ] && [ -f "build/$type/harness-sm_80/libharness.a" ] &&
       { [ -z "$cuobjdump" ] || grep -q sm_80 < <("$cuobjdump" -lelf "$stale/reduce$suffix"); }
    result "stale builds: make SM=80 after a default build rebuilds for sm_80, with the harness library for sm_80${cuobjdump:+ (cuobjdump -lelf)}" \
           $? "$(tr '\n' ' ' < "$log/stale.txt")"
    touch "$log/stale/mark"
    stale_make SM=80
    ! grep -q "NVCC" "$log/stale.txt" && [ -z "$(find "$stale" -newer "$log/stale/mark" ! -type d)" ]
    result "stale builds: make SM=80 again rebuilds nothing" $? "$(tr '\n' ' ' < "$log/stale.txt")"
fi
section diff
previous=""
for dir in "${dirs[@]}"; do
    case $dir in step*/*|cub_*) continue ;; step[0-9]_*|step[0-9][0-9]_*) ;; *) continue ;; esac
    suite_owned "$dir" && continue   # an extension's steps: its suite compares them
    if [ -n "$previous" ]; then
        lines=$(diff "$previous/reduce.cu" "$dir/reduce.cu" | grep -c '^[<>]')
        # one idea: at most 40 lines; 60 after an extension's steps, whose flag comes with it
        from=${previous%%_*} to=${dir%%_*} most=40
        [ $((${to#step} - ${from#step})) -gt 1 ] && most=60
        name="diff $from -> $to changes $lines lines"
        if [ "$lines" -le "$most" ]; then pass "$name (at most $most)"; else fail "$name" "more than $most"; fi
    fi
    previous=$dir
done
section tools
steps_found="" steps_wrong=""
for dir in "${dirs[@]}"; do
    [[ $dir =~ ^step([0-9]+)(_[^/]*)?$ ]] || continue
    k=${BASH_REMATCH[1]}
    if [ "$(step_dir "$k")" = "$dir" ]; then steps_found+=" $k"; else steps_wrong+=" $k ($(step_dir "$k"))"; fi
done
[ -n "$steps_found" ] && [ -z "$steps_wrong" ] && ! step_dir 999 > /dev/null &&
    [ "$(PROGRAM_DIRS="" step_dir 0)" = "$(step_dir 0)" ]
result "step_dir finds each step of the Makefile's list (steps$steps_found), none for a step it lacks, also when asked outside make" \
       $? "wrong:${steps_wrong:- none}; step 999: '$(step_dir 999)'"
wrong="" not_here=""
read -ra sweep_programs <<< "$(make --no-print-directory -s print-SWEEP_PROGRAMS)"
for program in "${sweep_programs[@]}"; do
    dir=${program%/*}
    printf '%s\n' "${dirs[@]}" | grep -qxF "$dir" || { wrong+=" $program"; continue; }
    built=$(make --no-print-directory -s -C "$dir" programs 2> /dev/null)
    # a folder that builds nothing here (the newest CUB's without make cccl) is named
    if [ -z "$built" ]; then not_here+=" $program"
    elif ! tr ' ' '\n' <<< "$built" | grep -qxF "${program##*/}$suffix"; then wrong+=" $program"; fi
done
[ ${#sweep_programs[@]} -ge 2 ] && [ -z "$wrong" ]
result "make sweep's programs (SWEEP_PROGRAMS, ${#sweep_programs[@]}) are each a program a folder of the list builds${not_here:+ (not built here:$not_here)}" \
       $? "not built by any folder:${wrong:- (none listed)}"
# check-archs fails on a warning: a copy of step 0 with an unused variable (nvcc's warning 177)
warn=$log/check-archs-warning/$step0
step_copy "$warn" "$step0" && echo '__global__ void check_archs_probe(void) { int never_used = 3; }' >> "$warn/reduce.cu"
make --no-print-directory -s -j1 -C "$warn" TYPE="$type" check-archs > "$log/check-archs-warning.txt" 2>&1
status=$?
[ "$status" -ne 0 ] && grep -q "^FAILED .* sm_[0-9]* ($type: program)" "$log/check-archs-warning.txt" &&
    grep -q 'never_used' "$log/check-archs-warning.txt"
result "check-archs: a warning fails the build, naming the architecture" $? \
       "exit $status: $(head -3 "$log/check-archs-warning.txt" | tr '\n' ' ')"
# a folder whose build is skipped here: check-archs says its build's line, the true reason
for dir in "${dirs[@]}"; do
    build_log=$log/build-${dir////_}.txt
    line=$(grep -m1 '^[^ ]*: skipped, ' "$build_log" 2> /dev/null) || continue
    archs_line=$(make --no-print-directory -s -C "$dir" TYPE="$type" check-archs 2>&1)
    [ "$archs_line" = "$line" ]
    result "check-archs: $dir says why it is skipped, as its build does" $? "build: '$line', check-archs: '$archs_line'"
done

# a toolkit without compute-sanitizer: the component is missing; with no nvcc, the toolkit
fake=$log/toolkit-without-tools
mkdir -p "$fake/bin" && printf '#!/bin/sh\n' > "$fake/bin/nvcc" && chmod +x "$fake/bin/nvcc"
line=$(SANITIZER="" CUDA_PATH=$fake bash -c '. scripts/gpus.sh && echo "$SANITIZER_MISSING"')
[[ $line == *"the CUDA Toolkit at $fake has nvcc but not this component"* ]]
result "a toolkit without compute-sanitizer: its line says to add the component, not the toolkit" $? "$line"
if ! PATH=/usr/bin:/bin command -v nvcc > /dev/null; then
    line=$(NCU="" CUDA_PATH=/nonexistent PATH=/usr/bin:/bin bash -c '. scripts/gpus.sh && echo "$NCU_MISSING"')
    [[ $line == *"install the toolkit"* ]]
    result "no toolkit at all: the missing ncu's line says to install the toolkit" $? "$line"
fi
section input
case $type in   # the element 1, raw; for float and double NaN, infinity and the largest finite too
    int)    one='\x01\x00\x00\x00' ;;
    float)  one='\x00\x00\x80\x3f' nan='\x00\x00\xc0\x7f' inf='\x00\x00\x80\x7f' max='\xff\xff\x7f\x7f' ;;
    double) one='\x00\x00\x00\x00\x00\x00\xf0\x3f' nan='\x00\x00\x00\x00\x00\x00\xf8\x7f'
            inf='\x00\x00\x00\x00\x00\x00\xf0\x7f' max='\xff\xff\xff\xff\xff\xff\xef\x7f' ;;
esac
small=$(for p in "${programs[@]}"; do [ "$(describe "$p" index_bits)" = 32 ] && echo "$p"; done | head -1)  # a 32-bit step
large=${programs_64[0]:-}   # a 64-bit step
printf 'not a whole element' > "$log/odd.bin"   # 19 bytes: no element size divides it
if [ -x "$small" ] && [ -x "$large" ]; then
    # the flags' parsing is unit-tested; here, a program's one line and exit 2 for them
    expect "input: unknown flag"         2 "unknown option"      "$small" --frobnicate
    expect "input: --verdicts in a folder that does not exist" 2 "--verdicts" "$small" --check 5 --verdicts /nonexistent/dir/v.txt
    expect "input: --input missing file" 2 "not a readable file" "$small" --input "$log/no-such-file"
    expect "input: --input odd size"     2 "not a whole number"  "$small" --input "$log/odd.bin"
    expect "input: --check above max"    2 "maximum"             "$small" --check 1,2^31
    wrong=""
    for p in "${programs[@]}"; do
        list=,$(describe "$p" check_sizes), per_block=$(describe "$p" elements_per_block) need=(1)
        [ "${per_block:-0}" -gt 0 ] && need+=($((per_block - 1)) "$per_block" $((per_block + 1)))
        for n in "${need[@]}"; do [[ $list == *,$n,* ]] || wrong+=" $p lacks $n;"; done
        bits=32; [[ $list == *,2147483653,* ]] && bits=64
        [ "$bits" = "$(describe "$p" index_bits)" ] || wrong+=" $p: 2^31+5 in its sizes disagrees with its index_bits;"
    done
    name="input: every program's --check auto sizes hold 1, its elements per block and one either side, and 2^31+5 where its indices are 64-bit"
    if [ -z "$wrong" ] && [ ${#programs[@]} -gt 0 ]; then pass "$name"; else fail "$name" "${wrong:-no program}"; fi
    expect "input: --help"               0 "Usage:"              "$small" --help
    expect "input: n above a 32-bit step's maximum, saying why" 2 "maximum of 2147483647: its kernel indexes with 32-bit integers" "$small" -n 2^31
    expect "input: a 64-bit step's maximum says why" 2 "maximum of 9223372036854775807" "$large" -n 2^63
    expect "input: -n 2^64-1, the top of the sizes' range, is a size above the maximum" 2 "maximum" "$large" -n 2^64-1
    # its own reason (64-bit indices), not the 32-bit steps' advice to use another
    grep -q "indexes with 64-bit integers" "$log/err.txt" && ! grep -q "32-bit" "$log/err.txt"
    result "input: a 64-bit step's maximum gives its own reason, not the 32-bit one" $? "$(cat "$log/err.txt")"
    expect "input: --csv in a folder that does not exist" 2 "--csv" "$small" -n 1000 --csv /nonexistent/dir/x.csv
    # --input whose sum cannot be verified: the data's fault, said before the GPU
    case $type in
        int)
            printf '\xff\xff\xff\x7f\xff\xff\xff\x7f' > "$log/overflow.bin"
            expect "input: --input whose int sum overflows" 2 "4294967294" "$small" --input "$log/overflow.bin" ;;
        float|double)
            printf '%b' "$one$one$nan" > "$log/nan.bin"; printf '%b' "$inf$inf" > "$log/inf.bin"
            printf '%b' "$max$max" > "$log/overflow.bin"
            expect "input: --input with a NaN element"    2 "element 2 is nan" "$small" --input "$log/nan.bin"
            expect "input: --input with infinity"         2 "element 0 is inf" "$small" --input "$log/inf.bin"
            expect "input: --input whose sum overflows"   2 "overflow"         "$small" --input "$log/overflow.bin" ;;
    esac
else
    fail "bad input tests" "no 32-bit program ('$small') or no 64-bit one ('$large') was built"
fi
# CUB's --determinism: the toolkit's CUB (determinism_modes=none) refuses each mode; make cccl's takes it
cubs=0 newest_cub=()
for p in "${programs[@]}"; do
    [ "$(describe "$p" number)" = -1 ] || continue
    cubs=$((cubs + 1)) modes=$(describe "$p" determinism_modes)
    [ "$modes" = none ] || newest_cub+=("$p")
    expect "input: $p --determinism fastest refused, the modes listed" 2 \
        "give run_to_run, not_guaranteed or gpu_to_gpu" "$p" --determinism fastest
    for m in run_to_run not_guaranteed gpu_to_gpu; do
        if [ "$modes" = none ]; then
            expect "input: $p (CCCL $(describe "$p" cccl_version)) refuses --determinism $m: CCCL 3.1, make cccl" 2 \
                "came with CCCL 3.1: make cccl" "$p" --determinism "$m" -n 1000
        else
            got=$("$p" --determinism "$m" --describe 2> /dev/null | sed -n 's/^determinism=//p')
            [ "$got" = "$m" ]; result "input: $p takes --determinism $m (--describe says it)" $? "determinism=$got"
        fi
    done
done
[ "$cubs" -gt 0 ] || fail "input: CUB's --determinism" "no CUB program (--describe number=-1) was built"
[ ${#newest_cub[@]} -gt 0 ] || skip "input: the newest CUB's programs take each --determinism mode" "none built: make cccl"
make_expect "make cccl CCCL_WHEEL=/nonexistent: exit 2, one line" 2 "no such file" cccl CCCL_WHEEL=/nonexistent

# shellcheck source=tests/gpu.sh
. tests/gpu.sh

for suite in $(make_var TEST_SUITES); do
    section "$suite"
    # shellcheck disable=SC1090  # the suites are named by the Makefile
    . "$suite"
done
finish
