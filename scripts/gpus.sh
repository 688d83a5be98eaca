# shellcheck shell=bash
# The shared library of the tools and tests, sourced by each (no `set`: the sourcing script's options
# hold). nvidia-smi (NVIDIA_SMI: tests give a stand-in) is read from its CSV and XML, never its tables.
NVIDIA_SMI=${NVIDIA_SMI:-nvidia-smi}
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# make_var NAME: the top Makefile's NAME as make passed it (even empty), else asked of make
make_var() {
    if [ -n "${!1+set}" ]; then printf '%s\n' "${!1}"
    else make -s --no-print-directory -C "$REPO_ROOT" "print-$1" 2> /dev/null; fi
}
# program_dirs: the program folders, one a line (PROGRAM_DIRS; empty or unset: asked of make)
program_dirs() {
    local dirs
    read -ra dirs <<< "${PROGRAM_DIRS:-$(unset PROGRAM_DIRS; make_var PROGRAM_DIRS)}"
    [ ${#dirs[@]} -eq 0 ] || printf '%s\n' "${dirs[@]}"
}
# step_dir K: the folder of step K (stepK_NAME among program_dirs), or nothing and status 1
step_dir() { program_dirs | awk -v step="step$1_" 'index($0, step) == 1 && !/\// && !found++ { print } END { exit !found }'; }

# describe PROGRAM KEY: one field of PROGRAM --describe (common/harness.c lists them), or nothing
describe() { "$1" --describe 2>/dev/null | sed -n "s/^$2=//p" || true; }
# references PROGRAM...: run-all's and sweep's "vs CUB" (the report takes the fastest at each
# size): the names of those that are no step (number=-1) in determinism=run_to_run, or "-"
references() {
    local program list=""
    for program in "$@"; do
        [ "$(describe "$program" number)" = -1 ] && [ "$(describe "$program" determinism)" = run_to_run ] &&
            list+="${list:+,}$(describe "$program" name)"
    done
    echo "${list:--}"
}
usage() { echo "usage: $*" >&2; exit 2; }

# nvcc_path: the nvcc that builds (NVCC, else CUDA_PATH's, as common/config.mk says)
nvcc_path() { echo "${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}"; }
# nvcc_release: its release, major.minor (13.0), from `nvcc --version`, or nothing
nvcc_release() {
    { "$(nvcc_path)" --version 2> /dev/null || true; } |
        sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -1
}
# nvcc_archs: the real architectures it compiles for (sm_75 ...), oldest first, one a line
nvcc_archs() {
    { "$(nvcc_path)" --list-gpu-code 2> /dev/null || true; } | grep -E '^sm_[0-9]+$' | sort -V || true
}

# listed_gpus: how many GPUs the driver has (0 without one; || true: grep -c fails on 0)
listed_gpus() {
    { "$NVIDIA_SMI" --query-gpu=index --format=csv,noheader 2>/dev/null || true; } | grep -c '[0-9]' || true
}
# visible_gpus: how many GPUs CUDA shows a program (CUDA_VISIBLE_DEVICES when set, else all)
visible_gpus() {
    if [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[0-9]' || true
    else listed_gpus; fi
}
# gpu_counts ALL: 1 2 4 ... below ALL, then ALL
gpu_counts() { awk -v all="$1" 'BEGIN { for (g = 1; g < all; g *= 2) printf "%d ", g; print all }'; }

# have_libcuda: true if the driver's CUDA library, libcuda.so.1, can be loaded
have_libcuda() {
    local dir ldconfig path=${LD_LIBRARY_PATH:-}
    for dir in ${path//:/ }; do [ -e "$dir/libcuda.so.1" ] && return 0; done
    ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
    # (not a pipe: grep -q stops at the first match, and pipefail would fail on SIGPIPE)
    grep -q 'libcuda\.so\.1 ' < <("$ldconfig" -p 2> /dev/null)
}

# gpu_missing: one line saying why no program can use a GPU here (they would exit 3), or nothing
gpu_missing() {
    local smi driver toolkit
    if [ -n "${CUDA_VISIBLE_DEVICES+x}" ] && [ "$(visible_gpus)" -eq 0 ]; then
        echo "no GPU visible: CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' lets none of this machine's GPUs through; unset it, or give indices that nvidia-smi -L lists"
    elif ! command -v "$NVIDIA_SMI" > /dev/null 2>&1; then
        # a driver without its tool (some containers): let the programs ask CUDA itself
        have_libcuda || echo "no NVIDIA driver: neither nvidia-smi nor libcuda.so.1 was found, so CUDA sees no GPU; run on a machine with an NVIDIA GPU and its driver"
    elif ! smi=$("$NVIDIA_SMI" -q -x 2>&1); then   # its report as XML
        echo "NVIDIA driver not answering: nvidia-smi says \"$(echo "$smi" | head -1)\"; is its kernel module loaded (or the GPU lost)?"
    elif [ "$(listed_gpus)" -eq 0 ]; then
        echo "no GPU: the NVIDIA driver is installed but nvidia-smi -L lists no GPU"
    else
        driver=$(echo "$smi" | sed -n 's:.*<cuda_version>\([0-9][0-9]*\.[0-9][0-9]*\)</cuda_version>.*:\1:p' | head -1)
        toolkit=$(nvcc_release)
        # within a major version a newer toolkit runs on an older driver (minor version compatibility)
        if [ -n "$driver" ] && [ -n "$toolkit" ] && [ "${driver%%.*}" -lt "${toolkit%%.*}" ]; then
            echo "NVIDIA driver too old: it supports CUDA $driver, and the toolkit here is CUDA $toolkit; update the driver, or build with an older toolkit (make CUDA_PATH=...)"
        fi
    fi
}

# find_tool VAR NAME [PLACE...]: the tool to run: $VAR when set (and only it), else NAME on
# PATH, in CUDA_PATH/bin or at a PLACE; status 1 when there is none
find_tool() {
    local candidate
    if [ -n "${!1:-}" ]; then command -v "${!1}"; return; fi
    for candidate in "$2" "${CUDA_PATH:-/usr/local/cuda}/bin/$2" "${@:3}"; do
        command -v "$candidate" 2> /dev/null && return 0
    done
    return 1
}
# need_tool compute-sanitizer|ncu CALLER: the tool, or "CALLER: " what to do on stderr, exit 2
need_tool() {
    local finder=find_sanitizer missing=$SANITIZER_MISSING
    [ "$1" != ncu ] || finder=find_ncu missing=$NCU_MISSING
    "$finder" && return 0
    echo "$2: $missing" >&2
    exit 2
}

# tool_missing TOOL VAR FILE: what to do without TOOL: fix VAR, install the toolkit or its component
tool_missing() {
    local nvcc
    if [ -n "${!2:-}" ]; then
        echo "$1 not found: $2=${!2} is no program; give the path of one, or leave $2 out for the toolkit's"
    elif nvcc=$(command -v "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" || command -v nvcc); then
        echo "$1 not found: the CUDA Toolkit at ${nvcc%/bin/nvcc} has nvcc but not this component; add it with the toolkit's installer or package manager, or set $2=/path/to/$3"
    else
        echo "$1 not found: it ships with the CUDA Toolkit (in \$CUDA_PATH/bin); install the toolkit, or set $2=/path/to/$3"
    fi
}
# shellcheck disable=SC2034  # read by the scripts that source this file
SANITIZER_MISSING=$(tool_missing compute-sanitizer SANITIZER compute-sanitizer)
##= SANITIZER=(compute-sanitizer, on PATH or in CUDA_PATH/bin): the compute-sanitizer of sanitize, race-demo, lab-check
find_sanitizer() { find_tool SANITIZER compute-sanitizer; }
# sanitizer_run TOOL [OPTION...] -- PROGRAM ARG...: PROGRAM ARG under compute-sanitizer's TOOL,
# untimed and quiet. Status 1 on any error or racecheck warning (a warp's lanes' hazards are
# warnings); 2 and one line on stderr without compute-sanitizer.
sanitizer_run() {
    local tool=$1 sanitizer options=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
    shift   # the --
    if ! sanitizer=$(find_sanitizer); then echo "$SANITIZER_MISSING" >&2; return 2; fi
    [ "$tool" = racecheck ] && options+=(--racecheck-report all)
    "$sanitizer" --tool "$tool" "${options[@]}" --error-exitcode 1 "$@" --warmup 0 --hot --no-gate --quiet
}

# shellcheck disable=SC2034  # read by the scripts that source this file
NCU_MISSING=$(tool_missing "Nsight Compute (ncu)" NCU ncu)
##= NCU=(ncu, on PATH, in CUDA_PATH/bin or Nsight Compute's folder): the ncu of make profile and lab-check PROFILE=1
find_ncu() { find_tool NCU ncu /opt/nvidia/nsight-compute/*/ncu; }
