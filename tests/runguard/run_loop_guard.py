#!/usr/bin/env python3
"""k2s-run never lies about lavapipe's loop cap (issue 15 item 4).

Lavapipe (llvmpipe) stops every loop after 65,535 back edges, counted per SIMD
group over all loops, and carries on as if the loop had exited. A module
translated with `k2s --loop-guard` reports that (passes/loop_guard.c) and
k2s-run refuses to print the results (src/run/loop_guard.c):

- loops past the cap (one long loop, nested loops, one long work-item among
  short ones, a loop with no exit at all) end in k2s-run's error, exit 1 and
  nothing on stdout;
- loops under the cap print exactly what the unguarded module prints, and what
  the OpenCL reference (PoCL, k2s-clref) prints where given;
- an unguarded module with loops gets a warning on lavapipe (it used to print
  98,304 for 150,000 with exit 0 and nothing on stderr).

usage: run_loop_guard.py K2S K2S_RUN [K2S_CLREF]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CL = os.path.join(HERE, "loop_cap.cl")
CUT = "k2s-run: error: a loop ended before its exit condition: the driver cut it short"
UNGUARDED = "has no loop guard: translate with k2s --loop-guard"

# (kernel, global size, argument specs): under the cap, then past it.
UNDER = [
    ("count", "1", ["buffer:uint:2=zeros", "pod:uint=1000"]),
    ("count", "1", ["buffer:uint:2=zeros", "pod:uint=65535"]),
    ("nested", "1", ["buffer:uint:2=zeros", "pod:uint=648", "pod:uint=100"]),
    ("divergent", "64", ["buffer:uint:65=zeros", "pod:uint=1000"]),
    ("exits", "8", ["buffer:uint:8=zeros", "pod:uint=1000"]),
    ("exits", "8", ["buffer:uint:8=zeros", "pod:uint=100000"]),  # returns early
]
PAST = [
    ("count", "1", ["buffer:uint:2=zeros", "pod:uint=100000"]),
    ("nested", "1", ["buffer:uint:2=zeros", "pod:uint=1000", "pod:uint=100"]),
    ("divergent", "64", ["buffer:uint:65=zeros", "pod:uint=100000"]),
    ("forever", "1", ["buffer:uint:2=zeros"]),
]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    k2s, k2s_run = (os.path.abspath(a) for a in sys.argv[1:3])
    clref = os.path.abspath(sys.argv[3]) if len(sys.argv) == 4 else None
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        bc, spv = os.path.join(tmp, "k.bc"), os.path.join(tmp, "k.spv")
        subprocess.run(["clang-15", "-cc1", "-triple", "spir64", "-cl-std=CL1.2",
                        "-finclude-default-header", "-no-opaque-pointers", "-emit-llvm-bc",
                        "-O2", CL, "-o", bc], check=True)
        subprocess.run(["llvm-spirv-15", bc, "-o", spv], check=True)
        plain, guarded = os.path.join(tmp, "plain.spv"), os.path.join(tmp, "guarded.spv")
        subprocess.run([k2s, spv, "-o", plain], check=True, capture_output=True)
        subprocess.run([k2s, spv, "--loop-guard", "-o", guarded], check=True,
                       capture_output=True)

        def cmd(module, kernel, size, specs):
            c = [k2s_run, module, "--kernel", kernel, "--global", size]
            for s in specs:
                c += ["--arg", s]
            return c

        for kernel, size, specs in UNDER:
            what = f"{kernel} {' '.join(specs[1:])}"
            g, p = run(cmd(guarded, kernel, size, specs)), run(cmd(plain, kernel, size, specs))
            ok = g.returncode == 0 and p.returncode == 0 and g.stdout == p.stdout and g.stdout
            if ok and clref:
                r = run([clref, CL, "--kernel", kernel, "--global", size] +
                        sum((["--arg", s] for s in specs), []))
                ok = r.returncode == 0 and r.stdout == g.stdout
                if not ok:
                    print(f"  reference: exit {r.returncode}\n{r.stdout}{r.stderr}")
            if not ok or CUT in g.stderr:
                failed += 1
                print(f"FAIL under the cap, {what}: guarded exit {g.returncode}, plain exit "
                      f"{p.returncode}\n{g.stdout}{g.stderr}{p.stdout}")
            else:
                print(f"ok   under the cap, {what}: the guard changes nothing")
        for kernel, size, specs in PAST:
            what = f"{kernel} {' '.join(specs[1:])}"
            g = run(cmd(guarded, kernel, size, specs))
            if g.returncode != 1 or g.stdout or CUT not in g.stderr:
                failed += 1
                print(f"FAIL past the cap, {what}: exit {g.returncode}\n{g.stdout}{g.stderr}")
            else:
                print(f"ok   past the cap, {what}: refused")
        p = run(cmd(plain, *PAST[0]))
        if p.returncode != 0 or UNGUARDED not in p.stderr:
            failed += 1
            print(f"FAIL unguarded module past the cap: exit {p.returncode}\n{p.stdout}{p.stderr}")
        else:
            print(f"ok   unguarded module past the cap: warned ({p.stdout.strip()})")
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
