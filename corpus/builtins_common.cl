// builtins_common.cl — exact common and float built-ins on raw random bit patterns
// (NaN, inf, subnormals, signed zeros, huge and tiny values), float and double:
// copysign, fabs, fdim, fmin/fmax (a NaN operand gives the other), maxmag, minmag,
// clamp, fract, modf, nan, rint, round, trunc, ceil, floor, sign, step; and the
// inexact ones (mad, mix, degrees, radians, smoothstep) on moderate values, within
// a few ulp (mad may be fused or not; Vulkan's division is 2.5 ulp). nan(code) is
// compared as a NaN only: where the code goes is implementation-defined (PoCL's
// double nan() even returns a signalling NaN; k2s's is quiet, as OpenCL asks).
#pragma OPENCL FP_CONTRACT OFF

kernel void common_float(global const uint *a, global const uint *b, global float *o,
                         global float *on)
{
    size_t i = get_global_id(0);
    float x = as_float(a[i]), y = as_float(b[i]);
    if (i % 5u == 1)
        x = as_float(a[i] & 0x807fffffu);    // subnormal
    if (i % 7u == 2)
        y = as_float(b[i] | 0x7f800000u);    // inf or NaN
    if (i % 3u == 0)                          // moderate: fract/round see fractions
        x = as_float((a[i] & 0x80ffffffu) | 0x40000000u);
    global float *p = o + 20 * i;
    float ip, fl;
    p[0] = copysign(x, y);
    p[1] = fabs(y);
    p[2] = fdim(x, y);
    p[3] = fmin(x, y);
    p[4] = fmax(x, y);
    p[5] = maxmag(x, y);
    p[6] = minmag(x, y);
    p[7] = clamp(x, -fabs(y), fabs(y));
    p[8] = fract(x, &fl);
    p[9] = fl;
    p[10] = modf(x, &ip);
    p[11] = ip;
    p[12] = rint(x);
    p[13] = round(x);
    p[14] = trunc(x);
    p[15] = ceil(x);
    p[16] = floor(x);
    p[17] = sign(x);
    p[18] = step(y, x);
    p[19] = fmax(fmin(x, y), -y);
    on[i] = nan(a[i] & 0x3fffffu) + (float)isnan(nan((uint)i));
}

kernel void common_double(global const ulong *a, global const ulong *b, global double *o,
                          global double *on)
{
    size_t i = get_global_id(0);
    double x = as_double(a[i]), y = as_double(b[i]);
    if (i % 5u == 1)
        x = as_double(a[i] & 0x800fffffffffffffUL);
    if (i % 7u == 2)
        y = as_double(b[i] | 0x7ff0000000000000UL);
    if (i % 3u == 0)
        x = as_double((a[i] & 0x801fffffffffffffUL) | 0x4000000000000000UL);
    global double *p = o + 20 * i;
    double ip, fl;
    p[0] = copysign(x, y);
    p[1] = fabs(y);
    p[2] = fdim(x, y);
    p[3] = fmin(x, y);
    p[4] = fmax(x, y);
    p[5] = maxmag(x, y);
    p[6] = minmag(x, y);
    p[7] = clamp(x, -fabs(y), fabs(y));
    p[8] = fract(x, &fl);
    p[9] = fl;
    p[10] = modf(x, &ip);
    p[11] = ip;
    p[12] = rint(x);
    p[13] = round(x);
    p[14] = trunc(x);
    p[15] = ceil(x);
    p[16] = floor(x);
    p[17] = sign(x);
    p[18] = step(y, x);
    p[19] = fmax(fmin(x, y), -y);
    on[i] = nan(a[i] & 0x3ffffffffffUL) + (double)isnan(nan((ulong)i));
}

kernel void common_inexact(global const float4 *a, global const float4 *b,
                           global const float4 *t, global float4 *o)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i], k = t[i];
    /* mad may round once (fused: NVIDIA's driver) or twice (PoCL, lavapipe): operands
     * with short significands (10 and 8 bits) make x * y exact, so both agree. */
    float4 xs = rint(x * 64.0f) / 64.0f, ys = rint(y * 16.0f) / 16.0f;
    o[5 * i] = mad(xs, ys, k);
    o[5 * i + 1] = mix(x, y, k);
    o[5 * i + 2] = degrees(x) + radians(y);
    o[5 * i + 3] = smoothstep(x, x + fabs(y) + 0.5f, k);
    o[5 * i + 4] = mix(x, y, k.x) + clamp(x, y.x, y.x + 1.0f);
}
