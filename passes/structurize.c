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

#include "k2s_internal.h"

#define NONE UINT32_MAX

typedef struct binfo {
  uint32_t idx;                       /* index in the current snapshot */
  uint32_t loop;                      /* innermost loop holding the block, NONE outside loops */
  uint32_t merge;                     /* label of the OpSelectionMerge chosen for this header */
  uint32_t loop_merge_of;             /* the loop whose merge block this is, NONE */
  uint32_t control;                   /* loop control of a producer OpLoopMerge here */
  uint32_t seen;                      /* stamp for walks */
  bool claimed;                       /* a merge or continue target: no selection may merge here */
  bool processed;                     /* phase 4 gave this header its merge */
  bool keep;                          /* an unreachable merge block made here: never delete */
  bool sel_merge;                     /* the merge block of a selection */
  uint32_t fall_to;                   /* a case construct: the case target it falls through to */
  uint32_t *falls, nfalls, cap_falls; /* a switch: (case, next case) fallthrough label pairs */
  /* funnel's scratch: stamps and slots of targets, sources, rerouted sources */
  uint32_t tstamp, tslot, sstamp, sslot, qstamp, qslot, rstamp;
  uint32_t astamp; /* find_fallthroughs: a successor of the switch */
} binfo;

typedef struct loop {
  k2s_block *header, *cont, *merge;
  uint32_t parent;
  uint32_t pre, post; /* numbers in the loop forest: nesting tests in O(1) */
  bool has_exits;     /* normalised with edges to its merge */
} loop;

typedef struct edge {
  k2s_block *from, *to;
} edge;

typedef struct st {
  k2s_module *m;
  k2s_function *f;
  k2s_arena a;    /* scratch for one function */
  k2s_arena snap; /* the current snapshot; freed when it is rebuilt */
  k2s_block **lbl;
  uint32_t lbl_cap;
  bool changed;
  uint32_t *dead; /* ids of deleted blocks and values, module arena */
  uint32_t n_dead, cap_dead;
  uint32_t walk_stamp;

  /* snapshot of the CFG */
  uint32_t n;
  k2s_block **blocks;
  uint32_t **succ, *nsucc, **pred, *npred;
  uint32_t *rpo, nrpo, *order, *idom;
  uint32_t **kids, *nkids, *pre, *post;
  uint32_t *mark, stamp; /* scratch marks by block index */
  uint32_t *tmp;         /* scratch list, n entries */
  /* The snapshot is rebuilt only when the CFG changed since (cfg_gen counts the
   * edits: blocks made or deleted, terminators set or retargeted), or when the
   * scratch that lives until the next snapshot has outgrown it: most rewrites
   * of one loop or selection leave the rest alone, and a rebuild per rewrite
   * made a function with many constructs quadratic. */
  uint32_t cfg_gen, snap_gen;
  bool snap_valid;
  size_t snap_bytes;
  /* Live mode (loop normalisation): every edit updates the successor and
   * predecessor lists of the blocks it touches, and new blocks get the next
   * index, so the lists stay those a snapshot would build; the orders and
   * dominators are not kept (nothing reads them in live mode but through a
   * fresh snapshot). Each loop then costs its own blocks, not the function. */
  bool live;
  uint32_t *cap_s, *cap_p, cap_n;
  /* Stamps by target index while one block's successor list is built (a repeated
   * target is left out): a scan of the list per target made one OpSwitch of N cases
   * cost N^2. succ_gen changes per list built. */
  uint32_t *succ_stamp, succ_gen;
  uint32_t *lrpo, nlrpo, cap_lrpo; /* loop_rpo's result */

  loop *loops;
  uint32_t nloops, cap_loops;
  /* process_header's scratch (n-sized lists it fills before reading), allocated once
   * per snapshot instead of once per header: zeroing them per header made deep
   * selection nesting quadratic. */
  uint32_t *ph_stack, *ph_S, *ph_Y, *ph_rs;
  /* Exit summaries of constructs (merge_by_summary) and their scratch, per snapshot. */
  struct exits *ex;
  uint32_t ex_gen, *ex_todo, *ex_pass, *ex_kids;
} st;

static binfo *BI(k2s_block *b)
{
  return b->data;
}

/* ---- small IR helpers --------------------------------------------------- */

static k2s_block *block_of(st *s, uint32_t label)
{
  if (label == 0 || label >= s->lbl_cap)
    return NULL;
  k2s_block *b = s->lbl[label];
  return b && b->func == s->f ? b : NULL;
}

static void map_label(st *s, k2s_block *b)
{
  uint32_t id = b->label->result;
  if (id >= s->lbl_cap) {
    uint32_t cap = s->lbl_cap ? s->lbl_cap : 64;
    while (cap <= id)
      cap *= 2;
    s->lbl = k2s_realloc_array(&s->m->arena, s->lbl, s->lbl_cap, cap, sizeof(*s->lbl));
    s->lbl_cap = cap;
  }
  s->lbl[id] = b;
}

static void attach(st *s, k2s_block *b, uint32_t loop)
{
  binfo *i = k2s_alloc(&s->a, sizeof(*i));
  i->idx = NONE;
  i->loop = loop;
  i->loop_merge_of = NONE;
  b->data = i;
}

static void cfg_changed(st *s)
{
  s->cfg_gen++;
}

static void live_add(st *s, k2s_block *b);
static void live_resync(st *s, k2s_block *b);

static k2s_block *new_block(st *s, uint32_t loop)
{
  cfg_changed(s);
  k2s_block *b = k2s_block_new(s->m, s->f, k2s_new_id(s->m));
  k2s_function_append_block(s->f, b);
  map_label(s, b);
  attach(s, b, loop);
  if (s->live)
    live_add(s, b);
  s->changed = true;
  return b;
}

static k2s_instr *emit_at(st *s, k2s_cursor c, uint16_t op, uint32_t type, const uint32_t *ops,
                          uint32_t n)
{
  k2s_builder b = {s->m, c};
  return k2s_emit_instr(&b, op, type, ops, n);
}

static k2s_instr *term(k2s_block *b)
{
  return k2s_block_terminator(b);
}

static void note_dead(st *s, uint32_t id)
{
  if (s->n_dead == s->cap_dead) {
    uint32_t cap = s->cap_dead ? s->cap_dead * 2 : 64;
    s->dead = k2s_realloc_array(&s->m->arena, s->dead, s->n_dead, cap, sizeof(uint32_t));
    s->cap_dead = cap;
  }
  s->dead[s->n_dead++] = id;
}

static void delete_block(st *s, k2s_block *b)
{
  cfg_changed(s);
  if (b->label->result < s->lbl_cap)
    s->lbl[b->label->result] = NULL;
  note_dead(s, b->label->result);
  k2s_set_def(s->m, b->label->result, NULL);
  k2s_foreach_instr(i, &b->body)
    if (i->result) {
      note_dead(s, i->result);
      k2s_set_def(s->m, i->result, NULL);
    }
  k2s_function_remove_block(s->f, b);
  s->changed = true;
}

/* Words of an OpSwitch case literal: the selector's width decides. */
static uint32_t lit_words(st *s, const k2s_instr *t)
{
  return k2s_type_width(s->m, k2s_type_of(s->m, t->ops[0])) > 32 ? 2 : 1;
}

static uint32_t n_labels(st *s, const k2s_instr *t)
{
  switch (t->opcode) {
  case SpvOpBranch: return t->n_ops >= 1 ? 1 : 0;
  case SpvOpBranchConditional: return t->n_ops >= 3 ? 2 : 0;
  case SpvOpSwitch: return t->n_ops >= 2 ? 1 + (t->n_ops - 2) / (lit_words(s, t) + 1) : 0;
  default: return 0;
  }
}

static uint32_t *label_word(st *s, k2s_instr *t, uint32_t k)
{
  switch (t->opcode) {
  case SpvOpBranch: return &t->ops[0];
  case SpvOpBranchConditional: return &t->ops[1 + k];
  default: {
    if (k == 0)
      return &t->ops[1];
    uint32_t l = lit_words(s, t);
    return &t->ops[2 + (k - 1) * (l + 1) + l];
  }
  }
}

static void retarget(st *s, k2s_instr *t, uint32_t from, uint32_t to)
{
  cfg_changed(s);
  uint32_t n = n_labels(s, t);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t *w = label_word(s, t, k);
    if (*w == from)
      *w = to;
  }
  if (s->live)
    live_resync(s, t->block);
  s->changed = true;
}

/* Replace a block's terminator. */
static k2s_instr *set_term(st *s, k2s_block *b, uint16_t op, const uint32_t *ops, uint32_t n)
{
  k2s_instr *t = term(b);
  if (t)
    k2s_list_remove(&b->body, t);
  cfg_changed(s);
  s->changed = true;
  k2s_instr *nt = emit_at(s, k2s_block_append(b), op, 0, ops, n);
  if (s->live)
    live_resync(s, b);
  return nt;
}

static k2s_instr *phi_from(k2s_instr *i)
{
  for (; i; i = i->next) {
    if (i->opcode == SpvOpPhi)
      return i;
    if (i->opcode != SpvOpLine && i->opcode != SpvOpNoLine)
      return NULL;
  }
  return NULL;
}
static k2s_instr *first_phi(k2s_block *b)
{
  return phi_from(b->body.first);
}
static k2s_instr *next_phi(k2s_instr *p)
{
  return phi_from(p->next);
}
#define foreach_phi(p, b) for (k2s_instr *p = first_phi(b); p; p = next_phi(p))

static uint32_t phi_value(const k2s_instr *phi, uint32_t label)
{
  for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2)
    if (phi->ops[k + 1] == label)
      return phi->ops[k];
  return 0;
}

static void phi_remove(st *s, k2s_instr *phi, uint32_t label)
{
  uint32_t w = 0;
  for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2)
    if (phi->ops[k + 1] != label) {
      phi->ops[w++] = phi->ops[k];
      phi->ops[w++] = phi->ops[k + 1];
    }
  phi->n_ops = w;
  s->changed = true;
}

static void phi_add(st *s, k2s_instr *phi, uint32_t value, uint32_t label)
{
  k2s_instr_push_op(s->m, phi, value);
  k2s_instr_push_op(s->m, phi, label);
  s->changed = true;
}

static void phis_rename_pred(st *s, k2s_block *b, uint32_t from, uint32_t to)
{
  foreach_phi(p, b) for (uint32_t k = 0; k + 1 < p->n_ops; k += 2) if (p->ops[k + 1] == from)
      p->ops[k + 1] = to;
  s->changed = true;
}

/* A new phi at the top of b, after the phis there. */
static k2s_instr *new_phi(st *s, k2s_block *b, uint32_t type)
{
  k2s_instr *pos = b->body.first;
  while (pos && (pos->opcode == SpvOpPhi || pos->opcode == SpvOpLine || pos->opcode == SpvOpNoLine))
    pos = pos->next;
  k2s_cursor c = pos ? k2s_before(pos) : k2s_block_append(b);
  c.block = b;
  s->changed = true;
  return emit_at(s, c, SpvOpPhi, type, NULL, 0);
}

static uint32_t uint_type(st *s)
{
  return k2s_type_int(s->m, 32, false);
}

/* ---- the CFG snapshot ----------------------------------------------------- */

static void push_list(k2s_arena *a, uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t v)
{
  if (*n == *cap) {
    uint32_t c = *cap ? *cap * 2 : 4;
    *list = k2s_realloc_array(a, *list, *n, c, sizeof(uint32_t));
    *cap = c;
  }
  (*list)[(*n)++] = v;
}

/* Appends j to block i's successors unless the list being built (since
 * succ_gen last changed) holds it; returns whether it was new. */
static bool add_succ(st *s, uint32_t i, uint32_t j)
{
  if (s->succ_stamp[j] == s->succ_gen)
    return false;
  s->succ_stamp[j] = s->succ_gen;
  push_list(&s->snap, &s->succ[i], &s->nsucc[i], &s->cap_s[i], j);
  return true;
}

/* Immediate dominators by Semi-NCA (Georgiadis, Tarjan and Werneck):
 * semidominators with path-compressed ancestor links, then the nearest
 * common ancestor walk. Near-linear; the iterative algorithm is quadratic
 * on deep chains of branches that all meet in one block. */
static void semi_nca(st *s, k2s_arena *a)
{
  uint32_t n = s->n;
  uint32_t *pre = k2s_alloc(a, (n + 1) * sizeof(uint32_t));    /* block -> preorder, NONE */
  uint32_t *vert = k2s_alloc(a, (n + 1) * sizeof(uint32_t));   /* preorder -> block */
  uint32_t *parent = k2s_alloc(a, (n + 1) * sizeof(uint32_t)); /* in preorder numbers */
  uint32_t *semi = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *label = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *anc = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *dom = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *stack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i < n; i++)
    pre[i] = NONE;
  uint32_t cnt = 0, sp = 0;
  pre[0] = cnt;
  vert[cnt] = 0;
  parent[cnt++] = NONE;
  stack[sp++] = 0;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (next[v] < s->nsucc[v]) {
      uint32_t w = s->succ[v][next[v]++];
      if (pre[w] == NONE) {
        pre[w] = cnt;
        vert[cnt] = w;
        parent[cnt++] = pre[v];
        stack[sp++] = w;
      }
    } else {
      sp--;
    }
  }
  for (uint32_t i = 0; i < cnt; i++) {
    semi[i] = label[i] = i;
    anc[i] = NONE;
  }
  for (uint32_t w = cnt; w-- > 1;) {
    uint32_t b = vert[w];
    for (uint32_t k = 0; k < s->npred[b]; k++) {
      uint32_t v = pre[s->pred[b][k]];
      if (v == NONE)
        continue;
      /* eval(v): the minimum semi label on v's compressed ancestor path. */
      uint32_t best = v;
      if (anc[v] != NONE) {
        uint32_t depth = 0;
        for (uint32_t x = v; anc[x] != NONE; x = anc[x])
          stack[depth++] = x;
        /* Compress from the top down. */
        while (depth-- > 1) {
          uint32_t x = stack[depth - 1], y = anc[x];
          if (anc[y] != NONE) {
            if (semi[label[y]] < semi[label[x]])
              label[x] = label[y];
            anc[x] = anc[y];
          }
        }
        best = label[v];
      }
      if (semi[best] < semi[w])
        semi[w] = semi[best];
    }
    anc[w] = parent[w];
  }
  dom[0] = 0;
  for (uint32_t w = 1; w < cnt; w++) {
    uint32_t d = parent[w];
    while (d > semi[w])
      d = dom[d];
    dom[w] = d;
  }
  for (uint32_t w = 1; w < cnt; w++)
    s->idom[vert[w]] = vert[dom[w]];
}

/* Rebuilds successors, predecessors, reverse post-order, immediate dominators
 * and the dominator tree. False (with an error) on a malformed terminator. */
static bool snapshot(st *s)
{
  if (s->snap_valid && s->snap_gen == s->cfg_gen &&
      k2s_arena_bytes(&s->snap) <= 2 * s->snap_bytes + (1u << 20))
    return true;
  s->snap_valid = false;
  k2s_arena_reset(&s->snap);
  s->ph_stack = s->ph_S = s->ph_Y = s->ph_rs = NULL;
  s->ex = NULL;
  k2s_arena *a = &s->snap;
  uint32_t n = 0;
  k2s_foreach_block(b, s->f)
    BI(b)->idx = n++;
  s->n = n;
  s->blocks = k2s_alloc(a, (n + 1) * sizeof(*s->blocks));
  s->succ = k2s_alloc(a, (n + 1) * sizeof(*s->succ));
  s->pred = k2s_alloc(a, (n + 1) * sizeof(*s->pred));
  s->nsucc = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->npred = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->cap_s = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *cap_p = s->cap_p = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->cap_n = n + 1;
  s->succ_stamp = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->succ_gen = 0;
  s->lrpo = NULL;
  s->cap_lrpo = 0;
  k2s_foreach_block(b, s->f)
    s->blocks[BI(b)->idx] = b;
  for (uint32_t i = 0; i < n; i++) {
    k2s_block *b = s->blocks[i];
    k2s_instr *t = term(b);
    if (!t) {
      k2s_error(s->m, b->body.last ? b->body.last : b->label,
                "block %%%u does not end in a branch, return or OpUnreachable", b->label->result);
      return false;
    }
    if (t->opcode == SpvOpSwitch && t->n_ops >= 2 && (t->n_ops - 2) % (lit_words(s, t) + 1) != 0) {
      k2s_error(s->m, t, "the OpSwitch's case operands do not fit its selector's width");
      return false;
    }
    uint32_t nl = n_labels(s, t);
    s->succ_gen++;
    if ((t->opcode == SpvOpBranch || t->opcode == SpvOpBranchConditional ||
         t->opcode == SpvOpSwitch) &&
        nl == 0) {
      k2s_error(s->m, t, "the branch has too few operands");
      return false;
    }
    for (uint32_t k = 0; k < nl; k++) {
      uint32_t label = *label_word(s, t, k);
      k2s_block *to = block_of(s, label);
      if (!to) {
        k2s_error(s->m, t, "branch target %%%u is not a block of this function", label);
        return false;
      }
      uint32_t j = BI(to)->idx;
      if (!add_succ(s, i, j))
        continue;
      /* (i, j) is new, so i is not among j's predecessors yet. */
      if (s->npred[j] == cap_p[j]) {
        uint32_t c = cap_p[j] ? cap_p[j] * 2 : 4;
        s->pred[j] = k2s_realloc_array(a, s->pred[j], s->npred[j], c, sizeof(uint32_t));
        cap_p[j] = c;
      }
      s->pred[j][s->npred[j]++] = i;
    }
  }
  /* Reverse post-order from the entry, by an explicit stack. */
  s->rpo = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->order = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->idom = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->mark = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->tmp = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->stamp = 0;
  for (uint32_t i = 0; i < n; i++) {
    s->order[i] = NONE;
    s->idom[i] = NONE;
  }
  s->nrpo = 0;
  if (!n)
    return true; /* (not kept: an empty function has nothing to snapshot) */
  s->nrpo = k2s_graph_rpo(a, n, s->succ, s->nsucc, 0, s->rpo);
  for (uint32_t i = 0; i < s->nrpo; i++)
    s->order[s->rpo[i]] = i;
  semi_nca(s, a);
  /* Dominator tree children and pre/post numbers for O(1) dominance. */
  s->kids = k2s_alloc(a, (n + 1) * sizeof(*s->kids));
  s->nkids = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->pre = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  s->post = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t k = 1; k < s->nrpo; k++)
    s->nkids[s->idom[s->rpo[k]]]++;
  for (uint32_t i = 0; i < n; i++) {
    s->kids[i] = k2s_alloc(a, (s->nkids[i] + 1) * sizeof(uint32_t));
    s->nkids[i] = 0;
  }
  for (uint32_t k = 1; k < s->nrpo; k++) {
    uint32_t b = s->rpo[k], d = s->idom[b];
    s->kids[d][s->nkids[d]++] = b;
  }
  {
    uint32_t *stack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
    uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
    uint32_t sp = 0, clock = 0;
    stack[sp++] = 0;
    s->pre[0] = clock++;
    while (sp) {
      uint32_t v = stack[sp - 1];
      if (next[v] < s->nkids[v]) {
        uint32_t w = s->kids[v][next[v]++];
        s->pre[w] = clock++;
        stack[sp++] = w;
      } else {
        s->post[v] = clock++;
        sp--;
      }
    }
  }
  s->snap_valid = true;
  s->snap_gen = s->cfg_gen;
  s->snap_bytes = k2s_arena_bytes(&s->snap);
  return true;
}

static bool reachable(st *s, k2s_block *b)
{
  uint32_t i = BI(b)->idx;
  return i < s->n && s->blocks[i] == b && s->order[i] != NONE;
}

static bool dominates(st *s, uint32_t a, uint32_t b)
{
  return s->pre[a] <= s->pre[b] && s->post[b] <= s->post[a];
}

static bool has_succ(st *s, uint32_t b, uint32_t x)
{
  for (uint32_t k = 0; k < s->nsucc[b]; k++)
    if (s->succ[b][k] == x)
      return true;
  return false;
}

/* ---- the live graph (loop normalisation) ------------------------------------ */

/* A new block gets the next index, with no edges yet. */
static void live_add(st *s, k2s_block *b)
{
  k2s_arena *a = &s->snap;
  if (s->n + 1 >= s->cap_n) {
    uint32_t c = 2 * s->cap_n + 8, o = s->cap_n;
    s->blocks = k2s_realloc_array(a, s->blocks, o, c, sizeof(*s->blocks));
    s->succ = k2s_realloc_array(a, s->succ, o, c, sizeof(*s->succ));
    s->pred = k2s_realloc_array(a, s->pred, o, c, sizeof(*s->pred));
    s->nsucc = k2s_realloc_array(a, s->nsucc, o, c, sizeof(uint32_t));
    s->npred = k2s_realloc_array(a, s->npred, o, c, sizeof(uint32_t));
    s->cap_s = k2s_realloc_array(a, s->cap_s, o, c, sizeof(uint32_t));
    s->cap_p = k2s_realloc_array(a, s->cap_p, o, c, sizeof(uint32_t));
    s->succ_stamp = k2s_realloc_array(a, s->succ_stamp, o, c, sizeof(uint32_t));
    s->cap_n = c;
  }
  BI(b)->idx = s->n;
  s->blocks[s->n++] = b;
}

/* b's successors again from its terminator, and b among its targets'
 * predecessors: in label order without repeats, and by ascending index (as
 * snapshot builds them). */
static void live_resync(st *s, k2s_block *b)
{
  k2s_arena *a = &s->snap;
  uint32_t i = BI(b)->idx;
  for (uint32_t k = 0; k < s->nsucc[i]; k++) {
    uint32_t j = s->succ[i][k], w = 0;
    for (uint32_t q = 0; q < s->npred[j]; q++)
      if (s->pred[j][q] != i)
        s->pred[j][w++] = s->pred[j][q];
    s->npred[j] = w;
  }
  s->nsucc[i] = 0;
  s->succ_gen++;
  k2s_instr *t = term(b);
  uint32_t nl = t ? n_labels(s, t) : 0;
  for (uint32_t k = 0; k < nl; k++) {
    k2s_block *to = block_of(s, *label_word(s, t, k));
    if (!to)
      continue; /* (only terminators the pass made or checked get here) */
    uint32_t j = BI(to)->idx;
    if (!add_succ(s, i, j))
      continue;
    if (s->npred[j] == s->cap_p[j]) {
      uint32_t c = s->cap_p[j] ? s->cap_p[j] * 2 : 4;
      s->pred[j] = k2s_realloc_array(a, s->pred[j], s->npred[j], c, sizeof(uint32_t));
      s->cap_p[j] = c;
    }
    uint32_t q = s->npred[j]++;
    for (; q > 0 && s->pred[j][q - 1] > i; q--)
      s->pred[j][q] = s->pred[j][q - 1];
    s->pred[j][q] = i;
  }
}

/* ---- loops ------------------------------------------------------------------ */

/* Is loop l nested in loop L (or L itself)? */
static bool loop_within(st *s, uint32_t l, uint32_t L)
{
  return l != NONE && s->loops[L].pre <= s->loops[l].pre && s->loops[l].post <= s->loops[L].post;
}

static bool in_loop(st *s, k2s_block *b, uint32_t L)
{
  return loop_within(s, BI(b)->loop, L);
}

static bool is_loop_header(st *s, k2s_block *b)
{
  uint32_t l = BI(b)->loop;
  return l != NONE && s->loops[l].header == b;
}

/* ---- funnel: reroute a set of edges through one new block ------------------ */

/*
 * Every edge p→t in E becomes p→J; J dispatches to the targets on a selector
 * phi (bool for two targets, uint for more) saying which edge was taken.
 * Phis of the targets move into J (OpUndef for J's other predecessors). A
 * source with several rerouted edges computes its selector itself (an
 * OpBranchConditional becomes OpSelect/OpLogicalNot and a branch to J), or
 * gets one new block per edge (an OpSwitch).
 */
static k2s_block *funnel(st *s, edge *E, uint32_t ne, uint32_t loop)
{
  k2s_module *m = s->m;
  k2s_arena *a = &s->snap; /* scratch until the next snapshot */
  /* Distinct targets T and sources Q, numbered through per-call stamps on
   * the blocks (everything here is linear in the number of edges). */
  uint32_t tstamp = ++s->walk_stamp;
  k2s_block **T = k2s_alloc(a, (ne + 1) * sizeof(*T));
  uint32_t nt = 0;
  for (uint32_t e = 0; e < ne; e++) {
    binfo *ti = BI(E[e].to);
    if (ti->tstamp != tstamp) {
      ti->tstamp = tstamp;
      ti->tslot = nt;
      T[nt++] = E[e].to;
    }
  }
  /* Sources with rerouted edges to several targets: an OpBranchConditional
   * computes the selector itself; an OpSwitch gets one block per edge. */
  uint32_t sstamp = ++s->walk_stamp;
  uint32_t *first_to = k2s_alloc(a, (ne + 1) * sizeof(uint32_t));
  bool *multi = k2s_alloc(a, (ne + 1) * sizeof(bool));
  uint32_t nsrc = 0;
  for (uint32_t e = 0; e < ne; e++) {
    binfo *fi = BI(E[e].from);
    if (fi->sstamp != sstamp) {
      fi->sstamp = sstamp;
      fi->sslot = nsrc;
      first_to[nsrc++] = BI(E[e].to)->tslot;
    } else if (first_to[fi->sslot] != BI(E[e].to)->tslot) {
      multi[fi->sslot] = true;
    }
  }
  bool *select_src = k2s_alloc(a, (ne + 1) * sizeof(bool));
  for (uint32_t e = 0; e < ne; e++) {
    k2s_block *p = E[e].from;
    if (BI(p)->sstamp != sstamp || !multi[BI(p)->sslot])
      continue;
    k2s_instr *t = term(p);
    if (t->opcode == SpvOpBranchConditional) {
      select_src[BI(p)->sslot] = true;
      continue;
    }
    k2s_block *sp = new_block(s, BI(p)->loop);
    uint32_t to = E[e].to->label->result;
    set_term(s, sp, SpvOpBranch, &to, 1);
    retarget(s, t, to, sp->label->result);
    phis_rename_pred(s, E[e].to, p->label->result, sp->label->result);
    E[e].from = sp;
  }
  /* The sources after splitting, each with its one target or its select. */
  uint32_t qstamp = ++s->walk_stamp;
  k2s_block **Q = k2s_alloc(a, (ne + 1) * sizeof(*Q));
  bool *Q_sel = k2s_alloc(a, (ne + 1) * sizeof(bool));
  uint32_t *Q_to = k2s_alloc(a, (ne + 1) * sizeof(uint32_t));
  uint32_t nq = 0;
  for (uint32_t e = 0; e < ne; e++) {
    binfo *fi = BI(E[e].from);
    if (fi->qstamp == qstamp)
      continue;
    fi->qstamp = qstamp;
    fi->qslot = nq;
    Q[nq] = E[e].from;
    Q_sel[nq] = fi->sstamp == sstamp && select_src[fi->sslot];
    Q_to[nq] = BI(E[e].to)->tslot;
    nq++;
  }
  k2s_block *J = new_block(s, loop);
  uint32_t jl = J->label->result;
  /* The selector. */
  uint32_t sel = 0;
  if (nt >= 2) {
    uint32_t ty = nt == 2 ? k2s_type_bool(m) : uint_type(s);
    k2s_instr *phi = new_phi(s, J, ty);
    sel = phi->result;
    for (uint32_t k = 0; k < nq; k++) {
      k2s_block *p = Q[k];
      uint32_t v;
      if (Q_sel[k]) {
        k2s_instr *t = term(p);
        uint32_t it = BI(block_of(s, t->ops[1]))->tslot, jf = BI(block_of(s, t->ops[2]))->tslot;
        if (nt == 2) {
          v = t->ops[0];
          if (it != 0)
            v = emit_at(s, k2s_block_end(p), SpvOpLogicalNot, ty, &v, 1)->result;
        } else {
          uint32_t ops[3] = {t->ops[0], k2s_const_int(m, ty, it), k2s_const_int(m, ty, jf)};
          v = emit_at(s, k2s_block_end(p), SpvOpSelect, ty, ops, 3)->result;
        }
      } else {
        v = nt == 2 ? k2s_const_bool(m, Q_to[k] == 0) : k2s_const_int(m, ty, Q_to[k]);
      }
      phi_add(s, phi, v, p->label->result);
    }
  }
  /* The targets' phis move into J: per target, the rerouted predecessors
   * are stamped; per phi, one pass reads their values and drops them. */
  uint32_t *vals = k2s_alloc(a, (nq + 1) * sizeof(uint32_t));
  for (uint32_t j = 0; j < nt; j++) {
    k2s_block *t = T[j];
    if (!first_phi(t))
      continue;
    uint32_t rstamp = ++s->walk_stamp;
    for (uint32_t e = 0; e < ne; e++)
      if (E[e].to == t)
        BI(E[e].from)->rstamp = rstamp;
    foreach_phi(phi, t)
    {
      memset(vals, 0, (nq + 1) * sizeof(uint32_t));
      uint32_t common = 0, w = 0;
      bool same = true, any = false;
      for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2) {
        k2s_block *p = block_of(s, phi->ops[k + 1]);
        if (p && BI(p)->rstamp == rstamp && BI(p)->qstamp == qstamp) {
          uint32_t v = phi->ops[k];
          if (!vals[BI(p)->qslot]) {
            vals[BI(p)->qslot] = v;
            if (any && v != common)
              same = false;
            common = v;
            any = true;
          }
          continue;
        }
        phi->ops[w++] = phi->ops[k];
        phi->ops[w++] = phi->ops[k + 1];
      }
      phi->n_ops = w;
      /* Every rerouted edge must have had an entry. */
      for (uint32_t e = 0; e < ne; e++)
        if (E[e].to == t && !vals[BI(E[e].from)->qslot])
          same = false;
      uint32_t nv = common;
      if (!same || !common) {
        k2s_instr *jp = new_phi(s, J, phi->type);
        nv = jp->result;
        for (uint32_t k = 0; k < nq; k++) {
          bool to_t = BI(Q[k])->rstamp == rstamp;
          uint32_t v = to_t && vals[k] ? vals[k] : k2s_undef(m, phi->type);
          phi_add(s, jp, v, Q[k]->label->result);
        }
      }
      phi_add(s, phi, nv, jl);
    }
  }
  /* Reroute the sources. */
  for (uint32_t k = 0; k < nq; k++)
    if (Q_sel[k])
      set_term(s, Q[k], SpvOpBranch, &jl, 1);
  for (uint32_t e = 0; e < ne; e++) {
    k2s_block *p = E[e].from;
    if (!Q_sel[BI(p)->qslot])
      retarget(s, term(p), E[e].to->label->result, jl);
  }
  /* The dispatch. */
  if (nt == 1) {
    uint32_t to = T[0]->label->result;
    set_term(s, J, SpvOpBranch, &to, 1);
  } else if (nt == 2) {
    uint32_t ops[3] = {sel, T[0]->label->result, T[1]->label->result};
    set_term(s, J, SpvOpBranchConditional, ops, 3);
  } else {
    uint32_t *ops = k2s_alloc(a, (2 * nt + 2) * sizeof(uint32_t));
    uint32_t n = 0;
    ops[n++] = sel;
    ops[n++] = T[nt - 1]->label->result;
    for (uint32_t j = 0; j + 1 < nt; j++) {
      ops[n++] = j;
      ops[n++] = T[j]->label->result;
    }
    set_term(s, J, SpvOpSwitch, ops, n);
  }
  return J;
}

/* ---- 1. cleanup ------------------------------------------------------------ */

typedef struct undef_ctx {
  st *s;
} undef_ctx;

static void undef_dead_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  st *s = ((undef_ctx *)ud)->s;
  k2s_instr *d = k2s_def(s->m, *id);
  if (!d || !d->block || d->opcode == SpvOpLabel || d->block->func != s->f)
    return;
  if (!reachable(s, d->block) && !BI(d->block)->keep)
    *id = k2s_undef(s->m, d->type);
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
    uint32_t nl = n_labels(s, t);
    if ((t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) && nl >= 1) {
      uint32_t first = *label_word(s, t, 0);
      bool all = true;
      for (uint32_t k = 1; k < nl; k++)
        if (*label_word(s, t, k) != first)
          all = false;
      if (all)
        set_term(s, b, SpvOpBranch, &first, 1);
    }
  }
  if (!snapshot(s))
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
      uint32_t w = 0;
      for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2) {
        k2s_block *p = block_of(s, phi->ops[k + 1]);
        bool keep = p && reachable(s, p) && has_succ(s, BI(p)->idx, i);
        for (uint32_t j = 0; keep && j < w; j += 2)
          if (phi->ops[j + 1] == phi->ops[k + 1])
            keep = false; /* llvm-spirv 15 repeats switch predecessors */
        if (keep) {
          phi->ops[w++] = phi->ops[k];
          phi->ops[w++] = phi->ops[k + 1];
        }
      }
      if (w != phi->n_ops) {
        phi->n_ops = w;
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
      delete_block(s, s->blocks[i]);
  return snapshot(s);
}

/* ---- 2. loop forest, irreducible cycles -------------------------------------- */

typedef struct scope {
  uint32_t *nodes, n, parent;
} scope;

static uint32_t add_loop(st *s, k2s_block *h, uint32_t parent)
{
  if (s->nloops == s->cap_loops) {
    uint32_t cap = s->cap_loops ? s->cap_loops * 2 : 8;
    s->loops = k2s_realloc_array(&s->a, s->loops, s->nloops, cap, sizeof(loop));
    s->cap_loops = cap;
  }
  loop *l = &s->loops[s->nloops];
  memset(l, 0, sizeof(*l));
  l->header = h;
  l->parent = parent;
  return s->nloops++;
}

/* One entry per cycle: reroute every edge into the entries through a new
 * dispatch header. */
static void fix_irreducible(st *s, uint32_t *entries, uint32_t ne)
{
  uint32_t n_edges = 0;
  for (uint32_t k = 0; k < ne; k++)
    n_edges += s->npred[entries[k]];
  edge *E = k2s_alloc(&s->a, (n_edges + 1) * sizeof(edge));
  n_edges = 0;
  /* Deterministic: entries in reverse post-order, their predecessors too. */
  for (uint32_t a = 0; a < ne; a++)
    for (uint32_t b = a + 1; b < ne; b++)
      if (s->order[entries[b]] < s->order[entries[a]]) {
        uint32_t t = entries[a];
        entries[a] = entries[b];
        entries[b] = t;
      }
  for (uint32_t k = 0; k < ne; k++)
    for (uint32_t j = 0; j < s->npred[entries[k]]; j++) {
      uint32_t p = s->pred[entries[k]][j];
      if (s->order[p] == NONE)
        continue;
      E[n_edges].from = s->blocks[p];
      E[n_edges].to = s->blocks[entries[k]];
      n_edges++;
    }
  funnel(s, E, n_edges, NONE);
}

/* Builds the loop forest (BI()->loop, s->loops) by Tarjan's algorithm per
 * nesting level: the function, then each loop's blocks but its header. False
 * when an irreducible cycle was rewritten instead: build again. Each level
 * searches every block nested in it (N nested loops cost N^2), so reducible
 * functions take forest_reducible; this one finds and rewrites irreducible
 * cycles, and its numbering of the loops is the one both give. */
static bool build_loops_by_levels(st *s)
{
  k2s_arena *a = &s->snap;
  uint32_t n = s->n;
  s->nloops = 0;
  for (uint32_t i = 0; i < n; i++)
    BI(s->blocks[i])->loop = NONE;
  uint32_t *in_scope = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *vis = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *idx = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *low = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint8_t *onst = k2s_alloc(a, n + 1);
  uint32_t *scc_of = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *tstack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *fstack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *fedge = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t scope_stamp = 0, scc_count = 0;
  scope *work = k2s_alloc(a, (n + 2) * sizeof(scope));
  uint32_t nwork = 0;
  work[nwork++] = (scope){s->rpo, s->nrpo, NONE};
  while (nwork) {
    scope sc = work[--nwork];
    scope_stamp++;
    for (uint32_t k = 0; k < sc.n; k++)
      in_scope[sc.nodes[k]] = scope_stamp;
    uint32_t counter = 0, tsp = 0;
    /* The scopes inside this one, by loop (from L0 on), filled once its
     * cycles are known: a pass over the scope's nodes keeps reverse
     * post-order inside each (a sort per loop made deep loop nests cubic). */
    uint32_t L0 = s->nloops;
    scope *inner = k2s_alloc(a, (sc.n + 1) * sizeof(scope));
    for (uint32_t r = 0; r < sc.n; r++) {
      uint32_t root = sc.nodes[r];
      if (vis[root] == scope_stamp)
        continue;
      uint32_t fsp = 0;
      vis[root] = scope_stamp;
      idx[root] = low[root] = counter++;
      tstack[tsp++] = root;
      onst[root] = 1;
      fstack[fsp] = root;
      fedge[fsp++] = 0;
      while (fsp) {
        uint32_t v = fstack[fsp - 1];
        if (fedge[fsp - 1] < s->nsucc[v]) {
          uint32_t w = s->succ[v][fedge[fsp - 1]++];
          if (in_scope[w] != scope_stamp)
            continue;
          if (vis[w] != scope_stamp) {
            vis[w] = scope_stamp;
            idx[w] = low[w] = counter++;
            tstack[tsp++] = w;
            onst[w] = 1;
            fstack[fsp] = w;
            fedge[fsp++] = 0;
          } else if (onst[w] && idx[w] < low[v]) {
            low[v] = idx[w];
          }
          continue;
        }
        fsp--;
        if (fsp && low[v] < low[fstack[fsp - 1]])
          low[fstack[fsp - 1]] = low[v];
        if (low[v] != idx[v])
          continue;
        /* v roots an SCC: the stack down to v. */
        uint32_t start = tsp;
        do
          start--;
        while (tstack[start] != v);
        uint32_t size = tsp - start;
        uint32_t id = ++scc_count;
        for (uint32_t k = start; k < tsp; k++) {
          onst[tstack[k]] = 0;
          scc_of[tstack[k]] = id;
        }
        bool cyclic = size > 1 || has_succ(s, v, v);
        if (cyclic) {
          uint32_t *nodes = k2s_alloc(a, size * sizeof(uint32_t));
          memcpy(nodes, &tstack[start], size * sizeof(uint32_t));
          uint32_t *entries = k2s_alloc(a, size * sizeof(uint32_t));
          uint32_t nent = 0;
          for (uint32_t k = 0; k < size; k++) {
            uint32_t x = nodes[k];
            bool entry = x == 0;
            for (uint32_t j = 0; j < s->npred[x] && !entry; j++) {
              uint32_t p = s->pred[x][j];
              if (s->order[p] != NONE && scc_of[p] != id)
                entry = true;
            }
            if (entry)
              entries[nent++] = x;
          }
          if (nent > 1) {
            fix_irreducible(s, entries, nent);
            return false;
          }
          uint32_t h = nent ? entries[0] : nodes[0];
          uint32_t L = add_loop(s, s->blocks[h], sc.parent);
          for (uint32_t k = 0; k < size; k++)
            BI(s->blocks[nodes[k]])->loop = L;
          inner[L - L0] = (scope){k2s_alloc(a, size * sizeof(uint32_t)), 0, L};
        }
        tsp = start;
      }
    }
    for (uint32_t k = 0; k < sc.n; k++) {
      uint32_t x = sc.nodes[k], l = BI(s->blocks[x])->loop;
      if (l != sc.parent && s->loops[l].header != s->blocks[x])
        inner[l - L0].nodes[inner[l - L0].n++] = x;
    }
    for (uint32_t L = L0; L < s->nloops; L++)
      if (inner[L - L0].n)
        work[nwork++] = inner[L - L0];
  }
  return true;
}

/* ---- the loop forest of a reducible function in near-linear time ------------- */

/* By block index; TOP (= s->n) stands for the function outside all loops. */
typedef struct forest {
  uint32_t top;
  uint32_t *loop_of;         /* header of the innermost loop holding the block, NONE */
  uint32_t *parent;          /* by header: header of the enclosing loop, NONE */
  uint32_t *lpre, *lpost;    /* by header: numbers in the forest, for nesting tests */
  uint32_t **ev, *nev;       /* by header: exits as (from, to) pairs, search order; 2 × count */
  uint32_t **scope, *nscope; /* by header and TOP: own blocks and inner headers, in RPO */
  uint32_t *number;          /* by header: the loop's index in s->loops */
  uint32_t *vis, vstamp;     /* search marks */
  uint32_t *stack;           /* (block, next edge) pairs */
} forest;

static uint32_t uf_find(uint32_t *uf, uint32_t x)
{
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

/* Loop l (a header) inside loop P (a header or TOP), or l == P. */
static bool forest_within(const forest *F, uint32_t l, uint32_t P)
{
  if (P == F->top)
    return true;
  return l != NONE && F->lpre[P] <= F->lpre[l] && F->lpost[l] <= F->lpost[P];
}

/* The k-th edge a search of loop P follows from v (false past the last):
 * v's own edges, or, for the header of a loop inside P, that loop's exits
 * in the order its own search meets them (nothing inside a loop but its
 * header is entered from outside it, so the search of P passes through an
 * inner loop exactly as the inner loop's own search does). */
static bool forest_edge(st *s, forest *F, uint32_t P, uint32_t v, uint32_t k, uint32_t *from,
                        uint32_t *to)
{
  if (F->loop_of[v] == v && v != P) {
    if (2 * k >= F->nev[v])
      return false;
    *from = F->ev[v][2 * k];
    *to = F->ev[v][2 * k + 1];
    return true;
  }
  if (k >= s->nsucc[v])
    return false;
  *from = v;
  *to = s->succ[v][k];
  return true;
}

/* Searches loop P with its inner loops folded into their headers, from
 * `roots` in order. With `exits`, P's exits go to F->ev[P]; else the edges
 * to P's header are left out and each inner loop is numbered (the next
 * index of s->loops) when its search ends. False when the graph is not what
 * a reducible function's forest promises (then Tarjan per level decides). */
static bool forest_search(st *s, forest *F, uint32_t P, const uint32_t *roots, uint32_t nroots,
                          bool exits)
{
  uint32_t stamp = ++F->vstamp, *stack = F->stack, cap_ev = 0;
  uint32_t Pl = P == F->top ? NONE : P;
  for (uint32_t r = 0; r < nroots; r++) {
    if (F->vis[roots[r]] == stamp)
      continue;
    uint32_t sp = 0;
    F->vis[roots[r]] = stamp;
    stack[sp++] = roots[r];
    stack[sp++] = 0;
    while (sp) {
      uint32_t v = stack[sp - 2], from, w;
      if (!forest_edge(s, F, P, v, stack[sp - 1]++, &from, &w)) {
        sp -= 2;
        if (!exits && F->loop_of[v] == v && v != P) {
          F->number[v] = add_loop(s, s->blocks[v], Pl == NONE ? NONE : F->number[Pl]);
        }
        continue;
      }
      bool inside =
          F->loop_of[w] == Pl || (F->loop_of[w] != NONE && forest_within(F, F->loop_of[w], P));
      if (!inside || (!exits && w == P)) {
        if (!inside && exits) {
          push_list(&s->snap, &F->ev[P], &F->nev[P], &cap_ev, from);
          push_list(&s->snap, &F->ev[P], &F->nev[P], &cap_ev, w);
        }
        continue;
      }
      /* A block of P's own, or the header of a loop right inside P. */
      if (F->loop_of[w] != Pl && !(F->loop_of[w] == w && F->parent[w] == Pl))
        return false;
      if (F->vis[w] == stamp)
        continue;
      F->vis[w] = stamp;
      stack[sp++] = w;
      stack[sp++] = 0;
    }
  }
  return true;
}

/* The loop forest of a reducible function (every retreating edge goes to a
 * block that dominates its source), numbered as build_loops_by_levels numbers
 * it: natural loops, innermost first, with inner loops merged into their
 * headers by union-find (Havlak; Ramalingam); each loop's exits listed once
 * from its own blocks and its inner loops' exits; then each level searched
 * with its inner loops folded. Costs the function's edges plus the exits of
 * each loop, not the blocks of each loop. False when the function is
 * irreducible or the forest does not fit (nothing in s changed then). */
static bool forest_reducible(st *s)
{
  k2s_arena *a = &s->snap;
  uint32_t n = s->n;
  for (uint32_t q = 0; q < s->nrpo; q++) {
    uint32_t u = s->rpo[q];
    for (uint32_t k = 0; k < s->nsucc[u]; k++) {
      uint32_t v = s->succ[u][k];
      if (s->order[v] <= s->order[u] && !dominates(s, v, u))
        return false;
    }
  }
  forest F = {.top = n};
  F.loop_of = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.parent = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.lpre = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.lpost = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.ev = k2s_alloc(a, (n + 1) * sizeof(*F.ev));
  F.nev = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.scope = k2s_alloc(a, (n + 1) * sizeof(*F.scope));
  F.nscope = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.number = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.vis = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.stack = k2s_alloc(a, (2 * n + 2) * sizeof(uint32_t));
  uint32_t *uf = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *work = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i <= n; i++) {
    F.loop_of[i] = F.parent[i] = NONE;
    uf[i] = i;
  }
  /* Natural loops, innermost (last in reverse post-order) first. */
  for (uint32_t q = s->nrpo; q-- > 0;) {
    uint32_t h = s->rpo[q], nw = 0, stamp = ++F.vstamp;
    for (uint32_t k = 0; k < s->npred[h]; k++) {
      uint32_t p = s->pred[h][k];
      if (s->order[p] == NONE || !dominates(s, h, p))
        continue;
      F.loop_of[h] = h;
      uint32_t y = uf_find(uf, p);
      if (y != h && F.vis[y] != stamp) {
        F.vis[y] = stamp;
        work[nw++] = y;
      }
    }
    while (nw) {
      uint32_t y = work[--nw];
      if (F.loop_of[y] == NONE)
        F.loop_of[y] = h;
      else
        F.parent[y] = h; /* a loop's header, that loop's first enclosing loop */
      uf[y] = h;
      for (uint32_t k = 0; k < s->npred[y]; k++) {
        uint32_t p = s->pred[y][k];
        if (s->order[p] == NONE)
          continue;
        uint32_t z = uf_find(uf, p);
        if (z == h || F.vis[z] == stamp)
          continue;
        if (!dominates(s, h, z))
          return false; /* a second entry: irreducible after all */
        F.vis[z] = stamp;
        work[nw++] = z;
      }
    }
  }
  /* Forest numbers (a loop's parent comes before it in reverse post-order),
   * and each level's blocks in reverse post-order. */
  {
    uint32_t *first = work, *next = uf, clock = 0, sp = 0;
    for (uint32_t i = 0; i <= n; i++)
      first[i] = NONE;
    for (uint32_t q = s->nrpo; q-- > 0;) {
      uint32_t h = s->rpo[q];
      if (F.loop_of[h] != h)
        continue;
      uint32_t p = F.parent[h] == NONE ? n : F.parent[h];
      next[h] = first[p];
      first[p] = h;
    }
    uint32_t *stack = F.stack;
    stack[sp++] = n;
    while (sp) {
      uint32_t v = stack[sp - 1], c = first[v];
      if (c != NONE) {
        first[v] = next[c];
        F.lpre[c] = clock++;
        stack[sp++] = c;
      } else {
        if (v != n)
          F.lpost[v] = clock++;
        sp--;
      }
    }
  }
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t q = 0; q < s->nrpo; q++) {
      uint32_t x = s->rpo[q], l = F.loop_of[x];
      uint32_t key = l == x ? (F.parent[x] == NONE ? n : F.parent[x]) : l == NONE ? n : l;
      if (pass == 0) {
        F.nscope[key]++;
      } else {
        if (!F.scope[key]) {
          F.scope[key] = k2s_alloc(a, F.nscope[key] * sizeof(uint32_t));
          F.nscope[key] = 0;
        }
        F.scope[key][F.nscope[key]++] = x;
      }
    }
  /* Exits, inner loops first. */
  for (uint32_t q = s->nrpo; q-- > 0;) {
    uint32_t h = s->rpo[q];
    if (F.loop_of[h] == h && !forest_search(s, &F, h, &h, 1, true))
      return false;
  }
  /* Number the loops level by level, as build_loops_by_levels does: a level's
   * loops in the order their searches end, then the levels inside the last
   * loop first. */
  s->nloops = 0;
  uint32_t *levels = work, nl = 0;
  levels[nl++] = n;
  while (nl) {
    uint32_t P = levels[--nl], L0 = s->nloops;
    if (!forest_search(s, &F, P, F.scope[P], F.nscope[P], false)) {
      s->nloops = 0;
      return false;
    }
    for (uint32_t L = L0; L < s->nloops; L++) {
      uint32_t h = BI(s->loops[L].header)->idx;
      if (F.nscope[h])
        levels[nl++] = h;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = F.loop_of[i];
    BI(s->blocks[i])->loop = l == NONE ? NONE : F.number[l];
  }
  return true;
}

/* Builds the loop forest (BI()->loop, s->loops). False when an irreducible
 * cycle was rewritten instead: build again. */
static bool build_loops(st *s)
{
  return forest_reducible(s) || build_loops_by_levels(s);
}

/* Pre/post numbers of the loop forest (parents come before their children in
 * s->loops: build_loops adds a loop before the scopes inside it). */
static void number_loops(st *s)
{
  uint32_t n = s->nloops, clock = 0, sp = 0;
  uint32_t *first = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *stack = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  for (uint32_t L = 0; L <= n; L++)
    first[L] = NONE; /* first[n]: the roots */
  for (uint32_t L = n; L-- > 0;) {
    uint32_t p = s->loops[L].parent == NONE ? n : s->loops[L].parent;
    next[L] = first[p];
    first[p] = L;
  }
  for (uint32_t r = first[n]; r != NONE; r = next[r]) {
    s->loops[r].pre = clock++;
    stack[sp++] = r;
    first[n] = next[r];
    while (sp) {
      uint32_t v = stack[sp - 1], c = first[v];
      if (c != NONE) {
        first[v] = next[c];
        s->loops[c].pre = clock++;
        stack[sp++] = c;
      } else {
        s->loops[v].post = clock++;
        sp--;
      }
    }
  }
}

/* ---- 3. loop normal form ---------------------------------------------------- */

/* Moves b's terminator into a new block so that b can hold an OpLoopMerge
 * (which must precede an OpBranch or OpBranchConditional). */
static void split_after(st *s, k2s_block *b, uint32_t loop)
{
  k2s_block *nb = new_block(s, loop);
  k2s_instr *t = term(b);
  uint32_t nl = n_labels(s, t);
  k2s_list_remove(&b->body, t);
  t->block = nb;
  k2s_list_append(&nb->body, t);
  if (s->live)
    live_resync(s, nb);
  for (uint32_t k = 0; k < nl; k++) {
    k2s_block *to = block_of(s, *label_word(s, t, k));
    bool dup = false;
    for (uint32_t j = 0; j < k; j++)
      if (*label_word(s, t, j) == *label_word(s, t, k))
        dup = true;
    if (to && !dup)
      phis_rename_pred(s, to, b->label->result, nb->label->result);
  }
  uint32_t l = nb->label->result;
  set_term(s, b, SpvOpBranch, &l, 1);
}

/* Only phis and a return or OpUnreachable: cheap to give each exit its own. */
static bool pure_exit(k2s_block *b)
{
  k2s_foreach_instr(i, &b->body) {
    if (i->opcode == SpvOpPhi || i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
      continue;
    if (i->next)
      return false;
    if (i->opcode == SpvOpReturn || i->opcode == SpvOpUnreachable)
      return true;
    return i->opcode == SpvOpReturnValue && i->n_ops == 1;
  }
  return false;
}

/* The exit p→x (x a pure exit) becomes a return of p's own. */
static void own_exit(st *s, k2s_block *p, k2s_block *x, uint32_t L)
{
  k2s_instr *xt = term(x);
  uint32_t ops[1] = {0};
  uint32_t nops = 0;
  if (xt->opcode == SpvOpReturnValue) {
    ops[0] = xt->ops[0];
    k2s_instr *d = k2s_def(s->m, ops[0]);
    if (d && d->opcode == SpvOpPhi && d->block == x)
      ops[0] = phi_value(d, p->label->result);
    nops = 1;
  }
  k2s_instr *pt = term(p);
  if (pt->opcode == SpvOpBranch) {
    set_term(s, p, xt->opcode, ops, nops);
  } else {
    k2s_block *r = new_block(s, L);
    set_term(s, r, xt->opcode, ops, nops);
    retarget(s, pt, x->label->result, r->label->result);
  }
  foreach_phi(phi, x) phi_remove(s, phi, p->label->result);
}

static bool header_ok(st *s, uint32_t L)
{
  k2s_instr *t = term(s->loops[L].header);
  uint32_t ml = s->loops[L].merge->label->result;
  if (t->opcode == SpvOpBranch)
    return true;
  return t->opcode == SpvOpBranchConditional && (t->ops[1] == ml || t->ops[2] == ml);
}

static bool reusable_latch(st *s, k2s_block *l, uint32_t L)
{
  k2s_instr *t = term(l);
  uint32_t hl = s->loops[L].header->label->result;
  if (t->opcode == SpvOpBranch)
    return t->ops[0] == hl;
  if (t->opcode != SpvOpBranchConditional)
    return false;
  uint32_t other = t->ops[1] == hl ? t->ops[2] : t->ops[2] == hl ? t->ops[1] : 0;
  k2s_block *ob = other ? block_of(s, other) : NULL;
  return ob && !in_loop(s, ob, L);
}

static void push_u32(k2s_arena *a, uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
  if (*n == *cap) {
    uint32_t c = *cap ? *cap * 2 : 16;
    *v = k2s_realloc_array(a, *v, *n, c, sizeof(uint32_t));
    *cap = c;
  }
  (*v)[(*n)++] = x;
}

/* The successors a search of loop L follows from block v: an inner loop,
 * normalised before L (innermost first), leaves only to its merge, so its
 * header stands for the whole loop and one edge to the merge when it has
 * exits; a block of L follows its own edges. NONE past the last. */
static uint32_t loop_succ(st *s, uint32_t v, uint32_t L, uint32_t k)
{
  k2s_block *b = s->blocks[v];
  uint32_t l = BI(b)->loop;
  if (l != L && l != NONE && s->loops[l].header == b && s->loops[l].merge) {
    if (k || !s->loops[l].has_exits)
      return NONE;
    return BI(s->loops[l].merge)->idx;
  }
  return k < s->nsucc[v] ? s->succ[v][k] : NONE;
}

/* L's own blocks reachable from its header (all of them: only the header
 * enters a loop) and the headers of the loops right inside it, stamped
 * `seen`, in s->lrpo/nlrpo in the order a snapshot's reverse post-order
 * gives them: the whole function's depth-first search meets them as a search
 * from the header that stays in the loop would, since whatever leaves the
 * loop comes back only through the header, and an inner loop's blocks
 * between its header and its merge add nothing to the order of the others.
 * Costs L's own blocks, not its inner loops' (a nest of N loops cost N^2). */
static uint32_t loop_rpo(st *s, uint32_t L)
{
  k2s_arena *a = &s->snap;
  uint32_t stamp = ++s->walk_stamp;
  uint32_t *stack = NULL, sp = 0, cap = 0, np = 0;
  uint32_t h = BI(s->loops[L].header)->idx;
  s->nlrpo = 0;
  BI(s->blocks[h])->seen = stamp;
  push_u32(a, &stack, &sp, &cap, h);
  push_u32(a, &stack, &sp, &cap, 0);
  while (sp) {
    uint32_t v = stack[sp - 2], k = stack[sp - 1];
    uint32_t wi = loop_succ(s, v, L, k);
    if (wi != NONE) {
      stack[sp - 1]++;
      k2s_block *w = s->blocks[wi];
      if (BI(w)->seen != stamp && in_loop(s, w, L)) {
        BI(w)->seen = stamp;
        push_u32(a, &stack, &sp, &cap, wi);
        push_u32(a, &stack, &sp, &cap, 0);
      }
    } else {
      push_u32(a, &s->lrpo, &np, &s->cap_lrpo, v);
      sp -= 2;
    }
  }
  for (uint32_t i = 0; i < np / 2; i++) {
    uint32_t t = s->lrpo[i];
    s->lrpo[i] = s->lrpo[np - 1 - i];
    s->lrpo[np - 1 - i] = t;
  }
  s->nlrpo = np;
  return stamp;
}

static int cmp_u32(const void *pa, const void *pb)
{
  uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
  return x < y ? -1 : x > y;
}

/* Normalises loop L in live mode (see st): reads only the loop's blocks, the
 * blocks its edges leave to and their predecessors; a full snapshot only
 * when the choice of the block that stays outside, or a merge that is the
 * header of the next loop, needs the function's order or dominators. */
static bool normalize_loop(st *s, uint32_t L)
{
  k2s_block *h = s->loops[L].header;
  uint32_t parent = s->loops[L].parent;
  if (term(h)->opcode == SpvOpSwitch)
    split_after(s, h, L);
  /* The continue target. */
  uint32_t in = loop_rpo(s, L);
  uint32_t hi = BI(h)->idx, nl = 0, latch = NONE;
  for (uint32_t k = 0; k < s->npred[hi]; k++) {
    k2s_block *p = s->blocks[s->pred[hi][k]];
    if (BI(p)->seen == in) {
      nl++;
      latch = s->pred[hi][k];
    }
  }
  k2s_block *C;
  if (nl == 1 && latch == hi) {
    C = h; /* a single-block loop is its own continue target */
  } else if (nl == 1 && BI(s->blocks[latch])->loop == L && !BI(s->blocks[latch])->claimed &&
             reusable_latch(s, s->blocks[latch], L)) {
    C = s->blocks[latch];
  } else {
    edge *E = k2s_alloc(&s->a, (nl + 1) * sizeof(edge));
    uint32_t ne = 0;
    for (uint32_t k = 0; k < s->npred[hi]; k++) {
      k2s_block *p = s->blocks[s->pred[hi][k]];
      if (BI(p)->seen == in)
        E[ne++] = (edge){p, h};
    }
    C = funnel(s, E, ne, L);
    in = loop_rpo(s, L);
  }
  BI(C)->claimed = true;
  s->loops[L].cont = C;
  /* Exits to a shared return (or OpUnreachable) get returns of their own:
   * blocks by index, as a snapshot lists them; each one's successors as they
   * were before its own exits were made. */
  {
    uint32_t nb = s->nlrpo;
    uint32_t *byidx = k2s_alloc(&s->snap, (nb + 1) * sizeof(uint32_t));
    memcpy(byidx, s->lrpo, nb * sizeof(uint32_t));
    qsort(byidx, nb, sizeof(uint32_t), cmp_u32);
    uint32_t *succ = NULL, cap = 0;
    for (uint32_t q = 0; q < nb; q++) {
      uint32_t i = byidx[q];
      k2s_block *b = s->blocks[i];
      if (b == C || b == h)
        continue;
      uint32_t ns = 0;
      for (uint32_t k = 0; k < s->nsucc[i]; k++)
        push_u32(&s->snap, &succ, &ns, &cap, s->succ[i][k]);
      for (uint32_t k = 0; k < ns; k++) {
        k2s_block *x = s->blocks[succ[k]];
        if (!in_loop(s, x, L) && pure_exit(x)) {
          bool shared = false;
          for (uint32_t j = 0; j < s->npred[BI(x)->idx]; j++)
            if (!in_loop(s, s->blocks[s->pred[BI(x)->idx][j]], L))
              shared = true;
          if (shared)
            own_exit(s, b, x, L);
        }
      }
    }
  }
  in = loop_rpo(s, L);
  /* Blocks that only the loop reaches and that never come back (returns)
   * belong to the loop body when the loop has several exit targets: then
   * those need no exit dispatch. One target stays out to be the merge (the
   * header's exit if it has one, a while loop's; else the first in reverse
   * post-order). */
  k2s_block *keep_out = NULL;
  uint32_t n_targets = 0, *targets = NULL, cap_t = 0;
  uint32_t tstamp = ++s->walk_stamp;
  for (uint32_t q = 0; q < s->nlrpo; q++) {
    uint32_t i = s->lrpo[q];
    for (uint32_t k = 0; k < s->nsucc[i]; k++) {
      k2s_block *x = s->blocks[s->succ[i][k]];
      if (in_loop(s, x, L) || BI(x)->rstamp == tstamp)
        continue;
      BI(x)->rstamp = tstamp;
      push_u32(&s->a, &targets, &n_targets, &cap_t, s->succ[i][k]);
      if (s->blocks[i] == h)
        keep_out = x;
    }
  }
  if (!keep_out && n_targets == 1) {
    keep_out = s->blocks[targets[0]];
  } else if (!keep_out && n_targets) {
    k2s_block **tb = k2s_alloc(&s->a, n_targets * sizeof(*tb));
    for (uint32_t k = 0; k < n_targets; k++)
      tb[k] = s->blocks[targets[k]];
    if (!snapshot(s))
      return false;
    for (uint32_t k = 0; k < n_targets; k++)
      if (!keep_out || s->order[BI(tb[k])->idx] < s->order[BI(keep_out)->idx])
        keep_out = tb[k];
    for (uint32_t k = 0; k < n_targets; k++)
      targets[k] = BI(tb[k])->idx;
  }
  if (n_targets >= 2) {
    /* Grows to the one fixed point, whatever the order: a block joins once all
     * its predecessors and successors are in the loop, which only grows. */
    uint32_t *work = NULL, nw = 0, cap_w = 0;
    for (uint32_t k = n_targets; k-- > 0;)
      push_u32(&s->a, &work, &nw, &cap_w, targets[k]);
    while (nw) {
      uint32_t i = work[--nw];
      k2s_block *x = s->blocks[i];
      if (x == keep_out || in_loop(s, x, L) || BI(x)->claimed || is_loop_header(s, x) ||
          !s->npred[i])
        continue;
      bool ok = true;
      for (uint32_t j = 0; j < s->npred[i] && ok; j++) {
        k2s_block *p = s->blocks[s->pred[i][j]];
        ok = in_loop(s, p, L) && p != C;
      }
      for (uint32_t j = 0; j < s->nsucc[i] && ok; j++)
        ok = in_loop(s, s->blocks[s->succ[i][j]], L);
      if (!ok)
        continue;
      BI(x)->loop = L;
      for (uint32_t j = 0; j < s->nsucc[i]; j++)
        push_u32(&s->a, &work, &nw, &cap_w, s->succ[i][j]);
    }
    in = loop_rpo(s, L);
  }
  (void)in;
  /* The exits. */
  uint32_t cap = 8, ne = 0;
  edge *E = k2s_alloc(&s->a, cap * sizeof(edge));
  for (uint32_t k = 0; k < s->nlrpo; k++) {
    uint32_t i = s->lrpo[k];
    for (uint32_t j = 0; j < s->nsucc[i]; j++) {
      k2s_block *x = s->blocks[s->succ[i][j]];
      if (in_loop(s, x, L))
        continue;
      if (ne == cap) {
        E = k2s_realloc_array(&s->a, E, ne, cap * 2, sizeof(edge));
        cap *= 2;
      }
      E[ne++] = (edge){s->blocks[i], x};
    }
  }
  k2s_block *M = NULL;
  if (!ne) {
    M = new_block(s, parent);
    set_term(s, M, SpvOpUnreachable, NULL, 0);
    BI(M)->keep = true;
  } else {
    bool single = true;
    for (uint32_t e = 1; e < ne; e++)
      if (E[e].to != E[0].to)
        single = false;
    k2s_block *x = E[0].to;
    bool header = is_loop_header(s, x);
    if (!single || BI(x)->claimed) {
      single = false;
    } else if (header) {
      /* The header of a loop right after this one (a sibling: only it and
       * this loop enter it) can be the merge. */
      single = s->loops[BI(x)->loop].parent == parent;
      if (single) {
        if (!snapshot(s))
          return false;
        single = dominates(s, BI(h)->idx, BI(x)->idx);
      }
    } else {
      /* The merge needs the loop header to dominate it. */
      uint32_t xi = BI(x)->idx;
      for (uint32_t j = 0; j < s->npred[xi]; j++)
        if (!in_loop(s, s->blocks[s->pred[xi][j]], L))
          single = false;
    }
    if (single) {
      M = x;
      if (!header)
        BI(M)->loop = parent;
    } else {
      M = funnel(s, E, ne, parent);
    }
  }
  BI(M)->claimed = true;
  BI(M)->loop_merge_of = L;
  s->loops[L].merge = M;
  s->loops[L].has_exits = ne > 0;
  if (!header_ok(s, L))
    split_after(s, h, L);
  return true;
}

/* ---- 4. selection merges in acyclic regions --------------------------------- */

/* Is b a node of region R (loop R's body without its continue target and
 * inner loops, whose headers stand for them; NONE: outside all loops)? */
static bool in_region(st *s, k2s_block *b, uint32_t R)
{
  if (R != NONE && b == s->loops[R].header)
    return true;
  if (R != NONE && b == s->loops[R].cont)
    return false;
  uint32_t l = BI(b)->loop;
  if (l != NONE && s->loops[l].header == b)
    l = s->loops[l].parent;
  return l == R;
}

/* Inside a loop nested in R (so a walk of R may pass through it). */
static bool below_region(st *s, k2s_block *b, uint32_t R)
{
  uint32_t l = BI(b)->loop;
  if (l == NONE || l == R)
    return false;
  return R == NONE || loop_within(s, l, R);
}

/* Successors of node b in region R: an inner loop stands for its merge;
 * break and continue edges (to R's merge and continue target) are left out. */
static uint32_t regsucc(st *s, k2s_block *b, uint32_t R, uint32_t *out)
{
  uint32_t l = BI(b)->loop;
  if (l != NONE && s->loops[l].header == b && l != R) {
    k2s_block *mg = s->loops[l].merge;
    if (!reachable(s, mg))
      return 0;
    out[0] = BI(mg)->idx;
    return 1;
  }
  uint32_t i = BI(b)->idx, n = 0;
  for (uint32_t k = 0; k < s->nsucc[i]; k++) {
    k2s_block *x = s->blocks[s->succ[i][k]];
    if (R != NONE && (x == s->loops[R].cont || x == s->loops[R].merge || x == s->loops[R].header))
      continue;
    out[n++] = s->succ[i][k];
  }
  return n;
}

static uint32_t regpred_count(st *s, uint32_t c, uint32_t R)
{
  k2s_block *cb = s->blocks[c];
  uint32_t n = BI(cb)->loop_merge_of != NONE && reachable(s, cb) ? 1 : 0;
  for (uint32_t k = 0; k < s->npred[c]; k++) {
    k2s_block *p = s->blocks[s->pred[c][k]];
    if (!reachable(s, p) || !in_region(s, p, R))
      continue;
    if (is_loop_header(s, p) && BI(p)->loop != R)
      continue; /* stands for its loop: counted above when c is the merge */
    n++;
  }
  return n;
}

static bool is_sel_header(st *s, k2s_block *b)
{
  if (!reachable(s, b) || is_loop_header(s, b))
    return false;
  uint32_t R = BI(b)->loop;
  if (R != NONE && s->loops[R].cont == b)
    return false;
  k2s_instr *t = term(b);
  if (t->opcode == SpvOpSwitch)
    return true;
  if (t->opcode != SpvOpBranchConditional)
    return false;
  return regsucc(s, b, R, s->tmp) >= 2;
}

/* Switch cases may not target a loop's merge or continue target directly:
 * give those edges a block of their own (a case that breaks or continues). */
static void split_switch_escapes(st *s)
{
  for (uint32_t i = 0; i < s->n; i++) {
    k2s_block *b = s->blocks[i];
    k2s_instr *t = term(b);
    uint32_t R = BI(b)->loop;
    if (!t || t->opcode != SpvOpSwitch || R == NONE || !reachable(s, b))
      continue;
    k2s_block *esc[2] = {s->loops[R].cont, s->loops[R].merge};
    for (int e = 0; e < 2; e++) {
      uint32_t el = esc[e]->label->result;
      bool hit = false;
      for (uint32_t k = 0; k < n_labels(s, t); k++)
        if (*label_word(s, t, k) == el)
          hit = true;
      if (!hit)
        continue;
      k2s_block *sp = new_block(s, R);
      set_term(s, sp, SpvOpBranch, &el, 1);
      retarget(s, t, el, sp->label->result);
      phis_rename_pred(s, esc[e], b->label->result, sp->label->result);
    }
  }
}

typedef struct keyed_edge {
  uint32_t to, from; /* reverse post-order positions */
  edge e;
} keyed_edge;

static int cmp_keyed_edge(const void *pa, const void *pb)
{
  const keyed_edge *x = pa, *y = pb;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return 0;
}

/* Sorts edges by their targets', then their sources' reverse post-order:
 * the order of dispatch targets does not depend on how blocks are stored. */
static void sort_edges(st *s, edge *E, uint32_t ne)
{
  keyed_edge *k = k2s_alloc(&s->snap, (ne + 1) * sizeof(*k));
  for (uint32_t i = 0; i < ne; i++)
    k[i] = (keyed_edge){s->order[BI(E[i].to)->idx], s->order[BI(E[i].from)->idx], E[i]};
  qsort(k, ne, sizeof(*k), cmp_keyed_edge);
  for (uint32_t i = 0; i < ne; i++)
    E[i] = k[i].e;
}

typedef struct walk {
  uint32_t a, R, stamp;
  uint32_t *stack, *S, ns, *Y, ny;
} walk;

/* Adds the region nodes that root dominates to S, stopping at the merge
 * children of A (region nodes right below A in the region's dominator tree
 * with two or more region predecessors), which go to Y. */
static void walk_construct(st *s, walk *w, uint32_t root)
{
  uint32_t sp = 0;
  w->stack[sp++] = root;
  w->stack[sp++] = root;
  w->S[w->ns++] = root;
  s->mark[root] = w->stamp;
  while (sp) {
    uint32_t nra = w->stack[--sp];
    uint32_t x = w->stack[--sp];
    for (uint32_t k = 0; k < s->nkids[x]; k++) {
      uint32_t c = s->kids[x][k];
      k2s_block *cb = s->blocks[c];
      /* An enclosing selection's merge (the one way on, chosen deep inside
       * it) ends this construct too. */
      if (BI(cb)->sel_merge)
        continue;
      if (in_region(s, cb, w->R)) {
        if (nra == w->a && regpred_count(s, c, w->R) >= 2) {
          w->Y[w->ny++] = c;
          continue;
        }
        w->S[w->ns++] = c;
        s->mark[c] = w->stamp;
        w->stack[sp++] = c;
        w->stack[sp++] = c;
      } else if (below_region(s, cb, w->R)) {
        w->stack[sp++] = c;
        w->stack[sp++] = nra;
      }
    }
  }
}

/* Switch fallthrough: a case target y that only the switch and one other
 * case construct (headed by case target u) branch to stays a case construct
 * (SPIR-V allows one fallthrough per case, ordered in the OpSwitch) instead
 * of becoming a merge child. */
/* Whether every region successor of the nodes of S that u dominates is y or
 * dominated by u: a walk down u's dominator subtree through S and the inner
 * loops walk_construct passed through (every such node of S is reached that
 * way), not a scan of S per candidate (one switch of N cases cost N^2). */
static bool leaves_only_into(st *s, walk *w, uint32_t u, uint32_t y)
{
  uint32_t sp = 0;
  w->stack[sp++] = u;
  while (sp) {
    uint32_t x = w->stack[--sp];
    if (s->mark[x] == w->stamp) {
      uint32_t nr = regsucc(s, s->blocks[x], w->R, s->tmp);
      for (uint32_t i = 0; i < nr; i++)
        if (s->tmp[i] != y && !dominates(s, u, s->tmp[i]))
          return false;
    }
    for (uint32_t k = 0; k < s->nkids[x]; k++) {
      uint32_t c = s->kids[x][k];
      if (s->mark[c] == w->stamp || below_region(s, s->blocks[c], w->R))
        w->stack[sp++] = c;
    }
  }
  return true;
}

static void find_fallthroughs(st *s, walk *w, k2s_block *A)
{
  uint32_t a = w->a;
  uint32_t astamp = ++s->walk_stamp;
  for (uint32_t k = 0; k < s->nsucc[a]; k++)
    BI(s->blocks[s->succ[a][k]])->astamp = astamp;
  /* Candidates in reverse post-order, so chains u → y → y2 are found. */
  for (uint32_t x = 1; x < w->ny; x++)
    for (uint32_t y = x; y > 0 && s->order[w->Y[y]] < s->order[w->Y[y - 1]]; y--) {
      uint32_t t = w->Y[y];
      w->Y[y] = w->Y[y - 1];
      w->Y[y - 1] = t;
    }
  uint32_t keep = 0;
  for (uint32_t k = 0; k < w->ny; k++) {
    uint32_t y = w->Y[k];
    /* A lone merge child is where the cases meet: the switch's merge. */
    if (w->ny == 1) {
      w->Y[keep++] = y;
      continue;
    }
    k2s_block *yb = s->blocks[y];
    uint32_t q = NONE, u = NONE;
    bool ok = BI(yb)->astamp == astamp && regpred_count(s, y, w->R) == 2 &&
              BI(yb)->loop_merge_of == NONE && !BI(yb)->claimed;
    for (uint32_t j = 0; ok && j < s->npred[y]; j++) {
      uint32_t p = s->pred[y][j];
      if (p != a && reachable(s, s->blocks[p]) && in_region(s, s->blocks[p], w->R))
        q = p;
    }
    if (ok && q != NONE) {
      for (u = q; u != NONE && s->idom[u] != a; u = s->idom[u])
        ;
    }
    ok = ok && u != NONE && u != y && BI(s->blocks[u])->astamp == astamp &&
         s->mark[u] == w->stamp && !BI(s->blocks[u])->fall_to;
    /* The case construct of u may leave only into y: were it also to break
     * out of the switch, a selection inside it would need two merges. */
    ok = ok && leaves_only_into(s, w, u, y);
    if (!ok) {
      w->Y[keep++] = y;
      continue;
    }
    binfo *ub = BI(s->blocks[u]);
    ub->fall_to = yb->label->result;
    binfo *ai = BI(A);
    if (ai->nfalls + 2 > ai->cap_falls) { /* doubling: a copy per pair cost N^2 */
      uint32_t c = 2 * ai->cap_falls + 8;
      ai->falls = k2s_realloc_array(&s->a, ai->falls, ai->nfalls, c, sizeof(uint32_t));
      ai->cap_falls = c;
    }
    ai->falls[ai->nfalls++] = s->blocks[u]->label->result;
    ai->falls[ai->nfalls++] = yb->label->result;
    BI(yb)->claimed = true;
    walk_construct(s, w, y);
  }
  w->ny = keep;
}

/* An arm of A (a successor only A reaches) that can be A's merge. */
static k2s_block *arm_merge(st *s, k2s_block *A, uint32_t R)
{
  k2s_instr *t = term(A);
  uint32_t nl = n_labels(s, t);
  /* Prefer the else branch, or the default. */
  uint32_t first = t->opcode == SpvOpBranchConditional ? 1 : 0;
  for (uint32_t k = 0; k < nl; k++) {
    uint32_t kk = t->opcode == SpvOpBranchConditional ? (first + nl - k) % nl : k;
    k2s_block *b = block_of(s, *label_word(s, t, kk));
    if (!b || !reachable(s, b) || !in_region(s, b, R) || BI(b)->claimed || BI(b)->fall_to ||
        is_loop_header(s, b) || BI(b)->loop_merge_of != NONE ||
        regpred_count(s, BI(b)->idx, R) != 1)
      continue;
    return b;
  }
  return NULL;
}

/* ---- construct exits, bottom-up ------------------------------------------------
 *
 * walk_construct visits a header's whole construct, so N nested ifs cost N^2 when
 * every header walks the constructs of the headers inside it. Instead each region
 * node x keeps a summary of the exit edges of T(x), the nodes a walk from x reaches
 * (walk_construct without the merge-child cut, which applies to the header's own
 * children only): the distinct targets, up to EXIT_TARGETS of them, with their
 * edge counts and a source. A summary is built from its children's once per
 * snapshot and dropped when a selection merge (which cuts walks) is chosen under
 * it, so a function costs its blocks once. A header whose exits do not fit (or that
 * needs the exit edges themselves: a funnel, which rebuilds the snapshot anyway, or
 * a switch, whose fallthrough search reads the construct) walks as before.
 *
 * Which targets stay inside: an edge u→t from the walk leaves the dominator
 * subtree of t's immediate dominator, which dominates u, so the walk from x
 * reaches t exactly when x dominates t, t is a node of the region and no
 * selection merge. An inner loop's header stands for the edge to its merge, which
 * the loop's blocks dominate instead: inside when the walk from the header meets
 * the merge, else the summary gives up (the walk stops at a merge in the loop).
 */
#define EXIT_TARGETS 4

typedef struct exits {
  uint32_t gen; /* valid while equal to s->ex_gen */
  uint32_t nt;  /* distinct targets; EXIT_TARGETS + 1: too many to know */
  uint32_t to[EXIT_TARGETS], from[EXIT_TARGETS], cnt[EXIT_TARGETS]; /* cnt stops at 2 */
} exits;

static void exits_add(exits *e, uint32_t t, uint32_t from, uint32_t cnt)
{
  if (e->nt > EXIT_TARGETS)
    return;
  for (uint32_t i = 0; i < e->nt; i++)
    if (e->to[i] == t) {
      e->cnt[i] = e->cnt[i] + cnt > 2 ? 2 : e->cnt[i] + cnt;
      return;
    }
  if (e->nt == EXIT_TARGETS) {
    e->nt++;
    return;
  }
  e->to[e->nt] = t;
  e->from[e->nt] = from;
  e->cnt[e->nt++] = cnt;
}

/* The region nodes a construct walk goes on to from x (through inner loops),
 * stopping at selection merges: walk_construct's children of x. */
static uint32_t walk_children(st *s, uint32_t x, uint32_t R, uint32_t *out)
{
  uint32_t n = 0, sp = 0, *stack = s->ex_pass;
  stack[sp++] = x;
  while (sp) {
    uint32_t v = stack[--sp];
    for (uint32_t k = 0; k < s->nkids[v]; k++) {
      uint32_t c = s->kids[v][k];
      k2s_block *cb = s->blocks[c];
      if (BI(cb)->sel_merge)
        continue;
      if (in_region(s, cb, R))
        out[n++] = c;
      else if (below_region(s, cb, R))
        stack[sp++] = c;
    }
  }
  return n;
}

/* Does the walk from x (a node of region R) reach t, the target of an edge
 * from a node it reaches? */
static bool walk_reaches(st *s, uint32_t x, uint32_t t, uint32_t R)
{
  k2s_block *tb = s->blocks[t];
  return t == x || (dominates(s, x, t) && in_region(s, tb, R) && !BI(tb)->sel_merge);
}

/* Summary of x's own exit edges and those of its walk children (computed at
 * out[0..nk)), as seen from T(x). */
static void summarize(st *s, uint32_t x, uint32_t R, uint32_t *out)
{
  exits *e = &s->ex[x];
  memset(e, 0, sizeof(*e));
  uint32_t nk = walk_children(s, x, R, out);
  k2s_block *xb = s->blocks[x];
  uint32_t nr = regsucc(s, xb, R, out + nk);
  bool stands_for_loop = is_loop_header(s, xb) && BI(xb)->loop != R;
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t t = out[nk + i];
    if (stands_for_loop) {
      bool met = false;
      for (uint32_t k = 0; k < nk && !met; k++)
        met = out[k] == t;
      if (!met)
        e->nt = EXIT_TARGETS + 1;
    } else if (!walk_reaches(s, x, t, R)) {
      exits_add(e, t, x, 1);
    }
  }
  for (uint32_t k = 0; k < nk; k++) {
    const exits *c = &s->ex[out[k]];
    if (c->nt > EXIT_TARGETS)
      e->nt = EXIT_TARGETS + 1;
    for (uint32_t i = 0; i < c->nt && i < EXIT_TARGETS; i++)
      if (!walk_reaches(s, x, c->to[i], R))
        exits_add(e, c->to[i], c->from[i], c->cnt[i]);
  }
  e->gen = s->ex_gen;
}

/* Makes the summary of region node c valid: children first, by an explicit
 * stack (dominator trees are deep). A node is on the stack once, first to be
 * visited, then as its finish mark (at most n entries), and summarize's
 * lists (children and successors, at most n each) go above: 3n in all. */
static void ensure_exits(st *s, uint32_t c, uint32_t R)
{
  const uint32_t FIN = 1u << 31;
  uint32_t *todo = s->ex_todo, sp = 0;
  todo[sp++] = c;
  while (sp) {
    uint32_t v = todo[--sp];
    if (v & FIN) {
      summarize(s, v & ~FIN, R, todo + sp);
      continue;
    }
    if (s->ex[v].gen == s->ex_gen)
      continue;
    todo[sp++] = v | FIN;
    uint32_t base = sp, nk = walk_children(s, v, R, todo + base);
    for (uint32_t k = 0; k < nk; k++)
      if (s->ex[todo[base + k]].gen != s->ex_gen)
        todo[sp++] = todo[base + k];
  }
}

/* After a selection merge m was chosen under header a: the walks from the
 * nodes between them stop at m now. */
static void exits_changed(st *s, uint32_t a, k2s_block *m)
{
  if (!s->ex || !reachable(s, m))
    return;
  uint32_t x = BI(m)->idx;
  if (!dominates(s, a, x)) {
    s->ex_gen++;
    return;
  }
  while (x != a) {
    x = s->idom[x];
    s->ex[x].gen = 0;
  }
}

/* Picks A's merge from its exit edges (ne of them, 2 meaning two or more,
 * all to target `to` when one_target, the first from `from`) and its merge
 * children (y1 first in reverse post-order); NULL: funnel the edges. */
static k2s_block *merge_for_exits(st *s, k2s_block *A, uint32_t ne, bool one_target, k2s_block *to,
                                  k2s_block *from, k2s_block *y1)
{
  uint32_t R = BI(A)->loop;
  if (y1 && one_target && to == y1 && !BI(y1)->claimed)
    return y1;
  if (ne == 1 && from != A && term(from)->opcode == SpvOpBranch && !BI(from)->claimed &&
      !is_loop_header(s, from) && BI(from)->loop_merge_of == NONE)
    return from; /* the one way on: merge there */
  if (ne)
    return NULL;
  /* Every path returns, breaks or continues and the arms never meet: one arm
   * can follow the selection instead of sitting in it. */
  k2s_block *merge = arm_merge(s, A, R);
  if (merge)
    return merge;
  merge = new_block(s, R); /* every path returns, breaks or continues */
  set_term(s, merge, SpvOpUnreachable, NULL, 0);
  BI(merge)->keep = true;
  return merge;
}

/* A's merge from the exit summaries of its construct; NULL when they cannot
 * decide (too many targets, or a funnel). */
static k2s_block *merge_by_summary(st *s, k2s_block *A)
{
  uint32_t R = BI(A)->loop, a = BI(A)->idx;
  if (!s->ex) {
    s->ex = k2s_alloc(&s->snap, (s->n + 1) * sizeof(exits));
    s->ex_todo = k2s_alloc(&s->snap, (3 * s->n + 3) * sizeof(uint32_t));
    s->ex_pass = k2s_alloc(&s->snap, (s->n + 1) * sizeof(uint32_t));
    s->ex_kids = k2s_alloc(&s->snap, (s->n + 1) * sizeof(uint32_t));
    s->ex_gen = 1;
  }
  /* The merge children (as walk_construct finds them) are cut from S_A. */
  uint32_t *kids = s->ex_kids, nk = walk_children(s, a, R, kids);
  uint32_t ystamp = ++s->stamp;
  k2s_block *y1 = NULL;
  for (uint32_t k = 0; k < nk; k++) {
    uint32_t c = kids[k];
    if (regpred_count(s, c, R) >= 2) {
      s->mark[c] = ystamp;
      if (!y1 || s->order[c] < s->order[BI(y1)->idx])
        y1 = s->blocks[c];
    }
  }
  exits q = {0};
  uint32_t nr = regsucc(s, A, R, s->ex_todo);
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t t = s->ex_todo[i];
    if (!walk_reaches(s, a, t, R) || s->mark[t] == ystamp)
      exits_add(&q, t, a, 1);
  }
  for (uint32_t k = 0; k < nk; k++) {
    uint32_t c = kids[k];
    if (s->mark[c] == ystamp)
      continue;
    ensure_exits(s, c, R);
    const exits *e = &s->ex[c];
    if (e->nt > EXIT_TARGETS)
      return NULL;
    for (uint32_t i = 0; i < e->nt; i++)
      if (!walk_reaches(s, a, e->to[i], R) || s->mark[e->to[i]] == ystamp)
        exits_add(&q, e->to[i], e->from[i], e->cnt[i]);
  }
  if (q.nt > EXIT_TARGETS)
    return NULL;
  uint32_t ne = 0;
  for (uint32_t i = 0; i < q.nt; i++)
    ne += q.cnt[i];
  k2s_block *to = q.nt ? s->blocks[q.to[0]] : NULL;
  k2s_block *from = q.nt ? s->blocks[q.from[0]] : NULL;
  return merge_for_exits(s, A, ne > 2 ? 2 : ne, q.nt == 1, to, from, y1);
}

/* A's merge from a walk of its construct (walk_construct) and its exit edges;
 * sets *changed when they were funnelled through a new block. */
static k2s_block *merge_by_walk(st *s, k2s_block *A, bool *changed)
{
  uint32_t R = BI(A)->loop;
  uint32_t a = BI(A)->idx;
  k2s_arena *sa = &s->snap;
  walk w = {.a = a, .R = R, .stamp = ++s->stamp};
  uint32_t stamp = w.stamp;
  if (!s->ph_stack) {
    s->ph_stack = k2s_alloc(sa, (s->n + 1) * 2 * sizeof(uint32_t));
    s->ph_S = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
    s->ph_Y = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
    s->ph_rs = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
  }
  w.stack = s->ph_stack;
  w.S = s->ph_S;
  w.Y = s->ph_Y;
  walk_construct(s, &w, a);
  if (term(A)->opcode == SpvOpSwitch)
    find_fallthroughs(s, &w, A);
  uint32_t *S = w.S, ns = w.ns, *Y = w.Y, ny = w.ny;
  /* Exit edges of S_A, sorted by the targets' then the sources' order. */
  uint32_t ne = 0, cap = 8;
  edge *E = k2s_alloc(sa, cap * sizeof(edge));
  uint32_t *rs = s->ph_rs;
  for (uint32_t k = 0; k < ns; k++) {
    uint32_t nr = regsucc(s, s->blocks[S[k]], R, rs);
    for (uint32_t j = 0; j < nr; j++) {
      if (s->mark[rs[j]] == stamp)
        continue;
      if (ne == cap) {
        E = k2s_realloc_array(sa, E, ne, cap * 2, sizeof(edge));
        cap *= 2;
      }
      E[ne++] = (edge){s->blocks[S[k]], s->blocks[rs[j]]};
    }
  }
  sort_edges(s, E, ne);
  k2s_block *y1 = NULL;
  for (uint32_t k = 0; k < ny; k++)
    if (!y1 || s->order[Y[k]] < s->order[BI(y1)->idx])
      y1 = s->blocks[Y[k]];
  bool one_target = ne > 0;
  for (uint32_t e = 1; e < ne; e++)
    if (E[e].to != E[0].to)
      one_target = false;
  k2s_block *merge = merge_for_exits(s, A, ne > 2 ? 2 : ne, one_target, ne ? E[0].to : NULL,
                                     ne ? E[0].from : NULL, y1);
  if (!merge) {
    merge = funnel(s, E, ne, R);
    *changed = true;
  }
  return merge;
}

/* Gives header A its merge; returns whether the CFG changed. */
static bool process_header(st *s, k2s_block *A)
{
  bool changed = false;
  k2s_block *merge = NULL;
  if (term(A)->opcode != SpvOpSwitch)
    merge = merge_by_summary(s, A);
  if (!merge)
    merge = merge_by_walk(s, A, &changed);
  BI(A)->processed = true;
  k2s_instr *t = term(A);
  if (t->opcode == SpvOpSwitch || (t->opcode == SpvOpBranchConditional && t->ops[1] != t->ops[2])) {
    BI(A)->merge = merge->label->result;
    BI(merge)->claimed = true;
    BI(merge)->sel_merge = true;
    exits_changed(s, BI(A)->idx, merge);
  }
  return changed;
}

static bool place_selection_merges(st *s)
{
  if (!snapshot(s))
    return false;
  split_switch_escapes(s);
  if (!snapshot(s))
    return false;
  uint64_t budget = 64 * (uint64_t)s->n + 1024;
  uint32_t pos = 0;
  while (pos < s->nrpo) {
    k2s_block *b = s->blocks[s->rpo[pos]];
    if (BI(b)->processed || !is_sel_header(s, b)) {
      pos++;
      continue;
    }
    if (!budget--) {
      k2s_error(s->m, s->f->def,
                "structurize: no structured form found for function %%%u "
                "(internal limit reached)",
                s->f->def->result);
      return false;
    }
    if (process_header(s, b)) {
      if (s->m->failed || !snapshot(s))
        return false;
      pos = 0;
      continue;
    }
    pos++;
  }
  return true;
}

/* ---- 5. merges, SSA repair, block order ------------------------------------ */

/* A small open-addressing map of ids to indexes. */
typedef struct idset {
  uint32_t *slot, *val, cap, n;
} idset;

/* Adds id with index val; false (and nothing changed) when id is there already. */
static bool idset_add(k2s_arena *a, idset *set, uint32_t id, uint32_t val)
{
  if (2 * (set->n + 1) > set->cap) {
    idset bigger = {NULL, NULL, set->cap ? set->cap * 2 : 64, 0};
    bigger.slot = k2s_alloc(a, bigger.cap * sizeof(uint32_t));
    bigger.val = k2s_alloc(a, bigger.cap * sizeof(uint32_t));
    for (uint32_t k = 0; k < set->cap; k++)
      if (set->slot[k])
        idset_add(a, &bigger, set->slot[k], set->val[k]);
    *set = bigger;
  }
  uint32_t h = (id * 2654435761u) & (set->cap - 1);
  while (set->slot[h]) {
    if (set->slot[h] == id)
      return false;
    h = (h + 1) & (set->cap - 1);
  }
  set->slot[h] = id;
  set->val[h] = val;
  set->n++;
  return true;
}

/* The index of id, NONE when absent. */
static uint32_t idset_get(const idset *set, uint32_t id)
{
  if (!set->cap || !id)
    return NONE;
  uint32_t h = (id * 2654435761u) & (set->cap - 1);
  while (set->slot[h]) {
    if (set->slot[h] == id)
      return set->val[h];
    h = (h + 1) & (set->cap - 1);
  }
  return NONE;
}

/* Orders an OpSwitch's cases so that each case construct that falls
 * through immediately precedes its fallthrough target (spirv-val's rule: a
 * fallthrough into the default counts as one into the default's own
 * fallthrough target, unless the default is also a case). */
static void order_switch_cases(st *s, k2s_block *A)
{
  binfo *ai = BI(A);
  k2s_instr *t = term(A);
  uint32_t lit = lit_words(s, t), stride = lit + 1;
  uint32_t n = (t->n_ops - 2) / stride, dflt = t->ops[1], merge = ai->merge;
  /* The distinct case labels but the merge, in case order, found through a map
   * (not a scan per case: one switch of N cases cost N^2), and per label its
   * cases in order (first_case, then next_case). */
  uint32_t *labels = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *first_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *last_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *next_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  idset index = {0};
  uint32_t nl = 0;
  bool dflt_case = false;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t l = t->ops[2 + k * stride + lit];
    dflt_case |= l == dflt;
    next_case[k] = NONE;
    if (l == merge)
      continue;
    if (idset_add(&s->a, &index, l, nl)) {
      first_case[nl] = last_case[nl] = k;
      labels[nl++] = l;
    } else {
      uint32_t i = idset_get(&index, l);
      next_case[last_case[i]] = k;
      last_case[i] = k;
    }
  }
  /* next[i]: the label that must follow labels[i]. */
  uint32_t *next = k2s_alloc(&s->a, (nl + 1) * sizeof(uint32_t));
  bool *has_prev = k2s_alloc(&s->a, (nl + 1) * sizeof(bool));
  uint32_t dflt_next = 0;
  for (uint32_t k = 0; k + 1 < ai->nfalls; k += 2)
    if (ai->falls[k] == dflt && !dflt_case)
      dflt_next = ai->falls[k + 1];
  for (uint32_t k = 0; k + 1 < ai->nfalls; k += 2) {
    uint32_t u = ai->falls[k], c = ai->falls[k + 1];
    if (u == dflt && !dflt_case)
      continue;
    if (c == dflt && !dflt_case)
      c = dflt_next;
    if (!c)
      continue;
    uint32_t iu = idset_get(&index, u), ic = idset_get(&index, c);
    if (iu != NONE)
      next[iu] = c;
    if (ic != NONE)
      has_prev[ic] = true;
  }
  uint32_t *ops = k2s_alloc(&s->a, (t->n_ops + 1) * sizeof(uint32_t));
  uint32_t w = 0;
  ops[w++] = t->ops[0];
  ops[w++] = dflt;
  bool *done = k2s_alloc(&s->a, (nl + 1) * sizeof(bool));
  for (uint32_t i = 0; i < nl; i++) {
    if (has_prev[i] || done[i])
      continue;
    for (uint32_t j = i; j != NONE && !done[j];) {
      done[j] = true;
      for (uint32_t k = first_case[j]; k != NONE; k = next_case[k]) {
        memcpy(&ops[w], &t->ops[2 + k * stride], stride * sizeof(uint32_t));
        w += stride;
      }
      j = idset_get(&index, next[j]);
    }
  }
  for (uint32_t k = 0; k < n; k++)
    if (t->ops[2 + k * stride + lit] == merge) {
      memcpy(&ops[w], &t->ops[2 + k * stride], stride * sizeof(uint32_t));
      w += stride;
    }
  if (w == t->n_ops)
    memcpy(t->ops, ops, w * sizeof(uint32_t));
}

static void emit_merges(st *s)
{
  for (uint32_t L = 0; L < s->nloops; L++) {
    loop *l = &s->loops[L];
    uint32_t control =
        BI(l->header)->control & (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask);
    if (control == (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask))
      control = 0;
    uint32_t ops[3] = {l->merge->label->result, l->cont->label->result, control};
    emit_at(s, k2s_before(term(l->header)), SpvOpLoopMerge, 0, ops, 3);
    s->changed = true;
  }
  k2s_foreach_block(b, s->f)
    if (BI(b)->merge) {
      uint32_t ops[2] = {BI(b)->merge, SpvSelectionControlMaskNone};
      emit_at(s, k2s_before(term(b)), SpvOpSelectionMerge, 0, ops, 2);
      s->changed = true;
      if (BI(b)->nfalls && term(b)->opcode == SpvOpSwitch)
        order_switch_cases(s, b);
    }
  cfg_changed(s); /* switch cases reordered: successor order, so the RPO, may change */
}

/* The instructions using one value. */
typedef struct user_list {
  k2s_instr **in;
  uint32_t n, cap;
} user_list;

typedef struct ssa {
  st *s;
  uint32_t **df, *ndf, *capdf;
  uint32_t *phi_stamp;
  k2s_instr **phi_at;
  uint32_t cur;
  /* the value being repaired */
  uint32_t v, D, undef;
  idset bad; /* value -> its index in bad_list (and users) */
  uint32_t *bad_list, nbad, capbad;
  user_list *users; /* by index in bad_list: filled once the bad values are known */
  /* reaching's memo for the value being repaired: block -> value, when stamped */
  uint32_t *reach_stamp, *reach_val, *path;
  uint32_t *made_j; /* block -> index in `made` of its new phi (when phi_stamp says so) */
} ssa;

static k2s_block *def_block(st *s, uint32_t id)
{
  k2s_instr *d = k2s_def(s->m, id);
  if (!d || !d->block || d->opcode == SpvOpLabel || d->block->func != s->f)
    return NULL;
  return d->block;
}

typedef struct scan_ctx {
  ssa *q;
  uint32_t U;
} scan_ctx;

static void note_bad(ssa *q, uint32_t v)
{
  if (!idset_add(&q->s->a, &q->bad, v, q->nbad))
    return;
  if (q->nbad == q->capbad) {
    uint32_t cap = q->capbad ? q->capbad * 2 : 16;
    q->bad_list = k2s_realloc_array(&q->s->a, q->bad_list, q->nbad, cap, sizeof(uint32_t));
    q->users = k2s_realloc_array(&q->s->a, q->users, q->nbad, cap, sizeof(*q->users));
    q->capbad = cap;
  }
  q->users[q->nbad] = (user_list){0};
  q->bad_list[q->nbad++] = v;
}

static void add_user(ssa *q, uint32_t vi, k2s_instr *in)
{
  user_list *u = &q->users[vi];
  if (u->n && u->in[u->n - 1] == in)
    return; /* one instruction's operands are visited together */
  if (u->n == u->cap) {
    uint32_t cap = u->cap ? u->cap * 2 : 4;
    u->in = k2s_realloc_array(&q->s->a, u->in, u->n, cap, sizeof(*u->in));
    u->cap = cap;
  }
  u->in[u->n++] = in;
}

static void note_user(void *ud, k2s_instr *in, uint32_t *id)
{
  ssa *q = ud;
  uint32_t vi = idset_get(&q->bad, *id);
  if (vi != NONE)
    add_user(q, vi, in);
}

/* Records `in` as a user of the bad values among its operands. */
static void note_users(ssa *q, k2s_instr *in)
{
  if (in->opcode == SpvOpPhi) {
    for (uint32_t j = 0; j + 1 < in->n_ops; j += 2)
      note_user(q, in, &in->ops[j]);
    return;
  }
  k2s_foreach_id_operand(q->s->m, in, note_user, q);
}

static void check_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  scan_ctx *c = ud;
  st *s = c->q->s;
  k2s_block *D = def_block(s, *id);
  if (!D || !reachable(s, D))
    return;
  uint32_t d = BI(D)->idx;
  if (d != c->U && !dominates(s, d, c->U))
    note_bad(c->q, *id);
}

/* ---- rematerialization: values a phi may not carry --------------------- */

/* Pointers (Vulkan's logical addressing has no pointer phis without
 * VariablePointers), images, samplers and sampled images are recomputed
 * where a new edge left a use undominated, when their definition is pure. */
static bool wants_remat(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypePointer:
  case SpvOpTypeImage:
  case SpvOpTypeSampler:
  case SpvOpTypeSampledImage: return true;
  default: return false;
  }
}

static bool clonable(k2s_module *m, const k2s_instr *d)
{
  switch (d->opcode) {
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpSampledImage:
  case SpvOpImage:
  case SpvOpGenericCastToPtr:
  case SpvOpPtrCastToGeneric: return true;
  case SpvOpLoad: {
    /* Loads of read-only handles (images, samplers) */
    k2s_instr *v = d->n_ops ? k2s_def(m, d->ops[0]) : NULL;
    return v && v->opcode == SpvOpVariable && v->n_ops >= 1 &&
           v->ops[0] == SpvStorageClassUniformConstant;
  }
  default: return false;
  }
}

/* Is id available right before `before` in block b (NULL: at b's end)? */
static bool available(st *s, uint32_t id, k2s_block *b, const k2s_instr *before)
{
  k2s_block *D = def_block(s, id);
  if (!D)
    return true;
  if (!reachable(s, D) || !reachable(s, b))
    return false;
  if (D != b)
    return dominates(s, BI(D)->idx, BI(b)->idx);
  k2s_instr *d = k2s_def(s->m, id);
  for (k2s_instr *i = b->body.first; i && i != before; i = i->next)
    if (i == d)
      return true;
  return false;
}

typedef struct remat_ctx {
  st *s;
  ssa *q;
  k2s_block *b;
  k2s_instr *before;
  int depth;
  bool failed;
} remat_ctx;

static uint32_t remat(st *s, ssa *q, uint32_t id, k2s_block *b, k2s_instr *before, int depth);

static void remat_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  remat_ctx *c = ud;
  if (c->failed || available(c->s, *id, c->b, c->before))
    return;
  if (!wants_remat(c->s->m, k2s_type_of(c->s->m, *id))) {
    note_bad(c->q, *id); /* a plain value: the phis below will reach it */
    return;
  }
  uint32_t nid = remat(c->s, c->q, *id, c->b, c->before, c->depth + 1);
  if (nid)
    *id = nid;
  else
    c->failed = true;
}

/* A copy of id's pure definition (and of its operands, as needed) placed
 * before `before` in b (at b's end when NULL); 0 when that is impossible. */
static uint32_t remat(st *s, ssa *q, uint32_t id, k2s_block *b, k2s_instr *before, int depth)
{
  k2s_instr *d = k2s_def(s->m, id);
  if (!d || depth > 8 || !clonable(s->m, d))
    return 0;
  k2s_instr *c = k2s_instr_new(s->m, d->opcode, d->type, 0, d->ops, d->n_ops);
  remat_ctx ctx = {s, q, b, before, depth, false};
  k2s_foreach_id_operand(s->m, c, remat_operand, &ctx);
  if (ctx.failed)
    return 0;
  c->result = k2s_new_id(s->m);
  k2s_set_def(s->m, c->result, c);
  c->block = b;
  if (before)
    k2s_list_insert_before(&b->body, (k2s_instr *)before, c);
  else
    k2s_list_insert_before(&b->body, k2s_block_merge(b) ? k2s_block_merge(b) : term(b), c);
  note_users(q, c); /* its operands may be values still to repair */
  s->changed = true;
  return c->result;
}

typedef struct remat_use_ctx {
  st *s;
  ssa *q;
  uint32_t v;
  k2s_block *b;
  k2s_instr *user;
  bool failed;
} remat_use_ctx;

static void remat_use(void *ud, k2s_instr *in, uint32_t *id)
{
  remat_use_ctx *c = ud;
  if (*id != c->v || available(c->s, *id, c->b, in))
    return;
  uint32_t nid = remat(c->s, c->q, *id, c->b, in, 0);
  if (nid)
    *id = nid;
  else
    c->failed = true;
}

/* Recomputes v at each use it no longer dominates; false if some use is
 * left (the caller then gives v phis). */
static bool remat_uses(st *s, ssa *q, uint32_t vi)
{
  bool ok = true;
  uint32_t v = q->bad_list[vi];
  /* By index: remat may record users of other values (never of v) as it goes. */
  for (uint32_t k = 0; k < q->users[vi].n; k++) {
    k2s_instr *in = q->users[vi].in[k];
    if (in->opcode == SpvOpPhi) {
      for (uint32_t j = 0; j + 1 < in->n_ops; j += 2) {
        k2s_block *P = block_of(s, in->ops[j + 1]);
        if (in->ops[j] != v || !P || available(s, v, P, NULL))
          continue;
        uint32_t nid = remat(s, q, v, P, NULL, 0);
        if (nid)
          in->ops[j] = nid;
        else
          ok = false;
      }
      continue;
    }
    remat_use_ctx c = {s, q, v, in->block, in, false};
    k2s_foreach_id_operand(s->m, in, remat_use, &c);
    ok &= !c.failed;
  }
  return ok;
}

/* The value of q->v reaching the end of block x: up the dominator tree to the
 * definition or a new phi. Memoised per block, so that the uses of one value
 * cost the blocks between them and the definition once, not once per use. */
static uint32_t reaching(ssa *q, uint32_t x)
{
  st *s = q->s;
  uint32_t r = q->undef, np = 0;
  while (x != NONE) {
    if (q->reach_stamp[x] == q->cur) {
      r = q->reach_val[x];
      break;
    }
    if (x == q->D) {
      r = q->v;
      break;
    }
    if (q->phi_stamp[x] == q->cur) {
      r = q->phi_at[x]->result;
      break;
    }
    q->path[np++] = x;
    x = s->idom[x];
  }
  while (np) {
    uint32_t y = q->path[--np];
    q->reach_stamp[y] = q->cur;
    q->reach_val[y] = r;
  }
  return r;
}

typedef struct rename_ctx {
  ssa *q;
  uint32_t U;
} rename_ctx;

static void rename_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  rename_ctx *c = ud;
  if (*id == c->q->v)
    *id = reaching(c->q, c->U);
}

/* The index in `made` of the new phi id names, NONE for any other id. */
static uint32_t made_index(ssa *q, uint32_t id)
{
  st *s = q->s;
  k2s_instr *d = k2s_def(s->m, id);
  if (!d || d->opcode != SpvOpPhi || !d->block || d->block->func != s->f || !d->block->data)
    return NONE;
  uint32_t y = BI(d->block)->idx;
  if (y >= s->n || q->phi_stamp[y] != q->cur || q->phi_at[y] != d)
    return NONE;
  return q->made_j[y];
}

typedef struct count_ctx {
  ssa *q;
  uint32_t *count;
} count_ctx;

static void count_use(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  count_ctx *c = ud;
  uint32_t j = made_index(c->q, *id);
  if (j != NONE)
    c->count[j]++;
}

static void count_uses_in(count_ctx *c, k2s_instr *in)
{
  if (in->opcode == SpvOpPhi) {
    for (uint32_t w = 0; w + 1 < in->n_ops; w += 2)
      if (in->ops[w] != in->result)
        count_use(c, in, &in->ops[w]);
  } else {
    k2s_foreach_id_operand(c->q->s->m, in, count_use, c);
  }
}

/* Drops the new phis nothing needs (whose only users are each other). A new
 * phi can only be named by the uses of the value just renamed and by the other
 * new phis, so those are all that is counted. */
static void prune_phis(st *s, ssa *q, uint32_t vi, k2s_instr **made, uint32_t nmade)
{
  if (!nmade)
    return;
  count_ctx c = {q, k2s_alloc(&s->snap, nmade * sizeof(uint32_t))};
  for (uint32_t k = 0; k < q->users[vi].n; k++)
    count_uses_in(&c, q->users[vi].in[k]);
  for (uint32_t j = 0; j < nmade; j++)
    count_uses_in(&c, made[j]);
  uint32_t *work = k2s_alloc(&s->snap, nmade * sizeof(uint32_t));
  uint32_t nw = 0;
  for (uint32_t j = 0; j < nmade; j++)
    if (!c.count[j])
      work[nw++] = j;
  while (nw) {
    k2s_instr *phi = made[work[--nw]];
    for (uint32_t w = 0; w + 1 < phi->n_ops; w += 2) {
      uint32_t id = phi->ops[w], j = made_index(q, id);
      if (j != NONE && id != phi->result && !--c.count[j])
        work[nw++] = j;
    }
    k2s_list_remove(&phi->block->body, phi);
    k2s_set_def(s->m, phi->result, NULL);
  }
}

/* Values whose uses the new edges no longer dominate get phis (and OpUndef
 * where no definition reaches: those paths are never taken). */
static void repair_ssa(st *s)
{
  ssa q = {.s = s};
  k2s_arena *a = &s->snap;
  uint32_t n = s->n;
  /* Find the bad values. */
  for (uint32_t k = 0; k < s->nrpo; k++) {
    uint32_t U = s->rpo[k];
    k2s_foreach_instr(in, &s->blocks[U]->body) {
      if (in->opcode == SpvOpPhi) {
        for (uint32_t j = 0; j + 1 < in->n_ops; j += 2) {
          k2s_block *D = def_block(s, in->ops[j]);
          k2s_block *P = block_of(s, in->ops[j + 1]);
          if (!D || !P || !reachable(s, D) || !reachable(s, P))
            continue;
          if (D != P && !dominates(s, BI(D)->idx, BI(P)->idx))
            note_bad(&q, in->ops[j]);
        }
        continue;
      }
      scan_ctx c = {&q, U};
      k2s_foreach_id_operand(s->m, in, check_operand, &c);
    }
  }
  if (!q.nbad)
    return;
  /* Their users, in one more scan: each value's repair then visits its uses only. */
  for (uint32_t k = 0; k < s->nrpo; k++)
    k2s_foreach_instr(in, &s->blocks[s->rpo[k]]->body)
      note_users(&q, in);
  /* Pointers and handles are recomputed where possible. */
  /* (Remat may add plain values to the list: the loop sees them too.) */
  uint8_t *done = NULL; /* recomputed at every use: no phis needed */
  for (uint32_t vi = 0; vi < q.nbad; vi++) {
    uint32_t v = q.bad_list[vi];
    if (wants_remat(s->m, k2s_type_of(s->m, v)) && remat_uses(s, &q, vi)) {
      if (!done)
        done = k2s_alloc(&s->a, q.capbad);
      done[vi] = 1;
    }
  }
  /* Compacted only now: remat records users by the values' indexes. */
  uint32_t keep = 0;
  for (uint32_t vi = 0; vi < q.nbad; vi++)
    if (!done || !done[vi]) {
      q.users[keep] = q.users[vi];
      q.bad_list[keep++] = q.bad_list[vi];
    }
  q.nbad = keep;
  if (!q.nbad)
    return;
  /* Dominance frontiers. */
  q.df = k2s_alloc(a, (n + 1) * sizeof(*q.df));
  q.ndf = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  q.capdf = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++) {
    if (s->order[b] == NONE || s->npred[b] < 2)
      continue;
    for (uint32_t k = 0; k < s->npred[b]; k++) {
      uint32_t r = s->pred[b][k];
      if (s->order[r] == NONE)
        continue;
      while (r != NONE && r != s->idom[b]) {
        /* b's frontier entries are all added in this iteration, so a repeat
         * would be the last entry. */
        if (!q.ndf[r] || q.df[r][q.ndf[r] - 1] != b)
          push_list(a, &q.df[r], &q.ndf[r], &q.capdf[r], b);
        r = s->idom[r];
      }
    }
  }
  q.phi_stamp = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  q.phi_at = k2s_alloc(a, (n + 1) * sizeof(*q.phi_at));
  q.made_j = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  q.reach_stamp = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  q.reach_val = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  q.path = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *work = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  k2s_instr **made = k2s_alloc(a, (n + 1) * sizeof(*made));
  for (uint32_t vi = 0; vi < q.nbad; vi++) {
    uint32_t v = q.bad_list[vi];
    k2s_instr *def = k2s_def(s->m, v);
    q.cur++;
    q.v = v;
    q.D = BI(def->block)->idx;
    q.undef = k2s_undef(s->m, def->type);
    /* Phis on the iterated dominance frontier of the definition. */
    uint32_t nw = 0, nmade = 0;
    work[nw++] = q.D;
    while (nw) {
      uint32_t x = work[--nw];
      for (uint32_t k = 0; k < q.ndf[x]; k++) {
        uint32_t y = q.df[x][k];
        if (q.phi_stamp[y] == q.cur)
          continue;
        q.phi_stamp[y] = q.cur;
        q.phi_at[y] = new_phi(s, s->blocks[y], def->type);
        q.made_j[y] = nmade;
        made[nmade++] = q.phi_at[y];
        work[nw++] = y;
      }
    }
    /* Rename the uses (the new phis are not among them: made after the scan). */
    for (uint32_t k = 0; k < q.users[vi].n; k++) {
      k2s_instr *in = q.users[vi].in[k];
      if (in->opcode == SpvOpPhi) {
        for (uint32_t j = 0; j + 1 < in->n_ops; j += 2) {
          k2s_block *P = block_of(s, in->ops[j + 1]);
          if (in->ops[j] == v && P && reachable(s, P))
            in->ops[j] = reaching(&q, BI(P)->idx);
        }
        continue;
      }
      rename_ctx c = {&q, BI(in->block)->idx};
      k2s_foreach_id_operand(s->m, in, rename_operand, &c);
    }
    for (uint32_t j = 0; j < nmade; j++) {
      k2s_instr *phi = made[j];
      uint32_t y = BI(phi->block)->idx;
      for (uint32_t k = 0; k < s->npred[y]; k++) {
        uint32_t p = s->pred[y][k];
        uint32_t val = s->order[p] == NONE ? q.undef : reaching(&q, p);
        phi_add(s, phi, val, s->blocks[p]->label->result);
      }
    }
    prune_phis(s, &q, vi, made, nmade);
  }
  s->changed = true;
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
    uint32_t nl = t ? n_labels(s, t) : 0;
    succ[i] = k2s_alloc(a, (nl + 3) * sizeof(uint32_t));
    if (mi) {
      k2s_block *mb = block_of(s, mi->ops[0]);
      if (mb)
        succ[i][nsucc[i]++] = BI(mb)->idx;
      if (mi->opcode == SpvOpLoopMerge && (mb = block_of(s, mi->ops[1])))
        succ[i][nsucc[i]++] = BI(mb)->idx;
    }
    for (uint32_t k = nl; k-- > 0;) {
      k2s_block *to = block_of(s, *label_word(s, t, k));
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
      delete_block(s, all[i]);
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
    k2s_block *mb = BI(b)->merge ? block_of(s, BI(b)->merge) : NULL;
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
    attach(s, b, NONE);
  if (!cleanup(s))
    return false;
  /* Loops, again after each rewrite of an irreducible cycle: a rewrite
   * leaves that cycle one entry, and inner cycles are smaller, so this ends
   * (the bound only guards against a bug). */
  uint64_t rounds = 4 * (uint64_t)s->n + 64;
  while (!build_loops(s)) {
    if (s->m->failed || !snapshot(s))
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
  number_loops(s);
  s->live = true; /* build_loops' snapshot is current */
  for (uint32_t L = s->nloops; L-- > 0;) {
    if (!normalize_loop(s, L) || s->m->failed)
      return false;
  }
  s->live = false;
  if (!place_selection_merges(s) || s->m->failed)
    return false;
  emit_merges(s);
  if (!snapshot(s) || !check_nesting(s))
    return false;
  repair_ssa(s);
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
      map_label(s, b);
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
  m->uses_valid = false;
  bool changed = s->changed;
  free(s);
  return changed;
}
