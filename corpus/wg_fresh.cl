// wg_fresh.cl — work-group and sub-group functions used the way application code uses
// them (issue 11, "tried as a new user would"): stream compaction with a global atomic
// counter, a 2-D normalisation, collectives in a loop (scratch reuse between consecutive
// functions), a 3-D non-uniform NDRange on long/double, sub-group results folded into
// work-group ones, and a local-atomic histogram scanned by the work-group. The reference
// (wg_fresh_ref.cl) computes the same in OpenCL C 1.2 from local memory, in increasing
// linear local id; inputs are small integers, so float/double sums are exact.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

// 1-D, non-uniform (a short last group): keep the multiples of 3, packed per group in
// the order of their ids; per-group counts, and their total through a global atomic.
kernel void compact(global const int *in, global int *out, global int *counts,
                    global int *total, uint n)
{
    size_t g = get_global_id(0);
    int v = in[g];
    int keep = v % 3 == 0;
    int pos = work_group_scan_exclusive_add(keep);
    int cnt = work_group_reduce_add(keep);
    size_t grp = get_group_id(0);
    if (keep)
        out[grp * get_enqueued_local_size(0) + pos] = v;
    if (get_local_id(0) == 0) {
        counts[grp] = cnt;
        atomic_add(total, cnt);
    }
}

// 2-D groups of 12x5 (60 work-items): min, max, sum and a running sum over the group.
kernel void norm2d(global const int *in, global float *out)
{
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t g = gy * get_global_size(0) + gx;
    float x = (float)in[g];
    float mx = work_group_reduce_max(x);
    float mn = work_group_reduce_min(x);
    float s = work_group_reduce_add(x);
    out[4 * g + 0] = (x - mn) * 0.5f + mx;
    out[4 * g + 1] = s;
    out[4 * g + 2] = work_group_scan_inclusive_add(x);
    out[4 * g + 3] = work_group_scan_exclusive_max(x);
}

// Collectives in a loop: each iteration's result feeds the next.
kernel void iterate(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint x = in[g];
    for (uint it = 0; it < 6; it++) {
        uint s = work_group_reduce_add(x);
        uint b = work_group_broadcast(x, (size_t)(it * 7) % get_local_size(0));
        uint p = work_group_scan_inclusive_max(x);
        uint q = work_group_scan_exclusive_add(x & 15);
        x = (x ^ (s & 0xff)) + b - (p >> 2) + q;
    }
    out[g] = x;
}

// 3-D groups of 3x5x2 (30) over a non-uniform 7x11x4 NDRange: long and double.
kernel void vol3d(global const int *in, global long *lo, global double *d, uint gx, uint gy)
{
    size_t g = (get_global_id(2) * gy + get_global_id(1)) * gx + get_global_id(0);
    long v = in[g];
    double h = (double)v * 0.5;
    lo[3 * g + 0] = work_group_reduce_min(v);
    lo[3 * g + 1] = work_group_scan_exclusive_add(v);
    lo[3 * g + 2] = work_group_broadcast(v, 0, get_local_size(1) - 1, get_local_size(2) - 1);
    d[2 * g + 0] = work_group_reduce_add(h);
    d[2 * g + 1] = work_group_scan_inclusive_min(h);
}

// Sub-group results folded into work-group ones: the same whatever the sub-group size.
// (Left out where the spec translates with --no-subgroups, which refuses sub-group code.)
#ifndef NO_SUB_GROUPS
kernel void sg_mix(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint v = in[g];
    uint sgs = sub_group_reduce_add(v);
    uint lead = get_sub_group_local_id() == 0 ? sgs : 0;
    out[4 * g + 0] = work_group_reduce_add(lead);
    out[4 * g + 1] = work_group_all(sub_group_all(v < 900));
    out[4 * g + 2] = work_group_reduce_max(sub_group_reduce_max(v));
    out[4 * g + 3] = work_group_any(sub_group_any(v == 7));
}
#endif

// A histogram of 8 bins in local memory (local atomics), then scanned and reduced by the
// work-group: 2-D groups of 16x4.
kernel void hist(global const int *in, global int *out)
{
    local int bins[8];
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t g = gy * get_global_size(0) + gx;
    uint lid = get_local_linear_id();
    if (lid < 8)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[g] & 7]);
    barrier(CLK_LOCAL_MEM_FENCE);
    int mine = lid < 8 ? bins[lid] : 0;
    int most = work_group_reduce_max(mine);
    int before = work_group_scan_exclusive_add(mine);
    int empty = work_group_any(lid < 8 && mine == 0);
    size_t grp = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    if (lid < 8)
        out[grp * 10 + lid] = before;
    if (lid == 0) {
        out[grp * 10 + 8] = most;
        out[grp * 10 + 9] = empty;
    }
}

// Collectives in a helper function called twice and from a branch every work-item takes
// the same way, with reqd_work_group_size.
static float centre(float x)
{
    return x - work_group_reduce_add(x) / (float)get_local_size(0);
}

__attribute__((reqd_work_group_size(40, 1, 1)))
kernel void helper(global const int *in, global float *out, int mode)
{
    size_t g = get_global_id(0);
    float x = (float)in[g] * 40.0f;
    float a = centre(x);
    float b = mode > 0 ? centre(a + 1.0f) : work_group_scan_inclusive_max(a);
    out[2 * g] = a;
    out[2 * g + 1] = b;
}
