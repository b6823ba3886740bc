#!/usr/bin/env bash
# The whole corpus forced into physical pointer mode: every run of every corpus spec gets
# --pointers=physical (unless it names --pointers itself) and runs on vulkan1.2 only, on
# lavapipe against PoCL. A check that physical mode is a complete alternative to logical
# mode, not only for the kernels that need it. Takes ~2.5 min on 2 cores.
#   tools/physical_sweep.sh [BUILD_DIR] [run_corpus.py args...]   # default BUILD_DIR: build
# Results of the last recorded run: docs/physical-sweep.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
shift || true
W=$(mktemp -d /tmp/k2s-physical-sweep.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/corpus"
for spec in corpus/*.spec; do
  name=$(basename "$spec" .spec)
  cp "corpus/$name.cl" "$W/corpus/"
  python3 - "$spec" "$W/corpus/$name.spec" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
runs = open(src).read().split("\n---\n")
out = []
for r in runs:
    lines = r.rstrip("\n").split("\n")
    k = [i for i, l in enumerate(lines) if l.startswith("k2s:")]
    if k:
        if "--pointers=" not in lines[k[0]]:
            lines[k[0]] += " --pointers=physical"
    else:
        lines.append("k2s: --pointers=physical")
    lines = [l for l in lines if not l.startswith("envs:")] + ["envs: vulkan1.2"]
    out.append("\n".join(lines))
open(dst, "w").write("\n---\n".join(out) + "\n")
PY
done
K2S="$B/passes/k2s" K2S_RUN="$B/src/run/k2s-run" K2S_CLREF="$B/tests/clref/k2s-clref" \
  python3 tests/e2e/run_corpus.py --corpus "$W/corpus" --build-dir "$W/e2e" -j 2 "$@"
