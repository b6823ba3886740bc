// atomics64.cl — 64-bit atom_* (cl_khr_int64_base_atomics / _extended_atomics) on long and
// ulong, in global and in local memory. Every final value is independent of the order in
// which work-items run: commutative ops, a compare-exchange loop that adds, and exchanges
// that all store the same value. Inputs are full 64-bit random values, so a 32-bit lowering
// gives different results.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// res[0..15]: one slot per operation (the spec initialises them).
kernel void atom64_global(global long *res, global const long *in)
{
    long v = in[get_global_id(0)];
    atom_add(&res[0], v);
    atom_sub(&res[1], v);
    atom_min(&res[2], v);
    atom_max(&res[3], v);
    atom_min((global ulong *)&res[4], (ulong)v);
    atom_max((global ulong *)&res[5], (ulong)v);
    atom_and(&res[6], v | 0x0f0f0f0f0f0f0f0fL);
    atom_or(&res[7], v & 0x0100000100000001L);
    atom_xor(&res[8], v);
    atom_inc(&res[9]);
    atom_dec(&res[10]);
    atom_xchg(&res[11], 0x123456789abcdefL);
    long old, seen = res[12];
    do {
        old = seen;
        seen = atom_cmpxchg(&res[12], old, old + (v >> 3));
    } while (seen != old);
    // The returned old value must be a 64-bit one: res[13] goes up by 2^32 per
    // work-item, so exactly half of the 1024 see a high word of 512 or more.
    if ((atom_add(&res[13], 0x100000000L) >> 32) >= 512)
        atom_inc(&res[14]);
}

// The same operations on a local array, then one work-item per group folds its group's
// slots into the global results with global 64-bit atomics.
kernel void atom64_local(global long *res, global const long *in)
{
    local long l[12];
    uint lid = get_local_id(0);
    if (lid == 0) {
        l[0] = 0; l[1] = 0; l[2] = 0x7fffffffffffffffL; l[3] = (long)0x8000000000000000UL;
        l[4] = -1; l[5] = 0; l[6] = -1; l[7] = 0; l[8] = 0; l[9] = 0x0fffffff0L;
        l[10] = 0; l[11] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = in[get_global_id(0)];
    atom_add(&l[0], v);
    atom_sub(&l[1], v);
    atom_min(&l[2], v);
    atom_max(&l[3], v);
    atom_min((local ulong *)&l[4], (ulong)v);
    atom_max((local ulong *)&l[5], (ulong)v);
    atom_and(&l[6], v | 0x00ff00ff00ff00ffL);
    atom_or(&l[7], v & 0x0008000000080000L);
    atom_xor(&l[8], v);
    atom_inc(&l[9]);
    atom_dec(&l[10]);
    long old, seen = l[11];
    do {
        old = seen;
        seen = atom_cmpxchg(&l[11], old, old ^ (v << 1));
    } while (seen != old);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        atom_add(&res[0], l[0]);
        atom_add(&res[1], l[1]);
        atom_min(&res[2], l[2]);
        atom_max(&res[3], l[3]);
        atom_min((global ulong *)&res[4], (ulong)l[4]);
        atom_max((global ulong *)&res[5], (ulong)l[5]);
        atom_and(&res[6], l[6]);
        atom_or(&res[7], l[7]);
        atom_xor(&res[8], l[8]);
        atom_add(&res[9], l[9]);
        atom_add(&res[10], l[10]);
        atom_xor(&res[11], l[11]);
        atom_xchg(&res[12 + get_group_id(0)], l[9] * 3);
    }
}

// The result buffer is also read and written as 32-bit halves (res[0] as two uints), so
// logical pointer mode re-types it as words; the 64-bit atomics go through the buffer's
// aliased 64-bit view (docs/atomics.md). res[1..6]: one slot per operation.
kernel void atom64_words(global long *res, global const long *in)
{
    long v = in[get_global_id(0)];
    atom_add(&res[1], v);
    atom_min(&res[2], v);
    atom_max((global ulong *)&res[3], (ulong)v);
    atom_xor(&res[4], v);
    atom_xchg(&res[5], 0x0fedcba987654321L);
    long old, seen = atom_add(&res[6], 0);
    do {
        old = seen;
        seen = atom_cmpxchg(&res[6], old, old + (v >> 4));
    } while (seen != old);
    if (get_global_id(0) == 0) {
        global uint *w = (global uint *)res;
        uint lo = w[0], hi = w[1];
        w[0] = hi;
        w[1] = lo;
    }
}
