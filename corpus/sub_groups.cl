// sub_groups.cl — cl_khr_subgroups functions, lowered to Vulkan subgroup builtins and
// GroupNonUniform* (work-items and group-ops passes). The results of sub-group functions
// depend on the sub-group size the device picks (8 on lavapipe, 32 on NVIDIA), so each
// work-item checks them against the same quantity computed from local memory with the
// sub-group's own range of linear local ids [sub_group_id * max_size, + sub_group_size)
// (the host contract of docs/runtime-abi.md) and writes the difference (0 when right), and
// writes the size-independent facts. The reference (sub_groups_ref.cl, OpenCL C 1.2: PoCL
// 3.1 has no sub-groups) writes those expected values. One kernel per element type:
// sg_int, sg_uint, sg_long, sg_float, sg_double, sg_half.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define MAXL 256

#define KERNEL(NAME, T)                                                                          \
kernel void NAME(global const int *in, global T *out, global int *info)                          \
{                                                                                                \
    local T lv[MAXL];                                                                            \
    size_t g = get_global_id(0);                                                                 \
    uint lid = get_local_id(0);                                                                  \
    T x = (T)in[g];                                                                              \
    lv[lid] = x;                                                                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                \
    uint S = get_max_sub_group_size(), n = get_sub_group_size(), sg = get_sub_group_id();        \
    uint sl = get_sub_group_local_id();                                                          \
    uint base = sg * S;                                                                          \
    T sum = 0, mn = lv[base], mx = lv[base], pre = 0, pmn = lv[base], pmx = lv[base];            \
    for (uint i = 0; i < n; i++) {                                                               \
        T e = lv[base + i];                                                                      \
        if (i < sl)                                                                              \
            pre += e;                                                                            \
        if (i <= sl) {                                                                           \
            pmn = e < pmn ? e : pmn;                                                             \
            pmx = e > pmx ? e : pmx;                                                             \
        }                                                                                        \
        sum += e;                                                                                \
        mn = e < mn ? e : mn;                                                                    \
        mx = e > mx ? e : mx;                                                                    \
    }                                                                                            \
    size_t o = 8 * g;                                                                            \
    out[o + 0] = sub_group_reduce_add(x) - sum;                                                  \
    out[o + 1] = sub_group_reduce_min(x) - mn;                                                   \
    out[o + 2] = sub_group_reduce_max(x) - mx;                                                   \
    out[o + 3] = sub_group_scan_exclusive_add(x) - pre;                                          \
    out[o + 4] = sub_group_scan_inclusive_min(x) - pmn;                                          \
    out[o + 5] = sub_group_scan_inclusive_max(x) - pmx;                                          \
    out[o + 6] = sub_group_broadcast(x, 0) - lv[base];                                           \
    out[o + 7] = sub_group_broadcast(x, n - 1) - lv[base + n - 1];                               \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);                                                      \
    /* size-independent facts: every id is covered once, counts agree */                         \
    info[4 * g + 0] = base + sl == lid;                                                          \
    info[4 * g + 1] = get_num_sub_groups() == (get_local_size(0) + S - 1) / S &&                 \
                      get_enqueued_num_sub_groups() == (get_enqueued_local_size(0) + S - 1) / S; \
    info[4 * g + 2] = sub_group_all(sl < n) && !sub_group_any(sl >= n);                          \
    info[4 * g + 3] = n >= 1 && n <= S;                                                          \
}

KERNEL(sg_int, int)
KERNEL(sg_uint, uint)
KERNEL(sg_long, long)
KERNEL(sg_float, float)
KERNEL(sg_double, double)
KERNEL(sg_half, half)
