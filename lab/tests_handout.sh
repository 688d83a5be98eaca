# shellcheck shell=bash disable=SC2154  # type, log, full, lab_steps ...: tests/run.sh's and lab/tests.sh's
# The lab's tests, part 3: make handout. make test-ci (CI_SUITES): in the handouts for 3 and 1-3,
# committed as a course does, make docs and make lint pass. make test (int): the handouts for 3 and 1-3,
# their links and leaks; make test-lab: 7-9 and all too, the edge messages, 3's build and make test.
handouts=build/$type/test-handout
section handout
if [ "${TEST_TIER:-}" = ci ]; then
    [ "$type" = int ] || { skip "handout: make docs and make lint in the handouts" "TYPE=int only"; return 0; }
    [ ! -f lab/handout.txt ] || { skip "handout: make docs and make lint in the handouts" "a course's handout makes none"; return 0; }
    for spec in 3 1-3; do
        out=$log/handout-$spec   # the tier's own folder: make test-lab, beside it in CI, empties $handouts
        rm -rf "$out"
        make --no-print-directory handout EXERCISES="$spec" HANDOUT_DIR="$out" > "$log/handout.txt" 2>&1 &&
            (cd "$out" && git init -q && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm handout &&
             make --no-print-directory docs > docs.txt 2>&1 && make --no-print-directory lint > lint.txt 2>&1)
        result "handout EXERCISES=$spec, committed to git: its make docs and make lint (links too) pass" $? \
               "$(tail -1 "$log/handout.txt") $(grep -h '^FAIL\|rror' "$out/docs.txt" "$out/lint.txt" 2> /dev/null | head -3 | tr '\n' ' ')"
    done
    return 0
fi
[ "${plumbing:-0}" = 1 ] || return 0
rm -rf "$handouts"
specs="3 1-3"
[ "$full" = 0 ] || specs+=" 7-9 all"
[ "$full" = 0 ] || for bad in x 12 5-2 12-14 1-99; do
    make_expect "handout: EXERCISES=$bad is refused" 2 "EXERCISES" handout EXERCISES="$bad" HANDOUT_DIR="$handouts/bad"
done
mkdir -p "$handouts/full" && touch "$handouts/full/x"
if [ "$full" = 1 ]; then
    make_expect "handout: a HANDOUT_DIR that is not empty is refused" 2 "not empty" handout EXERCISES=3 HANDOUT_DIR="$handouts/full"
    make_expect "handout: a HANDOUT_DIR that is a file is refused" 2 "is a file" handout EXERCISES=3 HANDOUT_DIR="$handouts/full/x"
    make_expect "handout: a HANDOUT_DIR that cannot be made is refused" 2 "cannot create" handout EXERCISES=3 HANDOUT_DIR="$handouts/full/x/y"
fi
for spec in $specs; do
    out=$handouts/$spec first=${spec%%-*} leaks=""
    [ "$spec" != all ] || first=${lab_steps[0]}
    make_expect "handout: make handout EXERCISES=$spec" 0 "make handout: wrote $out" handout EXERCISES="$spec" HANDOUT_DIR="$out"
    [ "$spec" != 1-3 ] || grep -q "left out: $(step_dir 1) $(step_dir 2) $(step_dir 3) $(step_dir 4) " "$log/out.txt" || leaks=" the steps left out not in order:"
    for k in "${lab_steps[@]}"; do
        [ "$k" -ge "$first" ] || continue
        line=$(diff "$(lab/lab.sh before "$k")/reduce.cu" "$(step_dir "$k")/reduce.cu" | sed -n 's/^> *//p' |
               grep -v '^\(//\|/\*\|\*\)\|\.number = \|\.idea = ' | awk '{ print length($0) " " $0 }' | sort -rn | head -1 | cut -d' ' -f2-)
        [ -n "$line" ] && ! grep -rqF -- "$line" "$out" || leaks+=" step $k: '$line';"
    done
    [ -z "$leaks" ] && [ ! -e "$out/lab/ANSWERS.md" ] && [ ! -e "$out/lab/README.md" ] && [ ! -e "$out/lab/broken" ] &&
        [ ! -e "$out/$(step_dir "$first")" ] && [ -f "$out/lab/work/$(step_dir "$first")/reduce.cu" ]
    result "handout EXERCISES=$spec: the first exercise's copy, no line of a kernel withheld, no lab/ANSWERS.md, lab/README.md, lab/broken (1-3: the steps left out named in order)" $? \
           "${leaks:- a withheld file is there, or the copy is missing}"
    dead=$(cd "$out" && scripts/md_filter.sh --dead)
    named=$(grep -l 'step[0-9]*_[a-z_]*/README\.md\|Going further' "$out"/lab/exercises/*.cu)
    checks=$(grep -cH 'Check it' "$out"/lab/exercises/*.cu | grep -v ':1$')
    [ -z "$dead$named$checks" ]
    result "handout EXERCISES=$spec: no dead link; each exercise names no withheld README and says Check it once" $? "$dead $named $checks"
done
[ "$full" = 1 ] || return 0
(cd "$handouts/7-9" && make --no-print-directory lab STEP=9 > lab-9.txt 2>&1; [ $? = 2 ] &&
    grep -q "make lab STEP=8 first" lab-9.txt && make --no-print-directory lab STEP=8 > /dev/null 2>&1 &&
    grep -q '^ \* TODO(step 8, 1 of' "lab/work/$(step_dir 8)/reduce.cu")
result "handout EXERCISES=7-9: make lab STEP=8 puts exercise 8 and its TODO lines on the student's step 7, and only after it" $? \
       "$(cat "$handouts/7-9/lab-9.txt")"
# this tree's builds copied in, times kept: the handout's make all compiles only what differs
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
