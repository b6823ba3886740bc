#!/usr/bin/env python3
"""Runs the command-line cases of a .cases file and checks exit status and output exactly.

Format (one case per "== NAME" header):
    == name
    run: TOOL ARGS...        TOOL is a name given with --tool NAME=PATH; relative arguments
                             ending in .spv/.cl/.json are looked up in the --data-dir list
    exit: N                  expected exit status (default 0)
    stdout: LINE             expected stdout, one line each, in order (omit: not checked,
                             unless 'stdout-empty' is given)
    stderr-has: TEXT         stderr must contain TEXT
    stderr-lacks: TEXT       stderr must not contain TEXT
    env: NAME=VALUE          set in the tool's environment (repeatable)
    requires: validation     skip the case unless the Vulkan validation layer is installed
    requires: device         skip the case unless `k2s-run --list-devices` finds a device
    requires: opencl         skip the case unless an OpenCL ICD is registered
Exit status: 0 all passed, 1 a case failed, 77 all cases skipped (meson's skip code).
"""
import argparse
import glob
import os
import shlex
import subprocess
import sys


def parse_cases(path):
    cases, cur = [], None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("== "):
                cur = {"name": line[3:].strip(), "exit": 0, "stdout": None,
                       "stderr": [], "stderr_lacks": [], "requires": [], "run": None, "env": {}}
                cases.append(cur)
                continue
            key, sep, value = line.partition(":")
            if cur is None or not sep:
                sys.exit(f"{path}:{lineno}: expected '== NAME' or 'key: value'")
            value = value[1:] if value.startswith(" ") else value
            if key == "run":
                cur["run"] = shlex.split(value)
            elif key == "exit":
                cur["exit"] = int(value)
            elif key == "stdout":
                cur["stdout"] = (cur["stdout"] or []) + [value]
            elif key == "stdout-empty":
                cur["stdout"] = []
            elif key == "stderr-has":
                cur["stderr"].append(value)
            elif key == "stderr-lacks":
                cur["stderr_lacks"].append(value)
            elif key == "env":
                name, _, val = value.partition("=")
                cur["env"][name.strip()] = val
            elif key == "requires":
                cur["requires"].append(value.strip())
            else:
                sys.exit(f"{path}:{lineno}: unknown key '{key}'")
    return cases


def have_validation_layer():
    dirs = ["/usr/share/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d",
            "/etc/vulkan/explicit_layer.d"]
    dirs += os.environ.get("VK_LAYER_PATH", "").split(":")
    return any(glob.glob(os.path.join(d, "*khronos_validation*.json")) for d in dirs if d)


def have_opencl():
    vendors = os.environ.get("OCL_ICD_VENDORS", "/etc/OpenCL/vendors")
    return bool(glob.glob(os.path.join(vendors, "*.icd")) if os.path.isdir(vendors)
                else os.path.isfile(vendors))


def have_device(tools):
    if "k2s-run" not in tools:
        return False
    try:
        p = subprocess.run([tools["k2s-run"], "--list-devices"], capture_output=True,
                           text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and p.stdout.strip() != ""


CASES_DIR = "."


def resolve(argv, tools, data_dirs):
    if argv[0] not in tools:
        raise KeyError(f"unknown tool '{argv[0]}'")
    out = [tools[argv[0]]]
    for a in argv[1:]:
        if a.endswith((".spv", ".cl", ".json")) and not os.path.isabs(a):
            found = [os.path.join(d, a) for d in data_dirs if os.path.exists(os.path.join(d, a))]
            a = found[0] if found else a
        head, sep, path = a.partition("=file:")
        if sep and not os.path.isabs(path):  # buffer:...=file:NAME, a data file here
            a = head + sep + os.path.join(CASES_DIR, path)
        out.append(a)
    return out


def check(case, proc):
    problems = []
    if proc.returncode != case["exit"]:
        problems.append(f"exit status {proc.returncode}, expected {case['exit']}")
    got = proc.stdout.splitlines()
    if case["stdout"] is not None and got != case["stdout"]:
        problems.append("stdout differs:\n  got:      " + "\n            ".join(got) +
                        "\n  expected: " + "\n            ".join(case["stdout"]))
    for text in case["stderr"]:
        if text not in proc.stderr:
            problems.append(f"stderr lacks '{text}'")
    for text in case["stderr_lacks"]:
        if text in proc.stderr:
            problems.append(f"stderr has '{text}'")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--tool", action="append", default=[], help="NAME=PATH")
    ap.add_argument("--data-dir", action="append", default=[],
                    help="where relative data files are looked up (repeatable)")
    opts = ap.parse_args()
    global CASES_DIR
    CASES_DIR = os.path.dirname(os.path.abspath(opts.cases))
    tools = dict(t.split("=", 1) for t in opts.tool)
    failed = ran = 0
    device = None
    for case in parse_cases(opts.cases):
        if "validation" in case["requires"] and not have_validation_layer():
            print(f"SKIP {case['name']}: no validation layer")
            continue
        if "opencl" in case["requires"] and not have_opencl():
            print(f"SKIP {case['name']}: no OpenCL ICD")
            continue
        if "device" in case["requires"]:
            device = have_device(tools) if device is None else device
            if not device:
                print(f"SKIP {case['name']}: no Vulkan device")
                continue
        ran += 1
        try:
            argv = resolve(case["run"], tools, opts.data_dir or ["."])
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, **case["env"]})
        except (KeyError, OSError, subprocess.TimeoutExpired) as e:
            print(f"FAIL {case['name']}: {e}")
            failed += 1
            continue
        problems = check(case, proc)
        if problems:
            failed += 1
            print(f"FAIL {case['name']}: " + "; ".join(problems))
            print("  command: " + shlex.join(argv))
            if proc.stderr:
                print("  stderr: " + proc.stderr.strip().replace("\n", "\n          "))
        else:
            print(f"PASS {case['name']}")
    print(f"{ran - failed} passed, {failed} failed")
    if failed:
        return 1
    return 0 if ran else 77


if __name__ == "__main__":
    sys.exit(main())
