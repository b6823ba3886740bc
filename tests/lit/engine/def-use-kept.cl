// Def-use is built once and kept valid by every pass (issue 16): --time-passes says
// "def-use built N×" after a pass that had to build it for the whole module, which
// happens only when an earlier pass changed operands without keeping it. The kernels
// exercise the passes that used to drop it: math (the linked library), inline,
// promote-locals, atomics, pointers (mixed-type access re-types a buffer as words),
// physical-pointers, wide-vectors, group-ops, barriers, loop-hints. structurize is left
// out of the pipeline (it still drops def-use, and is another pass's work); the
// first build may happen before the passes (the input repair), hence 0 or 1.
// RUN: clang-15 -cc1 -triple spir64 -cl-std=CL2.0 -O2 -no-opaque-pointers -finclude-default-header -emit-llvm-bc %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s --time-passes --no-validate-output --passes=debug-info,hints,entry-points,math,inline,promote-locals,async-copies,work-items,atomics,pointer-mode,physical-pointers,kernel-args,images,pointers,private-atomics,printf,group-ops,wide-vectors,conversions,builtins,signed-rem,narrow-indices,word-vectors,uniform-layout,physical-aligned,no-contraction,barriers,reflection,loop-guard,target,cleanup,loop-hints,debug-emit,finalize %t.spv -o %t.out.spv 2>%t.log
// RUN: python3 -c "import sys; n = open(sys.argv[1]).read().count('def-use built'); print(n); sys.exit(n > 1)" %t.log
// RUN: FileCheck %s --check-prefix=RAN < %t.log
// RUN: %k2s --time-passes --no-validate-output --pointers=physical --target-env=vulkan1.2 --passes=entry-points,math,inline,promote-locals,work-items,atomics,physical-pointers,kernel-args,pointers,group-ops,wide-vectors,builtins,physical-aligned,barriers,reflection,cleanup,finalize %t.spv -o %t.phys.spv 2>%t.phys.log
// RUN: python3 -c "import sys; n = open(sys.argv[1]).read().count('def-use built'); print(n); sys.exit(n > 1)" %t.phys.log
// RUN: FileCheck %s --check-prefix=PHYS < %t.phys.log
// RAN: time: math {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}
// RAN: time: inline {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}
// RAN: time: pointers {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}
// RAN: time: group-ops {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}
// RAN: time: wide-vectors {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}
// PHYS: time: physical-pointers {{.*}} MB arena ({{[-+][0-9.]+}}){{$|  def}}

__attribute__((noinline)) static float scale(global const float *p, int i)
{
  return p[i] * 2.0f;
}

kernel void mixed(global float *out, global const float *in, global uchar *bytes,
                  global int *counter, local float *tile, global float16 *wide)
{
  size_t g = get_global_id(0), l = get_local_id(0);
  float acc = 0.0f;
  for (int k = 0; k < 4; k++)
    acc += sin(in[g + k]) + scale(in, k);
  tile[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  acc += work_group_reduce_add(tile[(l + 1) % get_local_size(0)]);
  global uint *words = (global uint *)bytes;
  words[g] = as_uint(acc) ^ bytes[g * 4 + 1];
  wide[g] = wide[g] * acc;
  atomic_inc(counter);
  out[g] = acc;
}
