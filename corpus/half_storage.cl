// half_storage.cl — half-precision storage without the cl_khr_fp16 arithmetic extension:
// vload_half / vstore_half (core OpenCL C 1.2) on ushort-declared buffers (the spec's
// element type is ushort: raw half bit patterns).
// half_roundtrip: float -> half with vstore_half (round to nearest even) and
//                 vstore_half_rtz, half -> float with vload_half, vload_half4/vstore_half4.
kernel void half_roundtrip(global const float *f, global half *h, global const half *hin,
                           global float *fout)
{
    size_t i = get_global_id(0);
    float x = f[i] * 1000.0f;
    vstore_half(x, 2 * i, h);                 // default rounding: rte
    vstore_half_rtz(x, 2 * i + 1, h);
    fout[i] = vload_half(i * 13, hin);        // exact widening (subnormal and normal halves)
    if ((i & 3) == 0) {
        float4 v = vload_half4(i * 3, hin);   // halves 12i .. 12i+3
        vstore_half4(v * 2.0f, i / 4, h + 2 * get_global_size(0));
    }
}
