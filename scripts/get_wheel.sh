#!/usr/bin/env bash
# Fetches a PyPI wheel and unpacks it (a zip: no pip install, no root), for make cccl, mpich, nccl.
# Usage: scripts/get_wheel.sh NAME REQUIREMENT WHEEL ADVICE PATH...: the wheel file WHEEL (NAME_WHEEL,
# no network), else the newest kept in build/NAME-wheel, else pip's download there of REQUIREMENT, is
# unpacked into build/NAME.unpack (the caller empties it); each PATH (a pattern) must be in it. ADVICE
# ends the line said without python3. Exit 0, or 2 after one line on stderr ("make NAME: ...").
set -euo pipefail
cd "$(dirname "$0")/.." || exit
name=$1 requirement=$2 wheel=$3 advice=$4
shift 4
project=${requirement%%[<>=!~ ]*}     # mpich, nvidia-cuda-cccl
pattern="${project//-/_}-*.whl"       # its wheels' file names: the project's name, - as _
keep=build/$name-wheel unpack=build/$name.unpack
fail() { echo "make $name: $*" >&2; rm -rf "$unpack"; exit 2; }
[ -z "$wheel" ] || [ -f "$wheel" ] || fail "${name^^}_WHEEL=$wheel: no such file"
command -v python3 > /dev/null 2>&1 ||
    fail "python3 not found: it unpacks the wheel (and pip downloads it); install python3, or $advice"
# the newest wheel kept (version order), or nothing
newest() { compgen -G "$keep/$pattern" | sort -V | tail -1 || true; }
if [ -z "$wheel" ] && [ -z "$(newest)" ]; then
    mkdir -p "$keep"
    echo "make $name: downloading the $project wheel from PyPI into $keep (log: $keep/pip.log)"
    python3 -m pip download --disable-pip-version-check --no-deps --only-binary=:all: --dest "$keep" \
        "$requirement" > "$keep/pip.log" 2>&1 ||
        fail "pip could not download the $project wheel (see $keep/pip.log): check the network, or give a wheel file with ${name^^}_WHEEL=..."
fi
wheel=${wheel:-$(newest)}
[ -f "$wheel" ] || fail "no $pattern in $keep after pip's download (see $keep/pip.log)"
rm -rf "$unpack"
python3 -m zipfile -e "$wheel" "$unpack" 2> /dev/null ||
    fail "$wheel is not a wheel (a zip file): give the $pattern that pip downloads"
for path in "$@"; do
    compgen -G "$unpack/$path" > /dev/null || fail "$wheel holds no $path: not a wheel of $project"
done
