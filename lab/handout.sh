#!/usr/bin/env bash
# make handout EXERCISES=3|7-9|all HANDOUT_DIR=dir: a course's students' repository, git's files less
# the answers (lab/README.md, "For a course"; lab/STUDENTS.md: what is left out and why), each exercise's
# copy (lab/lab_handout.awk), lab/handout.txt (lab/lab.sh facts) and, on a GPU, our times in lab/times/.
##= EXERCISES=: make handout's exercises: one (3), a range (7-9) or all (1 to 11 and 14)
##= HANDOUT_DIR=build/handout: the folder make handout writes (new, or empty)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir
bad() { echo "make handout: $*" >&2; exit 2; }
[ ! -f lab/handout.txt ] || bad "this is a handout already: make handout runs in the course's full repository"
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || bad "it copies git's files: run it in a git checkout"
read -ra lab_steps <<< "$(lab/lab.sh steps)"
spec=${EXERCISES:-} list="${lab_steps[*]}"
from=${spec%-*} to=${spec#*-}
[ "$spec" != all ] || from=${lab_steps[0]} to=${lab_steps[-1]}
[[ $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ ]] ||
    bad "give EXERCISES=k, a range EXERCISES=a-b or EXERCISES=all, e.g. make handout EXERCISES=3 (got '$spec')"
for k in "$to" "$from"; do
    [[ " $list " == *" $((10#$k)) "* ]] || bad "EXERCISES=$spec: $((10#$k)) is no lab exercise: give k, a-b or all from ${list// /, }"
done
exercises=()
for k in "${lab_steps[@]}"; do [ "$k" -lt "$((10#$from))" ] || [ "$k" -gt "$((10#$to))" ] || exercises+=("$k"); done
[ ${#exercises[@]} -gt 0 ] || bad "EXERCISES=$spec: a range goes from low to high, e.g. EXERCISES=$((10#$to))-$((10#$from))"
out=${HANDOUT_DIR:-build/handout}
out=${out%/}
[ ! -e "$out" ] || [ -d "$out" ] || bad "HANDOUT_DIR=$out is a file: give a new or empty folder"
[ ! -e "$out" ] || [ -z "$(ls -A "$out")" ] || bad "$out is not empty: give a new or empty HANDOUT_DIR"
mkdir -p "$out" 2> /dev/null || bad "cannot create HANDOUT_DIR=$out: give a folder you can write"
first=${exercises[0]}
# ---------------------------------------------------------------- git's files, less the answers
# (our steps from the first exercise on, multi/ with 12 and 13, the instructor's guide and
# answers, lab/broken/); a link to what is left out becomes its text (scripts/md_filter.sh)
withheld=() multi=""
for dir in $(printf '%s\n' step[0-9]*_*/ | sort -V); do
    k=${dir#step}; [ "$((10#${k%%_*}))" -lt "$first" ] || withheld+=("${dir%/}")
done
[[ " ${withheld[*]} " != *" $(step_dir 12) "* ]] || multi=multi
git ls-files | grep -Ev "^($(printf '%s/|' "${withheld[@]}" $multi)lab/(ANSWERS|README)\.md$|lab/broken/)" |
    while IFS= read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf - | tar -xf - -C "$out"
[ -z "$multi" ] || sed -i '\|^include multi/multi.mk$|d' "$out/Makefile"
# the students' copies are theirs to commit: only their builds stay out of git
sed -i 's|^/lab/work/$|/lab/work/*/build/\n/lab/work/*/reduce\n/lab/work/*/reduce_*\n/lab/work/*/.lab-check\n/lab/work/*/results.json|' \
    "$out/.gitignore"
printf '%s\n' "# The lab: your course's handout of exercises ${exercises[*]}" "" \
    "Your copy of exercise k is lab/work/stepK_name/reduce.cu (make lab STEP=k makes it where there" \
    "is none): the exercise and the TODOs are at its top. [lab/STUDENTS.md](lab/STUDENTS.md) is your" \
    "guide: the commands, what lab-check checks, and what this handout leaves out until the deadline." > "$out/LAB.md"
(cd "$out" && find . -name '*.md' | while IFS= read -r f; do
     scripts/md_filter.sh --text "$f" > "$f.new" && mv "$f.new" "$f"; done)
# ---------------------------------------------------------------- what the lab asks of them
{
    echo "# make handout EXERCISES=$spec: what the lab asks of our steps that this handout leaves out"
    echo "exercises all ${exercises[*]}"
    echo "steps all $(make -s --no-print-directory print-PROGRAM_DIRS)"
    for k in "${exercises[@]}"; do lab/lab.sh facts "$k"; done
} > "$out/lab/handout.txt" || bad "our steps do not build or describe themselves (make all says why)"
# ---------------------------------------------------------------- each exercise's copy
start=build/lab-handout   # as deep as lab/work/, so that the copy's Makefile is the same
rm -rf "$start"
mkdir -p "$out/lab/exercises"
ours=()
for k in "${exercises[@]}"; do
    dir=$(step_dir "$k") before=$(lab/lab.sh before "$k")
    ours+=("$dir/reduce.cu")
    LAB_DIR=$start lab/lab.sh start "$k" > /dev/null || exit 1
    copy=$out/lab/exercises/$dir.cu chained=0
    [[ " ${withheld[*]} " != *" $before "* ]] || chained=1
    awk -v start="$start" -v b="$before" -v k="$k" -v chained="$chained" -f lab/lab_handout.awk "$start/$dir/reduce.cu" > "$copy"
    [ "$chained" = 1 ] ||
        { mkdir -p "$out/lab/work/$dir" && cp "$copy" "$out/lab/work/$dir/reduce.cu" && cp "$start/$dir/Makefile" "$out/lab/work/$dir/"; }
done
rm -rf "$start"
# the lab's line budget (tests/budgets.txt) counts the copies: room for them and for each
# student's own, as long as our step k's kernel
room=$(cat "$out"/lab/exercises/* "$out"/lab/work/*/* "${ours[@]}" | wc -l)
awk -v room="$room" '$1 ~ /^(lab|total|whole)$/ { $0 = sprintf("%-16s%8d", $1, $2 + room) } { print }' \
    tests/budgets.txt > "$out/tests/budgets.txt"
# ---------------------------------------------------------------- our times, on a GPU
mkdir -p "$out/lab/times" build
read -ra types <<< "$(lab/lab.sh types handout)"
timed=0
for k in "${exercises[@]}"; do
    dir=$(step_dir "$k")
    for t in "${types[@]}"; do
        suffix=$([ "$t" = int ] || echo "_$t")
        make -s --no-print-directory -C "$dir" TYPE="$t" > /dev/null || exit 1
        status=0
        "$dir/reduce$suffix" -n "${N:-2^26}" -r "${REPS:-20}" --device "${DEVICE:-0}" --quiet \
            --csv "$out/lab/times/$dir-$t.csv" 2> build/handout-time.txt || status=$?
        [ "$status" -ne 3 ] || break 2
        [ "$status" -eq 0 ] || bad "timing $dir ($t) failed: $(head -1 build/handout-time.txt)"
        timed=$((timed + 1))
    done
done
[ "$timed" != 0 ] ||
    echo "make handout: no GPU here: no times of ours in $out/lab/times/; make handout on the lab GPU writes them, and lab-check compares with them"

echo "make handout: wrote $out: exercises ${exercises[*]}; left out: ${withheld[*]}${multi:+ multi} lab/README.md lab/ANSWERS.md lab/broken; $timed times of ours"
echo "next: make -C $out && make -C $out test; then cd $out && git init && git add -A && git commit -m 'lab handout'"
