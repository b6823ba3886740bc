#!/usr/bin/env python3
"""Wide sweep: build third-party OpenCL C / SPIR-V assembly, translate with k2s, classify.

Three steps (docs/sweep.md has the whole story):

  sweep.py extract --out WORK SRC...   collect sources from mirrors or directories
  sweep.py run --work WORK [...]       build x configs x target envs, classify (resumable)
  sweep.py report --work WORK [...]    tables per suite and per class (markdown)
  sweep.py pch-check --work WORK [...] the precompiled header changes no module

SRC is a git directory as the `fetch` tool leaves it (/work/.mirror/OWNER+NAME/repo,
no work tree; the files are read with `git cat-file`) or a plain directory. The suite
is told by the path: OpenCL-CTS (spirv_new .spvasm32/64 and kernel sources embedded in
test_conformance's C/C++ string literals), SPIRV-LLVM-Translator (test/**.cl, .spvasm),
clspv (test/**.cl); any other directory contributes its *.cl, *.spvasm* files.
Nothing extracted belongs in the repository: WORK is a scratch directory.

Classes of one translation (a module x a target env):
  ok          k2s exited 0 and spirv-val accepts what it wrote
  refused     k2s exited non-zero with an error message (the reason is recorded)
  internal    k2s said "internal error"
  invalid     k2s exited 0 but spirv-val rejects the output, or it exited non-zero and
              still left an output file (a partial output)
  crash       k2s died on a signal or exited without an error message
  timeout     k2s ran longer than --timeout seconds
A module that clang/llvm-spirv/spirv-as cannot build is counted once as `frontend`.
"""
import argparse
import codecs
import concurrent.futures
import hashlib
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent.parent
ENVS = ("vulkan1.1", "vulkan1.2", "vulkan1.3")
# Config axes for OpenCL C sources; "asm" is the one config of assembly sources.
AXES = {
    "clang": ("15", "14"),
    "triple": ("spir64", "spir"),
    "opt": ("O2", "O0"),
    "g": ("0", "1"),
    "spv": ("def", "1.3"),
}


# ----------------------------------------------------------------------------- extract

def git_files(gitdir):
    out = subprocess.run(["git", "-C", gitdir, "ls-tree", "-r", "-z", "HEAD"],
                         capture_output=True, check=True).stdout.decode("utf-8", "replace")
    for entry in out.split("\0"):
        if not entry:
            continue
        meta, path = entry.split("\t", 1)
        mode, kind, obj = meta.split()
        if kind == "blob" and mode != "120000":
            yield path, obj


def read_blob(gitdir, obj):
    return subprocess.run(["git", "-C", gitdir, "cat-file", "blob", obj],
                          capture_output=True, check=True).stdout


def is_git_dir(p):
    return (pathlib.Path(p) / "HEAD").exists() and (pathlib.Path(p) / "objects").is_dir()


def source_files(src):
    """(path, bytes-thunk) of every file under SRC, and the commit if it is a git dir."""
    if is_git_dir(src):
        commit = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        return commit, [(p, (lambda o=o: read_blob(src, o))) for p, o in git_files(src)]
    base = pathlib.Path(src)
    files = [(str(f.relative_to(base)), (lambda f=f: f.read_bytes()))
             for f in sorted(base.rglob("*")) if f.is_file()]
    return "", files


def suite_of(src):
    s = str(src)
    for key, name in (("OpenCL-CTS", "cts"), ("SPIRV-LLVM-Translator", "slt"), ("clspv", "clspv")):
        if key in s:
            return name
    return pathlib.Path(src).resolve().name or "dir"


STR_RE = re.compile(
    r'R"(?P<delim>[^(\s]{0,16})\((?P<raw>.*?)\)(?P=delim)"'  # raw string
    r'|"(?P<s>(?:[^"\\\n]|\\.)*)"'                          # ordinary string
    r'|//[^\n]*|/\*.*?\*/'                                  # comments
    r"|'(?:[^'\\\n]|\\.)*'"                                 # char literal
    r'|(?P<other>[^\s,])', re.S)


def c_unescape(s):
    try:
        return codecs.decode(s.encode("latin-1", "backslashreplace"), "unicode_escape")
    except Exception:
        return None


def embedded_kernels(text):
    """Kernel sources held in C/C++ string literals: runs of literals separated only by
    white space, commas and comments (CTS writes kernels as arrays of lines or as
    concatenated literals), kept when they contain a kernel definition."""
    groups, cur = [], []
    for m in STR_RE.finditer(text):
        if m.group("raw") is not None:
            cur.append(m.group("raw"))
        elif m.group("s") is not None:
            u = c_unescape(m.group("s"))
            if u is None:
                cur = []
                continue
            cur.append(u)
        elif m.group("other") is not None:
            if cur:
                groups.append("".join(cur))
            cur = []
    if cur:
        groups.append("".join(cur))
    kre = re.compile(r"(__kernel|\bkernel)\s+(__attribute__\s*\(\(.*?\)\)\s*)?void\b", re.S)
    return [g for g in groups if kre.search(g) and "{" in g]


def extract(a):
    work = pathlib.Path(a.out)
    (work / "src").mkdir(parents=True, exist_ok=True)
    manifest = []
    for src in a.sources:
        suite = suite_of(src)
        commit, files = source_files(src)
        seen = set()
        n0 = len(manifest)
        for path, data in files:
            low = path.lower()
            items = []
            if suite == "cts":
                if "spirv_new/spirv_asm/" in path and (low.endswith(".spvasm32") or
                                                        low.endswith(".spvasm64")):
                    items.append(("asm", data()))
                elif path.startswith("test_conformance/") and low.endswith(
                        (".cpp", ".c", ".h", ".hpp", ".cl")):
                    raw = data()
                    if low.endswith(".cl"):
                        items.append(("cl", raw))
                    elif b"kernel" in raw:
                        for k in embedded_kernels(raw.decode("utf-8", "replace")):
                            items.append(("cl", k.encode()))
            elif suite in ("slt", "clspv"):
                if not path.startswith("test/"):
                    continue
                if low.endswith(".cl"):
                    items.append(("cl", data()))
                elif low.endswith(".spvasm") and suite == "slt":
                    items.append(("asm", data()))
            else:
                if low.endswith(".cl"):
                    items.append(("cl", data()))
                elif ".spvasm" in low:
                    items.append(("asm", data()))
            for i, (kind, body) in enumerate(items):
                h = hashlib.sha1(body).hexdigest()[:12]
                if h in seen:
                    continue
                seen.add(h)
                name = f"{suite}-{h}.{'cl' if kind == 'cl' else 'spvasm'}"
                (work / "src" / name).write_bytes(body)
                manifest.append({"id": f"{suite}-{h}", "suite": suite, "kind": kind,
                                 "file": name, "origin": path + (f"#{i}" if len(items) > 1 else ""),
                                 "commit": commit})
        print(f"{suite}: {len(manifest) - n0} sources from {src} ({commit[:10] or 'dir'})")
    with open(work / "manifest.jsonl", "w") as f:
        for m in manifest:
            f.write(json.dumps(m) + "\n")
    print(f"{len(manifest)} sources in {work}/manifest.jsonl")


# ----------------------------------------------------------------------------- run

def parse_configs(spec):
    """'clang=15,14 opt=O2' -> dict of axis -> values (unnamed axes keep all values)."""
    axes = {k: list(v) for k, v in AXES.items()}
    envs = list(ENVS)
    for part in (spec or "").split():
        k, _, v = part.partition("=")
        vals = [x for x in v.split(",") if x]
        if k == "env":
            bad = [x for x in vals if x not in ENVS]
            envs = vals
        elif k in axes:
            bad = [x for x in vals if x not in AXES[k]]
            axes[k] = vals
        else:
            sys.exit(f"sweep: unknown config axis '{k}' (axes: {', '.join(AXES)}, env)")
        if bad or not vals:
            sys.exit(f"sweep: bad values for '{k}': {v}")
    combos = [{}]
    for k, vals in axes.items():
        combos = [dict(c, **{k: x}) for c in combos for x in vals]
    return combos, envs


def config_name(c):
    return f"c{c['clang']}.{c['triple']}.{c['opt']}.g{c['g']}.v{c['spv']}"


def run_tool(cmd, timeout, cwd=None):
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout, cwd=cwd)
        return r.returncode, r.stderr.decode("utf-8", "replace") + r.stdout.decode(
            "utf-8", "replace")[-2000:] if r.returncode else r.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "timeout"


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:400]
    lines = [x for x in text.splitlines() if x.strip()]
    return lines[0].strip()[:400] if lines else ""


def clang_cmd(c, std):
    """The clang -cc1 command line of one config and -cl-std, without input/output."""
    ver = std[2] + std[4] + "0"
    cmd = [f"clang-{c['clang']}", "-cc1", "-triple", c["triple"], f"-cl-std={std}",
           f"-{c['opt']}", "-finclude-default-header", f"-D__OPENCL_VERSION__={ver}",
           "-Wno-everything", "-cl-ext=+all"]
    if c["clang"] == "15":
        cmd.append("-no-opaque-pointers")
    if c["g"] == "1":
        cmd += ["-debug-info-kind=limited", "-dwarf-version=4"]
    return cmd


class PchCache:
    """Precompiled opencl-c.h, one per (clang, triple, -O, -g, -cl-std), made once per
    WORK the first time a build needs it. Parsing the default header is most of clang's
    time on a test-suite kernel (≈ 0.8 s of 0.9 s); with the PCH the module is byte for
    byte the same (`sweep.py pch-check` verifies it; docs/sweep.md records the check).
    A PCH that cannot be made (or --no-pch) means building without one."""

    def __init__(self, work, enabled, timeout):
        self.dir = os.path.join(work, "pch")
        self.enabled = enabled
        self.timeout = timeout
        self.lock = threading.Lock()
        self.made = {}

    def get(self, c, std):
        if not self.enabled:
            return None
        key = f"c{c['clang']}.{c['triple']}.{c['opt']}.g{c['g']}.{std}"
        with self.lock:
            if key in self.made:
                return self.made[key]
            os.makedirs(self.dir, exist_ok=True)
            path = os.path.join(self.dir, key + ".pch")
            if not os.path.exists(path):
                tmp = path + f".{os.getpid()}.tmp"
                rc, _ = run_tool(clang_cmd(c, std) + ["-emit-pch", "-x", "cl", os.devnull,
                                                      "-o", tmp], self.timeout)
                if rc == 0:
                    os.replace(tmp, path)
                elif os.path.exists(tmp):
                    os.unlink(tmp)
            self.made[key] = path if os.path.exists(path) else None
            return self.made[key]


def build_cl(src, c, out, tmp, timeout, pch=None):
    """clang + llvm-spirv for one config. Returns an error string or None."""
    llvm_spirv = f"llvm-spirv-{c['clang']}"
    bc = os.path.join(tmp, "k.bc")
    err = ""
    for std in ("CL1.2", "CL2.0", "CL3.0"):
        cmd = clang_cmd(c, std) + ["-emit-llvm-bc"]
        header = pch.get(c, std) if pch else None
        if header:
            cmd += ["-include-pch", header]
        cmd += [src, "-o", bc]
        rc, e = run_tool(cmd, timeout)
        if rc == 0:
            break
        err = f"clang ({std}): {first_error(e)}"
    else:
        return err
    cmd = [llvm_spirv]
    if c["spv"] == "1.3":
        cmd.append("--spirv-max-version=1.3")
    cmd += [bc, "-o", out]
    rc, e = run_tool(cmd, timeout)
    if rc != 0:
        return f"llvm-spirv: {first_error(e) or 'timeout'}"
    return None


def build_asm(src, out, timeout, origin=""):
    text = pathlib.Path(src).read_text(errors="replace")
    m = re.search(r"spirv-as\b[^\n]*--target-env[ =](\S+)", text)
    envs = [m.group(1)] if m else []
    # OpenCL-CTS keeps the modules of each SPIR-V version in a directory named after
    # it (spirv_new/spirv_asm/spv1.4/...): assembled as 1.0 they are invalid.
    d = re.search(r"(?:^|/)(spv1\.\d)/", origin)
    if d:
        envs.append(d.group(1))
    envs += ["spv1.0", None]
    err = ""
    for env in envs:
        cmd = ["spirv-as", "--preserve-numeric-ids", src, "-o", out]
        if env:
            cmd += ["--target-env", env]
        rc, e = run_tool(cmd, timeout)
        if rc == 0:
            return None
        err = f"spirv-as: {first_error(e)}"
    return err


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Memo:
    """What is already known in this run (and, resumed, in the records of the same k2s
    build): the class of a module x env, by the module's hash (configurations that give
    identical modules, e.g. llvm-spirv's default and --spirv-max-version=1.3 when the
    module needs nothing of SPIR-V 1.4, are translated once and recorded for each), and
    spirv-val's verdict on an output, by its hash."""

    def __init__(self):
        self.lock = threading.Lock()
        self.modules = {}
        self.valid = {}

    def module(self, h, env):
        with self.lock:
            return self.modules.get((h, env))

    def remember(self, h, env, cls, msg):
        with self.lock:
            self.modules[(h, env)] = (cls, msg)


def classify(k2s, spv, env, out, timeout, memo=None):
    if os.path.exists(out):
        os.unlink(out)
    rc, e = run_tool([k2s, spv, f"--target-env={env}", "-o", out], timeout)
    wrote = os.path.exists(out)
    if rc is None:
        return "timeout", ""
    if rc < 0 or rc >= 128:
        return "crash", f"signal {-rc if rc < 0 else rc - 128}: {first_error(e)}"
    if rc != 0:
        msg = first_error(e)
        if wrote:
            return "invalid", f"partial output left on error: {msg}"
        if "internal error" in e:
            return "internal", msg
        if not msg:
            return "crash", f"exit {rc} without an error message"
        return "refused", msg
    if not wrote:
        return "crash", "exit 0 without an output file"
    key = (file_hash(out), env)
    if memo:
        with memo.lock:
            known = memo.valid.get(key)
        if known:
            return known
    rc, e = run_tool(["spirv-val", "--target-env", env, out], timeout)
    verdict = ("invalid", f"spirv-val: {first_error(e)}") if rc != 0 else ("ok", "")
    if memo and rc is not None:
        with memo.lock:
            memo.valid[key] = verdict
    return verdict


def run_job(a, src_entry, c, envs):
    src = os.path.join(a.work, "src", src_entry["file"])
    cname = "asm" if src_entry["kind"] == "asm" else config_name(c)
    recs = []
    with tempfile.TemporaryDirectory(dir=a.tmpdir) as tmp:
        spv = os.path.join(tmp, "in.spv")
        if src_entry["kind"] == "asm":
            err = build_asm(src, spv, a.timeout, src_entry.get("origin", ""))
        else:
            err = build_cl(src, c, spv, tmp, a.timeout, a.pch)
        base = {"id": src_entry["id"], "suite": src_entry["suite"], "config": cname,
                "k2s": a.commit}
        if err:
            return [dict(base, env="-", cls="frontend", msg=err)]
        if a.keep_modules:
            mdir = os.path.join(a.work, "modules")
            os.makedirs(mdir, exist_ok=True)
            shutil.copy(spv, os.path.join(mdir, f"{src_entry['id']}.{cname}.spv"))
        h = file_hash(spv)
        base["hash"] = h[:16]
        for env in envs:
            t0 = time.time()
            known = a.memo.module(h[:16], env)
            if known:
                recs.append(dict(base, env=env, cls=known[0], msg=known[1], dedup=True))
                continue
            cls, msg = classify(a.k2s, spv, env, os.path.join(tmp, f"out.{env}.spv"),
                                a.timeout, a.memo)
            if cls != "timeout":  # a timeout may be the loaded machine's: try again
                a.memo.remember(h[:16], env, cls, msg)
            recs.append(dict(base, env=env, cls=cls, msg=msg, secs=round(time.time() - t0, 2)))
            if cls in ("internal", "crash", "invalid", "timeout") and a.keep_failures:
                fdir = os.path.join(a.work, "failures")
                os.makedirs(fdir, exist_ok=True)
                shutil.copy(spv, os.path.join(fdir, f"{src_entry['id']}.{cname}.spv"))
    return recs


def load_manifest(work):
    with open(os.path.join(work, "manifest.jsonl")) as f:
        return [json.loads(x) for x in f if x.strip()]


def select_sources(manifest, a):
    srcs = [m for m in manifest if not a.suite or m["suite"] in a.suite.split(",")]
    if a.sample:
        # Deterministic per-suite sample: the same N every time for a given seed.
        rng = random.Random(a.seed)
        by = {}
        for m in srcs:
            by.setdefault(m["suite"], []).append(m)
        srcs = []
        for suite in sorted(by):
            lst = sorted(by[suite], key=lambda m: m["id"])
            rng.shuffle(lst)
            srcs += lst[:a.sample]
    return srcs


def run(a):
    a.k2s = os.path.abspath(a.k2s)
    if not os.access(a.k2s, os.X_OK):
        sys.exit(f"sweep: no k2s at {a.k2s} (build first, or pass --k2s)")
    # Snapshot the translator: a rebuild during a long sweep must not mix two versions.
    commit = "unknown"
    if shutil.which("git"):
        commit = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"],
                                capture_output=True, text=True).stdout.strip() or commit
    if a.label:
        commit = a.label
    bindir = os.path.join(a.work, "bin")
    os.makedirs(bindir, exist_ok=True)
    # The command and its validator helper (k2s-validator, beside it since
    # session 11; older builds have none), in a directory per commit.
    snapdir = os.path.join(bindir, commit)
    os.makedirs(snapdir, exist_ok=True)
    snap = os.path.join(snapdir, "k2s")
    shutil.copy2(a.k2s, snap)
    helper = os.path.join(os.path.dirname(os.path.abspath(a.k2s)), "k2s-validator")
    if os.path.exists(helper):
        shutil.copy2(helper, snapdir)
    a.k2s, a.commit = snap, commit
    combos, envs = parse_configs(a.configs)
    missing = {c["clang"] for c in combos if not shutil.which(f"llvm-spirv-{c['clang']}")
               or not shutil.which(f"clang-{c['clang']}")}
    if missing:
        print(f"sweep: clang/llvm-spirv {','.join(sorted(missing))} not installed; "
              "those configs are left out", file=sys.stderr)
        combos = [c for c in combos if c["clang"] not in missing]
    srcs = select_sources(load_manifest(a.work), a)
    results = os.path.join(a.work, a.results)
    done = set()
    a.memo = Memo()
    a.pch = PchCache(a.work, not a.no_pch, a.timeout)
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue  # a line cut short by an interrupted run
                done.add((r["id"], r["config"]))
                if r.get("hash") and r.get("k2s") == commit and r["cls"] != "timeout":
                    a.memo.remember(r["hash"], r["env"], r["cls"], r["msg"])
    jobs = []
    for s in srcs:
        if s["kind"] == "asm":
            if (s["id"], "asm") not in done:
                jobs.append((s, None))
        else:
            mine = combos
            if a.config_sample and a.config_sample < len(combos):
                # A deterministic choice per source: over many sources every axis is covered.
                mine = random.Random(s["id"]).sample(combos, a.config_sample)
            for c in mine:
                if (s["id"], config_name(c)) not in done:
                    jobs.append((s, c))
    print(f"sweep: {len(srcs)} sources, {len(jobs)} builds to run ({len(done)} done before), "
          f"envs {' '.join(envs)}, -j{a.jobs}", file=sys.stderr)
    lock = threading.Lock()
    counts = {}
    n = 0
    with open(results, "a") as f, concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(run_job, a, s, c, envs) for s, c in jobs]
        for fut in concurrent.futures.as_completed(futs):
            recs = fut.result()
            with lock:
                for r in recs:
                    f.write(json.dumps(r) + "\n")
                    counts[r["cls"]] = counts.get(r["cls"], 0) + 1
                f.flush()
                n += 1
                if a.progress and n % a.progress == 0:
                    print(f"  {n}/{len(jobs)} {counts}", file=sys.stderr)
    print(f"sweep: done {counts}", file=sys.stderr)
    bad = sum(counts.get(k, 0) for k in ("internal", "crash", "invalid", "timeout"))
    return 1 if (a.strict and bad) else 0


def pch_check(a):
    """Builds sources with and without the precompiled header and compares the SPIR-V
    byte for byte (and the front-end verdict): the PCH must change nothing but time."""
    combos, _ = parse_configs(a.configs)
    combos = [c for c in combos if shutil.which(f"llvm-spirv-{c['clang']}")]
    srcs = select_sources([m for m in load_manifest(a.work) if m["kind"] == "cl"], a)
    pch = PchCache(a.work, True, a.timeout)
    counts, differ = {}, []

    def one(s, c):
        src = os.path.join(a.work, "src", s["file"])
        with tempfile.TemporaryDirectory(dir=a.tmpdir) as tmp:
            outs = {}
            for mode in ("plain", "pch"):
                out = os.path.join(tmp, f"{mode}.spv")
                err = build_cl(src, c, out, tmp, a.timeout, pch if mode == "pch" else None)
                outs[mode] = ("err", err) if err else ("spv", pathlib.Path(out).read_bytes())
        if outs["plain"][0] == "err" and outs["pch"][0] == "err":
            # The same front-end verdict; the messages name the same error.
            return "both front-end failures"
        if outs["plain"] == outs["pch"]:
            return "identical SPIR-V" if outs["plain"][0] == "spv" else "both front-end failures"
        differ.append(f"{s['id']} {config_name(c)}")
        return "DIFFERENT"

    jobs = [(s, c) for s in srcs for c in random.Random(s["id"]).sample(
        combos, min(a.config_sample or 1, len(combos)))]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for verdict in ex.map(lambda j: one(*j), jobs):
            counts[verdict] = counts.get(verdict, 0) + 1
    print(f"pch-check: {len(jobs)} builds of {len(srcs)} sources: "
          + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    for d in differ:
        print("  different:", d)
    return 1 if differ else 0


# ----------------------------------------------------------------------------- report

NORMALISE = [
    (re.compile(r"%[\w.]+"), "%id"),
    (re.compile(r"\(word \d+\)"), "(word N)"),
    (re.compile(r"(?<!pass )'[^']*'"), "'…'"),
    (re.compile(r"\b\d+\b"), "N"),
]


def reason_key(msg):
    msg = re.sub(r"^k2s: error: ", "", msg)
    msg = re.sub(r"pass '([\w-]+)'", r"pass \1", msg)
    msg = msg.split(" (use --no-validate-input")[0]
    for rx, rep in NORMALISE:
        msg = rx.sub(rep, msg)
    return msg[:160]


def report(a):
    manifest = {m["id"]: m for m in load_manifest(a.work)}
    recs = []
    with open(os.path.join(a.work, a.results)) as f:
        for line in f:
            try:
                recs.append(json.loads(line))
            except ValueError:
                pass
    commit = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    classes = ["ok", "refused", "internal", "invalid", "crash", "timeout"]
    used = sorted({r.get("k2s", "?") for r in recs})
    out = [f"k2s {', '.join(used)} (checkout now at {commit}); {len(recs)} records from "
           f"{a.results}", ""]
    # Per suite x env.
    # "ok % supp.": of the modules not refused (a refusal names the feature k2s
    # does not support; the refusal table below lists them all), the share
    # translated to a valid module: the issue's ">= 97 % of modules whose
    # features k2s supports".
    out.append("| suite | env | modules | " + " | ".join(classes) + " | ok % | ok % supp. |")
    out.append("|---|---|---|" + "---|" * len(classes) + "---|---|")
    fe = {}
    for r in recs:
        if r["cls"] == "frontend":
            fe[r["suite"]] = fe.get(r["suite"], 0) + 1
    tab = {}
    for r in recs:
        if r["cls"] == "frontend":
            continue
        tab.setdefault((r["suite"], r["env"]), {}).setdefault(r["cls"], 0)
        tab[(r["suite"], r["env"])][r["cls"]] += 1
    for env in sorted({k[1] for k in tab}):
        tab[("all", env)] = {}
        for key in [k for k in tab if k[1] == env and k[0] != "all"]:
            for c, v in tab[key].items():
                tab[("all", env)][c] = tab[("all", env)].get(c, 0) + v
    for key in sorted(tab, key=lambda k: (k[0] == "all", k)):
        row = tab[key]
        tot = sum(row.values())
        supp = tot - row.get("refused", 0)
        out.append(f"| {key[0]} | {key[1]} | {tot} | " +
                   " | ".join(str(row.get(c, 0)) for c in classes) +
                   f" | {100.0 * row.get('ok', 0) / tot:.1f} | " +
                   (f"{100.0 * row.get('ok', 0) / supp:.1f} |" if supp else "- |"))
    out.append("")
    out.append("Front-end failures (clang/llvm-spirv/spirv-as could not build the module; "
               "not counted above): " + ", ".join(f"{k} {v}" for k, v in sorted(fe.items())))
    out.append("")
    # Per config (vulkan1.2).
    cfg = {}
    for r in recs:
        if r["cls"] == "frontend" or r["env"] not in ("vulkan1.2",):
            continue
        cfg.setdefault(r["config"], {}).setdefault(r["cls"], 0)
        cfg[r["config"]][r["cls"]] += 1
    if cfg:
        out.append("Per build configuration (vulkan1.2):")
        out.append("")
        out.append("| config | modules | " + " | ".join(classes) + " |")
        out.append("|---|---|" + "---|" * len(classes))
        for k in sorted(cfg):
            row = cfg[k]
            out.append(f"| {k} | {sum(row.values())} | " +
                       " | ".join(str(row.get(c, 0)) for c in classes) + " |")
        out.append("")
    # Per class: reasons, counts, one example.
    for cls in ("internal", "crash", "invalid", "timeout", "refused"):
        groups = {}
        for r in recs:
            if r["cls"] != cls:
                continue
            g = groups.setdefault(reason_key(r["msg"]), {"n": 0, "src": set(), "ex": r})
            g["n"] += 1
            g["src"].add(r["id"])
        if not groups:
            continue
        out.append(f"### {cls}: {sum(g['n'] for g in groups.values())} translations")
        out.append("")
        out.append("| translations | sources | reason (normalised) | example |")
        out.append("|---|---|---|---|")
        for k, g in sorted(groups.items(), key=lambda kv: -kv[1]["n"])[:a.top]:
            ex = g["ex"]
            origin = manifest.get(ex["id"], {}).get("origin", "?")
            cell = k.replace("|", "\\|")
            out.append(f"| {g['n']} | {len(g['src'])} | {cell} | {ex['id']} "
                       f"({origin}) {ex['config']} {ex['env']} |")
        out.append("")
    text = "\n".join(out) + "\n"
    if a.out:
        pathlib.Path(a.out).write_text(text)
    sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract", help="collect sources into WORK/src")
    e.add_argument("--out", required=True)
    e.add_argument("sources", nargs="+")
    r = sub.add_parser("run", help="build, translate and classify")
    r.add_argument("--work", required=True)
    r.add_argument("--k2s", default=str(HERE / "build" / "passes" / "k2s"))
    r.add_argument("-j", "--jobs", type=int, default=2)
    r.add_argument("--sample", type=int, default=0, help="N sources per suite (0: all)")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--suite", default="", help="only these suites (comma list)")
    r.add_argument("--configs", default="",
                   help="subset, e.g. 'clang=15 triple=spir64 opt=O2,O0 g=0 spv=def env=vulkan1.2'")
    r.add_argument("--label", default="",
                   help="name of the k2s build in the records (default: the checkout's "
                        "`git describe`, right only for the checkout's own build)")
    r.add_argument("--config-sample", type=int, default=0,
                   help="K configs per source, chosen at random from the selected ones (0: all)")
    r.add_argument("--timeout", type=int, default=60)
    r.add_argument("--results", default="results.jsonl")
    r.add_argument("--tmpdir", default=None)
    r.add_argument("--progress", type=int, default=200)
    r.add_argument("--keep-failures", action="store_true",
                   help="copy input modules of internal/crash/invalid/timeout to WORK/failures")
    r.add_argument("--keep-modules", action="store_true", help="copy every built module to WORK/modules")
    r.add_argument("--strict", action="store_true",
                   help="exit 1 if any internal error, crash, invalid output or timeout")
    r.add_argument("--no-pch", action="store_true",
                   help="parse opencl-c.h for every build instead of a precompiled header")
    c = sub.add_parser("pch-check", help="with and without the precompiled header: "
                       "the same SPIR-V?")
    c.add_argument("--work", required=True)
    c.add_argument("--sample", type=int, default=0, help="N sources per suite (0: all)")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--suite", default="")
    c.add_argument("--configs", default="")
    c.add_argument("--config-sample", type=int, default=1, help="K configs per source")
    c.add_argument("-j", "--jobs", type=int, default=2)
    c.add_argument("--timeout", type=int, default=60)
    c.add_argument("--tmpdir", default=None)
    p = sub.add_parser("report", help="tables per suite and per class")
    p.add_argument("--work", required=True)
    p.add_argument("--results", default="results.jsonl")
    p.add_argument("--out", default=None)
    p.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    return {"extract": extract, "run": run, "report": report,
            "pch-check": pch_check}[a.cmd](a) or 0


if __name__ == "__main__":
    sys.exit(main())
