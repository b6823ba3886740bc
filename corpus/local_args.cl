// local_args.cl — `local` pointer kernel arguments (sized by the host: local:BYTES), with
// barriers. Each becomes a Workgroup array whose length is a spec constant.
// reduce_local_arg: classic tree reduction of floats in a `local float *` scratch argument,
//                   one partial sum per work-group. The summation tree is fixed (depends only
//                   on the local size, a power of two), so the float result is exact-comparable.
// local_two_args:   two local pointer arguments with different element sizes (int, long) in
//                   one kernel; each work-item reads values written by other work-items.
kernel void reduce_local_arg(global const float *in, global float *partial, local float *scratch)
{
    uint lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

kernel void local_two_args(global const int *in, global long *out, local int *a, local long *b)
{
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    int v = in[get_global_id(0)];
    a[lid] = v;
    b[lid] = (long)v * (long)(lid + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (long)a[n - 1 - lid] + b[(lid + 1) % n];
}
