// wg_fresh_ref.cl — the reference for wg_fresh.cl in OpenCL C 1.2 (PoCL 3.1 has no
// work-group or sub-group functions): every work-item puts its value into local memory and,
// after a barrier, walks the group's values in increasing linear local id. A non-uniform
// NDRange runs on a padded uniform one (the spec's ref-global:): the extra work-items only
// take part in the barriers, and a short group's size and linear ids are what they would
// have been.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define MAXL 256

// The real size in dimension d of this work-group when the real global size there is real.
static uint real_local(uint d, uint real)
{
    uint l = get_local_size(d), start = get_group_id(d) * l;
    return real - start < l ? real - start : l;
}

kernel void compact(global const int *in, global int *out, global int *counts,
                    global int *total, uint n)
{
    local int lv[MAXL];
    size_t g = get_global_id(0);
    uint lid = get_local_id(0), m = real_local(0, n);
    bool active = g < n;
    if (active)
        lv[lid] = in[g] % 3 == 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active)
        return;
    int pos = 0, cnt = 0;
    for (uint i = 0; i < m; i++) {
        if (i == lid)
            pos = cnt;
        cnt += lv[i];
    }
    size_t grp = get_group_id(0);
    if (lv[lid])
        out[grp * get_local_size(0) + pos] = in[g];
    if (lid == 0) {
        counts[grp] = cnt;
        atomic_add(total, cnt);
    }
}

kernel void norm2d(global const int *in, global float *out)
{
    local float lv[MAXL];
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t g = gy * get_global_size(0) + gx;
    uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    uint m = get_local_size(0) * get_local_size(1);
    float x = (float)in[g];
    lv[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    float mx = -INFINITY, mn = INFINITY, s = 0, inc = 0, emx = -INFINITY;
    for (uint i = 0; i < m; i++) {
        if (i == lid)
            emx = mx;
        mx = fmax(mx, lv[i]);
        mn = fmin(mn, lv[i]);
        s += lv[i];
        if (i == lid)
            inc = s;
    }
    out[4 * g + 0] = (x - mn) * 0.5f + mx;
    out[4 * g + 1] = s;
    out[4 * g + 2] = inc;
    out[4 * g + 3] = emx;
}

kernel void iterate(global const uint *in, global uint *out)
{
    local uint lv[MAXL];
    size_t g = get_global_id(0);
    uint lid = get_local_id(0), m = get_local_size(0);
    uint x = in[g];
    for (uint it = 0; it < 6; it++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        lv[lid] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint s = 0, p = 0, q = 0, mx = 0, acc = 0;
        for (uint i = 0; i < m; i++) {
            s += lv[i];
            if (i == lid)
                q = acc;
            acc += lv[i] & 15;
            mx = max(mx, lv[i]);
            if (i == lid)
                p = mx;
        }
        uint b = lv[(it * 7) % m];
        x = (x ^ (s & 0xff)) + b - (p >> 2) + q;
    }
    out[g] = x;
}

kernel void vol3d(global const int *in, global long *lo, global double *d, uint gx, uint gy)
{
    local long lv[MAXL];
    uint nx = real_local(0, gx), ny = real_local(1, gy), nz = get_local_size(2);
    uint x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
    bool active = get_global_id(0) < gx && get_global_id(1) < gy;
    uint lid = (z * ny + y) * nx + x, m = nx * ny * nz;
    size_t g = (get_global_id(2) * gy + get_global_id(1)) * gx + get_global_id(0);
    if (active)
        lv[lid] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active)
        return;
    long mn = LONG_MAX, s = 0, ex = 0;
    double hs = 0, hmn = INFINITY, hinc = 0;
    for (uint i = 0; i < m; i++) {
        if (i == lid)
            ex = s;
        mn = min(mn, lv[i]);
        s += lv[i];
        hs += (double)lv[i] * 0.5;
        hmn = fmin(hmn, (double)lv[i] * 0.5);
        if (i == lid)
            hinc = hmn;
    }
    lo[3 * g + 0] = mn;
    lo[3 * g + 1] = ex;
    lo[3 * g + 2] = lv[((nz - 1) * ny + ny - 1) * nx];
    d[2 * g + 0] = hs;
    d[2 * g + 1] = hinc;
}

kernel void sg_mix(global const uint *in, global uint *out)
{
    local uint lv[MAXL];
    size_t g = get_global_id(0);
    uint lid = get_local_id(0), m = get_local_size(0);
    lv[lid] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0, all = 1, mx = 0, any = 0;
    for (uint i = 0; i < m; i++) {
        s += lv[i];
        all &= lv[i] < 900;
        mx = max(mx, lv[i]);
        any |= lv[i] == 7;
    }
    out[4 * g + 0] = s;
    out[4 * g + 1] = all;
    out[4 * g + 2] = mx;
    out[4 * g + 3] = any;
}

kernel void hist(global const int *in, global int *out)
{
    local int bins[8];
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t g = gy * get_global_size(0) + gx;
    uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    if (lid < 8)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[g] & 7]);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t grp = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    int before = 0, most = 0, empty = 0;
    for (uint i = 0; i < 8; i++) {
        if (i == lid)
            out[grp * 10 + lid] = before;
        before += bins[i];
        most = max(most, bins[i]);
        empty |= bins[i] == 0;
    }
    if (lid == 0) {
        out[grp * 10 + 8] = most;
        out[grp * 10 + 9] = empty;
    }
}

kernel void helper(global const int *in, global float *out, int mode)
{
    local float lv[MAXL];
    size_t g = get_global_id(0);
    uint lid = get_local_id(0), m = get_local_size(0);
    float x = (float)in[g] * 40.0f;
    lv[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    float s = 0;
    for (uint i = 0; i < m; i++)
        s += lv[i];
    float a = x - s / (float)m;
    barrier(CLK_LOCAL_MEM_FENCE);
    lv[lid] = mode > 0 ? a + 1.0f : a;
    barrier(CLK_LOCAL_MEM_FENCE);
    float t = 0, mx = -INFINITY, inc = 0;
    for (uint i = 0; i < m; i++) {
        t += lv[i];
        mx = fmax(mx, lv[i]);
        if (i == lid)
            inc = mx;
    }
    out[2 * g] = a;
    out[2 * g + 1] = mode > 0 ? a + 1.0f - t / (float)m : inc;
}
