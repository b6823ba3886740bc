#!/usr/bin/env python3
"""Scaling of k2s in four directions (issue 15): kernels per module, selection
nesting, loop nesting, struct members; the modules come from
tests/lit/robust/Inputs/scale_shapes.py (hand-written SPIR-V, no front end).
Per module: input size, k2s's user+sys CPU time and peak RSS (one run each, in
the default mode, and with --no-validate-input --no-validate-output: k2s
alone, without SPIRV-Tools' validation of input and output), output size, and
the exponent log(t2/t1)/log(n2/n1) of k2s alone between consecutive sizes. Prints Markdown for
bench/RESULTS.md.

usage: bench/scale_shapes.py [--build DIR] [--shapes kernels=100,1000 ...]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "tests", "lit", "robust", "Inputs", "scale_shapes.py")
DEFAULT = {"kernels": [100, 1000, 4000], "nesting": [100, 300, 1000],
           "loops": [30, 100, 300], "members": [100, 1000, 4000]}


def measure(cmd):
    """(exit status, user+sys seconds, peak RSS in MB) of one child process."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    p.stderr.close()
    return os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shapes", nargs="*", help="SHAPE=N1,N2,... (default: all four)")
    a = ap.parse_args()
    shapes = DEFAULT
    if a.shapes:
        shapes = {s.split("=")[0]: [int(x) for x in s.split("=")[1].split(",")] for s in a.shapes}
    k2s = os.path.join(a.build, "passes", "k2s")
    print("| shape | N | input KB | default: CPU s / RSS MB | k2s alone (no validation): "
          "CPU s / RSS MB | output KB | exponent (k2s alone) |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for shape, sizes in shapes.items():
            prev = None
            for n in sizes:
                spv, out = os.path.join(tmp, f"{shape}{n}.spv"), os.path.join(tmp, "out.spv")
                asm = subprocess.run([sys.executable, GEN, shape, str(n)], check=True,
                                     capture_output=True).stdout
                subprocess.run(["spirv-as", "--target-env", "spv1.0", "-", "-o", spv],
                               input=asm, check=True)
                row, t_nv = [], 0
                for flags in ([], ["--no-validate-input", "--no-validate-output"]):
                    if os.path.exists(out):
                        os.remove(out)
                    rc, t, rss = measure([k2s, spv, "-o", out] + flags)
                    row.append(f"{t:.2f} / {rss:.0f}" + ("" if rc == 0 else f" (exit {rc})"))
                    t_nv = t
                size_out = os.path.getsize(out) / 1024 if os.path.exists(out) else 0
                exp = ""
                if prev and prev[1] > 0.05 and t_nv > 0:
                    exp = f"{math.log(t_nv / prev[1]) / math.log(n / prev[0]):.2f}"
                prev = (n, t_nv)
                print(f"| {shape} | {n} | {os.path.getsize(spv) / 1024:.0f} | {row[0]} | "
                      f"{row[1]} | {size_out:.0f} | {exp} |", flush=True)


if __name__ == "__main__":
    main()
