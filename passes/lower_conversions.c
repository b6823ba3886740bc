/*
 * conversions: OpenCL conversions → Vulkan-legal arithmetic with OpenCL's
 * rounding and saturation.
 *
 * Vulkan forbids the SaturatedConversion decoration, allows FPRoundingMode
 * only on conversions feeding 16-bit float stores, and has no
 * OpSatConvertSToU/UToS (Kernel-only). It also leaves the rounding of a plain
 * inexact int→float or narrowing float conversion open (either neighbour)
 * unless the entry point declares RoundingModeRTE, while OpenCL requires
 * round-to-nearest-even there. So every OpConvert{F,S,U}To{S,U,F}, OpFConvert,
 * OpSConvert/OpUConvert with those decorations, the OpSatConvert* opcodes and
 * (by default) every plain inexact int→float or float narrowing become
 * explicit arithmetic that relies only on what Vulkan guarantees: integer
 * operations, exact conversions of representable values, FToS/FToU
 * truncation toward zero of in-range values, GLSL Floor/Ceil/RoundEven and
 * NClamp. float→int: (with _sat) NClamp to the limits the float holds, one
 * select per limit it cannot hold and for a signed NaN, then round (GLSL);
 * int→float: round |x| to the float's precision in integer
 * arithmetic (a mode-dependent bias, then the low bits cleared) and convert
 * that exactly; float narrowing: build the narrower format's bits from the
 * wider one's with integer arithmetic (subnormals, overflow and NaN
 * included).
 * Widening conversions are exact and only lose their decorations.
 * Runs after pointers and before builtins; --math=native leaves undecorated
 * conversions to the device's default rounding. docs/conversions.md has the
 * case table and the measured results.
 */
#include <string.h>

#include "k2s_internal.h"

enum {
  FLAG_SAT = 1,        /* SaturatedConversion */
  FLAG_MODE_SHIFT = 1, /* FPRoundingMode + 1 in bits 1..3 (0: none) */
  FLAG_LOWERED = 16,   /* handled: its Sat/FPRoundingMode decorations go */
};

typedef struct conv {
  k2s_module *m;
  const k2s_options *o;
  k2s_builder b;
  k2s_instr *at;
  uint32_t first_new;
  uint32_t glsl;
  uint8_t *flags; /* by id, below n_flags */
  uint32_t n_flags;
} conv;

/* ---- types and constants ------------------------------------------------ */

static uint32_t type_of(conv *c, uint32_t id)
{
  return k2s_type_of(c->m, id);
}
static uint32_t width(conv *c, uint32_t t)
{
  return k2s_type_width(c->m, t);
}
static uint32_t lanes(conv *c, uint32_t t)
{
  return k2s_vector_size(c->m, t);
}
static uint32_t with_lanes(conv *c, uint32_t scalar, uint32_t n)
{
  return n > 1 ? k2s_type_vector(c->m, scalar, n) : scalar;
}
static uint32_t uint_like(conv *c, uint32_t t, uint32_t w)
{
  return with_lanes(c, k2s_type_int(c->m, w, false), lanes(c, t));
}
static uint32_t float_like(conv *c, uint32_t t, uint32_t w)
{
  return with_lanes(c, k2s_type_float(c->m, w), lanes(c, t));
}
static uint32_t bool_like(conv *c, uint32_t t)
{
  return with_lanes(c, k2s_type_bool(c->m), lanes(c, t));
}

static uint32_t splat(conv *c, uint32_t t, uint32_t scalar)
{
  uint32_t n = lanes(c, t);
  if (n == 1)
    return scalar;
  uint32_t parts[16];
  for (uint32_t k = 0; k < n; k++)
    parts[k] = scalar;
  return k2s_const_composite(c->m, t, parts, n);
}

/* An integer constant (splat to t's lanes); bits above t's width are dropped. */
static uint32_t cint(conv *c, uint32_t t, uint64_t v)
{
  return splat(c, t, k2s_const_int(c->m, k2s_scalar_type(c->m, t), v));
}

/* A float constant (splat to t's lanes) from raw bits. */
static uint32_t cfbits(conv *c, uint32_t t, uint64_t bits)
{
  uint32_t s = k2s_scalar_type(c->m, t);
  uint32_t ops[2] = {(uint32_t)bits, (uint32_t)(bits >> 32)};
  return splat(c, t, k2s_intern(c->m, SpvOpConstant, s, ops, width(c, t) == 64 ? 2 : 1));
}

/* IEEE binary formats: mantissa bits and exponent bias by width. */
static uint32_t mant_bits(uint32_t w)
{
  return w == 16 ? 10 : w == 32 ? 23 : 52;
}
static uint32_t exp_bias(uint32_t w)
{
  return w == 16 ? 15 : w == 32 ? 127 : 1023;
}
static uint64_t inf_bits(uint32_t w)
{
  return (uint64_t)(2 * exp_bias(w) + 1) << mant_bits(w);
}

/* ±2^e in a float type of width w; ±inf beyond its range (e ≥ 0). */
static uint32_t cpow2(conv *c, uint32_t t, uint32_t e, bool negative)
{
  uint32_t w = width(c, t);
  uint64_t bits = e <= exp_bias(w) ? (uint64_t)(e + exp_bias(w)) << mant_bits(w) : inf_bits(w);
  return cfbits(c, t, bits | (negative ? 1ull << (w - 1) : 0));
}

/* ---- emitting ----------------------------------------------------------- */

static uint32_t op1(conv *c, uint16_t op, uint32_t t, uint32_t a)
{
  return k2s_emit(&c->b, op, t, &a, 1);
}
static uint32_t op2(conv *c, uint16_t op, uint32_t t, uint32_t a, uint32_t b)
{
  uint32_t ops[2] = {a, b};
  return k2s_emit(&c->b, op, t, ops, 2);
}
static uint32_t bin(conv *c, uint16_t op, uint32_t a, uint32_t b)
{
  return op2(c, op, type_of(c, a), a, b);
}
static uint32_t cmp(conv *c, uint16_t op, uint32_t a, uint32_t b)
{
  return op2(c, op, bool_like(c, type_of(c, a)), a, b);
}
static uint32_t sel(conv *c, uint32_t cond, uint32_t a, uint32_t b)
{
  uint32_t ops[3] = {cond, a, b};
  return k2s_emit(&c->b, SpvOpSelect, type_of(c, a), ops, 3);
}
static uint32_t glsl1(conv *c, uint32_t fn, uint32_t t, uint32_t a)
{
  if (!c->glsl)
    c->glsl = k2s_ext_import(c->m, "GLSL.std.450");
  uint32_t ops[3] = {c->glsl, fn, a};
  return k2s_emit(&c->b, SpvOpExtInst, t, ops, 3);
}
static uint32_t bitcast(conv *c, uint32_t t, uint32_t v)
{
  return type_of(c, v) == t ? v : op1(c, SpvOpBitcast, t, v);
}
/* Zero-extend or truncate an integer to type t (a bitcast for same widths). */
static uint32_t uresize(conv *c, uint32_t t, uint32_t v)
{
  return width(c, type_of(c, v)) == width(c, t) ? bitcast(c, t, v) : op1(c, SpvOpUConvert, t, v);
}
static uint32_t shr_c(conv *c, uint32_t a, uint32_t n)
{
  return bin(c, SpvOpShiftRightLogical, a, cint(c, type_of(c, a), n));
}
static uint32_t and_c(conv *c, uint32_t a, uint64_t v)
{
  return bin(c, SpvOpBitwiseAnd, a, cint(c, type_of(c, a), v));
}
static uint32_t smax_c(conv *c, uint32_t a, uint64_t v)
{
  uint32_t k = cint(c, type_of(c, a), v);
  return sel(c, cmp(c, SpvOpSGreaterThan, a, k), a, k);
}
static uint32_t smin_c(conv *c, uint32_t a, uint64_t v)
{
  uint32_t k = cint(c, type_of(c, a), v);
  return sel(c, cmp(c, SpvOpSLessThan, a, k), a, k);
}
/* ---- integer → integer with saturation ------------------------------------ */

/* OpSConvert/OpUConvert with SaturatedConversion and OpSatConvertSToU/UToS:
 * clamp in the source width to the destination's range, then resize. */
static uint32_t int_to_int_sat(conv *c, uint32_t x, uint32_t dt, bool src_signed, bool dst_signed)
{
  uint32_t st = type_of(c, x), ws = width(c, st), wd = width(c, dt);
  uint64_t dmax = dst_signed ? (1ull << (wd - 1)) - 1 : wd == 64 ? ~0ull : (1ull << wd) - 1;
  if (src_signed && dst_signed) {
    if (wd >= ws)
      return op1(c, SpvOpSConvert, dt, x);
    uint32_t lo = cint(c, st, ~dmax), hi = cint(c, st, dmax);
    x = sel(c, cmp(c, SpvOpSLessThan, x, lo), lo, x);
    x = sel(c, cmp(c, SpvOpSGreaterThan, x, hi), hi, x);
    return op1(c, SpvOpSConvert, dt, x);
  }
  if (src_signed) /* → unsigned: negatives to 0 */
    x = sel(c, cmp(c, SpvOpSLessThan, x, cint(c, st, 0)), cint(c, st, 0), x);
  /* x is now a non-negative value below 2^ws (or 2^(ws-1)); cap it at dmax */
  uint64_t src_max = src_signed ? (1ull << (ws - 1)) - 1 : ws == 64 ? ~0ull : (1ull << ws) - 1;
  if (dmax < src_max) {
    uint32_t hi = cint(c, st, dmax);
    x = sel(c, cmp(c, SpvOpUGreaterThan, x, hi), hi, x);
  }
  return uresize(c, dt, x);
}

/* ---- float → integer ----------------------------------------------------- */

/* OpConvertFToS/FToU with a rounding mode and/or saturation. The rounding is
 * GLSL's (exact: the result is representable); truncation is the
 * conversion's own.
 *
 * Saturation clamps first: NClamp(x, lo, hi) with lo, hi the integers of the
 * destination's range nearest its limits that the float type holds
 * (rounding commutes with a clamp to integer bounds, so clamping before it is
 * the same as saturating after it), so only in-range values reach the
 * conversion (an out-of-range one is undefined). GLSL.std.450 defines NClamp
 * as NMin(NMax(x, lo), hi), whose NaN operand yields the other one: NaN
 * becomes lo, which is OpenCL's 0 for unsigned destinations; signed ones
 * select 0 for NaN. Where a limit is not a value of the float type (INT_MAX
 * in float; anything beyond ±65504 in half) hi is the largest float below
 * it (lo the most negative finite one) and one select gives the limit to
 * values beyond it. Unsigned char/short from float: NClamp, rounding,
 * conversion; signed: two more. */
static uint32_t glsl3(conv *c, uint32_t fn, uint32_t t, uint32_t a, uint32_t b, uint32_t d)
{
  if (!c->glsl)
    c->glsl = k2s_ext_import(c->m, "GLSL.std.450");
  uint32_t ops[5] = {c->glsl, fn, a, b, d};
  return k2s_emit(&c->b, SpvOpExtInst, t, ops, 5);
}

static uint32_t float_to_int(conv *c, uint32_t x, uint32_t dt, bool dst_signed, int mode, bool sat)
{
  uint32_t ft = type_of(c, x), wd = width(c, dt), wf = width(c, ft);
  uint32_t bias = exp_bias(wf), mb = mant_bits(wf);
  uint64_t mant_mask = (1ull << mb) - 1, max_finite = ((uint64_t)(2 * bias) << mb) | mant_mask;
  uint16_t op = dst_signed ? SpvOpConvertFToS : SpvOpConvertFToU;
  uint64_t dmax = dst_signed ? (1ull << (wd - 1)) - 1 : wd == 64 ? ~0ull : (1ull << wd) - 1;
  uint32_t below = 0, above = 0, nan = 0;
  if (sat) {
    /* lo: 0, or -2^(wd-1) (a power of two: exact wherever it is finite) */
    uint64_t lo_bits = 0;
    if (dst_signed)
      lo_bits = (wd - 1 <= bias ? (uint64_t)(wd - 1 + bias) << mb : max_finite) | 1ull << (wf - 1);
    /* hi: dmax = 2^k - 1 where its k bits fit the significand; else the
     * largest float below 2^k (an integer, as k exceeds the precision),
     * the largest finite one where 2^k is beyond the range */
    uint32_t k = dst_signed ? wd - 1 : wd;
    bool hi_exact = k <= mb + 1;
    uint64_t hi_bits = hi_exact ? ((uint64_t)(k - 1 + bias) << mb) |
                                      (((1ull << (k - 1)) - 1) << (mb - (k - 1)))
                       : k - 1 <= bias ? ((uint64_t)(k - 1 + bias) << mb) | mant_mask
                                       : max_finite;
    uint32_t lo = cfbits(c, ft, lo_bits), hi = cfbits(c, ft, hi_bits);
    if (dst_signed && wd - 1 > bias)
      below = cmp(c, SpvOpFOrdLessThan, x, lo); /* -inf only */
    if (!hi_exact)
      above = cmp(c, SpvOpFOrdGreaterThan, x, hi);
    if (dst_signed)
      nan = op1(c, SpvOpIsNan, bool_like(c, ft), x);
    x = glsl3(c, K2S_GLSL_STD_450_NClamp, ft, x, lo, hi);
  }
  switch (mode) {
  case SpvFPRoundingModeRTE: x = glsl1(c, K2S_GLSL_STD_450_RoundEven, ft, x); break;
  case SpvFPRoundingModeRTP: x = glsl1(c, K2S_GLSL_STD_450_Ceil, ft, x); break;
  case SpvFPRoundingModeRTN: x = glsl1(c, K2S_GLSL_STD_450_Floor, ft, x); break;
  default: break; /* RTZ: the conversion truncates */
  }
  uint32_t v = op1(c, op, dt, x);
  if (above)
    v = sel(c, above, cint(c, dt, dmax), v);
  if (below)
    v = sel(c, below, cint(c, dt, ~dmax), v);
  if (nan)
    v = sel(c, nan, cint(c, dt, 0), v);
  return v;
}

/* ---- rounding helpers ------------------------------------------------------ */

/* What to add to a magnitude before clearing its `mask` low bits so that
 * the truncation rounds by the sign-aware `mode`: nothing (toward zero), mask
 * (away from zero: RTP on positive lanes, RTN on negative ones), or half a
 * unit less one plus the kept part's lowest bit, kept_lsb (to nearest, ties
 * to even). 0 when nothing is ever added. neg is 0 when no lane is negative. */
static uint32_t round_bias(conv *c, int mode, uint32_t neg, uint32_t mask, uint32_t kept_lsb)
{
  uint32_t zero = cint(c, type_of(c, mask), 0);
  switch (mode) {
  case SpvFPRoundingModeRTZ: return 0;
  case SpvFPRoundingModeRTP: return neg ? sel(c, neg, zero, mask) : mask;
  case SpvFPRoundingModeRTN: return neg ? sel(c, neg, mask, zero) : 0;
  default: return bin(c, SpvOpIAdd, shr_c(c, mask, 1), kept_lsb);
  }
}

/* FindUMsb of an unsigned 16/32/64-bit value as a 32-bit int (-1 for 0);
 * Vulkan's FindUMsb takes 32-bit operands only. */
static uint32_t find_msb(conv *c, uint32_t a)
{
  uint32_t t = type_of(c, a), u32 = uint_like(c, t, 32);
  if (width(c, t) != 64)
    return glsl1(c, K2S_GLSL_STD_450_FindUMsb, u32, uresize(c, u32, a));
  uint32_t hi = op1(c, SpvOpUConvert, u32, shr_c(c, a, 32));
  uint32_t lo = op1(c, SpvOpUConvert, u32, a);
  uint32_t msb_hi = bin(c, SpvOpIAdd, glsl1(c, K2S_GLSL_STD_450_FindUMsb, u32, hi), cint(c, u32, 32));
  uint32_t msb_lo = glsl1(c, K2S_GLSL_STD_450_FindUMsb, u32, lo);
  return sel(c, cmp(c, SpvOpINotEqual, hi, cint(c, u32, 0)), msb_hi, msb_lo);
}

/* ---- integer → float -------------------------------------------------------- */

/* x (32/64-bit integer) to float type ft (32/64-bit) rounded by `mode`:
 * |x| rounded to the float's precision in integer arithmetic (add the
 * rounding bias, clear the bits below the precision) converts exactly; a
 * carry out of an unsigned value's top bit means 2^w; the sign goes back on
 * with an exact negation. */
static uint32_t int_to_float_wide(conv *c, uint32_t x, bool src_signed, uint32_t ft, int mode)
{
  uint32_t it = type_of(c, x), w = width(c, it), p = mant_bits(width(c, ft)) + 1;
  uint32_t neg = 0, a = x;
  if (src_signed) {
    neg = cmp(c, SpvOpSLessThan, x, cint(c, it, 0));
    a = sel(c, neg, op1(c, SpvOpSNegate, it, x), x); /* |INT_MIN| wraps to 2^(w-1): right unsigned */
  }
  /* k = the bits below the precision: msb + 1 - p, at least 0 */
  uint32_t msb = find_msb(c, a);
  uint32_t k = uresize(c, it, smax_c(c, bin(c, SpvOpISub, msb, cint(c, type_of(c, msb), p - 1)), 0));
  uint32_t one = cint(c, it, 1);
  uint32_t mask = bin(c, SpvOpISub, bin(c, SpvOpShiftLeftLogical, one, k), one);
  uint32_t lsb = 0;
  if (mode == SpvFPRoundingModeRTE)
    /* bit k of a, or 0 when k is 0 (nothing dropped: mask & 1 is then 0) */
    lsb = bin(c, SpvOpBitwiseAnd, bin(c, SpvOpShiftRightLogical, a, k), and_c(c, mask, 1));
  uint32_t bias = round_bias(c, mode, neg, mask, lsb), r = a, carry = 0;
  if (bias) {
    r = bin(c, SpvOpIAdd, a, bias);
    if (!src_signed) /* |x| < 2^(w-1) + bias cannot wrap */
      carry = cmp(c, SpvOpULessThan, r, a);
  }
  r = bin(c, SpvOpBitwiseAnd, r, op1(c, SpvOpNot, it, mask));
  uint32_t v = op1(c, SpvOpConvertUToF, ft, r); /* exact: at most p significant bits */
  if (carry)
    v = sel(c, carry, cpow2(c, ft, w, false), v);
  if (neg)
    v = sel(c, neg, op1(c, SpvOpFNegate, ft, v), v);
  return v;
}

/* ---- float narrowing -------------------------------------------------------- */

/* The low 16 bits of each lane of a 32-bit integer as halves, without a
 * 16-bit integer type (which needs Int16): a 32-bit lane bitcasts to two
 * halves, the first holding the low bits. */
static uint32_t u32_to_half(conv *c, uint32_t v, uint32_t ht)
{
  uint32_t n = lanes(c, ht), hs = k2s_type_float(c->m, 16), h2 = k2s_type_vector(c->m, hs, 2);
  uint32_t u32 = k2s_type_int(c->m, 32, false), parts[16];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t lane = v;
    if (n > 1) {
      uint32_t ops[2] = {v, i};
      lane = k2s_emit(&c->b, SpvOpCompositeExtract, u32, ops, 2);
    }
    uint32_t ops[2] = {op1(c, SpvOpBitcast, h2, lane), 0};
    parts[i] = k2s_emit(&c->b, SpvOpCompositeExtract, hs, ops, 2);
  }
  return n == 1 ? parts[0] : k2s_emit(&c->b, SpvOpCompositeConstruct, ht, parts, n);
}

/* x (float/double) narrowed to dt (half/float) by `mode`, computed on the
 * bit patterns: the significand (implicit bit included) is shifted right by
 * the precision difference, more where the result is subnormal; the dropped
 * bits round it; the exponent is rebased (a carry out of the significand
 * moves into it). Overflow gives infinity or, where the mode truncates, the
 * largest finite value; NaN stays NaN (quiet, top payload bits kept). */
static uint32_t narrow_float(conv *c, uint32_t x, uint32_t dt, int mode)
{
  uint32_t ft = type_of(c, x), ws = width(c, ft), wd = width(c, dt);
  uint32_t ms = mant_bits(ws), md = mant_bits(wd);
  uint32_t it = uint_like(c, ft, ws);
  uint32_t b = bitcast(c, it, x);
  uint32_t zero = cint(c, it, 0);
  uint32_t neg = cmp(c, SpvOpINotEqual, shr_c(c, b, ws - 1), zero);
  uint32_t u = and_c(c, b, (1ull << (ws - 1)) - 1);
  uint32_t e = shr_c(c, u, ms);
  uint32_t mant = and_c(c, u, (1ull << ms) - 1);
  uint32_t normal = cmp(c, SpvOpINotEqual, e, zero);
  uint32_t sig = bin(c, SpvOpBitwiseOr, mant, sel(c, normal, cint(c, it, 1ull << ms), zero));
  uint32_t e1 = sel(c, normal, e, cint(c, it, 1)); /* subnormals scale like exponent 1 */
  /* extra right shift where the result is subnormal, capped where all rounds alike */
  uint64_t rebase = exp_bias(ws) - exp_bias(wd);
  uint32_t extra = bin(c, SpvOpISub, cint(c, it, rebase + 1), e1);
  extra = smin_c(c, smax_c(c, extra, 0), md + 3);
  uint32_t sh = bin(c, SpvOpIAdd, extra, cint(c, it, ms - md));
  uint32_t rounded = sig;
  if (mode != SpvFPRoundingModeRTZ) {
    uint32_t one = cint(c, it, 1);
    uint32_t mask = bin(c, SpvOpISub, bin(c, SpvOpShiftLeftLogical, one, sh), one);
    uint32_t lsb = 0; /* the kept part's lowest bit (sh >= 13, so never the k = 0 case) */
    if (mode == SpvFPRoundingModeRTE)
      lsb = and_c(c, bin(c, SpvOpShiftRightLogical, sig, sh), 1);
    rounded = bin(c, SpvOpIAdd, sig, round_bias(c, mode, neg, mask, lsb));
  }
  uint32_t q = bin(c, SpvOpShiftRightLogical, rounded, sh);
  /* biased target exponent less one (0 for subnormal results), then the bits */
  uint32_t base = bin(c, SpvOpISub, smax_c(c, bin(c, SpvOpISub, e1, cint(c, it, rebase)), 1),
                      cint(c, it, 1));
  uint32_t r = bin(c, SpvOpIAdd, bin(c, SpvOpShiftLeftLogical, base, cint(c, it, md)), q);
  /* overflow: infinity, or the largest finite value where the mode truncates */
  uint32_t inf = cint(c, it, inf_bits(wd)), max = cint(c, it, inf_bits(wd) - 1), big = inf;
  if (mode == SpvFPRoundingModeRTZ)
    big = max;
  else if (mode == SpvFPRoundingModeRTP)
    big = sel(c, neg, max, inf);
  else if (mode == SpvFPRoundingModeRTN)
    big = sel(c, neg, inf, max);
  r = sel(c, cmp(c, SpvOpUGreaterThanEqual, r, inf), big, r);
  uint32_t nan = bin(c, SpvOpBitwiseOr, cint(c, it, inf_bits(wd) | 1ull << (md - 1)),
                     shr_c(c, mant, ms - md));
  uint32_t special = sel(c, cmp(c, SpvOpINotEqual, mant, zero), nan, inf);
  r = sel(c, cmp(c, SpvOpUGreaterThanEqual, u, cint(c, it, inf_bits(ws))), special, r);
  r = bin(c, SpvOpBitwiseOr, r, sel(c, neg, cint(c, it, 1ull << (wd - 1)), zero));
  uint32_t r32 = uresize(c, uint_like(c, ft, 32), r);
  return wd == 16 ? u32_to_half(c, r32, dt) : bitcast(c, dt, r32);
}

/* ---- dispatch -------------------------------------------------------------- */

static bool is_float(conv *c, uint32_t t)
{
  k2s_instr *s = k2s_def(c->m, k2s_scalar_type(c->m, t));
  return s && s->opcode == SpvOpTypeFloat;
}
static bool is_int(conv *c, uint32_t t)
{
  k2s_instr *s = k2s_def(c->m, k2s_scalar_type(c->m, t));
  return s && s->opcode == SpvOpTypeInt;
}

/* Every value of a w-bit integer is a float of width wf. */
static bool int_fits_float(uint32_t w, bool is_signed, uint32_t wf)
{
  return (is_signed ? w - 1 : w) <= mant_bits(wf) + 1;
}

static bool need_int64(conv *c, k2s_instr *i, const char *what)
{
  if (!(c->o->missing_features & K2S_FEATURE_INT64))
    return true;
  k2s_error(c->m, i, "%s needs 64-bit integer arithmetic, which the target lacks (--no-int64)",
            what);
  return false;
}

/* Give `value` the result id of c->at and drop c->at (the last instruction
 * made takes the id over when it computed the value, else an OpCopyObject). */
static void replace(conv *c, uint32_t value)
{
  k2s_module *m = c->m;
  k2s_instr *at = c->at, *d = at->prev;
  if (value < c->first_new || !d || d->result != value)
    d = k2s_emit_instr(&c->b, SpvOpCopyObject, at->type, &value, 1);
  k2s_set_def(m, d->result, NULL);
  d->result = at->result;
  k2s_set_def(m, at->result, d);
  k2s_instr_delete(m, at);
}

/* The lowered value of conversion i, 0 to leave it as it is (with its
 * decorations dropped), UINT32_MAX after an error. */
static uint32_t lower_value(conv *c, k2s_instr *i, bool sat, int mode, bool decorated)
{
  uint32_t x = i->ops[0], st = type_of(c, x), dt = i->type;
  uint32_t ws = width(c, st), wd = width(c, dt);
  bool precise = c->o->math != K2S_MATH_NATIVE;
  switch (i->opcode) {
  case SpvOpConvertFToS:
  case SpvOpConvertFToU:
    if (!sat && (mode < 0 || mode == SpvFPRoundingModeRTZ))
      return 0; /* SPIR-V's own rounding is toward zero */
    return float_to_int(c, x, dt, i->opcode == SpvOpConvertFToS, mode, sat);
  case SpvOpConvertSToF:
  case SpvOpConvertUToF: {
    bool s = i->opcode == SpvOpConvertSToF;
    if (int_fits_float(ws, s, wd) || (!decorated && !precise))
      return 0;
    if (mode < 0)
      mode = SpvFPRoundingModeRTE;
    if (ws == 64 && !need_int64(c, i, "this conversion"))
      return UINT32_MAX;
    if (wd != 16)
      return int_to_float_wide(c, x, s, dt, mode);
    /* to half: exactly or by `mode` to float first (directed roundings
     * compose; for RTE, an int that float rounds is far beyond half's range) */
    uint32_t f32 = float_like(c, dt, 32);
    uint32_t f = int_fits_float(ws, s, 32) ? op1(c, i->opcode, f32, x)
                                            : int_to_float_wide(c, x, s, f32, mode);
    return narrow_float(c, f, dt, mode);
  }
  case SpvOpFConvert:
    if (wd >= ws || (!decorated && !precise))
      return 0; /* widening is exact */
    if (ws == 64 && !need_int64(c, i, "narrowing a double"))
      return UINT32_MAX;
    return narrow_float(c, x, dt, mode < 0 ? SpvFPRoundingModeRTE : mode);
  case SpvOpSConvert:
  case SpvOpUConvert:
    if (!sat)
      return 0;
    return int_to_int_sat(c, x, dt, i->opcode == SpvOpSConvert, i->opcode == SpvOpSConvert);
  case SpvOpSatConvertSToU: return int_to_int_sat(c, x, dt, true, false);
  case SpvOpSatConvertUToS: return int_to_int_sat(c, x, dt, false, true);
  default: return 0;
  }
}

static bool is_conversion(uint16_t op)
{
  switch (op) {
  case SpvOpConvertFToS:
  case SpvOpConvertFToU:
  case SpvOpConvertSToF:
  case SpvOpConvertUToF:
  case SpvOpFConvert:
  case SpvOpSConvert:
  case SpvOpUConvert:
  case SpvOpSatConvertSToU:
  case SpvOpSatConvertUToS: return true;
  default: return false;
  }
}

/* Checks the operand and result types fit the opcode (the validator does
 * for valid input; this keeps the lowering from building nonsense). */
static bool types_fit(conv *c, k2s_instr *i)
{
  if (i->n_ops < 1 || !i->type)
    return false;
  uint32_t st = type_of(c, i->ops[0]), dt = i->type;
  if (!st || lanes(c, st) != lanes(c, dt) || lanes(c, st) > 16)
    return false;
  bool src_f = i->opcode == SpvOpConvertFToS || i->opcode == SpvOpConvertFToU ||
               i->opcode == SpvOpFConvert;
  bool dst_f = i->opcode == SpvOpConvertSToF || i->opcode == SpvOpConvertUToF ||
               i->opcode == SpvOpFConvert;
  if (src_f ? !is_float(c, st) : !is_int(c, st))
    return false;
  if (dst_f ? !is_float(c, dt) : !is_int(c, dt))
    return false;
  uint32_t ws = width(c, st), wd = width(c, dt);
  bool ok_s = src_f ? ws == 16 || ws == 32 || ws == 64 : ws == 8 || ws == 16 || ws == 32 || ws == 64;
  bool ok_d = dst_f ? wd == 16 || wd == 32 || wd == 64 : wd == 8 || wd == 16 || wd == 32 || wd == 64;
  return ok_s && ok_d;
}

static bool lower_instr(conv *c, k2s_instr *i)
{
  uint8_t f = i->result < c->n_flags ? c->flags[i->result] : 0;
  bool sat = f & FLAG_SAT;
  int mode = (int)((f >> FLAG_MODE_SHIFT) & 7) - 1;
  bool decorated = sat || mode >= 0;
  if (!types_fit(c, i)) {
    if (decorated || i->opcode == SpvOpSatConvertSToU || i->opcode == SpvOpSatConvertUToS) {
      k2s_error(c->m, i, "this conversion's operand and result types do not fit its opcode");
      return false;
    }
    return false;
  }
  if (mode > SpvFPRoundingModeRTN) {
    k2s_error(c->m, i, "unknown FPRoundingMode %d on this conversion", mode);
    return false;
  }
  c->at = i;
  c->b = (k2s_builder){c->m, k2s_before(i)};
  c->first_new = c->m->bound;
  uint32_t v = lower_value(c, i, sat, mode, decorated);
  if (v == UINT32_MAX)
    return false;
  if (i->result < c->n_flags && decorated)
    c->flags[i->result] |= FLAG_LOWERED;
  if (!v)
    return decorated;
  replace(c, v);
  return true;
}

/* SaturatedConversion / FPRoundingMode by target id, from OpDecorate and
 * decoration groups. */
static void collect_decorations(conv *c)
{
  k2s_module *m = c->m;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION])
  {
    if (i->opcode != SpvOpDecorate || i->n_ops < 2 || i->ops[0] >= m->id_cap)
      continue;
    if (i->ops[1] == SpvDecorationSaturatedConversion)
      c->flags[i->ops[0]] |= FLAG_SAT;
    else if (i->ops[1] == SpvDecorationFPRoundingMode && i->n_ops >= 3)
      c->flags[i->ops[0]] =
          (uint8_t)((c->flags[i->ops[0]] & FLAG_SAT) | ((i->ops[2] > 6 ? 7 : i->ops[2] + 1) << FLAG_MODE_SHIFT));
  }
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION])
  {
    if (i->opcode != SpvOpGroupDecorate || i->n_ops < 1 || i->ops[0] >= m->id_cap)
      continue;
    uint8_t g = c->flags[i->ops[0]];
    for (uint32_t k = 1; k < i->n_ops; k++)
      if (i->ops[k] < m->id_cap)
        c->flags[i->ops[k]] |= g;
  }
}

/* Drops SaturatedConversion/FPRoundingMode decorations of handled ids. */
static void drop_decorations(conv *c)
{
  k2s_module *m = c->m;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_ANNOTATION])
  {
    if (i->opcode == SpvOpDecorate && i->n_ops >= 2 && i->ops[0] < c->n_flags &&
        (c->flags[i->ops[0]] & FLAG_LOWERED) &&
        (i->ops[1] == SpvDecorationSaturatedConversion ||
         i->ops[1] == SpvDecorationFPRoundingMode))
      k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
  }
}

bool k2s_lower_conversions(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  conv c = {.m = m, .o = o};
  c.n_flags = m->id_cap;
  c.flags = k2s_alloc(&m->arena, m->id_cap ? m->id_cap : 1);
  collect_decorations(&c);
  bool changed = false;
  k2s_foreach_function(f, m) k2s_foreach_block(b, f) k2s_foreach_instr_safe(i, &b->body)
  {
    if (is_conversion(i->opcode))
      changed |= lower_instr(&c, i);
    if (m->failed)
      return changed;
  }
  if (changed)
    drop_decorations(&c);
  return changed;
}
