#!/bin/bash
# Build the libFuzzer target tests/fuzz/fuzz_translate with clang-15,
# -fsanitize=fuzzer,address,undefined (the library is instrumented with
# fuzzer-no-link so coverage reaches the parser and passes), and write a seed
# corpus of every corpus/ module (little- and big-endian) next to it.
#
# usage: tools/build-fuzzer.sh [--fast] [BUILDDIR]        (default build-fuzz)
# then:  BUILDDIR/tests/fuzz/fuzz_translate -max_total_time=60 BUILDDIR/fuzz-corpus BUILDDIR/fuzz-seeds
set -euo pipefail
cd "$(dirname "$0")/.."
# --fast [BUILDDIR] (default build-fuzz-fast): no ASan, UBSan as traps, asserts
# on: about 3x the executions per second, for long runs (docs/robustness.md).
FAST=
if [ "${1:-}" = --fast ]; then FAST=1; shift; fi
B=${1:-build-fuzz${FAST:+-fast}}
if [ ! -f "$B/build.ninja" ] && [ -n "$FAST" ]; then
  CC=clang-15 CXX=clang++-15 meson setup "$B" -Dfuzz=true -Dbuildtype=debugoptimized \
    -Db_ndebug=false -Db_lundef=false -Dvulkan=disabled -Dopencl=disabled \
    -Dc_args="-fsanitize=fuzzer-no-link -fsanitize=undefined -fsanitize-trap=undefined" \
    -Dc_link_args="-fsanitize=undefined -fsanitize-trap=undefined" >/dev/null
elif [ ! -f "$B/build.ninja" ]; then
  CC=clang-15 CXX=clang++-15 meson setup "$B" -Dfuzz=true -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined" >/dev/null
fi
ninja -C "$B" tests/fuzz/fuzz_translate >/dev/null
mkdir -p "$B/fuzz-seeds" "$B/fuzz-corpus"
if [ -z "$(ls -A "$B/fuzz-seeds")" ]; then
  python3 tools/corpus_modules.py "$B/fuzz-seeds" >/dev/null
  python3 tools/spv_swap.py "$B/fuzz-seeds"/*.spv
  cp tests/fuzz/regressions/* "$B/fuzz-seeds/" 2>/dev/null || true
  # The same seeds under 7 option sets, in their own folder: long runs start
  # from both folders; CI's short run from fuzz-seeds alone (8x the seeds made
  # its fixed 20,000 inputs take over 20 minutes).
  mkdir -p "$B/fuzz-seeds-options"
  cp "$B/fuzz-seeds"/*.spv "$B/fuzz-seeds-options/" 2>/dev/null
  python3 tools/fuzz_seed_options.py "$B/fuzz-seeds-options" >/dev/null
  find "$B/fuzz-seeds-options" -name '*.spv' ! -name '*.opt*' -delete
fi
echo "$B/tests/fuzz/fuzz_translate"
