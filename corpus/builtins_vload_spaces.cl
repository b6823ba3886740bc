// builtins_vload_spaces.cl — vloadn/vstoren and the half loads/stores in every address
// space and for every element type: constant buffers, local arrays, private arrays,
// char..ulong, half (vload_half/vstore_half), double; n = 2, 3, 4, 8, 16.
// vl_constant: vloadn from constant char/short/long/double buffers, vload_half4 /
//              vloada_half3 / vload_half from a constant half buffer.
// vl_local:    vstoren then vloadn through local int/ulong arrays (neighbour's data),
//              vstorea_half4_rtn / vloada_half3 / vload_half8 through a local half buffer.
// vl_private:  vstoren/vloadn on private arrays (half arrays need cl_khr_fp16 in
//              private memory, so the half part goes through local memory).
kernel void vl_constant(constant char *c, constant short *s, constant long *l,
                        constant double *d, global int *o, global double *od,
                        constant half *ch, global float *of)
{
    size_t i = get_global_id(0);
    char16 a = vload16(i, c);
    short8 b = vload8(i, s + 1);
    long3 e = vload3(i, l);
    double2 f = vload2(i, d);
    int4 r = convert_int4(a.lo.lo) + convert_int4(a.hi.hi) + convert_int4(b.lo) * 3
           + convert_int4(b.hi) + (int4)(convert_int3(e), (int)e.x);
    vstore4(r, i, o);
    vstore2(f * 2.0, i, od);
    vstore4(vload_half4(i, ch) + vloada_half3(i, ch + 1).xyzz + vload_half(i, ch), i, of);
}

kernel void vl_local(global const int *a, global const ulong *b, global const float *h,
                     global int *o, global ulong *ol, global float *of, local half *lh)
{
    local int li[64 * 3];
    local ulong ll[64 * 2];
    size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    vstore3(vload3(i, a) + 1, l, li);
    vstore2(vload2(i, b) ^ 0xffffUL, l, ll);
    vstorea_half4_rtn(vload4(i, h), 2 * l, lh);
    vstore_half4_rtz(vload4(i, h) * 3.0f, 2 * l + 1, lh);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t k = (l + 1) % n;
    vstore3(vload3(k, li), i, o);
    vstore2(vload2(k, ll), i, ol);
    vstore8(vload_half8(k, lh), i, of);
    vstore3(vloada_half3(2 * k, lh), i, of + 8 * get_global_size(0));
}

kernel void vl_private(global const float *a, global const uchar *u, global float *o,
                       global uchar *ou, local half *lh)
{
    size_t i = get_global_id(0);
    float pf[8];
    uchar pu[16];
    local half *ph = lh + 8 * get_local_id(0);
    vstore4(vload4(i, a), 0, pf);
    vstore4(vload4(i, a) * -2.0f, 1, pf);
    vstore16(vload16(i, u), 0, pu);
    vstore_half4_rtp(vload4(0, pf), 0, ph);
    vstore_half4(vload4(1, pf), 1, ph);
    int j = (int)(i % 4);
    vstore4(vload4(0, pf + j) + vload_half4(0, ph + j) + vload_half(j, ph), i, o);
    vstore8(vload8(0, pu + (i % 8)) + (uchar)j, i, ou);
}
