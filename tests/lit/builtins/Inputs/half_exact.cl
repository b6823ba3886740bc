// Exhaustive check of the exact built-ins on half (cl_khr_fp16) against the same
// functions on float, rounded to half (exact functions: no double rounding). PoCL has
// no cl_khr_fp16, so this runs on Vulkan only: tests/lit/builtins/Inputs/half_exact.sh.
// bad[i] = bit mask of the functions whose half result differs for half bit pattern i.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void t(global const ushort *a, global int *bad)
{
    size_t i = get_global_id(0);
    half x = as_half(a[i]);
    half y = as_half((ushort)(a[i] * 40503u + 0x3c00u));
    float fx = x, fy = y;
    int q, e, fq, fe;
    int m = 0;
#define SAME(h, f) (as_ushort(h) == as_ushort((half)(f)) || (isnan(h) && isnan(f)))
    m |= !SAME(fmod(x, y), fmod(fx, fy)) << 0;
    m |= !SAME(remainder(x, y), remainder(fx, fy)) << 1;
    half r = remquo(x, y, &q); float fr = remquo(fx, fy, &fq);
    m |= (!SAME(r, fr) || ((q & 0x7f) != (fq & 0x7f) && !isnan(fr))) << 2;
    half fm = frexp(x, &e); float ffm = frexp(fx, &fe);
    m |= (!SAME(fm, ffm) || (e != fe && isfinite(fx))) << 3;
    int n = (int)(i % 61) - 30;
    m |= !SAME(ldexp(x, n), ldexp(fx, n)) << 4;
    m |= !SAME(logb(x), logb(fx)) << 5;
    m |= (ilogb(x) != ilogb(fx)) << 6;
    m |= !SAME(copysign(y, x), copysign(fy, fx)) << 7;
    m |= !SAME(fdim(x, y), fdim(fx, fy)) << 8;
    m |= !SAME(maxmag(x, y), maxmag(fx, fy)) << 9;
    half fl; float ffl;
    // fract must stay below 1: 1 - tiny rounds to 1.0 in half, so the reference clamps
    half rf = (half)fract(fx, &ffl);
    m |= !SAME(fract(x, &fl), isnan(rf) ? rf : fmin(rf, as_half((ushort)0x3bff))) << 10;
    m |= !SAME(rint(x), rint(fx)) << 11;
    m |= !SAME(round(x), round(fx)) << 12;
    // nextafter on half: towards y, one half ulp
    half nx = nextafter(x, y);
    ushort ux = as_ushort(x), un = as_ushort(nx);
    int ok = isnan(x) || isnan(y) ? isnan(nx) : (x == y ? as_ushort(nx) == as_ushort(y) :
             ((fx < fy) ? (float)nx > fx : (float)nx < fx));
    m |= !ok << 13;
    bad[i] = m;
}
