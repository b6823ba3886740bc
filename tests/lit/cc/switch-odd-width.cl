// clang -O2 narrows this switch to `switch i3`, which llvm-spirv 15 refuses
// ("InvalidBitWidth"); k2s-cc optimises again with native integer widths
// declared, and the kernel computes what the source says.
// RUN: clang-15 -c -target spir64 -cl-std=CL1.2 -O2 -emit-llvm -Xclang -no-opaque-pointers %s -o %t.bc
// RUN: not llvm-spirv-15 %t.bc -o %t.direct.spv 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: %k2s_cc -v %s -o %t.spv 2>&1 | FileCheck %s --check-prefix=NOTE
// RUN: %k2s_run %t.spv --kernel pick --global 8 --arg buffer:int:8=iota --arg buffer:int:8=zeros | FileCheck %s
// DIRECT: InvalidBitWidth
// NOTE: k2s-cc: note: llvm-spirv rejects an odd integer width
// CHECK: arg 1: 5 9 0 13 0 0 2 0{{$}}
kernel void pick(global const int *a, global int *b)
{
  size_t i = get_global_id(0);
  switch (a[i] & 7) {
  case 0: b[i] = 5; break;
  case 1: b[i] = 9; break;
  case 3: b[i] = a[i] * 4 + 1; break;
  case 6: b[i] = 2; break;
  default: break;
  }
}
