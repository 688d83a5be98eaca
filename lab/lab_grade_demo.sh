#!/usr/bin/env bash
# make lab-grade-demo: a class of made-up students in build/lab-demo/submissions, graded
# by lab-grade-all in about five minutes on one GPU: what an instructor sees the night
# before marks are due, and the proof that every shortcut of lab/broken is caught.
#
#   ours-3          our step 3's kernel                   full marks
#   ours-8-and-9    our steps 8 and 9 (two exercises)     full marks (9: time can't tell)
#   start-3         make lab STEP=3's starting copy       correct, no performance points
#   build-error-3   our step 3 less a semicolon           does not compile
#   <name>          each lab/broken/<name>.patch applied  rejected, with the reason
#
# A patch whose header says "demo: no" is left out, saying why (the 32-bit index, wrong
# only at 2^31+5: LAB_HUGE=1, 8 GiB and a minute per type; make test checks it). The
# kernel that never ends is killed by the time limit (60 s here).
# Quick settings: LAB_TYPES=int LAB_HUGE=0 LAB_TIMEOUT=60 (each can be overridden) and
# n = 2^24 for the timing (DEMO_N=2^26 for the full size). DEMO_OURS=all adds a student
# "ours-all" who hands in our kernel for every lab step (1 to 11, 14): full marks each (a few
# minutes more).
# The grades go to build/lab-demo/grades.csv (results/grades.csv is left alone).
##= DEMO_OURS=: DEMO_OURS=all: lab-grade-demo adds a student who hands in our kernel for every lab step, 1 to 11 and 14
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir
demo=build/lab-demo
rm -rf "$demo"
mkdir -p "$demo/submissions" || exit 1
# the steps from the top Makefile (LAB_STEPS, which make passes; else make print-STEPS)
read -ra step_dirs <<< "${LAB_STEPS:-$(make -s --no-print-directory print-STEPS 2> /dev/null)}"
export LAB_STEPS="${step_dirs[*]}"

# put STUDENT K FILE: FILE as STUDENT's step k
put() {
    local to
    to=$demo/submissions/$1/$(step_dir "$2")
    mkdir -p "$to" && cp "$3" "$to/reduce.cu"
}
put ours-3 3 "$(step_dir 3)/reduce.cu"
put ours-8-and-9 8 "$(step_dir 8)/reduce.cu"
put ours-8-and-9 9 "$(step_dir 9)/reduce.cu"
if [ "${DEMO_OURS:-}" = all ]; then
    for dir in "${step_dirs[@]}"; do
        k=${dir#step}; k=${k%%_*}
        if [ -f "$dir/reduce.cu" ] && [ "$k" -ge 1 ]; then put ours-all "$k" "$dir/reduce.cu"; fi
    done
fi
LAB_DIR=$demo/start lab/lab.sh start 3 > /dev/null || exit 1
put start-3 3 "$demo/start/$(step_dir 3)/reduce.cu"
sed 's/return partial\[0\];/return partial[0]/' "$(step_dir 3)/reduce.cu" > "$demo/build-error.cu"
put build-error-3 3 "$demo/build-error.cu"
for file in lab/broken/*.patch; do
    name=$(basename "$file" .patch)
    left_out=$(sed -n -e '/^--- /q' -e 's/^# demo: no *//p' "$file")
    if [ -n "$left_out" ]; then
        echo "lab-grade-demo: $name left out: ${left_out#(}" | sed 's/)$//'
        continue
    fi
    copy=$(LAB_DIR=$demo/broken lab/lab.sh broken "$file") || exit 1
    put "$name" "$(sed -n -e '/^--- /q' -e 's/^# step: //p' "$file")" "$copy/reduce.cu"
done
students=("$demo"/submissions/*/)
echo "lab-grade-demo: ${#students[@]} students in $demo/submissions"
status=0
LAB_TYPES=${LAB_TYPES:-int} LAB_HUGE=${LAB_HUGE:-0} N=${DEMO_N:-2^24} LAB_TIMEOUT=${LAB_TIMEOUT:-60} \
    LAB_GRADES_CSV=$demo/grades.csv lab/lab_grade_all.sh "$demo/submissions" || status=$?
echo
echo "== $demo/grades.csv"
cat "$demo/grades.csv"
exit "$status"
