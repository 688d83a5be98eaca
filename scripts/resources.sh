#!/usr/bin/env bash
# make resources (what: its help line; why: common/resources.h). On a GPU every figure is the
# program's own (--resources); without one, registers and shared memory are the compiler's for
# the built architecture (SM=90: an H100's), a line says the rest needs a GPU; kernel=library: a row says so.
# Exit 1 when a program or build failed. TYPE, SUFFIX, DEVICE as make resources gives them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/gpus.sh   # usage
type=${TYPE:-int} suffix=${SUFFIX-} device=${DEVICE:-0}
[ $# -gt 0 ] || usage "scripts/resources.sh PROGRAM_DIR... (or: make resources)"

# field KEY TEXT: the value of the first KEY=value line of TEXT
field() { awk -v key="$1" 'index($0, key "=") == 1 { print substr($0, length(key) + 2); exit }' <<< "$2"; }

# ptxas_figures DIR: "ARCH REGISTERS SHARED" of the one kernel in ptxas's report of DIR's
# kernel file (shared 0 when ptxas names no smem). Each line must be of a form it knows, else
# it fails naming the line (a loud error, never a wrong figure), as without exactly one kernel.
ptxas_figures() {
    local report
    report=$(make --no-print-directory -s -C "$1" TYPE="$type" resource-usage) || return 1
    awk -v dir="$1" '
        function unknown() {
            printf "make resources: ptxas said, for %s, a line of a form this script does not know: %s\n", dir, line > "/dev/stderr"
            failed = 1; exit 1
        }
        { line = $0 }
        /^  PTXAS / { next }   # step.mk saying what it compiles
        /^ptxas info *: ([0-9]+ bytes gmem(, [0-9]+ bytes cmem\[[0-9]+\])*|Function properties for [^ ]+|Compile time = .*)$/ { next }
        /^ +[0-9]+ bytes stack frame, [0-9]+ bytes spill stores, [0-9]+ bytes spill loads$/ { next }
        /^ptxas info *: Compiling entry function \047[^\047]+\047 for \047sm_[0-9]+[a-z]*\047$/ {
            kernels++; split($0, q, "\047"); arch = q[4]; next
        }
        /^ptxas info *: Used [0-9]+ registers(, .*)?$/ {
            sub(/^ptxas info *: /, ""); n = split($0, items, ", ")
            for (i = 1; i <= n; i++) {
                if (items[i] ~ /^Used [0-9]+ registers$/) { split(items[i], w, " "); registers = w[2] }
                else if (items[i] ~ /^[0-9]+ bytes smem$/) shared = items[i] + 0
                else if (items[i] !~ /^(used [0-9]+ barriers|[0-9]+ bytes cmem\[[0-9]+\])$/) unknown()
            }
            next
        }
        { unknown() }
        END {
            if (failed) exit 1
            if (kernels != 1 || registers == "") {
                printf "make resources: ptxas reported %d kernels for %s, expected one with its registers\n", kernels, dir > "/dev/stderr"
                exit 1
            }
            print arch, registers, shared + 0
        }' <<< "$report"
}

errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
# the rows, "NAME|THREADS|REGISTERS|SHARED|BLOCKS/SM|OCCUPANCY|LIMITED BY" (the last three on
# a GPU only), or "NAME" alone for a program whose kernels are a library's
rows=() header="" status=0 mode=""   # mode: gpu or compiler, from the first program with a kernel of its own
# the compiler's reports made side by side first (a failure is said where its row is made)
printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} make --no-print-directory -s -C {} TYPE="$type" resource-usage \
    > /dev/null 2>&1 || true
for dir in "$@"; do
    program=./$dir/reduce$suffix
    described=$("$program" --describe) ||
        { echo "make resources: $program --describe failed; is it built (make TYPE=$type)?" >&2; exit 1; }
    row="$(field name "$described")|$(field threads "$described")"
    [ "$(field kernel "$described")" != library ] || { rows+=("${row%|*}"); continue; }
    if [ "$mode" != compiler ]; then
        code=0
        answer=$("$program" --resources --device "$device" 2> "$errors") || code=$?
        if [ "$code" -eq 0 ]; then
            mode=gpu
            limit=$(field limited_by "$answer")
            rows+=("$row|$(field registers "$answer")|$(field shared_bytes "$answer")|$(field blocks_per_sm "$answer")|$(
                field occupancy_pct "$answer")%|${limit//,/, }")
            [ -n "$header" ] || header="GPU $device: $(field device "$answer") ($(field arch "$answer"),\
 $(field sm_count "$answer") SMs; per SM at most $(field max_threads_per_sm "$answer") threads,\
 $(field max_blocks_per_sm "$answer") blocks, $(field registers_per_sm "$answer") registers,\
 $(($(field shared_bytes_per_sm "$answer") / 1024)) KiB shared memory), TYPE=$type"
            continue
        elif [ "$code" -ne 3 ] || [ "$mode" = gpu ]; then
            echo "make resources: $program --resources failed (exit $code): $(head -c 300 "$errors")" >&2
            exit 1
        fi
        mode=compiler   # exit 3: no GPU here
    fi
    figures=$(ptxas_figures "$dir") || { status=1; rows+=("$row|?|?"); continue; }
    read -r arch reg smem <<< "$figures"
    [ -n "$header" ] || header="no GPU: compiler figures (ptxas, $arch), TYPE=$type"
    rows+=("$row|$reg|$smem")
done

width=7
for row in "${rows[@]}"; do name=${row%%|*}; [ "${#name}" -gt "$width" ] && width=${#name}; done
# line NAME THREADS REGISTERS SHARED [BLOCKS/SM OCCUPANCY LIMITED-BY]: a line of the table
line() {
    if [ "$mode" = gpu ]; then printf "%-${width}s  %7s  %9s  %14s  %9s  %9s  %s\n" "$@"
    else printf "%-${width}s  %7s  %9s  %14s\n" "${@:1:4}"; fi
}
echo "${header:-no program with a kernel of its own among: $*}"
line program threads registers "shared (bytes)" blocks/SM occupancy "limited by"
for row in "${rows[@]}"; do
    IFS='|' read -r name threads reg smem blocks occupancy limits <<< "$row"
    if [ "$name" = "$row" ]; then printf "%-${width}s  %s\n" "$name" "its kernels are the library's: not reported"
    else line "$name" "$threads" "$reg" "$smem" "$blocks" "$occupancy" "$limits"; fi
done
if [ "$mode" = gpu ]; then
    echo "registers and shared memory (static, per block): cudaFuncGetAttributes(); blocks/SM: the occupancy API"
    echo "(no dynamic shared memory, as launched); occupancy = blocks/SM x threads / the SM's most threads;"
    echo "limited by: every SM limit that count reaches (cuda_occupancy.h; '-' where it disagrees with the API)"
else
    echo "resident blocks and occupancy need a GPU"
fi
exit "$status"
