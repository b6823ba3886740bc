#!/bin/bash
# Device conversion test on the NVIDIA GPU machine (issue 5, docs/conversions.md): every
# convert_DST[_sat][_rtX](SRC) for the eleven scalar types, as scalars and 2/3/4-lane
# vectors, run through k2s-translated modules built here and checked there against
# conv_check's reference of the OpenCL rules.
#
# Here (needs the build, clang-15 and llvm-spirv-15), from the repo root:
#   tools/device/conversions.sh prepare [BUILD_DIR]     # default BUILD_DIR: build
# writes .conversions-device/ (ignored through .git/info/exclude, ~15 MB): k2s-run and
# conv_check (MPFR linked statically), the translated modules and the inputs (8/16-bit and
# half sources exhaustive, SAMPLES=65536 edge and random values for the others).
#
# There (device tool; carry [".gl", ".conversions-device"]; a few minutes):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tools/device/conversions.sh run
# writes $OUT/conversions-nvidia.txt (one line per source x lanes, mismatches listed) and
# $OUT/conversions-nvidia-cost.md (kernel times, default lowering vs --math=native).
set -u
cd "$(dirname "$0")/../.."
DEV=.conversions-device
LANES=${LANES:-1,2,3,4}

case "${1:-}" in
prepare)
  B=${2:-build}
  for f in "$B/passes/k2s" "$B/src/run/k2s-run" "$B/tests/conversions/conv_check"; do
    [ -x "$f" ] || { echo "conversions.sh: $f not built (ninja -C $B)" >&2; exit 1; }
  done
  grep -qx '/.conversions-device/' .git/info/exclude 2>/dev/null ||
    echo '/.conversions-device/' >>.git/info/exclude
  rm -rf "$DEV"
  mkdir -p "$DEV/bin"
  cp "$B/src/run/k2s-run" "$B/tests/conversions/conv_check" "$DEV/bin/"
  python3 tests/conversions/run_conversions.py --stage prepare --k2s "$B/passes/k2s" \
    --conv-check "$DEV/bin/conv_check" --work "$DEV/work" --lanes "$LANES" \
    --samples "${SAMPLES:-65536}" -j 2 >"$DEV/prepare.log" 2>&1
  tail -1 "$DEV/prepare.log"
  python3 tests/conversions/cost.py --stage prepare --k2s "$B/passes/k2s" --work "$DEV/cost" \
    >"$DEV/cost-instructions.md" 2>&1 || tail -3 "$DEV/cost-instructions.md"
  rm -f "$DEV"/cost/*.bc
  du -sh "$DEV"
  ;;
run)
  OUT=${OUT:-/tmp/conversions-out}
  mkdir -p "$OUT"
  [ -x "$DEV/bin/k2s-run" ] || { echo "conversions.sh: run 'prepare' here first and carry $DEV" >&2; exit 1; }
  if ! "$DEV/bin/k2s-run" --list-devices >/dev/null 2>&1; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  {
    echo "== $(date -u) $(nproc) cores"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
    "$DEV/bin/k2s-run" --list-devices 2>&1
    timeout 480 python3 tests/conversions/run_conversions.py --stage run \
      --k2s-run "$DEV/bin/k2s-run" --conv-check "$DEV/bin/conv_check" --work "$DEV/work" \
      --lanes "$LANES" --samples "${SAMPLES:-65536}" -j 8 2>&1
  } >"$OUT/conversions-nvidia.txt"
  # timings: 16 conversions per item, default lowering against --math=native
  timeout 90 python3 tests/conversions/cost.py --stage run --k2s-run "$DEV/bin/k2s-run" \
    --work "$DEV/cost" --items 4194240 >"$OUT/conversions-nvidia-cost.md" 2>&1
  cat "$OUT/conversions-nvidia-cost.md"
  grep -E '^(FAIL|PASS)' "$OUT/conversions-nvidia.txt" | cut -c1-120
  tail -1 "$OUT/conversions-nvidia.txt"
  grep -q ' 0 failed$' "$OUT/conversions-nvidia.txt"
  ;;
*)
  sed -n '2,16p' "$0"
  exit 2
  ;;
esac
