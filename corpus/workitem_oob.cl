// workitem_oob.cl — work-item functions called with an out-of-range dimension index.
// OpenCL C: for dimindx >= get_work_dim() ... and >= 3, get_global_id/get_local_id/
// get_group_id/get_global_offset return 0 and get_global_size/get_local_size/
// get_num_groups return 1.
// ids_oob_const:   constant dimension 3 (llvm-spirv-15 folds this into an
//                  OpCompositeExtract with index 3 of a 3-vector: spirv-val rejects it).
// ids_oob_dynamic: the dimension comes from a POD argument, so it stays a run-time
//                  index (llvm-spirv-15 emits OpVectorExtractDynamic with no range check).
// Note: PoCL 3.1 returns 0 (not 1) for the size queries out of range, so a spec-correct
// translation will differ from the PoCL reference in o[4..6].
kernel void ids_oob_const(global uint *out)
{
    global uint *o = out + 8 * get_global_id(0);
    o[0] = get_global_id(3);
    o[1] = get_local_id(3);
    o[2] = get_group_id(3);
    o[3] = get_global_offset(3);
    o[4] = get_global_size(3);
    o[5] = get_local_size(3);
    o[6] = get_num_groups(3);
    o[7] = get_work_dim();
}

kernel void ids_oob_dynamic(global uint *out, uint d)
{
    // slot = row-major index over the first two dimensions (1D or 2D ranges)
    global uint *o = out + 8 * (get_global_id(1) * get_global_size(0) + get_global_id(0));
    o[0] = get_global_id(d);
    o[1] = get_local_id(d);
    o[2] = get_group_id(d);
    o[3] = get_global_offset(d);
    o[4] = get_global_size(d);
    o[5] = get_local_size(d);
    o[6] = get_num_groups(d);
    o[7] = get_work_dim();
}
