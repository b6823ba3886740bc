/*
 * sinh, cosh, tanh, asinh, acosh, atanh (float). OpenCL bounds: sinh, cosh,
 * asinh, acosh 4 ulp; tanh, atanh 5 ulp.
 *
 * sinh/cosh: |x| < 1 by their Taylor series (to x^13: truncation < 2^-32);
 * beyond, (E -+ 1/E)/2 with E = exp(|x|) as a float-float and 1/E corrected
 * by its residual; |x| >= 10 is exp(|x|)/2, scaled so the overflow boundary
 * is exact. tanh = e/(e + 2) with e = expm1(2|x|) in float-float.
 * asinh/acosh/atanh go through the float-float log/log1p of log.cl:
 * asinh = log1p(|x| + x^2/(1 + sqrt(1 + x^2))), acosh = log1p(t + sqrt(2t + t^2))
 * with t = x - 1 (x <= 2) or log(x + sqrt(x^2 - 1)), large arguments as
 * log(|x|) + ln2; atanh = log1p(2|x|/(1 - |x|))/2.
 */

K2S_INLINE float sinh_small(float x)
{
  float z = x * x;
  float p = 1.0f / 6227020800.0f;
  p = p * z + 1.0f / 39916800.0f;
  p = p * z + 1.0f / 362880.0f;
  p = p * z + 1.0f / 5040.0f;
  p = p * z + 1.0f / 120.0f;
  p = p * z + 1.0f / 6.0f;
  return x + x * (z * p);
}

K2S_INLINE float cosh_small(float x)
{
  float z = x * x;
  float p = 1.0f / 87178291200.0f;
  p = p * z + 1.0f / 479001600.0f;
  p = p * z + 1.0f / 3628800.0f;
  p = p * z + 1.0f / 40320.0f;
  p = p * z + 1.0f / 720.0f;
  p = p * z + 1.0f / 24.0f;
  p = p * z + 0.5f;
  return 1.0f + z * p;
}

/* (E + sign/E)/2 for 1 <= |x| < 10 */
K2S_INLINE float sinh_cosh_mid(float ax, float sign)
{
  int k;
  ff v = exp_parts(ax, &k);
  ff e = ff_mul_f(v, pow2i(k));
  ff inv = div_ff2(ff_make(1.0f, 0.0f), e.hi);
  inv.lo -= inv.hi * (e.lo / e.hi); /* 1/(h + l) = (1/h)(1 - l/h) */
  ff s = ff_add(e, ff_make(sign * inv.hi, sign * inv.lo));
  return 0.5f * (s.hi + s.lo);
}

K2S_INLINE float exp_half(float ax)
{
  int k;
  ff v = exp_parts(ax, &k);
  return scale2(v.hi + v.lo, k - 1);
}

float __k2s_sinh_f32(float x)
{
  if (is_nan(x) || is_inf(x) || x == 0.0f)
    return x;
  float ax = fabs(x);
  float r;
  if (ax < 1.0f)
    r = sinh_small(ax);
  else if (ax < 10.0f)
    r = sinh_cosh_mid(ax, -1.0f);
  else
    r = ax > 90.0f ? K2S_INF : exp_half(ax);
  return with_sign(r, x);
}

float __k2s_cosh_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (is_inf(x))
    return ax;
  if (ax < 1.0f)
    return cosh_small(ax);
  if (ax < 10.0f)
    return sinh_cosh_mid(ax, 1.0f);
  return ax > 90.0f ? K2S_INF : exp_half(ax);
}

float __k2s_tanh_f32(float x)
{
  if (is_nan(x) || x == 0.0f)
    return x;
  float ax = fabs(x);
  if (ax < 2.44140625e-4f) /* 2^-12: tanh(x) = x(1 - x^2/3) rounds to x */
    return x;
  if (ax > 9.5f)
    return with_sign(1.0f, x);
  ff e = expm1_ff(2.0f * ax);
  ff den = ff_add_f(e, 2.0f);
  float q = e.hi / den.hi;
  ff p = ff_mul_f(den, q);
  float ql = (((e.hi - p.hi) - p.lo) + e.lo) / den.hi;
  return with_sign(q + ql, x);
}

#define LN2_FF ff_make(0.693145751953125f, 1.4286068203094172e-06f)

float __k2s_asinh_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return x;
  float ax = fabs(x);
  if (ax < 2.44140625e-4f) /* asinh(x) = x(1 - x^2/6) rounds to x */
    return x;
  ff r;
  if (ax > 4096.0f) { /* sqrt(x^2 + 1) = x (1 + 2^-25...): log(2x) */
    r = ff_add(log_ff(ax), LN2_FF);
  } else {
    float z = ax * ax;
    ff s = sqrt_ff(z + 1.0f);
    float t = ax + z / (1.0f + s.hi);
    r = log1p_ff(t);
  }
  return with_sign(r.hi + r.lo, x);
}

float __k2s_acosh_f32(float x)
{
  if (is_nan(x))
    return x;
  if (x < 1.0f)
    return K2S_NAN;
  if (is_inf(x))
    return x;
  ff r;
  if (x > 4096.0f) {
    r = ff_add(log_ff(x), LN2_FF);
  } else if (x <= 2.0f) {
    float t = x - 1.0f; /* exact */
    ff s = sqrt_ff(2.0f * t + t * t);
    r = log1p_ff(t + s.hi);
  } else {
    ff s = sqrt_ff(x * x - 1.0f);
    r = log_ff(x + s.hi);
  }
  return r.hi + r.lo;
}

float __k2s_atanh_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (ax > 1.0f)
    return K2S_NAN;
  if (ax == 1.0f)
    return with_sign(K2S_INF, x);
  if (ax < 2.44140625e-4f)
    return x;
  /* 2|x|/(1 - |x|) as a float-float; 1 - |x| is exact for |x| >= 1/2 */
  ff d = two_sum(1.0f, -ax);
  float q = (2.0f * ax) / d.hi;
  ff p = ff_mul_f(d, q);
  float ql = ((2.0f * ax - p.hi) - p.lo) / d.hi;
  ff w = fast_two_sum(q, ql);
  ff r = log1p_ff(w.hi);
  r = ff_add_f(r, w.lo / (1.0f + w.hi));
  return with_sign(0.5f * (r.hi + r.lo), x);
}
