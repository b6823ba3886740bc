// ptr_memcpy.cl — memcpy of a struct through a private copy (audit k13).
// struct_copy: a struct with a char array and padding loaded from a buffer into a private
//              copy, whose 12 bytes are copied to an unaligned uchar destination; and a
//              run-time-size copy into a private float[4]. Under --pointers=physical the
//              word pointer of the 12-byte copy was cast twice from the element pointer,
//              which lavapipe read as word 0 three times.
// variants:    a copy from inside a buffer struct (char* + 4), a whole-struct copy
//              buffer -> private -> buffer, and words read through casts of casts.
typedef struct {
    int a;
    char b[3];
    float c;
} S;

kernel void struct_copy(global uchar *dst, global S *src, int n, global float *f)
{
    size_t i = get_global_id(0);
    S s = src[i];
    __builtin_memcpy(dst + i * 13 + 1, &s, 12);
    float tmp[4];
    __builtin_memcpy(tmp, f + i, n & 15);
    f[i + 64] = tmp[0];
}

kernel void variants(global uchar *dst, global S *src, global S *out, global uint *w)
{
    size_t i = get_global_id(0);
    __builtin_memcpy(dst + i * 13 + 1, (global uchar *)&src[i] + 4, 8);
    S s = src[i];
    s.a += 1;
    __builtin_memcpy(&out[i], &s, 12);
    global uint *p = (global uint *)(global uchar *)&src[i];
    w[i * 3] = p[1];
    w[i * 3 + 1] = p[2];
    w[i * 3 + 2] = ((global uint *)(global float *)&src[i])[2];
}
