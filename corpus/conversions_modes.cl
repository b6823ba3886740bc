// conversions_modes.cl — explicit rounding modes and saturation on every kind of
// conversion, scalars and vectors of 2, 3, 4, 8 and 16 lanes, on raw random bit patterns
// (NaN, infinities, subnormals, huge and tiny values) as well as moderate values.
// modes_f2i:  float -> int/uint/short/uchar, _sat and _rte/_rtz/_rtp/_rtn (NaN -> 0)
// modes_i2f:  int/uint/long/ulong -> float/double with every rounding mode
// modes_f2f:  double -> float with every rounding mode (subnormals, overflow, NaN)
// modes_i2i:  saturating integer narrowing and sign changes, as vectors
// modes_vec:  3/8/16-lane vector conversions with modes
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void modes_f2i(global const uint *bits, global const float *f, global int *oi,
                      global uint *ou, global short *os, global uchar *oc)
{
    size_t i = get_global_id(0);
    float a = as_float(bits[i]);   // any pattern
    float b = f[i];                // moderate values with fractions
    global int *pi = oi + 10 * i;
    pi[0] = convert_int_sat(a);
    pi[1] = convert_int_sat_rte(a);
    pi[2] = convert_int_sat_rtp(a);
    pi[3] = convert_int_sat_rtn(a);
    pi[4] = convert_int_sat_rtz(a);
    pi[5] = convert_int_rte(b);
    pi[6] = convert_int_rtp(b);
    pi[7] = convert_int_rtn(b);
    pi[8] = convert_int_rtz(b);
    pi[9] = convert_int_sat_rte(b * 1.0e7f);
    global uint *pu = ou + 4 * i;
    pu[0] = convert_uint_sat(a);
    pu[1] = convert_uint_sat_rtp(b);
    pu[2] = convert_uint_sat_rtn(b);
    pu[3] = convert_uint_sat_rte(b * 3.0e6f);
    os[2 * i] = convert_short_sat_rte(b);
    os[2 * i + 1] = convert_short_sat_rtn(a);
    oc[2 * i] = convert_uchar_sat_rtp(b * 0.01f);
    oc[2 * i + 1] = convert_uchar_sat(a);
}

kernel void modes_i2f(global const int *x, global const long *l, global float *of,
                      global double *od)
{
    size_t i = get_global_id(0);
    int a = x[i] >> (i & 15);      // spread the magnitudes over the precision boundary
    long b = l[i] >> (i & 31);
    global float *pf = of + 12 * i;
    pf[0] = convert_float(a);
    pf[1] = convert_float_rte(a);
    pf[2] = convert_float_rtz(a);
    pf[3] = convert_float_rtp(a);
    pf[4] = convert_float_rtn(a);
    pf[5] = convert_float_rtp((uint)a);
    pf[6] = convert_float_rtn((uint)a);
    pf[7] = convert_float(b);
    pf[8] = convert_float_rtz(b);
    pf[9] = convert_float_rtp(b);
    pf[10] = convert_float_rtn((ulong)b);
    pf[11] = convert_float_rte((ulong)b);
    global double *pd = od + 5 * i;
    pd[0] = convert_double(b);
    pd[1] = convert_double_rtz(b);
    pd[2] = convert_double_rtp(b);
    pd[3] = convert_double_rtn((ulong)b);
    pd[4] = convert_double_rtp((ulong)b);
}

kernel void modes_f2f(global const ulong *bits, global const double *d, global float *of)
{
    size_t i = get_global_id(0);
    double a = as_double(bits[i]);                   // any pattern
    double b = d[i] * 0x1p-120 * (double)(i & 7);    // near and below float's subnormals
    global float *p = of + 10 * i;
    p[0] = convert_float(a);
    p[1] = convert_float_rte(a);
    p[2] = convert_float_rtz(a);
    p[3] = convert_float_rtp(a);
    p[4] = convert_float_rtn(a);
    p[5] = (float)b;
    p[6] = convert_float_rtz(b);
    p[7] = convert_float_rtp(b);
    p[8] = convert_float_rtn(b);
    p[9] = convert_float_rte(d[i] * 3.4e38);         // around FLT_MAX
}

kernel void modes_i2i(global const int4 *x, global const long2 *l, global char4 *oc,
                      global ushort4 *os, global uint2 *ou, global int2 *oi)
{
    size_t i = get_global_id(0);
    int4 a = x[i] >> (int4)(i & 31);
    long2 b = l[i] >> (long2)(i & 63);
    oc[i] = convert_char4_sat(a);
    os[i] = convert_ushort4_sat(a);
    ou[i] = convert_uint2_sat(b);
    oi[i] = convert_int2_sat(as_ulong2(b));
}

kernel void modes_vec(global const float *f, global const int *x, global int *o3,
                      global float *o8, global uchar *o16, global float *od)
{
    size_t i = get_global_id(0);
    float3 a = vload3(i, f) * 1000.0f;
    vstore3(convert_int3_sat_rtn(a), i, o3);
    int8 b = vload8(i, x);
    vstore8(convert_float8_rtp(b), i, o8);
    float16 c = vload16(i, f) * 300.0f;
    vstore16(convert_uchar16_sat_rte(c), i, o16);
    double2 d = (double2)(f[i], f[i + 1]) * 0x1p-130;
    vstore2(convert_float2_rtz(d), i, od);
}
