// ptr_loops.cl — logical-mode pointers that move between buffers in loops, and unaligned
// wide stores into byte buffers (issue-4 audit).
// swap:        two pointers swap buffers every iteration (t = p; p = q + 1; q = t): the
//              pointer phis read each other across the back edge.
// swap_cond:   the same with a data-dependent extra step and a final comparison of the
//              moving pointer with every element of one buffer.
// jump:        a loop pointer that moves to another buffer once (p = j == 1 ? b + 3 : p + 1).
// memcpy_u32:  memcpy of a uint to byte offset 5i+1 (clang: OpStore Aligned 1).
// memcpy_struct: a 12-byte struct (no padding) copied to byte offset 13i+1 (a uint and a
//              ulong store, Aligned 1), and read back from an odd offset.
// local_unaligned: uints stored at byte offsets 5l+3 of a local byte array (neighbours share
//              words), then read back as bytes.
// ptrint_local: a local address cut to 32 bits on spir64, combined with another one.
kernel void swap(global const int *a, global const int *b, global int *out, int n)
{
    size_t g = get_global_id(0);
    global const int *p = a + g, *q = b + g;
    int acc = 0;
    for (int j = 0; j < n; j++) {
        acc = acc * 7 + *p;
        global const int *t = p;
        p = q + 1;
        q = t;
    }
    out[g] = acc;
}

kernel void swap_cond(global const int *a, global const int *b, global int *out, int n)
{
    size_t g = get_global_id(0);
    global const int *p = a + g * 8, *q = b + g * 8;
    int acc = 0;
    for (int j = 0; j < n; j++) {
        acc += *p;
        global const int *t = p;
        p = q + 1;
        q = t;
        if (acc & 1)
            p++;
    }
    int ina = 0;
    for (int k = 0; k < 24; k++)
        ina += (p == a + g * 8 + k) ? k + 1 : 0;
    out[g] = acc * 100 + ina;
}

kernel void jump(global const int *a, global const int *b, global int *out, int n)
{
    size_t g = get_global_id(0);
    global const int *p = a + g;
    int acc = 0;
    for (int j = 0; j < n; j++) {
        acc = acc * 5 + *p;
        p = (j == (int)(g % 3)) ? b + 3 + g : p + 1;
    }
    out[g] = acc;
}

kernel void memcpy_u32(global uchar *dst, global const uint *src)
{
    size_t i = get_global_id(0);
    uint v = src[i] * 2654435761u;
    __builtin_memcpy(dst + i * 5 + 1, &v, 4);
}

typedef struct {
    int a;
    char b[4];
    float c;
} S;

kernel void memcpy_struct(global uchar *dst, global const S *src, global int *back)
{
    size_t i = get_global_id(0);
    S s = src[i];
    s.a += 1;
    s.c = (float)(i + 1) * 0.5f;
    __builtin_memcpy(dst + i * 13 + 1, &s, 12);
    int r;
    __builtin_memcpy(&r, (global const uchar *)src + i * 12 + 3, 4);
    back[i] = r;
}

kernel void local_unaligned(global const uint *src, global uchar *out, local uchar *buf)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    for (size_t k = l; k < n * 5 + 8; k += n)
        buf[k] = 0xAA;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = src[g] ^ 0x5a5a5a5au;
    __builtin_memcpy(buf + l * 5 + 3, &v, 4);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = l; k < n * 5 + 8; k += n)
        out[get_group_id(0) * (n * 5 + 8) + k] = buf[k];
}

kernel void ptrint_local(global uint *out)
{
    local uint buf[64];
    size_t l = get_local_id(0);
    buf[l] = l * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    local uchar *c = (local uchar *)buf + l;
    uintptr_t a = (uintptr_t)c;
    local uint *w = (local uint *)(a & ~(uintptr_t)3);
    out[get_global_id(0)] =
        *w + (uint)(a & 3) * 1000 + ((uint)a - (uint)(uintptr_t)buf) * 100000;
}
