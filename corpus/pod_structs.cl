// pod_structs.cl — struct POD kernel arguments passed by value (byval in SPIR-V),
// laid out per OpenCL C rules; the spec gives the raw little-endian bytes.
// pod_struct_pad:    struct {char c; int i; float f;}   — 3 padding bytes after c (12 bytes).
// pod_struct_f4:     int scalar, then struct {int n; float4 v;} — 12 padding bytes inside the
//                    struct, struct 16-aligned after the scalar (cluster offset 16), 32 bytes.
// pod_struct_v3:     struct {float3 v; int k;} then float — vec3 member takes 16 bytes,
//                    struct is 32 bytes, trailing float at cluster offset 32.
// pod_struct_nested: struct {short s[3]; long l; uchar tail;} — array member, 8-byte member
//                    after 2 padding bytes, tail padding (24 bytes); then a char.
// Runs repeat some of them with --pod-ubo (std140-style arrays!), --pod-pushconstant and
// --cluster-pod-kernel-args=0.
#pragma OPENCL FP_CONTRACT OFF

typedef struct { char c; int i; float f; } PadCIF;
typedef struct { int n; float4 v; } WithF4;
typedef struct { float3 v; int k; } WithV3;
typedef struct { short s[3]; long l; uchar tail; } Mixed;

kernel void pod_struct_pad(global float *out, PadCIF p)
{
    int g = get_global_id(0);
    out[3 * g + 0] = (float)(p.c + g);
    out[3 * g + 1] = (float)(p.i * g);
    out[3 * g + 2] = p.f * (float)g;
}

kernel void pod_struct_f4(global float4 *out, int scale, WithF4 p)
{
    int g = get_global_id(0);
    out[2 * g] = p.v * (float)(scale + g);
    out[2 * g + 1] = (float4)((float)p.n, p.v.w, p.v.x, (float)scale);
}

kernel void pod_struct_v3(global float4 *out, WithV3 p, float bias)
{
    int g = get_global_id(0);
    out[g] = (float4)(p.v.zyx + bias, (float)(p.k * g));
}

kernel void pod_struct_nested(global long *out, Mixed m, char c)
{
    int g = get_global_id(0);
    global long *o = out + 6 * g;
    o[0] = m.s[0];
    o[1] = m.s[1];
    o[2] = m.s[2 - (g & 1)];                  // dynamic index into the array member
    o[3] = m.l + g;
    o[4] = m.tail;
    o[5] = c;
}
