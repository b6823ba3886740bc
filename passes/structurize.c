/*
 * structurize: arbitrary control flow → SPIR-V structured control flow.
 *
 * Vulkan only runs structured control flow: a conditional branch or switch
 * sits in a header with OpSelectionMerge, a loop has one header
 * (OpLoopMerge), one back edge from its continue construct and one merge
 * block, and nothing branches into the middle of a construct. clang +
 * llvm-spirv emit goto-style CFGs (multi-exit loops, returns in loops,
 * breaks out of nested loops, switch fallthrough, rarely irreducible
 * cycles), and the merge hints they leave are sometimes wrong. Per function:
 *   1. cleanup: drop the producer's merge instructions, unreachable blocks
 *      and duplicate OpPhi predecessors (llvm-spirv 15 repeats the
 *      predecessor of a switch that has several cases to one target);
 *   2. an irreducible cycle gets a dispatch header: a selector phi says which
 *      entry was meant, a switch goes there;
 *   3. loops, innermost first, get one continue target (the latch when it is
 *      a plain latch, else a new block) and one merge block; several exits go
 *      through a new merge that dispatches on an exit selector (multi-level
 *      break, return out of a shared return block). This phase keeps the
 *      successor and predecessor lists current through its edits ("live
 *      mode") and looks only at each loop's own blocks and exits, so a
 *      function of many loops costs its blocks once, not once per loop;
 *   4. each acyclic region (a loop body, or the function outside loops) is
 *      walked down the dominator tree: a branch merges at its first "merge
 *      child" in reverse post-order (Ramsey, "Beyond Relooper", ICFP 2022);
 *      edges that jump further are funnelled through a new merge block that
 *      dispatches on a selector, so constructs nest;
 *   5. SSA is repaired where new edges left a use undominated (new phis,
 *      OpUndef on paths that cannot be taken; pointers and image handles
 *      are recomputed at the use instead, as logical addressing has no
 *      pointer phis) and blocks are ordered so each follows its dominator.
 * Returns and OpUnreachable stay where they are (legal in any construct);
 * break and continue edges stay direct. Selectors only record which original
 * edge was taken and no code is moved, so a barrier reached in uniform
 * control flow stays in uniform control flow. Preconditions: valid SSA, every
 * block terminated. No options; the result is also a valid Kernel module.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "structurize.h"

/* ---- 1. cleanup ------------------------------------------------------------ */

typedef struct undef_ctx {
  st *s;
} undef_ctx;

static void undef_dead_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  st *s = ((undef_ctx *)ud)->s;
  k2s_instr *d = k2s_def(s->m, *id);
  if (!d || !d->block || d->opcode == SpvOpLabel || d->block->func != s->f)
    return;
  if (!reachable(s, d->block) && !BI(d->block)->keep)
    k2s_instr_set_op(s->m, in, (uint32_t)(id - in->ops), k2s_undef(s->m, d->type));
}

static bool cleanup(st *s)
{
  k2s_module *m = s->m;
  k2s_foreach_block(b, s->f) {
    /* An unroll hint the input repair kept when it dropped invalid merges. */
    uint32_t hint = k2s_repaired_loop_hint(m, b->label->result);
    if (hint)
      BI(b)->control = hint;
    k2s_instr *mi = k2s_block_merge(b);
    if (mi) {
      if (mi->opcode == SpvOpLoopMerge && mi->n_ops >= 3)
        BI(b)->control = mi->ops[2];
      k2s_list_remove(&b->body, mi);
      s->changed = true;
    }
    k2s_instr *t = term(b);
    if (!t)
      continue;
    /* A conditional branch or switch with a single target is a branch. */
    uint32_t nl = k2s_sz_n_labels(s, t);
    if ((t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) && nl >= 1) {
      uint32_t first = *k2s_sz_label_word(s, t, 0);
      bool all = true;
      for (uint32_t k = 1; k < nl; k++)
        if (*k2s_sz_label_word(s, t, k) != first)
          all = false;
      if (all)
        k2s_sz_set_term(s, b, SpvOpBranch, &first, 1);
    }
  }
  if (!k2s_sz_snapshot(s))
    return false;
  if (s->npred[0]) {
    k2s_error(m, s->f->def, "the first block of function %%%u is a branch target",
              s->f->def->result);
    return false;
  }
  bool any_dead = false;
  for (uint32_t i = 0; i < s->n; i++)
    if (s->order[i] == NONE)
      any_dead = true;
  /* Phis: one entry per real predecessor. */
  for (uint32_t i = 0; i < s->n; i++) {
    if (s->order[i] == NONE)
      continue;
    foreach_phi(phi, s->blocks[i])
    {
      if (phi->n_ops % 2) {
        k2s_error(m, phi, "OpPhi operands do not come in (value, parent) pairs");
        return false;
      }
      uint32_t w = 0, *ops = k2s_sz_words(s, NULL, phi->n_ops);
      for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2) {
        k2s_block *p = k2s_sz_block_of(s, phi->ops[k + 1]);
        bool keep = p && reachable(s, p) && has_succ(s, BI(p)->idx, i);
        for (uint32_t j = 0; keep && j < w; j += 2)
          if (ops[j + 1] == phi->ops[k + 1])
            keep = false; /* llvm-spirv 15 repeats switch predecessors */
        if (keep) {
          ops[w++] = phi->ops[k];
          ops[w++] = phi->ops[k + 1];
        }
      }
      if (w != phi->n_ops) {
        k2s_instr_set_ops(m, phi, ops, w);
        s->changed = true;
      }
    }
  }
  if (!any_dead)
    return true;
  undef_ctx uc = {s};
  for (uint32_t i = 0; i < s->n; i++)
    if (s->order[i] != NONE)
      k2s_foreach_instr(in, &s->blocks[i]->body)
        k2s_foreach_id_operand(m, in, undef_dead_operand, &uc);
  for (uint32_t i = 0; i < s->n; i++)
    if (s->order[i] == NONE)
      k2s_sz_delete_block(s, s->blocks[i]);
  return k2s_sz_snapshot(s);
}

/* Orders blocks by reverse post-order of the CFG plus the merge and continue
 * edges (so unreachable merge blocks follow their headers); drops blocks that
 * nothing reaches. */
static void order_blocks(st *s)
{
  k2s_arena *a = &s->snap;
  uint32_t n = 0;
  k2s_foreach_block(b, s->f)
    BI(b)->idx = n++;
  k2s_block **all = k2s_alloc(a, (n + 1) * sizeof(*all));
  n = 0;
  k2s_foreach_block(b, s->f)
    all[n++] = b;
  uint32_t stamp = ++s->walk_stamp;
  k2s_block **stack = k2s_alloc(a, (n + 1) * sizeof(*stack));
  uint32_t **succ = k2s_alloc(a, (n + 1) * sizeof(*succ));
  uint32_t *nsucc = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  k2s_block **post = k2s_alloc(a, (n + 1) * sizeof(*post));
  for (uint32_t i = 0; i < n; i++) {
    k2s_block *b = all[i];
    k2s_instr *t = term(b), *mi = k2s_block_merge(b);
    uint32_t nl = t ? k2s_sz_n_labels(s, t) : 0;
    succ[i] = k2s_alloc(a, (nl + 3) * sizeof(uint32_t));
    if (mi) {
      k2s_block *mb = k2s_sz_block_of(s, mi->ops[0]);
      if (mb)
        succ[i][nsucc[i]++] = BI(mb)->idx;
      if (mi->opcode == SpvOpLoopMerge && (mb = k2s_sz_block_of(s, mi->ops[1])))
        succ[i][nsucc[i]++] = BI(mb)->idx;
    }
    for (uint32_t k = nl; k-- > 0;) {
      k2s_block *to = k2s_sz_block_of(s, *k2s_sz_label_word(s, t, k));
      if (to)
        succ[i][nsucc[i]++] = BI(to)->idx;
    }
  }
  uint32_t sp = 0, np = 0;
  stack[sp++] = all[0];
  BI(all[0])->seen = stamp;
  while (sp) {
    uint32_t v = BI(stack[sp - 1])->idx;
    if (next[v] < nsucc[v]) {
      k2s_block *w = all[succ[v][next[v]++]];
      if (BI(w)->seen != stamp) {
        BI(w)->seen = stamp;
        stack[sp++] = w;
      }
    } else {
      post[np++] = all[v];
      sp--;
    }
  }
  bool same = np == n;
  for (uint32_t i = 0; i < np && same; i++)
    if (post[np - 1 - i] != all[i])
      same = false;
  if (same)
    return;
  for (uint32_t i = 0; i < n; i++)
    if (BI(all[i])->seen != stamp)
      k2s_sz_delete_block(s, all[i]);
  for (uint32_t i = 0; i < np; i++)
    k2s_function_remove_block(s->f, post[i]);
  for (uint32_t i = np; i-- > 0;)
    k2s_function_append_block(s->f, post[i]);
  cfg_changed(s);
  s->changed = true;
}

/* SPIR-V's universal limit on the nesting of structured control flow (the
 * specification's "Universal Limits"; spirv-val checks it on Shader modules). */
#define MAX_NESTING 1023

/* Refuses a function whose constructs nest deeper than MAX_NESTING, with the
 * depth SPIR-V counts: a block is one deeper than its immediate dominator when
 * that is a header, a merge block as deep as its header, a continue target one
 * deeper than its loop's header (than the header's dominator when the loop is
 * its own continue target). One pass in reverse post-order (dominators and
 * headers come first). */
static bool check_nesting(st *s)
{
  uint32_t n = s->n;
  if (!s->nrpo)
    return true;
  uint32_t *depth = k2s_alloc(&s->snap, (n + 1) * sizeof(uint32_t));
  uint32_t *merge_of = k2s_alloc(&s->snap, (n + 1) * sizeof(uint32_t)); /* header + 1 */
  uint32_t *cont_of = k2s_alloc(&s->snap, (n + 1) * sizeof(uint32_t));  /* header + 1 */
  for (uint32_t L = 0; L < s->nloops; L++) {
    loop *l = &s->loops[L];
    if (reachable(s, l->merge))
      merge_of[BI(l->merge)->idx] = BI(l->header)->idx + 1;
    if (reachable(s, l->cont))
      cont_of[BI(l->cont)->idx] = BI(l->header)->idx + 1;
  }
  for (uint32_t k = 0; k < s->nrpo; k++) {
    k2s_block *b = s->blocks[s->rpo[k]];
    k2s_block *mb = BI(b)->merge ? k2s_sz_block_of(s, BI(b)->merge) : NULL;
    if (mb && reachable(s, mb))
      merge_of[BI(mb)->idx] = s->rpo[k] + 1;
  }
  for (uint32_t k = 1; k < s->nrpo; k++) {
    uint32_t b = s->rpo[k], d = s->idom[b], h;
    if (cont_of[b]) {
      h = cont_of[b] - 1;
      depth[b] = 1 + depth[h == b ? d : h];
    } else if (merge_of[b]) {
      depth[b] = depth[merge_of[b] - 1];
    } else {
      k2s_block *db = s->blocks[d];
      depth[b] = depth[d] + (BI(db)->merge || is_loop_header(s, db) ? 1 : 0);
    }
    if (depth[b] > MAX_NESTING) {
      k2s_error(s->m, s->f->def,
                "control flow nested deeper than SPIR-V allows in function %%%u: %u levels "
                "of structured constructs reached, at most %u are allowed",
                s->f->def->result, depth[b], MAX_NESTING);
      return false;
    }
  }
  return true;
}

/* ---- driver ------------------------------------------------------------------ */

static bool structurize_function(st *s, k2s_function *f)
{
  s->f = f;
  s->live = false;
  s->snap_valid = false;
  s->nloops = 0;
  s->cap_loops = 0;
  s->loops = NULL;
  k2s_foreach_block(b, f)
    k2s_sz_attach(s, b, NONE);
  if (!cleanup(s))
    return false;
  /* Loops, again after each rewrite of an irreducible cycle: a rewrite
   * leaves that cycle one entry, and inner cycles are smaller, so this ends
   * (the bound only guards against a bug). */
  uint64_t rounds = 4 * (uint64_t)s->n + 64;
  while (!k2s_sz_build_loops(s)) {
    if (s->m->failed || !k2s_sz_snapshot(s))
      return false;
    if (!rounds--) {
      k2s_error(s->m, s->f->def,
                "structurize: irreducible control flow in function %%%u "
                "not resolved (internal limit reached)",
                s->f->def->result);
      return false;
    }
  }
  if (s->m->failed)
    return false;
  k2s_sz_number_loops(s);
  s->live = true; /* build_loops' snapshot is current */
  for (uint32_t L = s->nloops; L-- > 0;) {
    if (!k2s_sz_normalize_loop(s, L) || s->m->failed)
      return false;
  }
  s->live = false;
  if (!k2s_sz_place_selection_merges(s) || s->m->failed)
    return false;
  k2s_sz_emit_merges(s);
  if (!k2s_sz_snapshot(s) || !check_nesting(s))
    return false;
  k2s_sz_repair_ssa(s);
  order_blocks(s);
  return !s->m->failed;
}

static void drop_dead_names(st *s)
{
  if (!s->n_dead)
    return;
  k2s_module *m = s->m;
  uint8_t *dead = k2s_alloc(&s->a, m->bound + 1);
  for (uint32_t k = 0; k < s->n_dead; k++)
    if (s->dead[k] <= m->bound)
      dead[s->dead[k]] = 1;
  k2s_drop_annotations_of(m, dead);
}

/* Runs the pass with s's scratch arenas; out of memory or budget anywhere inside (the
 * module's arena too) frees them before the module's own handler takes over, so a budget
 * error leaks nothing to a library caller. */
static bool structurize_all(st *s)
{
  k2s_module *m = s->m;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_sz_map_label(s, b);
  bool ok = true;
  k2s_foreach_function(f, m) {
    if (!f->first)
      continue;
    ok = structurize_function(s, f);
    k2s_foreach_block(b, f)
      b->data = NULL;
    k2s_arena_reset(&s->snap);
    s->snap_valid = false;
    k2s_arena_reset(&s->a);
    s->words = NULL;
    s->cap_words = 0;
    if (!ok)
      break;
  }
  if (ok)
    drop_dead_names(s);
  return ok;
}

bool k2s_structurize(k2s_module *m, const k2s_options *o)
{
  (void)o;
  /* On the heap: its address stays the same across the setjmp below. */
  st *const s = calloc(1, sizeof *s);
  if (!s)
    longjmp(*m->arena.oom, 1);
  jmp_buf oom, *const outer = m->arena.oom;
  s->m = m;
  k2s_keep_uses(m); /* operands change only through the API */
  if (outer && setjmp(oom)) {
    m->arena.oom = outer;
    k2s_arena_free(&s->a);
    k2s_arena_free(&s->snap);
    free(s);
    longjmp(*outer, 1);
  }
  s->a.oom = s->snap.oom = outer ? &oom : NULL;
  if (outer)
    m->arena.oom = &oom;
  structurize_all(s);
  m->arena.oom = outer;
  k2s_arena_free(&s->a);
  k2s_arena_free(&s->snap);
  bool changed = s->changed;
  free(s);
  return changed;
}
