// builtins_wide.cl — 8- and 16-lane vectors (split into 4-lane pieces by k2s).
// wide_arith:   float16/int16 arithmetic, compares, select, conversions, swizzles,
//               dynamic lane reads/writes, any/all, a loop carrying a float8 (phis).
// wide_memory:  vload16/vstore16, vload8/vstore8 on local memory, vload_half16 /
//               vstore_half16_rtz, a struct with a float8
//               member in a buffer, as_uint4(uchar16) and as_char16/as_long2 bitcasts.
// wide_shuffle: shuffle/shuffle2 with constant and run-time masks, 8 and 16 lanes.
// wide_math:    per-piece builtins: fmax, mad, clamp, fract (global pointer out-parameter),
//               select, bitselect, rotate, upsample, mul_hi on long8, double8 sums.

// The reference may contract a * b + c into one fma; k2s keeps two roundings.
#pragma OPENCL FP_CONTRACT OFF

typedef struct { int tag; float8 v; } tagged;

static float16 twice(float16 v) { return v + v; }

kernel void wide_arith(global const float16 *a, global const int16 *b, global float16 *of,
                       global int16 *oi, global int *oc)
{
    size_t i = get_global_id(0);
    float16 x = a[i];
    int16 n = b[i];
    float16 y = x * 2.5f - x.sfedcba9876543210;
    int16 lt = x < y;
    float16 s = select(x, y, lt);
    int16 m = convert_int16(x * 1000.0f) + (n >> 3) - (n & 7);
    uint k = (uint)n.s5 & 15;
    s[k] = 42.0f;                    // dynamic lane write
    m.s3 = (int)s[(k + 3) & 15];     // dynamic lane read
    float8 acc = x.lo;
    for (int r = 0; r < (n.s0 & 7); r++)
        acc = acc * 0.5f + x.hi;     // a phi of float8
    of[2 * i] = twice(s);
    of[2 * i + 1] = (float16)(acc, acc.s76543210);
    oi[i] = m ^ lt;
    oc[2 * i] = any(n < -1000) + 2 * all(n != 0) + 4 * any(lt);
    oc[2 * i + 1] = (int)(x.s0 * 100.0f) + (int)y.sf;
}

kernel void wide_memory(global const float *a, global float *o, global ushort *h,
                        global const uchar16 *bytes, global uint4 *words, global long2 *longs,
                        global tagged *t, local float *tile)
{
    size_t i = get_global_id(0), l = get_local_id(0);
    float16 v = vload16(i, a);
    vstore8(v.hi * 3.0f, l, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    float8 w = vload8((l + 1) % get_local_size(0), tile);
    float16 pv = v * (float)(i % 3 + 1);
    vstore16(pv + (float16)(w, w), i, o);
    vstore_half16_rtz(v, i, h);
    uchar16 u = bytes[i] ^ (uchar16)((uchar)i);
    words[i] = as_uint4(u) + (uint4)(1, 2, 3, 4);
    longs[i] = as_long2(as_char16(as_uint4(u) ^ 0x01020304u) + (char)1) + (long)i;
    tagged tg = t[i];
    tg.v = tg.v.s10325476 + (float8)(tg.tag);
    tg.v.s2 = vload_half16(i, h).s9;
    t[i] = tg;
}

kernel void wide_shuffle(global const int16 *a, global const uint16 *masks, global int16 *o,
                         global int8 *o8)
{
    size_t i = get_global_id(0);
    int16 x = a[i], y = a[i ^ 1];
    uint16 m = masks[i];
    o[4 * i] = shuffle(x, (uint16)(15, 0, 14, 1, 13, 2, 12, 3, 11, 4, 10, 5, 9, 6, 8, 7));
    o[4 * i + 1] = shuffle(x, m);
    o[4 * i + 2] = shuffle2(x, y, m);
    o[4 * i + 3] = shuffle2(x.lo, y.hi, m);
    o8[2 * i] = shuffle(x.even, m.lo);
    o8[2 * i + 1] = shuffle2(x.s0123, y.s4567, m.hi);
}

kernel void wide_math(global const float8 *a, global const float8 *b, global float8 *o,
                      global const long8 *la, global long8 *lo, global const int8 *ia,
                      global long8 *ups, global const double8 *da, global double *dsum)
{
    size_t i = get_global_id(0);
    float8 x = a[i], y = b[i];
    float8 f = fract(x * 7.0f, o + 4 * i + 2);
    /* mad may be fused or not: 11-bit operands make the product exact, so both agree. */
    o[4 * i] = fmax(x, y) + mad(rint(x * 1024.0f) / 1024.0f, rint(y * 1024.0f) / 1024.0f, 1.0f);
    o[4 * i + 1] = clamp(x, -0.5f, y);
    o[4 * i + 3] = f + bitselect(x, y, as_float8(ia[i]));
    long8 p = la[i];
    lo[2 * i] = mul_hi(p, p.s76543210) + rotate(p, (long8)(i));
    lo[2 * i + 1] = select(p, -p, p < 0);
    ups[i] = upsample(ia[i], as_uint8(ia[i] * 3));
    double8 d = da[i];
    double4 d4 = d.lo + d.hi;
    dsum[i] = d4.x + d4.y + d4.z + d4.w;
}

// wide_calls: 8/16-lane parameters and results of functions that stay calls (split at
// the callee's entry, rebuilt as arrays at the call), saturating and rounding
// conversions of 16-lane vectors (decorations carried to every piece).
__attribute__((noinline)) float8 scale8(float8 v, float s) { return v * s + v.s76543210; }
__attribute__((noinline)) int16 bump16(int16 v, int k) { v[k & 15] += 100; return v; }

kernel void wide_calls(global const float *a, global const int16 *b, global uchar16 *o,
                       global float8 *of)
{
    size_t i = get_global_id(0);
    float16 v = vload16(i, a);
    int16 n = bump16(b[i], (int)i);
    o[i] = convert_uchar16_sat(n) + convert_uchar16_sat_rte(v * 300.0f);
    of[2 * i] = scale8(v.odd, 0.25f);
    of[2 * i + 1] = as_float8(as_int8(v.even) ^ n.lo);
}
