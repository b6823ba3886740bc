#!/usr/bin/env python3
"""Random pointer-punning kernels, run through k2s on Vulkan and compared with PoCL.

Each generated kernel gives every work-item a 64-byte window in a global buffer, a local
array and a private array, and then performs a random sequence of accesses through random
views of them (uchar/ushort/uint/float/uint2/float4/..., at offsets aligned for the view),
pointer selects between regions, moving pointers in loops, and struct/memcpy-style copies.
All values are moved as bit patterns (as_uint/as_float), so results must match exactly.
Pointer casts between non-char types would break C's strict-aliasing rule, which both
compilers exploit (clang -O2 deleted a float read of uint data), so every view type is a
`may_alias` typedef (a_float, a_uint4, ...): the kernels are well defined.

    python3 tests/pointers/random_ptr.py --count 40 --seed 1 --build-dir /tmp/rp [-j 2]

writes the kernels and specs to BUILD_DIR/corpus and runs tests/e2e/run_corpus.py on them
(same environment variables/tool lookup as the corpus driver, or --k2s/--k2s-run/--clref).
Exit status: the driver's, and 1 when any run was not compared (no PoCL reference).
"""
import argparse
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# view type -> (size in bytes, expression turning a value of it into a uint, uint -> value)
VIEWS = {
    "uchar": (1, "(uint)({})", "(uchar)({})"),
    "ushort": (2, "(uint)({})", "(ushort)({})"),
    "uint": (4, "({})", "({})"),
    "int": (4, "as_uint({})", "as_int({})"),
    "float": (4, "as_uint({})", "as_float({})"),
    "uchar4": (4, "as_uint({})", "as_uchar4({})"),
    "ushort2": (4, "as_uint({})", "as_ushort2({})"),
    "uint2": (8, "(({0}).x ^ (({0}).y * 3u))", "(uint2)({0}, {0} ^ 0x9e3779b9u)"),
    "float2": (8, "(as_uint(({0}).x) + as_uint(({0}).y))", "as_float2((uint2)({0}, {0} + 7u))"),
    "ulong": (8, "(uint)(({0}) ^ (({0}) >> 29))", "((ulong)({0}) * 0x100000001ul)"),
    "uint4": (16, "(({0}).x + ({0}).y * 5u + ({0}).z * 7u + ({0}).w)",
              "(uint4)({0}, {0} + 1u, {0} * 3u, ~{0})"),
    "float4": (16, "(as_uint(({0}).x) ^ as_uint(({0}).w))",
               "as_float4((uint4)({0}, {0} >> 3, {0} << 2, {0} ^ 5u))"),
}
DECLS = ["uint", "float", "uchar", "ushort2", "float4", "int"]
REGIONS = ["G", "H", "L", "P"]  # two global buffers, local, private
SPACE = {"G": "global", "H": "global", "L": "local", "P": "private"}


def base(r):
    return {"G": "gw", "H": "hw", "L": "lw", "P": "pw"}[r]


def access(rng, lines, ind, write):
    r = rng.choice(REGIONS)
    v = rng.choice(list(VIEWS))
    size, to_u, from_u = VIEWS[v]
    off = rng.randrange(0, 64 // size) * size
    ptr = f"(({SPACE[r]} a_{v} *)({base(r)} + {off}))"
    if write:
        lines.append(f"{ind}*{ptr} = {from_u.format('acc')};")
    else:
        lines.append(f"{ind}acc = acc * 31u + {to_u.format('*' + ptr)};")


def gen_kernel(rng, name):
    decl_g, decl_h = rng.choice(DECLS), rng.choice(DECLS)
    lines = [f"kernel void {name}(global {decl_g} *g, global {decl_h} *h, global uint *out)", "{",
             "    size_t i = get_global_id(0), li = get_local_id(0);",
             "    local uint lm[64 * 16];",
             "    uint pm[16];",
             "    global uchar *gw = (global uchar *)g + 64 * i;",
             "    global uchar *hw = (global uchar *)h + 64 * i;",
             "    local uchar *lw = (local uchar *)lm + 64 * li;",
             "    uchar *pw = (uchar *)pm;",
             "    for (int k = 0; k < 16; ++k) {",
             "        pm[k] = ((global a_uint *)gw)[k] ^ (uint)k;",
             "        lm[16 * li + k] = ((global a_uint *)hw)[k] + (uint)i;",
             "    }",
             "    uint acc = (uint)i;"]
    for _ in range(rng.randrange(4, 12)):
        kind = rng.random()
        if kind < 0.55:
            access(rng, lines, "    ", write=rng.random() < 0.45)
        elif kind < 0.7:  # select between two regions of the same space class
            v = rng.choice(["uint", "float", "ushort", "uchar4"])
            size, to_u, from_u = VIEWS[v]
            r1, r2 = rng.choice([("G", "H"), ("P", "P"), ("G", "G"), ("L", "L")])
            o1, o2 = (rng.randrange(0, 64 // size) * size for _ in range(2))
            sp = SPACE[r1]
            lines.append(f"    {{ {sp} a_{v} *q = (acc & 1u) ? ({sp} a_{v} *)({base(r1)} + {o1})"
                         f" : ({sp} a_{v} *)({base(r2)} + {o2});")
            if rng.random() < 0.5:
                lines.append(f"      acc = acc * 31u + {to_u.format('*q')}; }}")
            else:
                lines.append(f"      *q = {from_u.format('acc')}; }}")
        elif kind < 0.85:  # a moving pointer in a loop
            r = rng.choice(REGIONS)
            v = rng.choice(["uchar", "ushort", "uint", "float", "uint2"])
            size, to_u, from_u = VIEWS[v]
            n = rng.randrange(1, 64 // size + 1)
            start = rng.randrange(0, 64 // size - n + 1) * size
            sp = SPACE[r]
            lines.append(f"    for ({sp} a_{v} *q = ({sp} a_{v} *)({base(r)} + {start}),"
                         f" *e = q + {n}; q < e; ++q)")
            if rng.random() < 0.6:
                lines.append(f"        acc = acc * 31u + {to_u.format('*q')};")
            else:
                lines.append(f"        *q = {from_u.format('acc ^ (uint)(e - q)')};")
        else:  # copy 4..32 bytes between windows, word or byte steps
            r1, r2 = rng.choice(REGIONS), rng.choice(REGIONS)
            if r1 == r2:
                r2 = "P" if r1 != "P" else "G"
            n = rng.choice([4, 8, 16, 32])
            o1 = rng.randrange(0, (64 - n) // 4 + 1) * 4
            o2 = rng.randrange(0, (64 - n) // 4 + 1) * 4
            t = rng.choice(["uchar", "uint"])
            cnt = n if t == "uchar" else n // 4
            lines.append(f"    for (int k = 0; k < {cnt}; ++k) (({SPACE[r1]} a_{t} *)({base(r1)} + {o1}))[k]"
                         f" = (({SPACE[r2]} a_{t} *)({base(r2)} + {o2}))[k];")
    lines += ["    barrier(CLK_LOCAL_MEM_FENCE);",
              "    for (int k = 0; k < 16; ++k)",
              "        acc = acc * 17u + pm[k] + lm[16 * li + k] * 3u;",
              "    out[i] = acc;", "}"]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build-dir", default="/tmp/k2s-random-ptr")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--envs", default="vulkan1.1")
    ap.add_argument("--k2s-options", default="", help="extra k2s options for every run")
    ap.add_argument("--k2s", help="passed to run_corpus.py (default: its lookup)")
    ap.add_argument("--k2s-run", help="passed to run_corpus.py")
    ap.add_argument("--clref", help="passed to run_corpus.py")
    ap.add_argument("--emit-plan", metavar="FILE",
                    help="translate and validate only; write run_corpus.py's plan for "
                    "--replay-plan on another machine (tools/device/pointers.sh)")
    opts = ap.parse_args()
    corpus = os.path.join(opts.build_dir, "corpus")
    os.makedirs(corpus, exist_ok=True)
    for f in os.listdir(corpus):
        os.unlink(os.path.join(corpus, f))
    rng = random.Random(opts.seed)
    for n in range(opts.count):
        name = f"rp{opts.seed}_{n}"
        with open(os.path.join(corpus, name + ".cl"), "w") as f:
            f.write(f"// generated by tests/pointers/random_ptr.py --seed {opts.seed} (kernel {n})\n")
            for v in VIEWS:
                f.write(f"typedef {v} __attribute__((may_alias)) a_{v};\n")
            f.write(gen_kernel(rng, "k") + "\n")
        with open(os.path.join(corpus, name + ".spec"), "w") as f:
            f.write("kernel: k\nglobal: 64\nlocal: 16\n"
                    f"arg: buffer:uint:1024=rand:{opts.seed * 1000 + n}\n"
                    f"arg: buffer:uint:1024=rand:{opts.seed * 1000 + n + 500}\n"
                    "arg: buffer:uint:64=zeros\n")
            if opts.k2s_options:
                f.write(f"k2s: {opts.k2s_options}\n")
    cmd = [sys.executable, os.path.join(REPO, "tests", "e2e", "run_corpus.py"), "--corpus", corpus,
           "--build-dir", os.path.join(opts.build_dir, "e2e"), "-j", str(opts.jobs),
           "--envs", opts.envs]
    for tool in ("k2s", "k2s_run", "clref"):
        if getattr(opts, tool):
            cmd += ["--" + tool.replace("_", "-"), getattr(opts, tool)]
    if opts.emit_plan:
        cmd += ["--emit-plan", opts.emit_plan]
        return subprocess.run(cmd).returncode
    # The driver passes a run it could not compare (no PoCL reference: SKIP); here every
    # kernel must have been compared, or the test proves nothing.
    p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(p.stdout)
    want = opts.count * len(opts.envs.split(","))
    passed = sum(1 for l in p.stdout.splitlines() if l.startswith("PASS "))
    if p.returncode == 0 and passed != want:
        print(f"random_ptr.py: {passed} of {want} runs compared equal with PoCL "
              "(the others were skipped: no reference)")
        return 1
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
