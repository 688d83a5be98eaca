# shellcheck shell=bash disable=SC2154  # type, log, gpu, full, start ...: tests/run.sh's and lab/tests.sh's
# The lab's tests, part 2 (lab/tests.sh says which tier runs what): section lab-grade, with
# lab/tests.sh's variables and lab_header; TYPE=int's run alone (plumbing=1).
[ "${plumbing:-0}" = 1 ] || return 0
section lab-grade
# The scorer is unit-tested; here the whole chain. lab_json NAME FILE PATTERN: FILE is a
# Gradescope results.json whose tests add up to its score, "ok SCORE MAX" matching PATTERN
lab_json() {
    local result
    if ! command -v python3 > /dev/null 2>&1; then skip "$1" "python3 not installed (it only checks the JSON)"; return; fi
    result=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); t = d.get("tests")
assert {"score", "execution_time", "output", "tests"} <= d.keys(), "a top-level field is missing"
assert t and all({"name", "score", "max_score", "output"} <= x.keys() for x in t), "a test field is missing"
assert all(0 <= x["score"] <= x["max_score"] for x in t), "a score outside 0 .. max_score"
s = sum(x["score"] for x in t)
assert abs(s - d["score"]) < 0.005, "tests add up to %.2f, score says %.2f" % (s, d["score"])
print("ok %.2f %.2f" % (d["score"], sum(x["max_score"] for x in t)))
' "$2" 2>&1 | tail -1)
    if [[ $result =~ $3 ]]; then pass "$1"; else fail "$1" "$result"; fi
}
build/tools/lab_grade weights lab/weights.conf > "$log/weights.txt" 2>&1
grep -q "total 100.00$" "$log/weights.txt"
result "lab-grade: lab/weights.conf is valid and adds up to 100" $? "$(cat "$log/weights.txt")"
# bad input through make (exit 2), one line each: each reading (unit-tested) reaches lab-grade
printf 'correct = 50\nmemchek = 5\n' > "$log/bad-weights.conf"
make_expect "lab-grade: a misspelt weight"  2 "unknown key 'memchek'" lab-grade STEP=3 LAB_DIR="$start" \
    LAB_WEIGHTS="$log/bad-weights.conf"
make_expect "lab-grade: no copy"            2 "make lab STEP=3 LAB_DIR=$lab_root/none starts one" lab-grade STEP=3 LAB_DIR="$lab_root/none"
make_expect "lab-grade: LAB_SEED=x"         2 "LAB_SEED" lab-grade STEP=3 LAB_DIR="$start" LAB_SEED=x
make_expect "lab-grade-all: no SUBMISSIONS" 2 "give SUBMISSIONS=dir" lab-grade-all
mkdir -p "$lab_root/empty-class/nobody"
make_expect "lab-grade-all: nothing to grade" 2 "no stepK_name/reduce.cu in any folder" lab-grade-all \
    SUBMISSIONS="$lab_root/empty-class"
mkdir -p "$lab_root/lone-class/grace" && cp "$step3/reduce.cu" "$lab_root/lone-class/grace/"
make_expect "lab-grade-all: a class of one reduce.cu outside a step folder: the hint" 2 "grace: found reduce.cu outside a step folder" \
    lab-grade-all SUBMISSIONS="$lab_root/lone-class"
# lab.sh and lab_grade_all.sh run directly, as an autograder does: exit 2 on bad input (3 without a GPU)
expect "lab/lab.sh grade x: exit 2, as documented"  2 "give STEP=k" lab/lab.sh grade x
expect "lab/lab.sh grade 3 LAB_TIMEOUT=soon: exit 2" 2 "LAB_TIMEOUT" env LAB_DIR="$start" LAB_TIMEOUT=soon lab/lab.sh grade 3
expect "lab/lab_grade_all.sh NOFOLDER: exit 2"      2 "is not a folder" lab/lab_grade_all.sh "$lab_root/no-such-class"
expect "lab/lab_grade_all.sh DIR 99: exit 2"        2 "STEP takes a lab step" lab/lab_grade_all.sh "$lab_root" 99
[ "$full" = 1 ] || return 0
grade_env=(LAB_TYPES="$type" LAB_HUGE=0 N=2^24 LAB_SANITIZE=0)
copy3=$start/$step3
# the starting copy: step 2's kernel, not yet step 3's, so no performance points
env "${grade_env[@]}" LAB_DIR="$start" lab/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
status=$?
if [ -z "$gpu" ]; then
    [ "$status" -eq 3 ] && grep -q "^NO GPU HERE" "$log/lab-grade.txt" &&
        grep -q "^correct: not run (no GPU); first failure: GPU checks not run (no GPU here); builds for $type" "$log/lab-grade.txt"
    result "lab-grade without a GPU: built, the GPU checks said not run, exit 3 (lab/lab.sh grade, run directly)" $? \
           "exit $status: $(tail -3 "$log/lab-grade.txt" | tr '\n' ' ')"
    lab_json "lab-grade without a GPU: results.json valid, 0 of 100" "$copy3/results.json" "^ok 0.00 100.00$"
else
    [ "$status" -eq 0 ] && grep -q "^correct: yes" "$log/lab-grade.txt"
    result "gpu lab-grade: the starting copy of step 3 is correct" $? "exit $status: $(tail -3 "$log/lab-grade.txt" | tr '\n' ' ')"
    # correctness 70 of 70 (no sanitizers: their points follow); performance about 0 of 30
    lab_json "gpu lab-grade: the starting copy's results.json: hardly any performance points" "$copy3/results.json" \
        "^ok 7[0-4]\.[0-9]{2} 100\.00$"
fi
[ "$(grep -c "^lab-grade: step 3 " "$log/lab-grade.txt")" -eq 1 ] && [ "$(grep -cE "seed [0-9]+" "$log/lab-grade.txt")" -eq 1 ]
result "lab-grade: the step, the copy and the seed said once" $? "$(grep -E '^lab-grade: |seed [0-9]' "$log/lab-grade.txt" | tr '\n' '|')"
# a broken copy whose header has a grade: line: with its grade-var:, lab-grade's summary
# matches its grade-expect: (an extended regex); our kernel's full marks: alice's, below
for file in lab/broken/*.patch; do
    what=$(lab_header "$file" grade) name=$(basename "$file" .patch)
    [ -n "$what" ] || continue
    test_name="gpu lab-grade: $name: $what"
    if [ -z "$gpu" ]; then skip "$test_name" "no GPU"; continue; fi
    mapfile -t vars < <(lab_header "$file" grade-var)
    pattern=$(lab_header "$file" grade-expect)
    env "${grade_env[@]}" "${vars[@]}" LAB_DIR="$lab_root/$name" lab/lab.sh grade "$(lab_header "$file" step)" > "$log/lab-grade.txt" 2>&1
    [ -n "$pattern" ] && grep -qE -- "$pattern" "$log/lab-grade.txt"
    result "$test_name" $? "no /$pattern/ in: $(tail -2 "$log/lab-grade.txt" | tr '\n' ' ')"
done
# the time limit, on any machine: LAB_TIMEOUT=1 against a build made 5 s longer by a rule
make --no-print-directory lab STEP=3 LAB_DIR="$lab_root/limit" > /dev/null 2>&1
printf 'all: slow\nslow:\n\t@sleep 5\n' >> "$lab_root/limit/$step3/Makefile"
env "${grade_env[@]}" LAB_TIMEOUT=1 LAB_DIR="$lab_root/limit" lab/lab.sh grade 3 > "$log/lab-grade.txt" 2>&1
grep -qx '"timeout","","","1"' "$lab_root/limit/$step3/build/lab-grade/record.csv" &&
    grep -q "^correct: timed out; first failure: timed out after 1 s during the build" "$log/lab-grade.txt" &&
    grep -q "^TIMED OUT: .* ran out during the build" "$log/lab-grade.txt" && ! grep -q "never ends" "$log/lab-grade.txt"
result "lab-grade: LAB_TIMEOUT=1 kills the checks in the build, grades what ran, says the build timed out" $? \
       "$(grep -m2 -i 'timed out' "$log/lab-grade.txt" | tr '\n' ' ')"
test_name="lab-grade stopped while nvcc runs: its temporaries are in the copy, none in TMPDIR (/tmp)"
outer_tmp=$lab_root/outer-tmp copy_tmp=$lab_root/tmpfiles/$step3/build/lab-check/tmp
mkdir -p "$outer_tmp"
make --no-print-directory lab STEP=3 LAB_DIR="$lab_root/tmpfiles" > /dev/null 2>&1
env "${grade_env[@]}" TMPDIR="$outer_tmp" LAB_DIR="$lab_root/tmpfiles" lab/lab.sh grade 3 > "$log/lab-grade-tmp.txt" 2>&1 &
grading=$!
seen=""
for _ in $(seq 1200); do   # up to two minutes
    seen=$(find "$copy_tmp" "$outer_tmp" -name 'tmpxft*' -print -quit 2> /dev/null)
    if [ -n "$seen" ] || ! kill -0 "$grading" 2> /dev/null; then break; fi
    sleep 0.1
done
kill -TERM "$grading" 2> /dev/null
wait "$grading" 2> /dev/null
sleep 1   # what the stopped build's processes still had to do
left=$(find "$outer_tmp" -mindepth 1 -printf '%f ' | head -c 300)
case $seen in
    "$copy_tmp"/*) [ -z "$left" ]; result "$test_name" $? "left in TMPDIR: $left" ;;
    "") fail "$test_name" "no nvcc temporary seen while the grading built: $(tail -2 "$log/lab-grade-tmp.txt" | tr '\n' ' ')" ;;
    *) fail "$test_name" "nvcc wrote $seen" ;;
esac

# lab-grade-all over a class: our step 3; the CUB shortcut in a handout's lab/work/; the build
# error with a Makefile of its own; nothing; an empty reduce.cu; "reduce (1).cu"; a reduce.cu
# with no step folder
class=$lab_root/class step7=$(step_dir 7)
mkdir -p "$class/alice/$step3" "$class/bob/lab/work/$step7" "$class/carol/$step3" "$class/dave" "$class/erin/$step3" \
    "$class/frank/$step3" "$class/grace"
cp "$step3/reduce.cu" "$class/alice/$step3/reduce.cu"
cp "$lab_root/step7_calls_cub/$step7/reduce.cu" "$class/bob/lab/work/$step7/reduce.cu"
# bob's folder is a course's handout (make handout): its step folders are ours, never graded
mkdir -p "$class/bob/$(step_dir 1)" && touch "$class/bob/lab/handout.txt" && cp "$(step_dir 1)/reduce.cu" "$class/bob/$(step_dir 1)/"
cp "$lab_root/step3_build_error/$step3/reduce.cu" "$class/carol/$step3/reduce.cu"
echo "this is not a Makefile" > "$class/carol/$step3/Makefile"   # never copied: the grader writes its own
printf '\n  \n' > "$class/erin/$step3/reduce.cu"
cp "$step3/reduce.cu" "$class/frank/$step3/reduce (1).cu"
cp "$step3/reduce.cu" "$class/grace/reduce.cu"   # no step folder around it
echo "an old class table" > "$lab_root/grades.csv"   # replaced, and said so
env "${grade_env[@]}" LAB_GRADES_CSV="$lab_root/grades.csv" LAB_TIMEOUT=600 lab/lab_grade_all.sh "$class" > "$log/lab-grade-all.txt" 2>&1
status=$?
csv=$lab_root/grades.csv
if [ -n "$gpu" ]; then alice='^"alice",3,"yes","",[0-9.]+,[0-9.]+,100\.00,100\.00,'
else alice='^"alice",3,"not run \(no GPU\)","GPU checks not run \(no GPU here\); builds for '"$type"'",,,0\.00,100\.00,'; fi
grep -qE "$alice" "$csv" 2>/dev/null &&
    grep -qE '^"bob",7,"no","includes: line [0-9]+: #include <cub/cub.cuh>",,,0\.00,100\.00,' "$csv" 2>/dev/null &&
    grep -qE '^"carol",3,"no","'"$type"': does not compile"' "$csv" 2>/dev/null &&
    grep -qE '^"dave",,"no","nothing handed in' "$csv" 2>/dev/null && [ "$(wc -l < "$csv")" -eq 8 ] &&
    grep -q "^lab-grade-all: replacing .*/grades.csv (LAB_GRADES_CSV=" "$log/lab-grade-all.txt"
result "lab-grade-all: one row per student in grades.csv, each with its reason; the old table's replacement said" $? "exit $status: $(tr '\n' ' ' < "$csv" 2>/dev/null)"
grep -qx '"erin",3,"no","empty file: reduce.cu holds no code",,,0\.00,100\.00,[0-9]*' "$csv" &&
    grep -q '^FAIL empty file: ' "$class/erin/$step3/lab-grade.txt" &&
    ! grep -qiE 'error|undefined|compile' "$class/erin/$step3/lab-grade.txt"
result "lab-grade-all: an empty reduce.cu: 'empty file' is the first failure, in one line" $? \
       "$(grep '^"erin"' "$csv" 2>/dev/null) $(head -3 "$class/erin/$step3/lab-grade.txt" 2>/dev/null | tr '\n' ' ')"
nothing="\"nothing handed in: no stepK_name/reduce.cu (e.g. $step3/reduce.cu) in the folder; found"
grep -qF "\"frank\",,\"no\",$nothing $step3/reduce (1).cu: rename it to reduce.cu\"" "$csv" 2>/dev/null
result "lab-grade-all: 'reduce (1).cu' is named, with: rename it to reduce.cu" $? "$(grep '^"frank"' "$csv" 2>/dev/null)"
grep -qF "\"grace\",,\"no\",$nothing reduce.cu outside a step folder: move it into its step's folder, e.g. $step3/reduce.cu\"" "$csv" 2>/dev/null
result "lab-grade-all: a reduce.cu with no step folder is named, with where to move it" $? "$(grep '^"grace"' "$csv" 2>/dev/null)"
alice_log=$(find "build/lab-grade-all/$type/logs" -name '*-alice-3.txt' 2> /dev/null | head -1)
if [ -z "$gpu" ]; then
    skip "gpu lab-grade: our step 3 copied in: full marks" "no GPU"
    [ "$status" -eq 3 ] && grep -q "^NO GPU HERE" "$log/lab-grade-all.txt" && grep -q "^3 graded, 0 correct, of 7 rows (1 not run: no GPU; 3 with nothing graded)" "$log/lab-grade-all.txt"
    result "lab-grade-all without a GPU: every submission built, the class table, NO GPU said, exit 3" $? \
           "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
else
    grep -q "^score: 100.00 / 100.00" "${alice_log:-/dev/null}"
    result "gpu lab-grade: our step 3 copied in: full marks" $? "$(tail -3 "${alice_log:-/dev/null}" | tr '\n' ' ')"
    [ "$status" -eq 0 ] && grep -q "^4 graded, 1 correct, of 7 rows (0 not run: no GPU; 3 with nothing graded)" "$log/lab-grade-all.txt"
    result "gpu lab-grade-all: the class table, alice correct" $? "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
fi
lab_json "lab-grade-all: alice's results.json, in her folder" "$class/alice/$step3/results.json" \
    "^ok $([ -n "$gpu" ] && echo 100.00 || echo 0.00) 100.00$"
lab_json "lab-grade-all: bob's results.json (the CUB shortcut): 0 points" "$class/bob/lab/work/$step7/results.json" "^ok 0.00 100.00$"
left=$(find "build/lab-grade-all/$type" -mindepth 1 -maxdepth 1 ! -name logs ! -name submissions.txt ! -name builds.txt -printf '%f ' 2>/dev/null)
[ -z "$left" ]; result "lab-grade-all: the scratch copies are gone" $? "$left"
