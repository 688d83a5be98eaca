#!/usr/bin/env bash
# make lab-grade-all SUBMISSIONS=dir [STEP=k] (lab/lab_grade_all.sh DIR [K]): grade a class
# on one GPU, each submission by `lab/lab.sh grade` in a scratch copy of this repository that
# gets only the student's reduce.cu (lab/README.md, "Grading a class").
##= LAB_JOBS=(the number of cores): submissions lab-grade-all builds at once (grading on the GPU is one at a time)
# Exit codes: 0 graded, 2 bad input, 3 no GPU; through make both arrive as 2.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir
root=$PWD
say() { echo "make lab-grade-all: $*" >&2; }
bad() { say "$*"; exit 2; }   # bad input: one line, exit 2
LAB_STEPS=${LAB_STEPS:-$(make -s --no-print-directory print-STEPS 2> /dev/null)}
export LAB_STEPS
steps_text=$(lab/lab.sh steps) || exit 2   # the lab's steps, by number; its line says why not
read -ra steps <<< "$steps_text"
header() { sed -n -e '/^--- /q' -e "s/^# $2: //p" "$1"; }   # header PATCH KEY: its "# KEY: value"
# ---------------------------------------------------------------- --demo
# make lab-grade-demo: made-up students (the puts below, and lab/broken/*.patch but a header's
# "demo: no") graded in minutes with quick settings: the proof that every shortcut is caught.
##= DEMO_OURS=: DEMO_OURS=all: lab-grade-demo adds a student who hands in our kernel for every lab step, 1 to 11 and 14
demo=""
if [ "${1:-}" = --demo ]; then
    demo=build/lab-demo
    rm -rf "$demo"
    # put STUDENT K FILE: FILE as STUDENT's step k
    put() { mkdir -p "$demo/submissions/$1/$(step_dir "$2")" && cp "$3" "$demo/submissions/$1/$(step_dir "$2")/reduce.cu"; }
    put ours-3 3 "$(step_dir 3)/reduce.cu"
    for k in 8 9; do put ours-8-and-9 "$k" "$(step_dir "$k")/reduce.cu"; done
    [ "${DEMO_OURS:-}" != all ] || for k in "${steps[@]}"; do put ours-all "$k" "$(step_dir "$k")/reduce.cu"; done
    LAB_DIR=$demo/start lab/lab.sh start 3 > /dev/null || exit 1
    put start-3 3 "$demo/start/$(step_dir 3)/reduce.cu"
    for file in lab/broken/*.patch; do
        name=$(basename "$file" .patch) left_out=$(header "$file" demo | sed -n 's/^no *//p')
        [ -z "$left_out" ] || { echo "lab-grade-demo: $name left out: ${left_out#(}" | sed 's/)$//'; continue; }
        copy=$(LAB_DIR=$demo/broken lab/lab.sh broken "$file") || exit 1
        put "$name" "$(header "$file" step)" "$copy/reduce.cu"
    done
    echo "lab-grade-demo: $(find "$demo/submissions" -mindepth 1 -maxdepth 1 | wc -l) students in $demo/submissions"
    LAB_TYPES=${LAB_TYPES:-int} LAB_HUGE=${LAB_HUGE:-0} N=${DEMO_N:-2^24} LAB_TIMEOUT=${LAB_TIMEOUT:-60}
    LAB_GRADES_CSV=$demo/grades.csv
    export LAB_TYPES LAB_HUGE N LAB_TIMEOUT LAB_GRADES_CSV
    set -- "$demo/submissions"
fi
# ---------------------------------------------------------------- the settings
submissions=${1:-}
only=${2:-}
usage="give SUBMISSIONS=dir, a folder with one folder per student (each holding stepK_name/reduce.cu)"
[ -n "$submissions" ] || bad "$usage"
[ -d "$submissions" ] || bad "$usage; '$submissions' is not a folder"
submissions=$(cd "$submissions" && pwd)
if [ -n "$only" ]; then
    step_list="${steps[*]}"
    [[ $only =~ ^[0-9]+$ && " ${steps[*]} " == *" $((10#$only)) "* ]] ||
        bad "STEP takes a lab step, one of ${step_list// /, } (got '$only'), or leave it out for every step handed in"
    steps=("$((10#$only))")
fi
limit=${LAB_TIMEOUT:-300}
jobs=${LAB_JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ $jobs =~ ^[1-9][0-9]{0,3}$ ]] || bad "LAB_JOBS takes a number of parallel builds >= 1 (got '$jobs')"
types=$(lab/lab.sh types lab-grade-all) || exit 2   # its one line says what is wrong
lab/lab.sh settings lab-grade-all || exit 2           # N, REPS, DEVICE, LAB_TIMEOUT, the switches
first_type=${types%% *}
grader=$(realpath -m "${LAB_GRADER:-build/tools/lab_grade}")
{ [ -x "$grader" ] && [ -x build/tools/report ]; } ||   # run directly, not through make, which builds them
    { say "the lab's tools are not built: make build/tools/lab_grade build/tools/report"; exit 1; }
weights=$(realpath -m "${LAB_WEIGHTS:-lab/weights.conf}")
"$grader" weights "$weights" > /dev/null || exit 2   # its one line says what is wrong
##= LAB_GRADES_CSV=results/grades.csv: the class table lab-grade-all writes, one row per submission
grades=$(realpath -m "${LAB_GRADES_CSV:-results/grades.csv}")
work=$root/build/lab-grade-all/${types// /-}   # a folder per type list: two gradings at once keep apart
rm -rf "$work"
mkdir -p "$work/logs" "$(dirname "$grades")" || exit 1
trap 'echo "make lab-grade-all: stopped; the rows so far are in $grades" >&2; exit 130' INT TERM
# ---------------------------------------------------------------- the submissions
# one line per submission: STUDENT, K, FILE; nothing to grade: STUDENT, K, "", WHY (0 points);
# fields apart by \x1f, which no name holds and read never merges as it does tabs
sep=$'\x1f' list=$work/submissions.txt
: > "$list"
while IFS= read -r folder; do
    student=$(basename "$folder")
    found=0 handout=0
    [ ! -f "$folder/lab/handout.txt" ] || handout=1   # a handout's steps are ours: its lab/work/ alone
    for k in "${steps[@]}"; do
        name=$(step_dir "$k")
        for file in "$folder/$name/reduce.cu" "$folder/lab/work/$name/reduce.cu" "$folder/lab/$name/reduce.cu"; do
            [ "$handout" = 0 ] || [ "$file" = "$folder/lab/work/$name/reduce.cu" ] || continue
            [ -f "$file" ] && { printf '%s\x1f%s\x1f%s\x1f\n' "$student" "$k" "$file" >> "$list"; found=1; break; }
        done
    done
    [ "$found" = 0 ] || continue
    why="nothing handed in: no stepK_name/reduce.cu (e.g. $(step_dir 3)/reduce.cu) in the folder"
    [ -z "$only" ] || why="nothing handed in: no $(step_dir "$only")/reduce.cu in the folder"
    # a kernel file under another name (a browser's "reduce (1).cu") is named, never graded
    stray=$(find "$folder" -maxdepth 4 -type f -name '*.cu' -path '*/step*' | LC_ALL=C sort | head -1)
    [ -z "$stray" ] || why+="; found ${stray#"$folder"/}: rename it to reduce.cu"
    # a kernel file with no step folder around it: the folder is what names the step
    top=$(find "$folder" -maxdepth 1 -type f -name '*.cu' | LC_ALL=C sort | head -1)
    if [ -z "$stray" ] && [ -n "$top" ]; then
        where="into its step's folder, e.g. $(step_dir 3)/reduce.cu"
        [ -z "$only" ] || where="to $(step_dir "$only")/reduce.cu"
        why+="; found ${top#"$folder"/} outside a step folder: move it $where"
    fi
    printf '%s\x1f%s\x1f\x1f%s\n' "$student" "$only" "$why" >> "$list"
done < <(find "$submissions" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | LC_ALL=C sort)
total=$(wc -l < "$list")
hint=$(awk -F "$sep" '{ i = index($4, "; found ") } i { print "; " $1 ": " substr($4, i + 2); exit }' "$list")
[ "$(cut -d "$sep" -f3 "$list" | grep -c .)" -gt 0 ] ||
    bad "no stepK_name/reduce.cu in any folder of $submissions (expected e.g. $submissions/alice/$(step_dir "${steps[0]}")/reduce.cu)$hint"
[ ! -f "$grades" ] || echo "lab-grade-all: replacing $grades (LAB_GRADES_CSV=results/week3.csv, say, keeps a file a week)"
rm -f "$grades"   # a new class table: the rows of this run only
echo "lab-grade-all: $total submissions from $submissions; $types; time limit $limit s each (LAB_TIMEOUT)"
# ---------------------------------------------------------------- the base copy
# The repository less builds, lab/work/, .git and the submissions; our steps built (on no
# student's time limit) and make lab's copy of each graded step, for the scratch copies.
base=$work/base
exclude=(--exclude=./.git --exclude=./build --exclude=./results --exclude=./lab/work --exclude=./docs/html
         --exclude='*/build' --exclude='./step*/reduce' --exclude='./step*/reduce_*' --exclude='./step*/*/reduce_*'
         --exclude='./cub_reference/reduce' --exclude='./cub_reference/reduce_*')
case $submissions/ in "$root"/*) exclude+=(--exclude="./${submissions#"$root"/}") ;; esac
{ mkdir -p "$base" && tar -C "$root" "${exclude[@]}" -cf - . | tar -C "$base" -xf -; } ||
    { say "cannot copy the repository to $base"; exit 1; }
graded_steps=$(awk -F "$sep" '$3 != "" { print $2 }' "$list" | sort -nu)
ours=$(for k in $graded_steps; do lab/lab.sh before "$k"; step_dir "$k"; done | sort -u | paste -sd' ')
echo "== building our steps: $ours"
# shellcheck disable=SC2086  # ours: folder names, a word each (the top Makefile's targets)
make -s -j"$jobs" --no-print-directory -C "$base" TYPE="$first_type" $ours > /dev/null 2>&1 ||
    say "make -C $base $ours failed (make lab below says which step)"
for k in $graded_steps; do
    (cd "$base" && TYPE="$first_type" LAB_DIR=lab/work FORCE=1 lab/lab.sh start "$k" > /dev/null) || { say "make lab STEP=$k failed in $base"; exit 1; }
done
# ---------------------------------------------------------------- scratch copies, builds
# scratch_of N STUDENT K: the scratch copy of the N-th submission (a safe name)
scratch_of() { local student=$2; echo "$work/$(printf '%03d' "$1")-${student//[^A-Za-z0-9._-]/_}-$3"; }
echo "== building the $total submissions ($jobs at a time, each under $limit s)"
i=0 jobs_list=$work/builds.txt
: > "$jobs_list"
while IFS=$sep read -r student k file why; do
    i=$((i + 1))
    [ -n "$file" ] || continue
    scratch=$(scratch_of "$i" "$student" "$k")
    name=$(step_dir "$k")
    cp -a "$base" "$scratch" || { say "cannot make $scratch"; exit 1; }
    cp "$file" "$scratch/lab/work/$name/reduce.cu" || { say "cannot copy $file"; exit 1; }
    for t in $types; do printf '%s %s\n' "$t" "$scratch/lab/work/$name" >> "$jobs_list"; done
done < "$list"
# compile only, no student code runs (lab.sh grade checks the #include lines first); a failed
# build is graded below (xargs says 123); nvcc's temporaries stay in the scratch copy
# shellcheck disable=SC2016  # $0 and $1 are the inner sh's
xargs -d '\n' -n 1 -P "$jobs" sh -c 'dir=${1#* } type=${1%% *}; mkdir -p "$dir/build/tmp-$type" &&
    TMPDIR="$dir/build/tmp-$type" timeout -k 10 "$0" make -s --no-print-directory -C "$dir" TYPE="$type" \
    > /dev/null 2>&1' "$limit" < "$jobs_list" || true
# ---------------------------------------------------------------- grade, one at a time
##= LAB_KEEP=0: LAB_KEEP=1: lab-grade-all keeps each submission's scratch copy in build/lab-grade-all/TYPES/
echo "== grading, one submission at a time on the GPU"
i=0 no_gpu=0
while IFS=$sep read -r student k file why; do
    i=$((i + 1))
    if [ -z "$file" ]; then
        "$grader" missing "$grades" "$weights" "$student" "$k" "$why"   # the 0-point row
        echo "[$i/$total] $student: $why"
        continue
    fi
    scratch=$(scratch_of "$i" "$student" "$k")
    name=$(step_dir "$k")
    log=$work/logs/$(basename "$scratch").txt
    status=0
    (cd "$scratch" && LAB_DIR=lab/work LAB_STUDENT="$student" LAB_GRADES="$grades" LAB_GRADER="$grader" \
        LAB_REPORT="$root/build/tools/report" LAB_WEIGHTS="$weights" \
        LAB_TIMEOUT="$limit" LAB_TYPES="$types" lab/lab.sh grade "$k") \
        > "$log" 2>&1 < /dev/null || status=$?
    [ "$status" -ne 130 ] || { echo "make lab-grade-all: stopped at $student, step $k" >&2; exit 130; }
    [ "$status" -ne 3 ] || no_gpu=1
    dest=$(dirname "$file")
    if [ -f "$scratch/lab/work/$name/results.json" ]; then
        cp "$scratch/lab/work/$name/results.json" "$dest/results.json" 2> /dev/null ||
            echo "  (cannot write $dest/results.json)"
        cp "$scratch/lab/work/$name/build/lab-grade/check.txt" "$dest/lab-grade.txt" 2> /dev/null || true
        echo "[$i/$total] $student step $k: $(sed -n 's/^score: //p' "$log"); $(sed -n 's/^correct: //p' "$log")"
    else
        "$grader" missing "$grades" "$weights" "$student" "$k" "not graded: $(tail -1 "$log")"
        echo "[$i/$total] $student step $k: not graded: $(tail -1 "$log")"
    fi
    [ "${LAB_KEEP:-0}" = 1 ] || rm -rf "$scratch"
done < "$list"
[ "${LAB_KEEP:-0}" = 1 ] || rm -rf "$base"

echo
"$grader" class "$grades" || true   # its one line says what is wrong; the grades are written
echo "wrote $grades; each student's results.json and lab-grade.txt are next to their reduce.cu; logs in $work/logs"
[ -z "$demo" ] || { echo; echo "== $grades"; cat "$grades"; }
[ "$no_gpu" = 1 ] || exit 0
echo "NO GPU HERE: only the #include lines and the builds were checked; the GPU checks were not run, so these scores are not grades"
exit 3
