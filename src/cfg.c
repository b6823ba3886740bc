/* Control-flow graph, dominators and post-dominators, built on demand
 * (Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order). */
#include <string.h>

#include "k2s_internal.h"

#define NONE UINT32_MAX

/* b is in a function's block list, and that function in the module's list. */
static bool block_in_module(const k2s_module *m, const k2s_block *b)
{
  const k2s_function *f = b->func;
  if (!f || (b->prev ? b->prev->next != b : f->first != b))
    return false;
  return f->prev ? f->prev->next == f : m->first_func == f;
}

void k2s_index_block(k2s_module *m, k2s_block *b)
{
  uint32_t id = b->label->result;
  if (m->block_of && id < m->id_cap)
    m->block_of[id] = b;
}

/* The index is a cache, checked on every hit: blocks made by k2s_block_new and
 * k2s_clone_function enter it as they are made, the parser's on the first miss,
 * which walks the module once and records every block. A label whose block has
 * left the module misses again (and walks again): rare, and never worse than
 * the walk per call this replaced (lower_pointers and k2s_split_block call it
 * per split, which made splitting N blocks O(N x module)). */
k2s_block *k2s_block_of_label(k2s_module *m, uint32_t label_id)
{
  k2s_instr *l = k2s_def(m, label_id);
  if (!l || l->opcode != SpvOpLabel)
    return NULL;
  if (!m->block_of)
    m->block_of = k2s_alloc(&m->arena, m->id_cap * sizeof(*m->block_of));
  k2s_block *b = m->block_of[label_id];
  if (b && b->label == l && block_in_module(m, b))
    return b;
  b = NULL;
  k2s_foreach_function(f, m)
    k2s_foreach_block(x, f) {
      k2s_index_block(m, x);
      if (x->label == l && !b)
        b = x;
    }
  if (b)
    m->block_of[label_id] = b; /* the first, as the walk before the index found */
  return b;
}

/* Calls fn for each label terminator t branches to, in operand order (an
 * OpSwitch's default first). */
static void foreach_branch_target(k2s_module *m, const k2s_instr *t,
                                  void (*fn)(uint32_t label, void *ctx), void *ctx)
{
  if (t->opcode == SpvOpBranch && t->n_ops >= 1) {
    fn(t->ops[0], ctx);
  } else if (t->opcode == SpvOpBranchConditional && t->n_ops >= 3) {
    fn(t->ops[1], ctx);
    fn(t->ops[2], ctx);
  } else if (t->opcode == SpvOpSwitch && t->n_ops >= 2) {
    uint32_t lit = k2s_type_width(m, k2s_type_of(m, t->ops[0])) == 64 ? 2 : 1;
    fn(t->ops[1], ctx);
    for (uint32_t k = 2 + lit; k < t->n_ops; k += lit + 1)
      fn(t->ops[k], ctx);
  }
}

typedef struct phi_rename {
  k2s_module *m;
  uint32_t from, to;
} phi_rename;

/* The phis of the block `label` opens name rename->to where they named `from`
 * as a predecessor. */
static void rename_phi_predecessor(uint32_t label, void *ctx)
{
  phi_rename *r = ctx;
  k2s_block *s = k2s_block_of_label(r->m, label);
  if (!s)
    return;
  k2s_foreach_instr(p, &s->body) {
    if (p->opcode != SpvOpPhi)
      break;
    for (uint32_t k = 1; k < p->n_ops; k += 2)
      if (p->ops[k] == r->from)
        k2s_instr_set_op(r->m, p, k, r->to);
  }
}

k2s_block *k2s_split_block(k2s_module *m, k2s_instr *first, uint32_t label_id)
{
  k2s_block *b = first->block;
  k2s_block *rest = k2s_block_new(m, b->func, label_id);
  for (k2s_instr *i = first, *n; i; i = n) {
    n = i->next;
    k2s_list_remove(&b->body, i);
    i->block = rest;
    k2s_list_append(&rest->body, i);
  }
  /* Only the moved terminator's targets can have phis naming b: those, not
   * the whole function (a walk per split made N splits O(N x function)). A
   * target named twice finds nothing left to rename the second time. */
  k2s_instr *t = k2s_block_terminator(rest);
  phi_rename r = {m, b->label->result, label_id};
  if (t)
    foreach_branch_target(m, t, rename_phi_predecessor, &r);
  k2s_function_insert_block_after(b->func, b, rest);
  if (!m->uses_kept) /* the moves and phi edits above kept it valid otherwise */
    m->uses_valid = false;
  return rest;
}

k2s_counted_loop k2s_build_counted_loop(k2s_module *m, k2s_instr *at, uint32_t lo, uint32_t hi)
{
  k2s_counted_loop l;
  k2s_block *pre = at->block;
  uint32_t nt = k2s_type_of(m, hi);
  l.rest = k2s_split_block(m, at, k2s_new_id(m));
  l.head = k2s_block_new(m, pre->func, k2s_new_id(m));
  l.body = k2s_block_new(m, pre->func, k2s_new_id(m));
  k2s_function_insert_block_after(pre->func, pre, l.head);
  k2s_function_insert_block_after(pre->func, l.head, l.body);
  uint32_t hl = l.head->label->result, bl = l.body->label->result;
  k2s_builder b = {m, k2s_block_append(pre)};
  k2s_emit(&b, SpvOpBranch, 0, &hl, 1);
  l.k = k2s_new_id(m);
  uint32_t k1 = k2s_new_id(m);
  uint32_t phi_ops[4] = {lo, pre->label->result, k1, bl};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, nt, l.k, phi_ops, 4);
  phi->block = l.head;
  k2s_list_append(&l.head->body, phi);
  b = (k2s_builder){m, k2s_block_append(l.head)};
  uint32_t cmp[2] = {l.k, hi};
  uint32_t more = k2s_emit(&b, SpvOpULessThan, k2s_type_bool(m), cmp, 2);
  uint32_t br[3] = {more, bl, l.rest->label->result};
  k2s_emit(&b, SpvOpBranchConditional, 0, br, 3);
  uint32_t inc[2] = {l.k, k2s_const_int(m, nt, 1)};
  l.step = k2s_instr_new(m, SpvOpIAdd, nt, k1, inc, 2);
  l.step->block = l.body;
  k2s_list_append(&l.body->body, l.step);
  b = (k2s_builder){m, k2s_block_append(l.body)};
  k2s_emit(&b, SpvOpBranch, 0, &hl, 1);
  return l;
}

/* Adds from -> to unless it is there. All edges of one block are added
 * together, so last_from (by target: the source that added it last, plus one)
 * finds a repeat in O(1): a scan of the successor list made one OpSwitch of N
 * cases cost N^2. */
static void add_edge(k2s_cfg *c, k2s_arena *a, uint32_t from, uint32_t to, uint32_t *cap_s,
                     uint32_t *cap_p, uint32_t *last_from)
{
  if (last_from[to] == from + 1)
    return;
  last_from[to] = from + 1;
  if (c->n_succ[from] == cap_s[from]) {
    cap_s[from] = cap_s[from] ? cap_s[from] * 2 : 2;
    c->succ[from] = k2s_realloc_array(a, c->succ[from], c->n_succ[from], cap_s[from], 4);
  }
  c->succ[from][c->n_succ[from]++] = to;
  if (c->n_pred[to] == cap_p[to]) {
    cap_p[to] = cap_p[to] ? cap_p[to] * 2 : 2;
    c->pred[to] = k2s_realloc_array(a, c->pred[to], c->n_pred[to], cap_p[to], 4);
  }
  c->pred[to][c->n_pred[to]++] = from;
}

/* Label id -> block index for one function: an open-addressing table sized by
 * the function (twice its blocks, a power of two), not by the module's id
 * bound, so that building every function's CFG stays linear in the module. */
typedef struct label_map {
  uint32_t mask;
  uint32_t *key, *index; /* key 0: empty slot */
} label_map;

static uint32_t label_slot(const label_map *lm, uint32_t label)
{
  uint32_t h = (label * 2654435761u) & lm->mask;
  while (lm->key[h] && lm->key[h] != label)
    h = (h + 1) & lm->mask;
  return h;
}

static void label_map_init(label_map *lm, k2s_arena *a, uint32_t n_blocks)
{
  uint32_t cap = 16;
  while (cap < 2 * n_blocks)
    cap *= 2;
  lm->mask = cap - 1;
  lm->key = k2s_alloc(a, cap * sizeof(uint32_t));
  lm->index = k2s_alloc(a, cap * sizeof(uint32_t));
}

static void label_map_put(label_map *lm, uint32_t label, uint32_t index)
{
  if (label == 0)
    return;
  uint32_t h = label_slot(lm, label);
  lm->key[h] = label;
  lm->index[h] = index; /* a repeated label: the later block, as before */
}

static uint32_t label_index(const label_map *lm, uint32_t label)
{
  if (label == 0)
    return NONE;
  uint32_t h = label_slot(lm, label);
  return lm->key[h] ? lm->index[h] : NONE;
}

typedef struct edge_sink {
  k2s_cfg *c;
  k2s_arena *a;
  const label_map *lm;
  uint32_t from;
  uint32_t *cap_s, *cap_p, *last_from;
} edge_sink;

static void add_edge_to_label(uint32_t label, void *ctx)
{
  edge_sink *e = ctx;
  uint32_t to = label_index(e->lm, label);
  if (to != NONE)
    add_edge(e->c, e->a, e->from, to, e->cap_s, e->cap_p, e->last_from);
}

k2s_cfg *k2s_cfg_build(k2s_module *m, k2s_arena *a, k2s_function *f)
{
  k2s_cfg *c = k2s_alloc(a, sizeof(*c));
  c->func = f;
  uint32_t n = 0;
  k2s_foreach_block(b, f)
    b->index = n++;
  c->n_blocks = n;
  c->blocks = k2s_alloc(a, (n + 1) * sizeof(*c->blocks));
  label_map lm;
  label_map_init(&lm, a, n);
  k2s_foreach_block(b, f) {
    c->blocks[b->index] = b;
    label_map_put(&lm, b->label->result, b->index);
  }
  c->succ = k2s_alloc(a, (n + 1) * sizeof(*c->succ));
  c->pred = k2s_alloc(a, (n + 1) * sizeof(*c->pred));
  c->n_succ = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  c->n_pred = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *cap_s = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *cap_p = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *last_from = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  edge_sink e = {c, a, &lm, 0, cap_s, cap_p, last_from};
  k2s_foreach_block(b, f) {
    k2s_instr *t = k2s_block_terminator(b);
    e.from = b->index;
    if (t)
      foreach_branch_target(m, t, add_edge_to_label, &e);
  }
  c->rpo = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  if (n)
    c->n_rpo = k2s_graph_rpo(a, n, c->succ, c->n_succ, 0, c->rpo);
  return c;
}

/* Reverse post-order of the nodes reachable from start, by an explicit
 * stack (deep CFGs must not overflow the C stack); returns how many. */
uint32_t k2s_graph_rpo(k2s_arena *a, uint32_t n, uint32_t *const *succ, const uint32_t *n_succ,
                       uint32_t start, uint32_t *rpo)
{
  uint8_t *seen = k2s_alloc(a, n + 1);
  uint32_t *stack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *post = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t sp = 0, np = 0;
  stack[sp++] = start;
  seen[start] = 1;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (next[v] < n_succ[v]) {
      uint32_t w = succ[v][next[v]++];
      if (!seen[w]) {
        seen[w] = 1;
        stack[sp++] = w;
      }
    } else {
      post[np++] = v;
      sp--;
    }
  }
  for (uint32_t i = 0; i < np; i++)
    rpo[i] = post[np - 1 - i];
  return np;
}

static uint32_t intersect(const uint32_t *dom, const uint32_t *order, uint32_t a, uint32_t b)
{
  while (a != b) {
    while (order[a] > order[b])
      a = dom[a];
    while (order[b] > order[a])
      b = dom[b];
  }
  return a;
}

/* Generic iterative dominators over a graph given by predecessor lists. */
static uint32_t *dominators(k2s_arena *a, uint32_t n, const uint32_t *rpo, uint32_t n_rpo,
                            uint32_t **pred, const uint32_t *n_pred)
{
  uint32_t *dom = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *order = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i <= n; i++) {
    dom[i] = NONE;
    order[i] = NONE;
  }
  if (!n_rpo)
    return dom;
  for (uint32_t i = 0; i < n_rpo; i++)
    order[rpo[i]] = i;
  dom[rpo[0]] = rpo[0];
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 1; i < n_rpo; i++) {
      uint32_t b = rpo[i], nd = NONE;
      for (uint32_t k = 0; k < n_pred[b]; k++) {
        uint32_t p = pred[b][k];
        if (dom[p] == NONE)
          continue;
        nd = nd == NONE ? p : intersect(dom, order, p, nd);
      }
      if (nd != dom[b]) {
        dom[b] = nd;
        changed = true;
      }
    }
  }
  return dom;
}

/* Numbers the dominator tree depth-first: a dominates b iff pre[a] <= pre[b]
 * and post[b] <= post[a], so k2s_cfg_dominates answers in constant time
 * instead of walking b's idom chain (a loop of 60,000 blocks asked it for every
 * block). Unreachable blocks keep pre UINT32_MAX. */
static void number_dominator_tree(k2s_cfg *c, k2s_arena *a)
{
  uint32_t n = c->n_blocks;
  uint32_t *first = k2s_alloc(a, (n + 1) * sizeof(uint32_t)); /* first child + 1 */
  uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));  /* next sibling + 1 */
  uint32_t *stack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  c->dom_pre = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  c->dom_post = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i < n; i++)
    c->dom_pre[i] = c->dom_post[i] = NONE;
  if (!c->n_rpo)
    return;
  for (uint32_t r = c->n_rpo; r-- > 1;) {
    uint32_t x = c->rpo[r], d = c->idom[x];
    if (d < n) {
      next[x] = first[d];
      first[d] = x + 1;
    }
  }
  uint32_t sp = 0, clock = 0;
  stack[sp++] = c->rpo[0];
  c->dom_pre[c->rpo[0]] = clock++;
  while (sp) {
    uint32_t x = stack[sp - 1];
    if (first[x]) {
      uint32_t y = first[x] - 1;
      first[x] = next[y];
      c->dom_pre[y] = clock++;
      stack[sp++] = y;
    } else {
      c->dom_post[x] = clock++;
      sp--;
    }
  }
}

void k2s_cfg_dominators(k2s_cfg *c, k2s_arena *a)
{
  c->idom = dominators(a, c->n_blocks, c->rpo, c->n_rpo, c->pred, c->n_pred);
  if (c->n_rpo)
    c->idom[c->rpo[0]] = NONE;
  number_dominator_tree(c, a);
}

void k2s_cfg_post_dominators(k2s_cfg *c, k2s_arena *a)
{
  /* Reverse graph with a virtual exit node n joined from every block
   * without successors (returns, unreachable). */
  uint32_t n = c->n_blocks;
  uint32_t **rpred = k2s_alloc(a, (n + 1) * sizeof(*rpred));
  uint32_t *n_rpred = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++) {
    rpred[b] = c->succ[b];
    n_rpred[b] = c->n_succ[b];
  }
  /* Reverse post-order of the reversed graph from the virtual exit. */
  uint32_t **rsucc = k2s_alloc(a, (n + 1) * sizeof(*rsucc));
  uint32_t *n_rsucc = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++) {
    rsucc[b] = c->pred[b];
    n_rsucc[b] = c->n_pred[b];
  }
  uint32_t n_exit = 0;
  uint32_t *exits = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++)
    if (c->n_succ[b] == 0)
      exits[n_exit++] = b;
  rsucc[n] = exits;
  n_rsucc[n] = n_exit;
  /* Exits' predecessor in the reversed graph is the virtual node. */
  for (uint32_t k = 0; k < n_exit; k++) {
    uint32_t b = exits[k];
    uint32_t *p = k2s_alloc(a, sizeof(uint32_t));
    p[0] = n;
    rpred[b] = p;
    n_rpred[b] = 1;
  }
  uint32_t *rpo = k2s_alloc(a, (n + 2) * sizeof(uint32_t));
  uint32_t np = k2s_graph_rpo(a, n + 1, rsucc, n_rsucc, n, rpo);
  uint32_t *pd = dominators(a, n + 1, rpo, np, rpred, n_rpred);
  c->ipdom = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++)
    c->ipdom[b] = pd[b] == n ? NONE : pd[b];
}

bool k2s_cfg_dominates(const k2s_cfg *c, uint32_t a, uint32_t b)
{
  if (!c->idom || a >= c->n_blocks || b >= c->n_blocks)
    return false;
  if (a == b)
    return true;
  return c->dom_pre[a] != NONE && c->dom_pre[b] != NONE && c->dom_pre[a] <= c->dom_pre[b] &&
         c->dom_post[b] <= c->dom_post[a];
}
