// async_copy.cl — async_work_group_copy and async_work_group_strided_copy in both
// directions (global → local, local → global), scalar and vector element types (incl. a
// 3-lane vector and 8-byte / 1-byte elements), copies chained through the event argument,
// wait_group_events on one and on two events, prefetch and the mem_fence family, in 1-D
// and 2-D work-groups; 8- and 16-lane vectors too. Every kernel reads back what the copies wrote, so a copy loop
// that skips elements, misses a barrier or applies the stride to the wrong side shows.

#define ROUND_TRIP(NAME, T, OP)                                                             \
    kernel void NAME(global const T *in, global T *out, local T *tmp)                       \
    {                                                                                       \
        size_t n = get_local_size(0) * get_local_size(1);                                  \
        size_t g = get_group_id(0) + get_group_id(1) * get_num_groups(0);                  \
        size_t lid = get_local_id(0) + get_local_id(1) * get_local_size(0);                \
        event_t e = async_work_group_copy(tmp, in + g * n, n, 0);                           \
        wait_group_events(1, &e);                                                           \
        T v = tmp[(lid + 1) % n];                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        tmp[lid] = OP(v);                                                                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        e = async_work_group_copy(out + g * n, tmp, n, 0);                                  \
        wait_group_events(1, &e);                                                           \
    }

#define TWICE(x) ((x) + (x))
#define FLIP(x) (~(x))
ROUND_TRIP(copy_float, float, TWICE)
ROUND_TRIP(copy_int4, int4, FLIP)
ROUND_TRIP(copy_float3, float3, TWICE)
ROUND_TRIP(copy_ulong, ulong, FLIP)
ROUND_TRIP(copy_uchar, uchar, FLIP)
ROUND_TRIP(copy_short2, short2, FLIP)
ROUND_TRIP(copy_double2, double2, TWICE)
ROUND_TRIP(copy_float8, float8, TWICE)
ROUND_TRIP(copy_char16, char16, FLIP)

// Strided: gather every `stride`-th element of a global row into local memory, then
// scatter the local row back with another stride (2-D groups: the rows of a tile).
kernel void strided(global const float2 *in, global float2 *out, local float2 *tmp,
                    uint stride)
{
    size_t n = get_local_size(0) * get_local_size(1);
    size_t g = get_group_id(0) + get_group_id(1) * get_num_groups(0);
    event_t e = async_work_group_strided_copy(tmp, in + g * n * stride, n, stride, 0);
    wait_group_events(1, &e);
    size_t lid = get_local_id(0) + get_local_id(1) * get_local_size(0);
    float2 v = tmp[n - 1 - lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] = v * 3.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy(out + g * n * stride, tmp, n, stride, 0);
    wait_group_events(1, &e);
}

// Two copies in flight: the second chained through the first's event, then both awaited
// with one wait_group_events over an array of events; prefetch and fences on the way.
kernel void two_events(global const int *a, global const int *b, global int *out,
                       local int *la, local int *lb)
{
    size_t n = get_local_size(0), g = get_group_id(0), lid = get_local_id(0);
    prefetch(a + g * n, n);
    event_t ev[2];
    ev[0] = async_work_group_copy(la, a + g * n, n, 0);
    ev[1] = async_work_group_copy(lb, b + g * n, n, ev[0]);
    wait_group_events(2, ev);
    int s = la[lid] * 7 + lb[n - 1 - lid];
    mem_fence(CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    out[g * n + lid] = s;
}
