// Reference twin of src/run/tests/add.spvasm (the clref-add test).
kernel void add(global const float *a, global const float *b, global float *c, float scale)
{ size_t i = get_global_id(0); c[i] = (a[i] + b[i]) * scale; }
