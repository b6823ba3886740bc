// Constant-pointer and POD arguments whose OpenCL layout Vulkan's uniform (std140) layout
// cannot express: element strides of 1, 2, 8, 12 bytes, structs at offsets that are not
// multiples of 16. Run with -constant-args-ubo / -pod-ubo, k2s keeps the exact OpenCL bytes
// and reads them as 16-byte words; with --scalar-block-layout it keeps typed access.
// Every result is an integer (floats scaled exactly), so outputs compare exactly.

typedef struct { char c; short s; int i; long l; float3 v; } Rec; // 0, 2, 4, 8, 16; size 32
typedef struct { uchar a; float f; ushort h; } Small;             // 0, 4, 8; size 12

// ubo_scalars: 8-, 16-, 32- and 64-bit elements at run-time indices.
kernel void ubo_scalars(constant uchar *b, constant short *s, constant long *l,
                        constant float *f, constant char2 *c2, global long *out)
{
    size_t i = get_global_id(0);
    long acc = b[(i * 3) % 61];
    acc += (long)s[(i * 7) % 29] * 3;
    acc ^= l[i % 13];
    acc += (long)(f[i % 17] * 8388608.0f); // exact: rand floats are k / 2^23
    char2 v = c2[(i * 5) % 31];
    acc += v.x * 100 + v.y;
    out[i] = acc;
}

// ubo_structs: struct members and vec3 elements at run-time indices, a 12-byte stride.
kernel void ubo_structs(constant Rec *r, constant Small *sm, constant float3 *v3,
                        global uint *out)
{
    size_t i = get_global_id(0);
    constant Rec *p = &r[i % 7];
    Small q = sm[i % 11];
    float3 w = v3[i % 5];
    uint acc = (uint)p->c + (uint)p->s * 7u + (uint)p->i * 13u;
    acc ^= (uint)(p->l >> (i % 32));
    // The struct floats come from random bytes (NaN, huge): _sat keeps the conversions
    // defined (a plain out-of-range float->int is undefined, and NVIDIA and PoCL differ).
    acc += (uint)convert_int_sat(p->v.y * 65536.0f) ^ (uint)convert_int_sat(p->v.z * 4096.0f);
    acc += q.a * 3u + (uint)convert_int_sat(q.f * 1024.0f) + q.h;
    acc ^= (uint)(int)(w.x * 8388608.0f) + (uint)(int)(w.z * 8388608.0f);
    out[i] = acc;
}

// pod_mixed: POD arguments at OpenCL offsets that break std140 (char, a 12-byte struct at
// offset 4, short at 16, a 32-byte struct at 32, float2 at 64, uchar at 72).
kernel void pod_mixed(global long *out, char c, Small sm, short s, Rec r, float2 f2, uchar u)
{
    size_t i = get_global_id(0);
    global long *o = out + i * 8;
    o[0] = c + (long)i;
    o[1] = sm.a + ((long)sm.h << 8) + ((long)(sm.f * 4.0f) << 24);
    o[2] = s * (long)i;
    o[3] = r.c + r.s * 1000L + (long)r.i * 1000000L;
    o[4] = r.l ^ (long)i;
    o[5] = (long)(r.v.x * 1024.0f) * 100000L + (long)(r.v.z * 1024.0f);
    o[6] = (long)(f2.x * 1024.0f) * 100000L + (long)(f2.y * 1024.0f);
    o[7] = u * (long)i;
}
