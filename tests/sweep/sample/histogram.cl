// sweep sample: local memory, barriers and atomics (ok class).
kernel void histogram(global const uchar *data, global uint *bins, local uint *tmp, uint n)
{
    uint lid = get_local_id(0);
    for (uint b = lid; b < 16; b += get_local_size(0))
        tmp[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&tmp[data[i] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 16; b += get_local_size(0))
        atomic_add(&bins[b], tmp[b]);
}
