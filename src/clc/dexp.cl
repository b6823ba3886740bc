/*
 * Double exp, exp2, exp10, expm1, log, log2, log10, log1p, pow, powr, pown,
 * rootn, cbrt, sinh, cosh, tanh: the float methods of exp.cl, log.cl and
 * hyp.cl carried to double with double-double (dd) arithmetic (Dekker and
 * Knuth, as in div64.cl): Cody-Waite reduction with a 32-bit ln2 head (k has
 * at most 11 bits, so k ln2_hi is exact), Taylor polynomials of degree 13
 * for exp (truncation < 2^-57), the atanh series to z^11 for log1p (|s| <=
 * 0.172), and y log2|x| in dd for the powers. Bounds as for float (3, 2, 16,
 * 4, 5 ulp). Only linked into kernels that use double.
 */

K2S_INLINE dd fast_two_sum_d(double a, double b)
{
  double s = a + b;
  return dd_make(s, b - (s - a));
}

K2S_INLINE dd dd_add(dd a, dd b)
{
  dd s = two_sum_d(a.hi, b.hi);
  dd t = two_sum_d(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum_d(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum_d(s.hi, s.lo);
}

K2S_INLINE dd dd_add_d(dd a, double b)
{
  dd s = two_sum_d(a.hi, b);
  s.lo += a.lo;
  return fast_two_sum_d(s.hi, s.lo);
}

K2S_INLINE dd dd_mul(dd a, dd b)
{
  dd p = two_prod_d(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum_d(p.hi, p.lo);
}

K2S_INLINE dd dd_mul_d(dd a, double b)
{
  dd p = two_prod_d(a.hi, b);
  p.lo += a.lo * b;
  return fast_two_sum_d(p.hi, p.lo);
}

K2S_INLINE dd dd_neg(dd a)
{
  return dd_make(-a.hi, -a.lo);
}

K2S_INLINE bool is_nan_d(double x)
{
  return (as_ulong(x) & 0x7ffffffffffffffful) > 0x7ff0000000000000ul;
}

K2S_INLINE bool is_inf_d(double x)
{
  return (as_ulong(x) & 0x7ffffffffffffffful) == 0x7ff0000000000000ul;
}

K2S_INLINE bool sign_of_d(double x)
{
  return (as_ulong(x) >> 63) != 0ul;
}

#define D_INF as_double(0x7ff0000000000000ul)
#define D_NAN as_double(0x7ff8000000000000ul)
#define D_LN2_HI 0x1.62e42ff000000p-1 /* 32 significant bits */
#define D_LN2_LO -4.2009150726810846e-11
#define D_LN2 dd_make(0.6931471805599453, 2.3190468138462996e-17)
#define D_LOG2E dd_make(1.4426950408889634, 2.0355273740931033e-17)
#define D_LOG10E dd_make(0.4342944819032518, 1.098319650216765e-17)
#define D_LN10 dd_make(2.302585092994046, -2.1707562233822494e-16)

/* exp(r) - 1 for |r| <= 0.35 (Taylor to r^13) */
K2S_INLINE double expm1_poly_d(double r)
{
  double p = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  return r + (r * r) * p;
}

/* x 2^k with one rounding, |x| in [2^-10, 2^10], |k| <= 2100 */
K2S_INLINE double scale2_d(double x, int k)
{
  if (k > 1000) {
    x *= pow2d(1000);
    k -= 1000;
  } else if (k < -1000) {
    x *= pow2d(-1000);
    k += 1000;
  }
  if (k > 1000) {
    x *= pow2d(1000);
    k -= 1000;
  } else if (k < -1000) {
    x *= pow2d(-1000);
    k += 1000;
  }
  return x * pow2d(clamp(k, -1022, 1023));
}

/* exp(r.hi + r.lo) = v 2^0 as a dd, |r.hi| <= 0.35 */
K2S_INLINE dd exp_reduced_d(dd r)
{
  double e = expm1_poly_d(r.hi);
  return fast_two_sum_d(1.0, e + r.lo * (1.0 + e));
}

/* exp(t) = v 2^k for a dd t with |t.hi| < 746 */
K2S_INLINE dd exp_parts_d(dd t, int *k)
{
  double kf = rint(t.hi * 1.4426950408889634);
  dd r = two_sum_d(t.hi - kf * D_LN2_HI, -(kf * D_LN2_LO)); /* first difference exact */
  r = dd_add_d(r, t.lo);
  *k = (int)kf;
  return exp_reduced_d(r);
}

double __k2s_exp_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (x > 709.79)
    return D_INF;
  if (x < -745.2)
    return 0.0;
  int k;
  dd v = exp_parts_d(dd_make(x, 0.0), &k);
  return scale2_d(v.hi + v.lo, k);
}

/* 2^(t.hi + t.lo) */
K2S_INLINE double exp2_dd(dd t)
{
  if (t.hi > 1024.0 || (t.hi == 1024.0 && t.lo >= 0.0))
    return D_INF;
  if (t.hi < -1076.0)
    return 0.0;
  double kf = rint(t.hi);
  dd f = fast_two_sum_d(t.hi - kf, t.lo);
  dd r = dd_mul(f, D_LN2);
  dd v = exp_reduced_d(r);
  return scale2_d(v.hi + v.lo, (int)kf);
}

double __k2s_exp2_f64(double x)
{
  if (is_nan_d(x))
    return x;
  return exp2_dd(dd_make(x, 0.0));
}

double __k2s_exp10_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (x > 308.3)
    return D_INF;
  if (x < -324.0)
    return 0.0;
  double kf = rint(x * 3.321928094887362);
  /* x - k log10(2), log10(2) in a 32-bit head and a tail */
  dd f = two_sum_d(x - kf * 0.30102999566588551, -(kf * -1.9043128467164274e-12));
  dd r = dd_mul(f, D_LN10);
  dd v = exp_reduced_d(r);
  return scale2_d(v.hi + v.lo, (int)kf);
}

/* expm1 as a dd for -40 <= x <= 700 */
K2S_INLINE dd expm1_dd(double x)
{
  if (fabs(x) <= 0.34)
    return dd_make(expm1_poly_d(x), 0.0);
  int k;
  dd v = exp_parts_d(dd_make(x, 0.0), &k);
  if (k > 100)
    return dd_make(scale2_d(v.hi + v.lo, k), 0.0);
  dd s = dd_mul_d(v, pow2d(k));
  return dd_add_d(s, -1.0);
}

double __k2s_expm1_f64(double x)
{
  if (is_nan_d(x) || x == 0.0)
    return x;
  if (x > 709.79)
    return D_INF;
  if (x < -38.0)
    return -1.0;
  dd r = expm1_dd(x);
  return r.hi + r.lo;
}

/* ---- logarithms ---------------------------------------------------------- */

/* log1p(f) for f in [-0.2929, 0.4143] as a dd */
K2S_INLINE dd log1p_core_d(double f)
{
  dd d = fast_two_sum_d(2.0, f);
  double sh = f / d.hi;
  dd p = two_prod_d(sh, d.hi);
  double res = ((f - p.hi) - p.lo) - sh * d.lo;
  double sl = res / d.hi;
  /* a second correction: the device's double division may be single-precision */
  dd s = fast_two_sum_d(sh, sl);
  p = two_prod_d(s.hi, d.hi);
  res = ((f - p.hi) - p.lo) - s.hi * d.lo;
  s = fast_two_sum_d(s.hi, res / d.hi);
  double z = s.hi * s.hi;
  double r = 2.0 / 25.0;
  r = r * z + 2.0 / 23.0;
  r = r * z + 2.0 / 21.0;
  r = r * z + 2.0 / 19.0;
  r = r * z + 2.0 / 17.0;
  r = r * z + 2.0 / 15.0;
  r = r * z + 2.0 / 13.0;
  r = r * z + 2.0 / 11.0;
  r = r * z + 2.0 / 9.0;
  r = r * z + 2.0 / 7.0;
  r = r * z + 2.0 / 5.0;
  /* 2s + s z (2/3 + z r): the 2/3 term carried in dd, the rest in double */
  dd sz = dd_mul_d(s, z);
  dd t = dd_mul(sz, dd_make(0.6666666666666666, 3.700743415417188e-17));
  t = dd_add_d(t, s.hi * z * z * r);
  return dd_add(dd_make(2.0 * s.hi, 2.0 * s.lo), t);
}

/* natural log of a finite x > 0 as a dd */
K2S_INLINE dd log_dd(double x)
{
  int e;
  double m = split_exp(x, &e); /* [1, 2) */
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  dd l = log1p_core_d(m - 1.0);
  if (e == 0)
    return l;
  double fe = (double)e;
  dd el = fast_two_sum_d(fe * D_LN2_HI, fe * D_LN2_LO);
  return dd_add(el, l);
}

K2S_INLINE bool log_special_d(double x, double *r)
{
  if (is_nan_d(x)) {
    *r = x;
    return true;
  }
  if (x < 0.0) {
    *r = D_NAN;
    return true;
  }
  if (x == 0.0) {
    *r = -D_INF;
    return true;
  }
  if (is_inf_d(x)) {
    *r = x;
    return true;
  }
  return false;
}

double __k2s_log_f64(double x)
{
  double r;
  if (log_special_d(x, &r))
    return r;
  dd l = log_dd(x);
  return l.hi + l.lo;
}

double __k2s_log2_f64(double x)
{
  double r;
  if (log_special_d(x, &r))
    return r;
  dd l = dd_mul(log_dd(x), D_LOG2E);
  return l.hi + l.lo;
}

double __k2s_log10_f64(double x)
{
  double r;
  if (log_special_d(x, &r))
    return r;
  dd l = dd_mul(log_dd(x), D_LOG10E);
  return l.hi + l.lo;
}

K2S_INLINE dd log1p_dd(double x)
{
  if (x >= -0.2929 && x <= 0.4142)
    return log1p_core_d(x);
  dd u = two_sum_d(1.0, x);
  if (fabs(u.hi) > 1e300)
    u.lo = 0.0;
  dd l = log_dd(u.hi);
  return dd_add_d(l, u.lo / u.hi);
}

double __k2s_log1p_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (x < -1.0)
    return D_NAN;
  if (x == -1.0)
    return -D_INF;
  if (is_inf_d(x) || x == 0.0)
    return x;
  dd l = log1p_dd(x);
  return l.hi + l.lo;
}

/* ---- powers -------------------------------------------------------------- */

K2S_INLINE double pow_core_d(double ax, dd y)
{
  dd l2 = dd_mul(log_dd(ax), D_LOG2E);
  if (fabs(y.hi) > 1e300)
    return l2.hi * y.hi > 0.0 ? D_INF : 0.0;
  return exp2_dd(dd_mul(l2, y));
}

K2S_INLINE bool is_int_d(double y)
{
  return y == trunc(y);
}

K2S_INLINE bool is_odd_d(double y)
{
  return fabs(y) < 9007199254740992.0 && is_int_d(y) && (((long)y) & 1l);
}

double __k2s_pow_f64(double x, double y)
{
  if (y == 0.0 || x == 1.0)
    return 1.0;
  if (is_nan_d(x) || is_nan_d(y))
    return x + y;
  double ax = fabs(x);
  bool odd = is_odd_d(y);
  if (is_inf_d(y)) {
    if (ax == 1.0)
      return 1.0;
    return (ax < 1.0) == (y < 0.0) ? D_INF : 0.0;
  }
  if (x == 0.0 || is_inf_d(x)) {
    bool big = (x == 0.0) == (y < 0.0);
    double r = big ? D_INF : 0.0;
    return odd ? copysign(r, x) : r;
  }
  if (x < 0.0 && !is_int_d(y))
    return D_NAN;
  if (ax == 1.0)
    return odd ? -1.0 : 1.0;
  double r = pow_core_d(ax, dd_make(y, 0.0));
  return x < 0.0 && odd ? -r : r;
}

double __k2s_powr_f64(double x, double y)
{
  if (is_nan_d(x) || is_nan_d(y) || x < 0.0)
    return D_NAN;
  if (x == 0.0) {
    if (y == 0.0)
      return D_NAN;
    return y < 0.0 ? D_INF : 0.0;
  }
  if (is_inf_d(x)) {
    if (y == 0.0)
      return D_NAN;
    return y < 0.0 ? 0.0 : D_INF;
  }
  if (x == 1.0)
    return is_inf_d(y) ? D_NAN : 1.0;
  if (y == 0.0)
    return 1.0;
  if (is_inf_d(y))
    return (x < 1.0) == (y < 0.0) ? D_INF : 0.0;
  return pow_core_d(x, dd_make(y, 0.0));
}

double __k2s_pown_f64(double x, int n)
{
  if (n == 0)
    return 1.0;
  if (is_nan_d(x))
    return x;
  bool odd = (n & 1) != 0;
  if (x == 0.0 || is_inf_d(x)) {
    bool big = (x == 0.0) == (n < 0);
    double r = big ? D_INF : 0.0;
    return odd ? copysign(r, x) : r;
  }
  double r = pow_core_d(fabs(x), dd_make((double)n, 0.0)); /* every int is a double */
  return x < 0.0 && odd ? -r : r;
}

double __k2s_rootn_f64(double x, int n)
{
  if (n == 0 || is_nan_d(x))
    return D_NAN;
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd)
    return D_NAN;
  if (x == 0.0) {
    double r = n < 0 ? D_INF : 0.0;
    return odd ? copysign(r, x) : r;
  }
  if (is_inf_d(x)) {
    double r = n < 0 ? 0.0 : D_INF;
    return odd ? copysign(r, x) : r;
  }
  double fn = (double)n;
  double q = 1.0 / fn;
  dd p = two_prod_d(q, fn);
  q += ((1.0 - p.hi) - p.lo) / fn; /* the device's division may be single-precision */
  p = two_prod_d(q, fn);
  double ql = ((1.0 - p.hi) - p.lo) / fn;
  double r = pow_core_d(fabs(x), dd_make(q, ql));
  return x < 0.0 ? -r : r;
}

double __k2s_cbrt_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x) || x == 0.0)
    return x;
  double r = pow_core_d(fabs(x), dd_make(0.3333333333333333, 1.850371707708594e-17));
  return copysign(r, x);
}

/* ---- hyperbolic ------------------------------------------------------------ */

K2S_INLINE double sinh_small_d(double x) /* |x| < 1: Taylor to x^21 */
{
  double z = x * x;
  double p = 1.0 / 51090942171709440000.0;
  p = p * z + 1.0 / 121645100408832000.0;
  p = p * z + 1.0 / 355687428096000.0;
  p = p * z + 1.0 / 1307674368000.0;
  p = p * z + 1.0 / 6227020800.0;
  p = p * z + 1.0 / 39916800.0;
  p = p * z + 1.0 / 362880.0;
  p = p * z + 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z + 1.0 / 6.0;
  return x + x * (z * p);
}

/* (E + sign/E)/2 with E = exp(ax) as a dd, 0.5 <= ax < 40 */
K2S_INLINE double sinh_cosh_mid_d(double ax, double sign)
{
  int k;
  dd v = exp_parts_d(dd_make(ax, 0.0), &k);
  dd e = dd_mul_d(v, pow2d(k));
  double q = 1.0 / e.hi;
  dd p = two_prod_d(q, e.hi);
  q += ((1.0 - p.hi) - p.lo) / e.hi;
  p = two_prod_d(q, e.hi);
  double ql = (((1.0 - p.hi) - p.lo) - q * e.lo) / e.hi;
  dd s = dd_add(e, dd_make(sign * q, sign * ql));
  return 0.5 * (s.hi + s.lo);
}

double __k2s_sinh_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x) || x == 0.0)
    return x;
  double ax = fabs(x), r;
  if (ax < 0.5)
    r = sinh_small_d(ax);
  else if (ax < 40.0)
    r = sinh_cosh_mid_d(ax, -1.0);
  else if (ax > 711.0)
    r = D_INF;
  else {
    int k;
    dd v = exp_parts_d(dd_make(ax, 0.0), &k);
    r = scale2_d(v.hi + v.lo, k - 1);
  }
  return sign_of_d(x) ? -r : r;
}

double __k2s_cosh_f64(double x)
{
  if (is_nan_d(x))
    return x;
  double ax = fabs(x);
  if (is_inf_d(x))
    return ax;
  if (ax < 40.0)
    return ax < 2.9802322387695312e-8 ? 1.0 : sinh_cosh_mid_d(ax, 1.0);
  if (ax > 711.0)
    return D_INF;
  int k;
  dd v = exp_parts_d(dd_make(ax, 0.0), &k);
  return scale2_d(v.hi + v.lo, k - 1);
}

double __k2s_tanh_f64(double x)
{
  if (is_nan_d(x) || x == 0.0)
    return x;
  double ax = fabs(x);
  if (ax < 1e-9)
    return x;
  if (ax > 22.0)
    return sign_of_d(x) ? -1.0 : 1.0;
  dd e = expm1_dd(2.0 * ax);
  dd den = dd_add_d(e, 2.0);
  double q = e.hi / den.hi;
  dd p = dd_mul_d(den, q);
  q += (((e.hi - p.hi) - p.lo) + e.lo) / den.hi;
  p = dd_mul_d(den, q);
  double ql = (((e.hi - p.hi) - p.lo) + e.lo) / den.hi;
  double r = q + ql;
  return sign_of_d(x) ? -r : r;
}
