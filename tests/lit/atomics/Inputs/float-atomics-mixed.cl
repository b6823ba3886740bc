// fetch_add and fetch_max on floats of one buffer (float-atomics-mixed.test); with -DADD_ONLY
// only the add.
kernel void mixed(global float *acc, global const float *in)
{
    size_t g = get_global_id(0);
    atomic_fetch_add_explicit((volatile global atomic_float *)&acc[0], 1.0f, memory_order_relaxed, memory_scope_device);
#ifndef ADD_ONLY
    atomic_fetch_max_explicit((volatile global atomic_float *)&acc[1], in[g], memory_order_relaxed, memory_scope_device);
#endif
}
