/*
 * math: OpenCL.std math functions whose OpenCL precision Vulkan does not
 * promise → calls into k2s's builtin library (src/clc/), linked on demand.
 *
 * GLSL.std.450's exp, log, sin, pow... are far looser than the OpenCL C
 * full-profile ULP bounds (sin/cos have only an absolute error of 2^-11, Fma
 * may round twice), so each such OpExtInst becomes an OpFunctionCall of a
 * library function written to meet the bound (vectors: one call per lane;
 * half: computed in float). The copied library code then goes through the
 * rest of the pipeline like user code, so this pass runs right after
 * entry-points. The library has float and double versions; anything it
 * lacks is left to the builtins pass, which maps or rejects it.
 * Division: float OpFDiv is guarded for divisors outside Vulkan's range of
 * 2.5 ulp; double OpFDiv becomes the library's correctly rounded division;
 * half OpFDiv is a float division with an exact-residual correction.
 * --fma=fused maps float and half fma to GLSL's Fma (the device fuses it).
 * Options: --math=native maps every function with a GLSL.std.450 counterpart
 * to it (Vulkan's precision: nothing of OpenCL's is guaranteed);
 * -cl-fast-relaxed-math does the same for the float functions whose relaxed
 * OpenCL bounds are Vulkan's (exp, log, sin, pow, atan... not fma, sqrt, cbrt),
 * and both leave OpFDiv alone.
 */
#include <stdio.h>
#include <string.h>

#include "clc/k2s_clc.h"

enum arg_kind {
  ARGS_FLOAT,  /* every argument has the result's type */
  ARGS_INT,    /* (float, int): pown, rootn */
  ARGS_SINCOS, /* sincos(x, *cos): the library returns (sin, cos) as a 2-vector */
  ARGS_SIGN,   /* lgamma_r(x, *sign): (lgamma, sign as a float), the sign stored as int */
};

typedef struct math_fn {
  uint32_t op;      /* enum k2s_opencl_std_op */
  const char *name; /* library stem: __k2s_<name>_f32 */
  uint32_t glsl;    /* GLSL.std.450 counterpart for --math=native, 0 if none */
  bool relaxed;     /* -cl-fast-relaxed-math allows the GLSL counterpart */
  uint8_t nargs, kind;
} math_fn;

#define G(x) K2S_GLSL_STD_450_##x
#define O(x) K2S_OPENCL_STD_##x
static const math_fn math_fns[] = {
    {O(fma), "fma", G(Fma), false, 3, ARGS_FLOAT},
    {O(exp), "exp", G(Exp), true, 1, ARGS_FLOAT},
    {O(exp2), "exp2", G(Exp2), true, 1, ARGS_FLOAT},
    {O(exp10), "exp10", 0, true, 1, ARGS_FLOAT},
    {O(expm1), "expm1", 0, false, 1, ARGS_FLOAT},
    {O(log), "log", G(Log), true, 1, ARGS_FLOAT},
    {O(log2), "log2", G(Log2), true, 1, ARGS_FLOAT},
    {O(log10), "log10", 0, true, 1, ARGS_FLOAT},
    {O(log1p), "log1p", 0, false, 1, ARGS_FLOAT},
    {O(pow), "pow", G(Pow), true, 2, ARGS_FLOAT},
    {O(powr), "powr", G(Pow), true, 2, ARGS_FLOAT},
    {O(pown), "pown", 0, false, 2, ARGS_INT},
    {O(rootn), "rootn", 0, false, 2, ARGS_INT},
    {O(cbrt), "cbrt", 0, false, 1, ARGS_FLOAT},
    {O(sqrt), "sqrt", G(Sqrt), false, 1, ARGS_FLOAT},
    {O(sin), "sin", G(Sin), true, 1, ARGS_FLOAT},
    {O(cos), "cos", G(Cos), true, 1, ARGS_FLOAT},
    {O(tan), "tan", G(Tan), true, 1, ARGS_FLOAT},
    {O(sincos), "sincos", G(Sin), true, 2, ARGS_SINCOS}, /* and Cos */
    {O(asin), "asin", G(Asin), true, 1, ARGS_FLOAT},
    {O(acos), "acos", G(Acos), true, 1, ARGS_FLOAT},
    {O(atan), "atan", G(Atan), true, 1, ARGS_FLOAT},
    {O(atan2), "atan2", G(Atan2), true, 2, ARGS_FLOAT},
    {O(sinh), "sinh", G(Sinh), true, 1, ARGS_FLOAT},
    {O(cosh), "cosh", G(Cosh), true, 1, ARGS_FLOAT},
    {O(tanh), "tanh", G(Tanh), true, 1, ARGS_FLOAT},
    {O(asinh), "asinh", G(Asinh), true, 1, ARGS_FLOAT},
    {O(acosh), "acosh", G(Acosh), true, 1, ARGS_FLOAT},
    {O(atanh), "atanh", G(Atanh), true, 1, ARGS_FLOAT},
    {O(sinpi), "sinpi", 0, false, 1, ARGS_FLOAT},
    {O(cospi), "cospi", 0, false, 1, ARGS_FLOAT},
    {O(tanpi), "tanpi", 0, false, 1, ARGS_FLOAT},
    {O(asinpi), "asinpi", 0, false, 1, ARGS_FLOAT},
    {O(acospi), "acospi", 0, false, 1, ARGS_FLOAT},
    {O(atanpi), "atanpi", 0, false, 1, ARGS_FLOAT},
    {O(atan2pi), "atan2pi", 0, false, 2, ARGS_FLOAT},
    {O(erf), "erf", 0, false, 1, ARGS_FLOAT},
    {O(erfc), "erfc", 0, false, 1, ARGS_FLOAT},
    {O(tgamma), "tgamma", 0, false, 1, ARGS_FLOAT},
    {O(lgamma), "lgamma", 0, false, 1, ARGS_FLOAT},
    {O(lgamma_r), "lgamma_r", 0, false, 2, ARGS_SIGN},
    {O(hypot), "hypot", 0, false, 2, ARGS_FLOAT},
    {O(rsqrt), "rsqrt", G(InverseSqrt), false, 1, ARGS_FLOAT},
    /* half_*: 8192 ulp; Vulkan's sin/cos/tan (absolute error), log (absolute
     * error near 1) and pow do not meet it, the precise functions do. */
    {O(half_sin), "sin", G(Sin), true, 1, ARGS_FLOAT},
    {O(half_cos), "cos", G(Cos), true, 1, ARGS_FLOAT},
    {O(half_tan), "tan", G(Tan), true, 1, ARGS_FLOAT},
    {O(half_log), "log", G(Log), true, 1, ARGS_FLOAT},
    {O(half_log2), "log2", G(Log2), true, 1, ARGS_FLOAT},
    {O(half_log10), "log10", 0, true, 1, ARGS_FLOAT},
    {O(half_powr), "powr", G(Pow), true, 2, ARGS_FLOAT},
};
#undef G
#undef O

typedef struct math {
  k2s_module *m;
  const k2s_options *o;
  k2s_linker *linker;
  k2s_builder b;
  uint32_t glsl; /* the GLSL.std.450 import, 0 until needed */
  bool warned_native;
} math;

static const math_fn *find_fn(uint32_t op)
{
  for (size_t k = 0; k < sizeof(math_fns) / sizeof(math_fns[0]); k++)
    if (math_fns[k].op == op)
      return &math_fns[k];
  return NULL;
}

static bool is_float(k2s_module *m, uint32_t type)
{
  k2s_instr *s = k2s_def(m, k2s_scalar_type(m, type));
  return s && s->opcode == SpvOpTypeFloat;
}

static uint32_t emit1(math *c, uint16_t op, uint32_t type, uint32_t a)
{
  return k2s_emit(&c->b, op, type, &a, 1);
}

static uint32_t lane(math *c, uint32_t v, uint32_t k)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_of(m, v);
  if (k2s_vector_size(m, t) <= 1 || k2s_def(m, t)->opcode != SpvOpTypeVector)
    return v;
  uint32_t ops[2] = {v, k};
  return k2s_emit(&c->b, SpvOpCompositeExtract, k2s_scalar_type(m, t), ops, 2);
}

/* One scalar call: arguments already scalar; converts half to float and back. */
static uint32_t scalar_call(math *c, uint32_t fn, uint32_t width, uint32_t ret_type,
                            const uint32_t *args, uint32_t nargs, const math_fn *f)
{
  k2s_module *m = c->m;
  uint32_t f32 = k2s_type_float(m, 32);
  uint32_t ops[4] = {fn};
  for (uint32_t k = 0; k < nargs; k++) {
    uint32_t a = args[k];
    if (width == 16 && is_float(m, k2s_type_of(m, a)))
      a = emit1(c, SpvOpFConvert, f32, a);
    ops[1 + k] = a;
  }
  uint32_t call_type = ret_type;
  if (width == 16)
    call_type = f->kind != ARGS_FLOAT && f->kind != ARGS_INT ? k2s_type_vector(m, f32, 2) : f32;
  uint32_t r = k2s_emit(&c->b, SpvOpFunctionCall, call_type, ops, 1 + nargs);
  if (width == 16)
    r = emit1(c, SpvOpFConvert, ret_type, r);
  return r;
}

/* Replace `at` (result id kept) by `value`'s definition... through uses. */
static void replace(math *c, k2s_instr *at, uint32_t value)
{
  k2s_module *m = c->m;
  uint32_t id = at->result;
  k2s_build_uses(m);
  k2s_replace_all_uses(m, id, value);
  k2s_instr_delete(m, at);
}

static void warn_native(math *c, k2s_instr *at)
{
  if (c->warned_native)
    return;
  c->warned_native = true;
  k2s_warn(c->m, at,
           "--math=native: math builtins use Vulkan's GLSL.std.450 precision; none of "
           "OpenCL's error bounds is guaranteed");
}

/* --math=native / relaxed: the GLSL.std.450 counterpart (double through float,
 * GLSL's transcendentals take 16- and 32-bit floats only). */
static bool lower_glsl(math *c, k2s_instr *at, const math_fn *f)
{
  k2s_module *m = c->m;
  uint32_t t = at->type;
  uint32_t n = k2s_vector_size(m, t);
  bool wide = k2s_type_width(m, t) == 64 && f->glsl != K2S_GLSL_STD_450_Fma;
  uint32_t ft =
      wide ? (n > 1 ? k2s_type_vector(m, k2s_type_float(m, 32), n) : k2s_type_float(m, 32)) : t;
  if (!c->glsl)
    c->glsl = k2s_ext_import(m, "GLSL.std.450");
  c->b.cursor = k2s_before(at);
  uint32_t nargs = f->kind == ARGS_SINCOS ? 1 : f->nargs;
  uint32_t ops[5] = {c->glsl, f->glsl};
  for (uint32_t k = 0; k < nargs; k++) {
    uint32_t a = at->ops[2 + k];
    ops[2 + k] = wide ? emit1(c, SpvOpFConvert, ft, a) : a;
  }
  uint32_t r = k2s_emit(&c->b, SpvOpExtInst, ft, ops, 2 + nargs);
  if (wide)
    r = emit1(c, SpvOpFConvert, t, r);
  if (f->kind == ARGS_SINCOS) {
    ops[1] = K2S_GLSL_STD_450_Cos;
    uint32_t cr = k2s_emit(&c->b, SpvOpExtInst, ft, ops, 3);
    if (wide)
      cr = emit1(c, SpvOpFConvert, t, cr);
    uint32_t st[2] = {at->ops[3], cr};
    k2s_emit(&c->b, SpvOpStore, 0, st, 2);
  }
  replace(c, at, r);
  return true;
}

static bool lower_call(math *c, k2s_instr *at, const math_fn *f, uint32_t width)
{
  k2s_module *m = c->m;
  uint32_t t = at->type;
  uint32_t n = k2s_vector_size(m, t);
  uint32_t scalar = k2s_scalar_type(m, t);
  const char *suffix = width == 64 ? "f64" : "f32";
  char name[64];
  /* half computes in float; a function whose float result rounded to half
   * would round twice (fma) has a _f16 version with float arguments */
  snprintf(name, sizeof(name), "__k2s_%s_f16", f->name);
  if (width != 16 || !k2s_linker_has(c->linker, name))
    snprintf(name, sizeof(name), "__k2s_%s_%s", f->name, suffix);
  if (!k2s_linker_has(c->linker, name))
    return false; /* left to the builtins pass (which maps or rejects it) */
  uint32_t fn = k2s_link_function(c->linker, name, at);
  if (!fn)
    return false;
  c->b.cursor = k2s_before(at);
  uint32_t lanes[16], cos_lanes[16];
  for (uint32_t k = 0; k < n; k++) {
    uint32_t args[3];
    bool pair_out = f->kind == ARGS_SINCOS || f->kind == ARGS_SIGN;
    uint32_t nargs = pair_out ? 1 : f->nargs;
    for (uint32_t a = 0; a < nargs; a++)
      args[a] = lane(c, at->ops[2 + a], k);
    if (pair_out) {
      /* (sin, cos) as a 2-vector of the argument's type (half: converted back) */
      uint32_t pair = scalar_call(c, fn, width, k2s_type_vector(m, scalar, 2), args, 1, f);
      uint32_t e0[2] = {pair, 0}, e1[2] = {pair, 1};
      lanes[k] = k2s_emit(&c->b, SpvOpCompositeExtract, scalar, e0, 2);
      cos_lanes[k] = k2s_emit(&c->b, SpvOpCompositeExtract, scalar, e1, 2);
    } else {
      lanes[k] = scalar_call(c, fn, width, scalar, args, nargs, f);
    }
  }
  uint32_t r = lanes[0], cr = cos_lanes[0];
  if (n > 1) {
    r = k2s_emit(&c->b, SpvOpCompositeConstruct, t, lanes, n);
    if (f->kind != ARGS_FLOAT && f->kind != ARGS_INT)
      cr = k2s_emit(&c->b, SpvOpCompositeConstruct, t, cos_lanes, n);
  }
  if (f->kind == ARGS_SIGN) { /* the sign (+-1 or 0, exact) as the pointer's int type */
    k2s_instr *pt = k2s_def(m, k2s_type_of(m, at->ops[3]));
    if (!pt || pt->opcode != SpvOpTypePointer || pt->n_ops < 2) {
      k2s_error(m, at, "lgamma_r: the sign argument is not a pointer");
      return false;
    }
    cr = emit1(c, SpvOpConvertFToS, pt->ops[1], cr);
  }
  if (f->kind == ARGS_SINCOS || f->kind == ARGS_SIGN) {
    uint32_t st[2] = {at->ops[3], cr};
    k2s_emit(&c->b, SpvOpStore, 0, st, 2);
  }
  replace(c, at, r);
  return true;
}

/* A constant of type t (scalar or vector) with every lane `bits` (a float's or int's). */
static uint32_t splat(math *c, uint32_t t, uint32_t scalar_const)
{
  return k2s_const_splat(c->m, t, scalar_const);
}

static uint32_t emit2(math *c, uint16_t op, uint32_t type, uint32_t a, uint32_t b)
{
  uint32_t ops[2] = {a, b};
  return k2s_emit(&c->b, op, type, ops, 2);
}

static uint32_t exact_mul(math *c, uint32_t type, uint32_t a, uint32_t b)
{
  uint32_t r = emit2(c, SpvOpFMul, type, a, b);
  k2s_decorate(c->m, r, SpvDecorationNoContraction, NULL, 0);
  return r;
}

/* float x / y: Vulkan's 2.5 ulp holds for |y| in [2^-126, 2^126] only; OpenCL's
 * holds for every y. Constant divisors in range are left alone; otherwise,
 * outside the range, both operands are scaled by the same
 * power of two first (exact, or the quotient under/overflows anyway):
 * by 1/4 for huge or infinite y, by 2^24 for subnormal or zero y. */
/* Whether id is a float constant (or a composite of them) with every lane's
 * magnitude in [2^-126, 2^126]: then Vulkan's bound already holds. */
static bool divisor_in_range(k2s_module *m, uint32_t id)
{
  k2s_instr *d = k2s_def(m, id);
  if (!d)
    return false;
  if (d->opcode == SpvOpConstantComposite) {
    for (uint32_t k = 0; k < d->n_ops; k++)
      if (!divisor_in_range(m, d->ops[k]))
        return false;
    return d->n_ops > 0;
  }
  if (d->opcode != SpvOpConstant || d->n_ops != 1)
    return false;
  uint32_t mag = d->ops[0] & 0x7fffffffu;
  return mag >= 0x00800000u && mag <= 0x7e800000u;
}

/* at = x / y (OpFDiv, or half_divide, whose 8192 ulp the guarded division meets too:
 * the H100's x * (1/y) gives NaN for inf / FLT_MAX) */
static bool lower_fdiv32(math *c, k2s_instr *at, uint32_t x, uint32_t y)
{
  k2s_module *m = c->m;
  if (divisor_in_range(m, y))
    return false;
  uint32_t t = at->type, n = k2s_vector_size(m, t);
  uint32_t f32 = k2s_type_float(m, 32), u32 = k2s_type_int(m, 32, false);
  uint32_t ut = n > 1 ? k2s_type_vector(m, u32, n) : u32;
  uint32_t bt = n > 1 ? k2s_type_vector(m, k2s_type_bool(m), n) : k2s_type_bool(m);
  c->b.cursor = k2s_before(at);
  uint32_t bits = emit1(c, SpvOpBitcast, ut, y);
  uint32_t mag =
      emit2(c, SpvOpBitwiseAnd, ut, bits, splat(c, ut, k2s_const_int(m, u32, 0x7fffffffu)));
  uint32_t big =
      emit2(c, SpvOpUGreaterThan, bt, mag, splat(c, ut, k2s_const_int(m, u32, 0x7e800000u)));
  uint32_t small =
      emit2(c, SpvOpULessThan, bt, mag, splat(c, ut, k2s_const_int(m, u32, 0x00800000u)));
  uint32_t one = splat(c, t, k2s_const_float(m, f32, 1.0));
  uint32_t up = splat(c, t, k2s_const_float(m, f32, 16777216.0));
  uint32_t down = splat(c, t, k2s_const_float(m, f32, 0.25));
  uint32_t sel_ops[3] = {small, up, one};
  uint32_t s1 = k2s_emit(&c->b, SpvOpSelect, t, sel_ops, 3);
  uint32_t sel2[3] = {big, down, s1};
  uint32_t s = k2s_emit(&c->b, SpvOpSelect, t, sel2, 3);
  uint32_t sx = exact_mul(c, t, x, s);
  uint32_t sy = exact_mul(c, t, y, s);
  uint32_t q = emit2(c, SpvOpFDiv, t, sx, sy);
  replace(c, at, q);
  return true;
}

/* half x / y, correctly rounded as OpenCL asks, computed in float where every
 * half (subnormals included) is a normal number and Vulkan bounds the
 * division (|y| in [2^-24, 65504]): Vulkan bounds half division only for
 * |y| in [2^-14, 2^14] (x * (1/y) in half overflows 1/y below 2^-16; a flushed
 * subnormal divisor makes 0 / 0; the H100 gave NaN for 0 / 2^-24). The float quotient q (within a few ulp) is corrected
 * by its exact residual r = x - q*y (q split into 12-bit halves, each
 * product with y's 11 bits exact, the differences exact by Sterbenz's
 * lemma; every intermediate a normal float): q + r/y is within 0.5 + 2^-20
 * float ulp of x/y and equals it where x/y is a float. A quotient of two
 * halves is an exact half tie or at least one float ulp away from every tie,
 * so the narrowing of q + r/y to half (round to nearest even, lowered by the
 * conversions pass) rounds as x/y does. Zero, infinite and NaN quotients
 * keep q (the residual would lose a zero's sign or make a NaN). */
static bool lower_fdiv16(math *c, k2s_instr *at)
{
  k2s_module *m = c->m;
  uint32_t t = at->type, n = k2s_vector_size(m, t);
  uint32_t f32 = k2s_type_float(m, 32), u32 = k2s_type_int(m, 32, false);
  uint32_t ft = n > 1 ? k2s_type_vector(m, f32, n) : f32;
  uint32_t ut = n > 1 ? k2s_type_vector(m, u32, n) : u32;
  uint32_t bt = n > 1 ? k2s_type_vector(m, k2s_type_bool(m), n) : k2s_type_bool(m);
  c->b.cursor = k2s_before(at);
  uint32_t x = emit1(c, SpvOpFConvert, ft, at->ops[0]);
  uint32_t y = emit1(c, SpvOpFConvert, ft, at->ops[1]);
  uint32_t q = emit2(c, SpvOpFDiv, ft, x, y);
  uint32_t mask = splat(c, ut, k2s_const_int(m, u32, 0xfffff000u));
  uint32_t q_hi = emit1(c, SpvOpBitcast, ft,
                        emit2(c, SpvOpBitwiseAnd, ut, emit1(c, SpvOpBitcast, ut, q), mask));
  uint32_t q_lo = emit2(c, SpvOpFSub, ft, q, q_hi);
  uint32_t r1 = emit2(c, SpvOpFSub, ft, x, exact_mul(c, ft, q_hi, y));
  uint32_t r = emit2(c, SpvOpFSub, ft, r1, exact_mul(c, ft, q_lo, y));
  uint32_t qc = emit2(c, SpvOpFAdd, ft, q, emit2(c, SpvOpFDiv, ft, r, y));
  k2s_decorate(m, r1, SpvDecorationNoContraction, NULL, 0);
  k2s_decorate(m, r, SpvDecorationNoContraction, NULL, 0);
  k2s_decorate(m, qc, SpvDecorationNoContraction, NULL, 0);
  uint32_t nonzero = emit2(c, SpvOpFOrdNotEqual, bt, q, splat(c, ft, k2s_const_float(m, f32, 0.0)));
  uint32_t finite = emit1(c, SpvOpLogicalNot, bt, emit1(c, SpvOpIsInf, bt, q));
  uint32_t sel_ops[3] = {emit2(c, SpvOpLogicalAnd, bt, nonzero, finite), qc, q};
  uint32_t v = k2s_emit(&c->b, SpvOpSelect, ft, sel_ops, 3);
  replace(c, at, emit1(c, SpvOpFConvert, t, v));
  return true;
}

/* double x / y: OpenCL wants it correctly rounded, Vulkan promises single
 * precision: the library's __k2s_div_f64, one call per lane. */
static bool lower_fdiv64(math *c, k2s_instr *at)
{
  static const math_fn div = {SpvOpFDiv, "div", 0, false, 2, ARGS_FLOAT};
  k2s_module *m = c->m;
  uint32_t fn = k2s_link_function(c->linker, "__k2s_div_f64", at);
  if (!fn)
    return false;
  uint32_t t = at->type, n = k2s_vector_size(m, t), scalar = k2s_scalar_type(m, t);
  c->b.cursor = k2s_before(at);
  uint32_t lanes[16];
  for (uint32_t k = 0; k < n; k++) {
    uint32_t args[2] = {lane(c, at->ops[0], k), lane(c, at->ops[1], k)};
    lanes[k] = scalar_call(c, fn, 64, scalar, args, 2, &div);
  }
  uint32_t r = n > 1 ? k2s_emit(&c->b, SpvOpCompositeConstruct, t, lanes, n) : lanes[0];
  replace(c, at, r);
  return true;
}

static bool lower_one(math *c, k2s_instr *at)
{
  k2s_module *m = c->m;
  if (at->opcode == SpvOpFDiv && at->n_ops == 2 && is_float(m, at->type) &&
      k2s_vector_size(m, at->type) <= 16) {
    bool plain = c->o && (c->o->math == K2S_MATH_NATIVE || c->o->fast_relaxed_math);
    uint32_t w = k2s_type_width(m, at->type);
    if (plain)
      return false;
    if (w == 32)
      return lower_fdiv32(c, at, at->ops[0], at->ops[1]);
    if (w == 64)
      return lower_fdiv64(c, at);
    if (w == 16)
      return lower_fdiv16(c, at);
    return false;
  }
  if (at->opcode != SpvOpExtInst || at->n_ops < 2 || !at->result)
    return false;
  if (at->ops[0] >= m->bound || m->ext_set[at->ops[0]] != K2S_EXT_OPENCL_STD)
    return false;
  if (at->ops[1] == K2S_OPENCL_STD_half_divide && at->n_ops == 4 &&
      k2s_type_width(m, at->type) == 32 && k2s_vector_size(m, at->type) <= 16 &&
      !(c->o && (c->o->math == K2S_MATH_NATIVE || c->o->fast_relaxed_math)))
    return lower_fdiv32(c, at, at->ops[2], at->ops[3]);
  const math_fn *f = find_fn(at->ops[1]);
  if (!f || at->n_ops != 2u + f->nargs || !is_float(m, at->type))
    return false;
  uint32_t width = k2s_type_width(m, at->type);
  uint32_t n = k2s_vector_size(m, at->type);
  if (n > 16 || (width != 16 && width != 32 && width != 64))
    return false;
  /* --fma=fused: the device's Fma is the correctly rounded fma OpenCL asks
   * for (double keeps the exact library: Vulkan promises double arithmetic
   * only to single precision). */
  if (f->op == K2S_OPENCL_STD_fma && width != 64 && c->o && c->o->fma_fused)
    return lower_glsl(c, at, f);
  bool native = c->o && c->o->math == K2S_MATH_NATIVE;
  /* OpenCL's relaxed-math table is for single precision: double keeps its bounds */
  bool relaxed = c->o && c->o->fast_relaxed_math && f->relaxed && width != 64;
  if ((native || relaxed) && f->glsl) {
    if (native)
      warn_native(c, at);
    return lower_glsl(c, at, f);
  }
  if (native || relaxed) {
    /* exp10, log10: the builtins pass maps their native_ forms. */
    static const struct {
      uint32_t op, native;
    } natives[] = {
        {K2S_OPENCL_STD_exp10, K2S_OPENCL_STD_native_exp10},
        {K2S_OPENCL_STD_log10, K2S_OPENCL_STD_native_log10},
        {K2S_OPENCL_STD_half_log10, K2S_OPENCL_STD_native_log10},
    };
    for (size_t k = 0; k < sizeof(natives) / sizeof(natives[0]); k++)
      if (natives[k].op == f->op) {
        if (native)
          warn_native(c, at);
        k2s_instr_set_op(m, at, 1, natives[k].native);
        return true;
      }
  }
  return lower_call(c, at, f, width);
}

bool k2s_lower_math(k2s_module *m, const k2s_options *o)
{
  /* Operands change only through the API; linked library functions have
   * their uses recorded as their instructions are made (src/link.c). */
  k2s_keep_uses(m);
  math c = {.m = m, .o = o, .b = {.m = m}};
  c.linker = k2s_linker_new(m, o);
  /* Only the module's own functions: linked library code (appended at the
   * end) is left to the later passes. */
  k2s_function *last = m->last_func;
  bool changed = false;
  for (k2s_function *f = m->first_func; f; f = f->next) {
    k2s_foreach_block(b, f) k2s_foreach_instr_safe(i, &b->body) if (lower_one(&c, i)) changed =
        true;
    if (f == last || m->failed)
      break;
  }
  k2s_linker_done(c.linker);
  return changed;
}
