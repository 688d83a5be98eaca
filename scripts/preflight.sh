#!/usr/bin/env bash
# The first thing a target that runs programs on the GPU does, before it builds anything:
# checks that its tool is here (exit 2) and that a GPU can be used (exit 3), saying what is
# missing in one line; a machine without a GPU is never reported as a step that failed.
# Usage: scripts/preflight.sh TARGET [compute-sanitizer|ncu]
set -euo pipefail
. "$(dirname "$0")/gpus.sh"
target=$1 tool=${2:-}
[ -z "$tool" ] || need_tool "$tool" "make $target" > /dev/null
missing=$(gpu_missing)
if [ -n "$missing" ]; then
    echo "make $target: not run, $missing" >&2
    exit 3
fi
