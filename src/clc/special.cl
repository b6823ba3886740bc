/*
 * sqrt, rsqrt, hypot, erf, erfc (float). OpenCL bounds: sqrt 3 ulp, rsqrt 2 ulp, hypot 4 ulp,
 * erf and erfc 16 ulp.
 *
 * sqrt: x * inversesqrt(x) (the device's, 2 ulp in Vulkan) refined by one
 * Newton step on the residual x - s^2 from mad (exact where it is fused: 0.5
 * ulp and a little; 0.75 ulp where it is not), one special-function
 * instruction, no division. rsqrt: the device's
 * inversesqrt alone (Vulkan promises 2 ulp, OpenCL's bound; the precision tool
 * measured 1.47 ulp on lavapipe and 1.49 on the H100); a Newton step on the
 * exact residual (0.5 ulp) made n-body 5x slower on the H100 (issue 13).
 * Both are straight-line code, the values GLSL leaves undefined (x <= 0,
 * NaN, infinity) chosen by selects at the end. sqrt scales arguments below
 * 1e-30 by 2^64; rsqrt takes subnormals as zeros, which OpenCL allows for
 * float, and spends six instructions besides inversesqrt: n-body's inner
 * loop is about 15 (issue 13, H100: with branches 4x --math=native's time,
 * with 13 instructions of selects 1.65x).
 * hypot: both arguments scaled by
 * the same power of two, x^2 + y^2 in float-float, then sqrt the same way.
 * erf: |x| < 1 as x g(x^2) (fit "erf", degree 7); erf(x), |x| >= 1, as
 * 1 - exp(-x^2) h(1/x) / x with h fitted on four intervals of t = 1/x
 * ("erfc_0/a/b/c", polynomials in t - centre), exp(-x^2) from the exact square.
 * erfc: straight-line code after Shepherd and Laframboise (Math. Comp. 36, 1981):
 * (1 + 2a) exp(a^2) erfc(a), a = |x|, is smooth on [0, inf) and becomes one
 * polynomial in t = (a - 2) / (a + 2) on [-1, 1] (fit "erfc_sl", degree 12,
 * error 5e-9), one division for both quotients; exp(-a^2) through exp's core
 * with a^2 split into an exact h^2 and a small tail, the scaling branch-free
 * (subnormal results too); erfc(-a) = 2 - erfc(a).
 * The piecewise version this replaced (four intervals, float-float
 * quotient) ran its branches divergently on a GPU: Black-Scholes 0.36x
 * NVIDIA's OpenCL on an H100 (issue 13). */

float __k2s_sqrt_f32(float x)
{
  /* tiny: 2^64 makes subnormals normal and keeps the residual above the
   * subnormal range; huge: 1/4 keeps s * s finite */
  bool tiny = x < 1e-30f, big = x > 1e38f;
  float xs = x * (tiny ? 18446744073709551616.0f : big ? 0.25f : 1.0f);
  float y = rsqrt(xs);
  float s = xs * y; /* up to ~4.5 ulp: 2 from inversesqrt, scaled by the grid */
  /* One Newton step: exact residual where mad is fused (then 0.5 ulp and a
   * hair); two roundings otherwise, the residual off by ulp(x)/2, which moves
   * the result by at most 1/2 ulp more (lavapipe). */
  float res = mad(-s, s, xs);
  s = mad(res, 0.5f * y, s);
  s *= tiny ? 2.3283064365386963e-10f : big ? 2.0f : 1.0f; /* 2^-32, 2 */
  /* +-0, +inf and NaN are their own square roots; negative numbers give NaN.
   * A zero is rebuilt from the sign: a device that flushes subnormals finds a
   * subnormal x == 0, and x's own bits would be neither sqrt(x) nor 0. */
  bool special = !(x > 0.0f && x < K2S_INF);
  float zero_or_x = x == 0.0f ? with_sign(0.0f, x) : x;
  return special ? (x < 0.0f ? K2S_NAN : zero_or_x) : s;
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
  /* beyond 10.15 erfc(a) < 2^-150 rounds to 0; the clamp keeps exp's k >= -150 */
  float a = fmin(fabs(x), 10.15f);
  /* one division for t = (a - 2) / (a + 2) and 1 / (1 + 2a): its 2.5 ulp and
   * the products' roundings are inside the 16 ulp */
  float d1 = a + 2.0f, d2 = mad(2.0f, a, 1.0f);
  float rd = 1.0f / (d1 * d2);
  float t = (a - 2.0f) * (d2 * rd);
  float p = -2.010893149e-05f;
  p = mad(p, t, 6.310018216e-05f);
  p = mad(p, t, 2.211054525e-04f);
  p = mad(p, t, -3.571778943e-04f);
  p = mad(p, t, -1.463511726e-03f);
  p = mad(p, t, 1.216665492e-03f);
  p = mad(p, t, 8.724294603e-03f);
  p = mad(p, t, -8.018636145e-03f);
  p = mad(p, t, -5.422018468e-02f);
  p = mad(p, t, 1.640494019e-01f);
  p = mad(p, t, -1.660303921e-01f);
  p = mad(p, t, -9.276375920e-02f);
  p = mad(p, t, 1.276978374e+00f);
  float q = p * (d1 * rd);
  /* a^2 = h^2 + (a - h)(a + h) with h = a cut to 12 significant bits: h^2 is
   * exact, the rest (|.| < 2^-10 a^2 < 0.11) goes into exp's reduction as its tail */
  float h = as_float(as_uint(a) & 0xfffff000u);
  int k;
  float v = exp_core(-(h * h), (h - a) * (a + h), &k);
  float r = scale2_near1(q * v, k); /* q * v in [0.03, 1.7] */
  r = a == 0.0f ? 1.0f : r;         /* exactly 1 (P(-1) is 1 only to 5e-9) */
  r = sign_of(x) ? 2.0f - r : r;
  return is_nan(x) ? x : r;
}

float __k2s_rsqrt_f32(float x)
{
  /* Six instructions around the device's inversesqrt: the positive normal
   * numbers are its domain; elsewhere, with subnormals taken as zeros (the
   * full profile lets float flush them), +-0 -> +-inf and +inf -> +0 are x's
   * sign and exponent bits xor those of inf, and x < 0 or NaN -> NaN. */
  float r = rsqrt(x);
  u32 ux = as_uint(x);
  float zero_or_inf = as_float((ux & 0xff800000u) ^ 0x7f800000u);
  float special = x >= 0.0f ? zero_or_inf : K2S_NAN;
  return ux - 0x00800000u < 0x7f000000u ? r : special;
}
