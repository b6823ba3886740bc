// linear_ids.cl — OpenCL C 2.0 work-item functions get_global_linear_id(),
// get_local_linear_id() and get_enqueued_local_size() on uniform 1D/2D/3D ranges, with and
// without global offsets (the global linear id is offset-relative).
// linear_ids: each work-item writes 8 values at its global linear id.
kernel void linear_ids(global uint *out)
{
    size_t g = get_global_linear_id();
    global uint *o = out + 8 * g;
    o[0] = g;
    o[1] = get_local_linear_id();
    o[2] = get_enqueued_local_size(0);
    o[3] = get_enqueued_local_size(1);
    o[4] = get_enqueued_local_size(2);
    o[5] = get_local_size(0) * get_local_size(1) * get_local_size(2);
    o[6] = get_work_dim();
    // recompute the linear id by hand from the 1.2 functions
    o[7] = ((get_global_id(2) - get_global_offset(2)) * get_global_size(1)
            + (get_global_id(1) - get_global_offset(1))) * get_global_size(0)
           + (get_global_id(0) - get_global_offset(0));
}
