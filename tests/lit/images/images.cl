// Image lowering shapes and reflection: a read_only image is a sampled float/int image
// read with OpImageFetch, a write_only one a storage image (format Unknown), a literal
// sampler without a filter (llvm-spirv 15 writes filter mode 0xFFFFFFFF, repaired to
// nearest) becomes a sampler binding in its own set, channel order is a push constant.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s %t.spv -o %t.out.spv --reflect=%t.json --descriptormap=%t.csv
// RUN: spirv-val --target-env vulkan1.1 %t.out.spv
// RUN: spirv-dis %t.out.spv | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 -DMIXED %s -o %t.mixed.bc
// RUN: llvm-spirv-15 %t.mixed.bc -o %t.mixed.spv
// RUN: not %k2s %t.mixed.spv -o %t.mixed.out.spv 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK-DAG: OpDecorate %literal_sampler_0 DescriptorSet 1
// CHECK-DAG: OpDecorate %literal_sampler_0 Binding 0
// CHECK-DAG: [[SRC:%[0-9]+]] = OpTypeImage %int 2D 0 0 0 1 Unknown
// CHECK-DAG: [[DST:%[0-9]+]] = OpTypeImage %int 2D 0 0 0 2 Unknown
// CHECK: OpImageFetch %v4int
// CHECK: OpImageWrite
// CHECK: OpSampledImage
// CHECK: OpImageSampleExplicitLod %v4int
// CHECK-NOT: OpConstantSampler
// JSON: "kind": "ro_image", "set": 0, "binding": 0
// JSON: "kind": "wo_image", "set": 0, "binding": 1
// JSON: "image_info": [{"ordinal": 0, "what": "channel_order"
// JSON: "literal_samplers": [{"set": 1, "binding": 0, "mask": 25, "expr": "CLK_ADDRESS_MIRRORED_REPEAT|CLK_FILTER_NEAREST|CLK_NORMALIZED_COORDS_TRUE"}]
// CSV: sampler,25,samplerExpr,"CLK_ADDRESS_MIRRORED_REPEAT|CLK_FILTER_NEAREST|CLK_NORMALIZED_COORDS_TRUE",descriptorSet,1,binding,0
// CSV: kernel,k,arg,src,argOrdinal,0,descriptorSet,0,binding,0,offset,0,argKind,ro_image
// CSV: image_info,kernel,k,argOrdinal,0,channel_order,offset,{{[0-9]+}},size,4
// MIXED: image argument 'src' is accessed both as float and as integer data

const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT;
kernel void k(read_only image2d_t src, write_only image2d_t dst, global int *o)
{
  int x = get_global_id(0);
  int4 v = read_imagei(src, (int2)(x, 0));
  write_imagei(dst, (int2)(x, 0), v);
#ifdef MIXED
  float4 f = read_imagef(src, s, (float2)(0.5f, 0.5f));
#else
  int4 f = read_imagei(src, s, (float2)(0.5f, 0.5f));
#endif
  o[x] = get_image_channel_order(src) + (int)f.x;
}
