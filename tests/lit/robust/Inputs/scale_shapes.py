#!/usr/bin/env python3
"""Prints the SPIR-V assembly (Kernel dialect, spirv-as --target-env spv1.0) of
a module that grows with N in one direction, for the resource-budget tests
(tests/lit/robust/budget-shapes.test) and the scaling table of bench/RESULTS.md
(bench/scale_shapes.py):

  kernels  N kernels, each a loop over a buffer (many entry points and functions)
  wrapped  the kernels of `kernels` as llvm-spirv 15 emits them: each an exported
           function (LinkageAttributes), called by an entry-point wrapper that
           carries an execution mode (ContractionOff); the value goes through a
           float (finalize gives each kernel float-controls modes)
  nesting  one kernel of N nested ifs (deep selection nesting)
  loops    one kernel of N nested loops (deep loop nesting)
  members  one kernel copying a struct of N int members through a buffer
  seqloops one kernel of N loops one after another, each with a break to a
           block of its own (two exit targets: an exit dispatch per loop)
  switch   one kernel of one OpSwitch with N cases, every third falling
           through into the next
  irreducible  one kernel of N nested loops, the innermost body a cycle of two
           blocks entered at either (an irreducible region N loops deep)
  reductions  one kernel of N work_group_reduce_add in a row (OpGroupIAdd
           Workgroup Reduce), each lowered into new blocks by splitting its block
  switches one kernel of N nested switches, each with a case falling through
           into the next switch (deep switch nesting)
  parts    one kernel with a private array of N elements, element d stored under
           the d-th of N ifs in a row and loaded after it (N parts for
           scalar-replace, a phi each: N variables over 4N blocks to promote)

usage: scale_shapes.py SHAPE N
"""
import sys

HEAD = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
"""
TYPES = """%uint = OpTypeInt 32 0
%bool = OpTypeBool
%void = OpTypeVoid
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %ptr %uint
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
"""


def kernel_body(i, fid):
    return f"""%{fid} = OpFunction %void None %fn
%p{i} = OpFunctionParameter %ptr
%n{i} = OpFunctionParameter %uint
%e{i} = OpLabel
OpBranch %h{i}
%h{i} = OpLabel
%j{i} = OpPhi %uint %c0 %e{i} %jn{i} %b{i}
%t{i} = OpULessThan %bool %j{i} %n{i}
OpLoopMerge %x{i} %b{i} None
OpBranchConditional %t{i} %b{i} %x{i}
%b{i} = OpLabel
%a{i} = OpInBoundsPtrAccessChain %ptr %p{i} %j{i}
%v{i} = OpLoad %uint %a{i} Aligned 4
%w{i} = OpIAdd %uint %v{i} %c{1 if i % 2 else 0}
OpStore %a{i} %w{i} Aligned 4
%jn{i} = OpIAdd %uint %j{i} %c1
OpBranch %h{i}
%x{i} = OpLabel
OpReturn
OpFunctionEnd
"""


def kernels(n):
    out = [HEAD]
    out += [f'OpEntryPoint Kernel %k{i} "k{i}"\n' for i in range(n)]
    out.append(TYPES)
    out += [kernel_body(i, f"k{i}") for i in range(n)]
    return "".join(out)


def wrapped(n):
    out = [HEAD.replace("OpCapability Kernel\n", "OpCapability Kernel\nOpCapability Linkage\n")]
    out += [f'OpEntryPoint Kernel %wk{i} "k{i}"\n' for i in range(n)]
    out += [f"OpExecutionMode %wk{i} ContractionOff\n" for i in range(n)]
    out += [f'OpDecorate %k{i} LinkageAttributes "k{i}" Export\n' for i in range(n)]
    out.append(TYPES + "%float = OpTypeFloat 32\n")
    for i in range(n):
        out.append(kernel_body(i, f"k{i}").replace(
            f"%w{i} = OpIAdd %uint %v{i}",
            f"%f{i} = OpConvertUToF %float %v{i}\n%u{i} = OpConvertFToU %uint %f{i}\n"
            f"%w{i} = OpIAdd %uint %u{i}"))
        out.append(f"""%wk{i} = OpFunction %void None %fn
%wp{i} = OpFunctionParameter %ptr
%wn{i} = OpFunctionParameter %uint
%we{i} = OpLabel
%wc{i} = OpFunctionCall %void %k{i} %wp{i} %wn{i}
OpReturn
OpFunctionEnd
""")
    return "".join(out)


def one_kernel(body):
    return (HEAD + 'OpEntryPoint Kernel %k "k"\n' + TYPES +
            "%k = OpFunction %void None %fn\n%p = OpFunctionParameter %ptr\n"
            "%n = OpFunctionParameter %uint\n%entry = OpLabel\n" + body +
            "OpReturn\nOpFunctionEnd\n")


def innermost_and_merges(n):
    # The innermost block h{n} of n nested constructs, then their merges m{n-1} .. m0.
    out = [f"%h{n} = OpLabel\nOpStore %p %c1 Aligned 4\nOpBranch %m{n - 1}\n"]
    for d in range(n - 1, -1, -1):
        out.append(f"%m{d} = OpLabel\nOpBranch {f'%m{d - 1}' if d > 0 else '%end'}\n")
    return "".join(out) + "%end = OpLabel\n"


def nesting(n):
    out = ["%x = OpLoad %uint %p Aligned 4\nOpBranch %h0\n"]
    for d in range(n):
        out.append(f"%h{d} = OpLabel\n%v{d} = OpIAdd %uint %x %c1\n"
                   f"%b{d} = OpUGreaterThan %bool %v{d} %n\n"
                   f"OpSelectionMerge %m{d} None\nOpBranchConditional %b{d} %h{d + 1} %m{d}\n")
    out.append(innermost_and_merges(n))
    return one_kernel("".join(out))


def loops(n):
    # for (i0 < n) for (i1 < n) ... p[0] += 1: loop d's header h{d}, body b{d},
    # latch l{d} (its continue target), exit x{d}.
    out = [f"OpBranch %h0\n"]
    pred = "%entry"
    for d in range(n):
        out.append(f"%h{d} = OpLabel\n%i{d} = OpPhi %uint %c0 {pred} %in{d} %l{d}\n"
                   f"%t{d} = OpULessThan %bool %i{d} %n\n"
                   f"OpLoopMerge %x{d} %l{d} None\nOpBranchConditional %t{d} %b{d} %x{d}\n"
                   f"%b{d} = OpLabel\n")
        out.append(f"OpBranch %h{d + 1}\n" if d + 1 < n else "")
        pred = f"%b{d}"
    out.append("%v = OpLoad %uint %p Aligned 4\n%w = OpIAdd %uint %v %c1\n"
               "OpStore %p %w Aligned 4\n" + f"OpBranch %l{n - 1}\n")
    for d in range(n - 1, -1, -1):
        out.append(f"%l{d} = OpLabel\n%in{d} = OpIAdd %uint %i{d} %c1\nOpBranch %h{d}\n"
                   f"%x{d} = OpLabel\n")
        out.append(f"OpBranch %l{d - 1}\n" if d > 0 else "")
    return one_kernel("".join(out))


def irreducible(n):
    # loops(n) whose innermost body enters a two-block cycle (ia <-> ib) at either block.
    body = ("%v = OpLoad %uint %p Aligned 4\n%q = OpULessThan %bool %v %n\n"
            "OpBranchConditional %q %ia %ib\n"
            "%ia = OpLabel\n%wa = OpIAdd %uint %v %c1\nOpStore %p %wa Aligned 4\n"
            "%qa = OpULessThan %bool %wa %n\nOpBranchConditional %qa %ib %l{last}\n"
            "%ib = OpLabel\n%wb = OpLoad %uint %p Aligned 4\n"
            "%qb = OpUGreaterThan %bool %wb %n\nOpBranchConditional %qb %ia %l{last}\n")
    plain = ("%v = OpLoad %uint %p Aligned 4\n%w = OpIAdd %uint %v %c1\n"
             "OpStore %p %w Aligned 4\n" + f"OpBranch %l{n - 1}\n")
    m = loops(n)
    assert plain in m
    return m.replace(plain, body.replace("{last}", str(n - 1)))


def members(n):
    types = "".join(f"%m{i} = OpConstant %uint {i}\n" for i in range(n))
    st = "%st = OpTypeStruct" + " %uint" * n + "\n%sptr = OpTypePointer CrossWorkgroup %st\n"
    body = ["%q = OpBitcast %sptr %p\n%s = OpLoad %st %q Aligned 4\n"]
    for i in range(n):
        prev = "%s" if i == 0 else f"%s{i - 1}"
        body.append(f"%e{i} = OpCompositeExtract %uint %s {i}\n%f{i} = OpIAdd %uint %e{i} %n\n"
                    f"%s{i} = OpCompositeInsert %st %f{i} {prev} {i}\n")
    body.append(f"%q2 = OpInBoundsPtrAccessChain %sptr %q %c1\nOpStore %q2 %s{n - 1} Aligned 4\n")
    m = one_kernel("".join(body))
    return m.replace(TYPES, TYPES + types + st)


def seqloops(n):
    # loop d: header h{d} (exit x{d}), body b{d} (break to r{d}), latch l{d}.
    out = ["OpBranch %h0\n"]
    pred = "%entry"
    for d in range(n):
        out.append(f"%h{d} = OpLabel\n%i{d} = OpPhi %uint %c0 {pred} %in{d} %l{d}\n"
                   f"%t{d} = OpULessThan %bool %i{d} %n\nOpBranchConditional %t{d} %b{d} %x{d}\n"
                   f"%b{d} = OpLabel\n%v{d} = OpLoad %uint %p Aligned 4\n"
                   f"%e{d} = OpIEqual %bool %v{d} %i{d}\nOpBranchConditional %e{d} %r{d} %l{d}\n"
                   f"%l{d} = OpLabel\n%in{d} = OpIAdd %uint %i{d} %c1\nOpBranch %h{d}\n"
                   f"%r{d} = OpLabel\nOpStore %p %i{d} Aligned 4\nOpBranch %x{d}\n"
                   f"%x{d} = OpLabel\n")
        out.append(f"OpBranch %h{d + 1}\n" if d + 1 < n else "")
        pred = f"%x{d}"
    return one_kernel("".join(out))


def switch(n):
    cases = " ".join(f"{k} %s{k}" for k in range(n))
    out = [f"%x = OpLoad %uint %p Aligned 4\nOpSwitch %x %dflt {cases}\n"]
    for k in range(n):
        nxt = f"%s{k + 1}" if k % 3 == 0 and k + 1 < n else "%end"
        out.append(f"%s{k} = OpLabel\n%w{k} = OpIAdd %uint %x %n\n"
                   f"OpStore %p %w{k} Aligned 4\nOpBranch {nxt}\n")
    out.append("%dflt = OpLabel\nOpBranch %end\n%end = OpLabel\n")
    return one_kernel("".join(out))


def switches(n):
    # switch d: header h{d} on %x + d, case 0 the next switch, case 1 f{d} falling
    # through into it, the default and case 2 its merge m{d}.
    out = ["%x = OpLoad %uint %p Aligned 4\nOpBranch %h0\n"]
    for d in range(n):
        out.append(f"%h{d} = OpLabel\n%y{d} = OpIAdd %uint %x %z{d}\n"
                   f"OpSwitch %y{d} %m{d} 0 %h{d + 1} 1 %f{d} 2 %m{d}\n"
                   f"%f{d} = OpLabel\nOpStore %p %y{d} Aligned 4\nOpBranch %h{d + 1}\n")
    out.append(innermost_and_merges(n))
    consts = "".join(f"%z{d} = OpConstant %uint {d}\n" for d in range(n))
    return one_kernel("".join(out)).replace(TYPES, TYPES + consts)


def reductions(n):
    body = ["%r0 = OpLoad %uint %p Aligned 4\n"]
    body += [f"%r{i + 1} = OpGroupIAdd %uint %c2 Reduce %r{i}\n" for i in range(n)]
    body.append(f"OpStore %p %r{n} Aligned 4\n")
    return (one_kernel("".join(body)).replace(TYPES, TYPES + "%c2 = OpConstant %uint 2\n")
            .replace("OpCapability Kernel\n", "OpCapability Kernel\nOpCapability Groups\n"))


def parts(n):
    out = ["%a = OpVariable %pfa Function\n%x = OpLoad %uint %p Aligned 4\n"
           "%acc0 = OpIAdd %uint %x %c0\nOpBranch %h0\n"]
    for d in range(n):
        out.append(f"%h{d} = OpLabel\n%t{d} = OpUGreaterThan %bool %x %z{d}\n"
                   f"OpSelectionMerge %m{d} None\nOpBranchConditional %t{d} %s{d} %m{d}\n"
                   f"%s{d} = OpLabel\n%q{d} = OpInBoundsAccessChain %pfu %a %z{d}\n"
                   f"OpStore %q{d} %x Aligned 4\nOpBranch %m{d}\n"
                   f"%m{d} = OpLabel\n%r{d} = OpInBoundsAccessChain %pfu %a %z{d}\n"
                   f"%v{d} = OpLoad %uint %r{d} Aligned 4\n"
                   f"%acc{d + 1} = OpIAdd %uint %acc{d} %v{d}\nOpBranch %h{d + 1}\n")
    out.append(f"%h{n} = OpLabel\nOpStore %p %acc{n} Aligned 4\n")
    consts = "".join(f"%z{d} = OpConstant %uint {d}\n" for d in range(n))
    consts += (f"%zn = OpConstant %uint {n}\n%arr = OpTypeArray %uint %zn\n"
               "%pfa = OpTypePointer Function %arr\n%pfu = OpTypePointer Function %uint\n")
    return one_kernel("".join(out)).replace(TYPES, TYPES + consts)


SHAPES = {"kernels": kernels, "wrapped": wrapped, "nesting": nesting, "loops": loops, "members": members,
          "seqloops": seqloops, "switch": switch, "switches": switches,
          "irreducible": irreducible, "reductions": reductions, "parts": parts}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    sys.stdout.write(SHAPES[sys.argv[1]](int(sys.argv[2])))
