// barriers.cl — barrier flavours beyond the plain local-memory barrier.
// global_fence_exchange: work-items of one group exchange data through a *global*
//                        scratch buffer with barrier(CLK_GLOBAL_MEM_FENCE).
// both_fences:           barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) between
//                        phases that use local and global memory, in a loop of rounds
//                        (barrier inside a uniform loop).
kernel void global_fence_exchange(global const int *in, global int *scratch, global int *out)
{
    size_t g = get_global_id(0);
    size_t base = g - get_local_id(0);
    uint n = get_local_size(0);
    scratch[g] = in[g] * 7;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] = scratch[base + (get_local_id(0) + 1) % n] - scratch[g];
}

kernel void both_fences(global int *data, global int *out)
{
    local int l[64];                          // local size <= 64
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    size_t g = get_global_id(0);
    size_t base = g - lid;
    int acc = 0;
    for (int round = 0; round < 4; ++round) {
        l[lid] = data[g] + round;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        int mine = l[(lid + 3) % n];
        acc += mine;
        data[base + (lid + 1) % n] = mine ^ acc;   // each slot written by one work-item
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    out[g] = acc;
}
