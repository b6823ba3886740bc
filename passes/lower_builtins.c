/*
 * builtins: OpenCL.std extended instructions → GLSL.std.450 and core SPIR-V.
 *
 * Vulkan accepts no OpenCL.std instructions, nor the Kernel-only relational
 * ones (OpSignBitSet, OpIsFinite, OpIsNormal, OpOrdered, OpUnordered,
 * OpLessOrGreater), nor OpBitCount, OpBitReverse, OpBitFieldInsert and
 * OpBitField[SU]Extract on other widths than 32. Each becomes
 * GLSL.std.450 or core instructions where the semantics match OpenCL's exactly,
 * or is expanded into core arithmetic (saturation, rotate, clz, mul_hi, round
 * half away from zero, vloadn/vstoren as scalar accesses...). The functions
 * OpenCL requires to be exact (fmod, remainder, remquo, frexp, ldexp, ilogb,
 * logb, nextafter, fract, modf, and the half stores' roundings) work on the
 * IEEE bit patterns with integer arithmetic: no rounded division, no
 * dependence on how the device treats subnormals. The math pass runs first
 * and sends the transcendental functions to its library; what reaches this
 * pass without an OpenCL-precise lowering (exp, sin... on double; half_log,
 * half_sin...) is rejected with a message, never mapped silently; native_*
 * functions are mapped to GLSL.std.450. docs/builtins.md lists every
 * instruction. Runs after pointers (vloadn/vstoren/fract need access chains)
 * and wide-vectors (at most 4 lanes here). No options. */
#include <math.h>
#include <string.h>

#include "k2s_internal.h"

enum { MAX_PAIRS = 32 };

typedef struct lower {
  k2s_module *m;
  k2s_builder b;
  k2s_instr *at;      /* the OpExtInst being lowered */
  uint32_t first_new; /* ids from here on were made while lowering `at` */
  uint32_t glsl;      /* the GLSL.std.450 import, 0 until needed */
  const k2s_options *o;
  /* {T, T} structs for the *Extended and IAddCarry results, made once. */
  uint32_t pair_member[MAX_PAIRS], pair_struct[MAX_PAIRS], n_pairs;
} lower;

/* Returned by a lowering that produced no value (stores, prefetch). */
#define NO_VALUE UINT32_MAX

/* ---- types and constants ------------------------------------------------ */

static uint32_t type_of(lower *c, uint32_t id)
{
  return k2s_type_of(c->m, id);
}
static uint32_t width(lower *c, uint32_t t)
{
  return k2s_type_width(c->m, t);
}
static uint32_t lanes(lower *c, uint32_t t)
{
  return k2s_vector_size(c->m, t);
}

static bool is_float_type(lower *c, uint32_t t)
{
  k2s_instr *s = k2s_def(c->m, k2s_scalar_type(c->m, t));
  return s && s->opcode == SpvOpTypeFloat;
}

static uint32_t with_lanes(lower *c, uint32_t scalar, uint32_t n)
{
  return n > 1 ? k2s_type_vector(c->m, scalar, n) : scalar;
}

/* An integer / float / bool type with t's lane count. */
static uint32_t int_like(lower *c, uint32_t t, uint32_t w)
{
  return with_lanes(c, k2s_type_int(c->m, w, false), lanes(c, t));
}
static uint32_t float_like(lower *c, uint32_t t, uint32_t w)
{
  return with_lanes(c, k2s_type_float(c->m, w), lanes(c, t));
}
static uint32_t bool_like(lower *c, uint32_t t)
{
  return with_lanes(c, k2s_type_bool(c->m), lanes(c, t));
}

static uint32_t splat_const(lower *c, uint32_t t, uint32_t scalar)
{
  uint32_t n = lanes(c, t);
  if (n == 1)
    return scalar;
  uint32_t parts[16];
  for (uint32_t k = 0; k < n && k < 16; k++)
    parts[k] = scalar;
  return k2s_const_composite(c->m, t, parts, n);
}

static uint32_t cint(lower *c, uint32_t t, uint64_t v)
{
  return splat_const(c, t, k2s_const_int(c->m, k2s_scalar_type(c->m, t), v));
}

/* IEEE binary16 bits of v, rounded to nearest even. */
static uint32_t half_bits(double v)
{
  uint32_t sign = signbit(v) ? 0x8000u : 0;
  if (isnan(v))
    return 0x7e00u;
  double a = fabs(v);
  if (isinf(a))
    return sign | 0x7c00u;
  if (a == 0)
    return sign;
  int e;
  frexp(a, &e);
  int exp = e - 1; /* a = 1.f * 2^exp */
  if (exp < -14)   /* subnormal: multiples of 2^-24 (1024 rounds up to the smallest normal) */
    return sign | (uint32_t)nearbyint(ldexp(a, 24));
  uint32_t mant = (uint32_t)nearbyint(ldexp(a, 10 - exp));
  if (mant == 2048) {
    mant = 1024;
    exp++;
  }
  if (exp > 15)
    return sign | 0x7c00u;
  return sign | (uint32_t)(exp + 15) << 10 | (mant - 1024);
}

/* A float constant (splat to t's lanes) from raw bits. */
static uint32_t cfbits(lower *c, uint32_t t, uint64_t bits)
{
  uint32_t s = k2s_scalar_type(c->m, t);
  uint32_t ops[2] = {(uint32_t)bits, (uint32_t)(bits >> 32)};
  return splat_const(c, t, k2s_intern(c->m, SpvOpConstant, s, ops, width(c, t) == 64 ? 2 : 1));
}

/* The float constant nearest v (to nearest even) in t's width. */
static uint32_t cfloat(lower *c, uint32_t t, double v)
{
  uint32_t w = width(c, t);
  if (w == 16)
    return cfbits(c, t, half_bits(v));
  if (w == 32) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return cfbits(c, t, b);
  }
  uint64_t b;
  memcpy(&b, &v, 8);
  return cfbits(c, t, b);
}

static uint64_t sign_bit(uint32_t w)
{
  return 1ull << (w - 1);
}
static uint64_t max_signed(uint32_t w)
{
  return sign_bit(w) - 1;
}
static uint64_t max_unsigned(uint32_t w)
{
  return w == 64 ? ~0ull : (1ull << w) - 1;
}

/* The largest value below 1.0 in each float width (fract's bound). */
static uint64_t below_one_bits(uint32_t w)
{
  return w == 16 ? 0x3bffu : w == 32 ? 0x3f7fffffu : 0x3fefffffffffffffull;
}

static uint32_t pair_type(lower *c, uint32_t t)
{
  for (uint32_t k = 0; k < c->n_pairs; k++)
    if (c->pair_member[k] == t)
      return c->pair_struct[k];
  uint32_t members[2] = {t, t};
  uint32_t s = k2s_type_struct(c->m, members, 2);
  if (c->n_pairs < MAX_PAIRS) {
    c->pair_member[c->n_pairs] = t;
    c->pair_struct[c->n_pairs++] = s;
  }
  return s;
}

/* ---- emitting ----------------------------------------------------------- */

static uint32_t op1(lower *c, uint16_t op, uint32_t t, uint32_t a)
{
  return k2s_emit(&c->b, op, t, &a, 1);
}

static uint32_t op2(lower *c, uint16_t op, uint32_t t, uint32_t a, uint32_t b)
{
  uint32_t ops[2] = {a, b};
  return k2s_emit(&c->b, op, t, ops, 2);
}

static uint32_t op3(lower *c, uint16_t op, uint32_t t, uint32_t a, uint32_t b, uint32_t d)
{
  uint32_t ops[3] = {a, b, d};
  return k2s_emit(&c->b, op, t, ops, 3);
}

/* A binary operation on two values of a's type. */
static uint32_t bin(lower *c, uint16_t op, uint32_t a, uint32_t b)
{
  return op2(c, op, type_of(c, a), a, b);
}

static uint32_t cmp(lower *c, uint16_t op, uint32_t a, uint32_t b)
{
  return op2(c, op, bool_like(c, type_of(c, a)), a, b);
}

static uint32_t sel(lower *c, uint32_t cond, uint32_t a, uint32_t b)
{
  return op3(c, SpvOpSelect, type_of(c, a), cond, a, b);
}

/* OpSelect needs a condition with the operands' lane count before SPIR-V 1.4. */
static uint32_t sel_all(lower *c, uint32_t scalar_cond, uint32_t a, uint32_t b)
{
  uint32_t t = type_of(c, a), n = lanes(c, t);
  if (n == 1)
    return sel(c, scalar_cond, a, b);
  uint32_t parts[16];
  for (uint32_t k = 0; k < n && k < 16; k++)
    parts[k] = scalar_cond;
  uint32_t cond = k2s_emit(&c->b, SpvOpCompositeConstruct, bool_like(c, t), parts, n);
  return sel(c, cond, a, b);
}

static uint32_t glsl(lower *c, uint32_t fn, uint32_t t, const uint32_t *args, uint32_t n)
{
  if (!c->glsl)
    c->glsl = k2s_ext_import(c->m, "GLSL.std.450");
  uint32_t ops[8] = {c->glsl, fn};
  for (uint32_t k = 0; k < n && k < 6; k++)
    ops[2 + k] = args[k];
  return k2s_emit(&c->b, SpvOpExtInst, t, ops, 2 + n);
}

static uint32_t glsl1(lower *c, uint32_t fn, uint32_t a)
{
  return glsl(c, fn, type_of(c, a), &a, 1);
}

static uint32_t glsl2(lower *c, uint32_t fn, uint32_t a, uint32_t b)
{
  uint32_t args[2] = {a, b};
  return glsl(c, fn, type_of(c, a), args, 2);
}

/* Integer helpers: shifts by a constant, min/max, width changes. */
static uint32_t shr_u(lower *c, uint32_t a, uint32_t n)
{
  return bin(c, SpvOpShiftRightLogical, a, cint(c, type_of(c, a), n));
}
static uint32_t shr_s(lower *c, uint32_t a, uint32_t n)
{
  return bin(c, SpvOpShiftRightArithmetic, a, cint(c, type_of(c, a), n));
}
static uint32_t shl(lower *c, uint32_t a, uint32_t n)
{
  return bin(c, SpvOpShiftLeftLogical, a, cint(c, type_of(c, a), n));
}
static uint32_t and_c(lower *c, uint32_t a, uint64_t v)
{
  return bin(c, SpvOpBitwiseAnd, a, cint(c, type_of(c, a), v));
}
static uint32_t add_c(lower *c, uint32_t a, uint64_t v)
{
  return bin(c, SpvOpIAdd, a, cint(c, type_of(c, a), v));
}

static uint32_t imin(lower *c, bool is_signed, uint32_t a, uint32_t b)
{
  return sel(c, cmp(c, is_signed ? SpvOpSLessThan : SpvOpULessThan, a, b), a, b);
}
static uint32_t imax(lower *c, bool is_signed, uint32_t a, uint32_t b)
{
  return sel(c, cmp(c, is_signed ? SpvOpSGreaterThan : SpvOpUGreaterThan, a, b), a, b);
}

/* Zero- or sign-extend (or truncate) integer v to width w. */
static uint32_t iconv(lower *c, uint32_t v, uint32_t w, bool is_signed)
{
  uint32_t t = type_of(c, v);
  if (width(c, t) == w)
    return v;
  /* Narrowing is a truncation either way; UConvert says so plainly. */
  bool s = is_signed && w > width(c, t);
  return op1(c, s ? SpvOpSConvert : SpvOpUConvert, int_like(c, t, w), v);
}

static uint32_t bitcast(lower *c, uint32_t t, uint32_t v)
{
  return op1(c, SpvOpBitcast, t, v);
}

static uint32_t extract(lower *c, uint32_t t, uint32_t composite, uint32_t index)
{
  uint32_t ops[2] = {composite, index};
  return k2s_emit(&c->b, SpvOpCompositeExtract, t, ops, 2);
}

/* The operand of `at` at argument k (after set and opcode), splat to type t
 * when OpenCL's scalar-with-vector forms hand a scalar. */
static uint32_t arg(lower *c, uint32_t k)
{
  return c->at->ops[2 + k];
}

/* A scalar v spread over vector type t of v's type; v itself otherwise. */
static uint32_t splat(lower *c, uint32_t t, uint32_t v)
{
  uint32_t n = lanes(c, t);
  if (n == 1 || type_of(c, v) != k2s_scalar_type(c->m, t))
    return v;
  uint32_t parts[16];
  for (uint32_t i = 0; i < n && i < 16; i++)
    parts[i] = v;
  return k2s_emit(&c->b, SpvOpCompositeConstruct, t, parts, n);
}

static uint32_t arg_as(lower *c, uint32_t k, uint32_t t)
{
  return splat(c, t, arg(c, k));
}

/* ---- integer functions -------------------------------------------------- */

static uint32_t lower_abs_diff(lower *c, bool s, uint32_t x, uint32_t y)
{
  uint32_t gt = cmp(c, s ? SpvOpSGreaterThan : SpvOpUGreaterThan, x, y);
  return sel(c, gt, bin(c, SpvOpISub, x, y), bin(c, SpvOpISub, y, x));
}

/* Saturation value for a signed overflow whose true sign is x's sign. */
static uint32_t signed_limit(lower *c, uint32_t x, uint32_t w)
{
  return bin(c, SpvOpBitwiseXor, shr_s(c, x, w - 1), cint(c, type_of(c, x), max_signed(w)));
}

static uint32_t lower_add_sat(lower *c, bool s, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x), w = width(c, t);
  if (!s) /* x + min(y, ~x) never wraps and reaches UINT_MAX exactly when x + y would */
    return bin(c, SpvOpIAdd, x, imin(c, false, y, op1(c, SpvOpNot, t, x)));
  uint32_t sum = bin(c, SpvOpIAdd, x, y);
  uint32_t ovf =
      bin(c, SpvOpBitwiseAnd, bin(c, SpvOpBitwiseXor, sum, x), bin(c, SpvOpBitwiseXor, sum, y));
  uint32_t neg = cmp(c, SpvOpSLessThan, ovf, cint(c, t, 0));
  return sel(c, neg, signed_limit(c, x, w), sum);
}

static uint32_t lower_sub_sat(lower *c, bool s, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x), w = width(c, t);
  if (!s)
    return bin(c, SpvOpISub, x, imin(c, false, x, y));
  uint32_t d = bin(c, SpvOpISub, x, y);
  uint32_t ovf =
      bin(c, SpvOpBitwiseAnd, bin(c, SpvOpBitwiseXor, x, y), bin(c, SpvOpBitwiseXor, x, d));
  uint32_t neg = cmp(c, SpvOpSLessThan, ovf, cint(c, t, 0));
  return sel(c, neg, signed_limit(c, x, w), d);
}

/* hadd: (x >> 1) + (y >> 1) + (x & y & 1); rhadd uses (x | y) & 1. */
static uint32_t lower_hadd(lower *c, bool s, bool round, uint32_t x, uint32_t y)
{
  uint32_t hx = s ? shr_s(c, x, 1) : shr_u(c, x, 1);
  uint32_t hy = s ? shr_s(c, y, 1) : shr_u(c, y, 1);
  uint32_t low = and_c(c, bin(c, round ? SpvOpBitwiseOr : SpvOpBitwiseAnd, x, y), 1);
  return bin(c, SpvOpIAdd, bin(c, SpvOpIAdd, hx, hy), low);
}

/* The high half of x * y. Narrow types multiply in 32 bits; 32 and 64 use
 * the *MulExtended instructions. */
static uint32_t mul_hi(lower *c, bool s, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x), w = width(c, t);
  if (w < 32) {
    uint32_t p = bin(c, SpvOpIMul, iconv(c, x, 32, s), iconv(c, y, 32, s));
    return iconv(c, s ? shr_s(c, p, w) : shr_u(c, p, w), w, false);
  }
  uint32_t pair = op2(c, s ? SpvOpSMulExtended : SpvOpUMulExtended, pair_type(c, t), x, y);
  return extract(c, t, pair, 1);
}

static uint32_t lower_rotate(lower *c, uint32_t v, uint32_t i)
{
  uint32_t t = type_of(c, v), w = width(c, t);
  uint32_t n = and_c(c, i, w - 1);
  uint32_t back = and_c(c, bin(c, SpvOpISub, cint(c, t, w), n), w - 1);
  return bin(c, SpvOpBitwiseOr, bin(c, SpvOpShiftLeftLogical, v, n),
             bin(c, SpvOpShiftRightLogical, v, back));
}

/* clz of a 32-bit value: 31 - FindUMsb(x), where FindUMsb(0) = -1. */
static uint32_t clz32(lower *c, uint32_t x32)
{
  uint32_t t = type_of(c, x32);
  return bin(c, SpvOpISub, cint(c, t, 31), glsl1(c, K2S_GLSL_STD_450_FindUMsb, x32));
}

/* ctz of a 32-bit value, capped at cap: FindILsb(0) is -1, i.e. UINT_MAX. */
static uint32_t ctz32(lower *c, uint32_t x32, uint32_t cap)
{
  uint32_t t = type_of(c, x32);
  return imin(c, false, glsl1(c, K2S_GLSL_STD_450_FindILsb, x32), cint(c, t, cap));
}

/* The low and high 32-bit halves of a 64-bit value. */
static void halves(lower *c, uint32_t x, uint32_t *lo, uint32_t *hi)
{
  *lo = iconv(c, x, 32, false);
  *hi = iconv(c, shr_u(c, x, 32), 32, false);
}

static uint32_t lower_clz(lower *c, uint32_t x)
{
  uint32_t w = width(c, type_of(c, x));
  if (w == 64) {
    uint32_t lo, hi;
    halves(c, x, &lo, &hi);
    uint32_t t32 = type_of(c, lo);
    uint32_t z = cmp(c, SpvOpIEqual, hi, cint(c, t32, 0));
    uint32_t r = sel(c, z, add_c(c, clz32(c, lo), 32), clz32(c, hi));
    return iconv(c, r, 64, false);
  }
  uint32_t x32 = iconv(c, x, 32, false);
  uint32_t r = clz32(c, x32);
  if (w < 32)
    r = bin(c, SpvOpISub, r, cint(c, type_of(c, r), 32 - w));
  return iconv(c, r, w, false);
}

static uint32_t lower_ctz(lower *c, uint32_t x)
{
  uint32_t w = width(c, type_of(c, x));
  if (w == 64) {
    uint32_t lo, hi;
    halves(c, x, &lo, &hi);
    uint32_t t32 = type_of(c, lo);
    uint32_t z = cmp(c, SpvOpIEqual, lo, cint(c, t32, 0));
    uint32_t r = sel(c, z, add_c(c, ctz32(c, hi, 32), 32), ctz32(c, lo, 32));
    return iconv(c, r, 64, false);
  }
  return iconv(c, ctz32(c, iconv(c, x, 32, false), w), w, false);
}

/* Vulkan allows OpBitCount on 32-bit values only. */
static uint32_t popcount(lower *c, uint32_t x)
{
  uint32_t t = type_of(c, x), w = width(c, t);
  uint32_t t32 = int_like(c, t, 32);
  if (w == 64) {
    uint32_t lo, hi;
    halves(c, x, &lo, &hi);
    uint32_t r = bin(c, SpvOpIAdd, op1(c, SpvOpBitCount, t32, lo), op1(c, SpvOpBitCount, t32, hi));
    return iconv(c, r, 64, false);
  }
  return iconv(c, op1(c, SpvOpBitCount, t32, iconv(c, x, 32, false)), w, false);
}

static uint32_t lower_upsample(lower *c, bool s, uint32_t hi, uint32_t lo)
{
  uint32_t w = width(c, type_of(c, hi));
  uint32_t h = iconv(c, hi, 2 * w, s), l = iconv(c, lo, 2 * w, false);
  return bin(c, SpvOpBitwiseOr, shl(c, h, w), l);
}

/* Saturate(a * b + c). Narrow types compute exactly in 32 bits; 32 and 64
 * bits take the double-width product and add c with carry. */
static uint32_t lower_mad_sat(lower *c, bool s, uint32_t a, uint32_t b, uint32_t d)
{
  uint32_t t = type_of(c, a), w = width(c, t);
  if (w < 32) {
    uint32_t p = bin(c, SpvOpIAdd, bin(c, SpvOpIMul, iconv(c, a, 32, s), iconv(c, b, 32, s)),
                     iconv(c, d, 32, s));
    uint32_t t32 = type_of(c, p);
    if (s)
      p = imin(c, true, imax(c, true, p, cint(c, t32, (uint64_t) - (int64_t)sign_bit(w))),
               cint(c, t32, max_signed(w)));
    else
      p = imin(c, false, p, cint(c, t32, max_unsigned(w)));
    return iconv(c, p, w, false);
  }
  uint32_t pt = pair_type(c, t);
  uint32_t prod = op2(c, s ? SpvOpSMulExtended : SpvOpUMulExtended, pt, a, b);
  uint32_t lo = extract(c, t, prod, 0), hi = extract(c, t, prod, 1);
  uint32_t add = op2(c, SpvOpIAddCarry, pt, lo, d);
  uint32_t sum = extract(c, t, add, 0), carry = extract(c, t, add, 1);
  uint32_t top = bin(c, SpvOpIAdd, hi, carry);
  if (!s) {
    uint32_t fits = cmp(c, SpvOpIEqual, top, cint(c, t, 0));
    return sel(c, fits, sum, cint(c, t, max_unsigned(w)));
  }
  top = bin(c, SpvOpIAdd, top, shr_s(c, d, w - 1)); /* c's sign extension */
  uint32_t fits = cmp(c, SpvOpIEqual, top, shr_s(c, sum, w - 1));
  return sel(c, fits, sum, signed_limit(c, top, w));
}

/* ---- float functions ---------------------------------------------------- */

static void store_at(lower *c, uint32_t ptr, uint32_t v);

static uint32_t f_mul(lower *c, uint32_t a, uint32_t b)
{
  return bin(c, SpvOpFMul, a, b);
}
static uint32_t f_add(lower *c, uint32_t a, uint32_t b)
{
  return bin(c, SpvOpFAdd, a, b);
}
static uint32_t f_sub(lower *c, uint32_t a, uint32_t b)
{
  return bin(c, SpvOpFSub, a, b);
}

static uint32_t copysign_(lower *c, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x), w = width(c, t), it = int_like(c, t, w);
  uint32_t xb = and_c(c, bitcast(c, it, x), ~sign_bit(w) & max_unsigned(w));
  uint32_t yb = and_c(c, bitcast(c, it, y), sign_bit(w));
  return bitcast(c, t, bin(c, SpvOpBitwiseOr, xb, yb));
}

static uint32_t is_nan(lower *c, uint32_t x)
{
  return op1(c, SpvOpIsNan, bool_like(c, type_of(c, x)), x);
}
static uint32_t is_inf(lower *c, uint32_t x)
{
  return op1(c, SpvOpIsInf, bool_like(c, type_of(c, x)), x);
}

/* round(): halfway cases away from zero. x - trunc(x) is exact, and so is
 * trunc(x) ± 1 wherever x has a fraction; selecting (not adding 0) keeps -0. */
static uint32_t lower_round(lower *c, uint32_t x)
{
  uint32_t t = type_of(c, x);
  uint32_t tr = glsl1(c, K2S_GLSL_STD_450_Trunc, x);
  uint32_t frac = glsl1(c, K2S_GLSL_STD_450_FAbs, f_sub(c, x, tr));
  uint32_t half = cmp(c, SpvOpFOrdGreaterThanEqual, frac, cfloat(c, t, 0.5));
  uint32_t away = f_add(c, tr, copysign_(c, cfloat(c, t, 1.0), x));
  return sel(c, half, away, tr);
}

/* sign(): ±1, ±0 kept, 0 for NaN. Neither compare holds for a subnormal x on a device
 * that flushes subnormals (the H100): the zero of x's sign then, never x's bits. */
static uint32_t lower_sign(lower *c, uint32_t x)
{
  uint32_t t = type_of(c, x);
  uint32_t zero = cfloat(c, t, 0.0);
  uint32_t r = sel(c, cmp(c, SpvOpFOrdGreaterThan, x, zero), cfloat(c, t, 1.0),
                   copysign_(c, zero, x));
  r = sel(c, cmp(c, SpvOpFOrdLessThan, x, zero), cfloat(c, t, -1.0), r);
  return sel(c, is_nan(c, x), zero, r);
}

static uint32_t lower_smoothstep(lower *c, uint32_t e0, uint32_t e1, uint32_t x)
{
  uint32_t t = type_of(c, x);
  uint32_t u = bin(c, SpvOpFDiv, f_sub(c, x, e0), f_sub(c, e1, e0));
  u = glsl2(c, K2S_GLSL_STD_450_NMin, glsl2(c, K2S_GLSL_STD_450_NMax, u, cfloat(c, t, 0.0)),
            cfloat(c, t, 1.0));
  uint32_t poly = f_sub(c, cfloat(c, t, 3.0), f_mul(c, cfloat(c, t, 2.0), u));
  return f_mul(c, f_mul(c, u, u), poly);
}

/* maxmag/minmag: the larger/smaller magnitude, fmax/fmin on a tie. Two subnormals tie
 * where the device flushes them (the H100), and its min/max may pass one's bits on: a
 * tie that compares equal to zero is the zero of its sign. */
static uint32_t lower_mag(lower *c, bool max, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x);
  uint32_t ax = glsl1(c, K2S_GLSL_STD_450_FAbs, x), ay = glsl1(c, K2S_GLSL_STD_450_FAbs, y);
  uint16_t op = max ? SpvOpFOrdGreaterThan : SpvOpFOrdLessThan;
  uint32_t tie = glsl2(c, max ? K2S_GLSL_STD_450_NMax : K2S_GLSL_STD_450_NMin, x, y);
  uint32_t zero = cfloat(c, t, 0.0);
  tie = sel(c, cmp(c, SpvOpFOrdEqual, tie, zero), copysign_(c, zero, tie), tie);
  return sel(c, cmp(c, op, ax, ay), x, sel(c, cmp(c, op, ay, ax), y, tie));
}

/* fract(x, *ip): min(x - floor(x), largest below 1), with OpenCL's edge
 * cases: fract(±0) = ±0, fract(±inf) = ±0 (x - floor(x) would give +0 and
 * NaN), NaN for NaN. */
static uint32_t lower_fract(lower *c, uint32_t x, uint32_t ptr)
{
  uint32_t t = type_of(c, x);
  uint32_t fl = glsl1(c, K2S_GLSL_STD_450_Floor, x);
  uint32_t d = f_sub(c, x, fl);
  uint32_t below = cfbits(c, t, below_one_bits(width(c, t)));
  uint32_t r = sel(c, cmp(c, SpvOpFOrdGreaterThanEqual, d, below), below, d);
  uint32_t zero = copysign_(c, cfloat(c, t, 0.0), x);
  uint32_t is_zero = cmp(c, SpvOpFOrdEqual, x, cfloat(c, t, 0.0));
  r = sel(c, bin(c, SpvOpLogicalOr, is_inf(c, x), is_zero), zero, r);
  /* x == 0 holds for a subnormal x where the device flushes (the H100), whose Floor may
   * still see -1: both results are then those of the flushed input */
  fl = sel(c, is_zero, zero, fl);
  store_at(c, ptr, fl);
  return r;
}

/* modf(x, *ip): x - trunc(x) with x's sign (±0 for integers and ±inf). */
static uint32_t lower_modf(lower *c, uint32_t x, uint32_t ptr)
{
  uint32_t t = type_of(c, x);
  uint32_t tr = glsl1(c, K2S_GLSL_STD_450_Trunc, x);
  uint32_t r = sel(c, is_inf(c, x), cfloat(c, t, 0.0), f_sub(c, x, tr));
  store_at(c, ptr, tr);
  return copysign_(c, r, x);
}

static uint32_t lower_nan(lower *c, uint32_t code)
{
  uint32_t t = c->at->type, w = width(c, t);
  uint64_t quiet = w == 16 ? 0x7e00u : w == 32 ? 0x7fc00000u : 0x7ff8000000000000ull;
  uint32_t bits =
      bin(c, SpvOpBitwiseOr, iconv(c, code, w, false), cint(c, int_like(c, t, w), quiet));
  return bitcast(c, t, bits);
}

/* GLSL.std.450's Sin, Exp, Pow... take 16/32-bit floats only; a native_ call
 * on double (implementation-defined precision) computes in float. */
static uint32_t glsl_native(lower *c, uint32_t fn, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x);
  bool wide =
      width(c, t) == 64 && fn != K2S_GLSL_STD_450_Sqrt && fn != K2S_GLSL_STD_450_InverseSqrt;
  uint32_t ft = wide ? float_like(c, t, 32) : t;
  if (wide) {
    x = op1(c, SpvOpFConvert, ft, x);
    if (y)
      y = op1(c, SpvOpFConvert, ft, y);
  }
  uint32_t r = y ? glsl2(c, fn, x, y) : glsl1(c, fn, x);
  return wide ? op1(c, SpvOpFConvert, t, r) : r;
}

/* ---- exact float functions on the bit patterns ---------------------------- */

static uint32_t pointee_of(lower *c, uint32_t ptr_type);

/* fmod, remainder, remquo, frexp, ldexp, ilogb, logb and nextafter are exact
 * in OpenCL (0 ulp). No Vulkan instruction is (GLSL's Mod is x - y * floor(x /
 * y), with a rounded division), and Vulkan may flush subnormals in float
 * arithmetic, so these work on the IEEE bit patterns with integer arithmetic
 * only. */

typedef struct fmt {
  uint32_t w, mant, bias, emax; /* width, fraction bits, exponent bias, all-ones exponent */
} fmt;

static fmt fmt_of(lower *c, uint32_t t)
{
  uint32_t w = width(c, t);
  return w == 16   ? (fmt){16, 10, 15, 31}
         : w == 32 ? (fmt){32, 23, 127, 255}
                   : (fmt){64, 52, 1023, 2047};
}

/* x's bits as unsigned integers of width ww (>= x's width). */
static uint32_t fbits(lower *c, uint32_t x, uint32_t ww)
{
  uint32_t t = type_of(c, x);
  return iconv(c, bitcast(c, int_like(c, t, width(c, t)), x), ww, false);
}

static uint32_t from_fbits(lower *c, uint32_t t, uint32_t b)
{
  return bitcast(c, t, iconv(c, b, width(c, t), false));
}

static uint32_t ucmp(lower *c, uint16_t op, uint32_t a, uint64_t v)
{
  return cmp(c, op, a, cint(c, type_of(c, a), v));
}

static uint32_t sel_c(lower *c, uint32_t cond, uint64_t v, uint32_t b)
{
  return sel(c, cond, cint(c, type_of(c, b), v), b);
}

/* The most significant set bit of integer v (32 or 64 bits), as a value of
 * v's type; all ones (-1) for 0. */
static uint32_t msb(lower *c, uint32_t v)
{
  uint32_t t = type_of(c, v), w = width(c, t);
  if (w == 32)
    return glsl1(c, K2S_GLSL_STD_450_FindUMsb, v);
  uint32_t lo, hi;
  halves(c, v, &lo, &hi);
  uint32_t m =
      sel(c, ucmp(c, SpvOpINotEqual, hi, 0), add_c(c, glsl1(c, K2S_GLSL_STD_450_FindUMsb, hi), 32),
          glsl1(c, K2S_GLSL_STD_450_FindUMsb, lo));
  return iconv(c, m, 64, true);
}

/* The parts of a finite float: sign bit, exponent E >= 1 and integer
 * mantissa M (implicit bit included) with |x| = M * 2^(E - bias - mant);
 * a subnormal has E = 1 and no implicit bit. All in width ww. */
typedef struct parts {
  uint32_t sign, abs, e, m;
} parts;

static parts split_float(lower *c, uint32_t x, uint32_t ww, fmt f)
{
  parts p;
  uint32_t b = fbits(c, x, ww);
  p.sign = and_c(c, b, 1ull << (f.w - 1));
  p.abs = and_c(c, b, (1ull << (f.w - 1)) - 1);
  uint32_t e = shr_u(c, p.abs, f.mant);
  uint32_t frac = and_c(c, p.abs, (1ull << f.mant) - 1);
  uint32_t normal = ucmp(c, SpvOpINotEqual, e, 0);
  p.m = sel(c, normal, add_c(c, frac, 1ull << f.mant), frac);
  p.e = sel(c, normal, e, cint(c, type_of(c, e), 1));
  return p;
}

/* The float sign * m * 2^(e - bias - mant) for m < 2^(mant + 1), e >= 1: m
 * is normalised, or left subnormal where e runs out; exact (the value is a
 * multiple of the smallest subnormal by construction). Width ww ints in. */
static uint32_t join_float(lower *c, uint32_t t, fmt f, uint32_t sign, uint32_t e, uint32_t m)
{
  uint32_t it = type_of(c, m);
  uint32_t room = bin(c, SpvOpISub, cint(c, it, f.mant), msb(c, m));
  uint32_t sl = imin(c, true, room, add_c(c, e, (uint64_t)-1));
  uint32_t m2 = bin(c, SpvOpShiftLeftLogical, m, sl);
  uint32_t e2 = bin(c, SpvOpISub, e, sl);
  uint32_t normal = ucmp(c, SpvOpINotEqual, shr_u(c, m2, f.mant), 0);
  uint32_t field = sel_c(c, op1(c, SpvOpLogicalNot, type_of(c, normal), normal), 0, e2);
  uint32_t bits = bin(c, SpvOpBitwiseOr, sign, shl(c, field, f.mant));
  bits = bin(c, SpvOpBitwiseOr, bits, and_c(c, m2, (1ull << f.mant) - 1));
  return from_fbits(c, t, bits);
}

static uint32_t quiet_nan(lower *c, uint32_t t)
{
  uint32_t w = width(c, t);
  return cfbits(c, t, w == 16 ? 0x7e00u : w == 32 ? 0x7fc00000u : 0x7ff8000000000000ull);
}

/* Splits the block of c->at before c->at into: the code so far, a loop
 * header, a loop body, and the rest (c->at onwards). Unstructured: the
 * structurize pass, which runs later, places merges. Phis naming the old
 * block as a predecessor are re-pointed at the rest. */
typedef struct loop {
  k2s_block *pre, *head, *body, *rest;
} loop;

static void split_for_loop(lower *c, loop *l)
{
  k2s_module *m = c->m;
  k2s_block *b = c->at->block;
  k2s_function *f = b->func;
  l->pre = b;
  l->head = k2s_block_new(m, f, k2s_new_id(m));
  l->body = k2s_block_new(m, f, k2s_new_id(m));
  l->rest = k2s_block_new(m, f, k2s_new_id(m));
  k2s_set_def(m, l->head->label->result, l->head->label);
  k2s_set_def(m, l->body->label->result, l->body->label);
  k2s_set_def(m, l->rest->label->result, l->rest->label);
  k2s_function_insert_block_after(f, b, l->head);
  k2s_function_insert_block_after(f, l->head, l->body);
  k2s_function_insert_block_after(f, l->body, l->rest);
  uint32_t old = b->label->result, now = l->rest->label->result;
  k2s_foreach_block(s, f) k2s_foreach_instr(i, &s->body)
  {
    if (i->opcode != SpvOpPhi)
      break;
    for (uint32_t k = 1; k < i->n_ops; k += 2)
      if (i->ops[k] == old)
        k2s_instr_set_op(m, i, k, now);
  }
  for (k2s_instr *i = c->at, *next; i; i = next) {
    next = i->next;
    k2s_list_remove(&b->body, i);
    k2s_list_append(&l->rest->body, i);
    i->block = l->rest;
  }
  uint32_t head = l->head->label->result;
  c->b = (k2s_builder){m, k2s_block_append(b)};
  k2s_emit(&c->b, SpvOpBranch, 0, &head, 1);
}

/* |x| rem |y| for finite x, y != 0 with ex >= ey, by long division of the
 * mantissas in integers of mx's width (32 bits for half and float, 64 for
 * double): r = mx mod my, then r = (r << s) mod my with s up to
 * width - mant - 1 bits a step until d = ex - ey bits are done: unrolled for
 * half and float, a loop (until every lane is done) for double. q gets the
 * low 7 bits of the integer quotient. */
static void mantissa_rem(lower *c, fmt f, uint32_t mx, uint32_t my, uint32_t d, uint32_t *r,
                         uint32_t *q)
{
  uint32_t t = type_of(c, mx);
  uint32_t r0 = bin(c, SpvOpUMod, mx, my);
  uint32_t q0 = and_c(c, bin(c, SpvOpUDiv, mx, my), 127);
  /* r < my < 2^(mant+1), so r << k_bits fits the working width */
  uint32_t k_bits = width(c, t) - f.mant - 1;
  if (f.w <= 32) {
    /* d <= emax - 2: a few steps in 32-bit integers (float 32, half 2),
     * unrolled; lanes whose steps ran out shift by 0, which keeps r and q */
    uint32_t n = (f.emax - 2 + k_bits - 1) / k_bits;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t s = imin(c, true, d, cint(c, t, k_bits));
      uint32_t num = bin(c, SpvOpShiftLeftLogical, r0, s);
      r0 = bin(c, SpvOpUMod, num, my);
      q0 = and_c(
          c, bin(c, SpvOpIAdd, bin(c, SpvOpShiftLeftLogical, q0, s), bin(c, SpvOpUDiv, num, my)),
          127);
      d = bin(c, SpvOpISub, d, s);
    }
    *r = r0;
    *q = q0;
    return;
  }
  uint32_t n = lanes(c, t);
  if (n > 1) {
    /* Workaround: on lavapipe (Mesa 22.3, LLVM 15) such a loop over 64-bit
     * vectors gives wrong results when invocations need different trip
     * counts (the same loop written in OpenCL C does too); per-lane scalar
     * loops run right. One loop per lane. */
    uint32_t st = k2s_scalar_type(c->m, t), rs[16], qs[16];
    for (uint32_t k = 0; k < n && k < 16; k++)
      mantissa_rem(c, f, extract(c, st, mx, k), extract(c, st, my, k), extract(c, st, d, k), &rs[k],
                   &qs[k]);
    *r = k2s_emit(&c->b, SpvOpCompositeConstruct, t, rs, n);
    *q = k2s_emit(&c->b, SpvOpCompositeConstruct, t, qs, n);
    return;
  }
  loop l;
  split_for_loop(c, &l);
  /* head: phis, then leave when no lane has steps left */
  c->b = (k2s_builder){c->m, k2s_block_append(l.head)};
  uint32_t pre = l.pre->label->result, body = l.body->label->result;
  uint32_t ops[4] = {r0, pre, 0, body};
  k2s_instr *pr = k2s_emit_instr(&c->b, SpvOpPhi, t, ops, 4);
  ops[0] = q0;
  k2s_instr *pq = k2s_emit_instr(&c->b, SpvOpPhi, t, ops, 4);
  ops[0] = d;
  k2s_instr *pd = k2s_emit_instr(&c->b, SpvOpPhi, t, ops, 4);
  uint32_t more = ucmp(c, SpvOpSGreaterThan, pd->result, 0);
  if (lanes(c, t) > 1)
    more = op1(c, SpvOpAny, k2s_type_bool(c->m), more);
  uint32_t br[3] = {more, body, l.rest->label->result};
  k2s_emit(&c->b, SpvOpBranchConditional, 0, br, 3);
  /* body: one step; lanes with no steps left shift by 0 and keep r and q */
  c->b = (k2s_builder){c->m, k2s_block_append(l.body)};
  uint32_t s = imin(c, true, pd->result, cint(c, t, k_bits));
  uint32_t num = bin(c, SpvOpShiftLeftLogical, pr->result, s);
  uint32_t nr = bin(c, SpvOpUMod, num, my);
  uint32_t nq = and_c(
      c,
      bin(c, SpvOpIAdd, bin(c, SpvOpShiftLeftLogical, pq->result, s), bin(c, SpvOpUDiv, num, my)),
      127);
  uint32_t nd = bin(c, SpvOpISub, pd->result, s);
  uint32_t head = l.head->label->result;
  k2s_emit(&c->b, SpvOpBranch, 0, &head, 1);
  k2s_instr_set_op(c->m, pr, 2, nr);
  k2s_instr_set_op(c->m, pq, 2, nq);
  k2s_instr_set_op(c->m, pd, 2, nd);
  c->b = (k2s_builder){c->m, k2s_before(c->at)};
  *r = pr->result;
  *q = pq->result;
}

/* fmod (kind 0), remainder (1) and remquo (2, *quo gets the quotient's sign
 * and low 7 bits). */
static uint32_t lower_fmod(lower *c, int kind, uint32_t x, uint32_t y, uint32_t quo_ptr)
{
  uint32_t t = type_of(c, x);
  fmt f = fmt_of(c, t);
  uint32_t ww = f.w == 64 ? 64 : 32; /* 32-bit integers suffice below double */
  uint32_t it = int_like(c, t, ww);
  parts px = split_float(c, x, ww, f), py = split_float(c, y, ww, f);
  uint64_t inf = (uint64_t)f.emax << f.mant;
  uint32_t bad = bin(c, SpvOpLogicalOr, ucmp(c, SpvOpUGreaterThanEqual, px.abs, inf),
                     ucmp(c, SpvOpUGreaterThan, py.abs, inf));
  bad = bin(c, SpvOpLogicalOr, bad, ucmp(c, SpvOpIEqual, py.abs, 0));
  uint32_t y_inf = ucmp(c, SpvOpIEqual, py.abs, inf);
  uint32_t d = bin(c, SpvOpISub, px.e, py.e);
  uint32_t steps = imax(c, true, d, cint(c, it, 0));
  /* lanes that return x (y infinite, |x| < |y|) or NaN divide 1 by 1 */
  uint32_t my = sel_c(c, ucmp(c, SpvOpIEqual, py.m, 0), 1, py.m);
  uint32_t mx = sel_c(c, ucmp(c, SpvOpSLessThan, d, 0), 0, px.m);
  steps = sel_c(c, bin(c, SpvOpLogicalOr, bad, y_inf), 0, steps);
  uint32_t r, q;
  mantissa_rem(c, f, mx, my, steps, &r, &q);
  uint32_t keep_x = bin(c, SpvOpLogicalOr, y_inf, ucmp(c, SpvOpSLessThan, d, 0));
  uint32_t res, zero = cint(c, it, 0);
  if (kind == 0) {
    res = join_float(c, t, f, px.sign, py.e, r);
  } else {
    /* d == -1: |y|/2 <= |x| < |y| can still round the quotient up to 1 */
    uint32_t d_m1 = ucmp(c, SpvOpIEqual, d, (uint64_t)-1);
    uint32_t r0 = sel(c, d_m1, px.m, r);
    uint32_t big = sel(c, d_m1, shl(c, py.m, 1), py.m);
    uint32_t e = sel(c, d_m1, px.e, py.e);
    q = sel(c, d_m1, zero, q);
    uint32_t twice = shl(c, r0, 1);
    uint32_t up = bin(c, SpvOpLogicalOr, cmp(c, SpvOpUGreaterThan, twice, big),
                      bin(c, SpvOpLogicalAnd, cmp(c, SpvOpIEqual, twice, big),
                          ucmp(c, SpvOpINotEqual, and_c(c, q, 1), 0)));
    uint32_t mag = sel(c, up, bin(c, SpvOpISub, big, r0), r0);
    uint32_t sign =
        sel(c, up, bin(c, SpvOpBitwiseXor, px.sign, cint(c, it, 1ull << (f.w - 1))), px.sign);
    q = sel(c, up, add_c(c, q, 1), q);
    res = join_float(c, t, f, sign, e, mag);
    keep_x = bin(c, SpvOpLogicalOr, y_inf, ucmp(c, SpvOpSLessThan, d, (uint64_t)-1));
  }
  res = sel(c, keep_x, x, res);
  res = sel(c, bad, quiet_nan(c, t), res);
  if (kind == 2) {
    /* quo: sign of x / y, magnitude the quotient's low 7 bits; 0 when the
     * result is x itself (quotient 0) or NaN */
    q = and_c(c, q, 127);
    q = sel(c, bin(c, SpvOpLogicalOr, bad, keep_x), zero, q);
    uint32_t neg = cmp(c, SpvOpINotEqual, px.sign, py.sign);
    q = sel(c, neg, op1(c, SpvOpSNegate, it, q), q);
    uint32_t qt = pointee_of(c, type_of(c, quo_ptr));
    store_at(c, quo_ptr, iconv(c, q, width(c, qt), false));
  }
  return res;
}

/* frexp(x, *e): x = m * 2^e with 0.5 <= |m| < 1; x and e = 0 for 0, inf, NaN. */
static uint32_t lower_frexp(lower *c, uint32_t x, uint32_t exp_ptr)
{
  uint32_t t = type_of(c, x);
  fmt f = fmt_of(c, t);
  uint32_t ww = f.w < 32 ? 32 : f.w;
  parts p = split_float(c, x, ww, f);
  uint32_t it = type_of(c, p.m);
  uint32_t room = bin(c, SpvOpISub, cint(c, it, f.mant), msb(c, p.m));
  uint32_t m = bin(c, SpvOpShiftLeftLogical, p.m, room); /* implicit bit at mant */
  uint32_t bits = bin(c, SpvOpBitwiseOr, p.sign, cint(c, it, (uint64_t)(f.bias - 1) << f.mant));
  bits = bin(c, SpvOpBitwiseOr, bits, and_c(c, m, (1ull << f.mant) - 1));
  /* |x| = m * 2^(e - room - bias - mant) = (m / 2^(mant+1)) * 2^(e - room - bias + 1) */
  uint32_t e = add_c(c, bin(c, SpvOpISub, p.e, room), (uint64_t)(1 - (int64_t)f.bias));
  uint32_t special = bin(c, SpvOpLogicalOr, ucmp(c, SpvOpIEqual, p.abs, 0),
                         ucmp(c, SpvOpUGreaterThanEqual, p.abs, (uint64_t)f.emax << f.mant));
  uint32_t r = sel(c, special, x, from_fbits(c, t, bits));
  e = sel_c(c, special, 0, e);
  uint32_t et = pointee_of(c, type_of(c, exp_ptr));
  store_at(c, exp_ptr, iconv(c, e, width(c, et), true));
  return r;
}

/* ldexp(x, n): x * 2^n rounded once (to nearest even) when it lands among
 * the subnormals, infinite past the largest finite value. */
static uint32_t lower_ldexp(lower *c, uint32_t x, uint32_t n)
{
  uint32_t t = type_of(c, x);
  fmt f = fmt_of(c, t);
  uint32_t ww = f.w < 32 ? 32 : f.w;
  if (lanes(c, type_of(c, n)) != lanes(c, t)) { /* ldexp(floatn, int) */
    uint32_t parts_[16];
    for (uint32_t k = 0; k < lanes(c, t) && k < 16; k++)
      parts_[k] = n;
    n = k2s_emit(&c->b, SpvOpCompositeConstruct, int_like(c, t, width(c, type_of(c, n))), parts_,
                 lanes(c, t));
  }
  parts p = split_float(c, x, ww, f);
  uint32_t it = type_of(c, p.m);
  uint32_t room = bin(c, SpvOpISub, cint(c, it, f.mant), msb(c, p.m));
  uint32_t m = bin(c, SpvOpShiftLeftLogical, p.m, room);
  uint32_t e = bin(c, SpvOpISub, p.e, room); /* may be below 1 now */
  int64_t lim = f.emax + f.mant + 2;
  uint32_t nn = imin(c, true, imax(c, true, n, cint(c, type_of(c, n), (uint64_t)-lim)),
                     cint(c, type_of(c, n), (uint64_t)lim));
  e = bin(c, SpvOpIAdd, e, iconv(c, nn, ww, true));
  uint32_t normal = bin(c, SpvOpBitwiseOr, p.sign, shl(c, e, f.mant));
  normal = bin(c, SpvOpBitwiseOr, normal, and_c(c, m, (1ull << f.mant) - 1));
  /* subnormal: m >> (1 - e), rounded to nearest even */
  uint32_t s = imin(c, true, bin(c, SpvOpISub, cint(c, it, 1), e), cint(c, it, f.mant + 2));
  s = imax(c, true, s, cint(c, it, 1));
  uint32_t qv = bin(c, SpvOpShiftRightLogical, m, s);
  uint32_t low =
      bin(c, SpvOpISub, bin(c, SpvOpShiftLeftLogical, cint(c, it, 1), s), cint(c, it, 1));
  uint32_t rem = bin(c, SpvOpBitwiseAnd, m, low);
  uint32_t half =
      bin(c, SpvOpShiftRightLogical, bin(c, SpvOpIAdd, low, cint(c, it, 1)), cint(c, it, 1));
  uint32_t up = bin(c, SpvOpLogicalOr, cmp(c, SpvOpUGreaterThan, rem, half),
                    bin(c, SpvOpLogicalAnd, cmp(c, SpvOpIEqual, rem, half),
                        ucmp(c, SpvOpINotEqual, and_c(c, qv, 1), 0)));
  uint32_t sub = bin(c, SpvOpBitwiseOr, p.sign, sel(c, up, add_c(c, qv, 1), qv));
  uint32_t bits = sel(c, ucmp(c, SpvOpSLessThan, e, 1), sub, normal);
  uint32_t inf = bin(c, SpvOpBitwiseOr, p.sign, cint(c, it, (uint64_t)f.emax << f.mant));
  bits = sel(c, ucmp(c, SpvOpSGreaterThanEqual, e, f.emax), inf, bits);
  uint32_t special = bin(c, SpvOpLogicalOr, ucmp(c, SpvOpIEqual, p.abs, 0),
                         ucmp(c, SpvOpUGreaterThanEqual, p.abs, (uint64_t)f.emax << f.mant));
  return sel(c, special, x, from_fbits(c, t, bits));
}

/* ilogb(x) as an integer of result type rt (FP_ILOGB0 = INT_MIN,
 * FP_ILOGBNAN = INT_MAX, as clang's OpenCL headers define them; inf gives
 * INT_MAX); with `as_float`, logb(x): -inf for 0, +inf for inf, NaN kept. */
static uint32_t lower_logb(lower *c, uint32_t x, bool as_float)
{
  uint32_t t = type_of(c, x);
  fmt f = fmt_of(c, t);
  uint32_t ww = f.w < 32 ? 32 : f.w;
  parts p = split_float(c, x, ww, f);
  uint32_t it = type_of(c, p.m);
  uint32_t e = add_c(c, bin(c, SpvOpISub, msb(c, p.m), cint(c, it, f.mant)),
                     (uint64_t)((int64_t)0 - f.bias));
  e = bin(c, SpvOpIAdd, e, p.e);
  uint32_t zero = ucmp(c, SpvOpIEqual, p.abs, 0);
  uint32_t inf_nan = ucmp(c, SpvOpUGreaterThanEqual, p.abs, (uint64_t)f.emax << f.mant);
  uint32_t e32 = iconv(c, e, 32, true);
  if (!as_float) {
    e32 = sel_c(c, zero, 0x80000000u, e32);
    return sel_c(c, inf_nan, 0x7fffffffu, e32);
  }
  uint32_t r = op1(c, SpvOpConvertSToF, t, e32);
  r = sel(c, zero, cfloat(c, t, -INFINITY), r);
  return sel(c, inf_nan, glsl1(c, K2S_GLSL_STD_450_FAbs, x), r);
}

/* nextafter(x, y): the next representable value after x towards y (y when
 * x == y, NaN when either is NaN); steps through subnormals bit by bit. */
static uint32_t lower_nextafter(lower *c, uint32_t x, uint32_t y)
{
  uint32_t t = type_of(c, x), w = width(c, t);
  fmt f = fmt_of(c, t);
  uint32_t bx = fbits(c, x, w), by = fbits(c, y, w), it = type_of(c, bx);
  uint64_t sgn = 1ull << (w - 1), inf = (uint64_t)f.emax << f.mant;
  uint32_t ax = and_c(c, bx, sgn - 1), ay = and_c(c, by, sgn - 1);
  uint32_t sx = ucmp(c, SpvOpINotEqual, and_c(c, bx, sgn), 0);
  uint32_t sy = ucmp(c, SpvOpINotEqual, and_c(c, by, sgn), 0);
  /* order as signed integers: -|x| for negatives */
  uint32_t kx = sel(c, sx, op1(c, SpvOpSNegate, it, ax), ax);
  uint32_t ky = sel(c, sy, op1(c, SpvOpSNegate, it, ay), ay);
  uint32_t toward_up = cmp(c, SpvOpSLessThan, kx, ky);
  uint32_t away = cmp(c, SpvOpLogicalEqual, toward_up, op1(c, SpvOpLogicalNot, type_of(c, sx), sx));
  uint32_t bits = sel(c, away, add_c(c, bx, 1), add_c(c, bx, (uint64_t)-1));
  uint32_t tiny = bin(c, SpvOpBitwiseOr, and_c(c, by, sgn), cint(c, it, 1));
  bits = sel(c, ucmp(c, SpvOpIEqual, ax, 0), tiny, bits);
  uint32_t r = from_fbits(c, t, bits);
  r = sel(c, cmp(c, SpvOpIEqual, kx, ky), y, r);
  r = sel(c, ucmp(c, SpvOpUGreaterThan, ay, inf), y, r);
  return sel(c, ucmp(c, SpvOpUGreaterThan, ax, inf), x, r);
}

/* ---- fma on double: one rounding, in integer arithmetic ------------------ */

/* A 128-bit unsigned integer as two 64-bit halves. */
typedef struct u128 {
  uint32_t hi, lo;
} u128;

static uint32_t c64(lower *c, uint64_t v)
{
  return k2s_const_int(c->m, k2s_type_int(c->m, 64, false), v);
}

static uint32_t b_not(lower *c, uint32_t v)
{
  return op1(c, SpvOpLogicalNot, k2s_type_bool(c->m), v);
}

static uint32_t b_or(lower *c, uint32_t a, uint32_t b)
{
  return bin(c, SpvOpLogicalOr, a, b);
}

/* x >> s for any s >= 0 (64-bit), the bits shifted out ORed into bit 0. */
static u128 shr128_jam(lower *c, u128 x, uint32_t s)
{
  uint32_t zero = c64(c, 0), s63 = and_c(c, s, 63);
  uint32_t inv = and_c(c, bin(c, SpvOpISub, c64(c, 64), s63), 63);
  uint32_t s_zero = ucmp(c, SpvOpIEqual, s63, 0);
  /* s < 64 */
  uint32_t carry = sel(c, s_zero, zero, bin(c, SpvOpShiftLeftLogical, x.hi, inv));
  uint32_t lo_a = bin(c, SpvOpBitwiseOr, bin(c, SpvOpShiftRightLogical, x.lo, s63), carry);
  uint32_t hi_a = bin(c, SpvOpShiftRightLogical, x.hi, s63);
  uint32_t st_a = bin(c, SpvOpLogicalAnd, b_not(c, s_zero),
                      ucmp(c, SpvOpINotEqual, bin(c, SpvOpShiftLeftLogical, x.lo, inv), 0));
  /* 64 <= s < 128 (s63 = s - 64) */
  uint32_t lo_b = bin(c, SpvOpShiftRightLogical, x.hi, s63);
  uint32_t st_b = b_or(c, ucmp(c, SpvOpINotEqual, x.lo, 0),
                       bin(c, SpvOpLogicalAnd, b_not(c, s_zero),
                           ucmp(c, SpvOpINotEqual, bin(c, SpvOpShiftLeftLogical, x.hi, inv), 0)));
  /* s >= 128 */
  uint32_t st_c = ucmp(c, SpvOpINotEqual, bin(c, SpvOpBitwiseOr, x.hi, x.lo), 0);
  uint32_t small = ucmp(c, SpvOpULessThan, s, 64), mid = ucmp(c, SpvOpULessThan, s, 128);
  u128 r;
  r.hi = sel(c, small, hi_a, zero);
  r.lo = sel(c, small, lo_a, sel(c, mid, lo_b, zero));
  uint32_t st = sel(c, small, st_a, sel(c, mid, st_b, st_c));
  r.lo = bin(c, SpvOpBitwiseOr, r.lo, sel(c, st, c64(c, 1), zero));
  return r;
}

/* x << s for 0 <= s < 128 (bits beyond 128 are known to be zero). */
static u128 shl128(lower *c, u128 x, uint32_t s)
{
  uint32_t zero = c64(c, 0), s63 = and_c(c, s, 63);
  uint32_t inv = and_c(c, bin(c, SpvOpISub, c64(c, 64), s63), 63);
  uint32_t s_zero = ucmp(c, SpvOpIEqual, s63, 0);
  uint32_t carry = sel(c, s_zero, zero, bin(c, SpvOpShiftRightLogical, x.lo, inv));
  uint32_t hi_a = bin(c, SpvOpBitwiseOr, bin(c, SpvOpShiftLeftLogical, x.hi, s63), carry);
  uint32_t lo_a = bin(c, SpvOpShiftLeftLogical, x.lo, s63);
  uint32_t small = ucmp(c, SpvOpULessThan, s, 64);
  u128 r = {sel(c, small, hi_a, bin(c, SpvOpShiftLeftLogical, x.lo, s63)),
            sel(c, small, lo_a, zero)};
  return r;
}

static u128 add128(lower *c, u128 a, u128 b, bool sub, uint32_t *borrow)
{
  uint32_t t = k2s_type_int(c->m, 64, false), pt = pair_type(c, t);
  uint32_t lo = op2(c, sub ? SpvOpISubBorrow : SpvOpIAddCarry, pt, a.lo, b.lo);
  uint32_t hi = op2(c, sub ? SpvOpISubBorrow : SpvOpIAddCarry, pt, a.hi, b.hi);
  uint32_t c0 = extract(c, t, lo, 1);
  u128 r = {extract(c, t, hi, 0), extract(c, t, lo, 0)};
  r.hi = bin(c, sub ? SpvOpISub : SpvOpIAdd, r.hi, c0);
  if (borrow) /* the high word's borrow, or the low borrow running through a zero difference */
    *borrow = b_or(c, ucmp(c, SpvOpINotEqual, extract(c, t, hi, 1), 0),
                   bin(c, SpvOpLogicalAnd, ucmp(c, SpvOpINotEqual, c0, 0),
                       ucmp(c, SpvOpIEqual, extract(c, t, hi, 0), 0)));
  return r;
}

/* The exponent E and 53-bit mantissa m (leading bit at 52) of the finite
 * non-zero double with bit pattern b: |x| = m * 2^(E - 1075); E < 1 for
 * subnormals. */
static void norm_double(lower *c, uint32_t b, uint32_t *e, uint32_t *m)
{
  uint32_t field = and_c(c, shr_u(c, b, 52), 0x7ff);
  uint32_t frac = and_c(c, b, (1ull << 52) - 1);
  uint32_t p = msb(c, frac);
  uint32_t sub_shift = bin(c, SpvOpISub, c64(c, 52), p); /* frac != 0 when used */
  uint32_t normal = ucmp(c, SpvOpINotEqual, field, 0);
  uint32_t sub_sh = sel(c, normal, c64(c, 0), and_c(c, sub_shift, 63));
  *m = sel(c, normal, add_c(c, frac, 1ull << 52), bin(c, SpvOpShiftLeftLogical, frac, sub_sh));
  *e = sel(c, normal, field, bin(c, SpvOpISub, c64(c, 1), sub_shift));
}

/* fma(a, b, c) on one double lane, rounded once to nearest even. The product
 * (106 bits, exact with OpUMulExtended) and c are placed in 128-bit frames
 * with their leading bits at 124; the smaller is shifted right with the lost
 * bits jammed into a sticky bit; then one add or subtract, normalisation and
 * one rounding (subnormal results rounded at their own position). */
static uint32_t fma_double1(lower *c, uint32_t x, uint32_t y, uint32_t z)
{
  uint32_t dt = type_of(c, x), t = k2s_type_int(c->m, 64, false), zero = c64(c, 0);
  uint32_t bx = bitcast(c, t, x), by = bitcast(c, t, y), bz = bitcast(c, t, z);
  uint64_t sgn = 1ull << 63, inf = 0x7ff0000000000000ull;
  uint32_t ax = and_c(c, bx, sgn - 1), ay = and_c(c, by, sgn - 1), az = and_c(c, bz, sgn - 1);
  uint32_t sp = and_c(c, bin(c, SpvOpBitwiseXor, bx, by), sgn), sz = and_c(c, bz, sgn);
  uint32_t ex, mx, ey, my, ez, mz;
  norm_double(c, bx, &ex, &mx);
  norm_double(c, by, &ey, &my);
  norm_double(c, bz, &ez, &mz);
  uint32_t pair = op2(c, SpvOpUMulExtended, pair_type(c, t), mx, my);
  u128 prod = {extract(c, t, pair, 1), extract(c, t, pair, 0)};
  /* frames: product << 19 (lsb exponent xp - 19), mz << 72 (lsb exponent xz - 72) */
  u128 pa = shl128(c, prod, c64(c, 19));
  u128 cz = {shl(c, mz, 8), zero}; /* mz << 72: high word mz << 8, low word 0 */
  uint32_t fa = add_c(c, bin(c, SpvOpIAdd, ex, ey), (uint64_t)(-2150 - 19));
  uint32_t fz = add_c(c, ez, (uint64_t)(-1075 - 72));
  uint32_t z_zero = ucmp(c, SpvOpIEqual, az, 0);
  cz.hi = sel(c, z_zero, zero, cz.hi);
  fz = sel(c, z_zero, fa, fz); /* a zero addend never moves the frame */
  uint32_t diff = bin(c, SpvOpISub, fa, fz);
  uint32_t a_big = ucmp(c, SpvOpSGreaterThanEqual, diff, 0);
  uint32_t neg_diff = op1(c, SpvOpSNegate, t, diff);
  u128 zs = shr128_jam(c, cz, sel(c, a_big, diff, zero));
  u128 ps = shr128_jam(c, pa, sel(c, a_big, zero, neg_diff));
  uint32_t frame = sel(c, a_big, fa, fz);
  uint32_t same = ucmp(c, SpvOpIEqual, bin(c, SpvOpBitwiseXor, sp, sz), 0);
  uint32_t borrow;
  u128 sum = add128(c, ps, zs, false, NULL);
  u128 d1 = add128(c, ps, zs, true, &borrow);
  u128 d2 = add128(c, zs, ps, true, NULL);
  u128 s = {sel(c, same, sum.hi, sel(c, borrow, d2.hi, d1.hi)),
            sel(c, same, sum.lo, sel(c, borrow, d2.lo, d1.lo))};
  uint32_t sign = sel(c, bin(c, SpvOpLogicalAnd, b_not(c, same), borrow), sz, sp);
  /* normalise: the leading bit p of s; r = bits to drop below 53 */
  uint32_t hi_nz = ucmp(c, SpvOpINotEqual, s.hi, 0);
  uint32_t p = sel(c, hi_nz, add_c(c, msb(c, s.hi), 64), msb(c, s.lo));
  uint32_t e = bin(c, SpvOpIAdd, frame, add_c(c, p, 1075 - 52)); /* exponent field if normal */
  uint32_t extra = imax(c, true, bin(c, SpvOpISub, c64(c, 1), e), zero); /* subnormal shift */
  uint32_t r = bin(c, SpvOpIAdd, add_c(c, p, (uint64_t)-52), extra);
  /* r >= 1: keep two more bits (round, sticky) and round to nearest even */
  u128 s2 = shl128(c, s, c64(c, 1));
  uint32_t rr = imax(c, true, add_c(c, r, (uint64_t)-1), zero);
  u128 v = shr128_jam(c, s2, rr);
  uint32_t q = shr_u(c, v.lo, 2);
  uint32_t up = bin(c, SpvOpLogicalAnd, ucmp(c, SpvOpINotEqual, and_c(c, v.lo, 2), 0),
                    b_or(c, ucmp(c, SpvOpINotEqual, and_c(c, v.lo, 1), 0),
                         ucmp(c, SpvOpINotEqual, and_c(c, q, 1), 0)));
  q = sel(c, up, add_c(c, q, 1), q);
  /* r <= 0: exact, the leading bit moves up */
  uint32_t ql = bin(c, SpvOpShiftLeftLogical, s.lo, and_c(c, op1(c, SpvOpSNegate, t, r), 63));
  q = sel(c, ucmp(c, SpvOpSGreaterThan, r, 0), q, ql);
  uint32_t eeff = imax(c, true, e, c64(c, 1));
  uint32_t over = ucmp(c, SpvOpSGreaterThanEqual, eeff, 2047);
  uint32_t bits = bin(c, SpvOpIAdd, shl(c, and_c(c, add_c(c, eeff, (uint64_t)-1), 0x7ff), 52), q);
  bits = sel(c, b_or(c, over, ucmp(c, SpvOpUGreaterThanEqual, bits, inf)), c64(c, inf), bits);
  bits = sel(c, ucmp(c, SpvOpIEqual, bin(c, SpvOpBitwiseOr, s.hi, s.lo), 0), zero,
             bin(c, SpvOpBitwiseOr, bits, sign)); /* exact cancellation: +0 */
  uint32_t res = bitcast(c, dt, bits);
  /* special operands */
  uint32_t x_inf = ucmp(c, SpvOpIEqual, ax, inf), y_inf = ucmp(c, SpvOpIEqual, ay, inf);
  uint32_t z_inf = ucmp(c, SpvOpIEqual, az, inf);
  uint32_t nan =
      b_or(c, b_or(c, ucmp(c, SpvOpUGreaterThan, ax, inf), ucmp(c, SpvOpUGreaterThan, ay, inf)),
           ucmp(c, SpvOpUGreaterThan, az, inf));
  uint32_t p_zero = b_or(c, ucmp(c, SpvOpIEqual, ax, 0), ucmp(c, SpvOpIEqual, ay, 0));
  uint32_t p_inf = b_or(c, x_inf, y_inf);
  nan = b_or(c, nan, bin(c, SpvOpLogicalAnd, p_inf, p_zero));
  nan =
      b_or(c, nan, bin(c, SpvOpLogicalAnd, bin(c, SpvOpLogicalAnd, p_inf, z_inf), b_not(c, same)));
  uint32_t inf_p = bitcast(c, dt, bin(c, SpvOpBitwiseOr, c64(c, inf), sp));
  /* a zero product: z, or a zero whose sign is negative only when both are */
  uint32_t zz = bitcast(c, dt, bin(c, SpvOpBitwiseAnd, sp, sz));
  uint32_t zero_p = sel(c, z_zero, zz, z);
  res = sel(c, p_zero, zero_p, res);
  res = sel(c, z_inf, z, res);
  res = sel(c, p_inf, inf_p, res);
  return sel(c, nan, quiet_nan(c, dt), res);
}

/* fma on double (scalar or vector: one lane at a time). */
static uint32_t lower_fma_double(lower *c, uint32_t x, uint32_t y, uint32_t z)
{
  uint32_t t = type_of(c, x), n = lanes(c, t);
  if (n == 1)
    return fma_double1(c, x, y, z);
  uint32_t st = k2s_scalar_type(c->m, t), parts[16];
  for (uint32_t k = 0; k < n && k < 16; k++)
    parts[k] = fma_double1(c, extract(c, st, x, k), extract(c, st, y, k), extract(c, st, z, k));
  return k2s_emit(&c->b, SpvOpCompositeConstruct, t, parts, n);
}

/* ---- geometric functions ------------------------------------------------ */

static uint32_t dot(lower *c, uint32_t a, uint32_t b)
{
  uint32_t t = type_of(c, a);
  if (lanes(c, t) == 1)
    return f_mul(c, a, b);
  return op2(c, SpvOpDot, k2s_scalar_type(c->m, t), a, b);
}

static uint32_t scale(lower *c, uint32_t v, uint32_t s)
{
  uint32_t t = type_of(c, v);
  return lanes(c, t) == 1 ? f_mul(c, v, s) : op2(c, SpvOpVectorTimesScalar, t, v, s);
}

/* length(p) without spurious overflow or underflow: when the sum of squares
 * overflows or is tiny, p is scaled by a power of two first (exact). Half
 * vectors compute in float. */
static uint32_t length(lower *c, uint32_t p)
{
  uint32_t t = type_of(c, p), w = width(c, t), st = k2s_scalar_type(c->m, t);
  if (w == 16) {
    uint32_t f = op1(c, SpvOpFConvert, float_like(c, t, 32), p);
    return op1(c, SpvOpFConvert, st, length(c, f));
  }
  int big = w == 64 ? 600 : 70, small = w == 64 ? 600 : 100, tiny = w == 64 ? -900 : -100;
  uint32_t d = dot(c, p, p);
  uint32_t over = is_inf(c, d);
  uint32_t under = cmp(c, SpvOpFOrdLessThan, d, cfloat(c, st, ldexp(1.0, tiny)));
  uint32_t one = cfloat(c, st, 1.0);
  uint32_t down = sel(c, over, cfloat(c, st, ldexp(1.0, -big)),
                      sel(c, under, cfloat(c, st, ldexp(1.0, small)), one));
  uint32_t up = sel(c, over, cfloat(c, st, ldexp(1.0, big)),
                    sel(c, under, cfloat(c, st, ldexp(1.0, -small)), one));
  uint32_t q = scale(c, p, down);
  return f_mul(c, glsl1(c, K2S_GLSL_STD_450_Sqrt, dot(c, q, q)), up);
}

static uint32_t all_zero(lower *c, uint32_t p)
{
  uint32_t t = type_of(c, p);
  uint32_t eq = cmp(c, SpvOpFOrdEqual, p, cfloat(c, t, 0.0));
  return lanes(c, t) == 1 ? eq : op1(c, SpvOpAll, k2s_type_bool(c->m), eq);
}

/* normalize(p): p for a zero vector; infinite elements become ±1 and the
 * others 0 * p first (OpenCL's rule); NaNs propagate. */
static uint32_t lower_normalize(lower *c, uint32_t p)
{
  uint32_t t = type_of(c, p);
  uint32_t inf = is_inf(c, p);
  uint32_t any = lanes(c, t) == 1 ? inf : op1(c, SpvOpAny, k2s_type_bool(c->m), inf);
  uint32_t tamed = sel(c, inf, copysign_(c, cfloat(c, t, 1.0), p), f_mul(c, p, cfloat(c, t, 0.0)));
  uint32_t q = sel_all(c, any, tamed, p);
  uint32_t r = bin(c, SpvOpFDiv, q, splat(c, t, length(c, q)));
  return sel_all(c, all_zero(c, p), p, r);
}

/* cross() as a.yzx·b.zxy − a.zxy·b.yzx with separate products (a 4-lane
 * cross has w = 0). Not GLSL's Cross: drivers may fuse its products
 * (NVIDIA's does: x·y − inf gave −inf where OpenCL's rounded products give
 * inf − inf = NaN); these multiplies get NoContraction like all others. */
static uint32_t lower_cross(lower *c, uint32_t a, uint32_t b)
{
  uint32_t t = type_of(c, a);
  uint32_t t3 = k2s_type_vector(c->m, k2s_scalar_type(c->m, t), 3);
  /* v = {a.yzx, b.zxy, a.zxy, b.yzx} */
  static const uint32_t yzx[3] = {1, 2, 0}, zxy[3] = {2, 0, 1};
  const uint32_t *sw[4] = {yzx, zxy, zxy, yzx};
  uint32_t src[4] = {a, b, a, b}, v[4];
  for (int k = 0; k < 4; k++) {
    uint32_t ops[5] = {src[k], src[k], sw[k][0], sw[k][1], sw[k][2]};
    v[k] = k2s_emit(&c->b, SpvOpVectorShuffle, t3, ops, 5);
  }
  uint32_t r3 = bin(c, SpvOpFSub, bin(c, SpvOpFMul, v[0], v[1]), bin(c, SpvOpFMul, v[2], v[3]));
  if (lanes(c, t) == 3)
    return r3;
  uint32_t back[6] = {r3, cfloat(c, t3, 0.0), 0, 1, 2, 3};
  return k2s_emit(&c->b, SpvOpVectorShuffle, t, back, 6);
}

/* ---- select, bitselect, shuffle ----------------------------------------- */

/* select(a, b, c): b where c is non-zero (scalar) or has its top bit set (vector). */
static uint32_t lower_select(lower *c, uint32_t a, uint32_t b, uint32_t k)
{
  uint32_t kt = type_of(c, k);
  uint32_t cond = lanes(c, kt) == 1 ? cmp(c, SpvOpINotEqual, k, cint(c, kt, 0))
                                    : cmp(c, SpvOpSLessThan, k, cint(c, kt, 0));
  return sel(c, cond, b, a);
}

static uint32_t lower_bitselect(lower *c, uint32_t a, uint32_t b, uint32_t k)
{
  uint32_t t = type_of(c, a);
  bool fl = is_float_type(c, t);
  uint32_t it = fl ? int_like(c, t, width(c, t)) : t;
  if (fl) {
    a = bitcast(c, it, a);
    b = bitcast(c, it, b);
    k = bitcast(c, it, k);
  }
  uint32_t r = bin(c, SpvOpBitwiseOr, bin(c, SpvOpBitwiseAnd, a, op1(c, SpvOpNot, it, k)),
                   bin(c, SpvOpBitwiseAnd, b, k));
  return fl ? bitcast(c, t, r) : r;
}

/* The constant lanes of a shuffle mask; false when it is not constant. */
static bool constant_mask(lower *c, uint32_t mask, uint32_t n, uint64_t *out)
{
  k2s_instr *d = k2s_def(c->m, mask);
  if (!d)
    return false;
  if (d->opcode == SpvOpConstantNull) {
    memset(out, 0, n * sizeof(*out));
    return true;
  }
  if (d->opcode != SpvOpConstantComposite || d->n_ops != n)
    return false;
  for (uint32_t i = 0; i < n; i++) {
    k2s_instr *e = k2s_def(c->m, d->ops[i]);
    if (e && e->opcode == SpvOpUndef)
      out[i] = 0;
    else if (!k2s_const_value(c->m, d->ops[i], &out[i]))
      return false;
  }
  return true;
}

/* shuffle(x, mask) / shuffle2(x, y, mask) (y = 0 for shuffle): only the low
 * log2(m) (shuffle2: log2(2m)) bits of each mask lane count. */
static uint32_t lower_shuffle(lower *c, uint32_t x, uint32_t y, uint32_t mask)
{
  uint32_t rt = c->at->type, nr = lanes(c, rt), nx = lanes(c, type_of(c, x));
  if (nx < 2 || nr > 16 || (nx & (nx - 1))) {
    k2s_error(c->m, c->at, "OpenCL shuffle needs a source vector of 2, 4, 8 or 16 lanes");
    return 0;
  }
  uint64_t lim = y ? 2 * nx - 1 : nx - 1;
  uint64_t lane[16];
  if (constant_mask(c, mask, nr, lane)) {
    uint32_t ops[18] = {x, y ? y : x};
    for (uint32_t i = 0; i < nr; i++)
      ops[2 + i] = (uint32_t)(lane[i] & lim);
    return k2s_emit(&c->b, SpvOpVectorShuffle, rt, ops, 2 + nr);
  }
  uint32_t et = k2s_scalar_type(c->m, rt), mt = k2s_scalar_type(c->m, type_of(c, mask));
  uint32_t parts[16];
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t mi = and_c(c, extract(c, mt, mask, i), lim);
    uint32_t idx = and_c(c, mi, nx - 1);
    parts[i] = op2(c, SpvOpVectorExtractDynamic, et, x, idx);
    if (y) {
      uint32_t from_y = op2(c, SpvOpVectorExtractDynamic, et, y, idx);
      parts[i] = sel(c, cmp(c, SpvOpULessThan, mi, cint(c, mt, nx)), parts[i], from_y);
    }
  }
  return k2s_emit(&c->b, SpvOpCompositeConstruct, rt, parts, nr);
}

/* ---- vloadn / vstoren --------------------------------------------------- */

/* The type an access chain's index list selects, up to (not including) its
 * last index. */
static uint32_t container_of_last(lower *c, k2s_instr *ch)
{
  k2s_instr *pt = k2s_def(c->m, type_of(c, ch->ops[0]));
  if (!pt || pt->opcode != SpvOpTypePointer)
    return 0;
  uint32_t t = pt->ops[1];
  for (uint32_t k = 1; k + 1 < ch->n_ops; k++) {
    k2s_instr *d = k2s_def(c->m, t);
    if (!d)
      return 0;
    if (d->opcode == SpvOpTypeStruct) {
      uint64_t v;
      if (!k2s_const_value(c->m, ch->ops[k], &v) || v >= d->n_ops)
        return 0;
      t = d->ops[v];
    } else if (d->opcode == SpvOpTypeArray || d->opcode == SpvOpTypeRuntimeArray ||
               d->opcode == SpvOpTypeVector) {
      t = d->ops[0];
    } else {
      return 0;
    }
  }
  return t;
}

static bool is_physical(lower *c, uint32_t ptr)
{
  k2s_instr *pt = k2s_def(c->m, type_of(c, ptr));
  return pt && pt->opcode == SpvOpTypePointer && pt->ops[0] == SpvStorageClassPhysicalStorageBuffer;
}

/* OpLoad / OpStore; through a PhysicalStorageBuffer pointer (--pointers=physical)
 * with the Aligned operand Vulkan requires there, the pointee's OpenCL alignment. */
static uint32_t load_at(lower *c, uint32_t t, uint32_t ptr)
{
  uint64_t size, align;
  if (!is_physical(c, ptr) || !k2s_cl_layout(c->m, t, &size, &align))
    return op1(c, SpvOpLoad, t, ptr);
  uint32_t ops[3] = {ptr, SpvMemoryAccessAlignedMask, (uint32_t)align};
  return k2s_emit(&c->b, SpvOpLoad, t, ops, 3);
}

static void store_at(lower *c, uint32_t ptr, uint32_t v)
{
  uint64_t size, align;
  uint32_t ops[4] = {ptr, v, SpvMemoryAccessAlignedMask, 0};
  bool aligned = is_physical(c, ptr) && k2s_cl_layout(c->m, type_of(c, v), &size, &align);
  ops[3] = aligned ? (uint32_t)align : 0;
  k2s_emit(&c->b, SpvOpStore, 0, ops, aligned ? 4 : 2);
}

/* The access chain of p, when p points at an element of an array; NULL after
 * an error naming the builtin. A PhysicalStorageBuffer pointer (an address)
 * gets a stand-in chain, OpPtrAccessChain p 0, never inserted: element_ptr()
 * then steps from p itself. */
static k2s_instr *element_chain(lower *c, uint32_t p, const char *name)
{
  if (is_physical(c, p)) {
    /* OpPtrAccessChain steps by the pointer type's ArrayStride: the element size */
    uint64_t size, align;
    uint32_t pt = type_of(c, p);
    if (!k2s_find_decoration(c->m, pt, SpvDecorationArrayStride) &&
        k2s_cl_layout(c->m, pointee_of(c, pt), &size, &align)) {
      uint32_t stride = (uint32_t)size;
      k2s_decorate(c->m, pt, SpvDecorationArrayStride, &stride, 1);
    }
    k2s_instr *ch = k2s_alloc(&c->m->arena, sizeof(*ch));
    ch->opcode = SpvOpPtrAccessChain;
    ch->type = type_of(c, p);
    ch->ops = k2s_alloc(&c->m->arena, 2 * sizeof(uint32_t));
    ch->ops[0] = p;
    ch->ops[1] = k2s_const_int(c->m, k2s_type_int(c->m, 64, false), 0);
    ch->n_ops = ch->cap_ops = 2;
    return ch;
  }
  k2s_instr *ch = k2s_def(c->m, p);
  if (ch && (ch->opcode == SpvOpAccessChain || ch->opcode == SpvOpInBoundsAccessChain) &&
      ch->n_ops >= 2) {
    k2s_instr *arr = k2s_def(c->m, container_of_last(c, ch));
    if (arr && (arr->opcode == SpvOpTypeArray || arr->opcode == SpvOpTypeRuntimeArray))
      return ch;
  }
  k2s_error(c->m, c->at,
            "the OpenCL builtin %s needs a pointer into an array of scalars, and this pointer "
            "is not an access chain into one",
            name);
  return NULL;
}

/* The index of p[offset * n] in the last index of p's chain. */
static uint32_t element_base(lower *c, k2s_instr *ch, uint32_t offset, uint32_t n)
{
  uint32_t last = ch->ops[ch->n_ops - 1];
  uint32_t lt = type_of(c, last);
  uint32_t off = iconv(c, offset, width(c, lt), false);
  if (n != 1)
    off = bin(c, SpvOpIMul, off, cint(c, lt, n));
  return bin(c, SpvOpIAdd, last, off);
}

/* &p[offset * n + i], given element_base()'s index. */
static uint32_t element_ptr(lower *c, k2s_instr *ch, uint32_t base, uint32_t i)
{
  uint32_t *ops = k2s_alloc(&c->m->arena, ch->n_ops * sizeof(uint32_t));
  memcpy(ops, ch->ops, ch->n_ops * sizeof(uint32_t));
  ops[ch->n_ops - 1] = i ? add_c(c, base, i) : base;
  return k2s_emit(&c->b, ch->opcode == SpvOpPtrAccessChain ? SpvOpPtrAccessChain : SpvOpAccessChain,
                  ch->type, ops, ch->n_ops);
}

static uint32_t lower_vloadn(lower *c, uint32_t offset, uint32_t p, uint32_t n)
{
  k2s_instr *ch = element_chain(c, p, "vloadn");
  uint32_t rt = c->at->type, et = k2s_scalar_type(c->m, rt);
  if (!ch)
    return 0;
  if (n != lanes(c, rt) || n > 16) {
    k2s_error(c->m, c->at, "vloadn's lane count does not match its result type");
    return 0;
  }
  uint32_t parts[16], base = element_base(c, ch, offset, n);
  for (uint32_t i = 0; i < n; i++)
    parts[i] = load_at(c, et, element_ptr(c, ch, base, i));
  return k2s_emit(&c->b, SpvOpCompositeConstruct, rt, parts, n);
}

static uint32_t lower_vstoren(lower *c, uint32_t data, uint32_t offset, uint32_t p)
{
  k2s_instr *ch = element_chain(c, p, "vstoren");
  if (!ch)
    return 0;
  uint32_t dt = type_of(c, data), n = lanes(c, dt), et = k2s_scalar_type(c->m, dt);
  uint32_t base = element_base(c, ch, offset, n);
  for (uint32_t i = 0; i < n; i++) {
    store_at(c, element_ptr(c, ch, base, i), extract(c, et, data, i));
  }
  return NO_VALUE;
}

/* ---- vload_half / vstore_half ------------------------------------------- */

/* Float or double x rounded (by `mode`, an FPRoundingMode) to a value a half
 * holds exactly, still in x's type: the conversion to half that follows is
 * then exact, whatever rounding the device's OpFConvert does (and a double
 * is rounded once, never through float). Works on the bit pattern: drop the
 * mantissa bits below a half's (13 for float, 42 for double; more below
 * 2^-14, where halves are subnormal), with carries moving into the exponent
 * as they should. */
static uint32_t round_to_half(lower *c, uint32_t x, uint32_t mode)
{
  uint32_t t = type_of(c, x), w = width(c, t), it = int_like(c, t, w);
  uint32_t mant = w == 64 ? 52 : 23, bias = w == 64 ? 1023 : 127, drop = mant - 10;
  uint64_t sgn = 1ull << (w - 1);
  uint32_t b = bitcast(c, it, x);
  uint32_t sign = and_c(c, b, sgn), u = and_c(c, b, sgn - 1);
  uint32_t neg = cmp(c, SpvOpINotEqual, sign, cint(c, it, 0));
  /* the number of mantissa bits below a half's last bit: drop..mant */
  uint32_t sh = bin(c, SpvOpISub, cint(c, it, drop + bias - 14), shr_u(c, u, mant));
  sh = imin(c, true, imax(c, true, sh, cint(c, it, drop)), cint(c, it, mant));
  uint32_t low =
      bin(c, SpvOpISub, bin(c, SpvOpShiftLeftLogical, cint(c, it, 1), sh), cint(c, it, 1));
  uint32_t zero = cint(c, it, 0), inc = zero;
  /* 65504, the largest half; infinity; 2^-24, the smallest half; 2^-25 */
  uint32_t max_half = cint(c, it, (uint64_t)(bias + 15) << mant | 0x3ffull << drop);
  uint32_t inf = cint(c, it, (uint64_t)(2 * bias + 1) << mant);
  uint32_t min_sub = cint(c, it, (uint64_t)(bias - 24) << mant);
  uint32_t half_min_sub = cint(c, it, (uint64_t)(bias - 25) << mant);
  uint32_t big = inf, tiny;
  switch (mode) {
  case SpvFPRoundingModeRTZ:
    big = max_half;
    tiny = zero;
    break;
  case SpvFPRoundingModeRTP:
  case SpvFPRoundingModeRTN: {
    /* away from zero for the values on the mode's side, toward it otherwise */
    uint32_t up =
        mode == SpvFPRoundingModeRTP ? op1(c, SpvOpLogicalNot, type_of(c, neg), neg) : neg;
    inc = sel(c, up, low, zero);
    big = sel(c, up, inf, max_half);
    uint32_t nonzero = cmp(c, SpvOpINotEqual, u, zero);
    tiny = sel(c, bin(c, SpvOpLogicalAnd, up, nonzero), min_sub, zero);
    break;
  }
  default: /* RTE */
    inc = bin(c, SpvOpIAdd, shr_u(c, low, 1), and_c(c, bin(c, SpvOpShiftRightLogical, u, sh), 1));
    tiny = sel(c, cmp(c, SpvOpUGreaterThan, u, half_min_sub), min_sub, zero);
    break;
  }
  uint32_t r = bin(c, SpvOpBitwiseAnd, bin(c, SpvOpIAdd, u, inc), op1(c, SpvOpNot, it, low));
  r = sel(c, cmp(c, SpvOpUGreaterThan, r, max_half), big, r);
  r = sel(c, cmp(c, SpvOpULessThan, u, min_sub), tiny, r);
  r = sel(c, cmp(c, SpvOpUGreaterThanEqual, u, inf), u, r); /* inf and NaN stay */
  return bitcast(c, t, bin(c, SpvOpBitwiseOr, r, sign));
}

static uint32_t pointee_of(lower *c, uint32_t ptr_type)
{
  k2s_instr *pt = k2s_def(c->m, ptr_type);
  return pt && pt->opcode == SpvOpTypePointer ? pt->ops[1] : 0;
}

/* vload_half(n): n halves from p[offset * stride + i], widened exactly. */
static uint32_t lower_vload_half(lower *c, uint32_t offset, uint32_t p, uint32_t n, uint32_t stride,
                                 const char *name)
{
  k2s_instr *ch = element_chain(c, p, name);
  if (!ch)
    return 0;
  uint32_t rt = c->at->type, et = k2s_scalar_type(c->m, rt), ht = pointee_of(c, ch->type);
  if (n != lanes(c, rt) || n > 16 || width(c, ht) != 16) {
    k2s_error(c->m, c->at, "%s's lane count or pointer type does not fit its result", name);
    return 0;
  }
  uint32_t parts[16], base = element_base(c, ch, offset, stride);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t h = load_at(c, ht, element_ptr(c, ch, base, i));
    if (!is_float_type(c, ht)) /* the memory holds ushorts (a reinterpreted buffer) */
      h = bitcast(c, k2s_type_float(c->m, 16), h);
    parts[i] = op1(c, SpvOpFConvert, et, h);
  }
  return n == 1 ? parts[0] : k2s_emit(&c->b, SpvOpCompositeConstruct, rt, parts, n);
}

/* vstore_half(n)(_r): data's lanes rounded to halves at p[offset * stride + i]. */
static uint32_t lower_vstore_half(lower *c, uint32_t data, uint32_t offset, uint32_t p,
                                  uint32_t stride, uint32_t mode, const char *name)
{
  k2s_instr *ch = element_chain(c, p, name);
  if (!ch)
    return 0;
  uint32_t dt = type_of(c, data), n = lanes(c, dt), et = k2s_scalar_type(c->m, dt);
  uint32_t ht = pointee_of(c, ch->type);
  if ((width(c, dt) != 32 && width(c, dt) != 64) || width(c, ht) != 16) {
    k2s_error(c->m, c->at,
              "the OpenCL builtin %s needs float or double data and a pointer "
              "to 16-bit elements",
              name);
    return 0;
  }
  uint32_t base = element_base(c, ch, offset, stride);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t v = n == 1 ? data : extract(c, et, data, i);
    uint32_t h = op1(c, SpvOpFConvert, k2s_type_float(c->m, 16), round_to_half(c, v, mode));
    if (!is_float_type(c, ht)) /* the memory holds ushorts (a reinterpreted buffer) */
      h = bitcast(c, ht, h);
    store_at(c, element_ptr(c, ch, base, i), h);
  }
  return NO_VALUE;
}

/* The rounding-mode literal of a vstore_half*_r, or RTE. */
static uint32_t rounding_mode(lower *c, uint32_t k)
{
  return c->at->n_ops > 2 + k ? arg(c, k) : SpvFPRoundingModeRTE;
}

/* ---- dispatch ----------------------------------------------------------- */

/* Rejected because Vulkan's precision for the GLSL.std.450 counterpart is
 * looser than OpenCL's bound (see the opening comment). */
static bool precision_gap(uint32_t op)
{
  switch (op) {
  case K2S_OPENCL_STD_half_cos:
  case K2S_OPENCL_STD_half_sin:
  case K2S_OPENCL_STD_half_tan:
  case K2S_OPENCL_STD_half_log:
  case K2S_OPENCL_STD_half_log2:
  case K2S_OPENCL_STD_half_log10:
  case K2S_OPENCL_STD_half_powr: return true;
  default: return op <= K2S_OPENCL_STD_tanpi;
  }
}

/* Whether the lowering of op on double works on the 64-bit bit patterns. */
static bool double_needs_int64(uint32_t op)
{
  switch (op) {
  case K2S_OPENCL_STD_fmod:
  case K2S_OPENCL_STD_remainder:
  case K2S_OPENCL_STD_remquo:
  case K2S_OPENCL_STD_frexp:
  case K2S_OPENCL_STD_ldexp:
  case K2S_OPENCL_STD_ilogb:
  case K2S_OPENCL_STD_logb:
  case K2S_OPENCL_STD_nextafter:
  case K2S_OPENCL_STD_fma:
  case K2S_OPENCL_STD_copysign:
  case K2S_OPENCL_STD_nan:
  case K2S_OPENCL_STD_bitselect:
  case K2S_OPENCL_STD_normalize:
  case K2S_OPENCL_STD_vstore_half:
  case K2S_OPENCL_STD_vstore_half_r:
  case K2S_OPENCL_STD_vstore_halfn:
  case K2S_OPENCL_STD_vstore_halfn_r:
  case K2S_OPENCL_STD_vstorea_halfn:
  case K2S_OPENCL_STD_vstorea_halfn_r: return true;
  default: return false;
  }
}

/* Whether the i-th value operand (0-based) of OpenCL.std op must be a float
 * scalar or vector (-1: no rule here). The expansions below read float bit
 * layouts and integer semantics from these operands' types; spirv-val checks
 * them, but under --no-validate-input an integer operand of remquo made
 * mantissa_rem loop forever. */
static int wants_float(uint32_t op, uint32_t k)
{
  switch (op) {
  case K2S_OPENCL_STD_nan: return k == 0 ? 0 : -1;
  case K2S_OPENCL_STD_ldexp:
  case K2S_OPENCL_STD_pown:
  case K2S_OPENCL_STD_rootn:
  case K2S_OPENCL_STD_frexp:
  case K2S_OPENCL_STD_modf:
  case K2S_OPENCL_STD_fract:
  case K2S_OPENCL_STD_sincos:
  case K2S_OPENCL_STD_lgamma_r: return k == 0 ? 1 : -1;
  case K2S_OPENCL_STD_remquo: return k < 2 ? 1 : -1;
  default: break;
  }
  if (op <= K2S_OPENCL_STD_fast_normalize)
    return k < 3 ? 1 : -1;
  if ((op >= K2S_OPENCL_STD_s_abs && op <= K2S_OPENCL_STD_u_mul24) ||
      (op >= K2S_OPENCL_STD_u_abs && op <= K2S_OPENCL_STD_u_mad_hi))
    return k < 3 ? 0 : -1;
  return -1;
}

static bool scalar_is(lower *c, uint32_t t, uint16_t opcode)
{
  k2s_instr *s = k2s_def(c->m, k2s_scalar_type(c->m, t));
  return s && s->opcode == opcode;
}

/* The operands' types fit what the expansion of op assumes (see wants_float). */
static bool operand_types_fit(lower *c, k2s_instr *i, uint32_t op)
{
  const char *name = k2s_extinst_op_name(K2S_EXT_OPENCL_STD, op);
  for (uint32_t k = 0; k + 2 < i->n_ops; k++) {
    int f = wants_float(op, k);
    if (f < 0)
      continue;
    uint32_t t = type_of(c, i->ops[2 + k]);
    if (!scalar_is(c, t, f ? SpvOpTypeFloat : SpvOpTypeInt)) {
      k2s_error(c->m, i, "the OpenCL builtin %s needs %s operand %u; this one is not (the input "
                "is not valid OpenCL SPIR-V)", name, f ? "a floating-point" : "an integer", k + 1);
      return false;
    }
  }
  return true;
}

/* Lowers c->at; returns the value replacing its result, NO_VALUE when it has
 * none, or 0 when it cannot be lowered (an error has been reported). */
static uint32_t lower_opencl(lower *c, uint32_t op)
{
  k2s_instr *at = c->at;
  uint32_t t = at->type;
  uint32_t x = at->n_ops > 2 ? arg(c, 0) : 0;
  uint32_t xt = x ? type_of(c, x) : 0;
  bool on_double = (is_float_type(c, t) && width(c, t) == 64) ||
                   (xt && is_float_type(c, xt) && width(c, xt) == 64);
  if (c->o && (c->o->missing_features & K2S_FEATURE_INT64) && on_double && double_needs_int64(op)) {
    k2s_error(c->m, at,
              "the OpenCL builtin %s on double works on 64-bit integers, which the target "
              "lacks (--no-int64)",
              k2s_extinst_op_name(K2S_EXT_OPENCL_STD, op));
    return 0;
  }
  uint32_t y = at->n_ops > 3 ? arg_as(c, 1, t) : 0;
  uint32_t z = at->n_ops > 4 ? arg_as(c, 2, t) : 0;
  switch (op) {
  /* integer */
  case K2S_OPENCL_STD_s_abs:
    return sel(c, cmp(c, SpvOpSLessThan, x, cint(c, t, 0)), op1(c, SpvOpSNegate, t, x), x);
  case K2S_OPENCL_STD_u_abs: return x;
  case K2S_OPENCL_STD_s_abs_diff: return lower_abs_diff(c, true, x, y);
  case K2S_OPENCL_STD_u_abs_diff: return lower_abs_diff(c, false, x, y);
  case K2S_OPENCL_STD_s_add_sat: return lower_add_sat(c, true, x, y);
  case K2S_OPENCL_STD_u_add_sat: return lower_add_sat(c, false, x, y);
  case K2S_OPENCL_STD_s_sub_sat: return lower_sub_sat(c, true, x, y);
  case K2S_OPENCL_STD_u_sub_sat: return lower_sub_sat(c, false, x, y);
  case K2S_OPENCL_STD_s_hadd: return lower_hadd(c, true, false, x, y);
  case K2S_OPENCL_STD_u_hadd: return lower_hadd(c, false, false, x, y);
  case K2S_OPENCL_STD_s_rhadd: return lower_hadd(c, true, true, x, y);
  case K2S_OPENCL_STD_u_rhadd: return lower_hadd(c, false, true, x, y);
  case K2S_OPENCL_STD_s_clamp: return imin(c, true, imax(c, true, x, y), z);
  case K2S_OPENCL_STD_u_clamp: return imin(c, false, imax(c, false, x, y), z);
  case K2S_OPENCL_STD_s_max: return imax(c, true, x, y);
  case K2S_OPENCL_STD_u_max: return imax(c, false, x, y);
  case K2S_OPENCL_STD_s_min: return imin(c, true, x, y);
  case K2S_OPENCL_STD_u_min: return imin(c, false, x, y);
  case K2S_OPENCL_STD_s_mul_hi: return mul_hi(c, true, x, y);
  case K2S_OPENCL_STD_u_mul_hi: return mul_hi(c, false, x, y);
  case K2S_OPENCL_STD_s_mad_hi: return bin(c, SpvOpIAdd, mul_hi(c, true, x, y), z);
  case K2S_OPENCL_STD_u_mad_hi: return bin(c, SpvOpIAdd, mul_hi(c, false, x, y), z);
  case K2S_OPENCL_STD_s_mad_sat: return lower_mad_sat(c, true, x, y, z);
  case K2S_OPENCL_STD_u_mad_sat: return lower_mad_sat(c, false, x, y, z);
  case K2S_OPENCL_STD_rotate: return lower_rotate(c, x, y);
  case K2S_OPENCL_STD_clz: return lower_clz(c, x);
  case K2S_OPENCL_STD_ctz: return lower_ctz(c, x);
  case K2S_OPENCL_STD_popcount: return popcount(c, x);
  /* mul24/mad24 are undefined unless the operands fit in 24 bits, where the
   * full product is the answer. */
  case K2S_OPENCL_STD_s_mul24:
  case K2S_OPENCL_STD_u_mul24: return bin(c, SpvOpIMul, x, y);
  case K2S_OPENCL_STD_s_mad24:
  case K2S_OPENCL_STD_u_mad24: return bin(c, SpvOpIAdd, bin(c, SpvOpIMul, x, y), z);
  case K2S_OPENCL_STD_s_upsample: return lower_upsample(c, true, x, arg(c, 1));
  case K2S_OPENCL_STD_u_upsample: return lower_upsample(c, false, x, arg(c, 1));

  /* common and exact float functions */
  case K2S_OPENCL_STD_fabs: return glsl1(c, K2S_GLSL_STD_450_FAbs, x);
  case K2S_OPENCL_STD_copysign: return copysign_(c, x, y);
  case K2S_OPENCL_STD_floor: return glsl1(c, K2S_GLSL_STD_450_Floor, x);
  case K2S_OPENCL_STD_ceil: return glsl1(c, K2S_GLSL_STD_450_Ceil, x);
  case K2S_OPENCL_STD_trunc: return glsl1(c, K2S_GLSL_STD_450_Trunc, x);
  case K2S_OPENCL_STD_rint: return glsl1(c, K2S_GLSL_STD_450_RoundEven, x);
  case K2S_OPENCL_STD_round: return lower_round(c, x);
  /* OpenCL's fmin/fmax return the other operand for a NaN: NMin/NMax. min,
   * max and clamp leave NaNs undefined; the same functions serve. */
  case K2S_OPENCL_STD_fmin:
  case K2S_OPENCL_STD_fmin_common: return glsl2(c, K2S_GLSL_STD_450_NMin, x, y);
  case K2S_OPENCL_STD_fmax:
  case K2S_OPENCL_STD_fmax_common: return glsl2(c, K2S_GLSL_STD_450_NMax, x, y);
  case K2S_OPENCL_STD_fclamp:
    return glsl2(c, K2S_GLSL_STD_450_NMin, glsl2(c, K2S_GLSL_STD_450_NMax, x, y), z);
  case K2S_OPENCL_STD_maxmag: return lower_mag(c, true, x, y);
  case K2S_OPENCL_STD_minmag: return lower_mag(c, false, x, y);
  /* OpenCL leaves mad's rounding open (one or two roundings); GLSL Fma has
   * exactly that latitude in Vulkan ("inherited from OpFMul followed by
   * OpFAdd"), and the no-contraction pass leaves an OpExtInst alone, so the
   * driver may fuse it. clang writes a*b+c as mad under OpenCL's default
   * FP_CONTRACT ON; with FP_CONTRACT OFF it stays OpFMul + OpFAdd. */
  case K2S_OPENCL_STD_mad: {
    uint32_t args[3] = {x, y, z};
    return glsl(c, K2S_GLSL_STD_450_Fma, t, args, 3);
  }
  case K2S_OPENCL_STD_fma: {
    /* Vulkan does not require Fma to be fused (its precision is that of a
     * multiply then an add); OpenCL wants one rounding. The math pass's
     * library does float and half; double is done here in integers. */
    if (width(c, t) == 64)
      return lower_fma_double(c, x, y, z);
    uint32_t args[3] = {x, y, z};
    return glsl(c, K2S_GLSL_STD_450_Fma, t, args, 3);
  }
  case K2S_OPENCL_STD_fdim:
    return sel(c, cmp(c, SpvOpFOrdLessThanEqual, x, y), cfloat(c, t, 0.0), f_sub(c, x, y));
  case K2S_OPENCL_STD_sign: return lower_sign(c, x);
  case K2S_OPENCL_STD_step:
    return sel(c, cmp(c, SpvOpFOrdLessThan, y, arg_as(c, 0, t)), cfloat(c, t, 0.0),
               cfloat(c, t, 1.0));
  case K2S_OPENCL_STD_smoothstep: return lower_smoothstep(c, arg_as(c, 0, t), y, z);
  case K2S_OPENCL_STD_mix: return f_add(c, x, f_mul(c, f_sub(c, y, x), z));
  case K2S_OPENCL_STD_degrees: return f_mul(c, x, cfloat(c, t, 180.0 / M_PI));
  case K2S_OPENCL_STD_radians: return f_mul(c, x, cfloat(c, t, M_PI / 180.0));
  case K2S_OPENCL_STD_fract: return lower_fract(c, x, arg(c, 1));
  case K2S_OPENCL_STD_modf: return lower_modf(c, x, arg(c, 1));
  case K2S_OPENCL_STD_nan: return lower_nan(c, x);
  case K2S_OPENCL_STD_fmod: return lower_fmod(c, 0, x, y, 0);
  case K2S_OPENCL_STD_remainder: return lower_fmod(c, 1, x, y, 0);
  case K2S_OPENCL_STD_remquo: return lower_fmod(c, 2, x, y, arg(c, 2));
  case K2S_OPENCL_STD_frexp: return lower_frexp(c, x, arg(c, 1));
  case K2S_OPENCL_STD_ldexp: return lower_ldexp(c, x, arg(c, 1));
  case K2S_OPENCL_STD_ilogb: return lower_logb(c, x, false);
  case K2S_OPENCL_STD_logb: return lower_logb(c, x, true);
  case K2S_OPENCL_STD_nextafter: return lower_nextafter(c, x, y);
  case K2S_OPENCL_STD_select: return lower_select(c, x, arg(c, 1), arg(c, 2));
  case K2S_OPENCL_STD_bitselect: return lower_bitselect(c, x, arg(c, 1), arg(c, 2));
  case K2S_OPENCL_STD_shuffle: return lower_shuffle(c, x, 0, arg(c, 1));
  case K2S_OPENCL_STD_shuffle2: return lower_shuffle(c, x, arg(c, 1), arg(c, 2));

  /* sqrt and rsqrt: Vulkan's float bounds (sqrt inherited from inversesqrt
   * and a division; inversesqrt 2 ulp) are within a couple of ulp of
   * OpenCL's (3 and 2 ulp). For double, Vulkan promises only float precision
   * for every instruction, OpFAdd included, so sqrt is no weaker a promise
   * than the arithmetic around it; drivers with shaderFloat64 do better. */
  case K2S_OPENCL_STD_sqrt:
  case K2S_OPENCL_STD_rsqrt:
  case K2S_OPENCL_STD_half_sqrt:
  case K2S_OPENCL_STD_half_rsqrt:
    return glsl1(c,
                 op == K2S_OPENCL_STD_sqrt || op == K2S_OPENCL_STD_half_sqrt
                     ? K2S_GLSL_STD_450_Sqrt
                     : K2S_GLSL_STD_450_InverseSqrt,
                 x);
  /* half_: 8192 ulp. Vulkan's exp/exp2 (3 + 2|x| ulp) and division (2.5
   * ulp) meet it; its log (absolute error near 1), sin/cos/tan (absolute
   * error) and pow do not, and are rejected in precision_gap(). */
  case K2S_OPENCL_STD_half_divide:
  case K2S_OPENCL_STD_native_divide: return bin(c, SpvOpFDiv, x, y);
  case K2S_OPENCL_STD_half_recip:
  case K2S_OPENCL_STD_native_recip: return bin(c, SpvOpFDiv, cfloat(c, t, 1.0), x);
  case K2S_OPENCL_STD_half_exp:
  case K2S_OPENCL_STD_native_exp: return glsl_native(c, K2S_GLSL_STD_450_Exp, x, 0);
  case K2S_OPENCL_STD_half_exp2:
  case K2S_OPENCL_STD_native_exp2: return glsl_native(c, K2S_GLSL_STD_450_Exp2, x, 0);
  case K2S_OPENCL_STD_half_exp10:
  case K2S_OPENCL_STD_native_exp10:
    return glsl_native(c, K2S_GLSL_STD_450_Exp2, f_mul(c, x, cfloat(c, t, M_LN10 / M_LN2)), 0);
  /* native_: precision is implementation-defined; GLSL's is the device's. */
  case K2S_OPENCL_STD_native_sqrt: return glsl_native(c, K2S_GLSL_STD_450_Sqrt, x, 0);
  case K2S_OPENCL_STD_native_rsqrt: return glsl_native(c, K2S_GLSL_STD_450_InverseSqrt, x, 0);
  case K2S_OPENCL_STD_native_log: return glsl_native(c, K2S_GLSL_STD_450_Log, x, 0);
  case K2S_OPENCL_STD_native_log2: return glsl_native(c, K2S_GLSL_STD_450_Log2, x, 0);
  case K2S_OPENCL_STD_native_log10:
    return f_mul(c, glsl_native(c, K2S_GLSL_STD_450_Log2, x, 0), cfloat(c, t, M_LN2 / M_LN10));
  case K2S_OPENCL_STD_native_sin: return glsl_native(c, K2S_GLSL_STD_450_Sin, x, 0);
  case K2S_OPENCL_STD_native_cos: return glsl_native(c, K2S_GLSL_STD_450_Cos, x, 0);
  case K2S_OPENCL_STD_native_tan: return glsl_native(c, K2S_GLSL_STD_450_Tan, x, 0);
  case K2S_OPENCL_STD_native_powr: return glsl_native(c, K2S_GLSL_STD_450_Pow, x, y);

  /* geometric */
  case K2S_OPENCL_STD_cross: return lower_cross(c, x, y);
  case K2S_OPENCL_STD_length: return length(c, x);
  case K2S_OPENCL_STD_distance: return length(c, f_sub(c, x, arg(c, 1)));
  case K2S_OPENCL_STD_normalize: return lower_normalize(c, x);
  /* fast_: computed as half_sqrt / half_rsqrt of the sum of squares (8192 ulp). */
  case K2S_OPENCL_STD_fast_length: return glsl1(c, K2S_GLSL_STD_450_Sqrt, dot(c, x, x));
  case K2S_OPENCL_STD_fast_distance: {
    uint32_t d = f_sub(c, x, arg(c, 1));
    return glsl1(c, K2S_GLSL_STD_450_Sqrt, dot(c, d, d));
  }
  case K2S_OPENCL_STD_fast_normalize: {
    uint32_t r = scale(c, x, glsl1(c, K2S_GLSL_STD_450_InverseSqrt, dot(c, x, x)));
    return sel_all(c, all_zero(c, x), x, r);
  }

  /* memory */
  case K2S_OPENCL_STD_vloadn: return lower_vloadn(c, x, arg(c, 1), arg(c, 2));
  case K2S_OPENCL_STD_vstoren: return lower_vstoren(c, x, arg(c, 1), arg(c, 2));
  case K2S_OPENCL_STD_vload_half: return lower_vload_half(c, x, arg(c, 1), 1, 1, "vload_half");
  case K2S_OPENCL_STD_vload_halfn:
    return lower_vload_half(c, x, arg(c, 1), arg(c, 2), arg(c, 2), "vload_halfn");
  case K2S_OPENCL_STD_vloada_halfn: /* aligned: a 3-vector takes the room of 4 */
    return lower_vload_half(c, x, arg(c, 1), arg(c, 2), arg(c, 2) == 3 ? 4 : arg(c, 2),
                            "vloada_halfn");
  case K2S_OPENCL_STD_vstore_half:
  case K2S_OPENCL_STD_vstore_half_r:
  case K2S_OPENCL_STD_vstore_halfn:
  case K2S_OPENCL_STD_vstore_halfn_r:
  case K2S_OPENCL_STD_vstorea_halfn:
  case K2S_OPENCL_STD_vstorea_halfn_r: {
    uint32_t n = lanes(c, type_of(c, x));
    bool single = op == K2S_OPENCL_STD_vstore_half || op == K2S_OPENCL_STD_vstore_half_r;
    bool aligned = op == K2S_OPENCL_STD_vstorea_halfn || op == K2S_OPENCL_STD_vstorea_halfn_r;
    uint32_t stride = single ? 1 : aligned && n == 3 ? 4 : n;
    return lower_vstore_half(c, x, arg(c, 1), arg(c, 2), stride, rounding_mode(c, 3),
                             k2s_extinst_op_name(K2S_EXT_OPENCL_STD, op));
  }
  case K2S_OPENCL_STD_prefetch: return NO_VALUE; /* a hint with no effect on results */
  case K2S_OPENCL_STD_printf:
    k2s_error(c->m, at,
              "printf reached the builtins pass: the 'printf' pass lowers it (a "
              "--passes= list without it cannot translate printf)");
    return 0;
  default: break;
  }
  const char *name = k2s_extinst_op_name(K2S_EXT_OPENCL_STD, op);
  if (precision_gap(op))
    k2s_error(c->m, at,
              "the OpenCL builtin %s is not supported yet: Vulkan's precision for it is "
              "looser than OpenCL's bound",
              name);
  else
    k2s_error(c->m, at, "the OpenCL builtin %s is not supported yet", name);
  return 0;
}

/* Give `value` the result id of c->at and drop c->at. The last instruction
 * the lowering made takes the id over when it computed the value; otherwise
 * an OpCopyObject carries it. */
static void replace(lower *c, uint32_t value)
{
  k2s_module *m = c->m;
  k2s_instr *at = c->at;
  if (at->result && value != NO_VALUE) {
    if (type_of(c, value) != at->type) {
      k2s_error(m, at,
                "internal error: the lowering of this builtin made a value of another "
                "type (please report this with the input module)");
      return;
    }
    k2s_instr *d = at->prev;
    if (value < c->first_new || !d || d->result != value)
      d = k2s_emit_instr(&c->b, SpvOpCopyObject, at->type, &value, 1);
    k2s_set_def(m, d->result, NULL);
    d->result = at->result;
    k2s_set_def(m, at->result, d);
  }
  k2s_instr_delete(m, at);
}

static bool lower_instr(lower *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t op = i->ops[1];
  const k2s_extinst_info *x = k2s_extinst_set_inst(&k2s_extinst_sets[K2S_EXT_OPENCL_STD], op);
  if (!x) {
    k2s_error(m, i, "unknown OpenCL.std instruction %u", op);
    return false;
  }
  uint32_t required = 0; /* optional ('?') and variadic ('*') operands may be absent */
  for (uint32_t k = 0; k < x->n_operands; k++)
    required += k2s_extinst_info_operands(x)[k].quantifier == K2S_Q_ONE;
  if (i->n_ops - 2 < required) {
    k2s_error(m, i, "the OpenCL builtin %s has too few operands", k2s_extinst_info_name(x));
    return false;
  }
  if (!operand_types_fit(c, i, op))
    return false;
  c->at = i;
  c->b = (k2s_builder){m, k2s_before(i)};
  c->first_new = m->bound;
  uint32_t v = lower_opencl(c, op);
  if (!v)
    return false;
  replace(c, v);
  return true;
}

/* Core OpBitCount on other widths than 32 (llvm-spirv's popcount). */
static bool lower_bitcount(lower *c, k2s_instr *i)
{
  if (i->n_ops < 1 || width(c, type_of(c, i->ops[0])) == 32)
    return false;
  c->at = i;
  c->b = (k2s_builder){c->m, k2s_before(i)};
  c->first_new = c->m->bound;
  uint32_t v = popcount(c, i->ops[0]);
  uint32_t w = width(c, i->type);
  if (w != width(c, type_of(c, v))) /* the count's type may be wider or narrower than Base */
    v = iconv(c, v, w, false);
  replace(c, v);
  return true;
}

/* ---- bit-field instructions on other widths than 32 ------------------------
 * cl_khr_extended_bit_ops (SPV_KHR_bit_instructions) gives OpBitFieldInsert,
 * OpBitField[SU]Extract and OpBitReverse on char, short and long too; Vulkan
 * allows them on 32-bit Base values only (VUID-StandaloneSpirv-Base-04781).
 * Narrower values go through the 32-bit instruction (the field lies inside
 * the value, so how it is widened does not matter); 64-bit ones are built
 * from shifts and masks, a count of 0 giving 0 (the shift by 64 it would
 * need is undefined, so a select picks the answer). */

/* Offset or Count (any integer scalar) as a value of the unsigned type u. */
static uint32_t bit_amount(lower *c, uint32_t u, uint32_t v)
{
  return splat(c, u, iconv(c, v, width(c, u), false));
}

static uint32_t bitfield64(lower *c, k2s_instr *i, uint32_t u, uint32_t base)
{
  uint32_t zero = cint(c, u, 0), w64 = cint(c, u, 64);
  if (i->opcode == SpvOpBitReverse) {
    uint32_t lo, hi;
    halves(c, base, &lo, &hi);
    uint32_t t32 = type_of(c, lo);
    uint32_t rlo = iconv(c, op1(c, SpvOpBitReverse, t32, lo), 64, false);
    uint32_t rhi = iconv(c, op1(c, SpvOpBitReverse, t32, hi), 64, false);
    return bin(c, SpvOpBitwiseOr, shl(c, rlo, 32), rhi);
  }
  bool insert = i->opcode == SpvOpBitFieldInsert;
  uint32_t off = bit_amount(c, u, i->ops[insert ? 2 : 1]);
  uint32_t cnt = bit_amount(c, u, i->ops[insert ? 3 : 2]);
  uint32_t none = cmp(c, SpvOpIEqual, cnt, zero);
  uint32_t low = sel(c, none, zero,
                     bin(c, SpvOpShiftRightLogical, cint(c, u, ~0ull), bin(c, SpvOpISub, w64, cnt)));
  switch (i->opcode) {
  case SpvOpBitFieldUExtract:
    return bin(c, SpvOpBitwiseAnd, bin(c, SpvOpShiftRightLogical, base, off), low);
  case SpvOpBitFieldSExtract: {
    uint32_t up = bin(c, SpvOpISub, bin(c, SpvOpISub, w64, off), cnt);
    uint32_t v = bin(c, SpvOpShiftRightArithmetic, bin(c, SpvOpShiftLeftLogical, base, up),
                     bin(c, SpvOpISub, w64, cnt));
    return sel(c, none, zero, v);
  }
  default: {
    uint32_t mask = bin(c, SpvOpShiftLeftLogical, low, off);
    uint32_t ins = bitcast(c, u, i->ops[1]);
    uint32_t keep = bin(c, SpvOpBitwiseAnd, base, op1(c, SpvOpNot, u, mask));
    return bin(c, SpvOpBitwiseOr, keep,
               bin(c, SpvOpBitwiseAnd, bin(c, SpvOpShiftLeftLogical, ins, off), mask));
  }
  }
}

static uint32_t bitfield_narrow(lower *c, k2s_instr *i, uint32_t base)
{
  uint32_t w = width(c, type_of(c, base)), t32 = int_like(c, type_of(c, base), 32);
  uint32_t b32 = iconv(c, base, 32, false), r;
  switch (i->opcode) {
  case SpvOpBitReverse: return iconv(c, shr_u(c, op1(c, SpvOpBitReverse, t32, b32), 32 - w), w, false);
  case SpvOpBitFieldInsert: {
    uint32_t ops[4] = {b32, iconv(c, bitcast(c, type_of(c, base), i->ops[1]), 32, false),
                       i->ops[2], i->ops[3]};
    r = k2s_emit(&c->b, SpvOpBitFieldInsert, t32, ops, 4);
    break;
  }
  default: r = op3(c, i->opcode, t32, b32, i->ops[1], i->ops[2]); break;
  }
  return iconv(c, r, w, false);
}

static bool lower_bitfield(lower *c, k2s_instr *i)
{
  uint32_t need = i->opcode == SpvOpBitReverse ? 1 : i->opcode == SpvOpBitFieldInsert ? 4 : 3;
  if (i->n_ops < need || !scalar_is(c, type_of(c, i->ops[0]), SpvOpTypeInt))
    return false;
  uint32_t w = width(c, type_of(c, i->ops[0]));
  if (w == 32 || (w != 8 && w != 16 && w != 64))
    return false;
  c->at = i;
  c->b = (k2s_builder){c->m, k2s_before(i)};
  c->first_new = c->m->bound;
  uint32_t u = int_like(c, i->type, w);
  uint32_t base = type_of(c, i->ops[0]) == u ? i->ops[0] : bitcast(c, u, i->ops[0]);
  uint32_t v = w == 64 ? bitfield64(c, i, u, base) : bitfield_narrow(c, i, base);
  replace(c, type_of(c, v) == i->type ? v : bitcast(c, i->type, v));
  return true;
}

/* The Kernel-only relational instructions OpenCL's signbit, isfinite,
 * isnormal, isordered, isunordered and islessgreater become. */
static uint32_t relational(lower *c, k2s_instr *i)
{
  uint32_t x = i->ops[0], y = i->n_ops > 1 ? i->ops[1] : 0;
  uint32_t t = type_of(c, x), w = width(c, t), it = int_like(c, t, w);
  switch (i->opcode) {
  case SpvOpSignBitSet: return cmp(c, SpvOpSLessThan, bitcast(c, it, x), cint(c, it, 0));
  case SpvOpIsFinite:
    return cmp(c, SpvOpFOrdLessThan, glsl1(c, K2S_GLSL_STD_450_FAbs, x), cfloat(c, t, INFINITY));
  case SpvOpIsNormal: {
    uint32_t mant = w == 16 ? 10 : w == 32 ? 23 : 52;
    uint64_t all = (1ull << (w - mant - 1)) - 1;
    uint32_t e = and_c(c, shr_u(c, bitcast(c, it, x), mant), all);
    uint32_t lo = cmp(c, SpvOpINotEqual, e, cint(c, it, 0));
    uint32_t hi = cmp(c, SpvOpINotEqual, e, cint(c, it, all));
    return bin(c, SpvOpLogicalAnd, lo, hi);
  }
  case SpvOpOrdered:
  case SpvOpUnordered: {
    uint32_t any_nan = bin(c, SpvOpLogicalOr, is_nan(c, x), is_nan(c, y));
    return i->opcode == SpvOpUnordered ? any_nan : op1(c, SpvOpLogicalNot, i->type, any_nan);
  }
  case SpvOpLessOrGreater: return cmp(c, SpvOpFOrdNotEqual, x, y);
  default: return 0;
  }
}

static bool lower_relational(lower *c, k2s_instr *i)
{
  if (i->n_ops <
      (i->opcode == SpvOpOrdered || i->opcode == SpvOpUnordered || i->opcode == SpvOpLessOrGreater
           ? 2u
           : 1u))
    return false;
  /* These read float bit layouts (IsNormal shifts by the mantissa width). */
  if (!scalar_is(c, type_of(c, i->ops[0]), SpvOpTypeFloat) ||
      (i->n_ops > 1 && !scalar_is(c, type_of(c, i->ops[1]), SpvOpTypeFloat))) {
    k2s_error(c->m, i, "%s needs floating-point operands (the input is not valid OpenCL SPIR-V)",
              k2s_opcode_name(i->opcode));
    return false;
  }
  c->at = i;
  c->b = (k2s_builder){c->m, k2s_before(i)};
  c->first_new = c->m->bound;
  replace(c, relational(c, i));
  return true;
}

bool k2s_lower_builtins(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  lower c = {.m = m, .o = o};
  bool changed = false;
  k2s_foreach_function(f, m) k2s_foreach_block(b, f) k2s_foreach_instr_safe(i, &b->body)
  {
    if (i->opcode == SpvOpExtInst && i->n_ops >= 2 && i->ops[0] < m->id_cap &&
        m->ext_set[i->ops[0]] == K2S_EXT_OPENCL_STD)
      changed |= lower_instr(&c, i);
    else if (i->opcode == SpvOpBitCount)
      changed |= lower_bitcount(&c, i);
    else if (i->opcode == SpvOpBitFieldInsert || i->opcode == SpvOpBitFieldSExtract ||
             i->opcode == SpvOpBitFieldUExtract || i->opcode == SpvOpBitReverse)
      changed |= lower_bitfield(&c, i);
    else if (i->opcode == SpvOpSignBitSet || i->opcode == SpvOpIsFinite ||
             i->opcode == SpvOpIsNormal || i->opcode == SpvOpOrdered ||
             i->opcode == SpvOpUnordered || i->opcode == SpvOpLessOrGreater)
      changed |= lower_relational(&c, i);
  }
  return changed;
}
