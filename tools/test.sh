#!/usr/bin/env bash
# The test command (README; .ci/run calls exactly this): installs what the
# tests need (as root, on Debian 12), builds k2s normally and with
# AddressSanitizer + UndefinedBehaviorSanitizer, runs every meson test suite
# (unit, lit pass tests, runner, fuzz regressions, end-to-end corpus on
# lavapipe vs PoCL where present) and ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] && [ -z "${K2S_NO_APT:-}" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq clang-15 llvm-spirv-15 llvm-15-tools spirv-tools spirv-headers \
    libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers pocl-opencl-icd \
    ocl-icd-opencl-dev opencl-headers libmpfr-dev meson ninja-build pkg-config python3 \
    valgrind >/dev/null || { echo "apt-get install failed"; exit 1; }
fi

passed=0
failed=0
count() { # count a meson testlog.json into passed/failed
  local log=$1
  read -r p f < <(python3 - "$log" <<'PY'
import json, sys
p = f = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("result") in ("OK", "EXPECTEDFAIL", "SKIP"):
        p += 1
    else:
        f += 1
print(p, f)
PY
)
  passed=$((passed + p))
  failed=$((failed + f))
}

run_suite() { # build dir, meson options...
  local dir=$1
  shift
  if [ -d "$dir" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null || return 1
  else
    meson setup "$dir" "$@" >/dev/null || return 1
  fi
  ninja -C "$dir" >/dev/null || { echo "build of $dir failed"; ninja -C "$dir" | tail -30; return 1; }
  meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 2 "${MESON_TEST_ARGS[@]}"
  count "$dir/meson-logs/testlog.json"
}

MESON_TEST_ARGS=()
run_suite build || failed=$((failed + 1))
# The sanitizer build runs the engine-level suites (the Vulkan/OpenCL drivers
# are outside what ASan can instrument usefully and slow under it).
MESON_TEST_ARGS=(--suite unit --suite fuzz --suite lit)
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug ||
  failed=$((failed + 1))

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
