#!/usr/bin/env python3
"""Writes a valid OpenCL kernel module carrying MB megabytes of OpSource text
in OpSourceContinued instructions: usage: source_continued.py MB OUT.spv"""
import struct
import sys


def op(opcode, *operands):
    return [((1 + len(operands)) << 16) | opcode, *operands]


def string(b):
    b += b"\0" * (4 - len(b) % 4)
    return list(struct.unpack(f"<{len(b) // 4}I", b))


mb, out = int(sys.argv[1]), sys.argv[2]
chunk = string(b"/" * 65000)
words = [0x07230203, 0x00010000, 0, 5]
words += [0]
words += op(17, 4) + op(17, 6)                 # OpCapability Addresses, Kernel
words += op(14, 2, 2)                          # OpMemoryModel Physical64 OpenCL
words += op(15, 6, 3, *string(b"k"))           # OpEntryPoint Kernel %3 "k"
words += op(3, 3, 120)                         # OpSource OpenCL_C 120
for _ in range(mb * 1024 * 1024 // 65000):
    words += op(2, *chunk)                     # OpSourceContinued
words += op(19, 1) + op(33, 2, 1)              # %1 void, %2 fn type
words += op(54, 1, 3, 0, 2) + op(248, 4) + op(253) + op(56)
with open(out, "wb") as f:
    f.write(struct.pack(f"<{len(words)}I", *words))
