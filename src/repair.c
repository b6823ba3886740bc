/*
 * Input repairs: fix what clang-15 + llvm-spirv-15 get wrong in otherwise
 * valid Kernel SPIR-V, before the input is validated, so that spirv-val
 * (which stops at its first complaint) still checks everything else.
 *
 * Each repair fixes one known producer quirk and nothing else, and reports
 * what it changed and where (a warning; a note where the input was valid):
 *   - OpPhi entries repeated for one predecessor (llvm-spirv 15 repeats a
 *     switch block once per case that shares a target);
 *   - blocks placed before their dominator (llvm-spirv 15 block layout);
 *   - work-item builtins read with a dimension index >= 3: llvm-spirv 15
 *     folds get_global_id(3) into an out-of-range OpCompositeExtract and
 *     drops OpenCL's range check for a run-time index; OpenCL C gives 0 for
 *     ids and offsets, 1 for sizes and group counts;
 *   - entry-point interfaces without the global variables SPIR-V 1.4 wants
 *     listed (llvm-spirv 15 emits 1.4 whenever nsw/nuw flags are present),
 *     including those only named by another listed variable's initialiser
 *     (`global int *gp = &counter;`);
 *   - Function-storage OpVariables after the start of the entry block
 *     (llvm-spirv 15 emits the temporary of a memcpy of a private struct
 *     where the copy is);
 *   - OpAtomicCompareExchangeWeak in SPIR-V 1.4+ modules, where it no longer
 *     exists (llvm-spirv 15 emits it for atomic_compare_exchange_weak);
 *   - merge hints spirv-val rejects: k2s_repair_drop_merges(), called by
 *     translate.c only when validation fails on a module that has them
 *     (structurize recomputes them in any case).
 * src/repair_llvm_spirv.c runs first: values llvm-spirv leaks from its own
 * model (its internal linkage type), and the refusals of what cannot be
 * repaired (llvm-spirv 14's integer OpDot), in the producer's terms.
 * The input is not trusted here (it is validated afterwards): every operand
 * is bounds-checked and anything unexpected is left for the validator.
 */
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

#define NONE UINT32_MAX

static const char *id_text(k2s_module *m, uint32_t id)
{
  const char *n = k2s_name_of(m, id);
  return n && *n ? k2s_sprintf(&m->arena, "%%%s", n) : k2s_sprintf(&m->arena, "%%%u", id);
}

static const char *func_text(k2s_module *m, k2s_function *f)
{
  return f->def ? id_text(m, f->def->result) : "?";
}

/* ---- duplicate OpPhi predecessors ---------------------------------------- */

/* Is pair k of the phi a repeat of an earlier (value, block) pair? */
static bool repeated_pair(const k2s_instr *phi, uint32_t k)
{
  for (uint32_t j = 0; j < k; j += 2)
    if (phi->ops[j] == phi->ops[k] && phi->ops[j + 1] == phi->ops[k + 1])
      return true;
  return false;
}

static k2s_instr *next_phi(k2s_instr *i)
{
  for (; i; i = i->next) {
    if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
      continue;
    return i->opcode == SpvOpPhi ? i : NULL;
  }
  return NULL;
}

static bool dedupe_phis(k2s_module *m, k2s_function *f)
{
  bool changed = false;
  k2s_foreach_block(b, f) {
    /* Count first, so that the warning shows the phi as the input has it. */
    uint32_t phis = 0, removed = 0;
    k2s_instr *first = NULL;
    for (k2s_instr *i = next_phi(b->body.first); i; i = next_phi(i->next)) {
      uint32_t r = 0;
      for (uint32_t k = 0; i->n_ops % 2 == 0 && k < i->n_ops; k += 2)
        r += repeated_pair(i, k);
      if (!r)
        continue;
      phis++;
      removed += r;
      if (!first)
        first = i;
    }
    if (!phis)
      continue;
    k2s_warn(m, first,
             "repaired input: %u OpPhi%s in block %s of function %s listed the same "
             "(value, predecessor) pair more than once (llvm-spirv 15 repeats a switch "
             "block once per case that shares a target); %u repeated entr%s removed",
             phis, phis == 1 ? "" : "s", id_text(m, b->label->result), func_text(m, f), removed,
             removed == 1 ? "y was" : "ies were");
    for (k2s_instr *i = next_phi(b->body.first); i; i = next_phi(i->next)) {
      if (i->n_ops % 2)
        continue; /* malformed: the validator says so */
      uint32_t n = 0;
      for (uint32_t k = 0; k < i->n_ops; k += 2)
        if (!repeated_pair(i, k)) {
          /* Compacting in place keeps the pairs before k intact for the test. */
          uint32_t v = i->ops[k], p = i->ops[k + 1];
          i->ops[n++] = v;
          i->ops[n++] = p;
        }
      i->n_ops = n;
    }
    changed = true;
  }
  if (changed)
    k2s_invalidate_uses(m);
  return changed;
}

static bool is_line(const k2s_instr *i)
{
  return i->opcode == SpvOpLine || i->opcode == SpvOpNoLine;
}

/* ---- line instructions among phis --------------------------------------- */

/* SPIR-V lets OpLine/OpNoLine, and the debug instructions of an extended set
 * (DebugScope), come before a block's OpPhis (llvm-spirv does so at -g); every pass
 * reads a block's phis as the instructions before its first other one. Such lines and
 * debug instructions before the last phi move to just after it, in their order: they
 * describe no phi. */
static bool before_phis_ok(const k2s_module *m, const k2s_instr *i)
{
  return is_line(i) || k2s_is_debug_info(m, i);
}

static void lines_after_phis(const k2s_module *m, k2s_function *f)
{
  k2s_foreach_block(b, f) {
    k2s_instr *last = NULL;
    for (k2s_instr *i = b->body.first; i && (i->opcode == SpvOpPhi || before_phis_ok(m, i));
         i = i->next)
      if (i->opcode == SpvOpPhi)
        last = i;
    if (!last)
      continue;
    k2s_instr *at = last;
    for (k2s_instr *i = b->body.first, *next; i != last; i = next) {
      next = i->next;
      if (i->opcode == SpvOpPhi)
        continue;
      k2s_list_remove(&b->body, i);
      k2s_list_insert_after(&b->body, at, i);
      at = i;
    }
  }
}

/* ---- blocks before their dominator ------------------------------------- */

/* Keep the input's order, but hold back each block whose immediate
 * dominator comes later until right after it (with its own held-back
 * blocks): the smallest move that puts every block after its dominators. */
static bool order_blocks(k2s_module *m, k2s_arena *a, k2s_function *f)
{
  if (!f->first)
    return false;
  k2s_cfg *c = k2s_cfg_build(m, a, f);
  k2s_cfg_dominators(c, a);
  uint32_t n = c->n_blocks, bad = NONE;
  for (uint32_t b = 0; b < n && bad == NONE; b++)
    if (c->idom[b] != NONE && c->idom[b] > b)
      bad = b;
  if (bad == NONE)
    return false;
  uint32_t *head = k2s_alloc(a, n * sizeof(uint32_t)), *tail = k2s_alloc(a, n * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(a, n * sizeof(uint32_t)), *order = k2s_alloc(a, n * sizeof(uint32_t));
  uint32_t *stack = k2s_alloc(a, n * sizeof(uint32_t));
  uint8_t *placed = k2s_alloc(a, n);
  memset(head, 0xff, n * sizeof(uint32_t));
  uint32_t n_order = 0, moved = 0;
  for (uint32_t b = 0; b < n; b++) {
    uint32_t d = c->idom[b];
    if (d != NONE && !placed[d]) {
      next[b] = NONE;
      if (head[d] == NONE)
        head[d] = b;
      else
        next[tail[d]] = b;
      tail[d] = b;
      moved++;
      continue;
    }
    uint32_t sp = 0;
    stack[sp++] = b;
    while (sp) {
      uint32_t x = stack[--sp];
      order[n_order++] = x;
      placed[x] = 1;
      /* Push the held-back blocks in reverse so they come out in input order. */
      uint32_t cnt = 0;
      for (uint32_t y = head[x]; y != NONE; y = next[y])
        cnt++;
      sp += cnt;
      uint32_t at = sp;
      for (uint32_t y = head[x]; y != NONE; y = next[y])
        stack[--at] = y;
    }
  }
  if (n_order != n) /* cannot happen: every dominator chain ends at the entry */
    return false;
  k2s_block **blocks = c->blocks;
  k2s_warn(m, blocks[bad]->label,
           "repaired input: block %s appears before its dominator %s in function %s "
           "(llvm-spirv 15 block layout); %u block%s moved after %s dominator",
           id_text(m, blocks[bad]->label->result), id_text(m, blocks[c->idom[bad]]->label->result),
           func_text(m, f), moved, moved == 1 ? "" : "s", moved == 1 ? "its" : "their");
  f->first = f->last = NULL;
  for (uint32_t i = 0; i < n_order; i++)
    k2s_function_append_block(f, blocks[order[i]]);
  return true;
}

/* ---- work-item builtins read with a dimension >= 3 ------------------------ */

/* The value OpenCL C gives for a dimension out of range, by builtin; false
 * for builtins that are not per-dimension. */
static bool out_of_range_value(uint32_t builtin, uint64_t *value)
{
  switch (builtin) {
  case SpvBuiltInGlobalInvocationId:
  case SpvBuiltInLocalInvocationId:
  case SpvBuiltInWorkgroupId:
  case SpvBuiltInGlobalOffset: *value = 0; return true;
  case SpvBuiltInGlobalSize:
  case SpvBuiltInWorkgroupSize:
  case SpvBuiltInEnqueuedWorkgroupSize:
  case SpvBuiltInNumWorkgroups: *value = 1; return true;
  default: return false;
  }
}

static const char *builtin_function(uint32_t builtin)
{
  switch (builtin) {
  case SpvBuiltInGlobalInvocationId: return "get_global_id";
  case SpvBuiltInLocalInvocationId: return "get_local_id";
  case SpvBuiltInWorkgroupId: return "get_group_id";
  case SpvBuiltInGlobalOffset: return "get_global_offset";
  case SpvBuiltInGlobalSize: return "get_global_size";
  case SpvBuiltInWorkgroupSize: return "get_local_size";
  case SpvBuiltInEnqueuedWorkgroupSize: return "get_enqueued_local_size";
  case SpvBuiltInNumWorkgroups: return "get_num_groups";
  default: return "a work-item function";
  }
}

static bool is_int_type(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypeInt && t->n_ops >= 2 && (t->ops[0] == 32 || t->ops[0] == 64);
}

/* The users of id, collected first: the repairs below edit the chains. */
static k2s_instr **users_of(k2s_module *m, k2s_arena *a, uint32_t id, uint32_t *n)
{
  uint32_t cnt = 0;
  k2s_foreach_use(u, m, id)
    cnt++;
  k2s_instr **out = k2s_alloc(a, (cnt + 1) * sizeof(*out));
  *n = 0;
  k2s_foreach_use(u, m, id)
    if (*n == 0 || out[*n - 1] != u->user)
      out[(*n)++] = u->user;
  return out;
}

/* A constant index out of range: the extract becomes OpenCL's value. */
static void fold_extract(k2s_module *m, k2s_instr *x, uint32_t builtin, uint64_t value,
                         uint64_t index, uint32_t n_comp)
{
  k2s_warn(m, x,
           "repaired input: %s(%llu) reads component %llu of a %u-component builtin vector "
           "(llvm-spirv 15 folds an out-of-range dimension into an out-of-bounds extract); "
           "replaced by %llu, what OpenCL C returns for a dimension >= get_work_dim()",
           builtin_function(builtin), (unsigned long long)index, (unsigned long long)index, n_comp,
           (unsigned long long)value);
  uint32_t c = k2s_const_int(m, x->type, value);
  k2s_replace_all_uses(m, x->result, c);
  k2s_instr_delete(m, x);
}

/* A run-time index: clamp it into range and select OpenCL's value beyond. */
static void guard_extract(k2s_module *m, k2s_arena *a, k2s_instr *x, uint32_t n_comp,
                          uint32_t builtin, uint64_t value)
{
  uint32_t idx = x->ops[1], it = k2s_type_of(m, idx);
  if (!is_int_type(m, it))
    return;
  uint32_t n_users;
  k2s_instr **users = users_of(m, a, x->result, &n_users);
  k2s_builder b = {m, k2s_before(x)};
  uint32_t lt[2] = {idx, k2s_const_int(m, it, n_comp)};
  uint32_t in_range = k2s_emit(&b, SpvOpULessThan, k2s_type_bool(m), lt, 2);
  uint32_t cl[3] = {in_range, idx, k2s_const_int(m, it, 0)};
  x->ops[1] = k2s_emit(&b, SpvOpSelect, it, cl, 3);
  b.cursor = k2s_after(x);
  uint32_t sel[3] = {in_range, x->result, k2s_const_int(m, x->type, value)};
  uint32_t r = k2s_emit(&b, SpvOpSelect, x->type, sel, 3);
  for (uint32_t i = 0; i < n_users; i++) {
    k2s_instr *u = users[i];
    if (u->dead || !u->block || u->result == r)
      continue; /* names and decorations stay with the extract */
    for (uint32_t w = 0; w < u->n_ops; w++)
      if (u->ops[w] == x->result)
        u->ops[w] = r;
  }
  k2s_invalidate_uses(m);
  k2s_diag(m, K2S_NOTE, x,
           "%s with a run-time dimension: k2s adds the range check llvm-spirv 15 leaves out "
           "(a dimension >= %u gives %llu)",
           builtin_function(builtin), n_comp, (unsigned long long)value);
}

static bool repair_builtin_loads(k2s_module *m, k2s_arena *a, uint32_t var, uint32_t builtin,
                                 uint64_t value, uint32_t n_comp)
{
  bool changed = false;
  uint32_t n_loads;
  k2s_instr **loads = users_of(m, a, var, &n_loads);
  for (uint32_t l = 0; l < n_loads; l++) {
    k2s_instr *ld = loads[l];
    if (ld->dead || ld->opcode != SpvOpLoad || !ld->block || ld->n_ops < 1 || ld->ops[0] != var ||
        !ld->result)
      continue;
    uint32_t n_users;
    k2s_instr **users = users_of(m, a, ld->result, &n_users);
    for (uint32_t k = 0; k < n_users; k++) {
      k2s_instr *x = users[k];
      if (x->dead || !x->block || !is_int_type(m, x->type) || x->n_ops != 2 ||
          x->ops[0] != ld->result)
        continue;
      uint64_t index;
      if (x->opcode == SpvOpCompositeExtract) {
        if (x->ops[1] < n_comp)
          continue;
        fold_extract(m, x, builtin, value, x->ops[1], n_comp);
      } else if (x->opcode == SpvOpVectorExtractDynamic) {
        if (k2s_const_value(m, x->ops[1], &index)) {
          if (index < n_comp)
            continue;
          fold_extract(m, x, builtin, value, index, n_comp);
        } else {
          guard_extract(m, a, x, n_comp, builtin, value);
        }
      } else {
        continue;
      }
      changed = true;
    }
  }
  return changed;
}

static bool repair_builtin_dims(k2s_module *m, k2s_arena *a)
{
  bool changed = false;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassInput)
      continue;
    k2s_instr *bi = k2s_find_decoration(m, v->result, SpvDecorationBuiltIn);
    uint64_t value;
    if (!bi || bi->n_ops < 3 || !out_of_range_value(bi->ops[2], &value))
      continue;
    k2s_instr *pt = k2s_def(m, v->type);
    if (!pt || pt->opcode != SpvOpTypePointer || pt->n_ops < 2)
      continue;
    k2s_instr *vt = k2s_def(m, pt->ops[1]);
    if (!vt || vt->opcode != SpvOpTypeVector || vt->n_ops < 2)
      continue;
    changed |= repair_builtin_loads(m, a, v->result, bi->ops[2], value, vt->ops[1]);
  }
  return changed;
}

/* ---- entry-point interfaces ------------------------------------------- */

typedef struct iface_ctx {
  k2s_module *m;
  uint8_t *is_global; /* id -> a module-scope OpVariable that must be listed */
  uint8_t *used;      /* id -> used by the entry point being walked */
  uint32_t *list, n_list;
  uint32_t *calls, n_calls;
} iface_ctx;

static void note_id(iface_ctx *c, uint32_t id, int depth);

typedef struct init_walk {
  iface_ctx *c;
  int depth;
} init_walk;

static void note_initializer(iface_ctx *c, uint32_t id, int depth);

static void init_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  init_walk *w = ud;
  (void)in;
  note_initializer(w->c, *id, w->depth);
}

/* The variables a module-scope initialiser names, through constant expressions
 * (OpSpecConstantOp casts and access chains, composites: any typed module-scope
 * value's <id> operands): spirv-val counts them as used by every entry point
 * using the variable it initialises. */
static void note_initializer(iface_ctx *c, uint32_t id, int depth)
{
  k2s_instr *d = id < c->m->id_cap ? k2s_def(c->m, id) : NULL;
  if (!d || d->block || depth > 32)
    return;
  if (d->opcode == SpvOpVariable) {
    note_id(c, id, depth);
    return;
  }
  const k2s_opcode_info *info = k2s_opcode(d->opcode);
  if (!info || !info->has_type)
    return; /* types and other untyped declarations name no variable */
  init_walk w = {c, depth + 1};
  k2s_foreach_id_operand(c->m, d, init_operand, &w);
}

static void note_id(iface_ctx *c, uint32_t id, int depth)
{
  if (id >= c->m->id_cap || !c->is_global[id] || c->used[id])
    return;
  c->used[id] = 1;
  c->list[c->n_list++] = id;
  k2s_instr *v = k2s_def(c->m, id);
  if (v && v->opcode == SpvOpVariable && v->n_ops >= 2)
    note_initializer(c, v->ops[1], depth + 1);
}

static void note_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  note_id(ud, *id, 0);
}

static bool repair_interfaces(k2s_module *m, k2s_arena *a)
{
  /* SPIR-V 1.4 lists every module-scope variable the entry point uses; before
   * it, only Input and Output ones. */
  bool all = ((m->version >> 8) & 0xff) >= 4 || (m->version >> 16) > 1;
  uint32_t cap = m->id_cap;
  iface_ctx c = {.m = m};
  c.is_global = k2s_alloc(a, cap + 1);
  uint32_t n_globals = 0;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable && v->n_ops >= 1 && v->result < cap &&
        (all || v->ops[0] == SpvStorageClassInput || v->ops[0] == SpvStorageClassOutput)) {
      c.is_global[v->result] = 1;
      n_globals++;
    }
  if (!n_globals)
    return false;
  uint32_t n_funcs = 0;
  k2s_foreach_function(f, m)
    n_funcs++;
  c.list = k2s_alloc(a, (n_globals + 1) * sizeof(uint32_t));
  c.calls = k2s_alloc(a, (n_funcs + 1) * sizeof(uint32_t));
  /* One pair of id-sized marks for all entry points, cleared through the lists
   * of what each one marked: a fresh pair per entry point would cost the id
   * bound per kernel. */
  c.used = k2s_alloc(a, cap + 1);
  uint8_t *seen_f = k2s_alloc(a, cap + 1);
  bool changed = false;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    for (uint32_t k = 0; k < c.n_list; k++)
      c.used[c.list[k]] = 0;
    for (uint32_t k = 0; k < c.n_calls; k++)
      seen_f[c.calls[k]] = 0;
    c.n_list = c.n_calls = 0;
    if (e->opcode != SpvOpEntryPoint || e->n_ops < 3)
      continue;
    const char *name = k2s_string_operand(e, 2);
    if (!name)
      continue;
    uint32_t first_iface = 2 + k2s_string_words(name);
    k2s_function *root = k2s_function_of_id(m, e->ops[1]);
    if (!root)
      continue;
    c.calls[c.n_calls++] = root->def->result;
    seen_f[root->def->result] = 1;
    for (uint32_t q = 0; q < c.n_calls; q++) {
      k2s_function *f = k2s_function_of_id(m, c.calls[q]);
      if (!f)
        continue;
      k2s_foreach_block(b, f)
        k2s_foreach_instr(i, &b->body) {
          k2s_foreach_id_operand(m, i, note_operand, &c);
          if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1 && i->ops[0] < cap &&
              !seen_f[i->ops[0]] && k2s_function_of_id(m, i->ops[0]) && c.n_calls < n_funcs) {
            seen_f[i->ops[0]] = 1;
            c.calls[c.n_calls++] = i->ops[0];
          }
        }
    }
    /* A listed variable the functions never name still names its initialiser's. */
    for (uint32_t k = first_iface; k < e->n_ops; k++)
      note_id(&c, e->ops[k], 0);
    uint32_t missing = 0, first_missing = 0;
    for (uint32_t k = first_iface; k < e->n_ops; k++)
      if (e->ops[k] < cap && c.is_global[e->ops[k]])
        c.used[e->ops[k]] = 2; /* listed (in c.list: note_id saw it above) */
    for (uint32_t k = 0; k < c.n_list; k++)
      if (c.used[c.list[k]] == 1 && !missing++)
        first_missing = c.list[k];
    if (!missing)
      continue;
    k2s_warn(m, e,
             "repaired input: the interface of entry point '%s' left out %u variable%s it "
             "uses, first %s (llvm-spirv 15 does so in SPIR-V 1.4 modules); added",
             name, missing, missing == 1 ? "" : "s", id_text(m, first_missing));
    for (uint32_t k = 0; k < c.n_list; k++)
      if (c.used[c.list[k]] == 1)
        k2s_instr_push_op(m, e, c.list[k]);
    changed = true;
  }
  return changed;
}

/* ---- function variables after the start of the entry block ------------------- */

/* SPIR-V wants every Function-storage OpVariable at the start of the entry block;
 * llvm-spirv 15 emits the temporary of a memcpy of a private struct (and other allocas
 * LLVM left in place) where it is used. Move each to the end of the entry block's
 * variables. One in the entry block keeps its initialiser (it ran once anyway); one
 * further down becomes a variable without initialiser plus an OpStore of the constant
 * where it was, so that a loop re-initialises it as before. A non-constant initialiser
 * is left for the validator. */

/* A Function variable out of place that can move: no initialiser or a constant one. */
static bool movable_variable(k2s_module *m, const k2s_instr *i)
{
  if (i->opcode != SpvOpVariable || i->n_ops < 1 || i->ops[0] != SpvStorageClassFunction)
    return false;
  if (i->n_ops < 2)
    return true;
  k2s_instr *init = k2s_def(m, i->ops[1]);
  return init && !init->block && init->opcode != SpvOpVariable; /* else: the validator */
}

static bool hoist_variables(k2s_module *m, k2s_arena *a, k2s_function *f)
{
  k2s_block *entry = f->first;
  if (!entry)
    return false;
  /* The entry block's leading variables stay; the others out of place are collected. */
  k2s_instr *last_var = NULL, *start = entry->body.first;
  for (; start && (start->opcode == SpvOpVariable || is_line(start)); start = start->next)
    if (start->opcode == SpvOpVariable)
      last_var = start;
  uint32_t n = 0;
  k2s_foreach_block(b, f)
    for (k2s_instr *i = b == entry ? start : b->body.first; i; i = i->next)
      n += movable_variable(m, i);
  if (!n)
    return false;
  k2s_instr **vars = k2s_alloc(a, n * sizeof(*vars));
  n = 0;
  k2s_foreach_block(b, f)
    for (k2s_instr *i = b == entry ? start : b->body.first; i; i = i->next)
      if (movable_variable(m, i))
        vars[n++] = i;
  k2s_warn(m, vars[0],
           "repaired input: %u OpVariable%s of function %s, first %s, %s not at the start of "
           "the entry block (llvm-spirv 15 emits the temporary of a private struct copy where "
           "the copy is); moved there",
           n, n == 1 ? "" : "s", func_text(m, f), id_text(m, vars[0]->result),
           n == 1 ? "was" : "were");
  for (uint32_t k = 0; k < n; k++) {
    k2s_instr *v = vars[k];
    k2s_block *b = v->block;
    if (v->n_ops >= 2 && b != entry) {
      k2s_builder bld = {m, k2s_before(v)};
      uint32_t ops[2] = {v->result, v->ops[1]};
      k2s_emit(&bld, SpvOpStore, 0, ops, 2);
      k2s_instr_set_ops(m, v, v->ops, 1);
    }
    k2s_list_remove(&b->body, v);
    v->block = entry;
    if (last_var)
      k2s_list_insert_after(&entry->body, last_var, v);
    else if (entry->body.first)
      k2s_list_insert_before(&entry->body, entry->body.first, v);
    else
      k2s_list_append(&entry->body, v);
    last_var = v;
  }
  k2s_invalidate_uses(m);
  return true;
}

/* ---- weak compare-exchange in SPIR-V 1.4+ ------------------------------------ */

/* llvm-spirv 15 emits OpAtomicCompareExchangeWeak (atomic_compare_exchange_weak)
 * also when it writes SPIR-V 1.4, where that opcode no longer exists; the strong
 * exchange it was an alias of has the same operands and meaning. */
static bool repair_weak_exchange(k2s_module *m)
{
  if (m->version < 0x00010400)
    return false;
  uint32_t n = 0;
  k2s_instr *first = NULL;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpAtomicCompareExchangeWeak) {
          if (!first)
            first = i;
          n++;
        }
  if (!n)
    return false;
  k2s_warn(m, first,
           "repaired input: %u OpAtomicCompareExchangeWeak in a SPIR-V 1.4+ module (llvm-spirv "
           "15 emits the opcode SPIR-V 1.4 removed); now OpAtomicCompareExchange, which it was "
           "an alias of",
           n);
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpAtomicCompareExchangeWeak)
          i->opcode = SpvOpAtomicCompareExchange;
  return true;
}

/* ---- merge hints ----------------------------------------------------------- */

static int cmp_label(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The unroll bits of a loop control (the rest are promises about a loop that
 * structurize may reshape: dropped with the merge). */
static uint32_t loop_hint(uint32_t control)
{
  return control & (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask);
}

uint32_t k2s_repair_drop_merges(k2s_module *m);
uint32_t k2s_repair_drop_merges(k2s_module *m)
{
  uint32_t n = 0, n_hints = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        n_hints += i->opcode == SpvOpLoopMerge && i->n_ops >= 3 && loop_hint(i->ops[2]);
  uint32_t *hints = n_hints ? k2s_alloc(&m->arena, 2 * n_hints * sizeof(uint32_t)) : NULL;
  n_hints = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body)
        if (i->opcode == SpvOpSelectionMerge || i->opcode == SpvOpLoopMerge) {
          /* The loop's unroll hint outlives the merge (the user's #pragma
           * unroll / nounroll); where and whether there is a loop is
           * structurize's to find. */
          if (i->opcode == SpvOpLoopMerge && i->n_ops >= 3 && loop_hint(i->ops[2])) {
            hints[2 * n_hints] = b->label->result;
            hints[2 * n_hints + 1] = loop_hint(i->ops[2]);
            n_hints++;
          }
          k2s_instr_delete(m, i);
          n++;
        }
  if (n_hints > 1)
    qsort(hints, n_hints, 2 * sizeof(uint32_t), cmp_label);
  m->loop_hints = hints;
  m->n_loop_hints = n_hints;
  return n;
}

uint32_t k2s_repaired_loop_hint(const k2s_module *m, uint32_t label)
{
  uint32_t lo = 0, hi = m->n_loop_hints;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->loop_hints[2 * mid] < label)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->n_loop_hints && m->loop_hints[2 * lo] == label ? m->loop_hints[2 * lo + 1] : 0;
}

/* ---- entry ---------------------------------------------------------------- */

bool k2s_repair_compat(k2s_module *m);     /* src/repair_compat.c */
bool k2s_repair_debug_info(k2s_module *m); /* src/repair_compat.c */
bool k2s_repair_llvm_spirv(k2s_module *m); /* src/repair_llvm_spirv.c */
bool k2s_repair_input(k2s_module *m);
bool k2s_repair_input(k2s_module *m)
{
  k2s_arena scratch = {.oom = m->arena.oom};
  bool changed = k2s_repair_llvm_spirv(m); /* may refuse the module (m->failed) */
  if (m->failed)
    return changed;
  changed |= k2s_repair_compat(m);
  /* Scratch per function, reset after it: what one function needs, not the module. */
  k2s_arena fs = {.oom = m->arena.oom};
  k2s_foreach_function(f, m) {
    lines_after_phis(m, f);
    changed |= dedupe_phis(m, f);
    changed |= order_blocks(m, &fs, f);
    changed |= hoist_variables(m, &fs, f);
    k2s_arena_reset(&fs);
  }
  k2s_arena_free(&fs);
  changed |= repair_builtin_dims(m, &scratch);
  changed |= repair_interfaces(m, &scratch);
  changed |= repair_weak_exchange(m);
  changed |= k2s_repair_debug_info(m); /* last: it validates what it keeps */
  k2s_arena_free(&scratch);
  return changed;
}
