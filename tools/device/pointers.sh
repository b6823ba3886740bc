#!/usr/bin/env bash
# Logical-mode pointers on the GPU machine (issue 4, docs/pointers.md): the pointer corpus
# kernels (ptr_*, union_private, generic_ptr, progscope_vars, private_memory) and random
# pointer-punning kernels (tests/pointers/random_ptr.py), translated here, run there, and
# compared with the PoCL references recorded here. Exercises what lavapipe may forgive:
# aliased 8/16-bit views of one binding, atomic and/or byte stores, tag switches.
#
# Here (needs the build, clang-15, llvm-spirv-15 and PoCL), from the repo root:
#   tools/device/pointers.sh prepare [BUILD_DIR] [COUNT]   # defaults: build, 60
# writes .devrun-ptr/ (ignored through .git/info/exclude): the hosts and two plans.
# There (device tool; carry [".gl", ".devrun-ptr"]; a few minutes):
#   tools/device/pointers.sh run
# writes $OUT/pointers.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
D=.devrun-ptr
PLAN_DIR=/tmp/devrun-ptr

case "${1:-}" in
prepare)
  B=${2:-build}
  COUNT=${3:-60}
  grep -qx "/$D/" .git/info/exclude 2>/dev/null || echo "/$D/" >>.git/info/exclude
  rm -rf "$D" "$PLAN_DIR"
  mkdir -p "$D/bin/passes" "$D/bin/src/run" "$D/bin/tests/clref" "$PLAN_DIR"
  cp "$B/passes/k2s" "$B/passes/k2s-validator" "$D/bin/passes/"
  cp "$B/src/run/k2s-run" "$D/bin/src/run/"
  cp "$B/tests/clref/k2s-clref" "$D/bin/tests/clref/"
  export K2S="$B/passes/k2s" K2S_RUN="$B/src/run/k2s-run" K2S_CLREF="$B/tests/clref/k2s-clref"
  python3 tests/e2e/run_corpus.py --build-dir "$PLAN_DIR/corpus" -j 2 \
    --emit-plan "$PLAN_DIR/corpus/plan.json" ptr_byteview ptr_struct ptr_helpers ptr_edge \
    ptr_auto union_private generic_ptr progscope_vars private_memory | tail -1
  python3 tests/pointers/random_ptr.py --count "$COUNT" --seed 11 --envs vulkan1.2 \
    --build-dir "$PLAN_DIR/random" --emit-plan "$PLAN_DIR/random/e2e/plan.json" | tail -1
  rm -rf "$PLAN_DIR"/corpus/spv "$PLAN_DIR"/random/e2e/spv
  tar czf "$D/plans.tgz" -C "$(dirname "$PLAN_DIR")" "$(basename "$PLAN_DIR")"
  ;;
run)
  . tools/device/setup.sh
  OUT=${OUT:-/tmp/k2s-device-out}
  mkdir -p "$OUT"
  rm -rf "$PLAN_DIR"
  tar xzf "$D/plans.tgz" -C "$(dirname "$PLAN_DIR")"
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    for plan in "$PLAN_DIR/corpus/plan.json" "$PLAN_DIR/random/e2e/plan.json"; do
      echo "== $plan"
      python3 tests/e2e/run_corpus.py --replay-plan "$plan" \
        --k2s-run "$D/bin/src/run/k2s-run" --clref "$D/bin/tests/clref/k2s-clref" 2>&1
    done
  } | tee "$OUT/pointers.txt"
  ;;
*)
  sed -n '2,14p' "$0"
  exit 2
  ;;
esac
