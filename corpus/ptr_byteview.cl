// ptr_byteview.cl — one buffer or array accessed as several types (logical-mode type punning).
// bytes_of_float:  reads the bytes of a float buffer through a uchar*, writes bytes into a
//                  float buffer through a uchar* (its own floats are also read and written).
// float4_over_float: float4* over a float buffer, and a float buffer stored through uint*.
// local_as_other:  a local float array written as floats, read back as uchar and as int2.
// short_view:      a uint buffer read and written through ushort* (16-bit pieces).
kernel void bytes_of_float(global float *in, global uchar *out, global float *fo)
{
    size_t i = get_global_id(0);
    global uchar *b = (global uchar *)in;
    for (int k = 0; k < 4; ++k)
        out[4 * i + k] = b[4 * i + (3 - k)] ^ (uchar)k;
    fo[i] = fo[i] * 2.0f;
    global uchar *fb = (global uchar *)fo;
    fb[4 * i + (i & 3)] = (uchar)(i * 7 + 1);
}

kernel void float4_over_float(global float *a, global float *o)
{
    size_t i = get_global_id(0);
    float4 v = ((global float4 *)a)[i];
    ((global float4 *)o)[i] = v.wzyx + (float4)(1.0f);
    global uint *u = (global uint *)o;
    if (i == 0)
        u[1] ^= 0x80000000u;
}

kernel void local_as_other(global const float *in, global uint *out, local float *tile)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    tile[l] = in[g] * 3.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    local uchar *b = (local uchar *)tile;
    uint x = b[4 * ((l + 1) % n)] | (uint)b[4 * ((l + 2) % n) + 3] << 8;
    local int2 *p = (local int2 *)tile;
    int2 q = p[(l / 2) % (n / 2)];
    out[g] = x + (uint)q.x * 3u + (uint)q.y;
}

kernel void short_view(global uint *a, global uint *o)
{
    size_t i = get_global_id(0);
    global ushort *s = (global ushort *)a;
    ushort lo = s[2 * i], hi = s[2 * i + 1];
    global ushort *d = (global ushort *)o;
    d[2 * i] = hi;
    d[2 * i + 1] = (ushort)(lo + 1);
}
