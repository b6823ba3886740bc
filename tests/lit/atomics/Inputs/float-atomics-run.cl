// Native float atomics: global float min/max, local float add; with -DDOUBLE_MINMAX also
// global double max (run by float-atomics-run.test).
kernel void fa(global float *acc, global const float *in, global double *dacc)
{
    size_t g = get_global_id(0);
    local float l;
    if (get_local_id(0) == 0)
        l = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_max_explicit((volatile global atomic_float *)&acc[0], in[g], memory_order_relaxed, memory_scope_device);
    atomic_fetch_min_explicit((volatile global atomic_float *)&acc[1], in[g], memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit((volatile local atomic_float *)&l, 1.0f, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        acc[2] = l;
#ifdef DOUBLE_MINMAX
    atomic_fetch_max_explicit((volatile global atomic_double *)&dacc[0], (double)in[g], memory_order_relaxed, memory_scope_device);
#endif
}
