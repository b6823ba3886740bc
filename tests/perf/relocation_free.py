#!/usr/bin/env python3
"""Fails when the dynamic loader has to relocate any of the named tables.

The generated grammar tables (src/gen_tables.py) held ~4,700 pointers: every
start of k2s relocated them (0.06 M of a small translation's 2.5 M instructions,
bench/RESULTS.md, session 10) and copied 590 KB of them into private pages. They
now hold offsets and indexes; this check keeps them read-only data: no relocation
of the binary may land inside a symbol the pattern names, and every symbol named
by --require must be there (a renamed table must not make the check vacuous).

usage: relocation_free.py --symbols REGEX [--require NAME,...] BINARY...
"""
import argparse
import bisect
import re
import subprocess
import sys


def symbols(path, pattern):
    """[(start, size, name)] of the defined data symbols whose names match."""
    out = subprocess.run(["nm", "-S", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.search(pattern, parts[3]):
            found.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return sorted(found)


def relocations(path):
    """The offsets of every dynamic relocation of the binary."""
    out = subprocess.run(["readelf", "-rW", path], check=True, capture_output=True,
                         text=True).stdout
    return [int(m.group(1), 16) for m in re.finditer(r"^([0-9a-f]{8,16})\s+[0-9a-f]+\s+R_", out, re.M)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--symbols", required=True, help="regular expression of symbol names")
    ap.add_argument("--require", default="", help="comma-separated names that must be present")
    ap.add_argument("binaries", nargs="+")
    o = ap.parse_args()
    bad = 0
    for b in o.binaries:
        syms = symbols(b, o.symbols)
        missing = [n for n in o.require.split(",") if n and n not in {s[2] for s in syms}]
        if missing:
            print(f"{b}: no symbol {', '.join(missing)}: the check would prove nothing")
            bad += 1
            continue
        starts = [s[0] for s in syms]
        hits = {}
        relocs = relocations(b)
        for off in relocs:
            k = bisect.bisect_right(starts, off) - 1
            if k >= 0 and off < syms[k][0] + syms[k][1]:
                hits[syms[k][2]] = hits.get(syms[k][2], 0) + 1
        if hits:
            print(f"{b}: relocations inside " +
                  ", ".join(f"{n} ({c})" for n, c in sorted(hits.items())))
            bad += 1
        else:
            print(f"{b}: ok ({len(syms)} tables, none among its {len(relocs)} relocations)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
