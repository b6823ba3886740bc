/*
 * cleanup, block merging: a block that ends in OpBranch to a block of which it
 * is the one predecessor takes that block's instructions, and the successor
 * goes. Inlining splices a callee between two halves of the caller's block and
 * structurize splits blocks at every construct boundary it considers; chains of
 * blocks that only branch are what is left (ptr_helper: 162 label/branch pairs).
 *
 * Structured control flow must stay valid, so a successor is kept when it is
 * the merge block or continue target of any construct (a header's merge
 * instruction names it), when it is a loop header, or when its label has a use
 * other than the branch, phis and names. A loop header (OpLoopMerge then OpBranch)
 * may take its successor only when that is no header and ends in OpBranch or
 * OpBranchConditional: the merge instruction moves to just before the new
 * terminator. These are the rules of SPIRV-Tools' merge-blocks, narrowed where a
 * case is rare in k2s's output (a successor that is a merge block). Phis of the
 * successor (one incoming value) become that value; phis after it that name it
 * as predecessor name the merged block.
 */
#include "cleanup.h"

/* May `b`, the one successor of `a` through a's OpBranch, be merged into a? */
static bool mergeable(k2s_module *m, const k2s_cfg *cfg, k2s_block *a, k2s_block *b)
{
  if (b == a || b == cfg->func->first)
    return false;
  if (cfg->n_pred[b->index] != 1)
    return false;
  k2s_instr *t = k2s_block_terminator(b);
  if (!t)
    return false;
  k2s_instr *bm = k2s_block_merge(b);
  if (bm && bm->opcode == SpvOpLoopMerge)
    return false;
  k2s_instr *am = k2s_block_merge(a);
  if (am && (am->opcode != SpvOpLoopMerge || bm ||
             (t->opcode != SpvOpBranch && t->opcode != SpvOpBranchConditional)))
    return false;
  uint32_t label = b->label->result;
  k2s_foreach_use(u, m, label) {
    k2s_instr *user = u->user;
    if (user->dead)
      continue;
    if (user->opcode == SpvOpName && !user->block)
      continue;
    if (user == k2s_block_terminator(a))
      continue;
    if (user->opcode != SpvOpPhi || !user->block)
      return false; /* a merge instruction, a decoration, another function's use */
  }
  k2s_foreach_instr(i, &b->body) {
    if (i->opcode != SpvOpPhi)
      break;
    if (i->n_ops != 2 || i->ops[1] != a->label->result)
      return false;
  }
  return true;
}

/* Moves b's instructions into a (whose OpBranch to b goes) and deletes b; y is
 * b's index in cfg, for its successors. */
static void merge(k2s_module *m, const k2s_cfg *cfg, k2s_block *a, k2s_block *b, uint32_t y)
{
  k2s_foreach_instr_safe(i, &b->body) {
    if (i->opcode != SpvOpPhi)
      break;
    k2s_cl_replace(m, i, i->ops[0]);
  }
  k2s_instr *am = k2s_block_merge(a);
  if (am)
    k2s_list_remove(&a->body, am);
  k2s_instr_delete(m, k2s_block_terminator(a));
  k2s_foreach_instr_safe(i, &b->body) {
    k2s_list_remove(&b->body, i);
    i->block = a;
    k2s_list_append(&a->body, i);
  }
  k2s_instr *t = k2s_block_terminator(a);
  if (am)
    k2s_list_insert_before(&a->body, t, am);
  uint32_t from = b->label->result, to = a->label->result;
  for (uint32_t s = 0; s < cfg->n_succ[y]; s++)
    k2s_foreach_instr(p, &cfg->blocks[cfg->succ[y][s]]->body) {
      if (p->opcode != SpvOpPhi)
        break;
      for (uint32_t k = 1; k < p->n_ops; k += 2)
        if (p->ops[k] == from)
          k2s_instr_set_op(m, p, k, to);
    }
  k2s_cl_drop(m, b->label);
  k2s_function_remove_block(cfg->func, b);
}

bool k2s_cl_merge_blocks(k2s_module *m, k2s_arena *a, k2s_function *f)
{
  if (!f->first || !f->first->next)
    return false;
  k2s_cfg *cfg = k2s_cfg_build(m, a, f);
  uint8_t *gone = k2s_alloc(a, cfg->n_blocks + 1);
  bool changed = false;
  /* Reachable blocks only (rpo), a predecessor before its successor. */
  for (uint32_t r = 0; r < cfg->n_rpo; r++) {
    uint32_t x = cfg->rpo[r];
    if (gone[x])
      continue;
    k2s_block *blk = cfg->blocks[x];
    /* x's successor edges describe blk's terminator, which is that of the last
     * block merged into it. */
    for (uint32_t last = x;;) {
      k2s_instr *t = k2s_block_terminator(blk);
      if (!t || t->opcode != SpvOpBranch || cfg->n_succ[last] != 1)
        break;
      uint32_t y = cfg->succ[last][0];
      k2s_block *next = cfg->blocks[y];
      if (gone[y] || !mergeable(m, cfg, blk, next))
        break;
      merge(m, cfg, blk, next, y);
      gone[y] = 1;
      last = y;
      changed = true;
    }
  }
  return changed;
}
