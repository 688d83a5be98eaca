#!/usr/bin/env bash
# make check-archs: compiles every program for every real GPU architecture this nvcc
# supports (nvcc --list-gpu-code), for int, float and double, with warnings as errors.
# Compile only: no GPU needed. Proves nothing arch-specific slipped in without a fallback.
# Usage: scripts/check_archs.sh PROGRAM_DIR...   (TYPES="int" to check fewer types)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
nvcc=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
archs=$("$nvcc" --list-gpu-code | grep -E '^sm_[0-9]+$' | tr '\n' ' ') || archs=""
if [ -z "$archs" ]; then
    echo "check-archs: '$nvcc --list-gpu-code' listed no architectures" >&2
    exit 2
fi
gencode=""
for sm in $archs; do gencode="$gencode -gencode arch=compute_${sm#sm_},code=$sm"; done
##= TYPES="int float double": the types make check-archs compiles
types=${TYPES:-int float double}
out=build/check-archs
mkdir -p "$out"
echo "check-archs: $archs"

# one job per (program, type, variant): the -D flags that select it. Steps 12 and 13 need
# NCCL's header, step 13 MPI's too: the folders their Makefiles find (none: skipped, by name).
jobs=()
skipped=""
for dir in "$@"; do
    case $dir in
        step12_*|step13_*)
            nccl=$(make -s --no-print-directory -C "$dir" nccl-include 2>/dev/null) || nccl=""
            if [ -z "$nccl" ]; then skipped="$skipped $dir"; continue; fi
            # nccl.h alone (see multi/nccl.mk): no other toolkit's headers come with it
            mkdir -p "$out/nccl-include" && ln -sf "$nccl/nccl.h" "$out/nccl-include/nccl.h"
            nccl=$(pwd)/$out/nccl-include
            # step 13: MPI's headers too, as multi/mpi.mk finds them (none: mpi.h is the compiler's)
            mpi_flags=""
            for include in $(make -s --no-print-directory -C "$dir" mpi-include 2>/dev/null); do
                mpi_flags="$mpi_flags -I$include"
            done ;;
    esac
    for type in $types; do
        # no blank at the end of a job: xargs -L would join the next line to it
        case $type in
            int) job="$dir $type" ;;
            float) job="$dir $type -DELEMENT_FLOAT" ;;
            double) job="$dir $type -DELEMENT_DOUBLE" ;;
            *) echo "check-archs: TYPES takes int, float and double (got '$type')" >&2; exit 2 ;;
        esac
        case $dir in
            step4_*) jobs+=("$job" "$job -DLEGACY_WARP_SYNC") ;;
            step12_*) jobs+=("$job -Imulti -I$nccl") ;;
            step13_*) jobs+=("$job -Imulti -I$nccl$mpi_flags -DMPICH_SKIP_MPICXX -DOMPI_SKIP_MPICXX") ;;
            */atomic_finish) jobs+=("$job -DGRID_FINISH=BLOCK_ATOMIC" "$job -DGRID_FINISH=WARP_ATOMIC") ;;
            *) jobs+=("$job") ;;
        esac
    done
done

compile() {
    local dir=$1 type=$2 name log sources gencode_flags
    shift 2
    name="$dir $type $*"
    log="$out/$(echo "$dir-$type$*" | tr ' =/' '___').log"
    sources=("$dir"/*.cu)
    read -ra gencode_flags <<< "$gencode"
    if "$nvcc" -c -O3 -Icommon -Werror all-warnings "${gencode_flags[@]}" "$@" "${sources[0]}" -o /dev/null > "$log" 2>&1; then
        echo "ok     $name"
    else
        echo "FAILED $name (see $log)"
        head -5 "$log"
        return 1
    fi
}
export -f compile
export nvcc gencode out

status=0
# one job a line; xargs splits it into compile's arguments
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -L 1 bash -c 'compile "$@"' compile || status=$?
# a folder skipped: its own build says why, in one line ("DIR: skipped, ...")
for dir in $skipped; do echo "skip  $(make -s --no-print-directory -C "$dir" 2>&1 | head -1)"; done
if [ "$status" -eq 0 ]; then
    echo "check-archs: ${#jobs[@]} builds, every architecture, no warnings"
else
    echo "check-archs: FAILED"
    exit 1
fi
