/*
 * Double tgamma, lgamma, lgamma_r: the method of gamma.cl in double-double
 * (Stirling's series for x >= 12 to the 1/x^15 term, truncation < 4e-20;
 * the recurrence with the rising product in double-double; reflection for
 * x < 0; Taylor series to e^20 around the zeros 1 and 2, |e| <= 1/8).
 * OpenCL bound: tgamma 16 ulp; lgamma none.
 */

#define D_HALF_LOG_2PI dd_make(0.9189385332046728, -3.8782941580672414e-17)
#define D_LOG_PI dd_make(1.1447298858494002, 1.0265951162707826e-17)

K2S_INLINE dd lgamma_stirling_d(double x) /* x >= 12 */
{
  dd xm = two_sum_d(x, -0.5);
  dd a = dd_mul(xm, log_dd(x));
  a = dd_add_d(a, -x);
  a = dd_add(a, D_HALF_LOG_2PI);
  dd d = two_prod_d(12.0, x); /* 1/(12x) as a dd */
  double q = 1.0 / d.hi;
  dd qp = two_prod_d(q, d.hi);
  q += (((1.0 - qp.hi) - qp.lo) - q * d.lo) / d.hi;
  qp = two_prod_d(q, d.hi);
  double ql = (((1.0 - qp.hi) - qp.lo) - q * d.lo) / d.hi;
  double t = 1.0 / x, z = t * t;
  double s = -0.029550653594771242;
  s = s * z + 0.00641025641025641;
  s = s * z - 0.0019175269175269176;
  s = s * z + 0.0008417508417508417;
  s = s * z - 0.0005952380952380953;
  s = s * z + 0.0007936507936507937;
  s = s * z - 0.002777777777777778;
  return dd_add(a, fast_two_sum_d(q, ql + t * z * s));
}

K2S_INLINE double lgamma_near1_d(double e)
{
  double p = 0.05000004769810169;
  p = p * e - 0.05263167937961666;
  p = p * e + 0.055555767627403614;
  p = p * e - 0.058823978658684585;
  p = p * e + 0.06250095514121304;
  p = p * e - 0.06666870588242046;
  p = p * e + 0.07143294629536133;
  p = p * e - 0.0769325164113522;
  p = p * e + 0.083353840546109;
  p = p * e - 0.09095401714582904;
  p = p * e + 0.1000994575127818;
  p = p * e - 0.11133426586956469;
  p = p * e + 0.12550966952474304;
  p = p * e - 0.1440498967688461;
  p = p * e + 0.1695571769974082;
  p = p * e - 0.20738555102867398;
  p = p * e + 0.27058080842778454;
  p = p * e - 0.40068563438653143;
  p = p * e + 0.8224670334241132;
  return e * (-0.5772156649015329 + e * p);
}

K2S_INLINE double lgamma_near2_d(double e)
{
  double p = 4.7698101693639804e-08;
  p = p * e - 1.0043224823968099e-07;
  p = p * e + 2.1207184805554665e-07;
  p = p * e - 4.492469198764566e-07;
  p = p * e + 9.55141213040742e-07;
  p = p * e - 2.039215753801366e-06;
  p = p * e + 4.374866789907488e-06;
  p = p * e - 9.439488275268397e-06;
  p = p * e + 2.050721277567069e-05;
  p = p * e - 4.492623673813314e-05;
  p = p * e + 9.945751278180853e-05;
  p = p * e - 0.00022315475845357939;
  p = p * e + 0.0005096695247430425;
  p = p * e - 0.001192753911703261;
  p = p * e + 0.0028905103307415234;
  p = p * e - 0.007385551028673986;
  p = p * e + 0.020580808427784546;
  p = p * e - 0.0673523010531981;
  p = p * e + 0.3224670334241132;
  return e * (0.42278433509846713 + e * p);
}

K2S_INLINE dd rising_factor_d(dd p, double x, double i)
{
  return x + i < 12.0 ? dd_mul(p, two_sum_d(x, i)) : p;
}

/* x (x+1) ... (x+n-1), n = ceil(12 - x), for 0 < x < 12; *n_out = n */
K2S_INLINE dd rising_product_d(double x, double *n_out)
{
  dd p = dd_make(x, 0.0);
  p = rising_factor_d(p, x, 1.0);
  p = rising_factor_d(p, x, 2.0);
  p = rising_factor_d(p, x, 3.0);
  p = rising_factor_d(p, x, 4.0);
  p = rising_factor_d(p, x, 5.0);
  p = rising_factor_d(p, x, 6.0);
  p = rising_factor_d(p, x, 7.0);
  p = rising_factor_d(p, x, 8.0);
  p = rising_factor_d(p, x, 9.0);
  p = rising_factor_d(p, x, 10.0);
  p = rising_factor_d(p, x, 11.0);
  *n_out = ceil(12.0 - x);
  return p;
}

/* log Gamma(x + n) for the recurrence, x + n as an exact dd */
K2S_INLINE dd lgamma_shifted_d(double x, double n)
{
  dd yy = two_sum_d(x, n);
  dd a = lgamma_stirling_d(yy.hi);
  return dd_add_d(a, yy.lo * (log_dd(yy.hi).hi - 0.5 / yy.hi));
}

/* Gamma(x) = v 2^k for 0 < x < 171.7 */
K2S_INLINE dd gamma_pos_d(double x, int *k)
{
  if (x >= 12.0)
    return exp_parts_d(lgamma_stirling_d(x), k);
  double n;
  dd p = rising_product_d(x, &n);
  dd v = exp_parts_d(lgamma_shifted_d(x, n), k);
  int j = (int)((as_ulong(p.hi) >> 52) & 0x7fful) - 1023;
  double sc = pow2d(-j);
  dd ps = dd_make(p.hi * sc, p.lo * sc);
  dd q = div_dd(v.hi, ps.hi);
  q = dd_add_d(q, (v.lo - q.hi * ps.lo) / ps.hi);
  *k -= j;
  return q;
}

double __k2s_tgamma_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (x == 0.0)
    return with_sign_d(D_INF, x);
  if (is_inf_d(x))
    return x > 0.0 ? x : D_NAN;
  if (x > 171.62437695630272)
    return D_INF;
  if (fabs(x) < 1e-300)
    return 1.0 / x;
  if (fabs(x) < 5.551115123125783e-17) { /* 2^-54: 1/x - euler */
    dd r = dd_add_d(div_dd(1.0, x), -0.5772156649015329);
    return r.hi + r.lo;
  }
  if (x > 0.0) {
    int k;
    dd v = gamma_pos_d(x, &k);
    return scale2_d(v.hi + v.lo, k);
  }
  if (x == trunc(x))
    return D_NAN;
  double sp = __k2s_sinpi_f64(x);
  if (x < -190.0)
    return with_sign_d(0.0, sp);
  int k;
  dd g = gamma_pos_d(-x, &k);
  dd d = dd_mul_d(dd_mul_d(g, -x), sp);
  int j = (int)((as_ulong(d.hi) >> 52) & 0x7fful) - 1023;
  double sc = pow2d(-j);
  dd ds = dd_make(d.hi * sc, d.lo * sc);
  dd q = div_dd(D_PI.hi, ds.hi);
  q = dd_add_d(q, (D_PI.lo - q.hi * ds.lo) / ds.hi);
  return scale2_d(q.hi + q.lo, -k - j);
}

K2S_INLINE dd lgamma_pos_d(double x)
{
  if (fabs(x - 1.0) <= 0.125)
    return dd_make(lgamma_near1_d(x - 1.0), 0.0);
  if (fabs(x - 2.0) <= 0.125)
    return dd_make(lgamma_near2_d(x - 2.0), 0.0);
  if (x > 1e280)
    return dd_make(x * (log_dd(x).hi - 1.0), 0.0);
  if (x >= 12.0)
    return lgamma_stirling_d(x);
  if (x < 1e-300)
    return dd_neg(log_dd(x));
  double n;
  dd p = rising_product_d(x, &n);
  dd a = lgamma_shifted_d(x, n);
  dd lp = dd_add_d(log_dd(p.hi), p.lo / p.hi);
  return dd_add(a, dd_neg(lp));
}

K2S_INLINE double2 lgamma_sign_d(double x)
{
  if (is_nan_d(x))
    return (double2)(x, 0.0);
  if (is_inf_d(x))
    return (double2)(D_INF, 1.0);
  if (x == 0.0)
    return (double2)(D_INF, 0.0);
  if (x > 0.0) {
    dd r = lgamma_pos_d(x);
    return (double2)(r.hi + r.lo, 1.0);
  }
  if (x == trunc(x))
    return (double2)(D_INF, 0.0);
  double ax = -x;
  if (ax < 1e-300) {
    dd l = log_dd(ax);
    return (double2)(-(l.hi + l.lo), -1.0);
  }
  double sp = __k2s_sinpi_f64(x);
  dd r = dd_add(D_LOG_PI, dd_neg(log_dd(fabs(sp))));
  r = dd_add(r, dd_neg(log_dd(ax)));
  r = dd_add(r, dd_neg(lgamma_pos_d(ax)));
  return (double2)(r.hi + r.lo, sp < 0.0 ? -1.0 : 1.0);
}

double __k2s_lgamma_f64(double x)
{
  return lgamma_sign_d(x).x;
}

double2 __k2s_lgamma_r_f64(double x)
{
  return lgamma_sign_d(x);
}
