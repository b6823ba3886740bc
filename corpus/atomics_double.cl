// atomics_double.cl — cl_ext_float_atomics on double (a 64-bit compare-exchange loop; in
// logical pointer mode on the aliased 64-bit view of a buffer re-typed as words, which
// local memory does not have: its own file, without local double atomics).
// Same scheme as atomics_float.cl: k2s lowers them to compare-exchange loops on the bits (or keeps
// them with --float-atomics). Inputs are multiples of 1/4 of moderate size, so every sum
// is exact in any order and the results do not depend on the order of the work-items.
// PoCL 3.1 has no cl_ext_float_atomics: the reference (-DK2S_REF, OpenCL C 1.2) does the
// same with atomic_cmpxchg / atom_cmpxchg loops written out here.
#ifdef K2S_REF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define atomic_float float
#define atomic_double double
#define REF_LOOP(AS, P, X, OP, IT, CAS, TOF, TOI)                                           \
    do {                                                                                    \
        volatile AS IT *p_ = (volatile AS IT *)(P);                                         \
        IT old_, seen_ = *p_;                                                               \
        do {                                                                                \
            old_ = seen_;                                                                   \
            seen_ = CAS(p_, old_, TOI(OP(TOF(old_), (X))));                                 \
        } while (seen_ != old_);                                                            \
    } while (0)
#define ADD(a, b) ((a) + (b))
#define F_ADD(AS, p, x) REF_LOOP(AS, p, x, ADD, uint, atomic_cmpxchg, as_float, as_uint)
#define F_MIN(AS, p, x) REF_LOOP(AS, p, x, fmin, uint, atomic_cmpxchg, as_float, as_uint)
#define F_MAX(AS, p, x) REF_LOOP(AS, p, x, fmax, uint, atomic_cmpxchg, as_float, as_uint)
#define D_ADD(AS, p, x) REF_LOOP(AS, p, x, ADD, ulong, atom_cmpxchg, as_double, as_ulong)
#define D_MIN(AS, p, x) REF_LOOP(AS, p, x, fmin, ulong, atom_cmpxchg, as_double, as_ulong)
#define D_MAX(AS, p, x) REF_LOOP(AS, p, x, fmax, ulong, atom_cmpxchg, as_double, as_ulong)
#define init_f(p, v) (*(p) = (v))
#else
#define F_ADD(AS, p, x) atomic_fetch_add_explicit((p), (x), memory_order_relaxed)
#define F_MIN(AS, p, x) atomic_fetch_min_explicit((p), (x), memory_order_relaxed)
#define F_MAX(AS, p, x) atomic_fetch_max_explicit((p), (x), memory_order_relaxed, memory_scope_device)
#define D_ADD(AS, p, x) atomic_fetch_add_explicit((p), (x), memory_order_relaxed)
#define D_MIN(AS, p, x) atomic_fetch_min_explicit((p), (x), memory_order_relaxed)
#define D_MAX(AS, p, x) atomic_fetch_max_explicit((p), (x), memory_order_relaxed)
#define init_f(p, v) atomic_init((p), (v))
#endif

kernel void datomic_global(global atomic_double *r, global const double *in)
{
    double x = floor(in[get_global_id(0)] * 4.0) / 4.0;
    D_ADD(global, &r[0], x);
    D_MIN(global, &r[1], x);
    D_MAX(global, &r[2], x);
}

// r[0] is also read as two 32-bit halves, so logical pointer mode re-types r as words: the
// double atomics' 64-bit compare-exchange loops then use the buffer's aliased 64-bit view
// (docs/atomics.md), on vulkan1.1 too.
kernel void datomic_words(global atomic_double *r, global const double *in, global uint *halves)
{
    size_t i = get_global_id(0);
    double x = floor(in[i] * 4.0) / 4.0;
    D_ADD(global, &r[1 + i % 2], x);
    D_MIN(global, &r[3], x);
    D_MAX(global, &r[4], x);
    if (i == 0) {
        global const uint *w = (global const uint *)r;
        halves[0] = w[0];
        halves[1] = w[1];
    }
}
