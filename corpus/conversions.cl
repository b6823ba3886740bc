// conversions.cl — scalar and vector conversions between integer and float types.
// conv_int_float: int/uint -> float (round to nearest even for |x| > 2^24), float -> int
//                 (truncation toward zero) on in-range values, float -> int with _sat.
// conv_sat:       saturating narrowing: convert_uchar_sat/char_sat/short_sat/ushort_sat
//                 from int, convert_uchar_sat from float (NaN-free), convert_int_sat from long.
// conv_round:     explicit rounding modes float -> int: _rte (ties to even), _rtz, _rtp,
//                 _rtn, on values with exact .5 fractions and random values.
// conv_vec:       vector conversions convert_float4(int4), convert_uchar4_sat_rte(float4),
//                 convert_short2(long2) (wrap), and as_type reinterpretation
//                 (as_uint, as_char4, as_float of small integer patterns).
// Integer <-> float conversions are exact operations: ulp 0.
#pragma OPENCL FP_CONTRACT OFF

kernel void conv_int_float(global const int *a, global const float *f,
                           global float *of, global int *oi)
{
    size_t i = get_global_id(0);
    int x = a[i];
    float y = f[i];
    of[3 * i + 0] = convert_float(x);
    of[3 * i + 1] = (float)(uint)x;
    of[3 * i + 2] = (float)(x >> 12);         // exactly representable
    oi[3 * i + 0] = convert_int(y * 1.0e6f);  // truncation, in range
    oi[3 * i + 1] = (int)(y * -37.5f);
    oi[3 * i + 2] = convert_int_sat(y * 3.0e9f);  // saturates at INT_MIN/INT_MAX
}

kernel void conv_sat(global const int *a, global const float *f, global const long *l,
                     global uchar *ou, global char *oc, global short *os, global ushort *ous,
                     global int *oi)
{
    size_t i = get_global_id(0);
    int x = a[i] >> (i & 31);                 // spread magnitudes
    ou[2 * i] = convert_uchar_sat(x);
    ou[2 * i + 1] = convert_uchar_sat(f[i] * 300.0f);   // -300..300 -> 0..255
    oc[i] = convert_char_sat(x);
    os[i] = convert_short_sat(x);
    ous[i] = convert_ushort_sat(x);
    oi[i] = convert_int_sat(l[i] >> (i & 63));
}

kernel void conv_round(global const float *f, global int *out)
{
    size_t i = get_global_id(0);
    float h = (float)((int)i - 128) * 0.25f;  // ..., -0.5, -0.25, 0, 0.25, 0.5, 0.75, ...
    float r = f[i] * 1000.0f;
    global int *o = out + 8 * i;
    o[0] = convert_int_rte(h);
    o[1] = convert_int_rtz(h);
    o[2] = convert_int_rtp(h);
    o[3] = convert_int_rtn(h);
    o[4] = convert_int_rte(r);
    o[5] = convert_int_rtz(r);
    o[6] = convert_int_rtp(r);
    o[7] = convert_int_rtn(r);
}

kernel void conv_vec(global const int4 *a, global const float4 *f, global const long2 *l,
                     global float4 *of, global uchar4 *ou, global short2 *os, global uint *ob)
{
    size_t i = get_global_id(0);
    int4 x = a[i];
    float4 y = f[i];
    of[i] = convert_float4(x >> 8);
    ou[i] = convert_uchar4_sat_rte(y * 200.0f + 100.0f);
    os[i] = convert_short2(l[i]);             // plain conversion wraps (truncates bits)
    char4 c = as_char4(x.x);
    ob[3 * i + 0] = as_uint(y.x);
    ob[3 * i + 1] = (uint)(c.x + c.y * 2 + c.z * 4 + c.w * 8);
    ob[3 * i + 2] = as_uint(as_float((uint)(x.y & 0x007fffff) | 0x3f800000u) * 2.0f);
}
