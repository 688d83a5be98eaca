#!/usr/bin/env bash
# The classroom lab: a student turns step k-1 into step k in a copy of their own, and one
# command says whether it is right, where it fails, and how fast it is next to ours.
#
#   scripts/lab.sh start K    make lab STEP=K: lab/stepK_name/ (git-ignored) holds step
#                             k-1's kernel, the exercise at the top and TODO(step K)
#                             comments where step k differs; FORCE=1 replaces a copy
#   scripts/lab.sh check K    make lab-check STEP=K: build for LAB_TYPES (int float double),
#                             --check the sizes that break reductions, memcheck and
#                             racecheck, then time step k-1, the copy and our step k
#   scripts/lab.sh status     make lab-status: started / correct / gain reached, per step
#
# One source for each text, so they cannot drift apart: the exercise is the "## Exercise"
# section of step k's README, copied into the copy's header; the TODOs are computed from
# the diff of step k-1's kernel against step k's (scripts/lab_todos.awk).
#
# Variables: LAB_DIR (default lab; tests use a temporary folder), FORCE=1, LAB_TYPES,
# LAB_SIZES (replaces the size list), LAB_HUGE=0|1 (2^31+5 for the 64-bit steps; default 1),
# LAB_SANITIZE=0|1 (default 1), N and REPS (timing, default 2^26 and 20), PROFILE=1 (ncu),
# DEVICE, SANITIZER, NCU.
# Exit codes: 0 done (check: correct), 1 wrong (or a build failed), 2 bad input, 3 no GPU.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
lab_dir=${LAB_DIR:-lab}
lab_dir=${lab_dir%/}
suffix_of() { [ "$1" = int ] && echo "" || echo "_$1"; }

# kernel directory of step k (step1_strided), or nothing
step_dir() {
    local dirs=("step$1"_*/)
    if [ -d "${dirs[0]}" ]; then echo "${dirs[0]%/}"; fi
}
last_step=0
for d in step*_*/; do
    [ -f "$d/reduce.cu" ] || continue   # step 12 (multi-GPU, NCCL) is no lab exercise
    k=${d#step}; k=${k%%_*}
    if [[ $k =~ ^[0-9]+$ ]] && [ "$k" -gt "$last_step" ]; then last_step=$k; fi
done

# valid_step TARGET K: prints K if it is a lab step (1..last), else one line and exit 2
valid_step() {
    local target=$1 k=${2:-}
    if ! [[ $k =~ ^[0-9]+$ ]] || [ "$k" -lt 1 ] || [ "$k" -gt "$last_step" ] || [ -z "$(step_dir "$k")" ]; then
        echo "make $target: give STEP=k with k from 1 to $last_step (the step you write), e.g. make $target STEP=3" >&2
        exit 2
    fi
    echo "$((10#$k))"
}

# The "## Exercise" section of a README (scripts/lab_exercise.awk). Fails if there is none.
exercise_text() {
    [ -f "$1" ] && awk -f scripts/lab_exercise.awk "$1"
}

# The STEP label lines of a kernel file made the lab copy's: number k, name lab/DIR,
# title "... (yours)", step k's idea. Applied to both kernels, so the diff has no hunk there.
relabel() {
    local file=$1 k=$2 dir=$3 title=$4 idea=$5
    awk -v k="$k" -v dir="$dir" -v title="$title" -v idea="$idea" '
        step == 1 { printf "    %d, \"lab/%s\", \"%s (yours)\", \"your lab copy of step %d\",\n", k, dir, title, k; step = 2; next }
        step == 2 { printf "    \"%s\",\n", idea; step = 3; next }
        /^extern "C" const step_info STEP = \{/ { step = 1 }
        { print }
        END { exit step != 3 }' "$file"
}

# The kernel file without its first comment block (the @file header).
strip_header() {
    awk 'NR == 1 && /^\/\*\*/ { skip = 1 } skip { if (/\*\//) skip = 0; next } { print }' "$1"
}

# step_field FILE LINE N: the N-th quoted string of the LINE-th line after "STEP = {":
# line 1 holds name (1), title (2) and source (3), line 2 the idea (1)
step_field() {
    awk -v line="$2" -v n="$3" -F'"' '/^extern "C" const step_info STEP = \{/ { at = NR }
        at && NR == at + line { print $(2 * n); exit }' "$1"
}

start() {
    local k cur prev dest
    k=$(valid_step lab "${1:-}") || exit 2
    cur=$(step_dir "$k")
    prev=$(step_dir $((k - 1)))
    dest=$lab_dir/$cur
    if [ -e "$dest" ] && [ "${FORCE:-0}" != 1 ]; then
        echo "make lab: $dest already exists (your work); make lab-check STEP=$k checks it, FORCE=1 replaces it with a fresh copy" >&2
        exit 2
    fi
    local exercise title idea work
    if ! exercise=$(exercise_text "$cur/README.md"); then
        echo "make lab: $cur/README.md has no '## Exercise' section to copy into the exercise" >&2
        exit 1
    fi
    title=$(step_field "$cur/reduce.cu" 1 2)
    idea=$(step_field "$cur/reduce.cu" 2 1)
    work=$(mktemp -d) || exit 1
    # both kernels without the header and with the same label, then their diff
    if ! relabel "$prev/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/a-label.cu" ||
       ! relabel "$cur/reduce.cu" "$k" "$cur" "$title" "$idea" > "$work/b-label.cu" ||
       ! strip_header "$work/a-label.cu" > "$work/a.cu" || ! strip_header "$work/b-label.cu" > "$work/b.cu"; then
        echo "make lab: cannot find the STEP metadata in $prev/reduce.cu or $cur/reduce.cu" >&2
        rm -rf "$work"
        exit 1
    fi
    diff "$work/a.cu" "$work/b.cu" > "$work/diff" || [ $? -le 1 ]   # 1: they differ, as they should
    if ! {
        echo "/**"
        echo " * Lab, step $k: $title. Your copy: $dest/reduce.cu"
        echo " *"
        echo " * This is step $((k - 1))'s kernel ($prev/reduce.cu): correct, and slower than step $k."
        echo " * Turn it into step $k. The TODO(step $k, ...) comments below mark the places where our"
        echo " * step $k differs from it; the exercise, from $cur/README.md, says what to do."
        echo " *"
        printf '%s\n' "$exercise" | sed -e 's#\*/#*\\/#g' -e 's/^/ * /' -e 's/ *$//'
        echo " *"
        echo " * Check it: make lab-check STEP=$k    (correctness, sanitizers, time next to ours)"
        echo " * Afterwards, our answer: make diff STEP=$k, and lab/ANSWERS.md"
        echo " */"
        awk -v step="$k" -f scripts/lab_todos.awk "$work/a.cu" "$work/b.cu" "$work/diff"
    } > "$work/reduce.cu"; then
        echo "make lab: scripts/lab_todos.awk could not place the TODOs (its message is above)" >&2
        rm -rf "$work"
        exit 1
    fi
    local todos
    todos=$(grep -c "// TODO(step $k," "$work/reduce.cu" || true)
    if [ "$todos" -eq 0 ]; then
        echo "make lab: no code differs between $prev/reduce.cu and $cur/reduce.cu: nothing to do" >&2
        rm -rf "$work"
        exit 1
    fi
    local common
    common=$(realpath -m --relative-to="$dest" common/step.mk)
    rm -rf "$dest"
    if ! mkdir -p "$dest" || ! cp "$work/reduce.cu" "$dest/reduce.cu"; then
        echo "make lab: cannot write $dest" >&2
        rm -rf "$work"
        exit 1
    fi
    printf '# Your lab copy of step %d; builds like a step (see %s).\ninclude %s\n' "$k" "$common" "$common" > "$dest/Makefile"
    rm -rf "$work"
    echo "make lab: $dest/reduce.cu is step $((k - 1))'s kernel with the exercise at the top and $todos TODO(step $k) comments"
    echo "next: edit it, then make lab-check STEP=$k"
}

# ------------------------------------------------------------------ check
# The metric each step's README says its idea moves: "title|ncu metric" (make profile's names).
metric_of() {
    case $1 in
        2) echo "shared-memory load bank conflicts|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" ;;
        4) echo "barrier stall (cycles per instruction)|smsp__average_warp_latency_issue_stalled_barrier.ratio" ;;
        9) echo "DRAM throughput (% of peak)|dram__throughput.avg.pct_of_peak_sustained_elapsed" ;;
        10) echo "waves per SM|launch__waves_per_multiprocessor" ;;
        11) echo "kernel launches per sum|gpu__time_duration.sum" ;;
        *) echo "instructions executed|smsp__inst_executed.sum" ;;
    esac
}

# find_tool NAME VARIABLE: the tool from $VARIABLE, PATH or the toolkit, or nothing
find_tool() {
    local name=$1 given=$2 candidate
    for candidate in "$given" "$name" "${CUDA_PATH:-/usr/local/cuda}/bin/$name" /opt/nvidia/nsight-compute/*/"$name"; do
        [ -n "$candidate" ] && command -v "$candidate" > /dev/null 2>&1 && { command -v "$candidate"; return 0; }
    done
    return 1
}

# describe PROGRAM KEY: one field of PROGRAM --describe
describe() { "$1" --describe 2>/dev/null | sed -n "s/^$2=//p" || true; }

# check_sizes PROGRAM TYPE SIZE...: --check; on a failure prints the first failing case
# with its diagnosis and returns 1; returns 3 without a GPU, 2 when the size cannot be
# had (memory), 4 on a CUDA error.
check_sizes() {
    local program=$1 type=$2 list status=0 first
    shift 2
    list=$(IFS=,; echo "$*")
    "$program" --check "$list" --device "${DEVICE:-0}" > "$log/check.txt" 2> "$log/check-err.txt" || status=$?
    [ "$status" -eq 0 ] && return 0
    [ "$status" -eq 3 ] && return 3
    if [ "$status" -eq 2 ]; then
        cat "$log/check-err.txt" > "$log/skip.txt"
        return 2
    fi
    first=$(sed -n 's/^check n=\([0-9]*\): FAIL.*/\1/p' "$log/check.txt" | head -1)
    if [ -z "$first" ]; then
        first=$(printf '%s\n' "$@" | while read -r n; do grep -q "^check n=$n: PASS" "$log/check.txt" || { echo "$n"; break; }; done)
        echo "FAIL $type n=$first: the program stopped (exit $status):"
        sed 's/^/  /' "$log/check-err.txt" | head -5
        echo "  hint: a CUDA error in a check is most often a read or write out of bounds; memcheck says where:"
        echo "  ${SANITIZER:-compute-sanitizer} --tool memcheck $program -n $first -r 1 --warmup 0"
        return 4
    fi
    echo "FAIL $type n=$first, the first size that fails:"
    # the FAILED lines and the hint of that size: everything up to its hint line
    awk '{ sub(/^[^:]*: /, ""); print "  " $0; if ($0 ~ /^hint: /) exit }' "$log/check-err.txt"
    echo "  reproduce: $program --check $first"
    return 1
}

# sanitize PROGRAM: memcheck and racecheck at two small sizes; 1 with the finding
sanitize() {
    local program=$1 sanitizer tool n tool_flags
    if ! sanitizer=$(find_tool compute-sanitizer "${SANITIZER:-}"); then
        echo "memcheck and racecheck: skipped, compute-sanitizer not found (it ships with the CUDA Toolkit; SANITIZER=/path/to/it)"
        return 0
    fi
    for tool in memcheck racecheck; do
        tool_flags=()
        [ "$tool" = racecheck ] && tool_flags=(--racecheck-report all)
        for n in 1000 4099; do
            if ! "$sanitizer" --tool "$tool" "${tool_flags[@]}" --error-exitcode 1 "$program" -n "$n" -r 2 --warmup 0 --hot \
                    --no-gate --quiet --device "${DEVICE:-0}" > "$log/$tool-$n.txt" 2>&1; then
                echo "FAIL $tool n=$n: $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/$tool-$n.txt")"
                grep -m4 -E 'Race|hazard|Invalid|Warning|Error|at .*reduce' "$log/$tool-$n.txt" | grep -v SUMMARY |
                    sed 's/^/  /' || true
                if [ "$tool" = racecheck ]; then
                    echo "  hint: racecheck: a race: two threads touch the same shared-memory word with no barrier between"
                    echo "  them; since Volta a warp's lanes are not in lockstep, so __syncwarp() must separate a read from"
                    echo "  the write that follows (and __syncthreads() across warps). The sum may still be right: the bug is latent."
                else
                    echo "  hint: memcheck: an access out of bounds: an index past the end of the input or of shared memory"
                    echo "  (a missing or off-by-one bounds test, e.g. on a thread's second load)."
                fi
                echo "  full report: $log/$tool-$n.txt"
                return 1
            fi
        done
    done
    echo "memcheck and racecheck: clean at n = 1000 and 4099"
    sanitized=", memcheck and racecheck clean"
}

# profile_one PROGRAM METRIC: "VALUE LAUNCHES" of the first kernel, from ncu
profile_one() {
    local ncu=$1 program=$2 metric=$3
    "$ncu" --clock-control none --metrics "$metric" --csv --page raw "$program" -n 2^24 -r 1 --warmup 0 --hot \
        --no-gate --quiet --device "${DEVICE:-0}" > "$log/ncu.txt" 2>&1 || return 1
    grep -E '^"' "$log/ncu.txt" | awk -v metric="$metric" -F'","' '
        NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); if ($i == metric) column = i } }
        NR == 3 { v = $column; gsub(/[",]/, "", v); first = v }
        NR >= 3 { launches++ }
        END { if (column == "" || launches == 0) exit 1; print first, launches }'
}

check() {
    local k cur prev dest types t
    k=$(valid_step lab-check "${1:-}") || exit 2
    cur=$(step_dir "$k")
    prev=$(step_dir $((k - 1)))
    dest=$lab_dir/$cur
    local type_list
    read -ra type_list <<< "${LAB_TYPES:-int float double}"
    types=${type_list[*]}
    [ -n "$types" ] || types="int float double"
    for t in $types; do
        case $t in int|float|double) ;; *)
            echo "make lab-check: LAB_TYPES takes int, float and double (got '$t'), e.g. LAB_TYPES=int" >&2
            exit 2 ;;
        esac
    done
    local size size_list custom_sizes=()
    read -ra size_list <<< "${LAB_SIZES:-}"
    for size in "${size_list[@]}"; do
        if ! [[ $size =~ ^[0-9]+$|^2\^[0-9]+([+-][0-9]+)?$ ]] || [ "$((${size/^/**}))" -lt 1 ]; then
            echo "make lab-check: LAB_SIZES takes sizes >= 1 such as 1000 or 2^20+3 (got '$size')" >&2
            exit 2
        fi
        custom_sizes+=("$((${size/^/**}))")
    done
    if [ ! -f "$dest/reduce.cu" ] || [ ! -f "$dest/Makefile" ]; then
        echo "make lab-check: no copy of step $k in $dest yet; make lab STEP=$k starts one" >&2
        exit 2
    fi
    log=$dest/build/lab-check
    rm -f "$dest/.lab-check"   # the pass marker: rewritten only when everything passes
    mkdir -p "$log" || exit 1

    echo "== build $dest for $types"
    for t in $types; do
        if ! make -s --no-print-directory -C "$dest" TYPE="$t"; then
            echo "FAIL build $t: your copy does not compile (the compiler's messages are above)"
            exit 1
        fi
    done
    local first_type program threads max_n ours_max
    first_type=${types%% *}
    program=$dest/reduce$(suffix_of "$first_type")
    threads=$(describe "$program" threads)
    max_n=$(describe "$program" max_n)
    if ! [[ $threads =~ ^[0-9]+$ ]] || ! [[ $max_n =~ ^[0-9]+$ ]]; then
        echo "FAIL $program --describe did not answer; is the STEP metadata intact?"
        exit 1
    fi

    local probe=0
    "$program" -n 1 -r 1 --warmup 0 --quiet --device "${DEVICE:-0}" > "$log/probe.txt" 2>&1 || probe=$?
    if [ "$probe" -eq 3 ]; then
        echo "lab-check: no GPU here: $dest builds for $types; the checks and the timing need a CUDA GPU"
        exit 3
    fi

    local sizes=("${custom_sizes[@]}")
    if [ ${#sizes[@]} -eq 0 ]; then
        sizes=(1 2 3 31 32 33 $((threads - 1)) "$threads" $((threads + 1)) $((2 * threads - 1)) $((2 * threads))
               $((2 * threads + 1)) 4099 $((16 * threads + 1)) 65537 $((2**20 + 3)) $((2**24 + 1)))
    fi
    mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | sort -nu)
    echo "== correctness: ${#sizes[@]} sizes (${sizes[*]}), random and one-hot data, each reduced twice"
    local status
    for t in $types; do
        status=0
        check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "${sizes[@]}" || status=$?
        if [ "$status" -eq 3 ]; then
            echo "lab-check: no GPU here: $dest builds for $types; the checks and the timing need a CUDA GPU"
            exit 3
        fi
        [ "$status" -eq 2 ] && { echo "FAIL $t: $(head -1 "$log/skip.txt")"; exit 1; }
        [ "$status" -ne 0 ] && exit 1
        echo "PASS $t"
    done
    local huge=2147483653
    if [ "${LAB_HUGE:-1}" != 0 ]; then
        make -s --no-print-directory -C "$cur" TYPE="$first_type" || exit 1
        ours_max=$(describe "$cur/reduce$(suffix_of "$first_type")" max_n)
        if [ "$max_n" -ge "$huge" ]; then
            for t in $types; do
                status=0
                check_sizes "$dest/reduce$(suffix_of "$t")" "$t" "$huge" || status=$?
                case $status in
                    0) echo "PASS $t n=2^31+5" ;;
                    2) echo "skipped $t n=2^31+5: $(head -1 "$log/skip.txt" | sed 's/^[^:]*: //')" ;;
                    *) exit 1 ;;
                esac
            done
        elif [ "${ours_max:-0}" -ge "$huge" ]; then
            echo "note: n = 2^31+5 not checked: your STEP.max_n is $max_n (32-bit indices); our step $k takes any n (MAX_N_64BIT)"
        fi
    fi
    sanitized=""
    if [ "${LAB_SANITIZE:-1}" != 0 ]; then
        sanitize "$program" || exit 1
    fi
    echo "correct: $types, random and one-hot data$sanitized"
    echo "correct" > "$dest/.lab-check"

    echo "== time: n = ${N:-2^26} $first_type, median of ${REPS:-20} runs, L2 flushed"
    local raw=$log/time.csv name names=()
    rm -f "$raw"
    for dir in "$prev" "$dest" "$cur"; do
        [ "$dir" = "$dest" ] || make -s --no-print-directory -C "$dir" TYPE="$first_type" || exit 1
        name=$dir/reduce$(suffix_of "$first_type")
        names+=("$(describe "$name" name)")
        "$name" -n "${N:-2^26}" -r "${REPS:-20}" --device "${DEVICE:-0}" --quiet --csv "$raw" || {
            echo "FAIL timing run of $name (exit $?)"; exit 1; }
    done
    if ! build/tools/report lab "$raw" "$k" "${names[@]}" | tee "$log/time.txt"; then
        rm -f "$dest/.lab-check"
        echo "FAIL timing: a row of the table above is missing or failed"
        exit 1
    fi
    local verdict
    verdict=$(sed -n 's/^verdict: \([^:]*\):.*/\1/p' "$log/time.txt")
    echo "correct, ${verdict:-no verdict}" > "$dest/.lab-check"

    local spec title metric ncu yours ours
    spec=$(metric_of "$k")
    title=${spec%%|*}
    metric=${spec#*|}
    if [ "${PROFILE:-0}" != 1 ]; then
        echo "make lab-check STEP=$k PROFILE=1 adds Nsight Compute's $title for yours and ours"
    elif ! ncu=$(find_tool ncu "${NCU:-}"); then
        echo "PROFILE=1: Nsight Compute (ncu) not found; it ships with the CUDA Toolkit (NCU=/path/to/ncu)"
    elif ! yours=$(profile_one "$ncu" "$dest/reduce$(suffix_of "$first_type")" "$metric") ||
         ! ours=$(profile_one "$ncu" "$cur/reduce$(suffix_of "$first_type")" "$metric"); then
        echo "PROFILE=1: ncu failed: $(grep -m1 -E 'ERR|rror' "$log/ncu.txt")"
    elif [ "$k" = 11 ]; then
        echo "ncu, n = 2^24: $title: yours ${yours#* }, ours ${ours#* }"
    else
        echo "ncu, n = 2^24, first kernel: $title: yours ${yours% *}, ours ${ours% *} (kernel launches per sum: yours ${yours#* }, ours ${ours#* })"
    fi
    return 0
}

# ------------------------------------------------------------------ status
status() {
    local k cur dest state started=0 correct=0 reached=0
    printf '%-5s %-40s %s\n' step "your copy" status
    for ((k = 1; k <= last_step; k++)); do
        cur=$(step_dir "$k")
        dest=$lab_dir/$cur
        if [ ! -f "$dest/reduce.cu" ]; then
            state="not started (make lab STEP=$k)"
        else
            started=$((started + 1))
            if [ -f "$dest/.lab-check" ] && ! [ "$dest/reduce.cu" -nt "$dest/.lab-check" ]; then
                state="checked: $(head -1 "$dest/.lab-check")"
                correct=$((correct + 1))
                case $state in *"gain reached"*|*"can't tell"*) reached=$((reached + 1)) ;; esac
            elif [ -f "$dest/.lab-check" ]; then
                state="started, changed since its last lab-check passed (make lab-check STEP=$k)"
            else
                state="started, not yet passed (make lab-check STEP=$k)"
            fi
        fi
        printf '%-5s %-40s %s\n' "$k" "$dest" "$state"
    done
    echo "$started of $last_step started, $correct correct, $reached with the step's gain (or correct where time can't tell)"
}

case ${1:-} in
    status) status ;;
    start) start "${2:-}" ;;
    check) check "${2:-}" ;;
    *) echo "usage: scripts/lab.sh start K | check K | status" >&2; exit 2 ;;
esac
