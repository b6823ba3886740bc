#!/usr/bin/env python3
"""Malformed-input suite: k2s must reject each case with exit code 2, the
exact diagnostic below, no crash (no signal, no sanitizer report) and no
output file (nor a temporary one) left behind.

The cases are generated here from a small hand-encoded module, so no binary
is committed and every word offset in the expected text is deterministic.

usage: run_malformed.py PATH/TO/k2s [--keep DIR] [--show]
  --show   print what k2s says for each case instead of checking (to write
           expectations for a new case)
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

MAGIC = 0x07230203


def op(opcode, *operands):
    return [((1 + len(operands)) << 16) | opcode, *operands]


def string(s):
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return list(struct.unpack(f"<{len(b) // 4}I", b))


# SPIR-V opcodes and enumerants used below.
OpName, OpExtension, OpMemoryModel, OpEntryPoint, OpCapability = 5, 10, 14, 15, 17
OpTypeVoid, OpTypeBool, OpTypeInt, OpTypeVector, OpTypeStruct = 19, 20, 21, 23, 30
OpTypePointer, OpTypeFunction, OpConstant = 32, 33, 43
OpFunction, OpFunctionEnd, OpLabel, OpReturn = 54, 56, 248, 253
CapAddresses, CapKernel = 4, 6


def header(bound, version=0x00010000, magic=MAGIC):
    return [magic, version, 0, bound, 0]


def body(fn_first=None):
    """A minimal valid OpenCL kernel; %1 void, %2 fn type, %3 function, %4 label."""
    return [
        *op(OpCapability, CapAddresses),            # word 5
        *op(OpCapability, CapKernel),               # word 7
        *op(OpMemoryModel, 2, 2),                   # word 9: Physical64 OpenCL
        *op(OpEntryPoint, 6, 3, *string("k")),      # word 12
        *op(OpTypeVoid, 1),                         # word 16
        *op(OpTypeFunction, 2, 1),                  # word 18
        *op(OpFunction, 1, 3, 0, 2),                # word 21
        *op(OpLabel, 4),                            # word 26
        *op(OpReturn),                              # word 28
        *op(OpFunctionEnd),                         # word 29
    ]


def words(ws, big_endian=False):
    return struct.pack(f"{'>' if big_endian else '<'}{len(ws)}I", *ws)


VALID = header(5) + body()


def with_globals(extra, bound=16):
    """The module with extra words placed among the globals (after %2)."""
    b = body()
    return header(bound) + b[:16] + extra + b[16:]


def cases():
    rnd = random.Random(20261122)
    c = []

    def add(name, data, expect, args=()):
        c.append((name, data, expect, list(args)))

    add("empty", b"", "k2s: error: 'empty.spv' is empty, not a SPIR-V module\n")
    add("odd-bytes", words(VALID)[:-1],
        "k2s: error: 'odd-bytes.spv' is 119 bytes, not a whole number of 32-bit words; not a SPIR-V binary\n")
    add("one-byte", b"\x03",
        "k2s: error: 'one-byte.spv' is 1 bytes, not a whole number of 32-bit words; not a SPIR-V binary\n")
    add("text", b"; SPIR-V\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n",
        "k2s: error: 'text.spv' is SPIR-V assembly text, not a SPIR-V binary: assemble it with spirv-as first\n")
    add("text-whole-words", b"OpCapability Kernel\nOpCapability Addresses\n\n",
        "k2s: error: 'text-whole-words.spv' is SPIR-V assembly text, not a SPIR-V binary: assemble it with spirv-as first\n")
    add("truncated-header", words(VALID[:3]),
        "k2s: error: invalid input module: the module is too short for a SPIR-V header (3 words, need 5) (word 0)\n")
    add("magic-only", words(VALID[:1]),
        "k2s: error: invalid input module: the module is too short for a SPIR-V header (1 words, need 5) (word 0)\n")
    add("truncated-instruction", words(VALID[:14]),
        "k2s: error: invalid input module: OpEntryPoint claims 4 words but only 2 remain in the module (word 12)\n")
    add("truncated-function", words(VALID[:-1]),
        "k2s: error: invalid input module: the module ends inside a function (missing OpFunctionEnd) (word 29)\n")
    add("bad-magic", words([0xDEADBEEF] + VALID[1:]),
        "k2s: error: invalid input module: not a SPIR-V binary: the first word is 0xdeadbeef, not the magic number 0x07230203 (word 0)\n")
    add("bad-version-2.0", words(header(5, 0x00020000) + body()),
        "k2s: error: invalid input module: unsupported SPIR-V version word 0x00020000 (k2s reads 1.0 to 1.6) (word 1)\n")
    add("bad-version-1.7", words(header(5, 0x00010700) + body()),
        "k2s: error: invalid input module: unsupported SPIR-V version word 0x00010700 (k2s reads 1.0 to 1.6) (word 1)\n")
    add("bad-version-junk-bits", words(header(5, 0x01010001) + body()),
        "k2s: error: invalid input module: unsupported SPIR-V version word 0x01010001 (k2s reads 1.0 to 1.6) (word 1)\n")
    add("bad-version-big-endian", words(header(5, 0x00020000) + body(), big_endian=True),
        "k2s: error: invalid input module: unsupported SPIR-V version word 0x00020000 (k2s reads 1.0 to 1.6) (word 1)\n")
    add("bound-zero", words(header(0) + body()),
        "k2s: error: invalid input module: the id bound is 0; a module needs at least one id (word 3)\n")
    add("bound-huge", words(header(0xFFFFFFFF) + body()),
        "k2s: error: invalid input module: the id bound 4294967295 is beyond SPIR-V's limit of 4194304 (word 3)\n")
    add("bound-just-over", words(header(0x400001) + body()),
        "k2s: error: invalid input module: the id bound 4194305 is beyond SPIR-V's limit of 4194304 (word 3)\n")
    bad = VALID.copy()
    bad[7] = (0 << 16) | OpCapability
    add("word-count-zero", words(bad),
        "k2s: error: invalid input module: instruction word count is 0 (opcode 17) (word 7)\n")
    bad = VALID.copy()
    bad[28] = (100 << 16) | OpReturn
    add("word-count-past-end", words(bad),
        "k2s: error: invalid input module: OpReturn claims 100 words but only 2 remain in the module (word 28)\n")
    bad = VALID.copy()
    bad[-1] = (0xFFFF << 16) | OpFunctionEnd
    add("word-count-max", words(bad),
        "k2s: error: invalid input module: OpFunctionEnd claims 65535 words but only 1 remain in the module (word 29)\n")
    add("word-count-past-end-big-endian", words(bad, big_endian=True),
        "k2s: error: invalid input module: OpFunctionEnd claims 65535 words but only 1 remain in the module (word 29)\n")
    add("id-redefined-big-endian",
        words(with_globals(op(OpTypeInt, 5, 32, 0) + op(OpTypeInt, 5, 16, 0)), big_endian=True),
        "k2s: error: invalid input module: id %5 is defined twice (first by OpTypeInt at word 21) (word 25: %5 = OpTypeInt 16 0)\n")
    add("result-id-beyond-bound", words(with_globals(op(OpTypeBool, 40))),
        "k2s: error: invalid input module: result id 40 is outside the module's bound 16 (word 21: %40 = OpTypeBool)\n")
    add("result-id-zero", words(with_globals(op(OpTypeBool, 0))),
        "k2s: error: invalid input module: result id 0 is outside the module's bound 16 (word 21: OpTypeBool)\n")
    add("operand-id-beyond-bound", words(with_globals(op(OpTypeInt, 5, 32, 0) + op(OpTypeVector, 6, 99, 4))),
        "k2s: error: invalid input module: operand 1 is id 99, outside the module's bound 16 (word 25: %6 = OpTypeVector %99 4)\n")
    add("result-type-undefined", words(with_globals(op(OpConstant, 9, 5, 7))),
        "k2s: error: invalid input module: result type %9 is not defined before its use (word 21: %5 = OpConstant %9 7)\n")
    add("id-redefined", words(with_globals(op(OpTypeInt, 5, 32, 0) + op(OpTypeInt, 5, 16, 0))),
        "k2s: error: invalid input module: id %5 is defined twice (first by OpTypeInt at word 21) (word 25: %5 = OpTypeInt 16 0)\n")
    add("id-redefines-function", words(with_globals(op(OpTypeBool, 3))),
        "k2s: error: invalid input module: id %3 is defined twice (first by OpTypeBool at word 21) (word 23: %3 = OpFunction %1 None %2)\n")
    # %5 = struct { %6* } and %6 = pointer to %5, with no OpTypeForwardPointer: a cycle.
    add("forward-reference-cycle", words(with_globals(op(OpTypeStruct, 5, 6) + op(OpTypePointer, 6, 5, 5))),
        "k2s: error: invalid input module: OpTypeStruct refers to %6 before it is defined (a forward reference or a cycle among types and constants) (word 21: %5 = OpTypeStruct %6)\n")
    add("forward-reference-self", words(with_globals(op(OpTypeVector, 5, 5, 4))),
        "k2s: error: invalid input module: OpTypeVector refers to %5 before it is defined (a forward reference or a cycle among types and constants) (word 21: %5 = OpTypeVector %5 4)\n")
    name_missing = VALID[:16] + op(OpName, 9, *string("ghost")) + VALID[16:]
    name_missing[3] = 16
    add("used-never-defined", words(name_missing),
        "k2s: error: invalid input module: id %9 is used but never defined (word 16: OpName %9 \"ghost\")\n")
    ext = VALID[:9] + [(2 << 16) | OpExtension, 0x41414141] + VALID[9:]
    add("unterminated-string", words(ext),
        "k2s: error: invalid input module: OpExtension: a literal string is not terminated (word 9: OpExtension <words: 0x41414141>)\n")
    add("too-few-words-for-result", words(with_globals([(1 << 16) | OpTypeInt])),
        "k2s: error: invalid input module: OpTypeInt has 1 words, fewer than its result type and id need (word 21)\n")
    add("missing-operand", words(with_globals(op(OpTypeInt, 5, 32))),
        "k2s: error: invalid input module: OpTypeInt: missing operand 2 (LiteralInteger) (word 21: %5 = OpTypeInt 32 <words: 0x20>)\n")
    add("extra-operand", words(with_globals(op(OpTypeInt, 5, 32, 0, 7))),
        "k2s: error: invalid input module: OpTypeInt: the instruction has more words than its operands take (word 21: %5 = OpTypeInt 32 0 <words: 0x20 0x0 0x7>)\n")
    late = VALID + op(OpTypeBool, 5)
    late[3] = 6
    add("global-after-function", words(late),
        "k2s: error: invalid input module: OpTypeBool may not appear between or after functions (word 30: %5 = OpTypeBool)\n")
    swapped = VALID[:9] + VALID[12:16] + VALID[9:12] + VALID[16:]
    add("layout-order", words(swapped),
        "k2s: error: invalid input module: OpMemoryModel is out of the module's layout order (word 13: OpMemoryModel Physical64 OpenCL)\n")
    nested = VALID[:26] + op(OpFunction, 1, 5, 0, 2) + VALID[26:]
    nested[3] = 6
    add("nested-function", words(nested),
        "k2s: error: invalid input module: OpFunction inside another function (missing OpFunctionEnd) (word 26: %5 = OpFunction %1 None %2)\n")
    add("function-end-outside", words(VALID + op(OpFunctionEnd)),
        "k2s: error: invalid input module: OpFunctionEnd outside a function (word 30: OpFunctionEnd)\n")
    add("label-outside-function", words(with_globals(op(OpLabel, 5))),
        "k2s: error: invalid input module: OpLabel outside a function (word 21: %5 = OpLabel)\n")
    # Garbage: random words with and without a SPIR-V header in front.
    junk = [rnd.getrandbits(32) for _ in range(64)]
    add("garbage", words(junk),
        f"k2s: error: invalid input module: not a SPIR-V binary: the first word is 0x{junk[0]:08x}, not the magic number 0x07230203 (word 0)\n")
    add("garbage-after-header", words(header(100) + [0x00000000] + junk),
        "k2s: error: invalid input module: instruction word count is 0 (opcode 0) (word 5)\n")
    add("zeros", bytes(4096),
        "k2s: error: invalid input module: not a SPIR-V binary: the first word is 0x00000000, not the magic number 0x07230203 (word 0)\n")
    add("missing-input", None,
        "k2s: error: cannot read 'missing-input.spv': No such file or directory\n")
    return c


def main():
    args = sys.argv[1:]
    show = "--show" in args
    keep = None
    if "--keep" in args:
        keep = args[args.index("--keep") + 1]
        del args[args.index("--keep"):args.index("--keep") + 2]
    args = [a for a in args if a != "--show"]
    if len(args) != 1:
        sys.exit(__doc__)
    k2s = os.path.abspath(args[0])
    failed = 0
    tmp = tempfile.TemporaryDirectory()
    work = keep or tmp.name
    os.makedirs(work, exist_ok=True)
    # The valid base module must be accepted, or every case below proves little.
    base = os.path.join(work, "valid.spv")
    with open(base, "wb") as f:
        f.write(words(VALID))
    r = subprocess.run([k2s, "--passes=none", "valid.spv", "-o", "valid.out.spv"], cwd=work,
                       capture_output=True, text=True)
    if r.returncode != 0 or open(os.path.join(work, "valid.out.spv"), "rb").read() != words(VALID):
        print(f"FAIL valid base module: exit {r.returncode}\n{r.stderr}")
        failed += 1
    all_cases = cases()
    for name, data, expect, extra in all_cases:
        inp = f"{name}.spv"
        if data is not None:
            with open(os.path.join(work, inp), "wb") as f:
                f.write(data)
        out = f"{name}.out.spv"
        before = set(os.listdir(work))
        r = subprocess.run([k2s, *extra, inp, "-o", out], cwd=work, capture_output=True,
                           text=True, errors="replace")
        after = set(os.listdir(work))
        if show:
            print(f"--- {name}: exit {r.returncode}\n{r.stderr}", end="")
            continue
        problems = []
        if r.returncode < 0:
            problems.append(f"killed by signal {-r.returncode}")
        elif r.returncode != 2:
            problems.append(f"exit code {r.returncode}, expected 2")
        if r.stderr != expect:
            problems.append(f"stderr differs:\n  expected: {expect!r}\n  got:      {r.stderr!r}")
        if r.stdout:
            problems.append(f"unexpected stdout: {r.stdout[:200]!r}")
        if after - before:
            problems.append(f"files left behind: {sorted(after - before)}")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            print(f"ok   {name}")
    if not show:
        print(f"{len(all_cases) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
