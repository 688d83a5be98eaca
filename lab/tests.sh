# shellcheck shell=bash disable=SC2154  # type, log, gpu ...: tests/run.sh's, which sources this file
# The lab's tests, sourced by tests/run.sh (TEST_SUITES, lab/lab.mk): section lab here (make lab,
# lab-check, the broken copies), lab/tests_grade.sh next. make test runs the quick tier (texts,
# refusals, every copy made, step 3's built and checked, for int); make test-lab (TEST_TIER=lab)
# all, each GPU check it cannot run a SKIP. What does not depend on the type runs for TYPE=int.
##= LAB_TESTS=1: LAB_TESTS=0: make test leaves the lab's tests out (one SKIP line)
if [ "${LAB_TESTS:-1}" = 0 ]; then skip "lab: every lab test" "LAB_TESTS=0"; return 0; fi
section lab
lab_root=build/$type/test-lab
rm -rf "$lab_root"
read -ra lab_steps <<< "$(lab/lab.sh steps)"
# make test-lab: no tests/gpu.sh before it, so the GPU targets' check (gpu.sh: it agrees with the programs)
[ -n "${gpu+set}" ] || gpu=$(scripts/preflight.sh test-lab 2> /dev/null && echo yes)
# A course's handout: each exercise's copy made, built and, on a GPU, checked
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
full=1   # 0: make test, the quick tier (make test-lab runs the rest)
[ "${TEST_TIER:-}" = lab ] || full=0
checked=("${lab_steps[@]}")   # the steps whose copies are built and lab-checked
if [ "$full" = 0 ]; then
    checked=(3)
    [ "$type" = int ] || checked=()   # make test-lab TYPE=float (double) checks the copies in that type
    skip "lab: every copy built and lab-checked with its time's verdict, the broken copies on the GPU, lab-grade's timed runs, lab-grade-all over a class, make handout" \
         "make test-lab runs them, on the lab GPU (and in CI, all but the GPU's)"
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
    missing=""   # make help: the "## " lines of TARGET_FILES, the "##= " lines of HELP_FILES
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
for k in "${lab_steps[@]}"; do
    step=$(step_dir "$k") copy=$start/$(step_dir "$k")
    [[ " ${checked[*]} " != *" $k "* ]] || copies+=("$copy")
    if [ "$plumbing" = 0 ]; then
        make --no-print-directory lab STEP="$k" LAB_DIR="$start" > "$log/lab-out.txt" 2>&1 ||
            fail "lab: make lab STEP=$k" "$(tail -1 "$log/lab-out.txt")"
        continue
    fi
    make_expect "lab: make lab STEP=$k" 0 "TODO(step $k)" lab STEP="$k" LAB_DIR="$start"
    todos=$(grep -c "// TODO(step $k, " "$copy/reduce.cu" 2>/dev/null)
    # the README's exercise, its links (../LAB.md) relative to the copy's folder and alive
    exercise=$(awk -f lab/lab_exercise.awk "$step/README.md" | grep '[^[:space:]]' |
               sed -e "s#](\.\./#]($(realpath -m --relative-to="$copy" .)/#g" -e "s#make lab-check STEP=$k#& LAB_DIR=$start#g")
    missing=$(while IFS= read -r line; do
                  grep -qxF -- " * ${line//\*\//*\\/}" "$copy/reduce.cu" 2>/dev/null || echo "$line"
              done <<< "$exercise" | head -1)
    lines=$(grep -c . <<< "$exercise")
    first=" * This is step ${lab_before[$k]}'s kernel ($(step_dir "${lab_before[$k]}")/reduce.cu), correct as it is."
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
# the broken copies (lab.sh broken); lab_header FILE KEY: its "# KEY: value" lines' values.
# One whose header needs nothing, or says "build: fails", is checked in both tiers.
lab_header() { sed -n -e '/^--- /q' -e "s/^# $2: //p" "$1"; }
broken=()
declare -A build_fails=()
for file in lab/broken/*.patch; do
    name=$(basename "$file" .patch) k=$(lab_header "$file" step)
    step=$(step_dir "$k")
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
# every copy built for $type, one per core, one test each; logs in $lab_root/builds/
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
        grep -qF "make lab-check STEP=3 LAB_DIR=$start\`" "$copy/reduce.cu"
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
    { build/tools/report header; row prev_x "prev start" 2.0; row next_x "next (yours)" 1.5; row next_x "next ours" 1.0; } > "$log/lab-rows.csv"
    build/tools/lab_grade table "$log/lab-rows.csv" 2 3 prev_x next_x next_x > "$log/lab-table.txt" 2>&1
    grep -qE '^yours .* 1\.500 ' "$log/lab-table.txt" && grep -qE '^ours .* 1\.000 ' "$log/lab-table.txt"
    result "lab: the lab table shows your time even when your copy has our step's name" $? "$(tr '\n' ' ' < "$log/lab-table.txt")"

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
# 3's sizes up to 2^20+3; the quick tier times at n = 2^20 and tests no verdict.
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
# lab_timing NAME K VERDICT (make test-lab's): the last lab-check's verdict is VERDICT; where
# our own gain is within the noise ("time can't tell"), a SKIP by name, never a pass.
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
# each broken copy and the check that must reject it, as its header says (lab/README.md, "What
# no shortcut passes"): needs: gpu, sanitizer, nothing (any machine, TYPE=int); var: settings;
# control: ours: our kernel passes with them; build: fails: its test is its build, above.
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
