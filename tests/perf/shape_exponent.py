#!/usr/bin/env python3
"""Scaling check by shape: translates modules of tests/lit/robust/Inputs/scale_shapes.py
at two sizes, N and 4N, and fails when the instructions k2s executes (valgrind
--tool=callgrind: exact and repeatable, unlike times) grow faster than the shape's limit.
The count of the shape at size 1 (start-up and per-module fixed costs) is subtracted
first, so the exponent is that of the work that grows with N:

    exponent = log((count(4N) - count(1)) / (count(N) - count(1))) / log(4)

A linear shape measures about 1.0; one per-construct or per-kernel scan of the function
or module turns it to about 2. Every shape's limit is issue 16's 1.15 (bench/RESULTS.md,
"Session 8: nested shapes"; d3da72e measured nesting 1.66 and loops 1.87 in release):
  switch    one OpSwitch of N cases                      (was 1.83: successor-list
            scans per case, a fallthrough list grown by one pair at a time)
  seqloops  N loops in a row
  kernels   N kernels
  wrapped   N kernels as llvm-spirv emits them, an entry-point wrapper with an
            execution mode calling each; counted inside entry-points and inside
            finalize, each on its own (was 1.39 and 1.43: each scanned the execution
            modes per kernel, a few percent of the whole translation, which stays
            near 1.0 and would not show it)
  reductions  N work_group_reduce_add in one kernel, counted inside group-ops (was
            1.73: the pass restarted its walk of the function after each one, and
            each block split walked the function for phis)
  nesting   N nested ifs                                 (was 1.66: each header walked
            its whole dominator subtree; 4N stays under the 1,023-level limit)
  loops     N nested loops                               (was 1.87: Tarjan per nesting
            level, and each loop's normalisation searched its whole body)
  switches  N nested switches, a case of each falling through into the next
            (was 1.98: each level's merge is a funnel of one edge, which rebuilt the
            CFG snapshot and restarted the scan for headers; then 1.51: each switch
            walked the switches nested in it, until session 10 gave switches the
            exit summaries)
  irreducible  N nested loops around an irreducible two-block cycle (was 1.53:
            Tarjan ran once per nesting level to find the cycle; now each level
            is searched with its natural loops folded, session 10)
  parts     a private array of N elements, each stored under one of N ifs in a
            row and loaded after it; counted inside scalar-replace (its split and
            promote-locals' SSA construction of N variables over 4N blocks)

usage: shape_exponent.py --k2s K2S --workdir DIR [--shape NAME ...]
Exit 77 (skipped) without valgrind or spirv-as.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES_PY = os.path.join(os.path.dirname(HERE), "lit", "robust", "Inputs", "scale_shapes.py")

# shape: (N, limit[, function...]); the second size is 4N. With functions, only the
# instructions executed inside each count (callgrind --toggle-collect), one exponent
# per function: one pass each.
SHAPES = {
    "switch": (1000, 1.15),
    "seqloops": (500, 1.15),
    "kernels": (250, 1.15),
    "wrapped": (250, 1.15, "k2s_lower_entry_points", "k2s_finalize"),
    "reductions": (100, 1.15, "k2s_lower_group_ops"),
    "nesting": (200, 1.15),
    "loops": (100, 1.15),
    "switches": (100, 1.15),
    "irreducible": (100, 1.15),
    "parts": (200, 1.15, "k2s_scalar_replace"),
}


def module(workdir, shape, n):
    spv = os.path.join(workdir, f"{shape}{n}.spv")
    asm = subprocess.run([sys.executable, SHAPES_PY, shape, str(n)], check=True,
                         stdout=subprocess.PIPE).stdout
    subprocess.run(["spirv-as", "--target-env", "spv1.0", "-o", spv, "-"], input=asm,
                   check=True)
    return spv


def count(k2s, workdir, spv, function=None):
    # meson test sets MALLOC_PERTURB_, which makes glibc fill every malloc'd and
    # freed block: instructions that are not k2s's, and vary with the value.
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    collect = [f"--toggle-collect={function}"] if function else []
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] +
                       collect + [k2s, spv, "-o", os.path.join(workdir, "out.spv"),
                                  "--no-validate-input", "--no-validate-output"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    err = p.stderr.decode()
    m = re.search(r"refs:\s+([\d,]+)", err)
    if p.returncode != 0 or not m:
        print(err[-3000:])
        raise RuntimeError(f"k2s under callgrind did not finish on {spv}")
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k2s", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--shape", action="append", choices=sorted(SHAPES))
    a = ap.parse_args()
    for tool in ("valgrind", "spirv-as"):
        if not shutil.which(tool):
            print(f"{tool} not found: skipped")
            return 77
    os.makedirs(a.workdir, exist_ok=True)
    failed = []
    for shape in a.shape or list(SHAPES):
        n, limit, *functions = SHAPES[shape]
        spvs = [module(a.workdir, shape, k) for k in (1, n, 4 * n)]
        for function in functions or [None]:
            c1, cn, c4n = (count(a.k2s, a.workdir, spv, function) for spv in spvs)
            where = f" in {function}" if function else ""
            if cn <= c1 or c4n <= cn:
                print(f"{shape}: counts{where} do not grow with N ({c1:,}, {cn:,}, {c4n:,})")
                failed.append(shape)
                continue
            e = math.log((c4n - c1) / (cn - c1)) / math.log(4)
            verdict = "ok" if e <= limit else "FAIL"
            print(f"{shape}: N={n}: {cn:,}, 4N: {c4n:,} instructions{where} (size 1: {c1:,}); "
                  f"exponent {e:.2f}, limit {limit}: {verdict}")
            if e > limit:
                failed.append(shape + where)
    if failed:
        print("FAIL: superlinear growth in " + ", ".join(failed) +
              "; profile with valgrind --tool=callgrind (bench/RESULTS.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
