/*
 * fma(a, b, c) for float, correctly rounded (OpenCL: 0 ulp), without relying
 * on a fused device instruction (Vulkan's Fma may round twice; lavapipe's does).
 *
 * Method: the 24x24-bit significand product is exact in 48 bits (mul_hi and
 * mul on 32-bit words: no Int64 needed); both addends are normalised to a
 * 62-bit fixed point held in two 32-bit words, the smaller is shifted right
 * with the shifted-out bits jammed into a sticky bit, added or subtracted
 * exactly, and the sum is rounded once to nearest-even, with subnormal
 * results and overflow handled in the same integer rounding.
 */

typedef struct w64 {
  u32 hi, lo;
} w64;

K2S_INLINE w64 w64_make(u32 hi, u32 lo)
{
  w64 r = {hi, lo};
  return r;
}

K2S_INLINE int w64_clz(w64 a)
{
  return a.hi ? (int)clz(a.hi) : 32 + (int)clz(a.lo);
}

K2S_INLINE w64 w64_shl(w64 a, int s) /* 0 <= s < 64 */
{
  if (s == 0)
    return a;
  if (s >= 32)
    return w64_make(a.lo << (s - 32), 0u);
  return w64_make((a.hi << s) | (a.lo >> (32 - s)), a.lo << s);
}

/* a >> s with the shifted-out bits ORed into bit 0 */
K2S_INLINE w64 w64_shr_sticky(w64 a, int s)
{
  if (s == 0)
    return a;
  if (s >= 64)
    return w64_make(0u, (a.hi | a.lo) ? 1u : 0u);
  u32 lost;
  w64 r;
  if (s >= 32) {
    int t = s - 32;
    lost = a.lo | (t ? (a.hi & ((1u << t) - 1u)) : 0u);
    r = w64_make(0u, t ? a.hi >> t : a.hi);
  } else {
    lost = a.lo & ((1u << s) - 1u);
    r = w64_make(a.hi >> s, (a.lo >> s) | (a.hi << (32 - s)));
  }
  r.lo |= lost ? 1u : 0u;
  return r;
}

K2S_INLINE bool w64_gt(w64 a, w64 b)
{
  return a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo);
}

K2S_INLINE float fma_round(w64 r, int er, u32 sign)
{
  /* value = r 2^er, r != 0 */
  int lz = w64_clz(r);
  r = w64_shl(r, lz);
  er -= lz; /* MSB at bit 63: value = (r / 2^63) 2^(er + 63) */
  int e = er + 63 + 127; /* biased exponent of the leading bit */
  if (e >= 255)
    return as_float(sign | 0x7f800000u);
  int shift = e > 0 ? 40 : 40 + 1 - e; /* bits below the float's last place, >= 40 */
  u32 m;
  w64 rem, halfway;
  if (shift < 64) {
    int t = shift - 32; /* in [8, 31] */
    m = r.hi >> t;
    rem = w64_make(r.hi & ((1u << t) - 1u), r.lo);
    halfway = w64_make(1u << (t - 1), 0u);
  } else if (shift == 64) {
    m = 0u;
    rem = r;
    halfway = w64_make(0x80000000u, 0u);
  } else {
    return as_float(sign); /* below half the smallest subnormal */
  }
  if (w64_gt(rem, halfway) || (rem.hi == halfway.hi && rem.lo == halfway.lo && (m & 1u)))
    m += 1u;
  u32 bits = (e > 0 ? (u32)(e - 1) << 23 : 0u) + m;
  return as_float(sign | bits);
}

float __k2s_fma_f32(float a, float b, float c)
{
  u32 ua = as_uint(a), ub = as_uint(b), uc = as_uint(c);
  u32 xa = (ua >> 23) & 0xffu, xb = (ub >> 23) & 0xffu, xc = (uc >> 23) & 0xffu;
  if (xa == 0xffu || xb == 0xffu)
    return a * b + c; /* inf or NaN in the product: IEEE arithmetic gives it */
  if (xc == 0xffu)
    return c + c; /* finite product + inf/NaN = c (quieted) */
  if ((ua & 0x7fffffffu) == 0u || (ub & 0x7fffffffu) == 0u)
    return a * b + c; /* the product is an exact signed zero */

  u32 ma = (ua & 0x7fffffu) | (xa ? 0x800000u : 0u);
  u32 mb = (ub & 0x7fffffu) | (xb ? 0x800000u : 0u);
  int ea = (xa ? (int)xa : 1) - 150, eb = (xb ? (int)xb : 1) - 150;
  w64 p = w64_make(mul_hi(ma, mb), ma * mb); /* exact, < 2^48 */
  int ep = ea + eb;
  int lz = w64_clz(p) - 2; /* MSB at bit 61 */
  p = w64_shl(p, lz);
  ep -= lz;
  u32 sp = (ua ^ ub) & 0x80000000u;

  u32 mc = (uc & 0x7fffffu) | (xc ? 0x800000u : 0u);
  if (mc == 0u)
    return fma_round(p, ep, sp); /* exact product plus a zero: keeps its sign */
  w64 q = w64_make(0u, mc);
  int ec = (xc ? (int)xc : 1) - 150;
  lz = w64_clz(q) - 2;
  q = w64_shl(q, lz);
  ec -= lz;
  u32 sc = uc & 0x80000000u;

  if (ec > ep || (ec == ep && w64_gt(q, p))) {
    w64 t = p;
    p = q;
    q = t;
    int te = ep;
    ep = ec;
    ec = te;
    u32 ts = sp;
    sp = sc;
    sc = ts;
  }
  q = w64_shr_sticky(q, ep - ec);
  w64 r;
  if (sp == sc) {
    r.lo = p.lo + q.lo;
    r.hi = p.hi + q.hi + (r.lo < p.lo ? 1u : 0u);
  } else {
    r.lo = p.lo - q.lo;
    r.hi = p.hi - q.hi - (p.lo < q.lo ? 1u : 0u);
  }
  if (r.hi == 0u && r.lo == 0u)
    return 0.0f; /* exact cancellation rounds to +0 */
  return fma_round(r, ep, sp);
}

/* fma for half arguments (given as floats, returned as a float the caller
 * converts to half). Rounding the float fma to half would round twice; here
 * the product of two halves is exact in float (22 bits), the sum is formed
 * exactly by TwoSum and rounded to odd at float precision, which float's 13
 * extra bits make safe to round once more to half (Boldo and Melquiond's
 * round-to-odd). */
float __k2s_fma_f16(float a, float b, float c)
{
  float p = a * b;
  if (is_nan(p) || is_inf(p) || is_inf(c) || is_nan(c))
    return p + c;
  ff s = two_sum(p, c);
  u32 bits = as_uint(s.hi);
  if (s.lo != 0.0f && (bits & 1u) == 0u)
    bits += (s.lo > 0.0f) == (s.hi > 0.0f) ? 1u : 0xffffffffu;
  return s.hi == 0.0f ? p + c : as_float(bits);
}
