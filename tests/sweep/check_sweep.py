#!/usr/bin/env python3
"""CI check of the sweep machinery (tools/sweep.py, tools/diffexec.py) on the bundled
sample (tests/sweep/sample): extract, build in two configurations (spir -O2 and -O0, the
latter exercising promote-locals), translate for vulkan1.1, classify and report; then one
differential run on lavapipe vs the OpenCL reference. Fails if a class is wrong, if any
translation is an internal error, crash, invalid output or timeout, or if the report or
the differential run is not what the sample must give. Well under a minute.

Usage: check_sweep.py --k2s K2S --k2s-run K2S_RUN --clref CLREF --work DIR
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
TOOLS = HERE.parent.parent / "tools"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k2s", required=True)
    ap.add_argument("--k2s-run")
    ap.add_argument("--clref")
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    work = pathlib.Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    py = sys.executable
    subprocess.run([py, TOOLS / "sweep.py", "extract", "--out", work, HERE / "sample"],
                   check=True, stdout=subprocess.DEVNULL)
    r = subprocess.run([py, TOOLS / "sweep.py", "run", "--work", work, "--k2s", a.k2s, "-j", "2",
                        "--configs", "clang=15 triple=spir opt=O2,O0 g=0 spv=def env=vulkan1.1",
                        "--progress", "0"], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"sweep.py run failed:\n{r.stderr}")
    names = {json.loads(x)["id"]: json.loads(x)["origin"]
             for x in open(work / "manifest.jsonl")}
    got = {}
    for line in open(work / "results.jsonl"):
        rec = json.loads(line)
        got.setdefault(names[rec["id"]], []).append(rec)
    errors = []
    want = {"scale.cl": "ok", "histogram.cl": "ok", "add.spvasm": "ok", "broken.cl": "frontend"}
    for src, cls in want.items():
        recs = got.get(src, [])
        if not recs or any(r["cls"] != cls for r in recs):
            errors.append(f"{src}: expected {cls}, got {[(r['config'], r['cls'], r['msg']) for r in recs]}")
    for r in got.get("image.cl", []):
        # Refused naming images until images are supported; then it must translate.
        if not (r["cls"] == "ok" or (r["cls"] == "refused" and "image" in r["msg"].lower())):
            errors.append(f"image.cl: {r['config']} {r['cls']}: {r['msg']}")
    if len(got.get("scale.cl", [])) != 2 or len(got.get("add.spvasm", [])) != 1:
        errors.append(f"wrong number of translations: {[(k, len(v)) for k, v in got.items()]}")
    # Resumable: a second run has nothing left to do.
    r = subprocess.run([py, TOOLS / "sweep.py", "run", "--work", work, "--k2s", a.k2s,
                        "--configs", "clang=15 triple=spir opt=O2,O0 g=0 spv=def env=vulkan1.1"],
                       capture_output=True, text=True)
    if "0 builds to run" not in r.stderr:
        errors.append(f"the second run did not resume: {r.stderr.strip()}")
    # The precompiled header (made once per config in WORK/pch) changes no module.
    if not list((work / "pch").glob("*.pch")):
        errors.append("no precompiled header was made in WORK/pch")
    r = subprocess.run([py, TOOLS / "sweep.py", "pch-check", "--work", work, "--configs",
                        "clang=15 triple=spir64 opt=O2,O0 g=0,1 spv=def"],
                       capture_output=True, text=True)
    if r.returncode or "identical SPIR-V" not in r.stdout or "DIFFERENT" in r.stdout:
        errors.append(f"pch-check: {r.stdout}{r.stderr}")
    # Identical modules (at -O0 llvm-spirv's default version and --spirv-max-version=1.3
    # give the same bytes for these kernels) are translated once, recorded per config.
    r = subprocess.run([py, TOOLS / "sweep.py", "run", "--work", work, "--k2s", a.k2s,
                        "--configs", "clang=15 triple=spir opt=O0 g=0 spv=def,1.3 env=vulkan1.1",
                        "--results", "dedup.jsonl", "-j", "1", "--progress", "0"],
                       capture_output=True, text=True)
    recs = [json.loads(x) for x in open(work / "dedup.jsonl")]
    by = {(q["id"], q["config"]): q for q in recs}
    twins = [q for q in recs if q.get("dedup")]
    if not twins:
        errors.append("no module was found identical to another configuration's")
    for q in twins:
        twin = q["config"].replace("v1.3", "vX").replace("vdef", "v1.3").replace("vX", "vdef")
        other = by.get((q["id"], twin))
        if not other or (other["cls"], other["msg"]) != (q["cls"], q["msg"]) or \
                other["hash"] != q["hash"]:
            errors.append(f"deduplicated record differs from its twin: {q} {other}")
    rep = subprocess.run([py, TOOLS / "sweep.py", "report", "--work", work], capture_output=True,
                         text=True, check=True).stdout
    if "| sample | vulkan1.1 |" not in rep or "Front-end failures" not in rep:
        errors.append("report lacks the per-suite row or the front-end line:\n" + rep)
    if a.k2s_run and a.clref:
        d = subprocess.run([py, TOOLS / "diffexec.py", "--k2s", a.k2s, "--k2s-run", a.k2s_run,
                            "--clref", a.clref, "--env", "vulkan1.1", "--strict",
                            str(HERE / "sample" / "scale.cl")], capture_output=True, text=True)
        if d.returncode or "match " not in d.stdout:
            errors.append(f"diffexec on scale.cl: {d.stdout}{d.stderr}")
    for e in errors:
        print("FAIL", e)
    print("sweep check:", "failed" if errors else "passed")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
