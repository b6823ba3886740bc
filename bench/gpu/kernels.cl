// The GPU benchmark kernels (bench/gpu/README.md): typical OpenCL C 1.2 compute kernels,
// each run through k2s on Vulkan and natively on the same GPU's OpenCL driver by
// bench/gpu/gpu_bench.py. Plain OpenCL C as a new user would write it: the default
// FP_CONTRACT, no vendor extensions, fixed-size local arrays.

// ---- memory-bound ----------------------------------------------------------------------
kernel void copy(global const float4 *restrict in, global float4 *restrict out)
{
    size_t i = get_global_id(0);
    out[i] = in[i];
}

kernel void triad(global float *restrict a, global const float *restrict b,
                  global const float *restrict c, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}

kernel void saxpy(float alpha, global const float *restrict x, global float *restrict y)
{
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}

// Each work-item sums 8 elements a work-group apart, then a tree in local memory; one
// partial sum per work-group.
#define RED_WG 256
#define RED_PER 8
kernel void reduce(global const float *restrict in, global float *restrict partial)
{
    local float sums[RED_WG];
    size_t lid = get_local_id(0), grp = get_group_id(0);
    size_t base = grp * RED_WG * RED_PER + lid;
    float acc = 0.0f;
    for (int k = 0; k < RED_PER; k++)
        acc += in[base + (size_t)k * RED_WG];
    sums[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = RED_WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            sums[lid] += sums[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[grp] = sums[0];
}

// 32x32 tiles through local memory (padded against bank conflicts); work-group 32x8.
#define TT 32
kernel void transpose(global const float *restrict in, global float *restrict out, uint width,
                      uint height)
{
    local float tile[TT][TT + 1];
    uint gx = get_group_id(0) * TT, gy = get_group_id(1) * TT;
    uint lx = get_local_id(0), ly = get_local_id(1);
    for (uint j = ly; j < TT; j += 8)
        tile[j][lx] = in[(size_t)(gy + j) * width + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ly; j < TT; j += 8)
        out[(size_t)(gx + j) * height + gy + lx] = tile[lx][j];
}

// 5-point Jacobi step on a width x height grid; the border is copied.
kernel void stencil(global const float *restrict in, global float *restrict out, uint width,
                    uint height)
{
    uint x = get_global_id(0), y = get_global_id(1);
    size_t i = (size_t)y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}

// 256-bin byte histogram: per-work-group counts with local atomics, then global atomics.
kernel void histogram(global const uchar4 *restrict data, global uint *restrict bins, uint per_item)
{
    local uint local_bins[256];
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint b = lid; b < 256; b += lsize)
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t stride = get_global_size(0);
    for (uint k = 0; k < per_item; k++) {
        uchar4 v = data[get_global_id(0) + k * stride];
        atomic_inc(&local_bins[v.x]);
        atomic_inc(&local_bins[v.y]);
        atomic_inc(&local_bins[v.z]);
        atomic_inc(&local_bins[v.w]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256; b += lsize)
        atomic_add(&bins[b], local_bins[b]);
}

// Work-group inclusive scan (Hillis-Steele, double-buffered in local memory) of 256 uints.
#define SCAN_WG 256
kernel void scan(global const uint *restrict in, global uint *restrict out)
{
    local uint buf[2][SCAN_WG];
    uint lid = get_local_id(0);
    size_t gid = get_global_id(0);
    int cur = 0;
    buf[0][lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < SCAN_WG; off <<= 1) {
        uint v = buf[cur][lid];
        if (lid >= off)
            v += buf[cur][lid - off];
        buf[1 - cur][lid] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = buf[cur][lid];
}

// Brightness/contrast on RGBA bytes, saturated and rounded.
kernel void image(global const uchar4 *restrict in, global uchar4 *restrict out, float gain,
                  float bias)
{
    size_t i = get_global_id(0);
    float4 p = convert_float4(in[i]);
    out[i] = convert_uchar4_sat_rte(p * gain + bias);
}

// An array of structs: particles moved by their velocity, odd ids damped.
typedef struct {
    float4 pos;
    float4 vel;
    float mass;
    int id;
    float pad[2];
} particle;
kernel void particles(global particle *restrict p, float dt)
{
    size_t i = get_global_id(0);
    particle q = p[i];
    q.pos += q.vel * dt;
    if (q.id & 1)
        q.vel *= 0.99f;
    q.mass += 0.0f;
    p[i] = q;
}

// ---- compute-bound ---------------------------------------------------------------------
// Independent multiply-add chains: the GPU's float throughput as OpenCL C writes it.
kernel void fma_peak(global float *restrict out, float a, float b)
{
    size_t i = get_global_id(0);
    float x0 = (float)i, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
    for (int k = 0; k < 512; k++) {
        x0 = x0 * a + b; x1 = x1 * a + b; x2 = x2 * a + b; x3 = x3 * a + b;
        x4 = x4 * a + b; x5 = x5 * a + b; x6 = x6 * a + b; x7 = x7 * a + b;
    }
    out[i] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

// C = A * B, n x n, 16x16 tiles in local memory.
#define TS 16
kernel void sgemm_tiled(global const float *restrict A, global const float *restrict B,
                        global float *restrict C, uint n)
{
    local float As[TS][TS], Bs[TS][TS];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TS) {
        As[ly][lx] = A[(size_t)row * n + t + lx];
        Bs[ly][lx] = B[(size_t)(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[(size_t)row * n + col] = acc;
}

// C = A * B, n x n: a 16x16 work-group computes a 64x64 block, 4x4 outputs per work-item,
// K-slices of 16 staged in local memory.
#define RB 64
#define RK 16
kernel void sgemm_reg(global const float *restrict A, global const float *restrict B,
                      global float *restrict C, uint n)
{
    local float As[RK][RB], Bs[RK][RB];
    uint lx = get_local_id(0), ly = get_local_id(1), lid = ly * 16 + lx;
    uint bx = get_group_id(0) * RB, by = get_group_id(1) * RB;
    float acc[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            acc[i][j] = 0.0f;
    for (uint t = 0; t < n; t += RK) {
        // 64x16 of A (stored transposed) and 16x64 of B: 4 loads each per work-item.
        for (uint l = lid; l < RB * RK; l += 256) {
            uint r = l / RK, k = l % RK;
            As[k][r] = A[(size_t)(by + r) * n + t + k];
            uint kb = l / RB, c = l % RB;
            Bs[kb][c] = B[(size_t)(t + kb) * n + bx + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < RK; k++) {
            float a[4], b[4];
            for (int i = 0; i < 4; i++)
                a[i] = As[k][ly + 16 * i];
            for (int j = 0; j < 4; j++)
                b[j] = Bs[k][lx + 16 * j];
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] = mad(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            C[(size_t)(by + ly + 16 * i) * n + bx + lx + 16 * j] = acc[i][j];
}

// All-pairs gravity, bodies staged through local memory 256 at a time.
#define NB_WG 256
kernel void nbody(global const float4 *restrict pos, global float4 *restrict acc_out, uint n,
                  float eps2)
{
    local float4 tile[NB_WG];
    size_t i = get_global_id(0);
    uint lid = get_local_id(0);
    float4 p = pos[i];
    float3 acc = (float3)(0.0f);
    for (uint t = 0; t < n; t += NB_WG) {
        tile[lid] = pos[t + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < NB_WG; j++) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float r2 = dot(d, d) + eps2;
            float inv = rsqrt(r2);
            acc += d * (q.w * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc_out[i] = (float4)(acc, 0.0f);
}

// Black-Scholes call and put prices (exp, log, sqrt, erfc at full precision).
kernel void blackscholes(global const float *restrict price, global const float *restrict strike,
                         global const float *restrict years, global float *restrict call,
                         global float *restrict put, float r, float v)
{
    size_t i = get_global_id(0);
    float S = 10.0f + 90.0f * fabs(price[i]), K = 10.0f + 90.0f * fabs(strike[i]);
    float T = 0.25f + 2.0f * fabs(years[i]);
    float sq = v * sqrt(T);
    float d1 = (log(S / K) + (r + 0.5f * v * v) * T) / sq, d2 = d1 - sq;
    float n1 = 0.5f * erfc(-d1 * 0.70710678f), n2 = 0.5f * erfc(-d2 * 0.70710678f);
    float e = K * exp(-r * T);
    call[i] = S * n1 - e * n2;
    put[i] = e * (1.0f - n2) - S * (1.0f - n1);
}
