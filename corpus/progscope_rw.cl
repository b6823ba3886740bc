// progscope_rw.cl — OpenCL C 2.0 program-scope `global` variables that kernels write:
// k2s puts them in one storage buffer (ProgramScopeVariablesStorageBuffer) the host fills
// with their initialisers. An int counter (atomic), a float table (read-modify-write), a
// zero-initialised histogram (atomics), a struct and bytes written one char at a time and
// read back as ints (the buffer re-typed as words), and a read-only table (Private copy).
// One work-group, so a barrier orders the writes before the reads.
// PoCL's OpenCL C is 1.2 (no program-scope variables), so the reference (K2S_REF) keeps the
// same data in `local` memory, initialised by the first work-item.
typedef struct { int k; float f[3]; } entry;
#ifndef K2S_REF
#define SPACE global
#define FENCE CLK_GLOBAL_MEM_FENCE
global int counter = 5;
global float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
global int hist[16];
global entry ent = {7, {0.5f, 1.5f, 2.5f}};
global uchar bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
global int ro_table[4] = {10, 20, 30, 40};
#define INIT()
#else
#define SPACE local
#define FENCE CLK_LOCAL_MEM_FENCE
#define INIT()                                                                                \
    local int counter;                                                                        \
    local float table[4];                                                                     \
    local int hist[16];                                                                       \
    local entry ent;                                                                          \
    local uchar bytes[16];                                                                    \
    constant int ro_table[4] = {10, 20, 30, 40};                                              \
    if (get_local_id(0) == 0) {                                                               \
        counter = 5;                                                                          \
        for (int k = 0; k < 4; k++)                                                           \
            table[k] = (float)(k + 1);                                                        \
        for (int k = 0; k < 16; k++)                                                          \
            hist[k] = 0, bytes[k] = (uchar)(k + 1);                                           \
        ent.k = 7, ent.f[0] = 0.5f, ent.f[1] = 1.5f, ent.f[2] = 2.5f;                         \
    }                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);
#endif

kernel void progscope_rw(global const int *in, global int *out, global float *outf)
{
    INIT()
    size_t i = get_global_id(0);
    int x = in[i];
    atomic_add(&hist[x & 15], 1);
    atomic_inc(&counter);
    if (i < 4)
        table[i] += (float)x * 0.25f;
    if (i < 16)
        bytes[i] = (uchar)(bytes[i] * 3 + x);
    if (i == 5) {
        ent.k += x;
        ent.f[x % 3] *= 2.0f;
    }
    barrier(FENCE);
    SPACE const int *words = (SPACE const int *)bytes;
    out[i] = hist[i & 15] * 1000 + counter + words[i & 3] + ro_table[x & 3];
    outf[i] = table[i & 3] + ent.f[i % 3] + (float)ent.k;
}
