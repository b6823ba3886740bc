#!/usr/bin/env python3
"""Generates docs/builtins.md: one row per OpenCL.std instruction of the installed
SPIR-V grammar, with what k2s does with it.

The facts come from the grammar and the code: the instructions the math pass sends to
its library (passes/lower_math.c's table), the ones the builtins pass has a lowering for
(the `case K2S_OPENCL_STD_x:` labels of passes/lower_builtins.c and the 8/16-lane
handling of passes/lower_wide_vectors.c), and a description per instruction below.
--check fails when the committed table differs from what this script generates (a new
grammar instruction, a lowering added or removed without its row), when an instruction
has no description, or when a description contradicts the code (a row that says
"rejected" for an instruction the pass lowers, or the reverse).

    python3 tests/lit/builtins/Inputs/builtins_table.py > docs/builtins.md
    python3 tests/lit/builtins/Inputs/builtins_table.py --check docs/builtins.md
"""
import argparse
import json
import os
import re
import sys

GRAMMAR = "/usr/include/spirv/unified1/extinst.opencl.std.100.grammar.json"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))

# The builtins pass's lowering of each instruction (for every type the math pass leaves
# to it). "REJECT: reason" marks an instruction the pass rejects with that reason.
INT = "integer (char..ulong, vectors)"
B = {
    # integer
    "s_abs": "select(x < 0, -x, x); abs(INT_MIN) is INT_MIN's bits as unsigned",
    "u_abs": "x",
    "s_abs_diff": "compare, then the difference taken the non-negative way (never overflows)",
    "u_abs_diff": "compare, then the difference taken the non-negative way",
    "s_add_sat": "wrapping add; overflow from the operands' and the sum's sign bits selects INT_MIN/INT_MAX",
    "u_add_sat": "x + min(y, ~x)",
    "s_sub_sat": "wrapping subtract; overflow from the sign bits selects INT_MIN/INT_MAX",
    "u_sub_sat": "x - min(x, y)",
    "s_hadd": "(x >> 1) + (y >> 1) + (x & y & 1), arithmetic shifts",
    "u_hadd": "(x >> 1) + (y >> 1) + (x & y & 1)",
    "s_rhadd": "(x >> 1) + (y >> 1) + ((x | y) & 1), arithmetic shifts",
    "u_rhadd": "(x >> 1) + (y >> 1) + ((x | y) & 1)",
    "s_clamp": "signed min(max(x, lo), hi) as compares and selects",
    "u_clamp": "unsigned min(max(x, lo), hi) as compares and selects",
    "s_max": "signed compare + select", "u_max": "unsigned compare + select",
    "s_min": "signed compare + select", "u_min": "unsigned compare + select",
    "s_mul_hi": "8/16-bit: 32-bit product shifted; 32/64-bit: OpSMulExtended's high half",
    "u_mul_hi": "8/16-bit: 32-bit product shifted; 32/64-bit: OpUMulExtended's high half",
    "s_mad_hi": "mul_hi + add", "u_mad_hi": "mul_hi + add",
    "s_mad_sat": "exact a*b+c (32-bit arithmetic, or OpSMulExtended + OpIAddCarry), saturated",
    "u_mad_sat": "exact a*b+c (32-bit arithmetic, or OpUMulExtended + OpIAddCarry), saturated",
    "rotate": "(v << n) | (v >> (w - n)) with n taken mod the width",
    "clz": "31 - FindUMsb on 32-bit pieces (64-bit: per half; 8/16-bit: minus the padding)",
    "ctz": "FindILsb capped at the width (64-bit: per half)",
    "popcount": "OpBitCount on 32-bit pieces (Vulkan allows only 32-bit OpBitCount)",
    "s_mad24": "full multiply-add: exact wherever OpenCL defines the result (24-bit operands)",
    "u_mad24": "full multiply-add: exact wherever OpenCL defines the result (24-bit operands)",
    "s_mul24": "full multiply: exact wherever OpenCL defines the result (24-bit operands)",
    "u_mul24": "full multiply: exact wherever OpenCL defines the result (24-bit operands)",
    "s_upsample": "sign-extend hi, zero-extend lo, (hi << w) | lo",
    "u_upsample": "zero-extend both, (hi << w) | lo",
    # exact and common float functions
    "fabs": "GLSL FAbs (exact)",
    "copysign": "sign bit moved with integer operations on the bit patterns (exact)",
    "ceil": "GLSL Ceil (exact)", "floor": "GLSL Floor (exact)", "trunc": "GLSL Trunc (exact)",
    "rint": "GLSL RoundEven (exact)",
    "round": "trunc(x) or trunc(x) ± 1 selected on |x - trunc(x)| >= 0.5 (exact; keeps -0)",
    "fmin": "GLSL NMin (a NaN operand gives the other operand, as OpenCL asks)",
    "fmax": "GLSL NMax (a NaN operand gives the other operand, as OpenCL asks)",
    "fmin_common": "GLSL NMin", "fmax_common": "GLSL NMax",
    "fclamp": "GLSL NMin(NMax(x, lo), hi)",
    "maxmag": "compare |x| and |y|, fmax on a tie or NaN (exact)",
    "minmag": "compare |x| and |y|, fmin on a tie or NaN (exact)",
    "mad": "GLSL Fma: OpenCL allows one rounding or two, and Vulkan's Fma has the same "
           "latitude (the driver may fuse it; no NoContraction)",
    "fdim": "x - y, or +0 when x <= y (NaN propagates); one rounding",
    "sign": "±1.0, ±0 kept, 0 for NaN, by compares and selects",
    "step": "compare + select of 0.0 / 1.0",
    "smoothstep": "t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2t)",
    "mix": "x + (y - x) * a",
    "degrees": "x * (180/π) rounded once (≤ 1.5 ulp; OpenCL: 2 ulp)",
    "radians": "x * (π/180) rounded once (≤ 1.5 ulp; OpenCL: 2 ulp)",
    "fract": "min(x - floor(x), largest value below 1), floor(x) stored; ±0 and ±inf give ±0 "
             "as OpenCL's edge cases ask (PoCL gives +0) (exact)",
    "modf": "x - trunc(x) with x's sign, trunc(x) stored; ±inf gives ±0 (exact)",
    "nan": "a quiet NaN with the code in the mantissa",
    "fmod": "exact: long division of the integer mantissas on the bit patterns (32-bit "
            "integers, unrolled, for half/float; 64-bit, a loop per lane, for double)",
    "remainder": "exact: fmod's long division plus round-half-even of the quotient",
    "remquo": "exact: as remainder; *quo gets the quotient's sign and low 7 bits",
    "frexp": "exact: normalises the bit pattern (subnormals too) with integer operations",
    "ldexp": "exact: exponent arithmetic on the bit pattern, one round-to-nearest-even "
             "where the result is subnormal, ±inf past the range",
    "ilogb": "exact: exponent field, or the leading bit of a subnormal; FP_ILOGB0 = INT_MIN, "
             "FP_ILOGBNAN = INT_MAX (clang's OpenCL headers)",
    "logb": "exact: ilogb as a float; -inf for ±0, +inf for ±inf, NaN kept",
    "nextafter": "exact: ±1 on the bit pattern ordered as a signed integer; the smallest "
                 "subnormal away from ±0; y when x == y; NaN propagates",
    # math the library covers for float/half; the double forms the builtins pass sees
    "sqrt": "GLSL Sqrt (Vulkan's double precision is float-level for all arithmetic alike)",
    "rsqrt": "GLSL InverseSqrt",
    "fma": "one rounding, in integer arithmetic: the exact 106-bit product (OpUMulExtended) and "
           "the addend in 128-bit frames, sticky-bit alignment, round to nearest even",
    # half_ (OpenCL: 8192 ulp)
    "half_divide": "OpFDiv (Vulkan: 2.5 ulp)", "half_recip": "1.0 / x (Vulkan: 2.5 ulp)",
    "half_exp": "GLSL Exp (Vulkan: 3 + 2|x| ulp)", "half_exp2": "GLSL Exp2 (Vulkan: 3 + 2|x| ulp)",
    "half_exp10": "GLSL Exp2(x * log2(10))",
    "half_sqrt": "GLSL Sqrt", "half_rsqrt": "GLSL InverseSqrt",
    "half_cos": "REJECT: Vulkan's cos has only an absolute error bound",
    "half_sin": "REJECT: Vulkan's sin has only an absolute error bound",
    "half_tan": "REJECT: Vulkan's tan is derived from sin/cos (absolute error)",
    "half_log": "REJECT: Vulkan's log has only an absolute error bound near 1",
    "half_log2": "REJECT: Vulkan's log2 has only an absolute error bound near 1",
    "half_log10": "REJECT: Vulkan's log has only an absolute error bound near 1",
    "half_powr": "REJECT: Vulkan's pow is exp2(y * log2(x)), unbounded in ulp",
    # native_ (implementation-defined precision)
    "native_cos": "GLSL Cos", "native_sin": "GLSL Sin", "native_tan": "GLSL Tan",
    "native_divide": "OpFDiv", "native_recip": "1.0 / x",
    "native_exp": "GLSL Exp", "native_exp2": "GLSL Exp2", "native_exp10": "GLSL Exp2(x * log2(10))",
    "native_log": "GLSL Log", "native_log2": "GLSL Log2", "native_log10": "GLSL Log2(x) * log10(2)",
    "native_powr": "GLSL Pow", "native_rsqrt": "GLSL InverseSqrt", "native_sqrt": "GLSL Sqrt",
    # geometric
    "cross": "a.yzx·b.zxy − a.zxy·b.yzx with NoContraction products (4 lanes: w = 0); not GLSL Cross, whose products a driver may fuse (NVIDIA does)",
    "distance": "length(p0 - p1)",
    "length": "sqrt(dot(p, p)) with p scaled by a power of two when the sum over- or underflows",
    "normalize": "p / length(p); p itself for a zero vector; infinite lanes become ±1, the others 0",
    "fast_distance": "GLSL Sqrt of the dot product (OpenCL: half_sqrt precision)",
    "fast_length": "GLSL Sqrt of the dot product (OpenCL: half_sqrt precision)",
    "fast_normalize": "p * InverseSqrt(dot(p, p)); p for a zero vector",
    # relational / selection
    "bitselect": "(a & ~c) | (b & c) (floats as integer bit patterns)",
    "select": "OpSelect on c != 0 (scalar) or the top bit of each lane (vector)",
    "shuffle": "constant mask: OpVectorShuffle; run-time mask: per-lane dynamic extracts; "
               "only the mask's low log2(n) bits count",
    "shuffle2": "as shuffle over the lanes of x then y",
    # memory
    "vloadn": "one load per lane through an access chain from the pointer's element index "
              "(--pointers=physical: OpPtrAccessChain from the address, Aligned)",
    "vstoren": "one store per lane through an access chain",
    "vload_half": "load a half (or ushort) and widen exactly",
    "vload_halfn": "per-lane half loads, widened exactly",
    "vloada_halfn": "as vload_halfn; a 3-lane vector takes the room of 4",
    "vstore_half": "round to nearest even on the float or double bit pattern, then an exact convert",
    "vstore_half_r": "_rte/_rtz/_rtp/_rtn rounding on the float's bit pattern (bit-exact); "
                     "double data rounded once on its own bit pattern",
    "vstore_halfn": "per lane as vstore_half", "vstore_halfn_r": "per lane as vstore_half_r",
    "vstorea_halfn": "as vstore_halfn; a 3-lane vector takes the room of 4",
    "vstorea_halfn_r": "as vstore_halfn_r; a 3-lane vector takes the room of 4",
    "prefetch": "dropped (a hint without effect on results)",
    "lgamma_r": "REJECT: Vulkan has no lgamma, and the math library has no lgamma_r yet",
    "printf": "a record in the printf buffer (format id + argument bytes), formats in the "
              "reflection; the host prints it (docs/runtime-abi.md, \"printf\"); returns 0, "
              "or -1 when the buffer is full",
}

# Instructions a pass of their own lowers (name: (pass name, its file)); the file must
# name the instruction's enumerant.
OTHER_PASSES = {"printf": ("printf", "lower_printf.c")}

PRECISION_REJECT = ("REJECT: Vulkan's GLSL.std.450 precision is looser than OpenCL's bound "
                    "and the math library has no double version")


def cases(path, func):
    """The K2S_OPENCL_STD_x case labels inside C function `func` of file `path` that
    lower the instruction (a case whose code reports an error does not count)."""
    src = open(path).read()
    start = src.find(f"static uint32_t {func}(")
    if start < 0:
        sys.exit(f"builtins_table: {func} not found in {path}")
    body = src[start:src.find("\n}\n", start)]
    labels = list(re.finditer(r"(?:case K2S_OPENCL_STD_(\w+)|default):", body))
    found = set()
    for k, lab in enumerate(labels):
        if lab.group(1) is None:
            continue
        # the code of this label runs up to the next label that has code of its own
        nxt = next((l for l in labels[k + 1:] if body[lab.end():l.start()].strip()), None)
        code = body[lab.end():nxt.start() if nxt else len(body)]
        if "k2s_error(" not in code:
            found.add(lab.group(1))
    return found


def math_library(path):
    src = open(path).read()
    return set(re.findall(r"\{O\((\w+)\),", src))


def library_doubles(clc_dir):
    """Stems with a double version (__k2s_<stem>_f64) in the library sources."""
    found = set()
    for f in sorted(os.listdir(clc_dir)):
        if f.endswith(".cl"):
            found |= set(re.findall(r"__k2s_(\w+?)_f64\b", open(os.path.join(clc_dir, f)).read()))
    return found


def generate(grammar, repo):
    g = json.load(open(grammar))
    lowered = cases(os.path.join(repo, "passes", "lower_builtins.c"), "lower_opencl")
    library = math_library(os.path.join(repo, "passes", "lower_math.c"))
    doubles = library_doubles(os.path.join(repo, "src", "clc"))
    problems = []
    rows = []
    for ins in g["instructions"]:
        name, num = ins["opname"], ins["opcode"]
        desc = B.get(name)
        if name in library and desc is None:
            desc = PRECISION_REJECT
        if desc is None:
            problems.append(f"{name}: no description in builtins_table.py")
            continue
        reject = desc.startswith("REJECT: ")
        if name in OTHER_PASSES:
            pass_name, pass_file = OTHER_PASSES[name]
            with open(os.path.join(repo, "passes", pass_file)) as f:
                if f"K2S_OPENCL_STD_{name}" not in f.read():
                    problems.append(f"{name}: passes/{pass_file} does not lower it")
            rows.append(f"| {num} | `{name}` | {pass_name} | {desc} |")
            continue
        if reject and name in lowered:
            problems.append(f"{name}: described as rejected, but lower_builtins.c lowers it")
        if not reject and name not in lowered:
            problems.append(f"{name}: described as lowered, but lower_builtins.c has no case")
        text = "error: " + desc[8:] if reject else desc
        if name in library and name.startswith("half_"):
            status = "library"
            text = ("a call into k2s's precise builtin library (math pass, `lower_math.c`); "
                    "OpenCL defines half_ functions for float only")
        elif name in library and name in doubles:
            status = "library"
            text = ("a call into k2s's precise builtin library (math pass, `lower_math.c`; "
                    "half computed in float)")
        elif name in library:
            status = "library (float, half); " + ("**error** (double)" if reject else "builtins (double)")
            text = ("float, half: a call into k2s's precise builtin library (math pass, "
                    "`lower_math.c`); double: " + text)
        else:
            status = "**error**" if reject else "builtins"
        rows.append(f"| {num} | `{name}` | {status} | {text} |")
    out = [
        "# OpenCL.std instructions in k2s",
        "",
        "Generated by `tests/lit/builtins/Inputs/builtins_table.py` from the installed grammar",
        f"(`{os.path.basename(grammar)}`, {len(g['instructions'])} instructions) and the passes;",
        "a lit test (`tests/lit/builtins/table.test`) fails when this file is out of date.",
        "",
        "Every instruction is lowered for every scalar and vector type it takes, unless its row",
        "says **error**: then k2s stops with a message naming the builtin, the instruction and",
        "its word offset, and writes nothing. 8- and 16-lane vectors are first split into",
        "4-lane pieces (wide-vectors pass: vloadn/vstoren/vload_halfn/vstore_halfn with",
        "rescaled offsets, shuffle/shuffle2 expanded, the rest issued per piece); the math",
        "pass calls its library once per lane. Half arithmetic computes in float where a row",
        "says so. Passes: `lower_math.c` (math), `lower_wide_vectors.c` (wide-vectors),",
        "`lower_builtins.c` (builtins). \"exact\" means bit-exact as OpenCL requires (0 ulp).",
        "With `--no-int64`, the bit-pattern lowerings on double are refused with a message;",
        "those on half and float use 32-bit integers only.",
        "",
        "The Kernel-only relational instructions (`OpIsFinite`, `OpIsNormal`, `OpSignBitSet`,",
        "`OpOrdered`, `OpUnordered`, `OpLessOrGreater`) become exponent-field tests, NaN tests",
        "and ordered compares; `OpBitCount` on other widths than 32 is counted per 32-bit piece.",
        "`cl_khr_extended_bit_ops` (SPV_KHR_bit_instructions: `OpBitFieldInsert`,",
        "`OpBitFieldSExtract`/`UExtract`, `OpBitReverse`) on char, short and long: Vulkan allows",
        "them on 32-bit values only, so 8/16-bit ones go through the 32-bit instruction and",
        "truncate, 64-bit ones are shifts and masks (a count of 0 gives 0; a bit reverse swaps",
        "the reversed 32-bit halves); corpus `bit_ops_widths`, lit `builtins/bit-instructions-widths`.",
        "",
        "Verified by running (lavapipe against PoCL, `tests/e2e/run_corpus.py`): `int_builtins`,",
        "`builtins_int` (integer functions, every width, vectors), `builtins_exact` (fmod,",
        "remainder, remquo, frexp, ldexp, ilogb, logb, nextafter on raw random bit patterns,",
        "float/double/float4/double2), `builtins_common` (exact common functions on raw bit",
        "patterns, float and double), `builtins_float`, `builtins_double`, `builtins_geom`,",
        "`builtins_half` (half loads/stores, all roundings, from float and double),",
        "`builtins_vload`, `builtins_vload_spaces` (every address space and element type),",
        "`builtins_wide` (8/16 lanes), `select_relational`, `select_relational_special`",
        "(Kernel-only relational instructions on NaN/inf/subnormal patterns). PoCL has no",
        "cl_khr_fp16, so the exact functions on half are checked exhaustively against the",
        "float functions rounded to half instead: `tests/lit/builtins/Inputs/half_exact.sh",
        "BUILD_DIR` (all 14 functions bit-exact on all 65536 half inputs on lavapipe).",
        "",
        "| # | instruction | handled by | lowering |",
        "|---|---|---|---|",
    ] + rows
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from collectives_rows import SECTION  # work-group and sub-group functions
    return "\n".join(out) + "\n" + SECTION, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grammar", default=GRAMMAR)
    ap.add_argument("--repo", default=REPO)
    ap.add_argument("--check", metavar="TABLE", help="compare with the committed table")
    a = ap.parse_args()
    text, problems = generate(a.grammar, a.repo)
    for p in problems:
        print(f"builtins_table: {p}", file=sys.stderr)
    if a.check:
        old = open(a.check).read()
        g = json.load(open(a.grammar))
        for ins in g["instructions"]:
            if f"| `{ins['opname']}` |" not in old:
                problems.append(f"{ins['opname']}: no row in {a.check}")
                print(f"builtins_table: {ins['opname']}: no row in {a.check}", file=sys.stderr)
        if old != text:
            print(f"builtins_table: {a.check} is out of date; regenerate it with "
                  f"python3 {os.path.relpath(__file__, a.repo)} > {a.check}", file=sys.stderr)
            return 1
        return 1 if problems else 0
    sys.stdout.write(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
