#!/usr/bin/env python3
"""Output growth per pass (issue 16, item 3): for each input module, the number
of instructions after every pass (k2s --print-after=all), the output against the
input, and what `spirv-opt` with the -O recipe minus inlining (bench/scale.py's
O_NO_INLINE) still removes from k2s's output. Prints Markdown: one row per
module, then the median and maximum output/input ratio, and each pass's median
and maximum growth (instructions after / before it).

usage: bench/growth.py [--k2s build/passes/k2s] [--no-opt | --opt-only] [--jobs N]
                       [--k2s-flags F] MODULE.spv...
       (e.g. build/tests/e2e/cache/spv/*.spv build-rel/bench/big100.spv)
--opt-only skips the per-pass counts (the slow half): the output against the input and
what spirv-opt removes only. --jobs runs that many modules at once.
A module k2s refuses with its default options is listed and left out of the
statistics (the e2e corpus gives some modules options of their own).
"""
import argparse
import concurrent.futures as cf
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale import O_NO_INLINE, n_instructions  # noqa: E402

INSTR = re.compile(r"^\s*(%\S+\s*=\s*)?Op[A-Z]")
SECTION = re.compile(r"^; ---- after (\S+) ----$")


def per_pass_counts(k2s, spv, flags):
    """[(pass, instructions after it)], or None where k2s refuses the module."""
    p = subprocess.run([k2s, "--print-after=all", "--no-validate-input", "--no-validate-output",
                        *flags, spv, "-o", os.devnull], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return None
    counts, cur = [], None
    for line in p.stderr.decode(errors="replace").splitlines():
        m = SECTION.match(line)
        if m:
            cur = [m.group(1), 0]
            counts.append(cur)
        elif cur is not None and INSTR.match(line):
            cur[1] += 1
    return [(name, n) for name, n in counts]


def opt_removed(spv_out):
    """Percentage of k2s's output instructions spirv-opt -O minus inlining removes."""
    with tempfile.TemporaryDirectory() as d:
        o = os.path.join(d, "o.spv")
        p = subprocess.run(["spirv-opt", "--skip-validation"] + ["--" + x for x in O_NO_INLINE] +
                           [spv_out, "-o", o], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            return None
        a, b = n_instructions(spv_out), n_instructions(o)
        return 100.0 * (a - b) / a if a else 0.0


def measure(a, spv):
    """(name, per-pass counts or None where refused, n_in, n_out, removed % or None)."""
    name = os.path.basename(spv)
    flags = a.k2s_flags.split()
    counts = [] if a.opt_only else per_pass_counts(a.k2s, spv, flags)
    if counts is None:
        return name, None, 0, 0, None
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "k.spv")
        p = subprocess.run([a.k2s, "--no-validate-input", *flags, spv, "-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            return name, None, 0, 0, None
        n_out = counts[-1][1] if counts else n_instructions(out)
        rem = None if a.no_opt else opt_removed(out)
    return name, counts, n_instructions(spv), n_out, rem


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k2s", default="build/passes/k2s")
    ap.add_argument("--no-opt", action="store_true")
    ap.add_argument("--opt-only", action="store_true", help="no per-pass counts")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--k2s-flags", default="", help="extra k2s options (e.g. --no-cleanup)")
    ap.add_argument("modules", nargs="+")
    a = ap.parse_args()
    ratios, removed, growth, refused = [], [], {}, []
    print("| module | in instr | out instr | out/in | largest growth | opt no-inline removes |")
    print("|---|---|---|---|---|---|")
    with cf.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        results = list(ex.map(lambda spv: measure(a, spv), a.modules))
    for name, counts, n_in, n_out, r in results:
        if counts is None:
            refused.append(name)
            continue
        prev, worst = n_in, ("", 1.0)
        for pname, n in counts:
            g = n / prev if prev else 1.0
            growth.setdefault(pname, []).append(g)
            if g > worst[1]:
                worst = (pname, g)
            prev = n
        ratios.append(n_out / n_in)
        rem = "—"
        if r is not None:
            removed.append(r)
            rem = f"{r:.1f}%"
        big = f"{worst[0]} ×{worst[1]:.2f}" if counts else "—"
        print(f"| {name} | {n_in} | {n_out} | {n_out / n_in:.2f} | {big} | {rem} |")
    if not ratios:
        sys.exit("no module translated")
    print(f"\n{len(ratios)} modules; out/in median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}; > 4×: {sum(r > 4 for r in ratios)}")
    if removed:
        print(f"spirv-opt -O minus inlining removes: median {statistics.median(removed):.1f}%, "
              f"max {max(removed):.1f}% ({len(removed)} modules; ≥ 2%: "
              f"{sum(r >= 2 for r in removed)})")
    if refused:
        print(f"refused with default options (left out): {', '.join(refused)}")
    if growth:
        print("\n| pass | median growth | max growth |\n|---|---|---|")
        for pname, g in growth.items():
            print(f"| {pname} | {statistics.median(g):.3f} | {max(g):.2f} |")


if __name__ == "__main__":
    main()
