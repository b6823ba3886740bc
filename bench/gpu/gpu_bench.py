#!/usr/bin/env python3
"""GPU benchmark: bench/gpu/kernels.cl through k2s on Vulkan (k2s-run) against the same GPU's
own OpenCL driver (k2s-clref), both timed the same way (--time N: min/median/max of N runs
after warm-up, GPU timestamps / OpenCL event profiling), outputs compared.

  gpu_bench.py prepare [--build build] [--dir .gpu-bench]   # here: compile, translate, pack
  gpu_bench.py run [--dir .gpu-bench] [--out DIR] [--small] # there (or here on lavapipe/PoCL)

prepare needs clang-15, llvm-spirv-15 and the build; run needs only python3 (numpy if
present, for the output comparison) and the two hosts copied into DIR/bin. See
bench/gpu/README.md for the device call and bench/GPU.md for results.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

MiB = 1 << 20


def cases(small):
    """(name, kernel, global, local, args, bytes moved, flops, tolerance, kind).
    tolerance: None = exact; (rel, abs) for floats. Sizes: memory-bound kernels at >= 256 MB
    working sets (issue 13); `small` shrinks everything for a CPU check."""
    n = (1 << 16) if small else (1 << 25)          # 32 Mi floats = 128 MiB per buffer
    c = []
    n4 = n // 4
    c.append(("copy", "copy", f"{n4}", "256",
              [f"buffer:float4:{n4}=rand:1", f"buffer:float4:{n4}"], 2 * 16 * n4, 0, None, "mem"))
    c.append(("triad", "triad", f"{n}", "256",
              [f"buffer:float:{n}", f"buffer:float:{n}=rand:2", f"buffer:float:{n}=rand:3",
               "pod:float=3"], 3 * 4 * n, 2 * n, (1e-6, 1e-6), "mem"))
    c.append(("saxpy", "saxpy", f"{n}", "256",
              ["pod:float=2.5", f"buffer:float:{n}=rand:4", f"buffer:float:{n}=rand:5"],
              3 * 4 * n, 2 * n, (1e-6, 1e-6), "mem"))
    groups = n // (256 * 8)
    c.append(("reduce", "reduce", f"{groups * 256}", "256",
              [f"buffer:float:{n}=rand:6", f"buffer:float:{groups}"], 4 * n, n, (1e-5, 1e-5),
              "mem"))
    w, h = (256, 128) if small else (8192, 4096)
    c.append(("transpose", "transpose", f"{w},{h // 4}", "32,8",
              [f"buffer:float:{w * h}=rand:7", f"buffer:float:{w * h}", f"pod:uint={w}",
               f"pod:uint={h}"], 2 * 4 * w * h, 0, None, "mem"))
    c.append(("stencil", "stencil", f"{w},{h}", "32,8",
              [f"buffer:float:{w * h}=rand:8", f"buffer:float:{w * h}", f"pod:uint={w}",
               f"pod:uint={h}"], 2 * 4 * w * h, 6 * w * h, (1e-6, 1e-6), "mem"))
    nb = n * 2                                       # bytes of the histogram input
    per = 16
    items = nb // 4 // per
    c.append(("histogram", "histogram", f"{items}", "256",
              [f"buffer:uchar4:{nb // 4}=rand:9", "buffer:uint:256", f"pod:uint={per}"],
              nb, 0, None, "mem"))
    c.append(("scan", "scan", f"{n}", "256",
              [f"buffer:uint:{n}=rand:10:0:1000", f"buffer:uint:{n}"], 2 * 4 * n, 0, None,
              "mem"))
    c.append(("image", "image", f"{n}", "256",
              [f"buffer:uchar4:{n}=rand:11", f"buffer:uchar4:{n}", "pod:float=1.3",
               "pod:float=-20"], 2 * 4 * n, 8 * n, (0, 1), "mem"))
    npart = n // 8
    c.append(("particles", "particles", f"{npart}", "256",
              [f"buffer:float:{npart * 12}=rand:12", "pod:float=0.01"], 2 * 48 * npart,
              8 * npart, (1e-6, 1e-6), "mem"))
    nf = (1 << 12) if small else (1 << 22)
    c.append(("fma_peak", "fma_peak", f"{nf}", "256",
              [f"buffer:float:{nf}", "pod:float=0.999", "pod:float=0.001"], 4 * nf,
              2 * 8 * 512 * nf, (1e-4, 1e-4), "flop"))
    m = 128 if small else 2048
    mats = [f"buffer:float:{m * m}=rand:13", f"buffer:float:{m * m}=rand:14",
            f"buffer:float:{m * m}", f"pod:uint={m}"]
    c.append(("sgemm_tiled", "sgemm_tiled", f"{m},{m}", "16,16", mats, 3 * 4 * m * m,
              2 * m ** 3, (1e-4, 1e-4), "flop"))
    c.append(("sgemm_reg", "sgemm_reg", f"{m // 4},{m // 4}", "16,16", mats, 3 * 4 * m * m,
              2 * m ** 3, (1e-4, 1e-4), "flop"))
    nbod = 1024 if small else 32768
    c.append(("nbody", "nbody", f"{nbod}", "256",
              [f"buffer:float4:{nbod}=rand:15", f"buffer:float4:{nbod}", f"pod:uint={nbod}",
               "pod:float=0.01"], 2 * 16 * nbod, 20 * nbod * nbod, (1e-3, 1e-3), "flop"))
    nbs = (1 << 14) if small else (1 << 23)
    c.append(("blackscholes", "blackscholes", f"{nbs}", "256",
              [f"buffer:float:{nbs}=rand:16", f"buffer:float:{nbs}=rand:17",
               f"buffer:float:{nbs}=rand:18", f"buffer:float:{nbs}", f"buffer:float:{nbs}",
               "pod:float=0.02", "pod:float=0.3"], 5 * 4 * nbs, 0, (1e-5, 1e-4), "math"))
    return c


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_spirv(cl, spv):
    """OpenCL C -> Kernel-dialect SPIR-V (clang-15 and llvm-spirv-15)."""
    bc = spv[:-len(".spv")] + ".bc"
    for cmd in (["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL1.2",
                 "-emit-llvm-bc", "-no-opaque-pointers", "-finclude-default-header", "-O2",
                 "-o", bc, cl],
                ["llvm-spirv-15", bc, "-o", spv]):
        p = sh(cmd)
        if p.returncode:
            sys.exit(f"gpu_bench: {' '.join(cmd)} failed:\n{p.stderr}")


def translate(a, spv, out, build, flags):
    cmd = [f"{build}/passes/k2s", f"--target-env={a.target_env}", *flags, spv, "-o", out]
    p = sh(cmd)
    if p.returncode:
        sys.exit(f"gpu_bench: {' '.join(cmd)} failed:\n{p.stderr}")
    p = sh(["spirv-val", "--target-env", a.target_env, out])
    if p.returncode:
        sys.exit(f"gpu_bench: spirv-val {out}:\n{p.stdout}{p.stderr}")


def compile_translate(a, cl, out, build, flags):
    spv = out[:-len(".spv")] + ".in.spv"
    compile_spirv(cl, spv)
    translate(a, spv, out, build, flags)


def prepare(a):
    d = a.dir
    b = a.build
    os.makedirs(os.path.join(d, "bin"), exist_ok=True)
    for src, name in ((f"{b}/src/run/k2s-run", "k2s-run"),
                      (f"{b}/tests/clref/k2s-clref", "k2s-clref")):
        shutil.copy2(src, os.path.join(d, "bin", name))
    cl = os.path.join(HERE, "kernels.cl")
    shutil.copy2(cl, os.path.join(d, "kernels.cl"))
    spv = os.path.join(d, "kernels.spv")
    compile_spirv(cl, spv)
    # k2s-podpc: PODs in push constants (NVIDIA's OpenCL reads them from a constant bank,
    # the default reads them from a storage buffer); k2s-narrow: 32-bit global indices
    # (every buffer here is far below 4 GiB); timed with --variant (run).
    variants = {"k2s": (b, []), "k2s-native": (b, ["--math=native"]),
                "k2s-podpc": (b, ["-pod-pushconstant"]),
                "k2s-narrow": (b, ["--narrow-buffer-indices"])}
    if a.baseline_build:  # another build's k2s (e.g. main), timed beside this one
        variants["k2s-base"] = (a.baseline_build, [])
    for tag, (tb, flags) in variants.items():
        translate(a, spv, os.path.join(d, f"{tag}.spv"), tb, flags)
    for text in a.source:  # experiment sources: TAG.cl (for OpenCL) and TAG.spv (k2s)
        tag, sep, rest = text.partition("=")
        path, _, macro = rest.partition(":")
        if not sep or not tag or not path:
            sys.exit(f"gpu_bench: --source {text}: expected TAG=FILE.cl[:MACRO]")
        cl_tag = os.path.join(d, f"{tag}.cl")
        with open(cl_tag, "w") as f:
            f.write((f"#define {macro} 1\n" if macro else "") + open(path).read())
        compile_translate(a, cl_tag, os.path.join(d, f"{tag}.spv"), b, [])
    commit = sh(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]).stdout.strip()
    dirty = sh(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"]).stdout
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump({"commit": commit + ("-dirty" if dirty.strip() else ""),
                   "baseline": a.baseline_label if a.baseline_build else None,
                   "target_env": a.target_env, "prepared": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                         time.gmtime())}, f)
    print(f"gpu_bench: prepared {d} at {commit}")


TIME_RE = re.compile(r"^time: min=([0-9.]+) median=([0-9.]+) max=([0-9.]+) us", re.M)


def timed(cmd, timeout):
    """Runs one host; returns ((min, median, max) µs or None, error, wall s, info lines)."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout", time.time() - t0, []
    info = [l for l in p.stderr.splitlines() if "using" in l or "read back" in l]
    m = TIME_RE.search(p.stderr)
    if p.returncode or not m:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1], \
            time.time() - t0, info
    return tuple(float(x) for x in m.groups()), None, time.time() - t0, info


def dtype_of(spec):
    kind = spec.split(":")[1]
    base = re.match(r"[a-z]+", kind).group(0)
    return {"float": "f4", "uint": "u4", "int": "i4", "uchar": "u1", "char": "i1"}[base]


def compare_plain(fa, fb, dt, tol):
    import array
    import math
    code = {"f4": "f", "u4": "I", "i4": "i", "u1": "B", "i1": "b"}[dt]
    x, y = array.array(code), array.array(code)
    x.frombytes(open(fa, "rb").read())
    y.frombytes(open(fb, "rb").read())
    if len(x) != len(y):
        return False, "sizes differ", 0.0
    worst = 0.0
    for k, (u, v) in enumerate(zip(x, y)):
        if tol is None:
            if u != v and not (dt == "f4" and math.isnan(u) and math.isnan(v)):
                return False, f"[{k}] {u} vs {v}", 0.0
            continue
        if dt == "f4" and math.isnan(u) and math.isnan(v):
            continue
        d = abs(u - v)
        if d > tol[1] + tol[0] * abs(v) or d != d:
            return False, f"[{k}] {u} vs {v}", 0.0
        if abs(v) >= 1e-3:
            worst = max(worst, d / abs(v))
    return True, "", worst


def compare(spec_list, da, db, tol):
    """Compares every buffer argument's dump; returns (ok, detail)."""
    try:
        import numpy as np
    except ImportError:
        np = None
    worst = 0.0
    for i, spec in enumerate(spec_list):
        if not spec.startswith("buffer:"):
            continue
        fa, fb = os.path.join(da, f"arg{i}.bin"), os.path.join(db, f"arg{i}.bin")
        if not (os.path.exists(fa) and os.path.exists(fb)):
            return False, f"arg {i}: missing dump"
        if np is None:  # slow, for the small CPU check
            ok, detail, w = compare_plain(fa, fb, dtype_of(spec), tol)
            if not ok:
                return False, f"arg {i}: {detail}"
            worst = max(worst, w)
            continue
        dt = dtype_of(spec)
        x = np.fromfile(fa, dtype=dt)
        y = np.fromfile(fb, dtype=dt)
        if x.shape != y.shape:
            return False, f"arg {i}: sizes differ"
        if tol is None or dt != "f4":
            if tol is not None and dt != "f4":
                bad = np.abs(x.astype(np.int64) - y.astype(np.int64)) > tol[1]
            else:
                bad = x != y
            nbad = int(np.count_nonzero(bad))
            if nbad:
                k = int(np.argmax(bad))
                return False, f"arg {i}: {nbad} values differ (first [{k}] {x[k]} vs {y[k]})"
            continue
        rel, ab = tol
        both_nan = np.isnan(x) & np.isnan(y)
        diff = np.abs(x.astype(np.float64) - y.astype(np.float64))
        lim = ab + rel * np.abs(y.astype(np.float64))
        bad = (diff > lim) & ~both_nan
        nbad = int(np.count_nonzero(bad))
        if nbad:
            k = int(np.argmax(bad))
            return False, f"arg {i}: {nbad} values off (first [{k}] {x[k]} vs {y[k]})"
        big = (np.abs(y) >= 1e-3) & ~both_nan  # relative differences of values near 0 say little
        r = diff[big] / np.abs(y[big].astype(np.float64))
        worst = max(worst, float(np.max(r)) if r.size else 0.0)
    return True, f"max rel diff {worst:.1e} (where abs(ref) >= 1e-3)" if tol else "exact"


def run(a):
    d = a.dir
    meta = json.load(open(os.path.join(d, "meta.json")))
    out = a.out
    os.makedirs(out, exist_ok=True)
    work = a.work
    shutil.rmtree(work, ignore_errors=True)
    rows = []
    log = open(os.path.join(out, "gpu-bench.log"), "w")
    devs = sh([os.path.join(d, "bin", "k2s-run"), "--list-devices"])
    log.write(devs.stdout + devs.stderr)
    only = set(a.only.split(",")) if a.only else None
    variants = [parse_variant(v) for v in a.variant]
    for (name, kern, glob, loc, args, nbytes, flops, tol, kind) in cases(a.small):
        if only and name not in only:
            continue
        argv = ["--kernel", kern, "--global", glob, "--local", loc]
        for s in args:
            argv += ["--arg", s]
        res = {"name": name, "kind": kind, "bytes": nbytes, "flops": flops}
        dumps = {}
        k2s_run = os.path.join(d, "bin", "k2s-run")
        hosts = [("vk", [k2s_run, os.path.join(d, "k2s.spv")])]
        if kind == "math" or name == "nbody":
            hosts.append(("vk_native", [k2s_run, os.path.join(d, "k2s-native.spv")]))
        # Variants run between k2s and OpenCL, on the same warm GPU, case by case.
        clref = [os.path.join(d, "bin", "k2s-clref")]
        clplat = ["--platform", a.cl_platform] if a.cl_platform else []
        # A variant whose module is OpenCL C (.cl) runs on the OpenCL driver.
        hosts += [("var:" + label,
                   (clref + [os.path.join(d, module)] + clplat if module.endswith(".cl")
                    else [k2s_run, os.path.join(d, module)]) + flags)
                  for label, module, flags, names in variants if not names or name in names]
        hosts.append(("cl", clref + [os.path.join(d, "kernels.cl")] + clplat))
        for tool, cmd in hosts:
            dd = os.path.join(work, tool.replace(":", "_"), name)
            os.makedirs(dd, exist_ok=True)
            # --dump-dir always: without it k2s-run prints every buffer (256 MiB) to stdout.
            full = cmd + argv + ["--time", str(a.runs), "--dump-dir", dd, "--verbose"]
            t, err, wall, info = timed(full, a.timeout)
            log.write(f"{name} {tool}: {' '.join(full)}\n  -> {t} {err or ''} ({wall:.1f}s)\n")
            if info:
                log.write("  " + "\n  ".join(info) + "\n")
                if tool == "cl" and not res.get("cl_device"):
                    res["cl_device"] = info[0]
            log.flush()
            res[tool] = t
            res[tool + "_err"] = err
            dumps[tool] = dd
        if res.get("vk") and res.get("cl"):
            ok, detail = compare(args, dumps["vk"], dumps["cl"], tol)
        else:
            ok, detail = False, res.get("vk_err") or res.get("cl_err")
        res["match"], res["detail"] = ok, detail
        for tool, _ in hosts:
            if tool.startswith("var:"):
                if res.get(tool) and res.get("cl"):
                    res[tool + "_match"] = compare(args, dumps[tool], dumps["cl"], tol)[0]
                else:
                    res[tool + "_match"] = False
        for tool in dumps:
            shutil.rmtree(dumps[tool], ignore_errors=True)
        rows.append(res)
        print(f"{name:13s} vk={res.get('vk')} cl={res.get('cl')} match={ok} {detail}" +
              "".join(f" {t[4:]}={res[t]}" for t, _ in hosts if t.startswith("var:")),
              flush=True)
        # The table so far: a run cut short by its time limit still leaves its rows.
        json.dump({"meta": meta, "devices": devs.stdout, "rows": rows},
                  open(os.path.join(out, "gpu-bench.json"), "w"), indent=1)
        report(meta, devs.stdout, rows, out, a.runs, variants, quiet=True)
    report(meta, devs.stdout, rows, out, a.runs, variants)


def parse_variant(text):
    """LABEL=MODULE[+FLAG...][@CASE,...]: another module of DIR and/or extra k2s-run flags,
    timed for the named cases (all when none)."""
    label, sep, rest = text.partition("=")
    if not sep or not label or not rest:
        sys.exit(f"gpu_bench: --variant {text}: expected LABEL=MODULE[+FLAG...][@CASE,...]")
    rest, _, names = rest.partition("@")
    module, *flags = rest.split("+")
    return label, module, flags, set(names.split(",")) if names else set()


def report(meta, devices, rows, out, runs, variants=(), quiet=False):
    import math
    med = lambda r, t: r[t][1] if r.get(t) else None
    peak_bw = max((r["bytes"] / med(r, t) / 1e3 for r in rows if r["name"] == "copy"
                   for t in ("vk", "cl") if med(r, t)), default=None)
    peak_fl = max((r["flops"] / med(r, t) / 1e3 for r in rows if r["name"] == "fma_peak"
                   for t in ("vk", "cl") if med(r, t)), default=None)
    lines = [f"commit {meta['commit']} ({meta['target_env']}), {runs} timed runs per kernel "
             "after 3 warm-ups; times are medians in µs; ratio = OpenCL time / k2s time "
             "(> 1: k2s faster)",
             f"measured peaks: copy {peak_bw:.0f} GB/s, fma_peak {peak_fl:.0f} GFLOP/s"
             if peak_bw and peak_fl else "measured peaks: n/a",
             "Vulkan: " + next((l.strip() for l in devices.splitlines() if "*" in l), "?"),
             "OpenCL: " + next((r["cl_device"] for r in rows if r.get("cl_device")), "?"), ""]
    if meta.get("baseline"):
        lines[-1:-1] = [f"baseline (k2s-base.spv): the k2s of {meta['baseline']}"]
    lines += [
             "| kernel | k2s µs | OpenCL µs | ratio | k2s rate | OpenCL rate | k2s % of peak "
             "| --math=native µs | outputs |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    ratios = []
    for r in rows:
        vk, cl = med(r, "vk"), med(r, "cl")
        ratio = cl / vk if vk and cl else None
        if ratio:
            ratios.append(ratio)
        def rate(t):
            if not t:
                return "", None
            if r["kind"] == "flop" and r["flops"]:
                g = r["flops"] / t / 1e3
                return f"{g:.0f} GFLOP/s", g / peak_fl if peak_fl else None
            g = r["bytes"] / t / 1e3
            return f"{g:.0f} GB/s", g / peak_bw if peak_bw else None
        vr, vp = rate(vk)
        cr, _ = rate(cl)
        nat = med(r, "vk_native")
        lines.append(f"| {r['name']} | {vk or '-'} | {cl or '-'} | "
                     f"{f'{ratio:.2f}' if ratio else '-'} | {vr} | {cr} | "
                     f"{f'{100 * vp:.0f}%' if vp else ''} | {nat or ''} | "
                     f"{'match' if r['match'] else 'MISMATCH'}: {r['detail']} |")
    if ratios:
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        lines += ["", f"geomean ratio (OpenCL time / k2s time) over {len(ratios)} kernels: "
                      f"{g:.2f}; lowest {min(ratios):.2f}"]
    lines += variant_table(rows, variants, med)
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "gpu-bench.md"), "w").write(text)
    if not quiet:
        print(text)


def variant_table(rows, variants, med):
    """Each variant's median beside k2s's and OpenCL's for the cases it ran, with its
    geomean ratio against OpenCL (OpenCL time / variant time)."""
    import math
    if not variants:
        return []
    lines = ["", "Variants (same call, run between k2s and OpenCL case by case; "
             "ratio = OpenCL time / variant time; outputs compared with OpenCL's):", "",
             "| kernel | k2s µs | OpenCL µs | " +
             " | ".join(f"{v[0]} µs (ratio)" for v in variants) + " |",
             "|---|---:|---:|" + "---:|" * len(variants)]
    geo = {v[0]: [] for v in variants}
    for r in rows:
        cl = med(r, "cl")
        cells = []
        for v in variants:
            t = med(r, "var:" + v[0])
            if not t:
                cells.append(r.get("var:" + v[0] + "_err") or "" if "var:" + v[0] in r else "")
                continue
            ratio = cl / t if cl else None
            if ratio:
                geo[v[0]].append(ratio)
            bad = "" if r.get("var:" + v[0] + "_match") else " MISMATCH"
            cells.append(f"{t} ({ratio:.2f}){bad}" if ratio else f"{t}{bad}")
        lines.append(f"| {r['name']} | {med(r, 'vk') or '-'} | {cl or '-'} | " +
                     " | ".join(cells) + " |")
    lines.append("")
    for label, ratios in geo.items():
        if ratios:
            g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            lines.append(f"{label}: geomean ratio over {len(ratios)} kernels {g:.2f}, "
                         f"lowest {min(ratios):.2f}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["prepare", "run"])
    ap.add_argument("--dir", default=os.path.join(REPO, ".gpu-bench"))
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--target-env", default="vulkan1.2")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/gpu-bench-out"))
    ap.add_argument("--work", default="/tmp/gpu-bench-work")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--small", action="store_true", help="small sizes (a CPU check)")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--cl-platform", help="k2s-clref --platform (index or name, e.g. NVIDIA)")
    ap.add_argument("--variant", action="append", default=[],
                    help="run: LABEL=MODULE[+FLAG...][@CASE,...], also time DIR/MODULE with "
                    "extra k2s-run flags (e.g. norobust=k2s.spv+--no-robust-access@transpose, "
                    "podpc=k2s-podpc.spv, main=k2s-base.spv); a MODULE.cl runs on OpenCL "
                    "(k2s-clref) instead; repeatable")
    ap.add_argument("--source", action="append", default=[],
                    help="prepare: TAG=FILE.cl[:MACRO], an experiment source compiled with "
                    "MACRO defined, kept as DIR/TAG.cl (a --variant module for OpenCL) and "
                    "translated to DIR/TAG.spv; repeatable")
    ap.add_argument("--baseline-build", help="prepare: also translate with this build's k2s "
                    "(k2s-base.spv, for --variant)")
    ap.add_argument("--baseline-label", default="baseline", help="prepare: what the baseline "
                    "build is (recorded in meta.json)")
    a = ap.parse_args()
    prepare(a) if a.what == "prepare" else run(a)


if __name__ == "__main__":
    main()
