#!/usr/bin/env python3
"""Fails when a binary needs a shared library that start-up should not pay for.

With the shared libstdc++ every start of k2s loaded it and resolved its symbol
relocations (1.6 M instructions, a quarter of a small translation, validation
on or off; bench/RESULTS.md, session 7). meson's static_cxx_runtime option links
the C++ runtime statically; this check keeps it that way.

usage: needed_libs.py --forbid REGEX BINARY...
"""
import argparse
import re
import subprocess
import sys


def needed(path):
    out = subprocess.run(["readelf", "-dW", path], check=True, capture_output=True,
                         text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forbid", required=True, help="regular expression of library names")
    ap.add_argument("binaries", nargs="+")
    o = ap.parse_args()
    bad = 0
    for b in o.binaries:
        libs = needed(b)
        hits = [lib for lib in libs if re.search(o.forbid, lib)]
        if hits:
            print(f"{b}: needs {', '.join(hits)} (all: {', '.join(libs)})")
            bad += 1
        else:
            print(f"{b}: ok ({', '.join(libs)})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
