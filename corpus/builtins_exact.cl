// builtins_exact.cl — the OpenCL functions that must be exact (0 ulp): fmod,
// remainder, remquo, frexp, ldexp, ilogb, logb, nextafter, for float, double
// and float4, on raw random bit patterns (every exponent: subnormals, huge
// ratios, inf, NaN, signed zeros), on values with close exponents, and on
// exact halfway quotients (remainder's ties to even).

// A float with random sign and mantissa and an exponent near 2^0.
static float near_one(uint u)
{
    return as_float((u & 0x807fffffu) | ((120u + ((u >> 23) & 15u)) << 23));
}

static double near_one_d(ulong u)
{
    return as_double((u & 0x800fffffffffffffUL) | ((1016UL + ((u >> 52) & 15UL)) << 52));
}

kernel void exact_float(global const uint *a, global const uint *b, global float *of,
                        global int *oi)
{
    size_t i = get_global_id(0);
    float x = as_float(a[i]), y = as_float(b[i]);
    // (comparisons, not a switch: clang narrows a switch on i & 3 to an i2,
    // which llvm-spirv 15 rejects)
    uint k = (uint)(i * 7) % 16u;
    if (k < 4) {                   // close exponents
        x = near_one(a[i]);
        y = near_one(b[i]);
    } else if (k < 8) {            // x = (k + 1/2) * y exactly: remainder ties
        y = near_one(b[i]);
        x = y * (float)(2 * (int)(a[i] & 63) + 1) * 0.5f;
    } else if (k < 10) {           // subnormal and zero operands
        x = as_float(a[i] & 0x807fffffu);
        y = as_float((b[i] & 0x8000ffffu) * (i & 16 ? 1u : 0u));
    }
    int n = (int)(b[i] % 701u) - 350;
    int q, e;
    global float *o = of + 8 * i;
    o[0] = fmod(x, y);
    o[1] = remainder(x, y);
    o[2] = remquo(x, y, &q);
    o[3] = frexp(x, &e);
    o[4] = ldexp(x, n);
    o[5] = logb(x);
    o[6] = nextafter(x, y);
    o[7] = nextafter(y, x);
    oi[3 * i] = q & 0x7f;
    oi[3 * i + 1] = (q < 0) | e << 1;
    oi[3 * i + 2] = ilogb(x);
}

kernel void exact_double(global const ulong *a, global const ulong *b, global double *od,
                         global int *oi)
{
    size_t i = get_global_id(0);
    double x = as_double(a[i]), y = as_double(b[i]);
    uint k = (uint)(i * 7) % 16u;
    if (k < 4) {
        x = near_one_d(a[i]);
        y = near_one_d(b[i]);
    } else if (k < 8) {
        y = near_one_d(b[i]);
        x = y * (double)(2 * (int)(a[i] & 63) + 1) * 0.5;
    } else if (k < 10) {
        x = as_double(a[i] & 0x800fffffffffffffUL);
        y = as_double((b[i] & 0x80000000ffffffffUL) * (i & 16 ? 1UL : 0UL));
    }
    int n = (int)(b[i] % 4401UL) - 2200;
    int q, e;
    global double *o = od + 8 * i;
    o[0] = fmod(x, y);
    o[1] = remainder(x, y);
    o[2] = remquo(x, y, &q);
    o[3] = frexp(x, &e);
    o[4] = ldexp(x, n);
    o[5] = logb(x);
    o[6] = nextafter(x, y);
    o[7] = nextafter(y, x);
    oi[3 * i] = q & 0x7f;
    oi[3 * i + 1] = (q < 0) | e << 1;
    oi[3 * i + 2] = ilogb(x);
}

kernel void exact_float4(global const uint4 *a, global const uint4 *b, global float4 *of,
                         global int4 *oi)
{
    size_t i = get_global_id(0);
    float4 x = as_float4(a[i]), y = as_float4(b[i]);
    if (i & 1) {
        x = (float4)(near_one(a[i].x), near_one(a[i].y), near_one(a[i].z), near_one(a[i].w));
        y = (float4)(near_one(b[i].x), x.y * 3.5f, near_one(b[i].z), x.w * 0.5f);
    }
    int4 q, e;
    of[4 * i] = fmod(x, y);
    of[4 * i + 1] = remquo(x, y, &q);
    of[4 * i + 2] = frexp(x, &e);
    of[4 * i + 3] = ldexp(x, (int)(b[i].x % 300u) - 150) + nextafter(x, y) + logb(y);
    oi[2 * i] = q & 0x7f;
    oi[2 * i + 1] = e + (ilogb(y) << 12);
}

kernel void exact_double2(global const ulong2 *a, global const ulong2 *b, global double2 *od)
{
    size_t i = get_global_id(0);
    double2 x = as_double2(a[i]), y = as_double2(b[i]);
    if (i & 1) {
        x = (double2)(near_one_d(a[i].x), near_one_d(a[i].y));
        y = (double2)(near_one_d(b[i].x), x.y * 2.5);
    }
    int2 q;
    od[2 * i] = fmod(x, y);
    od[2 * i + 1] = remquo(x, y, &q) + (double2)(q.x & 0x7f, q.y & 0x7f);
}

// fma_double: fma on double, rounded once (k2s: 128-bit integer arithmetic; Vulkan's Fma
// need not be fused): raw bit patterns, products cancelling c to a few bits, subnormal
// results, halfway cases, infinities and NaNs.
kernel void fma_double(global const ulong *a, global const ulong *b, global const ulong *cc,
                       global double *o)
{
    size_t i = get_global_id(0);
    double x = as_double(a[i]), y = as_double(b[i]), z = as_double(cc[i]);
    uint k = (uint)(i * 7) % 16u;
    if (k < 6) {                   // moderate exponents
        x = near_one_d(a[i]);
        y = near_one_d(b[i]);
        z = near_one_d(cc[i]) * (k < 3 ? 1.0 : 0x1p-40);
    } else if (k < 8) {            // z close to -x*y: cancellation (ranges, not ==: see above)
        x = near_one_d(a[i]);
        y = near_one_d(b[i]);
        z = -(x * y) + (k < 7 ? 0.0 : as_double(cc[i] & 0x3cafffffffffffffUL));
    } else if (k < 9) {            // tiny products: subnormal results
        x = near_one_d(a[i]) * 0x1p-520;
        y = near_one_d(b[i]) * 0x1p-520;
        z = as_double(cc[i] & 0x800fffffffffffffUL);
    } else if (k < 10) {           // huge products: overflow
        x = near_one_d(a[i]) * 0x1p+520;
        y = near_one_d(b[i]) * 0x1p+510;
    } else if (k < 11) {           // x * y exactly halfway between doubles, z tiny or zero
        x = as_double(0x3ff0000000000001UL | (a[i] & 0x8000000000000000UL));
        y = as_double(0x3ff8000000000000UL);
        z = (cc[i] & 1) ? 0.0 : as_double(cc[i] & 0x800000000000ffffUL);
    }
    o[2 * i] = fma(x, y, z);
    o[2 * i + 1] = fma(y, -z, x);
}
