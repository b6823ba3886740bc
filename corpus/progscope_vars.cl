// progscope_vars.cl — OpenCL C 2.0 program-scope `global` variables that kernels only read
// (exact as Private copies), one zero-initialised, one a struct, read with dynamic indices
// and through a char* view.
// PoCL's OpenCL C is 1.2, so the reference (K2S_REF) reads the same data from `constant`.
#ifndef K2S_REF
#define SPACE global
#define ZERO_INIT
#else
#define SPACE constant
#define ZERO_INIT = {0}
#endif
typedef struct { int k; float f[3]; } entry;

SPACE int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
SPACE entry entries[2] = {{7, {0.5f, 1.5f, 2.5f}}, {-2, {4.0f, 8.0f, 16.0f}}};
SPACE float zeros[4] ZERO_INIT;

kernel void progscope_read(global const int *in, global float *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    SPACE const entry *e = &entries[x & 1];
    SPACE const uchar *b = (SPACE const uchar *)table;
    out[i] = (float)table[x & 7] * e->f[(x >> 1) % 3] + (float)e->k + zeros[x & 3] +
             (float)b[(x >> 3) & 31];
}
