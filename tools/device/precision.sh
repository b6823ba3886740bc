#!/bin/bash
# Precision tool on the NVIDIA GPU machine (issue 5): the same measurement as
# docs/precision.md, run there from binaries and modules built here.
#
# Here (needs the build, clang-15 and llvm-spirv-15), from the repo root:
#   tools/device/precision.sh prepare [BUILD_DIR]     # default BUILD_DIR: build
# writes .precision-device/ (ignored through .git/info/exclude): k2s-run and k2s-ulp (MPFR
# linked statically) and every kernel translated by k2s in precise and --math=native mode.
#
# There (device tool; carry [".gl", ".precision-device"]; ~3 minutes):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tools/device/precision.sh run
# writes $OUT/precision-nvidia.md (the table), $OUT/precision-nvidia.json (all rows),
# $OUT/precision-nvidia.jsonl (rows as they complete, kept if the run is cut short) and
# $OUT/precision-nvidia.log. COUNT (default 1000000) sets the random inputs per function;
# FUNCS (names or globs, comma-separated) and TYPES (e.g. half) pick rows, in both steps.
set -u
cd "$(dirname "$0")/../.."
DEV=.precision-device

case "${1:-}" in
prepare)
  B=${2:-build}
  for f in "$B/passes/k2s" "$B/src/run/k2s-run" "$B/tests/precision/k2s-ulp"; do
    [ -x "$f" ] || { echo "precision.sh: $f not built (ninja -C $B)" >&2; exit 1; }
  done
  grep -qx '/.precision-device/' .git/info/exclude 2>/dev/null ||
    echo '/.precision-device/' >>.git/info/exclude
  rm -rf "$DEV"
  mkdir -p "$DEV/bin" "$DEV/modules"
  cp "$B/src/run/k2s-run" "$B/tests/precision/k2s-ulp" "$DEV/bin/"
  python3 tests/precision/run_precision.py --k2s "$B/passes/k2s" --k2s-run "$DEV/bin/k2s-run" \
    --k2s-ulp "$DEV/bin/k2s-ulp" --work-dir /tmp/k2s-precision-prepare -j 2 \
    --funcs "${FUNCS:-*}" --types "${TYPES:-float,half,double}" \
    --save-modules "$DEV/modules" --translate-only >"$DEV/prepare.log" 2>&1
  tail -1 "$DEV/prepare.log"
  du -sh "$DEV"
  ;;
run)
  OUT=${OUT:-/tmp/precision-out}
  mkdir -p "$OUT"
  [ -x "$DEV/bin/k2s-run" ] || { echo "precision.sh: run 'prepare' here first and carry $DEV" >&2; exit 1; }
  if ! "$DEV/bin/k2s-run" --list-devices >/dev/null 2>&1; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  {
    echo "== $(date -u) $(nproc) cores"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    "$DEV/bin/k2s-run" --list-devices 2>&1
  } >"$OUT/precision-nvidia.log"
  rm -f "$OUT/precision-nvidia.jsonl"
  # 16 cores: 8 functions at once, 2 MPFR threads each; stopped after PRECISION_TIMEOUT
  # seconds (default 280, inside a 5-minute budget; the .jsonl keeps every row finished
  # by then).
  timeout "${PRECISION_TIMEOUT:-280}" python3 tests/precision/run_precision.py --prebuilt "$DEV/modules" \
    --k2s-run "$DEV/bin/k2s-run" --k2s-ulp "$DEV/bin/k2s-ulp" \
    --work-dir /tmp/k2s-precision -j 8 --check-threads 2 --count "${COUNT:-1000000}" \
    --funcs "${FUNCS:-*}" --types "${TYPES:-float,half,double}" \
    --json "$OUT/precision-nvidia.json" --jsonl "$OUT/precision-nvidia.jsonl" \
    --table "$OUT/precision-nvidia.md" >>"$OUT/precision-nvidia.log" 2>&1
  rc=$?
  if [ ! -s "$OUT/precision-nvidia.md" ]; then  # cut short: the rows finished so far
    python3 tests/precision/run_precision.py --k2s-ulp "$DEV/bin/k2s-ulp" \
      --from-jsonl "$OUT/precision-nvidia.jsonl" --json "$OUT/precision-nvidia.json" \
      --table "$OUT/precision-nvidia.md" >>"$OUT/precision-nvidia.log" 2>&1
  fi
  tail -3 "$OUT/precision-nvidia.log"
  exit $rc
  ;;
*)
  sed -n '2,16p' "$0"
  exit 2
  ;;
esac
