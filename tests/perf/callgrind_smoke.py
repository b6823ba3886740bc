#!/usr/bin/env python3
"""Performance smoke check: counts the instructions k2s executes (valgrind
--tool=callgrind; counts repeat to a fraction of a percent, times do not) to
translate a fixed module of many small kernels without validation, and fails
when the count exceeds FACTOR times the recorded baseline. Two cases:

  many  800 small kernels: where per-kernel costs that scale with the module
        (id-bound-sized scratch per function, section scans per entry point,
        per argument or per member) turn quadratic; at the commit before they
        were removed this module took 2.7 times the baseline.
  deep  one kernel of bench/gen_deep_cl.py's 500 steps (one function of ~5,000
        blocks: branches, loops with early exits, switches): where costs per
        construct that scale with the function (a CFG snapshot per loop
        normalisation, scans of the whole function per loop) turn quadratic;
        before structurize's live loop normalisation it took 2.55 times the
        baseline.

usage: callgrind_smoke.py [--case many|deep] --k2s K2S --baseline FILE --workdir DIR [--update]
Exit 77 (skipped) without valgrind, clang-15 or llvm-spirv-15.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

KERNELS = 800
DEEP_STEPS = 500
FACTOR = 2.0
HERE = os.path.dirname(os.path.abspath(__file__))
GEN_DEEP = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "gen_deep_cl.py")


def module_source():
    return "".join(
        f"kernel void k{i}(global int *p, global const int *q, int s) "
        f"{{ size_t g = get_global_id(0); p[g] = q[g] * s + {i}; }}\n" for i in range(KERNELS))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k2s", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--update", action="store_true", help="record the count as the baseline")
    ap.add_argument("--case", choices=("many", "deep"), default="many")
    a = ap.parse_args()
    for tool in ("valgrind", "clang-15", "llvm-spirv-15"):
        if not shutil.which(tool):
            print(f"{tool} not found: skipped")
            return 77
    os.makedirs(a.workdir, exist_ok=True)
    stem = "many_kernels" if a.case == "many" else f"deep{DEEP_STEPS}"
    cl, bc, spv = (os.path.join(a.workdir, f"{stem}.{e}") for e in ("cl", "bc", "spv"))
    if a.case == "many":
        source = module_source()
    else:
        source = subprocess.run([sys.executable, GEN_DEEP, str(DEEP_STEPS)], check=True,
                                capture_output=True, text=True).stdout
    with open(cl, "w", encoding="utf-8") as f:
        f.write(source)
    subprocess.run(["clang-15", "-cc1", "-triple", "spir64", "-cl-std=CL1.2", "-O2",
                    "-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc", cl,
                    "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", bc, "-o", spv], check=True)
    # meson test sets MALLOC_PERTURB_, which makes glibc fill every malloc'd and
    # freed block: instructions that are not k2s's, and vary with the value.
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", a.k2s,
                        spv, "-o", os.path.join(a.workdir, f"{stem}.out.spv"),
                        "--no-validate-input", "--no-validate-output"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    err = p.stderr.decode()
    m = re.search(r"refs:\s+([\d,]+)", err)
    if p.returncode != 0 or not m:
        print(err[-3000:])
        print("FAIL: k2s under callgrind did not finish")
        return 1
    count = int(m.group(1).replace(",", ""))
    if a.update:
        with open(a.baseline, "w", encoding="utf-8") as f:
            f.write(f"{count}\n")
        print(f"baseline set to {count}")
        return 0
    base = int(open(a.baseline, encoding="utf-8").read().split()[0])
    ratio = count / base
    what = f"{KERNELS} kernels" if a.case == "many" else f"one function of {DEEP_STEPS} steps"
    print(f"{what}: {count:,} instructions, baseline {base:,}: {ratio:.2f}x "
          f"(limit {FACTOR}x)")
    if ratio > FACTOR:
        print("FAIL: translation got more than twice as expensive; profile with "
              "valgrind --tool=callgrind and see bench/RESULTS.md")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
