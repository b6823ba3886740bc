#!/usr/bin/env python3
"""Writes a SPIR-V module with every 32-bit word byte-swapped (other-endian producer)."""
import sys

data = open(sys.argv[1], "rb").read()
out = bytearray()
for i in range(0, len(data) - len(data) % 4, 4):
    out += data[i:i + 4][::-1]
open(sys.argv[2], "wb").write(out)
