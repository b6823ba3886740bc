// float_math.cl — single-precision arithmetic and simple math built-ins.
// FP_CONTRACT is OFF so that a*b+c is never silently fused into mad/fma on one side only.
// float_arith:    + - * and negation: correctly rounded, compared exactly (ulp 0).
// float_div_sqrt: division (2.5 ulp in OpenCL C 1.2 and in Vulkan) and sqrt (3 ulp in
//                 OpenCL C; Vulkan derives it from inversesqrt) on safe operands: ulp 4.
// float_fma_mad:  fma (correctly rounded) and mad (implementation-defined precision) on
//                 non-negative operands, so no cancellation magnifies a one-rounding
//                 difference: ulp 2.
// float_exact:    fabs, floor, ceil, trunc, round (halfway cases away from zero!), rint
//                 (halfway to even), fmin, fmax, copysign: all exact (ulp 0); inputs are
//                 scaled so many values sit exactly on .5.
#pragma OPENCL FP_CONTRACT OFF

kernel void float_arith(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + 6 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = -x;
    float p = x * y;
    o[4] = p - x;
    o[5] = (x + y) * (x - y);
}

kernel void float_div_sqrt(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + 4 * i;
    o[0] = x / (1.5f + y);                    // denominator in [0.5, 2.5)
    o[1] = sqrt(fabs(x));
    o[2] = 1.0f / (2.0f + x);
    o[3] = sqrt(fabs(x * 1000.0f) + 1.0f) / (1.25f - y);
}

kernel void float_fma_mad(global const float *a, global const float *b, global const float *c,
                          global float *out)
{
    size_t i = get_global_id(0);
    float x = fabs(a[i]), y = fabs(b[i]), z = fabs(c[i]);
    out[2 * i] = fma(x, y, z);
    out[2 * i + 1] = mad(x, 3.0f, y * z);
}

kernel void float_exact(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i] * 8.0f;                    // exact scaling: quarters/halves common
    float h = (float)((int)i - 64) * 0.5f;    // ..., -1.5, -1.0, -0.5, 0, 0.5, ...
    float y = b[i];
    global float *o = out + 12 * i;
    o[0] = fabs(x);
    o[1] = floor(x);
    o[2] = ceil(x);
    o[3] = trunc(x);
    o[4] = round(h);                          // -1.5 -> -2, -0.5 -> -1, 0.5 -> 1, 2.5 -> 3
    o[5] = rint(h);                           // -1.5 -> -2, -0.5 -> -0, 0.5 -> 0, 2.5 -> 2
    o[6] = round(x);
    o[7] = rint(x);
    o[8] = fmin(x, y);
    o[9] = fmax(x, y);
    o[10] = copysign(x, y);
    o[11] = floor(h) + ceil(-h);
}
