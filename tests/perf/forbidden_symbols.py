#!/usr/bin/env python3
"""Fails when a binary defines symbols that its start-up should not pay for.

The k2s command links no SPIRV-Tools and no C++ runtime: both live in the
validator helper, k2s-validator, which the command starts only when it validates
(src/validate.c). Linked into the command they cost every run, validating or
not, the relocation of their tables and libstdc++'s stream set-up (0.19 M of a
small module's 2.1 M instructions; bench/RESULTS.md, session 11). --require
names symbols each binary must define (so that a stripped or empty binary
fails), --expect-in names a binary that must define the forbidden ones (so that
the pattern stays one that matches SPIRV-Tools).

usage: forbidden_symbols.py --forbid REGEX --require NAME,... [--expect-in BINARY] BINARY...
"""
import argparse
import re
import subprocess
import sys


def defined(path):
    out = subprocess.run(["nm", "--defined-only", path], check=True, capture_output=True,
                         text=True).stdout
    return [line.split()[-1] for line in out.splitlines() if len(line.split()) >= 3]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forbid", required=True, help="regular expression of symbol names")
    ap.add_argument("--require", required=True, help="symbols every binary must define")
    ap.add_argument("--expect-in", help="a binary that must define forbidden symbols")
    ap.add_argument("binaries", nargs="+")
    o = ap.parse_args()
    forbid = re.compile(o.forbid)
    bad = 0
    if o.expect_in:
        hits = [s for s in defined(o.expect_in) if forbid.search(s)]
        if not hits:
            print(f"{o.expect_in}: defines no symbol matching {o.forbid}: the pattern tests nothing")
            bad += 1
        else:
            print(f"{o.expect_in}: {len(hits)} symbols match, as expected (e.g. {hits[0]})")
    for b in o.binaries:
        syms = defined(b)
        missing = [r for r in o.require.split(",") if r not in syms]
        hits = [s for s in syms if forbid.search(s)]
        if missing:
            print(f"{b}: does not define {', '.join(missing)} (stripped?)")
            bad += 1
        if hits:
            print(f"{b}: defines {len(hits)} forbidden symbols: {', '.join(hits[:8])}")
            bad += 1
        if not missing and not hits:
            print(f"{b}: ok ({len(syms)} symbols, none matching)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
