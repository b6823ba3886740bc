// int_builtins.cl — OpenCL C integer built-in functions (exact results).
// int_builtins:   int mul_hi, rotate, clz, popcount, add_sat, sub_sat, abs, abs_diff,
//                 min, max, clamp, hadd, rhadd, mul24/mad24 (24-bit inputs), upsample.
// uint_builtins:  the unsigned versions (saturation at 0 / UINT_MAX, logical clz).
// long_builtins:  64-bit mul_hi (signed and unsigned), clz, popcount, rotate, add_sat,
//                 abs, min/max, upsample(int, uint) -> long.
// small_builtins: char/uchar/short/ushort versions (saturation at 8/16-bit limits,
//                 clz/popcount of narrow types, rotate of 16-bit values).
// vec_builtins:   the same functions on int4 / uchar16 vectors.
kernel void int_builtins(global const int *a, global const int *b, global int *out)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    global int *o = out + 16 * i;
    o[0] = mul_hi(x, y);
    o[1] = rotate(x, y);                      // rotate count taken modulo 32
    o[2] = clz(x);
    o[3] = popcount(x);
    o[4] = add_sat(x, y);
    o[5] = sub_sat(x, y);
    o[6] = (int)abs(x);                       // abs(INT_MIN) = 0x80000000 as uint
    o[7] = (int)abs_diff(x, y);
    o[8] = min(x, y);
    o[9] = max(x, y);
    o[10] = clamp(x, -1000, y & 0xffff);      // lo <= hi always
    o[11] = hadd(x, y);
    o[12] = rhadd(x, y);
    int x24 = (x << 8) >> 8, y24 = (y << 8) >> 8;  // sign-extended 24-bit values
    o[13] = mul24(x24, y24);
    o[14] = mad24(x24, y24, x);
    o[15] = upsample((short)x, (ushort)y);
}

kernel void uint_builtins(global const uint *a, global const uint *b, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    global uint *o = out + 12 * i;
    o[0] = mul_hi(x, y);
    o[1] = rotate(x, y);
    o[2] = clz(x >> (y & 31));
    o[3] = popcount(x);
    o[4] = add_sat(x, y);
    o[5] = sub_sat(x, y);
    o[6] = abs_diff(x, y);
    o[7] = min(x, y);
    o[8] = max(x, y);
    o[9] = clamp(x, 100u, (y >> 1) | 100u);
    o[10] = hadd(x, y);
    o[11] = rhadd(x, y);
}

kernel void long_builtins(global const long *a, global const ulong *b, global long *out)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    global long *o = out + 10 * i;
    o[0] = mul_hi(x, (long)y);
    o[1] = (long)mul_hi((ulong)x, y);
    o[2] = clz(x);
    o[3] = popcount(y);
    o[4] = (long)rotate(y, (ulong)x);
    o[5] = add_sat(x, (long)y);
    o[6] = (long)abs(x);
    o[7] = min(x, (long)y);
    o[8] = (long)max((ulong)x, y);
    o[9] = upsample((int)x, (uint)y);
}

kernel void small_builtins(global const char *c, global const uchar *uc,
                           global const short *s, global const ushort *us,
                           global char *oc, global uchar *ouc, global short *os, global ushort *ous)
{
    size_t i = get_global_id(0);
    char c0 = c[i], c1 = c[i ^ 1];
    uchar u0 = uc[i], u1 = uc[i ^ 1];
    short s0 = s[i], s1 = s[i ^ 1];
    ushort w0 = us[i], w1 = us[i ^ 1];
    oc[4 * i + 0] = add_sat(c0, c1);
    oc[4 * i + 1] = sub_sat(c0, c1);
    oc[4 * i + 2] = popcount(c0);
    oc[4 * i + 3] = mul_hi(c0, c1);
    ouc[4 * i + 0] = add_sat(u0, u1);
    ouc[4 * i + 1] = sub_sat(u0, u1);
    ouc[4 * i + 2] = clz(u0);
    ouc[4 * i + 3] = abs(c0);
    os[4 * i + 0] = add_sat(s0, s1);
    os[4 * i + 1] = mul_hi(s0, s1);
    os[4 * i + 2] = clamp(s0, (short)-300, (short)300);
    os[4 * i + 3] = rotate(s0, s1);
    ous[4 * i + 0] = sub_sat(w0, w1);
    ous[4 * i + 1] = rhadd(w0, w1);
    ous[4 * i + 2] = clz(w0);
    ous[4 * i + 3] = rotate(w0, (ushort)3);
}

kernel void vec_builtins(global const int4 *a, global const int4 *b, global int4 *oi,
                         global const uchar16 *p, global uchar16 *op)
{
    size_t i = get_global_id(0);
    int4 x = a[i], y = b[i];
    oi[3 * i + 0] = add_sat(x, y);
    oi[3 * i + 1] = rotate(x, y) ^ clz(y);
    oi[3 * i + 2] = max(x, y) - min(x, y.wzyx);
    uchar16 u = p[i];
    op[i] = add_sat(u, u.sfedcba9876543210) + popcount(u);
}
