/*
 * exp, exp2, exp10, expm1 (float). OpenCL bounds: 3 ulp each.
 *
 * Method (Cody-Waite): x = k ln2 + r with k = rint(x / ln2), r computed from a
 * two-part ln2 whose high part has trailing zeros so k * ln2_hi is exact;
 * exp(r), |r| <= ln2/2, by its Taylor polynomial to degree 8 (truncation
 * < 2^-30 relative); then a scaling by 2^k that rounds once (subnormal
 * results included). exp2/exp10 reduce in their own base with a float-float
 * product so the reduced argument keeps ~40 bits.
 *
 * exp itself (and erfc's exp(-x^2)) is straight-line code: the argument is
 * clamped so that k stays in [-150, 128], 2^k is applied as two exact powers
 * of two (the first product stays normal, the second rounds once), and NaN
 * is a select at the end. A GPU runs a branch per special case as divergent
 * control flow; selects cost one instruction each (issue 13: Black-Scholes).
 * The Horner steps use mad: one rounding or two, the bound holds for both.
 */

#define LN2_HI 0.693145751953125f       /* 0x3f317200: 16 significant bits */
#define LN2_LO 1.4286068203094172e-06f  /* ln2 - LN2_HI */
#define LOG2E 1.44269504088896340736f

/* exp(r) - 1 for |r| <= 0.45 (Taylor to degree 8, truncation < 2^-28 relative): r + r^2/2 + ... */
K2S_INLINE float expm1_poly(float r)
{
  float p = 1.0f / 40320.0f;
  p = mad(p, r, 1.0f / 5040.0f);
  p = mad(p, r, 1.0f / 720.0f);
  p = mad(p, r, 1.0f / 120.0f);
  p = mad(p, r, 1.0f / 24.0f);
  p = mad(p, r, 1.0f / 6.0f);
  p = mad(p, r, 0.5f);
  return mad(r * r, p, r);
}

/* exp(rh + rl) * 2^k with |rh| <= 0.35 and rl a small correction. */
K2S_INLINE float exp_finish(float rh, float rl, int k)
{
  /* exp(rh + rl) = exp(rh) * (1 + rl) to first order; rl < 2^-20 */
  float e = expm1_poly(rh);
  float v = 1.0f + mad(rl, 1.0f + e, e);
  return scale2(v, k);
}

/* x * 2^k for x in [2^-20, 2] and k in [-150, 128], without branches: 2^(k/2)
 * is exact (the product stays normal), the second factor rounds once. */
K2S_INLINE float scale2_near1(float x, int k)
{
  int k1 = k >> 1;
  return (x * pow2i(k1)) * pow2i(k - k1);
}

/* exp(x + xl) = v 2^k, v in [0.63, 1.6], for x in [-104, 89] and |xl| <= 0.11:
 * the reduced argument r = (x - k LN2_HI) - (k LN2_LO - xl) with its rounding
 * error (FastTwoSum: exact when the first part is the larger, and otherwise
 * both are below 2^-12, where the lost bits are far below exp's last place),
 * then the polynomial. */
K2S_INLINE float exp_core(float x, float xl, int *k)
{
  float kf = rint(x * LOG2E);
  /* x - kf*LN2_HI is exact (kf has at most 8 bits, x and kf*LN2_HI are close). */
  float hi = x - kf * LN2_HI;
  float lo = mad(kf, LN2_LO, -xl);
  ff r = fast_two_sum(hi, -lo);
  float e = expm1_poly(r.hi);
  *k = (int)kf;
  return 1.0f + mad(r.lo, 1.0f + e, e);
}

float __k2s_exp_f32(float x)
{
  /* beyond the clamp exp is inf or rounds to 0 anyway; NaN becomes -104 */
  float xc = fmin(fmax(x, -104.0f), 89.0f);
  int k;
  float v = exp_core(xc, 0.0f, &k);
  float r = scale2_near1(v, k);
  return is_nan(x) ? x : r;
}

float __k2s_exp2_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x >= 128.0f)
    return K2S_INF;
  if (x < -150.0f)
    return 0.0f;
  float k = rint(x);
  float f = x - k; /* exact, |f| <= 1/2 */
  ff r = two_prod(f, 0.693147182464599609375f); /* ln2 as float, then its tail */
  r.lo += f * -1.904654323148236e-09f;
  r = fast_two_sum(r.hi, r.lo);
  return exp_finish(r.hi, r.lo, (int)k);
}

#define LOG2_10 3.32192809488736234787f
#define LN10_HI 2.302585124969482421875f /* float(ln 10) */
#define LN10_LO -3.1975436737857e-08f    /* ln10 - LN10_HI */
#define LG2_HI 0.3010253906250f          /* log10(2) with trailing zeros */
#define LG2_LO 4.6050389811952113e-06f   /* log10(2) - LG2_HI */

float __k2s_exp10_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x > 38.5318394f)
    return K2S_INF;
  if (x < -45.1544993f)
    return 0.0f;
  float k = rint(x * LOG2_10);
  /* x = k log10(2) + f, f exact-ish in two parts, then exp(f ln10) */
  float fh = x - k * LG2_HI; /* exact */
  float fl = k * LG2_LO;
  ff f = two_sum(fh, -fl);
  ff r = ff_mul(f, ff_make(LN10_HI, LN10_LO));
  return exp_finish(r.hi, r.lo, (int)k);
}

/* exp(x) = v 2^k, v a float-float near [0.7, 1.5], for finite |x| < 104 */
K2S_INLINE ff exp_parts(float x, int *k)
{
  float kf = rint(x * LOG2E);
  ff r = two_sum(x - kf * LN2_HI, -(kf * LN2_LO));
  float e = expm1_poly(r.hi);
  *k = (int)kf;
  return fast_two_sum(1.0f, e + r.lo * (1.0f + e));
}

/* expm1(x) as a float-float for finite -17.5 <= x <= 60 */
K2S_INLINE ff expm1_ff(float x)
{
  if (fabs(x) <= 0.34f)
    return ff_make(expm1_poly(x), 0.0f);
  int ki;
  ff em = exp_parts(x, &ki);
  ff v = ff_mul_f(em, pow2i(ki)); /* exact scaling */
  return ff_add_f(v, -1.0f);
}

float __k2s_expm1_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x > 88.72283935546875f)
    return K2S_INF;
  if (x < -17.5f)
    return -1.0f; /* exp(x) < 2^-25: -1 + tiny rounds to -1 */
  if (x == 0.0f)
    return x; /* keeps -0 */
  if (x > 60.0f) { /* 2^k (1 + e) alone; the -1 is far below its last place */
    int ki;
    ff em = exp_parts(x, &ki);
    return scale2(em.hi + em.lo, ki);
  }
  ff v = expm1_ff(x);
  return v.hi + v.lo;
}
