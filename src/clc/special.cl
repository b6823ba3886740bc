/*
 * sqrt, rsqrt, hypot, erf, erfc (float). OpenCL bounds: sqrt 3 ulp, rsqrt 2 ulp, hypot 4 ulp,
 * erf and erfc 16 ulp.
 *
 * sqrt: the device's square root (Vulkan: about 1/inversesqrt, a few ulp)
 * refined by one Newton step on its exact residual (TwoProduct), with
 * subnormal arguments scaled by 2^24 first. rsqrt: the device's inversesqrt
 * alone (Vulkan promises 2 ulp, OpenCL's bound; the precision tool measured 1.47
 * ulp on lavapipe and 1.49 on the H100), with the special values GLSL leaves
 * undefined (x <= 0, NaN, infinity) done here and tiny arguments scaled by 2^64 so
 * that a device that flushes subnormals still sees a normal number; a Newton step
 * on the exact residual (0.5 ulp) made n-body 5x slower on the H100 (issue 13).
 * hypot: both arguments scaled by
 * the same power of two, x^2 + y^2 in float-float, then sqrt the same way.
 * erf: |x| < 1 as x g(x^2) (fit "erf", degree 7); erfc(x), x >= 1, as
 * exp(-x^2) h(1/x) / x with h fitted on four intervals of t = 1/x
 * ("erfc_0/a/b/c", polynomials in t - centre; erfc uses it from x = 0.75,
 * where 1 - erf would lose 3 bits), exp(-x^2) from the exact square;
 * the other ranges by erf = 1 - erfc, erfc = 1 - erf and erfc(-x) = 2 - erfc(x).
 */

float __k2s_sqrt_f32(float x)
{
  if (is_nan(x) || x == 0.0f || (is_inf(x) && x > 0.0f))
    return x;
  if (x < 0.0f)
    return K2S_NAN;
  float scale = 1.0f;
  if (x < 1.17549435e-38f) {
    x *= 16777216.0f; /* 2^24, exact */
    scale = 2.44140625e-4f; /* 2^-12 */
  } else if (x > 1e38f) {
    x *= 0.25f; /* keeps s * s of the residual finite */
    scale = 2.0f;
  }
  ff s = sqrt_ff(x);
  return (s.hi + s.lo) * scale;
}

float __k2s_hypot_f32(float x, float y)
{
  float ax = fabs(x), ay = fabs(y);
  if (is_inf(ax) || is_inf(ay))
    return K2S_INF;
  if (is_nan(x) || is_nan(y))
    return x + y;
  float a = fmax(ax, ay), b = fmin(ax, ay);
  if (b == 0.0f)
    return a;
  /* a = 2^e m: divide both by 2^e (exact for a; b may lose bits only far below a's) */
  int e = (int)((as_uint(a) >> 23) & 0xffu) - 127;
  if (e < -126)
    e = -126;
  int sh = e > 100 ? 100 : e < -100 ? -100 : e;
  float f = pow2i(-sh);
  float a1 = a * f, b1 = b * f;
  if (e != sh) { /* second step for the extremes */
    float f2 = pow2i(sh - e);
    a1 *= f2;
    b1 *= f2;
  }
  ff s = ff_add(two_prod(a1, a1), two_prod(b1, b1));
  float r = sqrt(s.hi);
  ff p = two_prod(r, r);
  float res = ((s.hi - p.hi) - p.lo) + s.lo;
  r = r + res * (0.5f / r);
  return scale2(r, e);
}

K2S_INLINE float erf_g(float z)
{
  float g = -9.667044571e-06f;
  g = g * z + 1.126595903e-04f;
  g = g * z - 8.484080406e-04f;
  g = g * z + 5.221031808e-03f;
  g = g * z - 2.686543073e-02f;
  g = g * z + 1.128378250e-01f;
  g = g * z - 3.761263847e-01f;
  g = g * z + 1.128379167e+00f;
  return g;
}

/* erfc(x) for 0.75 <= x <= 10.1 */
K2S_INLINE float erfc_big(float x)
{
  ff t = div_ff(1.0f, x);
  float h;
  if (t.hi > 1.0f) {
    float s = (t.hi - 1.16666663f) + t.lo; /* the fit's centre is this float */
    h = 3.233549735e-04f;
    h = h * s - 1.279229117e-03f;
    h = h * s + 2.980575622e-03f;
    h = h * s - 5.497241661e-03f;
    h = h * s + 8.235129464e-03f;
    h = h * s - 8.660536333e-03f;
    h = h * s - 4.957507146e-04f;
    h = h * s + 3.718039420e-02f;
    h = h * s - 1.421336657e-01f;
    h = h * s + 4.028674250e-01f;
  } else if (t.hi >= 0.5f) {
    float s = (t.hi - 0.75f) + t.lo;
    h = -1.802045994e-02f;
    h = h * s + 1.367483441e-02f;
    h = h * s + 6.584576533e-04f;
    h = h * s - 1.825751985e-02f;
    h = h * s + 3.768654503e-02f;
    h = h * s - 5.046258411e-02f;
    h = h * s + 4.029321672e-02f;
    h = h * s + 1.934784796e-02f;
    h = h * s - 1.690809778e-01f;
    h = h * s + 4.681795921e-01f;
  } else if (t.hi >= 0.25f) {
    float s = (t.hi - 0.375f) + t.lo;
    h = 1.161947983e-01f;
    h = h * s - 2.490623701e-01f;
    h = h * s + 1.964772220e-01f;
    h = h * s - 3.788800845e-02f;
    h = h * s - 1.162829490e-01f;
    h = h * s + 1.772683854e-01f;
    h = h * s - 9.203998651e-02f;
    h = h * s - 1.515855300e-01f;
    h = h * s + 5.308603493e-01f;
  } else {
    float s = (t.hi - 0.125f) + t.lo;
    h = 1.235316206e+00f;
    h = h * s - 8.908169359e-02f;
    h = h * s - 4.882533658e-01f;
    h = h * s + 2.277425115e-01f;
    h = h * s + 1.757490887e-01f;
    h = h * s - 2.459445770e-01f;
    h = h * s - 6.739860037e-02f;
    h = h * s + 5.598813301e-01f;
  }
  /* exp(-x^2): x^2 = p.hi + p.lo exactly */
  ff p = two_prod(x, x);
  int k;
  ff v = exp_parts(-p.hi, &k);
  float m = (v.hi + (v.lo - v.hi * p.lo)) * (h * (t.hi + t.lo));
  return scale2(m, k);
}

float __k2s_erf_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (ax < 1.0f) {
    if (ax < 1e-30f) /* keep the bits of tiny arguments: scale around the product */
      return (x * 16777216.0f) * 1.128379167f * 5.9604644775390625e-08f;
    return x * erf_g(x * x);
  }
  float r = ax >= 3.92f ? 1.0f : 1.0f - erfc_big(ax);
  return with_sign(r, x);
}

float __k2s_erfc_f32(float x)
{
  if (is_nan(x))
    return x;
  float ax = fabs(x);
  if (ax < 0.75f || (ax < 1.0f && sign_of(x))) {
    ff e = two_prod(x, erf_g(x * x));
    ff r = ff_add_f(ff_make(-e.hi, -e.lo), 1.0f);
    return r.hi + r.lo;
  }
  if (sign_of(x))
    return ax >= 4.0f ? 2.0f : 2.0f - erfc_big(ax);
  return ax > 10.1f ? 0.0f : erfc_big(ax);
}

float __k2s_rsqrt_f32(float x)
{
  if (is_nan(x) || x < 0.0f)
    return is_nan(x) ? x : K2S_NAN;
  if (x == 0.0f)
    return with_sign(K2S_INF, x);
  if (is_inf(x))
    return 0.0f;
  float scale = 1.0f;
  if (x < 1e-30f) {
    x *= 18446744073709551616.0f; /* 2^64: subnormals too become normal */
    scale = 4294967296.0f;        /* 2^32 */
  }
  return rsqrt(x) * scale;
}
