#!/usr/bin/env python3
"""Edge coverage per pass of a fuzz corpus: runs the libFuzzer binary once over
the given inputs with -print_coverage=1 (SanitizerCoverage's per-function edge
counts, symbolized by llvm-symbolizer) and sums covered/total edges per source
file: one row per pass (passes/*.c), then the engine (src/*.c), in the order
of the pipeline's files. Prints Markdown (docs/robustness.md records runs).

usage: fuzz_coverage.py FUZZ_BINARY DIR_OR_FILE... | fuzz_coverage.py --log COVERAGE_LOG
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) \S+ (\S+):\d+")


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--log":
        text = open(args[1], errors="replace").read()
    elif len(args) >= 2:
        with tempfile.TemporaryDirectory() as empty:
            r = subprocess.run([args[0], "-runs=0", "-print_coverage=1", empty] + args[1:],
                               capture_output=True, text=True, errors="replace")
        text = r.stdout + r.stderr
    else:
        sys.exit(__doc__)
    cov = collections.defaultdict(lambda: [0, 0])
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        path = os.path.normpath(m.group(3))
        parts = path.split(os.sep)
        key = os.path.join(*parts[-2:]) if len(parts) >= 2 else path
        cov[key][0] += int(m.group(1))
        cov[key][1] += int(m.group(2))
    if not cov:
        sys.exit("no COVERED_FUNC lines (is llvm-symbolizer on PATH?)")
    rows = sorted(cov.items(), key=lambda kv: (not kv[0].startswith("passes/"), kv[0]))
    print("| file | edges covered | of | % |")
    print("|---|---|---|---|")
    tot = [0, 0]
    for name, (c, t) in rows:
        if not (name.startswith("passes/") or name.startswith("src/")):
            continue
        tot[0] += c
        tot[1] += t
        print(f"| {name} | {c} | {t} | {100 * c / t:.0f} |" if t else f"| {name} | 0 | 0 | - |")
    print(f"| **all of passes/ and src/** | {tot[0]} | {tot[1]} | {100 * tot[0] / max(tot[1], 1):.0f} |")


if __name__ == "__main__":
    main()
