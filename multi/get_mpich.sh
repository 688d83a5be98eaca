#!/usr/bin/env bash
# make mpich: MPICH into build/mpich from its PyPI wheel (mpich 5.x, 13 MB; scripts/get_wheel.sh),
# where there is no MPI and no root: steps 13 and 15 find it (multi/multi.mk); only build/ changes.
# A wheel for MPICH_WHEEL: python3 -m pip download --no-deps --only-binary=:all: "mpich>=5,<6"
set -euo pipefail
cd "$(dirname "$0")/.." || exit
##= MPICH_WHEEL=: make mpich installs this wheel file instead of downloading one
prefix=build/mpich
version() { "$prefix/bin/mpichversion" 2> /dev/null | head -1 | tr -s ' \t' ' '; }
# a given wheel is installed even over an MPICH already here; without one, that MPICH stays
if [ -z "${MPICH_WHEEL:-}" ] && [ -x "$prefix/bin/mpicc" ] && "$prefix/bin/mpicc" -show > /dev/null 2>&1; then
    echo "make mpich: MPICH is already in $prefix ($(version)); rm -rf $prefix to install it again"
    exit 0
fi
scripts/get_wheel.sh mpich "mpich>=5,<6" "${MPICH_WHEEL:-}" "install libmpich-dev (Debian) and skip this" \
    "mpich-*.data/data/include/mpi.h"
rm -rf "$prefix"
mv "$prefix".unpack/mpich-*.data/data "$prefix"
rm -rf "$prefix.unpack"
chmod +x "$prefix"/bin/*   # zip files keep no modes
"$prefix/bin/mpicc" -show > /dev/null 2>&1 || { echo "make mpich: $prefix/bin/mpicc does not run; remove $prefix and try again" >&2; exit 2; }
echo "make mpich: MPICH installed in $prefix ($(version)); step13_rank_per_gpu finds it: make, then $prefix/bin/mpiexec -n G step13_rank_per_gpu/reduce"
