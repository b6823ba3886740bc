typedef struct { int a; float b; } S;
kernel void k(global const int * restrict a, constant float *c, local volatile int *l, int n, S s, read_only image2d_t img, write_only image2d_t wimg, sampler_t smp, global float4 *out) { out[0] = (float4)(a[0] + c[0] + n + s.a); }
