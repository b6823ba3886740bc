// Physical pointer mode: global addresses stored in local memory (a local pointer argument
// and a local array) and followed by other work-items of the group. The local memory itself
// stays logical (Workgroup); only what it holds are PhysicalStorageBuffer64 addresses.
typedef global float *gptr;

kernel void phys_local(global float *data, global float *out, local ulong *shared_ptrs)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    local gptr gp[64];
    global float *mine = data + (g * 5) % get_global_size(0);
    shared_ptrs[l] = (ulong)mine;
    gp[l] = mine + 1 < data + get_global_size(0) ? mine + 1 : data;
    barrier(CLK_LOCAL_MEM_FENCE);
    global float *other = (global float *)shared_ptrs[(l + n - 1) % n];
    global float *next = gp[(l + 3) % n];
    out[g] = *other * 4.0f - *next;
}
