// sub_groups_ref.cl — the reference for sub_groups.cl (see there): every difference 0,
// every fact true. PoCL 3.1 has no sub-groups; what sub_groups.cl computes does not
// depend on the sub-group size, so these are its exact expected values.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define KERNEL(NAME, T, ZERO)                                                   \
    kernel void NAME(global const int *in, global T *out, global int *info)     \
    {                                                                           \
        size_t g = get_global_id(0);                                            \
        for (int k = 0; k < 8; k++)                                             \
            ZERO(out, 8 * g + k);                                               \
        for (int k = 0; k < 4; k++)                                             \
            info[4 * g + k] = 1;                                                \
    }

#define PLAIN(OUT, I) (OUT[I] = 0)
#define HALF(OUT, I) vstore_half(0.0f, (I), OUT) // PoCL 3.1 has no cl_khr_fp16

KERNEL(sg_int, int, PLAIN)
KERNEL(sg_uint, uint, PLAIN)
KERNEL(sg_long, long, PLAIN)
KERNEL(sg_float, float, PLAIN)
KERNEL(sg_double, double, PLAIN)
KERNEL(sg_half, half, HALF)
