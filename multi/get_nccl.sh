#!/usr/bin/env bash
# make nccl: NCCL into build/nccl from its PyPI wheel (pinned below, about 300 MB; scripts/get_wheel.sh)
# where the machine's NCCL is missing or lacks step 15's device API; multi/multi.mk then takes it.
# A wheel for NCCL_WHEEL, downloaded elsewhere: python3 -m pip download --no-deps nvidia-nccl-cu13==2.32.3
set -euo pipefail
cd "$(dirname "$0")/.." || exit
##= NCCL_WHEEL=: make nccl installs this wheel file instead of downloading one
prefix=build/nccl
if [ -z "${NCCL_WHEEL:-}" ] && [ -f "$prefix/include/nccl.h" ]; then
    echo "make nccl: NCCL is already in $prefix; rm -rf $prefix to install it again"
    exit 0
fi
scripts/get_wheel.sh nccl "nvidia-nccl-cu13==2.32.3" "${NCCL_WHEEL:-}" "install libnccl-dev 2.28 or newer and skip this" \
    "nvidia/nccl/include/nccl_device.h" "nvidia/nccl/lib/libnccl.so.2"
rm -rf "$prefix"
mv "$prefix.unpack/nvidia/nccl" "$prefix"
rm -rf "$prefix.unpack"
ln -s libnccl.so.2 "$prefix/lib/libnccl.so"   # the name -lnccl links
echo "make nccl: NCCL 2.32.3 installed in $prefix; steps 12, 13 and 15 take it where the machine's NCCL lacks what they need"
