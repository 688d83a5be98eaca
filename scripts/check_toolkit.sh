#!/usr/bin/env bash
# make check-toolkit: every program built with the newest CUDA toolkit on PyPI, so a release
# that breaks the code shows up here (and in CI) before it reaches a lab. No GPU needed; writes
# only build/toolkit/ (its logs: V=1 shows them too). Exit 1: a build or test failed (the log's
# end printed); 2: the toolkit could not be installed (no venv, PyPI unreachable).
# Usage: scripts/check_toolkit.sh PROGRAM_DIR...   (TYPES="int": fewer types)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
root=$PWD
. scripts/gpus.sh   # nvcc_release, nvcc_archs, usage
unset MAKEFLAGS MFLAGS MAKELEVEL   # its builds are its own, not a calling make's

out=build/toolkit
venv=$out/venv tree=$out/tree
types=${TYPES:-int float double}
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || usage "scripts/check_toolkit.sh PROGRAM_DIR... (or: make check-toolkit)"
mkdir -p "$out" || exit 2

say() { echo "check-toolkit: $*"; }
stop() { say "$*"; exit 2; }   # the toolkit cannot be installed

# log LOG CMD...: CMD's output appended to LOG (and shown with V=1, on fd 3); pipefail: CMD's status
if [ "${V:-0}" = 1 ]; then exec 3>&1; else exec 3> /dev/null; fi
log() { "${@:2}" 2>&1 | tee -a "$1" >&3; }
# fail LOG WHAT: says what failed, shows the end of LOG and exits 1
fail() {
    say "FAILED: $2 (log: $1)"
    tail -n 30 "$1" | sed 's/^/    /'
    exit 1
}
# ---------------------------------------------------------------- 1. the wheels
pip_log=$out/pip.log
: > "$pip_log"
if ! "$venv/bin/python" -c '' > /dev/null 2>&1; then
    rm -rf "$venv"
    log "$pip_log" python3 -m venv "$venv" ||
        stop "'python3 -m venv $venv' failed (see $pip_log): install python3 with its venv module (Debian: apt-get install python3-venv)"
fi
wheels=(nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl)
# venv_pip ARG...: the venv's pip, logged; PyPI out of reach (or no nvcc wheel): one line, exit 2
venv_pip() {
    log "$pip_log" "$venv/bin/python" -m pip --disable-pip-version-check "$@" && return 0
    grep -qiE 'No matching distribution|NewConnectionError|ConnectTimeout|ReadTimeout|ProxyError|Max retries exceeded|name resolution|Name or service not known|Network is unreachable|Connection refused|Could not fetch URL|SSLError' "$pip_log" ||
        return 1
    stop "pip cannot reach PyPI, or its index has no ${wheels[0]} (see $pip_log): check the network; behind a proxy, export HTTPS_PROXY=http://HOST:PORT, or set PIP_INDEX_URL to a mirror; then run it again"
}
say "asking PyPI for the newest ${wheels[*]} (into $venv; log: $pip_log)"
# pip install --upgrade exits 0 without the index: ask it first (a pip without `index`: no verdict)
venv_pip index versions "${wheels[0]}" || true
venv_pip install --upgrade "${wheels[@]}" || fail "$pip_log" "pip could not install ${wheels[*]}"
versions=$("$venv/bin/python" -c 'import sys
from importlib.metadata import version
print(", ".join(p + " " + version(p) for p in sys.argv[1:]))' "${wheels[@]}") ||
    fail "$pip_log" "pip installed the wheels, but their versions cannot be read"
# ---------------------------------------------------------------- 2. CUDA_PATH
# complete DIR: nvcc can compile and link the programs from DIR alone
complete() {
    [ -x "$1/bin/nvcc" ] && [ -f "$1/bin/nvcc.profile" ] && [ -d "$1/nvvm/bin" ] &&
        [ -f "$1/include/cuda_runtime_api.h" ] && [ -f "$1/lib/libcudart_static.a" ] &&
        [ -n "$(find -L "$1/include" -path '*/cub/cub.cuh' -print -quit 2>/dev/null)" ]
}
site=$("$venv/bin/python" -c 'import os, sysconfig; print(os.path.relpath(sysconfig.get_paths()["purelib"]))') ||
    fail "$pip_log" "the virtual environment has no site-packages"
cuda=""
# nvidia/cu13 today, nvidia/cu14 for the next major version: the newest complete one
for candidate in $(printf '%s\n' "$site"/nvidia/*/ | sort -V); do
    complete "$candidate" && cuda=${candidate%/}
done
[ -n "$cuda" ] ||
    fail "$pip_log" "the wheels in $site/nvidia hold no complete toolkit (bin/nvcc, nvvm, include with CUB, lib/libcudart_static.a)"
nvcc=$root/$cuda/bin/nvcc
release=$(NVCC=$nvcc nvcc_release)
[ -n "$release" ] || fail "$pip_log" "$cuda/bin/nvcc --version does not say its release"
cccl=$(grep -RhoE '#define CCCL_VERSION [0-9]+' "$cuda/include" 2>/dev/null | head -1 | awk '{print $3}' || true)
[ -n "$cccl" ] && versions="$versions = CCCL $((cccl / 1000000)).$((cccl / 1000 % 1000)).$((cccl % 1000))"
say "nvcc $release from PyPI wheels ($versions), CUDA_PATH=$cuda"
archs=$(NVCC=$nvcc nvcc_archs)
arch=$(echo "$archs" | head -1)
[ -n "$arch" ] || fail "$pip_log" "'$cuda/bin/nvcc --list-gpu-code' lists no architecture"
# ---------------------------------------------------------------- 3. every program
build_log=$out/build.log files=$out/files
git ls-files -z --cached --others --exclude-standard 2> "$build_log" |
    while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done > "$files.new" ||
    fail "$build_log" "'git ls-files' failed: check-toolkit copies the files of a git checkout"

# a copy built by another toolkit, or of other files, starts over; else make rebuilds what changed
stamp="$("$nvcc" --version) $versions $cuda $arch"
{ cmp -s "$files.new" "$files" && [ "$(cat "$out/tree.stamp" 2>/dev/null)" = "$stamp" ]; } || rm -rf "$tree"
mv "$files.new" "$files"
{ mkdir -p "$tree" && tar -cf - --null -T "$files" | tar -xf - -C "$tree" 2>> "$build_log"; } ||
    fail "$build_log" "cannot copy the work tree into $tree"
echo "$stamp" > "$out/tree.stamp"
# what make installed into build/ (INSTALLED: make cccl's, make mpich's) is the copy's too
for installed in ${INSTALLED:-}; do
    [ "$installed" = "$out" ] || [ ! -e "$installed" ] || { mkdir -p "$tree/build" && ln -sfn "$root/$installed" "$tree/$installed"; }
done

say "building every program for $arch ($types) in a copy of the work tree, $tree (log: $build_log)"
counts=""
for type in $types; do
    log "$build_log" make --no-print-directory -C "$tree" -j"$(nproc)" all TYPE="$type" \
        CUDA_PATH="$root/$cuda" NVCC="$nvcc" NVCC_ARCH="$arch" ||
        fail "$build_log" "the $type build with CUDA $release"
    unit_log=$out/unit-$type.log
    (cd "$tree" && "build/$type/unit_tests") > "$unit_log" 2>&1 ||
        fail "$unit_log" "the $type unit tests built with CUDA $release"
    passed=$(grep -c '^PASS' "$unit_log" || true)
    [ "$passed" -gt 0 ] || fail "$unit_log" "the $type unit tests ran no test"
    counts="$counts${counts:+, }$type $passed"
done
say "unit tests pass: $counts (logs: $out/unit-TYPE.log)"
# ---------------------------------------------------------------- 4. the architectures
# Its oldest and newest, and each one the system's nvcc does not list: make check-archs
# compiles every program for those. CUDA_PATH stays the system's, for step 12's nccl.h (the
# wheels bring none). rm build/toolkit/archs.pass forces a rerun.
archs_log=$out/archs.log
checked=$( { echo "$archs" | sed -n '1p;$p'; echo "$archs" | grep -vxF -f <(nvcc_archs; echo none); } | sort -uV | paste -sd' ')
fingerprint=$( (echo "$stamp $checked"; cd "$tree" && xargs -0 sha256sum < "$root/$files") | sha256sum || true)
if [ "$(cat "$out/archs.pass" 2>/dev/null)" = "$fingerprint" ]; then
    say "the architectures: skipped, neither the toolkit nor a file changed since they passed (log: $archs_log)"
else
    rm -f "$out/archs.pass"
    : > "$archs_log"
    say "compiling every program for $checked of the $(echo "$archs" | wc -l) architectures nvcc $release lists: its oldest, its newest and those the system's nvcc lacks (int; log: $archs_log)"
    (cd "$tree" && log "$root/$archs_log" env NVCC="$nvcc" TYPES=int CHECK_ARCHS="$checked" scripts/check_archs.sh "${dirs[@]}") ||
        fail "$archs_log" "the build for every architecture with CUDA $release; the paths it names are in $tree"
    echo "$fingerprint" > "$out/archs.pass"
    say "$(grep -c '^ok' "$archs_log") builds for $checked, no warnings$(
        grep ': skipped, ' "$archs_log" | sed 's/^/; /' | tr -d '\n')"
fi

say "every program builds with CUDA $release, unit tests pass ($((SECONDS / 60)) min $((SECONDS % 60)) s)"
