// builtins_int.cl — OpenCL C integer built-ins at every width, lowered by the builtins pass
// into core arithmetic (exact results, compared exactly).
// int_T:      abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, min, max, mul_hi,
//             mad_hi, mad_sat, rotate, clz, popcount for T = char ... ulong; the 64-bit
//             mul_hi/mad_sat take the 128-bit product paths, 8/16-bit ones widen to 32.
// vec_T:      the same on char4, ushort3, int2, ulong2 (a vec3 of 16-bit lanes included).
// upsample_T: upsample for char/uchar → short, short/ushort → int, int/uint → long.
// ctz_T:      ctz (OpenCL C 2.0) at every width, zeros included.
// mad24_T:    mul24/mad24 on 24-bit operands (signed and unsigned).

#define INT_BODY(T)                                                                        \
    size_t i = get_global_id(0);                                                           \
    T x = a[i], y = b[i], z = c[i];                                                        \
    global T *o = out + 15 * i;                                                            \
    o[0] = as_##T(abs(x));                                                                  \
    o[1] = as_##T(abs_diff(x, y));                                                         \
    o[2] = add_sat(x, y);                                                                  \
    o[3] = sub_sat(x, y);                                                                  \
    o[4] = hadd(x, y);                                                                     \
    o[5] = rhadd(x, z);                                                                    \
    o[6] = clamp(x, min(y, z), max(y, z));                                                 \
    o[7] = max(x, z) ^ min(y, z);                                                          \
    o[8] = mul_hi(x, y);                                                                   \
    o[9] = mad_hi(x, z, y);                                                                \
    o[10] = mad_sat(x, y, z);                                                              \
    o[11] = mad_sat(z, z, x);                                                              \
    o[12] = rotate(x, y);                                                                  \
    o[13] = clz(x);                                                                        \
    o[14] = popcount(y);

#define INT_KERNEL(T)                                                                      \
    kernel void int_##T(global const T *a, global const T *b, global const T *c,           \
                        global T *out)                                                     \
    {                                                                                      \
        INT_BODY(T)                                                                        \
    }

INT_KERNEL(char)
INT_KERNEL(uchar)
INT_KERNEL(short)
INT_KERNEL(ushort)
INT_KERNEL(int)
INT_KERNEL(uint)
INT_KERNEL(long)
INT_KERNEL(ulong)
INT_KERNEL(char4)
INT_KERNEL(ushort3)
INT_KERNEL(int2)
INT_KERNEL(ulong2)

#define UPSAMPLE_KERNEL(H, L, W)                                                           \
    kernel void upsample_##H(global const H *a, global const L *b, global W *out)          \
    {                                                                                      \
        size_t i = get_global_id(0);                                                       \
        out[2 * i] = upsample(a[i], b[i]);                                                 \
        out[2 * i + 1] = upsample(a[i ^ 1], b[i]);                                         \
    }

UPSAMPLE_KERNEL(char, uchar, short)
UPSAMPLE_KERNEL(uchar, uchar, ushort)
UPSAMPLE_KERNEL(short, ushort, int)
UPSAMPLE_KERNEL(ushort, ushort, uint)
UPSAMPLE_KERNEL(int, uint, long)
UPSAMPLE_KERNEL(uint, uint, ulong)

#if __OPENCL_C_VERSION__ >= 200
// Every other lane is zero (ctz(0) is the bit width); the rest are random.
kernel void ctz_all(global const ulong *a, global uchar *o8, global ushort *o16,
                    global uint *o32, global ulong *o64, global int4 *ov)
{
    size_t i = get_global_id(0);
    ulong v = a[i] & (0 - (ulong)(i & 1));
    o8[i] = ctz((uchar)v);
    o16[i] = ctz((short)(v >> 8));
    o32[i] = ctz((uint)(v >> 16));
    o64[i] = ctz(v << (i & 63));
    ov[i] = ctz((int4)((int)v, (int)(v >> 32), (int)(v >> 5), 0));
}
#endif

kernel void mad24_int(global const int *a, global const uint *b, global int *o)
{
    size_t i = get_global_id(0);
    int x = (a[i] << 8) >> 8, y = (a[i ^ 1] << 8) >> 8;
    uint u = b[i] & 0xffffff, v = b[i ^ 1] & 0xffffff;
    o[4 * i] = mul24(x, y);
    o[4 * i + 1] = mad24(x, y, a[i]);
    o[4 * i + 2] = (int)mul24(u, v);
    o[4 * i + 3] = (int)mad24(u, v, b[i]);
}
