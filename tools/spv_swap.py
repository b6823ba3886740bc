#!/usr/bin/env python3
"""Write a byte-swapped (big-endian) copy of SPIR-V modules.

usage: spv_swap.py IN.spv -o OUT.spv      one file
       spv_swap.py A.spv B.spv ...        each to A.be.spv, B.be.spv ...
"""
import sys


def swap(data):
    if len(data) % 4:
        raise SystemExit("not a whole number of words")
    b = bytearray(data)
    b[0::4], b[1::4], b[2::4], b[3::4] = data[3::4], data[2::4], data[1::4], data[0::4]
    return bytes(b)


def main(argv):
    if len(argv) == 3 and argv[1] == "-o":
        pairs = [(argv[0], argv[2])]
    else:
        pairs = [(p, p[:-4] + ".be.spv" if p.endswith(".spv") else p + ".be") for p in argv]
    if not pairs:
        raise SystemExit(__doc__)
    for src, dst in pairs:
        with open(src, "rb") as f:
            data = f.read()
        with open(dst, "wb") as f:
            f.write(swap(data))


if __name__ == "__main__":
    main(sys.argv[1:])
