// wg_funcs.cl — every OpenCL C 2.0 work-group function, one kernel per gentype (wg_int,
// wg_uint, wg_long, wg_ulong, wg_float, wg_double, wg_half), each with all forms: reduce/scan_inclusive/scan_exclusive of
// add/min/max, broadcast (the 1-, 2- or 3-D index form by get_work_dim()), all and any.
// Lowered by the group-ops pass. PoCL 3.1 has no work-group functions, so the reference
// is wg_funcs_ref.cl: the same results computed in OpenCL C 1.2 with local memory (the
// spec's `reference:` key). Inputs are small integers: float/half sums are exact.
// out[10 * g + k], g the global linear id, k: 0-2 reduce add/min/max, 3-5 inclusive
// scans, 6-8 exclusive scans, 9 broadcast. flags[2 * g]: all(v != 13), [2 * g + 1]:
// any(v == 42). real_gx, real_gy are only for the reference (the real global size).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define BODY(T, X, OUT)                                                                      \
    {                                                                                        \
        T x = X;                                                                             \
        size_t o = 10 * g;                                                                   \
        OUT[o + 0] = work_group_reduce_add(x);                                               \
        OUT[o + 1] = work_group_reduce_min(x);                                               \
        OUT[o + 2] = work_group_reduce_max(x);                                               \
        OUT[o + 3] = work_group_scan_inclusive_add(x);                                       \
        OUT[o + 4] = work_group_scan_inclusive_min(x);                                       \
        OUT[o + 5] = work_group_scan_inclusive_max(x);                                       \
        OUT[o + 6] = work_group_scan_exclusive_add(x);                                       \
        OUT[o + 7] = work_group_scan_exclusive_min(x);                                       \
        OUT[o + 8] = work_group_scan_exclusive_max(x);                                       \
        uint d = get_work_dim();                                                             \
        size_t l0 = get_local_size(0), l1 = get_local_size(1), l2 = get_local_size(2);       \
        OUT[o + 9] = d == 1   ? work_group_broadcast(x, l0 - 1)                              \
                     : d == 2 ? work_group_broadcast(x, l0 - 1, l1 / 2)                      \
                              : work_group_broadcast(x, l0 / 2, l1 - 1, l2 / 2);             \
    }

#ifndef ATTR // a spec may give every kernel a reqd_work_group_size (-DATTR=...)
#define ATTR
#endif

#define KERNEL(NAME, T, X)                                                                   \
    ATTR kernel void NAME(global const int *in, global T *out, global int *flags, uint real_gx,     \
                          uint real_gy)  \
    {                                                                                        \
        size_t g = get_global_linear_id();                                                   \
        int v = in[g];                                                                       \
        BODY(T, X, out)                                                                      \
        flags[2 * g] = work_group_all(v != 13);                                              \
        flags[2 * g + 1] = work_group_any(v == 42);                                          \
    }

KERNEL(wg_int, int, (int)v)
KERNEL(wg_uint, uint, (uint)v)
KERNEL(wg_long, long, (long)v)
KERNEL(wg_ulong, ulong, (ulong)(long)v)
KERNEL(wg_float, float, (float)v)
KERNEL(wg_double, double, (double)v)
KERNEL(wg_half, half, (half)(v >> 4))
