// vector_buffers.cl — global buffers of OpenCL vector types (the spec declares them as
// scalar buffers with COUNT = elements * lanes; 3-element vectors take 4 lanes of storage).
// vec4_float:  float4 loads/stores, swizzles (.wzyx, .yxwz), component-wise mul/sub.
// vec2_int:    int2 loads/stores, .yx swizzle, vector literal, vector compare (-1/0 lanes).
// vec3_float:  reads through a float3 pointer (16-byte stride, 4th lane is padding) and
//              writes a float4 (the padding lane of a float3 *store* is undefined in
//              OpenCL C, so it is not stored here).
// vec3_packed: vload3/vstore3 on packed uchar/short arrays (3-byte / 6-byte stride).
// vec_small:   uchar4, short2 and ulong2 buffers in one kernel (sub-word vector lanes,
//              64-bit vector lanes).
#pragma OPENCL FP_CONTRACT OFF

kernel void vec4_float(global const float4 *a, global const float4 *b, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[i] = x * y.wzyx - x.yxwz;
}

kernel void vec2_int(global const int2 *a, global int2 *out)
{
    int i = get_global_id(0);
    int2 v = a[i];
    int2 w = v.yx + (int2)(i, -i);
    out[2 * i] = w;
    out[2 * i + 1] = (v > w) + (int2)(10, 20);  // vector compare: lanes are -1 or 0
}

kernel void vec3_float(global const float3 *a, global float4 *out)
{
    size_t i = get_global_id(0);
    float3 v = a[i];
    float3 r = v.zxy + (float3)(1.0f, 2.0f, 3.0f);
    out[i] = (float4)(r, v.x * v.y);
}

kernel void vec3_packed(global const uchar *a, global short *out)
{
    size_t i = get_global_id(0);
    uchar3 v = vload3(i, a);
    short3 s = convert_short3(v) * (short3)(1, -2, 3) + (short3)((short)i);
    vstore3(s, i, out);
}

kernel void vec_small(global const uchar4 *a, global const short2 *b, global const ulong2 *c,
                      global uchar4 *oa, global short2 *ob, global ulong2 *oc)
{
    size_t i = get_global_id(0);
    uchar4 u = a[i];
    short2 s = b[i];
    ulong2 l = c[i];
    oa[i] = u.s3120 + (uchar4)(1, 2, 3, 250);   // wraps per lane
    ob[i] = s * (short2)(3, -1) + s.yx;
    oc[i] = (l >> (ulong2)(1, 63)) ^ l.yx;
}
