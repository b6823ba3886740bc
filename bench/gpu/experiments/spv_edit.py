#!/usr/bin/env python3
"""Hand edits of a translated module, for timing experiments only (bench/GPU.md, s7):
each edit changes one property of one kernel's code so that the GPU can tell whether that
property is what costs time. Not part of k2s: an edit whose pattern is not found is an
error, and every output is checked with spirv-val.

  spv_edit.py IN.spv OUT.spv --function NAME EDIT [EDIT...]

Edits:
  barrier-none            OpControlBarrier with memory semantics None (an execution
                          barrier only; not what OpenCL's barrier means: timing only)
  no-memory-decorations   drop every NonWritable, Restrict and Aliased decoration
  loop-unroll             the function's OpLoopMerge get LoopControl Unroll
  loop-partial4           ... PartialCount 4 (SPIR-V 1.4)
  loop-maxiter4           ... MaxIterations 4 (SPIR-V 1.4: at most 4 iterations, true of
                          transpose's loops at a local size of 8 in y)
  sat-nclamp8             RoundEven, compares and selects of a saturating float->uchar
                          conversion (k2s before s7) become NClamp(x, 0, 255), RoundEven,
                          ConvertFToU (what k2s emits since s7)
  sat-nclamp32            the same with the conversion to 32 bits, then UConvert to 8
  sat-none                RoundEven and ConvertFToU only (wrong for out-of-range
                          values: a lower bound of the conversion's cost)
"""
import re
import subprocess
import sys
import tempfile


def sh(cmd, data=None):
    p = subprocess.run(cmd, input=data, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"spv_edit: {' '.join(cmd)}: {p.stderr.strip()}")
    return p.stdout


def function_span(lines, name):
    start = next((i for i, l in enumerate(lines)
                  if re.match(rf"\s*%{name} = OpFunction ", l)), None)
    if start is None:
        sys.exit(f"spv_edit: no function %{name}")
    end = next(i for i in range(start, len(lines)) if "OpFunctionEnd" in lines[i])
    return start, end


def sub_in(lines, span, pattern, repl, what):
    n = 0
    for i in range(*span):
        new = re.sub(pattern, repl, lines[i])
        n += new != lines[i]
        lines[i] = new
    if not n:
        sys.exit(f"spv_edit: {what}: nothing to edit")


def saturate(lines, span, mode):
    """Finds a saturating float4->uchar4 conversion: `%R = OpExtInst %v4float %E RoundEven
    %X`, after an `NClamp` that made %X (k2s since s7) or followed by the compares and
    selects of the older lowering, ending in the v4uchar value `%Y`; replaces it all by
    the edit's sequence on the unclamped value."""
    s, e = span
    r = next((i for i in range(s, e) if " RoundEven " in lines[i] and "%v4float" in lines[i]),
             None)
    if r is None:
        sys.exit("spv_edit: sat-*: no v4float RoundEven in the function")
    m = re.match(r"\s*(%\S+) = OpExtInst %v4float (%\S+) RoundEven (%\S+)", lines[r])
    rid, ext, x = m.groups()
    first = r
    c = re.match(rf"\s*{re.escape(x)} = OpExtInst %v4float \S+ NClamp (%\S+)", lines[r - 1])
    if c:
        first, x = r - 1, c.group(1)
    # The chain ends at the last compare/select/conversion after the rounding.
    last = r
    for i in range(r + 1, e):
        if re.search(r"= Op(FOrd|Logical|Select|ConvertFToU)", lines[i]):
            last = i
        else:
            break
    y = re.match(r"\s*(%\S+) =", lines[last]).group(1)
    if "%v4uchar" not in lines[last]:
        sys.exit("spv_edit: sat-*: the chain does not end in a v4uchar")
    if mode == "none":
        body = [f"{rid} = OpExtInst %v4float {ext} RoundEven {x}",
                f"{y} = OpConvertFToU %v4uchar {rid}"]
    else:
        body = [f"%sx_c = OpExtInst %v4float {ext} NClamp {x} %sx_f0 %sx_f255",
                f"{rid} = OpExtInst %v4float {ext} RoundEven %sx_c"]
        if mode == "nclamp8":
            body.append(f"{y} = OpConvertFToU %v4uchar {rid}")
        else:
            body += [f"%sx_u = OpConvertFToU %v4uint {rid}", f"{y} = OpUConvert %v4uchar %sx_u"]
    lines[first:last + 1] = body


def main():
    a = sys.argv[1:]
    if len(a) < 5 or a[2] != "--function":
        sys.exit(__doc__)
    src, dst, fn, edits = a[0], a[1], a[3], a[4:]
    lines = sh(["spirv-dis", src]).splitlines()
    consts = []
    for edit in edits:
        span = function_span(lines, fn)
        if edit == "barrier-none":
            sub_in(lines, span, r"(OpControlBarrier %\S+ %\S+) %\S+", r"\1 %uint_0", edit)
        elif edit == "no-memory-decorations":
            before = len(lines)
            lines = [l for l in lines
                     if not re.search(r"Decorate .* (NonWritable|Restrict|Aliased)$", l)]
            if len(lines) == before:
                sys.exit(f"spv_edit: {edit}: nothing to edit")
        elif edit in ("loop-unroll", "loop-partial4", "loop-maxiter4"):
            ctl = {"loop-unroll": "Unroll", "loop-partial4": "PartialCount 4",
                   "loop-maxiter4": "MaxIterations 4"}[edit]
            sub_in(lines, span, r"(OpLoopMerge %\S+ %\S+) None", rf"\1 {ctl}", edit)
        elif edit.startswith("sat-"):
            mode = edit[4:]
            if mode not in ("nclamp8", "nclamp32", "none"):
                sys.exit(f"spv_edit: unknown edit {edit}")
            saturate(lines, span, mode)
            if mode != "none":
                consts = ["%sx_0 = OpConstant %float 0", "%sx_255 = OpConstant %float 255",
                          "%sx_f0 = OpConstantComposite %v4float %sx_0 %sx_0 %sx_0 %sx_0",
                          "%sx_f255 = OpConstantComposite %v4float %sx_255 %sx_255 %sx_255 "
                          "%sx_255"]
                if mode == "nclamp32" and not any(re.match(r"\s*%v4uint = ", l) for l in lines):
                    consts.insert(0, "%v4uint = OpTypeVector %uint 4")
        else:
            sys.exit(f"spv_edit: unknown edit {edit}")
    if consts:
        first = next(i for i, l in enumerate(lines) if " = OpFunction " in l)
        lines[first:first] = consts
    with tempfile.NamedTemporaryFile("w", suffix=".spvasm") as t:
        t.write("\n".join(lines) + "\n")
        t.flush()
        sh(["spirv-as", "--preserve-numeric-ids", "--target-env", "spv1.5", t.name, "-o", dst])
    sh(["spirv-val", "--target-env", "vulkan1.2", dst])


if __name__ == "__main__":
    main()
