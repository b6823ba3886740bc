#!/usr/bin/env bash
# Every GPU-machine job in one device call (device time is scarce: one start, one run).
# Here, first, with the build and the compilers, prepare what travels:
#   tools/device/all.sh prepare [BUILD_DIR]
# then call the device tool from the repo root with
#   carry [".gl", ".devrun", ".devrun-ptr", ".precision-device", ".conversions-device",
#          ".math-bench"]
#   command: bash tools/device/all.sh run [JOB...]
# JOB: corpus physical pointers conversions bench precision (default: all of them, in that
# order; the default caps add up to more than one device call's 10 minutes, so split them,
# e.g. "run corpus physical pointers bench" and "run conversions precision").
# Each job gets a time cap (seconds, env: CORPUS_S, PHYSICAL_S, POINTERS_S, PRECISION_S,
# CONVERSIONS_S, BENCH_S). $OUT gets the main result of each job and all.tgz with every file they wrote
# (the device tool returns at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/../.."

case "${1:-}" in
prepare)
  B=${2:-build}
  tools/device/corpus.sh prepare "$B"
  tools/device/physical.sh prepare "$B"
  tools/device/pointers.sh prepare "$B"
  tools/device/precision.sh prepare "$B"
  tools/device/conversions.sh prepare "$B"
  tools/device/math_bench.sh prepare "$B"
  du -sh .gl .devrun .devrun-ptr .precision-device .conversions-device .math-bench
  ;;
run)
  . tools/device/setup.sh
  [ -e build ] || ln -s .devrun/bin build # physical.sh runs the hosts from build/
  FINAL=${OUT:-/tmp/k2s-device-out}
  WORK=/tmp/k2s-all
  rm -rf "$WORK"
  mkdir -p "$WORK" "$FINAL"
  job() { # name, seconds, command...
    local name=$1 secs=$2
    shift 2
    mkdir -p "$WORK/$name"
    echo "== $name (cap ${secs}s)"
    local t0=$SECONDS
    OUT="$WORK/$name" timeout "$secs" "$@" >"$WORK/$name/stdout.txt" 2>&1
    echo "   exit $? after $((SECONDS - t0))s"
    tail -3 "$WORK/$name/stdout.txt"
  }
  shift
  jobs=("$@")
  [ ${#jobs[@]} -gt 0 ] || jobs=(corpus physical pointers conversions bench precision)
  for j in "${jobs[@]}"; do
    case $j in
    corpus) job corpus "${CORPUS_S:-330}" tools/device/corpus.sh run ;;
    physical) job physical "${PHYSICAL_S:-60}" tools/device/physical.sh run ;;
    pointers) job pointers "${POINTERS_S:-90}" tools/device/pointers.sh run ;;
    conversions) job conversions "${CONVERSIONS_S:-150}" tools/device/conversions.sh run ;;
    bench) job bench "${BENCH_S:-90}" tools/device/math_bench.sh run ;;
    precision) job precision "${PRECISION_S:-240}" tools/device/precision.sh run ;;
    *) echo "all.sh: unknown job $j" ;;
    esac
  done
  for f in corpus/corpus.txt physical/physical.txt pointers/pointers.txt \
    conversions/conversions-nvidia.txt \
    bench/math-bench.txt precision/precision-nvidia.md; do
    [ -f "$WORK/$f" ] && cp "$WORK/$f" "$FINAL/"
  done
  tar czf "$FINAL/all.tgz" -C "$WORK" .
  ls -la "$FINAL"
  ;;
*)
  sed -n '2,11p' "$0"
  exit 2
  ;;
esac
