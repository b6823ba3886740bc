// multi_kernel.cl — several kernels in one module, with different argument lists, run one
// at a time from one spec (and again with --distinct-kernel-descriptor-sets, where kernel N
// in module order uses descriptor set N), plus a shared non-kernel helper function.
// mk_scale:  out = in * s                        (buffer, buffer, float POD)
// mk_offset: data += k in place, int buffer      (one read-write buffer, int POD)
// mk_square: out = in * in, uint, no POD         (two buffers)
// mk_mix:    uses the helper and two PODs of different types, 3 buffers
#pragma OPENCL FP_CONTRACT OFF

static float helper_lerp(float a, float b, float t)
{
    float d = b - a;
    float m = d * t;
    return a + m;
}

kernel void mk_scale(global const float *in, global float *out, float s)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * s;
}

kernel void mk_offset(global int *data, int k)
{
    size_t i = get_global_id(0);
    data[i] += k;
}

kernel void mk_square(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * in[i];
}

kernel void mk_mix(global const float *a, global const float *b, global float *out,
                   float t, int stride)
{
    size_t i = get_global_id(0);
    size_t j = (i * stride) % get_global_size(0);
    out[i] = helper_lerp(a[i], b[j], t);
}
