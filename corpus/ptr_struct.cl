// ptr_struct.cl — structs with char/int/float3/double members through pointers.
// struct_fields: reads and writes each member of a buffer of structs, and the struct's
//                bytes through a uchar* (offsets follow OpenCL C layout: float3 is 16 bytes).
// struct_copy:   whole-struct copies buffer -> private -> buffer, an array element swap, and
//                a memcpy-style byte copy of one struct into another.
typedef struct { char c; int i; float3 v; double d; short s; } S;

kernel void struct_fields(global S *s, global double *o)
{
    size_t i = get_global_id(0);
    global S *p = s + i;
    o[i] = (double)p->c + (double)p->i + (double)(p->v.x + p->v.y * p->v.z) + p->d + p->s;
    p->c = (char)(p->c + 1);
    p->v.y += 1.0f;
    p->d *= 0.5;
    global uchar *b = (global uchar *)p;
    b[4 + 1] ^= 0x10;
}

kernel void struct_copy(global const S *in, global S *out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    S t = in[(i + 1) % n];
    t.i += (int)i;
    S u[2];
    u[0] = t;
    u[1] = in[i];
    u[i & 1].s = (short)-7;
    out[2 * i] = u[1];
    __builtin_memcpy(&out[2 * i + 1], &u[0], sizeof(S));
}

// packed_fields: a buffer of packed structs (7-byte elements: members at odd offsets),
//                read and written member by member, and a private packed copy.
typedef struct __attribute__((packed)) { char c; int i; short s; } P7;

kernel void packed_fields(global P7 *p, global int *o)
{
    size_t g = get_global_id(0);
    P7 t = p[g];
    o[g] = t.i + t.c * 3 + t.s * 5;
    p[g].i = (int)(g * 1000 + t.s);
    p[g].s = (short)(t.c - 7);
}
