// constant_args.cl — `constant` address-space pointer arguments (read-only storage buffers
// by default; UBOs with --constant-args-ubo) and a program-scope constant array.
// const_lut:   gathers from a constant float table with data-dependent indices, plus a
//              constant int pointer; mixes global and constant arguments.
// const_poly:  Horner polynomial with coefficients from a constant pointer and a degree POD;
//              uses fma() (correctly rounded in OpenCL C); ulp 2 leaves room for a device
//              whose Vulkan Fma is not fused.
// const_table: program-scope `constant` array (module constant, not an argument) combined
//              with a constant uchar4 pointer argument.
constant int k_primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };

kernel void const_lut(global const uint *idx, constant float *lut, constant int *bias,
                      global float *out)
{
    size_t i = get_global_id(0);
    uint k = idx[i] & 63u;                   // lut has 64 entries
    out[i] = lut[k] + (float)bias[i & 3];
}

kernel void const_poly(global const float *x, constant float *coef, int degree,
                       global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float acc = coef[degree];
    for (int d = degree - 1; d >= 0; --d)
        acc = fma(acc, v, coef[d]);
    out[i] = acc;
}

kernel void const_table(constant uchar4 *pal, global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint v = in[i];
    uchar4 c = pal[v & 15u];
    out[i] = (uint)k_primes[v >> 29] * c.x + c.y * 256u + ((uint)c.z << 16) + ((uint)c.w << 24);
}
