#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#ifndef LOCAL
kernel void words(global long *res, global const long *in)
{
    atom_add(&res[1], in[get_global_id(0)]);
    atom_max(&res[2], in[get_global_id(0)]);
    if (get_global_id(0) == 0)
        ((global uint *)res)[0] = 7u;
}
#else
kernel void words(global long *res, global const long *in)
{
    local long t[4];
    t[get_local_id(0) & 3] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&t[1], in[get_global_id(0)]);
    ((local uint *)t)[0] = 7u;
    barrier(CLK_LOCAL_MEM_FENCE);
    res[get_global_id(0)] = t[1] + t[0];
}
#endif
