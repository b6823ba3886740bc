/*
 * cleanup, composites: an OpCompositeExtract of a composite whose parts are
 * known reads the part. Lowering builds composites only to take them apart
 * again: a private struct copy constructs the array of its words and extracts
 * each (ptr_struct: 46 of 53 extracts), a work-group collective inserts into
 * and shuffles vectors it then reads lane by lane (wg_funcs), 64-bit atomics
 * construct pairs of words. Through an OpCompositeConstruct (one part per index:
 * a vector built from smaller vectors is left alone), an OpConstantComposite, an
 * OpCompositeInsert (the inserted object at the same indices; the composite it
 * inserted into at another first index) and an OpVectorShuffle (the lane of the
 * vector it came from). A chain of OpCompositeInserts that writes every lane of a
 * vector, each link used only by the next, is one OpCompositeConstruct (a vector
 * assembled lane by lane: the links die).
 */
#include <string.h>

#include "cleanup.h"

static uint32_t vector_size(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypeVector && t->n_ops >= 2 ? t->ops[1] : 0;
}

/* The part `index` of constructed composite c holds, or 0. */
static uint32_t constructed_part(k2s_module *m, const k2s_instr *c, uint32_t index)
{
  if (index >= c->n_ops)
    return 0;
  if (vector_size(m, c->type)) { /* only a vector built from scalars, one per lane */
    uint32_t lane = k2s_type_of(m, c->ops[0]);
    for (uint32_t k = 0; k < c->n_ops; k++)
      if (k2s_type_of(m, c->ops[k]) != lane || vector_size(m, lane))
        return 0;
  }
  return c->ops[index];
}

uint32_t k2s_cl_extract(k2s_module *m, k2s_instr *i, bool *rewritten)
{
  if (i->opcode != SpvOpCompositeExtract || i->n_ops < 2)
    return 0;
  for (uint32_t guard = 0; guard < 64; guard++) {
    k2s_instr *c = k2s_def(m, i->ops[0]);
    if (!c)
      return 0;
    uint32_t n_idx = i->n_ops - 1, r = 0;
    switch (c->opcode) {
    case SpvOpCompositeConstruct:
    case SpvOpConstantComposite:
      if (n_idx == 1)
        r = constructed_part(m, c, i->ops[1]);
      break;
    case SpvOpCompositeInsert: {
      /* ops: object, composite, indices */
      if (c->n_ops < 3)
        return 0;
      uint32_t c_idx = c->n_ops - 2;
      if (c_idx == n_idx && !memcmp(&c->ops[2], &i->ops[1], n_idx * sizeof(uint32_t))) {
        r = c->ops[0];
        break;
      }
      if (c->ops[2] == i->ops[1])
        return 0; /* overlapping parts: left as it is */
      k2s_instr_set_op(m, i, 0, c->ops[1]);
      *rewritten = true;
      continue;
    }
    case SpvOpVectorShuffle: {
      /* ops: vector 1, vector 2, components */
      uint32_t n1 = vector_size(m, k2s_type_of(m, c->ops[0]));
      if (n_idx != 1 || !n1 || 2 + i->ops[1] >= c->n_ops)
        return 0;
      uint32_t lane = c->ops[2 + i->ops[1]];
      if (lane == 0xffffffffu)
        return 0; /* an undefined lane */
      k2s_instr_set_op(m, i, 0, lane < n1 ? c->ops[0] : c->ops[1]);
      k2s_instr_set_op(m, i, 1, lane < n1 ? lane : lane - n1);
      *rewritten = true;
      continue;
    }
    default: return 0;
    }
    return r && k2s_type_of(m, r) == i->type ? r : 0;
  }
  return 0;
}

/* Rewrites i, the last OpCompositeInsert of a chain that sets every lane of a vector of
 * at most 16 lanes (the links before it used by nothing else), as the OpCompositeConstruct
 * of the lanes' last values. */
bool k2s_cl_insert_chain(k2s_module *m, k2s_instr *i)
{
  uint32_t n = i->opcode == SpvOpCompositeInsert && i->n_ops == 3 ? vector_size(m, i->type) : 0;
  if (!n || n > 16)
    return false;
  uint32_t lane[16] = {0}, have = 0;
  for (k2s_instr *c = i; have < n;) {
    if (c->opcode != SpvOpCompositeInsert || c->n_ops != 3 || c->type != i->type || c->ops[2] >= n)
      return false;
    if (c != i) {
      uint32_t uses = 0;
      k2s_foreach_use(u, m, c->result) if (!u->user->dead && ++uses > 1) return false;
    }
    if (!lane[c->ops[2]]) {
      lane[c->ops[2]] = c->ops[0];
      have++;
    }
    if (have < n && !(c = k2s_def(m, c->ops[1])))
      return false;
  }
  i->opcode = SpvOpCompositeConstruct;
  k2s_instr_set_ops(m, i, lane, n);
  return true;
}
