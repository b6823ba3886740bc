#!/usr/bin/env bash
# Session 7's transpose/image experiment (issue 13, bench/GPU.md "s7-gpu"): the translated
# transpose and image kernels timed on the GPU in many variants, each one change, beside
# k2s's output as is and NVIDIA's OpenCL on the same source (the variants and what each
# tests: bench/GPU.md; the edits: bench/gpu/experiments/spv_edit.py; the source variants:
# bench/gpu/experiments/transpose.cl). Prepared for request s7-gpu-1, not yet run.
# Here, from the repo root (needs the build, clang-15, llvm-spirv-15, spirv-tools):
#   tools/device/gpu_bench_s7.sh prepare DIR [BASELINE_BUILD]  # DIR/: all the run needs
#   (BASELINE_BUILD, e.g. a build of main before s7: its translation is the `base` column,
#   the image kernel's saturating conversion as compares and selects)
# There:
#   bash DIR/experiment.sh run DIR                 # writes $OUT/gpu-bench.{md,json,log}
# (S7_FLAGS="--small --runs 3" S7_CL=Portable: the same on lavapipe and PoCL, a check)
set -euo pipefail
case "${1:-}" in
prepare)
  d=$2
  cd "$(dirname "$0")/../.."
  x=bench/gpu/experiments
  src=()
  for m in REQD UNROLL4 PRAGMA; do
    src+=(--source "t-${m,,}=$x/transpose.cl:$m")
  done
  base=()
  [ -n "${3:-}" ] && base=(--baseline-build "$3" --baseline-label "${BASELINE_LABEL:-$3}")
  python3 bench/gpu/gpu_bench.py prepare --dir "$d" "${src[@]}" "${base[@]}"
  cp bench/gpu/gpu_bench.py "$d/"
  e() { python3 $x/spv_edit.py "$d/${IN:-k2s}.spv" "$d/$1.spv" --function "${@:2}"; }
  e t-barrier-none transpose barrier-none
  e t-nodeco transpose no-memory-decorations
  e t-loop-unroll transpose loop-unroll
  e t-loop-partial4 transpose loop-partial4
  e t-loop-maxiter4 transpose loop-maxiter4
  IN=t-reqd e t-reqd-loop-unroll transpose loop-unroll
  e i-nclamp32 image sat-nclamp32
  e i-satnone image sat-none
  e i-nodeco image no-memory-decorations
  rm -f "$d"/*.bc "$d"/*.in.spv "$d/kernels.spv" "$d/k2s-podpc.spv"
  cp "$0" "$d/experiment.sh"
  du -sh "$d"
  ;;
run)
  set +e
  d=$2
  OUT=${OUT:-/tmp/s7-out}
  mkdir -p "$OUT"
  [ -f tools/device/setup.sh ] && . tools/device/setup.sh >/dev/null 2>&1
  [ -f /etc/OpenCL/vendors/nvidia.icd ] && export OCL_ICD_VENDORS=/etc/OpenCL/vendors/nvidia.icd
  chmod +x "$d"/bin/*
  { date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
    "$d/bin/k2s-run" --list-devices; } 2>&1
  T=@transpose I=@image
  base=()
  [ -f "$d/k2s-base.spv" ] && base=(--variant base=k2s-base.spv)
  timeout 220 python3 "$d/gpu_bench.py" run --dir "$d" --out "$OUT" --work /tmp/s7-work \
    --cl-platform "${S7_CL:-NVIDIA}" --only transpose,image --runs 50 ${S7_FLAGS:-} "${base[@]}" \
    --variant reqd=t-reqd.spv$T --variant reqd-cl=t-reqd.cl$T \
    --variant unroll4=t-unroll4.spv$T --variant unroll4-cl=t-unroll4.cl$T \
    --variant pragma=t-pragma.spv$T --variant pragma-cl=t-pragma.cl$T \
    --variant loop-unroll=t-loop-unroll.spv$T --variant loop-partial4=t-loop-partial4.spv$T \
    --variant loop-maxiter4=t-loop-maxiter4.spv$T \
    --variant reqd-loop-unroll=t-reqd-loop-unroll.spv$T \
    --variant barrier-none=t-barrier-none.spv$T --variant nodeco=t-nodeco.spv$T \
    --variant nclamp32=i-nclamp32.spv$I \
    --variant satnone=i-satnone.spv$I --variant nodeco-img=i-nodeco.spv$I \
    --variant narrow=k2s-narrow.spv --variant narrow-norobust=k2s-narrow.spv+--no-robust-access \
    --variant again=k2s.spv
  echo "gpu_bench rc=$?"
  cat "$OUT/gpu-bench.md"
  rm -rf /tmp/s7-work
  ;;
*)
  sed -n 2,10p "$0"
  exit 2
  ;;
esac
