// Source variants of bench/gpu/kernels.cl's transpose for timing experiments (bench/GPU.md,
// s7): each is compiled with one of the macros below defined, translated by k2s and also
// run on the GPU's own OpenCL, so both sides see the same change.
//   (none)   the benchmark's kernel as is
//   REQD     reqd_work_group_size(32, 8, 1): a literal work-group size (k2s: LocalSize)
//   UNROLL4  both loops unrolled by hand for a local size of 8 in y (4 iterations each)
//   PRAGMA   `#pragma unroll 4` on both loops (clang unrolls with a remainder loop)
#define TT 32
#ifdef REQD
#define ATTR __attribute__((reqd_work_group_size(32, 8, 1)))
#else
#define ATTR
#endif
kernel ATTR void transpose(global const float *restrict in, global float *restrict out,
                           uint width, uint height)
{
    local float tile[TT][TT + 1];
    uint gx = get_group_id(0) * TT, gy = get_group_id(1) * TT;
    uint lx = get_local_id(0), ly = get_local_id(1);
#ifdef UNROLL4
    for (uint k = 0; k < 4; k++)
        tile[ly + 8 * k][lx] = in[(size_t)(gy + ly + 8 * k) * width + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 4; k++)
        out[(size_t)(gx + ly + 8 * k) * height + gy + lx] = tile[lx][ly + 8 * k];
#else
#ifdef PRAGMA
#pragma unroll 4
#endif
    for (uint j = ly; j < TT; j += 8)
        tile[j][lx] = in[(size_t)(gy + j) * width + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef PRAGMA
#pragma unroll 4
#endif
    for (uint j = ly; j < TT; j += 8)
        out[(size_t)(gx + j) * height + gy + lx] = tile[lx][j];
#endif
}
