// vadd.cl — the smallest useful kernel: element-wise float addition.
// Exercises: two read-only global float buffers, one write-only global float buffer,
// 1D NDRange indexed by get_global_id(0). Exact (a single IEEE add per element).
kernel void vadd(global const float *a, global const float *b, global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
