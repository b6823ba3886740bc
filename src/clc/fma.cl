/*
 * fma(a, b, c) for float, correctly rounded (OpenCL: 0 ulp), without relying
 * on a fused device instruction (Vulkan's Fma may round twice; lavapipe's does).
 *
 * Method: the 24x24-bit significand product is exact in 48 bits of a ulong;
 * both addends are normalised to a 62-bit fixed point, the smaller is shifted
 * right with the shifted-out bits jammed into a sticky bit, added or
 * subtracted exactly, and the sum is rounded once to nearest-even, with
 * subnormal results and overflow handled in the same integer rounding.
 */

K2S_INLINE float fma_round(u64 r, int er, u32 sign)
{
  /* value = r * 2^er, r != 0 */
  int lz = clz(r);
  r <<= lz;
  er -= lz; /* MSB at bit 63: value = (r / 2^63) * 2^(er + 63) */
  int e = er + 63 + 127; /* biased exponent of the leading bit */
  if (e >= 255)
    return as_float(sign | 0x7f800000u);
  int shift = e > 0 ? 40 : 40 + 1 - e; /* bits below the float's last place */
  u64 m, rem, halfway;
  if (shift < 64) {
    m = r >> shift;
    rem = r & ((1ul << shift) - 1ul);
    halfway = 1ul << (shift - 1);
  } else if (shift == 64) {
    m = 0;
    rem = r;
    halfway = 1ul << 63;
  } else {
    return as_float(sign); /* below halfway the smallest subnormal */
  }
  if (rem > halfway || (rem == halfway && (m & 1ul)))
    m += 1ul;
  u32 bits = (e > 0 ? (u32)(e - 1) << 23 : 0u) + (u32)m;
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

  u64 ma = (ua & 0x7fffffu) | (xa ? 0x800000u : 0u);
  u64 mb = (ub & 0x7fffffu) | (xb ? 0x800000u : 0u);
  int ea = (xa ? (int)xa : 1) - 150, eb = (xb ? (int)xb : 1) - 150;
  u64 p = ma * mb; /* exact, < 2^48 */
  int ep = ea + eb;
  int lz = clz(p) - 2; /* MSB at bit 61 */
  p <<= lz;
  ep -= lz;
  u32 sp = (ua ^ ub) & 0x80000000u;

  u64 q = (uc & 0x7fffffu) | (xc ? 0x800000u : 0u);
  if (q == 0ul)
    return fma_round(p, ep, sp); /* exact product plus a zero: keeps its sign */
  int ec = (xc ? (int)xc : 1) - 150;
  lz = clz(q) - 2;
  q <<= lz;
  ec -= lz;
  u32 sc = uc & 0x80000000u;

  if (ec > ep || (ec == ep && q > p)) {
    u64 t = p;
    p = q;
    q = t;
    int te = ep;
    ep = ec;
    ec = te;
    u32 ts = sp;
    sp = sc;
    sc = ts;
  }
  int d = ep - ec;
  if (d >= 64) {
    q = 1ul; /* only its sticky bit matters */
  } else if (d > 0) {
    u64 lost = q & ((1ul << d) - 1ul);
    q = (q >> d) | (lost != 0ul ? 1ul : 0ul);
  }
  u64 r = sp == sc ? p + q : p - q;
  if (r == 0ul)
    return 0.0f; /* exact cancellation rounds to +0 */
  return fma_round(r, ep, sp);
}
