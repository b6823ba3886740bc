// double.cl — double precision (cl_khr_fp64; Vulkan Float64 capability).
// daxpy_d:   y = a*x + y on doubles with FP_CONTRACT OFF (two roundings, exact compare).
// conv_d:    float <-> double and long <-> double conversions, double sqrt (correctly
//            rounded in OpenCL C; Vulkan's Float64 sqrt precision is looser, so ulp 4).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void daxpy_d(double a, global const double *x, global double *y)
{
    size_t i = get_global_id(0);
    double p = a * x[i];
    y[i] = p + y[i];
}

kernel void conv_d(global const float *f, global const long *l, global double *od)
{
    size_t i = get_global_id(0);
    double x = (double)f[i];
    od[4 * i + 0] = x * 3.0;
    od[4 * i + 1] = (double)(l[i] >> 8);     // 56-bit values: rounding to 53 bits
    // (float)(x / 7.0) alone is shrunk by clang to a float division (2.5 ulp in OpenCL and
    // Vulkan, 1 ulp off on NVIDIA); the extra term keeps the division in double.
    od[4 * i + 2] = (double)(float)(x / 7.0 + x * 0x1p-40);
    od[4 * i + 3] = sqrt(fabs(x) + 1.0);
}
