// signed_rem.cl — OpenCL C's % on negative signed integers of every width.
// The remainder takes the dividend's sign (C99 truncating division). Vulkan leaves
// OpSRem/OpSMod undefined for negative operands, so k2s rebuilds them from OpUMod
// (pass signed-rem); drivers really differ here (NVIDIA's native SRem disagrees).
// Divisors are forced non-zero, and INT_MIN / -1 is avoided (undefined in C).
kernel void rem_int(global const int *a, global const int *b, global int *out)
{
    int i = get_global_id(0);
    int x = a[i], y = b[i] >> (i & 24);     // divisors of every magnitude
    if (y == 0) y = -3;
    if (x == (int)0x80000000 && y == -1) y = 5;
    out[i] = x % y;     // (no x / y beside it: clang then emits freeze, which llvm-spirv-15 rejects)
}

kernel void rem_small(global const char *a, global const short *b, global char *oc,
                      global short *os)
{
    int i = get_global_id(0);
    char c = a[i], cd = (char)((a[i + 1] & 15) - 8);
    short s = b[i], sd = (short)((b[i + 1] & 255) - 128);
    if (cd == 0) cd = 7;
    if (sd == 0) sd = -9;
    oc[i] = c % cd;
    os[i] = s % sd;
}

kernel void rem_long(global const long *a, global const long *b, global long *out)
{
    int i = get_global_id(0);
    long x = a[i], y = b[i] >> (i & 56);
    if (y == 0) y = 11;
    if (x == (long)0x8000000000000000UL && y == -1) y = 2;
    out[i] = x % y;
}

kernel void rem_int4(global const int4 *a, global const int4 *b, global int4 *out)
{
    int i = get_global_id(0);
    int4 y = b[i] >> 20;
    y = select(y, (int4)(-13), y == 0);
    out[i] = a[i] % y;
}
