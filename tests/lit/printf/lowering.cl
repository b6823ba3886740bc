// printf's lowering: a record (format id, a string literal's id, a float promoted to
// double stored as the float, a long as two words, a uchar2 packed in one word) reserved
// by a compare-exchange loop on word 0 of the printf buffer, capacity = size/4 - 2 words;
// a record that does not fit bumps the last word and makes printf return -1; the formats
// and sizes in the reflection (embedded, JSON, descriptor map); MayUsePrintf on the kernel.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL1.2 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s --no-cleanup %t.spv -o %t.out.spv -printf-buffer-size=4096 --reflect=%t.json --descriptormap=%t.csv
// RUN: spirv-val --target-env vulkan1.1 %t.out.spv
// RUN: spirv-dis %t.out.spv | FileCheck %s
// RUN: spirv-dis %t.out.spv | FileCheck %s --check-prefix=NOSTR
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: %k2s --no-cleanup %t.spv -o %t.phys.spv --pointers=physical --target-env vulkan1.2
// RUN: spirv-val --target-env vulkan1.2 %t.phys.spv

kernel void k(global int *ret, float f, long l)
{
  ret[get_global_id(0)] = printf("%s %.2f %ld %v2hhx\n", "abc", f, l, (uchar2)(1, 2));
}

// The string literals are gone from the shader code (the reflection has them).
// NOSTR-NOT: Private
// NOSTR: PrintfInfo
// NOSTR-NOT: Private

// CHECK-DAG: OpDecorate %printf_buffer DescriptorSet 1
// CHECK-DAG: OpDecorate %printf_buffer Binding 0
// CHECK: [[F:%[0-9]+]] = OpBitcast %uint %f
// CHECK: [[L:%[0-9]+]] = OpBitcast %v2uint %l
// CHECK: [[LO:%[0-9]+]] = OpCompositeExtract %uint [[L]] 0
// CHECK: [[HI:%[0-9]+]] = OpCompositeExtract %uint [[L]] 1
// CHECK: OpShiftLeftLogical %uint %{{[0-9]+}} %uint_8
// CHECK: [[V:%[0-9]+]] = OpBitwiseOr %uint
// CHECK: [[W0:%[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %printf_buffer %uint_0 %uint_0
// CHECK: [[FIRST:%[0-9]+]] = OpAtomicLoad %uint [[W0]] %uint_1 %uint_0
// CHECK: [[HEAD:%[0-9]+]] = OpLabel
// CHECK-NEXT: [[CUR:%[0-9]+]] = OpPhi %uint [[FIRST]] %entry [[SEEN:%[0-9]+]] [[TRY:%[0-9]+]]
// CHECK-NEXT: [[END:%[0-9]+]] = OpIAdd %uint [[CUR]] %uint_6
// CHECK-NEXT: OpULessThanEqual %bool [[END]] %uint_1022
// CHECK: [[TRY]] = OpLabel
// CHECK-NEXT: [[SEEN]] = OpAtomicCompareExchange %uint [[W0]] %uint_1 %uint_0 %uint_0 [[END]] [[CUR]]
// CHECK: OpAccessChain %_ptr_StorageBuffer_uint %printf_buffer %uint_0 %uint_1023
// CHECK-NEXT: OpAtomicIAdd %uint %{{[0-9]+}} %uint_1 %uint_0 %uint_1
// CHECK: OpIAdd %uint [[CUR]] %uint_1
// CHECK-NEXT: [[P:%[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_uint %printf_buffer %uint_0
// CHECK-NEXT: OpStore [[P]] %uint_1
// CHECK: OpStore %{{[0-9]+}} %uint_0
// CHECK: OpStore %{{[0-9]+}} [[F]]
// CHECK: OpStore %{{[0-9]+}} [[LO]]
// CHECK: OpStore %{{[0-9]+}} [[HI]]
// CHECK: OpStore %{{[0-9]+}} [[V]]
// CHECK: %call = OpPhi %uint %uint_0 %{{[0-9]+}} %uint_4294967295 %{{[0-9]+}}
// CHECK: Kernel %k %{{[0-9]+}} %uint_3 %uint_1
// CHECK: PrintfInfo %uint_0 [[ABC:%[0-9]+]]{{$}}
// CHECK: PrintfInfo %uint_1 [[FMT:%[0-9]+]] %uint_4 %uint_4 %uint_8 %uint_4{{$}}
// CHECK: PrintfBufferStorageBuffer %uint_1 %uint_0 %uint_4096

// JSON: "printf": {"set": 1, "binding": 0, "size": 4096, "formats": [
// JSON-NEXT: {"id": 0, "format": "abc", "arg_sizes": []},
// JSON-NEXT: {"id": 1, "format": "%s %.2f %ld %v2hhx\u000a", "arg_sizes": [4, 4, 8, 4]}]}

// CSV: printf_buffer,descriptorSet,1,binding,0,size,4096
// CSV-NEXT: printf,id,0,hexformat,616263,argSizes,{{$}}
// CSV-NEXT: printf,id,1,hexformat,257320252e326620256c64202576326868780a,argSizes,4:4:8:4{{$}}
