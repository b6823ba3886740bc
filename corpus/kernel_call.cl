// kernel_call.cl — a kernel calling another kernel as an ordinary function (allowed in
// OpenCL C; the callee must then behave like a plain function, with the caller's
// work-item ids), plus each kernel run on its own.
// kc_inner: out[i] = a[i] * 2 + b                   (a kernel in its own right)
// kc_outer: calls kc_inner on two halves of the buffers, then post-processes; also uses
//           kc_inner's result from the same work-item.
kernel void kc_inner(global const int *a, global int *out, int b)
{
    size_t i = get_global_id(0);
    out[i] = a[i] * 2 + b;
}

kernel void kc_outer(global const int *a, global int *out, global int *out2)
{
    kc_inner(a, out, 5);                     // writes out[gid]
    kc_inner(a, out2, -1);                   // writes out2[gid]
    size_t i = get_global_id(0);
    out2[i] = out2[i] ^ out[i];
}
