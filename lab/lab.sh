#!/usr/bin/env bash
# The classroom lab (lab/README.md): make lab, lab-check, lab-grade, lab-status and lab-clean run it
# (lab/lab.mk; usage: the last line; check's stages: lab/lab_check.sh). One source per text: the exercise,
# step k's README; the TODOs, our kernels' diff (lab/lab_todos.awk); a program's facts, its --describe.
# Variables (make help prints these; lab_check.sh has lab-check's), and N, REPS, DEVICE, SANITIZER, NCU:
##= LAB_DIR=lab/work: the folder make lab puts your copies in, and make lab-clean removes (tests use one under build/)
##= FORCE=0: FORCE=1 lets make lab replace a copy that exists (your work in it is lost)
##= LAB_TYPES="int float double": the types lab-check builds and checks
##= LAB_TIMEOUT=300: seconds lab-grade (and lab-grade-all, per submission) lets the checks run before "timed out"
##= LAB_WEIGHTS=lab/weights.conf: the points of each part of a grade (lab/README.md, "Grading a class")
##= LAB_SEED=(a new one each grading): the seed of lab-grade's data; give one to repeat a grading
# Exit codes: 0 done (check: correct), 1 wrong (or a build failed), 2 bad input, 3 no GPU;
# through make every failure is 2, so an autograder runs this script directly.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")   # grade runs the checks through it
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir, describe, find_sanitizer, find_ncu and what to say without them
lab_dir=${LAB_DIR:-lab/work}
lab_dir=${lab_dir%/}
lab_dir_arg=""   # what the hints add to a make command to find these copies
[ "$lab_dir" = lab/work ] || lab_dir_arg=" LAB_DIR=$(printf '%q' "$lab_dir")"
grader=${LAB_GRADER:-build/tools/lab_grade}   # lab-check's table, lab-grade's score, sizes (lab/lab_grade_main.c)
suffix_of() { [ "$1" = int ] && echo "" || echo "_$1"; }
bad_input() { echo "make $1: $2" >&2; exit 2; }

# A course's handout (lab/handout.sh) holds no kernel of its exercises: lab/handout.txt's
# "KEY K VALUE" lines (facts, below) say what the lab asks of them
handout=""
[ -f lab/handout.txt ] && handout=lab/handout.txt
fact() { sed -n "s/^$1 $2 //p" "$handout" | head -1; }
if [ -n "$handout" ]; then PROGRAM_DIRS=$(fact steps all); export PROGRAM_DIRS; fi   # step_dir's
our_kernel() { [ -f "$(step_dir "$1")/reduce.cu" ]; }   # our step k's kernel is here

# The lab's steps: the top Makefile's with a reduce.cu of their own, by number; exercise k
# starts from the one before it (14 from 11: steps 12 and 13 have no reduce.cu).
read -ra steps <<< "${LAB_STEPS:-$(make -s --no-print-directory print-STEPS 2> /dev/null)}"
[ ${#steps[@]} -gt 0 ] || { echo "lab: no steps: neither LAB_STEPS nor make print-STEPS named any" >&2; exit 2; }
mapfile -t kernel_steps < <(for d in "${steps[@]}"; do [ ! -f "$d/reduce.cu" ] || echo "${d#step}"; done |
                            sed -n 's/^\([0-9][0-9]*\)_.*/\1/p' | sort -nu)
mapfile -t lab_steps < <(printf '%s\n' "${kernel_steps[@]}" | awk '$1 >= 1')
[ -z "$handout" ] || read -ra lab_steps <<< "$(fact exercises all)"

# valid_step TARGET K: prints K if it is a lab step, else one line and exit 2
valid_step() {
    local k=${2:-} list="${lab_steps[*]}"
    { [[ $k =~ ^[0-9]+$ ]] && [[ " $list " == *" $((10#$k)) "* ]] && [ -n "$(step_dir "$k")" ]; } ||
        bad_input "$1" "give STEP=k with k one of ${list// /, } (the step you write), e.g. make $1 STEP=3"
    echo "$((10#$k))"
}
# before_step K: the step exercise K starts from: the one before K in the list
before_step() {
    [ -z "$handout" ] || { fact start "$1"; return; }
    printf '%s\n' "${kernel_steps[@]}" | awk -v k="$1" '$1 < k { before = $1 } END { print before }'
}
# need_grader TARGET: the lab's tool is built (a direct run may come before make's), or exit 1
need_grader() {
    [ -x "$grader" ] || { echo "make $1: $grader is not built: make build/tools/lab_grade build/tools/report" >&2; exit 1; }
}
# lab_types TARGET: LAB_TYPES checked (int float double), or one line and exit 2
lab_types() {
    local t list
    read -ra list <<< "${LAB_TYPES:-int float double}"
    [ ${#list[@]} -gt 0 ] || list=(int float double)
    for t in "${list[@]}"; do
        [[ $t =~ ^(int|float|double)$ ]] || bad_input "$1" "LAB_TYPES takes int, float and double (got '$t'), e.g. LAB_TYPES=int"
    done
    echo "${list[*]}"
}
# need_copy TARGET K DEST: the student's copy is there, or one line and exit 2
need_copy() {
    { [ -f "$3/reduce.cu" ] && [ -f "$3/Makefile" ]; } ||
        bad_input "$1" "no copy of step $2 in $3 yet; make lab STEP=$2$lab_dir_arg starts one"
}
# lab_seed TARGET DEFAULT: LAB_SEED, or DEFAULT; one line and exit 2 if it is not a number
lab_seed() {
    local value=${LAB_SEED:-$2}
    [[ $value =~ ^[0-9]{1,18}$ ]] || bad_input "$1" "LAB_SEED takes a whole number (the seed of the data), got '$value'"
    echo "$((10#$value))"
}
# check_run_settings TARGET: N, REPS, DEVICE, LAB_TIMEOUT, the 0/1 switches, each refused in one line (exit 2)
check_run_settings() {
    local flag
    "$grader" size "${N:-2^26}" > /dev/null 2>&1 ||   # the programs' own reading of -n
        bad_input "$1" "N takes a size as the programs' -n does: 1000000, 2^26, 2^20+3 or 2^20-1 (got '${N:-}')"
    { [[ ${REPS:-20} =~ ^[1-9][0-9]{0,5}$ ]] && [ "${REPS:-20}" -le 100000 ]; } ||
        bad_input "$1" "REPS takes the number of timed runs, 1 to 100000 (got '${REPS:-}')"
    { [[ ${DEVICE:-0} =~ ^[0-9]{1,4}$ ]] && [ "$((10#${DEVICE:-0}))" -le 1023 ]; } ||
        bad_input "$1" "DEVICE takes a GPU index, 0, 1, ... (nvidia-smi -L lists them; got '${DEVICE:-}')"
    [[ ${LAB_TIMEOUT:-300} =~ ^[1-9][0-9]{0,5}$ ]] || bad_input "$1" "LAB_TIMEOUT takes a time limit in seconds >= 1 (got '$LAB_TIMEOUT')"
    for flag in LAB_HUGE LAB_SANITIZE PROFILE; do
        [[ ${!flag:-0} =~ ^[01]$ ]] || bad_input "$1" "$flag takes 0 (off) or 1 (on), got '${!flag}'"
    done
}
# ------------------------------------------------------------------ start
# relabel FILE K DIR TITLE IDEA: FILE relabelled as the lab copy of step K (lab/lab_relabel.awk)
relabel() { awk -v k="$2" -v dir="$3" -v title="$4" -v idea="$5" -f lab/lab_relabel.awk "$1"; }
# our_field K KEY: KEY (title, idea ...) of our step k from its --describe (built first)
our_field() {
    local dir type=${TYPE:-int}
    if [ -n "$handout" ] && ! our_kernel "$1"; then fact "$2" "$1"; return; fi
    dir=$(step_dir "$1")
    make -s --no-print-directory -C "$dir" TYPE="$type" > /dev/null 2>&1 || return 1
    describe "$dir/reduce$(suffix_of "$type")" "$2"
}

start() {
    local k cur prev dest before exercise title idea work="" todos root
    k=$(valid_step lab "${1:-}") || exit 2
    cur=$(step_dir "$k") before=$(before_step "$k")
    prev=$(step_dir "$before") dest=$lab_dir/$cur
    if [ -e "$dest" ] && [ "${FORCE:-0}" != 1 ]; then
        bad_input lab "$dest already exists (your work); make lab-check STEP=$k$lab_dir_arg checks it, FORCE=1 replaces it with a fresh copy"
    fi
    refuse() { echo "make lab: $1" >&2; [ -z "$work" ] || rm -rf "$work"; exit 1; }
    if [ -n "$handout" ] && ! our_kernel "$k"; then start_handout "$k" "$dest"; return; fi
    # the "## Exercise" section of our step's README (fails if there is none)
    exercise=$([ -f "$cur/README.md" ] && awk -f lab/lab_exercise.awk "$cur/README.md") ||
        refuse "$cur/README.md has no '## Exercise' section to copy into the exercise"
    { title=$(our_field "$k" title) && idea=$(our_field "$k" idea) && [ -n "$title" ]; } ||
        refuse "$cur does not build, so it cannot say its title and idea (make -C $cur shows why)"
    root=$(realpath -m --relative-to="$dest" .)   # for the README's links (../LAB.md)
    work=$(mktemp -d) || exit 1
    { relabel "$prev/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/a.cu" &&
      relabel "$cur/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/b.cu"; } ||
        refuse "cannot find the STEP metadata in $prev/reduce.cu or $cur/reduce.cu"
    diff "$work/a.cu" "$work/b.cu" > "$work/diff" || [ $? -le 1 ]   # 1: they differ, as they should
    {   # a sentence a line: make handout rewrites lines; the exercise's "Check it" line gets LAB_DIR
        printf '%s\n' "/**" " * Lab, step $k: $title. Your copy: $dest/reduce.cu" " *" \
            " * This is step $before's kernel ($prev/reduce.cu), correct as it is." \
            " * The TODO(step $k, ...) comments below mark where our step $k differs from it." " *"
        printf '%s\n' "${exercise//"make lab-check STEP=$k"/"make lab-check STEP=$k$lab_dir_arg"}" |
            sed -e 's#\*/#*\\/#g' -e "s#](\\.\\./#]($root/#g" -e 's/^/ * /' -e 's/ *$//'
        printf '%s\n' " *" " * Afterwards, our answer: make diff STEP=$k, and lab/ANSWERS.md" " */"
        awk -v step="$k" -f lab/lab_todos.awk "$work/a.cu" "$work/b.cu" "$work/diff"
    } > "$work/reduce.cu" || refuse "lab/lab_todos.awk could not place the TODOs (its message is above)"
    todos=$(grep -c "// TODO(step $k," "$work/reduce.cu" || true)
    [ "$todos" -gt 0 ] || refuse "no code differs between $prev/reduce.cu and $cur/reduce.cu: nothing to do"
    rm -rf "$dest"
    { mkdir -p "$dest" && cp "$work/reduce.cu" "$dest/reduce.cu"; } || refuse "cannot write $dest"
    rm -rf "$work"
    started "$k" "$dest" "step $before's kernel with the exercise at the top and $todos TODO(step $k) comment$([ "$todos" = 1 ] || echo s)"
}
# started K DEST WHAT: the copy's Makefile, and what make lab made
started() {
    local common
    common=$(realpath -m --relative-to="$2" common/step.mk)
    printf '# Your lab copy of step %d; builds like a step (see %s).\ninclude %s\n' "$1" "$common" "$common" > "$2/Makefile"
    echo "make lab: $2/reduce.cu is $3"
    echo "next: edit it, then make lab-check STEP=$1$lab_dir_arg"
}
# start_handout K DEST: make handout's copy (lab/exercises/DIR.cu), on the student's own start
start_handout() {
    local k=$1 dest=$2 before saved mine
    before=$(before_step "$k") saved=lab/exercises/$(step_dir "$k").cu
    mine=$lab_dir/$(step_dir "$before")/reduce.cu
    [ -f "$saved" ] || bad_input lab "$saved is missing: your course's handout restores it"
    if our_kernel "$before"; then
        { rm -rf "$dest" && mkdir -p "$dest" && cp "$saved" "$dest/reduce.cu"; } || exit 1
        started "$k" "$dest" "step $before's kernel with the exercise at the top and TODO(step $k) comments"
        return
    fi
    [ -f "$mine" ] || bad_input lab "exercise $k starts from your own step $before: make lab STEP=$before$lab_dir_arg first, and finish it"
    mkdir -p "$dest" && cat "$saved" > "$dest/reduce.cu.new" || exit 1
    # the student's step, relabelled, less its TODO(step B) lines: done
    if ! relabel "$mine" "$k" "$(step_dir "$k")" "$(fact title "$k")" "$(fact idea "$k")" > "$dest/label.cu"; then
        rm -rf "$dest"
        bad_input lab "$mine has lost its STEP definition (number, name, title, citation, idea): make lab-check STEP=$before$lab_dir_arg says more"
    fi
    grep -v "^[[:space:]]*// TODO(step $before, [0-9]* of [0-9]*)" "$dest/label.cu" >> "$dest/reduce.cu.new" && mv "$dest/reduce.cu.new" "$dest/reduce.cu" && rm -f "$dest/label.cu"
    started "$k" "$dest" "your step $before with exercise $k and its TODO lines at the top"
}
# facts K: what the lab asks of our step k, lab/handout.txt's KEY K VALUE lines
facts() {
    local k key
    k=$(valid_step handout "$1") || exit 2
    echo "start $k $(before_step "$k")"
    for key in title idea max_n same_bits; do echo "$key $k $(our_field "$k" "$key")"; done
    echo "includes $k $(our_includes "$k")"
}
# ------------------------------------------------------------------ what the checks ask of a program
# check_sizes PROGRAM TYPE SIZE...: --check; 1: the first failing case; 3 no GPU; 2 memory; 4 CUDA error
check_sizes() {
    local program=$1 type=$2 list status=0 first again=""
    shift 2
    list=$(IFS=,; echo "$*")
    [ "$seed" = 1 ] || again=" --seed $seed"
    rm -f "$log/check.verdicts"
    "$program" --check "$list" --seed "$seed" --device "${DEVICE:-0}" --verdicts "$log/check.verdicts" \
        > "$log/check.txt" 2> "$log/check-err.txt" || status=$?
    case $status in 0|3) return "$status" ;; 2) cp "$log/check-err.txt" "$log/skip.txt"; return 2 ;; esac
    first=$(awk '$3 == "fail" { print $2; exit }' "$log/check.verdicts" 2> /dev/null)
    if [ -z "$first" ]; then
        first=$(printf '%s\n' "$@" | while read -r n; do grep -qx "check $n pass" "$log/check.verdicts" 2> /dev/null || { echo "$n"; break; }; done)
        echo "FAIL $type n=$first: the program stopped (exit $status):"
        sed 's/^/  /' "$log/check-err.txt" | head -5
        echo "  hint: a CUDA error in a check is most often a read or write out of bounds; memcheck says where:"
        echo "  ${SANITIZER:-compute-sanitizer} --tool memcheck $program -n $first -r 1 --warmup 0"
        return 4
    fi
    echo "FAIL $type n=$first, the first size that fails:"
    awk '{ sub(/^[^:]*: /, ""); print "  " $0; if ($0 ~ /^hint: /) exit }' "$log/check-err.txt"
    echo "  reproduce: $program --check $first$again"
    return 1
}
# same_bits TYPE: the copy's --same-bits -r 10 (our step's same_bits=1): PASS, or FAIL (1)
same_bits() {
    local t=$1 program status=0 first why
    program=$dest/reduce$(suffix_of "$t")
    if [ -z "$(describe "$program" most_blocks)" ]; then
        echo "FAIL $t same bits: your copy takes no --blocks B (its --describe says no most_blocks=), which this check runs it with: add it as the exercise says (common/blocks_flag.h; .own_flags = &blocks_flag in STEP)"
        return 1
    fi
    "$program" --same-bits -r 10 --device "${DEVICE:-0}" --verdicts "$log/same-bits-$t.verdicts" \
        > "$log/same-bits-$t.out" 2> "$log/same-bits-err.txt" || status=$?
    read -r first why < <(awk '$3 == "fail" { print $2, $4; exit }' "$log/same-bits-$t.verdicts" 2> /dev/null)
    if [ "$status" -eq 0 ] && [ -z "$first" ] && [ -s "$log/same-bits-$t.verdicts" ]; then
        echo "PASS $t same bits: one result at each of $(grep -c . "$log/same-bits-$t.verdicts") sizes over --blocks 1, 2, 7, 132, 528, 1024 and your own grid, 10 runs each"
        return 0
    elif [ -z "$first" ]; then
        echo "FAIL $t same bits: exit $status: $(head -1 "$log/same-bits-err.txt" | sed 's/^[^:]*: //')"
    else
        echo "FAIL $t same bits n=$first: $(sed -n "s/^same-bits n=$first: FAIL, //p" "$log/same-bits-$t.out" | sed 's/: the .*//')"
        if [ "$why" = runs ]; then
            echo "  hint: the result changes from run to run: the partial sums must be added in a fixed order, not in the order the blocks finish (a ticket's order, atomicAdd)"
        else
            echo "  hint: the result depends on the grid: the order of the additions must depend on n alone (chunks fixed by n, not by gridDim.x or blockIdx.x)"
        fi
    fi
    echo "  reproduce: $program --same-bits -r 10"
    return 1
}
# ------------------------------------------------------------------ grade
# make lab-grade STEP=k: lab-check's checks under LAB_TIMEOUT on a new seed, recorded, then
# scored into DEST/results.json and a summary (LAB_STUDENT, LAB_GRADES: a grades.csv row).
# Exit 0 once graded, whatever the score; 2 bad input; 3 no GPU.
grade() {
    local k cur dest types seed limit weights dir record start status pid
    k=$(valid_step lab-grade "${1:-}") || exit 2
    cur=$(step_dir "$k") dest=$lab_dir/$(step_dir "$k")
    types=$(lab_types lab-grade) || exit 2
    seed=$(od -An -N4 -tu4 /dev/urandom 2> /dev/null | tr -d ' ' | grep -x '[0-9][0-9]*' || echo $((RANDOM * 32768 + RANDOM)))
    seed=$(lab_seed lab-grade "$seed") || exit 2
    need_grader lab-grade
    check_run_settings lab-grade
    limit=${LAB_TIMEOUT:-300}
    need_copy lab-grade "$k" "$dest"
    weights=${LAB_WEIGHTS:-lab/weights.conf}
    "$grader" weights "$weights" > /dev/null || exit 2   # its one line says what is wrong
    dir=$dest/build/lab-grade record=$dest/build/lab-grade/record.csv
    rm -rf "$dir" "$dest/results.json"
    mkdir -p "$dir" || exit 1
    { "$grader" note "$record" step "$k" "" "$cur" &&
      "$grader" note "$record" start "$(before_step "$k")" "" "$(step_dir "$(before_step "$k")")" &&
      "$grader" note "$record" title "" "" "$(our_field "$k" title)" &&
      "$grader" note "$record" copy "" "" "$dest/reduce.cu" &&
      "$grader" note "$record" seed "" "" "$seed" &&
      "$grader" note "$record" types "" "" "$types"; } || exit 1
    echo "lab-grade: checking $types, up to $limit s (LAB_TIMEOUT); the summary follows"
    start=$SECONDS
    # timeout gives the checks a process group: a time limit or Ctrl-C ends all of it
    LAB_MODE=grade LAB_SEED=$seed LAB_RECORD=$record timeout -k 10 "$limit" "$self" check "$k" > "$dir/check.txt" 2>&1 &
    pid=$!
    trap 'kill -TERM -- -'"$pid"' 2> /dev/null; echo "lab-grade: stopped" >&2; exit 130' INT TERM
    status=0
    wait "$pid" || status=$?
    trap - INT TERM
    case $status in
        124|137) "$grader" note "$record" timeout "" "" "$limit" ;;
        2) echo "make lab-grade: the checks refused to start: $(tail -1 "$dir/check.txt")" >&2; exit 2 ;;
    esac
    "$grader" note "$record" elapsed "" "" "$((SECONDS - start))"
    status=0
    "$grader" grade "$record" "$weights" "$dest/results.json" ${LAB_STUDENT:+"$LAB_STUDENT" "${LAB_GRADES:?}"} ||
        status=$?
    case $status in 0|3) ;; *) exit 2 ;; esac
    echo "wrote $dest/results.json; what the checks printed: $dir/check.txt"
    return "$status"
}
# ------------------------------------------------------------------ status, broken copies, clean
status() {
    local k dest state started=0 correct=0 reached=0
    printf '%-5s %-40s %s\n' step "your copy" status
    for k in "${lab_steps[@]}"; do
        dest=$lab_dir/$(step_dir "$k") state="started, not yet passed (make lab-check STEP=$k$lab_dir_arg)"
        if [ ! -f "$dest/reduce.cu" ]; then
            state="not started (make lab STEP=$k$lab_dir_arg)"
        elif [ -f "$dest/.lab-check" ] && ! [ "$dest/reduce.cu" -nt "$dest/.lab-check" ]; then
            state="checked: $(head -1 "$dest/.lab-check")"
            correct=$((correct + 1))
            case $state in *"gain reached"*|*"can't tell"*) reached=$((reached + 1)) ;; esac
        elif [ -f "$dest/.lab-check" ]; then
            state="started, changed since its last lab-check passed (make lab-check STEP=$k$lab_dir_arg)"
        elif [ -f "$dest/build/lab-check/no-gpu" ] && ! [ "$dest/reduce.cu" -nt "$dest/build/lab-check/no-gpu" ]; then
            state="started, built, not checked: its last lab-check found no GPU (run it on a GPU machine)"
        fi
        [ ! -f "$dest/reduce.cu" ] || started=$((started + 1))
        printf '%-5s %-40s %s\n' "$k" "$dest" "$state"
    done
    echo "$started of ${#lab_steps[@]} started, $correct correct, $reached with the step's gain (or correct where time can't tell)"
}
# make_broken PATCH: prints a copy of the patch's step in LAB_DIR, our kernel patched (exit 1: stale)
make_broken() {
    local file=$1 k cur dest
    [ -f "$file" ] || { echo "lab: no broken copy $file" >&2; exit 2; }
    k=$(valid_step "lab (the step of $file)" "$(sed -n -e '/^--- /q' -e 's/^# step: //p' "$file" | head -1)") || exit 2
    cur=$(step_dir "$k") dest=$lab_dir/$(step_dir "$k")
    (FORCE=1 start "$k") > /dev/null || exit 1
    cp "$cur/reduce.cu" "$dest/reduce.cu" || exit 1
    { if command -v patch > /dev/null 2>&1; then patch -s --no-backup-if-mismatch -d "$dest" -p1 < "$file"
      else git apply --unsafe-paths --directory="$dest" -p1 "$file"; fi; } > "$dest/patch.log" 2>&1 ||
        { echo "lab: $file does not apply to $cur/reduce.cu: $(head -1 "$dest/patch.log")" >&2; exit 1; }
    rm -f "$dest/patch.log"
    echo "$dest"
}
# make lab-clean: LAB_DIR listed, then removed; refused outside the repository or where git tracks a file
clean() {
    [ -e "$lab_dir" ] || { echo "make lab-clean: $lab_dir does not exist: nothing to remove"; return 0; }
    case $(realpath -m -- "$lab_dir") in "$PWD"/?*) ;; *)
        bad_input lab-clean "LAB_DIR=$lab_dir is not a folder inside this repository: not removed (rm -rf $(printf '%q' "$lab_dir") removes it, if it holds only copies)" ;;
    esac
    if command -v git > /dev/null 2>&1 && [ -n "$(git ls-files -- "$lab_dir" 2> /dev/null | head -1)" ]; then
        [ -z "$handout" ] || bad_input lab-clean "$lab_dir holds your copies, which git tracks in a course's handout: not removed; make lab STEP=k FORCE=1 starts exercise k again, git rm -r $lab_dir removes them all"
        bad_input lab-clean "$lab_dir holds files git tracks ($(git ls-files -- "$lab_dir" | head -1) ...): not removed; LAB_DIR names the students' copies' folder"
    fi
    echo "make lab-clean: removes $lab_dir/ and what it holds:"
    find "$lab_dir" -mindepth 1 -maxdepth 1 | LC_ALL=C sort | sed 's/^/  /'   # listed before they go
    rm -rf -- "$lab_dir"
    echo "removed $lab_dir/; make lab STEP=k$lab_dir_arg starts a copy again"
}

# shellcheck source=lab/lab_check.sh  # the check's stages, for check alone
case ${1:-} in
    before) k=$(valid_step "lab (before)" "${2:-}") || exit 2; step_dir "$(before_step "$k")" ;;
    steps) echo "${lab_steps[*]}" ;;
    types) lab_types "${2:-lab}" ;;
    status) status ;;
    settings) check_run_settings "${2:-lab}" ;;
    clean) clean ;;
    broken) make_broken "${2:-}" ;;
    start) start "${2:-}" ;;
    check) . lab/lab_check.sh; check "${2:-}" ;;
    facts) . lab/lab_check.sh; facts "${2:-}" ;;
    grade) grade "${2:-}" ;;
    *) echo "usage: lab/lab.sh start K | check K | grade K | status | clean | broken PATCH | before K | steps | types | facts K | settings" >&2; exit 2 ;;
esac
