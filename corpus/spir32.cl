// spir32.cl — the same source built for the 32-bit `spir` triple (size_t and pointers are
// 32 bits: 32-bit OpTypeInt for work-item functions, Physical32 addressing, 32-bit
// pointer arithmetic) and for the default spir64. The stored results are chosen to be
// identical for both triples, so either build compares against the 64-bit PoCL reference.
// sizes: size_t/ptrdiff_t arithmetic, a pointer difference, an index computed with
//        SIZE_MAX wrap-around (only the low 32 bits are stored), and sizeof checks folded
//        into a triple-independent value.
kernel void sizes(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    global const uint *p = in + g;
    ptrdiff_t d = p - in;                     // == g
    size_t wrapped = (size_t)0 - 1 - g;       // SIZE_MAX - g
    out[4 * g + 0] = (sizeof(size_t) == sizeof(global void *)) ? 1u : 0u;
    out[4 * g + 1] = (uint)d + *p;
    out[4 * g + 2] = (uint)wrapped;           // 0xffffffff - g for both triples
    out[4 * g + 3] = (uint)(get_global_size(0) - g) * (uint)get_local_size(0);
}
