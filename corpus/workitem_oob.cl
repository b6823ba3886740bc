// workitem_oob.cl — work-item functions called with an out-of-range dimension index.
// OpenCL C: for dimindx >= get_work_dim() (and so for dimindx >= 3),
// get_global_id/get_local_id/get_group_id/get_global_offset return 0 and
// get_global_size/get_local_size/get_num_groups return 1.
// ids_oob_const:   constant dimension 3 (llvm-spirv-15 folds this into an
//                  OpCompositeExtract with index 3 of a 3-vector: spirv-val rejects it;
//                  k2s repairs it, src/repair.c).
// ids_oob_dynamic: the dimension comes from a POD argument, so it stays a run-time
//                  index (llvm-spirv-15 emits OpVectorExtractDynamic with no range check;
//                  k2s adds it).
// The sizes go to a buffer of their own that the spec does not compare: PoCL 3.1
// returns 0 (not 1) for the size queries out of range, so the reference is wrong
// there. tests/lit/repair/workitem-oob-*.spvasm check that k2s gives 1.
kernel void ids_oob_const(global uint *out, global uint *sizes)
{
    global uint *o = out + 8 * get_global_id(0);
    global uint *s = sizes + 4 * get_global_id(0);
    o[0] = get_global_id(3);
    o[1] = get_local_id(3);
    o[2] = get_group_id(3);
    o[3] = get_global_offset(3);
    o[4] = get_work_dim();
    s[0] = get_global_size(3);
    s[1] = get_local_size(3);
    s[2] = get_num_groups(3);
}

kernel void ids_oob_dynamic(global uint *out, global uint *sizes, uint d)
{
    // slot = row-major index over the first two dimensions (1D or 2D ranges)
    size_t slot = get_global_id(1) * get_global_size(0) + get_global_id(0);
    global uint *o = out + 8 * slot;
    global uint *s = sizes + 4 * slot;
    o[0] = get_global_id(d);
    o[1] = get_local_id(d);
    o[2] = get_group_id(d);
    o[3] = get_global_offset(d);
    o[4] = get_work_dim();
    s[0] = get_global_size(d);
    s[1] = get_local_size(d);
    s[2] = get_num_groups(d);
}
