// wg_funcs_ref.cl — the reference for wg_funcs.cl in OpenCL C 1.2 (PoCL 3.1 has no
// work-group functions): each work-item writes its value to local memory, and after a
// barrier computes every result of its work-group by walking the values in increasing
// linear local id. real_gx, real_gy are the real global size in x and y: a non-uniform
// NDRange run is emulated on a padded uniform one (the spec's ref-global:), whose extra
// work-items only take part in the barrier; a short group's size is what it would have been.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define MAXL 256

#define EMU(T, CT, CONV, OUT, ST, MINV, MAXV, MIN, MAX)                                      \
    {                                                                                        \
        CT s = 0, mn = MAXV, mx = MINV, is = 0, imn = 0, imx = 0, es = 0, emn = MAXV,       \
           emx = MINV;                                                                       \
        for (uint i = 0; i < n; i++) {                                                       \
            CT e = CONV(lv[i]);                                                              \
            if (i == lid) {                                                                  \
                es = s;                                                                      \
                emn = mn;                                                                    \
                emx = mx;                                                                    \
            }                                                                                \
            s = s + e;                                                                       \
            mn = MIN(mn, e);                                                                 \
            mx = MAX(mx, e);                                                                 \
            if (i == lid) {                                                                  \
                is = s;                                                                      \
                imn = mn;                                                                    \
                imx = mx;                                                                    \
            }                                                                                \
        }                                                                                    \
        size_t o = 10 * g;                                                                   \
        ST(OUT, o + 0, s);                                                                   \
        ST(OUT, o + 1, mn);                                                                  \
        ST(OUT, o + 2, mx);                                                                  \
        ST(OUT, o + 3, is);                                                                  \
        ST(OUT, o + 4, imn);                                                                 \
        ST(OUT, o + 5, imx);                                                                 \
        ST(OUT, o + 6, es);                                                                  \
        ST(OUT, o + 7, emn);                                                                 \
        ST(OUT, o + 8, emx);                                                                 \
        ST(OUT, o + 9, CONV(lv[bidx]));                                                      \
    }

#define PLAIN(OUT, I, V) (OUT[I] = (V))
#define HALF(OUT, I, V) vstore_half((V), (I), OUT)
#define C_INT(v) ((int)(v))
#define C_UINT(v) ((uint)(v))
#define C_LONG(v) ((long)(v))
#define C_ULONG(v) ((ulong)(long)(v))
#define C_FLOAT(v) ((float)(v))
#define C_DOUBLE(v) ((double)(v))
#define C_HALF(v) ((float)((v) >> 4))

#define KERNEL(NAME, T, CT, CONV, ST, MINV, MAXV, MIN, MAX)                                \
    kernel void NAME(global const int *in, global T *out, global int *flags, uint real_gx,     \
                          uint real_gy)  \
    {                                                                                        \
        local int lv[MAXL];                                                                  \
        uint d = get_work_dim();                                                             \
        size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);         \
        size_t l0 = get_local_size(0), l1 = get_local_size(1), l2 = get_local_size(2);      \
        size_t s0 = get_group_id(0) * l0, s1 = get_group_id(1) * l1;                         \
        size_t n0 = real_gx - s0 < l0 ? real_gx - s0 : l0; /* real size in x */              \
        size_t n1 = real_gy - s1 < l1 ? real_gy - s1 : l1; /* real size in y */              \
        uint n = n0 * n1 * l2;                                                               \
        uint lid = (get_local_id(2) * n1 + get_local_id(1)) * n0 + get_local_id(0);          \
        bool active = gx < real_gx && gy < real_gy;                                          \
        size_t g = (gz * real_gy + gy) * real_gx + gx;                                       \
        if (active)                                                                          \
            lv[lid] = in[g];                                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
        if (!active)                                                                         \
            return;                                                                          \
        uint bidx = d == 1   ? n0 - 1                                                        \
                    : d == 2 ? (n1 / 2) * n0 + n0 - 1                                        \
                             : ((l2 / 2) * n1 + n1 - 1) * n0 + n0 / 2;                       \
        EMU(T, CT, CONV, out, ST, MINV, MAXV, MIN, MAX)                                      \
        int all = 1, any = 0;                                                                \
        for (uint i = 0; i < n; i++) {                                                       \
            all &= lv[i] != 13;                                                              \
            any |= lv[i] == 42;                                                              \
        }                                                                                    \
        flags[2 * g] = all;                                                                  \
        flags[2 * g + 1] = any;                                                              \
    }

KERNEL(wg_int, int, int, C_INT, PLAIN, INT_MIN, INT_MAX, min, max)
KERNEL(wg_uint, uint, uint, C_UINT, PLAIN, 0, UINT_MAX, min, max)
KERNEL(wg_long, long, long, C_LONG, PLAIN, LONG_MIN, LONG_MAX, min, max)
KERNEL(wg_ulong, ulong, ulong, C_ULONG, PLAIN, 0, ULONG_MAX, min, max)
KERNEL(wg_float, float, float, C_FLOAT, PLAIN, -INFINITY, INFINITY, fmin, fmax)
KERNEL(wg_double, double, double, C_DOUBLE, PLAIN, -INFINITY, INFINITY, fmin, fmax)
KERNEL(wg_half, half, float, C_HALF, HALF, -INFINITY, INFINITY, fmin, fmax)
