// math_double.cl — approximated math built-ins on double (k2s links double-double versions
// from its library, src/clc/d*.cl), division and sqrt (correctly rounded in OpenCL; Vulkan
// promises only single precision for double), against the OpenCL implementation.
// Arguments are the loaded value times at most one constant (see math_float.cl).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void math_d_exp_log(global const double *a, global const double *b, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    global double *o = out + 12 * i;
    o[0] = exp(x);
    o[1] = log(fabs(x) + 1e-300);
    o[2] = pow(fabs(x) * 0.1, y);
    o[3] = exp2(y * 3.0);
    o[4] = log10(fabs(y) + 0.5);
    o[5] = expm1(y * 0.1);
    o[6] = log1p(fabs(y));
    o[7] = cbrt(x);
    o[8] = x / y;
    o[9] = sqrt(fabs(x));
    o[10] = fma(x, y, -x * y);
    o[11] = tanh(y * 0.2);
}

kernel void math_d_trig(global const double *a, global const double *b, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i] * 1e4, y = b[i], u = b[i] * 0.05;   // u in [-1, 1]
    global double *o = out + 12 * i;
    double c;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = tan(y);
    o[3] = sincos(y, &c);
    o[4] = c;
    o[5] = atan2(y, a[i]);
    o[6] = asin(u);
    o[7] = acos(u);
    o[8] = atan(x);
    o[9] = sinpi(y * 0.3);
    o[10] = erf(u * 3.0);
    o[11] = tgamma(y * 0.5);
}
