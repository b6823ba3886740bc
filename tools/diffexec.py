#!/usr/bin/env python3
"""Differential execution: run a kernel translated by k2s on Vulkan (k2s-run) and the original
OpenCL C on the OpenCL reference (k2s-clref, PoCL here) with identical generated inputs, and
compare every buffer.

  diffexec.py [options] FILE.cl...          every kernel of each file
  diffexec.py [options] --sweep WORK        OpenCL C sources of a sweep work dir (--sample N)

Arguments come from the reflection (`k2s --reflect`: kind, POD size, local/buffer element
size) and from the input module's kernel parameter types (element type of each buffer, type of
each POD): buffers of --count elements (floats from rand in [-1, 1), integers from rand in
[0, --int-max] so that values used as indices stay in bounds), integer PODs = --int-pod,
float PODs = 0.5, struct PODs = deterministic bytes, local arguments = --count elements.
Images, samplers and pointer-to-pointer arguments are not generated (the kernel is skipped,
saying so). Integers must be equal; floats may differ by --ulp units in the last place
(NaN equals NaN, +0 equals -0).

Outcomes per kernel: match, MISMATCH (first differing value and count), race (a mismatch at
--global that disappears with one work-item: the kernel writes one location from every
work-item, so which write wins is the driver's), vk-fail (translation
or k2s-run failed), ref-fail (the reference cannot build or run it), skip (arguments cannot
be generated), frontend (clang/llvm-spirv failed). One line each, then a summary; --json
writes every record. Exit status 1 if any MISMATCH or vk-fail (with --strict). -j N runs N
sources at a time (the device host's CPUs: tools/device/diffexec.sh).
"""
import argparse
import concurrent.futures
import json
import math
import os
import pathlib
import random
import re
import shlex
import struct
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent.parent
INT_NAMES = {8: "uchar", 16: "ushort", 32: "uint", 64: "ulong"}
FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}


def sh(cmd, timeout, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def kernel_param_types(spv):
    """{kernel name: [type description per parameter]} from the input module's disassembly.
    A description is ('scalar'|'buffer'|'local'|'struct'|'other', scalar-name, lanes)."""
    rc, out, err = sh(["spirv-dis", "--raw-id", spv], 60)
    if rc != 0:
        return {}
    defs, params, entry, cur_fn = {}, {}, {}, None
    for line in out.splitlines():
        m = re.match(r"\s*(%\d+) = (Op\w+)\s*(.*)", line)
        if m:
            rid, op, rest = m.groups()
            defs[rid] = (op, rest.split())
            if op == "OpFunction":
                cur_fn = rid
                params[rid] = []
            elif op == "OpFunctionParameter" and cur_fn:
                params[cur_fn].append(rest.split()[0])
            continue
        m = re.match(r'\s*OpEntryPoint Kernel (%\d+) "([^"]+)"', line)
        if m:
            entry[m.group(2)] = m.group(1)

    def scalar(tid, depth=0):
        op, ops = defs.get(tid, ("?", []))
        if op == "OpTypeInt":
            return (INT_NAMES.get(int(ops[0])), 1)
        if op == "OpTypeFloat":
            return (FLOAT_NAMES.get(int(ops[0])), 1)
        if op == "OpTypeVector":
            s, _ = scalar(ops[0])
            return (s, int(ops[1]))
        return (None, 0)

    result = {}
    for name, fn in entry.items():
        descs = []
        for ptype in params.get(fn, []):
            op, ops = defs.get(ptype, ("?", []))
            if op == "OpTypePointer":
                sc, pointee = ops[0], ops[1]
                pop, pops = defs.get(pointee, ("?", []))
                if sc == "Function":
                    descs.append(("struct", None, 0))
                elif sc == "Workgroup":
                    descs.append(("local",) + scalar(pointee))
                elif pop in ("OpTypeInt", "OpTypeFloat", "OpTypeVector"):
                    descs.append(("buffer",) + scalar(pointee))
                elif pop == "OpTypePointer":
                    descs.append(("other", None, 0))
                else:
                    descs.append(("buffer", None, 0))  # struct/array elements: raw words
            elif op in ("OpTypeInt", "OpTypeFloat", "OpTypeVector"):
                descs.append(("scalar",) + scalar(ptype))
            else:
                descs.append(("other", None, 0))
        result[name] = descs
    return result


def type_name(s, lanes):
    if s is None:
        return None
    if lanes == 1:
        return s
    if lanes in (2, 3, 4, 8, 16):
        return f"{s}{lanes}"
    return None


def gen_args(refl_args, descs, a, seed):
    """--arg specs for one kernel, or (None, reason)."""
    specs = []
    if len(refl_args) != len(descs):
        return None, f"reflection has {len(refl_args)} arguments, the module {len(descs)}"
    for i, (ra, d) in enumerate(zip(refl_args, descs)):
        kind = ra.get("kind")
        if kind in ("buffer", "buffer_ubo", "uniform", "storage_buffer", "pointer_ubo",
                    "pointer_pushconstant", "buffer_address") or d[0] == "buffer":
            if d[0] != "buffer":
                return None, f"argument {i} ({kind}) is not a plain buffer"
            t = type_name(d[1], d[2])
            if t is None:
                esz = ra.get("elem_size") or 4
                t, n = ("uint", esz * a.count // 4) if esz % 4 == 0 else ("uchar", esz * a.count)
            else:
                n = a.count
            if t.startswith(("float", "double", "half")):
                specs.append(f"buffer:{t}:{n}=rand:{seed + i}")
            else:
                specs.append(f"buffer:{t}:{n}=rand:{seed + i}:0:{a.int_max}")
        elif kind == "local":
            esz = ra.get("elem_size") or 4
            specs.append(f"local:{esz * a.count}")
        elif kind == "pod" or kind.startswith("pod"):
            if d[0] == "scalar" and type_name(d[1], d[2]):
                t = type_name(d[1], d[2])
                v = "0.5" if t.startswith(("float", "double", "half")) else str(a.int_pod)
                specs.append(f"pod:{t}={v}")
            else:
                size = ra.get("size")
                if not size:
                    return None, f"argument {i}: POD without a size"
                rng = random.Random(seed * 1000 + i)
                # Small little-endian words: plausible counts/indices, and finite floats.
                words = [rng.randrange(0, 16) for _ in range((size + 3) // 4)]
                raw = b"".join(struct.pack("<I", w) for w in words)[:size]
                specs.append("pod:struct=" + raw.hex())
        else:
            return None, f"argument {i} is a {kind} (not generated)"
    return specs, None


def parse_output(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"arg (\d+): ?(.*)", line)
        if m:
            out[int(m.group(1))] = m.group(2).split()
    return out


def ordered(x, bits):
    if bits == 64:
        u = struct.unpack("<q", struct.pack("<d", x))[0]
    else:
        u = struct.unpack("<i", struct.pack("<f", x))[0]
    return u if u >= 0 else -(u & 0x7FFFFFFFFFFFFFFF if bits == 64 else u & 0x7FFFFFFF)


def values_equal(x, y, is_float, bits, ulp):
    if x == y:
        return True
    if not is_float:
        return False
    fx, fy = float(x), float(y)
    if math.isnan(fx) or math.isnan(fy):
        return math.isnan(fx) and math.isnan(fy)
    if fx == fy:
        return True
    if math.isinf(fx) or math.isinf(fy):
        return False
    return abs(ordered(fx, bits) - ordered(fy, bits)) <= ulp


def compare(vk, ref, specs, ulp):
    diffs = []
    for ordinal, vals in ref.items():
        spec = specs[ordinal]
        t = spec.split(":")[1]
        is_float = t.startswith(("float", "double", "half"))
        bits = 64 if t.startswith("double") else 32
        other = vk.get(ordinal)
        if other is None or len(other) != len(vals):
            diffs.append(f"arg {ordinal}: {len(vals)} values vs {len(other or [])}")
            continue
        bad = [k for k, (x, y) in enumerate(zip(other, vals))
               if not values_equal(x, y, is_float, bits, ulp)]
        if bad:
            k = bad[0]
            diffs.append(f"arg {ordinal}: {len(bad)} differ, first [{k}] vulkan {other[k]} "
                         f"reference {vals[k]}")
    return diffs


def run_file(cl, a, tmp):
    recs = []
    spv = os.path.join(tmp, "in.spv")
    bc = os.path.join(tmp, "k.bc")
    cmd = ["clang-15", "-cc1", "-triple", "spir64", f"-cl-std={a.cl_std}", f"-{a.opt}",
           "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
           "-Wno-everything", *shlex.split(a.clang_opts), cl, "-o", bc]
    rc, _, err = sh(cmd, 120)
    if rc == 0:
        rc, _, err = sh(["llvm-spirv-15", bc, "-o", spv], 120)
    if rc != 0:
        return [{"file": cl, "kernel": "-", "result": "frontend", "detail": err.strip()[:200]}]
    out = os.path.join(tmp, "out.spv")
    refl = os.path.join(tmp, "out.json")
    rc, _, err = sh([a.k2s, spv, f"--target-env={a.env}", "-o", out, f"--reflect={refl}",
                     *shlex.split(a.k2s_opts)], 120)
    if rc != 0:
        return [{"file": cl, "kernel": "-", "result": "vk-fail",
                 "detail": "k2s: " + (err.strip().splitlines() or ["?"])[0][:300]}]
    reflection = json.load(open(refl))
    types = kernel_param_types(spv)
    for kernel in reflection.get("kernels", [])[:a.max_kernels]:
        name = kernel["name"]
        rec = {"file": cl, "kernel": name}
        specs, why = gen_args(kernel.get("args", []), types.get(name, []), a, a.seed)
        if specs is None:
            recs.append(dict(rec, result="skip", detail=why))
            continue
        rec["args"] = specs
        res, detail = run_both(cl, out, refl, name, specs, a.global_size, a)
        if res == "MISMATCH" and a.global_size > 1:
            # Test-suite kernels often write one location from every work-item (written
            # for one work-item, or reqd_work_group_size(1,1,1) run as many groups): a
            # race whose winner differs between drivers. One work-item has no race: if
            # the two then agree, the record says so instead of MISMATCH.
            res1, _ = run_both(cl, out, refl, name, specs, 1, a)
            if res1 == "match":
                res = "race"
                detail += " (one work-item: match)"
        recs.append(dict(rec, result=res, detail=detail))
    return recs


def run_both(cl, out, refl, name, specs, global_size, a):
    """Runs one kernel on Vulkan and on the reference; (outcome, detail)."""
    common = ["--kernel", name, "--global", str(global_size)]
    for s in specs:
        common += ["--arg", s]
    rc, vk_out, vk_err = sh([a.k2s_run, out, "--reflect", refl, "--timeout", str(a.timeout),
                             *common], a.timeout + 30)
    if rc != 0:
        return "vk-fail", "k2s-run: " + (vk_err.strip().splitlines() or ["?"])[-1][:300]
    build = f"-cl-std={a.cl_std} {a.clang_opts}".strip()
    plat = ["--platform", a.cl_platform] if a.cl_platform else []
    rc, ref_out, ref_err = sh([a.clref, cl, "--build-options", build, *plat, *common],
                              a.timeout + 60)
    if rc != 0:
        return "ref-fail", (ref_err.strip().splitlines() or ["timeout"])[-1][:300]
    diffs = compare(parse_output(vk_out), parse_output(ref_out), specs, a.ulp)
    if diffs:
        return "MISMATCH", "; ".join(diffs)[:500]
    return "match", ""


def sweep_sources(work, a):
    man = [json.loads(x) for x in open(os.path.join(work, "manifest.jsonl")) if x.strip()]
    srcs = [m for m in man if m["kind"] == "cl" and (not a.suite or m["suite"] in a.suite)]
    srcs.sort(key=lambda m: m["id"])
    random.Random(a.seed).shuffle(srcs)
    if a.sample:
        srcs = srcs[:a.sample]
    return [os.path.join(work, "src", m["file"]) for m in srcs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--sweep", help="a tools/sweep.py work directory")
    ap.add_argument("--suite", default="", help="with --sweep: only these suites")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--env", default="vulkan1.2")
    ap.add_argument("--cl-std", default="CL1.2")
    ap.add_argument("--opt", default="O2", choices=["O0", "O1", "O2", "O3"])
    ap.add_argument("--clang-opts", default="")
    ap.add_argument("--k2s-opts", default="")
    ap.add_argument("--global", dest="global_size", type=int, default=64)
    ap.add_argument("--count", type=int, default=1024, help="elements per buffer")
    ap.add_argument("--int-max", type=int, default=63)
    ap.add_argument("--int-pod", type=int, default=16)
    ap.add_argument("--ulp", type=int, default=4)
    ap.add_argument("--max-kernels", type=int, default=8)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("-j", "--jobs", type=int, default=1, help="sources run at a time")
    ap.add_argument("--cl-platform", help="k2s-clref --platform (index or name, e.g. NVIDIA)")
    ap.add_argument("--skip-done", help="leave out the sources a --json file of an earlier run has")
    ap.add_argument("--k2s", default=str(HERE / "build" / "passes" / "k2s"))
    ap.add_argument("--k2s-run", default=str(HERE / "build" / "src" / "run" / "k2s-run"))
    ap.add_argument("--clref", default=str(HERE / "build" / "tests" / "clref" / "k2s-clref"))
    ap.add_argument("--json", help="write every record here (JSON lines)")
    ap.add_argument("--strict", action="store_true", help="exit 1 on any MISMATCH or vk-fail")
    a = ap.parse_args()
    files = list(a.files)
    if a.sweep:
        files += sweep_sources(a.sweep, a)
    if a.skip_done:
        done = {os.path.basename(json.loads(x)["file"]) for x in open(a.skip_done) if x.strip()}
        files = [f for f in files if os.path.basename(f) not in done]
    if not files:
        ap.error("no input: give .cl files or --sweep WORK")
    counts = {}
    jf = open(a.json, "w") if a.json else None

    def one(cl):
        with tempfile.TemporaryDirectory() as tmp:
            return run_file(cl, a, tmp)

    # Sources are independent: -j N runs N at a time (records are written as each ends).
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for fut in concurrent.futures.as_completed([ex.submit(one, cl) for cl in files]):
            for r in fut.result():
                counts[r["result"]] = counts.get(r["result"], 0) + 1
                print(f"{r['result']} {r['file']} {r['kernel']}"
                      + (f": {r['detail']}" if r.get("detail") else ""), flush=True)
                if jf:
                    jf.write(json.dumps(r) + "\n")
                    jf.flush()
    print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    bad = counts.get("MISMATCH", 0) + counts.get("vk-fail", 0)
    return 1 if (a.strict and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
