// sub_group_masks.cl — get_sub_group_{eq,ge,gt,le,lt}_mask() (cl_khr_subgroup_ballot),
// lowered by the work-items pass. The masks depend on the sub-group size the device picks
// (8 on lavapipe, 32 on NVIDIA), so each work-item builds the expected uint4 of each
// mask bit by bit from get_sub_group_local_id() and get_sub_group_size() (bits of
// work-items that do not exist in a partial sub-group are clear) and writes the XOR of
// the two (0 when right), then a ballot cross-check: sub_group_ballot(1), the work-items
// of its sub-group, must equal lt_mask | ge_mask (exactly the active work-items, whose
// ids are 0 .. get_sub_group_size() - 1), written as XOR too. The reference
// (sub_group_masks_ref.cl; PoCL 3.1 has no sub-groups) writes those expected zeros.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable

static uint4 expected(uint which, uint sl, uint n)
{
    uint4 m = 0;
    for (uint b = 0; b < 128; b++) {
        bool in = b < n && (which == 0 ? b == sl : which == 1 ? b >= sl : which == 2 ? b > sl
                            : which == 3 ? b <= sl : b < sl);
        uint bit = in ? 1u << (b % 32) : 0u;
        if (b < 32)
            m.x |= bit;
        else if (b < 64)
            m.y |= bit;
        else if (b < 96)
            m.z |= bit;
        else
            m.w |= bit;
    }
    return m;
}

kernel void sg_masks(global uint4 *out)
{
    size_t g = get_global_id(0);
    uint sl = get_sub_group_local_id(), n = get_sub_group_size();
    uint4 eq = get_sub_group_eq_mask(), ge = get_sub_group_ge_mask();
    uint4 gt = get_sub_group_gt_mask(), le = get_sub_group_le_mask();
    uint4 lt = get_sub_group_lt_mask();
    out[6 * g + 0] = eq ^ expected(0, sl, n);
    out[6 * g + 1] = ge ^ expected(1, sl, n);
    out[6 * g + 2] = gt ^ expected(2, sl, n);
    out[6 * g + 3] = le ^ expected(3, sl, n);
    out[6 * g + 4] = lt ^ expected(4, sl, n);
    out[6 * g + 5] = sub_group_ballot(1) ^ (lt | ge);
}
