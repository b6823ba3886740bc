kernel void pr(global float *a, global int *b, global float3 *c, int n) { int i = get_global_id(0); a[i] = i * 0.5f; b[i] = i * n; c[i] = (float3)(i, i + 1, i + 2); }
