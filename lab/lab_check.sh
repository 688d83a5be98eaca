# shellcheck shell=bash disable=SC2154  # grader, grading, lab_dir_arg ...: lab/lab.sh's, which sources this file
# make lab-check STEP=k (lab/lab.sh check K sources this file): check() runs the stages in
# order on its locals (bash's scope is dynamic); it stops at the first failure (exit 1), or,
# with LAB_MODE=grade (lab-grade), goes on where it can and notes every outcome. Variables:
##= LAB_SIZES=: the sizes lab-check verifies, instead of the harness's sizes that break reductions (--check auto)
##= LAB_HUGE=1: lab-check also verifies n = 2^31+5 on the 64-bit steps (LAB_HUGE=0: not)
##= LAB_SANITIZE=1: lab-check runs memcheck and racecheck (LAB_SANITIZE=0: not)
##= PROFILE=0: PROFILE=1: lab-check adds the step's Nsight Compute metric for yours and ours

# lab-grade's record (LAB_RECORD): note ID STATUS SUMMARY; note_detail < DETAIL; note_item ITEM [ID] [TEXT]
record=${LAB_RECORD:-} grading=0 noted=""
[ "${LAB_MODE:-}" != grade ] || grading=1
note() { noted=$1; [ -z "$record" ] || "$grader" note "$record" test "$1" "$2" "$3"; }
note_detail() { if [ -n "$record" ]; then "$grader" detail "$record" "$noted"; else cat > /dev/null; fi; }
note_item() { [ -z "$record" ] || "$grader" note "$record" "$1" "${2:-}" "" "${3:-}"; }

# built: the types that compiled; failed, passed: the types (or "sanitizers") so far
check() {
    local k cur before prev dest types seed log custom_sizes=() built="" failed="" passed="" first_type program \
          max_n sizes=() count huge_note="" same_bits_note="" sanitized="" sanitize_where=""
    check_settings "$1"
    check_before_build
    check_build
    check_correct
    check_huge
    check_same_bits
    check_sanitizers
    check_timing
    check_profile
}
# check_settings K: every setting refused in one line (exit 2) before a build; the copy exists
check_settings() {
    local values size_list=()
    k=$(valid_step lab-check "$1") || exit 2
    cur=$(step_dir "$k") before=$(before_step "$k")
    prev=$(step_dir "$before") dest=$lab_dir/$cur
    types=$(lab_types lab-check) || exit 2
    seed=$(lab_seed lab-check 1) || exit 2
    need_grader lab-check
    read -ra size_list <<< "${LAB_SIZES:-}"
    if [ ${#size_list[@]} -gt 0 ]; then
        values=$("$grader" size "${size_list[@]}" 2>&1) ||
            bad_input lab-check "LAB_SIZES takes sizes >= 1 such as 1000 or 2^20+3 (got ${values##*: })"
        mapfile -t custom_sizes <<< "$values"
    fi
    check_run_settings lab-check
    need_copy lab-check "$k" "$dest"
}
# check_before_build: the copy's log folder; a file with no code, an #include not allowed
check_before_build() {
    log=$dest/build/lab-check
    rm -f "$dest/.lab-check" "$log/no-gpu"   # the pass marker: rewritten only when everything passes
    # nvcc's temporaries in the copy, not /tmp: what a killed build leaves, the next check clears
    rm -rf "$log/tmp"
    mkdir -p "$log/tmp" || exit 1
    TMPDIR=$(realpath -m "$log/tmp")
    export TMPDIR
    note_item phase "" build   # what a time limit cuts short from here on
    if ! grep -q '[^[:space:]]' "$dest/reduce.cu"; then
        echo "FAIL empty file: $dest/reduce.cu holds no code (the save wrote nothing, or another file was handed in)"
        note empty fail "empty file: reduce.cu holds no code"
        exit 1
    fi
    echo "== includes: $dest/reduce.cu against our step $k's file"
    check_includes "$dest/reduce.cu" "$k" || exit 1
}

# The copy may include what our steps k and k-1 include, and C headers that cannot sum.
harmless_includes="<cstdio> <stdio.h> <cstdint> <stdint.h> <climits> <limits.h> <cfloat> <float.h> <cassert> <assert.h>"

# include_lines FILE: "LINE<TAB>TARGET" of each #include, #include_next, #import (# or %:)
include_lines() {
    awk '{ line = NR; text = $0
           while (text ~ /\\$/ && (getline more) > 0) text = substr(text, 1, length(text) - 1) more
           if (text ~ /^[ \t]*(#|%:)[ \t]*(include_next|include|import)([ \t<"]|$)/) {
               sub(/^[ \t]*(#|%:)[ \t]*(include_next|include|import)[ \t]*/, "", text)
               sub(/[ \t]*(\/\/.*|\/\*.*)?$/, "", text)
               printf "%d\t%s\n", line, text } }' "$1"
}
# our_includes K: what our step k's and k-1's files include (a handout: lab/handout.txt's)
our_includes() {
    if [ -n "$handout" ] && ! our_kernel "$1"; then fact includes "$1"; return; fi
    (include_lines "$(step_dir "$1")/reduce.cu"; include_lines "$(step_dir "$(before_step "$1")")/reduce.cu") |
        cut -f2 | sort -u | paste -sd' '
}
# check_includes FILE K: PASS or FAIL with the line; notes "includes"; 1 on a failure
check_includes() {
    local file=$1 k=$2 ours line target bad="" may=()
    ours=$(our_includes "$k")
    read -ra may <<< "$ours $harmless_includes"   # every target the copy may include
    while IFS=$'\t' read -r line target; do
        [[ " ${may[*]} " == *" $target "* ]] || { bad="line $line: #include $target"; break; }
    done < <(include_lines "$file")
    [ -n "$bad" ] || { note includes pass "only what our step $k's file includes ($ours)"; return 0; }
    printf '%s\n' "your copy may include only what our step $k's file includes ($ours), and <cstdio>, <cstdint>," \
        "<climits>, <cfloat>, <cassert> (or their .h names): the exercise is your own kernel, and a library's" \
        "reduction (CUB, Thrust, cuBLAS, cooperative_groups::reduce) is not; remove the #include and what uses it" > "$log/includes.txt"
    echo "FAIL includes: $bad"
    sed 's/^/  /' "$log/includes.txt"
    note includes fail "$bad"
    note_detail < "$log/includes.txt"
    return 1
}
# check_build: the copy for each type, one job per core
check_build() {
    local t jobs status
    echo "== build $dest for $types"
    jobs=$(nproc 2>/dev/null || echo 2)
    for t in $types; do
        status=0
        make -s -j"$jobs" --no-print-directory -C "$dest" TYPE="$t" > "$log/build-$t.txt" 2>&1 || status=$?
        cat "$log/build-$t.txt"
        if [ "$status" -eq 0 ]; then built+=" $t"; continue; fi
        echo "FAIL build $t: your copy does not compile (the compiler's messages are above)"
        note "correct:$t" fail "does not compile"
        grep -v '^  NVCC ' "$log/build-$t.txt" | tail -15 | note_detail
        [ "$grading" = 1 ] || exit 1
        failed+=" $t"
    done
    built=${built# }
    [ -n "$built" ] || exit 1
    note_item built "" "$built"
    note_item phase "" checks
}
# no_gpu FILE: exit 3, saying what the program found missing (FILE) and that the copy builds;
# lab-check (not lab-grade) first checks it on the CPU where cpu/ is (a FAIL there exits 1)
no_gpu() {
    local on_cpu="" t why
    why=$(head -1 "$1" | sed 's/^[^:]*: //')
    [ "$grading" = 1 ] || [ ! -f cpu/lab_check.sh ] || . cpu/lab_check.sh   # on_cpu: what passed there
    echo "lab-check: no GPU here ($why): $dest builds for ${built:-$types}${on_cpu:-; the checks and the timing} need a CUDA GPU"
    : > "$log/no-gpu"   # for lab-status: built, never checked on a GPU
    note_item nogpu
    exit 3
}
# type_sizes PROGRAM: LAB_SIZES, else the program's --check auto sizes, less 2^31+5 (check_huge's)
type_sizes() {
    sizes=("${custom_sizes[@]}")
    [ ${#sizes[@]} -gt 0 ] || IFS=, read -ra sizes <<< "$(describe "$1" check_sizes)"
    mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | grep -vx 2147483653 | sort -nu)
}
# type_failed T FILE [SUMMARY]: T fails with FILE's report (by default its summary, "n=33: lost
# tail", from check_sizes' lines); lab-grade goes on without T
type_failed() {
    local kind
    kind=$(sed -n 's/^  hint: \([^:;]*\).*/: \1/p' "$2" | head -1)
    note "correct:$1" fail "${3:-$(head -1 "$2" | sed -e 's/^FAIL [a-z]* //' -e 's/, the first size that fails:$//' -e 's/:$//')$kind}"
    tail -n +2 "$2" | note_detail
    [ "$grading" = 1 ] || exit 1
    failed+=" $1"
    passed=$(echo " $passed " | sed "s/ $1 / /" | xargs)
}
# check_correct: each type built, at its sizes; without a GPU (a --check exits 3), no_gpu
check_correct() {
    local t status
    first_type=${types%% *}
    program=$dest/reduce$(suffix_of "${built%% *}")
    max_n=$(describe "$program" max_n)
    if ! [[ $max_n =~ ^[0-9]+$ ]]; then
        echo "FAIL $program --describe did not answer; is the STEP metadata intact?"
        for t in $built; do note "correct:$t" fail "--describe did not answer: the STEP metadata is broken"; done
        exit 1
    fi
    type_sizes "$program"
    count=${#sizes[@]}
    status=0
    "$program" --check 1 --device "${DEVICE:-0}" > /dev/null 2> "$log/check-err.txt" || status=$?
    [ "$status" -ne 3 ] || no_gpu "$log/check-err.txt"
    echo "== correctness: random and one-hot data, each reduced twice, at $count sizes ($first_type: ${sizes[*]})"
    for t in $built; do
        status=0
        type_sizes "$dest/reduce$(suffix_of "$t")"
        check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "${sizes[@]}" > "$log/sizes-$t.txt" || status=$?
        cat "$log/sizes-$t.txt"
        [ "$status" -ne 2 ] || echo "FAIL $t: $(head -1 "$log/skip.txt")" | tee "$log/sizes-$t.txt"
        if [ "$status" -ne 0 ]; then type_failed "$t" "$log/sizes-$t.txt"; continue; fi
        echo "PASS $t"
        passed+=" $t"
    done
}
# check_huge: n = 2^31+5 for the types that passed, where the copy takes 64-bit sizes
check_huge() {
    local huge=2147483653 ours_max t status
    [ "${LAB_HUGE:-1}" != 0 ] && [ -n "$passed" ] || return 0
    ours_max=$(our_field "$k" max_n)
    if [ "$max_n" -lt "$huge" ] && [ "${ours_max:-0}" -ge "$huge" ]; then
        echo "note: n = 2^31+5 not checked: your STEP.max_n is $max_n (32-bit indices); our step $k takes any n (MAX_N_64BIT)"
        huge_note=" (not n = 2^31+5: STEP.max_n is 32-bit, ours takes any n)"
    fi
    [ "$max_n" -ge "$huge" ] || return 0
    for t in $passed; do
        status=0
        check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "$huge" > "$log/huge-$t.txt" || status=$?
        cat "$log/huge-$t.txt"
        case $status in
            0) echo "PASS $t n=2^31+5"; huge_note=" and n = 2^31+5" ;;
            2) echo "skipped $t n=2^31+5: $(head -1 "$log/skip.txt" | sed 's/^[^:]*: //')"
               huge_note=" (n = 2^31+5 skipped: not enough memory)" ;;
            *) type_failed "$t" "$log/huge-$t.txt" ;;
        esac
    done
}
# check_same_bits: our step's same_bits=1 on the copy's float and double; the right types noted
check_same_bits() {
    local t same
    if [ "$(our_field "$k" same_bits)" = 1 ] && [ -n "$passed" ]; then
        echo "== same bits: mixed data, --blocks 1, 2, 7, 132, 528, 1024 and your own grid, 10 runs each: one result (step $k's claim)"
        for t in $passed; do
            [ "$t" != int ] || continue
            same_bits "$t" > "$log/same-bits-$t.txt" || true   # its FAIL line says it
            cat "$log/same-bits-$t.txt"
            if grep -q "^FAIL" "$log/same-bits-$t.txt"; then
                type_failed "$t" "$log/same-bits-$t.txt" "$(head -1 "$log/same-bits-$t.txt" | sed "s/^FAIL $t //")"
            else
                same_bits_note="; the same bits over --blocks 1, 2, 7, 132, 528, 1024 and its own grid"
            fi
        done
        [[ " $types " == *" float "* || " $types " == *" double "* ]] ||
            echo "same bits: not checked: LAB_TYPES=$types has no float or double (an integer sum is the same in any order)"
    fi
    for t in $passed; do
        same=$same_bits_note; [ "$t" != int ] || same=""
        note "correct:$t" pass "$count sizes$huge_note, random and one-hot data, each call on new data$same"
    done
}
# sanitize_one PROGRAM TOOL: TOOL at --describe's sanitize_runs: PASS, FAIL (1), no sanitizer (2)
sanitize_one() {
    local program=$1 tool=$2 n run extra out sanitize_runs
    find_sanitizer > /dev/null || { note "$tool" skip "$SANITIZER_MISSING"; return 2; }
    IFS=';' read -ra sanitize_runs <<< "$(describe "$program" sanitize_runs)"
    if [ ${#sanitize_runs[@]} -eq 0 ]; then
        echo "FAIL $tool: $program --describe gives no sanitize_runs (is the STEP metadata intact?)"
        note "$tool" fail "--describe gives no sanitize_runs"
        return 1
    fi
    sanitize_where="n = $(printf '%s, ' "${sanitize_runs[@]}" | sed 's/, $//; s/\(.*\), /\1 and /')"
    for run in "${sanitize_runs[@]}"; do
        read -r n extra <<< "$run"
        out=$log/$tool-$n.txt
        # shellcheck disable=SC2086  # extra: the run's flags, split into words
        sanitizer_run "$tool" -- "$program" -n "$n" -r 2 --seed "$seed" --device "${DEVICE:-0}" $extra > "$out" 2>&1 &&
            continue
        {
            echo "FAIL $tool n=$n${extra:+ $extra}: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out")"
            grep -m4 -E 'Race|hazard|Invalid|Warning|Error|at .*reduce' "$out" | grep -v SUMMARY | sed 's/^/  /' || true
            if [ "$tool" = racecheck ]; then
                echo "  hint: racecheck: a race: two threads touch the same shared-memory word with no barrier between"
                echo "  them; since Volta a warp's lanes are not in lockstep, so __syncwarp() must separate a read from"
                echo "  the write that follows (and __syncthreads() across warps). The sum may still be right: the bug is latent."
            else
                echo "  hint: memcheck: an access out of bounds: an index past the end of the input or of shared memory"
                echo "  (a missing or off-by-one bounds test, e.g. on a thread's second load)."
            fi
            echo "  full report: $out"
        } > "$log/$tool-fail.txt"
        cat "$log/$tool-fail.txt"
        note "$tool" fail "$(head -1 "$log/$tool-fail.txt" | sed -e "s/^FAIL $tool //" -e 's/=\{2,\} //')"
        tail -n +2 "$log/$tool-fail.txt" | note_detail
        return 1
    done
    note "$tool" pass "clean at $sanitize_where"
    return 0
}
# check_sanitizers: memcheck, then racecheck, on the first type's program; then the pass marker
check_sanitizers() {
    local tool status statuses=""
    if [[ " $failed " == *" $first_type "* ]]; then
        echo "not run: the sanitizers and the timing, until the $first_type checks pass"
        exit 1
    fi
    for tool in memcheck racecheck; do
        if [ "${LAB_SANITIZE:-1}" = 0 ]; then note "$tool" skip "LAB_SANITIZE=0"; continue; fi
        status=0
        sanitize_one "$program" "$tool" || status=$?
        [ "$status" != 1 ] || [ "$grading" = 1 ] || exit 1
        statuses+=$status
    done
    case $statuses in
        "") ;;   # LAB_SANITIZE=0
        *1*) failed+=" sanitizers" ;;
        *2*) echo "memcheck and racecheck: skipped, $SANITIZER_MISSING" ;;
        *) echo "memcheck and racecheck: clean at $sanitize_where"; sanitized=", memcheck and racecheck clean" ;;
    esac
    [ -n "$failed" ] || { echo "correct: $types, random and one-hot data$sanitized"; echo "correct" > "$dest/.lab-check"; }
}
# time_field CSV FIELD: FIELD of a --csv file's first row; median only of a PASSED row
time_field() {
    [ -f "$1" ] || return 0
    local report=${LAB_REPORT:-build/tools/report} median
    if [ "$2" != median ]; then "$report" field "$1" "$2" | sed -n 1p; return 0; fi
    median=$("$report" field "$1" median_ms | sed -n 1p)
    if [ "$("$report" field "$1" status | sed -n 1p)" = PASSED ] && awk -v ms="$median" 'BEGIN { exit !(ms + 0 > 0) }'; then
        echo "$median"
    fi
}
# check_timing: step k-1, the copy and ours timed, each into its own CSV; the table's verdict
check_timing() {
    local raw=$log/time.csv dir name names=() role roles=(start yours ours) i=0 ms status timing_failed=0 device="" verdict \
          start_dir=$prev ours_csv=""
    echo "== time: n = ${N:-2^26} $first_type, median of ${REPS:-20} runs, L2 flushed, every run verified on new data"
    "${LAB_REPORT:-build/tools/report}" header > "$raw" || exit 1   # then each program's rows
    # a handout: the start is the student's own copy, ours the course's time (lab/times/)
    our_kernel "$before" || start_dir=$lab_dir/$prev
    our_kernel "$k" || ours_csv=lab/times/$cur-$first_type.csv
    for dir in "$start_dir" "$dest" "$cur"; do
        role=${roles[i++]}
        if [ -n "$ours_csv" ] && [ "$role" = ours ]; then
            our_time "$ours_csv" "$raw" || { [ "$timing_failed$failed" = 0 ] || exit 1; return 0; }
            names+=("$(time_field "$ours_csv" step)")
            continue
        fi
        [ "$dir" = "$dest" ] || make -s --no-print-directory -C "$dir" TYPE="$first_type" || exit 1
        name=$dir/reduce$(suffix_of "$first_type")
        names+=("$(describe "$name" name)")
        rm -f "$log/time-$role.csv"
        status=0
        "$name" -n "${N:-2^26}" -r "${REPS:-20}" --seed "$seed" --device "${DEVICE:-0}" --quiet \
            --csv "$log/time-$role.csv" 2> "$log/time-$role.txt" || status=$?
        cat "$log/time-$role.txt" >&2
        [ ! -f "$log/time-$role.csv" ] || tail -n +2 "$log/time-$role.csv" >> "$raw"
        ms=$(time_field "$log/time-$role.csv" median)
        if [ "$status" -ne 0 ] || [ -z "$ms" ]; then
            echo "FAIL timing run of $name (exit $status)"
            if [ "$role" = yours ]; then
                echo "  hint: a timed run returned a wrong sum although the checks passed: every run gets new data (one"
                echo "  element changes), so a kernel that returns an earlier result, or takes another path at the size"
                echo "  it is timed at, fails here"
                note timed fail "$(grep -m1 'FAILED' "$log/time-$role.txt" | sed 's/^[^:]*: FAILED //')"
                note_detail < "$log/time-$role.txt"
            fi
            [ "$grading" = 1 ] || exit 1
            timing_failed=1
            continue
        fi
        note_item time "$role" "$ms"
        [ "$role" != yours ] || note timed pass "3 warm-up and ${REPS:-20} timed runs at n = ${N:-2^26}, each verified, each on new data"
        [ -n "$device" ] || { device=$(time_field "$log/time-$role.csv" device); note_item device "" "$device"; }
    done
    [ "$timing_failed" = 0 ] || exit 1
    "$grader" table "$raw" "$before" "$k" "${names[@]}" | tee "$log/time.txt" ||
        { rm -f "$dest/.lab-check"; echo "FAIL timing: a row of the table above is missing or failed"; exit 1; }
    [ -z "$failed" ] || exit 1
    verdict=$(sed -n 's/^verdict: \([^:]*\):.*/\1/p' "$log/time.txt")
    echo "correct, ${verdict:-no verdict}" > "$dest/.lab-check"
}
# our_time CSV RAW: a handout's time of our step (CSV), timed at this N, added to RAW; else 1
our_time() {
    local n
    n=$("$grader" size "${N:-2^26}")
    if [ -f "$1" ] && [ "$(time_field "$1" n)" = "$n" ] && [ -n "$(time_field "$1" median)" ]; then
        tail -n +2 "$1" >> "$2"
        echo "ours: the time your course measured on $(time_field "$1" device) ($1)"
        return 0
    fi
    echo "no verdict: our step $k's time at n = ${N:-2^26} $first_type is not in this handout ($1): your course"
    echo "  writes it on the lab GPU with make handout (lab/README.md, \"For a course\"); the times above are yours"
    echo "correct, time not compared: no time of ours here" > "$dest/.lab-check"
    return 1
}
# check_profile: make profile's Nsight Compute table for yours and ours (lab-check only)
check_profile() {
    [ "$grading" = 0 ] || return 0
    [ "${PROFILE:-0}" = 1 ] ||
        { echo "make lab-check STEP=$k$lab_dir_arg PROFILE=1 adds Nsight Compute's metrics for yours and ours (make profile's table)"; return 0; }
    echo "== Nsight Compute, n = 2^24, yours and ours (step $k's README says which column its idea moves)"
    PROFILE_CALLER="PROFILE=1" PROFILE_N=2^24 SUFFIX=$(suffix_of "$first_type") scripts/profile.sh "$dest" "$cur" ||
        true   # what failed is said above; the checks and the timing stand
}
