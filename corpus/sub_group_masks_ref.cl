// sub_group_masks_ref.cl — the reference for sub_group_masks.cl (see there): every
// XOR 0. PoCL 3.1 has no sub-groups; what sub_group_masks.cl writes does not depend on
// the sub-group size, so these are its exact expected values.
kernel void sg_masks(global uint4 *out)
{
    size_t g = get_global_id(0);
    for (int k = 0; k < 6; k++)
        out[6 * g + k] = (uint4)(0);
}
