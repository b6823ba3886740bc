// atomics.cl — OpenCL 1.2 atomic built-ins whose final results do not depend on the order
// in which work-items execute them (so the comparison stays deterministic).
// histogram_atomic: 64-bin histogram: atomic_inc into a local array, then atomic_add of
//                   each group's bins into the global histogram.
// atomic_minmax:    atomic_min/max (signed and unsigned), atomic_and/xor/add into a few
//                   global ints (all initialised to -1 by the spec).
kernel void histogram_atomic(global const uint *in, global uint *hist)
{
    local uint bins[64];
    uint lid = get_local_id(0);
    for (uint b = lid; b < 64; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] >> 26]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 64; b += get_local_size(0))
        atomic_add(&hist[b], bins[b]);
}

kernel void atomic_minmax(global const int *in, global int *res)
{
    int v = in[get_global_id(0)];
    atomic_min(&res[0], v);
    atomic_max(&res[1], v);
    atomic_and(&res[2], v | (int)0xf0f0f0f0);
    atomic_xor(&res[3], v);
    atomic_add(&res[4], v & 0xff);
    atomic_min((global uint *)&res[5], (uint)v);
}
