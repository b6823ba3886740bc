#!/usr/bin/env bash
# Physical pointers and buffer layouts on the GPU machine (issues 3 and 4): the phys_*,
# ubo_layout, pod_packed and pod_narrow corpus cases (phys_* on vulkan1.2/1.3, the others also 1.1),
# translated here, run there with k2s-run on the NVIDIA GPU and compared with the PoCL
# references recorded here.
#
# Here, from the repo root (needs the build, clang-15, llvm-spirv-15, PoCL):
#   tools/device/physical.sh prepare [BUILD_DIR]      # default BUILD_DIR: build
# writes .devrun/physical/ (plan, modules, references). PHYS_PASSES=a,b,c runs the
# --pointers=physical cases through that --passes list instead of the default pipeline.
# There (device tool; carry [".gl", ".devrun", "build"]):
#   tools/device/physical.sh run
# writes $OUT/physical.txt (PASS/FAIL per case and env) and $OUT/physical-timing.txt (the
# physical_lut.cl kernel as storage buffer, uniform words, scalar-layout UBO, physical).
set -uo pipefail
cd "$(dirname "$0")/../.."
DEV=.devrun/physical
PHYS_PASSES=${PHYS_PASSES:-}

case "${1:-}" in
prepare)
  B=${2:-build}
  rm -rf "$DEV"
  mkdir -p "$DEV/corpus"
  for n in phys_pointers phys_local phys_list ubo_layout pod_packed pod_narrow; do
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
  # the timing kernel in four translations
  mkdir -p "$DEV/bench"
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -O2 -emit-llvm-bc \
    -no-opaque-pointers -finclude-default-header tools/device/physical_lut.cl -o "$DEV/bench/lut.bc"
  llvm-spirv-15 "$DEV/bench/lut.bc" -o "$DEV/bench/lut.spv"
  for v in "ssbo:" "words:-constant-args-ubo" "scalar:-constant-args-ubo --scalar-block-layout" \
           "physical:--pointers=physical"; do
    # shellcheck disable=SC2086
    "$B/passes/k2s" "$DEV/bench/lut.spv" -o "$DEV/bench/lut-${v%%:*}.spv" --target-env vulkan1.2 \
      ${v#*:} 2>/dev/null || echo "physical.sh: translating ${v%%:*} failed" >&2
  done
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
  {
    for v in ssbo words scalar physical; do
      t=$(build/src/run/k2s-run "$DEV/bench/lut-$v.spv" --kernel lutb --global 1048576 \
        --local 64 --arg buffer:float:4096=rand:1 --arg buffer:float:1048576=zeros \
        --time 20 2>&1 | grep '^time:')
      echo "lut $v: $t"
    done
  } | tee "$OUT/physical-timing.txt"
  ;;
*)
  sed -n '2,14p' "$0"
  exit 2
  ;;
esac
