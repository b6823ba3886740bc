// atomics_runtime_order.cl — OpenCL C 2.0 atomics whose memory_order and memory_scope
// are chosen at run time (a kernel argument), which Vulkan cannot express:
// llvm-spirv passes them through helper functions it adds (__translate_ocl_memory_order
// and _scope, emitted with its internal linkage type 0x7FFFFFFE, which k2s's input repair
// removes) and k2s gives each atomic the strongest order and scope (passes/
// lower_barriers.c). (A fence's order must stay a constant: llvm-spirv 15 asserts on a
// run-time one.) Final values do not depend on the order in which work-items run.
// PoCL 3.1 cannot build OpenCL C 2.0 atomics: the reference (-DK2S_REF, OpenCL C 1.2)
// maps each onto the OpenCL 1.2 atom_* function with the same effect.
#ifdef K2S_REF
#define atomic_int int
#define atomic_fetch_add_explicit(p, v, ...) atom_add((p), (v))
#define atomic_fetch_max_explicit(p, v, ...) atom_max((p), (v))
#define atomic_exchange_explicit(p, v, ...) atom_xchg((p), (v))
#define atomic_load_explicit(p, ...) atom_add((p), 0)
#define atomic_store_explicit(p, v, ...) atom_xchg((p), (v))
#define atomic_work_item_fence(f, ...) mem_fence(f)
#define work_group_barrier(f) barrier(f)
#define atomic_init(p, v) (*(p) = (v))
#endif

// c[0..7] counters; out[gid] what each work-item loaded; which: 0, 1 or 2 picks the orders.
kernel void rt_order(global atomic_int *c, global int *out, int which)
{
    local atomic_int lc;
    int gid = (int)get_global_id(0);
#ifndef K2S_REF
    memory_order rmw = which == 0 ? memory_order_relaxed
                                  : which == 1 ? memory_order_acq_rel : memory_order_seq_cst;
    memory_order ld = which == 0 ? memory_order_relaxed
                                 : which == 1 ? memory_order_acquire : memory_order_seq_cst;
    memory_order st = which == 0 ? memory_order_relaxed
                                 : which == 1 ? memory_order_release : memory_order_seq_cst;
    memory_scope sc = which == 0 ? memory_scope_work_group
                                 : which == 1 ? memory_scope_device : memory_scope_all_svm_devices;
#endif
    if (get_local_id(0) == 0)
        atomic_init(&lc, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&c[0], gid + 1, rmw, sc);
    atomic_fetch_max_explicit(&c[1], gid * 3, rmw, sc);
    atomic_exchange_explicit(&c[2], 7, rmw, sc);
    out[gid] = atomic_load_explicit(&c[3], ld, sc) + which;
    atomic_store_explicit(&c[4], 5 + which, st, sc);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_add_explicit(&lc, 1, rmw, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_fetch_add_explicit(&c[5], atomic_load_explicit(&lc, ld, sc), rmw, sc);
}
