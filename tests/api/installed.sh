#!/usr/bin/env bash
# The installed library as its users see it: `meson install` into a scratch
# root, then a C and a C++ program built only with `pkg-config k2s` against
# it, run on a corpus kernel. Also: the shared library's SONAME is versioned
# and it exports exactly the functions of include/k2s/k2s.h.
# usage: installed.sh BUILD_DIR SOURCE_DIR KERNEL.spvasm
set -euo pipefail
build=$1 src=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
spv=$root/kernel.spv
spirv-as "$3" -o "$spv"
meson install -C "$build" --no-rebuild --destdir "$root" >/dev/null
pc=$(dirname "$(find "$root" -name k2s.pc | head -1)")
[ -n "$pc" ] || { echo "no k2s.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$root
so=$(find "$root" -name 'libk2s.so.*.*.*' | head -1)
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libk2s.so.0 ] || { echo "SONAME is '$soname', not libk2s.so.0"; exit 1; }
exported=$(nm -D --defined-only "$so" | awk '{print $3}' | sort)
declared=$(grep -o '^K2S_API [^(]*(' "$src/include/k2s/k2s.h" | sed 's/($//; s/.*[ *]//' | sort)
if [ "$exported" != "$declared" ]; then
  echo "exported symbols differ from the header's K2S_API functions:"
  diff <(echo "$declared") <(echo "$exported") || true
  exit 1
fi
libdir=$(dirname "$so")
cc=${CC:-cc}
cxx=$(command -v c++ || command -v clang++-15)
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror "$src/tests/api/use_k2s.c" -o "$root/use_k2s" $(pkg-config --cflags --libs k2s)
# shellcheck disable=SC2046
$cxx -std=c++17 -Wall -Werror "$src/tests/api/use_k2s.cpp" -o "$root/use_k2s_cxx" $(pkg-config --cflags --libs k2s)
LD_LIBRARY_PATH=$libdir "$root/use_k2s" "$spv" "$root/out.spv"
spirv-val --target-env vulkan1.2 "$root/out.spv"
LD_LIBRARY_PATH=$libdir "$root/use_k2s_cxx" "$spv"
echo "installed library: SONAME $soname, $(echo "$exported" | wc -l) exported functions, C and C++ programs OK"
