// reqd_wg.cl — __attribute__((reqd_work_group_size(X,Y,Z))): the translator emits a fixed
// workgroup size (no spec constants); local arrays are sized from it.
// reqd_1d: (16,1,1) — reverse pairs within the group through a local array of exactly 16.
// reqd_2d: (8,4,1)  — 2D group; each work-item sums its row of the group's tile.
// reqd_3d: (2,2,2)  — 3D group; get_local_size must equal the required size.
kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void reqd_1d(global const int *in, global int *out)
{
    local int t[16];
    uint l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[15 - l] - t[l ^ 1];
}

kernel __attribute__((reqd_work_group_size(8, 4, 1)))
void reqd_2d(global const int *in, global int *out)
{
    local int tile[4][8];
    uint lx = get_local_id(0), ly = get_local_id(1);
    size_t w = get_global_size(0);
    size_t idx = get_global_id(1) * w + get_global_id(0);
    tile[ly][lx] = in[idx];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int k = 0; k < 8; ++k)
        s += tile[ly][k];
    out[idx] = s + (int)(get_local_size(0) * 10 + get_local_size(1));
}

kernel __attribute__((reqd_work_group_size(2, 2, 2)))
void reqd_3d(global uint *out)
{
    size_t slot = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)
                  + get_global_id(0);
    out[slot] = get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2)
                + 1000 * (get_local_id(0) + 2 * get_local_id(1) + 4 * get_local_id(2));
}
