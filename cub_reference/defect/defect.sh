#!/usr/bin/env bash
# make cub-defect (docs/cub-gpu-to-gpu-defect.md): CCCL's headers (make cccl) copied to build/cccl-patched
# with renorm.patch applied there (never to build/cccl or the toolkit), host_emulation.cpp run, the
# reproducer built against each copy and run at DEFECT_SIZES (without a GPU: built, and said so).
set -euo pipefail
cd "$(dirname "$0")/../.." || exit
. scripts/gpus.sh   # gpu_missing, nvcc_path
##= DEFECT_SIZES="2^30+5 2^31+5": the sizes make cub-defect's reproducer sums, float and double
sizes=${DEFECT_SIZES:-2^30+5 2^31+5}
say() { echo "make cub-defect: $*"; }
released=build/cccl/include patched=build/cccl-patched/include out=build/defect
[ -f "$released/cuda/std/__cccl/version.h" ] || { say "it needs CCCL's headers in $released: make cccl" >&2; exit 2; }
# a fresh copy each time, so that the patch applies to the headers make cccl installed
rm -rf build/cccl-patched
mkdir -p build/cccl-patched "$out"
cp -R "$released" "$patched"
if ! patch -s -p1 -d "$patched" < cub_reference/defect/renorm.patch; then
    say "renorm.patch does not apply to these headers (CCCL $(sed -n 's/^#define CCCL_VERSION //p' \
        "$released/cuda/std/__cccl/version.h")): it was made for 3.5.0" >&2
    exit 2
fi
# first on the host: CCCL's own accumulator, driven as its kernel drives it (no GPU)
echo "  CXX   cub_reference/defect/host_emulation.cpp (released rfa.cuh)"
# -fno-strict-aliasing: rfa.cuh sets a float's bits through a uint32_t reference
"${CXX:-g++}" -std=c++17 -O2 -fno-strict-aliasing -I"$released" cub_reference/defect/host_emulation.cpp \
    -o "$out/host_emulation"
"$out/host_emulation"
nvcc=$(nvcc_path)
arch=${NVCC_ARCH:-sm_75}
for build in released patched; do
    include=$released flags=()
    [ "$build" = patched ] && include=$patched flags=(-DCUB_GPU_TO_GPU_RENORM)
    echo "  NVCC  cub_reference/defect/gpu_to_gpu_repro.cu ($build headers)"
    "$nvcc" -std=c++17 -O3 -arch="$arch" -I"$include" "${flags[@]}" cub_reference/defect/gpu_to_gpu_repro.cu \
        -o "$out/gpu_to_gpu_repro_$build"
done
missing=$(gpu_missing)
[ -z "$missing" ] || { say "built $out/gpu_to_gpu_repro_released and _patched; not run, $missing"; exit 0; }
status=0
for build in released patched; do
    # shellcheck disable=SC2086 # the sizes are words
    "$out/gpu_to_gpu_repro_$build" $sizes || { [ $? = 1 ] && [ "$build" = released ]; } || status=1
done
if [ "$status" = 0 ]; then say "the patched headers pass every size"
else say "the patched headers FAIL, or a run stopped (see above)" >&2; fi
exit "$status"
