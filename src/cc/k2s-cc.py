#!/usr/bin/env python3
"""k2s-cc: OpenCL C -> Vulkan compute SPIR-V in one step.

    k2s-cc kernel.cl -o kernel.spv [clang options] [k2s options]

Runs clang (OpenCL C -> LLVM bitcode), llvm-spirv (-> Kernel SPIR-V) and k2s
(-> Vulkan SPIR-V with embedded reflection). The tools are found on PATH
(clang-15, llvm-spirv-15, then the unversioned names) or named with --clang=,
--llvm-spirv=, --k2s= (or $K2S_CLANG, $K2S_LLVM_SPIRV, $K2S); clang's and
llvm-spirv's LLVM versions must agree. It works around two llvm-spirv 15
limits of clang's optimised output, each said with a note under -v:
  - switches that InstCombine narrows to an odd integer width (`switch i3`,
    "InvalidBitWidth"): the module is optimised again from -O0 with native
    integer widths declared in the data layout, so nothing is narrowed;
  - LLVM `freeze` ("Can't translate llvm instruction: freeze"): each freeze
    is replaced by its operand (no LLVM optimisation runs afterwards, so
    nothing can exploit the poison it stopped).
Argument names are kept (clang's value names and -cl-kernel-arg-info).
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# clang options that take their value in the next argument.
CLANG_VALUE = {"-D", "-I", "-U", "-include", "-isystem", "-iquote", "-x", "-Xclang"}
# k2s options that may take their value in the next argument (k2s --help).
K2S_VALUE = {"target-env", "passes", "print-after", "reflect", "descriptormap",
             "cluster-pod-kernel-args", "max-pushconstant-size", "pointers", "math"}
# OpenCL compiler options both clang and k2s understand.
BOTH = {"-cl-fast-relaxed-math", "-cl-denorms-are-zero"}

USAGE = """usage: k2s-cc [options] INPUT.cl -o OUTPUT.spv     ('-' for stdin/stdout)
Compiles OpenCL C to Vulkan compute SPIR-V: clang + llvm-spirv + k2s.

  -o FILE                 output (default: INPUT with .spv)
  -S                      write SPIR-V assembly text (spirv-dis) instead of binary
  -O0 -O1 -O2 -O3 -Os     clang optimisation (default -O2, as OpenCL compilers do);
                          -cl-opt-disable is -O0
  -D, -I, -U, -include, -cl-std=, -cl-*, -g, -W*, -w, -ffp-contract=...
                          passed to clang (-cl-fast-relaxed-math and
                          -cl-denorms-are-zero go to k2s too)
  -Xclang ARG, -Xllvm-spirv ARG
                          one more argument for clang -cc1 / llvm-spirv
  --spir32                the 32-bit spir triple (default spir64)
  --spirv-max-version=1.N passed to llvm-spirv
  --clang=PATH --llvm-spirv=PATH --k2s=PATH --opt=PATH
                          the tools (default: found on PATH, see below)
  --keep-temps=DIR        keep the intermediate .bc and .spv files in DIR
  -v                      print each command and the workarounds taken
  --help                  this text
  --version               the k2s library's version (k2s --version)
Every other option goes to k2s (k2s --help), e.g. --target-env=vulkan1.2,
--reflect=FILE.json, --descriptormap=FILE.csv, --pointers=physical.
Tools: $K2S_CLANG, else clang-15, else clang; $K2S_LLVM_SPIRV, else
llvm-spirv-15, else llvm-spirv; opt/llvm-as/llvm-dis with clang's version suffix;
$K2S, else the k2s beside k2s-cc (installed or in the build tree), else k2s.
"""


class Failure(Exception):
    pass


def note(msg):
    sys.stderr.write("k2s-cc: note: " + msg + "\n")


def fail(msg):
    raise Failure(msg)


def find_tool(explicit, env, names, what):
    cand = explicit or os.environ.get(env)
    if cand:
        path = shutil.which(cand)
        if not path:
            fail(f"{what} '{cand}' not found")
        return path
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    fail(f"{what} not found on PATH (tried {', '.join(names)}); name it with "
         f"--{what}=PATH or ${env}")


def find_k2s(explicit):
    cand = explicit or os.environ.get("K2S")
    if cand:
        if not shutil.which(cand):
            fail(f"k2s '{cand}' not found")
        return shutil.which(cand)
    here = os.path.dirname(os.path.realpath(__file__))
    for rel in ("k2s", os.path.join("..", "passes", "k2s")):
        p = os.path.normpath(os.path.join(here, rel))
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    p = shutil.which("k2s")
    if p:
        return p
    fail("k2s not found (beside k2s-cc, or on PATH); name it with --k2s=PATH or $K2S")


def llvm_major(tool, flag="--version"):
    try:
        out = subprocess.run([tool, flag], capture_output=True, text=True, timeout=60).stdout
    except OSError as e:
        fail(f"cannot run '{tool}': {e.strerror}")
    m = re.search(r"(?:clang|LLVM) version (\d+)\.", out)
    return int(m.group(1)) if m else None


def sibling(tool, base, major):
    """opt/llvm-as/llvm-dis of the same LLVM as clang."""
    for n in (f"{base}-{major}", base):
        p = shutil.which(n)
        if p and llvm_major(p) == major:
            return p
    fail(f"{base} of LLVM {major} not found (needed for a workaround; package llvm-{major})")


def status_text(rc):
    """How a child ended: 'exit status N', or the signal that killed it."""
    if rc >= 0:
        return f"exit status {rc}"
    try:
        name = signal.Signals(-rc).name
    except ValueError:
        name = "an unknown signal"
    return f"killed by {name} (signal {-rc})"


def child_failed(what, cmd, r, captured=True, after=""):
    """Every failure of a child tool: which tool (and its path), how it ended, and its
    output (shown here when captured; otherwise it already reached stderr)."""
    if captured:
        out = (r.stdout or "") + (r.stderr or "")
        if out.strip():
            sys.stderr.write(out if out.endswith("\n") else out + "\n")
        else:
            note(f"{what} wrote nothing to stdout or stderr")
    fail(f"{what} ({cmd[0]}) failed{after}: {status_text(r.returncode)}")


class Driver:
    def __init__(self, verbose):
        self.verbose = verbose

    def run(self, cmd, what, check=True):
        """Runs a child with its output captured; unless check=False, a failure is an
        error naming the tool, its status and its output."""
        if self.verbose:
            sys.stderr.write("+ " + " ".join(cmd) + "\n")
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        except OSError as e:
            fail(f"cannot run {what} ({cmd[0]}): {e.strerror}")
        if check and r.returncode != 0:
            child_failed(what, cmd, r)
        return r


def parse(argv):
    a = {"input": None, "output": None, "S": False, "opt": "-O2", "clang": [], "xclang": [],
         "spirv": [], "k2s": [], "triple": "spir64", "tools": {}, "keep": None, "v": False,
         "version": False}
    i = 0
    while i < len(argv):
        x = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None

        def value():
            nonlocal i
            if nxt is None:
                fail(f"{x} needs a value")
            i += 1
            return nxt
        if x in ("-h", "--help", "-help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        elif x == "--version":
            a["version"] = True
        elif x == "-o":
            a["output"] = value()
        elif x == "-S":
            a["S"] = True
        elif x == "-v":
            a["v"] = True
        elif re.fullmatch(r"-O[0-3sz]?", x):
            a["opt"] = x if x != "-O" else "-O2"
        elif x == "-cl-opt-disable":
            a["opt"] = "-O0"
        elif x in ("--spir32", "-m32"):
            a["triple"] = "spir"
        elif x in ("--spir64", "-m64"):
            a["triple"] = "spir64"
        elif x.startswith("--spirv-max-version="):
            a["spirv"].append(x)
        elif x == "-Xllvm-spirv":
            a["spirv"].append(value())
        elif x == "-Xclang":
            a["xclang"].append(value())
        elif re.match(r"--(clang|llvm-spirv|k2s|opt)=", x):
            k, v = x[2:].split("=", 1)
            a["tools"][k] = v
        elif x.startswith("--keep-temps="):
            a["keep"] = x.split("=", 1)[1]
        elif x in CLANG_VALUE:
            a["clang"] += [x, value()]
        elif x in BOTH:
            a["clang"].append(x)
            a["k2s"].append(x)
        elif re.match(r"-(D|I|U|W|cl-|g|ffp-contract=|w$|std=|include)", x) and \
                not x.startswith("-cl-native-math"):
            a["clang"].append(x)
        elif x.startswith("-") and x != "-":
            a["k2s"].append(x)
            bare = x.lstrip("-")
            if bare in K2S_VALUE:
                a["k2s"].append(value())
        elif a["input"] is None:
            a["input"] = x
        else:
            fail(f"more than one input file ('{x}')")
        i += 1
    if a["version"]:
        return a
    if a["input"] is None:
        fail("no input file (k2s-cc FILE.cl -o FILE.spv)")
    if a["output"] is None:
        if a["input"] == "-":
            fail("reading stdin needs -o FILE (or -o - for stdout)")
        stem = os.path.splitext(a["input"])[0]
        a["output"] = stem + (".spvasm" if a["S"] else ".spv")
    return a


def rewrite_freeze(text):
    """Replace each `%x = freeze T V` by V, function by function (values are
    named by instnamer first, so deleting a line renumbers nothing)."""
    out, count = [], 0
    func = []

    def flush():
        nonlocal count
        subst = {}
        for line in func:
            m = re.match(r"\s*(%[-\w.$]+) = freeze .* (\S+)\s*$", line)
            if m:
                subst[m.group(1)] = m.group(2)
        for k in list(subst):  # a freeze of a freeze
            v = subst[k]
            while v in subst:
                v = subst[v]
            subst[k] = v
        count += len(subst)
        for line in func:
            m = re.match(r"\s*(%[-\w.$]+) = freeze ", line)
            if m and m.group(1) in subst:
                continue
            if subst:
                line = re.sub(r"%[-\w.$]+", lambda t: subst.get(t.group(0), t.group(0)), line)
            out.append(line)
        func.clear()

    for line in text.split("\n"):
        if line.startswith("define "):
            flush()
        func.append(line)
        if line == "}":
            flush()
    flush()
    return "\n".join(out), count


def print_version(drv, k2s):
    """k2s-cc is the library's driver: its version is the library's, as k2s reports it."""
    out = drv.run([k2s, "--version"], "k2s").stdout
    m = re.fullmatch(r"k2s (\S+)\n?", out)
    if not m:
        fail(f"k2s ({k2s}) --version printed {out!r}, not 'k2s VERSION'")
    sys.stdout.write(f"k2s-cc {m.group(1)}\n")
    return 0


def main(argv):
    a = parse(argv)
    drv = Driver(a["v"])
    if a["version"]:
        return print_version(drv, find_k2s(a["tools"].get("k2s")))
    clang = find_tool(a["tools"].get("clang"), "K2S_CLANG", ["clang-15", "clang"], "clang")
    spirv = find_tool(a["tools"].get("llvm-spirv"), "K2S_LLVM_SPIRV",
                      ["llvm-spirv-15", "llvm-spirv"], "llvm-spirv")
    k2s = find_k2s(a["tools"].get("k2s"))
    cmaj, smaj = llvm_major(clang), llvm_major(spirv)
    if cmaj is None or smaj is None:
        fail(f"cannot tell the LLVM version of '{clang}' or '{spirv}' (--version)")
    if cmaj != smaj:
        fail(f"clang is LLVM {cmaj} but llvm-spirv is LLVM {smaj}: they must match "
             f"(e.g. clang-{smaj}, or llvm-spirv-{cmaj})")
    if cmaj < 14:
        fail(f"clang {cmaj} is too old: k2s-cc needs clang 14 or later")

    tmp = tempfile.mkdtemp(prefix="k2s-cc.")
    try:
        return compile_all(a, drv, clang, spirv, k2s, cmaj, tmp)
    finally:
        if a["keep"]:
            os.makedirs(a["keep"], exist_ok=True)
            for f in os.listdir(tmp):
                shutil.copy(os.path.join(tmp, f), a["keep"])
        shutil.rmtree(tmp, ignore_errors=True)


def clang_cmd(a, clang, major, opt, out, extra=()):
    cmd = [clang, "-c", "-target", a["triple"], "-emit-llvm", opt, "-fno-discard-value-names",
           "-cl-kernel-arg-info"] + list(extra)
    if major >= 15:
        cmd += ["-Xclang", "-no-opaque-pointers"]
    if not any(c.startswith("-cl-std=") for c in a["clang"]):
        cmd.append("-cl-std=CL1.2")
    for x in a["xclang"]:
        cmd += ["-Xclang", x]
    cmd += a["clang"]
    if a["input"] == "-":
        cmd += ["-x", "cl"]
    return cmd + [a["input"], "-o", out]


# clang's -cl-kernel-arg-info metadata (type names, type qualifiers) reaches the SPIR-V
# only with this llvm-spirv switch (14 and 15 have it); k2s turns it into clspv's
# ArgumentInfo operands.
ARG_INFO = "--preserve-ocl-kernel-arg-type-metadata-through-string"


def compile_all(a, drv, clang, spirv, k2s, major, tmp):
    bc, spv = os.path.join(tmp, "kernel.bc"), os.path.join(tmp, "kernel.spv")
    if ARG_INFO not in a["spirv"]:
        a["spirv"].insert(0, ARG_INFO)
    r = drv.run(clang_cmd(a, clang, major, a["opt"], bc), "clang")
    sys.stderr.write(r.stderr)  # clang's warnings
    cmd = [spirv] + a["spirv"] + [bc, "-o", spv]
    r = drv.run(cmd, "llvm-spirv", check=False)
    if r.returncode != 0:
        bc = workaround(a, drv, clang, spirv, major, tmp, r, cmd)
        cmd = [spirv] + a["spirv"] + [bc, "-o", spv]
        r = drv.run(cmd, "llvm-spirv", check=False)
        if r.returncode != 0:
            child_failed("llvm-spirv", cmd, r, after=" even after the workarounds")
    out = a["output"]
    vk = os.path.join(tmp, "kernel.vk.spv") if a["S"] else out
    cmd = [k2s, spv, "-o", vk] + a["k2s"]
    if a["v"]:
        sys.stderr.write("+ " + " ".join(cmd) + "\n")
    try:
        r = subprocess.run(cmd)  # k2s's diagnostics go straight to stderr
    except OSError as e:
        fail(f"cannot run k2s ({k2s}): {e.strerror}")
    if r.returncode != 0:
        try:
            child_failed("k2s", cmd, r, captured=False)
        except Failure as e:
            sys.stderr.write(f"k2s-cc: error: {e}\n")
        # k2s's own exit status (1 translation, 2 input) when it exited; 2 for a signal.
        return r.returncode if r.returncode > 0 else 2
    if a["S"]:
        dis = shutil.which("spirv-dis")
        if not dis:
            fail("-S needs spirv-dis (package spirv-tools)")
        drv.run([dis, vk, "-o", out], "spirv-dis")
    return 0


def workaround(a, drv, clang, spirv, major, tmp, failed, cmd):
    """Rebuild the bitcode so that llvm-spirv takes it (see the file comment)."""
    why = (failed.stdout or "") + (failed.stderr or "")
    odd = "InvalidBitWidth" in why
    frz = "freeze" in why
    if failed.returncode < 0 or (not odd and not frz):
        child_failed("llvm-spirv", cmd, failed)
    opt = sibling(clang, "opt", major)
    dis = sibling(clang, "llvm-dis", major)
    asm = sibling(clang, "llvm-as", major)
    bc = os.path.join(tmp, "kernel.bc")
    if odd and a["opt"] != "-O0":
        if a["v"]:
            note("llvm-spirv rejects an odd integer width (a switch narrowed by -O2); "
                 "optimising again with native integer widths 8/16/32/64 declared")
        bc0 = os.path.join(tmp, "kernel.O0.bc")
        drv.run(clang_cmd(a, clang, major, "-O0", bc0, ["-Xclang", "-disable-O0-optnone"]),
                "clang")
        ll = os.path.join(tmp, "kernel.O0.ll")
        drv.run([dis, bc0, "-o", ll], "llvm-dis")
        text = open(ll).read()
        text = re.sub(r'^target datalayout = "e-', 'target datalayout = "e-n8:16:32:64-', text,
                      count=1, flags=re.M)
        open(ll, "w").write(text)
        drv.run([asm, ll, "-o", bc0], "llvm-as")
        level = a["opt"] if a["opt"] in ("-O1", "-O2", "-O3", "-Os", "-Oz") else "-O2"
        bc = os.path.join(tmp, "kernel.opt.bc")
        drv.run([opt, level, bc0, "-o", bc], "opt")
        r = drv.run([spirv] + a["spirv"] + [bc, "-o", os.path.join(tmp, "probe.spv")],
                    "llvm-spirv", check=False)
        if r.returncode == 0:
            return bc
        frz = frz or "freeze" in r.stdout + r.stderr
    if frz:
        named = os.path.join(tmp, "kernel.named.ll")
        drv.run([opt, "-passes=instnamer", bc, "-S", "-o", named], "opt")
        text, n = rewrite_freeze(open(named).read())
        if a["v"]:
            note(f"llvm-spirv cannot translate LLVM freeze: {n} freeze instruction(s) "
                 "replaced by their operands")
        open(named, "w").write(text)
        bc = os.path.join(tmp, "kernel.nofreeze.bc")
        drv.run([asm, named, "-o", bc], "llvm-as")
    return bc


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as e:
        sys.stderr.write(f"k2s-cc: error: {e}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
