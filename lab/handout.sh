#!/usr/bin/env bash
# make handout EXERCISES=3|7-9|all HANDOUT_DIR=dir: a course's students' repository (lab/
# README.md, "For a course"): git's files less the answers (the step folders from the first
# exercise on, multi/ with steps 12 and 13, lab/ANSWERS.md, lab/broken/), each exercise's
# make lab copy (an exercise that starts from another: its text and TODOs in lab/exercises/,
# for make lab to put on the student's copy), lab/handout.txt (lab/lab.sh facts) and, on a
# GPU, our times in lab/times/.
##= EXERCISES=: make handout's exercises: one (3), a range (7-9) or all (1 to 11 and 14)
##= HANDOUT_DIR=build/handout: the folder make handout writes (new, or empty)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir
bad() { echo "make handout: $*" >&2; exit 2; }
[ ! -f lab/handout.txt ] || bad "this is a handout already: make handout runs in the course's full repository"
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || bad "it copies git's files: run it in a git checkout"
read -ra lab_steps <<< "$(lab/lab.sh steps)"
spec=${EXERCISES:-}
from=${spec%-*} to=${spec#*-}
[ "$spec" != all ] || from=0 to=99
[[ $from =~ ^[0-9]+$ && $to =~ ^[0-9]+$ ]] ||
    bad "give EXERCISES=k, a range EXERCISES=a-b or EXERCISES=all, e.g. make handout EXERCISES=3 (got '$spec')"
exercises=()
for k in "${lab_steps[@]}"; do [ "$k" -lt "$((10#$from))" ] || [ "$k" -gt "$((10#$to))" ] || exercises+=("$k"); done
if [ ${#exercises[@]} -eq 0 ] || { [ "$spec" != all ] && [[ " ${lab_steps[*]} " != *" $((10#$from)) "* ]]; }; then
    bad "EXERCISES=$spec holds no lab exercise: give k, a-b or all from ${lab_steps[*]}"
fi
out=${HANDOUT_DIR:-build/handout}
out=${out%/}
[ ! -e "$out" ] || [ -z "$(ls -A "$out" 2> /dev/null)" ] || bad "$out is not empty: give a new or empty HANDOUT_DIR"
first=${exercises[0]}

# ---------------------------------------------------------------- git's files, less the answers
withheld=() multi=""
for dir in step*_*/; do
    k=${dir#step}; k=${k%%_*}
    [[ $k =~ ^[0-9]+$ ]] && [ "$((10#$k))" -ge "$first" ] && withheld+=("${dir%/}")
done
[[ " ${withheld[*]} " != *" $(step_dir 12) "* ]] || multi=multi
pattern="^($(printf '%s/|' "${withheld[@]}" $multi)lab/ANSWERS\.md$|lab/broken/)"
mkdir -p "$out" || exit 1
git ls-files | grep -Ev "$pattern" |
    while IFS= read -r f; do [ -e "$f" ] && printf '%s\0' "$f"; done | tar --null -T - -cf - | tar -xf - -C "$out"
[ -z "$multi" ] || sed -i '\|^include multi/multi.mk$|d' "$out/Makefile"
# the students' copies are theirs to commit: only their builds stay out of git
sed -i 's|^/lab/work/$|/lab/work/*/build/\n/lab/work/*/reduce\n/lab/work/*/reduce_*\n/lab/work/*/.lab-check\n/lab/work/*/results.json|' \
    "$out/.gitignore"

{
    echo "# The lab: your course's handout of exercises ${exercises[*]}"
    echo
    echo "Your copy of exercise k is lab/work/stepK_name/reduce.cu (make lab STEP=k makes it where"
    echo "there is none): the exercise and the TODOs are at its top. make lab-check STEP=k checks it,"
    echo "make lab-status lists your progress; lab/README.md is the lab's guide. Our answers are not"
    echo "here: your course hands them out after the deadline."
} > "$out/LAB.md"

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
for k in "${exercises[@]}"; do
    dir=$(step_dir "$k") before=$(lab/lab.sh before "$k")
    LAB_DIR=$start lab/lab.sh start "$k" > /dev/null || exit 1
    copy=$out/lab/exercises/$dir.cu
    # its "Going further" works on our step k, not in the handout
    sed -e "s# LAB_DIR=$start##g" -e "s#$start/#lab/work/#g" -e "s#the exercise, from $dir/README.md, says#the exercise below says#" \
        -e '/^ \* ### Going further/,/^ \* Check it: make lab-check/{/^ \* Check it/!d}' \
        -e 's#^ \* Afterwards, our answer: .*# * Afterwards, our answer: your course hands it out.#' "$start/$dir/reduce.cu" > "$copy"
    if [[ " ${withheld[*]} " != *" $before "* ]]; then
        mkdir -p "$out/lab/work/$dir" && cp "$copy" "$out/lab/work/$dir/reduce.cu" && cp "$start/$dir/Makefile" "$out/lab/work/$dir/"
        continue
    fi
    # step k-1's kernel is an exercise's answer: the header and the TODO lines, for make lab
    awk -v b="$before" -v own="lab/work/$before/reduce.cu" '
        /^ \* This is step / { print " * This is your own step " substr(b, 5, index(b, "_") - 5) " (" own "), where you finished it."; next }
        /TODO\(step [0-9]+, \.\.\.\) comments below mark/ { sub(/comments below mark the places/, "lines at the end of this comment say") }
        /^ \*\/$/ && !done { done = 1; while ((getline line < ARGV[1]) > 0)
                                 if (line ~ /\/\/ TODO\(step /) { sub(/^[ \t]*\/\/ /, " * ", line)
                                     sub(/the next code line/, "one code line", line); sub(/the next /, "", line); print line }
                             print; exit }
        { print }' "$copy" > "$copy.new" && mv "$copy.new" "$copy"
done
rm -rf "$start"

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
if [ "$timed" = 0 ]; then
    echo "make handout: no GPU here: no times of ours in $out/lab/times/; make handout on the lab GPU writes them, and lab-check compares with them"
fi

echo "make handout: wrote $out: exercises ${exercises[*]}; left out: ${withheld[*]}${multi:+ multi} lab/ANSWERS.md lab/broken; $timed times of ours"
echo "next: make -C $out && make -C $out test; then cd $out && git init && git add -A && git commit -m 'lab handout'"
