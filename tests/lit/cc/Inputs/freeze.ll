; LLVM IR with a freeze, which llvm-spirv 15 cannot translate.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64"

define spir_kernel void @inc(i32 addrspace(1)* %a) {
entry:
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 2
  %0 = load i32, i32 addrspace(1)* %p, align 4
  %1 = freeze i32 %0
  %2 = freeze i32 %1
  %3 = add i32 %2, 1
  store i32 %3, i32 addrspace(1)* %p, align 4
  ret void
}
