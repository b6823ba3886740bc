#!/usr/bin/env python3
"""Check a module's NonSemantic.ClspvReflection instructions against clspv's contract.

Reads every OpExtInst of the module's NonSemantic.ClspvReflection import and holds it to
the instruction's operand list in the installed grammar
(extinst.nonsemantic.clspvreflection.grammar.json: count, order, optional operands), and
each operand to what clspv's reflection specification says it is:
  - Name, Type Name, Attributes, Data, FormatString: an OpString;
  - Kernel's Kernel: an OpFunction that is a GLCompute entry point of that name;
  - Decl (and Kernel in the other instructions): the result of a Kernel instruction;
  - ArgInfo: the result of an ArgumentInfo instruction;
  - every other operand: an OpConstant of a 32-bit integer type.
and to the facts a runtime relies on: ArgumentInfo qualifiers are clGetKernelArgInfo
enumerants, argument ordinals are below NumArguments and unique per kernel, each
descriptor (set, binding) is decorated on a variable, each SpecConstant* id is decorated
on a spec constant, push constants lie inside a push-constant block, Data is hex bytes,
and printf's facts hang together: PrintfIDs are unique, each of ArgumentSizes is a whole
number of 32-bit words (a record's argument slots), there is at most one printf buffer
(PrintfBuffer*) and its BufferSize is a whole number of words with room for the count
word, a record and the lost-record word; PrintfInfo, or a Kernel whose Flags say
MayUsePrintf, needs the printf buffer, and the printf buffer needs such a kernel.

  check_clspv_reflection.py MODULE.spv [--expect OP,OP,...] [--list]

--expect: fail unless each named instruction occurs (so a test notices one going
missing). --list: print each instruction's name once per occurrence. Exit 1 with one
line per problem; 0 when the module keeps the contract.
"""
import argparse
import json
import os
import struct
import sys

GRAMMAR = "/usr/include/spirv/unified1/extinst.nonsemantic.clspvreflection.grammar.json"
STRING_OPERANDS = {"Name", "Type Name", "Attributes", "Data", "FormatString"}

OP_STRING, OP_EXT_IMPORT, OP_EXT_INST, OP_ENTRY_POINT = 7, 11, 12, 15
OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_ARRAY = 21, 22, 23, 28
OP_TYPE_STRUCT, OP_TYPE_POINTER = 30, 32
OP_CONSTANT, OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE = 43, 50, 48, 49
OP_FUNCTION, OP_VARIABLE = 54, 59
OP_DECORATE, OP_MEMBER_DECORATE = 71, 72
DEC_SPEC_ID, DEC_ARRAY_STRIDE, DEC_BINDING, DEC_SET, DEC_OFFSET = 1, 6, 33, 34, 35
SC_PUSH_CONSTANT = 9


def literal_string(words):
    raw = b"".join(struct.pack("<I", w) for w in words)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def load(path):
    data = open(path, "rb").read()
    if len(data) < 20 or len(data) % 4:
        sys.exit(f"{path}: not a SPIR-V module")
    endian = "<" if struct.unpack("<I", data[:4])[0] == 0x07230203 else ">"
    words = struct.unpack(f"{endian}{len(data) // 4}I", data)
    if words[0] != 0x07230203:
        sys.exit(f"{path}: not a SPIR-V module")
    insts, pos = [], 5
    while pos < len(words):
        n, op = words[pos] >> 16, words[pos] & 0xFFFF
        if n == 0 or pos + n > len(words):
            sys.exit(f"{path}: truncated instruction at word {pos}")
        insts.append((op, list(words[pos + 1:pos + n]), pos))
        pos += n
    return insts


def check(path, expect):
    grammar = json.load(open(GRAMMAR))
    by_opcode = {i["opcode"]: i for i in grammar["instructions"]}
    insts = load(path)
    defs, strings, ints, spec_ids, descriptors = {}, {}, {}, set(), set()
    entry_names, pc_blocks, member_offsets, var_decor = {}, [], {}, {}
    reflection_sets = set()
    for op, w, pos in insts:
        if op == OP_STRING:
            strings[w[0]] = literal_string(w[1:])
        elif op == OP_EXT_IMPORT and literal_string(w[1:]).startswith("NonSemantic.ClspvReflection."):
            reflection_sets.add(w[0])
        elif op == OP_ENTRY_POINT and w[0] == 5:  # GLCompute
            entry_names[w[1]] = literal_string(w[2:])
        elif op == OP_DECORATE and len(w) >= 3:
            var_decor.setdefault(w[0], {})[w[1]] = w[2]
        elif op == OP_MEMBER_DECORATE and len(w) >= 4 and w[2] == DEC_OFFSET:
            member_offsets[(w[0], w[1])] = w[3]
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_ARRAY, OP_TYPE_STRUCT,
                  OP_TYPE_POINTER, OP_FUNCTION):
            defs[w[0] if op != OP_FUNCTION else w[1]] = (op, w)
        elif op in (OP_CONSTANT, OP_SPEC_CONSTANT, OP_VARIABLE, OP_EXT_INST,
                    OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE):
            defs[w[1]] = (op, w)
    for op, w in list(defs.values()):
        if op == OP_CONSTANT and defs.get(w[0], (0,))[0] == OP_TYPE_INT and \
                defs[w[0]][1][1] == 32 and len(w) == 3:
            ints[w[1]] = w[2]
    for target, decs in var_decor.items():
        if DEC_SPEC_ID in decs and defs.get(target, (0,))[0] in (
                OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE):
            spec_ids.add(decs[DEC_SPEC_ID])
        if DEC_SET in decs and DEC_BINDING in decs and defs.get(target, (0,))[0] == OP_VARIABLE:
            descriptors.add((decs[DEC_SET], decs[DEC_BINDING]))
    for op, w in defs.values():
        if op == OP_VARIABLE and w[2] == SC_PUSH_CONSTANT:
            ptr = defs.get(w[0], (0, [0, 0, 0]))[1]
            pc_blocks.append(ptr[2])

    def size_of(t, depth=0):
        op, w = defs.get(t, (0, []))
        if depth > 16:
            return 0
        if op in (OP_TYPE_INT, OP_TYPE_FLOAT):
            return w[1] // 8
        if op == OP_TYPE_VECTOR:
            return w[2] * size_of(w[1], depth + 1)
        if op == OP_TYPE_ARRAY:
            return ints.get(w[2], 0) * var_decor.get(t, {}).get(DEC_ARRAY_STRIDE, 0)
        if op == OP_TYPE_STRUCT:
            return max([member_offsets.get((t, m), 0) + size_of(w[1 + m], depth + 1)
                        for m in range(len(w) - 1)] or [0])
        return 0

    problems, seen = [], []
    kernels = {}   # Kernel result id -> [name, NumArguments, ordinals]
    arg_infos = set()
    printf_ids, printf_buffers, printf_infos, may_use_printf = set(), [], [], []

    def bad(pos, name, msg):
        problems.append(f"{path}: word {pos}: {name}: {msg}")

    for op, w, pos in insts:
        if op != OP_EXT_INST or w[2] not in reflection_sets:
            continue
        result, number, operands = w[1], w[3], w[4:]
        g = by_opcode.get(number)
        if not g:
            bad(pos, f"instruction {number}", "not in the grammar")
            continue
        name = g["opname"]
        seen.append(name)
        spec = g.get("operands", [])
        required = [o for o in spec if o.get("quantifier", "") == ""]
        variadic = any(o.get("quantifier") == "*" for o in spec)
        if len(operands) < len(required) or (not variadic and len(operands) > len(spec)):
            bad(pos, name, f"{len(operands)} operands, the grammar allows "
                f"{len(required)}..{'*' if variadic else len(spec)}")
            continue
        values = {}
        for k, ident in enumerate(operands):
            o = spec[min(k, len(spec) - 1)]
            oname = o.get("name", "?").strip("'")
            if oname in STRING_OPERANDS:
                if ident not in strings:
                    bad(pos, name, f"{oname} is not an OpString")
                values[oname] = strings.get(ident)
            elif name == "Kernel" and oname == "Kernel":
                if defs.get(ident, (0,))[0] != OP_FUNCTION or ident not in entry_names:
                    bad(pos, name, "Kernel is not a GLCompute entry point's function")
            elif oname in ("Decl", "Kernel"):
                if ident not in kernels:
                    bad(pos, name, f"{oname} is not the result of an earlier Kernel instruction")
                values[oname] = ident
            elif oname == "ArgInfo":
                if ident not in arg_infos:
                    bad(pos, name, "ArgInfo is not the result of an ArgumentInfo instruction")
            else:
                if ident not in ints:
                    bad(pos, name, f"{oname} is not a 32-bit integer OpConstant")
                values[oname] = ints.get(ident)
        if any(v is None for v in values.values()):
            continue
        # What a runtime relies on beyond the operand kinds.
        if name == "Kernel":
            if entry_names.get(operands[0]) != values["Name"]:
                bad(pos, name, f"Name '{values['Name']}' is not the entry point's name")
            kernels[result] = [values["Name"], values.get("NumArguments"), set()]
            if values.get("Flags", 0) & ~1:
                bad(pos, name, "Flags has bits KernelPropertyFlags does not define")
            if values.get("Flags", 0) & 1:
                may_use_printf.append(values["Name"])
        elif name == "PrintfInfo":
            printf_infos.append(pos)
            if values["PrintfID"] in printf_ids:
                bad(pos, name, f"a second PrintfInfo for PrintfID {values['PrintfID']}")
            printf_ids.add(values["PrintfID"])
            # The variadic operands: every one of them, not just the last value kept above.
            for k, ident in enumerate(operands[2:]):
                size = ints.get(ident)
                if size is not None and (size == 0 or size % 4):
                    bad(pos, name, f"ArgumentSizes[{k}] is {size}, not a whole number of "
                        "32-bit words")
        elif name.startswith("PrintfBuffer"):
            printf_buffers.append(pos)
            if len(printf_buffers) == 2:
                bad(pos, name, "a second printf buffer")
            if values["BufferSize"] % 4 or values["BufferSize"] < 12:
                bad(pos, name, f"BufferSize {values['BufferSize']} is not a whole number of "
                    "32-bit words, at least 3 (count, record, lost records)")
        elif name == "ArgumentInfo":
            arg_infos.add(result)
            if "Address Qualifier" in values and not 0x119B <= values["Address Qualifier"] <= 0x119E:
                bad(pos, name, "Address Qualifier is not a CL_KERNEL_ARG_ADDRESS_* value")
            if "Access Qualifier" in values and not 0x11A0 <= values["Access Qualifier"] <= 0x11A3:
                bad(pos, name, "Access Qualifier is not a CL_KERNEL_ARG_ACCESS_* value")
            if "Type Qualifier" in values and values["Type Qualifier"] & ~15:
                bad(pos, name, "Type Qualifier has bits CL_KERNEL_ARG_TYPE_* does not define")
        if "Ordinal" in values and name.startswith("Argument") and ("Decl" in values or
                                                                    "Kernel" in values):
            k = kernels.get(values.get("Decl", values.get("Kernel")))
            if k:
                if k[1] is not None and values["Ordinal"] >= k[1]:
                    bad(pos, name, f"Ordinal {values['Ordinal']} >= NumArguments {k[1]}")
                if values["Ordinal"] in k[2]:
                    bad(pos, name, f"a second argument instruction for ordinal {values['Ordinal']}")
                k[2].add(values["Ordinal"])
        if "DescriptorSet" in values and (values["DescriptorSet"], values["Binding"]) not in descriptors:
            bad(pos, name, f"no variable is decorated DescriptorSet {values['DescriptorSet']} "
                f"Binding {values['Binding']}")
        # ArgumentWorkgroup's SpecId may be absent: an unused local argument has no
        # array, and Vulkan ignores map entries for ids a shader lacks.
        if name.startswith("SpecConstant"):
            for v in values.values():
                if v not in spec_ids:
                    bad(pos, name, f"no spec constant has SpecId {v}")
        if name.startswith("PushConstant") or name.endswith("PushConstant"):
            if not pc_blocks:
                bad(pos, name, "the module has no push-constant block")
            elif not any(values["Offset"] + values["Size"] <= size_of(b) for b in pc_blocks):
                bad(pos, name, f"Offset {values['Offset']} + Size {values['Size']} lies outside "
                    "every push-constant block")
        if "Data" in values:
            d = values["Data"]
            if len(d) % 2 or any(c not in "0123456789abcdef" for c in d):
                bad(pos, name, "Data is not hex bytes (two lower-case digits each)")
    if printf_infos and not printf_buffers:
        bad(printf_infos[0], "PrintfInfo", "the module has no printf buffer (PrintfBuffer*)")
    if may_use_printf and not printf_buffers:
        problems.append(f"{path}: kernel '{may_use_printf[0]}' may use printf (Flags) but "
                        "the module has no printf buffer (PrintfBuffer*)")
    if printf_buffers and not may_use_printf:
        bad(printf_buffers[0], "PrintfBuffer", "no Kernel's Flags say MayUsePrintf")
    for name in expect:
        if name not in seen:
            problems.append(f"{path}: no {name} instruction (expected one)")
    if not reflection_sets:
        problems.append(f"{path}: no NonSemantic.ClspvReflection import")
    return problems, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("modules", nargs="+")
    ap.add_argument("--expect", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(GRAMMAR):
        sys.exit(f"{GRAMMAR} is missing (package spirv-headers)")
    expect = [e for e in a.expect.split(",") if e]
    failed = False
    for path in a.modules:
        problems, seen = check(path, expect)
        if a.list:
            print("\n".join(seen))
        for p in problems:
            print(p, file=sys.stderr)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
