#!/usr/bin/env bash
# The main job: install what k2s needs, build it, translate a bundled OpenCL
# kernel and run it on Vulkan (lavapipe unless a GPU is present), next to
# the same kernel run natively on OpenCL (PoCL) for comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ] && [ -z "${K2S_NO_APT:-}" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq clang-15 llvm-spirv-15 spirv-tools spirv-headers libvulkan-dev \
    mesa-vulkan-drivers pocl-opencl-icd ocl-icd-opencl-dev opencl-headers meson ninja-build \
    pkg-config python3 >/dev/null
fi
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang-15 -cc1 -triple spir64 -cl-std=CL1.2 -O2 -no-opaque-pointers -finclude-default-header \
  -emit-llvm-bc corpus/vadd.cl -o "$work/vadd.bc"
llvm-spirv-15 "$work/vadd.bc" -o "$work/vadd.spv"
build/passes/k2s "$work/vadd.spv" -o "$work/vadd.vk.spv" --target-env=vulkan1.1 \
  --descriptormap="$work/vadd.csv"
spirv-val --target-env vulkan1.1 "$work/vadd.vk.spv"
echo "== descriptor map"
cat "$work/vadd.csv"
args=(--kernel vadd --global 16 --local 8 --arg buffer:float:16=iota
      --arg buffer:float:16=rand:7 --arg buffer:float:16=zeros)
echo "== Vulkan (k2s-run)"
build/src/run/k2s-run "$work/vadd.vk.spv" "${args[@]}"
if [ -x build/tests/clref/k2s-clref ]; then
  echo "== OpenCL (PoCL, reference)"
  build/tests/clref/k2s-clref corpus/vadd.cl "${args[@]}"
fi
