// Depth images (image2d_depth_t): reads return the first channel of a vec4 sample or
// fetch, a write puts the scalar in the first channel; Vulkan's Depth operand stays 0.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL2.0 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s %t.spv -o %t.out.spv
// RUN: spirv-val --target-env vulkan1.1 %t.out.spv
// RUN: spirv-dis %t.out.spv | FileCheck %s
// CHECK-DAG: OpTypeImage %float 2D 0 0 0 1 Unknown
// CHECK-DAG: OpTypeImage %float 2D 0 0 0 2 Unknown
// CHECK: [[F:%[0-9a-z_]+]] = OpImageFetch %v4float
// CHECK: OpCompositeExtract %float [[F]] 0
// CHECK: [[T:%[0-9a-z_]+]] = OpCompositeConstruct %v4float
// CHECK: OpImageWrite {{%[0-9a-z_]+}} {{%[0-9a-z_]+}} [[T]]
kernel void d(read_only image2d_depth_t src, write_only image2d_depth_t dst, sampler_t s,
              global float *o)
{
  int x = get_global_id(0);
  float v = read_imagef(src, s, (int2)(x, 0)) + read_imagef(src, (int2)(x, 0));
  write_imagef(dst, (int2)(x, 0), v);
  o[x] = v + get_image_width(src);
}
