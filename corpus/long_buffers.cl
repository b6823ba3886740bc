// long_buffers.cl — 64-bit integer buffers (Int64 capability on the Vulkan side).
// long_ops: long and ulong add/mul/shift/compare, 64-bit shift counts, mixing a 32-bit
//           index with 64-bit data, and a long -> int truncation.
kernel void long_ops(global const long *a, global const ulong *b,
                     global long *ol, global ulong *ou)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    ol[4 * i + 0] = x + (long)y;
    ol[4 * i + 1] = x * 0x12345678ABCDL;
    ol[4 * i + 2] = x >> (y & 63);             // arithmetic 64-bit shift
    ol[4 * i + 3] = (long)(int)x + (x < 0 ? -1L : 1L);
    ou[4 * i + 0] = y * y;
    ou[4 * i + 1] = y >> (x & 63);             // logical 64-bit shift
    ou[4 * i + 2] = (y << 40) | (y >> 24);
    ou[4 * i + 3] = (y > (ulong)x) ? y - (ulong)x : (ulong)x - y;
}
