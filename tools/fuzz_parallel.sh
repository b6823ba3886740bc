#!/bin/bash
# Also the GPU-machine request robust2-1 (/work/gpu-queue/PROTOCOL.md): next to it the
# fuzz binary (tools/build-fuzzer.sh --fast), seeds.tgz (one folder seeds/: the contents of
# build-fuzz-fast/fuzz-seeds and fuzz-seeds-options together) and lib/; $OUT receives the results.
# usage: OUT=DIR [FUZZ_JOBS=16] [FUZZ_SECONDS=200] bash DIR_WITH_BINARY/fuzz_parallel.sh
# issue 15: a long fuzz run of k2s's libFuzzer target (tests/fuzz/fuzz_translate.c),
# built without ASan (clang-15 -fsanitize=fuzzer, UBSan with traps, asserts on),
# 16 jobs in parallel for 200 s each from 710 seeds (every corpus module, little-
# and big-endian, 400 of them under option tails, and the regression inputs).
# Returns: summary.txt (executions per job and in all, coverage, crashes),
# logs.tgz (every job's libFuzzer log), art.tgz (crash/timeout/oom artifacts) and
# corpus.tgz (the first jobs' new corpus inputs, for coverage measured afterwards).
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
tar -xzf "$D/seeds.tgz" -C "$W"
BIN="${FUZZ_BIN:-$D/fuzz_translate}"
chmod +x "$BIN"
# The C++ runtime it was linked with, in case the machine lacks it.
if ldd "$BIN" | grep -q "not found"; then export LD_LIBRARY_PATH="$D/lib"; fi
JOBS=${FUZZ_JOBS:-16}
T=${FUZZ_SECONDS:-200}
nproc > "$W/nproc.txt"
for i in $(seq 0 $((JOBS - 1))); do
  mkdir -p "$W/corpus/$i" "$W/art/$i"
  timeout $((T + 25)) "$BIN" -max_total_time="$T" -timeout=20 -rss_limit_mb=3000 \
    -seed=$((i + 1)) -print_final_stats=1 -artifact_prefix="$W/art/$i/" \
    "$W/corpus/$i" "$W/seeds" > "$W/log.$i.txt" 2>&1 &
done
wait
{
  echo "machine: $(nproc) CPUs; $JOBS jobs x ${T} s"
  total=0
  for i in $(seq 0 $((JOBS - 1))); do
    n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$W/log.$i.txt" | awk '{print $2}')
    last=$(grep -E '^#[0-9]+' "$W/log.$i.txt" | tail -1)
    echo "job $i: executions ${n:-?}; last: $last"
    total=$((total + ${n:-0}))
  done
  echo "total executions: $total"
  echo "artifacts (crash-*, timeout-*, oom-*, leak-*):"
  find "$W/art" -type f | sed "s|$W/||"
  echo "new corpus inputs: $(find "$W/corpus" -type f | wc -l)"
} > "$OUT/summary.txt"
(cd "$W" && tar -czf "$OUT/logs.tgz" log.*.txt nproc.txt)
# Artifacts alone first, so they always come back; then as many jobs' new corpus
# inputs as fit the device tool's 16 MiB per file (for coverage measured here).
(cd "$W" && tar -czf "$OUT/art.tgz" art)
for n in 4 3 2 1; do
  dirs=$(for i in $(seq 0 $((n - 1))); do [ -d "$W/corpus/$i" ] && echo "corpus/$i"; done)
  (cd "$W" && tar -czf "$OUT/corpus.tgz" $dirs)
  [ "$(stat -c %s "$OUT/corpus.tgz")" -lt 15000000 ] && break
  rm -f "$OUT/corpus.tgz"
done
ls -la "$OUT"
cat "$OUT/summary.txt"
