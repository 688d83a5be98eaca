#!/usr/bin/env bash
# make docs: builds the Doxygen site into docs/html; any warning is an error.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
if ! command -v doxygen > /dev/null 2>&1; then
    echo "make docs: doxygen is not installed (Debian/Ubuntu: apt-get install -y doxygen)" >&2
    exit 2
fi
. scripts/gpus.sh   # make_var
# docs/Doxyfile's INPUT, from the environment: each item below once, a folder with its README.md
DOC_INPUTS=$(for item in README.md LAB.md docs/*.md $(make_var PROGRAM_DIRS) common report scripts tests $(make_var DOC_INPUTS); do
                 [ ! -e "$item" ] || echo "$item"; [ ! -f "$item/README.md" ] || echo "$item/README.md"; done | awk '!seen[$0]++' | paste -sd' ')
export DOC_INPUTS
rm -rf docs/html
doxygen docs/Doxyfile
echo "make docs: the site is in docs/html; open docs/html/index.html"
