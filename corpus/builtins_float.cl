// builtins_float.cl — OpenCL C common and exact float built-ins, lowered by the builtins pass.
// FP_CONTRACT is OFF so that no a*b+c is fused on one side only.
// float_exact:  round, sign, step, fdim, fract (and its floor), modf (and its trunc), maxmag,
//               minmag, fmin/fmax/min/max/clamp with NaN operands, copysign, nan, floor,
//               ceil, trunc, rint, fabs: exact (ulp 0), including ±0, ±inf and NaN inputs
//               (lanes 0..5 of every 16 are specials); the signs of zeros are compared
//               through a separate bit mask.
// vec_exact:    the same kind on float4 and float3 plus select, bitselect, shuffle and
//               shuffle2 with constant and computed masks.
// double_exact: round, sign, fract, copysign, fmax, maxmag, shuffle on double/double2.
// float_approx: degrees, radians, mix, smoothstep, rsqrt, sqrt, mad, fma (tolerance 4 ulp).
// float_native: native_ and half_ functions on tame inputs (implementation-defined
//               precision; a loose tolerance that still catches a wrong mapping).
#pragma OPENCL FP_CONTRACT OFF

// Replace some lanes by +inf, -inf, NaN, -0, +0, 0.5 (dynamic vector lane reads rather than
// a chain of ?: that clang would turn into a switch).
float special(float v, size_t i)
{
    uint k = i & 15;
    uint4 lo = (uint4)(0x7f800000u, 0xff800000u, 0x7fc00000u, 0x80000000u);
    uint4 hi = (uint4)(0u, 0x3f000000u, 0u, 0u);
    uint bits = (k & 4) ? hi[k & 3] : lo[k & 3];
    return k < 6 ? as_float(bits) : v;
}

// Bit j: the sign of o[j] (0 for NaN), because the comparison counts -0 equal to +0.
#define SB(j) ((uint)(signbit(o[j]) && !isnan(o[j])) << j)

kernel void float_exact(global const float *a, global const float *b, global float *out,
                        global uint *signs)
{
    size_t i = get_global_id(0);
    float x = special(a[i] * 8.0f, i);           // many exact quarters and halves
    float y = special(b[i] * 8.0f, i * 7 + 3);   // other lanes are special here
    global float *o = out + 24 * i;
    o[0] = round(x);
    o[1] = sign(x);
    o[2] = step(y, x);
    o[3] = fdim(x, y);
    o[4] = fract(x, &o[5]);                      // the floor goes to o[5]
    o[6] = modf(x, &o[7]);                       // the integral part goes to o[7]
    o[8] = maxmag(x, y);
    o[9] = minmag(x, y);
    o[10] = fmin(x, y);
    o[11] = fmax(x, y);
    o[12] = max(x, 1.5f);
    o[13] = min(x, -1.5f);
    o[14] = clamp(x, -2.0f, 2.0f);
    o[15] = copysign(x, y);
    o[16] = as_float(as_uint(nan((uint)i)) | 0x7fc00000u);  // any NaN prints as nan
    o[17] = floor(x);
    o[18] = ceil(x);
    o[19] = trunc(x);
    o[20] = rint(x);
    o[21] = fabs(y);
    o[22] = round(-x);
    o[23] = fmax(y, NAN);
    // no SB(4): PoCL gives fract(-0) = fract(-inf) = +0, where OpenCL's edge cases ask
    // for -0 (k2s follows the spec; the precision tool checks those cases)
    signs[i] = SB(0) | SB(1) | SB(2) | SB(3) | SB(5) | SB(6) | SB(7) | SB(8) | SB(9) |
               SB(10) | SB(11) | SB(12) | SB(13) | SB(14) | SB(15) | SB(17) | SB(18) | SB(19) |
               SB(20) | SB(21) | SB(22) | SB(23);
}

kernel void vec_exact(global const float4 *a, global const float4 *b, global const uint4 *m,
                      global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = a[i] * 4.0f, y = b[i] * 4.0f;
    uint4 mask = m[i];
    int4 c = as_int4(mask);
    global float4 *o = out + 12 * i;
    o[0] = round(x) + sign(y) + (step(0.25f, x) - fdim(x, y));
    o[2] = fract(x, &o[1]);                      // the floor goes to o[1]
    o[3] = maxmag(x, y) - minmag(x, y);
    o[4] = select(x, y, c);                      // top bit of each lane of c
    o[5] = bitselect(x, y, as_float4(mask));
    o[6] = shuffle(x, (uint4)(3, 2, 5, 0));      // 5 & 3 = 1
    o[7] = shuffle2(x, y, (uint4)(7, 0, 12, 3)); // 12 & 7 = 4
    o[8] = shuffle(x, mask);
    o[9] = shuffle2(x, y, mask >> 8);
    float3 x3 = x.xyz, y3 = y.zyx;
    o[10] = (float4)(copysign(x3, y3), 0.0f);
    o[11] = (float4)(fmin(x3, y3) + fmax(y3, x3), clamp(x.w, y.w, y.w + 1.0f));
}

kernel void float_approx(global const float *a, global const float *b, global const float *c,
                         global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i], z = c[i];
    global float *o = out + 8 * i;
    o[0] = degrees(x);
    o[1] = radians(x * 180.0f);
    o[2] = mix(x, y, z);
    o[3] = smoothstep(-0.5f, 0.75f, x);
    o[4] = rsqrt(fabs(x) + 0.5f);
    o[5] = sqrt(fabs(y) * 100.0f);
    o[6] = mad(x, y, 1.0f);
    o[7] = fma(fabs(x), fabs(y), fabs(z));
}

kernel void float_native(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i] + 1.5f, y = b[i] + 2.0f;     // x in [0.5, 2.5), y in [1, 3)
    global float *o = out + 16 * i;
    o[0] = native_sin(x);
    o[1] = native_cos(x);
    o[2] = native_tan(x * 0.5f);
    o[3] = native_exp(x);
    o[4] = native_exp2(x);
    o[5] = native_exp10(x);
    o[6] = native_log(y);
    o[7] = native_log2(y);
    o[8] = native_log10(y);
    o[9] = native_powr(y, x);
    o[10] = native_sqrt(y);
    o[11] = native_rsqrt(y);
    o[12] = native_recip(y) + native_divide(x, y);
    o[13] = half_exp(x) + half_exp2(x);
    o[14] = half_sqrt(y) + half_rsqrt(y) + half_recip(y);
    o[15] = half_divide(x, y) + half_exp10(x);
}
