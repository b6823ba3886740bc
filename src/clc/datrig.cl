/*
 * Double asin, acos, atan, atan2, their *pi forms, asinh, acosh, atanh and
 * hypot: the methods of atrig.cl, hyp.cl and special.cl in double-double,
 * with the polynomials refitted for double (src/clc/fit.py "atan_d", degree
 * 11 in u^2, error 1.2e-18; "asin_d", degree 12, error 1.5e-17). OpenCL
 * bounds: 4, 4, 5, 6, 5, 5, 5, 6 and 4, 4, 5, 4 ulp.
 */

#define D_PIO4 dd_make(0.7853981633974483, 3.061616997868383e-17)
#define D_INVPI dd_make(0.3183098861837907, -1.9678676675182486e-17)

K2S_INLINE dd atan_poly_d(double u, double ul)
{
  double z = u * u;
  double g = 0.016285756855221028;
  g = g * z - 0.034570561981427744;
  g = g * z + 0.04551593220626549;
  g = g * z - 0.05230454270650244;
  g = g * z + 0.05878928997834775;
  g = g * z - 0.06666424885738255;
  g = g * z + 0.07692296375032143;
  g = g * z - 0.09090908753500877;
  g = g * z + 0.11111111105155447;
  g = g * z - 0.14285714285659828;
  g = g * z + 0.19999999999999804;
  g = g * z - 0.3333333333333333;
  return fast_two_sum_d(u, u * (z * g) + ul / (1.0 + z));
}

/* a / b as a dd (two corrections: the device's double division may be single-precision) */
K2S_INLINE dd div_dd(double a, double b)
{
  double q = a / b;
  dd p = two_prod_d(q, b);
  q += ((a - p.hi) - p.lo) / b;
  p = two_prod_d(q, b);
  return fast_two_sum_d(q, ((a - p.hi) - p.lo) / b);
}

K2S_INLINE dd atan01_d(dd t)
{
  if (t.hi <= 0.41421356237309503)
    return atan_poly_d(t.hi, t.lo);
  dd num = dd_add_d(t, -1.0);
  dd den = dd_add_d(t, 1.0);
  double q = num.hi / den.hi;
  dd p = dd_mul_d(den, q);
  q += ((num.hi - p.hi) - p.lo + num.lo) / den.hi;
  p = dd_mul_d(den, q);
  double ql = ((num.hi - p.hi) - p.lo + num.lo) / den.hi;
  dd u = fast_two_sum_d(q, ql);
  return dd_add(D_PIO4, atan_poly_d(u.hi, u.lo));
}

K2S_INLINE dd atan_pos_d(double ax)
{
  dd pio2 = dd_make(2.0 * D_PIO4.hi, 2.0 * D_PIO4.lo);
  if (ax <= 1.0)
    return atan01_d(dd_make(ax, 0.0));
  if (ax > 1e300)
    return dd_add_d(pio2, -1.0 / ax);
  return dd_add(pio2, dd_neg(atan01_d(div_dd(1.0, ax))));
}

K2S_INLINE double with_sign_d(double v, double x)
{
  return sign_of_d(x) ? -v : v;
}

double __k2s_atan_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (is_inf_d(x))
    return with_sign_d(2.0 * D_PIO4.hi, x);
  if (fabs(x) < 1e-9)
    return x;
  dd a = atan_pos_d(fabs(x));
  return with_sign_d(a.hi + a.lo, x);
}

/* v / pi for a dd angle, keeping subnormal results' bits */
K2S_INLINE double over_pi_d(dd a)
{
  bool tiny = a.hi < 1e-290;
  if (tiny)
    a = dd_mul_d(a, 0x1p100);
  dd r = dd_mul(a, D_INVPI);
  double v = r.hi + r.lo;
  return tiny ? v * 0x1p-100 : v;
}

double __k2s_atanpi_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (is_inf_d(x))
    return with_sign_d(0.5, x);
  return with_sign_d(over_pi_d(atan_pos_d(fabs(x))), x);
}

K2S_INLINE dd atan2_abs_d(double y, double x)
{
  double ay = fabs(y), ax = fabs(x);
  dd pi = dd_make(4.0 * D_PIO4.hi, 4.0 * D_PIO4.lo);
  dd pio2 = dd_make(2.0 * D_PIO4.hi, 2.0 * D_PIO4.lo);
  bool neg_x = sign_of_d(x);
  if (ay == 0.0)
    return neg_x ? pi : dd_make(0.0, 0.0);
  if (is_inf_d(ay)) {
    if (!is_inf_d(ax))
      return pio2;
    return neg_x ? dd_mul_d(D_PIO4, 3.0) : D_PIO4;
  }
  if (ax == 0.0)
    return pio2;
  if (is_inf_d(ax))
    return neg_x ? pi : dd_make(0.0, 0.0);
  int ey = (int)((as_ulong(ay) >> 52) & 0x7fful), ex = (int)((as_ulong(ax) >> 52) & 0x7fful);
  int lo_e = min(ex, ey), hi_e = max(ex, ey);
  dd a;
  if (abs(ex - ey) > 120) {
    a = ay <= ax ? dd_make(ay / ax, 0.0) : pio2;
  } else {
    double s = hi_e > 1800 ? 0x1p-200 : lo_e < 300 ? 0x1p200 : 1.0;
    if (ay <= ax)
      a = atan01_d(div_dd(ay * s, ax * s));
    else
      a = dd_add(pio2, dd_neg(atan01_d(div_dd(ax * s, ay * s))));
  }
  return neg_x ? dd_add(pi, dd_neg(a)) : a;
}

double __k2s_atan2_f64(double y, double x)
{
  if (is_nan_d(x) || is_nan_d(y))
    return x + y;
  dd a = atan2_abs_d(y, x);
  return with_sign_d(a.hi + a.lo, y);
}

double __k2s_atan2pi_f64(double y, double x)
{
  if (is_nan_d(x) || is_nan_d(y))
    return x + y;
  return with_sign_d(over_pi_d(atan2_abs_d(y, x)), y);
}

K2S_INLINE dd asin_poly_d(double uh, double ul, double z)
{
  double g = 0.028757851367421566;
  g = g * z - 0.014851887071247204;
  g = g * z + 0.01740087944269402;
  g = g * z + 0.005457506718640358;
  g = g * z + 0.01032281435018578;
  g = g * z + 0.011479177415184906;
  g = g * z + 0.013971212973552933;
  g = g * z + 0.017352392720869973;
  g = g * z + 0.02237217294214989;
  g = g * z + 0.030381944138531247;
  g = g * z + 0.04464285714635543;
  g = g * z + 0.07499999999998433;
  g = g * z + 0.16666666666666669;
  return fast_two_sum_d(uh, ul + uh * (z * g));
}

K2S_INLINE dd sqrt_dd(double w) /* w = 0 or normal */
{
  if (w == 0.0)
    return dd_make(0.0, 0.0);
  double s = sqrt(w);
  dd p = two_prod_d(s, s);
  s += ((w - p.hi) - p.lo) * (0.5 / s);
  p = two_prod_d(s, s);
  return fast_two_sum_d(s, ((w - p.hi) - p.lo) * (0.5 / s));
}

K2S_INLINE dd two_asin_sqrt_d(double ax)
{
  double w = (1.0 - ax) * 0.5;
  if (w == 0.0)
    return dd_make(0.0, 0.0);
  dd s = sqrt_dd(w);
  dd a = asin_poly_d(s.hi, s.lo, w);
  return dd_make(2.0 * a.hi, 2.0 * a.lo);
}

K2S_INLINE dd asin_pos_d(double ax)
{
  if (ax <= 0.5)
    return asin_poly_d(ax, 0.0, ax * ax);
  return dd_add(dd_make(2.0 * D_PIO4.hi, 2.0 * D_PIO4.lo), dd_neg(two_asin_sqrt_d(ax)));
}

K2S_INLINE dd acos_dd(double x)
{
  double ax = fabs(x);
  dd pio2 = dd_make(2.0 * D_PIO4.hi, 2.0 * D_PIO4.lo);
  if (ax <= 0.5) {
    dd a = asin_poly_d(ax, 0.0, ax * ax);
    return dd_add(pio2, sign_of_d(x) ? a : dd_neg(a));
  }
  dd t = two_asin_sqrt_d(ax);
  return sign_of_d(x) ? dd_add(dd_make(4.0 * D_PIO4.hi, 4.0 * D_PIO4.lo), dd_neg(t)) : t;
}

double __k2s_asin_f64(double x)
{
  if (is_nan_d(x))
    return x;
  double ax = fabs(x);
  if (ax > 1.0)
    return D_NAN;
  if (ax < 1e-9)
    return x;
  dd a = asin_pos_d(ax);
  return with_sign_d(a.hi + a.lo, x);
}

double __k2s_acos_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (fabs(x) > 1.0)
    return D_NAN;
  dd a = acos_dd(x);
  return a.hi + a.lo;
}

double __k2s_asinpi_f64(double x)
{
  if (is_nan_d(x))
    return x;
  double ax = fabs(x);
  if (ax > 1.0)
    return D_NAN;
  return with_sign_d(over_pi_d(asin_pos_d(ax)), x);
}

double __k2s_acospi_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (fabs(x) > 1.0)
    return D_NAN;
  return over_pi_d(acos_dd(x));
}

double __k2s_asinh_f64(double x)
{
  if (is_nan_d(x) || is_inf_d(x))
    return x;
  double ax = fabs(x);
  if (ax < 1e-9)
    return x;
  dd r;
  if (ax > 1e9) {
    r = dd_add(log_dd(ax), D_LN2);
  } else {
    double z = ax * ax; /* rounding of z only moves the tiny correction term */
    dd s = sqrt_dd(z + 1.0);
    dd z2 = two_prod_d(ax, ax);
    double t = ax + (z2.hi + z2.lo) / (1.0 + s.hi);
    r = log1p_dd(t);
  }
  return with_sign_d(r.hi + r.lo, x);
}

double __k2s_acosh_f64(double x)
{
  if (is_nan_d(x))
    return x;
  if (x < 1.0)
    return D_NAN;
  if (is_inf_d(x))
    return x;
  dd r;
  if (x > 1e9) {
    r = dd_add(log_dd(x), D_LN2);
  } else if (x <= 2.0) {
    double t = x - 1.0; /* exact */
    dd tt = two_prod_d(t, t);
    dd w = dd_add_d(dd_add_d(tt, 2.0 * t), 0.0);
    dd s = sqrt_dd(w.hi);
    s.lo += w.lo * (0.5 / (s.hi == 0.0 ? 1.0 : s.hi));
    dd arg = dd_add(dd_make(t, 0.0), s);
    r = dd_add_d(log1p_dd(arg.hi), arg.lo / (1.0 + arg.hi));
  } else {
    dd xx = two_prod_d(x, x);
    dd w = dd_add_d(xx, -1.0);
    dd s = sqrt_dd(w.hi);
    s.lo += w.lo * (0.5 / s.hi);
    dd arg = dd_add(dd_make(x, 0.0), s);
    r = dd_add_d(log_dd(arg.hi), arg.lo / arg.hi);
  }
  return r.hi + r.lo;
}

double __k2s_atanh_f64(double x)
{
  if (is_nan_d(x))
    return x;
  double ax = fabs(x);
  if (ax > 1.0)
    return D_NAN;
  if (ax == 1.0)
    return with_sign_d(D_INF, x);
  if (ax < 1e-9)
    return x;
  dd d = two_sum_d(1.0, -ax);
  double q = (2.0 * ax) / d.hi;
  dd p = dd_mul_d(d, q);
  q += ((2.0 * ax - p.hi) - p.lo) / d.hi;
  p = dd_mul_d(d, q);
  double ql = ((2.0 * ax - p.hi) - p.lo) / d.hi;
  dd w = fast_two_sum_d(q, ql);
  dd r = dd_add_d(log1p_dd(w.hi), w.lo / (1.0 + w.hi));
  return with_sign_d(0.5 * (r.hi + r.lo), x);
}

double __k2s_hypot_f64(double x, double y)
{
  double ax = fabs(x), ay = fabs(y);
  if (is_inf_d(ax) || is_inf_d(ay))
    return D_INF;
  if (is_nan_d(x) || is_nan_d(y))
    return x + y;
  double a = fmax(ax, ay), b = fmin(ax, ay);
  if (b == 0.0)
    return a;
  int e = (int)((as_ulong(a) >> 52) & 0x7fful) - 1023;
  if (e < -1022)
    e = -1022;
  /* divide both by 2^e in two exact steps (b may lose bits only far below a's) */
  int e1 = e / 2, e2 = e - e1;
  double a1 = a * pow2d(-e1) * pow2d(-e2), b1 = b * pow2d(-e1) * pow2d(-e2);
  if ((as_ulong(a) >> 52) == 0ul) { /* subnormal a: scale up instead */
    a1 = a * 0x1p600;
    b1 = b * 0x1p600;
    e = -600;
  }
  dd s = dd_add(two_prod_d(a1, a1), two_prod_d(b1, b1));
  dd r = sqrt_dd(s.hi);
  r.lo += s.lo * (0.5 / r.hi);
  return scale2_d(r.hi + r.lo, e);
}
