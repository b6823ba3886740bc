// A kernel's own local array (2048 doubles), a local argument and k2s's scratch for
// work_group_reduce_add(double): run by workgroup-memory.test.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void big(global const double *in, global double *out, local double *arg)
{
    local double mine[2048];
    size_t g = get_global_id(0), l = get_local_id(0);
    mine[l] = in[g];
    arg[l] = in[g] * 2.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = work_group_reduce_add(mine[(l + 1) % get_local_size(0)] + arg[l]);
}
