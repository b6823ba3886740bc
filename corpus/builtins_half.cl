// builtins_half.cl — vload_half / vstore_half in every rounding mode, lowered by the builtins
// pass (rounding done on the float's bit pattern, so the final conversion is exact).
// half_modes:   vstore_half, _rte, _rtz, _rtp, _rtn of floats swept over 2^-30 .. 2^17
//               (subnormal halves, underflow to 0 / 2^-24, overflow to inf or 65504),
//               exact ties (n + 0.5 around 1024..2048, 65520, 2^-25) of both signs, ±0
//               and ±inf (no NaN: its half payload is implementation-defined).
// half_vectors: vstore_half4 / vstore_half3 / vstorea_half3 (stride 4) with rtz/rtp, and
//               vload_half2 / vloada_half3 / vload_half back to float.
// Half buffers are declared ushort on the host: raw bit patterns, compared exactly.

float sweep(global const float *a, size_t i)
{
    uint k = i % 48;
    float scale = as_float((127u + k - 30u) << 23);     // 2^(k - 30), exact
    float x = a[i] * scale;
    uint m = i & 63;
    float tie = (float)(2048 + (int)(i & 2047)) * 0.5f; // n + 0.5 for odd i: ties at quantum 1
    x = m == 60 ? tie : m == 61 ? -tie : x;
    x = m == 62 ? as_float(0x7f800000u) : m == 63 ? as_float(0xff800000u) : x;
    x = m == 59 ? 65520.0f : m == 58 ? -0.0f : x;           // 65520: the tie to inf
    x = m == 57 ? -as_float(0x33000000u) : m == 56 ? 65519.0f : x;  // -2^-25: a tie to -0
    return x;
}

kernel void half_modes(global const float *a, global half *h)
{
    size_t i = get_global_id(0);
    float x = sweep(a, i);
    vstore_half(x, 5 * i, h);
    vstore_half_rte(x, 5 * i + 1, h);
    vstore_half_rtz(x, 5 * i + 2, h);
    vstore_half_rtp(x, 5 * i + 3, h);
    vstore_half_rtn(x, 5 * i + 4, h);
}

kernel void half_vectors(global const float *a, global half *h, global const half *hin,
                         global float *f)
{
    size_t i = get_global_id(0);
    float4 v = (float4)(sweep(a, 4 * i), sweep(a, 4 * i + 1), sweep(a, 4 * i + 2),
                        sweep(a, 4 * i + 3));
    vstore_half4(v, 3 * i, h);
    vstore_half3_rtz(v.xyz, 4 * i + 1, h);          // halves 12i+3 .. 12i+5
    vstorea_half3_rtp(v.wzy, 3 * i + 2, h);         // halves 12i+8 .. 12i+10 (stride 4)
    float2 p = vload_half2(i, hin);
    float3 q = vloada_half3(i, hin + 512);          // stride 4
    f[6 * i] = p.x;
    f[6 * i + 1] = p.y;
    f[6 * i + 2] = q.x;
    f[6 * i + 3] = q.y;
    f[6 * i + 4] = q.z;
    f[6 * i + 5] = vload_half(3 * i + 1, hin + 1024);
}

// half_double: vstore_half(_rte/_rtz/_rtp/_rtn) and vstore_half4 from double, on raw
// random double bit patterns squeezed towards the half range (overflow, subnormal
// halves, ties, NaN and inf), rounded once from the double.
kernel void half_double(global const ulong *a, global ushort *o)
{
    size_t i = get_global_id(0);
    ulong u = a[i];
    // exponent 1023 +- 31 (half range +- a little), sign and mantissa random
    double x = as_double((u & 0x800fffffffffffffUL) | ((992UL + ((u >> 52) & 63UL)) << 52));
    if (i % 13u == 5)
        x = as_double(u | 0x7ff0000000000000UL);          // inf / NaN
    if (i % 7u == 3)                                        // a tie at a half's last bit
        x = as_double((u & 0x8000000000000000UL) | ((1010UL + (u & 15UL)) << 52) | (1UL << 41));
    vstore_half(x, 8 * i, (global half *)o);
    vstore_half_rte(x, 8 * i + 1, (global half *)o);
    vstore_half_rtz(x, 8 * i + 2, (global half *)o);
    vstore_half_rtp(x, 8 * i + 3, (global half *)o);
    vstore_half_rtn(x, 8 * i + 4, (global half *)o);
    vstore_half2_rtp((double2)(x, -x), 4 * i + 2, (global half *)o + 1);
}
