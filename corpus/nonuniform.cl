// nonuniform.cl — OpenCL C 2.0 non-uniform work-groups: the global size is not a multiple
// of the local size, so the last work-group in a dimension is smaller. get_local_size()
// returns the actual size, get_enqueued_local_size() the requested one.
// (PoCL 3.1 reports no non-uniform work-group support: those runs fail to enqueue there
// with CL_INVALID_WORK_GROUP_SIZE; the uniform runs work.)
// nonuniform_1d:     per work-item local size, enqueued local size, group id, local id,
//                    num groups, global size.
// nonuniform_2d:     the same in 2D (remainder groups in x, in y, and in both).
// nonuniform_reduce: per-group integer sum through a local argument; work-item 0 sums
//                    get_local_size(0) entries, so the short last group is handled.
kernel void nonuniform_1d(global uint *out)
{
    size_t g = get_global_id(0);
    global uint *o = out + 6 * g;
    o[0] = get_local_size(0);
    o[1] = get_enqueued_local_size(0);
    o[2] = get_group_id(0);
    o[3] = get_local_id(0);
    o[4] = get_num_groups(0);
    o[5] = get_global_size(0);
}

kernel void nonuniform_2d(global uint *out)
{
    size_t slot = get_global_id(1) * get_global_size(0) + get_global_id(0);
    global uint *o = out + 8 * slot;
    o[0] = get_local_size(0);
    o[1] = get_local_size(1);
    o[2] = get_enqueued_local_size(0);
    o[3] = get_enqueued_local_size(1);
    o[4] = get_group_id(0) * 100 + get_group_id(1);
    o[5] = get_local_id(0) * 100 + get_local_id(1);
    o[6] = get_local_linear_id();
    o[7] = get_global_linear_id();
}

kernel void nonuniform_reduce(global const int *in, global int *out, local int *scratch)
{
    uint lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int s = 0;
        for (uint k = 0; k < get_local_size(0); ++k)
            s += scratch[k];
        out[get_group_id(0)] = s;
    }
}
