#!/usr/bin/env python3
"""Translation scaling benchmark (not a timed test): modules of many kernels
(bench/gen_big_cl.py) and single deep functions (bench/gen_deep_cl.py), built
with the real front end, translated by k2s without validation. Per module:
the front end's time (clang-15 + llvm-spirv-15), k2s's time (best of REPEATS,
user+sys CPU, which a loaded machine disturbs less than wall time) and peak
RSS, the slowest passes (--time-passes), input and output size, spirv-val on
the input and spirv-opt -O (and -O without inlining) on k2s's output; then
scaling exponents log(t2/t1)/log(n2/n1) between consecutive sizes. Prints
Markdown; bench/RESULTS.md records runs.

--per-pass adds, for the many-kernel modules, each pass's instructions (valgrind
--tool=callgrind, inclusive count of the pass's k2s_ function: exact, unlike
times on a shared machine) and the arena it adds (--time-passes), with their
exponents between consecutive sizes, the largest first; a pass whose exponent
passes 1.15 (issue 16's bound) is flagged.

usage: bench/scale.py [--build DIR] [--kernels 10,100,1000,4500]
                      [--deep 100,300,1000] [--repeats N] [--no-val] [--no-opt]
                      [--per-pass]
"""
import argparse
import math
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# spirv-opt -O (SPIRV-Tools 2023.1, `spirv-opt --print-all -O` lists it) without
# inline-entry-points-exhaustive: what a cleanup after k2s could still remove
# without undoing k2s's choice to keep functions.
O_NO_INLINE = """wrap-opkill eliminate-dead-branches merge-return eliminate-dead-functions
eliminate-dead-code-aggressive private-to-local eliminate-local-single-block
eliminate-local-single-store eliminate-dead-code-aggressive scalar-replacement
convert-local-access-chains eliminate-local-single-block eliminate-local-single-store
eliminate-dead-code-aggressive ssa-rewrite eliminate-dead-code-aggressive ccp
eliminate-dead-code-aggressive loop-unroll eliminate-dead-branches redundancy-elimination
combine-access-chains simplify-instructions scalar-replacement convert-local-access-chains
eliminate-local-single-block eliminate-local-single-store eliminate-dead-code-aggressive
ssa-rewrite eliminate-dead-code-aggressive vector-dce eliminate-dead-inserts
eliminate-dead-branches simplify-instructions if-conversion copy-propagate-arrays
reduce-load-size eliminate-dead-code-aggressive merge-blocks redundancy-elimination
eliminate-dead-branches merge-blocks simplify-instructions""".split()


def run_timed(cmd, check=True, **kw):
    """CPU seconds (user+sys of the child), wall seconds, peak RSS in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode()[-2000:]}")
    return cpu, wall, after.ru_maxrss / 1024.0, p


def peak_rss(cmd):
    """Peak RSS in MB of one run, through /usr/bin/time (ru_maxrss of
    RUSAGE_CHILDREN is the maximum over all children so far)."""
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    return int(p.stderr.decode().strip().splitlines()[-1]) / 1024.0


def build_module(out_dir, gen, n):
    base = os.path.join(out_dir, f"{gen}{n}")
    spv = base + ".spv"
    script = os.path.join(ROOT, "bench", f"gen_{gen}_cl.py")
    if os.path.exists(spv) and os.path.getmtime(spv) > os.path.getmtime(script):
        with open(base + ".fe", encoding="utf-8") as f:
            return spv, float(f.read())
    with open(base + ".cl", "w", encoding="utf-8") as f:
        subprocess.run([sys.executable, script, str(n)], stdout=f, check=True)
    c1, _, _, _ = run_timed(["clang-15", "-cc1", "-triple", "spir64", "-cl-std=CL1.2", "-O2",
                             "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
                             base + ".cl", "-o", base + ".bc"])
    c2, _, _, _ = run_timed(["llvm-spirv-15", base + ".bc", "-o", spv])
    with open(base + ".fe", "w", encoding="utf-8") as f:
        f.write(f"{c1 + c2:.4f}")
    return spv, c1 + c2


def n_instructions(path):
    words = open(path, "rb").read()
    n, i = 0, 5 * 4
    while i < len(words):
        wc = int.from_bytes(words[i + 2:i + 4], "little")
        if wc == 0:
            break
        i += wc * 4
        n += 1
    return n


def pass_functions():
    """{pass name: its k2s_ function}, from the pipeline list (src/k2s_passes.h)."""
    text = open(os.path.join(ROOT, "src", "k2s_passes.h"), encoding="utf-8").read()
    return {name: "k2s_" + fn for fn, name in re.findall(r'X\((\w+),\s*"([^"]+)"', text)}


def pass_costs(k2s, spv, out, functions):
    """{pass: (instructions, arena MB the pass added)} for one translation."""
    cg = out + ".callgrind"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", k2s, spv, "-o",
                    out, "--no-validate-input", "--no-validate-output"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    os.unlink(cg)
    counts = {}
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+\S*?:(k2s_\w+) ", line)
        if m:
            counts.setdefault(m.group(2), int(m.group(1).replace(",", "")))
    p = subprocess.run([k2s, spv, "-o", out, "--no-validate-input", "--no-validate-output",
                        "--time-passes"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    added = {}
    for line in p.stderr.decode().splitlines():
        m = re.match(r"time: (\S+)\s+[\d.]+ ms\s+[\d.]+ MB arena \(\+([\d.]+)\)", line)
        if m:
            added[m.group(1)] = float(m.group(2))
    return {name: (counts.get(fn, 0), added.get(name, 0.0)) for name, fn in functions.items()}


def exponent(v1, v2, n1, n2):
    return math.log(v2 / v1) / math.log(n2 / n1) if v1 > 0 and v2 > 0 else float("nan")


def print_per_pass(points):
    """points: [(n, {pass: (instructions, MB)})], sizes ascending."""
    sizes = [n for n, _ in points]
    print("\nPer pass, many-kernel modules (instructions in M, arena added in MB, exponents "
          "between consecutive sizes; passes under 1 M instructions at the largest size "
          "left out):\n")
    head = " | ".join(f"big{n}" for n in sizes)
    steps = " | ".join(f"{a}→{b}" for a, b in zip(sizes, sizes[1:]))
    print(f"| pass | instr {head} | exp {steps} | MB {head} | MB exp {steps} |")
    print("|---" * (4 * len(sizes) - 1) + "|")
    last = points[-1][1]
    rows = []
    for name in last:
        if last[name][0] < 1e6:
            continue
        ins = [c[name][0] for _, c in points]
        mb = [c[name][1] for _, c in points]
        ei = [exponent(ins[k], ins[k + 1], sizes[k], sizes[k + 1]) for k in range(len(sizes) - 1)]
        em = [exponent(mb[k], mb[k + 1], sizes[k], sizes[k + 1]) if mb[k] >= 0.5 else float("nan")
              for k in range(len(sizes) - 1)]
        rows.append((max(ei), name, ins, ei, mb, em))
    for worst, name, ins, ei, mb, em in sorted(rows, reverse=True):
        flag = " **> 1.15**" if worst > 1.15 else ""
        print(f"| {name}{flag} | " + " | ".join(f"{v / 1e6:.2f}" for v in ins) + " | " +
              " | ".join(f"{e:.2f}" for e in ei) + " | " + " | ".join(f"{v:.1f}" for v in mb) +
              " | " + " | ".join("—" if math.isnan(e) else f"{e:.2f}" for e in em) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--kernels", default="10,100,1000,4500")
    ap.add_argument("--deep", default="100,300,1000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-val", action="store_true", help="skip spirv-val on the input")
    ap.add_argument("--no-opt", action="store_true", help="skip spirv-opt on the output")
    ap.add_argument("--per-pass", action="store_true",
                    help="instructions (callgrind) and arena per pass for the many-kernel modules")
    a = ap.parse_args()
    k2s = os.path.join(a.build, "passes", "k2s")
    out_dir = os.path.join(a.build, "bench")
    os.makedirs(out_dir, exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE).stdout.decode().strip()
    btype = "?"
    info = os.path.join(a.build, "meson-info", "intro-buildoptions.json")
    if os.path.exists(info):
        import json
        for o in json.load(open(info)):
            if o["name"] == "buildtype":
                btype = o["value"]
    print(f"commit {commit}, k2s {k2s} ({btype}), repeats {a.repeats}\n")
    print("| module | in KB | in instr | front end s | k2s CPU s | k2s MB | out/in size | "
          "spirv-val in s | k2s / val | opt -O s | opt/k2s | opt -O no-inline: instr removed | "
          "slowest passes (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    series = {}
    per_pass = []
    functions = pass_functions() if a.per_pass else {}
    for gen, sizes in (("big", a.kernels), ("deep", a.deep)):
        for n in [int(x) for x in sizes.split(",") if x]:
            spv, fe = build_module(out_dir, gen, n)
            out = os.path.join(out_dir, f"{gen}{n}.k2s.spv")
            cmd = [k2s, spv, "-o", out, "--no-validate-input", "--no-validate-output"]
            best = min(run_timed(cmd)[0] for _ in range(a.repeats))
            mb = peak_rss(cmd)
            _, _, _, p = run_timed(cmd + ["--time-passes"])
            passes = []
            for line in p.stderr.decode().splitlines():
                m = re.match(r"time: (\S+)\s+([\d.]+) ms", line)
                if m:
                    passes.append((float(m.group(2)), m.group(1)))
            slow = ", ".join(f"{name} {ms:.0f}" for ms, name in sorted(passes)[::-1][:3])
            size_in, size_out = os.path.getsize(spv), os.path.getsize(out)
            val = "—"
            ratio = "—"
            if not a.no_val:
                # (llvm-spirv 15 output often fails validation: the time is what counts)
                vt, _, _, vp = run_timed(["spirv-val", "--target-env", "spv1.4", spv], check=False)
                val = f"{vt:.2f}" + ("" if vp.returncode == 0 else " (invalid)")
                ratio = f"{best / vt:.3f}"
            opt = "—"
            optr = "—"
            removed = "—"
            if not a.no_opt:
                o1 = out + ".opt.spv"
                ot, _, _, op = run_timed(["spirv-opt", "-O", "--target-env=vulkan1.1", out, "-o", o1],
                                         check=False)
                opt = f"{ot:.2f}" if op.returncode == 0 else f"failed ({op.returncode})"
                optr = f"{ot / best:.1f}×" if op.returncode == 0 else "—"
                # -O minus inlining: what a cleanup after k2s could still remove.
                o2 = out + ".noinl.spv"
                np_ = subprocess.run(["spirv-opt", "--target-env=vulkan1.1"] +
                                     ["--" + f for f in O_NO_INLINE] + [out, "-o", o2],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if np_.returncode == 0:
                    ni, no = n_instructions(out), n_instructions(o2)
                    removed = f"{100.0 * (ni - no) / ni:.1f}%"
                else:
                    removed = f"failed ({np_.returncode})"
            print(f"| {gen}{n} | {size_in / 1024:.0f} | {n_instructions(spv)} | {fe:.2f} | "
                  f"{best:.3f} | {mb:.0f} | {size_out / size_in:.2f} | {val} | {ratio} | {opt} | "
                  f"{optr} | {removed} | {slow} |", flush=True)
            series.setdefault(gen, []).append((n, best, mb))
            if a.per_pass and gen == "big":
                per_pass.append((n, pass_costs(k2s, spv, out, functions)))
    print("\nScaling exponents (log t2/t1 / log n2/n1) in CPU time and peak RSS:\n")
    for gen, pts in series.items():
        for (n1, t1, m1), (n2, t2, m2) in zip(pts, pts[1:]):
            et = math.log(t2 / t1) / math.log(n2 / n1) if t1 > 0 and t2 > 0 else float("nan")
            em = math.log(m2 / m1) / math.log(n2 / n1)
            print(f"- {gen} {n1} → {n2}: time {et:.2f}, memory {em:.2f}")
    if len(per_pass) > 1:
        print_per_pass(per_pass)


if __name__ == "__main__":
    main()
