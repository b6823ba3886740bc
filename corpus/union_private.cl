// union_private.cl — unions in private memory and in buffers, with dynamic byte indexing.
// union_bytes:  a private union {float; uint; uchar[4]} written as a float, patched through
//               a data-dependent byte index, read back as uint.
// union_array:  a private array of unions {int2; float2; ushort[4]} mixed by index.
// union_buffer: a buffer of unions {float4; uint4; uchar16}: read as float4, written as bytes.
typedef union { float f; uint u; uchar c[4]; } U4;
typedef union { int2 i; float2 f; ushort s[4]; } U8;
typedef union { float4 f; uint4 u; uchar c[16]; } U16;

kernel void union_bytes(global const float *in, global uint *out)
{
    size_t i = get_global_id(0);
    U4 u;
    u.f = in[i];
    u.c[i & 3] ^= (uchar)(0x5a + i);
    out[i] = u.u;
}

kernel void union_array(global const int *in, global float *out)
{
    size_t i = get_global_id(0);
    U8 a[4];
    for (int k = 0; k < 4; ++k)
        a[k].i = (int2)(in[4 * i + k], k);
    a[i & 3].s[(i >> 2) & 3] = (ushort)0x3f80;
    float acc = 0.0f;
    for (int k = 0; k < 4; ++k)
        acc += (float)a[k].i.x + (float)a[k].s[1];
    out[i] = acc + a[(i + 1) & 3].f.y * 0.0f;
}

kernel void union_buffer(global U16 *u, global float *o)
{
    size_t i = get_global_id(0);
    float4 f = u[i].f;
    o[i] = f.x + f.y + f.z + f.w;
    u[i].c[(i * 5) & 15] = (uchar)i;
}
