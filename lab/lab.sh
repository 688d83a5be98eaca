#!/usr/bin/env bash
# The classroom lab: a student turns step k-1 into step k in a copy of their own, and one
# command says whether it is right, where it fails, and how fast it is next to ours.
#
#   lab/lab.sh start K        make lab STEP=K: lab/work/stepK_name/ (git-ignored) holds step
#                             k-1's kernel, the exercise at the top and TODO(step K)
#                             comments where step k differs; FORCE=1 replaces a copy
#   lab/lab.sh check K        make lab-check STEP=K: build for LAB_TYPES (int float double),
#                             --check the sizes that break reductions, memcheck and
#                             racecheck, then time step k-1, the copy and our step k
#   lab/lab.sh grade K        make lab-grade STEP=K: the checks under a time limit, scored
#   lab/lab.sh status         make lab-status: started / correct / gain reached, per step
#   lab/lab.sh clean          make lab-clean: lists, then removes, the copies (LAB_DIR)
#   lab/lab.sh broken PATCH   a copy of lab/broken/NAME.patch's step, the patch applied
#   lab/lab.sh before K       the folder of the step exercise K starts from (for lab-grade-all)
#
# One source for each text, so they cannot drift apart: the exercise is the "## Exercise"
# section of step k's README, copied into the copy's header; the TODOs are computed from
# the diff of step k-1's kernel against step k's (lab/lab_todos.awk). The steps come from
# the top Makefile (LAB_STEPS, which make passes; else make print-STEPS), the one list of
# steps: this script globs no folder names.
#
# Variables (make help prints these lines), and N, REPS, DEVICE, SANITIZER and NCU:
##= LAB_DIR=lab/work: the folder make lab puts your copies in, and make lab-clean removes (tests use one under build/)
##= FORCE=0: FORCE=1 lets make lab replace a copy that exists (your work in it is lost)
##= LAB_TYPES="int float double": the types lab-check builds and checks
##= LAB_SIZES=: the sizes lab-check verifies, instead of the harness's sizes that break reductions (--check auto)
##= LAB_HUGE=1: lab-check also verifies n = 2^31+5 on the 64-bit steps (LAB_HUGE=0: not)
##= LAB_SANITIZE=1: lab-check runs memcheck and racecheck (LAB_SANITIZE=0: not)
##= PROFILE=0: PROFILE=1: lab-check adds the step's Nsight Compute metric for yours and ours
##= LAB_TIMEOUT=300: seconds lab-grade (and lab-grade-all, per submission) lets the checks run before "timed out"
##= LAB_WEIGHTS=lab/weights.conf: the points of each part of a grade (lab/README.md, "Grading a class")
##= LAB_SEED=(a new one each grading): the seed of lab-grade's data; give one to repeat a grading
# Exit codes: 0 done (check: correct), 1 wrong (or a build failed), 2 bad input, 3 no GPU.
# Through make every failure is 2 (make's own status): an autograder that must tell "no
# GPU" from "bad input" runs this script directly (lab/README.md, "Grading a class").
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")   # grade runs the checks through it
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # find_sanitizer, find_ncu and what to say without them
lab_dir=${LAB_DIR:-lab/work}
lab_dir=${lab_dir%/}
# what the hints add to a make command so that it finds these copies: nothing for the
# default folder, else LAB_DIR=... (quoted for the shell where it needs to be)
lab_dir_arg=""
[ "$lab_dir" = lab/work ] || lab_dir_arg=" LAB_DIR=$(printf '%q' "$lab_dir")"
grader=${LAB_GRADER:-build/tools/lab_grade}   # lab-check's table, lab-grade's score (lab/lab_grade_main.c)
suffix_of() { [ "$1" = int ] && echo "" || echo "_$1"; }

# The one-GPU steps, in order, from the top Makefile: make passes them (LAB_STEPS); run
# by hand or by the tests, this script asks make for them.
steps_text=${LAB_STEPS:-$(make -s --no-print-directory print-STEPS 2> /dev/null)}
read -ra steps <<< "$steps_text"
if [ ${#steps[@]} -eq 0 ]; then
    echo "lab: no steps: neither LAB_STEPS nor make print-STEPS named any" >&2
    exit 2
fi

# The lab's steps: those of the list with a kernel file of their own (reduce.cu), by
# number; exercise k (k >= 1) starts from the one before it in this list (step 14 from
# step 11: steps 12 and 13 are the multi-GPU extension's, not in the list).
kernel_steps=()
for d in "${steps[@]}"; do
    [ -f "$d/reduce.cu" ] || continue   # a program of several kernel files is no lab exercise
    k=${d#step}; k=${k%%_*}
    if [[ $k =~ ^[0-9]+$ ]]; then kernel_steps+=("$((10#$k))"); fi
done
mapfile -t kernel_steps < <(printf '%s\n' "${kernel_steps[@]}" | sort -nu)
lab_steps=()
for k in "${kernel_steps[@]}"; do [ "$k" -ge 1 ] && lab_steps+=("$k"); done
# lab_step_list: the lab's steps as a reader writes them: "1 to 11, 14"
lab_step_list() {
    local k from="" to="" out=""
    for k in "${lab_steps[@]}" end; do
        if [ "$k" != end ] && [ -n "$to" ] && [ "$k" -eq $((to + 1)) ]; then to=$k; continue; fi
        if [ -n "$from" ]; then
            if [ "$from" = "$to" ]; then out+=", $from"; else out+=", $from to $to"; fi
        fi
        from=$k to=$k
    done
    echo "${out#, }"
}

# valid_step TARGET K: prints K if it is a lab step, else one line and exit 2
valid_step() {
    local target=$1 k=${2:-}
    if ! [[ $k =~ ^[0-9]+$ ]] || ! [[ " ${lab_steps[*]} " == *" $((10#$k)) "* ]] || [ -z "$(step_dir "$k")" ]; then
        echo "make $target: give STEP=k with k from $(lab_step_list) (the step you write), e.g. make $target STEP=3" >&2
        exit 2
    fi
    echo "$((10#$k))"
}

# before_step K: the number of the step exercise K starts from: the one before K in the
# list (K - 1, except after a gap: 11 for 14)
before_step() {
    local k before=""
    for k in "${kernel_steps[@]}"; do [ "$k" -lt "$1" ] && before=$k; done
    echo "$before"
}

# The "## Exercise" section of a README (lab/lab_exercise.awk). Fails if there is none.
exercise_text() {
    [ -f "$1" ] && awk -f lab/lab_exercise.awk "$1"
}

# The STEP labels of a kernel file made the lab copy's: .number k, .name lab/work/DIR, .title
# "... (yours)", .citation "your lab copy of step k", .idea step k's. Applied to both
# kernels, so the diff has no hunk there. Fails unless the STEP definition sets all five.
relabel() {
    local file=$1 k=$2 dir=$3 title=$4 idea=$5
    awk -v k="$k" -v dir="$dir" -v title="$title" -v idea="$idea" '
        # set(line, key, value): the line with the value after ".key = " (a number or a
        # quoted string) replaced; found[key] counts the replacements
        function set(line, key, value,    at, rest, end) {
            at = index(line, "." key " = ")
            if (at == 0) return line
            rest = substr(line, at + length(key) + 4)
            if (substr(rest, 1, 1) == "\"") end = index(substr(rest, 2), "\"") + 1
            else { match(rest, /^-?[0-9]+/); end = RLENGTH }
            found[key]++
            return substr(line, 1, at + length(key) + 3) value substr(rest, end + 1)
        }
        /^extern "C" const step_info STEP = \{/ { step = 1 }
        step {
            $0 = set($0, "number", k)
            $0 = set($0, "name", "\"lab/work/" dir "\"")
            $0 = set($0, "title", "\"" title " (yours)\"")
            $0 = set($0, "citation", "\"your lab copy of step " k "\"")
            $0 = set($0, "idea", "\"" idea "\"")
            if ($0 ~ /^};/) step = 0
        }
        { print }
        END { exit !(found["number"] == 1 && found["name"] == 1 && found["title"] == 1 &&
                     found["citation"] == 1 && found["idea"] == 1) }' "$file"
}

# The kernel file without its first comment block (the @file header).
strip_header() {
    awk 'NR == 1 && /^\/\*\*/ { skip = 1 } skip { if (/\*\//) skip = 0; next } { print }' "$1"
}

# our_field K KEY: KEY (title, idea ...) of our step k, from its program's --describe
# (built first if need be, for TYPE): the program says what it is, no script reads its
# source. Fails if it cannot be built.
our_field() {
    local dir type=${TYPE:-int}
    dir=$(step_dir "$1")
    make -s --no-print-directory -C "$dir" TYPE="$type" > /dev/null 2>&1 || return 1
    describe "$dir/reduce$(suffix_of "$type")" "$2"
}

start() {
    local k cur prev dest before
    k=$(valid_step lab "${1:-}") || exit 2
    cur=$(step_dir "$k")
    before=$(before_step "$k")
    prev=$(step_dir "$before")
    dest=$lab_dir/$cur
    if [ -e "$dest" ] && [ "${FORCE:-0}" != 1 ]; then
        echo "make lab: $dest already exists (your work); make lab-check STEP=$k$lab_dir_arg checks it, FORCE=1 replaces it with a fresh copy" >&2
        exit 2
    fi
    local exercise title idea work
    if ! exercise=$(exercise_text "$cur/README.md"); then
        echo "make lab: $cur/README.md has no '## Exercise' section to copy into the exercise" >&2
        exit 1
    fi
    if ! title=$(our_field "$k" title) || ! idea=$(our_field "$k" idea) || [ -z "$title" ]; then
        echo "make lab: $cur does not build, so it cannot say its title and idea (make -C $cur shows why)" >&2
        exit 1
    fi
    work=$(mktemp -d) || exit 1
    # both kernels without the header and with the same label, then their diff
    if ! relabel "$prev/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/a-label.cu" ||
       ! relabel "$cur/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/b-label.cu" ||
       ! strip_header "$work/a-label.cu" > "$work/a.cu" || ! strip_header "$work/b-label.cu" > "$work/b.cu"; then
        echo "make lab: cannot find the STEP metadata in $prev/reduce.cu or $cur/reduce.cu" >&2
        rm -rf "$work"
        exit 1
    fi
    diff "$work/a.cu" "$work/b.cu" > "$work/diff" || [ $? -le 1 ]   # 1: they differ, as they should
    if ! {
        echo "/**"
        echo " * Lab, step $k: $title. Your copy: $dest/reduce.cu"
        echo " *"
        echo " * This is step $before's kernel ($prev/reduce.cu): correct, and slower than step $k."
        echo " * Turn it into step $k. The TODO(step $k, ...) comments below mark the places where our"
        echo " * step $k differs from it; the exercise, from $cur/README.md, says what to do."
        echo " *"
        printf '%s\n' "$exercise" | sed -e 's#\*/#*\\/#g' -e 's/^/ * /' -e 's/ *$//'
        echo " *"
        echo " * Check it: make lab-check STEP=$k$lab_dir_arg    (correctness, sanitizers, time next to ours)"
        echo " * Afterwards, our answer: make diff STEP=$k, and lab/ANSWERS.md"
        echo " */"
        awk -v step="$k" -f lab/lab_todos.awk "$work/a.cu" "$work/b.cu" "$work/diff"
    } > "$work/reduce.cu"; then
        echo "make lab: lab/lab_todos.awk could not place the TODOs (its message is above)" >&2
        rm -rf "$work"
        exit 1
    fi
    local todos
    todos=$(grep -c "// TODO(step $k," "$work/reduce.cu" || true)
    if [ "$todos" -eq 0 ]; then
        echo "make lab: no code differs between $prev/reduce.cu and $cur/reduce.cu: nothing to do" >&2
        rm -rf "$work"
        exit 1
    fi
    local common
    common=$(realpath -m --relative-to="$dest" common/step.mk)
    rm -rf "$dest"
    if ! mkdir -p "$dest" || ! cp "$work/reduce.cu" "$dest/reduce.cu"; then
        echo "make lab: cannot write $dest" >&2
        rm -rf "$work"
        exit 1
    fi
    printf '# Your lab copy of step %d; builds like a step (see %s).\ninclude %s\n' "$k" "$common" "$common" > "$dest/Makefile"
    rm -rf "$work"
    echo "make lab: $dest/reduce.cu is step $before's kernel with the exercise at the top and $todos TODO(step $k) comments"
    echo "next: edit it, then make lab-check STEP=$k$lab_dir_arg"
}

# ------------------------------------------------------------------ check
# no_gpu FILE: lab-check stops, saying what the program in FILE found missing (no driver,
# no GPU ...), and that the copy builds; exit 3
no_gpu() {
    echo "lab-check: no GPU here ($(head -1 "$1" | sed 's/^[^:]*: //')): $dest builds for ${built:-$types}; the checks and the timing need a CUDA GPU"
    note_item nogpu
    exit 3
}


# ------------------------------------------------------------------ the record
# lab-grade's record of what the checks found: a CSV file (format: lab/lab_grade.h) that
# the lab's tool writes (lab_grade note) and reads back, appended as the checks go, so
# that what ran before a time limit killed them still counts. LAB_RECORD names it;
# lab-check keeps none. note ID STATUS SUMMARY: one test; note_detail: the lines on stdin
# as the detail of the test noted last; note_item ITEM [ID] [TEXT]: any other item (time,
# built, device, nogpu).
record=${LAB_RECORD:-}
grading=0
[ "${LAB_MODE:-}" = grade ] && grading=1
noted=""   # the test noted last: note_detail's
note() { noted=$1; [ -z "$record" ] || "$grader" note "$record" test "$1" "$2" "$3"; }
note_detail() { if [ -n "$record" ]; then "$grader" detail "$record" "$noted"; else cat > /dev/null; fi; }
note_item() { [ -z "$record" ] || "$grader" note "$record" "$1" "${2:-}" "" "${3:-}"; }

# ------------------------------------------------------------------ includes
# The copy may include only what our step k's file includes (and step k-1's, where it
# started), and these C headers, which cannot sum anything: a library's reduction (CUB,
# Thrust, cuBLAS) is not the student's kernel.
harmless_includes="<cstdio> <stdio.h> <cstdint> <stdint.h> <climits> <limits.h> <cfloat> <float.h> <cassert> <assert.h>"

# include_lines FILE: "LINE<TAB>TARGET" for every #include (#include_next, #import) of FILE,
# continuation lines joined, the target as written (<x>, "x", or a macro's name)
include_lines() {
    awk '{ line = NR; text = $0
           while (text ~ /\\$/ && (getline more) > 0) text = substr(text, 1, length(text) - 1) more
           if (text ~ /^[ \t]*#[ \t]*(include_next|include|import)([ \t<"]|$)/) {
               sub(/^[ \t]*#[ \t]*(include_next|include|import)[ \t]*/, "", text)
               sub(/[ \t]*(\/\/.*|\/\*.*)?$/, "", text)
               printf "%d\t%s\n", line, text } }' "$1"
}

# header_deps FILE: every header the preprocessor opens for FILE (nvcc -M), one real path
# a line, in the order it opens them; fails when nvcc cannot preprocess it
header_deps() {
    local nvcc=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc} out
    command -v "$nvcc" > /dev/null 2>&1 || nvcc=$(command -v nvcc) || return 1
    out=$("$nvcc" -M -x cu -I"$PWD/common" "$1" 2> /dev/null) || return 1
    printf '%s\n' "$out" | sed 's/\\$//' | tr -s ' \t' '\n' | awk 'seen_colon { if (++n > 1 && $0 != "") print; next }
                                                                    /:$/ { seen_colon = 1 }' |
        xargs -r -d '\n' realpath -m | awk '!seen[$0]++'
}

# check_includes FILE K: PASS or FAIL with the line; notes "includes"; 1 on a failure
check_includes() {
    local file=$1 k=$2 cur prev allowed line target bad="" ours
    cur=$(step_dir "$k")
    prev=$(step_dir "$(before_step "$k")")
    allowed=$( (include_lines "$cur/reduce.cu"; include_lines "$prev/reduce.cu") | cut -f2 | sort -u)
    ours=$(printf '%s\n' "$allowed" | paste -sd' ')
    local may=()   # every target the copy may include
    read -ra may <<< "$ours $harmless_includes"
    while IFS=$'\t' read -r line target; do
        if ! [[ " ${may[*]} " == *" $target "* ]]; then
            bad="line $line: #include $target"
            break
        fi
    done < <(include_lines "$file")
    if [ -z "$bad" ] && header_deps "$file" > "$log/deps-yours.txt"; then
        printf '#include %s\n' "${may[@]}" > "$log/allowed.cu"
        if header_deps "$log/allowed.cu" > "$log/deps-allowed.txt"; then
            target=$(awk 'NR == FNR { allowed[$0] = 1; next } !($0 in allowed) { print; exit }' \
                         "$log/deps-allowed.txt" "$log/deps-yours.txt")
            [ -n "$target" ] && bad="it pulls in $target (an #include hidden behind a macro or another header?)"
        fi
    fi
    if [ -n "$bad" ]; then
        {
            echo "your copy may include only what our step $k's file includes ($ours), and <cstdio>, <cstdint>,"
            echo "<climits>, <cfloat>, <cassert> (or their .h names): the exercise is your own kernel, and a library's"
            echo "reduction (CUB, Thrust, cuBLAS, cooperative_groups::reduce) is not; remove the #include and what uses it"
        } > "$log/includes.txt"
        echo "FAIL includes: $bad"
        sed 's/^/  /' "$log/includes.txt"
        note includes fail "$bad"
        note_detail < "$log/includes.txt"
        return 1
    fi
    note includes pass "only what our step $k's file includes ($ours)"
    return 0
}

# check_sizes PROGRAM TYPE SIZE...: --check; on a failure prints the first failing case
# with its diagnosis and returns 1; returns 3 without a GPU, 2 when the size cannot be
# had (memory), 4 on a CUDA error.
check_sizes() {
    local program=$1 type=$2 list status=0 first again=""
    shift 2
    list=$(IFS=,; echo "$*")
    [ "$seed" = 1 ] || again=" --seed $seed"
    "$program" --check "$list" --seed "$seed" --device "${DEVICE:-0}" > "$log/check.txt" 2> "$log/check-err.txt" ||
        status=$?
    [ "$status" -eq 0 ] && return 0
    [ "$status" -eq 3 ] && return 3
    if [ "$status" -eq 2 ]; then
        cat "$log/check-err.txt" > "$log/skip.txt"
        return 2
    fi
    first=$(sed -n 's/^check n=\([0-9]*\): FAIL.*/\1/p;T;q' "$log/check.txt")
    if [ -z "$first" ]; then
        first=$(printf '%s\n' "$@" | while read -r n; do grep -q "^check n=$n: PASS" "$log/check.txt" || { echo "$n"; break; }; done)
        echo "FAIL $type n=$first: the program stopped (exit $status):"
        sed 's/^/  /' "$log/check-err.txt" | head -5
        echo "  hint: a CUDA error in a check is most often a read or write out of bounds; memcheck says where:"
        echo "  ${SANITIZER:-compute-sanitizer} --tool memcheck $program -n $first -r 1 --warmup 0"
        return 4
    fi
    echo "FAIL $type n=$first, the first size that fails:"
    # the FAILED lines and the hint of that size: everything up to its hint line
    awk '{ sub(/^[^:]*: /, ""); print "  " $0; if ($0 ~ /^hint: /) exit }' "$log/check-err.txt"
    echo "  reproduce: $program --check $first$again"
    return 1
}

# The sanitizers' runs, "N [FLAG...]" each: two small sizes; for a step that claims the
# same bits (check() adds it) a third, where one block (--blocks 1) sums 8 chunks (16 for
# doubles) one after another, so that a missing barrier between two chunks' block_sum() shows
sanitize_runs=("1000" "4099")
sanitize_where="n = 1000 and 4099"

# sanitize_one PROGRAM TOOL: memcheck or racecheck at sanitize_runs; PASS, FAIL with the
# finding (1), or skipped when there is no compute-sanitizer (2); notes TOOL
sanitize_one() {
    local program=$1 tool=$2 n run extra
    if ! find_sanitizer > /dev/null; then
        note "$tool" skip "$SANITIZER_MISSING"
        return 2
    fi
    for run in "${sanitize_runs[@]}"; do
        read -r n extra <<< "$run"
        # shellcheck disable=SC2086  # extra: the run's flags, split into words
        if ! sanitizer_run "$tool" -- "$program" -n "$n" -r 2 --seed "$seed" --device "${DEVICE:-0}" $extra \
                > "$log/$tool-$n.txt" 2>&1; then
            {
                echo "FAIL $tool n=$n${extra:+ $extra}: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/$tool-$n.txt")"
                grep -m4 -E 'Race|hazard|Invalid|Warning|Error|at .*reduce' "$log/$tool-$n.txt" | grep -v SUMMARY |
                    sed 's/^/  /' || true
                if [ "$tool" = racecheck ]; then
                    echo "  hint: racecheck: a race: two threads touch the same shared-memory word with no barrier between"
                    echo "  them; since Volta a warp's lanes are not in lockstep, so __syncwarp() must separate a read from"
                    echo "  the write that follows (and __syncthreads() across warps). The sum may still be right: the bug is latent."
                else
                    echo "  hint: memcheck: an access out of bounds: an index past the end of the input or of shared memory"
                    echo "  (a missing or off-by-one bounds test, e.g. on a thread's second load)."
                fi
                echo "  full report: $log/$tool-$n.txt"
            } > "$log/$tool-fail.txt"
            cat "$log/$tool-fail.txt"
            note "$tool" fail "$(head -1 "$log/$tool-fail.txt" | sed -e "s/^FAIL $tool //" -e 's/=\{2,\} //')"
            tail -n +2 "$log/$tool-fail.txt" | note_detail
            return 1
        fi
    done
    note "$tool" pass "clean at $sanitize_where"
    return 0
}

# sanitize PROGRAM: memcheck, then racecheck; 1 at the first finding (lab-check stops
# there; lab-grade runs both)
sanitize() {
    local program=$1 tool status failed=0 skipped=0
    for tool in memcheck racecheck; do
        status=0
        sanitize_one "$program" "$tool" || status=$?
        [ "$status" -eq 2 ] && skipped=1
        if [ "$status" -eq 1 ]; then
            failed=1
            [ "$grading" = 1 ] || return 1
        fi
    done
    [ "$failed" = 1 ] && return 1
    if [ "$skipped" = 1 ]; then
        echo "memcheck and racecheck: skipped, compute-sanitizer not found (it ships with the CUDA Toolkit; SANITIZER=/path/to/it)"
    else
        echo "memcheck and racecheck: clean at $sanitize_where"
        sanitized=", memcheck and racecheck clean"
    fi
}

# lab_types: LAB_TYPES checked (int float double), or one line and exit 2
lab_types() {
    local types t type_list
    read -ra type_list <<< "${LAB_TYPES:-int float double}"
    types=${type_list[*]}
    [ -n "$types" ] || types="int float double"
    for t in $types; do
        case $t in int|float|double) ;; *)
            echo "make $1: LAB_TYPES takes int, float and double (got '$t'), e.g. LAB_TYPES=int" >&2
            exit 2 ;;
        esac
    done
    echo "$types"
}

# lab_seed TARGET DEFAULT: LAB_SEED, or DEFAULT; one line and exit 2 if it is not a number
lab_seed() {
    local value=${LAB_SEED:-$2}
    if ! [[ $value =~ ^[0-9]{1,18}$ ]]; then
        echo "make $1: LAB_SEED takes a whole number (the seed of the data), got '$value'" >&2
        exit 2
    fi
    echo "$((10#$value))"
}

# size_value TEXT: the size TEXT names in the programs' notation (N, 2^K, 2^K+M or 2^K-M,
# as -n takes it), in decimal; fails on anything else, on 0, and past 2^62 (no GPU holds
# that many elements, and bash's arithmetic would wrap)
size_value() {
    local value
    if [[ $1 =~ ^[0-9]{1,18}$ ]]; then
        value=$((10#$1))
    elif [[ $1 =~ ^2\^([0-9]{1,2})([+-][0-9]{1,18})?$ ]] && [ "$((10#${BASH_REMATCH[1]}))" -le 62 ]; then
        value=$((1 << 10#${BASH_REMATCH[1]}))
        case ${BASH_REMATCH[2]} in
            +*) value=$((value + 10#${BASH_REMATCH[2]#+})) ;;
            -*) value=$((value - 10#${BASH_REMATCH[2]#-})) ;;
        esac
    else
        return 1
    fi
    [ "$value" -ge 1 ] && echo "$value"
}

# check_n_reps TARGET: N (the timed size) and REPS (the timed runs) as the programs take
# them, or one line and exit 2: a typo is said before three builds, not after them
check_n_reps() {
    if ! size_value "${N:-2^26}" > /dev/null; then
        echo "make $1: N takes a size as the programs' -n does: 1000000, 2^26, 2^20+3 or 2^20-1 (got '${N:-}')" >&2
        exit 2
    fi
    if ! [[ ${REPS:-20} =~ ^[1-9][0-9]{0,5}$ ]] || [ "${REPS:-20}" -gt 100000 ]; then
        echo "make $1: REPS takes the number of timed runs, 1 to 100000 (got '${REPS:-}')" >&2
        exit 2
    fi
}

# same_bits TYPE: our step k claims the same bits on every grid (its --describe says
# same_bits=1), so the copy's TYPE program sums data whose float sum shows its order
# (build/tools/mixed_data: large values that cancel among small ones) at 2^20+3 and
# 2^24+7, with --blocks 1, 7, 132 and its own grid, 10 runs each, every result verified:
# all must be one value. PASS, or FAIL with the grids that differ and a hint; 1 on a failure.
same_bits() {
    local t=$1 program size blocks file status values count own differ first args
    program=$dest/reduce$(suffix_of "$t")
    if [ -z "$(describe "$program" most_blocks)" ]; then
        echo "FAIL $t same bits: your copy takes no --blocks B (its --describe says no most_blocks=), which this check runs it with: add it as the exercise says (common/blocks_flag.h; .own_flags = &blocks_flag in STEP)"
        return 1
    fi
    for size in 1048579 16777223; do
        file=$log/mixed-$t-$size.bin
        if ! "$mixed_data" "$t" "$size" 14 "$file" 2> "$log/same-bits-err.txt"; then
            echo "FAIL $t same bits: the data was not written: $(head -1 "$log/same-bits-err.txt")"
            return 1
        fi
        rm -f "$log/same-bits-$t-$size-"*.txt
        for blocks in 1 7 132 own; do
            args=()
            [ "$blocks" = own ] || args=(--blocks "$blocks")
            status=0
            "$program" --input "$file" --print-sum -r 10 --warmup 0 --no-gate --quiet --device "${DEVICE:-0}" "${args[@]}" \
                > "$log/same-bits-$t-$size-$blocks.txt" 2> "$log/same-bits-err.txt" || status=$?
            if [ "$status" -ne 0 ]; then
                echo "FAIL $t same bits n=$size ${args[*]:-(your own grid)}: exit $status: $(head -1 "$log/same-bits-err.txt" | sed 's/^[^:]*: //')"
                echo "  reproduce: $mixed_data $t $size 14 data.bin; $program --input data.bin -r 10 ${args[*]}"
                rm -f "$file"
                return 1
            fi
        done
        rm -f "$file"
        values=$(cat "$log/same-bits-$t-$size-"*.txt | sort -u)
        count=$(grep -c . <<< "$values")
        [ "$count" -eq 1 ] && continue
        own=$(head -1 "$log/same-bits-$t-$size-own.txt")
        differ=""
        for blocks in 1 7 132 own; do
            first=$(grep -vxF -m1 -- "$own" "$log/same-bits-$t-$size-$blocks.txt") || continue
            if [ "$blocks" = own ]; then differ+=", your own grid's later runs ($first)"; else differ+=", --blocks $blocks ($first)"; fi
        done
        echo "FAIL $t same bits n=$size: $count different results over --blocks 1, 7, 132 and your own grid, 10 runs each; your own grid's first is $own, these differ:${differ#,}"
        if [ "$(sort -u "$log/same-bits-$t-$size-own.txt" | wc -l)" -gt 1 ]; then
            echo "  hint: the result changes from run to run: the partial sums must be added in a fixed order, not in the order the blocks finish (a ticket's order, atomicAdd)"
        else
            echo "  hint: the result depends on the grid: the order of the additions must depend on n alone (chunks fixed by n, not by gridDim.x or blockIdx.x)"
        fi
        echo "  reproduce: $mixed_data $t $size 14 data.bin; $program --input data.bin --print-sum --quiet -r 10 --blocks 1 (then --blocks 7)"
        return 1
    done
    echo "PASS $t same bits: one result at n = 2^20+3 and 2^24+7 over --blocks 1, 7, 132 and your own grid, 10 runs each"
}

# failure_summary FILE: "n=33: lost tail" from check_sizes' report in FILE (its first
# line, and the kind of bug its hint names)
failure_summary() {
    local kind
    kind=$(sed -n 's/^  hint: \([^:;]*\).*/\1/p' "$1" | head -1)
    head -1 "$1" | sed -e 's/^FAIL [a-z]* //' -e 's/, the first size that fails:$//' -e 's/:$//' | tr -d '\n'
    [ -n "$kind" ] && printf ': %s' "$kind"
    echo
}

# time_field CSV ROW FIELD: the median time (median, of a PASSED row) or the device
# (device) of the ROW-th row of a program's --csv file, read by column name (report field)
time_field() {
    [ -f "$1" ] || return 0
    local report=${LAB_REPORT:-build/tools/report} status median
    case $3 in
        median)
            status=$("$report" field "$1" status | sed -n "$2p")
            median=$("$report" field "$1" median_ms | sed -n "$2p")
            if [ "$status" = PASSED ] && awk -v ms="$median" 'BEGIN { exit !(ms + 0 > 0) }'; then echo "$median"; fi ;;
        device) "$report" field "$1" device | sed -n "$2p" ;;
    esac
}

# The checks of lab-check. With LAB_MODE=grade (lab-grade runs it so, under its time
# limit) it goes on past a failure wherever the rest can still say something, and every
# outcome goes to the record; lab-check stops at the first failure.
check() {
    local k cur prev dest types t before
    k=$(valid_step lab-check "${1:-}") || exit 2
    cur=$(step_dir "$k")
    before=$(before_step "$k")
    prev=$(step_dir "$before")
    dest=$lab_dir/$cur
    types=$(lab_types lab-check) || exit 2
    seed=$(lab_seed lab-check 1) || exit 2
    local size size_list value custom_sizes=()
    read -ra size_list <<< "${LAB_SIZES:-}"
    for size in "${size_list[@]}"; do
        if ! value=$(size_value "$size"); then
            echo "make lab-check: LAB_SIZES takes sizes >= 1 such as 1000 or 2^20+3 (got '$size')" >&2
            exit 2
        fi
        custom_sizes+=("$value")
    done
    check_n_reps lab-check
    if [ ! -f "$dest/reduce.cu" ] || [ ! -f "$dest/Makefile" ]; then
        echo "make lab-check: no copy of step $k in $dest yet; make lab STEP=$k$lab_dir_arg starts one" >&2
        exit 2
    fi
    log=$dest/build/lab-check
    rm -f "$dest/.lab-check"   # the pass marker: rewritten only when everything passes
    # nvcc's temporary files in the copy, not in /tmp: a time limit that kills a build
    # leaves them where the copy's next check (or the scratch copy's removal) clears them
    rm -rf "$log/tmp"
    mkdir -p "$log/tmp" || exit 1
    TMPDIR=$(realpath -m "$log/tmp")
    export TMPDIR

    # what a time limit cuts short from here on, in the record: the build (the #include
    # check's preprocessing included), then the checks
    note_item phase "" build
    # an empty file is said as such, before the #include check and the build's pages of
    # link errors (blank lines only: a save that wrote nothing, or the wrong file)
    if ! grep -q '[^[:space:]]' "$dest/reduce.cu"; then
        echo "FAIL empty file: $dest/reduce.cu holds no code (the save wrote nothing, or another file was handed in)"
        note empty fail "empty file: reduce.cu holds no code"
        exit 1
    fi
    echo "== includes: $dest/reduce.cu against our step $k's file"
    check_includes "$dest/reduce.cu" "$k" || exit 1

    # built: the types that compiled; failed: the types with a failure so far; a fresh
    # copy compiles the harness too, one job per core
    echo "== build $dest for $types"
    local built="" failed="" jobs
    jobs=$(nproc 2>/dev/null || echo 2)
    for t in $types; do
        if make -s -j"$jobs" --no-print-directory -C "$dest" TYPE="$t" > "$log/build-$t.txt" 2>&1; then
            cat "$log/build-$t.txt"
            built+=" $t"
        else
            cat "$log/build-$t.txt"
            echo "FAIL build $t: your copy does not compile (the compiler's messages are above)"
            note "correct:$t" fail "does not compile"
            grep -v '^  NVCC ' "$log/build-$t.txt" | tail -15 | note_detail
            [ "$grading" = 1 ] || exit 1
            failed+=" $t"
        fi
    done
    built=${built# }
    [ -n "$built" ] || exit 1
    note_item built "" "$built"
    note_item phase "" checks
    local first_type program threads max_n ours_max
    first_type=${types%% *}
    program=$dest/reduce$(suffix_of "${built%% *}")
    threads=$(describe "$program" threads)
    max_n=$(describe "$program" max_n)
    if ! [[ $threads =~ ^[0-9]+$ ]] || ! [[ $max_n =~ ^[0-9]+$ ]]; then
        echo "FAIL $program --describe did not answer; is the STEP metadata intact?"
        for t in $built; do note "correct:$t" fail "--describe did not answer: the STEP metadata is broken"; done
        exit 1
    fi

    # type_sizes PROGRAM: the sizes to check it at: LAB_SIZES, else the harness's sizes that
    # break reductions (--check auto, from your STEP and this type's vector width), less
    # 2^31+5, checked on its own below (LAB_HUGE)
    local sizes=() count
    type_sizes() {
        sizes=("${custom_sizes[@]}")
        [ ${#sizes[@]} -gt 0 ] || IFS=, read -ra sizes <<< "$(describe "$1" check_sizes)"
        mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | grep -vx 2147483653 | sort -nu)
    }
    type_sizes "$program"
    count=${#sizes[@]}
    echo "== correctness: random and one-hot data, each reduced twice, at $count sizes ($first_type: ${sizes[*]})"
    local status passed=""
    for t in $built; do
        status=0
        type_sizes "$dest/reduce$(suffix_of "$t")"
        check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "${sizes[@]}" > "$log/sizes-$t.txt" || status=$?
        cat "$log/sizes-$t.txt"
        # the first type's --check is the first program to ask for the GPU: none, exit 3 here
        [ "$status" -eq 3 ] && no_gpu "$log/check-err.txt"
        if [ "$status" -eq 2 ]; then
            echo "FAIL $t: $(head -1 "$log/skip.txt")" | tee "$log/sizes-$t.txt"
        fi
        if [ "$status" -ne 0 ]; then
            note "correct:$t" fail "$(failure_summary "$log/sizes-$t.txt")"
            tail -n +2 "$log/sizes-$t.txt" | note_detail
            [ "$grading" = 1 ] || exit 1
            failed+=" $t"
            continue
        fi
        echo "PASS $t"
        passed+=" $t"
    done
    local huge=2147483653 huge_note=""
    if [ "${LAB_HUGE:-1}" != 0 ] && [ -n "$passed" ]; then
        make -s --no-print-directory -C "$cur" TYPE="$first_type" || exit 1
        ours_max=$(describe "$cur/reduce$(suffix_of "$first_type")" max_n)
        if [ "$max_n" -ge "$huge" ]; then
            for t in $passed; do
                status=0
                check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "$huge" > "$log/huge-$t.txt" || status=$?
                cat "$log/huge-$t.txt"
                case $status in
                    0) echo "PASS $t n=2^31+5"; huge_note=" and n = 2^31+5" ;;
                    2) echo "skipped $t n=2^31+5: $(head -1 "$log/skip.txt" | sed 's/^[^:]*: //')"
                       huge_note=" (n = 2^31+5 skipped: not enough memory)" ;;
                    *)
                        note "correct:$t" fail "$(failure_summary "$log/huge-$t.txt")"
                        tail -n +2 "$log/huge-$t.txt" | note_detail
                        [ "$grading" = 1 ] || exit 1
                        failed+=" $t"
                        passed=$(echo " $passed " | sed "s/ $t / /" | xargs)
                        ;;
                esac
            done
        elif [ "${ours_max:-0}" -ge "$huge" ]; then
            echo "note: n = 2^31+5 not checked: your STEP.max_n is $max_n (32-bit indices); our step $k takes any n (MAX_N_64BIT)"
            huge_note=" (not n = 2^31+5: STEP.max_n is 32-bit, ours takes any n)"
        fi
    fi
    # our step's claim (--describe: same_bits=1), held against the copy's float and double
    local same_bits_note="" same mixed_data=${LAB_MIXED_DATA:-build/tools/mixed_data}
    make -s --no-print-directory -C "$cur" TYPE="$first_type" || exit 1
    if [ "$(describe "$cur/reduce$(suffix_of "$first_type")" same_bits)" = 1 ] && [ -n "$passed" ]; then
        echo "== same bits: mixed data, --blocks 1, 7, 132 and your own grid, 10 runs each: one result (step $k's claim)"
        if [ ! -x "$mixed_data" ]; then
            echo "lab-check: $mixed_data is not built: make build/tools/mixed_data (make lab-check builds it)" >&2
            exit 1
        fi
        for t in $passed; do
            case $t in float|double) ;; *) continue ;; esac
            same_bits "$t" > "$log/same-bits-$t.txt" || true   # its FAIL line says it
            cat "$log/same-bits-$t.txt"
            if grep -q "^FAIL" "$log/same-bits-$t.txt"; then
                note "correct:$t" fail "$(head -1 "$log/same-bits-$t.txt" | sed "s/^FAIL $t //")"
                tail -n +2 "$log/same-bits-$t.txt" | note_detail
                [ "$grading" = 1 ] || exit 1
                failed+=" $t"
                passed=$(echo " $passed " | sed "s/ $t / /" | xargs)
            else
                same_bits_note="; the same bits over --blocks 1, 7, 132 and its own grid"
            fi
        done
        if [ -n "$(describe "$program" most_blocks)" ]; then
            sanitize_runs+=("65539 --blocks 1")
            sanitize_where="n = 1000, 4099 and 65539 with --blocks 1 (one block, several chunks)"
        fi
        case " $types " in
            *" float "*|*" double "*) ;;
            *) echo "same bits: not checked: LAB_TYPES=$types has no float or double (an integer sum is the same in any order)" ;;
        esac
    fi
    for t in $passed; do
        case $t in float|double) same=$same_bits_note ;; *) same="" ;; esac
        note "correct:$t" pass "$count sizes$huge_note, random and one-hot data, each call on new data$same"
    done
    # the sanitizers and the timing run the first type's program: only once it is right
    if [[ " $failed " == *" $first_type "* ]]; then
        echo "not run: the sanitizers and the timing, until the $first_type checks pass"
        exit 1
    fi
    sanitized=""
    if [ "${LAB_SANITIZE:-1}" != 0 ]; then
        sanitize "$program" || { [ "$grading" = 1 ] || exit 1; failed+=" sanitizers"; }
    else
        note memcheck skip "LAB_SANITIZE=0"
        note racecheck skip "LAB_SANITIZE=0"
    fi
    if [ -z "$failed" ]; then
        echo "correct: $types, random and one-hot data$sanitized"
        echo "correct" > "$dest/.lab-check"
    fi

    echo "== time: n = ${N:-2^26} $first_type, median of ${REPS:-20} runs, L2 flushed, every run verified on new data"
    local raw=$log/time.csv name names=() role roles=(start yours ours) i=0 ms timing_failed=0 device=""
    rm -f "$raw"
    for dir in "$prev" "$dest" "$cur"; do
        role=${roles[$i]}
        i=$((i + 1))
        [ "$dir" = "$dest" ] || make -s --no-print-directory -C "$dir" TYPE="$first_type" || exit 1
        name=$dir/reduce$(suffix_of "$first_type")
        names+=("$(describe "$name" name)")
        # each program its own CSV first: a row missing (a crash) never shifts the others'
        rm -f "$log/time-$role.csv"
        status=0
        "$name" -n "${N:-2^26}" -r "${REPS:-20}" --seed "$seed" --device "${DEVICE:-0}" --quiet \
            --csv "$log/time-$role.csv" 2> "$log/time-$role.txt" || status=$?
        cat "$log/time-$role.txt" >&2
        if [ -f "$log/time-$role.csv" ]; then
            if [ -f "$raw" ]; then tail -n +2 "$log/time-$role.csv" >> "$raw"; else cp "$log/time-$role.csv" "$raw"; fi
        fi
        ms=$(time_field "$log/time-$role.csv" 1 median)
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
        [ "$role" = yours ] && note timed pass "3 warm-up and ${REPS:-20} timed runs at n = ${N:-2^26}, each verified, each on new data"
        if [ -z "$device" ]; then
            device=$(time_field "$log/time-$role.csv" 1 device)
            note_item device "" "$device"
        fi
    done
    [ "$timing_failed" = 0 ] || exit 1
    if ! "$grader" table "$raw" "$before" "$k" "${names[@]}" | tee "$log/time.txt"; then
        rm -f "$dest/.lab-check"
        echo "FAIL timing: a row of the table above is missing or failed"
        exit 1
    fi
    local verdict
    verdict=$(sed -n 's/^verdict: \([^:]*\):.*/\1/p' "$log/time.txt")
    [ -n "$failed" ] && exit 1
    echo "correct, ${verdict:-no verdict}" > "$dest/.lab-check"

    # Nsight Compute: make profile's table for yours and ours, every metric for every step
    # (step k's README says which one its idea moves), no choice of this script's
    if [ "$grading" = 1 ]; then
        :   # lab-grade scores the time, not a profile
    elif [ "${PROFILE:-0}" != 1 ]; then
        echo "make lab-check STEP=$k$lab_dir_arg PROFILE=1 adds Nsight Compute's metrics for yours and ours (make profile's table)"
    else
        echo "== Nsight Compute, n = 2^24, yours and ours (step $k's README says which column its idea moves)"
        PROFILE_CALLER="PROFILE=1" PROFILE_N=2^24 SUFFIX=$(suffix_of "$first_type") scripts/profile.sh "$dest" "$cur" ||
            true   # what failed is said above; the checks and the timing stand
    fi
    return 0
}

# ------------------------------------------------------------------ grade
# A new seed for every grading: no answer can be known beforehand.
fresh_seed() {
    local value
    value=$(od -An -N4 -tu4 /dev/urandom 2> /dev/null | tr -d ' ')
    [[ $value =~ ^[0-9]+$ ]] || value=$((RANDOM * 32768 + RANDOM))
    echo "$value"
}

# make lab-grade STEP=k: the checks of lab-check under a time limit (LAB_TIMEOUT, 300 s),
# on data from a new seed (LAB_SEED), recorded; then the score (lab_grade grade) into
# DEST/results.json and a one-screen summary. LAB_STUDENT and LAB_GRADES (lab-grade-all)
# append the row of results/grades.csv. Exit 0 once graded, whatever the score; 2 bad
# input; 3 no GPU (results.json says the GPU checks were not run).
grade() {
    local k cur dest types seed limit weights dir start status pid
    k=$(valid_step lab-grade "${1:-}") || exit 2
    cur=$(step_dir "$k")
    dest=$lab_dir/$cur
    types=$(lab_types lab-grade) || exit 2
    seed=$(lab_seed lab-grade "$(fresh_seed)") || exit 2
    check_n_reps lab-grade
    limit=${LAB_TIMEOUT:-300}
    if ! [[ $limit =~ ^[1-9][0-9]{0,5}$ ]]; then
        echo "make lab-grade: LAB_TIMEOUT takes a time limit in seconds >= 1 (got '$limit')" >&2
        exit 2
    fi
    if [ ! -f "$dest/reduce.cu" ] || [ ! -f "$dest/Makefile" ]; then
        echo "make lab-grade: no copy of step $k in $dest yet; make lab STEP=$k$lab_dir_arg starts one" >&2
        exit 2
    fi
    if [ ! -x "$grader" ]; then   # run directly, not through make, which builds it first
        echo "make lab-grade: $grader is not built: make build/tools/lab_grade build/tools/report" >&2
        exit 1
    fi
    weights=${LAB_WEIGHTS:-lab/weights.conf}
    "$grader" weights "$weights" > /dev/null || exit 2   # its one line says what is wrong
    dir=$dest/build/lab-grade
    rm -rf "$dir" "$dest/results.json"
    mkdir -p "$dir" || exit 1
    local record_file=$dir/record.csv
    { "$grader" note "$record_file" step "$k" "" "$cur" &&
      "$grader" note "$record_file" start "$(before_step "$k")" "" "$(step_dir "$(before_step "$k")")" &&
      "$grader" note "$record_file" title "" "" "$(our_field "$k" title)" &&
      "$grader" note "$record_file" copy "" "" "$dest/reduce.cu" &&
      "$grader" note "$record_file" seed "" "" "$seed" &&
      "$grader" note "$record_file" types "" "" "$types"; } || exit 1
    # the step, the copy and the seed head the summary, once
    echo "lab-grade: checking $types, up to $limit s (LAB_TIMEOUT); the summary follows"
    start=$SECONDS
    # timeout puts the checks in a process group of their own: on a time limit, or on
    # Ctrl-C here, the whole group goes, whatever program of the copy is running
    LAB_MODE=grade LAB_SEED=$seed LAB_RECORD=$record_file timeout -k 10 "$limit" "$self" check "$k" \
        > "$dir/check.txt" 2>&1 &
    pid=$!
    trap 'kill -TERM -- -'"$pid"' 2> /dev/null; echo "lab-grade: stopped" >&2; exit 130' INT TERM
    status=0
    wait "$pid" || status=$?
    trap - INT TERM
    case $status in
        124|137) "$grader" note "$record_file" timeout "" "" "$limit" ;;
        2) echo "make lab-grade: the checks refused to start: $(tail -1 "$dir/check.txt")" >&2; exit 2 ;;
    esac
    "$grader" note "$record_file" elapsed "" "" "$((SECONDS - start))"
    # lab_grade grade: 0 graded, 3 graded but no GPU answered (the GPU checks did not run)
    status=0
    if [ -n "${LAB_STUDENT:-}" ]; then
        "$grader" grade "$record_file" "$weights" "$dest/results.json" "$LAB_STUDENT" "${LAB_GRADES:?}" || status=$?
    else
        "$grader" grade "$record_file" "$weights" "$dest/results.json" || status=$?
    fi
    case $status in 0|3) ;; *) exit 2 ;; esac
    echo "wrote $dest/results.json; what the checks printed: $dir/check.txt"
    return "$status"
}

# ------------------------------------------------------------------ status
status() {
    local k cur dest state started=0 correct=0 reached=0
    printf '%-5s %-40s %s\n' step "your copy" status
    for k in "${lab_steps[@]}"; do
        cur=$(step_dir "$k")
        dest=$lab_dir/$cur
        if [ ! -f "$dest/reduce.cu" ]; then
            state="not started (make lab STEP=$k$lab_dir_arg)"
        else
            started=$((started + 1))
            if [ -f "$dest/.lab-check" ] && ! [ "$dest/reduce.cu" -nt "$dest/.lab-check" ]; then
                state="checked: $(head -1 "$dest/.lab-check")"
                correct=$((correct + 1))
                case $state in *"gain reached"*|*"can't tell"*) reached=$((reached + 1)) ;; esac
            elif [ -f "$dest/.lab-check" ]; then
                state="started, changed since its last lab-check passed (make lab-check STEP=$k$lab_dir_arg)"
            else
                state="started, not yet passed (make lab-check STEP=$k$lab_dir_arg)"
            fi
        fi
        printf '%-5s %-40s %s\n' "$k" "$dest" "$state"
    done
    echo "$started of ${#lab_steps[@]} started, $correct correct, $reached with the step's gain (or correct where time can't tell)"
}

# ------------------------------------------------------------------ broken copies
# patch_header FILE KEY: the values of a broken copy's "# KEY: value" header lines, one a
# line (lab/broken/*.patch: the lines before the diff say what the copy must trigger)
patch_header() { sed -n -e '/^--- /q' -e "s/^# $2: //p" "$1"; }

# make_broken PATCH: a fresh copy of the patch's step in LAB_DIR (make lab's), our step's
# kernel in it with the patch applied (make test and lab-grade-demo run these); prints
# the copy's folder. Exit 1 when the patch does not apply: it is out of date with our step.
make_broken() {
    local file=$1 k cur dest
    if [ ! -f "$file" ]; then echo "lab: no broken copy $file" >&2; exit 2; fi
    k=$(valid_step "lab (the step of $file)" "$(patch_header "$file" step | head -1)") || exit 2
    cur=$(step_dir "$k")
    dest=$lab_dir/$cur
    (FORCE=1 start "$k") > /dev/null || exit 1
    cp "$cur/reduce.cu" "$dest/reduce.cu" || exit 1
    if command -v patch > /dev/null 2>&1; then
        patch -s --no-backup-if-mismatch "$dest/reduce.cu" < "$file" > "$dest/patch.log" 2>&1
    else
        git apply --unsafe-paths --directory="$dest" -p1 "$file" > "$dest/patch.log" 2>&1
    fi || { echo "lab: $file does not apply to $cur/reduce.cu: $(head -1 "$dest/patch.log")" >&2; exit 1; }
    rm -f "$dest/patch.log"
    echo "$dest"
}

# ------------------------------------------------------------------ clean
# make lab-clean: the copies in LAB_DIR are listed, then removed. A folder outside the
# repository, or one that holds a file git tracks, is refused: a reset never touches the
# answer key or the guide.
clean() {
    if [ ! -e "$lab_dir" ]; then
        echo "make lab-clean: $lab_dir does not exist: nothing to remove"
        return 0
    fi
    local full
    full=$(realpath -m -- "$lab_dir")
    case $full in "$PWD"/?*) ;; *)
        echo "make lab-clean: LAB_DIR=$lab_dir is not a folder inside this repository: not removed" >&2
        exit 2 ;;
    esac
    if command -v git > /dev/null 2>&1 && [ -n "$(git ls-files -- "$lab_dir" 2> /dev/null | head -1)" ]; then
        echo "make lab-clean: $lab_dir holds files git tracks ($(git ls-files -- "$lab_dir" | head -1) ...): not removed; LAB_DIR names the students' copies' folder" >&2
        exit 2
    fi
    local copies=()   # what the folder holds, listed before it goes
    mapfile -t copies < <(find "$lab_dir" -mindepth 1 -maxdepth 1 | LC_ALL=C sort)
    echo "make lab-clean: removes $lab_dir/ and what it holds:"
    printf '  %s\n' "${copies[@]}"
    rm -rf -- "$lab_dir"
    echo "removed $lab_dir/; make lab STEP=k$lab_dir_arg starts a copy again"
}

case ${1:-} in
    before) k=$(valid_step "lab (before)" "${2:-}") || exit 2; step_dir "$(before_step "$k")" ;;
    status) status ;;
    clean) clean ;;
    broken) make_broken "${2:-}" ;;
    start) start "${2:-}" ;;
    check) check "${2:-}" ;;
    grade) grade "${2:-}" ;;
    *) echo "usage: lab/lab.sh start K | check K | grade K | status | clean | broken PATCH | before K" >&2; exit 2 ;;
esac
