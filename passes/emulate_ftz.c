/*
 * emulate-ftz (--emulate-ftz): behave like a device that flushes float subnormals.
 *
 * A testing aid. The NVIDIA H100 runs 32-bit float arithmetic with subnormal
 * operands and results flushed to zero (its driver offers no DenormPreserve for
 * 32 bits); lavapipe keeps them, and advertises no DenormFlushToZero either. With
 * this option every 32-bit float arithmetic instruction — core arithmetic and
 * compares, OpFConvert, every GLSL.std.450 instruction — has each float operand
 * and its float result flushed explicitly: a value whose exponent field is zero
 * becomes the zero of its sign, in integer arithmetic the driver cannot fold.
 * Moves (loads, stores, selects, phis, bit casts, composites) do not flush, as on
 * the H100, and a division is x * (1/y) with the reciprocal flushed, as there (Vulkan
 * bounds division only for |y| in [2^-126, 2^126]). The builtin library must meet OpenCL's bounds under this option
 * (tests/precision, --ftz), which reproduces the device's failures on this
 * machine. It runs after builtins, once every float function is core or GLSL.
 */
#include "k2s_internal.h"

#include <string.h>

typedef struct ftz_ctx {
  k2s_module *m;
  k2s_builder b;
} ftz_ctx;

static bool is_f32(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = type ? k2s_def(m, k2s_scalar_type(m, type)) : NULL;
  return t && t->opcode == SpvOpTypeFloat && t->ops[0] == 32;
}

/* Instructions that compute on floats (operands flushed) and, where their result
 * is a float, round it (result flushed). */
static bool flushes(const k2s_module *m, const k2s_instr *i)
{
  switch (i->opcode) {
  case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFRem:
  case SpvOpFMod: case SpvOpFNegate: case SpvOpVectorTimesScalar: case SpvOpDot:
  case SpvOpFConvert: case SpvOpConvertFToS: case SpvOpConvertFToU:
  case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpFOrdNotEqual:
  case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan: case SpvOpFUnordLessThan:
  case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual:
  case SpvOpFUnordLessThanEqual: case SpvOpFOrdGreaterThanEqual:
  case SpvOpFUnordGreaterThanEqual:
    return true;
  case SpvOpExtInst:
    return i->ops[0] < m->bound && m->ext_set[i->ops[0]] == K2S_EXT_GLSL_STD_450;
  default:
    return false;
  }
}

/* (bits & 0x7f800000) == 0 ? bits & 0x80000000 : bits, lane by lane */
static uint32_t flush(ftz_ctx *c, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t ftype = k2s_type_of(m, v);
  uint32_t n = k2s_vector_size(m, ftype);
  uint32_t u32 = k2s_type_int(m, 32, false);
  uint32_t ut = n > 1 ? k2s_type_vector(m, u32, n) : u32;
  uint32_t bt = n > 1 ? k2s_type_vector(m, k2s_type_bool(m), n) : k2s_type_bool(m);
  uint32_t k[3] = {0x7f800000u, 0x80000000u, 0};
  for (int j = 0; j < 3; j++)
    k[j] = k2s_const_splat(m, ut, k2s_const_uint32(m, k[j]));
  uint32_t bits = k2s_emit(&c->b, SpvOpBitcast, ut, &v, 1);
  uint32_t e = k2s_emit(&c->b, SpvOpBitwiseAnd, ut, (uint32_t[]){bits, k[0]}, 2);
  uint32_t z = k2s_emit(&c->b, SpvOpIEqual, bt, (uint32_t[]){e, k[2]}, 2);
  uint32_t s = k2s_emit(&c->b, SpvOpBitwiseAnd, ut, (uint32_t[]){bits, k[1]}, 2);
  uint32_t r = k2s_emit(&c->b, SpvOpSelect, ut, (uint32_t[]){z, s, bits}, 3);
  return k2s_emit(&c->b, SpvOpBitcast, ftype, &r, 1);
}

static bool flushable(const k2s_module *m, uint32_t type)
{
  return type && is_f32(m, type) && k2s_vector_size(m, type) <= 16;
}

static void flush_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  ftz_ctx *c = ud;
  k2s_instr *d = k2s_def(c->m, *id);
  /* a flushing instruction's result is replaced by its flushed copy below */
  if (!d || !flushable(c->m, d->type) || (d->block && flushes(c->m, d)))
    return;
  c->b.cursor = k2s_before(in);
  *id = flush(c, *id);
}

static void use_flushed(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  const uint32_t *flushed = ud;
  if (flushed[*id])
    *id = flushed[*id];
}

bool k2s_emulate_ftz(k2s_module *m, const k2s_options *o)
{
  if (!o->emulate_ftz)
    return false;
  k2s_keep_uses(m); /* operands change only through the API */
  ftz_ctx c = {m, {m, {0}}};
  /* flushed[id]: the flushed copy of a flushing instruction's result */
  uint32_t old_bound = m->bound, n_flushed = 0;
  uint32_t *flushed = k2s_alloc(&m->arena, old_bound * sizeof(uint32_t));
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (!flushes(m, i))
          continue;
        uint32_t bound = m->bound;
        k2s_instr_rewrite_ids(m, i, flush_operand, &c);
        n_flushed += m->bound != bound;
        if (!i->result || !flushable(m, i->type))
          continue;
        c.b.cursor = k2s_after(i);
        if (i->opcode == SpvOpFDiv) {
          /* x / y as x * (1 / y), the reciprocal flushed: what the H100 does (Vulkan
           * bounds division only for |y| in [2^-126, 2^126]) */
          uint32_t x = i->ops[0];
          if (x < old_bound && flushed[x])
            x = flushed[x];
          uint32_t one = k2s_const_float(m, k2s_scalar_type(m, i->type), 1.0);
          k2s_instr_set_op(m, i, 0, k2s_const_splat(m, i->type, one));
          uint32_t mul[2] = {x, flush(&c, i->result)};
          flushed[i->result] = flush(&c, k2s_emit(&c.b, SpvOpFMul, i->type, mul, 2));
        } else {
          flushed[i->result] = flush(&c, i->result);
        }
        n_flushed++;
      }
  /* Every other reader of a flushing instruction's result reads the flushed copy; the
   * instructions made here (the flushes themselves) read what they were given. */
  uint32_t *map = k2s_alloc(&m->arena, m->bound * sizeof(uint32_t));
  memcpy(map, flushed, old_bound * sizeof(uint32_t));
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->result < old_bound)
          k2s_instr_rewrite_ids(m, i, use_flushed, map);
  return n_flushed > 0;
}
