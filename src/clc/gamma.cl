/*
 * tgamma, lgamma, lgamma_r (float). OpenCL bounds: tgamma 16 ulp; lgamma
 * and lgamma_r have none (the spec leaves their precision undefined).
 *
 * x >= 8: Stirling's series log Gamma(x) = (x - 1/2) log x - x + log(2 pi)/2
 * + 1/(12x) - 1/(360x^3) + 1/(1260x^5) - 1/(1680x^7) (truncation < 1e-11),
 * in float-float (1/(12x) too: its float rounding alone would cost tgamma 17 ulp); tgamma = exp of it (split as v 2^k so the overflow
 * boundary is exact). 0 < x < 8: the recurrence Gamma(x) = Gamma(x + n) /
 * (x (x+1) ... (x+n-1)), the product in float-float. x < 0: the reflection
 * Gamma(x) = pi / (sinpi(x) (-x) Gamma(-x)). lgamma uses the same pieces
 * through the float-float logarithm, and Taylor series around 1 and 2 (its
 * zeros) where the difference of logarithms would cancel.
 */

#define HALF_LOG_2PI ff_make(0.9189385175704956f, 1.56341771363e-08f)
#define LOG_PI ff_make(1.1447298526763916f, 3.31730085726e-08f)

/* log Gamma(x) for x >= 8 as a float-float */
K2S_INLINE ff lgamma_stirling(float x)
{
  ff xm = two_sum(x, -0.5f);
  ff a = ff_mul(xm, log_ff(x));
  a = ff_add_f(a, -x);
  a = ff_add(a, HALF_LOG_2PI);
  /* 1/(12x) as a float-float (12x exactly as a float-float first), the rest in float */
  ff d = two_prod(12.0f, x);
  float q = 1.0f / d.hi;
  ff qp = two_prod(q, d.hi);
  float ql = (((1.0f - qp.hi) - qp.lo) - q * d.lo) / d.hi;
  float t = 1.0f / x;
  float z = t * t;
  float s = -1.0f / 1680.0f;
  s = s * z + 1.0f / 1260.0f;
  s = s * z - 1.0f / 360.0f;
  return ff_add(a, fast_two_sum(q, ql + t * z * s));
}

/* lgamma(1 + e) and lgamma(2 + e) for |e| <= 1/4 by their Taylor series
 * (coefficients -euler, (-1)^k zeta(k)/k and 1 - euler, (-1)^k (zeta(k)-1)/k;
 * truncation < 2^-33 relative): exact zeros at 1 and 2, no cancellation. */
K2S_INLINE float lgamma_near1(float e)
{
  float p = -6.666870588e-02f;
  p = p * e + 7.143294630e-02f;
  p = p * e - 7.693251641e-02f;
  p = p * e + 8.335384055e-02f;
  p = p * e - 9.095401715e-02f;
  p = p * e + 1.000994575e-01f;
  p = p * e - 1.113342659e-01f;
  p = p * e + 1.255096695e-01f;
  p = p * e - 1.440498968e-01f;
  p = p * e + 1.695571770e-01f;
  p = p * e - 2.073855510e-01f;
  p = p * e + 2.705808084e-01f;
  p = p * e - 4.006856344e-01f;
  p = p * e + 8.224670334e-01f;
  return e * (-5.772156649e-01f + e * p);
}

K2S_INLINE float lgamma_near2(float e)
{
  float p = -2.039215754e-06f;
  p = p * e + 4.374866790e-06f;
  p = p * e - 9.439488275e-06f;
  p = p * e + 2.050721278e-05f;
  p = p * e - 4.492623674e-05f;
  p = p * e + 9.945751278e-05f;
  p = p * e - 2.231547585e-04f;
  p = p * e + 5.096695247e-04f;
  p = p * e - 1.192753912e-03f;
  p = p * e + 2.890510331e-03f;
  p = p * e - 7.385551029e-03f;
  p = p * e + 2.058080843e-02f;
  p = p * e - 6.735230105e-02f;
  p = p * e + 3.224670334e-01f;
  return e * (4.227843351e-01f + e * p);
}

/* x (x+1) ... (x+n-1) as a float-float for 0 < x < 8, with n = ceil(8 - x) so that
 * x + n >= 8; *y = n. Straight-line (factors past n are 1): no loop to structurize. */
K2S_INLINE ff rising_factor(ff p, float x, float i)
{
  return x + i < 8.0f ? ff_mul(p, two_sum(x, i)) : p;
}

K2S_INLINE ff rising_product(float x, float *y)
{
  ff p = ff_make(x, 0.0f);
  p = rising_factor(p, x, 1.0f);
  p = rising_factor(p, x, 2.0f);
  p = rising_factor(p, x, 3.0f);
  p = rising_factor(p, x, 4.0f);
  p = rising_factor(p, x, 5.0f);
  p = rising_factor(p, x, 6.0f);
  p = rising_factor(p, x, 7.0f);
  *y = ceil(8.0f - x); /* n: x + n, exactly as a float-float, is the Stirling argument */
  return p;
}

/* Gamma(x) = v 2^k for x > 0 (x below the overflow threshold) */
K2S_INLINE ff gamma_pos(float x, int *k)
{
  if (x >= 8.0f) {
    ff a = lgamma_stirling(x);
    ff v = exp_parts(a.hi, k);
    return ff_add_f(v, v.hi * a.lo); /* v (1 + a.lo) without rounding 1 + a.lo */
  }
  float y;
  ff p = rising_product(x, &y);
  ff yy = two_sum(x, y);
  ff a = lgamma_stirling(yy.hi);
  /* the tail of x + n times digamma(x + n) ~ log(y) - 1/(2y) */
  a = ff_add_f(a, yy.lo * (log_ff(yy.hi).hi - 0.5f / yy.hi));
  ff v = exp_parts(a.hi, k);
  v = ff_add_f(v, v.hi * a.lo);
  /* divide by the product: p = P 2^j with P near 1 to keep v / P in range */
  int j = (int)((as_uint(p.hi) >> 23) & 0xffu) - 127;
  float sc = pow2i(-j);
  ff q = div_ff2(v, p.hi * sc);
  q.lo -= q.hi * (p.lo * sc) / (p.hi * sc);
  *k -= j;
  return q;
}

float __k2s_tgamma_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x == 0.0f)
    return with_sign(K2S_INF, x);
  if (is_inf(x))
    return x > 0.0f ? x : K2S_NAN;
  if (x > 35.0401f)
    return K2S_INF;
  if (fabs(x) < 1e-30f)
    return 1.0f / x; /* the constant term is far below 1/x's last place */
  if (fabs(x) < 9.5367431640625e-07f) { /* 2^-20: Gamma(x) = 1/x - euler + O(x) */
    ff r = ff_add_f(div_ff(1.0f, x), -0.5772156649015329f);
    return r.hi + r.lo;
  }
  if (x > 0.0f) {
    int k;
    ff v = gamma_pos(x, &k);
    return scale2(v.hi + v.lo, k);
  }
  if (x == trunc(x))
    return K2S_NAN; /* poles at the negative integers */
  float sp = __k2s_sinpi_f32(x);
  if (x < -45.0f) /* |Gamma(x)| < 2^-190 */
    return with_sign(0.0f, sp);
  int k;
  ff g = gamma_pos(-x, &k);
  ff d = ff_mul_f(ff_mul_f(g, -x), sp); /* sinpi(x) (-x) Gamma(-x) 2^-k */
  int j = (int)((as_uint(d.hi) >> 23) & 0xffu) - 127;
  float sc = pow2i(-j);
  ff q = div_ff2(ff_make(3.14159274101257324219f, -8.74227800037e-08f), d.hi * sc);
  q.lo -= q.hi * (d.lo * sc) / (d.hi * sc);
  return scale2(q.hi + q.lo, -k - j);
}

/* log|Gamma(x)| as a float-float for finite x > 0 */
K2S_INLINE ff lgamma_pos(float x)
{
  if (fabs(x - 1.0f) <= 0.25f)
    return ff_make(lgamma_near1(x - 1.0f), 0.0f);
  if (fabs(x - 2.0f) <= 0.25f)
    return ff_make(lgamma_near2(x - 2.0f), 0.0f);
  if (x > 1e30f) /* x (log x - 1): the float-float terms would overflow their splits */
    return ff_make(x * (log_ff(x).hi - 1.0f), 0.0f);
  if (x >= 8.0f)
    return lgamma_stirling(x);
  if (x < 1e-30f)
    return ff_make(-(log_ff(x).hi), 0.0f);
  float y;
  ff p = rising_product(x, &y);
  ff yy = two_sum(x, y);
  ff a = lgamma_stirling(yy.hi);
  a = ff_add_f(a, yy.lo * (log_ff(yy.hi).hi - 0.5f / yy.hi));
  ff lp = ff_add_f(log_ff(p.hi), p.lo / p.hi);
  return ff_add(a, ff_make(-lp.hi, -lp.lo));
}

/* (lgamma(x), sign of Gamma(x)) */
K2S_INLINE float2 lgamma_sign(float x)
{
  if (is_nan(x))
    return (float2)(x, 0.0f);
  if (is_inf(x))
    return (float2)(K2S_INF, 1.0f);
  if (x == 0.0f) /* OpenCL: signp is 0 for zero and the negative integers */
    return (float2)(K2S_INF, 0.0f);
  if (x > 0.0f) {
    ff r = lgamma_pos(x);
    return (float2)(r.hi + r.lo, 1.0f);
  }
  if (x == trunc(x))
    return (float2)(K2S_INF, 0.0f);
  float ax = -x;
  if (ax < 1e-30f) { /* log|Gamma(x)| = -log|x| - euler x + ...: only the first term counts */
    ff l = log_ff(ax);
    return (float2)(-(l.hi + l.lo), -1.0f);
  }
  float sp = __k2s_sinpi_f32(x);
  /* log(pi / |sinpi(x) x|) - lgamma(-x) */
  ff r = ff_add(LOG_PI, ff_make(-log_ff(fabs(sp)).hi, -log_ff(fabs(sp)).lo));
  ff lx = log_ff(ax);
  r = ff_add(r, ff_make(-lx.hi, -lx.lo));
  ff lg = lgamma_pos(ax);
  r = ff_add(r, ff_make(-lg.hi, -lg.lo));
  return (float2)(r.hi + r.lo, sp < 0.0f ? -1.0f : 1.0f);
}

float __k2s_lgamma_f32(float x)
{
  return lgamma_sign(x).x;
}

float2 __k2s_lgamma_r_f32(float x)
{
  return lgamma_sign(x);
}
