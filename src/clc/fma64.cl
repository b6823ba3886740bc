/*
 * fma(a, b, c) for double, correctly rounded, by the same method as fma.cl
 * with 128-bit integers built from two ulongs: the 53x53-bit significand
 * product is exact in 106 bits, both addends are normalised to a fixed point
 * with the leading bit at 125, the smaller one is shifted right with a
 * sticky bit, and the exact sum is rounded once (subnormals and overflow
 * included). Only compiled into k2s's library for kernels that use double.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct u128 {
  u64 hi, lo;
} u128;

K2S_INLINE u128 u128_make(u64 hi, u64 lo)
{
  u128 r = {hi, lo};
  return r;
}

/* a * b exactly, from 32-bit halves */
K2S_INLINE u128 mul_64x64(u64 a, u64 b)
{
  u64 a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  u64 lo = (p00 & 0xffffffffu) | (mid << 32);
  u64 hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  return u128_make(hi, lo);
}

K2S_INLINE int clz128(u128 a)
{
  return a.hi ? (int)clz(a.hi) : 64 + (int)clz(a.lo);
}

K2S_INLINE u128 shl128(u128 a, int s) /* 0 <= s < 128 */
{
  if (s == 0)
    return a;
  if (s >= 64)
    return u128_make(a.lo << (s - 64), 0ul);
  return u128_make((a.hi << s) | (a.lo >> (64 - s)), a.lo << s);
}

/* a >> s with the shifted-out bits ORed into bit 0 */
K2S_INLINE u128 shr128_sticky(u128 a, int s)
{
  if (s == 0)
    return a;
  if (s >= 128)
    return u128_make(0ul, (a.hi | a.lo) ? 1ul : 0ul);
  u64 lost;
  u128 r;
  if (s >= 64) {
    int t = s - 64;
    lost = a.lo | (t ? (a.hi & ((1ul << t) - 1ul)) : 0ul);
    r = u128_make(0ul, t ? a.hi >> t : a.hi);
  } else {
    lost = a.lo & ((1ul << s) - 1ul);
    r = u128_make(a.hi >> s, (a.lo >> s) | (a.hi << (64 - s)));
  }
  r.lo |= lost ? 1ul : 0ul;
  return r;
}

K2S_INLINE double fma64_round(u128 r, int er, u64 sign)
{
  /* value = r 2^er, r != 0 */
  int lz = clz128(r);
  r = shl128(r, lz);
  er -= lz; /* MSB at bit 127: value = (r / 2^127) 2^(er + 127) */
  int e = er + 127 + 1023;
  if (e >= 2047)
    return as_double(sign | 0x7ff0000000000000ul);
  u64 top = r.hi;
  bool sticky = r.lo != 0ul;
  int shift = 11; /* bits of top below the double's last place */
  if (e <= 0) {
    shift = 11 + 1 - e;
    if (shift > 64)
      return as_double(sign); /* below half the smallest subnormal */
  }
  u64 m, rem, halfway;
  if (shift < 64) {
    m = top >> shift;
    rem = top & ((1ul << shift) - 1ul);
    halfway = 1ul << (shift - 1);
  } else {
    m = 0ul;
    rem = top;
    halfway = 1ul << 63;
  }
  if (rem > halfway || (rem == halfway && (sticky || (m & 1ul))))
    m += 1ul;
  u64 bits = (e > 0 ? (u64)(e - 1) << 52 : 0ul) + m;
  return as_double(sign | bits);
}

double __k2s_fma_f64(double a, double b, double c)
{
  u64 ua = as_ulong(a), ub = as_ulong(b), uc = as_ulong(c);
  u64 xa = (ua >> 52) & 0x7fful, xb = (ub >> 52) & 0x7fful, xc = (uc >> 52) & 0x7fful;
  if (xa == 0x7fful || xb == 0x7fful)
    return a * b + c; /* inf or NaN in the product */
  if (xc == 0x7fful)
    return c + c; /* finite product + inf/NaN */
  if ((ua << 1) == 0ul || (ub << 1) == 0ul)
    return a * b + c; /* the product is an exact signed zero */
  const u64 frac = 0xffffffffffffful, hidden = 0x10000000000000ul;
  u64 ma = (ua & frac) | (xa ? hidden : 0ul), mb = (ub & frac) | (xb ? hidden : 0ul);
  int ea = (xa ? (int)xa : 1) - 1075, eb = (xb ? (int)xb : 1) - 1075;
  u128 p = mul_64x64(ma, mb); /* < 2^106 */
  int ep = ea + eb;
  int lz = clz128(p) - 2; /* MSB at bit 125 */
  p = shl128(p, lz);
  ep -= lz;
  u64 sp = (ua ^ ub) & 0x8000000000000000ul;
  u64 mc = (uc & frac) | (xc ? hidden : 0ul);
  if (mc == 0ul)
    return fma64_round(p, ep, sp);
  u128 q = u128_make(0ul, mc);
  int ec = (xc ? (int)xc : 1) - 1075;
  lz = clz128(q) - 2;
  q = shl128(q, lz);
  ec -= lz;
  u64 sc = uc & 0x8000000000000000ul;
  if (ec > ep || (ec == ep && (q.hi > p.hi || (q.hi == p.hi && q.lo > p.lo)))) {
    u128 t = p;
    p = q;
    q = t;
    int te = ep;
    ep = ec;
    ec = te;
    u64 ts = sp;
    sp = sc;
    sc = ts;
  }
  q = shr128_sticky(q, ep - ec);
  u128 r;
  if (sp == sc) {
    r.lo = p.lo + q.lo;
    r.hi = p.hi + q.hi + (r.lo < p.lo ? 1ul : 0ul);
  } else {
    r.lo = p.lo - q.lo;
    r.hi = p.hi - q.hi - (p.lo < q.lo ? 1ul : 0ul);
  }
  if (r.hi == 0ul && r.lo == 0ul)
    return 0.0;
  return fma64_round(r, ep, sp);
}
