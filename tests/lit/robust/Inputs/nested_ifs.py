#!/usr/bin/env python3
"""Prints the SPIR-V assembly of a kernel with N nested ifs (a scaling input for
structurize and the resource budget; docs/robustness.md): usage: nested_ifs.py N
then: spirv-as --target-env spv1.0 - -o OUT.spv"""
import sys

n = int(sys.argv[1])
out = ["""OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%void = OpTypeVoid
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %ptr
%c1 = OpConstant %uint 1
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
%entry = OpLabel
%x = OpLoad %uint %p
OpBranch %h0"""]
for d in range(n):
    out.append(f"""%h{d} = OpLabel
%v{d} = OpIAdd %uint %x %c1
%b{d} = OpUGreaterThan %bool %v{d} %x
OpBranchConditional %b{d} %h{d + 1} %m{d}""")
out.append(f"""%h{n} = OpLabel
OpStore %p %c1
OpBranch %m{n - 1}""")
for d in range(n - 1, -1, -1):
    out.append(f"%m{d} = OpLabel\nOpBranch {f'%m{d - 1}' if d > 0 else '%end'}")
out.append("%end = OpLabel\nOpReturn\nOpFunctionEnd")
print("\n".join(out))
