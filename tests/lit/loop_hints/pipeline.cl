// Through the whole pipeline: the runtime loop gets Unroll, the constant loop of
// 512 trips of 8 multiply-add chains (fma_peak's shape) stays None, and the outer
// loop of the nest stays None. The output is valid for every target environment.
// (A producer's DontUnroll is kept: nested-and-producer-hints.spvasm; from OpenCL C
// `#pragma nounroll` llvm-spirv 15 places the OpLoopMerge where input validation
// rejects it, and the repair keeps the hint: repaired-nounroll.cl.)
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s --target-env=vulkan1.1 %t.spv -o %t.11.spv
// RUN: spirv-val --target-env vulkan1.1 %t.11.spv
// RUN: %k2s --target-env=vulkan1.2 %t.spv -o %t.12.spv
// RUN: spirv-val --target-env vulkan1.2 %t.12.spv
// RUN: %k2s --target-env=vulkan1.3 %t.spv -o %t.13.spv
// RUN: spirv-val --target-env vulkan1.3 %t.13.spv
// RUN: spirv-dis %t.12.spv | FileCheck %s
// RUN: %k2s --target-env=vulkan1.2 --unroll-hints=none %t.spv -o %t.none.spv
// RUN: spirv-dis %t.none.spv | FileCheck %s --check-prefix=NONE
// CHECK-LABEL: %strided = OpFunction
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} Unroll
// CHECK-LABEL: %chains = OpFunction
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} None
// CHECK-LABEL: %nest = OpFunction
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} None
// CHECK: OpLoopMerge {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} Unroll
// CHECK-NOT: OpLoopMerge
// CHECK: OpFunctionEnd
// NONE-NOT: Unroll
kernel void strided(global float *out, uint n)
{
    for (uint j = get_local_id(0); j < n; j += 8)
        out[j] = out[j] * 2.0f;
}

kernel void chains(global float *out, float a, float b)
{
    size_t i = get_global_id(0);
    float x0 = (float)i, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
    for (int k = 0; k < 512; k++) {
        x0 = x0 * a + b; x1 = x1 * a + b; x2 = x2 * a + b; x3 = x3 * a + b;
        x4 = x4 * a + b; x5 = x5 * a + b; x6 = x6 * a + b; x7 = x7 * a + b;
    }
    out[i] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

kernel void nest(global float *out, uint n, uint m)
{
    for (uint i = 0; i < n; i++) {
        float s = 0.0f;
        for (uint j = 0; j < m; j++)
            s += out[j] * (float)i;
        out[i] = s;
    }
}
