// sub_groups_ref.cl — the reference for sub_groups.cl (see there): every difference 0,
// every fact true. PoCL 3.1 has no sub-groups; what sub_groups.cl computes does not
// depend on the sub-group size, so these are its exact expected values.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef T // the specs give the element type; a default for tools that build every corpus file
#define T int
#endif

kernel void sub_groups(global const int *in, global T *out, global int *info)
{
    size_t g = get_global_id(0);
    for (int k = 0; k < 8; k++)
#ifdef HALF // PoCL 3.1 has no cl_khr_fp16: store the half zero's bits
        vstore_half(0.0f, 8 * g + k, out);
#else
        out[8 * g + k] = 0;
#endif
    for (int k = 0; k < 4; k++)
        info[4 * g + k] = 1;
}
