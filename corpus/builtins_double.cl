// builtins_double.cl — the builtins pass on double (64-bit constants and bit patterns).
// double_exact: round, sign, fract (and its floor), copysign, fmax/fmin, maxmag, fdim,
//               step, rint, floor, trunc on double and double2, shuffle/shuffle2 of double2,
//               select on double2 with long2 masks, bitselect; exact (ulp 0).
// double_geom:  dot, cross, mix, degrees, sqrt, and length/distance/normalize with lanes
//               scaled to 1e300 and 1e-300 (the sum of squares over/underflows) on double
//               vectors (tolerance 4 ulp).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void double_exact(global const double *a, global const double *b, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i] * 8.0, y = b[i] * 8.0;
    double2 v = (double2)(x, y), w = (double2)(y, -x);
    global double *o = out + 24 * i;
    o[0] = round(x);
    o[1] = sign(x);
    o[2] = fract(x, &o[3]);
    o[4] = copysign(x, y);
    o[5] = fmax(x, y);
    o[6] = fmin(x, y);
    o[7] = maxmag(x, y);
    o[8] = fdim(x, y);
    o[9] = step(y, x);
    o[10] = rint(x);
    o[11] = floor(y) + trunc(x);
    double2 r = round(v * 0.5) + shuffle(v, (ulong2)(1, 0));
    o[12] = r.x;
    o[13] = r.y;
    double2 s = shuffle2(v, w, (ulong2)(3, 0)) + select(v, w, as_long2(w));
    o[14] = s.x;
    o[15] = s.y;
    double2 t = bitselect(v, w, (double2)(-0.0, 1.5));
    o[16] = t.x;
    o[17] = t.y;
    double2 u = copysign(v, w) - fmin(v, w);
    o[18] = u.x;
    o[19] = u.y;
    o[20] = round(-x + 0.5);
    o[21] = fract(-y, &o[22]);
    o[23] = sign(-y);
}

kernel void double_geom(global const double4 *a, global const double4 *b, global double *os,
                        global double4 *ov)
{
    size_t i = get_global_id(0);
    double4 s = (double4)(1.0, 1e300, 1e-300, 1.0);
    double4 x = a[i] * s[i & 3], y = b[i];
    global double *o = os + 8 * i;
    o[0] = dot(fabs(x), fabs(y));
    o[1] = dot(fabs(x.xy), fabs(y.xy));
    o[2] = degrees(y.x) + radians(x.w);
    o[3] = mix(y.x, y.y, y.z);
    o[4] = length(x);
    o[5] = length(x.xy) + sqrt(fabs(y.w));
    o[6] = distance(x.xyz, y.xyz);
    o[7] = rsqrt(fabs(y.z) + 1.0);
    // integers below 2^12: exact products, so cross has a single rounding on any device
    double4 qx = floor(a[i] * 4096.0), qy = floor(y * 4096.0);
    ov[3 * i] = (double4)(cross(qx.xyz, qy.wzx), 0.0) + cross(qx, qy) * 0.5;
    ov[3 * i + 1] = normalize(x);
    ov[3 * i + 2] = (double4)(normalize(y.xy), normalize(x.zw));
}
