// ndrange.cl — work-item built-in functions over 1D, 2D and 3D NDRanges.
// Each work-item writes the values of the work-item functions at a slot computed from its
// global id minus the global offset, so the same kernels also check global offsets.
// ids_1d: get_global_id/local_id/group_id/local_size/global_size/num_groups/work_dim/
//         global_offset in dimension 0, plus dimension 1 and 2 queries that must return
//         the defaults (global size 1, id 0) for a 1D range.
// ids_2d: the same per dimension for a 2D range, row-major slot.
// ids_3d: the same for a 3D range.
kernel void ids_1d(global uint *out)
{
    size_t slot = get_global_id(0) - get_global_offset(0);
    global uint *o = out + 12 * slot;
    o[0] = get_global_id(0);
    o[1] = get_local_id(0);
    o[2] = get_group_id(0);
    o[3] = get_local_size(0);
    o[4] = get_global_size(0);
    o[5] = get_num_groups(0);
    o[6] = get_work_dim();
    o[7] = get_global_offset(0);
    o[8] = get_global_size(1) * 100 + get_global_size(2);     // 101
    o[9] = get_global_id(1) + get_local_id(2) + get_group_id(1);  // 0
    o[10] = get_local_size(1) * get_num_groups(2);           // 1
    o[11] = get_global_offset(1) + get_global_offset(2);     // 0
}

kernel void ids_2d(global uint *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    global uint *o = out + 16 * (y * get_global_size(0) + x);
    for (uint d = 0; d < 2; ++d) {
        o[d + 0] = get_global_id(d);
        o[d + 2] = get_local_id(d);
        o[d + 4] = get_group_id(d);
        o[d + 6] = get_local_size(d);
        o[d + 8] = get_global_size(d);
        o[d + 10] = get_num_groups(d);
        o[d + 12] = get_global_offset(d);
    }
    o[14] = get_work_dim();
    o[15] = get_global_size(2) + get_local_id(2) + get_group_id(2);   // 1
}

kernel void ids_3d(global uint *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t slot = (z * get_global_size(1) + y) * get_global_size(0) + x;
    global uint *o = out + 20 * slot;
    uint d = 0;
    do {                                     // dims 0..2, constant-trip do-while
        o[d + 0] = get_global_id(d);
        o[d + 3] = get_local_id(d);
        o[d + 6] = get_group_id(d);
        o[d + 9] = get_local_size(d);
        o[d + 12] = get_num_groups(d) * 1000 + get_global_size(d);
        o[d + 15] = get_global_offset(d);
        ++d;
    } while (d < 3);
    o[18] = get_work_dim();
    o[19] = get_global_size(0) * get_global_size(1) * get_global_size(2);
}
