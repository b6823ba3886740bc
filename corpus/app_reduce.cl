// Application-style reductions (the shape of the classic vendor SDK samples):
// a two-stage float sum (each group reduces 2*local elements with a fixed tree in local
// memory, then one group reduces the partials), and an integer min/max/argmax per group
// using a struct-of-arrays in local memory and uint2 results.
#pragma OPENCL FP_CONTRACT OFF

kernel void sum_stage(global const float *in, global float *partials, local float *scratch,
                      const uint n)
{
    uint lid = get_local_id(0), lsz = get_local_size(0);
    uint i = get_group_id(0) * (lsz * 2) + lid;
    float v = i < n ? in[i] : 0.0f;
    if (i + lsz < n)
        v += in[i + lsz];
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partials[get_group_id(0)] = scratch[0];
}

#define WG 64
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void minmax_argmax(global const int *in, global int2 *minmax, global uint *argmax)
{
    local int lo[WG], hi[WG];
    local uint at[WG];
    uint lid = get_local_id(0);
    int v = in[get_global_id(0)];
    lo[lid] = v;
    hi[lid] = v;
    at[lid] = get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            lo[lid] = min(lo[lid], lo[lid + s]);
            // ties keep the lower index, so the result does not depend on scheduling
            if (hi[lid + s] > hi[lid] || (hi[lid + s] == hi[lid] && at[lid + s] < at[lid])) {
                hi[lid] = hi[lid + s];
                at[lid] = at[lid + s];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        minmax[get_group_id(0)] = (int2)(lo[0], hi[0]);
        argmax[get_group_id(0)] = at[0];
    }
}
