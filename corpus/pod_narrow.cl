// 8- and 16-bit POD arguments (and a constant uchar table) on a device without 8/16-bit
// storage access (--no-8bit-storage --no-16bit-storage): k2s keeps the blocks' bytes and
// reads them as 32-bit words, so no 8/16-bit buffer or push-constant access remains.
typedef struct { uchar tag; short delta; char sign; } Small; // 0, 2, 4; size 6

kernel void pod_narrow(global int *out, char c, short s, uchar u, Small sm, ushort us,
                       constant uchar *table)
{
    size_t g = get_global_id(0);
    int v = c + s * 2 + u * 3 + (int)g;
    v += sm.tag * 5 + sm.delta * 7 + sm.sign * 11 + us;
    out[g] = v * 1000 + table[(g * 7) % 64];
}
