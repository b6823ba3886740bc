#!/usr/bin/env python3
"""Device conversion test: every OpenCL convert_DST[_sat][_rte|_rtz|_rtp|_rtn](SRC) for
all eleven scalar types, run through clang-15 + llvm-spirv-15 + k2s on a Vulkan device with
k2s-run and checked against conv_check's reference of the OpenCL rules (exhaustive for
8/16-bit and half sources, edges plus random samples for 32/64-bit ones).

    run_conversions.py --k2s K2S --k2s-run RUN --conv-check CHECK [--work DIR]
                       [--sources int,half,...] [--lanes 1,4] [--samples N] [--env vulkan1.2]
                       [--stage all|prepare|run]
                       [--clref CLREF]   # also check PoCL (or any OpenCL) against the reference
                       [--device N|NAME] [-j JOBS]

Prints one line per (source, lanes, host) and exits non-zero on any mismatch or failure.
"""
import argparse
import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import time

TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float",
         "double"]
BITS = dict(char=8, uchar=8, short=16, ushort=16, int=32, uint=32, long=64, ulong=64, half=16,
            float=32, double=64)


def n_variants(t):
    return 5 if t in ("half", "float", "double") else 10


def run(cmd, **kw):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    except OSError as e:
        return 127, f"{cmd[0]}: {e}"
    return p.returncode, p.stdout


def prepare(o, src, lanes, d, n):
    """Kernel, SPIR-V and k2s output in d; the inputs (shared by all lane counts)."""
    cl = os.path.join(d, "conv.cl")
    rc, out = run([o.conv_check, "kernel", src, str(lanes), str(n)])
    if rc:
        return f"conv_check kernel failed: {out}"
    with open(cl, "w") as f:
        f.write(out)
    bc, spv, vk = (os.path.join(d, x) for x in ("conv.bc", "conv.spv", "conv.vk.spv"))
    steps = [
        ("clang", [o.clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL1.2", "-O2",
                   "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc", "-o", bc,
                   cl]),
        ("llvm-spirv", [o.llvm_spirv, bc, "-o", spv]),
        ("k2s", [o.k2s, "--target-env", o.env, *shlex.split(o.k2s_flags), spv, "-o", vk]),
    ]
    for name, cmd in steps:
        rc, out = run(cmd)
        if rc:
            return f"{name} failed (exit {rc}): {out.strip()[-2000:]}"
    os.remove(bc)
    inp = input_path(o, src)
    if not os.path.exists(inp):
        tmp = f"{inp}.{lanes}.tmp"  # lane counts of one source may race here
        rc, out = run([o.conv_check, "inputs", src, str(n), str(o.seed + BITS[src]), tmp])
        if rc:
            return f"conv_check inputs failed: {out}"
        os.replace(tmp, inp)
    return None


def input_path(o, src):
    n = (1 << BITS[src]) if BITS[src] <= 16 else o.samples
    return os.path.join(o.work, f"in-{src}-{n}-{o.seed}.bin")


def one(o, src, lanes):
    tag = f"{src}x{lanes}"
    d = os.path.join(o.work, tag)
    t0 = time.time()
    n = (1 << BITS[src]) if BITS[src] <= 16 else o.samples
    if o.stage != "run":
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        err = prepare(o, src, lanes, d, n)
        if err:
            return tag, False, err
        if o.stage == "prepare":
            return tag, True, f"prepared ({time.time() - t0:.1f} s)"
    vk, cl, inp = os.path.join(d, "conv.vk.spv"), os.path.join(d, "conv.cl"), input_path(o, src)
    if not (os.path.exists(vk) and os.path.exists(inp)):
        return tag, False, f"{vk} or {inp} missing (run --stage prepare first)"
    groups = n // lanes
    count = groups * lanes
    args = ["--arg", f"buffer:{src}:{n}=file:{os.path.abspath(inp)}"]
    for t in TYPES:
        args += ["--arg", f"buffer:{t}:{n * n_variants(t)}=zeros"]
    hosts = [("vulkan", [o.k2s_run, vk, "--kernel", "conv", "--global", str(groups)] +
              (["--device", o.device] if o.device else []))]
    if o.clref and src != "half":  # PoCL has no cl_khr_fp16
        hosts.append(("opencl", [o.clref, cl, "--kernel", "conv", "--global", str(groups)]))
    lines, ok = [], True
    for host, cmd in hosts:
        dump = os.path.join(d, host)
        shutil.rmtree(dump, ignore_errors=True)
        os.makedirs(dump)
        rc, out = run(cmd + args + ["--dump-dir", dump])
        if rc:
            ok = ok and host != "vulkan"
            lines.append(f"{host}: run failed (exit {rc}): {out.strip()[-2000:]}")
            continue
        rc, out = run([o.conv_check, "check", src, str(n), str(count), inp, dump] +
                      (["--no-half"] if host == "opencl" else []))
        out = out.strip()
        if rc:
            # The OpenCL side is informational: its mismatches are printed, not failures.
            ok = ok and host != "vulkan"
            out = "\n".join(out.splitlines()[-40:])
        else:
            out = out.splitlines()[-1]
        lines.append(f"{host}: {out}")
        if not o.keep:
            shutil.rmtree(dump, ignore_errors=True)
    return tag, ok, f"({time.time() - t0:.1f} s)\n  " + "\n  ".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k2s", help="the translator (not needed with --stage run)")
    ap.add_argument("--k2s-run", help="the Vulkan host (not needed with --stage prepare)")
    ap.add_argument("--conv-check", required=True)
    ap.add_argument("--clref", help="also run k2s-clref (OpenCL) and report its mismatches")
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--work", default="conversions-work")
    ap.add_argument("--sources", default=",".join(TYPES))
    ap.add_argument("--lanes", default="1", help="comma-separated lane counts (1,2,3,4,8,16)")
    ap.add_argument("--samples", type=int, default=16384, help="inputs for 32/64-bit sources")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--env", default="vulkan1.2")
    ap.add_argument("--k2s-flags", default="", help="extra k2s options (e.g. --math=native, "
                    "which leaves plain conversions to the device's own rounding)")
    ap.add_argument("--device")
    ap.add_argument("--keep", action="store_true", help="keep the dumped outputs")
    ap.add_argument("--stage", choices=("all", "prepare", "run"), default="all",
                    help="prepare: kernels, k2s output and inputs into --work (here); run: "
                         "run and check what --work holds (e.g. on the GPU machine)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    o = ap.parse_args()
    if o.stage != "run" and not o.k2s:
        ap.error("--k2s is needed to prepare")
    if o.stage != "prepare" and not o.k2s_run:
        ap.error("--k2s-run is needed to run")
    for t in o.sources.split(","):
        if t not in TYPES:
            ap.error(f"unknown source type {t}")
    os.makedirs(o.work, exist_ok=True)
    jobs = [(s, int(l)) for l in o.lanes.split(",") for s in o.sources.split(",")]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        for tag, ok, msg in ex.map(lambda j: one(o, *j), jobs):
            print(f"{'PASS' if ok else 'FAIL'} {tag} {msg}", flush=True)
            failed += not ok
    print(f"{len(jobs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
