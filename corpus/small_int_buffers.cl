// small_int_buffers.cl — 8- and 16-bit integer buffers (byte/short addressable stores).
// char_ops:  char and uchar loads/stores; integer promotion to int, then truncating
//            store (wrap-around); signed vs unsigned right shift of promoted values.
// short_ops: the same for short and ushort; neighbouring elements written by different
//            work-items (sub-word stores must not clobber each other).
kernel void char_ops(global const char *a, global const uchar *b,
                     global char *oc, global uchar *ou)
{
    int i = get_global_id(0);
    char x = a[i];
    uchar y = b[i];
    oc[2 * i + 0] = (char)(x + y);             // wraps
    oc[2 * i + 1] = (char)(x >> 2);            // arithmetic shift of a negative char
    ou[2 * i + 0] = (uchar)(y * 3 + 7);
    ou[2 * i + 1] = (uchar)((y >> 3) | (uchar)(x << 5));
}

kernel void short_ops(global const short *a, global const ushort *b,
                      global short *os, global ushort *ou)
{
    int i = get_global_id(0);
    short x = a[i];
    ushort y = b[i];
    os[i] = (short)(x * 3 - (short)y);
    ou[i] = (ushort)((y >> 1) ^ (ushort)x) + (ushort)(x < 0);
}
