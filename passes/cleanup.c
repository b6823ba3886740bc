/*
 * cleanup: remove what lowering leaves redundant, so the output stays lean.
 *
 * Lowering expands each construct on its own (an access chain per pointer use,
 * index arithmetic with constant 0 and 1 factors, the same conversion in every
 * builtin expansion), which leaves work a driver must then remove and which
 * made outputs grow. Within each block: integer identities (x+0, x-0, x*1,
 * x/1, x<<0, x|0, x^0, a select of two equal values, a bitcast to the
 * value's own type) become their operand; a pure instruction equal to an
 * earlier one (same opcode, type and operands, no decorations) becomes the
 * earlier one; a load of the same pointer with the same memory operands as an
 * earlier load becomes it when nothing that may write memory (a store, call,
 * barrier, atomic, image write, copy) lies between. A phi whose incoming
 * values are all one value defined elsewhere becomes that value. Then pure
 * instructions nobody uses are deleted, and their operands' in turn. Control
 * flow is untouched, so it runs after structurize. --no-cleanup (options'
 * no_cleanup) skips it: pass tests that check a lowering's own shape use it.
 */
#include <string.h>

#include "k2s_internal.h"

/* Instructions with no side effect whose result depends only on their operands. */
static bool pure(uint16_t op)
{
  switch (op) {
  case SpvOpIAdd:
  case SpvOpISub:
  case SpvOpIMul:
  case SpvOpUDiv:
  case SpvOpSDiv:
  case SpvOpUMod:
  case SpvOpSRem:
  case SpvOpSMod:
  case SpvOpSNegate:
  case SpvOpFAdd:
  case SpvOpFSub:
  case SpvOpFMul:
  case SpvOpFDiv:
  case SpvOpFNegate:
  case SpvOpShiftLeftLogical:
  case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic:
  case SpvOpBitwiseAnd:
  case SpvOpBitwiseOr:
  case SpvOpBitwiseXor:
  case SpvOpNot:
  case SpvOpLogicalAnd:
  case SpvOpLogicalOr:
  case SpvOpLogicalNot:
  case SpvOpLogicalEqual:
  case SpvOpLogicalNotEqual:
  case SpvOpSelect:
  case SpvOpIEqual:
  case SpvOpINotEqual:
  case SpvOpULessThan:
  case SpvOpSLessThan:
  case SpvOpUGreaterThan:
  case SpvOpSGreaterThan:
  case SpvOpULessThanEqual:
  case SpvOpSLessThanEqual:
  case SpvOpUGreaterThanEqual:
  case SpvOpSGreaterThanEqual:
  case SpvOpUConvert:
  case SpvOpSConvert:
  case SpvOpConvertUToF:
  case SpvOpConvertSToF:
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpCompositeExtract:
  case SpvOpCompositeInsert:
  case SpvOpCompositeConstruct:
  case SpvOpVectorShuffle:
  case SpvOpVectorExtractDynamic:
  case SpvOpVectorInsertDynamic:
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: return true;
  default: return false;
  }
}

/* May write memory another load could see (everything impure but a load). */
static bool clobbers(const k2s_instr *i)
{
  return !pure(i->opcode) && i->opcode != SpvOpLoad && i->opcode != SpvOpPhi &&
         i->opcode != SpvOpLine && i->opcode != SpvOpNoLine && i->opcode != SpvOpUndef;
}

static bool decorated(k2s_module *m, uint32_t id)
{
  k2s_foreach_use(u, m, id)
    if (!u->user->dead && !u->user->block && u->user->opcode != SpvOpName)
      return true; /* a decoration (or another use outside function bodies) */
  return false;
}

/* Deletes i, the names of its result with it. */
static void drop(k2s_module *m, k2s_instr *i)
{
  if (i->result)
    k2s_foreach_use(u, m, i->result)
      if (!u->user->dead && u->user->opcode == SpvOpName)
        k2s_instr_delete(m, u->user);
  if (i->result && decorated(m, i->result)) /* (a scan of the annotations: only when needed) */
    k2s_remove_decorations(m, i->result);
  k2s_instr_delete(m, i);
}

static bool is_const(k2s_module *m, uint32_t id, uint64_t v)
{
  uint64_t x;
  return k2s_const_value(m, id, &x) && x == v;
}

/* The operand an integer identity reduces i to, or 0. */
static uint32_t identity(k2s_module *m, const k2s_instr *i)
{
  if (i->n_ops < 1)
    return 0;
  uint32_t a = i->ops[0], b = i->n_ops > 1 ? i->ops[1] : 0, r = 0;
  switch (i->opcode) {
  case SpvOpIAdd:
  case SpvOpBitwiseOr:
  case SpvOpBitwiseXor: r = is_const(m, b, 0) ? a : is_const(m, a, 0) ? b : 0; break;
  case SpvOpISub:
  case SpvOpShiftLeftLogical:
  case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: r = is_const(m, b, 0) ? a : 0; break;
  case SpvOpIMul: r = is_const(m, b, 1) ? a : is_const(m, a, 1) ? b : 0; break;
  case SpvOpUDiv:
  case SpvOpSDiv: r = is_const(m, b, 1) ? a : 0; break;
  case SpvOpSelect: r = i->n_ops == 3 && i->ops[1] == i->ops[2] ? i->ops[1] : 0; break;
  case SpvOpBitcast:
  case SpvOpCopyObject: r = a; break;
  default: return 0;
  }
  /* The operand must be a value of the result's own type (signedness included). */
  return r && k2s_type_of(m, r) == i->type ? r : 0;
}

/* ---- value numbering within a block ---- */

typedef struct vn_table {
  k2s_instr **slot;
  uint32_t cap, n;
} vn_table;

static uint64_t key_hash(const k2s_instr *i)
{
  uint64_t h = 1469598103934665603ull ^ i->opcode ^ ((uint64_t)i->type << 20);
  for (uint32_t k = 0; k < i->n_ops; k++)
    h = (h ^ i->ops[k]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static bool same_key(const k2s_instr *a, const k2s_instr *b)
{
  return a->opcode == b->opcode && a->type == b->type && a->n_ops == b->n_ops &&
         memcmp(a->ops, b->ops, a->n_ops * sizeof(uint32_t)) == 0;
}

/* The equal instruction already in t, or NULL after adding i. */
static k2s_instr *vn_find_or_add(k2s_arena *a, vn_table *t, k2s_instr *i)
{
  if (2 * (t->n + 1) > t->cap) {
    uint32_t cap = t->cap ? 2 * t->cap : 64;
    k2s_instr **s = k2s_alloc(a, cap * sizeof(*s));
    for (uint32_t k = 0; k < t->cap; k++)
      if (t->slot[k]) {
        uint32_t j = (uint32_t)key_hash(t->slot[k]) & (cap - 1);
        while (s[j])
          j = (j + 1) & (cap - 1);
        s[j] = t->slot[k];
      }
    t->slot = s;
    t->cap = cap;
  }
  uint32_t j = (uint32_t)key_hash(i) & (t->cap - 1);
  for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
    if (same_key(t->slot[j], i))
      return t->slot[j];
  t->slot[j] = i;
  t->n++;
  return NULL;
}

/* Loads are numbered in their own table, emptied at every clobber (a fresh
 * table: clearing the old one's slots at each store made long blocks quadratic). */
static void vn_clear(vn_table *t)
{
  *t = (vn_table){0};
}

static bool volatile_load(const k2s_instr *i)
{
  return i->n_ops >= 2 && (i->ops[1] & SpvMemoryAccessVolatileMask);
}

static bool replace(k2s_module *m, k2s_instr *i, uint32_t by)
{
  k2s_replace_all_uses(m, i->result, by);
  drop(m, i);
  return true;
}

static bool clean_block(k2s_module *m, k2s_arena *a, k2s_block *b)
{
  bool changed = false;
  vn_table values = {0}, loads = {0};
  k2s_foreach_instr_safe(i, &b->body) {
    if (i->opcode == SpvOpPhi && i->result && i->n_ops >= 2) {
      uint32_t v = 0;
      bool one = true;
      for (uint32_t k = 0; k + 1 < i->n_ops && one; k += 2)
        if (i->ops[k] != i->result) {
          one = !v || v == i->ops[k];
          v = i->ops[k];
        }
      k2s_instr *d = v ? k2s_def(m, v) : NULL;
      /* (a value of this block itself could not dominate all the incoming edges) */
      if (one && d && d->block != b && d->opcode != SpvOpUndef && k2s_type_of(m, v) == i->type)
        changed |= replace(m, i, v);
      continue;
    }
    if (clobbers(i)) {
      vn_clear(&loads);
      continue;
    }
    if (!i->result || !i->type || decorated(m, i->result))
      continue;
    uint32_t r = identity(m, i);
    if (r) {
      changed |= replace(m, i, r);
      continue;
    }
    k2s_instr *same = NULL;
    if (i->opcode == SpvOpLoad && !volatile_load(i))
      same = vn_find_or_add(a, &loads, i);
    else if (pure(i->opcode))
      same = vn_find_or_add(a, &values, i);
    if (same)
      changed |= replace(m, i, same->result);
  }
  return changed;
}

/* ---- dead code ---- */

static bool live_use(k2s_module *m, uint32_t id)
{
  k2s_foreach_use(u, m, id)
    if (!u->user->dead && u->user->opcode != SpvOpName && u->user->block)
      return true;
  return false;
}

typedef struct dce_ctx {
  k2s_module *m;
  k2s_instr **stack;
  uint32_t n, cap;
  k2s_arena *a;
} dce_ctx;

static void push(dce_ctx *c, k2s_instr *i)
{
  if (c->n == c->cap) {
    uint32_t cap = c->cap ? 2 * c->cap : 256;
    c->stack = k2s_realloc_array(c->a, c->stack, c->n, cap, sizeof(*c->stack));
    c->cap = cap;
  }
  c->stack[c->n++] = i;
}

static void push_def(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  dce_ctx *c = ud;
  k2s_instr *d = k2s_def(c->m, *id);
  if (d && d->block && !d->dead && (pure(d->opcode) || d->opcode == SpvOpLoad))
    push(c, d);
}

static bool removable(k2s_module *m, k2s_instr *i)
{
  return !i->dead && i->result &&
         (pure(i->opcode) || (i->opcode == SpvOpLoad && !volatile_load(i))) &&
         !live_use(m, i->result) && !decorated(m, i->result);
}

static bool dead_code(k2s_module *m, k2s_arena *a, k2s_function *f)
{
  dce_ctx c = {m, NULL, 0, 0, a};
  bool changed = false;
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (removable(m, i))
        push(&c, i);
  while (c.n) {
    k2s_instr *i = c.stack[--c.n];
    if (!removable(m, i))
      continue;
    k2s_foreach_id_operand(m, i, push_def, &c);
    drop(m, i);
    changed = true;
  }
  return changed;
}

bool k2s_cleanup(k2s_module *m, const k2s_options *o)
{
  if (o->no_cleanup)
    return false;
  bool changed = false;
  k2s_arena a = {.oom = m->arena.oom};
  k2s_build_uses(m);
  k2s_foreach_function(f, m) {
    k2s_foreach_block(b, f) {
      changed |= clean_block(m, &a, b);
      k2s_arena_reset(&a);
    }
    changed |= dead_code(m, &a, f);
    k2s_arena_reset(&a);
  }
  k2s_arena_free(&a);
  return changed;
}
