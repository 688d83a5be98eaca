# shellcheck shell=bash
# The CPU build's suite (cpu/README.md), sourced by tests/run.sh (TEST_SUITES, from cpu/cpu.mk):
# every single-GPU step's --check on the CPU at the sizes of --check auto up to CPU_MAX_N,
# under the reverse schedule (and in order, for int); then the faults the CPU must reject.
# make test (int) runs int, float and double here; TYPE=float or double runs its own type.
# shellcheck disable=SC2154  # tests/run.sh sets $type, $log ... before it sources this
cpu_max_n=${CPU_MAX_N:-2049}
cpu_types=$type
[ "$type" != int ] || cpu_types="int float double"
cpu_steps=$(make_var STEPS)
cpu_log=$log/cpu
mkdir -p "$cpu_log/fixtures"

section cpu-build
for t in $cpu_types; do
    make -s --no-print-directory -C cpu -j2 TYPE="$t" STEPS="$cpu_steps" > "$cpu_log/build-$t.txt" 2>&1
    result "cpu: every step builds for the CPU ($t, g++ against cpu/cuda_on_cpu.h)" $? "$(grep -m1 -i error "$cpu_log/build-$t.txt")"
done

section cpu-check
# cpu_check PROGRAM SCHEDULE: --check at the step's own sizes up to cpu_max_n; prints nothing
# when every size passed, else what went wrong (its first lines, and the exit status)
cpu_check() {
    local sizes out status
    sizes=$("$1" --describe | sed -n 's/^check_sizes=//p' | tr ',' '\n' | awk -v m="$cpu_max_n" '$1 <= m' | paste -sd,)
    out=$(CUDA_ON_CPU_SCHEDULE=$2 "$1" --check "$sizes" 2>&1); status=$?
    [ $status = 0 ] || printf '%s\nexit %s\n' "$(grep -v '^check n=[0-9]*: PASS' <<< "$out" | head -3)" $status
}
# the runs, two at a time: each one's output in a file, then one line each
for t in $cpu_types; do
    for s in $cpu_steps; do
        for order in reverse $([ "$t" = int ] && echo in-order); do echo "$t $s $order"; done
    done
done | xargs -P 2 -L 1 bash -c "$(declare -f cpu_check); cpu_max_n=$cpu_max_n
    cpu_check build/cpu/\$0/\$1/reduce \$2 > $cpu_log/\$0-\$1-\$2.txt"
for t in $cpu_types; do
    for s in $cpu_steps; do
        for order in reverse $([ "$t" = int ] && echo in-order); do
            out=$cpu_log/$t-$s-$order
            [ -f "$out.txt" ] && [ ! -s "$out.txt" ]
            result "cpu: $s --check n <= $cpu_max_n ($t, $order)" $? "$(head -c 300 "$out.txt")"
        done
    done
done

section cpu-faults
# cpu_fault NAME STEP EXPECT [PATCH]: a copy of STEP's file with lab/broken's PATCH (the logic ones), or
# for step 2 its tree's barrier deleted, built for the CPU: the run must fail, saying EXPECT.
cpu_fault() {
    local dir=build/cpu/fixtures/$1 out
    if [ ! -f "$2/reduce.cu" ] || [ ! -f "${4:-$2/reduce.cu}" ]; then
        skip "cpu: $1 rejected on the CPU" "its step or lab/broken is not here (a course's handout)"; return
    fi
    rm -rf "$dir" && mkdir -p "$dir" && cp "$2/reduce.cu" "$dir/"
    if [ -n "${4:-}" ]; then patch -s -d "$dir" -p1 < "$4"
    else awk '/__syncthreads\(\);/ && ++n == 2 { next } { print }' "$2/reduce.cu" > "$dir/reduce.cu"; fi
    make -s --no-print-directory -C cpu TYPE=int STEPS="$dir" > "$cpu_log/fixtures/$1.txt" 2>&1 ||
        { fail "cpu: $1 rejected on the CPU" "it did not build: $(grep -m1 error "$cpu_log/fixtures/$1.txt")"; return; }
    out=$(cpu_check "build/cpu/int/$dir/reduce" reverse)
    [[ $out == *"$3"* ]]
    result "cpu: $1 rejected on the CPU ($3)" $? "the run said: ${out:-nothing wrong}"
}
cpu_step() { for s in $cpu_steps; do [[ $s == step$1_* ]] && echo "$s"; done; }
if [ "$type" = int ]; then
    cpu_fault step2_no_tree_barrier "$(cpu_step 2)" "RACE step2_sequential block"
    # each says what its patch expects (lab-check's hint), or a failed size; no_syncwarp a race
    for f in step3_no_tail step4_check_patterns step4_no_syncwarp step5_half_sampled step8_no_tail step11_no_ticket_reset; do
        want=$(sed -n 's/^# expect: \(hint: [a-z ]*\)$/\1/p' "lab/broken/$f.patch" 2> /dev/null)
        [ "$f" != step4_no_syncwarp ] || want="RACE step4_unroll_warp block"
        cpu_fault "$f" "$(cpu_step "$(sed -n 's/^# step: //p' "lab/broken/$f.patch" 2> /dev/null)")" "${want:-FAILED n=}" "lab/broken/$f.patch"
    done
fi
skip "cpu: lab/broken's step6_int_index, step6_timed_differs, step8_cached_result, step3_never_ends, step14_chunks_by_grid on the CPU" \
     "they need 2^31+5 elements, timed runs or the same-bits check on a GPU; lab-check's own fixtures build_error and calls_cub need no kernel"

# the pictures atop the steps' READMEs: what make cpu-pictures draws now
if [ "$type" = int ]; then
    rm -rf "$cpu_log/pictures" && mkdir -p "$cpu_log/pictures"
    make -s --no-print-directory -C cpu TYPE=int STEPS="$cpu_steps" PICTURES="$PWD/$cpu_log/pictures" pictures > "$cpu_log/pictures.txt" 2>&1
    for f in "$cpu_log"/pictures/*.svg; do
        cmp -s "$f" "docs/images/${f##*/}"
        result "cpu: docs/images/${f##*/} is what make cpu-pictures draws now" $? "it differs or is missing: run make cpu-pictures and commit it"
    done
    [ -n "$(ls "$cpu_log"/pictures/*.svg 2> /dev/null)" ] || fail "cpu: make cpu-pictures drew nothing" "$(tail -2 "$cpu_log/pictures.txt")"
    # The tree figures a step's README quotes ("at s = N", then "K-way" or "K (active) lanes"
    # before the next "at s", ". " or "; ") are its picture's: its level's K-way, every busy warp's K lanes
    figures=0 wrong=""
    for svg in docs/images/tree-*.svg; do
        step=${svg#docs/images/tree-} && step=${step%.svg}
        [ -f "$step/README.md" ] || continue
        while read -r s figure; do
            figures=$((figures + 1))
            case $figure in *-way) grep -qE ">s = $s: [^<]*; bank conflicts: $figure<" "$svg" ;;
                            *) grep -qE ">s = $s: lanes per warp:( 0)*( ${figure%% *}( 0)*)+;" "$svg" ;; esac || wrong+="$step at s = $s: $figure; "
        done < <(perl -0777 -ne 's/\s+/ /g; while (/\bat s = (\d+)(.*?)(?=\bat s = |[;.] |$)/gi) {
                     my ($s, $text) = ($1, $2); print "$s $1$2\n" while $text =~ /\b(\d+)(-way| (?:active )?lanes?)\b/g }' "$step/README.md")
    done
    [ "$figures" -gt 0 ] && [ -z "$wrong" ]
    result "cpu: the tree figures steps' READMEs quote ($figures) are their pictures'" $? "not the picture's: ${wrong%; }"
fi

# lab-check without a GPU: a wrong copy of step 3 fails on the CPU, naming n = 1 (a right one,
# lab/tests.sh's start copy, passes there and exits 3: its time needs a GPU)
if [ -z "${gpu-}" ] && [ "$type" = int ] && [ -f lab/broken/step3_no_tail.patch ]; then
    section cpu-lab
    cpu_lab=build/cpu/lab
    LAB_DIR=$cpu_lab lab/lab.sh broken lab/broken/step3_no_tail.patch > "$cpu_log/lab.txt" 2>&1
    LAB_DIR=$cpu_lab LAB_TYPES=int lab/lab.sh check 3 > "$cpu_log/lab-wrong.txt" 2>&1
    [ $? = 1 ] && grep -q '^FAIL int n=1, the first size that fails' "$cpu_log/lab-wrong.txt"
    result "cpu: lab-check without a GPU fails step 3's no_tail copy on the CPU at n = 1 (exit 1)" $? "$(tail -3 "$cpu_log/lab-wrong.txt")"
fi
