#!/usr/bin/env bash
# make mpich: installs MPICH into build/mpich from its PyPI wheel (mpich 5.x: mpicc,
# mpiexec, mpi.h, libmpi, 13 MB), for a machine with no MPI and no root: step 13 then finds
# it (multi/mpi.mk). Nothing outside build/ changes; `make clean` keeps it (and
# check-toolkit's toolkit), `make distclean` removes it.
#
#   MPICH_WHEEL=FILE   install this wheel file, with no network (a machine that reaches no
#                      package index: download it elsewhere with
#                      python3 -m pip download --no-deps --only-binary=:all: "mpich>=5,<6")
#   without it: a wheel already in build/mpich-wheel/, else pip downloads one there
set -euo pipefail
cd "$(dirname "$0")/.." || exit
##= MPICH_WHEEL=: make mpich installs this wheel file instead of downloading one
prefix=build/mpich
say() { echo "make mpich: $*"; }
if [ -n "${MPICH_WHEEL:-}" ] && [ ! -f "$MPICH_WHEEL" ]; then
    say "MPICH_WHEEL=$MPICH_WHEEL: no such file" >&2
    exit 2
fi
# a given wheel is installed even over an MPICH already here; without one, that MPICH stays
if [ -z "${MPICH_WHEEL:-}" ] && [ -x "$prefix/bin/mpicc" ] && "$prefix/bin/mpicc" -show > /dev/null 2>&1; then
    say "MPICH is already in $prefix ($("$prefix/bin/mpichversion" 2>/dev/null | head -1 | tr -s ' \t' ' ')); rm -rf $prefix to install it again"
    exit 0
fi
if ! command -v python3 > /dev/null 2>&1; then
    say "python3 not found: it unpacks the wheel (and pip downloads it); install python3, or install libmpich-dev (Debian) and skip this" >&2
    exit 2
fi
wheel=${MPICH_WHEEL:-}
if [ -z "$wheel" ]; then
    wheels=(build/mpich-wheel/mpich-*.whl)
    if [ ! -f "${wheels[0]}" ]; then
        mkdir -p build/mpich-wheel
        say "downloading MPICH's wheel from PyPI into build/mpich-wheel (log: build/mpich-wheel/pip.log)"
        if ! python3 -m pip download --disable-pip-version-check --no-deps --only-binary=:all: \
                --dest build/mpich-wheel "mpich>=5,<6" > build/mpich-wheel/pip.log 2>&1; then
            say "pip could not download the mpich wheel (see build/mpich-wheel/pip.log): check the network, or give a wheel file with MPICH_WHEEL=..." >&2
            exit 2
        fi
        wheels=(build/mpich-wheel/mpich-*.whl)
    fi
    wheel=${wheels[0]}
fi
if [ ! -f "$wheel" ]; then
    say "MPICH_WHEEL=$wheel: no such file" >&2
    exit 2
fi
rm -rf "$prefix.unpack"
if ! python3 -m zipfile -e "$wheel" "$prefix.unpack" 2> /dev/null; then
    say "$wheel is not a wheel (a zip file): give the mpich-*.whl that pip downloads" >&2
    rm -rf "$prefix.unpack"
    exit 2
fi
data=("$prefix.unpack"/mpich-*.data/data)
if [ ! -f "${data[0]}/include/mpi.h" ]; then
    say "$wheel holds no mpich-*.data/data/include/mpi.h: not an MPICH wheel" >&2
    rm -rf "$prefix.unpack"
    exit 2
fi
rm -rf "$prefix"
mv "${data[0]}" "$prefix"
rm -rf "$prefix.unpack"
chmod +x "$prefix"/bin/*   # zip files keep no modes
if ! "$prefix/bin/mpicc" -show > /dev/null 2>&1; then
    say "$prefix/bin/mpicc does not run; remove $prefix and try again" >&2
    exit 2
fi
say "MPICH installed in $prefix ($("$prefix/bin/mpichversion" 2>/dev/null | head -1 | tr -s ' \t' ' ')); step13_rank_per_gpu finds it: make, then $prefix/bin/mpiexec -n G step13_rank_per_gpu/reduce"
