/*
 * scalar-replace: a private array or struct reached only through access chains
 * with constant indices → one Function variable per part it accesses, which the
 * promotion of promote-locals (run again at the end) turns into SSA values.
 *
 * Lowering leaves such variables behind: the pointers pass assembles packed
 * PODs in a private array of words, `constant` arrays and llvm-spirv's memset
 * sources become Private copies of their initializer, and unrolled loops index
 * private arrays by constants. Promote-locals only takes variables loaded and
 * stored whole, and cleanup forwards memory within a block only, so their loads
 * stayed (what `spirv-opt -O` still removed, by scalar-replacement + ssa-rewrite).
 * A variable is split when every use is an OpAccessChain/OpInBoundsAccessChain
 * on it with constant, in-range indices whose results are only loaded and stored
 * (not volatile), and no accessed part lies inside another (no overlap); names
 * go with it. Any other use (whole loads/stores, copies, bitcasts, calls,
 * atomics, pointer comparisons, a chain stored as a value or chained further)
 * keeps it. A part starts as the part of the initializer. A Private variable
 * qualifies only when every use is in one entry-point function nobody calls
 * (it lives for exactly one run of that function, as a Function variable
 * does); a non-aggregate such Private variable moves into that function whole.
 * Runs after every pass that makes private variables (pointers, private-atomics,
 * wide-vectors) and before structurize, which keeps the phis. --no-cleanup
 * (options' no_cleanup) skips it, as it skips cleanup: pass tests that check a
 * lowering's own shape use it.
 */
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

typedef struct access {
  k2s_instr *chain; /* NULL: the variable itself (a non-aggregate Private one) */
  const uint32_t *path;
  uint32_t len;
  uint32_t part; /* index of the new variable */
} access;

typedef struct split {
  k2s_module *m;
  k2s_arena a;       /* scratch for one variable */
  k2s_arena fa;      /* scratch for one function */
  uint8_t *dead;     /* id -> 1: variables replaced (their names go too) */
  uint8_t *entry_fn; /* id -> 1: an entry point's function nobody calls */
  access *acc;
  uint32_t n_acc, cap_acc;
  bool changed;
} split;

static bool is_volatile(const k2s_instr *i, uint32_t mask_word)
{
  return i->n_ops > mask_word && (i->ops[mask_word] & SpvMemoryAccessVolatileMask);
}

/* A pointer only loaded and stored through (not volatile, never a stored value). */
static bool only_loaded_stored(k2s_module *m, uint32_t ptr)
{
  k2s_foreach_use(u, m, ptr) {
    k2s_instr *i = u->user;
    if (i->dead)
      continue;
    if (i->opcode == SpvOpLoad && u->word == 0 && !is_volatile(i, 1))
      continue;
    if (i->opcode == SpvOpStore && u->word == 0 && !is_volatile(i, 2))
      continue;
    return false;
  }
  return true;
}

/* The type index selects in aggregate type t, or 0 when index is out of range. */
static uint32_t part_type(k2s_module *m, uint32_t t, uint64_t index)
{
  k2s_instr *d = k2s_def(m, t);
  uint64_t n;
  switch (d ? d->opcode : 0) {
  case SpvOpTypeArray:
    /* A spec-constant length is not a known length. */
    if (!k2s_const_value(m, d->ops[1], &n) || k2s_def(m, d->ops[1])->opcode != SpvOpConstant)
      return 0;
    return index < n ? d->ops[0] : 0;
  case SpvOpTypeStruct: return index < d->n_ops ? d->ops[index] : 0;
  case SpvOpTypeVector:
  case SpvOpTypeMatrix: return index < d->ops[1] ? d->ops[0] : 0;
  default: return 0;
  }
}

/* The value of integer index id: a constant, or integer arithmetic on constants
 * that cleanup (which runs later) would fold; depth bounds the operand tree. */
static bool index_value(k2s_module *m, uint32_t id, uint32_t depth, uint64_t *v)
{
  if (k2s_const_value(m, id, v))
    return true;
  k2s_instr *d = k2s_def(m, id);
  uint64_t vals[2];
  if (!d || !d->block || depth == 0 || d->n_ops < 1 || d->n_ops > 2)
    return false;
  for (uint32_t k = 0; k < d->n_ops; k++)
    if (!index_value(m, d->ops[k], depth - 1, &vals[k]))
      return false;
  return k2s_fold_int(m, d, vals, v);
}

static bool add_access(split *s, k2s_instr *chain, uint32_t type)
{
  uint32_t len = chain ? chain->n_ops - 1 : 0;
  uint32_t *path = k2s_alloc(&s->a, (len + 1) * sizeof(uint32_t));
  for (uint32_t k = 0; k < len; k++) {
    uint64_t v;
    if (!index_value(s->m, chain->ops[k + 1], 3, &v) || !(type = part_type(s->m, type, v)))
      return false;
    path[k] = (uint32_t)v; /* part_type bounds it by a 32-bit count */
  }
  if (s->n_acc == s->cap_acc) {
    uint32_t cap = s->cap_acc ? s->cap_acc * 2 : 16;
    s->acc = k2s_realloc_array(&s->a, s->acc, s->n_acc, cap, sizeof(access));
    s->cap_acc = cap;
  }
  s->acc[s->n_acc++] = (access){chain, path, len, 0};
  return true;
}

static int cmp_path(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
  for (uint32_t k = 0; k < na && k < nb; k++)
    if (a[k] != b[k])
      return a[k] < b[k] ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

static int cmp_access(const void *x, const void *y)
{
  const access *a = x, *b = y;
  return cmp_path(a->path, a->len, b->path, b->len);
}

/* Whether some access's path (sorted, distinct parts numbered) is a proper
 * prefix of another's: overlapping parts, which one variable each cannot hold. */
static bool overlap(const split *s)
{
  for (uint32_t k = 0; k < s->n_acc; k++) {
    const access *x = &s->acc[k];
    if (k && x->part == s->acc[k - 1].part)
      continue;
    for (uint32_t l = 0; l < x->len; l++) { /* each proper prefix: binary search */
      uint32_t lo = 0, hi = k;
      while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        int c = cmp_path(s->acc[mid].path, s->acc[mid].len, x->path, l);
        if (c == 0)
          return true;
        if (c < 0)
          lo = mid + 1;
        else
          hi = mid;
      }
    }
  }
  return false;
}

/* The part of initializer init at x's path, or 0 for none (undef); *ok false
 * when the initializer is not one this pass can take apart. A dry run (create
 * false) makes no constant (a null part reads as 1), so that a variable that
 * stays leaves the module as it was. */
static uint32_t init_part(k2s_module *m, uint32_t init, const access *x, bool create, bool *ok)
{
  for (uint32_t k = 0; k < x->len && init; k++) {
    k2s_instr *c = k2s_def(m, init);
    if (c->opcode == SpvOpConstantNull)
      return create ? k2s_const_null(m, k2s_def(m, k2s_type_of(m, x->chain->result))->ops[1]) : 1;
    if (c->opcode == SpvOpUndef)
      return 0;
    if (c->opcode != SpvOpConstantComposite || x->path[k] >= c->n_ops) {
      *ok = false;
      return 0;
    }
    init = c->ops[x->path[k]];
  }
  return init && k2s_def(m, init)->opcode == SpvOpUndef ? 0 : init;
}

/* Drops word `word` of OpEntryPoint e (the variable in its interface). */
static void drop_interface_word(k2s_module *m, k2s_instr *e, uint32_t word)
{
  uint32_t *ops = k2s_alloc(&m->arena, e->n_ops * sizeof(uint32_t)), n = 0;
  for (uint32_t k = 0; k < e->n_ops; k++)
    if (k != word)
      ops[n++] = e->ops[k];
  k2s_instr_set_ops(m, e, ops, n);
}

/* Decorations that say nothing about the parts' values: the producer's notes on
 * an alloca (llvm-spirv reuses a by-value parameter's FuncParamAttr and
 * Alignment). Volatile, Coherent, BuiltIn and the like keep the variable. */
static bool harmless_decoration(const k2s_instr *d)
{
  if (d->n_ops < 2)
    return false;
  switch (d->ops[1]) {
  case SpvDecorationFuncParamAttr:
  case SpvDecorationAlignment:
  case SpvDecorationConstant:
  case SpvDecorationRestrict:
  case SpvDecorationAliased: return true;
  default: return false;
  }
}

/* Collects the accesses of v; returns the function they are all in, or NULL
 * when v does not qualify. */
static k2s_function *collect(split *s, k2s_instr *v, uint32_t pointee, bool private_sc)
{
  k2s_module *m = s->m;
  k2s_function *f = NULL;
  bool whole = false;
  k2s_foreach_use(u, m, v->result) {
    k2s_instr *i = u->user;
    if (i->dead || i->opcode == SpvOpName || (private_sc && i->opcode == SpvOpEntryPoint) ||
        (i->opcode == SpvOpDecorate && harmless_decoration(i)))
      continue;
    if (!i->block || (f && i->block->func != f))
      return NULL;
    f = i->block->func;
    if ((i->opcode == SpvOpAccessChain || i->opcode == SpvOpInBoundsAccessChain) && u->word == 0 &&
        only_loaded_stored(m, i->result)) {
      if (!add_access(s, i, pointee))
        return NULL;
    } else if (private_sc && u->word == 0 &&
               ((i->opcode == SpvOpLoad && !is_volatile(i, 1)) ||
                (i->opcode == SpvOpStore && !is_volatile(i, 2)))) {
      whole = true; /* checked below: the variable moves whole */
    } else {
      return NULL;
    }
  }
  if (!f || (private_sc && !s->entry_fn[f->def->result]))
    return NULL;
  if (whole) {
    /* Loads and stores of the whole variable: only a non-aggregate Private one
     * moves (whole), and nothing may reach inside it. */
    k2s_instr *t = k2s_def(m, pointee);
    if (s->n_acc || t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeStruct)
      return NULL;
    add_access(s, NULL, pointee);
  }
  return f;
}

static void split_variable(split *s, k2s_instr *v, bool private_sc)
{
  k2s_module *m = s->m;
  s->n_acc = s->cap_acc = 0;
  s->acc = NULL;
  uint32_t pointee = k2s_def(m, v->type)->ops[1];
  k2s_function *f = collect(s, v, pointee, private_sc);
  if (!f || !s->n_acc || !f->first || !f->first->body.first)
    return;
  qsort(s->acc, s->n_acc, sizeof(access), cmp_access);
  uint32_t n_parts = 0;
  for (uint32_t k = 0; k < s->n_acc; k++) {
    access *x = &s->acc[k];
    if (k && cmp_access(x, &s->acc[k - 1]) == 0)
      x->part = s->acc[k - 1].part;
    else
      x->part = n_parts++;
  }
  if (overlap(s))
    return;
  uint32_t init = v->n_ops >= 2 ? v->ops[1] : 0;
  uint32_t *part_var = k2s_alloc(&s->a, n_parts * sizeof(uint32_t));
  uint32_t *part_init = k2s_alloc(&s->a, n_parts * sizeof(uint32_t));
  bool ok = true;
  for (uint32_t k = 0; k < s->n_acc && ok; k++)
    init_part(m, init, &s->acc[k], false, &ok);
  if (!ok)
    return;
  for (uint32_t k = 0; k < s->n_acc; k++)
    if (!k || s->acc[k].part != s->acc[k - 1].part)
      part_init[s->acc[k].part] = init_part(m, init, &s->acc[k], true, &ok);
  /* Out of the entry points' interfaces first: the whole-variable case below
   * replaces every use. */
  k2s_instr **eps = k2s_alloc(&s->a, 8 * sizeof(k2s_instr *));
  uint32_t *words = k2s_alloc(&s->a, 8 * sizeof(uint32_t)), n_eps = 0, cap_eps = 8;
  k2s_foreach_use(u, m, v->result)
    if (!u->user->dead && u->user->opcode == SpvOpEntryPoint) {
      if (n_eps == cap_eps) {
        eps = k2s_realloc_array(&s->a, eps, n_eps, cap_eps * 2, sizeof(*eps));
        words = k2s_realloc_array(&s->a, words, n_eps, cap_eps * 2, sizeof(*words));
        cap_eps *= 2;
      }
      eps[n_eps] = u->user;
      words[n_eps++] = u->word;
    }
  for (uint32_t k = 0; k < n_eps; k++)
    drop_interface_word(m, eps[k], words[k]);
  k2s_builder b = {m, k2s_before(f->first->body.first)};
  for (uint32_t k = 0; k < s->n_acc; k++) {
    access *x = &s->acc[k];
    if (!part_var[x->part]) {
      uint32_t type = x->chain ? k2s_def(m, k2s_type_of(m, x->chain->result))->ops[1] : pointee;
      uint32_t ops[2] = {SpvStorageClassFunction, part_init[x->part]};
      part_var[x->part] =
          k2s_emit(&b, SpvOpVariable, k2s_type_pointer(m, SpvStorageClassFunction, type), ops,
                   ops[1] ? 2 : 1);
    }
    if (x->chain) {
      k2s_replace_all_uses(m, x->chain->result, part_var[x->part]);
      k2s_instr_delete(m, x->chain);
    } else {
      k2s_replace_all_uses(m, v->result, part_var[x->part]);
    }
  }
  s->dead[v->result] = 1;
  k2s_instr_delete(m, v);
  s->changed = true;
}

/* entry_fn[id] = 1 for each entry point's function that no OpFunctionCall calls. */
static void find_entry_functions(split *s)
{
  k2s_module *m = s->m;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (e->opcode != SpvOpEntryPoint || e->n_ops < 2 || e->ops[1] >= m->id_cap)
      continue;
    bool called = false;
    k2s_foreach_use(u, m, e->ops[1])
      called |= !u->user->dead && u->user->opcode == SpvOpFunctionCall;
    s->entry_fn[e->ops[1]] = !called;
  }
}

static bool is_aggregate_pointer(k2s_module *m, const k2s_instr *v)
{
  k2s_instr *pt = k2s_def(m, v->type);
  k2s_instr *t = pt && pt->opcode == SpvOpTypePointer ? k2s_def(m, pt->ops[1]) : NULL;
  return t && (t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeStruct);
}

bool k2s_scalar_replace(k2s_module *m, const k2s_options *o)
{
  if (o->no_cleanup)
    return false;
  k2s_keep_uses(m); /* operands change only through the API */
  k2s_build_uses(m);
  split s = {.m = m};
  s.a.oom = s.fa.oom = m->arena.oom;
  s.dead = k2s_alloc(&m->arena, m->id_cap);
  s.entry_fn = k2s_alloc(&m->arena, m->id_cap);
  find_entry_functions(&s);
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassPrivate)
      continue;
    split_variable(&s, v, true);
    k2s_arena_free(&s.a);
    s.a = (k2s_arena){.oom = m->arena.oom};
  }
  k2s_foreach_function(f, m) {
    if (!f->first)
      continue;
    /* The variables first: splitting one deletes its access chains, which may
     * follow it in the entry block. */
    uint32_t n = 0;
    k2s_foreach_instr(v, &f->first->body)
      n += v->opcode == SpvOpVariable;
    k2s_instr **vars = k2s_alloc(&s.fa, (n + 1) * sizeof(*vars));
    n = 0;
    k2s_foreach_instr(v, &f->first->body)
      if (v->opcode == SpvOpVariable && v->n_ops >= 1 && v->ops[0] == SpvStorageClassFunction &&
          is_aggregate_pointer(m, v))
        vars[n++] = v;
    for (uint32_t k = 0; k < n; k++) {
      split_variable(&s, vars[k], false);
      k2s_arena_free(&s.a);
      s.a = (k2s_arena){.oom = m->arena.oom};
    }
    k2s_arena_free(&s.fa);
    s.fa = (k2s_arena){.oom = m->arena.oom};
  }
  if (s.changed)
    k2s_drop_annotations_of(m, s.dead);
  /* The parts (and whatever other variable lowering left loaded and stored
   * whole) become SSA values. */
  bool promoted = k2s_promote_locals(m, o);
  return s.changed || promoted;
}
