#!/usr/bin/env bash
# make diff STEP=k (in colour on a terminal) and make diffs (results/diffs/stepK.diff): what
# step k changed, against the file before_of names.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # step_dir: the folders of the Makefile's list; usage
# the steps: 0, 1, ... up to the highest number in the list (there may be gaps)
last=$(program_dirs | sed -n 's:^step\([0-9][0-9]*\)_[^/]*$:\1:p' | sort -n | tail -1)
count=$((${last:--1} + 1))

# kernel file of step k, or nothing
kernel_of() {
    local dir files
    dir=$(step_dir "$1") || return 0
    files=("$dir"/*.cu)
    if [ -f "${files[0]}" ]; then echo "${files[0]}"; fi
}
# what step k's file is compared with: the nearest step's below k of the same name (step
# 14's reduce.cu, step 11's), or /dev/null for a step that includes its predecessor's file
# (step 12): its file is its whole diff
before_of() {
    local mine before j
    mine=$(kernel_of "$1")
    for ((j = $1 - 1; j >= 0; j--)); do
        before=$(kernel_of "$j")
        if [ -n "$before" ] && [ "$(basename "$mine")" = "$(basename "$before")" ]; then echo "$before"; return 0; fi
    done
    echo /dev/null
}

case ${1:-} in
show)
    k=${2:-}
    [ "$count" -gt 1 ] || { echo "make diff: this tree holds step 0 alone, so no step's change to show (a course's handout leaves out its exercises' steps)" >&2; exit 2; }
    { [[ $k =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ -n "$(kernel_of "$k")" ]; } ||
        { echo "make diff: give STEP=k with k from 1 to $((count - 1)) (the steps here; a course's handout leaves out its exercises' steps), e.g. make diff STEP=1" >&2; exit 2; }
    colour=never
    [ -t 1 ] && colour=always
    # diff exits 1 when the files differ, as consecutive steps do: only 2 is an error
    diff -u --color="$colour" "$(before_of "$k")" "$(kernel_of "$k")" || [ $? -le 1 ] ;;
all)
    mkdir -p results/diffs
    for ((k = 1; k < count; k++)); do
        [ -n "$(kernel_of "$k")" ] || continue
        out=results/diffs/step$k.diff
        diff -u "$(before_of "$k")" "$(kernel_of "$k")" > "$out" || [ $? -le 1 ]
        # removed plus added lines, counted as tests/run.sh counts them
        changed=$(diff "$(before_of "$k")" "$(kernel_of "$k")" | grep -c '^[<>]' || true)
        echo "$out: $changed lines changed"
    done ;;
*)
    usage "scripts/diff_steps.sh show K | all" ;;
esac
