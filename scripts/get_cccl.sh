#!/usr/bin/env bash
# make cccl: unpacks the newest CCCL headers (CUB, Thrust, libcu++) from the
# nvidia-cuda-cccl wheel on PyPI into build/cccl/include, so that the CUB reference can be
# built against them beside the toolkit's (cub_reference/newest: the determinism modes
# of CCCL 3.1 and later, which the toolkit's CCCL 3.0.1 in CUDA 13.0 lacks). A tool, not
# the reference's own code: like make check-toolkit's toolkit, it installs into build/
# what any program may build against. Headers only (about 25 MB): build/cccl travels with
# the tree to a GPU machine that reaches no package registry. `make clean` keeps it,
# `make distclean` removes it.
#
#   CCCL_WHEEL=FILE   install this wheel file, with no network (download it elsewhere with
#                     python3 -m pip download --no-deps --only-binary=:all: nvidia-cuda-cccl)
#   without it: a wheel already in build/cccl-wheel/, else pip downloads one there
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
if [ -n "${CCCL_WHEEL:-}" ] && [ ! -f "$CCCL_WHEEL" ]; then
    say "CCCL_WHEEL=$CCCL_WHEEL: no such file" >&2
    exit 2
fi
# a given wheel is installed even over headers already here; without one, those stay
if [ -z "${CCCL_WHEEL:-}" ] && version=$(version_of "$prefix/include"); then
    say "CCCL $version is already in $prefix/include; rm -rf $prefix to install it again"
    exit 0
fi
if ! command -v python3 > /dev/null 2>&1; then
    say "python3 not found: it unpacks the wheel (and pip downloads it); install python3, or give up the newest CUB (the toolkit's is built anyway)" >&2
    exit 2
fi
wheel=${CCCL_WHEEL:-}
if [ -z "$wheel" ]; then
    wheels=(build/cccl-wheel/nvidia_cuda_cccl-*.whl)
    if [ ! -f "${wheels[0]}" ]; then
        mkdir -p build/cccl-wheel
        say "downloading the nvidia-cuda-cccl wheel from PyPI into build/cccl-wheel (log: build/cccl-wheel/pip.log)"
        if ! python3 -m pip download --disable-pip-version-check --no-deps --only-binary=:all: \
                --dest build/cccl-wheel nvidia-cuda-cccl > build/cccl-wheel/pip.log 2>&1; then
            say "pip could not download the nvidia-cuda-cccl wheel (see build/cccl-wheel/pip.log): check the network, or give a wheel file with CCCL_WHEEL=..." >&2
            exit 2
        fi
        wheels=(build/cccl-wheel/nvidia_cuda_cccl-*.whl)
    fi
    wheel=${wheels[-1]}
fi
if [ ! -f "$wheel" ]; then
    say "CCCL_WHEEL=$wheel: no such file" >&2
    exit 2
fi
rm -rf "$prefix.unpack"
if ! python3 -m zipfile -e "$wheel" "$prefix.unpack" 2> /dev/null; then
    say "$wheel is not a wheel (a zip file): give the nvidia_cuda_cccl-*.whl that pip downloads" >&2
    rm -rf "$prefix.unpack"
    exit 2
fi
# the headers' folder: nvidia/cu13/include/cccl in the 13.x wheels (cub/, cuda/, thrust/, nv/)
headers=("$prefix.unpack"/nvidia/cu*/include/cccl)
if ! version=$(version_of "${headers[0]}") || [ ! -f "${headers[0]}/cub/cub.cuh" ]; then
    say "$wheel holds no nvidia/cu*/include/cccl/cub/cub.cuh with cuda/std/__cccl/version.h: not an nvidia-cuda-cccl wheel" >&2
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
