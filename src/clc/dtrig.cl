/*
 * Double sin, cos, tan, sincos, sinpi, cospi, tanpi (OpenCL bounds 4, 4, 5,
 * 4, 4, 4, 6 ulp). Payne-Hanek reduction in integers for every |x| > pi/4,
 * as in trig.cl with a 53-bit significand: seven 32-bit words of 2/pi
 * (chosen by the exponent; 38 words cover the double range) times the
 * significand, 85-bit products summed into four 64-bit limbs; the quadrant
 * and 128 fraction bits follow (truncation below 2^-139), the fraction is
 * multiplied by pi/2 in double-double. Taylor kernels to r^17 / r^18
 * (truncation < 2^-60 on |r| <= pi/4) with the reduced argument's tail.
 */

K2S_INLINE u32 two_over_pi_word_d(int i)
{
  switch (i) {
  case 0: return 0xa2f9836eu; case 1: return 0x4e441529u; case 2: return 0xfc2757d1u;
  case 3: return 0xf534ddc0u; case 4: return 0xdb629599u; case 5: return 0x3c439041u;
  case 6: return 0xfe5163abu; case 7: return 0xdebbc561u; case 8: return 0xb7246e3au;
  case 9: return 0x424dd2e0u; case 10: return 0x06492eeau; case 11: return 0x09d1921cu;
  case 12: return 0xfe1deb1cu; case 13: return 0xb129a73eu; case 14: return 0xe88235f5u;
  case 15: return 0x2ebb4484u; case 16: return 0xe99c7026u; case 17: return 0xb45f7e41u;
  case 18: return 0x3991d639u; case 19: return 0x835339f4u; case 20: return 0x9c845f8bu;
  case 21: return 0xbdf9283bu; case 22: return 0x1ff897ffu; case 23: return 0xde05980fu;
  case 24: return 0xef2f118bu; case 25: return 0x5a0a6d1fu; case 26: return 0x6d367ecfu;
  case 27: return 0x27cb09b7u; case 28: return 0x4f463f66u; case 29: return 0x9e5fea2du;
  case 30: return 0x7527bac7u; case 31: return 0xebe5f17bu; case 32: return 0x3d0739f7u;
  case 33: return 0x8a5292eau; case 34: return 0x6bfb5fb1u; case 35: return 0x1f8d5d08u;
  case 36: return 0x56033046u; case 37: return 0xfc7b6babu;
  default: return 0u;
  }
}

typedef struct limbs4 {
  u64 l0, l1, l2, l3;
} limbs4;

/* n += v 2^(64 k) for k = 0..3, carries propagated (mod 2^256) */
K2S_INLINE limbs4 limbs_add(limbs4 n, u64 v, int k)
{
  u64 c = v;
  if (k == 0) {
    n.l0 += c;
    c = n.l0 < c ? 1ul : 0ul;
  }
  if (k <= 1) {
    u64 add = k == 1 ? v : c;
    n.l1 += add;
    c = n.l1 < add ? 1ul : 0ul;
  }
  if (k <= 2) {
    u64 add = k == 2 ? v : c;
    n.l2 += add;
    c = n.l2 < add ? 1ul : 0ul;
  }
  n.l3 += k == 3 ? v : c;
  return n;
}

/* n += p 2^(32 j) for a product p = hi:lo (hi < 2^21) and j = 0..6 */
K2S_INLINE limbs4 limbs_add_product(limbs4 n, u128 p, int j)
{
  int k = j / 2;
  if (j & 1) { /* shifted by 32 inside the limbs */
    n = limbs_add(n, p.lo << 32, k);
    if (k + 1 <= 3)
      n = limbs_add(n, (p.lo >> 32) | (p.hi << 32), k + 1);
    if (k + 2 <= 3)
      n = limbs_add(n, p.hi >> 32, k + 2);
  } else {
    n = limbs_add(n, p.lo, k);
    if (k + 1 <= 3)
      n = limbs_add(n, p.hi, k + 1);
  }
  return n;
}

/* 64 bits of n starting at bit pos, 0 <= pos <= 192 */
K2S_INLINE u64 limbs_get(limbs4 n, int pos)
{
  int k = pos / 64, s = pos % 64;
  u64 a = k == 0 ? n.l0 : k == 1 ? n.l1 : k == 2 ? n.l2 : n.l3;
  u64 b = k == 0 ? n.l1 : k == 1 ? n.l2 : n.l3;
  if (k == 3)
    b = 0ul;
  return s == 0 ? a : (a >> s) | (b << (64 - s));
}

#define D_PIO2 dd_make(1.5707963267948966, 6.123233995736766e-17)

/* |x| = q pi/2 + r for finite |x| > pi/4 */
K2S_INLINE dd reduce_pio2_d(double ax, int *q)
{
  u64 u = as_ulong(ax);
  int ex = (int)(u >> 52);
  u64 m = (u & 0xffffffffffffful) | 0x10000000000000ul;
  int e = ex - 1075; /* ax = m 2^e */
  int i0 = (e - 1) >= 0 ? (e - 1) / 32 : -((32 - e) / 32); /* floor((e - 1) / 32) */
  int s0 = e - 32 - 32 * i0; /* in [-31, 0] */
  limbs4 n = {0ul, 0ul, 0ul, 0ul};
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0)), 6);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 1)), 5);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 2)), 4);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 3)), 3);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 4)), 2);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 5)), 1);
  n = limbs_add_product(n, mul_64x64(m, two_over_pi_word_d(i0 + 6)), 0);
  /* x 2/pi = N 2^(s0 - 192): the unit bit is ub = 192 - s0 in [192, 223] */
  int ub = 192 - s0;
  int quad = (int)(limbs_get(n, ub) & 3ul);
  if (s0 == -31 && i0 >= 1) /* word i0-1 adds 2 (m w mod 2) */
    quad += (int)((m & two_over_pi_word_d(i0 - 1) & 1ul) << 1);
  u64 fh = limbs_get(n, ub - 64), fl = limbs_get(n, ub - 128);
  bool neg = (fh >> 63) != 0ul; /* fraction >= 1/2: f - 1, quadrant one up */
  if (neg) {
    quad += 1;
    fl = ~fl + 1ul;
    fh = ~fh + (fl == 0ul ? 1ul : 0ul);
  }
  *q = quad & 3;
  if (fh == 0ul && fl == 0ul)
    return dd_make(0.0, 0.0);
  int lz = fh ? (int)clz(fh) : 64 + (int)clz(fl);
  u128 f = shl128(u128_make(fh, fl), lz); /* value = f 2^(-128 - lz) */
  double h = (double)(f.hi >> 11) * pow2d(-53 - lz);
  u64 rest = ((f.hi & 0x7fful) << 42) | (f.lo >> 22); /* the next 53 bits */
  double l = (double)rest * pow2d(-106 - lz);
  dd r = dd_mul(fast_two_sum_d(h, l), D_PIO2);
  return neg ? dd_neg(r) : r;
}

K2S_INLINE double sin_kernel_d(double rh, double rl)
{
  double z = rh * rh;
  double p = 1.0 / 355687428096000.0;
  p = p * z - 1.0 / 1307674368000.0;
  p = p * z + 1.0 / 6227020800.0;
  p = p * z - 1.0 / 39916800.0;
  p = p * z + 1.0 / 362880.0;
  p = p * z - 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z - 1.0 / 6.0;
  return rh + (rl * (1.0 - 0.5 * z) + rh * (z * p));
}

K2S_INLINE double cos_kernel_d(double rh, double rl)
{
  double z = rh * rh;
  double p = 1.0 / 6402373705728000.0;
  p = p * z - 1.0 / 20922789888000.0;
  p = p * z + 1.0 / 87178291200.0;
  p = p * z - 1.0 / 479001600.0;
  p = p * z + 1.0 / 3628800.0;
  p = p * z - 1.0 / 40320.0;
  p = p * z + 1.0 / 720.0;
  p = p * z - 1.0 / 24.0;
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * z * (-p) - rh * rl));
}

K2S_INLINE double trig_quadrant_d(dd r, int q, int which)
{
  int k = (q + which) & 3;
  double v = (k & 1) ? cos_kernel_d(r.hi, r.lo) : sin_kernel_d(r.hi, r.lo);
  return (k & 2) ? -v : v;
}

K2S_INLINE dd reduce_any_d(double x, int *q)
{
  double ax = fabs(x);
  if (ax <= 0.7853981633974483) {
    *q = 0;
    return dd_make(ax, 0.0);
  }
  return reduce_pio2_d(ax, q);
}

double __k2s_sin_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  if (fabs(x) < 1e-9)
    return x;
  int q;
  dd r = reduce_any_d(x, &q);
  double s = trig_quadrant_d(r, q, 0);
  return sign_of_d(x) ? -s : s;
}

double __k2s_cos_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  int q;
  dd r = reduce_any_d(x, &q);
  return trig_quadrant_d(r, q, 1);
}

K2S_INLINE double div_corrected_d(double s, double c)
{
  double t = s / c;
  dd p = two_prod_d(t, c);
  t += ((s - p.hi) - p.lo) / c;
  p = two_prod_d(t, c);
  return t + ((s - p.hi) - p.lo) / c;
}

double __k2s_tan_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  if (fabs(x) < 1e-9)
    return x;
  int q;
  dd r = reduce_any_d(x, &q);
  double s = sin_kernel_d(r.hi, r.lo), c = cos_kernel_d(r.hi, r.lo);
  double t = (q & 1) ? -div_corrected_d(c, s) : div_corrected_d(s, c);
  return sign_of_d(x) ? -t : t;
}

double2 __k2s_sincos_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return (double2)(D_NAN, D_NAN);
  int q;
  dd r = reduce_any_d(x, &q);
  double s = fabs(x) < 1e-9 ? fabs(x) : trig_quadrant_d(r, q, 0);
  double c = trig_quadrant_d(r, q, 1);
  return (double2)(sign_of_d(x) ? -s : s, c);
}

#define D_PI dd_make(3.141592653589793, 1.2246467991473532e-16)

K2S_INLINE dd reduce_pi_d(double ax, int *q)
{
  if (ax >= 4503599627370496.0) { /* 2^52: integers; 2x is 0 mod 4 from 2^53 on */
    *q = ax >= 9007199254740992.0 ? 0 : (int)(((long)ax & 1l) * 2);
    return dd_make(0.0, 0.0);
  }
  double n = rint(ax * 2.0);
  double f = ax - n * 0.5; /* exact */
  *q = (int)((long)n & 3l);
  return dd_mul_d(D_PI, f);
}

double __k2s_sinpi_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  int q;
  dd r = reduce_pi_d(fabs(x), &q);
  double s = trig_quadrant_d(r, q, 0);
  if (s == 0.0)
    s = 0.0;
  return sign_of_d(x) ? -s : s;
}

double __k2s_cospi_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  int q;
  dd r = reduce_pi_d(fabs(x), &q);
  double c = trig_quadrant_d(r, q, 1);
  return c == 0.0 ? 0.0 : c;
}

double __k2s_tanpi_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return D_NAN;
  int q;
  dd r = reduce_pi_d(fabs(x), &q);
  double t;
  if (r.hi == 0.0) {
    if (q & 1)
      t = q == 1 ? D_INF : -D_INF;
    else
      t = q == 0 ? 0.0 : -0.0;
  } else {
    double s = sin_kernel_d(r.hi, r.lo), c = cos_kernel_d(r.hi, r.lo);
    t = (q & 1) ? -div_corrected_d(c, s) : div_corrected_d(s, c);
  }
  return sign_of_d(x) ? -t : t;
}
