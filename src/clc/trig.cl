/*
 * sin, cos, tan, sincos, sinpi, cospi, tanpi (float). OpenCL bounds: sin,
 * cos, sincos, sinpi, cospi 4 ulp; tan 5 ulp; tanpi 6 ulp.
 *
 * Reduction: x = q pi/2 + r, |r| <= pi/4. |x| <= pi/4 needs none. Otherwise
 * Payne-Hanek in 32-bit integers for every x (so huge arguments are exact
 * too, and no Int64 is needed): the 24-bit significand times four 32-bit
 * words of 2/pi chosen by the exponent
 * (earlier words only add multiples of 4, later ones are below 2^-72 of the
 * fraction: float arguments come no closer than about 2^-30 to a multiple
 * of pi/2) gives the quadrant and 64 fraction bits; the fraction becomes a float-float and
 * is multiplied by pi/2 in float-float. sin/cos of the reduced float-float
 * r = rh + rl by Taylor polynomials (degree 11 / 12; truncation < 2^-32):
 * sin(r) = sin(rh) + rl cos(rh), cos(r) = cos(rh) - rl sin(rh).
 * tan = sin / cos with the quotient corrected by its exact residual.
 * The *pi variants reduce x exactly in binary (x = n/2 + f, |f| <= 1/4) and
 * form pi f as a float-float.
 */

/* 32-bit word i of the binary expansion of 2/pi (word 0 = first 32 fraction
 * bits); 0 before the point. */
K2S_INLINE u32 two_over_pi_word(int i)
{
  switch (i) {
  case 0: return 0xa2f9836eu;
  case 1: return 0x4e441529u;
  case 2: return 0xfc2757d1u;
  case 3: return 0xf534ddc0u;
  case 4: return 0xdb629599u;
  case 5: return 0x3c439041u;
  case 6: return 0xfe5163abu;
  default: return 0u;
  }
}

#define PIO2_HI 1.57079637050628662109375f
#define PIO2_LO -4.37113900018624283e-08f

/* |x| = q pi/2 + r for finite |x| >= 2^-8: returns r as a float-float, *q the quadrant. */
/* a + b + c_in with the carry out, in 32 bits */
K2S_INLINE u32 add_carry(u32 a, u32 b, u32 c_in, u32 *c_out)
{
  u32 s = a + b;
  u32 c = s < a ? 1u : 0u;
  u32 s2 = s + c_in;
  *c_out = c | (s2 < s ? 1u : 0u);
  return s2;
}

/* bits [32 t + k, 32 t + k + 31] of a two-limb window (lo, hi) shifted by k in [0, 31] */
K2S_INLINE u32 funnel(u32 lo, u32 hi, int k)
{
  return k == 0 ? lo : (lo >> k) | (hi << (32 - k));
}

/* |x| = q pi/2 + r for finite |x| >= 2^-8: returns r as a float-float, *q the quadrant.
 * 32-bit integer arithmetic only (mul_hi), so targets without Int64 can use it. */
K2S_INLINE ff reduce_pio2(float ax, int *q)
{
  u32 u = as_uint(ax);
  int ex = (int)(u >> 23);
  u32 m = (u & 0x7fffffu) | 0x800000u;
  int e = ex - 150; /* ax = m 2^e, e >= -31 here */
  int i0 = (e - 1) >= 0 ? (e - 1) / 32 : -1;
  int s0 = e - 32 - 32 * i0; /* in [-31, 0] */
  u32 w0 = two_over_pi_word(i0), w1 = two_over_pi_word(i0 + 1);
  u32 w2 = two_over_pi_word(i0 + 2), w3 = two_over_pi_word(i0 + 3);
  /* N = P0 2^96 + P1 2^64 + P2 2^32 + P3 with Pj = m wj (56 bits: hi 24, lo 32) in five
   * 32-bit limbs; x 2/pi = N 2^(s0 - 96) modulo 4: the unit bit is ub = 96 - s0 */
  u32 c1, c2, c3;
  u32 l0 = m * w3;
  u32 l1 = add_carry(mul_hi(m, w3), m * w2, 0u, &c1);
  u32 l2 = add_carry(mul_hi(m, w2), m * w1, c1, &c2);
  u32 l3 = add_carry(mul_hi(m, w1), m * w0, c2, &c3);
  u32 l4 = mul_hi(m, w0) + c3;
  int t = -s0; /* ub = 96 + t, t in [0, 31] */
  int quad = (int)(funnel(l3, l4, t) & 3u);
  if (s0 == -31 && i0 >= 1) /* word i0-1 contributes 2 * its lowest bit */
    quad += (int)((m & two_over_pi_word(i0 - 1) & 1u) << 1);
  /* the fraction: bits [32 + t, 95 + t] */
  u32 fh = funnel(l2, l3, t), fl = funnel(l1, l2, t);
  bool neg = (fh >> 31) != 0u; /* a fraction >= 1/2 becomes f - 1 with the quadrant one up */
  if (neg) {
    quad += 1;
    fl = ~fl + 1u;
    fh = ~fh + (fl == 0u ? 1u : 0u);
  }
  *q = quad & 3;
  (void)l0; /* below the fraction: only its carries matter, and it has none to give */
  if (fh == 0u && fl == 0u)
    return ff_make(0.0f, 0.0f);
  int lz = fh ? (int)clz(fh) : 32 + (int)clz(fl);
  if (lz >= 32) {
    fh = fl << (lz - 32);
    fl = 0u;
  } else if (lz > 0) {
    fh = (fh << lz) | (fl >> (32 - lz));
    fl <<= lz;
  }
  /* value = (fh:fl) 2^(-64 - lz): 24 + 24 bits as a float-float */
  float h = (float)(fh >> 8) * pow2i(-24 - lz);
  float l = (float)(((fh & 0xffu) << 16) | (fl >> 16)) * pow2i(-48 - lz);
  ff r = ff_mul(fast_two_sum(h, l), ff_make(PIO2_HI, PIO2_LO));
  if (neg) {
    r.hi = -r.hi;
    r.lo = -r.lo;
  }
  return r;
}

/* sin and cos of r = rh + rl, |r| <= pi/4 + tiny. */
K2S_INLINE float sin_kernel(float rh, float rl)
{
  float z = rh * rh;
  float p = -1.0f / 39916800.0f;
  p = p * z + 1.0f / 362880.0f;
  p = p * z - 1.0f / 5040.0f;
  p = p * z + 1.0f / 120.0f;
  p = p * z - 1.0f / 6.0f;
  return rh + (rl * (1.0f - 0.5f * z) + rh * (z * p));
}

K2S_INLINE float cos_kernel(float rh, float rl)
{
  float z = rh * rh;
  float p = 1.0f / 479001600.0f;
  p = p * z - 1.0f / 3628800.0f;
  p = p * z + 1.0f / 40320.0f;
  p = p * z - 1.0f / 720.0f;
  p = p * z + 1.0f / 24.0f;
  float hz = 0.5f * z;
  float w = 1.0f - hz;
  /* (1 - w) - hz recovers the rounding error of w */
  return w + (((1.0f - w) - hz) + (z * z * p - rh * rl));
}

/* sin (which = 0) or cos (which = 1) of x, q the quadrant of r */
K2S_INLINE float trig_quadrant(ff r, int q, int which)
{
  int k = (q + which) & 3;
  float v = (k & 1) ? cos_kernel(r.hi, r.lo) : sin_kernel(r.hi, r.lo);
  return (k & 2) ? -v : v;
}

K2S_INLINE ff reduce_any(float x, int *q)
{
  float ax = fabs(x);
  if (ax <= 0.785398163f) {
    *q = 0;
    return ff_make(ax, 0.0f);
  }
  return reduce_pio2(ax, q);
}

float __k2s_sin_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  if (fabs(x) < 1e-4f && fabs(x) * fabs(x) * fabs(x) < fabs(x) * 1e-8f)
    return x; /* keeps -0 and tiny arguments exact */
  int q;
  ff r = reduce_any(x, &q);
  float s = trig_quadrant(r, q, 0);
  return sign_of(x) ? -s : s;
}

float __k2s_cos_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  int q;
  ff r = reduce_any(x, &q);
  return trig_quadrant(r, q, 1);
}

/* s / c with the quotient corrected by its exact residual */
K2S_INLINE float div_corrected(float s, float c)
{
  float t = s / c;
  ff p = two_prod(t, c);
  float res = (s - p.hi) - p.lo;
  return t + res / c;
}

float __k2s_tan_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  if (fabs(x) < 1e-4f && fabs(x) * fabs(x) < 1e-8f)
    return x;
  int q;
  ff r = reduce_any(x, &q);
  float s = sin_kernel(r.hi, r.lo), c = cos_kernel(r.hi, r.lo);
  float t = (q & 1) ? -div_corrected(c, s) : div_corrected(s, c);
  return sign_of(x) ? -t : t;
}

float2 __k2s_sincos_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return (float2)(K2S_NAN, K2S_NAN);
  int q;
  ff r = reduce_any(x, &q);
  float s = trig_quadrant(r, q, 0);
  float c = trig_quadrant(r, q, 1);
  if (fabs(x) < 1e-4f && fabs(x) * fabs(x) * fabs(x) < fabs(x) * 1e-8f)
    s = fabs(x);
  return (float2)(sign_of(x) ? -s : s, c);
}

#define PI_HI 3.14159274101257324219f
#define PI_LO -8.74227800037e-08f

/* |x| = n/2 + f with |f| <= 1/4 exactly; pi f as a float-float, *q = n mod 4 */
K2S_INLINE ff reduce_pi(float ax, int *q)
{
  if (ax >= 8388608.0f) { /* 2^23: every float is an integer; n = 2|x| is 0 mod 4 when even */
    *q = ax >= 16777216.0f ? 0 : ((int)ax & 1) * 2;
    return ff_make(0.0f, 0.0f);
  }
  float n = rint(ax * 2.0f); /* 2|x| is exact */
  float f = ax - n * 0.5f;   /* exact */
  *q = (int)n & 3;
  ff p = two_prod(f, PI_HI);
  p.lo += f * PI_LO;
  return fast_two_sum(p.hi, p.lo);
}

/* pi |x| for |x| < 2^-20, where sinpi and tanpi are pi x to 2^-38: the Dekker
 * product of |x| 2^64 (its parts would be subnormal, and flushed on the H100, for
 * the unscaled |x|), scaled back rounding once for a normal result */
K2S_INLINE float pi_times_tiny(float ax)
{
  float s = ax * 18446744073709551616.0f; /* 2^64 */
  ff p = two_prod(s, PI_HI);
  p.lo += s * PI_LO;
  return (p.hi + p.lo) * 5.42101086242752217004e-20f; /* 2^-64 */
}

float __k2s_sinpi_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  if (fabs(x) < 9.5367431640625e-07f) {
    float t = pi_times_tiny(fabs(x));
    return sign_of(x) ? -t : t;
  }
  int q;
  ff r = reduce_pi(fabs(x), &q);
  float s = trig_quadrant(r, q, 0);
  if (s == 0.0f)
    s = 0.0f; /* sinpi(n) = +0 for n >= 0 (then the sign of x) */
  return sign_of(x) ? -s : s;
}

float __k2s_cospi_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  int q;
  ff r = reduce_pi(fabs(x), &q);
  float c = trig_quadrant(r, q, 1);
  return c == 0.0f ? 0.0f : c; /* cospi(n + 1/2) = +0 */
}

float __k2s_tanpi_f32(float x)
{
  if (is_nan(x) || is_inf(x))
    return K2S_NAN;
  if (fabs(x) < 9.5367431640625e-07f) {
    float t = pi_times_tiny(fabs(x));
    return sign_of(x) ? -t : t;
  }
  int q;
  ff r = reduce_pi(fabs(x), &q);
  float t;
  if (r.hi == 0.0f) {
    /* x = n/2: n even -> 0 (sign: + for even n/2, - for odd), n odd -> inf */
    if (q & 1)
      t = q == 1 ? K2S_INF : -K2S_INF;
    else
      t = q == 0 ? 0.0f : -0.0f;
  } else {
    float s = sin_kernel(r.hi, r.lo), c = cos_kernel(r.hi, r.lo);
    t = (q & 1) ? -div_corrected(c, s) : div_corrected(s, c);
  }
  return sign_of(x) ? -t : t;
}
