#!/usr/bin/env python3
"""Cost of the conversion lowering (docs/conversions.md): for each representative
conversion, the SPIR-V instructions k2s emits for it (the kernel's function body minus
that of the same kernel with a plain same-width bit copy), and optionally the time of a
conversion-heavy kernel on the Vulkan device, default (precise) against --math=native.

    cost.py --k2s K2S [--k2s-run RUN] [--work DIR] [--device N|NAME] [--stage all|prepare|run]
"""
import argparse
import os
import re
import subprocess
import sys

CASES = [
    # (source, destination, OpenCL function)
    ("float", "int", "convert_int"),
    ("float", "int", "convert_int_rte"),
    ("float", "int", "convert_int_sat"),
    ("float", "int", "convert_int_sat_rte"),
    ("double", "ulong", "convert_ulong_sat_rtp"),
    ("float", "uchar", "convert_uchar_sat_rte"),
    ("float", "char", "convert_char_sat"),
    ("half", "short", "convert_short_sat"),
    ("int", "char", "convert_char_sat"),
    ("uint", "int", "convert_int_sat"),
    ("long", "uchar", "convert_uchar_sat"),
    ("short", "float", "convert_float"),
    ("int", "double", "convert_double"),
    ("int", "float", "convert_float"),
    ("int", "float", "convert_float_rtz"),
    ("int", "float", "convert_float_rtp"),
    ("uint", "float", "convert_float"),
    ("long", "float", "convert_float"),
    ("ulong", "double", "convert_double_rtn"),
    ("int", "half", "convert_half"),
    ("float", "half", "convert_half"),
    ("float", "half", "convert_half_rtz"),
    ("double", "float", "convert_float"),
    ("double", "float", "convert_float_rtp"),
    ("double", "half", "convert_half_rte"),
    ("float", "double", "convert_double_rtp"),
]
SAME = {"float": "uint", "double": "ulong", "half": "ushort"}

KERNEL = """#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global const {s} *in, global {d} *out)
{{
    size_t i = get_global_id(0);
    out[i] = {expr};
}}
"""

# Timing kernel: 16 independent conversions per work-item, summed as integers so
# none is dead.
TIMED = """#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void t(global const {s} *in, global uint *out)
{{
    size_t i = get_global_id(0);
    {s} x = in[i];
    uint acc = 0;
    for (int k = 0; k < 16; k++) {{
        {d} y = {fn}(x + ({s})k);
        acc += {acc};
    }}
    out[i] = acc;
}}
"""


def sh(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stdout}")
    return p.stdout


def translate(o, name, src, extra=()):
    cl = os.path.join(o.work, name + ".cl")
    with open(cl, "w") as f:
        f.write(src)
    bc, spv, vk = (os.path.join(o.work, name + x) for x in (".bc", ".spv", ".vk.spv"))
    sh(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL1.2", "-O2",
        "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc", "-o", bc, cl])
    sh(["llvm-spirv-15", bc, "-o", spv])
    sh([o.k2s, *extra, spv, "-o", vk])
    return vk


def body_size(vk):
    text = sh(["spirv-dis", "--raw-id", vk])
    m = re.search(r"OpFunction .*?OpFunctionEnd", text, re.S)
    return sum(1 for line in m.group(0).splitlines() if "Op" in line and "OpLabel" not in line)


TIMED_CASES = [("int", "float", "convert_float"), ("int", "float", "convert_float_rtp"),
               ("uint", "float", "convert_float"), ("long", "float", "convert_float"),
               ("float", "int", "convert_int_sat_rte"), ("double", "float", "convert_float"),
               ("float", "half", "convert_half")]


def timed_name(s, fn, native):
    return f"t_{fn}_{s}{'_native' if native else ''}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k2s", help="the translator (not needed with --stage run)")
    ap.add_argument("--k2s-run", help="time the kernels on this Vulkan host")
    ap.add_argument("--work", default="conversions-cost")
    ap.add_argument("--device")
    ap.add_argument("--items", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=50, help="k2s-run --time: best of N")
    ap.add_argument("--stage", choices=("all", "prepare", "run"), default="all",
                    help="prepare: count instructions and translate the timed kernels into "
                         "--work; run: only time what --work holds (e.g. on the GPU machine)")
    o = ap.parse_args()
    os.makedirs(o.work, exist_ok=True)
    if o.stage != "run":
        if not o.k2s:
            ap.error("--k2s is needed to prepare")
        print("| conversion | instructions added |")
        print("|---|---|")
        for n, (s, d, fn) in enumerate(CASES):
            t = SAME.get(s, s)
            base = translate(o, f"base{n}", KERNEL.format(s=t, d=t, expr="in[i]"))
            conv = translate(o, f"case{n}", KERNEL.format(s=s, d=d, expr=f"{fn}(in[i])"))
            print(f"| `{fn}({s})` | {body_size(conv) - body_size(base)} |", flush=True)
        for s, d, fn in TIMED_CASES:
            for native in (False, True):
                translate(o, timed_name(s, fn, native), TIMED.format(s=s, d=d, fn=fn, acc="as_ushort(y)" if d == "half" else "as_uint(y)"),
                          ["--math=native"] if native else [])
    if o.stage == "prepare" or not o.k2s_run:
        return
    print()
    print(f"| 16 conversions x {o.items} items (best of {o.repeat}) | default (ms) | --math=native (ms) |")
    print("|---|---|---|")
    for s, d, fn in TIMED_CASES:
        ms = []
        for native in (False, True):
            vk = os.path.join(o.work, timed_name(s, fn, native) + ".vk.spv")
            out = sh([o.k2s_run, vk, "--kernel", "t", "--global", str(o.items), "--time",
                      str(o.repeat), "--arg", f"buffer:{s}:{o.items}=rand:1",
                      "--arg", f"buffer:uint:{o.items}=zeros"] +
                     (["--device", o.device] if o.device else []))
            out = "\n".join(line for line in out.splitlines() if not line.startswith("arg "))
            m = re.search(r"^time: ([0-9.]+) (us|ms|s)\s*$", out, re.M)
            scale = {"us": 1e-3, "ms": 1.0, "s": 1e3}
            ms.append(f"{float(m.group(1)) * scale[m.group(2)]:.3f}" if m else "?")
        print(f"| `{fn}({s})` | {ms[0]} | {ms[1]} |", flush=True)


if __name__ == "__main__":
    main()
