#!/usr/bin/env bash
# The end-to-end corpus on the GPU machine. Here (with the compilers and PoCL):
#   python3 tests/e2e/run_corpus.py --build-dir .devrun/e2e --emit-plan .devrun/e2e/plan.json
# compiles, translates for every target env, validates, and records the PoCL references;
# then, on the GPU machine (carry .gl, .devrun and build/), this script runs every case with
# k2s-run on the first discrete GPU and compares. Cases PoCL cannot run (non-uniform
# work-groups) get a reference from the GPU machine's own OpenCL driver through k2s-clref.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tools/device/setup.sh
OUT=${OUT:-/tmp/k2s-device-out}
mkdir -p "$OUT"
build/src/run/k2s-run --list-devices 2>&1 | tee "$OUT/devices.txt"
python3 tests/e2e/run_corpus.py --replay-plan .devrun/e2e/plan.json \
  --k2s-run build/src/run/k2s-run --clref build/tests/clref/k2s-clref "$@" 2>&1 | tee "$OUT/corpus.txt"
