// ptr_auto.cl — --pointers=auto (the default): each kernel gets logical mode when it can be
// expressed exactly, physical mode (vulkan1.2+) otherwise; both kinds in one module.
// auto_chain:   stores the address of each element in a buffer, then follows it back
//               (pointers in memory: physical mode).
// auto_logical: type punning and pointer selects only (stays logical).
kernel void auto_chain(global int *data, global ulong *addr, global int *out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    addr[i] = (ulong)(data + (i * 7) % n);
    barrier(CLK_GLOBAL_MEM_FENCE);
    global int *p = (global int *)addr[(i + 1) % n];
    out[i] = *p * 2 + (int)(p - data);
}

kernel void auto_logical(global float *a, global uint *o)
{
    size_t i = get_global_id(0);
    global uchar *b = (global uchar *)a;
    global float *p = (i & 1) ? a : a + 1;
    o[i] = (uint)b[i] + (uint)(*p * 10.0f);
}
