/*
 * asin, acos, atan, atan2 and their *pi forms (float). OpenCL bounds: asin,
 * acos 4 ulp; atan 5; atan2 6; asinpi, acospi, atanpi 5; atan2pi 6.
 *
 * atan: |x| > 1 uses pi/2 - atan(1/x); |x| > tan(pi/8) uses
 * pi/4 + atan((x - 1)/(x + 1)); the reduced |u| <= tan(pi/8) goes through
 * u + u^3 g(u^2), g fitted by src/clc/fit.py ("atan", degree 5, error
 * 5e-10). Quotients are corrected by their exact residuals and the constant
 * parts are added in float-float. asin/acos: |x| <= 1/2 directly by
 * u + u z g(z) (fit "asin", degree 6); beyond, with w = (1 - |x|)/2 (exact)
 * and s = sqrt(w) as a float-float: asin(|x|) = pi/2 - 2 asin(s) and
 * acos(x) = 2 asin(s) or pi - 2 asin(s). The *pi forms multiply the
 * float-float angle by 1/pi in float-float.
 */

#define PIO4_HI 0.785398185253143310546875f
#define PIO4_LO -2.18556950009e-08f
#define INVPI_HI 0.3183098733425140380859375f
#define INVPI_LO 1.28412766335e-08f

/* u + u^3 g(u^2) for |u| <= tan(pi/8) + tiny, plus the tail ul of u */
K2S_INLINE ff atan_poly(float u, float ul)
{
  float z = u * u;
  float g = 5.048138512e-02f;
  g = g * z - 8.624676145e-02f;
  g = g * z + 1.107136502e-01f;
  g = g * z - 1.428415119e-01f;
  g = g * z + 1.999997726e-01f;
  g = g * z - 3.333333328e-01f;
  /* d atan = du / (1 + u^2) */
  return fast_two_sum(u, u * (z * g) + ul / (1.0f + z));
}

/* a / b as a float-float (approximate quotient + exact residual) */
K2S_INLINE ff div_ff(float a, float b)
{
  float q = a / b;
  ff p = two_prod(q, b);
  float r = ((a - p.hi) - p.lo) / b;
  return fast_two_sum(q, r);
}

/* (a.hi + a.lo) / b */
K2S_INLINE ff div_ff2(ff a, float b)
{
  float q = a.hi / b;
  ff p = two_prod(q, b);
  float r = (((a.hi - p.hi) - p.lo) + a.lo) / b;
  return fast_two_sum(q, r);
}

/* atan(t) for t = t.hi + t.lo in [0, 1] */
K2S_INLINE ff atan01(ff t)
{
  if (t.hi <= 0.41421356f)
    return atan_poly(t.hi, t.lo);
  /* (t - 1)/(t + 1): t - 1 and t + 1 as float-floats */
  ff num = ff_add_f(t, -1.0f);
  ff den = ff_add_f(t, 1.0f);
  float q = num.hi / den.hi;
  ff p = ff_mul_f(den, q);
  float ql = ((num.hi - p.hi) - p.lo + num.lo) / den.hi;
  ff u = fast_two_sum(q, ql);
  return ff_add(ff_make(PIO4_HI, PIO4_LO), atan_poly(u.hi, u.lo));
}

/* atan(|x|) as a float-float for finite x */
K2S_INLINE ff atan_pos(float ax)
{
  if (ax <= 1.0f)
    return atan01(ff_make(ax, 0.0f));
  if (ax > 1e30f)
    return ff_add_f(ff_make(2.0f * PIO4_HI, 2.0f * PIO4_LO), -1.0f / ax);
  ff t = div_ff(1.0f, ax);
  ff a = atan01(t);
  return ff_add(ff_make(2.0f * PIO4_HI, 2.0f * PIO4_LO), ff_make(-a.hi, -a.lo));
}

K2S_INLINE float with_sign(float v, float x)
{
  return sign_of(x) ? -v : v;
}

float __k2s_atan_f32(float x)
{
  if (is_nan(x))
    return x;
  if (is_inf(x))
    return with_sign(2.0f * PIO4_HI, x);
  float ax = fabs(x);
  if (ax < 1e-4f)
    return x; /* atan(x) = x (1 - x^2/3): below half an ulp */
  ff a = atan_pos(ax);
  return with_sign(a.hi + a.lo, x);
}

float __k2s_atanpi_f32(float x)
{
  if (is_nan(x))
    return x;
  if (is_inf(x))
    return with_sign(0.5f, x);
  ff a = atan_pos(fabs(x));
  if (fabs(x) < 1e-30f)
    a = ff_make(fabs(x) * 16777216.0f, 0.0f); /* scaled so 1/pi keeps its bits */
  ff r = ff_mul(a, ff_make(INVPI_HI, INVPI_LO));
  float v = r.hi + r.lo;
  if (fabs(x) < 1e-30f)
    v *= 5.9604644775390625e-08f; /* 2^-24 */
  return with_sign(v, x);
}

/* ay / ax * 2^up for a normal ax > ay 2^60 and ay > 0, rounded once (twice only for a
 * subnormal result): the significands in [1, 2) are divided and the exponents applied
 * after, so no divisor lies outside [2^-126, 2^126], where Vulkan bounds division (the
 * H100's x * (1/y) flushes 1/y beyond), and no intermediate is subnormal where the
 * result is normal (the H100 would flush it). */
K2S_INLINE float tiny_quot(float ay, float ax, int up)
{
  int adj = 0;
  if (ay < 1.1754943508222875e-38f) { /* subnormal (where the device keeps it): 2^64 ay */
    ay *= 18446744073709551616.0f;
    adj = 64;
  }
  int kx = (int)((as_uint(ax) >> 23) & 0xffu), ky = (int)((as_uint(ay) >> 23) & 0xffu);
  float mx = as_float((as_uint(ax) & 0x007fffffu) | 0x3f800000u);
  float my = as_float((as_uint(ay) & 0x007fffffu) | 0x3f800000u);
  return scale2(my / mx, ky - kx - adj + up);
}

/* atan2 of finite or infinite y, x (NaNs handled by the caller), as a
 * float-float angle in [0, pi] for |y|, then signed by the caller. A quotient
 * below 2^-59 (atan(t) = t) comes back times 2^up, *scaled set. */
K2S_INLINE ff atan2_abs(float y, float x, int up, bool *scaled)
{
  *scaled = false;
  float ay = fabs(y), ax = fabs(x);
  ff pi = ff_make(4.0f * PIO4_HI, 4.0f * PIO4_LO);
  ff pio2 = ff_make(2.0f * PIO4_HI, 2.0f * PIO4_LO);
  bool neg_x = sign_of(x);
  if (ay == 0.0f)
    return neg_x ? pi : ff_make(0.0f, 0.0f);
  if (is_inf(ay)) {
    if (!is_inf(ax))
      return pio2;
    ff q = ff_make(PIO4_HI, PIO4_LO);
    return neg_x ? ff_mul_f(q, 3.0f) : q;
  }
  if (ax == 0.0f)
    return pio2;
  if (is_inf(ax))
    return neg_x ? pi : ff_make(0.0f, 0.0f);
  /* scale both by the same power of 2 so that both are normal and the quotient
   * cannot overflow: up when the smaller is small, down when the larger is large
   * (|ex - ey| <= 60 here, so only one applies) */
  int ey = (int)((as_uint(ay) >> 23) & 0xffu), ex = (int)((as_uint(ax) >> 23) & 0xffu);
  int lo_e = min(ex, ey), hi_e = max(ex, ey);
  ff a;
  if (abs(ex - ey) > 60) {
    if (ay <= ax && !neg_x) { /* atan(t) = t for t < 2^-59 */
      *scaled = true;
      return ff_make(tiny_quot(ay, ax, up), 0.0f);
    }
    a = ay <= ax ? ff_make(tiny_quot(ay, ax, 0), 0.0f) : pio2;
  } else {
    float s = hi_e > 200 ? 2.3283064365386963e-10f : lo_e < 50 ? 4294967296.0f : 1.0f;
    if (ay <= ax) {
      a = atan01(div_ff(ay * s, ax * s));
    } else {
      ff t = atan01(div_ff(ax * s, ay * s));
      a = ff_add(pio2, ff_make(-t.hi, -t.lo));
    }
  }
  return neg_x ? ff_add(pi, ff_make(-a.hi, -a.lo)) : a;
}

float __k2s_atan2_f32(float y, float x)
{
  if (is_nan(x) || is_nan(y))
    return x + y;
  bool scaled;
  ff a = atan2_abs(y, x, 0, &scaled);
  return with_sign(a.hi + a.lo, y);
}

float __k2s_atan2pi_f32(float y, float x)
{
  if (is_nan(x) || is_nan(y))
    return x + y;
  /* a tiny angle comes back times 2^24, so 1/pi's low part keeps its bits (a Dekker
   * product of the unscaled angle would have subnormal, flushed parts) */
  bool tiny;
  ff a = atan2_abs(y, x, 24, &tiny);
  ff r = ff_mul(a, ff_make(INVPI_HI, INVPI_LO));
  float v = r.hi + r.lo;
  if (tiny)
    v *= 5.9604644775390625e-08f;
  return with_sign(v, y);
}

/* u + u z g(z), z = u^2 <= 1/4; u = uh + ul */
K2S_INLINE ff asin_poly(float uh, float ul, float z)
{
  float g = 3.097454037e-02f;
  g = g * z + 1.057441552e-02f;
  g = g * z + 2.361181701e-02f;
  g = g * z + 3.026913873e-02f;
  g = g * z + 4.464766389e-02f;
  g = g * z + 7.499992404e-02f;
  g = g * z + 1.666666669e-01f;
  return fast_two_sum(uh, ul + uh * (z * g));
}

/* sqrt(w) as a float-float, w = 0 or normal */
K2S_INLINE ff sqrt_ff(float w)
{
  if (w == 0.0f)
    return ff_make(0.0f, 0.0f);
  float s = sqrt(w);
  ff p = two_prod(s, s);
  float r = ((w - p.hi) - p.lo) * (0.5f / s);
  return fast_two_sum(s, r);
}

/* asin(|x|) for |x| > 1/2 (returns pi/2 - 2 asin(s)) or acos parts: *t = 2 asin(s) */
K2S_INLINE ff two_asin_sqrt(float ax)
{
  float w = (1.0f - ax) * 0.5f; /* exact for |x| in [1/2, 1] */
  if (w == 0.0f)
    return ff_make(0.0f, 0.0f);
  ff s = sqrt_ff(w);
  ff a = asin_poly(s.hi, s.lo, w);
  return ff_make(2.0f * a.hi, 2.0f * a.lo);
}

K2S_INLINE ff asin_pos(float ax)
{
  if (ax <= 0.5f)
    return asin_poly(ax, 0.0f, ax * ax);
  ff t = two_asin_sqrt(ax);
  return ff_add(ff_make(2.0f * PIO4_HI, 2.0f * PIO4_LO), ff_make(-t.hi, -t.lo));
}

/* acos(x) as a float-float, |x| <= 1 */
K2S_INLINE ff acos_ff(float x)
{
  float ax = fabs(x);
  ff pio2 = ff_make(2.0f * PIO4_HI, 2.0f * PIO4_LO);
  if (ax <= 0.5f) {
    ff a = asin_poly(ax, 0.0f, ax * ax);
    return ff_add(pio2, sign_of(x) ? a : ff_make(-a.hi, -a.lo));
  }
  ff t = two_asin_sqrt(ax);
  if (!sign_of(x))
    return t;
  return ff_add(ff_make(4.0f * PIO4_HI, 4.0f * PIO4_LO), ff_make(-t.hi, -t.lo));
}

float __k2s_asin_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (ax > 1.0f)
    return K2S_NAN;
  if (ax < 1e-4f)
    return x;
  ff a = asin_pos(ax);
  return with_sign(a.hi + a.lo, x);
}

float __k2s_acos_f32(float x)
{
  if (is_nan(x))
    return x;
  if (fabs(x) > 1.0f)
    return K2S_NAN;
  ff a = acos_ff(x);
  return a.hi + a.lo;
}

float __k2s_asinpi_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (ax > 1.0f)
    return K2S_NAN;
  if (ax < 1e-30f) {
    ff r = ff_mul_f(ff_make(INVPI_HI, INVPI_LO), ax * 16777216.0f);
    return with_sign((r.hi + r.lo) * 5.9604644775390625e-08f, x);
  }
  ff r = ff_mul(asin_pos(ax), ff_make(INVPI_HI, INVPI_LO));
  return with_sign(r.hi + r.lo, x);
}

float __k2s_acospi_f32(float x)
{
  if (is_nan(x))
    return x;
  if (fabs(x) > 1.0f)
    return K2S_NAN;
  ff r = ff_mul(acos_ff(x), ff_make(INVPI_HI, INVPI_LO));
  return r.hi + r.lo;
}
