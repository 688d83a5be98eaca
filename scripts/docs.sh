#!/usr/bin/env bash
# make docs: builds the Doxygen site into docs/html; any warning is an error.
set -euo pipefail
cd "$(dirname "$0")/.." || exit
if ! command -v doxygen > /dev/null 2>&1; then
    echo "make docs: doxygen is not installed (Debian/Ubuntu: apt-get install -y doxygen)" >&2
    exit 2
fi
. scripts/gpus.sh   # make_var
# the extensions' pages and sources (docs/Doxyfile's INPUT takes them from the environment)
DOC_INPUTS=$(make_var DOC_INPUTS)
export DOC_INPUTS
rm -rf docs/html
doxygen docs/Doxyfile
echo "make docs: the site is in docs/html; open docs/html/index.html"
