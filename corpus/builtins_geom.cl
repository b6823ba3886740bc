// builtins_geom.cl — OpenCL C geometric built-ins, lowered by the builtins pass.
// FP_CONTRACT is OFF so that no a*b+c is fused on one side only.
// geom_precise: dot (scalar, float2, float3, float4; non-negative lanes, as cancellation
//               magnifies a fused vs unfused difference), cross (float3 and float4: w = 0), length,
//               distance and normalize on float, float2, float3, float4, with lanes scaled to
//               1e30 (sum of squares overflows) and 1e-30 (underflows), zero vectors and
//               infinite elements (normalize's special rule); tolerance 4 ulp.
// geom_fast:    fast_length, fast_distance, fast_normalize (8192 ulp in OpenCL) on tame
//               vectors, zero vectors included.
#pragma OPENCL FP_CONTRACT OFF

// Lane scale by i % 8: 1, 1e30, 1e-30, 0 (zero vector), inf in one lane, 1, 1, 1.
float4 shape(float4 v, size_t i)
{
    uint k = i & 7;
    float4 s = (float4)(1.0f, 1e30f, 1e-30f, 0.0f);
    float4 r = v * ((k & 4) ? 1.0f : s[k & 3]);
    r.y = k == 4 ? -INFINITY : r.y;
    return r;
}

kernel void geom_precise(global const float4 *a, global const float4 *b, global float *os,
                         global float4 *ov)
{
    size_t i = get_global_id(0);
    float4 x = shape(a[i], i), y = shape(b[i], i);
    global float *s = os + 12 * i;
    global float4 *v = ov + 6 * i;
    float4 px = fabs(x), py = fabs(y);          // dot without cancellation: a few ulp
    s[0] = dot(x.x, y.x);
    s[1] = dot(px.xy, py.xy);
    s[2] = dot(px, py);
    s[3] = length(x.x);
    s[4] = length(x.xy);
    s[5] = length(x.xyz);
    s[6] = length(x);
    s[7] = distance(x, y);
    s[8] = distance(x.xyz, y.xyz);
    s[9] = distance(x.x, y.x);
    s[10] = normalize(x.x);
    s[11] = dot(px.xyz, py.xyz);
    v[0] = (float4)(cross(x.xyz, y.xyz), 0.0f);
    v[1] = cross(x, y);
    v[2] = normalize(x);
    v[3] = (float4)(normalize(x.xyz), 0.0f);
    v[4] = (float4)(normalize(x.xy), normalize(y.zw));
    v[5] = normalize(y);
}

kernel void geom_fast(global const float4 *a, global const float4 *b, global float *os,
                      global float4 *ov)
{
    size_t i = get_global_id(0);
    float4 x = a[i] * ((i & 7) == 3 ? 0.0f : 1.0f), y = b[i];
    global float *s = os + 4 * i;
    s[0] = fast_length(x);
    s[1] = fast_length(x.xy);
    s[2] = fast_distance(x, y);
    s[3] = fast_distance(x.x, y.x);
    ov[2 * i] = fast_normalize(x);
    ov[2 * i + 1] = (float4)(fast_normalize(x.xyz), fast_normalize(y.w));
}
