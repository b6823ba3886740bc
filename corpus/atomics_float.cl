// atomics_float.cl — cl_ext_float_atomics: atomic_fetch_add/min/max on float in global and
// local memory (double: atomics_double.cl). k2s lowers them to compare-exchange loops on the bits (or keeps
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

kernel void fatomic_global(global atomic_float *r, global const float *in)
{
    float x = floor(in[get_global_id(0)] * 4.0f) / 4.0f;
    F_ADD(global, &r[0], x);
    F_MIN(global, &r[1], x);
    F_MAX(global, &r[2], x);
}

kernel void fatomic_local(global atomic_float *r, global const float *in)
{
    local atomic_float l[3];
    if (get_local_id(0) == 0) {
        init_f(&l[0], 0.0f);
        init_f(&l[1], INFINITY);
        init_f(&l[2], -INFINITY);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float x = floor(in[get_global_id(0)] * 4.0f) / 4.0f;
    F_ADD(local, &l[0], x);
    F_MIN(local, &l[1], x);
    F_MAX(local, &l[2], x);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        size_t g = get_group_id(0);
        global float *o = (global float *)r;
        o[3 * g] = *(local float *)&l[0];
        o[3 * g + 1] = *(local float *)&l[1];
        o[3 * g + 2] = *(local float *)&l[2];
    }
}
