#!/usr/bin/env bash
# Physical pointers and uniform-buffer layouts on the GPU machine (issues 3 and 4): the
# phys_pointers, phys_local and ubo_layout corpus cases (vulkan1.2/1.3; ubo_layout also 1.1),
# translated here, run there with k2s-run on the NVIDIA GPU and compared with the PoCL
# references recorded here.
#
# Here, from the repo root (needs the build, clang-15, llvm-spirv-15, PoCL):
#   tools/device/physical.sh prepare [BUILD_DIR]      # default BUILD_DIR: build
# writes .devrun/physical/ (plan, modules, references). PHYS_PASSES (default: the pipeline
# without the logical `pointers` pass, which does not skip physical functions yet) is the
# --passes list used for --pointers=physical runs; PHYS_PASSES= uses the default pipeline.
# There (device tool; carry [".gl", ".devrun", "build"]):
#   tools/device/physical.sh run
# writes $OUT/physical.txt (PASS/FAIL per case and env).
set -uo pipefail
cd "$(dirname "$0")/../.."
DEV=.devrun/physical
DEFAULT_PASSES=entry-points,math,inline,work-items,physical-pointers,kernel-args,wide-vectors,conversions,builtins,uniform-layout,physical-aligned,barriers,reflection,structurize,finalize
PHYS_PASSES=${PHYS_PASSES-$DEFAULT_PASSES}

case "${1:-}" in
prepare)
  B=${2:-build}
  rm -rf "$DEV"
  mkdir -p "$DEV/corpus"
  for n in phys_pointers phys_local ubo_layout; do
    cp "corpus/$n.cl" "$DEV/corpus/"
    if [ -n "$PHYS_PASSES" ]; then
      sed "s/^k2s: --pointers=physical/k2s: --passes=$PHYS_PASSES --no-validate-output --pointers=physical/" \
        "corpus/$n.spec" >"$DEV/corpus/$n.spec"
    else
      cp "corpus/$n.spec" "$DEV/corpus/"
    fi
  done
  K2S="$B/passes/k2s" K2S_RUN="$B/src/run/k2s-run" K2S_CLREF="$B/tests/clref/k2s-clref" \
    python3 tests/e2e/run_corpus.py --corpus "$DEV/corpus" --build-dir "$DEV/e2e" \
    --emit-plan "$DEV/e2e/plan.json" -j 2 2>&1 | tail -3
  ;;
run)
  . tools/device/setup.sh
  OUT=${OUT:-/tmp/k2s-device-out}
  mkdir -p "$OUT"
  [ -f "$DEV/e2e/plan.json" ] || { echo "physical.sh: run 'prepare' here first and carry .devrun" >&2; exit 1; }
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    python3 tests/e2e/run_corpus.py --replay-plan "$DEV/e2e/plan.json" \
      --k2s-run build/src/run/k2s-run --clref build/tests/clref/k2s-clref 2>&1
  } | tee "$OUT/physical.txt"
  ;;
*)
  sed -n '2,14p' "$0"
  exit 2
  ;;
esac
