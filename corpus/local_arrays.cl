// local_arrays.cl — `local` arrays declared inside kernels (fixed-size Workgroup
// variables), with barriers.
// reverse_in_group:  reverse the elements of each work-group through local int tmp[64].
// tree_sum_int:      integer tree sum of each group through local int s[256] (while loop
//                    around a barrier); one result per group.
// scan_in_group:     Hillis-Steele inclusive prefix sum within a group, ping-ponging
//                    between two local arrays (a loop-carried local buffer index).
// local_mixed_types: local float4 and local uchar arrays in one kernel (vector- and
//                    byte-typed workgroup memory), neighbours exchanged via the arrays.
kernel void reverse_in_group(global const int *in, global int *out)
{
    local int tmp[64];                       // local size must be <= 64
    uint lid = get_local_id(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - lid];
}

kernel void tree_sum_int(global const int *in, global int *out)
{
    local int s[256];                        // local size: power of two <= 256
    uint lid = get_local_id(0);
    s[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint stride = get_local_size(0) >> 1;
    while (stride != 0) {
        if (lid < stride)
            s[lid] += s[lid + stride];       // wraps on overflow, same everywhere
        barrier(CLK_LOCAL_MEM_FENCE);
        stride >>= 1;
    }
    if (lid == 0)
        out[get_group_id(0)] = s[0];
}

kernel void scan_in_group(global const uint *in, global uint *out)
{
    local uint buf[2][128];                  // local size <= 128
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    int cur = 0;
    buf[0][lid] = in[get_global_id(0)] & 0xffffu;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < n; off <<= 1) {
        uint v = buf[cur][lid];
        if (lid >= off)
            v += buf[cur][lid - off];
        buf[1 - cur][lid] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[cur][lid];
}

kernel void local_mixed_types(global const float4 *in, global const uchar *flags, global float4 *out)
{
    local float4 v[32];                      // local size must be 32
    local uchar f[32];
    uint lid = get_local_id(0);
    v[lid] = in[get_global_id(0)];
    f[lid] = flags[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint nb = (lid + 1) & 31;
    out[get_global_id(0)] = (f[nb] & 1) ? v[nb] : v[lid].wzyx;
}
