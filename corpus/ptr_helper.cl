// ptr_helper.cl — helpers that clang does not inline and that take pointers; k2s inlines
// them (Vulkan's logical addressing cannot pass such pointers) and must leave no names or
// decorations of the deleted helpers behind.
// noinline_helpers: noinline helpers writing a private array, summing a global buffer with
//                   an early return (two return values), returning one of two pointers,
//                   calling each other, plus one without pointers that stays a call.
// memset_helpers:   memset/memcpy of a run-time length on private and global memory;
//                   llvm-spirv turns the memsets into its own spirv.llvm_memset_* helpers.
// many_calls:       a pointer helper called 72 times from one kernel.
__attribute__((noinline)) void fill(float *arr, int n, float v)
{
    for (int j = 0; j < n; j++)
        arr[j] = v + (float)j;
}

__attribute__((noinline)) float sum(global const float *arr, int n)
{
    if (n == 0)
        return -1.0f;
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += arr[j];
    return s;
}

__attribute__((noinline)) global float *pick(global float *a, global float *b, int c)
{
    return (c & 1) ? a : b + 1;
}

__attribute__((noinline)) int sq(int x) { return x * x + 1; }

__attribute__((noinline)) void scale_sum(global float *dst, global const float *src, int n,
                                         float *tmp)
{
    fill(tmp, 8, (float)n);
    float prod = sum(src, n) * tmp[n & 7]; // a separate statement: no contraction to fma
    *dst = prod + (float)sq(n);
}

kernel void noinline_helpers(global const float *in, global float *out, global float *aux,
                             int n)
{
    size_t i = get_global_id(0);
    float tmp[8];
    fill(tmp, 8, (float)i);
    int m = (n + (int)i) & 7;
    out[i] = sum(in + i, m) + tmp[i & 7];
    float t2[8];
    scale_sum(pick(aux + 2 * i, aux + 2 * i, (int)i), in + i, m, t2);
}

kernel void memset_helpers(global float *f, global uchar *bytes, int n)
{
    size_t i = get_global_id(0);
    float tmp[4] = {0, 0, 0, 0};
    __builtin_memcpy(tmp, f + i, n & 15);
    uchar b[16];
    __builtin_memset(b, (int)i, (n + (int)i) & 15);
    for (int k = (n + (int)i) & 15; k < 16; k++)
        b[k] = (uchar)k;
    __builtin_memset(bytes + 32 * i, (int)(i ^ 0x5a), (n + (int)i) & 31);
    f[i + 64] = tmp[0] + tmp[3] + (float)(b[3] + b[9] + b[15]);
}

__attribute__((noinline)) void bump(global uint *p, uint v) { *p = *p * 3u + v; }

#define BUMP4(k) bump(p, k); bump(p + 1, k + 1u); bump(p, k + 2u); bump(p + 1, k + 3u);
kernel void many_calls(global uint *a)
{
    global uint *p = a + 2 * get_global_id(0);
    BUMP4(0) BUMP4(4) BUMP4(8) BUMP4(12) BUMP4(16) BUMP4(20) BUMP4(24) BUMP4(28) BUMP4(32)
    BUMP4(36) BUMP4(40) BUMP4(44) BUMP4(48) BUMP4(52) BUMP4(56) BUMP4(60) BUMP4(64) BUMP4(68)
}
