#!/bin/bash
# Identity round-trip benchmark (not a timed test): builds large modules from
# generated OpenCL C with clang-15 + llvm-spirv-15 (real producer output), then
# compares k2s's parse+write against spirv-val on the same module, in wall
# time (best of N) and in instructions executed (valgrind --tool=callgrind,
# repeatable). Results go to stdout; bench/RESULTS.md records a run.
#
# usage: bench/roundtrip.sh [BUILDDIR]          (default: build)
# env:   BIG=4500 kernels in the big module (~5.8 MB), MID=500 (~0.65 MB)
#        REPEATS=5, CALLGRIND=1 (0 to skip), BIG_VAL=1 (0 skips spirv-val on
#        the big module: it takes minutes), FULL_BIG=1 also runs the default
#        pipeline on the big module
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
BIG=${BIG:-4500}
MID=${MID:-500}
REPEATS=${REPEATS:-5}
CALLGRIND=${CALLGRIND:-1}
BIG_VAL=${BIG_VAL:-1}
OUT=$B/bench
mkdir -p "$OUT"
ninja -C "$B" passes/k2s passes/libk2s.a >/dev/null
K2S=$B/passes/k2s

cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -Iinclude -I"$B/src" bench/parse_write.c "$B/passes/libk2s.a" \
  $(pkg-config --static --libs SPIRV-Tools) -lstdc++ -lm -o "$OUT/parse_write"

module() { # kernels -> path of the module (cached)
  local n=$1 spv=$OUT/big$1.spv
  if [ ! -f "$spv" ] || [ bench/gen_big_cl.py -nt "$spv" ]; then
    python3 bench/gen_big_cl.py "$n" >"$OUT/big$n.cl"
    clang-15 -cc1 -triple spir64 -cl-std=CL1.2 -O2 -no-opaque-pointers -finclude-default-header \
      -emit-llvm-bc "$OUT/big$n.cl" -o "$OUT/big$n.bc"
    llvm-spirv-15 "$OUT/big$n.bc" -o "$spv"
  fi
  echo "$spv"
}

best() { # best wall time in seconds of REPEATS runs of a command
  python3 - "$REPEATS" "$@" <<'PY'
import subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
best = 1e9
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    best = min(best, time.perf_counter() - t)
print(f"{best:.4f}")
PY
}

ir() { # instructions executed (callgrind) by a command
  local f
  f=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$f" "$@" >/dev/null 2>"$f.log"
  grep -m1 -oP '(?<=Collected : )\d+' "$f.log"
  rm -f "$f" "$f.log"
}

spv_env() { # spirv-val's environment for a module: the one k2s validates input with
  case $(python3 -c "import sys,struct; print((struct.unpack('<I', open(sys.argv[1],'rb').read()[4:8])[0] >> 8) & 255)" "$1") in
    0|1|2) echo opencl2.2 ;;
    *) echo "spv1.$(python3 -c "import sys,struct; print((struct.unpack('<I', open(sys.argv[1],'rb').read()[4:8])[0] >> 8) & 255)" "$1")" ;;
  esac
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "k2s: $(git rev-parse --short HEAD) ($(meson introspect "$B" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"][0])') build)"
for n in "$MID" "$BIG"; do
  spv=$(module "$n")
  bytes=$(stat -c %s "$spv")
  mb=$(python3 -c "print(f'{$bytes/1e6:.2f}')")
  env=$(spv_env "$spv")
  echo
  echo "== $(basename "$spv"): $mb MB, $n kernels, spirv-val --target-env $env"
  "$OUT/parse_write" "$spv" 10 | sed 's/^/in-process /'
  t=$(best "$K2S" --passes=none --no-validate-input --no-validate-output "$spv" -o "$OUT/rt.spv")
  cmp "$spv" "$OUT/rt.spv"
  echo "k2s --passes=none (CLI, no validation):   ${t}s  $(python3 -c "print(f'{$bytes/1e6/$t:.1f}')") MB/s"
  if [ "$n" = "$MID" ] || [ "$BIG_VAL" = 1 ]; then
    reps=$REPEATS
    [ "$n" = "$BIG" ] && reps=1
    t=$(REPEATS=$reps best spirv-val --target-env "$env" "$spv")
    echo "spirv-val:                                 ${t}s  $(python3 -c "print(f'{$bytes/1e6/$t:.2f}')") MB/s"
  fi
  if [ "$n" = "$MID" ] || [ "${FULL_BIG:-0}" = 1 ]; then
    # Not the round trip: the whole default pipeline, for scale (validation
    # of input and output included, so spirv-val's time is in it twice).
    t0=$(date +%s.%N)
    if "$K2S" "$spv" -o "$OUT/full.spv" 2>"$OUT/full.err"; then r=ok; else r="failed: $(head -c 150 "$OUT/full.err")"; fi
    echo "k2s default pipeline (with validation):    $(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')")s  ($r)"
  fi
  if [ "$CALLGRIND" = 1 ]; then
    echo "callgrind k2s --passes=none (no validation): $(ir "$K2S" --passes=none --no-validate-input --no-validate-output "$spv" -o "$OUT/rt.spv") instructions"
    if [ "$n" = "$MID" ]; then
      echo "callgrind spirv-val:                         $(ir spirv-val --target-env "$env" "$spv") instructions"
    fi
  fi
done
