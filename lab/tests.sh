# shellcheck shell=bash disable=SC2154  # type, log, gpu ...: tests/run.sh's, which sources this file
# The lab's tests, sourced by tests/run.sh (TEST_SUITES, from lab/lab.mk) with its helpers:
# sections lab (make lab, lab-check, the broken copies), lab-grade and handout. make test
# runs the quick tier: the scripts' texts and refusals, every copy made, step 3's copies
# built and checked, what stops before a GPU. make test-lab (TEST_TIER=lab, a TA on the lab
# GPU) runs all: every copy built and lab-checked with its time's verdict, the broken copies
# on the GPU, lab-grade's timed runs, lab-grade-all over a class, make handout. Without a
# GPU make test runs all (CI has none), naming each GPU check it SKIPs. What does not depend
# on the type runs in TYPE=int's run; a broken copy whose header sets LAB_TYPES=T, in T's.
##= LAB_TESTS=1: LAB_TESTS=0: make test leaves the lab's tests out (one SKIP line)
if [ "${LAB_TESTS:-1}" = 0 ]; then skip "lab: every lab test" "LAB_TESTS=0"; return 0; fi
section lab
lab_root=build/$type/test-lab
rm -rf "$lab_root"
read -ra lab_steps <<< "$(lab/lab.sh steps)"
if [ -z "${gpu+set}" ]; then   # make test-lab: no tests/gpu.sh before it asked for the GPU
    gpu=yes
    "$(step_dir 0)/reduce$suffix" -n 1 -r 1 --warmup 0 --quiet > /dev/null 2>&1 || [ $? -ne 3 ] || gpu=""
fi
# A course's handout (make handout): each exercise's copy made, built and, on a GPU, checked
if [ -f lab/handout.txt ]; then
    skip "lab: make lab from our kernels, the broken copies, lab-grade and lab-grade-all" \
         "a course's handout: our kernels of its exercises and lab/broken are not here (make test in the full repository runs them)"
    [ "$type" != int ] || unit_tests lab_unit_tests
    make_expect "handout: make lab STEP=0 is refused" 2 "give STEP=k" lab STEP=0 LAB_DIR="$lab_root"
    for k in "${lab_steps[@]}"; do
        step=$(PROGRAM_DIRS=$(sed -n 's/^steps all //p' lab/handout.txt) step_dir "$k")
        make_expect "handout: make lab STEP=$k: the exercise and the TODOs" 0 "$step/reduce.cu is" lab STEP="$k" LAB_DIR="$lab_root"
        grep -q "TODO(step $k, 1 of" "$lab_root/$step/reduce.cu" && make --no-print-directory -s -C "$lab_root/$step" TYPE="$type" > "$log/lab-build.txt" 2>&1
        result "handout: exercise $k's copy has its TODOs and builds ($type)" $? "$(tail -3 "$log/lab-build.txt" | tr '\n' ' ')"
    done
    k=${lab_steps[0]} name="handout: lab-check STEP=${lab_steps[0]} of the starting copy: correct, and our time compared or its absence said"
    if [ -z "$gpu" ]; then skip "$name" "no GPU"; return 0; fi
    make_expect "$name" 0 "correct" lab-check STEP="$k" LAB_DIR="$lab_root" LAB_TYPES="$type" LAB_HUGE=0 N=2^22
    grep -qE "^ours: the time your course measured|^no verdict: our step $k's time" "$log/out.txt"
    result "handout: lab-check says where our time comes from, or that it is not here" $? "$(tail -3 "$log/out.txt" | tr '\n' ' ')"
    return 0
fi
full=1   # 0: make test on a GPU, the quick tier (make test-lab runs the rest)
[ -z "$gpu" ] || [ "${TEST_TIER:-}" = lab ] || full=0
checked=("${lab_steps[@]}")   # the steps whose copies are built and lab-checked
if [ "$full" = 0 ]; then
    checked=(3)
    skip "lab: every copy built and lab-checked with its time's verdict, the broken copies on the GPU, lab-grade's timed runs, lab-grade-all over a class, make handout" \
         "make test-lab runs them, on the lab GPU"
fi
plumbing=0   # 1: this run tests what does not depend on the type
if [ "$type" = int ]; then plumbing=1; else
    skip "lab and lab-grade: the unit tests, make help, bad input, the copies' texts, lab-status, the tables, lab-grade and lab-grade-all" \
         "TYPE=int only: they do not depend on the type"
fi
declare -A lab_before=()
for k in "${lab_steps[@]}"; do b=$(lab/lab.sh before "$k"); b=${b#step}; lab_before[$k]=${b%%_*}; done
step3=$(step_dir 3)
start=$lab_root/start

if [ "$plumbing" = 1 ]; then
    unit_tests lab_unit_tests   # one result line each, as run.sh counts the core's
    # make help is the "## " lines of TARGET_FILES and the "##= " lines of HELP_FILES (make lint checks each)
    missing=""
    [[ " $(make --no-print-directory -s print-TARGET_FILES) " == *" lab/lab.mk "* ]] || missing="lab/lab.mk (TARGET_FILES) "
    helps=" $(make --no-print-directory -s print-HELP_FILES) "
    for file in lab/*.sh lab/*.mk; do
        ! grep -q '^##= ' "$file" || [[ $helps == *" $file "* ]] || missing+="$file (HELP_FILES) "
    done
    result "make help lists the lab's targets and variables (make lint checks each)" "${#missing}" "missing: $missing"
    # bad input: one line, exit 2, no folder left behind; STEP between the lab's steps: 12
    between=""
    for ((k = 1; k < ${lab_steps[-1]}; k++)); do [[ " ${lab_steps[*]} " == *" $k "* ]] || { between=$k; break; }; done
    for bad in "" 0 $((${lab_steps[-1]} + 1)) x $between; do
        make_expect "lab: STEP=${bad:-(none)} is refused" 2 "give STEP=k" lab ${bad:+"STEP=$bad"} LAB_DIR="$start"
    done
    make_expect "lab-check: no copy" 2 "make lab STEP=3 LAB_DIR=$lab_root/none starts one" lab-check STEP=3 LAB_DIR="$lab_root/none"
    make_expect "lab-check: LAB_TYPES=long" 2 "LAB_TYPES" lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_TYPES=long
    make_expect "lab-check: LAB_SIZES=2^x" 2 "LAB_SIZES takes sizes >= 1 such as 1000 or 2^20+3 (got '2^x')" \
        lab-check STEP=1 LAB_DIR="$lab_root/none" LAB_SIZES="1 2^x"
    [ ! -d "$start" ]; result "lab: bad input leaves no folder behind" $? "$start exists"
fi

copies=()   # the copies built below, one test each
in_checked() { [[ " ${checked[*]} " == *" $1 "* ]]; }
for k in "${lab_steps[@]}"; do
    step=$(step_dir "$k") copy=$start/$(step_dir "$k")
    ! in_checked "$k" || copies+=("$copy")
    if [ "$plumbing" = 0 ]; then
        make --no-print-directory lab STEP="$k" LAB_DIR="$start" > "$log/lab-out.txt" 2>&1 ||
            fail "lab: make lab STEP=$k" "$(tail -1 "$log/lab-out.txt")"
        continue
    fi
    make_expect "lab: make lab STEP=$k" 0 "TODO(step $k)" lab STEP="$k" LAB_DIR="$start"
    todos=$(grep -c "// TODO(step $k, " "$copy/reduce.cu" 2>/dev/null)
    # the README's exercise, its links (../LAB.md) made relative to the copy's folder and alive
    exercise=$(awk -f lab/lab_exercise.awk "$step/README.md" | grep '[^[:space:]]' |
               sed "s#](\.\./#]($(realpath -m --relative-to="$copy" .)/#g")
    missing=$(while IFS= read -r line; do
                  grep -qxF -- " * ${line//\*\//*\\/}" "$copy/reduce.cu" 2>/dev/null || echo "$line"
              done <<< "$exercise" | head -1)
    lines=$(grep -c . <<< "$exercise")
    first=" * This is step ${lab_before[$k]}'s kernel ($(step_dir "${lab_before[$k]}")/reduce.cu), correct as it is. The TODO(step $k, ...)"
    links=$(grep -o '](\.\./[^)]*)' "$copy/reduce.cu" | sed 's/^](//; s/)$//' | while read -r link; do
                [ -e "$copy/$link" ] || printf '%s ' "$link"; done)
    [ "${todos:-0}" -ge 1 ] && [ "$lines" -ge 3 ] && [ -z "$missing" ] && [ -z "$links" ] && grep -qxF -- "$first" "$copy/reduce.cu"
    result "lab: step $k's copy is step ${lab_before[$k]}'s kernel with the README's exercise ($lines lines), its links right, and ${todos:-0} TODOs" $? \
           "missing: '$missing'; dead links: '$links'; '$(grep -m1 ' \* This is step' "$copy/reduce.cu" 2>/dev/null)'"
done

if [ "$plumbing" = 1 ]; then
    make_expect "lab-check: N=2^x"  2 "N takes a size" lab-check STEP=3 LAB_DIR="$start" N=2^x
    make_expect "lab-check: N=0"    2 "N takes a size" lab-check STEP=3 LAB_DIR="$start" N=0
    make_expect "lab-check: REPS=x" 2 "REPS takes the number of timed runs" lab-check STEP=3 LAB_DIR="$start" REPS=x
    make_expect "lab-grade: N=1e6"  2 "N takes a size" lab-grade STEP=3 LAB_DIR="$start" N=1e6
    make_expect "lab-check: DEVICE=-1" 2 "DEVICE takes a GPU index" lab-check STEP=3 LAB_DIR="$start" DEVICE=-1
    make_expect "lab-check: LAB_HUGE=2" 2 "LAB_HUGE takes 0 (off) or 1 (on)" lab-check STEP=3 LAB_DIR="$start" LAB_HUGE=2
    [ ! -e "$start/$step3/build" ] && [ ! -e "$start/$step3/reduce$suffix" ]
    result "lab-check: a bad N, REPS, DEVICE or switch is refused before any build" $? "$(find "$start/$step3" -mindepth 1 -maxdepth 1 -printf '%f ')"
    step_list="${lab_steps[*]}"
    make_expect "lab-grade-all: STEP=12 (no lab step) names the lab's steps" 2 "one of ${step_list// /, } (got '12')" \
        lab-grade-all SUBMISSIONS="$lab_root" STEP=12
    outside=$(mktemp -d) && touch "$outside/kept"
    make_expect "lab-clean: a LAB_DIR outside the repository is refused, saying how to remove it" 2 "rm -rf $outside removes it" \
        lab-clean LAB_DIR="$outside"
    [ -f "$outside/kept" ]; result "lab-clean: the folder outside is kept" $?
    rm -rf "$outside"
fi

# on a GPU, our step k's kernel in a copy of its own: lab-check must find the gain
for k in "${checked[@]}"; do
    [ -n "$gpu" ] && make --no-print-directory lab STEP="$k" LAB_DIR="$lab_root/ours" > /dev/null 2>&1 &&
        cp "$(step_dir "$k")/reduce.cu" "$lab_root/ours/$(step_dir "$k")/" && copies+=("$lab_root/ours/$(step_dir "$k")")
done

# the broken copies: each lab/broken/NAME.patch applied to its step's kernel in a copy of
# make lab's (lab.sh broken). lab_header FILE KEY: the values of its "# KEY: value" lines.
# A copy whose header needs nothing, or says "build: fails", is checked in both tiers.
lab_header() { sed -n -e '/^--- /q' -e "s/^# $2: //p" "$1"; }
broken=()
declare -A build_fails=()
for file in lab/broken/*.patch; do
    name=$(basename "$file" .patch) k=$(lab_header "$file" step)
    step=$(step_dir "$k")
    # a copy whose settings name its types (var: LAB_TYPES=...) is built and checked in their runs
    patch_types=$(lab_header "$file" var | sed -n 's/^LAB_TYPES=//p')
    here=1
    [ -z "$patch_types" ] || [[ " $patch_types " == *" $type "* ]] || here=0
    [ "$plumbing" = 1 ] || [ "$here" = 1 ] || continue
    if ! copy=$(LAB_DIR="$lab_root/$name" lab/lab.sh broken "$file" 2> "$log/lab-out.txt"); then
        fail "lab: broken copy $name applies to a fresh copy of step ${k:-?}" "$(head -c 300 "$log/lab-out.txt")"
        continue
    fi
    if [ "$plumbing" = 1 ]; then
        lines=$(diff "$step/reduce.cu" "$copy/reduce.cu" | grep -c '^[<>]')
        [ "$lines" -le 30 ]; result "lab: $name applies to $step's kernel, one bug or shortcut ($lines lines differ)" $? "more than 30 lines differ"
    fi
    [ "$here" = 1 ] || continue
    [ "$full" = 1 ] || [[ " $(lab_header "$file" needs) " == *" nothing "* ]] || [ -n "$(lab_header "$file" build)" ] || continue
    broken+=("$file")
    copies+=("$copy")
    [ "$(lab_header "$file" build)" != fails ] || build_fails[$copy]=1
done

# every copy built for $type, one per core (each links the harness library that the
# suite's build made), one test each; logs in $lab_root/builds/
builds=$lab_root/builds
mkdir -p "$builds"
# shellcheck disable=SC2016  # $0 and $1 are the inner sh's: the folder and its log's name
for dir in "${copies[@]}"; do echo "$dir $builds/${dir//\//_}"; done | TYPE=$type xargs -r -P "$(nproc 2>/dev/null || echo 2)" -L 1 \
    sh -c 'make --no-print-directory -s -C "$0" TYPE="$TYPE" > "$1.log" 2>&1; echo $? > "$1.status"'
for dir in "${copies[@]}"; do
    status=$(cat "$builds/${dir//\//_}.status" 2>/dev/null) why=$(tail -3 "$builds/${dir//\//_}.log" 2>/dev/null | tr '\n' ' ')
    if [ -z "${build_fails[$dir]:-}" ]; then
        [ "$status" = 0 ]; result "lab: $dir builds ($type)" $? "$why"
    else   # a broken copy that must not compile: the compiler says why
        [ "${status:-0}" != 0 ] && grep -q 'error' "$builds/${dir//\//_}.log"
        result "lab: $dir does not compile ($type), as its header says" $? "exit ${status:-?}: $why"
    fi
done

if [ "$plumbing" = 1 ]; then
    copy=$start/$step3
    echo "// the student's work" >> "$copy/reduce.cu"
    make_expect "lab: refuses to overwrite a copy" 2 "FORCE=1" lab STEP=3 LAB_DIR="$start"
    grep -q "the student's work" "$copy/reduce.cu"; result "lab: the refused copy is untouched" $? "the student's line is gone"
    make_expect "lab: FORCE=1 replaces a copy" 0 "TODO(step 3)" lab STEP=3 LAB_DIR="$start" FORCE=1
    grep -qxF "next: edit it, then make lab-check STEP=3 LAB_DIR=$start" "$log/out.txt" &&
        grep -qF "make lab-check STEP=3 LAB_DIR=$start " "$copy/reduce.cu"
    result "lab: the next: hint and the copy's header keep LAB_DIR" $? "$(grep '^next:' "$log/out.txt")"
    ! grep -q "the student's work" "$copy/reduce.cu"; result "lab: FORCE=1 starts from a fresh copy" $? "old line kept"

    echo "correct, gain reached" > "$copy/.lab-check"
    touch -d '-1 hour' "$copy/reduce.cu"
    make_expect "lab-status: every started step listed" 0 "${#lab_steps[@]} of ${#lab_steps[@]} started" lab-status LAB_DIR="$start"
    grep -qE "^3 .*checked: correct, gain reached" "$log/out.txt"
    result "lab-status: a checked copy shows its verdict" $? "$(grep '^3 ' "$log/out.txt")"
    touch "$copy/reduce.cu"
    touch -d '-1 hour' "$copy/.lab-check"
    make_expect "lab-status: a copy edited after its check is not passed" 0 "changed since its last lab-check passed" \
        lab-status LAB_DIR="$start"
    rm -f "$copy/.lab-check"
    make --no-print-directory lab-status LAB_DIR="$lab_root/none" > "$log/lab-out.txt" 2>&1
    grep -q "0 of ${#lab_steps[@]} started" "$log/lab-out.txt" &&
        grep -qF "not started (make lab STEP=1 LAB_DIR=$lab_root/none)" "$log/lab-out.txt"
    result "lab-status: nothing started" $? "$(tail -1 "$log/lab-out.txt")"
    LAB_DIR=lab/work/ lab/lab.sh status > "$log/lab-out.txt" 2>&1
    grep -q " of ${#lab_steps[@]} started" "$log/lab-out.txt" && ! grep -q "LAB_DIR=" "$log/lab-out.txt"
    result "lab-status: the default LAB_DIR is not added to the hints" $? "$(grep -m1 '^1 ' "$log/lab-out.txt")"

    # a start row of 2 ms, then yours 1.5 ms and ours 1 ms, both with our step's name
    row() { echo "\"$1\",\"$2\",\"int\",1024,4096,\"GPU\",1000.0,20,1,$3,$3,$3,$3,$3,1.0,0.1,0.000e+00,\"PASSED\",1,0"; }
    { build/tools/report header; row prev_x "prev start" 2.0; row next_x "next (yours)" 1.5; row next_x "next ours" 1.0; } > "$log/lab-rows.csv"
    build/tools/lab_grade table "$log/lab-rows.csv" 2 3 prev_x next_x next_x > "$log/lab-table.txt" 2>&1
    grep -qE '^yours .* 1\.500 ' "$log/lab-table.txt" && grep -qE '^ours .* 1\.000 ' "$log/lab-table.txt"
    result "lab: the lab table shows your time even when your copy has our step's name" $? "$(tr '\n' ' ' < "$log/lab-table.txt")"

    long_name=a-student-whose-folder-name-is-longer-than-forty-characters-by-far
    no_gpu_text="GPU checks not run (no GPU here); builds for int float double"
    rm -f "$log/class-long.csv"
    build/tools/lab_grade missing "$log/class-long.csv" lab/weights.conf "$long_name" 3 "$no_gpu_text" > /dev/null 2>&1
    build/tools/lab_grade missing "$log/class-long.csv" lab/weights.conf bo 11 "nothing handed in" > /dev/null 2>&1
    build/tools/lab_grade class "$log/class-long.csv" > "$log/class-long.txt" 2>&1
    # the column where the first failure starts: the same in the header and in each row
    columns=$(awk -v a="$no_gpu_text" 'NR == 1 { print index($0, "first failure") }
                                       NR == 2 { print index($0, a) } NR == 3 { print index($0, "nothing handed in") }' \
              "$log/class-long.txt" | sort -u | wc -l)
    grep -q "^$long_name  " "$log/class-long.txt" && grep -qF "  $no_gpu_text" "$log/class-long.txt" &&
        [ "$columns" -eq 1 ] && [ "$(grep -c 'first failure' "$log/class-long.txt")" -eq 1 ]
    result "lab-grade-all's class table: a long name shifts no column, no cell is cut" $? "$(head -3 "$log/class-long.txt" | tr '\n' '|')"
    printf '%s\n' "item,id,status,text" "step,3,,$step3" "types,,,int float double" "test,includes,pass,only ours" \
        "built,,,int float double" "nogpu,,," > "$log/record-long.csv"
    build/tools/lab_grade grade "$log/record-long.csv" lab/weights.conf "$log/record-long.json" > "$log/summary-long.txt" 2>&1
    summary_ok=0
    for t in int float double memcheck racecheck "timed runs" performance; do
        grep -qE "^ +0\.00 +[0-9.]+  $t +not run: no GPU on this machine" "$log/summary-long.txt" || summary_ok=1
    done
    [ "$summary_ok" = 0 ] && [ "$(grep -c 'int float double' "$log/summary-long.txt")" -ge 8 ] &&
        ! grep -qE 'doubl($|[^e])' "$log/summary-long.txt"
    result "lab-grade's summary: the columns in line, no word cut" $? "$(sed -n 4,6p "$log/summary-long.txt" | tr '\n' '|')"

    if [ -z "$gpu" ]; then
        LAB_DIR="$start" LAB_TYPES="$type" lab/lab.sh check 3 > "$log/lab-check.txt" 2>&1
        status=$?
        [ "$status" -eq 3 ] && grep -q "no GPU here" "$log/lab-check.txt"
        result "lab-check without a GPU: built, exit 3" $? "exit $status: $(tail -2 "$log/lab-check.txt" | tr '\n' ' ')"
        make_expect "lab-status after a lab-check without a GPU: says the checks never ran" 0 \
            "not checked: its last lab-check found no GPU" lab-status LAB_DIR="$start"
    fi
fi

# lab_check NAME CODE PATTERN K LAB_DIR [VAR=VALUE...]: lab/lab.sh check K exits CODE, its
# output matches PATTERN and not lab_absent (GPU only; lab_check_run: any machine), at step
# 3's --check auto sizes up to 2^20+3: quick, and a tail of every kind. The quick tier times
# at n = 2^20, whose verdict it does not test.
lab_sizes=$(describe "$step3/reduce$suffix" check_sizes | tr , '\n' | awk '$1 <= 1048579' | tr '\n' ' ')
lab_n=2^24
[ "$full" = 1 ] || lab_n=2^20
lab_absent=""
lab_check() { if [ -z "$gpu" ]; then skip "$1" "no GPU"; else lab_check_run "$@"; fi; }
lab_check_run() {
    local name=$1 code=$2 pattern=$3 k=$4 dir=$5 status
    shift 5
    env LAB_DIR="$dir" LAB_TYPES="$type" LAB_SIZES="$lab_sizes" LAB_HUGE=0 LAB_SANITIZE=0 N=$lab_n REPS=20 PROFILE=0 "$@" \
        timeout 900 lab/lab.sh check "$k" > "$log/lab-check.txt" 2>&1
    status=$?
    if [ "$status" -ne "$code" ]; then
        fail "$name" "exit $status, expected $code: $(grep -m3 -E 'FAIL|hint|verdict|lab-check' "$log/lab-check.txt" | tr '\n' ' ')"
    elif ! grep -qE -- "$pattern" "$log/lab-check.txt"; then
        fail "$name" "no /$pattern/ in: $(grep -m3 -E 'FAIL|hint|verdict' "$log/lab-check.txt" | tr '\n' ' ')"
    elif [ -n "$lab_absent" ] && grep -qE -- "$lab_absent" "$log/lab-check.txt"; then
        fail "$name" "/$lab_absent/ in: $(head -3 "$log/lab-check.txt" | tr '\n' ' ')"
    else
        pass "$name"
    fi
    cp "$log/lab-check.txt" "$log/$(echo "$name" | tr -c 'A-Za-z0-9\n' _).txt"
}

# lab_timing NAME K VERDICT (make test-lab's): the verdict of the lab-check just run is
# VERDICT. Where our step's own gain is within a timing's noise on this GPU ("time can't
# tell": LAB_NOISE, lab/lab_grade.h), the time cannot say whether a copy has the idea:
# SKIP by name, never a pass.
lab_timing() {
    local name=$1 k=$2 expected=$3 verdict ours
    if [ "$full" = 0 ]; then return; elif [ -z "$gpu" ]; then skip "$name" "no GPU"; return; fi
    verdict=$(sed -n 's/^verdict: //p' "$log/lab-check.txt" | head -1)
    case $verdict in
        "$expected:"*) pass "$name" ;;
        "time can't tell:"*)
            ours=$(sed -n "s/.*our step $k is only \([0-9.]*x\) step ${lab_before[$k]}'s speed.*/\1/p" <<< "$verdict")
            skip "$name" "our step $k is only ${ours:-?} step ${lab_before[$k]}'s speed on this GPU: within a timing's noise, so the time cannot tell; the copy's correctness is tested above" ;;
        "") fail "$name" "no verdict line: $(grep -m2 -E 'FAIL|lab-check' "$log/lab-check.txt" | tr '\n' ' ')" ;;
        *) fail "$name" "verdict: $verdict" ;;
    esac
}

# same bits (same_bits=1, step 14): float and double only, an int sum is the same in any order
for k in "${checked[@]}"; do
    if [ "$(describe "$(step_dir "$k")/reduce$suffix" same_bits)" = 1 ] && [ "$type" != int ]; then
        lab_check "gpu lab-check STEP=$k, the starting copy: no --blocks B yet, and lab-check says how to add it" 1 \
            "^FAIL $type same bits: your copy takes no --blocks B .*add it as the exercise says" "$k" "$start"
    else
        lab_check "gpu lab-check STEP=$k, the starting copy: correct" 0 "^correct: " "$k" "$start"
        lab_timing "gpu lab-check STEP=$k, the starting copy: gain not yet" "$k" "gain not yet"
    fi
    lab_check "gpu lab-check STEP=$k, our kernel copied in: correct" 0 "^correct: " "$k" "$lab_root/ours"
    lab_timing "gpu lab-check STEP=$k, our kernel copied in: gain reached" "$k" "gain reached"
done

# each broken copy, and the check that must reject it, as its header says (lab/README.md,
# "What no shortcut passes"). needs: gpu, sanitizer (each skipped without), nothing (any
# machine, the TYPE=int run only: it stops before any build); var: the settings;
# control: ours: our step's kernel passes lab-check with the same settings; build: fails:
# its test is its build, above.
sanitizer=$(find_sanitizer)
for file in "${broken[@]}"; do
    name=$(basename "$file" .patch) k=$(lab_header "$file" step) what=$(lab_header "$file" check)
    if [ -z "$what" ]; then
        [ -n "$(lab_header "$file" grade)$(lab_header "$file" build)" ] ||
            fail "lab: broken copy $name has a test" "its header has no check:, grade: or build: line"
        continue   # lab-grade's, below, or its build's
    fi
    needs=" $(lab_header "$file" needs) "
    pattern=$(lab_header "$file" expect)
    pattern=${pattern//\{type\}/$type}
    mapfile -t vars < <(lab_header "$file" var)
    test_name="lab-check rejects $name: $what"
    if [[ $needs == *" sanitizer "* ]] && [ -n "$gpu" ] && [ -z "$sanitizer" ]; then
        skip "gpu $test_name" "no compute-sanitizer"
        continue
    fi
    lab_absent=$(lab_header "$file" expect-absent)
    if [[ $needs == *" nothing "* ]]; then
        [ "$plumbing" = 0 ] ||
            lab_check_run "$test_name" "$(lab_header "$file" expect-exit)" "$pattern" "$k" "$lab_root/$name" "${vars[@]}"
    else
        lab_check "gpu $test_name" "$(lab_header "$file" expect-exit)" "$pattern" "$k" "$lab_root/$name" "${vars[@]}"
    fi
    lab_absent=""
    if [ "$(lab_header "$file" control)" = ours ]; then
        lab_check "gpu lab-check passes our step $k's kernel with $name's settings (${vars[*]})" 0 \
            "^correct: " "$k" "$lab_root/ours" "${vars[@]}"
    fi
done

# ---------------------------------------------------------------- lab-grade
[ "$plumbing" = 1 ] || return 0   # the scoring is the same for every type: TYPE=int's run
section lab-grade
# The scorer is unit-tested on canned records; here the whole chain. lab_json NAME FILE
# PATTERN: FILE is a results.json in Gradescope's format whose tests add up to its score,
# and "ok SCORE MAX" matches PATTERN (a SKIP without python3)
lab_json() {
    local result
    if ! command -v python3 > /dev/null 2>&1; then skip "$1" "python3 not installed (it only checks the JSON)"; return; fi
    result=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert all(k in d for k in ("score", "execution_time", "output", "tests")), "a top-level field is missing"
t = d["tests"]
assert t and all(all(k in x for k in ("name", "score", "max_score", "output")) for x in t), "a test field is missing"
assert all(0 <= x["score"] <= x["max_score"] for x in t), "a score outside 0 .. max_score"
s, m = sum(x["score"] for x in t), sum(x["max_score"] for x in t)
assert abs(s - d["score"]) < 0.005, "tests add up to %.2f, score says %.2f" % (s, d["score"])
print("ok %.2f %.2f" % (d["score"], m))
' "$2" 2>&1 | tail -1)
    if [[ $result =~ $3 ]]; then pass "$1"; else fail "$1" "$result"; fi
}
build/tools/lab_grade weights lab/weights.conf > "$log/weights.txt" 2>&1
grep -q "total 100.00$" "$log/weights.txt"
result "lab-grade: lab/weights.conf is valid and adds up to 100" $? "$(cat "$log/weights.txt")"
# bad input through make (every failure is 2 there), one line each; the readings of the
# weights and the sizes are unit-tested: these prove that each reaches lab-grade
printf 'correct = 50\nmemchek = 5\n' > "$log/bad-weights.conf"
make_expect "lab-grade: a misspelt weight"  2 "unknown key 'memchek'" lab-grade STEP=3 LAB_DIR="$start" \
    LAB_WEIGHTS="$log/bad-weights.conf"
make_expect "lab-grade: no copy"            2 "make lab STEP=3 LAB_DIR=$lab_root/none starts one" lab-grade STEP=3 LAB_DIR="$lab_root/none"
make_expect "lab-grade: LAB_SEED=x"         2 "LAB_SEED" lab-grade STEP=3 LAB_DIR="$start" LAB_SEED=x
make_expect "lab-grade-all: no SUBMISSIONS" 2 "give SUBMISSIONS=dir" lab-grade-all
mkdir -p "$lab_root/empty-class/nobody"
make_expect "lab-grade-all: nothing to grade" 2 "no stepK_name/reduce.cu in any folder" lab-grade-all \
    SUBMISSIONS="$lab_root/empty-class"
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
# our kernel's full marks: alice's below; a broken copy whose header has a grade: line:
# lab-grade's summary matches its grade-expect: (an extended regex), with its grade-var:
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
# the time limit, on any machine: LAB_TIMEOUT=1 against a build that a rule added to the
# copy's Makefile makes 5 s longer (a compile alone may take less than 1 s)
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

# lab-grade-all over a small class: our step 3; the CUB shortcut (in the lab/work/ of a
# handout); the build error (lab/broken), shipped with a Makefile of its own; nothing handed
# in; an empty reduce.cu (its own first failure); a browser's "reduce (1).cu" and a
# reduce.cu with no step folder (named, with what to do)
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
env "${grade_env[@]}" LAB_GRADES_CSV="$lab_root/grades.csv" LAB_TIMEOUT=600 lab/lab_grade_all.sh "$class" > "$log/lab-grade-all.txt" 2>&1
status=$?
csv=$lab_root/grades.csv
if [ -n "$gpu" ]; then alice='^"alice",3,"yes","",[0-9.]+,[0-9.]+,100\.00,100\.00,'
else alice='^"alice",3,"not run \(no GPU\)","GPU checks not run \(no GPU here\); builds for '"$type"'",,,0\.00,100\.00,'; fi
grep -qE "$alice" "$csv" 2>/dev/null &&
    grep -qE '^"bob",7,"no","includes: line [0-9]+: #include <cub/cub.cuh>",,,0\.00,100\.00,' "$csv" 2>/dev/null &&
    grep -qE '^"carol",3,"no","'"$type"': does not compile"' "$csv" 2>/dev/null &&
    grep -qE '^"dave",,"no","nothing handed in' "$csv" 2>/dev/null && [ "$(wc -l < "$csv")" -eq 8 ]
result "lab-grade-all: one row per student in grades.csv, each with its reason" $? "exit $status: $(tr '\n' ' ' < "$csv" 2>/dev/null)"
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
alice_log=$(find build/lab-grade-all/logs -name '*-alice-3.txt' 2> /dev/null | head -1)
if [ -z "$gpu" ]; then
    skip "gpu lab-grade: our step 3 copied in: full marks" "no GPU"
    [ "$status" -eq 3 ] && grep -q "^NO GPU HERE" "$log/lab-grade-all.txt" && grep -q "^7 graded, 0 correct" "$log/lab-grade-all.txt"
    result "lab-grade-all without a GPU: every submission built, the class table, NO GPU said, exit 3" $? \
           "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
else
    grep -q "^score: 100.00 / 100.00" "${alice_log:-/dev/null}"
    result "gpu lab-grade: our step 3 copied in: full marks" $? "$(tail -3 "${alice_log:-/dev/null}" | tr '\n' ' ')"
    [ "$status" -eq 0 ] && grep -q "^7 graded, 1 correct" "$log/lab-grade-all.txt"
    result "gpu lab-grade-all: the class table, alice correct" $? "exit $status: $(tail -3 "$log/lab-grade-all.txt" | tr '\n' ' ')"
fi
lab_json "lab-grade-all: alice's results.json, in her folder" "$class/alice/$step3/results.json" \
    "^ok $([ -n "$gpu" ] && echo 100.00 || echo 0.00) 100.00$"
lab_json "lab-grade-all: bob's results.json (the CUB shortcut): 0 points" "$class/bob/lab/work/$step7/results.json" "^ok 0.00 100.00$"
left=$(find build/lab-grade-all -mindepth 1 -maxdepth 1 ! -name logs ! -name submissions.txt ! -name builds.txt -printf '%f ' 2>/dev/null)
[ -z "$left" ]; result "lab-grade-all: the scratch copies are gone" $? "$left"

# ---------------------------------------------------------------- make handout
# a course's handout for exercise 3, for 7 to 9 and for all: no line of a kernel it
# withholds (the longest code line each adds to the step before it, its STEP label aside,
# which make lab rewrites), no lab/ANSWERS.md, no lab/broken; in 7-9, make lab STEP=8 starts
# from the student's own step 7; the one for 3 builds and its make test passes, without a
# GPU (its lab section: the handout's block at the top of this file)
section handout
handouts=build/$type/test-handout
rm -rf "$handouts"
for bad in x 12 5-2; do
    make_expect "handout: EXERCISES=$bad is refused" 2 "EXERCISES" handout EXERCISES="$bad" HANDOUT_DIR="$handouts/bad"
done
mkdir -p "$handouts/full" && touch "$handouts/full/x"
make_expect "handout: a HANDOUT_DIR that is not empty is refused" 2 "not empty" handout EXERCISES=3 HANDOUT_DIR="$handouts/full"
for spec in 3 7-9 all; do
    out=$handouts/$spec first=${spec%%-*} leaks=""
    [ "$spec" != all ] || first=${lab_steps[0]}
    make_expect "handout: make handout EXERCISES=$spec" 0 "make handout: wrote $out" handout EXERCISES="$spec" HANDOUT_DIR="$out"
    for k in "${lab_steps[@]}"; do
        [ "$k" -ge "$first" ] || continue
        line=$(diff "$(lab/lab.sh before "$k")/reduce.cu" "$(step_dir "$k")/reduce.cu" | sed -n 's/^> *//p' |
               grep -v '^\(//\|/\*\|\*\)\|\.number = \|\.idea = ' | awk '{ print length($0) " " $0 }' | sort -rn | head -1 | cut -d' ' -f2-)
        [ -n "$line" ] && ! grep -rqF -- "$line" "$out" || leaks+=" step $k: '$line';"
    done
    [ -z "$leaks" ] && [ ! -e "$out/lab/ANSWERS.md" ] && [ ! -e "$out/lab/broken" ] && [ ! -e "$out/$(step_dir "$first")" ] &&
        [ -f "$out/lab/work/$(step_dir "$first")/reduce.cu" ]
    result "handout EXERCISES=$spec: the first exercise's copy, no line of a kernel withheld, no lab/ANSWERS.md, no lab/broken" $? \
           "${leaks:- a withheld file is there, or the copy is missing}"
done
(cd "$handouts/7-9" && make --no-print-directory lab STEP=9 > lab-9.txt 2>&1; [ $? = 2 ] &&
    grep -q "make lab STEP=8 first" lab-9.txt && make --no-print-directory lab STEP=8 > /dev/null 2>&1 &&
    grep -q '^ \* TODO(step 8, 1 of' "lab/work/$(step_dir 8)/reduce.cu")
result "handout EXERCISES=7-9: make lab STEP=8 puts exercise 8 and its TODO lines on the student's step 7, and only after it" $? \
       "$(cat "$handouts/7-9/lab-9.txt")"
# this tree's builds of what the handout holds, times kept as make handout keeps the
# sources': its make all then compiles only what differs (a GPU's native build: all)
mkdir -p "$handouts/3/build/$type" && cp -a build/tools "$handouts/3/build/" &&
    cp -a build/"$type"/harness-* build/"$type"/*unit_tests* "$handouts/3/build/$type/" 2> /dev/null
for d in "$handouts"/3/step*/ "$handouts"/3/cub_reference/; do
    d=${d#"$handouts"/3/}; cp -a "$d"build "$d"reduce "$d"reduce_* "$handouts/3/$d" 2> /dev/null
done
(cd "$handouts/3" && export NVCC_ARCH=sm_75 CUDA_VISIBLE_DEVICES="" &&
    make --no-print-directory -s -j"$(nproc)" all > build-all.txt 2>&1 && make --no-print-directory test > test.txt 2>&1)
status=$? last=$(tail -1 "$handouts/3/test.txt" 2> /dev/null)
[ "$status" = 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed ]] && grep -q '^SKIP lab: make lab from our kernels' "$handouts/3/test.txt"
result "handout EXERCISES=3: make and make test pass in it, naming what they skip ($last)" $? \
       "exit $status: $(grep -h '^FAIL\|rror' "$handouts/3/build-all.txt" "$handouts/3/test.txt" 2> /dev/null | head -3 | tr '\n' ' ')"
