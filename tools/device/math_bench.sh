#!/bin/bash
# What --math=native buys (issue 5): a few math-heavy kernels translated twice, with the
# precise library (default) and with --math=native (GLSL.std.450), timed with k2s-run --time.
#
# Here (needs the build, clang-15 and llvm-spirv-15), from the repo root:
#   tools/device/math_bench.sh prepare [BUILD_DIR]   # default BUILD_DIR: build
# writes .math-bench/ (ignored through .git/info/exclude): k2s-run and the modules.
# Then, on this machine (lavapipe):       tools/device/math_bench.sh run
# On the GPU machine (device tool; carry [".gl", ".math-bench"]):
#   . tools/device/setup.sh; tools/device/math_bench.sh run
# Both write $OUT/math-bench.txt (default OUT=/tmp/math-bench-out): per kernel the best
# time of RUNS dispatches (default 20) precise and native, and their ratio.
set -u
cd "$(dirname "$0")/../.."
DEV=.math-bench
KERNELS="bs trig powlog atan2k erfk"

write_kernels() {
  cat >"$DEV/math_bench.cl" <<'CL'
#pragma OPENCL FP_CONTRACT OFF
// Black-Scholes call/put with a cumulative normal from erf, exp, log, sqrt.
kernel void bs(global const float *s, global const float *k, global float *call,
               global float *put)
{
    size_t i = get_global_id(0);
    float S = 10.0f + 90.0f * s[i], K = 10.0f + 90.0f * k[i], T = 1.5f, r = 0.02f, v = 0.3f;
    float sq = v * sqrt(T);
    float d1 = (log(S / K) + (r + 0.5f * v * v) * T) / sq, d2 = d1 - sq;
    float n1 = 0.5f * erfc(-d1 * 0.70710678f), n2 = 0.5f * erfc(-d2 * 0.70710678f);
    float e = exp(-r * T);
    call[i] = S * n1 - K * e * n2;
    put[i] = K * e * (1.0f - n2) - S * (1.0f - n1);
}
// Iterated sin/cos (a rotation with data-dependent angles).
kernel void trig(global const float *a, global float *o)
{
    size_t i = get_global_id(0);
    float x = a[i] * 100.0f, acc = 0.0f;
    for (int j = 0; j < 32; j++) {
        acc += sin(x) * cos(acc);
        x += 0.731f;
    }
    o[i] = acc;
}
// pow/log/exp chains.
kernel void powlog(global const float *a, global float *o)
{
    size_t i = get_global_id(0);
    float x = 0.5f + a[i], acc = 0.0f;
    for (int j = 0; j < 32; j++) {
        acc += pow(x, 1.3f + 0.01f * j) + log2(x + acc * 1e-3f) + exp(-x);
        x += 0.0137f;
    }
    o[i] = acc;
}
// atan2/atan/asin over a vector field.
kernel void atan2k(global const float2 *a, global float *o)
{
    size_t i = get_global_id(0);
    float2 p = a[i] - 0.5f;
    float acc = 0.0f;
    for (int j = 0; j < 32; j++) {
        acc += atan2(p.y, p.x) + asin(clamp(p.x * p.y * 3.0f, -1.0f, 1.0f));
        p = p.yx * 1.01f + 0.001f;
    }
    o[i] = acc;
}
// erf/tanh/cosh (special functions with no GLSL counterpart for erf).
kernel void erfk(global const float *a, global float *o)
{
    size_t i = get_global_id(0);
    float x = a[i] * 4.0f - 2.0f, acc = 0.0f;
    for (int j = 0; j < 32; j++) {
        acc += tanh(x) + cosh(x * 0.5f) + erf(x);
        x += 0.01f;
    }
    o[i] = acc;
}
CL
}

args_of() {
  local n=$1
  case $2 in
  bs) echo "--arg buffer:float:$n=rand:1 --arg buffer:float:$n=rand:2 --arg buffer:float:$n=zeros --arg buffer:float:$n=zeros" ;;
  atan2k) echo "--arg buffer:float2:$n=rand:3 --arg buffer:float:$n=zeros" ;;
  *) echo "--arg buffer:float:$n=rand:4 --arg buffer:float:$n=zeros" ;;
  esac
}

case "${1:-}" in
prepare)
  B=${2:-build}
  for f in "$B/passes/k2s" "$B/src/run/k2s-run"; do
    [ -x "$f" ] || { echo "math_bench.sh: $f not built (ninja -C $B)" >&2; exit 1; }
  done
  grep -qx '/.math-bench/' .git/info/exclude 2>/dev/null || echo '/.math-bench/' >>.git/info/exclude
  rm -rf "$DEV"
  mkdir -p "$DEV/bin"
  cp "$B/src/run/k2s-run" "$DEV/bin/"
  write_kernels
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -no-opaque-pointers \
    -finclude-default-header -O2 -o "$DEV/math_bench.bc" "$DEV/math_bench.cl" || exit 1
  llvm-spirv-15 "$DEV/math_bench.bc" -o "$DEV/math_bench.spv" || exit 1
  "$B/passes/k2s" "$DEV/math_bench.spv" -o "$DEV/precise.spv" || exit 1
  "$B/passes/k2s" --math=native "$DEV/math_bench.spv" -o "$DEV/native.spv" 2>/dev/null || exit 1
  ls -l "$DEV"
  ;;
run)
  OUT=${OUT:-/tmp/math-bench-out}
  RUNS=${RUNS:-20}
  N=${N:-1048576}
  mkdir -p "$OUT"
  R="$DEV/bin/k2s-run"
  "$R" --list-devices 2>&1 | tee "$OUT/devices.txt"
  {
    printf '%-8s %12s %12s %8s   (N=%d, best of %d)\n' kernel precise_us native_us ratio "$N" "$RUNS"
    for k in $KERNELS; do
      t=()
      for mode in precise native; do
        v=$("$R" "$DEV/$mode.spv" --kernel "$k" --global "$N" --local 64 $(args_of "$N" "$k") \
          --time "$RUNS" 2>&1 >/dev/null | sed -n 's/^time: \([0-9.]*\) us$/\1/p')
        t+=("${v:-NaN}")
      done
      printf '%-8s %12s %12s %8s\n' "$k" "${t[0]}" "${t[1]}" \
        "$(python3 -c "print('%.2f' % (float('${t[0]}') / float('${t[1]}')))" 2>/dev/null || echo NaN)"
    done
  } | tee "$OUT/math-bench.txt"
  ;;
*)
  echo "usage: tools/device/math_bench.sh prepare [BUILD_DIR] | run" >&2
  exit 2
  ;;
esac
