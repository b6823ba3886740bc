#!/usr/bin/env bash
# The wide sweep (docs/sweep.md): collect public OpenCL C / SPIR-V assembly sources, build
# them with clang-15/14 + llvm-spirv-15/14 in several configurations, translate each module
# with k2s for vulkan1.1/1.2/1.3, run spirv-val on everything written, and classify.
#
#   tools/sweep.sh [-w WORK] [--] [run options...] -- SRC...
#   tools/sweep.sh -w /tmp/sweep --sample 80 --config-sample 2 -j 2 -- \
#       /work/.mirror/KhronosGroup+OpenCL-CTS/repo /work/.mirror/google+clspv/repo ...
#
# SRC: a git directory left by the `fetch` tool (no work tree needed) or a plain directory.
# WORK (default ./sweep-work) is scratch: sources, results.jsonl (resumable: an interrupted
# run picks up where it stopped), failures/, report.md. Nothing from it is ever committed.
# Run options are those of `tools/sweep.py run` (--sample N, --config-sample K,
# --configs 'clang=15 opt=O2 env=vulkan1.2', --suite cts, -j N, --timeout S, --strict...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=sweep-work
if [ "${1:-}" = -w ]; then work=$2; shift 2; fi
runopts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do runopts+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
if [ $# -eq 0 ] && [ ! -f "$work/manifest.jsonl" ]; then
  echo "usage: $0 [-w WORK] [run options...] -- SRC..." >&2
  exit 2
fi
if [ $# -gt 0 ]; then
  python3 "$here/sweep.py" extract --out "$work" "$@"
fi
rc=0
python3 "$here/sweep.py" run --work "$work" "${runopts[@]}" || rc=$?
python3 "$here/sweep.py" report --work "$work" --out "$work/report.md" >/dev/null
echo "sweep: report in $work/report.md" >&2
exit $rc
