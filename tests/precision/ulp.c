/*
 * k2s-ulp: the MPFR side of the precision tool (tests/precision/run_precision.py drives it).
 *
 *   k2s-ulp list                               the function table as JSON lines
 *   k2s-ulp selftest                           known right and wrong results, judged
 *   k2s-ulp gen FUNC TYPE COUNT SEED DIR       write DIR/in0.bin.. (special values first,
 *                                              then random inputs; COUNT 0 = special only)
 *   k2s-ulp gen-exhaustive FUNC TYPE FIRST COUNT DIR
 *                                              one-argument functions: COUNT consecutive bit
 *                                              patterns from FIRST (every half, or a chunk of
 *                                              every float)
 *   k2s-ulp check FUNC TYPE DIR [-j N] [--nspecial K]
 *                                              DIR holds argN.bin as k2s-run --dump-dir writes
 *                                              them (inputs first, then outputs); prints one
 *                                              JSON object: max error, worst input, counts
 *
 * Reference: each result is computed with MPFR at 64 bits (112 for double), far beyond the
 * target precision (errors are measured to better than 2^-40 ulp), keeping MPFR's ternary value so
 * that exact results (the spec's prescribed special cases) are known to be exact. Error in ulp
 * follows the OpenCL C definition (section 7.4, after J.-M. Muller, "On the definition of ulp(x)",
 * INRIA RR-5504): |got - exact| / ulp(exact), ulp(y) = 2^(max(e, emin) - p + 1) with e = floor(log2
 * |y|) and emin the type's smallest normal exponent (so subnormal results are measured in units of
 * the smallest subnormal). The correctly rounded value, where it is needed (overflow), emulates the
 * target format exactly: precision p, RN-even, gradual underflow, overflow to infinity.
 *
 * Rules beyond the ULP number (OpenCL C 7.5 "Edge Case Behavior"):
 *  - a NaN result must be a NaN, and a NaN is accepted only where the exact result is NaN;
 *  - an exact result that is ±0, ±inf or NaN, or any exact result for an input that is
 *    ±0, ±inf or NaN (or an int argument 0, or pow/powr with x = +1), must be produced
 *    exactly, sign of zero included (C99 F.9 and the spec's additional rules prescribe
 *    these);
 *  - "result overflow within the specified ULP error is permitted": an infinity for a
 *    finite exact result is measured as 2^(emax+1);
 *  - float only (7.2, 7.5.3): subnormal inputs may be flushed to ±0 and a result that is
 *    subnormal before rounding may be flushed to ±0; the sign of such a zero is free.
 *    half and double must not flush.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "ulp_table.h"

extern const func k2s_ulp_funcs[];
extern const size_t k2s_ulp_nfuncs;

/* ---- target formats ------------------------------------------------------------------ */

typedef struct fmt {
  const char *name;
  int idx;   /* 0 half, 1 float, 2 double (index into func.bound) */
  int bytes; /* storage size */
  int p;     /* precision in bits, hidden bit included */
  int emin;  /* smallest normal exponent */
  int emax;  /* largest exponent */
  int prec;  /* MPFR working precision for references */
} fmt;

static const fmt FORMATS[] = {
    {"half", 0, 2, 11, -14, 15, 64},
    {"float", 1, 4, 24, -126, 127, 64},
    {"double", 2, 8, 53, -1022, 1023, 112},
};

static const fmt *find_fmt(const char *name)
{
  for (size_t i = 0; i < 3; i++)
    if (!strcmp(FORMATS[i].name, name))
      return &FORMATS[i];
  return NULL;
}

static const func *find_func(const char *name)
{
  for (size_t i = 0; i < k2s_ulp_nfuncs; i++)
    if (!strcmp(k2s_ulp_funcs[i].name, name))
      return &k2s_ulp_funcs[i];
  return NULL;
}

static double half_to_double(uint16_t h)
{
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = ldexp(m, -24);
  else
    v = ldexp(m | 1024, e - 25);
  return s ? -v : v;
}

/* Round a double to the format, nearest-even, with subnormals and overflow to infinity. */
static double round_to(const fmt *t, double v)
{
  if (t->idx == 2 || isnan(v) || isinf(v) || v == 0)
    return v;
  if (t->idx == 1)
    return (float)v;
  int e;
  frexp(v, &e); /* v = m 2^e, m in [0.5, 1) */
  e -= 1;       /* floor(log2 |v|) */
  if (e < t->emin)
    e = t->emin;
  double q = ldexp(1, e - (t->p - 1));
  double r = nearbyint(v / q) * q;
  if (fabs(r) >= ldexp(2, t->emax))
    return copysign(INFINITY, v);
  return r;
}

static uint16_t double_to_half(double v) /* v must be representable */
{
  uint16_t s = signbit(v) ? 0x8000 : 0;
  double a = fabs(v);
  if (isnan(v))
    return 0x7e00 | s;
  if (isinf(v))
    return 0x7c00 | s;
  if (a < ldexp(1, -14))
    return s | (uint16_t)(a * ldexp(1, 24));
  int e;
  double m = frexp(a, &e); /* a = m 2^e */
  return s | (uint16_t)((e + 14) << 10) | (uint16_t)((m * 2048) - 1024);
}

static double load_value(const fmt *t, const unsigned char *p)
{
  if (t->idx == 0) {
    uint16_t h;
    memcpy(&h, p, 2);
    return half_to_double(h);
  }
  if (t->idx == 1) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

static void store_value(const fmt *t, unsigned char *p, double v)
{
  if (t->idx == 0) {
    uint16_t h = double_to_half(v);
    memcpy(p, &h, 2);
  } else if (t->idx == 1) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else {
    memcpy(p, &v, 8);
  }
}

/* The value of bit pattern `bits` of the format. */
static double from_bits(const fmt *t, uint64_t bits)
{
  unsigned char b[8];
  memcpy(b, &bits, 8); /* little-endian host (x86-64, aarch64) */
  return load_value(t, b);
}

static double fmt_max(const fmt *t)
{
  return ldexp(2 - ldexp(1, 1 - t->p), t->emax);
}
static double fmt_min_sub(const fmt *t)
{
  return ldexp(1, t->emin - t->p + 1);
}
static int is_subnormal(const fmt *t, double v)
{
  return v != 0 && fabs(v) < ldexp(1, t->emin);
}

/* Next representable value of the format after x in the direction of y (exact). */
static double next_toward(const fmt *t, double x, double y)
{
  if (isnan(x) || isnan(y))
    return NAN;
  if (x == y)
    return y;
  if (x == 0)
    return y > 0 ? fmt_min_sub(t) : -fmt_min_sub(t);
  int up = (y > x);
  double a = fabs(x);
  int away = (x > 0) == up; /* magnitude grows */
  if (isinf(x))
    return copysign(fmt_max(t), x);
  int e;
  frexp(a, &e);
  e -= 1;
  if (e < t->emin)
    e = t->emin;
  double q = ldexp(1, e - (t->p - 1));
  if (!away && a == ldexp(1, e) && e > t->emin)
    q /= 2; /* stepping down out of a binade */
  double r = away ? a + q : a - q;
  if (r > fmt_max(t))
    r = INFINITY;
  return copysign(r, x);
}

/* ---- random numbers: SplitMix64 (as corpus/FORMAT.md) --------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double random_value(const fmt *t, const range *r, uint64_t *s, int *ival)
{
  uint64_t z = splitmix(s);
  double u = (double)(z >> 11) * ldexp(1, -53);
  switch (r->kind) {
  case 'i': {
    long span = (long)r->hi - (long)r->lo + 1;
    *ival = (int)((long)r->lo + (long)(z % (uint64_t)span));
    return *ival;
  }
  case 'u': return round_to(t, r->lo + (r->hi - r->lo) * u);
  case 'p': {
    /* positive finite patterns: 0 .. max */
    uint64_t maxbits = t->idx == 0 ? 0x7bff : t->idx == 1 ? 0x7f7fffff : 0x7fefffffffffffffull;
    return from_bits(t, z % (maxbits + 1));
  }
  default: {
    uint64_t mask = t->idx == 0 ? 0xffff : t->idx == 1 ? 0xffffffffull : ~0ull;
    return from_bits(t, z & mask);
  }
  }
}

/* ---- special values ------------------------------------------------------------------- */

/* Values every function is tried on: zeros, infinities, NaN, subnormal and normal limits,
 * small integers and halves (sinpi/tanpi/round edge cases), pi multiples, and huge
 * arguments for trigonometric range reduction. Rounded to the format and deduplicated. */
static int special_values(const fmt *t, int small, double *out)
{
  static const double base[] = {0.0,
                                INFINITY,
                                NAN,
                                1.0,
                                0.5,
                                2.0,
                                3.0,
                                1.5,
                                2.5,
                                0.25,
                                0.75,
                                4.0,
                                5.0,
                                10.0,
                                100.0,
                                0.1,
                                1e-3,
                                3.14159265358979323846,
                                1.57079632679489661923,
                                6.28318530717958647692,
                                88.0,
                                89.0,
                                710.0,
                                1e4,
                                65504.0,
                                65536.0,
                                1048576.0,
                                16777216.0,
                                1e10,
                                1073741824.0,
                                1e15,
                                1e19,
                                1.2676506002282294e30,
                                1e38,
                                1e100,
                                1e300};
  static const double small_base[] = {0.0, INFINITY, NAN, 1.0, 0.5, 2.0, 3.0, 1.5, 10.0};
  int n = 0;
  const double *b = small ? small_base : base;
  size_t nb = small ? sizeof small_base / sizeof *small_base : sizeof base / sizeof *base;
  double extra[] = {fmt_min_sub(t), ldexp(1, t->emin) - fmt_min_sub(t), ldexp(1, t->emin),
                    fmt_max(t),     next_toward(t, 1.0, 0.0),           next_toward(t, 1.0, 2.0)};
  size_t ne = small ? 4 : 6;
  for (int sign = 0; sign < 2; sign++) {
    for (size_t i = 0; i < nb + ne; i++) {
      double v = i < nb ? b[i] : extra[i - nb];
      v = round_to(t, sign ? -v : v);
      if (isinf(v) && !isinf(i < nb ? b[i] : extra[i - nb]))
        continue; /* out of this format's range */
      int dup = 0;
      for (int j = 0; j < n; j++)
        if ((isnan(v) && isnan(out[j])) || (v == out[j] && signbit(v) == signbit(out[j])))
          dup = 1;
      if (!dup)
        out[n++] = v;
    }
  }
  return n;
}

static const int SPECIAL_INTS[] = {0,       1,  -1,  2,   -2,   3,    -3,    4,     -4,
                                   5,       7,  -7,  127, 128,  -128, 1000,  -1000, INT_MAX,
                                   INT_MIN, 64, -64, 31,  -149, 150,  -1074, 1024};

/* MPFR's exponent range while computing references: far beyond every target format (double
 * reaches 2^-1074 and 2^1024) yet small enough that results like erfc(1e38) underflow at
 * once instead of being computed to exponents of -10^76. An underflow or overflow is
 * inexact (ternary != 0), which the comparison treats as "beyond the format". */
enum { WORK_EXP = 1 << 16 };

/* The reference carries 64 bits (float, half) or 112 bits (double): an error computed from it
 * is off by less than 2^-40 ulp, so a correctly rounded result may measure 0.5 + 2^-40. */
#define BOUND_SLACK 0x1p-30

/* ---- the reference ---------------------------------------------------------------------- */

typedef struct ref {
  mpfr_t y[2];     /* float results */
  int tern[2];     /* MPFR ternary values (0 = exact) */
  long iy[2];      /* int results */
  int int_skip[2]; /* int result unconstrained for this input */
} ref;

typedef struct worker {
  const func *f;
  const fmt *t;
  mpfr_t x[3], a, b, c;
  double xd[3]; /* the float inputs as stored (a NaN's sign bit included) */
  ref r;
} worker;

static void worker_init(worker *w, const func *f, const fmt *t)
{
  w->f = f;
  w->t = t;
  for (int i = 0; i < 3; i++)
    mpfr_init2(w->x[i], 64);
  mpfr_inits2(t->prec, w->a, w->b, w->c, (mpfr_ptr)0);
  mpfr_inits2(t->prec, w->r.y[0], w->r.y[1], (mpfr_ptr)0);
}

static void worker_clear(worker *w)
{
  for (int i = 0; i < 3; i++)
    mpfr_clear(w->x[i]);
  mpfr_clears(w->a, w->b, w->c, w->r.y[0], w->r.y[1], (mpfr_ptr)0);
}

static int is_name(const func *f, const char *n)
{
  return !strcmp(f->name, n);
}
/* "half_cos" and "native_cos" share cos's reference. */
static const char *base_name(const func *f)
{
  if (!strncmp(f->name, "half_", 5))
    return f->name + 5;
  if (!strncmp(f->name, "native_", 7))
    return f->name + 7;
  return f->name;
}

/* |x| >= 2^k for a regular x (MPFR exponents: |x| in [2^(E-1), 2^E)). */
static int abs_ge_pow2(mpfr_t x, long k)
{
  return mpfr_regular_p(x) && mpfr_get_exp(x) - 1 >= k;
}

/* Round y (working precision) to the format: RN-even, gradual underflow, overflow -> inf.
 * `tern` is y's own ternary value (the sign of y - exact), used to break the rare tie that
 * the first rounding may have created. Result in r (working precision, exact). */
static void round_fmt(const fmt *t, mpfr_t r, mpfr_t y, int tern)
{
  if (!mpfr_number_p(y) || mpfr_zero_p(y)) {
    mpfr_set(r, y, MPFR_RNDN);
    return;
  }
  long e = mpfr_get_exp(y) - 1; /* floor(log2 |y|) */
  if (e < t->emin)
    e = t->emin;
  long q = e - (t->p - 1);
  mpfr_mul_2si(r, y, -q, MPFR_RNDN); /* exact */
  /* Tie broken by the ternary value: if y was rounded up (tern > 0) the exact value is
   * below the tie, so round down, and vice versa. */
  mpfr_t fr;
  mpfr_init2(fr, mpfr_get_prec(r));
  mpfr_frac(fr, r, MPFR_RNDN);
  int tie = mpfr_cmp_d(fr, 0.5) == 0 || mpfr_cmp_d(fr, -0.5) == 0;
  mpfr_clear(fr);
  if (tie && tern != 0) {
    int up = (tern < 0) == (mpfr_sgn(r) > 0); /* exact magnitude above the tie */
    if (up)
      mpfr_round(r, r); /* ties away */
    else
      mpfr_trunc(r, r);
  } else {
    mpfr_rint(r, r, MPFR_RNDN);
  }
  mpfr_mul_2si(r, r, q, MPFR_RNDN);
  if (abs_ge_pow2(r, t->emax + 1))
    mpfr_set_inf(r, mpfr_sgn(y));
}

/* Evaluates the function at the inputs (x[] float, n[] int). */
static void eval(worker *w, const long *n)
{
  const func *f = w->f;
  const fmt *t = w->t;
  ref *r = &w->r;
  mpfr_ptr y = r->y[0], y1 = r->y[1];
  mpfr_ptr x0 = w->x[0], x1 = w->x[1], x2 = w->x[2];
  const char *b = base_name(f);
  int *tn = r->tern;
  const mpfr_rnd_t N = MPFR_RNDN;
  tn[0] = tn[1] = 0;
  r->int_skip[0] = r->int_skip[1] = 0;

  /* One line per function: a table in code form (clang-format would spread it over
   * several hundred lines). */
  // clang-format off
#define IS(s) (!strcmp(b, s))
  if (IS("acos")) tn[0] = mpfr_acos(y, x0, N);
  else if (IS("acosh")) tn[0] = mpfr_acosh(y, x0, N);
  else if (IS("acospi")) tn[0] = mpfr_acospi(y, x0, N);
  else if (IS("asin")) tn[0] = mpfr_asin(y, x0, N);
  else if (IS("asinh")) tn[0] = mpfr_asinh(y, x0, N);
  else if (IS("asinpi")) tn[0] = mpfr_asinpi(y, x0, N);
  else if (IS("atan")) tn[0] = mpfr_atan(y, x0, N);
  else if (IS("atan2")) tn[0] = mpfr_atan2(y, x0, x1, N);
  else if (IS("atanh")) tn[0] = mpfr_atanh(y, x0, N);
  else if (IS("atanpi")) tn[0] = mpfr_atanpi(y, x0, N);
  else if (IS("atan2pi")) tn[0] = mpfr_atan2pi(y, x0, x1, N);
  else if (IS("cbrt")) tn[0] = mpfr_cbrt(y, x0, N);
  else if (IS("ceil")) tn[0] = mpfr_ceil(y, x0);
  else if (IS("copysign")) mpfr_set_d(y, copysign(w->xd[0], w->xd[1]), N);
  else if (IS("cos")) tn[0] = mpfr_cos(y, x0, N);
  else if (IS("cosh")) tn[0] = mpfr_cosh(y, x0, N);
  else if (IS("cospi")) tn[0] = mpfr_cospi(y, x0, N);
  else if (IS("erfc")) tn[0] = mpfr_erfc(y, x0, N);
  else if (IS("erf")) tn[0] = mpfr_erf(y, x0, N);
  else if (IS("exp")) tn[0] = mpfr_exp(y, x0, N);
  else if (IS("exp2")) tn[0] = mpfr_exp2(y, x0, N);
  else if (IS("exp10")) tn[0] = mpfr_exp10(y, x0, N);
  else if (IS("expm1")) tn[0] = mpfr_expm1(y, x0, N);
  else if (IS("fabs")) tn[0] = mpfr_abs(y, x0, N);
  else if (IS("fdim")) tn[0] = mpfr_dim(y, x0, x1, N);
  else if (IS("floor")) tn[0] = mpfr_floor(y, x0);
  else if (IS("fma")) tn[0] = mpfr_fma(y, x0, x1, x2, N);
  else if (IS("fmax")) tn[0] = mpfr_max(y, x0, x1, N);
  else if (IS("fmin")) tn[0] = mpfr_min(y, x0, x1, N);
  else if (IS("fmod")) tn[0] = mpfr_fmod(y, x0, x1, N);
  else if (IS("fract")) {
    /* fract(x) = fmin(x - floor(x), largest value below 1); iptr = floor(x) */
    mpfr_floor(y1, x0);
    if (mpfr_inf_p(x0))
      mpfr_set_zero(y, mpfr_sgn(x0));
    else if (mpfr_zero_p(x0))
      mpfr_set(y, x0, N);
    else {
      mpfr_sub(y, x0, y1, N); /* exact at working precision */
      mpfr_set_ui_2exp(w->a, 1, 0, N);
      mpfr_set_ui_2exp(w->b, 1, -t->p, N);
      mpfr_sub(w->a, w->a, w->b, N); /* 1 - 2^-p, the largest value below 1 */
      if (mpfr_cmp(y, w->a) > 0)
        mpfr_set(y, w->a, N);
    }
  } else if (IS("frexp")) {
    mpfr_exp_t e = 0;
    if (mpfr_regular_p(x0))
      tn[0] = mpfr_frexp(&e, y, x0, N);
    else
      mpfr_set(y, x0, N);
    r->iy[1] = (long)e;
  } else if (IS("hypot")) tn[0] = mpfr_hypot(y, x0, x1, N);
  else if (IS("ilogb")) {
    if (mpfr_nan_p(x0) || mpfr_inf_p(x0))
      r->iy[0] = INT_MAX;
    else if (mpfr_zero_p(x0))
      r->iy[0] = INT_MIN;
    else
      r->iy[0] = mpfr_get_exp(x0) - 1;
  } else if (IS("ldexp")) tn[0] = mpfr_mul_2si(y, x0, n[1], N);
  else if (IS("lgamma") || IS("lgamma_r")) {
    int s = 0;
    tn[0] = mpfr_lgamma(y, &s, x0, N);
    r->iy[1] = s;
    /* "lgamma_r(x, signp) returns 0 in signp if x is zero or a negative integer" */
    if (mpfr_integer_p(x0) && mpfr_sgn(x0) <= 0)
      r->iy[1] = 0;
    if (!mpfr_number_p(x0))
      r->int_skip[1] = 1;
  } else if (IS("log")) tn[0] = mpfr_log(y, x0, N);
  else if (IS("log2")) tn[0] = mpfr_log2(y, x0, N);
  else if (IS("log10")) tn[0] = mpfr_log10(y, x0, N);
  else if (IS("log1p")) tn[0] = mpfr_log1p(y, x0, N);
  else if (IS("logb")) {
    if (mpfr_nan_p(x0))
      mpfr_set_nan(y);
    else if (mpfr_inf_p(x0))
      mpfr_set_inf(y, 1);
    else if (mpfr_zero_p(x0))
      mpfr_set_inf(y, -1);
    else
      mpfr_set_si(y, mpfr_get_exp(x0) - 1, N);
  } else if (IS("mad")) tn[0] = mpfr_fma(y, x0, x1, x2, N); /* the second form: see check */
  else if (IS("maxmag") || IS("minmag")) {
    int c = mpfr_nan_p(x0) || mpfr_nan_p(x1) ? 0 : mpfr_cmpabs(x0, x1);
    int max = IS("maxmag");
    if (c != 0)
      mpfr_set(y, (c > 0) == max ? x0 : x1, N);
    else if (max)
      mpfr_max(y, x0, x1, N);
    else
      mpfr_min(y, x0, x1, N);
  } else if (IS("modf")) {
    mpfr_trunc(y1, x0);
    if (mpfr_inf_p(x0))
      mpfr_set_zero(y, mpfr_sgn(x0));
    else if (mpfr_nan_p(x0))
      mpfr_set_nan(y);
    else {
      mpfr_sub(y, x0, y1, N);
      mpfr_copysign(y, y, x0, N);
    }
  } else if (IS("nextafter")) {
    double v = next_toward(t, mpfr_get_d(x0, N), mpfr_get_d(x1, N));
    mpfr_set_d(y, v, N);
  } else if (IS("pow")) tn[0] = mpfr_pow(y, x0, x1, N);
  else if (IS("pown")) tn[0] = mpfr_pow_si(y, x0, n[1], N);
  else if (IS("powr")) {
    /* OpenCL: "powr(x, NaN) returns the NaN for x >= 0", "powr(NaN, y) returns the NaN"
     * (MPFR follows IEEE 754 powr, where powr(1, NaN) is 1) */
    if (mpfr_nan_p(x0) || mpfr_nan_p(x1))
      mpfr_set_nan(y);
    else
      tn[0] = mpfr_powr(y, x0, x1, N);
  }
  else if (IS("remainder")) tn[0] = mpfr_remainder(y, x0, x1, N);
  else if (IS("remquo")) {
    long q = 0;
    tn[0] = mpfr_remquo(y, &q, x0, x1, N);
    r->iy[1] = q;
    /* "returns a NaN and 0 in quo if x is ±inf, or if y is 0 and the other argument is
     * non-NaN or if either argument is a NaN" */
    if (mpfr_nan_p(y))
      r->iy[1] = 0;
  } else if (IS("rint")) tn[0] = mpfr_roundeven(y, x0);
  else if (IS("rootn")) {
    tn[0] = mpfr_rootn_si(y, x0, n[1], N);
  } else if (IS("round")) tn[0] = mpfr_round(y, x0);
  else if (IS("rsqrt")) {
    /* 1/sqrt(x): ±0 -> ±inf (the OpenCL reference divides by sqrt(-0) = -0) */
    if (mpfr_zero_p(x0))
      mpfr_set_inf(y, mpfr_signbit(x0) ? -1 : 1);
    else
      tn[0] = mpfr_rec_sqrt(y, x0, N);
  } else if (IS("sin")) tn[0] = mpfr_sin(y, x0, N);
  else if (IS("sincos")) {
    tn[0] = mpfr_sin(y, x0, N);
    tn[1] = mpfr_cos(y1, x0, N);
  } else if (IS("sinh")) tn[0] = mpfr_sinh(y, x0, N);
  else if (IS("sinpi")) tn[0] = mpfr_sinpi(y, x0, N);
  else if (IS("sqrt")) tn[0] = mpfr_sqrt(y, x0, N);
  else if (IS("tan")) tn[0] = mpfr_tan(y, x0, N);
  else if (IS("tanh")) tn[0] = mpfr_tanh(y, x0, N);
  else if (IS("tanpi")) tn[0] = mpfr_tanpi(y, x0, N);
  else if (IS("tgamma")) tn[0] = mpfr_gamma(y, x0, N);
  else if (IS("trunc")) tn[0] = mpfr_trunc(y, x0);
  else if (IS("divide")) tn[0] = mpfr_div(y, x0, x1, N);
  else if (IS("recip")) tn[0] = mpfr_ui_div(y, 1, x0, N);
  else if (IS("degrees") || IS("radians")) {
    mpfr_const_pi(w->a, N);
    if (IS("degrees")) {
      mpfr_mul_ui(y, x0, 180, N);
      tn[0] = mpfr_div(y, y, w->a, N);
    } else {
      mpfr_mul(y, x0, w->a, N);
      tn[0] = mpfr_div_ui(y, y, 180, N);
    }
    if (mpfr_zero_p(x0) || !mpfr_number_p(x0))
      tn[0] = 0;
  } else if (IS("sign")) {
    if (mpfr_nan_p(x0))
      mpfr_set_zero(y, 1);
    else if (mpfr_zero_p(x0))
      mpfr_set(y, x0, N);
    else
      mpfr_set_si(y, mpfr_sgn(x0), N);
  } else if (IS("step")) {
    mpfr_set_ui(y, mpfr_less_p(x1, x0) ? 0 : 1, N);
  } else if (IS("mix")) {
    mpfr_sub(y, x1, x0, N);
    mpfr_mul(y, y, x2, N);
    tn[0] = mpfr_add(y, y, x0, N);
  } else if (IS("smoothstep")) {
    mpfr_sub(w->a, x2, x0, N);
    mpfr_sub(w->b, x1, x0, N);
    mpfr_div(w->a, w->a, w->b, N);
    if (mpfr_sgn(w->a) < 0)
      mpfr_set_ui(w->a, 0, N);
    if (mpfr_cmp_ui(w->a, 1) > 0)
      mpfr_set_ui(w->a, 1, N);
    mpfr_mul_si(w->b, w->a, -2, N);
    mpfr_add_ui(w->b, w->b, 3, N);
    mpfr_mul(y, w->a, w->a, N);
    tn[0] = mpfr_mul(y, y, w->b, N);
  } else {
    fprintf(stderr, "k2s-ulp: internal error: no reference for %s\n", f->name);
    exit(1);
  }
#undef IS
  // clang-format on
}

/* ---- measuring one result ---------------------------------------------------------------- */

enum why { OK, NOT_NAN, WANT_NAN, ZERO_SIGN, NOT_EXACT, WRONG_INF, INT_WRONG };
static const char *WHY[] = {"",
                            "NaN where the exact result is a number",
                            "a number where the exact result is NaN",
                            "zero of the wrong sign",
                            "not the exact result the spec prescribes",
                            "infinity where the exact result is finite and far from overflow",
                            "integer result differs"};

/* Error in ulp of `got` against the exact value y (ternary tern). `exact_req`: the spec
 * prescribes this result exactly. `zero_free`: the sign of a zero result is free. */
static double ulp_error(worker *w, double got, mpfr_ptr y, int tern, int exact_req, int zero_free,
                        enum why *why)
{
  const fmt *t = w->t;
  *why = OK;
  if (mpfr_nan_p(y)) {
    if (isnan(got))
      return 0;
    *why = WANT_NAN;
    return INFINITY;
  }
  if (isnan(got)) {
    *why = NOT_NAN;
    return INFINITY;
  }
  int yzero = mpfr_zero_p(y), yinf = mpfr_inf_p(y);
  if ((yzero || yinf) && tern == 0) {
    /* exact zero or infinity: prescribed */
    if (yzero && got == 0 && (zero_free || !signbit(got) == !mpfr_signbit(y)))
      return 0;
    if (yinf && isinf(got) && (got > 0) == (mpfr_sgn(y) > 0))
      return 0;
    *why = yzero && got == 0 ? ZERO_SIGN : NOT_EXACT;
    return INFINITY;
  }
  mpfr_ptr cr = w->c;
  round_fmt(t, cr, y, tern);
  if (exact_req && tern == 0) {
    /* prescribed: exactly the (correctly rounded) exact value */
    if ((mpfr_inf_p(cr) && isinf(got) && (got > 0) == (mpfr_sgn(cr) > 0)) ||
        (mpfr_number_p(cr) && !isinf(got) && mpfr_cmp_d(cr, got) == 0))
      return 0;
    *why = NOT_EXACT;
    return INFINITY;
  }
  /* y inexact (or an exact value of an ordinary input): measure */
  if (mpfr_inf_p(cr) && isinf(got) && (got > 0) == (mpfr_sgn(cr) > 0))
    return 0; /* correctly rounded overflow */
  if (yinf) {
    /* MPFR overflowed its own range (tern != 0): the exact value is astronomically large;
     * only the same infinity (handled above) is close. */
    *why = NOT_EXACT;
    return INFINITY;
  }
  mpfr_ptr d = w->a;
  if (isinf(got)) /* "result overflow within the specified ULP error is permitted" */
    mpfr_set_si_2exp(d, got > 0 ? 1 : -1, t->emax + 1, MPFR_RNDN);
  else
    mpfr_set_d(d, got, MPFR_RNDN);
  mpfr_sub(d, d, y, MPFR_RNDN);
  long e = yzero ? t->emin : mpfr_get_exp(y) - 1;
  if (e < t->emin)
    e = t->emin;
  if (e > t->emax)
    e = t->emax;
  mpfr_mul_2si(d, d, -(e - (t->p - 1)), MPFR_RNDN);
  double err = fabs(mpfr_get_d(d, MPFR_RNDU));
  return err;
}

/* ---- checking a batch --------------------------------------------------------------------- */

typedef struct batch {
  const func *f;
  const fmt *t;
  size_t n, nspecial;
  double *in[3];  /* float inputs as doubles */
  int *iin[3];    /* int inputs */
  double *out[2]; /* float outputs */
  int *iout[2];   /* int outputs */
} batch;

typedef struct result {
  double max_err; /* worst error over all inputs (inf for rule violations) */
  size_t worst;   /* its index */
  enum why why;
  int worst_out;    /* which output */
  size_t over;      /* inputs over the bound */
  size_t rule_fail; /* rule violations (NaN, sign, prescribed value) */
} result;

static int flt_special(double v)
{
  return v == 0 || isinf(v) || isnan(v);
}

/* Error of input i under one choice of (possibly flushed) inputs; *why set for the worst
 * output. Returns the max over outputs. */
static double eval_one(worker *w, const batch *bt, size_t i, const double *xin, int flushed,
                       int *which, enum why *why)
{
  const func *f = bt->f;
  const fmt *t = bt->t;
  int nargs = (int)strlen(f->args), nouts = (int)strlen(f->outs);
  long n[3] = {0, 0, 0};
  int exact_req = 0, both_zero = 1;
  for (int a = 0; a < nargs; a++) {
    if (f->args[a] == 'i') {
      n[a] = bt->iin[a][i];
      if (n[a] == 0)
        exact_req = 1;
      continue;
    }
    mpfr_set_d(w->x[a], xin[a], MPFR_RNDN);
    w->xd[a] = xin[a];
    if (flt_special(xin[a]))
      exact_req = 1;
    if (xin[a] != 0)
      both_zero = 0;
  }
  if ((is_name(f, "pow") || !strcmp(base_name(f), "powr")) && xin[0] == 1.0)
    exact_req = 1;
  if (is_name(f, "mix") || is_name(f, "smoothstep"))
    exact_req = 0;
  eval(w, n);
  int zero_free = flushed || ((f->flags & Z_FREE_BOTH_ZERO) && both_zero);
  double worst = 0;
  *why = OK;
  *which = 0;
  for (int o = 0; o < nouts; o++) {
    double err;
    enum why wy = OK;
    if (f->outs[o] == 'i') {
      long got = bt->iout[o][i], want = w->r.iy[o];
      if (w->r.int_skip[o])
        err = 0;
      else if (is_name(f, "remquo") && want != 0) {
        /* sign of x/y and at least the 7 low bits of the integral quotient */
        int low_ok = (labs(got) & 127) == (labs(want) & 127);
        int sign_ok = (got < 0) == (want < 0) || (got == 0 && low_ok);
        err = sign_ok && low_ok ? 0 : INFINITY;
      } else
        err = got == want ? 0 : INFINITY;
      if (err != 0)
        wy = INT_WRONG;
    } else {
      double got = bt->out[o][i];
      err = ulp_error(w, got, w->r.y[o], w->r.tern[o], exact_req, zero_free, &wy);
      /* float: a result subnormal before rounding may be flushed to zero (either sign) */
      if (err != 0 && t->idx == 1 && got == 0 && mpfr_regular_p(w->r.y[o]) &&
          !abs_ge_pow2(w->r.y[o], t->emin)) {
        err = 0;
        wy = OK;
      }
      if (is_name(f, "mad") && err != 0) {
        /* the other allowed form: round(round(a*b) + c) */
        mpfr_mul(w->b, w->x[0], w->x[1], MPFR_RNDN);
        mpfr_set(w->r.y[1], w->b, MPFR_RNDN);
        round_fmt(t, w->b, w->r.y[1], 0);
        int tn = mpfr_add(w->r.y[1], w->b, w->x[2], MPFR_RNDN);
        enum why w2;
        double e2 = ulp_error(w, got, w->r.y[1], tn, exact_req, zero_free, &w2);
        if (e2 < err) {
          err = e2;
          wy = w2;
        }
        /* float: that multiply's result, when subnormal before rounding, may be flushed
         * to ±0 (7.5.3), leaving c (of either sign if c is zero) */
        mpfr_mul(w->b, w->x[0], w->x[1], MPFR_RNDN); /* exact: 48 bits */
        if (t->idx == 1 && mpfr_regular_p(w->b) && !abs_ge_pow2(w->b, t->emin)) {
          e2 = ulp_error(w, got, w->x[2], 0, exact_req, 1, &w2);
          if (e2 < err) {
            err = e2;
            wy = w2;
          }
        }
      }
    }
    if (err > worst || (err == worst && wy != OK && *why == OK)) {
      worst = err;
      *why = wy;
      *which = o;
    }
  }
  return worst;
}

typedef struct job {
  const batch *bt;
  size_t lo, hi;
  double bound;
  result res;
} job;

static void *run_job(void *arg)
{
  job *j = arg;
  const batch *bt = j->bt;
  const func *f = bt->f;
  const fmt *t = bt->t;
  int nargs = (int)strlen(f->args);
  mpfr_set_emin(-WORK_EXP);
  mpfr_set_emax(WORK_EXP);
  worker w;
  worker_init(&w, f, t);
  result *r = &j->res;
  memset(r, 0, sizeof *r);
  for (size_t i = j->lo; i < j->hi; i++) {
    double xin[3] = {0, 0, 0};
    int nsub = 0;
    for (int a = 0; a < nargs; a++)
      if (f->args[a] == 'f') {
        xin[a] = bt->in[a][i];
        nsub += is_subnormal(t, xin[a]);
      }
    int which;
    enum why why;
    double err = eval_one(&w, bt, i, xin, 0, &which, &why);
    /* float: subnormal inputs may be flushed to ±0 */
    if (err != 0 && t->idx == 1 && nsub > 0) {
      /* each subnormal operand kept, flushed to +0 or flushed to -0 ("one or more") */
      for (int mask = 1; mask < 27 && err != 0; mask++) {
        double xf[3];
        int m = mask, any = 0;
        for (int a = 0; a < 3; a++, m /= 3) {
          xf[a] = xin[a];
          if (a < nargs && f->args[a] == 'f' && is_subnormal(t, xin[a]) && m % 3) {
            xf[a] = m % 3 == 2 ? -0.0 : 0.0;
            any = 1;
          }
        }
        if (!any)
          continue;
        int wh2;
        enum why why2;
        double e2 = eval_one(&w, bt, i, xf, 1, &wh2, &why2);
        if (e2 < err) {
          err = e2;
          which = wh2;
          why = why2;
        }
      }
    }
    int bad = isinf(err) && why != OK;
    if (bad)
      r->rule_fail++;
    else if (j->bound >= 0 && err > j->bound + BOUND_SLACK)
      r->over++;
    if (i == j->lo || err > r->max_err) {
      r->max_err = err;
      r->worst = i;
      r->why = why;
      r->worst_out = which;
    }
  }
  worker_clear(&w);
  return NULL;
}

/* ---- files ----------------------------------------------------------------------------------- */

static unsigned char *read_file(const char *path, size_t *size)
{
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    fprintf(stderr, "k2s-ulp: error: cannot open '%s': %s\n", path, strerror(errno));
    exit(1);
  }
  fseek(fp, 0, SEEK_END);
  long sz = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *buf = malloc(sz > 0 ? (size_t)sz : 1);
  if (!buf || fread(buf, 1, (size_t)sz, fp) != (size_t)sz) {
    fprintf(stderr, "k2s-ulp: error: cannot read '%s'\n", path);
    exit(1);
  }
  fclose(fp);
  *size = (size_t)sz;
  return buf;
}

static void write_file(const char *path, const void *data, size_t size)
{
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0) {
    fprintf(stderr, "k2s-ulp: error: cannot write '%s': %s\n", path, strerror(errno));
    exit(1);
  }
}

static void fmt_value(char *buf, size_t sz, double v)
{
  if (isnan(v))
    snprintf(buf, sz, "nan");
  else if (isinf(v))
    snprintf(buf, sz, v > 0 ? "inf" : "-inf");
  else
    snprintf(buf, sz, "%a", v);
}

/* ---- commands -------------------------------------------------------------------------------- */

static void usage(void)
{
  fprintf(stderr, "usage: k2s-ulp list\n"
                  "       k2s-ulp gen FUNC TYPE COUNT SEED DIR\n"
                  "       k2s-ulp gen-exhaustive FUNC TYPE FIRST COUNT DIR\n"
                  "       k2s-ulp check FUNC TYPE DIR [-j N] [--nspecial K]\n");
  exit(2);
}

static double bound_of(const func *f, const fmt *t)
{
  return f->bound[t->idx];
}

static int cmd_list(void)
{
  for (size_t i = 0; i < k2s_ulp_nfuncs; i++) {
    const func *f = &k2s_ulp_funcs[i];
    printf("{\"name\": \"%s\", \"expr\": \"%s\", \"args\": \"%s\", \"outs\": \"%s\", "
           "\"types\": [",
           f->name, f->expr, f->args, f->outs);
    int first = 1;
    for (int k = 0; k < 3; k++)
      if (f->types & (1u << k)) {
        printf("%s\"%s\"", first ? "" : ", ", FORMATS[k].name);
        first = 0;
      }
    printf("], \"bound\": {");
    first = 1;
    for (int k = 0; k < 3; k++)
      if (f->types & (1u << k)) {
        double b = f->bound[k];
        if (b == ABS_BOUND)
          printf("%s\"%s\": \"abs %g\"", first ? "" : ", ", FORMATS[k].name, f->abs_bound);
        else if (b == NO_BOUND)
          printf("%s\"%s\": null", first ? "" : ", ", FORMATS[k].name);
        else
          printf("%s\"%s\": %g", first ? "" : ", ", FORMATS[k].name, b);
        first = 0;
      }
    printf("}}\n");
  }
  return 0;
}

/* Writes the input files; returns the count (a multiple of 64, padded with random). */
static int cmd_gen(const func *f, const fmt *t, size_t count, uint64_t seed, const char *dir)
{
  int nargs = (int)strlen(f->args);
  /* special values: all of them for one argument, a smaller set crossed for more */
  double sp[128], sps[64];
  int nsp = special_values(t, 0, sp), nsps = special_values(t, 1, sps);
  int nints = (int)(sizeof SPECIAL_INTS / sizeof *SPECIAL_INTS);
  int dims[3];
  size_t total = 1;
  for (int a = 0; a < nargs; a++) {
    dims[a] = f->args[a] == 'i' ? nints : nargs == 1 ? nsp : nsps;
    total *= (size_t)dims[a];
  }
  if (f->flags & NO_SPECIALS)
    total = 0;
  size_t cap = count + total + 128;
  double *v[3];
  int *iv[3];
  for (int a = 0; a < 3; a++) {
    v[a] = calloc(cap, sizeof(double));
    iv[a] = calloc(cap, sizeof(int));
  }
  size_t n = 0;
  {
    for (size_t k = 0; k < total; k++) {
      size_t rest = k;
      int keep = 1;
      for (int a = 0; a < nargs; a++) {
        int j = (int)(rest % (size_t)dims[a]);
        rest /= (size_t)dims[a];
        if (f->args[a] == 'i')
          iv[a][n] = SPECIAL_INTS[j], v[a][n] = SPECIAL_INTS[j];
        else
          v[a][n] = nargs == 1 ? sp[j] : sps[j];
        if ((f->flags & TRIG16) && fabs(v[a][n]) > 65536)
          keep = 0;
      }
      if (keep)
        n++;
    }
  }
  size_t nspecial = n;
  uint64_t s = seed;
  for (const char *c = f->name; *c; c++)
    s = s * 131 + (unsigned char)*c;
  s ^= (uint64_t)t->idx << 56;
  size_t want = nspecial + count;
  if (want % 64)
    want += 64 - want % 64;
  while (n < want) {
    const range_set *rs = &f->sets[(n - nspecial) % (size_t)f->nsets];
    for (int a = 0; a < nargs; a++) {
      range r = rs->arg[a];
      if (r.kind == 0)
        r.kind = 'b';
      if (f->args[a] == 'i' && r.kind != 'i')
        r = (range){'i', -64, 64};
      int iv1 = 0;
      double val = random_value(t, &r, &s, &iv1);
      if ((f->flags & TRIG16) && !(fabs(val) <= 65536)) {
        a--; /* draw again: outside the function's domain */
        continue;
      }
      v[a][n] = val;
      iv[a][n] = iv1;
    }
    n++;
  }
  for (int a = 0; a < nargs; a++) {
    size_t sz = f->args[a] == 'i' ? 4 : (size_t)t->bytes;
    unsigned char *buf = malloc(n * sz);
    for (size_t i = 0; i < n; i++) {
      if (f->args[a] == 'i')
        memcpy(buf + i * 4, &iv[a][i], 4);
      else
        store_value(t, buf + i * sz, v[a][i]);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/in%d.bin", dir, a);
    write_file(path, buf, n * sz);
    free(buf);
  }
  printf("%zu %zu\n", n, nspecial);
  return 0;
}

static int cmd_gen_exhaustive(const func *f, const fmt *t, uint64_t first, size_t count,
                              const char *dir)
{
  if (strcmp(f->args, "f") != 0) {
    fprintf(stderr, "k2s-ulp: error: gen-exhaustive takes one-argument functions only\n");
    return 2;
  }
  unsigned char *buf = malloc(count * (size_t)t->bytes);
  for (size_t i = 0; i < count; i++) {
    uint64_t bits = first + i;
    memcpy(buf + i * (size_t)t->bytes, &bits, (size_t)t->bytes);
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/in0.bin", dir);
  write_file(path, buf, count * (size_t)t->bytes);
  free(buf);
  printf("%zu 0\n", count);
  return 0;
}

/* Measures every input of the batch (threads in parallel); the worst case and counts. */
static result check_batch(const batch *bt, int threads)
{
  const func *f = bt->f;
  const fmt *t = bt->t;
  size_t n = bt->n;
  int nargs = (int)strlen(f->args);
  double bound = bound_of(f, t);
  if (bound == ABS_BOUND)
    bound = -1; /* handled below */
  if (threads < 1)
    threads = 1;
  if ((size_t)threads > n / 256 + 1)
    threads = (int)(n / 256 + 1);
  job *jobs = calloc((size_t)threads, sizeof(job));
  pthread_t *tid = calloc((size_t)threads, sizeof(pthread_t));
  for (int k = 0; k < threads; k++) {
    jobs[k].bt = bt;
    jobs[k].lo = n * (size_t)k / (size_t)threads;
    jobs[k].hi = n * (size_t)(k + 1) / (size_t)threads;
    jobs[k].bound = bound;
    pthread_create(&tid[k], NULL, run_job, &jobs[k]);
  }
  result tot = {0};
  tot.max_err = -1;
  for (int k = 0; k < threads; k++) {
    pthread_join(tid[k], NULL);
    result *r = &jobs[k].res;
    if (jobs[k].hi == jobs[k].lo)
      continue;
    tot.over += r->over;
    tot.rule_fail += r->rule_fail;
    if (r->max_err > tot.max_err) {
      tot.max_err = r->max_err;
      tot.worst = r->worst;
      tot.why = r->why;
      tot.worst_out = r->worst_out;
    }
  }
  if (tot.max_err < 0)
    tot.max_err = 0;

  /* Absolute bounds (mix, smoothstep): measure |got - exact| instead. */
  double abs_err = -1;
  size_t abs_worst = 0, abs_over = 0;
  if (f->bound[t->idx] == ABS_BOUND) {
    mpfr_set_emin(-WORK_EXP);
    mpfr_set_emax(WORK_EXP);
    worker w;
    worker_init(&w, f, t);
    for (size_t i = 0; i < n; i++) {
      for (int a = 0; a < nargs; a++)
        mpfr_set_d(w.x[a], bt->in[a][i], MPFR_RNDN), w.xd[a] = bt->in[a][i];
      long nn[3] = {0, 0, 0};
      eval(&w, nn);
      double e =
          isnan(bt->out[0][i]) ? INFINITY : fabs(bt->out[0][i] - mpfr_get_d(w.r.y[0], MPFR_RNDN));
      if (e > f->abs_bound)
        abs_over++;
      if (e > abs_err) {
        abs_err = e;
        abs_worst = i;
      }
    }
    worker_clear(&w);
    tot.max_err = abs_err;
    tot.worst = abs_worst;
    tot.over = abs_over;
    tot.why = OK;
    tot.worst_out = 0;
  }
  free(jobs);
  free(tid);
  return tot;
}

/* ---- self test: the comparison itself must catch what it is meant to catch ------------ */

static int st_fail;

/* Runs a 1..3-input, one-output case and checks the verdict. */
static const double *st_in2; /* a third argument for the next st_case (mad) */

static void st_case(const char *what, const char *fname, const char *tname, size_t n,
                    const double *in0, const double *in1, const double *out, int want_over,
                    int want_rule, double max_lo, double max_hi)
{
  const func *f = find_func(fname);
  const fmt *t = find_fmt(tname);
  batch bt = {.f = f, .t = t, .n = n};
  bt.in[0] = (double *)in0;
  bt.in[1] = (double *)in1;
  bt.in[2] = (double *)st_in2;
  st_in2 = NULL;
  bt.out[0] = bt.out[1] = (double *)out;
  result r = check_batch(&bt, 1);
  int ok = (want_over < 0 || (want_over ? r.over > 0 : r.over == 0)) &&
           (want_rule < 0 || (want_rule ? r.rule_fail > 0 : r.rule_fail == 0)) &&
           r.max_err >= max_lo && r.max_err <= max_hi;
  printf("%s %s: %s %s: max %g, over %zu, edge %zu\n", ok ? "ok  " : "FAIL", what, fname, tname,
         r.max_err, r.over, r.rule_fail);
  st_fail += !ok;
}

static int cmd_selftest(void)
{
  enum { N = 4096 };
  static double x[N], y[N], o[N];
  uint64_t s = 7;
  /* sqrt, float, glibc's correctly rounded sqrtf: within 0.5 ulp */
  for (int i = 0; i < N; i++) {
    x[i] = from_bits(&FORMATS[1], splitmix(&s) % 0x7f800000u);
    o[i] = sqrtf((float)x[i]);
  }
  st_case("correctly rounded", "sqrt", "float", N, x, NULL, o, 0, 0, 0.25, 0.5);
  /* one ulp off: more than 0.5, at most 1.5; over the double bound (correctly rounded) */
  for (int i = 0; i < N; i++) {
    x[i] = from_bits(&FORMATS[2], splitmix(&s) % 0x7ff0000000000000ull);
    o[i] = nextafter(sqrt(x[i]), INFINITY);
  }
  st_case("one ulp up", "sqrt", "double", N, x, NULL, o, 1, 0, 0.5, 1.5);
  /* half: rounded from double: correctly rounded */
  for (int i = 0; i < N; i++) {
    x[i] = from_bits(&FORMATS[0], i % 0x7c00);
    o[i] = round_to(&FORMATS[0], sqrt(x[i]));
  }
  st_case("correctly rounded", "sqrt", "half", N, x, NULL, o, 0, 0, 0.25, 0.5);
  /* sin(-0) must be -0 */
  x[0] = -0.0, o[0] = 0.0;
  st_case("zero sign", "sin", "float", 1, x, NULL, o, -1, 1, INFINITY, INFINITY);
  /* exp(1) = NaN is wrong; exp(NaN) = 1 is wrong */
  x[0] = 1, o[0] = NAN;
  st_case("NaN for a number", "exp", "float", 1, x, NULL, o, -1, 1, INFINITY, INFINITY);
  x[0] = NAN, o[0] = 1;
  st_case("number for NaN", "exp", "float", 1, x, NULL, o, -1, 1, INFINITY, INFINITY);
  /* cos(0) = 1 exactly, prescribed: one ulp below is wrong even within 4 ulp */
  x[0] = 0, o[0] = nextafterf(1.0f, 0.0f);
  st_case("prescribed value", "cos", "float", 1, x, NULL, o, -1, 1, INFINITY, INFINITY);
  /* ... but 1 ulp below the correctly rounded cos(1e-3) is fine under a 4 ulp bound */
  x[0] = (float)1e-3, o[0] = nextafterf(cosf((float)1e-3), 0.0f);
  st_case("within bound", "cos", "float", 1, x, NULL, o, 0, 0, 0.5, 1.5);
  /* float may flush subnormal inputs and results; double and half may not */
  x[0] = ldexp(1, -149), o[0] = 0.0;
  x[1] = ldexp(1, -140), o[1] = -0.0;
  st_case("flush to zero allowed", "sqrt", "float", 1, x, NULL, o, 0, 0, 0, 0);
  x[0] = ldexp(1, -100), o[0] = 0.0; /* exp(-100 * ln2)-like: result subnormal */
  st_case("flushed result allowed", "exp2", "float", 1, (double[]){-140}, NULL, o, 0, 0, 0, 0);
  x[0] = ldexp(1, -1074), o[0] = 0.0;
  st_case("no flushing for double", "sqrt", "double", 1, x, NULL, o, 1, -1, 1e6, INFINITY);
  x[0] = ldexp(1, -24), o[0] = 0.0;
  st_case("no flushing for half", "sqrt", "half", 1, x, NULL, o, 1, -1, 1, INFINITY);
  /* float mad: a product subnormal before rounding may be flushed (the multiply-add form),
   * leaving c; a normal product may not; double mad has no bound to fail */
  x[0] = 0x1.8678fap-105, y[0] = -0x1.481266p-22, o[0] = 0x1.19f9cp-125;
  st_in2 = (double[]){0x1.19f9cp-125};
  st_case("mad: flushed product allowed", "mad", "float", 1, x, y, o, 0, 0, 0, 0);
  x[0] = 0x1.8678fap-95, o[0] = 0x1.19f9cp-115;
  st_in2 = (double[]){0x1.19f9cp-115};
  st_case("mad: normal product not dropped", "mad", "float", 1, x, y, o, -1, 0, 1e3, INFINITY);
  /* overflow: inf for a finite result beyond the format is the correct rounding */
  x[0] = 89, o[0] = INFINITY;
  st_case("correct overflow", "exp", "float", 1, x, NULL, o, 0, 0, 0, 0);
  /* pow(1, NaN) = 1 and pow(x, ±0) = 1 are prescribed */
  x[0] = 1, y[0] = NAN, o[0] = NAN;
  st_case("pow(1, NaN)", "pow", "float", 1, x, y, o, -1, 1, INFINITY, INFINITY);
  x[0] = 3, y[0] = 0, o[0] = 1;
  st_case("pow(3, 0)", "pow", "float", 1, x, y, o, 0, 0, 0, 0);
  /* fmax(+0, -0): either zero */
  x[0] = 0.0, y[0] = -0.0, o[0] = -0.0;
  x[1] = -0.0, y[1] = 0.0, o[1] = -0.0;
  st_case("fmax of zeros", "fmax", "float", 2, x, y, o, 0, 0, 0, 0);
  /* fract(-0) = -0 */
  x[0] = -0.0, o[0] = 0.0;
  st_case("fract(-0)", "fract", "float", 1, x, NULL, o, -1, 1, INFINITY, INFINITY);
  printf("%s\n", st_fail ? "selftest FAILED" : "selftest passed");
  return st_fail ? 1 : 0;
}

static int cmd_check(const func *f, const fmt *t, const char *dir, int threads, size_t nspecial)
{
  int nargs = (int)strlen(f->args), nouts = (int)strlen(f->outs);
  batch bt = {.f = f, .t = t, .nspecial = nspecial};
  size_t n = (size_t)-1;
  for (int k = 0; k < nargs + nouts; k++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/arg%d.bin", dir, k);
    size_t sz;
    unsigned char *buf = read_file(path, &sz);
    char kind = k < nargs ? f->args[k] : f->outs[k - nargs];
    size_t esz = kind == 'i' ? 4 : (size_t)t->bytes;
    size_t cnt = sz / esz;
    if (n == (size_t)-1)
      n = cnt;
    else if (cnt != n) {
      fprintf(stderr, "k2s-ulp: error: %s holds %zu values, expected %zu\n", path, cnt, n);
      return 1;
    }
    if (kind == 'i') {
      int *iv = malloc(cnt * sizeof(int));
      memcpy(iv, buf, cnt * 4);
      if (k < nargs)
        bt.iin[k] = iv;
      else
        bt.iout[k - nargs] = iv;
    } else {
      double *dv = malloc(cnt * sizeof(double));
      for (size_t i = 0; i < cnt; i++)
        dv[i] = load_value(t, buf + i * esz);
      if (k < nargs)
        bt.in[k] = dv;
      else
        bt.out[k - nargs] = dv;
    }
    free(buf);
  }
  bt.n = n;
  result tot = check_batch(&bt, threads);

  /* the worst input, the result and the expected value */
  char ibuf[3][64], gbuf[64], wbuf[64];
  size_t i = tot.worst;
  for (int a = 0; a < nargs; a++) {
    if (f->args[a] == 'i')
      snprintf(ibuf[a], 64, "%d", bt.iin[a][i]);
    else
      fmt_value(ibuf[a], 64, bt.in[a][i]);
  }
  worker w;
  mpfr_set_emin(-WORK_EXP);
  mpfr_set_emax(WORK_EXP);
  worker_init(&w, f, t);
  long nn[3] = {0, 0, 0};
  for (int a = 0; a < nargs; a++) {
    if (f->args[a] == 'i')
      nn[a] = bt.iin[a][i];
    else
      mpfr_set_d(w.x[a], bt.in[a][i], MPFR_RNDN), w.xd[a] = bt.in[a][i];
  }
  eval(&w, nn);
  int o = tot.worst_out;
  if (f->outs[o] == 'i') {
    snprintf(gbuf, 64, "%d", bt.iout[o][i]);
    snprintf(wbuf, 64, "%ld", w.r.iy[o]);
  } else {
    fmt_value(gbuf, 64, bt.out[o][i]);
    round_fmt(t, w.c, w.r.y[o], w.r.tern[o]);
    fmt_value(wbuf, 64, mpfr_get_d(w.c, MPFR_RNDN));
  }
  worker_clear(&w);

  printf("{\"name\": \"%s\", \"type\": \"%s\", \"n\": %zu, \"nspecial\": %zu, ", f->name, t->name,
         n, nspecial);
  if (isinf(tot.max_err))
    printf("\"max_err\": \"inf\", ");
  else
    printf("\"max_err\": %.6g, ", tot.max_err);
  printf("\"over\": %zu, \"rule_fail\": %zu, \"worst\": {\"in\": [", tot.over, tot.rule_fail);
  for (int a = 0; a < nargs; a++)
    printf("%s\"%s\"", a ? ", " : "", ibuf[a]);
  printf("], \"out\": %d, \"got\": \"%s\", \"want\": \"%s\", \"why\": \"%s\"}}\n", o, gbuf, wbuf,
         WHY[tot.why]);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 2)
    usage();
  if (!strcmp(argv[1], "list"))
    return cmd_list();
  if (!strcmp(argv[1], "selftest"))
    return cmd_selftest();
  if (argc < 4)
    usage();
  const func *f = find_func(argv[2]);
  const fmt *t = find_fmt(argv[3]);
  if (!f || !t) {
    fprintf(stderr, "k2s-ulp: error: unknown %s '%s'\n", f ? "type" : "function",
            f ? argv[3] : argv[2]);
    return 2;
  }
  if (!(f->types & (1u << t->idx))) {
    fprintf(stderr, "k2s-ulp: error: %s has no %s form\n", f->name, t->name);
    return 2;
  }
  if (!strcmp(argv[1], "gen") && argc == 7)
    return cmd_gen(f, t, strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10), argv[6]);
  if (!strcmp(argv[1], "gen-exhaustive") && argc == 7)
    return cmd_gen_exhaustive(f, t, strtoull(argv[4], NULL, 0), strtoull(argv[5], NULL, 0),
                              argv[6]);
  if (!strcmp(argv[1], "check") && argc >= 5) {
    int threads = 1;
    size_t nspecial = 0;
    for (int k = 5; k < argc; k++) {
      if (!strcmp(argv[k], "-j") && k + 1 < argc)
        threads = atoi(argv[++k]);
      else if (!strcmp(argv[k], "--nspecial") && k + 1 < argc)
        nspecial = strtoull(argv[++k], NULL, 10);
      else
        usage();
    }
    return cmd_check(f, t, argv[4], threads, nspecial);
  }
  usage();
  return 2;
}
