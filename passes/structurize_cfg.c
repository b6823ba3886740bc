/*
 * structurize, CFG layer: the function's blocks as the pass sees them. Block
 * and terminator edits (new blocks, retargeted branches, replaced terminators,
 * phi entries) that keep the label map and, in live mode, the successor and
 * predecessor lists current; the snapshot (successors, predecessors, reverse
 * post-order, dominator tree by Semi-NCA, O(1) dominance); funnel, which
 * reroutes a set of edges through one dispatching block; a small id map.
 * Part of the structurize pass (passes/structurize.c: the phases and the entry).
 */
#include <string.h>

#include "structurize.h"

/* ---- small IR helpers --------------------------------------------------- */

k2s_block *k2s_sz_block_of(st *s, uint32_t label)
{
  if (label == 0 || label >= s->lbl_cap)
    return NULL;
  k2s_block *b = s->lbl[label];
  return b && b->func == s->f ? b : NULL;
}

void k2s_sz_map_label(st *s, k2s_block *b)
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

void k2s_sz_attach(st *s, k2s_block *b, uint32_t loop)
{
  binfo *i = k2s_alloc(&s->a, sizeof(*i));
  i->idx = NONE;
  i->loop = loop;
  i->loop_merge_of = NONE;
  b->data = i;
}

static void live_add(st *s, k2s_block *b);

k2s_block *k2s_sz_new_block(st *s, uint32_t loop)
{
  cfg_changed(s);
  k2s_block *b = k2s_block_new(s->m, s->f, k2s_new_id(s->m));
  k2s_function_append_block(s->f, b);
  k2s_sz_map_label(s, b);
  k2s_sz_attach(s, b, loop);
  if (s->live)
    live_add(s, b);
  s->changed = true;
  return b;
}

k2s_instr *k2s_sz_emit_at(st *s, k2s_cursor c, uint16_t op, uint32_t type, const uint32_t *ops,
                          uint32_t n)
{
  k2s_builder b = {s->m, c};
  return k2s_emit_instr(&b, op, type, ops, n);
}

/* Scratch for an instruction's new operand words (n of them, a copy of from when
 * given), set afterwards with k2s_instr_set_ops: def-use then records the
 * instruction once, however many words changed. Valid until the next call. */
uint32_t *k2s_sz_words(st *s, const uint32_t *from, uint32_t n)
{
  if (n > s->cap_words) {
    uint32_t cap = s->cap_words ? s->cap_words : 16;
    while (cap < n)
      cap *= 2;
    s->words = k2s_alloc(&s->a, cap * sizeof(uint32_t));
    s->cap_words = cap;
  }
  if (from && n)
    memcpy(s->words, from, n * sizeof(uint32_t));
  return s->words;
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

void k2s_sz_delete_block(st *s, k2s_block *b)
{
  cfg_changed(s);
  if (b->label->result < s->lbl_cap)
    s->lbl[b->label->result] = NULL;
  note_dead(s, b->label->result);
  k2s_set_def(s->m, b->label->result, NULL);
  k2s_foreach_instr(i, &b->body) {
    if (i->result) {
      note_dead(s, i->result);
      k2s_set_def(s->m, i->result, NULL);
    }
    /* Out of the function with its block: no longer a user (def-use drops it
     * when next read, as a rebuild would not see it). */
    i->dead = true;
  }
  k2s_function_remove_block(s->f, b);
  s->changed = true;
}

/* Words of an OpSwitch case literal: the selector's width decides. */
uint32_t k2s_sz_lit_words(st *s, const k2s_instr *t)
{
  return k2s_type_width(s->m, k2s_type_of(s->m, t->ops[0])) > 32 ? 2 : 1;
}

uint32_t k2s_sz_n_labels(st *s, const k2s_instr *t)
{
  switch (t->opcode) {
  case SpvOpBranch: return t->n_ops >= 1 ? 1 : 0;
  case SpvOpBranchConditional: return t->n_ops >= 3 ? 2 : 0;
  case SpvOpSwitch: return t->n_ops >= 2 ? 1 + (t->n_ops - 2) / (k2s_sz_lit_words(s, t) + 1) : 0;
  default: return 0;
  }
}

const uint32_t *k2s_sz_label_word(st *s, const k2s_instr *t, uint32_t k)
{
  switch (t->opcode) {
  case SpvOpBranch: return &t->ops[0];
  case SpvOpBranchConditional: return &t->ops[1 + k];
  default: {
    if (k == 0)
      return &t->ops[1];
    uint32_t l = k2s_sz_lit_words(s, t);
    return &t->ops[2 + (k - 1) * (l + 1) + l];
  }
  }
}

void k2s_sz_retarget(st *s, k2s_instr *t, uint32_t from, uint32_t to)
{
  cfg_changed(s);
  uint32_t n = k2s_sz_n_labels(s, t);
  uint32_t *ops = NULL;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t w = (uint32_t)(k2s_sz_label_word(s, t, k) - t->ops);
    if (t->ops[w] != from)
      continue;
    if (!ops)
      ops = k2s_sz_words(s, t->ops, t->n_ops);
    ops[w] = to;
  }
  /* All the words at once: a switch may name `from` in many cases. */
  if (ops)
    k2s_instr_set_ops(s->m, t, ops, t->n_ops);
  if (s->live)
    k2s_sz_live_resync(s, t->block);
  s->changed = true;
}

/* Replace a block's terminator. */
k2s_instr *k2s_sz_set_term(st *s, k2s_block *b, uint16_t op, const uint32_t *ops, uint32_t n)
{
  k2s_instr *t = term(b);
  if (t)
    k2s_list_remove(&b->body, t);
  cfg_changed(s);
  s->changed = true;
  k2s_instr *nt = k2s_sz_emit_at(s, k2s_block_append(b), op, 0, ops, n);
  if (s->live)
    k2s_sz_live_resync(s, b);
  return nt;
}

uint32_t k2s_sz_phi_value(const k2s_instr *phi, uint32_t label)
{
  for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2)
    if (phi->ops[k + 1] == label)
      return phi->ops[k];
  return 0;
}

void k2s_sz_phi_remove(st *s, k2s_instr *phi, uint32_t label)
{
  uint32_t *ops = k2s_sz_words(s, NULL, phi->n_ops), w = 0;
  for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2)
    if (phi->ops[k + 1] != label) {
      ops[w++] = phi->ops[k];
      ops[w++] = phi->ops[k + 1];
    }
  k2s_instr_set_ops(s->m, phi, ops, w);
  s->changed = true;
}

void k2s_sz_phi_add(st *s, k2s_instr *phi, uint32_t value, uint32_t label)
{
  k2s_instr_push_op(s->m, phi, value);
  k2s_instr_push_op(s->m, phi, label);
  s->changed = true;
}

void k2s_sz_phis_rename_pred(st *s, k2s_block *b, uint32_t from, uint32_t to)
{
  foreach_phi(p, b) for (uint32_t k = 0; k + 1 < p->n_ops; k += 2) if (p->ops[k + 1] == from)
      k2s_instr_set_op(s->m, p, k + 1, to);
  s->changed = true;
}

/* A new phi at the top of b, after the phis there. */
k2s_instr *k2s_sz_new_phi(st *s, k2s_block *b, uint32_t type)
{
  k2s_instr *pos = b->body.first;
  while (pos && (pos->opcode == SpvOpPhi || pos->opcode == SpvOpLine || pos->opcode == SpvOpNoLine))
    pos = pos->next;
  k2s_cursor c = pos ? k2s_before(pos) : k2s_block_append(b);
  c.block = b;
  s->changed = true;
  return k2s_sz_emit_at(s, c, SpvOpPhi, type, NULL, 0);
}

static uint32_t uint_type(st *s)
{
  return k2s_type_int(s->m, 32, false);
}

/* ---- the CFG snapshot ----------------------------------------------------- */

void k2s_sz_push_list(k2s_arena *a, uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t v)
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
  k2s_sz_push_list(&s->snap, &s->succ[i], &s->nsucc[i], &s->cap_s[i], j);
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
bool k2s_sz_snapshot(st *s)
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
    if (t->opcode == SpvOpSwitch && t->n_ops >= 2 &&
        (t->n_ops - 2) % (k2s_sz_lit_words(s, t) + 1) != 0) {
      k2s_error(s->m, t, "the OpSwitch's case operands do not fit its selector's width");
      return false;
    }
    uint32_t nl = k2s_sz_n_labels(s, t);
    s->succ_gen++;
    if ((t->opcode == SpvOpBranch || t->opcode == SpvOpBranchConditional ||
         t->opcode == SpvOpSwitch) &&
        nl == 0) {
      k2s_error(s->m, t, "the branch has too few operands");
      return false;
    }
    for (uint32_t k = 0; k < nl; k++) {
      uint32_t label = *k2s_sz_label_word(s, t, k);
      k2s_block *to = k2s_sz_block_of(s, label);
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
void k2s_sz_live_resync(st *s, k2s_block *b)
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
  uint32_t nl = t ? k2s_sz_n_labels(s, t) : 0;
  for (uint32_t k = 0; k < nl; k++) {
    k2s_block *to = k2s_sz_block_of(s, *k2s_sz_label_word(s, t, k));
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

/* ---- funnel: reroute a set of edges through one new block ------------------ */

/*
 * Every edge p→t in E becomes p→J; J dispatches to the targets on a selector
 * phi (bool for two targets, uint for more) saying which edge was taken.
 * Phis of the targets move into J (OpUndef for J's other predecessors). A
 * source with several rerouted edges computes its selector itself (an
 * OpBranchConditional becomes OpSelect/OpLogicalNot and a branch to J), or
 * gets one new block per edge (an OpSwitch).
 */
k2s_block *k2s_sz_funnel(st *s, edge *E, uint32_t ne, uint32_t loop)
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
    k2s_block *sp = k2s_sz_new_block(s, BI(p)->loop);
    uint32_t to = E[e].to->label->result;
    k2s_sz_set_term(s, sp, SpvOpBranch, &to, 1);
    k2s_sz_retarget(s, t, to, sp->label->result);
    k2s_sz_phis_rename_pred(s, E[e].to, p->label->result, sp->label->result);
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
  k2s_block *J = k2s_sz_new_block(s, loop);
  uint32_t jl = J->label->result;
  /* The selector. */
  uint32_t sel = 0;
  if (nt >= 2) {
    uint32_t ty = nt == 2 ? k2s_type_bool(m) : uint_type(s);
    k2s_instr *phi = k2s_sz_new_phi(s, J, ty);
    sel = phi->result;
    for (uint32_t k = 0; k < nq; k++) {
      k2s_block *p = Q[k];
      uint32_t v;
      if (Q_sel[k]) {
        k2s_instr *t = term(p);
        uint32_t it = BI(k2s_sz_block_of(s, t->ops[1]))->tslot,
                 jf = BI(k2s_sz_block_of(s, t->ops[2]))->tslot;
        if (nt == 2) {
          v = t->ops[0];
          if (it != 0)
            v = k2s_sz_emit_at(s, k2s_block_end(p), SpvOpLogicalNot, ty, &v, 1)->result;
        } else {
          uint32_t ops[3] = {t->ops[0], k2s_const_int(m, ty, it), k2s_const_int(m, ty, jf)};
          v = k2s_sz_emit_at(s, k2s_block_end(p), SpvOpSelect, ty, ops, 3)->result;
        }
      } else {
        v = nt == 2 ? k2s_const_bool(m, Q_to[k] == 0) : k2s_const_int(m, ty, Q_to[k]);
      }
      k2s_sz_phi_add(s, phi, v, p->label->result);
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
      uint32_t common = 0, w = 0, *ops = k2s_sz_words(s, NULL, phi->n_ops);
      bool same = true, any = false;
      for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2) {
        k2s_block *p = k2s_sz_block_of(s, phi->ops[k + 1]);
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
        ops[w++] = phi->ops[k];
        ops[w++] = phi->ops[k + 1];
      }
      if (w != phi->n_ops)
        k2s_instr_set_ops(m, phi, ops, w);
      /* Every rerouted edge must have had an entry. */
      for (uint32_t e = 0; e < ne; e++)
        if (E[e].to == t && !vals[BI(E[e].from)->qslot])
          same = false;
      uint32_t nv = common;
      if (!same || !common) {
        k2s_instr *jp = k2s_sz_new_phi(s, J, phi->type);
        nv = jp->result;
        for (uint32_t k = 0; k < nq; k++) {
          bool to_t = BI(Q[k])->rstamp == rstamp;
          uint32_t v = to_t && vals[k] ? vals[k] : k2s_undef(m, phi->type);
          k2s_sz_phi_add(s, jp, v, Q[k]->label->result);
        }
      }
      k2s_sz_phi_add(s, phi, nv, jl);
    }
  }
  /* Reroute the sources. */
  for (uint32_t k = 0; k < nq; k++)
    if (Q_sel[k])
      k2s_sz_set_term(s, Q[k], SpvOpBranch, &jl, 1);
  for (uint32_t e = 0; e < ne; e++) {
    k2s_block *p = E[e].from;
    if (!Q_sel[BI(p)->qslot])
      k2s_sz_retarget(s, term(p), E[e].to->label->result, jl);
  }
  /* The dispatch. */
  if (nt == 1) {
    uint32_t to = T[0]->label->result;
    k2s_sz_set_term(s, J, SpvOpBranch, &to, 1);
  } else if (nt == 2) {
    uint32_t ops[3] = {sel, T[0]->label->result, T[1]->label->result};
    k2s_sz_set_term(s, J, SpvOpBranchConditional, ops, 3);
  } else {
    uint32_t *ops = k2s_alloc(a, (2 * nt + 2) * sizeof(uint32_t));
    uint32_t n = 0;
    ops[n++] = sel;
    ops[n++] = T[nt - 1]->label->result;
    for (uint32_t j = 0; j + 1 < nt; j++) {
      ops[n++] = j;
      ops[n++] = T[j]->label->result;
    }
    k2s_sz_set_term(s, J, SpvOpSwitch, ops, n);
  }
  return J;
}

/* Adds id with index val; false (and nothing changed) when id is there already. */
bool k2s_sz_idset_add(k2s_arena *a, idset *set, uint32_t id, uint32_t val)
{
  if (2 * (set->n + 1) > set->cap) {
    idset bigger = {NULL, NULL, set->cap ? set->cap * 2 : 64, 0};
    bigger.slot = k2s_alloc(a, bigger.cap * sizeof(uint32_t));
    bigger.val = k2s_alloc(a, bigger.cap * sizeof(uint32_t));
    for (uint32_t k = 0; k < set->cap; k++)
      if (set->slot[k])
        k2s_sz_idset_add(a, &bigger, set->slot[k], set->val[k]);
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
uint32_t k2s_sz_idset_get(const idset *set, uint32_t id)
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
