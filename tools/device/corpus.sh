#!/usr/bin/env bash
# The end-to-end corpus on the GPU machine (issue 3).
#
# Here (needs the build, clang-15, llvm-spirv-15 and PoCL), from the repo root:
#   tools/device/corpus.sh prepare [BUILD_DIR]     # default BUILD_DIR: build
# compiles every corpus run, translates it for every target env, validates it, records the
# PoCL reference, and packs the plan and modules into .devrun/e2e.tgz and the three hosts
# into .devrun/bin (laid out like a build dir).
# There (device tool; carry [".gl", ".devrun"]):
#   tools/device/corpus.sh run
# runs every case with k2s-run on the GPU and compares. Cases PoCL cannot run (non-uniform
# work-groups) get their reference from the GPU machine's own OpenCL driver (k2s-clref).
# Writes $OUT/corpus.txt.
# Variants: CORPUS_TAG=NAME (default e2e) keeps a second plan beside the first
# (.devrun/NAME.tgz, $OUT/corpus-NAME.txt), K2S_FLAGS adds k2s options to every
# translation and CORPUS_NAMES limits the specs, e.g. for a device with denormal
# support:
#   CORPUS_TAG=denorm K2S_FLAGS=--denorm-preserve CORPUS_NAMES="builtins_common" \
#     tools/device/corpus.sh prepare      (and CORPUS_TAG=denorm ... run there)
set -uo pipefail
cd "$(dirname "$0")/../.."
TAG=${CORPUS_TAG:-e2e}
PLAN_DIR=/tmp/devrun-$TAG

case "${1:-}" in
prepare)
  B=${2:-build}
  grep -qx '/.devrun/' .git/info/exclude 2>/dev/null || echo '/.devrun/' >>.git/info/exclude
  mkdir -p .devrun/bin/passes .devrun/bin/src/run .devrun/bin/tests/clref
  cp "$B/passes/k2s" "$B/passes/k2s-validator" .devrun/bin/passes/
  cp "$B/src/run/k2s-run" .devrun/bin/src/run/
  cp "$B/tests/clref/k2s-clref" .devrun/bin/tests/clref/
  rm -rf "$PLAN_DIR"
  python3 tests/e2e/run_corpus.py --k2s "$B/passes/k2s" --k2s-run "$B/src/run/k2s-run" \
    --clref "$B/tests/clref/k2s-clref" --build-dir "$PLAN_DIR" -j 2 \
    --k2s-flags="${K2S_FLAGS:-}" --emit-plan "$PLAN_DIR/plan.json" ${CORPUS_NAMES:-} | tail -1
  rm -rf "$PLAN_DIR/spv"
  tar czf ".devrun/$TAG.tgz" -C "$(dirname "$PLAN_DIR")" "$(basename "$PLAN_DIR")"
  ;;
run)
  . tools/device/setup.sh
  OUT=${OUT:-/tmp/k2s-device-out}
  mkdir -p "$OUT"
  rm -rf "$PLAN_DIR"
  tar xzf ".devrun/$TAG.tgz" -C "$(dirname "$PLAN_DIR")"
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    .devrun/bin/src/run/k2s-run --list-devices 2>&1
    python3 tests/e2e/run_corpus.py --replay-plan "$PLAN_DIR/plan.json" \
      --k2s-run .devrun/bin/src/run/k2s-run --clref .devrun/bin/tests/clref/k2s-clref 2>&1
  } | tee "$OUT/corpus${CORPUS_TAG:+-$CORPUS_TAG}.txt"
  ;;
*)
  sed -n '2,14p' "$0"
  exit 2
  ;;
esac
