// ptr_edge.cl — corner cases of logical-mode pointers.
// local_bytes:   every work-item stores one byte of a local uint array (neighbours write the
//                other bytes of the same word at the same time), then reads whole words.
// neg_offsets:   pointers moved backwards (p[-1], p - k), a 2D private array walked through
//                a flat pointer, a vec3 array indexed through float*.
// char_as_uint4: a uchar buffer read as uint4 and written as ushort, in a loop with a
//                moving pointer.
// vec_lane:      a pointer to a vector lane chosen at run time, and a private struct array
//                with dynamic element and member access through a char* offset.
kernel void local_bytes(global const uchar *in, global uint *out, local uint *w)
{
    size_t l = get_local_id(0), g = get_global_id(0);
    local uchar *b = (local uchar *)w;
    b[l] = in[g] ^ (uchar)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < get_local_size(0) / 4)
        out[get_group_id(0) * (get_local_size(0) / 4) + l] = w[l];
}

kernel void neg_offsets(global const float *in, global float *out, global const float3 *v)
{
    size_t i = get_global_id(0);
    global const float *p = in + i + 4;
    float m[3][4];
    float *f = &m[0][0];
    for (int k = 0; k < 12; ++k)
        f[k] = p[-(k % 4)] * (float)(k + 1);
    float *q = f + 11;
    float s = 0.0f;
    for (int k = 0; k < 6; ++k)
        s += *(q - 2 * k);
    global const float *vf = (global const float *)v;
    out[i] = s + m[i % 3][(i >> 2) & 3] + vf[4 * (i % 8) + 2] + vf[4 * (i % 8) + 1];
}

kernel void char_as_uint4(global uchar *buf, global uint *out, int n)
{
    size_t i = get_global_id(0);
    global const uint4 *q = (global const uint4 *)(buf + 16 * i);
    uint4 acc = (uint4)(0);
    for (global const uint4 *e = q + n; q < e; ++q)
        acc += *q;
    out[i] = acc.x ^ acc.y ^ acc.z ^ acc.w;
    global ushort *s = (global ushort *)buf;
    s[8 * i + 1] = (ushort)(acc.x >> 3);
}

typedef struct { short a; float b[3]; char c; } rec;

kernel void vec_lane(global const float4 *in, global float *out)
{
    size_t i = get_global_id(0);
    float4 v = in[i];
    float *lane = (float *)&v + (i & 3);
    *lane += 10.0f;
    rec r[4];
    for (int k = 0; k < 4; ++k) {
        r[k].a = (short)(k * 3);
        r[k].b[0] = v.x; r[k].b[1] = v.y; r[k].b[2] = v.z;
        r[k].c = (char)k;
    }
    char *base = (char *)&r[i % 4];
    float *bp = (float *)(base + 4) + (i % 3);
    out[i] = *lane + v.w + *bp + (float)((rec *)base)->a + (float)r[(i + 1) % 4].c;
}

// odd_struct_walk: a struct pointer starting 4 or 8 bytes into an int buffer (not a
//                  multiple of the struct size) and moving by whole structs in a loop.
typedef struct { int a; int b; int c; } tri;

kernel void odd_struct_walk(global const int *in, global int *out, int n)
{
    size_t g = get_global_id(0);
    const global tri *p = (const global tri *)(in + 1 + (g & 1) + 3 * (g / 2));
    int s = 0;
    for (int k = 0; k < n; ++k, ++p)
        s += p->a * 3 + p->c;
    out[g] = s;
}

// float_atomic_add: the usual float atomic add through atomic_cmpxchg on an int* view of
//                   a float buffer (integer-valued floats: sums exact in any order).
kernel void float_atomic_add(global float *acc, global const float *in)
{
    size_t i = get_global_id(0);
    volatile global int *slot = (volatile global int *)&acc[i % 4];
    float add = in[i];
    int old = *slot, seen;
    do {
        seen = old;
        old = atomic_cmpxchg(slot, seen, as_int(as_float(seen) + add));
    } while (old != seen);
}

// vload_punned: vload4/vstore2 on a buffer that is also read through uchar* (the buffer is
//               re-typed as words, so the vector accesses are expanded element by element).
kernel void vload_punned(global float *a, global float *o)
{
    size_t i = get_global_id(0);
    float4 v = vload4(i, a);
    global uchar *b = (global uchar *)a;
    vstore2((float2)(v.x + v.w, (float)b[4 * i + 1]), i, o);
}

// memcpy_dynamic: memcpy with a size known only at run time, from a float buffer into a
//                 private byte array and back out into a uint buffer at a byte offset.
kernel void memcpy_dynamic(global const float *in, global uint *out, int n)
{
    size_t i = get_global_id(0);
    uchar tmp[32];
    int k = 0;
    do
        tmp[k] = (uchar)(k * 7 + i);
    while (++k < 32);
    int len = (n + (int)i) % 29;
    __builtin_memcpy(tmp + 1, (global const uchar *)(in + 8 * i) + (i & 3), (size_t)len);
    __builtin_memcpy((global uchar *)(out + 8 * i) + 2, tmp, (size_t)(len + 1));
}
