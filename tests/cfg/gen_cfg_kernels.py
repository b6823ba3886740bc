#!/usr/bin/env python3
"""Random control-flow kernels for the structurize pass.

Deterministic from a seed: each kernel is OpenCL C with nested loops (for, while,
do-while), if/else chains, switches (fallthrough, default anywhere), break,
continue, multi-level break (goto past an outer loop), early return, jumps into
a loop (irreducible control flow) and, optionally, barriers in uniform control
flow. All arithmetic is on uint (no undefined behaviour), every loop has a
bound, trip counts come from the input so that work-items diverge.

Interface (shared with tests/cfg/cpu_harness.c):
    kernel void rk(global const uint *in, global uint *out)
work-item g reads in[4g .. 4g+3] and writes out[g].

    gen_cfg_kernels.py OUTDIR --seeds 1-200 [--global 64 --local 16]

writes OUTDIR/rk_SEED.cl and OUTDIR/rk_SEED.spec (corpus/FORMAT.md), so that
    tests/e2e/run_corpus.py --corpus OUTDIR
compares them on Vulkan against PoCL.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


SCALE = 0x20000001


class Gen:
    def __init__(self, seed, barriers, attempt=0):
        self.r = random.Random(seed * 1000 + attempt)
        self.seed = seed
        self.barriers = barriers
        self.vars = ["a", "b", "c", "d", "acc"]
        self.nlabel = 0
        self.nloop = 0
        self.guards = []
        self.budget = self.r.randint(25, 70)  # statements in all

    # ---- expressions ----------------------------------------------------------------------
    def var(self):
        return self.r.choice(self.vars)

    def const(self):
        return str(self.r.choice([0, 1, 2, 3, 5, 7, 8, 13, 31, 100, 255, 0x55, 1000003]) ) + "u"

    def expr(self, depth=0):
        r = self.r.random()
        if depth > 2 or r < 0.3:
            return self.var() if self.r.random() < 0.7 else self.const()
        # No '/': with '%' on the same operands LLVM's DivRemPairs emits 'freeze',
        # which llvm-spirv 15 cannot translate.
        op = self.r.choice(["+", "-", "*", "^", "&", "|", ">>", "<<", "%", "?"])
        x, y = self.expr(depth + 1), self.expr(depth + 1)
        if op in (">>", "<<"):
            return f"({x} {op} ({y} & 31u))"
        if op == "%":
            return f"({x} {op} ({y} | 1u))"
        if op == "?":
            return f"({self.cond(depth + 1)} ? {x} : {y})"
        return f"({x} {op} {y})"

    def cond(self, depth=0):
        r = self.r.random()
        if depth < 2 and r < 0.15:
            return f"({self.cond(depth + 1)} {self.r.choice(['&&', '||'])} {self.cond(depth + 1)})"
        if r < 0.5:
            return f"(({self.var()} & {self.r.choice([1, 3, 7, 15])}u) == {self.r.choice([0, 1, 2, 3])}u)"
        op = self.r.choice(["<", ">", "<=", ">=", "==", "!="])
        return f"({self.expr(1)} {op} {self.expr(1)})"

    # ---- statements ---------------------------------------------------------------------------
    def assign(self):
        v = self.var()
        op = self.r.choice(["=", "+=", "^=", "-="])
        return [f"{v} {op} {self.expr()};"]

    def block(self, ctx, depth, n=None):
        out = []
        if n is None:
            n = self.r.randint(1, 4)
        for _ in range(n):
            if self.budget <= 0:
                break
            out += self.stmt(ctx, depth)
        if not out:
            out = self.assign()
        return out

    def stmt(self, ctx, depth):
        self.budget -= 1
        r = self.r
        choices = [("assign", 30)]
        if depth < 5:
            choices += [("if", 18), ("for", 8), ("while", 6), ("do", 5), ("switch", 6)]
            if ctx["uniform"] and not ctx["loops"] and r.random() < 0.3:
                choices.append(("irreducible", 4))
        if ctx["loops"]:
            choices += [("break", 4), ("continue", 4)]
            if len(ctx["loops"]) >= 2 and not self.barriers:
                choices.append(("break_outer", 4))
        if ctx["switch"]:
            choices.append(("switch_break", 3))
        if ctx["may_return"]:
            choices.append(("return", 2))
        if ctx.get("uniform_loop"):
            choices.append(("uniform_exit", 4))
        if self.barriers and ctx["uniform"]:
            choices.append(("barrier", 6))
            if depth < 5:
                choices.append(("uniform_if", 5))
        total = sum(w for _, w in choices)
        pick = r.uniform(0, total)
        for kind, w in choices:
            pick -= w
            if pick <= 0:
                break
        return getattr(self, "s_" + kind)(ctx, depth)

    def sub(self, ctx, **kw):
        c = dict(ctx)
        c.update(kw)
        return c

    def indent(self, lines):
        return ["    " + l for l in lines]

    def s_assign(self, ctx, depth):
        return self.assign()

    def s_if(self, ctx, depth):
        out = [f"if {self.cond()} {{"]
        inner = self.sub(ctx, uniform=False)
        out += self.indent(self.block(inner, depth + 1))
        while self.r.random() < 0.35 and self.budget > 0:
            out += [f"}} else if {self.cond()} {{"]
            out += self.indent(self.block(inner, depth + 1))
        if self.r.random() < 0.5:
            out += ["} else {"]
            out += self.indent(self.block(inner, depth + 1))
        out += ["}"]
        return out

    def loop_ctx(self, ctx, uniform):
        self.nloop += 1
        k = self.nloop
        return k, self.sub(ctx, loops=ctx["loops"] + [k], switch=False, no_exit=False,
                           uniform=ctx["uniform"] and uniform, uniform_loop=None)

    def s_for(self, ctx, depth):
        uniform = self.r.random() < 0.4
        if not uniform:
            bound = f"({self.var()} & 7u)"
        elif self.r.random() < 0.35:
            bound = f"{self.r.randint(1, 6)}u"  # often unrolled by -O2
        else:
            # Work-group-uniform but not constant: the loop stays a loop, and
            # every work-item of a group runs the same number of iterations.
            bound = f"((grp + {self.r.randint(0, 7)}u) & {self.r.choice([1, 3, 7])}u)"
        k, inner = self.loop_ctx(ctx, uniform)
        # A uniform loop with a data-dependent break is not uniform any more:
        # barriers only go where every work-item arrives. Exits on uniform
        # conditions (s_uniform_exit) keep it uniform.
        if uniform:
            inner["uniform"] = ctx["uniform"]
            inner["no_exit"] = True
            inner["uniform_loop"] = k
        i = f"i{k}"
        body = self.block(inner, depth + 1)
        return [f"for (uint {i} = 0; {i} < {bound}; ++{i}) {{",
                *self.indent([f"acc ^= {i};"] + body), "}", f"out{k}: ;"]

    def s_while(self, ctx, depth):
        k, inner = self.loop_ctx(ctx, False)
        g = f"g{k}"
        self.guards.append(g)
        body = self.block(inner, depth + 1)
        return [f"{g} = 0;", f"while ({self.cond()} && {g}++ < {self.r.randint(2, 9)}u) {{",
                *self.indent(body), "}", f"out{k}: ;"]

    def s_do(self, ctx, depth):
        k, inner = self.loop_ctx(ctx, False)
        g = f"g{k}"
        self.guards.append(g)
        body = self.block(inner, depth + 1)
        return [f"{g} = 0;", "do {", *self.indent(body),
                f"}} while ({g}++ < {self.r.randint(1, 7)}u && {self.cond()});", f"out{k}: ;"]

    def s_switch(self, ctx, depth):
        ncase = self.r.randint(2, 6)
        labels = self.r.sample(range(8), ncase)
        default_at = self.r.randint(0, ncase) if self.r.random() < 0.7 else None
        inner = self.sub(ctx, switch=True, uniform=False)
        # The selector is scaled so that its known bits cannot shrink it: with
        # 'x & 7' the optimizer narrows the switch to i3, which llvm-spirv 15
        # rejects (InvalidBitWidth).
        out = [f"switch (({self.var()} & 7u) * {SCALE}u) {{"]
        for i in range(ncase + 1):
            if i == default_at:
                out += ["default:"]
            if i < ncase:
                out += [f"case {labels[i]}u * {SCALE}u:"]
            if i == ncase and default_at != ncase:
                continue
            body = self.block(inner, depth + 1, self.r.randint(0, 2))
            if self.r.random() < 0.7:
                body += ["break;"]  # else: fall through
            out += self.indent(["{"] + self.indent(body) + ["}"])
        out += ["}"]
        return out

    def s_irreducible(self, ctx, depth):
        # A jump into the middle of a loop: two entries, so irreducible.
        k, inner = self.loop_ctx(ctx, False)
        self.nlabel += 1
        lab = f"into{self.nlabel}"
        g = f"g{k}"
        self.guards.append(g)
        inner = self.sub(inner, may_return=ctx["may_return"])
        first = self.block(inner, depth + 1, 1)
        second = self.block(inner, depth + 1, self.r.randint(1, 2))
        return [f"{g} = 0;", f"if {self.cond()} goto {lab};",
                f"while ({self.cond()} && {g}++ < {self.r.randint(2, 6)}u) {{",
                *self.indent(first), f"{lab}:", *self.indent(second), "}", f"out{k}: ;"]

    def s_uniform_exit(self, ctx, depth):
        # break/continue on a work-group-uniform condition: the loop stays uniform.
        i = f"i{ctx['uniform_loop']}"
        kind = self.r.choice(["break", "continue"])
        return [f"if (((grp ^ {i}) & {self.r.choice([1, 3])}u) == {self.r.randint(0, 1)}u) {kind};"]

    def s_uniform_if(self, ctx, depth):
        # A branch every work-item of a group takes the same way (barriers allowed).
        out = [f"if (((grp >> {self.r.randint(0, 2)}u) & 1u) == {self.r.randint(0, 1)}u) {{"]
        out += self.indent(self.block(ctx, depth + 1))
        if self.r.random() < 0.5:
            out += ["} else {"]
            out += self.indent(self.block(ctx, depth + 1))
        return out + ["}"]

    def s_break(self, ctx, depth):
        if ctx.get("no_exit"):
            return self.assign()
        return [f"if {self.cond()} break;"] if self.r.random() < 0.8 else ["break;"]

    def s_continue(self, ctx, depth):
        if ctx.get("no_exit"):
            return self.assign()
        if ctx["switch"] or self.r.random() < 0.8:
            return [f"if {self.cond()} continue;"]
        return ["continue;"]

    def s_break_outer(self, ctx, depth):
        if ctx.get("no_exit"):
            return self.assign()
        target = self.r.choice(ctx["loops"][:-1])
        return [f"if {self.cond()} goto out{target};"]

    def s_switch_break(self, ctx, depth):
        return [f"if {self.cond()} break;"]

    def s_return(self, ctx, depth):
        return [f"if {self.cond()} {{", *self.indent(self.ret), "}"]

    def s_barrier(self, ctx, depth):
        return ["tile[lid] = acc;", "barrier(CLK_LOCAL_MEM_FENCE);",
                f"acc += tile[(lid + {self.r.randint(1, 15)}u) % {self.local}u];",
                "barrier(CLK_LOCAL_MEM_FENCE);"]

    def body(self, local, ret):
        """The statements of one program; `ret` is how an early exit ends it."""
        self.local = local
        self.ret = ret
        # Returns and barriers do not mix: a returned work-item misses the barrier.
        may_return = not self.barriers
        ctx = {"loops": [], "switch": False, "uniform": True, "may_return": may_return,
               "uniform_loop": None}
        body = []
        while self.budget > 0:
            body += self.stmt(ctx, 0)
        return body

    def kernel(self, local):
        body = self.body(local, ["out[gid] = acc ^ (a << 3) ^ b;", "return;"])
        lines = ["kernel void rk(global const uint *in, global uint *out)", "{",
                 "    uint gid = get_global_id(0);",
                 "    uint lid = get_local_id(0);",
                 "    uint grp = get_group_id(0);",
                 "    uint a = in[4 * gid], b = in[4 * gid + 1], c = in[4 * gid + 2], d = in[4 * gid + 3];",
                 "    uint acc = gid;"]
        if self.barriers:
            lines.append(f"    local uint tile[{local}];")
        if self.guards:
            lines.append("    uint " + ", ".join(f"{g} = 0" for g in self.guards) + ";")
        lines += self.indent(body)
        lines += ["    out[gid] = acc ^ (a << 3) ^ b ^ (c >> 2) ^ d;", "}"]
        return "\n".join(lines) + "\n"

    def function(self, local, out_of_line=False):
        """The program as a function for a batch kernel (batch_source): the same
        control flow, with the work-item's values as parameters and its result
        returned. Programs without barriers stay out of line, so k2s sees calls."""
        body = self.body(local, ["return acc ^ (a << 3) ^ b;"])
        tile = ", local uint *tile" if self.barriers else ""
        # Programs with barriers take the local tile pointer; clang inlines
        # them (static, one call). (k2s's inline pass would too, but it leaves
        # the OpName of the inlined function behind as of this writing.)
        attr = "static" if self.barriers and not out_of_line else "static __attribute__((noinline))"
        lines = [f"{attr} uint rk_{self.seed}(uint a, uint b, uint c, uint d, "
                 f"uint gid, uint lid, uint grp{tile})", "{", "    uint acc = gid;"]
        if self.guards:
            lines.append("    uint " + ", ".join(f"{g} = 0" for g in self.guards) + ";")
        lines += self.indent(body)
        lines += ["    return acc ^ (a << 3) ^ b ^ (c >> 2) ^ d;", "}"]
        return "\n".join(lines) + "\n"


def compile_bc(src, tmp, stem):
    """clang-15 -O2 for spir64 into TMP/STEM.bc; its path, or None when clang fails."""
    cl, bc = os.path.join(tmp, stem + ".cl"), os.path.join(tmp, stem + ".bc")
    with open(cl, "w") as f:
        f.write(src)
    r = subprocess.run(["clang-15", "-cc1", "-triple", "spir64", "-cl-std=CL1.2", "-O2",
                        "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc",
                        cl, "-o", bc], capture_output=True)
    return None if r.returncode else bc


def producer_ok(src, tmp):
    """Does clang-15 + llvm-spirv-15 translate it? (llvm-spirv 15 rejects LLVM's
    'freeze' and odd-width integers, which -O2 sometimes makes.)"""
    bc, spv = compile_bc(src, tmp, "k"), os.path.join(tmp, "k.spv")
    if not bc:
        return False
    return subprocess.run(["llvm-spirv-15", bc, "-o", spv], capture_output=True).returncode == 0


def parse_seeds(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += range(int(lo), int(hi) + 1)
        else:
            out.append(int(part))
    return out


def batch_source(programs, local):
    """One kernel running many programs: work-group row y (get_group_id(1)) runs
    program y, so every program's barriers stay in work-group-uniform control
    flow. programs: [(seed, attempt, barriers, function source)]."""
    lines = ["// generated by tests/cfg/gen_cfg_kernels.py --batch: seeds "
             + " ".join(f"{s}.{t}" for s, t, _, _ in programs) + " (seed.attempt)"]
    for _, _, _, src in programs:
        lines.append(src)
    lines += ["kernel void rk_batch(global const uint *in, global uint *out)", "{",
              f"    local uint tile[{local}];",
              "    uint row = get_group_id(1);",
              "    uint gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);",
              "    uint slot = row * (uint)get_global_size(0) + gid;",
              "    uint a = in[4 * slot], b = in[4 * slot + 1], c = in[4 * slot + 2], d = in[4 * slot + 3];",
              "    uint r;",
              "    switch (row) {"]
    for row, (seed, _, barriers, _) in enumerate(programs):
        tile = ", tile" if barriers else ""
        lines.append(f"    case {row}: r = rk_{seed}(a, b, c, d, gid, lid, grp{tile}); break;")
    lines += ["    default: r = 0; break;", "    }", "    out[slot] = r;", "}"]
    return "\n".join(lines) + "\n"


def untranslatable(src, tmp):
    """Compile a batch with clang-15 (-O2) and list the functions llvm-spirv-15
    cannot translate: those holding 'freeze' or integers of odd widths. None
    when clang itself fails."""
    bc = compile_bc(src, tmp, "b")
    if not bc:
        return None
    ll = subprocess.run(["llvm-dis-15", bc, "-o", "-"], capture_output=True, text=True).stdout
    bad, fn = set(), None
    for line in ll.splitlines():
        if line.startswith("define "):
            m = re.search(r"@(\w+)\(", line)
            fn = m.group(1) if m else None
        odd = any(w not in ("1", "8", "16", "32", "64") for w in re.findall(r"(?<![%@\w.])i(\d+)\b", line))
        if fn and ("freeze" in line or odd):
            bad.add(fn)
    return bad


def make_batch(seeds, barrier_every, local, check, tmp):
    """Programs for seeds, each regenerated (next attempt) while clang-15 -O2
    makes of it what llvm-spirv-15 cannot translate. Found per function in the
    LLVM IR of the batch with every program out of line, so a batch takes one
    or two compiles; then llvm-spirv-15 must accept the batch as written (with
    the barrier programs inlined), else those are bisected."""
    attempt = {s: 0 for s in seeds}

    def prog(s, out_of_line=False):
        barriers = barrier_every > 0 and s % barrier_every == 0
        return (s, attempt[s], barriers, Gen(s, barriers, attempt[s]).function(local, out_of_line))

    def bump(culprits):
        for s in culprits:
            attempt[s] += 1
            if attempt[s] >= 50:
                sys.exit(f"gen_cfg_kernels.py: seed {s}: no attempt gets through llvm-spirv-15")

    def fails(group):
        return not producer_ok(batch_source([prog(s) for s in group], local), tmp)

    def bisect(group):
        if not fails(group):
            return []
        if len(group) == 1:
            return group
        half = len(group) // 2
        return bisect(group[:half]) + bisect(group[half:])

    while check:
        bad = untranslatable(batch_source([prog(s, True) for s in seeds], local), tmp)
        if bad is None:
            sys.exit(f"gen_cfg_kernels.py: clang-15 rejects the batch of seeds {seeds[0]}-{seeds[-1]}")
        culprits = [s for s in seeds if f"rk_{s}" in bad]
        if culprits:
            bump(culprits)
            continue
        if not fails(seeds):
            break
        culprits = bisect([s for s in seeds if barrier_every > 0 and s % barrier_every == 0])
        if not culprits:
            sys.exit(f"gen_cfg_kernels.py: llvm-spirv-15 rejects the batch of seeds "
                     f"{seeds[0]}-{seeds[-1]} for a reason this script does not know")
        bump(culprits)
    return batch_source([prog(s) for s in seeds], local)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--seeds", default="1-100", help="e.g. 1-200 or 3,7,9")
    ap.add_argument("--global", dest="glob", type=int, default=64)
    ap.add_argument("--local", type=int, default=16)
    ap.add_argument("--barrier-every", type=int, default=4,
                    help="every Nth seed gets barriers (and no returns); 0: never")
    ap.add_argument("--batch", type=int, default=0, metavar="N",
                    help="write the programs N to a file, as functions called by one kernel "
                         "(rkb_FIRST_LAST.cl: one compile, one dispatch per N programs)")
    ap.add_argument("--k2s-options", default="",
                    help="the specs' 'k2s:' line (default: none; input validation is on)")
    ap.add_argument("--no-producer-check", action="store_true",
                    help="do not retry kernels that clang-15 + llvm-spirv-15 cannot translate")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    check = not a.no_producer_check and shutil.which("clang-15") and shutil.which("llvm-spirv-15")
    tmp = tempfile.mkdtemp()
    seeds = parse_seeds(a.seeds)
    k2s_line = f"k2s: {a.k2s_options}\n" if a.k2s_options else ""
    if a.batch > 0:
        for at in range(0, len(seeds), a.batch):
            group = seeds[at:at + a.batch]
            name = f"rkb_{group[0]}_{group[-1]}"
            with open(os.path.join(a.outdir, name + ".cl"), "w") as f:
                f.write(make_batch(group, a.barrier_every, a.local, check, tmp))
            n = len(group)
            with open(os.path.join(a.outdir, name + ".spec"), "w") as f:
                f.write(f"kernel: rk_batch\nglobal: {a.glob},{n}\nlocal: {a.local},1\n"
                        f"arg: buffer:uint:{4 * a.glob * n}=rand:{group[0]}\n"
                        f"arg: buffer:uint:{a.glob * n}=zeros\ncompare: 1\n" + k2s_line)
        shutil.rmtree(tmp, ignore_errors=True)
        return
    for seed in seeds:
        barriers = a.barrier_every > 0 and seed % a.barrier_every == 0
        for attempt in range(50):
            src = Gen(seed, barriers, attempt).kernel(a.local)
            if not check or producer_ok(src, tmp):
                break
        name = f"rk_{seed}"
        with open(os.path.join(a.outdir, name + ".cl"), "w") as f:
            f.write(f"// generated by tests/cfg/gen_cfg_kernels.py, seed {seed} attempt {attempt}"
                    f"{', with barriers' if barriers else ''}\n" + src)
        with open(os.path.join(a.outdir, name + ".spec"), "w") as f:
            f.write(f"kernel: rk\nglobal: {a.glob}\nlocal: {a.local}\n"
                    f"arg: buffer:uint:{4 * a.glob}=rand:{seed}\n"
                    f"arg: buffer:uint:{a.glob}=zeros\ncompare: 1\n" + k2s_line)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
