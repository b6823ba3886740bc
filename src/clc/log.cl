/*
 * log, log2, log10, log1p, and the float-float logarithm that pow, powr,
 * pown, rootn and cbrt build on (float). OpenCL bounds: log/log2/log10 3 ulp,
 * log1p 2 ulp, pow/powr/pown/rootn 16 ulp, cbrt 2 ulp.
 *
 * Method: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact), and
 * log(m) = log1p(f) = 2s + s R(s^2) with s = f / (2 + f) (the atanh series:
 * R(z) = 2z/3 + 2z^2/5 + ..., |s| <= 0.172). s is formed as a float-float:
 * an approximate quotient (Vulkan division, 2.5 ulp) corrected by its exact
 * residual (TwoProduct), so the division's error does not reach the result.
 * e ln2 is added in float-float with a two-part ln2. The result carries
 * about 2^-44 relative error before its final rounding, which pow needs:
 * y * log2(x) is scaled by up to 150.
 */

/* log1p(f) for f in [-0.2929, 0.4143] as a float-float. */
K2S_INLINE ff log1p_core(float f)
{
  ff d = fast_two_sum(2.0f, f);
  float sh = f / d.hi; /* approximate; corrected below */
  ff p = two_prod(sh, d.hi);
  float res = ((f - p.hi) - p.lo) - sh * d.lo;
  float sl = res / d.hi;
  float z = sh * sh;
  float r = 2.0f / 17.0f;
  r = r * z + 2.0f / 15.0f;
  r = r * z + 2.0f / 13.0f;
  r = r * z + 2.0f / 11.0f;
  r = r * z + 2.0f / 9.0f;
  r = r * z + 2.0f / 7.0f;
  r = r * z + 2.0f / 5.0f;
  r = r * z + 2.0f / 3.0f;
  r = r * z;
  /* 2s + s R: the second term is < 0.02 of the first */
  ff two_s = ff_make(2.0f * sh, 2.0f * sl);
  return ff_add_f(two_s, sh * r + sl * r);
}

#define LN2_HI_L 0.693145751953125f      /* 0x3f317200 */
#define LN2_LO_L 1.4286068203094172e-06f

/* Natural log of a finite x > 0 as a float-float. */
K2S_INLINE ff log_ff(float x)
{
  int bias = 0;
  if (x < 1.17549435e-38f) {
    x *= 16777216.0f; /* 2^24: subnormals become normal, exactly */
    bias = 24;
  }
  u32 ux = as_uint(x);
  int e = (int)(ux >> 23) - 127 - bias;
  float m = as_float((ux & 0x7fffffu) | 0x3f800000u); /* [1, 2) */
  if (m > 1.41421356f) {
    m *= 0.5f;
    e += 1;
  }
  ff l = log1p_core(m - 1.0f);
  float fe = (float)e;
  ff el = fast_two_sum(fe * LN2_HI_L, fe * LN2_LO_L); /* the first product is exact */
  return e == 0 ? l : ff_add(el, l);
}

/* Special cases shared by the logarithms: NaN, negatives, zeros, +inf.
 * Returns true and sets *r when x is one. */
K2S_INLINE bool log_special(float x, float *r)
{
  if (is_nan(x)) {
    *r = x;
    return true;
  }
  if (x < 0.0f) {
    *r = K2S_NAN;
    return true;
  }
  if (x == 0.0f) {
    *r = -K2S_INF;
    return true;
  }
  if (is_inf(x)) {
    *r = x;
    return true;
  }
  return false;
}

/* log(x) for float alone needs no float-float (3 ulp): x = 2^e m with m in
 * [2/3, 4/3) taken from the bits (subnormals scaled by 2^24 first), f = m - 1
 * exact, log1p(f) = f + f^2 G(f) with G fitted by src/clc/fit.py ("log_g",
 * degree 8, error 3e-8 on G, which the f^2 weight divides by 6 or more), and
 * e ln2 added with a two-part ln2 (e * LN2_HI is exact). Straight-line code:
 * the special values are selects (a GPU runs branches as divergent control
 * flow; issue 13). 0.81 ulp in a float simulation. */
float __k2s_log_f32(float x)
{
  bool tiny = x < 1.17549435e-38f;
  u32 ux = as_uint(tiny ? x * 16777216.0f : x);
  int i = (int)ux - 0x3f2aaaab; /* the bits of 2/3 */
  int e = i >> 23;              /* arithmetic: floor */
  float f = as_float(ux - ((u32)e << 23)) - 1.0f;
  float g = -1.242220029e-01f;
  g = mad(g, f, 1.374830902e-01f);
  g = mad(g, f, -1.228872165e-01f);
  g = mad(g, f, 1.405581236e-01f);
  g = mad(g, f, -1.667331606e-01f);
  g = mad(g, f, 2.000723332e-01f);
  g = mad(g, f, -2.499994487e-01f);
  g = mad(g, f, 3.333327174e-01f);
  g = mad(g, f, -0.5f);
  float l = mad(f * f, g, f);
  float fe = (float)(tiny ? e - 24 : e);
  float r = mad(fe, LN2_HI_L, mad(fe, LN2_LO_L, l));
  r = x == 0.0f ? -K2S_INF : r;
  r = x == K2S_INF ? x : r;
  return x >= 0.0f ? r : K2S_NAN; /* NaN and negative numbers */
}

#define LOG2E_HI 1.44269502162933349609375f
#define LOG2E_LO 1.925962991126e-08f
#define LOG10E_HI 0.4342944920063018798828125f
#define LOG10E_LO -1.010305005e-08f

float __k2s_log2_f32(float x)
{
  float r;
  if (log_special(x, &r))
    return r;
  ff l = ff_mul(log_ff(x), ff_make(LOG2E_HI, LOG2E_LO));
  return l.hi + l.lo;
}

float __k2s_log10_f32(float x)
{
  float r;
  if (log_special(x, &r))
    return r;
  ff l = ff_mul(log_ff(x), ff_make(LOG10E_HI, LOG10E_LO));
  return l.hi + l.lo;
}

/* log1p(x) as a float-float for finite x > -1 */
K2S_INLINE ff log1p_ff(float x)
{
  if (x >= -0.2929f && x <= 0.4142f)
    return log1p_core(x);
  /* 1 + x = u.hi + u.lo exactly; log(u.hi) + u.lo / u.hi */
  ff u = two_sum(1.0f, x);
  if (fabs(u.hi) > 1e30f)
    u.lo = 0.0f;
  ff l = log_ff(u.hi);
  float corr = u.lo / u.hi; /* a correction below ulp(result): its division error is negligible */
  return ff_add_f(l, corr);
}

float __k2s_log1p_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x < -1.0f)
    return K2S_NAN;
  if (x == -1.0f)
    return -K2S_INF;
  /* log1p(x) = x (1 - x/2 ...) is x to 2^-25 for |x| < 2^-24 (and keeps -0); the
   * series would make subnormal intermediates, flushed on the H100, for tiny x */
  if (is_inf(x) || fabs(x) < 5.9604644775390625e-08f)
    return x;
  ff l = log1p_ff(x);
  return l.hi + l.lo;
}

/* ---- powers ------------------------------------------------------------- */

/* 2^(t.hi + t.lo) for a float-float t, with overflow and underflow. */
K2S_INLINE float exp2_ff(ff t)
{
  if (t.hi > 128.0f || (t.hi == 128.0f && t.lo >= 0.0f))
    return K2S_INF;
  if (t.hi < -151.0f)
    return 0.0f;
  float k = rint(t.hi);
  ff f = fast_two_sum(t.hi - k, t.lo); /* t.hi - k is exact */
  ff r = ff_mul(f, ff_make(0.693147182464599609375f, -1.904654323148236e-09f));
  return exp_finish(r.hi, r.lo, (int)k);
}

/* |x|^(y.hi + y.lo) for finite x != 0 */
K2S_INLINE float pow_core(float ax, ff y)
{
  ff l2 = ff_mul(log_ff(ax), ff_make(LOG2E_HI, LOG2E_LO));
  if (fabs(y.hi) > 1e30f) /* |y log2 x| > 2^-24 * 1e30: surely out of range */
    return l2.hi * y.hi > 0.0f ? K2S_INF : 0.0f;
  return exp2_ff(ff_mul(l2, y));
}

K2S_INLINE bool is_int(float y)
{
  return y == trunc(y);
}

/* y odd integer (every float >= 2^24 is even) */
K2S_INLINE bool is_odd(float y)
{
  return fabs(y) < 16777216.0f && is_int(y) && ((int)y & 1);
}

float __k2s_pow_f32(float x, float y)
{
  if (y == 0.0f || x == 1.0f)
    return 1.0f;
  if (is_nan(x) || is_nan(y))
    return x + y;
  float ax = fabs(x);
  bool odd = is_odd(y);
  if (is_inf(y)) {
    if (ax == 1.0f)
      return 1.0f;
    return (ax < 1.0f) == (y < 0.0f) ? K2S_INF : 0.0f;
  }
  if (x == 0.0f || is_inf(x)) {
    /* |x|^y is 0 or inf; the sign survives only for odd integer y */
    bool big = (x == 0.0f) == (y < 0.0f);
    float r = big ? K2S_INF : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  if (x < 0.0f && !is_int(y))
    return K2S_NAN;
  if (ax == 1.0f) /* x = -1, integer y */
    return odd ? -1.0f : 1.0f;
  float r = pow_core(ax, ff_make(y, 0.0f));
  return x < 0.0f && odd ? -r : r;
}

float __k2s_powr_f32(float x, float y)
{
  if (is_nan(x) || is_nan(y) || x < 0.0f)
    return K2S_NAN;
  if (x == 0.0f) {
    if (y == 0.0f)
      return K2S_NAN;
    return y < 0.0f ? K2S_INF : 0.0f;
  }
  if (is_inf(x)) {
    if (y == 0.0f)
      return K2S_NAN;
    return y < 0.0f ? 0.0f : K2S_INF;
  }
  if (x == 1.0f)
    return is_inf(y) ? K2S_NAN : 1.0f;
  if (y == 0.0f)
    return 1.0f;
  if (is_inf(y))
    return (x < 1.0f) == (y < 0.0f) ? K2S_INF : 0.0f;
  return pow_core(x, ff_make(y, 0.0f));
}

float __k2s_pown_f32(float x, int n)
{
  if (n == 0)
    return 1.0f;
  if (is_nan(x))
    return x;
  bool odd = (n & 1) != 0;
  if (x == 0.0f || is_inf(x)) {
    bool big = (x == 0.0f) == (n < 0);
    float r = big ? K2S_INF : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  /* n as a float-float: exact even beyond 2^24 */
  float nh = (float)n;
  /* n - nh exactly, in 32 bits: nh = 2^31 (n near INT_MAX) does not fit an int */
  float nl = nh >= 2147483648.0f ? (float)((n - 2147483647) - 1) : (float)(n - (int)nh);
  float r = pow_core(fabs(x), ff_make(nh, nl));
  return x < 0.0f && odd ? -r : r;
}

float __k2s_rootn_f32(float x, int n)
{
  if (n == 0 || is_nan(x))
    return K2S_NAN;
  bool odd = (n & 1) != 0;
  if (x < 0.0f && !odd)
    return K2S_NAN;
  if (x == 0.0f) {
    float r = n < 0 ? K2S_INF : 0.0f;
    return odd ? copysign(r, x) : r;
  }
  if (is_inf(x)) {
    float r = n < 0 ? 0.0f : K2S_INF;
    return odd ? copysign(r, x) : r;
  }
  /* 1/n as a float-float: approximate quotient plus its exact residual */
  float fn = (float)n;
  float q = 1.0f / fn;
  ff p = two_prod(q, fn);
  float ql = ((1.0f - p.hi) - p.lo) / fn;
  float r = pow_core(fabs(x), ff_make(q, ql));
  return x < 0.0f ? -r : r;
}

float __k2s_cbrt_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return x;
  if (x == 0.0f)
    return zero_of(x);
  float r = pow_core(fabs(x), ff_make(0.3333333432674407958984375f, -9.934107481e-09f));
  return copysign(r, x);
}
