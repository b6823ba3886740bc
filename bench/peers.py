#!/usr/bin/env python3
"""k2s against its peers, per module (issue 16's "done when"): k2s's own work
(no validation) against spirv-val on the same input, against `spirv-opt -O` on
k2s's output, and against the front end (clang-15 + llvm-spirv-15) that made
the input. Instructions executed (valgrind --tool=callgrind: exact and
repeatable on a loaded machine) and CPU time (user + sys of the best of
--repeats runs: only meaningful on a quiet machine).

Modules: every corpus module, compiled as tests/e2e/run_corpus.py compiles it
(one per distinct source and compile options; translated with its spec's first
run's k2s options and first target environment, else vulkan1.1), plus generated ones: bench/gen_big_cl.py N (bigN, through
the same front end) and tests/lit/robust/Inputs/scale_shapes.py kernels N
(kN: hand-written SPIR-V, so no front-end ratio).

Instructions are always counted for k2s and spirv-val; for spirv-opt -O and the
front end only on request (callgrind makes them the bulk of a run's time).
Prints one row per module and the medians; --tsv keeps the rows.
usage: bench/peers.py [--build build-rel] [--big 10,100,1000] [--shapes 100,1000]
                      [--jobs 2] [--repeats 3] [--only NAME,...] [--fe-instructions]
                      [--opt-instructions] [--tsv FILE]
"""
import argparse
import concurrent.futures as cf
import os
import shlex
import statistics
import struct
import subprocess
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import run_corpus  # noqa: E402  (the e2e runner's spec reader and compile options)

SHAPES = os.path.join(ROOT, "tests", "lit", "robust", "Inputs", "scale_shapes.py")
NO_VALIDATION = ["--no-validate-input", "--no-validate-output"]


def instructions(cmd, tmp):
    """Instructions callgrind counts for cmd (None when cmd fails)."""
    fd, out = tempfile.mkstemp(prefix="cg.", dir=tmp)
    os.close(fd)
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if os.path.exists(out):
        os.remove(out)
    if p.returncode != 0:
        return None
    for line in p.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def cpu_seconds(cmd, repeats):
    """Best user + sys time of `repeats` runs (None when cmd fails)."""
    best = None
    for _ in range(repeats):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            return None
        t = ru.ru_utime + ru.ru_stime
        best = t if best is None else min(best, t)
    return best


def input_env(spv):
    """The environment k2s validates this input in (src/validate.c, input_env)."""
    with open(spv, "rb") as f:
        words = f.read()
    version = struct.unpack("<I", words[4:8])[0]
    minor = (version >> 8) & 0xFF
    int64_atomics = False
    at = 20
    while at + 8 <= len(words):
        w0, w1 = struct.unpack("<II", words[at:at + 8])
        if w0 & 0xFFFF != 17:  # OpCapability
            break
        int64_atomics |= w1 == 12  # Int64Atomics
        at += 4 * (w0 >> 16)
    if minor <= 2:
        return f"spv1.{minor}" if int64_atomics else "opencl2.2"
    return f"spv1.{min(minor, 6)}"


def ratio(a, b):
    return a / b if a is not None and b else None


def measure(mod, o, tmp):
    """mod: dict with name, spv, k2s flags, and optionally the front end's commands."""
    r = {"name": mod["name"]}
    fe = mod.get("frontend")
    if fe:  # clang then llvm-spirv; the timed runs also make the module
        times = [cpu_seconds(c, o.repeats) for c in fe]
        r["fe_s"] = None if None in times else sum(times)
        if o.fe_instructions:  # slow: clang -O2 under callgrind
            counts = [instructions(c, tmp) for c in fe]
            r["fe_ir"] = None if None in counts else sum(counts)
    spv = mod["spv"]
    if not os.path.exists(spv):
        r["error"] = "the front end failed"
        return r
    out = os.path.join(tmp, mod["name"].replace("/", "_") + ".out.spv")
    k2s = [o.k2s, spv, "-o", out] + mod["flags"] + NO_VALIDATION
    r["k2s_ir"] = instructions(k2s, tmp)
    if r["k2s_ir"] is None:
        r["error"] = "k2s refused it: " + subprocess.run(k2s, capture_output=True, text=True).stderr.strip()[:100]
        return r
    r["k2s_s"] = cpu_seconds(k2s, o.repeats)
    val = ["spirv-val", "--target-env", input_env(spv), spv]
    r["val_ir"] = instructions(val, tmp)
    r["val_s"] = cpu_seconds(val, o.repeats)
    env = "vulkan1.1"
    for i, f in enumerate(mod["flags"]):
        if f.startswith("--target-env="):
            env = f.split("=", 1)[1]
        elif f == "--target-env" and i + 1 < len(mod["flags"]):
            env = mod["flags"][i + 1]
    opt = ["spirv-opt", "-O", f"--target-env={env}", out, "-o", out + ".opt"]
    r["opt_s"] = cpu_seconds(opt, o.repeats)
    if r["opt_s"] is None:  # spirv-opt 2023.1 crashes on some modules (bigN's output)
        r["opt_error"] = "spirv-opt -O failed"
    elif o.opt_instructions:
        r["opt_ir"] = instructions(opt, tmp)
    return r


def corpus_modules(o, tmp):
    opts = types.SimpleNamespace(names=o.only, corpus=os.path.join(ROOT, "corpus"))
    jobs, errors = run_corpus.collect(opts)
    for e in errors:
        print(f"peers.py: {e}", file=sys.stderr)
    seen, mods = set(), []
    for cl, name, run in jobs:
        key = (cl, run["triple"], run["cl-std"], run.get("clang", ""), run.get("llvm-spirv", ""))
        if key in seen:
            continue
        seen.add(key)
        base = name.replace("#", "_")
        bc, spv = os.path.join(tmp, base + ".bc"), os.path.join(tmp, base + ".spv")
        # the e2e runner's compile_cl, command for command
        clang = [o.clang, "-cc1", "-triple", run["triple"], f"-cl-std={run['cl-std']}", "-O2",
                 "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
                 *shlex.split(run.get("clang", "")), "-o", bc, cl]
        spirv = [o.llvm_spirv, *shlex.split(run.get("llvm-spirv", "")), bc, "-o", spv]
        flags = shlex.split(run.get("k2s", ""))
        if "envs" in run:  # the run's first target (physical pointers need vulkan1.2)
            flags.append("--target-env=" + run["envs"][0])  # check_run made it a list
        mods.append({"name": name, "spv": spv, "flags": flags,
                     "frontend": [clang, spirv], "kind": "corpus"})
    return mods


def generated_modules(o, tmp):
    mods = []
    for n in o.big:
        cl, bc, spv = (os.path.join(tmp, f"big{n}.{x}") for x in ("cl", "bc", "spv"))
        with open(cl, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_big_cl.py"), str(n)],
                           stdout=f, check=True)
        clang = [o.clang, "-cc1", "-triple", "spir64", "-cl-std=CL1.2", "-O2", "-no-opaque-pointers",
                 "-finclude-default-header", "-emit-llvm-bc", cl, "-o", bc]
        mods.append({"name": f"big{n}", "spv": spv, "flags": [], "kind": "generated",
                     "frontend": [clang, [o.llvm_spirv, bc, "-o", spv]]})
    for n in o.shapes:
        spv = os.path.join(tmp, f"k{n}.spv")
        asm = subprocess.run([sys.executable, SHAPES, "kernels", str(n)], check=True,
                             capture_output=True).stdout
        subprocess.run(["spirv-as", "--target-env", "spv1.0", "-", "-o", spv], input=asm, check=True)
        mods.append({"name": f"k{n}", "spv": spv, "flags": [], "kind": "generated"})
    return mods


def fmt(x, digits=2):
    return "—" if x is None else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-rel")
    ap.add_argument("--k2s", help="the translator (default: BUILD/passes/k2s)")
    ap.add_argument("--big", default="10,100,1000", help="bench/gen_big_cl.py sizes ('' for none)")
    ap.add_argument("--shapes", default="100,1000", help="scale_shapes kernels sizes ('' for none)")
    ap.add_argument("--only", default="", help="corpus specs to take (default: all; 'none')")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--fe-instructions", action="store_true",
                    help="count the front end's instructions too (slow; default: its CPU time)")
    ap.add_argument("--opt-instructions", action="store_true",
                    help="count spirv-opt -O's instructions too (slow; default: its CPU time)")
    ap.add_argument("--tsv", help="also write the rows here")
    o = ap.parse_args()
    o.k2s = os.path.abspath(o.k2s or os.path.join(o.build, "passes", "k2s"))
    o.big = [int(x) for x in o.big.split(",") if x]
    o.shapes = [int(x) for x in o.shapes.split(",") if x]
    o.only = [x for x in o.only.split(",") if x]
    with tempfile.TemporaryDirectory(prefix="k2s-peers-") as tmp:
        mods = ([] if o.only == ["none"] else corpus_modules(o, tmp)) + generated_modules(o, tmp)
        with cf.ThreadPoolExecutor(max_workers=o.jobs) as pool:
            rows = list(pool.map(lambda m: dict(measure(m, o, tmp), kind=m["kind"]), mods))
    cols = ["name", "kind", "k2s_ir", "val_ir", "opt_ir", "fe_ir", "k2s_s", "val_s", "opt_s", "fe_s"]
    if o.tsv:
        with open(o.tsv, "w") as f:
            print("\t".join(cols + ["error"]), file=f)
            for r in rows:
                print("\t".join(str(r.get(c, "")) for c in cols + ["error"]), file=f)
    print("| module | k2s M instr | k2s/val (instr) | k2s/opt (instr) | k2s/front end (instr) |"
          " k2s/val (CPU) | k2s/opt (CPU) | k2s/front end (CPU) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['name']} | {r['error']} |")
            continue
        print(f"| {r['name']} | {r['k2s_ir'] / 1e6:.2f} | {fmt(ratio(r['k2s_ir'], r['val_ir']))} | "
              f"{fmt(ratio(r['k2s_ir'], r.get('opt_ir')), 3)} | {fmt(ratio(r['k2s_ir'], r.get('fe_ir')), 3)} | "
              f"{fmt(ratio(r['k2s_s'], r['val_s']))} | {fmt(ratio(r['k2s_s'], r.get('opt_s')), 3)} | "
              f"{fmt(ratio(r['k2s_s'], r.get('fe_s')), 3)} |")
    ok = [r for r in rows if "error" not in r]
    print(f"\n{len(ok)} modules measured, {len(rows) - len(ok)} not translated "
          "(no front end, or k2s refused them with their spec's options); ratios to "
          "spirv-val leave out inputs spirv-val rejects (it stops at the first error)")
    targets = [("k2s/val", "val", 0.25, "≤ 0.25"), ("k2s/opt", "opt", 0.10, "≤ 0.10 (10× faster)"),
               ("k2s/front end", "fe", 0.05, "< 0.05")]
    print("\n| median over | measure | k2s/val | k2s/spirv-opt -O | k2s/front end |")
    print("|---|---|---|---|---|")
    verdict = {}
    for group in ("corpus", "generated", "all"):
        sel = [r for r in ok if group == "all" or r["kind"] == group]
        for unit, suffix in (("instructions", "_ir"), ("CPU time", "_s")):
            cells = []
            for label, peer, goal, _ in targets:
                rs = [ratio(r["k2s" + suffix], r.get(peer + suffix)) for r in sel]
                rs = [x for x in rs if x is not None]
                med = statistics.median(rs) if rs else None
                cells.append(f"{fmt(med, 3)} (n={len(rs)})")
                if group == "all" and (suffix == "_ir" or verdict.get(label, (None,))[0] is None):
                    verdict[label] = (med, goal, unit)
            print(f"| {group} | {unit} | " + " | ".join(cells) + " |")
    print()
    for label, _, goal, text in targets:
        med, goal, unit = verdict[label]
        met = med is not None and (med < goal if label == "k2s/front end" else med <= goal)
        print(f"{label}: median {fmt(med, 3)} ({unit}, all modules), goal {text}: "
              f"{'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
