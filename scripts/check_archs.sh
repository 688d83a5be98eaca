#!/usr/bin/env bash
# make check-archs (its help line says what): float and double only at the oldest and the
# newest architecture: the type changes the element, not what an architecture offers. Each
# folder's build does it (make -C DIR check-archs, common/step.mk), or says why it cannot here
# (steps 12 and 13 without NCCL, or MPI). CHECK_ARCHS="sm_75 sm_90": those, not all nvcc lists.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # nvcc_path, nvcc_archs, usage
##= TYPES="int float double": the types make check-archs compiles
types=${TYPES:-int float double}
[ $# -gt 0 ] || usage "scripts/check_archs.sh PROGRAM_DIR... (or: make check-archs)"
archs=${CHECK_ARCHS:-$(nvcc_archs | paste -sd' ')}
if [ -z "$archs" ]; then
    echo "check-archs: '$(nvcc_path) --list-gpu-code' listed no architectures" >&2
    exit 2
fi
ends="$(echo "$archs" | cut -d' ' -f1) $(echo "$archs" | rev | cut -d' ' -f1 | rev)"
echo "check-archs: $archs (int; float and double: $ends)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# every folder and type at once, one a core, each compiling its architectures at once too
# (make's own "Entering directory" lines and job-server notes are not the build's)
export CHECK_ALL=$archs CHECK_ENDS=$ends
# shellcheck disable=SC2016  # $0, $1: the inner shell's folder and type
for dir in "$@"; do for type in $types; do echo "$dir $type"; done; done |
    xargs -P "$(nproc)" -L 1 bash -c 'some=$CHECK_ALL; [ "$1" = int ] || some=$CHECK_ENDS
        make -s --no-print-directory -j"$(nproc)" -C "$0" TYPE="$1" CHECK_ARCHS="$some" check-archs 2>&1' | tee "$out" || { echo "check-archs: FAILED"; exit 1; }
echo "check-archs: $(grep -c '^ok ' "$out" || true) builds (folder, type, architecture), no warnings;" \
    "$(grep -c ': skipped, ' "$out" || true) skipped, each said why above"
