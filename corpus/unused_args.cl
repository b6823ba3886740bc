// unused_args.cl — kernel arguments the body never touches (the translator must still
// give them bindings / reflection entries so the host's argument indices line up) and
// pointer qualifiers (const, restrict, volatile) that must not change the interface.
// unused_args: only `in` and `out` are used; a buffer, a POD int, a local pointer and a
//              float4 POD are ignored (interleaved with the used ones).
// qualifiers:  restrict/const/volatile-qualified global pointers; the volatile pointer
//              is written twice (both stores must happen, the last one wins).
kernel void unused_args(global float *unused_buf, global const int *in, int unused_pod,
                        local int *unused_local, global int *out, float4 unused_vec)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * 3 - 1;
}

kernel void qualifiers(global const int *restrict a, global const int *restrict b,
                       global int *restrict c, volatile global int *d)
{
    size_t i = get_global_id(0);
    c[i] = a[i] ^ b[i];
    d[i] = a[i];
    d[i] = d[i] + b[i];
}
