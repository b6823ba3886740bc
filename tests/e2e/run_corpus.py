#!/usr/bin/env python3
"""End-to-end corpus driver: OpenCL C -> SPIR-V (clang + llvm-spirv) -> k2s -> spirv-val ->
k2s-run (Vulkan, lavapipe), compared against k2s-clref (OpenCL, PoCL) on the same inputs.

Spec format: corpus/FORMAT.md. One result line per case ("PASS name env",
"FAIL name env: reason", "SKIP name env: reason"), then "N passed, N failed[, N skipped]".
Exit status 1 when any case failed (or a spec is malformed), else 0.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import threading

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENVS = ["vulkan1.1", "vulkan1.2", "vulkan1.3"]
CL_STDS = {"CL1.2", "CL2.0", "CL3.0"}
TRIPLES = {"spir64", "spir"}
SINGLE_KEYS = {"kernel", "global", "local", "offset", "compare", "ulp", "cl-std", "clang",
               "k2s", "triple", "cl-build", "envs", "k2s-run", "denorms", "reference",
               "ref-global", "llvm-spirv", "printf"}
EXIT_NO_REFERENCE = 3  # k2s-clref: this OpenCL implementation cannot run the case
TOOL_TIMEOUT = 300
FLOAT_FORMATS = {"half": "<e", "float": "<f", "double": "<d"}
SCALARS = ["uchar", "char", "ushort", "short", "uint", "int", "ulong", "long", "half",
           "float", "double"]


class SpecError(Exception):
    pass


# ---- spec parsing ----------------------------------------------------------------------------

def strip_comment(line):
    """'#' starts a comment at the start of a line or after whitespace."""
    for i, ch in enumerate(line):
        if ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def parse_spec(path):
    """Returns a list of runs (dicts); each '---' section is a complete, independent run."""
    runs, cur = [], {"args": [], "line": 1}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        if line == "---":
            runs.append(cur)
            cur = {"args": [], "line": lineno + 1}
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise SpecError(f"{path}:{lineno}: expected 'key: value' or '---'")
        if key == "arg":
            cur["args"].append(value)
        elif key == "fix-reference":
            cur.setdefault("fix-reference", []).append(value)
        elif key in SINGLE_KEYS:
            if key in cur:
                raise SpecError(f"{path}:{lineno}: '{key}' given twice in one run")
            cur[key] = value
        else:
            raise SpecError(f"{path}:{lineno}: unknown key '{key}'")
    runs.append(cur)
    # A trailing '---' or a comment-only section is not a run.
    runs = [r for r in runs if len(r) > 2 or r["args"]]
    if not runs:
        raise SpecError(f"{path}: no runs")
    for r in runs:
        check_run(path, r)
    return runs


IMAGE_SCALARS = {"unorm8": "float", "snorm8": "float", "unorm16": "float", "snorm16": "float",
                 "uint8": "uchar", "int8": "char", "uint16": "ushort", "int16": "short",
                 "uint32": "uint", "int32": "int", "half": "half", "float": "float"}


def buffer_scalar(spec):
    """'buffer:float4:64=...' -> 'float'; None for pod/local specs."""
    parts = spec.split(":")
    if parts[0].startswith("image") and len(parts) >= 4:
        # Channel values print as their type; normalized formats print as float.
        return IMAGE_SCALARS.get(parts[2])
    if parts[0] != "buffer" or len(parts) < 3:
        return None
    name = parts[1]
    for s in sorted(SCALARS, key=len, reverse=True):
        if name.startswith(s):
            return s
    return None


def check_run(path, r):
    where = f"{path}:{r['line']}"
    for key in ("kernel", "global"):
        if key not in r:
            raise SpecError(f"{where}: run has no '{key}:'")
    r.setdefault("cl-std", "CL1.2")
    r.setdefault("triple", "spir64")
    if r["cl-std"] not in CL_STDS:
        raise SpecError(f"{where}: cl-std must be one of {', '.join(sorted(CL_STDS))}")
    if r["triple"] not in TRIPLES:
        raise SpecError(f"{where}: triple must be spir64 or spir")
    try:
        r["ulp"] = int(r.get("ulp", "0"))
        if r["ulp"] < 0:
            raise ValueError
    except ValueError:
        raise SpecError(f"{where}: ulp must be a non-negative integer") from None
    if r.get("denorms", "flush-ok") not in ("flush-ok", "exact"):
        raise SpecError(f"{where}: denorms must be flush-ok or exact")
    if r.get("printf", "lines") not in ("lines", "addresses"):
        raise SpecError(f"{where}: printf must be 'lines' or 'addresses'")
    buffers = [i for i, a in enumerate(r["args"])
               if a.startswith("buffer:") or a.startswith("image")]
    if "compare" in r:
        try:
            r["compare"] = [int(x) for x in r["compare"].replace(",", " ").split()]
        except ValueError:
            raise SpecError(f"{where}: compare: expects argument ordinals") from None
        for n in r["compare"]:
            if n not in buffers:
                raise SpecError(f"{where}: compare: argument {n} is not a buffer argument")
    else:
        r["compare"] = buffers
    fixes = []
    for f in r.get("fix-reference", []):
        # ARG:START/STEP=VALUE: the reference's values START, START+STEP, ... of argument
        # ARG are replaced by VALUE (where the reference is known to be wrong).
        try:
            arg, rest = f.split(":", 1)
            where_, value = rest.split("=", 1)
            start, step = (where_.split("/") + ["0"])[:2]
            fixes.append((int(arg), int(start), int(step), value.strip()))
        except ValueError:
            raise SpecError(f"{where}: fix-reference: expects ARG:START/STEP=VALUE") from None
    r["fix-reference"] = fixes
    if "envs" in r:
        r["envs"] = r["envs"].replace(",", " ").split()
    if "reference" in r:  # another source for the OpenCL reference, next to the spec
        ref = os.path.join(os.path.dirname(os.path.abspath(path)), r["reference"])
        if not r["reference"].endswith(".cl") or not os.path.isfile(ref):
            raise SpecError(f"{where}: reference: {r['reference']} is not a .cl file of the corpus")
        r["reference"] = ref
    if "ref-global" in r and "reference" not in r:
        raise SpecError(f"{where}: ref-global: needs a reference: source")


# ---- tools -----------------------------------------------------------------------------------

def find_tool(explicit, env_var, rel_paths, names):
    if explicit:
        return os.path.abspath(explicit) if os.path.exists(explicit) else explicit
    if os.environ.get(env_var):
        return os.environ[env_var]
    for build in ("build", "builddir", "_build"):
        for rel in rel_paths:
            p = os.path.join(REPO, build, rel)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return p
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return names[0]


def run_tool(argv, timeout=TOOL_TIMEOUT):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except FileNotFoundError:
        return 127, "", f"{argv[0]}: not found"
    except subprocess.TimeoutExpired:
        return 124, "", f"{os.path.basename(argv[0])} timed out after {timeout} s"


def last_error(stderr, rc):
    """The most useful line of a tool's stderr for a one-line FAIL reason."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    errs = [l for l in lines if "error" in l.lower()]
    line = (errs or lines or [f"exit status {rc}"])[0]
    return line if len(line) <= 300 else line[:297] + "..."


def tool_failure(tool, stderr, rc):
    """'TOOL: message' without doubling a prefix the tool printed itself."""
    line = last_error(stderr, rc)
    return line if line.startswith(tool + ":") else f"{tool}: {line}"


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


# ---- comparison ------------------------------------------------------------------------------

def parse_output(text):
    out = {}
    for line in text.splitlines():
        head, sep, values = line.partition(":")
        if sep and head.startswith("arg ") and head[4:].isdigit():
            out[int(head[4:])] = values.split()
    return out


def printf_lines(text):
    """The lines a kernel's printf wrote: stdout without the 'arg N:' lines."""
    return [line for line in text.splitlines()
            if not (line.partition(":")[0].startswith("arg ") and line.partition(":")[1]
                    and line.partition(":")[0][4:].isdigit())]


# An address printed by %p: 0x and at least 8 hex digits (a NULL pointer prints as the
# implementation likes, "(nil)" or "0x": corpus kernels do not print one).
ADDRESS = re.compile(r"0x[0-9a-fA-F]{7,}([0-9a-fA-F])")


def mask_addresses(lines):
    """Each address kept only as its last hex digit: implementations place buffers
    elsewhere, but every one places them on (at least) 16-byte boundaries, so the last
    digit is the offset into the buffer modulo 16 on every device."""
    return [ADDRESS.sub(r"0x...\1", line) for line in lines]


def compare_printf(got_text, want_text, addresses=False):
    """None when both printed the same printf lines, in any order (OpenCL leaves the order
    between work-items unspecified); else the first difference. With addresses, %p's
    addresses compare by their offset modulo 16 (mask_addresses)."""
    got, want = printf_lines(got_text), printf_lines(want_text)
    if addresses:
        got, want = mask_addresses(got), mask_addresses(want)
    got, want = sorted(got), sorted(want)
    if got == want:
        return None
    missing = [line for line in want if line not in got]
    extra = [line for line in got if line not in want]
    what = (f"printf line {missing[0]!r} missing" if missing
            else f"printf line {extra[0]!r} not printed by the reference" if extra
            else "printf lines printed a different number of times")
    return f"{what}; k2s-run printed {len(got)} printf lines, the reference {len(want)}"


def ordered_bits(value, fmt):
    """Maps a float to an integer whose order matches the float order (+0 == -0)."""
    size = struct.calcsize(fmt)
    bits = int.from_bytes(struct.pack(fmt, value), "little")
    sign = 1 << (8 * size - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def float_distance(a, b, fmt):
    """ULP distance, or None when exactly one side is NaN; NaN equals NaN."""
    fa, fb = float(a), float(b)
    if fa != fa or fb != fb:
        return 0 if (fa != fa and fb != fb) else None
    try:
        return abs(ordered_bits(fa, fmt) - ordered_bits(fb, fmt))
    except (OverflowError, struct.error):
        return None


# The smallest normal magnitude of each format: OpenCL's full profile lets a device flush
# half and float denormals (inputs and results) to zero; double must keep them.
SMALLEST_NORMAL = {"half": 2.0 ** -14, "float": 2.0 ** -126}


def flushed(g, w, scalar):
    """got is a zero where the reference has a denormal (or the other way round)."""
    tiny = SMALLEST_NORMAL.get(scalar)
    fg, fw = float(g), float(w)
    return bool(tiny) and ((fg == 0 and 0 < abs(fw) < tiny) or (fw == 0 and 0 < abs(fg) < tiny))


def compare_values(got, want, scalar, ulp, denorms="flush-ok"):
    """Returns a list of (index, got, want, detail) mismatches."""
    bad = []
    fmt = FLOAT_FORMATS.get(scalar)
    for i, (g, w) in enumerate(zip(got, want)):
        try:
            if fmt:
                d = float_distance(g, w, fmt)
                if d is not None and d > ulp and denorms == "flush-ok" and flushed(g, w, scalar):
                    continue
                if d is None or d > ulp:
                    bad.append((i, g, w, "NaN mismatch" if d is None else f"{d} ulp"))
            elif int(g) != int(w):
                bad.append((i, g, w, ""))
        except ValueError:
            bad.append((i, g, w, "unparsable"))
    return bad


def flush_ok_floats(run):
    """Does the run compare half/float results under the default `denorms: flush-ok`?
    Then a device that flushes subnormal *inputs* too (the H100 does) is judged against
    a second reference built with -cl-denorms-are-zero as well."""
    return run.get("denorms", "flush-ok") == "flush-ok" and any(
        buffer_scalar(run["args"][n]) in SMALLEST_NORMAL for n in run["compare"]
        if n < len(run["args"]))


def compare_outputs(run, got_text, want_text, daz_text=None):
    """None when the outputs agree; else the first difference. A value also agrees when it
    equals daz_text's (the reference with subnormals flushed: -cl-denorms-are-zero)."""
    if run.get("printf") in ("lines", "addresses"):
        why = compare_printf(got_text, want_text, run.get("printf") == "addresses")
        if why:
            return why
    got, want = parse_output(got_text), parse_output(want_text)
    daz = parse_output(daz_text) if daz_text else {}
    for arg, start, step, value in run.get("fix-reference", []):
        for side in (want, daz):
            vals = side.get(arg, [])
            for i in range(start, len(vals), step if step > 0 else len(vals) + 1):
                vals[i] = value
    for n in run["compare"]:
        if n not in want:
            return f"reference printed no 'arg {n}:' line"
        if n not in got:
            return f"k2s-run printed no 'arg {n}:' line"
        if len(got[n]) != len(want[n]):
            return f"arg {n}: {len(got[n])} values, reference has {len(want[n])}"
        scalar = buffer_scalar(run["args"][n])
        bad = compare_values(got[n], want[n], scalar, run["ulp"], run.get("denorms", "flush-ok"))
        if bad and len(daz.get(n, [])) == len(got[n]):
            bad = [b for b in bad if compare_values([got[n][b[0]]], [daz[n][b[0]]], scalar,
                                                    run["ulp"], "flush-ok")]
        if bad:
            i, g, w, detail = bad[0]
            extra = f" ({detail})" if detail else ""
            return (f"arg {n}[{i}]: got {g}, expected {w}{extra}; "
                    f"{len(bad)} of {len(want[n])} values differ")
    return None


# ---- one run ---------------------------------------------------------------------------------

class Driver:
    def __init__(self, opts):
        self.o = opts
        self.print_lock = threading.Lock()
        self.key_locks = {}
        self.key_locks_lock = threading.Lock()
        self.counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "PLAN": 0, "XFAIL": 0}
        self.xfail = load_xfail(opts.xfail) if opts.xfail else {}
        self.plan = []  # --emit-plan: translated cases to run elsewhere
        for sub in ("spv", "ref", "out"):
            os.makedirs(os.path.join(opts.build_dir, sub), exist_ok=True)

    def report(self, status, name, env, reason=None, detail=None):
        base = name.split("#")[0]
        known = (self.xfail.get((name, env)) or self.xfail.get((name, None)) or
                 self.xfail.get((base, env)) or self.xfail.get((base, None)))
        if known and status == "FAIL":
            status, reason = "XFAIL", f"{reason} [known: {known}]"
        elif known and status == "PASS":
            status, reason = "FAIL", f"passes now: remove it from {self.o.xfail}"
        with self.print_lock:
            self.counts[status] += 1
            line = f"{status} {name}" + (f" {env}" if env else "")
            print(line + (f": {reason}" if reason else ""), flush=True)
            if detail and self.o.verbose:
                print("    " + detail.rstrip().replace("\n", "\n    "), flush=True)

    def lock_for(self, key):
        with self.key_locks_lock:
            return self.key_locks.setdefault(key, threading.Lock())

    def resolve_args(self, run):
        """file: paths in specs are relative to the corpus directory."""
        out = []
        for a in run["args"]:
            head, sep, path = a.partition("=file:")
            if sep and not os.path.isabs(path):
                a = f"{head}=file:{os.path.join(self.o.corpus, path)}"
            out.append(a)
        return out

    def ndrange_flags(self, run, ref=False):
        """ref: for the reference, which may run another global size (ref-global:)."""
        flags = ["--kernel", run["kernel"], "--global",
                 run.get("ref-global", run["global"]) if ref else run["global"]]
        for key in ("local", "offset"):
            if key in run:
                flags += [f"--{key}", run[key]]
        for a in self.resolve_args(run):
            flags += ["--arg", a]
        return flags

    def compile_cl(self, cl_path, run):
        """OpenCL C -> SPIR-V, cached by source, options and compiler flags."""
        src = open(cl_path, "rb").read()
        key = digest(src, run["triple"], run["cl-std"], run.get("clang", ""),
                     self.o.clang, self.o.llvm_spirv, self.o.llvm_spirv_flags, self.o.clang_flags,
                     *([run["llvm-spirv"]] if "llvm-spirv" in run else []))
        base = os.path.basename(cl_path)[:-3]
        spv = os.path.join(self.o.build_dir, "spv", f"{base}-{key}.spv")
        with self.lock_for(spv):
            if os.path.exists(spv):
                return spv, None
            bc = spv[:-4] + ".bc"
            cmd = [self.o.clang, "-cc1", "-triple", run["triple"], f"-cl-std={run['cl-std']}",
                   "-O2", "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
                   *shlex.split(run.get("clang", "")), *shlex.split(self.o.clang_flags),
                   "-o", bc, cl_path]
            rc, _, err = run_tool(cmd)
            if rc != 0:
                return None, tool_failure("clang", err, rc)
            tmp = spv + ".tmp"
            cmd = [self.o.llvm_spirv, *shlex.split(self.o.llvm_spirv_flags),
                   *shlex.split(run.get("llvm-spirv", "")), bc, "-o", tmp]
            rc, _, err = run_tool(cmd)
            if rc != 0:
                return None, tool_failure("llvm-spirv", err, rc)
            os.replace(tmp, spv)
            return spv, None

    def reference(self, cl_path, run, daz=False):
        """Returns (status, text): ('ok', stdout), ('none', why) or ('error', why).
        daz: built with -cl-denorms-are-zero (see flush_ok_floats)."""
        build_opts = run.get("cl-build")
        if build_opts is None:
            build_opts = f"-cl-std={run['cl-std']} {run.get('clang', '')}".strip()
        if daz:
            build_opts += " -cl-denorms-are-zero"
        argv_tail = self.ndrange_flags(run, ref=True) + ["--build-options", build_opts]
        inputs = [open(a.split("=file:", 1)[1], "rb").read()
                  for a in self.resolve_args(run) if "=file:" in a and
                  os.path.exists(a.split("=file:", 1)[1])]
        try:  # a rebuilt k2s-clref invalidates the cached references
            stamp = os.path.getmtime(self.o.clref)
        except OSError:
            stamp = 0
        key = digest(open(cl_path, "rb").read(), *argv_tail, *inputs, self.o.clref, stamp)
        out = os.path.join(self.o.build_dir, "ref", key)
        with self.lock_for(out):
            for suffix, status in ((".out", "ok"), (".none", "none")):
                if os.path.exists(out + suffix):
                    return status, open(out + suffix, encoding="utf-8").read(), out + suffix
            rc, stdout, err = run_tool([self.o.clref, cl_path] + argv_tail)
            if rc == 0:
                status, text, suffix = "ok", stdout, ".out"
            elif rc == EXIT_NO_REFERENCE:
                status, text, suffix = "none", last_error(err, rc), ".none"
            else:
                return "error", tool_failure("k2s-clref", err, rc)
            with open(out + suffix + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(out + suffix + ".tmp", out + suffix)
            return status, text, out + suffix

    def daz_reference(self, run):
        """The flushed-subnormal reference text, or None (not wanted, or no reference)."""
        if not flush_ok_floats(run):
            return None
        r = self.reference(run["ref_path"], run, daz=True)
        return r[1] if r[0] == "ok" else None

    def run_env(self, name, run, spv, env, ref):
        """Translate, validate, run and compare for one target environment."""
        tag = digest(name, env)
        out_spv = os.path.join(self.o.build_dir, "out", f"{name.replace('#', '.')}-{env}-{tag}.spv")
        cmd = [self.o.k2s, spv, "-o", out_spv, "--target-env", env,
               *shlex.split(run.get("k2s", "")), *shlex.split(self.o.k2s_flags)]
        rc, _, err = run_tool(cmd)
        if rc != 0:
            return "FAIL", tool_failure("k2s", err, rc), shlex.join(cmd) + "\n" + err
        cmd = [self.o.spirv_val, "--target-env", env, out_spv]
        if "--scalar-block-layout" in shlex.split(run.get("k2s", "")):
            cmd.insert(1, "--scalar-block-layout")  # the layout k2s was told the device has
        rc, out, err = run_tool(cmd)
        if rc != 0:
            return "FAIL", tool_failure("spirv-val", err + out, rc), shlex.join(cmd) + "\n" + err + out
        if self.o.emit_plan:
            self.add_to_plan(name, env, run, out_spv, ref)
            return "PLAN", None, None
        cmd = [self.o.k2s_run, out_spv] + self.ndrange_flags(run)
        cmd += ["--device", self.o.device] if self.o.device else []
        cmd += ["--validate"] if self.o.validate else []
        cmd += shlex.split(run.get("k2s-run", ""))
        rc, got, err = run_tool(cmd)
        if rc != 0:
            return "FAIL", tool_failure("k2s-run", err, rc), shlex.join(cmd) + "\n" + err
        if ref[0] == "none":
            return "SKIP", f"ran, but no reference: {ref[1]}", None
        why = compare_outputs(run, got, ref[1])
        if why and flush_ok_floats(run):
            why = compare_outputs(run, got, ref[1], self.daz_reference(run))
        if why:
            return "FAIL", why, shlex.join(cmd)
        return "PASS", None, None

    def add_to_plan(self, name, env, run, out_spv, ref):
        """One translated, validated case for --replay-plan on another machine (paths made
        relative to the repository and the build dir, which travel together)."""
        def portable(a):
            return a.replace(REPO + os.sep, "{repo}/")
        build_opts = run.get("cl-build")
        if build_opts is None:
            build_opts = f"-cl-std={run['cl-std']} {run.get('clang', '')}".strip()
        entry = {"name": name, "env": env, "run": run,
                 "spv": os.path.relpath(out_spv, self.o.build_dir),
                 "k2s_run_args": [portable(a) for a in self.ndrange_flags(run)] +
                                 shlex.split(run.get("k2s-run", "")),
                 "cl": portable(run["ref_path"]),
                 "clref_args": [portable(a) for a in self.ndrange_flags(run, ref=True)] +
                               ["--build-options", build_opts],
                 "ref": [ref[0], None if ref[0] == "ok" else ref[1]],
                 "ref_daz": self.daz_reference(run) if ref[0] == "ok" else None,
                 "ref_file": os.path.relpath(ref[2], self.o.build_dir) if len(ref) > 2 else None}
        with self.print_lock:
            self.plan.append(entry)

    def run_one(self, cl_path, name, run):
        run = dict(run, cl_path=cl_path, ref_path=run.get("reference", cl_path))
        envs = [e for e in self.o.envs if e in run.get("envs", self.o.envs)]
        spv, why = self.compile_cl(cl_path, run)
        if not spv:
            for env in envs:
                self.report("FAIL", name, env, why)
            return
        ref = self.reference(run["ref_path"], run)
        if ref[0] == "error":
            for env in envs:
                self.report("FAIL", name, env, ref[1])
            return
        for env in envs:
            status, reason, detail = self.run_env(name, run, spv, env, ref)
            self.report(status, name, env, reason, detail)


# ---- known failures ----

def load_xfail(path):
    """Lines 'NAME[#RUN] [ENV]  # why' (the why is required): cases known to fail, each
    pointing at the issue that fixes it. A listed case that passes is a failure, so the list
    cannot go stale."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            # '#' also separates NAME#RUN: the reason is after ' # '.
            line, sep, why = raw.partition(" # ")
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not sep or not why.strip():
                sys.exit(f"{path}:{lineno}: a known failure needs ' # reason'")
            parts = line.split()
            env = parts[1] if len(parts) > 1 else None
            if env and env not in ENVS:
                sys.exit(f"{path}:{lineno}: unknown target env '{env}'")
            out[(parts[0], env)] = why.strip()
    return out


# ---- selection and main ----------------------------------------------------------------------

def collect(opts):
    """[(cl_path, name, run)] for the selected specs; malformed specs are reported."""
    wanted = {}
    for sel in opts.names:
        base, _, idx = sel.partition("#")
        base = os.path.basename(base)
        base = base[:-5] if base.endswith(".spec") else base[:-3] if base.endswith(".cl") else base
        wanted.setdefault(base, set()).add(int(idx) if idx.isdigit() else None)
    specs = sorted(f[:-5] for f in os.listdir(opts.corpus) if f.endswith(".spec"))
    missing = set(wanted) - set(specs)
    if missing:
        sys.exit(f"run_corpus.py: no spec named {', '.join(sorted(missing))} in {opts.corpus}")
    jobs, errors = [], []
    for base in specs:
        if wanted and base not in wanted:
            continue
        cl_path = os.path.join(opts.corpus, base + ".cl")
        try:
            if not os.path.exists(cl_path):
                raise SpecError(f"{base}.spec has no {base}.cl")
            runs = parse_spec(os.path.join(opts.corpus, base + ".spec"))
        except (SpecError, OSError, UnicodeDecodeError) as e:
            errors.append(str(e))
            continue
        for i, run in enumerate(runs):
            sel = wanted.get(base)
            if sel and None not in sel and i not in sel:
                continue
            name = base if len(runs) == 1 else f"{base}#{i}"
            jobs.append((cl_path, name, run))
    return jobs, errors


def parse_options(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="spec names (NAME, NAME.spec or NAME#RUN)")
    ap.add_argument("--k2s", help="the translator (default: $K2S, build dirs, PATH)")
    ap.add_argument("--k2s-run", help="the Vulkan host (default: $K2S_RUN, ...)")
    ap.add_argument("--clref", help="the OpenCL reference host (default: $K2S_CLREF, ...)")
    ap.add_argument("--envs", default=",".join(ENVS), help="comma-separated target envs")
    ap.add_argument("--k2s-flags", default="",
                    help="k2s options added to every translation (after the spec's), e.g. "
                         "--denorm-preserve for a device with shaderDenormPreserveFloat32/64")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--corpus", default=os.path.join(REPO, "corpus"))
    ap.add_argument("--build-dir", default=os.path.join(os.getcwd(), "e2e-build"),
                    help="cache for compiled kernels, references and outputs")
    ap.add_argument("--device", help="k2s-run --device (index or name substring; default: "
                    "llvmpipe when present, else k2s-run's own choice)")
    ap.add_argument("--validate", action="store_true", help="k2s-run --validate")
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--llvm-spirv-flags", default="", help="extra llvm-spirv options")
    ap.add_argument("--clang-flags", default="",
                    help="extra clang -cc1 options after the spec's (e.g. -O0, -g)")
    ap.add_argument("--spirv-val", default="spirv-val")
    ap.add_argument("--verbose", "-v", action="store_true", help="commands and stderr on FAIL")
    ap.add_argument("--xfail", metavar="FILE",
                    help="known failures (NAME[#RUN] [ENV] # reason): reported as XFAIL; "
                    "one that passes is a failure")
    ap.add_argument("--emit-plan", metavar="FILE",
                    help="compile, translate and validate only; write the cases (JSON) for "
                    "--replay-plan on a machine without the compilers (e.g. a GPU box)")
    ap.add_argument("--replay-plan", metavar="FILE",
                    help="run the cases of an --emit-plan file (its build dir beside it) with "
                    "k2s-run and compare; cases without a PoCL reference use --clref there")
    opts = ap.parse_args(argv)
    opts.envs = [e for e in opts.envs.replace(",", " ").split()]
    for e in opts.envs:
        if e not in ENVS:
            ap.error(f"unknown target env '{e}' (known: {', '.join(ENVS)})")
    if opts.replay_plan:
        opts.k2s_run = find_tool(opts.k2s_run, "K2S_RUN", ["src/run/k2s-run"], ["k2s-run"])
        opts.clref = opts.clref and os.path.abspath(opts.clref)
        return opts
    opts.k2s = find_tool(opts.k2s, "K2S", ["src/cli/k2s", "src/k2s", "passes/k2s", "k2s"],
                         ["k2s"])
    opts.k2s_run = find_tool(opts.k2s_run, "K2S_RUN", ["src/run/k2s-run"], ["k2s-run"])
    opts.clref = find_tool(opts.clref, "K2S_CLREF", ["tests/clref/k2s-clref"], ["k2s-clref"])
    opts.corpus = os.path.abspath(opts.corpus)
    opts.build_dir = os.path.abspath(opts.build_dir)
    opts.jobs = max(1, opts.jobs)
    return opts


def default_device(k2s_run):
    """lavapipe when k2s-run can see it: reference runs should not depend on the GPU."""
    rc, out, _ = run_tool([k2s_run, "--list-devices"], timeout=60)
    return "llvmpipe" if rc == 0 and "llvmpipe" in out else None


def replay_plan(opts):
    """--replay-plan: run translated cases on this machine's Vulkan device."""
    plan_dir = os.path.dirname(os.path.abspath(opts.replay_plan))
    with open(opts.replay_plan, encoding="utf-8") as f:
        plan = json.load(f)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    def local(a):
        return a.replace("{repo}/", REPO + os.sep)
    for e in plan:
        if opts.names and e["name"].split("#")[0] not in opts.names and e["name"] not in opts.names:
            continue
        cmd = [opts.k2s_run, os.path.join(plan_dir, e["spv"])] + [local(a) for a in e["k2s_run_args"]]
        cmd += ["--device", opts.device] if opts.device else []
        rc, got, err = run_tool(cmd)
        status, why = "PASS", None
        ref = e["ref"]
        if ref[0] == "ok" and ref[1] is None:
            with open(os.path.join(plan_dir, e["ref_file"]), encoding="utf-8") as f:
                ref = ["ok", f.read()]
        if rc != 0:
            status, why = "FAIL", tool_failure("k2s-run", err, rc)
        elif ref[0] != "ok" and opts.clref:  # no PoCL reference: ask this machine's OpenCL
            rrc, rout, rerr = run_tool([opts.clref, local(e["cl"])] + [local(a) for a in e["clref_args"]])
            ref = ["ok", rout] if rrc == 0 else ["none", last_error(rerr, rrc)]
            if rrc == 0:
                e["name"] += " (local OpenCL reference)"
        if status == "PASS" and ref[0] != "ok":
            status, why = "SKIP", f"ran, but no reference: {ref[1]}"
        elif status == "PASS":
            why = compare_outputs(e["run"], got, ref[1])
            if why and e.get("ref_daz"):
                why = compare_outputs(e["run"], got, ref[1], e["ref_daz"])
            status = "FAIL" if why else "PASS"
        counts[status] += 1
        print(f"{status} {e['name']} {e['env']}" + (f": {why}" if why else ""), flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed" +
          (f", {counts['SKIP']} skipped" if counts["SKIP"] else ""))
    return 1 if counts["FAIL"] else 0


def main(argv=None):
    opts = parse_options(argv)
    if opts.replay_plan:
        return replay_plan(opts)
    if opts.device is None:
        opts.device = default_device(opts.k2s_run)
    jobs, errors = collect(opts)
    driver = Driver(opts)
    for e in errors:
        driver.report("FAIL", "spec", None, e)
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        futures = [pool.submit(driver.run_one, *job) for job in jobs]
        for f in futures:
            f.result()
    c = driver.counts
    if opts.emit_plan:
        with open(opts.emit_plan, "w", encoding="utf-8") as f:
            json.dump(driver.plan, f)
        print(f"{c['PLAN']} cases written to {opts.emit_plan}; {c['FAIL']} failed to translate")
        return 1 if c["FAIL"] else 0
    summary = f"{c['PASS']} passed, {c['FAIL']} failed"
    summary += f", {c['XFAIL']} known failures" if c["XFAIL"] else ""
    print(summary + (f", {c['SKIP']} skipped" if c["SKIP"] else ""))
    return 1 if c["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
