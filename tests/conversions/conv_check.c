/*
 * conv_check: the host half of the device conversion test (tests/conversions).
 *
 *   conv_check kernel SRC LANES N           OpenCL C: every convert_DST[_sat][_rtX] of
 *                                           N SRC values, LANES at a time (1,2,3,4,8,16)
 *   conv_check inputs SRC N SEED FILE       the N input values (8/16-bit sources: all
 *                                           2^bits patterns, whatever N says)
 *   conv_check check SRC N COUNT IN DIR     compare DIR/arg1.bin..arg11.bin (k2s-run or
 *                                           k2s-clref --dump-dir) with the reference for
 *                                           the first COUNT inputs (--no-half: not the
 *                                           half results, for an OpenCL without fp16)
 *
 * The reference implements the OpenCL C rules (section "Explicit Conversions")
 * on its own: integer → integer wraps or (with _sat) clamps; float → integer
 * rounds by the mode (default toward zero), then with _sat sends NaN to 0 and
 * clamps, and without _sat leaves out-of-range values and NaN undefined (not
 * checked); → float rounds by the mode (default to nearest even), with IEEE
 * overflow, subnormals and NaN, computed with MPFR in the destination's
 * precision and exponent range. A subnormal float input may also be taken
 * as zero (Vulkan and OpenCL let a device flush denormals): such results are
 * accepted and counted apart.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

typedef struct type {
  const char *name;
  bool is_float, is_signed;
  unsigned bits;
} type;

enum { N_TYPES = 11 };
static const type types[N_TYPES] = {
    {"char", false, true, 8},   {"uchar", false, false, 8}, {"short", false, true, 16},
    {"ushort", false, false, 16}, {"int", false, true, 32},  {"uint", false, false, 32},
    {"long", false, true, 64},  {"ulong", false, false, 64}, {"half", true, true, 16},
    {"float", true, true, 32},  {"double", true, true, 64},
};

/* Variant v of a destination: sat = v >= 5 (integers only), mode = v % 5. */
enum { MODE_DEFAULT, MODE_RTE, MODE_RTZ, MODE_RTP, MODE_RTN };
static const char *const mode_suffix[5] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

static unsigned n_variants(const type *d)
{
  return d->is_float ? 5 : 10;
}

static const type *type_named(const char *s)
{
  for (int i = 0; i < N_TYPES; i++)
    if (!strcmp(types[i].name, s))
      return &types[i];
  fprintf(stderr, "conv_check: unknown type '%s'\n", s);
  exit(2);
}

static uint64_t mask_of(unsigned bits)
{
  return bits == 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- float formats -------------------------------------------------------- */

static unsigned mant_bits(unsigned w)
{
  return w == 16 ? 10 : w == 32 ? 23 : 52;
}
static int exp_bias(unsigned w)
{
  return w == 16 ? 15 : w == 32 ? 127 : 1023;
}

/* The value of float bits of width w (half/float exactly as a double). */
static double float_value(uint64_t bits, unsigned w)
{
  if (w == 64) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  if (w == 32) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return f;
  }
  unsigned e = (bits >> 10) & 31, m = bits & 1023;
  double s = (bits & 0x8000) ? -1.0 : 1.0;
  if (e == 31)
    return m ? NAN : s * INFINITY;
  return s * (e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24));
}

/* Bits of an exactly representable value d in width w. */
static uint64_t float_bits(double d, unsigned w)
{
  if (w == 64) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
  }
  if (w == 32) {
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
  }
  uint64_t sign = signbit(d) ? 0x8000 : 0;
  double a = fabs(d);
  if (isnan(d))
    return 0x7e00;
  if (isinf(a))
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  int e;
  frexp(a, &e); /* a in [2^(e-1), 2^e) */
  if (e - 1 < -14)
    return sign | (uint64_t)ldexp(a, 24);
  return sign | (uint64_t)(e - 1 + 15) << 10 | ((uint64_t)ldexp(a, 11 - e) - 1024);
}

static bool bits_is_nan(uint64_t bits, unsigned w)
{
  uint64_t exp_mask = mask_of(w - 1 - mant_bits(w)) << mant_bits(w);
  return (bits & exp_mask) == exp_mask && (bits & mask_of(mant_bits(w)));
}

static bool bits_is_subnormal(uint64_t bits, unsigned w)
{
  uint64_t exp_mask = mask_of(w - 1 - mant_bits(w)) << mant_bits(w);
  return (bits & exp_mask) == 0 && (bits & mask_of(mant_bits(w)));
}

/* ---- the reference ------------------------------------------------------- */

/* A source value: its raw bits and what they mean. */
typedef struct value {
  uint64_t bits;
  bool is_float;
  double f;   /* float sources */
  int64_t s;  /* signed integer sources */
  uint64_t u; /* unsigned integer sources */
  bool is_signed;
} value;

static value make_value(const type *t, uint64_t bits)
{
  value v = {.bits = bits & mask_of(t->bits), .is_float = t->is_float, .is_signed = t->is_signed};
  if (t->is_float)
    v.f = float_value(v.bits, t->bits);
  else if (t->is_signed) {
    unsigned sh = 64 - t->bits;
    v.s = (int64_t)(v.bits << sh) >> sh;
  } else
    v.u = v.bits;
  return v;
}

typedef enum { R_BITS, R_ANY_NAN, R_UNDEFINED } result_kind;
typedef struct result {
  result_kind kind;
  uint64_t bits;
} result;

static result bits_result(uint64_t bits, unsigned w)
{
  return (result){R_BITS, bits & mask_of(w)};
}

static result to_int(const value *x, const type *d, bool sat, int mode)
{
  uint64_t umax = d->is_signed ? mask_of(d->bits - 1) : mask_of(d->bits);
  uint64_t umin = d->is_signed ? ~umax : 0;
  if (!x->is_float) {
    if (!sat)
      return bits_result(x->is_signed ? (uint64_t)x->s : x->u, d->bits);
    if (x->is_signed) {
      if (x->s < 0 && (!d->is_signed || x->s < (int64_t)umin))
        return bits_result(umin, d->bits);
      if (x->s > 0 && (uint64_t)x->s > umax)
        return bits_result(umax, d->bits);
      return bits_result((uint64_t)x->s, d->bits);
    }
    return bits_result(x->u > umax ? umax : x->u, d->bits);
  }
  if (isnan(x->f))
    return sat ? bits_result(0, d->bits) : (result){R_UNDEFINED, 0};
  double r;
  switch (mode) {
  case MODE_RTE: r = nearbyint(x->f); break; /* the default environment rounds to nearest even */
  case MODE_RTP: r = ceil(x->f); break;
  case MODE_RTN: r = floor(x->f); break;
  default: r = trunc(x->f); break;
  }
  double lo = d->is_signed ? -ldexp(1, (int)d->bits - 1) : 0;
  double hi = ldexp(1, d->is_signed ? (int)d->bits - 1 : (int)d->bits); /* first value above */
  if (r < lo)
    return sat ? bits_result(umin, d->bits) : (result){R_UNDEFINED, 0};
  if (r >= hi)
    return sat ? bits_result(umax, d->bits) : (result){R_UNDEFINED, 0};
  return bits_result(r < 0 ? (uint64_t)(int64_t)r : (uint64_t)r, d->bits);
}

static mpfr_rnd_t mpfr_mode(int mode)
{
  switch (mode) {
  case MODE_RTZ: return MPFR_RNDZ;
  case MODE_RTP: return MPFR_RNDU;
  case MODE_RTN: return MPFR_RNDD;
  default: return MPFR_RNDN;
  }
}

static result to_float(const value *x, const type *d, int mode)
{
  unsigned w = d->bits;
  if (x->is_float && isnan(x->f))
    return (result){R_ANY_NAN, 0};
  if (x->is_float && (isinf(x->f) || x->f == 0))
    return bits_result(float_bits(x->f, w), w);
  /* MPFR in the destination's format: precision p, and an exponent range
   * (MPFR's significands are in [1/2, 1)) that subnormalize() turns into
   * IEEE gradual underflow. */
  int p = (int)mant_bits(w) + 1, emax = exp_bias(w) + 1, emin = 1 - exp_bias(w) - p + 2;
  mpfr_t src, y;
  mpfr_init2(src, 64);
  mpfr_init2(y, p);
  if (x->is_float)
    mpfr_set_d(src, x->f, MPFR_RNDN);
  else if (x->is_signed)
    mpfr_set_sj(src, x->s, MPFR_RNDN);
  else
    mpfr_set_uj(src, x->u, MPFR_RNDN);
  mpfr_exp_t old_min = mpfr_get_emin(), old_max = mpfr_get_emax();
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_rnd_t rnd = mpfr_mode(mode);
  int t = mpfr_set(y, src, rnd);
  t = mpfr_check_range(y, t, rnd);
  mpfr_subnormalize(y, t, rnd);
  mpfr_set_emin(old_min);
  mpfr_set_emax(old_max);
  double r = mpfr_get_d(y, MPFR_RNDN); /* exact: y has at most 53 bits */
  mpfr_clear(src);
  mpfr_clear(y);
  return bits_result(float_bits(r, w), w);
}

static result reference(const value *x, const type *d, unsigned variant)
{
  bool sat = variant >= 5;
  int mode = (int)(variant % 5);
  return d->is_float ? to_float(x, d, mode) : to_int(x, d, sat, mode);
}

static bool matches(result r, uint64_t got, unsigned w)
{
  switch (r.kind) {
  case R_UNDEFINED: return true;
  case R_ANY_NAN: return bits_is_nan(got, w);
  default: return got == r.bits;
  }
}

/* ---- input values --------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rnd64(void)
{
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static unsigned rnd_below(unsigned n)
{
  return (unsigned)(rnd64() % n);
}

typedef struct vec {
  uint64_t *v;
  size_t n, cap;
} vec;
static void push(vec *a, uint64_t x)
{
  if (a->n == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->v = realloc(a->v, a->cap * sizeof *a->v);
    if (!a->v) {
      fprintf(stderr, "conv_check: out of memory\n");
      exit(1);
    }
  }
  a->v[a->n++] = x;
}

/* Push double d as a source value of float width w (32/64; half sources are
 * exhaustive) when it is representable there, so one edge list serves both. */
static void push_float(vec *a, double d, unsigned w)
{
  if (w == 32 && (double)(float)d != d && !isnan(d))
    return;
  push(a, float_bits(d, w));
}

/* Integer edges: limits, powers of two and their neighbours, and values on
 * and around the rounding ties of half/float/double precision. */
static void int_inputs(vec *a, const type *t, size_t n)
{
  unsigned w = t->bits;
  for (unsigned k = 0; k < w; k++) {
    uint64_t p = 1ull << k;
    uint64_t list[] = {p, p - 1, p + 1, -p, -p - 1, -p + 1};
    for (unsigned j = 0; j < 6; j++)
      push(a, list[j] & mask_of(w));
  }
  static const unsigned precisions[] = {11, 24, 53};
  for (unsigned pi = 0; pi < 3; pi++) {
    unsigned p = precisions[pi];
    for (unsigned msb = p; msb < w; msb++) {
      unsigned s = msb + 1 - p; /* dropped bits */
      for (int rep = 0; rep < 6; rep++) {
        uint64_t m = (rnd64() & mask_of(msb)) | 1ull << msb;
        uint64_t tie = (m & ~mask_of(s)) | 1ull << (s - 1);
        uint64_t list[] = {tie, tie - 1, tie + 1, m & ~mask_of(s), (m & ~mask_of(s)) ^ (1ull << s)};
        for (unsigned j = 0; j < 5; j++) {
          uint64_t v = list[j];
          if (t->is_signed && msb == w - 1)
            v = -(v & mask_of(w - 1)); /* keep the magnitude in range */
          else if (t->is_signed && (rnd64() & 1))
            v = -v;
          push(a, v & mask_of(w));
        }
      }
    }
  }
  while (a->n < n) {
    uint64_t r = rnd64() >> rnd_below(64);
    if (t->is_signed && (rnd64() & 1))
      r = -r;
    push(a, r & mask_of(w));
  }
}

static void float_inputs(vec *a, const type *t, size_t n)
{
  unsigned w = t->bits;
  double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5,
                       -2.5, 0.25, 0.75, -0.75, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0,
                       32767.5, -32768.5, 32768.0, 65503.0, 65504.0, 65519.0, 65520.0, 65535.5,
                       65536.0, 0x1p-14, 0x1p-24, 0x1p-25, 0x3p-26, 0x1.8p-24, 0x1p-126,
                       0x1p-149, 0x1p-150, 0x1.8p-149, FLT_MAX, -FLT_MAX, DBL_MAX, DBL_MIN,
                       0x1p-1074, 0x1.fffffcp-127, 0x1.fffffep127, 0x1.ffffffp127};
  for (unsigned k = 0; k < sizeof specials / sizeof specials[0]; k++) {
    push_float(a, specials[k], w);
    push_float(a, -specials[k], w);
  }
  /* NaN payloads, signs, signalling */
  uint64_t exp_all = mask_of(w - 1 - mant_bits(w)) << mant_bits(w);
  push(a, exp_all | 1);
  push(a, exp_all | 1ull << (w - 1) | mask_of(mant_bits(w)));
  /* powers of two of the integer widths and their float neighbours */
  for (int e = 0; e <= 64; e++)
    for (int s = -1; s <= 1; s += 2) {
      uint64_t b = float_bits(ldexp(s, e), w);
      if (!isinf(float_value(b, w)) && float_value(b, w) == ldexp(s, e)) {
        push(a, b);
        push(a, b + 1);
        push(a, b - 1);
      }
    }
  /* subnormals of the source format and around the smallest normal */
  push(a, 1);
  push(a, mask_of(mant_bits(w)));
  push(a, 1ull << mant_bits(w));
  /* rounding ties for every narrower precision: half of a dropped unit, ±1 */
  static const unsigned narrower[] = {10, 23};
  for (unsigned k = 0; k < 2; k++) {
    unsigned md = narrower[k];
    if (md >= mant_bits(w))
      continue;
    unsigned drop = mant_bits(w) - md;
    for (int rep = 0; rep < 64; rep++) {
      uint64_t b = rnd64() & mask_of(w);
      b = (b & ~mask_of(drop)) | 1ull << (drop - 1);
      push(a, b);
      push(a, b + 1);
      push(a, b - 1);
    }
  }
  /* x.5 and x.25 near small integers and the integer limits */
  for (int i = -40; i <= 40; i++)
    for (int q = 0; q < 4; q++)
      push_float(a, i + q * 0.25, w);
  while (a->n < n) {
    uint64_t b;
    switch (rnd_below(4)) {
    case 0: b = rnd64() & mask_of(w); break; /* any pattern */
    case 1: { /* moderate magnitudes: all the integer ranges and their fractions */
      double v = ldexp((double)(rnd64() >> 11) * 0x1p-53, (int)rnd_below(70) - 4);
      b = w == 32 ? float_bits((double)(float)v, 32) : float_bits(v, 64);
      if (rnd64() & 1)
        b |= 1ull << (w - 1);
      break;
    }
    case 2: /* random mantissa and sign with an exponent of 2^0..2^63 */
      b = (rnd64() & mask_of(w) & ~exp_all) | float_bits(ldexp(1, (int)rnd_below(64)), w);
      break;
    default: b = rnd64() & mask_of(w) & ~exp_all; /* subnormals and zero */
      b |= (uint64_t)rnd_below(3) << mant_bits(w);
      break;
    }
    push(a, b & mask_of(w));
  }
}

static void make_inputs(const type *t, size_t n, uint64_t seed, vec *a)
{
  rng_state = seed;
  if (t->bits <= 16) {
    for (uint64_t b = 0; b <= mask_of(t->bits); b++)
      push(a, b);
    return;
  }
  if (t->is_float)
    float_inputs(a, t, n);
  else
    int_inputs(a, t, n);
  a->n = n < a->n ? n : a->n; /* edges first; cut to the requested count */
}

static size_t input_count(const type *t, size_t n)
{
  return t->bits <= 16 ? (size_t)1 << t->bits : n;
}

/* ---- files ------------------------------------------------------------------ */

static void write_values(const char *path, const vec *a, unsigned bits)
{
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  for (size_t i = 0; i < a->n; i++)
    fwrite(&a->v[i], bits / 8, 1, f); /* little-endian host */
  fclose(f);
}

static uint8_t *read_file(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
  if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "conv_check: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  *size = (size_t)n;
  return p;
}

static uint64_t load(const uint8_t *p, size_t i, unsigned bits)
{
  uint64_t v = 0;
  memcpy(&v, p + i * (bits / 8), bits / 8);
  return v;
}

/* ---- commands ------------------------------------------------------------- */

static int cmd_kernel(const type *s, unsigned lanes, size_t n)
{
  printf("// generated by conv_check kernel %s %u %zu\n", s->name, lanes, n);
  printf("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
  printf("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  printf("kernel void conv(global const %s *in", s->name);
  for (int d = 0; d < N_TYPES; d++)
    printf(", global %s *o_%s", types[d].name, types[d].name);
  printf(")\n{\n");
  char vs[8] = "";
  if (lanes > 1)
    snprintf(vs, sizeof vs, "%u", lanes);
  printf("  size_t i = get_global_id(0) * %u;\n", lanes);
  if (lanes == 1)
    printf("  %s x = in[i];\n", s->name);
  else
    printf("  %s%s x = vload%s(0, in + i);\n", s->name, vs, vs);
  for (int d = 0; d < N_TYPES; d++) {
    const type *t = &types[d];
    for (unsigned v = 0; v < n_variants(t); v++) {
      char fn[64];
      snprintf(fn, sizeof fn, "convert_%s%s%s%s", t->name, vs, v >= 5 ? "_sat" : "",
               mode_suffix[v % 5]);
      if (d == 8 && v == 0) /* an OpenCL without cl_khr_fp16 leaves o_half alone */
        printf("#ifdef cl_khr_fp16\n");
      if (lanes == 1)
        printf("  o_%s[%zu + i] = %s(x);\n", t->name, v * n, fn);
      else
        printf("  vstore%s(%s(x), 0, o_%s + %zu + i);\n", vs, fn, t->name, v * n);
      if (d == 8 && v + 1 == n_variants(t))
        printf("#endif\n");
    }
  }
  printf("}\n");
  return 0;
}

static void print_value(const type *t, uint64_t bits)
{
  value v = make_value(t, bits);
  if (t->is_float)
    printf("%a (0x%0*" PRIx64 ")", v.f, (int)t->bits / 4, bits);
  else if (t->is_signed)
    printf("%" PRId64, v.s);
  else
    printf("%" PRIu64, v.u);
}

static int cmd_check(const type *s, size_t n, size_t count, const char *in_path, const char *dir,
                     bool skip_half)
{
  size_t in_size;
  uint8_t *in = read_file(in_path, &in_size);
  if (in_size < count * (s->bits / 8)) {
    fprintf(stderr, "conv_check: %s is smaller than %zu values\n", in_path, count);
    return 1;
  }
  size_t total = 0, bad = 0, flushed = 0, undefined = 0;
  for (int d = 0; d < N_TYPES; d++) {
    const type *t = &types[d];
    if (skip_half && t->bits == 16 && t->is_float)
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/arg%d.bin", dir, d + 1);
    size_t out_size;
    uint8_t *out = read_file(path, &out_size);
    if (out_size < n * n_variants(t) * (t->bits / 8)) {
      fprintf(stderr, "conv_check: %s holds %zu bytes, expected %zu\n", path, out_size,
              n * n_variants(t) * (t->bits / 8));
      return 1;
    }
    for (unsigned v = 0; v < n_variants(t); v++) {
      size_t bad_here = 0;
      for (size_t i = 0; i < count; i++) {
        uint64_t xb = load(in, i, s->bits);
        value x = make_value(s, xb);
        uint64_t got = load(out, v * n + i, t->bits);
        result r = reference(&x, t, v);
        total++;
        if (r.kind == R_UNDEFINED) {
          undefined++;
          continue;
        }
        if (matches(r, got, t->bits))
          continue;
        if (s->is_float && bits_is_subnormal(xb, s->bits)) {
          value z = make_value(s, xb & (1ull << (s->bits - 1)));
          if (matches(reference(&z, t, v), got, t->bits)) {
            flushed++;
            continue;
          }
        }
        bad++;
        if (bad_here++ < 3) {
          printf("MISMATCH convert_%s%s%s(%s ", t->name, v >= 5 ? "_sat" : "", mode_suffix[v % 5],
                 s->name);
          print_value(s, xb);
          printf("): got ");
          print_value(t, got);
          printf(", expected ");
          if (r.kind == R_ANY_NAN)
            printf("NaN");
          else
            print_value(t, r.bits);
          printf("\n");
        }
      }
      if (bad_here > 3)
        printf("  ... %zu mismatches for convert_%s%s%s(%s)\n", bad_here, t->name,
               v >= 5 ? "_sat" : "", mode_suffix[v % 5], s->name);
    }
    free(out);
  }
  printf("%s: %zu conversions checked, %zu mismatches, %zu undefined (not checked), "
         "%zu accepted as a flushed subnormal input\n",
         s->name, total, bad, undefined, flushed);
  free(in);
  return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
  if (argc >= 5 && !strcmp(argv[1], "kernel")) {
    unsigned lanes = (unsigned)atoi(argv[3]);
    if (lanes != 1 && lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16) {
      fprintf(stderr, "conv_check: LANES must be 1, 2, 3, 4, 8 or 16\n");
      return 2;
    }
    return cmd_kernel(type_named(argv[2]), lanes, input_count(type_named(argv[2]), strtoull(argv[4], 0, 0)));
  }
  if (argc == 6 && !strcmp(argv[1], "inputs")) {
    const type *t = type_named(argv[2]);
    vec a = {0};
    make_inputs(t, strtoull(argv[3], 0, 0), strtoull(argv[4], 0, 0), &a);
    write_values(argv[5], &a, t->bits);
    printf("%zu\n", a.n);
    return 0;
  }
  if ((argc == 7 || (argc == 8 && !strcmp(argv[7], "--no-half"))) && !strcmp(argv[1], "check")) {
    const type *t = type_named(argv[2]);
    size_t n = input_count(t, strtoull(argv[3], 0, 0));
    return cmd_check(t, n, strtoull(argv[4], 0, 0), argv[5], argv[6], argc == 8);
  }
  fprintf(stderr, "usage: conv_check kernel SRC LANES N | inputs SRC N SEED FILE | "
                  "check SRC N COUNT IN DIR [--no-half]\n");
  return 2;
}
