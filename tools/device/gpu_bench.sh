#!/usr/bin/env bash
# The GPU benchmark suite (issue 13, bench/gpu/): k2s on NVIDIA Vulkan against NVIDIA's own
# OpenCL on the same GPU.
# Here (needs the build, clang-15 and llvm-spirv-15), from the repo root:
#   tools/device/gpu_bench.sh prepare [BUILD_DIR [BASELINE_BUILD_DIR]]  # writes .gpu-bench/ (~3 MB)
#   (BASELINE_LABEL=main@f1dffb5 names the baseline in meta.json)
# There (device tool; carry [".gl", ".gpu-bench"], or let the untracked folders travel):
#   bash tools/device/gpu_bench.sh run
# writes $OUT/gpu-bench.md (the table for bench/GPU.md), gpu-bench.json and gpu-bench.log,
# and io.txt: k2s-run's read-back speed and whole-run wall time at 2 x 256 MiB.
# Besides k2s and OpenCL, every case is timed (between the two, on the same warm GPU) with
# robustBufferAccess off (`--no-robust-access`, as OpenCL runs), with 32-bit global indices
# (`--narrow-buffer-indices`), with PODs in push constants (`-pod-pushconstant`, the six
# slower kernels), and, when prepared with BASELINE_BUILD_DIR, with that build's
# translation (e.g. main's): the variants table of gpu-bench.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
prepare)
  base=()
  [ -n "${3:-}" ] && base=(--baseline-build "$3" --baseline-label "${BASELINE_LABEL:-$3}")
  python3 bench/gpu/gpu_bench.py prepare --build "${2:-build}" --dir .gpu-bench "${base[@]}"
  ;;
run)
  . tools/device/setup.sh
  # Only NVIDIA's OpenCL: an image's other ICDs (a CPU OpenCL) must not become platform 0.
  [ -f /etc/OpenCL/vendors/nvidia.icd ] && export OCL_ICD_VENDORS=/etc/OpenCL/vendors/nvidia.icd
  OUT=${OUT:-/tmp/gpu-bench-out}
  mkdir -p "$OUT"
  {
    ls /etc/OpenCL/vendors/ /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>&1
    .gpu-bench/bin/k2s-run --list-devices 2>&1
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1
    git log -1 --oneline 2>&1
    n=$((1 << 26)) # 64 Mi floats: 256 MiB a buffer
    d=$(mktemp -d)
    TIMEFORMAT="k2s-run wall %R s (generate inputs, upload, run, read back, write files)"
    for i in 1 2; do
      time (.gpu-bench/bin/k2s-run .gpu-bench/k2s.spv --kernel copy --global $((n / 4)) \
        --local 256 --arg buffer:float4:$((n / 4))=rand:1 --arg buffer:float4:$((n / 4)) \
        --dump-dir "$d" --verbose 2>&1 | grep "read back")
    done
    cmp "$d/arg0.bin" "$d/arg1.bin" && echo "copy 256 MiB: output equals input"
    rm -rf "$d"
  } 2>&1 | tee "$OUT/io.txt"
  slow=transpose,stencil,histogram,image,particles,nbody
  variants=(--variant norobust=k2s.spv+--no-robust-access
            --variant narrow=k2s-narrow.spv
            --variant narrow-norobust=k2s-narrow.spv+--no-robust-access
            --variant podpc=k2s-podpc.spv@$slow
            --variant podpc-norobust=k2s-podpc.spv+--no-robust-access@$slow)
  [ -f .gpu-bench/k2s-base.spv ] && variants=(--variant base=k2s-base.spv "${variants[@]}")
  python3 bench/gpu/gpu_bench.py run --dir .gpu-bench --out "$OUT" --cl-platform NVIDIA \
    "${variants[@]}" ${GPU_BENCH_FLAGS:-}
  ;;
*)
  sed -n 2,9p "$0"
  exit 2
  ;;
esac
