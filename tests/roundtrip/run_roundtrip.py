#!/usr/bin/env python3
"""Identity round trip: `k2s --passes=none X.spv -o Y.spv` must give back X
byte for byte, for

  - every module the project can produce from corpus/ (each .cl under each
    triple / cl-std / -D configuration its .spec names, through clang-15 and
    llvm-spirv-15, with and without --spirv-max-version=1.3),
  - the hand-written modules tests/roundtrip/*.spvasm (assembled with spirv-as
    for the `; TARGET-ENV:` they name, default spv1.0),
  - a byte-swapped (big-endian) copy of each of the above.

It also checks that the full default pipeline treats byte order as
transparent: where k2s translates a module, the translation of its
big-endian copy is the byte-swapped translation of the little-endian one.

Modules spirv-val rejects for a reason k2s does not repair are listed in
NEEDS_NO_VALIDATE below with the reason; they run with --no-validate-input
--no-validate-output, and the report says so. So do modules whose input
validation fails but which the full pipeline translates with a "repaired input"
warning (llvm-spirv-15's block-order quirks). Any other failure is a test
failure.

usage: run_roundtrip.py K2S [--replay FUZZ_REPLAY] [--keep DIR]
  --replay  instead of the round trip, run the fuzz target's replay driver
            (tests/fuzz) over the same modules: every property the fuzzer
            checks, on every real module, in this build's sanitizers.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))
import spv_swap  # noqa: E402

# corpus module name prefix -> why spirv-val rejects what llvm-spirv-15 emits
NEEDS_NO_VALIDATE = {
    "workitem_oob.": "get_global_id(3) becomes OpCompositeExtract index 3 of a 3-component "
                     "vector (llvm-spirv-15), which spirv-val rejects as out of bounds",
}


def build_corpus(out):
    r = subprocess.run([sys.executable, str(REPO / "tools" / "corpus_modules.py"), str(out)],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"building the corpus modules failed:\n{r.stderr}")
    return [pathlib.Path(p) for p in r.stdout.split()]


def assemble_handwritten(out):
    mods = []
    for src in sorted(HERE.glob("*.spvasm")):
        text = src.read_text()
        m = re.search(r"^; TARGET-ENV: (\S+)", text, re.M)
        env = m.group(1) if m else "spv1.0"
        dst = out / f"{src.stem}.spv"
        r = subprocess.run(["spirv-as", "--target-env", env, "--preserve-numeric-ids", str(src),
                            "-o", str(dst)], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"spirv-as failed on {src}:\n{r.stderr}")
        mods.append(dst)
    return mods


def flags_for(path):
    name = path.name
    for prefix, why in NEEDS_NO_VALIDATE.items():
        if name.startswith(prefix):
            return ["--no-validate-input", "--no-validate-output"], why
    src = HERE / (name[:-len(".be.spv")] if name.endswith(".be.spv") else path.stem)
    src = src.with_suffix(".spvasm")
    if src.exists():
        m = re.search(r"^; K2S-FLAGS: (.*)$", src.read_text(), re.M)
        if m:
            return m.group(1).split(), "hand-written module: " + src.name
    return [], None


REPAIRED = ("spirv-val rejects them as llvm-spirv-15 emitted them (a block before its "
            "dominator, a use before its definition in block order, or the Shader "
            "capability declared for OpBitReverse) and the full pipeline repairs them "
            "(checked)")


def repaired_by_pipeline(k2s, m):
    """Does the default pipeline (input repairs on) translate module m?"""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([k2s, str(m), "-o", os.path.join(d, "out.spv")],
                           capture_output=True, text=True, errors="replace")
        return r.returncode == 0 and "repaired input" in r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("k2s")
    ap.add_argument("--replay")
    ap.add_argument("--keep")
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    work = pathlib.Path(a.keep or tmp.name)
    work.mkdir(parents=True, exist_ok=True)
    mods = build_corpus(work / "corpus") + assemble_handwritten(work)
    swapped = []
    for m in mods:
        be = m.with_name(m.stem + ".be.spv")
        be.write_bytes(spv_swap.swap(m.read_bytes()))
        swapped.append(be)
    mods += swapped

    if a.replay:
        r = subprocess.run([a.replay, str(work / "corpus"), str(work)])
        return r.returncode

    failed, relaxed, warned = [], {}, 0
    for m in mods:
        flags, why = flags_for(m)
        out = m.with_name(m.stem + ".out")
        r = subprocess.run([a.k2s, "--passes=none", *flags, str(m), "-o", str(out)],
                           capture_output=True, text=True, errors="replace")
        if r.returncode == 2 and "is not a valid OpenCL SPIR-V module" in r.stderr and \
                repaired_by_pipeline(a.k2s, m):
            # llvm-spirv's block-order quirks: invalid as emitted, so the identity
            # run skips input validation; the full pipeline must still accept it.
            flags, why = ["--no-validate-input", "--no-validate-output"], REPAIRED
            r = subprocess.run([a.k2s, "--passes=none", *flags, str(m), "-o", str(out)],
                               capture_output=True, text=True, errors="replace")
        if r.returncode != 0:
            failed.append(f"{m.name}: exit {r.returncode}\n{r.stderr}")
        elif m.read_bytes() != out.read_bytes():
            failed.append(f"{m.name}: output differs from input")
        else:
            warned += "warning:" in r.stderr
            if why:
                relaxed.setdefault(why, []).append(m.name)
    # Byte order through the whole pipeline.
    translated = endian_same = 0
    for m in mods:
        if m.name.endswith(".be.spv"):
            continue
        be = m.with_name(m.stem + ".be.spv")
        le_out, be_out = m.with_name(m.stem + ".full"), m.with_name(m.stem + ".be.full")
        r1 = subprocess.run([a.k2s, str(m), "-o", str(le_out)], capture_output=True)
        r2 = subprocess.run([a.k2s, str(be), "-o", str(be_out)], capture_output=True)
        if r1.returncode < 0 or r2.returncode < 0:
            failed.append(f"{m.name}: the full pipeline crashed (signal {-min(r1.returncode, r2.returncode)})")
        elif r1.returncode != r2.returncode:
            failed.append(f"{m.name}: full pipeline exit {r1.returncode}, its big-endian copy {r2.returncode}")
        elif r1.returncode == 0:
            translated += 1
            if spv_swap.swap(le_out.read_bytes()) != be_out.read_bytes():
                failed.append(f"{m.name}: big-endian translation is not the swapped little-endian one")
            else:
                endian_same += 1
    for f in failed:
        print("FAIL " + f)
    for why, names in relaxed.items():
        print(f"note: {len(names)} modules ran with extra flags because {why}: {' '.join(names)}")
    print(f"round trip: {len(mods) - len(failed)} of {len(mods)} modules identical "
          f"({len(mods) // 2} little-endian + {len(mods) // 2} big-endian; {warned} with warnings)")
    print(f"full pipeline: {translated} of {len(mods) // 2} modules translate; "
          f"{endian_same} give the same result in both byte orders")
    print(f"{len(mods) + translated - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
