#!/usr/bin/env python3
"""Random control-flow kernels, whole translator, Vulkan (lavapipe) against OpenCL (PoCL).

Generates the programs of tests/cfg/gen_cfg_kernels.py for a fixed seed range, in
batches (--batch programs per OpenCL C file, as functions one kernel calls: work-group
row y runs program y, so barriers stay in uniform control flow), and runs them through
tests/e2e/run_corpus.py: clang-15 + llvm-spirv-15, k2s with input validation on,
spirv-val, k2s-run on lavapipe, k2s-clref on PoCL, results compared exactly. A
mismatch names the program (seed) of the first differing row.

    random_e2e.py --seeds 1-200 --batch 50 --workdir DIR     # what CI runs (meson test cfg)
    random_e2e.py --seeds 1001-3000 --batch 50 --workdir DIR --envs vulkan1.1,vulkan1.2,vulkan1.3

The seeds are fixed (no per-day seeds): a failure reproduces with the same command. Exit
status 1 when any batch failed.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GLOBAL, LOCAL = 64, 16


def parse_seeds(text):
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def generate(seeds, workdir, batch):
    """One gen_cfg_kernels.py call per batch (they run in parallel); returns the
    batch names."""
    name = f"rkb_{seeds[0]}_{seeds[-1]}"
    spec = os.path.join(workdir, name + ".spec")
    if not os.path.exists(spec):  # deterministic: a batch once written is reused
        r = subprocess.run([sys.executable, os.path.join(HERE, "gen_cfg_kernels.py"), workdir,
                            "--seeds", f"{seeds[0]}-{seeds[-1]}", "--batch", str(batch),
                            "--global", str(GLOBAL), "--local", str(LOCAL)],
                           capture_output=True, text=True)
        if r.returncode:
            return name, r.stderr.strip() or f"gen_cfg_kernels.py exit {r.returncode}"
    return name, None


def seed_of_row(workdir, batch_name, row):
    head = open(os.path.join(workdir, batch_name + ".cl")).readline()
    m = re.search(r"seeds (.*) \(seed\.attempt\)", head)
    progs = m.group(1).split() if m else []
    return progs[row] if 0 <= row < len(progs) else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1-200", help="A-B (default 1-200)")
    ap.add_argument("--batch", type=int, default=50, help="programs per kernel (default 50)")
    ap.add_argument("--workdir", required=True, help="generated kernels and the e2e cache")
    ap.add_argument("--envs", default="vulkan1.1", help="target envs (default vulkan1.1)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--k2s")
    ap.add_argument("--k2s-run")
    ap.add_argument("--clref")
    a = ap.parse_args()
    t0 = time.time()
    seeds = parse_seeds(a.seeds)
    # Generated kernels are reused while the generator is the same.
    with open(os.path.join(HERE, "gen_cfg_kernels.py"), "rb") as f:
        key = hashlib.sha1(f.read()).hexdigest()[:12]
    gen_dir = os.path.join(a.workdir, "kernels-" + key)
    os.makedirs(gen_dir, exist_ok=True)
    groups = [seeds[i:i + a.batch] for i in range(0, len(seeds), a.batch)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        made = list(ex.map(lambda g: generate(g, gen_dir, a.batch), groups))
    bad = [f"FAIL {n}: generating: {err}" for n, err in made if err]
    t_gen = time.time() - t0
    cmd = [sys.executable, os.path.join(REPO, "tests", "e2e", "run_corpus.py"), "--corpus", gen_dir,
           "--build-dir", os.path.join(a.workdir, "e2e"), "--envs", a.envs, "-j", str(a.jobs)]
    for opt in ("k2s", "k2s_run", "clref"):
        if getattr(a, opt):
            cmd += ["--" + opt.replace("_", "-"), getattr(a, opt)]
    cmd += [n for n, err in made if not err]
    r = subprocess.run(cmd, capture_output=True, text=True)
    passed = 0
    for line in r.stdout.splitlines():
        if line.startswith("PASS"):
            passed += 1
        m = re.match(r"FAIL (\S+) (\S+): arg 1\[(\d+)\]", line)
        if m:
            row = int(m.group(3)) // GLOBAL
            line += f"  [first difference: program {seed_of_row(gen_dir, m.group(1), row)} (seed.attempt)]"
        if line.startswith("FAIL"):
            bad.append(line)
    for line in bad:
        print(line)
    runs = len(groups) * len(a.envs.split(","))
    print(f"random kernels: seeds {seeds[0]}-{seeds[-1]} ({len(seeds)} programs in {len(groups)} "
          f"kernels), {passed} of {runs} runs pass; generation {t_gen:.0f} s, "
          f"total {time.time() - t0:.0f} s")
    if r.returncode and not bad:
        print(r.stdout[-2000:], r.stderr[-2000:])
    return 1 if bad or r.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
