// pod_vectors.cl — vector POD kernel arguments.
// pod_vectors: float4, int2, uchar3, float3, short4, ulong2 and float2 passed by value.
//   Clustered layout: float4@0, int2@16, uchar3@24 (4 bytes), float3@32 (16 bytes),
//   short4@48, ulong2@64, float2@80; 88 bytes. Every lane is written out as a 32-bit
//   pattern (floats via as_uint, ulongs split into halves). vec3 lanes beyond .z are
//   never read. Runs: default, --pod-ubo, --pod-pushconstant, unclustered.
kernel void pod_vectors(global uint *out, float4 a, int2 b, uchar3 c, float3 d,
                        short4 e, ulong2 g, float2 h)
{
    uint i = get_global_id(0);
    global uint *o = out + 24 * i;
    o[0] = as_uint(a.x); o[1] = as_uint(a.y); o[2] = as_uint(a.z); o[3] = as_uint(a.w);
    o[4] = b.x + i;      o[5] = b.y;
    o[6] = c.x;          o[7] = c.y;          o[8] = c.z;
    o[9] = as_uint(d.x); o[10] = as_uint(d.y); o[11] = as_uint(d.z);
    o[12] = e.s0;        o[13] = e.s1;        o[14] = e.s2;        o[15] = e.s3;  // sign-extended
    o[16] = (uint)g.x;   o[17] = (uint)(g.x >> 32);
    o[18] = (uint)g.y;   o[19] = (uint)(g.y >> 32);
    o[20] = as_uint(h.x); o[21] = as_uint(h.y);
    o[22] = as_uint(dot(a, (float4)(d, 1.0f)));   // small exact products/sums
    o[23] = (uint)(c.x + c.y + c.z + i);
}
