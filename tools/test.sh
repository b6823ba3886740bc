#!/usr/bin/env bash
# The test command (README; .ci/run calls exactly this). On a fresh Debian 12
# machine, as root, it installs what is missing; then it
#   1. builds k2s (build/) and runs every meson test suite: unit, lit pass
#      tests, malformed inputs, round trip, fuzz regressions, and whatever
#      other suites register with meson (runner, end-to-end corpus, ...);
#   2. builds with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
#      and runs the engine-level suites: unit, malformed, roundtrip, fuzz, lit;
#   3. builds the libFuzzer target with clang-15 (build-fuzz/) and fuzzes
#      FUZZ_RUNS inputs (default 5000, at most 300 s) from the corpus seeds
#      with the fixed libFuzzer seed FUZZ_SEED (default 1), so the run is the
#      same on every machine and a pass here is a pass in CI; FUZZ_SECONDS=N
#      fuzzes for N seconds with a random seed instead (exploration; the long
#      runs are in tests/fuzz/README.md);
# and ends with the line "N passed, N failed" (meson tests of both builds,
# plus the fuzz run). Exit status 0 only if nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-}
FUZZ_RUNS=${FUZZ_RUNS:-5000}
FUZZ_SEED=${FUZZ_SEED:-1}
JOBS=${JOBS:-$(nproc)}

PACKAGES=(g++ clang-15 llvm-spirv-15 llvm-15-tools clang-14 llvm-spirv-14 spirv-tools spirv-headers libvulkan-dev
  mesa-vulkan-drivers vulkan-validationlayers pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
  libmpfr-dev meson ninja-build pkg-config python3 valgrind)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing packages (run as root to install): ${missing[*]}"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null
  apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null || { echo "apt-get install failed"; exit 1; }
fi

passed=0 failed=0 skipped=0
count() { # add a meson testlog.json to the totals
  local p f s
  read -r p f s < <(python3 - "$1" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        p += 1
    elif r == "SKIP":
        s += 1
    else:
        f += 1
print(p, f, s)
PY
)
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

setup() { # dir, meson options...
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    rm -rf "$dir"
    meson setup "$dir" "$@" >/dev/null
  fi || { echo "meson setup $dir failed"; return 1; }
  ninja -C "$dir" >"$dir/ninja-output.log" 2>&1 || { echo "build of $dir failed:"; tail -30 "$dir/ninja-output.log"; return 1; }
}

run_meson() { # dir, meson test args...
  local dir=$1
  shift
  rm -f "$dir/meson-logs/testlog.json"
  meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes "$JOBS" "$@" </dev/null
  if [ -f "$dir/meson-logs/testlog.json" ]; then
    count "$dir/meson-logs/testlog.json"
  else
    failed=$((failed + 1))
  fi
}

echo "== normal build (build/): all meson tests"
if setup build; then run_meson build; else failed=$((failed + 1)); fi

echo "== ASan + UBSan build (build-asan/): unit, malformed, roundtrip, fuzz, lit"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
if setup build-asan -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=undefined; then
  run_meson build-asan --suite unit --suite malformed --suite roundtrip --suite fuzz --suite lit
else
  failed=$((failed + 1))
fi

if [ -n "$FUZZ_SECONDS" ]; then
  fuzz_limit=(-max_total_time="$FUZZ_SECONDS")
  echo "== libFuzzer (build-fuzz/): ${FUZZ_SECONDS}s, random seed"
else
  fuzz_limit=(-runs="$FUZZ_RUNS" -seed="$FUZZ_SEED" -max_total_time=300)
  echo "== libFuzzer (build-fuzz/): $FUZZ_RUNS inputs, seed $FUZZ_SEED"
fi
flog=$(mktemp)
if fuzzer=$(tools/build-fuzzer.sh build-fuzz 2>"$flog" | tail -1) && [ -x "$fuzzer" ]; then
  work=$(mktemp -d)
  mkdir -p "$work/corpus" "$work/artifacts"
  if "$fuzzer" "${fuzz_limit[@]}" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" build-fuzz/fuzz-seeds >"$work/log" 2>&1 &&
    [ -z "$(ls -A "$work/artifacts")" ]; then
    passed=$((passed + 1))
    echo "fuzz: $(grep -m1 -oP 'stat::number_of_executed_units: *\K\d+' "$work/log") inputs, no crash"
  else
    failed=$((failed + 1))
    echo "fuzz: FAILED"
    grep -E -A30 "ERROR|runtime error|property violated" "$work/log" | head -60
    ls "$work/artifacts" | head
    mkdir -p build-fuzz/artifacts && cp "$work"/artifacts/* build-fuzz/artifacts/ 2>/dev/null &&
      echo "(inputs saved in build-fuzz/artifacts; replay with build/tests/fuzz/fuzz_replay FILE)"
  fi
  rm -rf "$work"
else
  failed=$((failed + 1))
  echo "fuzz: building the fuzzer failed"
  tail -30 "$flog"
fi
rm -f "$flog"

[ "$skipped" -gt 0 ] && echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
