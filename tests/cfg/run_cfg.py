#!/usr/bin/env python3
"""Driver for the structurize pass on OpenCL C kernels (random or the corpus).

For each kernel: clang-15 + llvm-spirv-15 -> Kernel SPIR-V; `k2s --passes=structurize`;
then three checks and the growth numbers:
  valid      spirv-val (universal environment) accepts the output (SSA, dominance);
  structure  the control-flow skeleton of the output (tests/cfg/cfg_skeleton.py)
             passes `spirv-val --target-env vulkan1.1`, which applies every
             structured control-flow rule;
  same       (generated kernels only) the kernel before and after the pass gives
             the same results: both are turned back into LLVM IR (llvm-spirv -r),
             built for the host with tests/cfg/cpu_harness.c and run over the
             NDRange of its spec (work-items on fibers, so barriers work);
  growth     blocks and instructions in functions, after / before.

    run_cfg.py --seeds 1-200            # generate into --workdir, check, summarize
    run_cfg.py --corpus corpus          # the project's kernels (no 'same' check)
    run_cfg.py --dir DIR                # kernels already generated into DIR

Exit status 1 when any check failed. The whole-translator comparison against PoCL
is tests/e2e/run_corpus.py --corpus DIR on the generated directory.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shlex
import statistics
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def find_k2s(explicit):
    for c in [explicit, os.environ.get("K2S"), os.path.join(REPO, "build", "passes", "k2s")]:
        if c and os.access(c, os.X_OK):
            return c
    sys.exit("run_cfg.py: k2s not found (build it, or pass --k2s)")


def parse_spec(path):
    runs, cur = [], {}
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line == "---":
            runs.append(cur)
            cur = {}
        elif ":" in line:
            k, v = line.split(":", 1)
            cur.setdefault(k.strip(), []).append(v.strip())
    runs.append(cur)
    return runs


def count(spv):
    """(blocks, instructions) inside function bodies, from the binary (spirv-dis
    stops at some producer bugs, e.g. a switch before its selector's definition)."""
    data = open(spv, "rb").read()
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    if words[0] != 0x07230203:
        words = struct.unpack(">%dI" % (len(data) // 4), data)
    blocks = instrs = 0
    inside = False
    i = 5
    while i < len(words):
        n, op = words[i] >> 16, words[i] & 0xFFFF
        if n == 0:
            break
        if op == 54:  # OpFunction
            inside = True
        if inside:
            instrs += 1
            blocks += op == 248  # OpLabel
        if op == 56:  # OpFunctionEnd
            inside = False
        i += n
    return blocks, instrs


def irreducible(spv):
    """Does any function of the module have a cycle with two entries? (A DFS
    retreating edge whose target does not dominate its source.)"""
    r = run(["spirv-dis", "--raw-id", spv])
    if r.returncode:
        return False
    funcs, cur, block = [], None, None
    for line in r.stdout.splitlines():
        t = line.split()
        if len(t) >= 3 and t[1] == "=" and t[2] == "OpFunction":
            cur = {}
            funcs.append(cur)
        elif len(t) >= 3 and t[1] == "=" and t[2] == "OpLabel" and cur is not None:
            block = t[0]
            cur[block] = []
        elif t and t[0] == "OpBranch":
            cur[block] = [t[1]]
        elif t and t[0] == "OpBranchConditional":
            cur[block] = [t[2], t[3]]
        elif t and t[0] == "OpSwitch":
            cur[block] = [t[2]] + t[4::2]
    for g in funcs:
        if not g:
            continue
        entry = next(iter(g))
        order, seen, stack, retreat = [], {entry}, [(entry, iter(g[entry]))], []
        onstack = {entry}
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                stack.pop()
                onstack.discard(v)
                order.append(v)
            elif w not in seen:
                seen.add(w)
                onstack.add(w)
                stack.append((w, iter(g.get(w, []))))
            elif w in onstack:
                retreat.append((v, w))
        rpo = order[::-1]
        num = {b: i for i, b in enumerate(rpo)}
        preds = {b: [] for b in rpo}
        for b in rpo:
            for w in g.get(b, []):
                if w in preds:
                    preds[w].append(b)
        idom = {entry: entry}
        changed = True
        while changed:
            changed = False
            for b in rpo[1:]:
                new = None
                for p in preds[b]:
                    if p not in idom:
                        continue
                    if new is None:
                        new = p
                        continue
                    x, y = p, new
                    while x != y:
                        while num[x] > num[y]:
                            x = idom[x]
                        while num[y] > num[x]:
                            y = idom[y]
                    new = x
                if idom.get(b) != new:
                    idom[b] = new
                    changed = True
        for v, w in retreat:
            x = v
            while x != w and x != entry:
                x = idom[x]
            if x != w:
                return True
    return False


def llvm_phis(spv, out):
    """LLVM wants one phi entry per edge, SPIR-V one per predecessor block: when a
    switch has several cases to one target, repeat that predecessor's entries
    (else llvm-spirv -r fails to verify the module)."""
    text = run(["spirv-dis", "--raw-id", spv]).stdout
    mult, block = {}, None
    for line in text.splitlines():
        t = line.split()
        if len(t) >= 3 and t[1] == "=" and t[2] == "OpLabel":
            block = t[0]
        elif t and t[0] == "OpSwitch":
            targets = [t[2]] + t[4::2]
            for x in set(targets):
                if targets.count(x) > 1:
                    mult[(block, x)] = targets.count(x)
    if not mult:
        return spv
    lines, block = [], None
    for line in text.splitlines():
        t = line.split()
        if len(t) >= 3 and t[1] == "=" and t[2] == "OpLabel":
            block = t[0]
        if len(t) >= 4 and t[2] == "OpPhi":
            pairs = t[4:]
            new, seen = [], set()
            for i in range(0, len(pairs), 2):
                if pairs[i + 1] not in seen:
                    seen.add(pairs[i + 1])
                    new += pairs[i:i + 2] * mult.get((pairs[i + 1], block), 1)
            line = " ".join(t[:4] + new)
        lines.append(line)
    version = re.search(r"; Version: (\d+)\.(\d+)", text)
    env = f"spv{version.group(1)}.{version.group(2)}" if version else "spv1.0"
    open(out + ".spvasm", "w").write("\n".join(lines) + "\n")
    r = run(["spirv-as", "--preserve-numeric-ids", "--target-env", env, out + ".spvasm", "-o", out])
    return out if r.returncode == 0 else spv


def host_exe(spv, exe, tmp):
    ll = tmp + ".ll"
    bc = tmp + ".rev.bc"
    spv = llvm_phis(spv, tmp + ".llvmphi.spv")
    r = run(["llvm-spirv-15", "-r", spv, "-o", bc])
    if r.returncode:
        return "llvm-spirv -r: " + r.stderr.strip()[:300]
    r = run(["llvm-dis-15", bc, "-o", ll])
    if r.returncode:
        return "llvm-dis: " + r.stderr.strip()[:300]
    text = open(ll).read()
    text = text.replace("spir_kernel ", "").replace("spir_func ", "")
    text = re.sub(r'^target triple = .*$', 'target triple = "x86_64-pc-linux-gnu"', text,
                  flags=re.M)
    text = re.sub(r'^target datalayout = .*$', '', text, flags=re.M)
    open(ll, "w").write(text)
    r = run(["clang-15", "-O1", "-w", os.path.join(HERE, "cpu_harness.c"), ll, "-o", exe])
    if r.returncode:
        return "host build: " + r.stderr.strip()[:300]
    return None


def check_one(cl, o):
    name = os.path.splitext(os.path.basename(cl))[0]
    work = os.path.join(o.workdir, "build")
    os.makedirs(work, exist_ok=True)
    base = os.path.join(work, name)
    res = {"name": name, "fail": []}
    spec = os.path.splitext(cl)[0] + ".spec"
    runs = parse_spec(spec) if os.path.exists(spec) else [{}]
    std = (runs[0].get("cl-std") or ["CL1.2"])[0]
    triple = (runs[0].get("triple") or ["spir64"])[0]
    extra = shlex.split((runs[0].get("clang") or [""])[0])
    bc, spv, out = base + ".bc", base + ".spv", base + ".out.spv"
    r = run(["clang-15", "-cc1", "-triple", triple, f"-cl-std={std}", "-O2",
             "-no-opaque-pointers", "-finclude-default-header", *extra, "-emit-llvm-bc", cl,
             "-o", bc])
    if r.returncode:
        res["skip"] = "clang: " + r.stderr.strip()[:200]
        return res
    r = run(["llvm-spirv-15", bc, "-o", spv])
    if r.returncode:
        res["skip"] = "llvm-spirv: " + r.stderr.strip()[:200]
        return res
    r = run([o.k2s, "--passes=structurize", "--no-validate-input", "--no-validate-output", spv,
             "-o", out])
    if r.returncode:
        res["fail"].append("k2s: " + r.stderr.strip()[:400])
        return res
    r = run(["spirv-val", out])
    if r.returncode:
        # An input error the pass does not touch (e.g. llvm-spirv's out-of-range
        # vector index in corpus/workitem_oob) is the producer's, not ours.
        def what(text):
            return re.sub(r"line \d+: |\n.*", "", text.strip(), flags=re.S)
        ri = run(["spirv-val", spv])
        if ri.returncode and what(ri.stderr + ri.stdout) == what(r.stderr + r.stdout):
            res["note"] = "input already invalid: " + what(ri.stderr + ri.stdout)[:200]
        else:
            res["fail"].append("valid: " + (r.stderr + r.stdout).strip()[:400])
    skel = base + ".skel.spvasm"
    r = run([sys.executable, os.path.join(HERE, "cfg_skeleton.py"), out, "-o", skel])
    r2 = run(["spirv-as", "--target-env", "vulkan1.1", skel, "-o", skel + ".spv"]) \
        if not r.returncode else r
    r3 = run(["spirv-val", "--target-env", "vulkan1.1", skel + ".spv"]) if not r2.returncode else r2
    if r3.returncode:
        res["fail"].append("structure: " + (r3.stderr + r3.stdout).strip()[:400])
    res["irreducible"] = irreducible(spv)
    res["before"] = count(spv)
    res["after"] = count(out)
    if o.same and runs[0].get("kernel") == ["rk"]:
        glob_n = runs[0]["global"][0]
        local_n = runs[0]["local"][0]
        seed = runs[0]["arg"][0].rsplit(":", 1)[1]
        outs = []
        for tag, mod in (("orig", spv), ("new", out)):
            exe = base + "." + tag + ".exe"
            err = host_exe(mod, exe, base + "." + tag)
            if err:
                res["fail"].append(f"same ({tag}): {err}")
                return res
            try:
                r = run([exe, glob_n, local_n, seed], timeout=60)
            except subprocess.TimeoutExpired:
                r = None
            outs.append((r.returncode, r.stdout) if r else (-1, "timeout"))
        if outs[0] != outs[1]:
            a, b = outs[0][1].split(), outs[1][1].split()
            diff = sum(x != y for x, y in zip(a, b))
            res["fail"].append(f"same: results differ (exit {outs[0][0]} vs {outs[1][0]}, "
                               f"{diff} values)")
        elif outs[0][0]:
            res["fail"].append(f"same: both runs failed (exit {outs[0][0]})")
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", help="generate these kernels first (e.g. 1-200)")
    ap.add_argument("--dir", help="check the kernels in DIR")
    ap.add_argument("--corpus", help="check the project's corpus directory (no 'same' check)")
    ap.add_argument("--workdir", default=os.path.join(os.getcwd(), "cfg-work"))
    ap.add_argument("--k2s")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-same", dest="same", action="store_false")
    ap.add_argument("--table", action="store_true", help="print growth per kernel")
    o = ap.parse_args()
    o.k2s = find_k2s(o.k2s)
    if o.seeds:
        o.dir = o.dir or os.path.join(o.workdir, "kernels")
        r = run([sys.executable, os.path.join(HERE, "gen_cfg_kernels.py"), o.dir, "--seeds",
                 o.seeds])
        if r.returncode:
            sys.exit(r.stderr)
    src = o.dir or o.corpus
    if not src:
        sys.exit("run_cfg.py: give --seeds, --dir or --corpus")
    if o.corpus:
        o.same = False
    kernels = sorted(glob.glob(os.path.join(src, "*.cl")))
    with concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        results = list(ex.map(lambda k: check_one(k, o), kernels))
    failed = skipped = 0
    rb, ri, nirr = [], [], 0
    for res in results:
        if "skip" in res:
            skipped += 1
            print(f"SKIP {res['name']}: {res['skip']}")
            continue
        if "note" in res:
            print(f"NOTE {res['name']}: {res['note']}")
        if res["fail"]:
            failed += 1
            for f in res["fail"]:
                print(f"FAIL {res['name']}: {f}")
        if "after" in res:
            (b0, i0), (b1, i1) = res["before"], res["after"]
            irr = res["irreducible"]
            nirr += irr
            rb.append((b1 / b0, res["name"], irr))
            ri.append((i1 / i0, res["name"], irr))
            if o.table:
                print(f"{res['name']:24} blocks {b0:5} -> {b1:5} ({b1 / b0:.2f}x)   "
                      f"instructions {i0:6} -> {i1:6} ({i1 / i0:.2f}x)"
                      f"{'   irreducible' if irr else ''}")
    if rb:
        print(f"{len(rb)} kernels measured, {nirr} with irreducible control flow")
        for what, rs in (("blocks", rb), ("instructions", ri)):
            worst = max(rs)
            red = [x for x in rs if not x[2]] or rs
            worst_red = max(red)
            print(f"growth {what}: median {statistics.median(r for r, _, _ in rs):.3f}x, "
                  f"mean {statistics.mean(r for r, _, _ in rs):.3f}x, "
                  f"worst {worst[0]:.3f}x ({worst[1]}); "
                  f"reducible only: median {statistics.median(r for r, _, _ in red):.3f}x, "
                  f"worst {worst_red[0]:.3f}x ({worst_red[1]})")
    print(f"{len(results) - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
