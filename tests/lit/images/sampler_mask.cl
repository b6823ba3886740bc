// A sampler argument that meets a 3-D or array image: Vulkan has no unnormalized
// samplers for those, so the host binds it normalized and passes its sampler_t bits in
// a push constant (NormalizedSamplerMaskPushConstant, in all three reflection forms);
// the shader selects normalized coordinates (nearest: the texel centre; linear) where
// the bits say unnormalized. A sampler used with 2-D images only has no such entry.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s %t.spv -o %t.out.spv --reflect=%t.json --descriptormap=%t.csv
// RUN: spirv-val --target-env vulkan1.1 %t.out.spv
// RUN: spirv-dis %t.out.spv | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// CHECK: OpImageQuerySizeLod %v3uint
// CHECK: OpExtInst %v4float {{%[0-9]+}} Floor
// CHECK: OpBitwiseAnd %uint {{%[0-9]+}} %uint_48
// CHECK: OpIEqual %bool {{%[0-9]+}} %uint_16
// CHECK: OpSelect %v4float
// CHECK: OpSelect %v4float
// CHECK: OpImageSampleExplicitLod
// CHECK: [[K:%[0-9]+]] = OpExtInst %void {{%[0-9]+}} Kernel %k3
// CHECK: OpExtInst %void {{%[0-9]+}} 41 [[K]] %uint_1 {{%[a-z_0-9]+}} %uint_4
// CHECK-NOT: OpExtInst %void {{%[0-9]+}} 41
// JSON: "name": "k3"
// JSON: "image_info": [{"ordinal": 1, "what": "normalized_sampler_mask", "offset": {{[0-9]+}}, "size": 4}
// JSON: "name": "k2"
// JSON-NOT: normalized_sampler_mask
// CSV: image_info,kernel,k3,argOrdinal,1,normalized_sampler_mask,offset,{{[0-9]+}},size,4
// CSV-NOT: kernel,k2,argOrdinal,1,normalized_sampler_mask

kernel void k3(read_only image3d_t img, sampler_t s, global float4 *out, float4 c)
{
  *out = read_imagef(img, s, c);
}

kernel void k2(read_only image2d_t img, sampler_t s, global float4 *out, float2 c)
{
  *out = read_imagef(img, s, c);
}
