/*
 * signed-rem: OpSRem / OpSMod → OpUMod on magnitudes.
 *
 * OpenCL C's % on signed integers is OpSRem (the result takes the sign of
 * the dividend) and is defined for negative operands; Vulkan's SPIR-V
 * environment leaves OpSRem and OpSMod undefined when either operand is
 * negative, and drivers do differ (NVIDIA returns other values than the CPU
 * for x % 7 with x < 0). Each is rebuilt from OpUMod, which Vulkan defines
 * for every value:
 *   srem(a, b) = sign(a) * umod(|a|, |b|)
 *   smod(a, b) = r = srem(a, b); r != 0 && (r < 0) != (b < 0) ? r + b : r
 * |INT_MIN| wraps to INT_MIN, whose bits are the right unsigned magnitude.
 * Division by zero stays undefined, as in OpenCL. No options.
 */
#include "k2s_internal.h"
#include "k2s_builder_ops.h"

static uint32_t bool_type_like(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  uint32_t b = k2s_type_bool(m);
  return t && t->opcode == SpvOpTypeVector ? k2s_type_vector(m, b, t->ops[1]) : b;
}

static uint32_t magnitude(k2s_builder *b, uint32_t type, uint32_t btype, uint32_t x,
                          uint32_t *negative)
{
  uint32_t zero = k2s_const_null(b->m, type);
  *negative = k2s_b_sless_than(b, btype, x, zero);
  return k2s_b_select(b, type, *negative, k2s_b_snegate(b, type, x), x);
}

static void lower(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t type = i->type, btype = bool_type_like(m, type);
  uint32_t a = i->ops[0], d = i->ops[1], a_neg, d_neg;
  uint32_t ua = magnitude(&b, type, btype, a, &a_neg);
  uint32_t ud = magnitude(&b, type, btype, d, &d_neg);
  uint32_t r = k2s_b_umod(&b, type, ua, ud);
  r = k2s_b_select(&b, type, a_neg, k2s_b_snegate(&b, type, r), r);
  if (i->opcode == SpvOpSMod) {
    uint32_t zero = k2s_const_null(m, type);
    uint32_t r_neg = k2s_b_sless_than(&b, btype, r, zero);
    uint32_t fix = k2s_b_logical_and(&b, btype, k2s_b_inot_equal(&b, btype, r, zero),
                                     k2s_b_logical_not_equal(&b, btype, r_neg, d_neg));
    r = k2s_b_select(&b, type, fix, k2s_b_iadd(&b, type, r, d), r);
  }
  k2s_replace_all_uses(m, i->result, r);
  k2s_instr_delete(m, i);
}

bool k2s_lower_signed_rem(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr_safe(i, &blk->body)
        if ((i->opcode == SpvOpSRem || i->opcode == SpvOpSMod) && i->n_ops == 2) {
          lower(m, i);
          changed = true;
        }
  return changed;
}
