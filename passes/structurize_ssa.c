/*
 * structurize, phase 5: SSA repair after the CFG edits. A value whose uses its
 * definition no longer dominates gets phis on the iterated dominance frontier
 * (OpUndef on paths that cannot be taken) and the unneeded ones are pruned;
 * pointers and image handles, which logical addressing cannot carry through a
 * phi, are recomputed at the use instead. Part of the structurize pass
 * (passes/structurize.c).
 */
#include <stdlib.h>
#include <string.h>

#include "structurize.h"

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
  if (!k2s_sz_idset_add(&q->s->a, &q->bad, v, q->nbad))
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
  uint32_t vi = k2s_sz_idset_get(&q->bad, *id);
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
  remat_ctx *c = ud;
  if (c->failed || available(c->s, *id, c->b, c->before))
    return;
  if (!wants_remat(c->s->m, k2s_type_of(c->s->m, *id))) {
    note_bad(c->q, *id); /* a plain value: the phis below will reach it */
    return;
  }
  uint32_t nid = remat(c->s, c->q, *id, c->b, c->before, c->depth + 1);
  if (nid)
    k2s_instr_set_op(c->s->m, in, (uint32_t)(id - in->ops), nid);
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
  if (ctx.failed) {
    c->dead = true; /* never placed: not a user (def-use drops it when next read) */
    return 0;
  }
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
    k2s_instr_set_op(c->s->m, in, (uint32_t)(id - in->ops), nid);
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
        k2s_block *P = k2s_sz_block_of(s, in->ops[j + 1]);
        if (in->ops[j] != v || !P || available(s, v, P, NULL))
          continue;
        uint32_t nid = remat(s, q, v, P, NULL, 0);
        if (nid)
          k2s_instr_set_op(s->m, in, j, nid);
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
  rename_ctx *c = ud;
  if (*id == c->q->v)
    k2s_instr_set_op(c->q->s->m, in, (uint32_t)(id - in->ops), reaching(c->q, c->U));
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
void k2s_sz_repair_ssa(st *s)
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
          k2s_block *P = k2s_sz_block_of(s, in->ops[j + 1]);
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
          k2s_sz_push_list(a, &q.df[r], &q.ndf[r], &q.capdf[r], b);
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
        q.phi_at[y] = k2s_sz_new_phi(s, s->blocks[y], def->type);
        q.made_j[y] = nmade;
        made[nmade++] = q.phi_at[y];
        work[nw++] = y;
      }
    }
    /* Rename the uses (the new phis are not among them: made after the scan). */
    for (uint32_t k = 0; k < q.users[vi].n; k++) {
      k2s_instr *in = q.users[vi].in[k];
      if (in->opcode == SpvOpPhi) {
        uint32_t *ops = NULL; /* set once: a phi may carry v from many predecessors */
        for (uint32_t j = 0; j + 1 < in->n_ops; j += 2) {
          k2s_block *P = k2s_sz_block_of(s, in->ops[j + 1]);
          if (in->ops[j] != v || !P || !reachable(s, P))
            continue;
          if (!ops)
            ops = k2s_sz_words(s, in->ops, in->n_ops);
          ops[j] = reaching(&q, BI(P)->idx);
        }
        if (ops)
          k2s_instr_set_ops(s->m, in, ops, in->n_ops);
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
        k2s_sz_phi_add(s, phi, val, s->blocks[p]->label->result);
      }
    }
    prune_phis(s, &q, vi, made, nmade);
  }
  s->changed = true;
}
