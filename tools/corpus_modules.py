#!/usr/bin/env python3
"""Build every SPIR-V module the project can produce from corpus/.

For each corpus/NAME.cl, the build configurations are the distinct
(triple, cl-std, clang -D options, llvm-spirv options) tuples named by the sections
of corpus/NAME.spec (defaults: spir64, CL1.2, no options). Each configuration is
compiled with clang-15 + llvm-spirv-15 twice: llvm-spirv's default output
(SPIR-V 1.4 when wrap flags are present) and --spirv-max-version=1.3.

Usage: corpus_modules.py [--corpus DIR] [--jobs N] OUTDIR
Writes OUTDIR/<name>[.<config>].<v>.spv and prints one line per module.
Exits non-zero if any module fails to compile (a corpus bug, not a k2s bug).
"""
import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import subprocess
import sys
import tempfile

CLANG = os.environ.get("CLANG", "clang-15")
LLVM_SPIRV = os.environ.get("LLVM_SPIRV", "llvm-spirv-15")


def spec_configs(spec_path):
    """Distinct (triple, std, clang-options, llvm-spirv-options) tuples of a .spec file."""
    configs = []
    text = spec_path.read_text() if spec_path.exists() else ""
    for section in text.split("\n---"):
        triple, std, opts, lspv = "spir64", "CL1.2", "", ""
        for line in section.splitlines():
            line = line.strip()
            if line.startswith("triple:"):
                triple = line.split(":", 1)[1].strip()
            elif line.startswith("cl-std:"):
                std = line.split(":", 1)[1].strip()
            elif line.startswith("clang:"):
                opts = line.split(":", 1)[1].strip()
            elif line.startswith("llvm-spirv:"):
                lspv = line.split(":", 1)[1].strip()
        if (triple, std, opts, lspv) not in configs:
            configs.append((triple, std, opts, lspv))
    return configs or [("spir64", "CL1.2", "", "")]


def config_tag(triple, std, opts, lspv=""):
    tag = f"{triple}.{std.replace('.', '')}"
    if opts:
        tag += "." + hashlib.sha1(opts.encode()).hexdigest()[:8]
    if lspv:
        tag += "." + hashlib.sha1(lspv.encode()).hexdigest()[:8]
    return tag


def build_one(cl, triple, std, opts, lspv, max13, out):
    with tempfile.TemporaryDirectory() as tmp:
        bc = pathlib.Path(tmp) / "k.bc"
        cmd = [CLANG, "-cc1", "-triple", triple, f"-cl-std={std}", "-O2",
               "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
               *opts.split(), str(cl), "-o", str(bc)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            return f"clang failed: {' '.join(cmd)}\n{r.stderr}"
        cmd = [LLVM_SPIRV, *lspv.split(), str(bc), "-o", str(out)]
        if max13:
            cmd.insert(1, "--spirv-max-version=1.3")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            return f"llvm-spirv failed: {' '.join(cmd)}\n{r.stderr}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).resolve().parent.parent
    ap.add_argument("--corpus", default=str(here / "corpus"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("outdir")
    a = ap.parse_args()
    out = pathlib.Path(a.outdir)
    out.mkdir(parents=True, exist_ok=True)
    jobs = []
    for cl in sorted(pathlib.Path(a.corpus).glob("*.cl")):
        for triple, std, opts, lspv in spec_configs(cl.with_suffix(".spec")):
            for max13 in (False, True):
                tag = config_tag(triple, std, opts, lspv)
                name = f"{cl.stem}.{tag}.{'v13' if max13 else 'vdef'}.spv"
                jobs.append((cl, triple, std, opts, lspv, max13, out / name))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for job, err in zip(jobs, ex.map(lambda j: build_one(*j), jobs)):
            if err:
                failed += 1
                print(f"FAIL {job[-1].name}: {err}", file=sys.stderr)
            else:
                print(job[-1])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
