#!/usr/bin/env bash
# make cub-defect (README.md here): host_emulation.cpp run; renorm.patch applied to a copy of make cccl's
# headers (build/cccl-patched, never build/cccl or the toolkit); the reproducer built against each and
# run at DEFECT_SIZES: the patched must pass every size (without a GPU: built, and said so).
set -euo pipefail
cd "$(dirname "$0")/../.." || exit
. scripts/gpus.sh   # gpu_missing, nvcc_path
##= DEFECT_SIZES="2^30+5 2^31+5": the sizes make cub-defect's reproducer sums, float and double
say() { echo "make cub-defect: $*"; }
sizes=()
for size in ${DEFECT_SIZES:-2^30+5 2^31+5}; do
    [[ $size =~ ^[0-9]+(\^[0-9]+([+-][0-9]+)?)?$ ]] || { say "DEFECT_SIZES: '$size' is no size: N or 2^K+M" >&2; exit 2; }
    sizes+=("$((${size/^/**}))")
done
released=build/cccl/include patched=build/cccl-patched/include out=build/defect
[ -f "$released/cuda/std/__cccl/version.h" ] || { say "it needs CCCL's headers in $released: make cccl" >&2; exit 2; }
# a fresh copy each time, so that the patch applies to the headers make cccl installed
rm -rf build/cccl-patched
mkdir -p build/cccl-patched "$out"
g++ -std=c++17 -O2 -I"$released" cub_reference/defect/host_emulation.cpp -o "$out/host_emulation"
"$out/host_emulation"   # rfa.cuh on the host, driven as the kernel drives it (no GPU)
cp -R "$released" "$patched"
if ! patch -s -p1 -d "$patched" < cub_reference/defect/renorm.patch; then
    say "renorm.patch does not apply to these headers (CCCL $(sed -n 's/^#define CCCL_VERSION //p' \
        "$released/cuda/std/__cccl/version.h")): it was made for 3.5.0" >&2
    exit 2
fi
for build in released patched; do
    include=$released flags=()
    [ "$build" = patched ] && include=$patched flags=(-DCUB_GPU_TO_GPU_RENORM)
    echo "  NVCC  cub_reference/defect/gpu_to_gpu_repro.cu ($build headers)"
    "$(nvcc_path)" -std=c++17 -O3 -arch="${NVCC_ARCH:-sm_75}" -I"$include" "${flags[@]}" \
        cub_reference/defect/gpu_to_gpu_repro.cu -o "$out/gpu_to_gpu_repro_$build"
done
missing=$(gpu_missing)
[ -z "$missing" ] || { say "built $out/gpu_to_gpu_repro_released and _patched; not run, $missing"; exit 0; }
status=0
"$out/gpu_to_gpu_repro_released" "${sizes[@]}" || [ $? = 1 ] || status=1   # 1: a wrong sum, the defect
"$out/gpu_to_gpu_repro_patched" "${sizes[@]}" || status=1
if [ "$status" = 0 ]; then say "the patched headers pass every size"
else say "the patched headers FAIL, or a run stopped (see above)" >&2; fi
exit "$status"
