#!/usr/bin/env python3
"""Mutated corpus modules through the k2s CLI in both modes (issue 15): each
mutant of a seed module (bit flips, interesting words, instructions dropped,
duplicated or swapped, word counts and ids changed, truncation) is translated
in the default mode and with --no-validate-input. Every run must end in exit 0
with an output spirv-val accepts, or exit 1/2 with a `k2s: error:` message and
no output file; a signal, another exit status, an empty stderr, a timeout or an
"internal error" is a finding, saved under --keep with what k2s said.

usage: mutate_run.py K2S SEED_DIR [-n 2000] [--seed 1] [--keep DIR] [--timeout 30]
"""
import argparse
import glob
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

INTERESTING = [0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256,
               0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x3FFFFF, 0x400000]


def instructions(w):
    out, at = [], 5
    while at < len(w):
        n = w[at] >> 16
        if n == 0 or at + n > len(w):
            break
        out.append((at, n))
        at += n
    return out


def mutate(words, rnd):
    w = list(words)
    insts = instructions(w)
    for _ in range(rnd.randint(1, 4)):
        insts = instructions(w)
        kind = rnd.randrange(8)
        if kind == 0 and len(w) > 5:
            i = rnd.randrange(5, len(w))
            w[i] ^= 1 << rnd.randrange(32)
        elif kind == 1 and len(w) > 5:
            w[rnd.randrange(5, len(w))] = rnd.choice(INTERESTING)
        elif kind == 2 and insts:
            at, n = rnd.choice(insts)
            del w[at:at + n]
            insts = instructions(w)
        elif kind == 3 and insts:
            at, n = rnd.choice(insts)
            to = rnd.choice(insts)[0]
            w[to:to] = w[at:at + n]
            insts = instructions(w)
        elif kind == 4 and len(insts) > 1:
            (a, na), (b, nb) = sorted(rnd.sample(insts, 2))
            first, second = w[a:a + na], w[b:b + nb]
            w = w[:a] + second + w[a + na:b] + first + w[b + nb:]
            insts = instructions(w)
        elif kind == 5 and insts:
            # an operand id replaced by another small id
            at, n = rnd.choice(insts)
            if n > 1:
                w[at + rnd.randrange(1, n)] = rnd.randrange(1, max(2, w[3]))
        elif kind == 6 and insts:
            at, n = rnd.choice(insts)
            w[at] = ((max(1, n + rnd.choice([-1, 1]))) << 16) | (w[at] & 0xFFFF)
        elif kind == 7 and len(w) > 6:
            w = w[:rnd.randrange(5, len(w))]
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("k2s")
    ap.add_argument("seeds")
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default="mutate-findings")
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    files = sorted(f for f in glob.glob(os.path.join(a.seeds, "*.spv")) if ".be." not in f)
    rnd = random.Random(a.seed)
    counts = {}
    findings = 0
    os.makedirs(a.keep, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # A private copy: a rebuild replacing the binary mid-run must not end the run.
        k2s = os.path.join(tmp, "k2s")
        shutil.copy2(a.k2s, k2s)
        # with the validator it starts when it validates (src/validate.c)
        helper = os.path.join(os.path.dirname(os.path.abspath(a.k2s)), "k2s-validator")
        if os.path.exists(helper):
            shutil.copy2(helper, tmp)
        inp, out = os.path.join(tmp, "in.spv"), os.path.join(tmp, "out.spv")
        for k in range(a.n):
            if k and k % 250 == 0:
                print(f"{k} mutants, {findings} findings so far", flush=True)
            data = open(rnd.choice(files), "rb").read()
            data = data[:len(data) // 4 * 4]
            words = struct.unpack(f"<{len(data) // 4}I", data)
            mutant = mutate(words, rnd)
            blob = struct.pack(f"<{len(mutant)}I", *mutant)
            with open(inp, "wb") as f:
                f.write(blob)
            for mode in ([], ["--no-validate-input"]):
                if os.path.exists(out):
                    os.remove(out)
                cmd = [k2s, inp, "-o", out, "--max-memory=2048"] + mode
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                                       timeout=a.timeout)
                    rc, err = r.returncode, r.stderr
                except subprocess.TimeoutExpired:
                    rc, err = "timeout", ""
                what = None
                if rc == 0:
                    v = subprocess.run(["spirv-val", "--target-env", "vulkan1.1", out],
                                       capture_output=True, text=True, errors="replace")
                    what = None if v.returncode == 0 else "invalid output: " + v.stderr[:200]
                    cls = "ok"
                elif rc in (1, 2) and "k2s: error:" in err and not os.path.exists(out):
                    cls = "internal error" if "internal error" in err else f"error {rc}"
                    if cls == "internal error":
                        what = cls
                else:
                    cls = f"bad ({rc})"
                    what = f"exit {rc}, stderr {err[-300:]!r}, output {os.path.exists(out)}"
                key = ("novalidate " if mode else "default ") + cls
                counts[key] = counts.get(key, 0) + 1
                if what:
                    findings += 1
                    name = os.path.join(a.keep, f"m{a.seed}-{k}{'-nv' if mode else ''}")
                    with open(name + ".spv", "wb") as f:
                        f.write(blob)
                    with open(name + ".txt", "w") as f:
                        f.write(f"{' '.join(cmd)}\n{what}\n{err}")
                    print(f"FINDING {name}: {what[:200]}", flush=True)
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    print(f"{a.n} mutants, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
