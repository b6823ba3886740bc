/* Function cloning with fresh ids: the basis of inlining and of
 * specialising a function per caller. */
#include <string.h>

#include "k2s_internal.h"

typedef struct remap {
  k2s_module *m;
  /* old id - lo -> new id (0 = keep) for the function's own ids, which lie in
   * [lo, lo + span): a map of the module's id bound per clone made inlining
   * many calls quadratic */
  uint32_t *map, lo, span;
  uint32_t *ops, cap_ops; /* a copy's operands while they are mapped */
} remap;

static uint32_t mapped(const remap *r, uint32_t id)
{
  return id >= r->lo && id - r->lo < r->span ? r->map[id - r->lo] : 0;
}

static void remap_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  uint32_t to = mapped(ud, *id);
  if (to)
    *id = to;
}

enum copy_ids { COPY_RESULT, COPY_ALL_IDS, COPY_TARGET };

/* A copy of i with its result mapped and, as `ids` says, none, all or only the
 * first of its <id> operands (a name's or decoration's target); the result
 * type is not (it is defined outside the function). The operands are mapped
 * before the copy is made, so its uses are recorded once, as they end up. */
static k2s_instr *copy_instr(remap *r, const k2s_instr *i, enum copy_ids ids)
{
  k2s_module *m = r->m;
  uint32_t result = mapped(r, i->result);
  if (i->n_ops > r->cap_ops) {
    r->cap_ops = i->n_ops > 2 * r->cap_ops ? i->n_ops : 2 * r->cap_ops;
    r->ops = k2s_alloc(&m->arena, r->cap_ops * sizeof(uint32_t));
  }
  k2s_instr tmp = *i;
  tmp.ops = r->ops;
  if (i->n_ops)
    memcpy(tmp.ops, i->ops, i->n_ops * sizeof(uint32_t));
  if (ids == COPY_ALL_IDS)
    k2s_foreach_id_operand(m, &tmp, remap_cb, r);
  else if (ids == COPY_TARGET)
    tmp.ops[0] = mapped(r, i->ops[0]);
  k2s_instr *c = k2s_instr_new(m, i->opcode, i->type, result, tmp.ops, i->n_ops);
  c->offset = i->offset; /* diagnostics about the copy point at the original */
  return c;
}

/* Calls fn on each id f defines (its own, parameters, labels, values), in
 * that order. */
static void foreach_own_id(const k2s_function *f, void (*fn)(remap *, uint32_t), remap *r)
{
  fn(r, f->def->result);
  k2s_foreach_instr(i, &f->head)
    if (i->result)
      fn(r, i->result);
  k2s_foreach_block(b, f) {
    fn(r, b->label->result);
    k2s_foreach_instr(i, &b->body)
      if (i->result)
        fn(r, i->result);
  }
}

/* Before the map exists, lo and lo + span - 1 track the range of f's ids. */
static void widen_range(remap *r, uint32_t id)
{
  uint32_t hi = r->lo + r->span - 1;
  hi = id > hi ? id : hi;
  r->lo = id < r->lo ? id : r->lo;
  r->span = hi - r->lo + 1;
}

static void fresh_id(remap *r, uint32_t id)
{
  if (id - r->lo < r->span)
    r->map[id - r->lo] = k2s_new_id(r->m);
}

static bool copies_annotation(const k2s_instr *i)
{
  return (i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId ||
          i->opcode == SpvOpDecorateString || i->opcode == SpvOpName) &&
         i->n_ops >= 1 && !i->block;
}

/* Names and decorations of id follow its copy, each right after its original. */
static void copy_annotations_of(remap *r, uint32_t id)
{
  k2s_module *m = r->m;
  for (k2s_use *u = k2s_uses_of(m, id); u; u = u->next)
    if (u->word == 0 && copies_annotation(u->user)) {
      k2s_list *l = &m->sec[u->user->opcode == SpvOpName ? K2S_SEC_DEBUG : K2S_SEC_ANNOTATION];
      k2s_list_insert_after(l, u->user, copy_instr(r, u->user, COPY_TARGET));
    }
}

k2s_function *k2s_clone_function(k2s_module *m, k2s_function *f)
{
  remap r = {m, NULL, f->def->result, 1, NULL, 0};
  foreach_own_id(f, widen_range, &r);
  r.map = k2s_alloc(&m->arena, r.span * sizeof(uint32_t));
  foreach_own_id(f, fresh_id, &r);
  k2s_function *nf = k2s_alloc(&m->arena, sizeof(*nf));
  nf->def = copy_instr(&r, f->def, COPY_RESULT);
  k2s_foreach_instr(i, &f->head)
    k2s_list_append(&nf->head, copy_instr(&r, i, COPY_ALL_IDS));
  k2s_foreach_block(b, f) {
    k2s_block *nb = k2s_alloc(&m->arena, sizeof(*nb));
    nb->label = copy_instr(&r, b->label, COPY_RESULT);
    k2s_index_block(m, nb);
    k2s_function_append_block(nf, nb);
    k2s_foreach_instr(i, &b->body) {
      k2s_instr *c = copy_instr(&r, i, COPY_ALL_IDS);
      c->block = nb;
      k2s_list_append(&nb->body, c);
    }
  }
  nf->end = copy_instr(&r, f->end, COPY_RESULT);
  /* Names and decorations of the function's ids follow the copy: through the
   * ids' uses when def-use is valid (a scan of both sections per clone made
   * inlining many calls quadratic), else one scan. */
  if (m->uses_valid) {
    foreach_own_id(f, copy_annotations_of, &r);
    return nf;
  }
  static const enum k2s_section secs[] = {K2S_SEC_ANNOTATION, K2S_SEC_DEBUG};
  for (int s = 0; s < 2; s++)
    k2s_foreach_instr_safe(i, &m->sec[secs[s]])
      if (copies_annotation(i) && mapped(&r, i->ops[0]))
        k2s_list_insert_after(&m->sec[secs[s]], i, copy_instr(&r, i, COPY_TARGET));
  return nf;
}

void k2s_mark_called(k2s_module *m, k2s_function *f, uint8_t *seen)
{
  if (!f || seen[f->def->result])
    return;
  seen[f->def->result] = 1;
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1)
        k2s_mark_called(m, k2s_function_of_id(m, i->ops[0]), seen);
}

/* O(1) through the func_of cache, which removal clears; a miss (a function
 * appended since, or an id that is no function) refills it in one walk. */
k2s_function *k2s_function_of_id(const k2s_module *m, uint32_t id)
{
  if (id < m->id_cap && m->func_of[id] && m->func_of[id]->def && m->func_of[id]->def->result == id)
    return m->func_of[id];
  if (id < m->id_cap) {
    k2s_instr *d = m->def[id];
    if (!d || d->opcode != SpvOpFunction)
      return NULL;
  }
  k2s_function *found = NULL;
  k2s_foreach_function(f, m) {
    uint32_t fid = f->def->result;
    if (fid < m->id_cap)
      m->func_of[fid] = f;
    if (fid == id)
      found = f;
  }
  return found;
}

/* Remove functions from the module along with the names and decorations of
 * every id they define, so nothing refers to ids that no longer exist. One
 * sweep of the debug and annotation sections serves the whole batch. */
void k2s_delete_functions(k2s_module *m, k2s_function *const *fns, uint32_t n)
{
  if (!n)
    return;
  uint8_t *dead = k2s_alloc(&m->arena, m->bound + 1);
  for (uint32_t k = 0; k < n; k++) {
    k2s_function *f = fns[k];
    dead[f->def->result] = 1;
    k2s_foreach_instr(i, &f->head)
      if (i->result)
        dead[i->result] = 1;
    k2s_foreach_block(b, f) {
      dead[b->label->result] = 1;
      k2s_foreach_instr(i, &b->body)
        if (i->result)
          dead[i->result] = 1;
    }
  }
  k2s_drop_annotations_of(m, dead);
  for (uint32_t k = 0; k < n; k++) {
    k2s_function *f = fns[k];
    m->def[f->def->result] = NULL;
    k2s_foreach_instr(i, &f->head)
      if (i->result)
        m->def[i->result] = NULL;
    k2s_foreach_block(b, f) {
      m->def[b->label->result] = NULL;
      k2s_foreach_instr(i, &b->body)
        if (i->result)
          m->def[i->result] = NULL;
    }
    k2s_module_remove_function(m, f);
  }
}

void k2s_delete_function(k2s_module *m, k2s_function *f)
{
  k2s_delete_functions(m, &f, 1);
}
