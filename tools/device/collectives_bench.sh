#!/bin/bash
# Work-group functions against a hand-written local-memory tree (issue 11): the float sum of
# each work-group of 256 with work_group_reduce_add (k2s's sub-group partials or, with
# --no-subgroups, its scratch-memory tree) and with the classic local-memory tree of
# corpus/local_args.cl; an inclusive scan for scale. Timed with k2s-run --time.
#
# Here (needs the build, clang-15 and llvm-spirv-15), from the repo root:
#   tools/device/collectives_bench.sh prepare [BUILD_DIR]   # default BUILD_DIR: build
# writes .collectives-bench/ (ignored through .git/info/exclude): k2s-run and the modules.
# Then, on this machine (lavapipe):  tools/device/collectives_bench.sh run
# On the GPU machine (device tool; carry [".gl", ".collectives-bench"]):
#   . tools/device/setup.sh; tools/device/collectives_bench.sh run
# Both write $OUT/collectives-bench.txt (default OUT=/tmp/collectives-bench-out): per kernel
# and translation the best time of RUNS dispatches (default 20).
set -u
cd "$(dirname "$0")/../.."
DEV=.collectives-bench

write_kernels() {
  cat >"$DEV/wg.cl" <<'CL'
// One float sum per work-group with the OpenCL C 2.0 work-group function.
kernel void wg_reduce(global const float *in, global float *partial)
{
    float s = work_group_reduce_add(in[get_global_id(0)]);
    if (get_local_id(0) == 0)
        partial[get_group_id(0)] = s;
}
// Inclusive prefix sums within each work-group.
kernel void wg_scan(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = work_group_scan_inclusive_add(in[i]);
}
CL
  cat >"$DEV/tree.cl" <<'CL'
// The same sums, hand-written: a local-memory tree (as corpus/local_args.cl).
kernel void tree_reduce(global const float *in, global float *partial, local float *scratch)
{
    uint lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
CL
}

compile() { # cl-std, source, output
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std="$1" -emit-llvm-bc -no-opaque-pointers \
    -finclude-default-header -O2 -o "${3%.spv}.bc" "$2" || exit 1
  llvm-spirv-15 "${3%.spv}.bc" -o "$3" || exit 1
}

case "${1:-}" in
prepare)
  B=${2:-build}
  for f in "$B/passes/k2s" "$B/src/run/k2s-run"; do
    [ -x "$f" ] || { echo "collectives_bench.sh: $f not built (ninja -C $B)" >&2; exit 1; }
  done
  grep -qx '/.collectives-bench/' .git/info/exclude 2>/dev/null ||
    echo '/.collectives-bench/' >>.git/info/exclude
  rm -rf "$DEV"
  mkdir -p "$DEV/bin"
  cp "$B/src/run/k2s-run" "$DEV/bin/"
  write_kernels
  compile CL2.0 "$DEV/wg.cl" "$DEV/wg.in.spv"
  compile CL1.2 "$DEV/tree.cl" "$DEV/tree.in.spv"
  "$B/passes/k2s" "$DEV/wg.in.spv" -o "$DEV/wg.spv" || exit 1
  "$B/passes/k2s" --no-subgroups "$DEV/wg.in.spv" -o "$DEV/wg-nosg.spv" || exit 1
  "$B/passes/k2s" "$DEV/tree.in.spv" -o "$DEV/tree.spv" || exit 1
  ls -l "$DEV"
  ;;
run)
  OUT=${OUT:-/tmp/collectives-bench-out}
  RUNS=${RUNS:-20}
  N=${N:-1048576}
  L=256
  mkdir -p "$OUT"
  R="$DEV/bin/k2s-run"
  "$R" --list-devices 2>&1 | tee "$OUT/devices.txt"
  time_of() { # module kernel args...
    local mod=$1 k=$2
    shift 2
    "$R" "$DEV/$mod" --kernel "$k" --global "$N" --local "$L" "$@" --no-size-warnings \
      --time "$RUNS" 2>&1 >/dev/null | sed -n 's/^time: \([0-9.]*\) us$/\1/p'
  }
  G=$((N / L))
  {
    printf '%-40s %12s   (N=%d, work-groups of %d, best of %d)\n' case time_us "$N" "$L" "$RUNS"
    printf '%-40s %12s\n' "tree_reduce (hand-written local tree)" \
      "$(time_of tree.spv tree_reduce --arg buffer:float:$N=rand:1 --arg buffer:float:$G \
         --arg local:$((4 * L)))"
    printf '%-40s %12s\n' "work_group_reduce_add (k2s default)" \
      "$(time_of wg.spv wg_reduce --arg buffer:float:$N=rand:1 --arg buffer:float:$G)"
    printf '%-40s %12s\n' "work_group_reduce_add (--no-subgroups)" \
      "$(time_of wg-nosg.spv wg_reduce --arg buffer:float:$N=rand:1 --arg buffer:float:$G)"
    printf '%-40s %12s\n' "work_group_scan_inclusive_add (default)" \
      "$(time_of wg.spv wg_scan --arg buffer:float:$N=rand:1 --arg buffer:float:$N)"
  } | tee "$OUT/collectives-bench.txt"
  ;;
*)
  echo "usage: tools/device/collectives_bench.sh prepare [BUILD_DIR] | run" >&2
  exit 2
  ;;
esac
