// k2s-cc: OpenCL C to a running Vulkan kernel in one step, with the argument
// names in the reflection, -S for assembly, and two llvm-spirv 15 limits
// worked around (see switch-odd-width.cl and Inputs/freeze.ll).
// RUN: %k2s_cc %s -o %t.spv --reflect=%t.json --descriptormap=%t.csv
// RUN: spirv-val --target-env vulkan1.1 %t.spv
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: FileCheck %s --input-file=%t.csv --check-prefix=MAP
// RUN: %k2s_run %t.spv --kernel scale --global 4 --arg buffer:float:4=iota --arg pod:float=2.5 | FileCheck %s --check-prefix=OUT
// RUN: %k2s_cc %s -S -o %t.spvasm --target-env=vulkan1.2
// RUN: FileCheck %s --input-file=%t.spvasm --check-prefix=ASM
// RUN: %k2s_cc --spir32 -O1 -DFACTOR=3.0f %s -o %t.32.spv
// RUN: %k2s_run %t.32.spv --kernel scale --global 4 --arg buffer:float:4=iota --arg pod:float=1 | FileCheck %s --check-prefix=OUT32
// JSON: "name": "scale", "args": [
// JSON: "name": "data", "ordinal": 0
// JSON: "name": "factor", "ordinal": 1
// MAP: kernel,scale,arg,data,argOrdinal,0
// OUT: arg 0: 0 2.5 5 7.5{{$}}
// OUT32: arg 0: 0 3 6 9{{$}}
// ASM: ; SPIR-V
// ASM: ; Version: 1.5
// ASM: OpEntryPoint GLCompute %{{.*}} "scale"
#ifndef FACTOR
#define FACTOR 1.0f
#endif
kernel void scale(global float *data, float factor)
{
  size_t i = get_global_id(0);
  data[i] = data[i] * factor * FACTOR;
}
