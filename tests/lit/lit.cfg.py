# lit configuration for k2s pass tests: spvasm files with `; RUN:` and
# `; CHECK:` lines, anywhere under tests/lit/ (one directory per area).
#
# Run through meson (`meson test lit`), or by hand:
#   /usr/lib/llvm-15/build/utils/lit/lit.py -sv tests/lit --param k2s=build/passes/k2s
# The k2s binary comes from --param k2s=PATH, else $K2S, else BUILD/passes/k2s, where
# BUILD is --param build_dir=DIR, else $K2S_BUILD_DIR, else build/ (also where Output/ goes).
#
# Substitutions: %k2s (the translator), %expect_exit N (runs the rest of the
# line and fails unless it exits with status N), %swap (byte-swaps a module:
# %swap IN -o OUT). spirv-as, spirv-val, spirv-dis, spirv-link, FileCheck, not,
# count are on PATH.
import os
import shutil

import lit.formats

config.name = "k2s"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".spvasm", ".test", ".cl"]
config.excludes = ["Inputs", "lit.cfg.py", "README.md"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(config.test_source_root))

build_dir = lit_config.params.get("build_dir") or os.environ.get("K2S_BUILD_DIR")
if not build_dir and os.path.isdir(os.path.join(repo, "build")):
    build_dir = os.path.join(repo, "build")
if build_dir:
    # Keep %t files (Output/ directories) out of the source tree.
    config.test_exec_root = os.path.join(os.path.abspath(build_dir), "tests", "lit-out")


def find_k2s():
    k2s = lit_config.params.get("k2s") or os.environ.get("K2S")
    if not k2s:
        k2s = os.path.join(build_dir or os.path.join(repo, "build"), "passes", "k2s")
    k2s = os.path.abspath(k2s)
    if not os.access(k2s, os.X_OK):
        lit_config.fatal(f"k2s not found at {k2s}: build it, or pass --param k2s=PATH")
    return k2s


# "asan": k2s is built with AddressSanitizer, which reserves terabytes of address space
# at start, so tests under `ulimit -v` cannot run it.
with open(find_k2s(), "rb") as f:
    if b"__asan_init" in f.read():
        config.available_features.add("asan")

llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-15/bin")
path = [llvm_bin, os.path.dirname(find_k2s()), config.environment.get("PATH", os.environ.get("PATH", ""))]
config.environment["PATH"] = os.pathsep.join(path)
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

for tool in ("spirv-as", "spirv-val", "spirv-dis", "FileCheck", "not"):
    if not shutil.which(tool, path=config.environment["PATH"]):
        lit_config.fatal(f"{tool} is not on PATH (install spirv-tools / llvm-15-tools)")

tools = os.path.join(repo, "tools")
config.substitutions.append(("%k2s", find_k2s()))
config.substitutions.append(("%expect_exit", f"python3 {os.path.join(tools, 'expect_exit.py')}"))
config.substitutions.append(("%swap", f"python3 {os.path.join(tools, 'spv_swap.py')}"))
# %check_reflection MODULE [--expect OP,...]: clspv's reflection contract (tools/).
config.substitutions.append(
    ("%check_reflection", f"python3 {os.path.join(tools, 'check_clspv_reflection.py')}"))

# %k2s_cc and %k2s_run (before %k2s, which is a prefix of both): the one-step
# front end and the Vulkan runner from the same build as %k2s.
k2s_build = os.path.dirname(os.path.dirname(find_k2s()))
config.substitutions.insert(0, ("%k2s_cc", os.path.join(k2s_build, "src", "k2s-cc")))
config.substitutions.insert(0, ("%k2s_run", os.path.join(k2s_build, "src", "run", "k2s-run")))
# %k2s_validator: the helper the k2s command validates through (beside it).
config.substitutions.insert(0, ("%k2s_validator", os.path.join(os.path.dirname(find_k2s()), "k2s-validator")))
