/*
 * physical-aligned: every access through a PhysicalStorageBuffer pointer gets Aligned.
 *
 * Vulkan requires the Aligned memory operand on each OpLoad/OpStore (and both sides of an
 * OpCopyMemory) through a PhysicalStorageBuffer pointer. physical-pointers sets it on the
 * input's accesses, but passes after it create accesses of their own through such pointers
 * (a builtin's out-parameter such as fract/modf/sincos, wide vectors split into pieces).
 * This pass adds the OpenCL alignment of the pointee wherever it is missing, never
 * changing an alignment the producer gave. Runs late (after builtins), before finalize.
 */
#include <string.h>

#include "k2s_internal.h"

static bool is_physical(k2s_module *m, uint32_t ptr)
{
  k2s_instr *t = k2s_def(m, k2s_type_of(m, ptr));
  return t && t->opcode == SpvOpTypePointer && t->ops[0] == SpvStorageClassPhysicalStorageBuffer;
}

static uint32_t alignment(k2s_module *m, uint32_t ptr)
{
  k2s_instr *t = k2s_def(m, k2s_type_of(m, ptr));
  uint64_t size = 0, align = 1;
  if (!k2s_cl_layout(m, t->ops[1], &size, &align) || !align)
    align = 1;
  return (uint32_t)align;
}

/* Sets Aligned in the memory-operand mask at ops[mask_word] (appending the mask when
 * there is none); the Aligned literal goes first, as only Volatile has a lower bit. */
static bool add_aligned(k2s_module *m, k2s_instr *i, uint32_t mask_word, uint32_t align)
{
  if (i->n_ops <= mask_word) {
    k2s_instr_push_op(m, i, SpvMemoryAccessAlignedMask);
    k2s_instr_push_op(m, i, align);
    return true;
  }
  if (i->ops[mask_word] & SpvMemoryAccessAlignedMask)
    return false;
  uint32_t n = i->n_ops + 1;
  uint32_t *ops = k2s_alloc(&m->arena, n * sizeof(uint32_t));
  memcpy(ops, i->ops, (mask_word + 1) * sizeof(uint32_t));
  ops[mask_word] |= SpvMemoryAccessAlignedMask;
  ops[mask_word + 1] = align;
  memcpy(ops + mask_word + 2, i->ops + mask_word + 1,
         (i->n_ops - mask_word - 1) * sizeof(uint32_t));
  k2s_instr_set_ops(m, i, ops, n);
  return true;
}

bool k2s_lower_physical_aligned(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool changed = false;
  k2s_foreach_function(f, m) k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body)
  {
    switch (i->opcode) {
    case SpvOpLoad:
      if (i->n_ops >= 1 && is_physical(m, i->ops[0]))
        changed |= add_aligned(m, i, 1, alignment(m, i->ops[0]));
      break;
    case SpvOpStore:
      if (i->n_ops >= 2 && is_physical(m, i->ops[0]))
        changed |= add_aligned(m, i, 2, alignment(m, i->ops[0]));
      break;
    case SpvOpCopyMemory:
      /* One mask covers both sides when there is only one (SPIR-V 1.4 allows two). */
      if (i->n_ops >= 2 && (is_physical(m, i->ops[0]) || is_physical(m, i->ops[1]))) {
        uint32_t a0 = is_physical(m, i->ops[0]) ? alignment(m, i->ops[0]) : 1;
        uint32_t a1 = is_physical(m, i->ops[1]) ? alignment(m, i->ops[1]) : 1;
        if (i->n_ops <= 2)
          changed |= add_aligned(m, i, 2, a0 < a1 ? a0 : a1);
      }
      break;
    default: break;
    }
  }
  return changed;
}
