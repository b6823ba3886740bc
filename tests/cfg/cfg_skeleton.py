#!/usr/bin/env python3
"""Structural oracle for the structurize pass.

spirv-val checks the structured control-flow rules only for Shader modules. This
script keeps the control flow of every function of a module (blocks in order,
OpSelectionMerge/OpLoopMerge, branches, switches, returns) and drops everything
else, producing a small GLCompute Shader module that spirv-val can judge:

    cfg_skeleton.py IN.spv -o OUT.spvasm
    spirv-as --target-env vulkan1.1 OUT.spvasm -o OUT.spv && spirv-val --target-env vulkan1.1 OUT.spv

Conditions become loads of a Private bool, switch selectors loads of a Private uint
(case literals renumbered 0, 1, ... in order, so 64-bit selectors need no Int64).
"""
import argparse
import subprocess
import sys

HEADER = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %k2s_main "k2s_main"
OpExecutionMode %k2s_main LocalSize 1 1 1
%k2s_void = OpTypeVoid
%k2s_fn = OpTypeFunction %k2s_void
%k2s_bool = OpTypeBool
%k2s_uint = OpTypeInt 32 0
%k2s_pb = OpTypePointer Private %k2s_bool
%k2s_pu = OpTypePointer Private %k2s_uint
%k2s_cv = OpVariable %k2s_pb Private
%k2s_sv = OpVariable %k2s_pu Private
%k2s_main = OpFunction %k2s_void None %k2s_fn
%k2s_main_entry = OpLabel
OpReturn
OpFunctionEnd
"""


def skeleton(text):
    out = [HEADER]
    tmp = 0
    in_func = False
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        toks = line.split()
        if "=" in toks and toks[1] == "=":
            res, op, args = toks[0], toks[2], toks[3:]
        else:
            res, op, args = None, toks[0], toks[1:]
        if op == "OpFunction":
            in_func = True
            out.append(f"{res}_fn = OpFunction %k2s_void None %k2s_fn")
        elif op == "OpFunctionEnd":
            in_func = False
            out.append("OpFunctionEnd")
        elif not in_func:
            continue
        elif op == "OpLabel":
            out.append(f"{res} = OpLabel")
        elif op in ("OpSelectionMerge", "OpLoopMerge"):
            out.append(line)
        elif op == "OpBranch":
            out.append(line)
        elif op == "OpBranchConditional":
            tmp += 1
            out.insert(len(out) - (1 if out[-1].startswith(("OpSelectionMerge", "OpLoopMerge")) else 0),
                       f"%k2s_c{tmp} = OpLoad %k2s_bool %k2s_cv")
            out.append(f"OpBranchConditional %k2s_c{tmp} {args[1]} {args[2]}")
        elif op == "OpSwitch":
            tmp += 1
            out.insert(len(out) - (1 if out[-1].startswith(("OpSelectionMerge", "OpLoopMerge")) else 0),
                       f"%k2s_s{tmp} = OpLoad %k2s_uint %k2s_sv")
            cases = args[2:]
            parts = [f"%k2s_s{tmp}", args[1]]
            for i in range(0, len(cases), 2):
                parts += [str(i // 2), cases[i + 1]]
            out.append("OpSwitch " + " ".join(parts))
        elif op in ("OpReturn", "OpReturnValue", "OpKill", "OpTerminateInvocation"):
            out.append("OpReturn")
        elif op == "OpUnreachable":
            out.append("OpUnreachable")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = subprocess.run(["spirv-dis", "--raw-id", a.input], check=True,
                          capture_output=True, text=True).stdout
    s = skeleton(text)
    if a.output == "-":
        sys.stdout.write(s)
    else:
        with open(a.output, "w") as f:
            f.write(s)


if __name__ == "__main__":
    main()
