/* The builder: a cursor and k2s_emit(); per-opcode helpers are generated
 * into k2s_builder_ops.h from the grammar. */
#include "k2s_internal.h"

/* The block terminators of the specification's "Termination Instructions" and
 * the branches: the grammar has no class or flag for them (its Control-Flow class
 * also holds OpPhi, the merges and OpLabel). */
bool k2s_is_terminator(uint16_t op)
{
  switch (op) {
  case SpvOpBranch:
  case SpvOpBranchConditional:
  case SpvOpSwitch:
  case SpvOpReturn:
  case SpvOpReturnValue:
  case SpvOpKill:
  case SpvOpUnreachable:
  case SpvOpTerminateInvocation: return true;
  default: return false;
  }
}

k2s_instr *k2s_block_terminator(k2s_block *b)
{
  k2s_instr *t = b->body.last;
  return t && k2s_is_terminator(t->opcode) ? t : NULL;
}

k2s_instr *k2s_block_merge(k2s_block *b)
{
  k2s_instr *t = k2s_block_terminator(b);
  k2s_instr *p = t ? t->prev : NULL;
  if (p && (p->opcode == SpvOpSelectionMerge || p->opcode == SpvOpLoopMerge))
    return p;
  return NULL;
}

static void insert_at(k2s_builder *b, k2s_instr *i)
{
  k2s_cursor *c = &b->cursor;
  k2s_block *blk = c->block;
  i->block = blk;
  switch (c->kind) {
  case K2S_CURSOR_BEFORE:
    k2s_list_insert_before(&blk->body, c->instr, i);
    /* Keep inserting before the same instruction: order is preserved. */
    break;
  case K2S_CURSOR_AFTER:
    k2s_list_insert_after(&blk->body, c->instr, i);
    c->instr = i;
    break;
  case K2S_CURSOR_BLOCK_START: {
    k2s_instr *pos = blk->body.first;
    bool entry = blk->func && blk == blk->func->first;
    while (pos && (pos->opcode == SpvOpPhi || (entry && pos->opcode == SpvOpVariable) ||
                   pos->opcode == SpvOpLine || pos->opcode == SpvOpNoLine))
      pos = pos->next;
    k2s_list_insert_before(&blk->body, pos, i);
    *c = k2s_after(i);
    break;
  }
  case K2S_CURSOR_BLOCK_END: {
    k2s_instr *pos = k2s_block_merge(blk);
    if (!pos)
      pos = k2s_block_terminator(blk);
    k2s_list_insert_before(&blk->body, pos, i);
    break;
  }
  case K2S_CURSOR_BLOCK_APPEND: k2s_list_append(&blk->body, i); break;
  }
}

k2s_instr *k2s_emit_instr(k2s_builder *b, uint16_t opcode, uint32_t type, const uint32_t *ops,
                          uint32_t n_ops)
{
  const k2s_opcode_info *info = k2s_opcode(opcode);
  uint32_t result = info && info->has_result ? k2s_new_id(b->m) : 0;
  k2s_instr *i = k2s_instr_new(b->m, opcode, type, result, ops, n_ops);
  insert_at(b, i);
  return i;
}

uint32_t k2s_emit(k2s_builder *b, uint16_t opcode, uint32_t type, const uint32_t *ops,
                  uint32_t n_ops)
{
  /* An OpBitcast to its operand's own type is not SPIR-V (the operand "must be a
   * different type than Result Type"; spirv-val 2023.1 lets it through, and
   * NVIDIA's compiler crashed on such PhysicalStorageBuffer pointer casts): the
   * value is its own cast. */
  if (opcode == SpvOpBitcast && n_ops == 1 && type && type == k2s_type_of(b->m, ops[0]))
    return ops[0];
  return k2s_emit_instr(b, opcode, type, ops, n_ops)->result;
}
