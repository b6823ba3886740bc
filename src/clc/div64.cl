/*
 * Correctly rounded double division and square root (OpenCL: 0.5 ulp for
 * double x/y and sqrt; Vulkan promises double arithmetic only to single
 * precision). Both normalise the significands, refine the device's quotient
 * or root by two Newton steps on exact residuals (Dekker's TwoProduct in
 * double: each step gains at least single precision's 23 bits), then decide
 * the final rounding exactly: the candidate c (a multiple of the result's
 * ulp g) is checked against the exact residual, and the side of the midpoint
 * c + g/2 is the sign of an exact residual too (evaluated with TwoSum).
 * Division handles subnormal quotients on the coarser grid (ties to even).
 */

K2S_INLINE double pow2d(int k) /* k in [-1022, 1023] */
{
  return as_double((u64)(k + 1023) << 52);
}

typedef struct dd {
  double hi, lo;
} dd;

K2S_INLINE dd dd_make(double hi, double lo)
{
  dd r = {hi, lo};
  return r;
}

K2S_INLINE dd two_sum_d(double a, double b)
{
  double s = a + b;
  double bb = s - a;
  return dd_make(s, (a - (s - bb)) + (b - bb));
}

K2S_INLINE dd two_prod_d(double a, double b) /* |a|, |b| < 2^995 */
{
  double p = a * b;
  double ca = 134217729.0 * a, cb = 134217729.0 * b; /* 2^27 + 1 */
  double ah = ca - (ca - a), al = a - ah;
  double bh = cb - (cb - b), bl = b - bh;
  return dd_make(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

/* sign of a - b - c for doubles (exact): -1, 0 or 1 */
K2S_INLINE int sign3(double a, double b, double c)
{
  dd s = two_sum_d(a, -b);
  dd u = two_sum_d(s.hi, -c);
  /* rounding is monotonic and keeps 0: the rounded sum has the exact sum's sign
   * (up to the rounding of the two small tails, far below the grids compared) */
  double v = u.hi + (u.lo + s.lo);
  return v > 0.0 ? 1 : v < 0.0 ? -1 : 0;
}

/* sign of mx - c*my - h, exact (c*my close to mx, so mx - p is exact) */
K2S_INLINE int div_residual_sign(double mx, double my, double c, double h)
{
  dd p = two_prod_d(c, my);
  double a = mx - p.hi; /* exact (Sterbenz) */
  return sign3(a, p.lo, h);
}

/* x = m 2^e with m in [1, 2), for finite nonzero x */
K2S_INLINE double split_exp(double x, int *e)
{
  u64 u = as_ulong(x) & 0x7ffffffffffffffful;
  int ex = (int)(u >> 52);
  if (ex == 0) { /* subnormal: normalise the integer significand */
    int lz = (int)clz(u) - 11;
    u <<= lz;
    *e = -1022 - lz;
    return as_double((u & 0xffffffffffffful) | 0x3ff0000000000000ul);
  }
  *e = ex - 1023;
  return as_double((u & 0xffffffffffffful) | 0x3ff0000000000000ul);
}

/* y 2^k for a y that is exactly representable at the result (no rounding) */
K2S_INLINE double scale_exact(double y, int k)
{
  if (k > 1000) {
    y *= pow2d(1000);
    k -= 1000;
  } else if (k < -1000) {
    y *= pow2d(-1000);
    k += 1000;
  }
  if (k > 1023) { /* only to overflow into infinity */
    y *= pow2d(1023);
    k -= 1023;
  }
  return y * pow2d(max(k, -1022));
}

double __k2s_div_f64(double x, double y)
{
  u64 ux = as_ulong(x), uy = as_ulong(y);
  u64 ax = ux & 0x7ffffffffffffffful, ay = uy & 0x7ffffffffffffffful;
  if (ax >= 0x7ff0000000000000ul || ay >= 0x7ff0000000000000ul || ax == 0ul || ay == 0ul)
    return x / y; /* NaN, infinities and zeros: exact IEEE results */
  u64 sign = (ux ^ uy) & 0x8000000000000000ul;
  int ex, ey;
  double mx = split_exp(x, &ex), my = split_exp(y, &ey);
  int k = ex - ey; /* x/y = (mx/my) 2^k, mx/my in (1/2, 2) */
  if (k < -1080)
    return as_double(sign); /* below half the smallest subnormal */
  if (k > 1025)
    return as_double(sign | 0x7ff0000000000000ul);
  double q = mx / my;
  dd p = two_prod_d(q, my);
  q += ((mx - p.hi) - p.lo) / my;
  p = two_prod_d(q, my);
  q += ((mx - p.hi) - p.lo) / my;
  /* the result's ulp in units of mx/my: 2^-52 or 2^-53, coarser for subnormal results */
  double g = q >= 1.0 ? 0x1p-52 : 0x1p-53;
  if (k < -1021)
    g = fmax(g, pow2d(max(-1074 - k, -1022)));
  double c = trunc(q / g) * g;
  if (div_residual_sign(mx, my, c, 0.0) < 0)
    c -= g;
  if (div_residual_sign(mx, my, c + g, 0.0) >= 0)
    c += g;
  if (c >= 1.0 && g == 0x1p-53) { /* crossed into the upper binade: its grid is coarser */
    g = 0x1p-52;
    c = trunc(c / g) * g;
  }
  int s = div_residual_sign(mx, my, c, 0.5 * g * my);
  if (s > 0 || (s == 0 && fmod(c / g, 2.0) != 0.0))
    c += g;
  return as_double(as_ulong(scale_exact(c, k)) | sign);
}

double __k2s_sqrt_f64(double x)
{
  u64 ux = as_ulong(x);
  if (x == 0.0 || (ux >> 52) >= 0x7ffu) /* zeros, +inf, NaN, and negative (sign bit set) */
    return x == 0.0 || (ux >> 63) == 0ul ? x + x : as_double(0x7ff8000000000000ul);
  int e;
  double m = split_exp(x, &e);
  if (e & 1) { /* x = m 2^e with e even and m in [1, 4) */
    m *= 2.0;
    e -= 1;
  }
  double s = sqrt(m); /* in [1, 2): the result's ulp is 2^-52 */
  dd p = two_prod_d(s, s);
  s += ((m - p.hi) - p.lo) * (0.5 / s);
  p = two_prod_d(s, s);
  s += ((m - p.hi) - p.lo) * (0.5 / s);
  const double g = 0x1p-52;
  double c = trunc(s / g) * g;
  p = two_prod_d(c, c);
  if (sign3(m - p.hi, p.lo, 0.0) < 0) { /* c^2 > m */
    c -= g;
    p = two_prod_d(c, c);
  }
  /* m - (c + g/2)^2 = (m - c^2) - c g - g^2/4; never zero (a 54-bit square is not m) */
  double a = m - p.hi; /* exact */
  dd t = two_sum_d(a, -p.lo);
  dd u = two_sum_d(t.hi, -(c * g)); /* c g is exact */
  double v = u.hi + ((u.lo + t.lo) - 0.25 * g * g);
  if (v > 0.0)
    c += g;
  return c * pow2d(e / 2);
}
