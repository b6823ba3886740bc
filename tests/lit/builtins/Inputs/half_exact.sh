#!/bin/sh
# Runs half_exact.cl over all 65536 half bit patterns on Vulkan (k2s-run's default
# device) and prints how many patterns fail each function (nothing: all exact).
# Usage: tests/lit/builtins/Inputs/half_exact.sh BUILD_DIR
set -e
B=${1:-build}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
S=$(dirname "$0")
clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -no-opaque-pointers \
  -finclude-default-header -O2 "$S/half_exact.cl" -o "$D/h.bc"
llvm-spirv-15 "$D/h.bc" -o "$D/h.spv"
"$B/passes/k2s" "$D/h.spv" -o "$D/h.o.spv"
"$B/src/run/k2s-run" "$D/h.o.spv" --kernel t --global 65536 --arg buffer:ushort:65536=iota \
  --arg buffer:int:65536 | tail -1 | tr ' ' '\n' | tail -n +3 |
  awk '{ for (b = 0; b < 14; b++) if (int($1 / 2^b) % 2) n[b]++ }
       END { split("fmod remainder remquo frexp ldexp logb ilogb copysign fdim maxmag fract rint round nextafter", f, " ");
             bad = 0; for (b = 0; b < 14; b++) if (n[b]) { print f[b+1] ": " n[b] " of 65536 differ"; bad = 1 }
             if (!bad) print "half_exact: all 14 functions exact on all 65536 half inputs"; exit bad }'
