// math_float.cl — the approximated OpenCL math built-ins on float, which k2s links from its
// builtin library (src/clc/, passes/lower_math.c), compared with the OpenCL implementation.
// Both sides are within the OpenCL full-profile bounds; the specs allow the sum of what the
// two may differ by for these inputs (k2s measures <= 2 ulp on all but erf/erfc, docs/math.md).
// math_exp_log: exp/exp2/exp10/expm1/log/log2/log10/log1p over wide ranges (x spans [-90, 90]).
// math_pow:     pow, powr, pown, rootn, cbrt, hypot, fma, sqrt with mixed signs and zeros.
// math_trig:    sin/cos/tan/sincos (global pointer out), the *pi forms, inverse trig and atan2,
//               with |x| up to 1e5 so the argument reduction is exercised.
// math_hyp:     sinh, cosh, tanh, asinh, acosh, atanh, erf, erfc.
// math_vec:     float4 and float2 arguments (one library call per lane), one function used
//               several times (linked once).
// Arguments are the loaded value times at most one constant: Vulkan drivers may reassociate
// (a * c1) * c2 into a * (c1 * c2) unless an operation is NoContraction (lavapipe does), so
// a chain of constant factors would feed the two sides different inputs.
#pragma OPENCL FP_CONTRACT OFF

kernel void math_exp_log(global const float *a, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], p = fabs(x) * 1e-3f;   // p: positive, [0, 0.09] ... grows with x^2 below
    global float *o = out + 8 * i;
    o[0] = exp(x);
    o[1] = exp2(x * 1.4f);
    o[2] = exp10(x * 0.4f);
    o[3] = expm1(x * 0.1f);
    o[4] = log(p * x * x + 1e-30f);
    o[5] = log2(fabs(x) + 0.5f);
    o[6] = log10(p * p * p);
    o[7] = log1p(x * 0.0111f);
}

kernel void math_pow(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + 8 * i;
    o[0] = pow(x * 0.1f, rint(y));
    o[1] = powr(fabs(x) * 0.05f, y * 0.5f);
    o[2] = pown(x * 0.2f, (int)y);
    o[3] = rootn(x, (int)y | 1);
    o[4] = cbrt(x * y);
    o[5] = hypot(x, y * 1e3f);
    o[6] = fma(x, y, -x * y);                // the rounding error of x*y: needs one rounding
    o[7] = sqrt(fabs(x * y));
}

kernel void math_trig(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i] * 1e3f, y = b[i], u = a[i] * 0.0111f;   // u in [-1, 1]
    global float *o = out + 16 * i;
    float c;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = tan(y);
    o[3] = sincos(a[i] * 10.0f, &c);
    o[4] = c;
    o[5] = sinpi(y * 0.37f);
    o[6] = cospi(y * 0.37f);
    o[7] = tanpi(y * 0.11f);
    o[8] = asin(u);
    o[9] = acos(u);
    o[10] = atan(x);
    o[11] = atan2(y, a[i]);
    o[12] = asinpi(u);
    o[13] = acospi(u);
    o[14] = atanpi(y);
    o[15] = atan2pi(x, y);
}

kernel void math_hyp(global const float *a, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i] * 0.1f, h = a[i] * 0.05f, u = a[i] * 0.0111f;
    global float *o = out + 8 * i;
    o[0] = sinh(x);
    o[1] = cosh(x);
    o[2] = tanh(h);
    o[3] = asinh(a[i]);
    o[4] = acosh(fabs(x) + 1.0f);
    o[5] = atanh(u);
    o[6] = erf(h);
    o[7] = erfc(h);
}

kernel void math_vec(global const float4 *a, global const float2 *b, global float4 *out,
                     global float2 *out2)
{
    size_t i = get_global_id(0);
    float4 x = a[i];
    out[2 * i] = exp(x * 0.5f) + exp(x.wzyx);   // exp linked once, called 8 times
    out[2 * i + 1] = sin(x) * atan2(x, x.yzwx);
    out2[i] = pow(fabs(b[i]) + 0.5f, b[i].yx * 0.25f) + log(fabs(b[i]) + 1.0f);
}
