#!/usr/bin/env python3
"""Two k2s builds, the same output: for a performance change that must not
change what k2s writes. Every corpus module compiled as tests/e2e/run_corpus.py
compiles it, translated with each run's k2s options for vulkan1.1, 1.2 and 1.3
(and any extra modules given) by both translators; the SPIR-V, the --reflect
JSON, the --descriptormap CSV, the exit status and stderr must be identical.

usage: bench/same_output.py --old OLD_K2S --new NEW_K2S [--jobs 2] [--modules DIR] [EXTRA.spv...]
(--modules: keep the compiled corpus modules there and reuse them on the next run)
Exits 1 and names the first differences when any translation differs.
"""
import argparse
import concurrent.futures as cf
import os
import shlex
import subprocess
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import run_corpus  # noqa: E402  (the e2e runner's spec reader)

ENVS = ("vulkan1.1", "vulkan1.2", "vulkan1.3")


def compile_modules(tmp, jobs):
    """{(cl, triple, std, clang opts, llvm-spirv opts): spv} and [(spv, k2s flags)]."""
    opts = types.SimpleNamespace(names=[], corpus=os.path.join(ROOT, "corpus"))
    runs, errors = run_corpus.collect(opts)
    for e in errors:
        print(f"same_output.py: {e}", file=sys.stderr)
    spvs, work = {}, []
    for cl, name, run in runs:
        key = (cl, run["triple"], run["cl-std"], run.get("clang", ""), run.get("llvm-spirv", ""))
        if key not in spvs:
            base = os.path.join(tmp, f"m{len(spvs)}")
            spvs[key] = (base + ".spv", [
                ["clang-15", "-cc1", "-triple", run["triple"], f"-cl-std={run['cl-std']}", "-O2",
                 "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
                 *shlex.split(run.get("clang", "")), "-o", base + ".bc", cl],
                ["llvm-spirv-15", *shlex.split(run.get("llvm-spirv", "")), base + ".bc", "-o",
                 base + ".spv"]])
        flags = tuple(shlex.split(run.get("k2s", "")))
        work.append((name, spvs[key][0], flags))

    def build(item):
        if os.path.exists(item[0]):
            return
        for cmd in item[1]:
            if subprocess.run(cmd, capture_output=True).returncode != 0:
                return
    with cf.ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(build, spvs.values()))
    seen, out = set(), []
    for name, spv, flags in work:
        if os.path.exists(spv) and (spv, flags) not in seen:
            seen.add((spv, flags))
            out.append((name, spv, list(flags)))
    return out


def translate(k2s, spv, flags, env, out):
    files = [out + ".spv", out + ".json", out + ".csv"]
    p = subprocess.run([k2s, spv, "-o", files[0], f"--reflect={files[1]}",
                        f"--descriptormap={files[2]}", *flags, f"--target-env={env}"],
                       capture_output=True)
    blobs = []
    for f in files:
        blobs.append(open(f, "rb").read() if os.path.exists(f) else None)
        if os.path.exists(f):
            os.remove(f)
    return p.returncode, p.stderr.replace(k2s.encode(), b"K2S"), blobs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--show", type=int, default=20, help="differences listed")
    ap.add_argument("--modules", help="where the compiled corpus modules are kept")
    ap.add_argument("extra", nargs="*", help="more modules, translated with no options")
    o = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="k2s-same-") as tmp:
        if o.modules:
            os.makedirs(o.modules, exist_ok=True)
        mods = compile_modules(o.modules or tmp, o.jobs) + [(os.path.basename(x), x, []) for x in o.extra]
        tasks = [(m, env) for m in mods for env in ENVS]

        def one(task):
            (name, spv, flags), env = task
            base = os.path.join(tmp, f"t{tasks.index(task)}")
            a = translate(o.old, spv, flags, env, base)
            b = translate(o.new, spv, flags, env, base)
            return name, flags, env, a, b
        with cf.ThreadPoolExecutor(max_workers=o.jobs) as pool:
            results = list(pool.map(one, tasks))
    bad, refused = [], 0
    for name, flags, env, a, b in results:
        refused += a[0] != 0
        if a != b:
            what = [w for w, x, y in zip(("exit status", "stderr"), a[:2], b[:2]) if x != y]
            what += [w for w, x, y in zip(("SPIR-V", "JSON", "CSV"), a[2], b[2]) if x != y]
            said = b[1].decode(errors="replace").strip().splitlines()
            bad.append(f"{name} {' '.join(flags)} {env}: {', '.join(what)} differ"
                       + (f" (new: {said[0][:160]})" if said and a[1] != b[1] else ""))
    print(f"{len(mods)} modules, {len(results)} translations ({refused} refused by the old "
          f"k2s), {len(bad)} differ")
    for line in bad[:o.show]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
