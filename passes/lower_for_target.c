/*
 * target: instructions newer than the target's SPIR-V → their older forms.
 *
 * A Kernel module may be SPIR-V 1.4 or later (llvm-spirv 15 emits 1.4 when
 * wrap flags are present) while vulkan1.1 means SPIR-V 1.3. Of what can
 * reach here, OpSelect with a scalar condition and vector or composite
 * operands is 1.4-only: its condition is splat into a bool vector (a struct
 * or array is selected member by member; the same rewrite repairs 1.0-1.3
 * inputs, src/repair_compat.c). Integer dot products (SPV_KHR_integer_dot_product,
 * cl_khr_integer_dot_product) are core only in Vulkan 1.3; before it they
 * need an optional extension, so for vulkan1.1/1.2 they become arithmetic
 * (lanes widened to the result type, multiplied and summed; the AccSat forms
 * add the accumulator with saturation). OpCopyLogical (1.4) becomes extracts
 * and constructs, member by member and element by element; the Nontemporal
 * image operand (1.6, a hint) is dropped. Runs after the passes that create
 * code, before finalize; steered by --target-env only.
 */
#include "k2s_internal.h"

uint32_t k2s_split_select_conditions(k2s_module *m); /* src/repair_compat.c */

static uint32_t binop(k2s_builder *b, uint16_t op, uint32_t type, uint32_t x, uint32_t y)
{
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, op, type, ops, 2);
}

static uint32_t widen(k2s_builder *b, uint32_t v, uint32_t to, bool is_signed)
{
  k2s_module *m = b->m;
  uint32_t from = k2s_type_of(m, v);
  if (from == to)
    return v;
  if (k2s_type_width(m, from) == k2s_type_width(m, to))
    return k2s_emit(b, SpvOpBitcast, to, &v, 1);
  return k2s_emit(b, is_signed ? SpvOpSConvert : SpvOpUConvert, to, &v, 1);
}

/* Lane k of a dot-product operand, widened to the result type rt. */
static uint32_t lane(k2s_builder *b, uint32_t v, uint32_t k, bool packed, bool is_signed,
                     uint32_t rt)
{
  k2s_module *m = b->m;
  uint32_t vt = k2s_type_of(m, v);
  if (!packed) {
    uint32_t ops[2] = {v, k};
    return widen(b, k2s_emit(b, SpvOpCompositeExtract, k2s_scalar_type(m, vt), ops, 2), rt,
                 is_signed);
  }
  /* PackedVectorFormat4x8Bit: lane k is bits 8k..8k+7 of a 32-bit integer. */
  uint32_t x;
  if (is_signed)
    x = binop(b, SpvOpShiftRightArithmetic, vt,
              binop(b, SpvOpShiftLeftLogical, vt, v, k2s_const_int(m, vt, 24 - 8 * k)),
              k2s_const_int(m, vt, 24));
  else
    x = binop(b, SpvOpBitwiseAnd, vt,
              binop(b, SpvOpShiftRightLogical, vt, v, k2s_const_int(m, vt, 8 * k)),
              k2s_const_int(m, vt, 0xff));
  return widen(b, x, rt, is_signed);
}

/* acc + x with saturation (x is exact: the lanes' products cannot overflow). */
static uint32_t add_sat(k2s_builder *b, uint32_t rt, uint32_t x, uint32_t acc, bool is_signed)
{
  k2s_module *m = b->m;
  uint32_t w = k2s_type_width(m, rt), bt = k2s_type_bool(m);
  uint32_t sum = binop(b, SpvOpIAdd, rt, x, acc);
  if (!is_signed) {
    uint32_t wrapped = binop(b, SpvOpULessThan, bt, sum, x);
    uint32_t ops[3] = {wrapped, k2s_const_int(m, rt, w == 64 ? ~0ull : (1ull << w) - 1), sum};
    return k2s_emit(b, SpvOpSelect, rt, ops, 3);
  }
  /* Overflow iff x and acc have the same sign and the sum another. */
  uint32_t zero = k2s_const_int(m, rt, 0);
  uint32_t xneg = binop(b, SpvOpSLessThan, bt, x, zero);
  uint32_t aneg = binop(b, SpvOpSLessThan, bt, acc, zero);
  uint32_t sneg = binop(b, SpvOpSLessThan, bt, sum, zero);
  uint32_t over = binop(b, SpvOpLogicalAnd, bt, binop(b, SpvOpLogicalEqual, bt, xneg, aneg),
                        binop(b, SpvOpLogicalNotEqual, bt, sneg, xneg));
  uint64_t min = 1ull << (w - 1), max = min - 1;
  uint32_t sel1[3] = {aneg, k2s_const_int(m, rt, min), k2s_const_int(m, rt, max)};
  uint32_t limit = k2s_emit(b, SpvOpSelect, rt, sel1, 3);
  uint32_t sel2[3] = {over, limit, sum};
  return k2s_emit(b, SpvOpSelect, rt, sel2, 3);
}

static bool lower_dot(k2s_module *m, k2s_instr *i)
{
  bool acc = i->opcode >= SpvOpSDotAccSat;
  uint16_t base = acc ? i->opcode - 3 : i->opcode;
  bool sign_a = base != SpvOpUDot, sign_b = base == SpvOpSDot;
  uint32_t n_in = acc ? 3 : 2;
  if (i->n_ops < n_in)
    return false;
  uint32_t rt = i->type, at = k2s_type_of(m, i->ops[0]);
  bool packed = k2s_vector_size(m, at) == 1;
  uint32_t lanes = packed ? 4 : k2s_vector_size(m, at);
  uint32_t lane_w = packed ? 8 : k2s_type_width(m, k2s_scalar_type(m, at));
  if (k2s_type_width(m, rt) < 2 * lane_w + 4) {
    k2s_error(m, i,
              "this integer dot product's result type is too narrow for k2s to compute it "
              "without the SPV_KHR_integer_dot_product extension (use --target-env=vulkan1.3)");
    return false;
  }
  k2s_builder b = {m, k2s_before(i)};
  uint32_t sum = 0;
  for (uint32_t k = 0; k < lanes; k++) {
    uint32_t x = lane(&b, i->ops[0], k, packed, sign_a, rt);
    uint32_t y = lane(&b, i->ops[1], k, packed, sign_b, rt);
    uint32_t p = binop(&b, SpvOpIMul, rt, x, y);
    sum = sum ? binop(&b, SpvOpIAdd, rt, sum, p) : p;
  }
  if (acc)
    sum = add_sat(&b, rt, sum, i->ops[2], base != SpvOpUDot);
  k2s_replace_all_uses(m, i->result, sum);
  k2s_instr_delete(m, i);
  return true;
}

/* value (of type `from`) as the logically matching type `to` (OpCopyLogical's
 * rule: same structure, decorations may differ); 0 where the two do not match
 * or an array is too long to copy element by element. */
static uint32_t copy_logical(k2s_builder *b, uint32_t value, uint32_t from, uint32_t to, int depth)
{
  k2s_module *m = b->m;
  if (from == to)
    return value;
  k2s_instr *f = k2s_def(m, from), *t = k2s_def(m, to);
  if (!f || !t || f->opcode != t->opcode || depth > 32)
    return 0;
  uint32_t n = 0;
  uint64_t len = 0;
  if (f->opcode == SpvOpTypeStruct && f->n_ops == t->n_ops)
    n = f->n_ops;
  else if (f->opcode == SpvOpTypeArray && f->n_ops >= 2 && t->n_ops >= 2 &&
           k2s_const_value(m, f->ops[1], &len) && k2s_const_value(m, t->ops[1], &len) &&
           len <= 4096)
    n = (uint32_t)len;
  else
    return 0;
  uint32_t *parts = k2s_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
  for (uint32_t k = 0; k < n; k++) {
    uint32_t ft = f->opcode == SpvOpTypeStruct ? f->ops[k] : f->ops[0];
    uint32_t tt = t->opcode == SpvOpTypeStruct ? t->ops[k] : t->ops[0];
    uint32_t ops[2] = {value, k};
    uint32_t e = k2s_emit(b, SpvOpCompositeExtract, ft, ops, 2);
    parts[k] = copy_logical(b, e, ft, tt, depth + 1);
    if (!parts[k])
      return 0;
  }
  return k2s_emit(b, SpvOpCompositeConstruct, to, parts, n);
}

static bool lower_copy_logical(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t v = i->n_ops ? copy_logical(&b, i->ops[0], k2s_type_of(m, i->ops[0]), i->type, 0) : 0;
  if (!v) {
    k2s_error(m, i,
              "OpCopyLogical between these types has no form before SPIR-V 1.4 that k2s "
              "builds (an array over 4096 elements, or types that do not match); use "
              "--target-env=vulkan1.2");
    return false;
  }
  k2s_replace_all_uses(m, i->result, v);
  k2s_instr_delete(m, i);
  return true;
}

static bool takes_image_operands(uint16_t opcode)
{
  const k2s_opcode_info *info = k2s_opcode(opcode);
  for (uint32_t k = 0; info && k < info->n_operands; k++)
    if (k2s_opcode_info_operands(info)[k].kind == K2S_OK_IMAGE_OPERANDS)
      return true;
  return false;
}

typedef struct image_mask_ctx {
  k2s_module *m;
  k2s_instr *in;
  bool changed;
} image_mask_ctx;

static bool clear_nontemporal(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  image_mask_ctx *c = ud;
  (void)in;
  if (op->kind == K2S_OK_IMAGE_OPERANDS &&
      (c->in->ops[op->word] & SpvImageOperandsNontemporalMask)) {
    k2s_instr_set_op(c->m, c->in, op->word,
                     c->in->ops[op->word] & ~(uint32_t)SpvImageOperandsNontemporalMask);
    c->changed = true;
  }
  return true;
}

static bool is_dot(uint16_t op)
{
  return op >= SpvOpSDot && op <= SpvOpSUDotAccSat;
}

bool k2s_lower_for_target(k2s_module *m, const k2s_options *o)
{
  if (o->target_env == K2S_ENV_VULKAN_1_3)
    return false; /* SPIR-V 1.6, integer dot products core */
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (is_dot(i->opcode) && i->result)
          changed |= lower_dot(m, i);
        else if (i->opcode == SpvOpCopyLogical && i->result && o->target_env == K2S_ENV_VULKAN_1_1)
          changed |= lower_copy_logical(m, i);
        else if (takes_image_operands(i->opcode)) { /* Nontemporal: SPIR-V 1.6 */
          image_mask_ctx c = {m, i, false};
          k2s_walk_operands(m, i, clear_nontemporal, &c);
          changed |= c.changed;
        }
        if (m->failed)
          return true;
      }
  /* vulkan1.2 is SPIR-V 1.5: scalar conditions on vectors are fine there. */
  if (o->target_env == K2S_ENV_VULKAN_1_1)
    changed |= k2s_split_select_conditions(m) > 0;
  return changed;
}
