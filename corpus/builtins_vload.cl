// builtins_vload.cl — vloadn/vstoren (OpExtInst vloadn/vstoren on element pointers),
// lowered by the builtins pass into scalar loads and stores through access chains.
// vload_global: vload2/3/4 from float, int, uchar and ulong buffers at computed offsets
//               and from a pointer already offset into the buffer (p + 3);
//               vstore2/3/4 into float, short and long buffers.
// vload_local:  vstore4 into a local float array, then vload2 of the neighbour's data.
kernel void vload_global(global const float *f, global const int *n, global const uchar *u,
                         global const ulong *l, global float *of, global short *os,
                         global long *ol)
{
    size_t i = get_global_id(0);
    float4 a = vload4(i, f);
    float3 b = vload3(i, f + 3);
    float2 c = vload2(2 * i + 1, f);
    int4 d = vload4(i, n);
    uchar3 e = vload3(i, u);
    ulong2 g = vload2(i, l);
    vstore4(a * 2.0f + (float4)(b, c.x), i, of);
    vstore2(c, i, of + 4 * get_global_size(0));
    vstore3(convert_short3(d.xyz) + convert_short3(e), i, os);
    vstore2(as_long2(g) + (long)d.w, i, ol + 1);
}

kernel void vload_local(global const float *f, global float *out)
{
    local float tile[4 * 64];
    size_t i = get_global_id(0), j = get_local_id(0);
    vstore4(vload4(i, f), j, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t k = (j + 1) & 63;
    vstore2(vload2(2 * k + 1, tile), i, out);
}
