#!/usr/bin/env python3
"""Precision tool: max ULP error of every OpenCL.std float function as k2s translates it,
measured on a Vulkan device against correctly rounded MPFR results (k2s-ulp).

For each function and type (float; half and double where the device has them) it writes an
OpenCL C kernel that evaluates the function over input buffers, compiles it (clang-15 +
llvm-spirv-15, the corpus flags), translates it with k2s twice (default precise mode and
--math=native), runs both with k2s-run (--dump-dir), and has k2s-ulp compare each result
with MPFR. Inputs: special values (and their cross products for several arguments) plus
COUNT random inputs spread over all bit patterns and the function's useful ranges; every
half value for one-argument half functions; --long adds every float bit pattern for
one-argument float functions.

A row fails when k2s translates the function in precise mode and the result exceeds the
OpenCL full-profile bound (or breaks a prescribed edge case), or the translated module does
not run. A function k2s rejects is reported as "not translated" with k2s's message. Exit
status 1 when any row failed. Usage: docs/precision.md.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLANG_FLAGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL1.2", "-O2",
               "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc"]
TYPES = ["float", "half", "double"]
LOCAL = 64
MAX_GROUPS = 65535          # Vulkan's guaranteed maxComputeWorkGroupCount[0]
CHUNK = LOCAL * 32768       # inputs per dispatch in the exhaustive modes (2^21)


def run(argv, timeout=900):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except FileNotFoundError:
        return 127, "", f"{argv[0]}: not found"
    except subprocess.TimeoutExpired:
        return 124, "", f"{os.path.basename(argv[0])} timed out after {timeout} s"


def first_error(text, rc):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errs = [l for l in lines if "error" in l.lower()]
    line = (errs or lines or [f"exit status {rc}"])[0]
    return line if len(line) <= 240 else line[:237] + "..."


def kernel_source(fn, ty):
    head = []
    if ty == "half":
        head.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable")
    if ty == "double":
        head.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
    head += [f"typedef {ty} T;", "#define ONE ((T)1)"]
    params, loads = [], []
    for k, a in enumerate(fn["args"]):
        ct = "T" if a == "f" else "int"
        params.append(f"global const {ct} *in{k}")
        loads.append(f"  {ct} a{k} = in{k}[i];")
    for k, o in enumerate(fn["outs"]):
        ct = "T" if o == "f" else "int"
        params.append(f"global {ct} *r{k}")
    body = ["  size_t i = get_global_id(0);"] + loads + [f"  r0[i] = {fn['expr']};"]
    return "\n".join(head + [f"kernel void k({', '.join(params)})", "{"] + body + ["}", ""])


class Tool:
    def __init__(self, o):
        self.o = o
        funcs = subprocess.run([o.k2s_ulp, "list"], capture_output=True, text=True, check=True)
        self.funcs = [json.loads(l) for l in funcs.stdout.splitlines() if l.strip()]

    # ---- build the modules ---------------------------------------------------------------

    def spirv(self, fn, ty, wd):
        """Kernel SPIR-V for the function: (path, None) or (None, error)."""
        src = kernel_source(fn, ty)
        with open(os.path.join(wd, "kernel.cl"), "w") as f:
            f.write(src)
        key = hashlib.sha256((src + self.o.clang + self.o.llvm_spirv).encode()).hexdigest()[:16]
        cache = os.path.join(self.o.work_dir, "spv-cache", key + ".spv")
        if os.path.exists(cache):
            return cache, None
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        cl = os.path.join(wd, "kernel.cl")
        bc = os.path.join(wd, "kernel.bc")
        rc, _, err = run([self.o.clang, *CLANG_FLAGS, "-o", bc, cl])
        if rc != 0:
            return None, "clang: " + first_error(err, rc)
        tmp = cache + f".tmp{os.getpid()}"
        rc, _, err = run([self.o.llvm_spirv, bc, "-o", tmp])
        if rc != 0:
            return None, "llvm-spirv: " + first_error(err, rc)
        os.replace(tmp, cache)
        return cache, None

    def translate(self, spv, mode, wd):
        out = os.path.join(wd, f"{mode}.spv")
        cmd = [self.o.k2s, spv, "-o", out] + (["--math=native"] if mode == "native" else [])
        cmd += shlex.split(self.o.k2s_flags)
        rc, _, err = run(cmd)
        if rc != 0:
            return None, first_error(err, rc)
        return out, None

    # ---- run and check ---------------------------------------------------------------------

    def gen(self, fn, ty, wd, exhaustive_first=None, count=None):
        if exhaustive_first is not None:
            cmd = [self.o.k2s_ulp, "gen-exhaustive", fn["name"], ty, str(exhaustive_first),
                   str(count), wd]
        else:
            cmd = [self.o.k2s_ulp, "gen", fn["name"], ty, str(count), str(self.o.seed), wd]
        rc, out, err = run(cmd)
        if rc != 0:
            raise RuntimeError("k2s-ulp gen: " + first_error(err, rc))
        n, nspecial = (int(x) for x in out.split())
        return n, nspecial

    def run_and_check(self, fn, ty, shader, wd, mode, n, nspecial, threads):
        dump = os.path.join(wd, f"dump-{mode}")
        shutil.rmtree(dump, ignore_errors=True)
        os.makedirs(dump)
        if mode == "pocl":  # the OpenCL C source on the OpenCL reference host
            cmd = [self.o.clref, shader, "--build-options", "-cl-std=CL1.2"]
        else:
            cmd = [self.o.k2s_run, shader]
        cmd += ["--kernel", "k", "--global", str(n), "--local", str(LOCAL), "--dump-dir", dump]
        for k, a in enumerate(fn["args"]):
            ct = ty if a == "f" else "int"
            cmd += ["--arg", f"buffer:{ct}:{n}=file:{os.path.join(wd, f'in{k}.bin')}"]
        for o in fn["outs"]:
            cmd += ["--arg", f"buffer:{ty if o == 'f' else 'int'}:{n}"]
        if self.o.device and mode != "pocl":
            cmd += ["--device", self.o.device]
        rc, _, err = run(cmd)
        if rc != 0:
            tool = "k2s-clref" if mode == "pocl" else "k2s-run"
            msg = f"{tool}: " + first_error(err, rc)
            if "but device" in err and " lacks " in err:  # e.g. no shaderFloat64: not k2s's fault
                return {"status": "device lacks", "error": msg}
            return {"status": "run failed", "error": msg}
        rc, out, err = run([self.o.k2s_ulp, "check", fn["name"], ty, dump, "-j", str(threads),
                            "--nspecial", str(nspecial)])
        shutil.rmtree(dump, ignore_errors=True)
        if rc != 0:
            return {"status": "check failed", "error": "k2s-ulp: " + first_error(err, rc)}
        res = json.loads(out)
        res["status"] = "ok"
        return res

    def exhaustive_plan(self, fn, ty):
        """[(first, count)] chunks of every bit pattern, or None for sampled inputs."""
        if fn["args"] != "f":
            return None
        if ty == "half" and not self.o.no_exhaustive_half:
            return [(0, 65536)]
        if ty == "float" and self.o.long:
            a, b = (int(x) for x in self.o.long_chunks.split(":"))
            return [(c * CHUNK, CHUNK) for c in range(a, min(b, (1 << 32) // CHUNK))]
        return None

    def measure(self, fn, ty):
        """One row of the table."""
        name = fn["name"]
        row = {"name": name, "type": ty, "bound": fn["bound"].get(ty)}
        wd = os.path.join(self.o.work_dir, f"{name}.{ty}")
        os.makedirs(wd, exist_ok=True)
        t0 = time.time()
        if self.o.prebuilt:
            shaders = {}
            for mode in self.modes():
                p = os.path.join(self.o.prebuilt, f"{name}.{ty}.{mode}.spv")
                err_p = p + ".err"
                if os.path.exists(p):
                    shaders[mode] = (p, None)
                elif os.path.exists(err_p):
                    shaders[mode] = (None, open(err_p).read().strip())
                else:
                    shaders[mode] = (None, "no prebuilt module")
        else:
            spv, err = self.spirv(fn, ty, wd)
            if err:
                row["precise"] = row["native"] = {"status": "compile failed", "error": err}
                return self.finish(row, t0)
            shaders = {m: self.translate(spv, m, wd) for m in self.modes() if m != "pocl"}
            if "pocl" in self.modes():
                shaders["pocl"] = (os.path.join(wd, "kernel.cl"), None)
            if self.o.save_modules:
                os.makedirs(self.o.save_modules, exist_ok=True)
                for m, (p, err) in shaders.items():
                    base = os.path.join(self.o.save_modules, f"{name}.{ty}.{m}.spv")
                    if p:
                        shutil.copy(p, base)
                    else:
                        with open(base + ".err", "w") as f:
                            f.write(err + "\n")
        if self.o.translate_only:
            for mode in self.modes():
                shader, err = shaders[mode]
                row[mode] = {"status": "translated"} if shader else \
                    {"status": "not translated", "error": err}
            return self.finish(row, t0)
        plan = self.exhaustive_plan(fn, ty)
        for mode in self.modes():
            shader, err = shaders[mode]
            if not shader:
                row[mode] = {"status": "not translated", "error": err}
                continue
            if mode == "native" and row.get("precise", {}).get("status") == "ok" and \
                    same_file(shader, shaders["precise"][0]):
                row[mode] = dict(row["precise"], same_module=True)
                continue  # --math=native changed nothing: the same results
            if plan is None:
                n, nspecial = self.gen(fn, ty, wd, count=self.o.count)
                row[mode] = self.run_and_check(fn, ty, shader, wd, mode, n, nspecial,
                                               self.o.check_threads)
            else:
                row[mode] = self.run_chunks(fn, ty, shader, wd, mode, plan)
        return self.finish(row, t0)

    def run_chunks(self, fn, ty, shader, wd, mode, plan):
        total = None
        for first, count in plan:
            self.gen(fn, ty, wd, exhaustive_first=first, count=count)
            r = self.run_and_check(fn, ty, shader, wd, mode, count, 0, self.o.check_threads)
            if r["status"] != "ok":
                return r
            if total is None:
                total = r
                continue
            total["n"] += r["n"]
            total["over"] += r["over"]
            total["rule_fail"] += r["rule_fail"]
            if err_key(r["max_err"]) > err_key(total["max_err"]):
                total["max_err"], total["worst"] = r["max_err"], r["worst"]
        total["exhaustive"] = True
        return total

    def modes(self):
        m = ["precise"] if self.o.no_native else ["precise", "native"]
        return m + (["pocl"] if self.o.pocl else [])

    def finish(self, row, t0):
        p = row.get("precise", {})
        bound = row["bound"]
        if p.get("status") == "device lacks":
            row["result"] = "device lacks"
        elif p.get("status") == "translated":
            row["result"] = "translated"
        elif p.get("status") == "not translated":
            row["result"] = "not translated"
        elif p.get("status") != "ok":
            row["result"] = "FAIL"
        elif bound is None:
            row["result"] = "no bound"
        elif p["over"] or p["rule_fail"]:
            row["result"] = "FAIL"
        else:
            row["result"] = "pass"
        row["seconds"] = round(time.time() - t0, 2)
        return row


def same_file(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def err_key(e):
    return float("inf") if e == "inf" else float(e)


def fmt_err(r):
    if not r or r.get("status") != "ok":
        return {"not translated": "not translated", None: "-"}.get(
            r.get("status") if r else None, r.get("status", "-") if r else "-")
    e = r["max_err"]
    # over the bound: enough digits to show it (a correctly rounded bound fails at 0.500001)
    digits = 6 if r.get("over") else 3
    s = "inf" if e == "inf" else (f"{e:.{digits}g}" if e < 1e4 else f"{e:.3e}")
    if r.get("rule_fail"):
        s += f" ({r['rule_fail']} edge)"
    return s


def fmt_bound(b):
    if b is None:
        return "none"
    if isinstance(b, str):
        return b
    return "CR (0.5)" if b == 0.5 else f"{b:g}"


def worst_text(r):
    if not r or r.get("status") != "ok":
        return (r or {}).get("error", "")[:160]
    w = r["worst"]
    s = f"({', '.join(w['in'])}) -> {w['got']}, want {w['want']}"
    if w["why"]:
        s += f": {w['why']}"
    return s


def table(rows, native, pocl=False):
    head = "| function | type | bound (ulp) | precise max ulp | "
    head += "native max ulp | " if native else ""
    head += "PoCL max ulp | " if pocl else ""
    head += "worst input (precise) | result |"
    sep = "|" + "---|" * (head.count("|") - 1)
    lines = [head, sep]
    for r in rows:
        cells = [r["name"], r["type"], fmt_bound(r["bound"]), fmt_err(r.get("precise"))]
        if native:
            cells.append(fmt_err(r.get("native")))
        if pocl:
            cells.append(fmt_err(r.get("pocl")))
        cells += [worst_text(r.get("precise")).replace("|", "\\|"), r["result"]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_options(argv):
    here = REPO
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k2s", default=os.path.join(here, "build/passes/k2s"))
    ap.add_argument("--k2s-run", default=os.path.join(here, "build/src/run/k2s-run"))
    ap.add_argument("--k2s-ulp", default=os.path.join(here, "build/tests/precision/k2s-ulp"))
    ap.add_argument("--k2s-flags", default="", help="extra k2s options (e.g. --target-env)")
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--device", default="", help="k2s-run --device")
    ap.add_argument("--pocl", action="store_true",
                    help="add a column: the OpenCL C kernel on k2s-clref (PoCL here)")
    ap.add_argument("--clref", default=os.path.join(REPO, "build/tests/clref/k2s-clref"))
    ap.add_argument("--work-dir", default="/tmp/k2s-precision")
    ap.add_argument("--count", type=int, default=1000000,
                    help="random inputs per function and type (default 1M)")
    ap.add_argument("--quick", action="store_true",
                    help="CI: 20000 random inputs, float and double, half sampled too")
    ap.add_argument("--long", action="store_true",
                    help="every float bit pattern for one-argument float functions")
    ap.add_argument("--long-chunks", default="0:2048",
                    help="--long: chunks A:B of 2^21 bit patterns (default all 2048)")
    ap.add_argument("--no-exhaustive-half", action="store_true")
    ap.add_argument("--types", default="float,half,double")
    ap.add_argument("--funcs", default="*", help="comma-separated names or globs")
    ap.add_argument("--no-native", action="store_true", help="skip the --math=native column")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2, help="functions measured at once")
    ap.add_argument("--check-threads", type=int, default=1, help="k2s-ulp threads per check")
    ap.add_argument("--json", help="write the rows as JSON")
    ap.add_argument("--table", help="write the markdown table")
    ap.add_argument("--save-modules", help="keep the translated modules here (device runs)")
    ap.add_argument("--prebuilt", help="use translated modules from --save-modules")
    ap.add_argument("--translate-only", action="store_true",
                    help="with --save-modules: translate, do not run")
    ap.add_argument("--merge", help="JSON of an earlier run: its rows not measured now are "
                    "kept in --json/--table (re-measure a few functions)")
    ap.add_argument("--from-jsonl", help="only render --table/--json from these rows")
    ap.add_argument("--jsonl", help="append each row as it completes (survives a timeout)")
    o = ap.parse_args(argv)
    if o.quick:
        o.count = 20000
        o.no_exhaustive_half = True
    return o


def render(o, rows, seconds):
    text = table(rows, not o.no_native, o.pocl)
    if o.table:
        with open(o.table, "w") as f:
            f.write(text + "\n")
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"count": o.count, "long": o.long, "seconds": seconds, "rows": rows}, f,
                      indent=1)


def main(argv=None):
    o = parse_options(argv)
    if o.from_jsonl:  # a run cut short: its finished rows as table and JSON
        with open(o.from_jsonl) as f:
            rows = [json.loads(l) for l in f if l.strip()]
        names = subprocess.run([o.k2s_ulp, "list"], capture_output=True, text=True).stdout
        order = {json.loads(l)["name"]: i for i, l in enumerate(names.splitlines()) if l}
        rows.sort(key=lambda r: (order.get(r["name"], 1 << 30), r["name"], TYPES.index(r["type"])))
        render(o, rows, None)
        print(f"{len(rows)} rows from {o.from_jsonl}")
        return 0
    os.makedirs(o.work_dir, exist_ok=True)
    tool = Tool(o)
    types = [t for t in o.types.split(",") if t]
    pats = [p for p in o.funcs.split(",") if p]
    work = [(f, t) for f in tool.funcs for t in types
            if t in f["types"] and any(fnmatch.fnmatch(f["name"], p) for p in pats)]
    if o.quick:  # nothing to gate on: native_* have no bound
        work = [(f, t) for f, t in work if not f["name"].startswith("native_")]
    t0 = time.time()
    rows = [None] * len(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as ex:
        futs = {ex.submit(tool.measure, f, t): i for i, (f, t) in enumerate(work)}
        for fut in concurrent.futures.as_completed(futs):
            i = futs[fut]
            try:
                rows[i] = fut.result()
            except Exception as e:  # a tool broke: report the row as failed
                f, t = work[i]
                rows[i] = {"name": f["name"], "type": t, "bound": f["bound"].get(t),
                           "precise": {"status": "error", "error": str(e)}, "result": "FAIL"}
            r = rows[i]
            if o.jsonl:
                with open(o.jsonl, "a") as f:
                    f.write(json.dumps(r) + "\n")
            print(f"{r['result']:15s} {r['name']} {r['type']}: precise {fmt_err(r.get('precise'))}"
                  + ("" if o.no_native else f", native {fmt_err(r.get('native'))}")
                  + (f", pocl {fmt_err(r.get('pocl'))}" if o.pocl else "")
                  + (f"  [{worst_text(r.get('precise'))}]" if r["result"] != "pass" else ""),
                  flush=True)
    if o.merge:  # keep the earlier rows that were not measured again
        with open(o.merge) as f:
            old = json.load(f)["rows"]
        fresh = {(r["name"], r["type"]): r for r in rows}
        rows = [fresh.pop((r["name"], r["type"]), r) for r in old] + list(fresh.values())
    render(o, rows, round(time.time() - t0, 1))
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    print(f"{len(rows)} rows in {time.time() - t0:.1f} s: {summary}")
    return 1 if counts.get("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
