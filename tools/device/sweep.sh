#!/usr/bin/env bash
# The wide sweep's whole matrix (docs/sweep.md) on the device machine's CPUs: the build
# machine has 2 cores (~60 h for the matrix); a 64-core device host runs one clang
# version's half in minutes. Nothing of the GPU is used.
#
# Here (needs a k2s build, clang-15/14, llvm-spirv-15/14, spirv-tools, a sweep WORK made by
# `tools/sweep.py extract`), from the repo root:
#   tools/device/sweep.sh prepare WORK [K2S [VERSIONS]]   # writes .sweep-device/ (~40 MB a version)
#     K2S defaults to build/passes/k2s, VERSIONS to "15 14".
# There (device tool; carry [".sweep-device"], one clang version a call: each toolchain is
# ~40 MB of the 64 MiB a call may carry, so prepare only the version the call runs):
#   SWEEP_CLANG=15 SWEEP_SECONDS=480 bash tools/device/sweep.sh run
#   (carry the files, not the folder, when it holds several toolchains: [".sweep-device/k2s",
#   ".sweep-device/label", ".sweep-device/work.tar.xz", ".sweep-device/tc-15.tar.xz"])
# writes $OUT/sweep-15.jsonl.xz (the records, as tools/sweep.py run writes them),
# $OUT/failures-15.tar.xz (modules that were internal/crash/invalid/timeout), and
# $OUT/report-15.md. A run stopped by SWEEP_SECONDS is resumed by the next call when its
# records are put back as .sweep-device/prev-15.jsonl.xz.
#
# Differential execution at scale (tools/diffexec.py over the work's OpenCL C sources):
# k2s's translation on NVIDIA's Vulkan driver against the OpenCL C source on NVIDIA's
# OpenCL, same GPU, same generated inputs (carry also ".gl" and ".sweep-device/bin"):
#   DIFFEXEC_SECONDS=400 DIFFEXEC_ARGS="--env vulkan1.2" bash tools/device/sweep.sh diffexec
# writes $OUT/diffexec.jsonl.xz and diffexec.log.xz (clang-15 toolchain).
#
# The toolchain is the build machine's own (Debian 12) binaries with the shared libraries
# they load. Two of those are replaced by generated stubs to fit the carry limit: ICU
# (libicuuc, only reached from libxml2's character-set conversion) and Z3 (only reached
# from the clang static analyzer's constraint solver). Neither is ever called by
# `clang -cc1 -emit-llvm-bc` or llvm-spirv; a stub that were called aborts, naming itself,
# and the build would then count as a front-end failure, never as a k2s result.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=.sweep-device

stub_lib() { # stub_lib SONAME OUTDIR CONSUMER... : a library defining what the consumers need of it
  local soname=$1 out=$2; shift 2
  local pat
  case $soname in
  libicuuc*) pat="_${soname##*.}\$" ;; # ICU suffixes its symbols with its major version
  libz3*) pat='^Z3_' ;;
  esac
  local c=$out/$soname.c
  {
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    nm -D --undefined-only "$@" | awk '{print $2}' | sed 's/@.*//' | grep -E "$pat" | sort -u |
      while read -r s; do
        echo "void $s(void) { fprintf(stderr, \"k2s sweep toolchain: stub $soname: $s called\\n\"); abort(); }"
      done
  } > "$c"
  gcc -shared -fPIC -O1 -Wl,-soname,"$soname" -o "$out/$soname" "$c" && rm -f "$c"
}

toolchain() { # toolchain VERSION : .sweep-device/tc-VERSION.tar.xz
  local v=$1 t
  t=$(mktemp -d)
  local tc=$t/tc-$v
  mkdir -p "$tc/bin" "$tc/lib"
  cp -L "/usr/lib/llvm-$v/bin/clang" "$tc/bin/clang-$v"
  cp -L "$(command -v "llvm-spirv-$v")" "$tc/bin/llvm-spirv-$v"
  cp -L "$(command -v spirv-val)" "$(command -v spirv-as)" "$(command -v spirv-dis)" "$tc/bin/"
  local res
  res=$(ls -d /usr/lib/llvm-$v/lib/clang/*/ | head -1)
  mkdir -p "$tc/lib/clang/$(basename "$res")/include"
  cp "$res"/include/opencl-c*.h "$tc/lib/clang/$(basename "$res")/include/"
  local f
  for f in $(ldd "$tc"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u); do
    case $(basename "$f") in
    libc.so.*|libm.so.*|ld-linux*|libpthread.so.*|libdl.so.*|librt.so.*) ;;
    libicu*|libz3.so.*) ;;
    *) [ -e "$tc/lib/$(basename "$f")" ] || cp -L "$f" "$tc/lib/" ;;
    esac
  done
  local icu
  icu=$(ldd "$tc/lib/libxml2.so.2" | awk '$1 ~ /^libicuuc\.so/ {print $1}')
  stub_lib "$icu" "$tc/lib" "$tc"/lib/libxml2.so.2 || return 1
  stub_lib libz3.so.4 "$tc/lib" "$tc"/lib/libLLVM-$v.so.1 || return 1
  # The stubs must satisfy the loader: every binary starts.
  LD_LIBRARY_PATH=$tc/lib "$tc/bin/clang-$v" --version >/dev/null || return 1
  LD_LIBRARY_PATH=$tc/lib "$tc/bin/llvm-spirv-$v" --version >/dev/null || return 1
  tar -C "$t" -cf - "tc-$v" | xz -T2 -6 > "$dir/tc-$v.tar.xz"
  rm -rf "$t"
}

case "${1:-}" in
prepare)
  work=${2:?usage: $0 prepare WORK [K2S [VERSIONS]]}
  k2s=${3:-build/passes/k2s}
  versions=${4:-15 14}
  mkdir -p "$dir/bin"
  cp "$k2s" "$dir/k2s"
  cp "$(dirname "$k2s")/k2s-validator" "$dir/" # the helper it validates through
  bdir=$(dirname "$(dirname "$k2s")")
  cp -L "$(command -v spirv-dis)" "$dir/bin/" # older toolchain tarballs lack it
  cp "$bdir/src/run/k2s-run" "$bdir/tests/clref/k2s-clref" "$dir/bin/" 2>/dev/null ||
    echo "sweep.sh: no k2s-run/k2s-clref beside $k2s (diffexec needs them)" >&2
  git describe --always --dirty > "$dir/label"
  [ -f "$dir/work.tar.xz" ] || tar -C "$work" -cf - manifest.jsonl src | xz -T2 -6 > "$dir/work.tar.xz"
  for v in $versions; do
    toolchain "$v" || { echo "sweep.sh: toolchain $v failed" >&2; exit 1; }
  done
  du -sh "$dir"
  ;;
run|diffexec)
  mode=$1
  v=${SWEEP_CLANG:-15}
  [ "$mode" = diffexec ] && v=15 # diffexec.py builds with clang-15 + llvm-spirv-15
  OUT=${OUT:-/tmp/sweep-out}
  mkdir -p "$OUT"
  sw=/tmp/k2s-sweep
  rm -rf "$sw"
  mkdir -p "$sw"
  python3 - "$dir" "$sw" "$v" <<'EOF'
import sys, tarfile
d, sw, v = sys.argv[1:]
for name in (f"tc-{v}.tar.xz", "work.tar.xz"):
    with tarfile.open(f"{d}/{name}") as t:
        t.extractall(sw if name.startswith("tc") else f"{sw}/work")
EOF
  if [ "$mode" = diffexec ]; then
    . tools/device/setup.sh
    [ -f /etc/OpenCL/vendors/nvidia.icd ] && export OCL_ICD_VENDORS=/etc/OpenCL/vendors/nvidia.icd
  fi
  [ -e "$sw/tc-$v/bin/spirv-dis" ] || cp "$dir/bin/spirv-dis" "$sw/tc-$v/bin/" 2>/dev/null
  # The toolchain's libraries only for the toolchain: k2s-run/k2s-clref keep the host's.
  for b in "$sw/tc-$v/bin/"*; do
    mv "$b" "$b.real"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$sw/tc-$v/lib" "$b.real" > "$b"
    chmod +x "$b"
  done
  export PATH=$sw/tc-$v/bin:$PATH
  if [ "$mode" = diffexec ]; then
    start=$(date +%s)
    timeout "${DIFFEXEC_SECONDS:-400}" python3 tools/diffexec.py --sweep "$sw/work" \
      --k2s "$dir/k2s" --k2s-run "$dir/bin/k2s-run" --clref "$dir/bin/k2s-clref" \
      -j "${DIFFEXEC_JOBS:-32}" --json "$sw/diffexec.jsonl" ${DIFFEXEC_ARGS:-} > "$sw/diffexec.log" 2>&1
    echo "diffexec wall: $(( $(date +%s) - start )) s" >> "$sw/diffexec.log"
    grep -E "^(MISMATCH|summary|diffexec wall)" "$sw/diffexec.log" | tail -80
    xz -6 -c "$sw/diffexec.jsonl" > "$OUT/diffexec.jsonl.xz"
    xz -6 -c "$sw/diffexec.log" > "$OUT/diffexec.log.xz"
    exit 0
  fi
  label=$(cat "$dir/label")
  results=r-$v.jsonl
  if [ -f "$dir/prev-$v.jsonl.xz" ]; then
    xz -dc "$dir/prev-$v.jsonl.xz" > "$sw/work/$results"
  fi
  {
    echo "host: $(nproc) CPUs; $(uname -sr)"
    ldd --version 2>&1 | head -1
    clang-$v --version | head -1
    llvm-spirv-$v --version | head -2 | tail -1
    spirv-val --version | head -1
    printf '__kernel void k(__global int *p) { p[get_global_id(0)] += 1; }\n' > "$sw/t.cl"
    clang-$v -cc1 -triple spir64 -cl-std=CL1.2 -O2 -finclude-default-header -emit-llvm-bc \
      $([ "$v" = 15 ] && echo -no-opaque-pointers) "$sw/t.cl" -o "$sw/t.bc" &&
      llvm-spirv-$v "$sw/t.bc" -o "$sw/t.spv" && "$dir/k2s" "$sw/t.spv" -o "$sw/t.out.spv" &&
      spirv-val --target-env vulkan1.1 "$sw/t.out.spv" && echo "smoke: ok"
  } 2>&1 | tee "$OUT/host-$v.txt"
  start=$(date +%s)
  timeout "${SWEEP_SECONDS:-480}" python3 tools/sweep.py run --work "$sw/work" --k2s "$dir/k2s" \
    --label "$label" --configs "clang=$v" -j "${SWEEP_JOBS:-$(nproc)}" --keep-failures \
    --results "$results" --progress 2000 2>&1 | tee "$OUT/sweep-$v.log"
  echo "sweep wall: $(( $(date +%s) - start )) s" | tee -a "$OUT/sweep-$v.log"
  python3 tools/sweep.py report --work "$sw/work" --results "$results" --out "$OUT/report-$v.md" >/dev/null
  xz -T0 -6 -c "$sw/work/$results" > "$OUT/sweep-$v.jsonl.xz"
  if [ -d "$sw/work/failures" ]; then
    tar -C "$sw/work" -cf - failures | xz -6 > "$OUT/failures-$v.tar.xz"
  fi
  ls -la "$OUT"
  ;;
*)
  sed -n 2,31p "$0"
  exit 2
  ;;
esac
