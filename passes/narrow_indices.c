/*
 * narrow-indices: 64-bit indices into fixed-size arrays → 32-bit arithmetic.
 *
 * OpenCL C indexes with size_t, so after the pointers pass an access into a
 * local tile reads `%idx = OpIMul %ulong %j %ulong_33` and so on; a GPU
 * computes that with several 32-bit instructions per 64-bit multiply, in
 * the inner loop of every tiled kernel (transpose 0.83x NVIDIA's OpenCL on
 * an H100, issue 13). An index into an OpTypeArray (Workgroup, Private or
 * Function storage: every such array has a constant length below 2^32) that
 * is in bounds equals its own low 32 bits, and an index out of bounds is
 * undefined in OpenCL and Vulkan alike; add, subtract, multiply, the bitwise
 * operations and left shifts by less than 32 commute with taking the low
 * 32 bits. So the index expression is rebuilt in 32-bit arithmetic from the
 * 32-bit values it was widened from, just before the access chain; leaves it
 * cannot see through are truncated with OpUConvert. The 64-bit originals
 * stay for their other uses (the driver drops dead ones). Runs after the
 * pointers pass made the access chains.
 * --narrow-buffer-indices: the user says every storage buffer is below 4 GiB
 * (the device's maxStorageBufferRange ≤ 2^32), so an in-bounds element index
 * into a buffer's runtime array is below 2^32 too and is narrowed the same way
 * (the global accesses of transpose and of every size_t-indexed kernel).
 */

#include "k2s_internal.h"
#include "k2s_builder_ops.h"

enum { MAX_DEPTH = 12 };

static bool is_u32(k2s_module *m, uint32_t id)
{
  return k2s_type_of(m, id) == k2s_type_int(m, 32, false);
}

/* The low 32 bits of the 64-bit scalar integer id, as a uint value defined
 * before the builder's cursor. */
static uint32_t low32(k2s_builder *b, uint32_t id, int depth)
{
  k2s_module *m = b->m;
  uint32_t u32 = k2s_type_int(m, 32, false);
  uint64_t value;
  if (k2s_const_value(m, id, &value))
    return k2s_const_uint32(m, (uint32_t)value);
  k2s_instr *d = k2s_def(m, id);
  if (!d || depth >= MAX_DEPTH)
    return k2s_b_uconvert(b, u32, id);
  switch (d->opcode) {
  case SpvOpUConvert:
  case SpvOpSConvert: {
    uint32_t src = d->ops[0];
    if (k2s_vector_size(m, k2s_type_of(m, src)) != 1)
      break;
    if (is_u32(m, src))
      return src;
    if (k2s_type_width(m, k2s_type_of(m, src)) < 32)
      return k2s_emit(b, d->opcode, u32, &src, 1);
    break;
  }
  case SpvOpCompositeExtract: {
    /* one lane of a widened vector (size_t work-item ids): that lane of
     * the 32-bit vector */
    k2s_instr *v = k2s_def(m, d->ops[0]);
    if (d->n_ops != 2 || !v || (v->opcode != SpvOpUConvert && v->opcode != SpvOpSConvert) ||
        k2s_scalar_type(m, k2s_type_of(m, v->ops[0])) != u32)
      break;
    uint32_t ops[2] = {v->ops[0], d->ops[1]};
    return k2s_emit(b, SpvOpCompositeExtract, u32, ops, 2);
  }
  case SpvOpIAdd:
  case SpvOpISub:
  case SpvOpIMul:
  case SpvOpBitwiseAnd:
  case SpvOpBitwiseOr:
  case SpvOpBitwiseXor: {
    uint32_t ops[2] = {low32(b, d->ops[0], depth + 1), low32(b, d->ops[1], depth + 1)};
    return k2s_emit(b, d->opcode, u32, ops, 2);
  }
  case SpvOpShiftLeftLogical: {
    uint64_t s;
    if (!k2s_const_value(m, d->ops[1], &s) || s >= 32)
      break;
    uint32_t ops[2] = {low32(b, d->ops[0], depth + 1), k2s_const_uint32(m, (uint32_t)s)};
    return k2s_emit(b, SpvOpShiftLeftLogical, u32, ops, 2);
  }
  default: break;
  }
  return k2s_b_uconvert(b, u32, id);
}

static bool fixed_size_storage(uint32_t sc)
{
  return sc == SpvStorageClassWorkgroup || sc == SpvStorageClassPrivate ||
         sc == SpvStorageClassFunction;
}

/* Whether index operand n of chain i (into an array) is 64-bit and then replaces it by
 * its low 32 bits. */
static bool narrow_operand(k2s_builder *b, k2s_instr *i, uint32_t n)
{
  k2s_module *m = b->m;
  uint32_t idx = i->ops[n];
  if (k2s_type_width(m, k2s_type_of(m, idx)) != 64 || k2s_vector_size(m, k2s_type_of(m, idx)) != 1)
    return false;
  k2s_instr_set_op(m, i, n, low32(b, idx, 0));
  return true;
}

/* Narrows the 64-bit indices of access chain i that select an array
 * element; returns whether it changed any. */
static bool narrow_chain(k2s_module *m, k2s_instr *i, bool buffers)
{
  k2s_instr *ptr = k2s_def(m, k2s_type_of(m, i->ops[0]));
  if (!ptr || ptr->opcode != SpvOpTypePointer)
    return false;
  bool buffer = buffers && ptr->ops[0] == SpvStorageClassStorageBuffer;
  if (!fixed_size_storage(ptr->ops[0]) && !buffer)
    return false;
  uint32_t cur = ptr->ops[1];
  bool changed = false;
  k2s_builder b = {m, k2s_before(i)};
  for (uint32_t n = 1; n < i->n_ops; n++) {
    k2s_instr *t = k2s_def(m, cur);
    if (!t)
      return changed;
    uint32_t idx = i->ops[n];
    switch (t->opcode) {
    case SpvOpTypeArray:
      cur = t->ops[0];
      changed |= narrow_operand(&b, i, n);
      break;
    case SpvOpTypeRuntimeArray:
      cur = t->ops[0];
      if (buffer)
        changed |= narrow_operand(&b, i, n);
      break;
    case SpvOpTypeStruct: {
      uint64_t member;
      if (!k2s_const_value(m, idx, &member) || member >= t->n_ops)
        return changed;
      cur = t->ops[member];
      break;
    }
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: cur = t->ops[0]; break;
    default: return changed;
    }
  }
  return changed;
}

bool k2s_narrow_indices(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr_safe(i, &blk->body)
        if ((i->opcode == SpvOpAccessChain || i->opcode == SpvOpInBoundsAccessChain) &&
            i->n_ops > 1 && narrow_chain(m, i, o->narrow_buffer_indices))
          changed = true;
  return changed;
}
