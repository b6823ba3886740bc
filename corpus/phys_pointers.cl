// Physical pointer mode (--pointers=physical, vulkan1.2+): what logical mode cannot express.
// Every output is independent of where the buffers live (differences of addresses, values
// read back through pointers), so PoCL and Vulkan give the same numbers.

// phys_uintptr: pointer <-> integer casts, byte arithmetic on uintptr_t, alignment masks,
// pointer comparisons in a loop bound, a NULL pointer chosen at run time.
kernel void phys_uintptr(global const int *a, global int *out, int n)
{
    int i = get_global_id(0);
    uintptr_t base = (uintptr_t)a;
    // element i + 3 reached through integer arithmetic on the address
    global const int *p = (global const int *)(base + (uintptr_t)(i + 3) * sizeof(int));
    int acc = *p;
    // walk [a + i, a + i + 4) with a pointer compared against an end pointer
    for (global const int *q = a + i, *end = a + i + 4; q < end; ++q)
        acc += *q * 3;
    // the distance in bytes and in elements, and an alignment check (ints are 4-aligned)
    acc += (int)((uintptr_t)p - base) * 100;
    acc += (int)(p - a) * 10000;
    acc += ((uintptr_t)p & 3) == 0 ? 7 : -1000000;
    // NULL chosen at run time, then tested
    global const int *maybe = (i & 1) ? a + (i % n) : 0;
    acc += maybe ? *maybe : -5;
    acc += (maybe == 0) ? 11 : 13;
    out[i] = acc;
}

// phys_stored: pointers stored in global memory and read back by other work-items: each
// work-item publishes the address of the element it owns, then follows the addresses two
// others published (a permutation only known at run time). corpus/phys_local.cl does the
// same through local memory.
kernel void phys_stored(global float *data, global ulong *table, global float *out)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    size_t grp = get_group_id(0) * n;
    global float *mine = data + (g * 7) % get_global_size(0);
    table[g] = (ulong)mine;
    barrier(CLK_GLOBAL_MEM_FENCE);
    global float *theirs = (global float *)table[grp + (l + 1) % n];
    global float *other = (global float *)table[grp + (l + n - 1) % n];
    out[g] = *theirs * 2.0f + *other;
    // turn the published address into a position, so the table compares exactly
    barrier(CLK_GLOBAL_MEM_FENCE);
    table[g] = ((global float *)table[g] - data);
}

// phys_struct_ptrs: a private struct holding global pointers, selected per work-item, and
// pointer-typed kernel arguments into several buffers mixed with PODs.
typedef struct { global const float *src; global float *dst; int stride; } Route;

kernel void phys_struct_ptrs(global const float *x, global const float *y, global float *o1,
                             global float *o2, int stride, float scale)
{
    int i = get_global_id(0);
    Route r;
    if (i % 3 == 0) {
        r.src = x; r.dst = o1; r.stride = stride;
    } else {
        r.src = y; r.dst = o2; r.stride = 1;
    }
    r.dst[i] = r.src[(i * r.stride) % 64] * scale;
    (i % 3 == 0 ? o2 : o1)[i] = -1.0f;
}
