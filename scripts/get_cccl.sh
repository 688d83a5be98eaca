#!/usr/bin/env bash
# make cccl (its help line says what; scripts/get_wheel.sh fetches the wheel), for cub_reference/newest:
# CCCL 3.1's determinism modes, which CUDA 13.0's CCCL 3.0.1 lacks. Headers only (about 25 MB):
# build/cccl travels with the tree to a GPU machine that reaches no registry. A wheel for CCCL_WHEEL,
# downloaded elsewhere: python3 -m pip download --no-deps --only-binary=:all: nvidia-cuda-cccl
set -euo pipefail
cd "$(dirname "$0")/.." || exit
##= CCCL_WHEEL=: make cccl installs this wheel file instead of downloading one
prefix=build/cccl
say() { echo "make cccl: $*"; }
# the version the headers say, e.g. 3.5.0 (cuda/std/__cccl/version.h: CCCL_VERSION 3005000)
version_of() {
    local v
    v=$(sed -n 's/^#define CCCL_VERSION \([0-9]*\).*/\1/p' "$1/cuda/std/__cccl/version.h" 2> /dev/null)
    [ -n "$v" ] && echo "$((v / 1000000)).$((v / 1000 % 1000)).$((v % 1000))"
}
# a given wheel is installed even over headers already here; without one, those stay
if [ -z "${CCCL_WHEEL:-}" ] && version=$(version_of "$prefix/include"); then
    say "CCCL $version is already in $prefix/include; rm -rf $prefix to install it again"
    exit 0
fi
scripts/get_wheel.sh cccl nvidia-cuda-cccl "${CCCL_WHEEL:-}" "give up the newest CUB (the toolkit's is built anyway)" \
    "nvidia/cu*/include/cccl/cub/cub.cuh" "nvidia/cu*/include/cccl/cuda/std/__cccl/version.h"
# the headers' folder: nvidia/cu13/include/cccl in the 13.x wheels (cub/, cuda/, thrust/, nv/)
headers=("$prefix.unpack"/nvidia/cu*/include/cccl)
if ! version=$(version_of "${headers[0]}"); then
    say "the wheel's cuda/std/__cccl/version.h defines no CCCL_VERSION: not an nvidia-cuda-cccl wheel" >&2
    rm -rf "$prefix.unpack"
    exit 2
fi
rm -rf "$prefix"
mkdir -p "$prefix"
mv "${headers[0]}" "$prefix/include"
# CCCL's licence (Apache 2.0 with LLVM exception) goes with its headers
licence=("$prefix.unpack"/nvidia/cu*/cccl/LICENSE)
[ ! -f "${licence[0]}" ] || mv "${licence[0]}" "$prefix/LICENSE"
rm -rf "$prefix.unpack"
say "CCCL $version installed in $prefix/include; make builds the newest CUB against it (cub_reference/newest)"
