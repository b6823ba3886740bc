kernel void pk(global int *p) { printf("%d %s %v2hlf\n", p[0], "hi", (float2)(1.0f, 2.0f)); }
kernel void nopk(global int *p) { p[0] = 1; }
