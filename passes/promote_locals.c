/*
 * promote-locals: Function-storage variables that are only loaded and stored
 * as a whole become SSA values (OpPhi where paths meet), as LLVM's mem2reg does.
 *
 * clang at -O0 (and llvm-spirv for values it spills) keeps every local,
 * including each pointer argument, in an alloca: "store %a → %a.addr; load".
 * Logical addressing cannot load a pointer from memory, so without this such
 * kernels are refused by the pointers pass; promoting them also gives the
 * later passes and the driver plain values. A variable qualifies when every
 * use is a non-volatile OpLoad/OpStore of the whole variable (names,
 * decorations and OpenCL.DebugInfo.100 DebugDeclare/DebugValue uses go with
 * it); anything else (access chains, bitcasts, calls, copies) keeps it in
 * memory. SSA construction: phis at the iterated dominance frontiers of the
 * stores (Cytron et al.), renaming over the dominator tree, then phis nobody
 * uses are removed. Runs after inline and before the interface and pointer
 * passes; no options steer it.
 */
#include <string.h>

#include "k2s_internal.h"

#define NONE UINT32_MAX

typedef struct local {
  uint32_t var, type; /* the variable and the type of its value */
  uint32_t init;      /* initializer, or 0 */
} local;

typedef struct phi_note {
  k2s_instr *phi;
  uint32_t local;
  struct phi_note *next;
} phi_note;

typedef struct promote {
  k2s_module *m;
  k2s_arena a; /* scratch for one function */
  k2s_cfg *cfg;
  local *locals;
  uint32_t n_locals;
  uint32_t cap;       /* ids below it index local_of and repl (the input's ids) */
  uint32_t *local_of; /* id -> local index + 1 (whole module, one per pass) */
  uint32_t *repl;     /* id -> the value a deleted load stood for (one per pass) */
  uint32_t *cur;      /* per local: the value reaching the current point */
  uint32_t (*log)[2]; /* (local, value before) of each change to cur, for the undo */
  uint32_t n_log, cap_log;
  phi_note **phis;    /* per block: the phis this pass placed */
  uint8_t *dead;      /* id -> 1: variables deleted (their names go too) */
  bool changed;
} promote;

/* Memory-operand mask of a load (ops[1]) or store (ops[2]). */
static bool is_volatile(const k2s_instr *i, uint32_t mask_word)
{
  return i->n_ops > mask_word && (i->ops[mask_word] & SpvMemoryAccessVolatileMask);
}

static bool promotable(k2s_module *m, k2s_function *f, k2s_instr *v)
{
  k2s_foreach_use(u, m, v->result) {
    k2s_instr *i = u->user;
    if (i->dead)
      continue;
    if (!i->block) { /* names, decorations */
      if (i->opcode == SpvOpName || i->opcode == SpvOpDecorate)
        continue;
      return false;
    }
    if (i->block->func != f)
      return false;
    if (i->opcode == SpvOpLoad && u->word == 0 && !is_volatile(i, 1))
      continue;
    if (i->opcode == SpvOpStore && u->word == 0 && !is_volatile(i, 2))
      continue;
    if (k2s_is_debug_info(m, i))
      continue;
    return false;
  }
  return true;
}

static uint32_t resolve(const promote *p, uint32_t id)
{
  while (id < p->cap && p->repl[id])
    id = p->repl[id];
  return id;
}

static uint32_t value_or_undef(promote *p, uint32_t l)
{
  return p->cur[l] ? p->cur[l] : k2s_undef(p->m, p->locals[l].type);
}

/* Cooper, Harvey and Kennedy: the dominance frontier of every block. */
static void frontiers(promote *p, uint32_t ***df, uint32_t **n_df)
{
  k2s_cfg *c = p->cfg;
  uint32_t n = c->n_blocks;
  uint8_t *reach = k2s_alloc(&p->a, n);
  for (uint32_t k = 0; k < c->n_rpo; k++)
    reach[c->rpo[k]] = 1;
  uint32_t **d = k2s_alloc(&p->a, n * sizeof(*d));
  uint32_t *nd = k2s_alloc(&p->a, n * sizeof(uint32_t));
  uint32_t *cap = k2s_alloc(&p->a, n * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++) {
    if (!reach[b] || c->n_pred[b] < 2)
      continue;
    for (uint32_t k = 0; k < c->n_pred[b]; k++) {
      uint32_t r = c->pred[b][k];
      if (!reach[r])
        continue;
      while (r != NONE && r != c->idom[b]) {
        if (!nd[r] || d[r][nd[r] - 1] != b) {
          if (nd[r] == cap[r]) {
            cap[r] = cap[r] ? cap[r] * 2 : 4;
            d[r] = k2s_realloc_array(&p->a, d[r], nd[r], cap[r], sizeof(uint32_t));
          }
          d[r][nd[r]++] = b;
        }
        r = c->idom[r];
      }
    }
  }
  *df = d;
  *n_df = nd;
}

static uint32_t local_index(const promote *p, uint32_t ptr)
{
  return ptr < p->cap ? p->local_of[ptr] : 0;
}

static void place_phis(promote *p)
{
  k2s_cfg *c = p->cfg;
  uint32_t n = c->n_blocks, nl = p->n_locals, **df, *n_df;
  frontiers(p, &df, &n_df);
  /* The blocks that store each local, from one walk of the function (a walk
   * per local made N locals over N blocks quadratic): counted, then filled. */
  uint32_t *first = k2s_alloc(&p->a, (nl + 1) * sizeof(uint32_t)), total = 0;
  for (uint32_t b = 0; b < n; b++)
    k2s_foreach_instr(i, &c->blocks[b]->body) {
      uint32_t l;
      if (i->opcode == SpvOpStore && (l = local_index(p, i->ops[0])))
        first[l]++, total++; /* first[l] counts local l - 1 */
    }
  for (uint32_t l = 0, at = 0; l <= nl; l++) {
    uint32_t k = first[l];
    first[l] = at;
    at += k;
  }
  uint32_t *stores = k2s_alloc(&p->a, (total + 1) * sizeof(uint32_t));
  uint32_t *fill = k2s_alloc(&p->a, (nl + 1) * sizeof(uint32_t));
  memcpy(fill, first, (nl + 1) * sizeof(uint32_t));
  for (uint32_t b = 0; b < n; b++)
    k2s_foreach_instr(i, &c->blocks[b]->body) {
      uint32_t l;
      if (i->opcode == SpvOpStore && (l = local_index(p, i->ops[0])))
        stores[fill[l]++] = b;
    }
  uint32_t *has_phi = k2s_alloc(&p->a, n * sizeof(uint32_t)); /* local + 1 */
  uint32_t *queued = k2s_alloc(&p->a, n * sizeof(uint32_t));
  uint32_t *work = k2s_alloc(&p->a, (n + 1) * sizeof(uint32_t));
  p->phis = k2s_alloc(&p->a, n * sizeof(*p->phis));
  for (uint32_t l = 0; l < nl; l++) {
    uint32_t nw = 0;
    for (uint32_t k = first[l + 1]; k < fill[l + 1]; k++) {
      uint32_t b = stores[k];
      if (queued[b] != l + 1) {
        queued[b] = l + 1;
        work[nw++] = b;
      }
    }
    while (nw) {
      uint32_t b = work[--nw];
      for (uint32_t k = 0; k < n_df[b]; k++) {
        uint32_t d = df[b][k];
        if (has_phi[d] == l + 1)
          continue;
        has_phi[d] = l + 1;
        k2s_block *blk = c->blocks[d];
        k2s_instr *phi =
            k2s_instr_new(p->m, SpvOpPhi, p->locals[l].type, k2s_new_id(p->m), NULL, 0);
        phi->block = blk;
        k2s_list_insert_before(&blk->body, blk->body.first, phi);
        phi_note *pn = k2s_alloc(&p->a, sizeof(*pn));
        *pn = (phi_note){phi, l, p->phis[d]};
        p->phis[d] = pn;
        if (queued[d] != l + 1) {
          queued[d] = l + 1;
          work[nw++] = d;
        }
      }
    }
  }
}

/* cur[l] = v, logged for the undo when the dominator-tree walk leaves the block. */
static void set_cur(promote *p, uint32_t l, uint32_t v)
{
  if (p->n_log == p->cap_log) {
    uint32_t cap = p->cap_log ? p->cap_log * 2 : 64;
    p->log = k2s_realloc_array(&p->a, p->log, p->n_log, cap, sizeof(*p->log));
    p->cap_log = cap;
  }
  p->log[p->n_log][0] = l;
  p->log[p->n_log++][1] = p->cur[l];
  p->cur[l] = v;
}

/* Loads and stores of one block, in order; reachable blocks only. */
static void rename_block(promote *p, uint32_t b)
{
  k2s_block *blk = p->cfg->blocks[b];
  for (phi_note *pn = p->phis[b]; pn; pn = pn->next)
    set_cur(p, pn->local, pn->phi->result);
  k2s_foreach_instr_safe(i, &blk->body) {
    uint32_t l;
    if (i->opcode == SpvOpLoad && (l = local_index(p, i->ops[0]))) {
      p->repl[i->result] = value_or_undef(p, l - 1);
      k2s_instr_delete(p->m, i);
    } else if (i->opcode == SpvOpStore && (l = local_index(p, i->ops[0]))) {
      set_cur(p, l - 1, resolve(p, i->ops[1]));
      k2s_instr_delete(p->m, i);
    }
  }
  k2s_cfg *c = p->cfg;
  for (uint32_t k = 0; k < c->n_succ[b]; k++)
    for (phi_note *pn = p->phis[c->succ[b][k]]; pn; pn = pn->next) {
      k2s_instr_push_op(p->m, pn->phi, value_or_undef(p, pn->local));
      k2s_instr_push_op(p->m, pn->phi, blk->label->result);
    }
}

/* Depth-first over the dominator tree; what a block set in cur[] is undone
 * (from the log) when the walk leaves it. Saving all of cur[] per level made N
 * locals N levels deep quadratic. */
static void rename_all(promote *p)
{
  k2s_cfg *c = p->cfg;
  uint32_t n = c->n_blocks, nl = p->n_locals;
  uint32_t *first = k2s_alloc(&p->a, n * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(&p->a, n * sizeof(uint32_t));
  memset(first, 0xff, n * sizeof(uint32_t));
  for (uint32_t k = c->n_rpo; k-- > 1;) { /* children in reverse post-order */
    uint32_t b = c->rpo[k];
    if (c->idom[b] == NONE)
      continue;
    next[b] = first[c->idom[b]];
    first[c->idom[b]] = b;
  }
  uint32_t *child = k2s_alloc(&p->a, (n + 1) * sizeof(uint32_t));
  uint32_t *mark = k2s_alloc(&p->a, (n + 1) * sizeof(uint32_t)); /* log length per level */
  p->cur = k2s_alloc(&p->a, nl * sizeof(uint32_t));
  p->log = NULL;
  p->n_log = p->cap_log = 0;
  for (uint32_t l = 0; l < nl; l++)
    p->cur[l] = p->locals[l].init;
  uint32_t depth = 0, entry = c->rpo[0];
  rename_block(p, entry);
  child[0] = first[entry];
  while (true) {
    uint32_t ch = child[depth];
    if (ch == NONE) {
      if (depth == 0)
        break;
      while (p->n_log > mark[depth]) {
        p->n_log--;
        p->cur[p->log[p->n_log][0]] = p->log[p->n_log][1];
      }
      depth--;
      continue;
    }
    child[depth] = next[ch];
    depth++;
    mark[depth] = p->n_log;
    rename_block(p, ch);
    child[depth] = first[ch];
  }
}

/* Unreachable blocks: their loads read undef, their stores go; the phis this
 * pass placed get an undef from each unreachable predecessor. */
static void finish_unreachable(promote *p)
{
  k2s_cfg *c = p->cfg;
  uint8_t *reach = k2s_alloc(&p->a, c->n_blocks);
  for (uint32_t k = 0; k < c->n_rpo; k++)
    reach[c->rpo[k]] = 1;
  for (uint32_t b = 0; b < c->n_blocks; b++) {
    if (reach[b]) {
      for (uint32_t k = 0; k < c->n_pred[b]; k++)
        if (!reach[c->pred[b][k]])
          for (phi_note *pn = p->phis[b]; pn; pn = pn->next) {
            k2s_instr_push_op(p->m, pn->phi, k2s_undef(p->m, p->locals[pn->local].type));
            k2s_instr_push_op(p->m, pn->phi, c->blocks[c->pred[b][k]]->label->result);
          }
      continue;
    }
    k2s_foreach_instr_safe(i, &c->blocks[b]->body) {
      uint32_t l;
      if (i->opcode == SpvOpLoad && (l = local_index(p, i->ops[0]))) {
        p->repl[i->result] = k2s_undef(p->m, p->locals[l - 1].type);
        k2s_instr_delete(p->m, i);
      } else if (i->opcode == SpvOpStore && local_index(p, i->ops[0])) {
        k2s_instr_delete(p->m, i);
      }
    }
  }
}

static void substitute(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  *id = resolve(ud, *id);
}

/* Rewrite uses of deleted loads, drop the debug uses of promoted variables,
 * then remove the placed phis nobody uses (repeatedly: a dead phi may be the
 * only user of another). */
static void clean_up(promote *p, k2s_function *f)
{
  k2s_module *m = p->m;
  k2s_foreach_block(b, f)
    k2s_foreach_instr_safe(i, &b->body) {
      bool debug_use = false;
      if (k2s_is_debug_info(m, i))
        for (uint32_t k = 1; k < i->n_ops; k++)
          debug_use |= local_index(p, i->ops[k]) != 0;
      if (debug_use) {
        k2s_instr_delete(m, i);
        continue;
      }
      k2s_instr_rewrite_ids(m, i, substitute, p);
    }
  uint32_t n_phis = 0;
  for (uint32_t b = 0; b < p->cfg->n_blocks; b++)
    for (phi_note *pn = p->phis[b]; pn; pn = pn->next)
      n_phis++;
  if (!n_phis)
    return;
  /* Use counts of the placed phis, from every instruction of the function. */
  phi_note **all = k2s_alloc(&p->a, n_phis * sizeof(*all));
  uint32_t k = 0;
  for (uint32_t b = 0; b < p->cfg->n_blocks; b++)
    for (phi_note *pn = p->phis[b]; pn; pn = pn->next)
      all[k++] = pn;
  /* The placed phis have fresh ids: index them by id - first id. */
  uint32_t lo = UINT32_MAX, hi = 0;
  for (k = 0; k < n_phis; k++) {
    uint32_t r = all[k]->phi->result;
    lo = r < lo ? r : lo;
    hi = r > hi ? r : hi;
  }
  uint32_t span = hi - lo + 1;
  uint32_t *uses = k2s_alloc(&p->a, span * sizeof(uint32_t));
  phi_note **by_id = k2s_alloc(&p->a, span * sizeof(*by_id));
  for (k = 0; k < n_phis; k++)
    by_id[all[k]->phi->result - lo] = all[k];
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      for (uint32_t w = 0; w < i->n_ops; w++) {
        uint32_t id = i->ops[w];
        if (id >= lo && id <= hi && by_id[id - lo] && by_id[id - lo]->phi != i)
          uses[id - lo]++;
      }
  /* The words above include literals; a literal equal to a phi id only keeps
   * a dead phi alive, which is harmless. */
  uint32_t *work = k2s_alloc(&p->a, (n_phis + 1) * sizeof(uint32_t)), nw = 0;
  for (k = 0; k < n_phis; k++)
    if (!uses[all[k]->phi->result - lo])
      work[nw++] = all[k]->phi->result;
  while (nw) {
    uint32_t id = work[--nw];
    k2s_instr *phi = by_id[id - lo]->phi;
    if (phi->dead)
      continue;
    for (uint32_t w = 0; w < phi->n_ops; w += 2) {
      uint32_t o = phi->ops[w];
      if (o >= lo && o <= hi && by_id[o - lo] && o != id && --uses[o - lo] == 0)
        work[nw++] = o;
    }
    k2s_instr_delete(m, phi);
  }
}

static void promote_function(promote *p, k2s_function *f)
{
  k2s_module *m = p->m;
  if (!f->first)
    return;
  p->n_locals = 0;
  k2s_foreach_instr(v, &f->first->body) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassFunction)
      continue;
    k2s_instr *pt = k2s_def(m, v->type);
    if (!pt || pt->opcode != SpvOpTypePointer || pt->n_ops < 2 || !promotable(m, f, v))
      continue;
    if (p->n_locals % 64 == 0)
      p->locals = k2s_realloc_array(&p->a, p->locals, p->n_locals, p->n_locals + 64, sizeof(local));
    p->locals[p->n_locals++] = (local){v->result, pt->ops[1], v->n_ops >= 2 ? v->ops[1] : 0};
  }
  if (!p->n_locals)
    return;
  for (uint32_t l = 0; l < p->n_locals; l++)
    p->local_of[p->locals[l].var] = l + 1;
  p->cfg = k2s_cfg_build(m, &p->a, f);
  k2s_cfg_dominators(p->cfg, &p->a);
  place_phis(p);
  rename_all(p);
  finish_unreachable(p);
  clean_up(p, f);
  for (uint32_t l = 0; l < p->n_locals; l++) {
    uint32_t v = p->locals[l].var;
    p->local_of[v] = 0;
    p->dead[v] = 1;
    k2s_instr_delete(m, k2s_def(m, v));
  }
  p->changed = true;
}

bool k2s_promote_locals(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  promote p = {.m = m};
  p.a.oom = m->arena.oom;
  k2s_build_uses(m);
  /* Ids made here (phis) are past the bound the tables below cover; local_of
   * and repl are only ever indexed by ids of the input to this pass. */
  uint32_t cap = p.cap = m->id_cap;
  p.local_of = k2s_alloc(&m->arena, cap * sizeof(uint32_t));
  p.repl = k2s_alloc(&m->arena, cap * sizeof(uint32_t));
  p.dead = k2s_alloc(&m->arena, cap);
  k2s_foreach_function(f, m) {
    promote_function(&p, f);
    k2s_arena_free(&p.a);
    p.a = (k2s_arena){.oom = m->arena.oom};
    p.locals = NULL;
  }
  if (p.changed)
    k2s_drop_annotations_of(m, p.dead);
  return p.changed;
}
