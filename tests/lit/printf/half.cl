// half arguments: a half scalar (clang promotes it to double; the record holds it as a
// float) and half vectors (%v2hf: lanes of 2 bytes) on Vulkan. PoCL 3.1 has no
// cl_khr_fp16, so the expected lines are written out: C's %f/%e/%g of 0..5.
// RUN: %k2s_cc %s -o %t.spv
// RUN: %k2s_run %t.spv --kernel printf_half --global 3 --arg buffer:half:6=iota | FileCheck %s
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void printf_half(global half *h)
{
  int i = get_global_id(0);
  half2 v = vload2(i, h) * (half)-1.5f;
  printf("%f %v2hf %.3v2he %v2hg\n", v.x, v, v, v);
}
// CHECK-DAG: {{^}}-0.000000 -0.000000,-1.500000 -0.000e+00,-1.500e+00 -0,-1.5{{$}}
// CHECK-DAG: {{^}}-3.000000 -3.000000,-4.500000 -3.000e+00,-4.500e+00 -3,-4.5{{$}}
// CHECK-DAG: {{^}}-6.000000 -6.000000,-7.500000 -6.000e+00,-7.500e+00 -6,-7.5{{$}}
// CHECK: arg 0: 0 1 2 3 4 5
