// `#pragma nounroll` from OpenCL C: llvm-spirv 15 emits the loop's OpLoopMerge
// DontUnroll where spirv-val rejects it ("already a merge block for another
// header"), so the input repair drops every merge of the function; the DontUnroll
// must survive that (structurize gives it to the loop it finds at the same
// header) and loop-hints must not turn the user's nounroll into Unroll.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: not spirv-val %t.spv
// RUN: %k2s --target-env=vulkan1.2 %t.spv -o %t.12.spv 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: spirv-val --target-env vulkan1.2 %t.12.spv
// RUN: spirv-dis %t.12.spv | FileCheck %s
// WARN: repaired input: spirv-val rejects the producer's merge hints
// CHECK-NOT: Unroll
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} DontUnroll
// CHECK-NOT: OpLoopMerge {{.*}} Unroll
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} DontUnroll
// CHECK-NOT: OpLoopMerge {{.*}} Unroll
kernel void k(global float *a, int n)
{
    float s = 0.0f;
#pragma nounroll
    for (int i = 0; i < n; i++)
        s += a[i] * 2.0f;
#pragma unroll 2
    for (int i = 0; i < n; i++)
        a[i] += s;
}
