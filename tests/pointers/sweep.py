#!/usr/bin/env python3
"""Pointer-mode sweep: every corpus module x --pointers={logical,auto,physical} x
--target-env {vulkan1.1,1.2,1.3}. Each translation must give spirv-val-clean output or a
clear error (exit 1/2, a 'k2s: error:' line, no output file) -- never invalid output, never
a crash, never an internal error. Prints one line per failure class and a summary table;
exit status 1 when any output is invalid, k2s crashed or reported an internal error, or a
corpus module did not compile.

    python3 tests/pointers/sweep.py --k2s build/passes/k2s [--jobs 2] [--build-dir DIR]

The modules are the corpus kernels compiled as tests/e2e/run_corpus.py compiles them (one
module per distinct cl-std/triple/clang-options combination found in a spec). The spec's
own k2s options are kept, except --pointers and --target-env, which the sweep sets.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "e2e"))
import run_corpus  # noqa: E402  (spec parsing shared with the corpus driver)

MODES = ["logical", "auto", "physical"]
ENVS = ["vulkan1.1", "vulkan1.2", "vulkan1.3"]


def compile_module(cl, run, out_dir):
    key = hashlib.sha256("\0".join([open(cl, "rb").read().hex(), run["triple"], run["cl-std"],
                                    run.get("clang", ""), run.get("llvm-spirv", "")]
                                   ).encode()).hexdigest()[:16]
    base = os.path.join(out_dir, os.path.basename(cl)[:-3] + "-" + key)
    spv = base + ".spv"
    if os.path.exists(spv):
        return spv, None
    cmd = ["clang-15", "-cc1", "-triple", run["triple"], f"-cl-std={run['cl-std']}", "-O2",
           "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
           *shlex.split(run.get("clang", "")), "-o", base + ".bc", cl]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, "clang failed"
    p = subprocess.run(["llvm-spirv-15", *shlex.split(run.get("llvm-spirv", "")), base + ".bc", "-o",
                        spv], capture_output=True, text=True)
    if p.returncode:
        return None, "llvm-spirv failed"
    return spv, None


def k2s_flags(run):
    flags = shlex.split(run.get("k2s", ""))
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
            continue
        if f.startswith("--pointers") or f.startswith("--target-env"):
            skip = "=" not in f
            continue
        out.append(f)
    return out


def one(k2s, spv, flags, mode, env, out_dir):
    tag = hashlib.sha256(f"{spv}{flags}{mode}{env}".encode()).hexdigest()[:16]
    out = os.path.join(out_dir, f"out-{tag}.spv")
    if os.path.exists(out):
        os.unlink(out)
    cmd = [k2s, spv, "-o", out, "--target-env", env, f"--pointers={mode}", *flags]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "crash", "timeout"
    if p.returncode == 0:
        # The device features the flags promise are the validator's to assume too.
        extra = ["--scalar-block-layout"] if "--scalar-block-layout" in flags else []
        v = subprocess.run(["spirv-val", "--target-env", env, *extra, out],
                           capture_output=True, text=True)
        os.unlink(out)
        if v.returncode:
            return "invalid", (v.stderr + v.stdout).strip().splitlines()[0]
        return "ok", None
    err = [l for l in p.stderr.splitlines() if l.startswith("k2s: error:")]
    if p.returncode not in (1, 2) or not err:
        return "crash", f"exit {p.returncode}: {p.stderr.strip()[:200]}"
    if os.path.exists(out):
        return "invalid", "an output file was written on error"
    msg = err[0]
    if "internal error" in msg:
        return "internal", msg
    return "error", msg


def classify(msg):
    """A short class for an error message: pass name + message without ids and offsets."""
    m = re.sub(r"\(word \d+\)", "", msg or "")
    m = re.sub(r"%\w+", "%id", m)
    m = re.sub(r"(?<!pass )'[^']*'", "'…'", m)
    return m.replace("k2s: error: ", "").strip()[:160]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k2s", default=os.environ.get("K2S", os.path.join(REPO, "build", "passes", "k2s")))
    ap.add_argument("--corpus", default=os.path.join(REPO, "corpus"))
    ap.add_argument("--build-dir", default="/tmp/k2s-pointer-sweep")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    opts = ap.parse_args()
    os.makedirs(opts.build_dir, exist_ok=True)
    modules = {}
    for f in sorted(os.listdir(opts.corpus)):
        if not f.endswith(".spec"):
            continue
        cl = os.path.join(opts.corpus, f[:-5] + ".cl")
        for run in run_corpus.parse_spec(os.path.join(opts.corpus, f)):
            key = (cl, run["triple"], run["cl-std"], run.get("clang", ""), tuple(k2s_flags(run)))
            modules.setdefault(key, run)
    jobs, results = [], collections.Counter()
    classes = collections.defaultdict(set)
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
        for (cl, *_rest, flags), run in modules.items():
            spv, why = compile_module(cl, run, opts.build_dir)
            if not spv:
                print(f"FAIL {os.path.basename(cl)}: {why}")
                results[("-", "-", "compile")] += 1
                continue
            for mode in MODES:
                for env in ENVS:
                    jobs.append((os.path.basename(cl), list(flags), mode, env,
                                 ex.submit(one, opts.k2s, spv, list(flags), mode, env,
                                           opts.build_dir)))
        for name, flags, mode, env, fut in jobs:
            status, msg = fut.result()
            results[(mode, env, status)] += 1
            if status != "ok":
                classes[(status, mode, classify(msg))].add(name)
            if status in ("invalid", "crash", "internal"):
                print(f"{status.upper()} {name} {' '.join(flags)} --pointers={mode} {env}: {msg}")
    print(f"\n{len(modules)} modules x {len(MODES)} modes x {len(ENVS)} envs = {len(jobs)} translations")
    print("| mode | env | valid output | clear error | internal error | invalid | crash |")
    print("|---|---|---|---|---|---|---|")
    for mode in MODES:
        for env in ENVS:
            c = [results[(mode, env, s)] for s in ("ok", "error", "internal", "invalid", "crash")]
            print(f"| {mode} | {env} | " + " | ".join(map(str, c)) + " |")
    print("\nErrors by class (modules):")
    for (status, mode, cls), names in sorted(classes.items()):
        print(f"- [{status}, {mode}] {cls}: {', '.join(sorted(names))}")
    # Invalid output, crashes and internal errors fail the sweep, and so does a corpus
    # module that did not compile or a sweep that translated nothing.
    bad = sum(v for (m, e, s), v in results.items()
              if s in ("invalid", "crash", "internal", "compile"))
    if not jobs:
        print("sweep.py: no translations (empty corpus?)")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
