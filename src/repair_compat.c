/*
 * Input repairs for what real OpenCL toolchains emit beyond the quirks of
 * src/repair.c (called from k2s_repair_input, before input validation):
 *   - module-scope OpVariables of storage class Function: llvm-spirv 15
 *     turns an LLVM global in the private address space (addrspace 0) into
 *     one, which SPIR-V forbids ("Variables can not have a function storage
 *     class outside of a function"); LLVM makes such globals for -O2 switch
 *     lookup tables (`@switch.table.*`). Each becomes a Function variable
 *     with the same initialiser in every function that uses it.
 * As in src/repair.c the input is not trusted: anything unexpected is left
 * for the validator, which then names it.
 */
#include <string.h>

#include "k2s_internal.h"

static const char *id_text(k2s_module *m, uint32_t id)
{
  const char *n = k2s_name_of(m, id);
  return n && *n ? k2s_sprintf(&m->arena, "%%%s", n) : k2s_sprintf(&m->arena, "%%%u", id);
}

/* ---- module-scope Function variables ------------------------------------ */

typedef struct fv_scan {
  uint32_t var;
  bool found;
} fv_scan;

static void scan_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  fv_scan *s = ud;
  (void)in;
  if (*id == s->var)
    s->found = true;
}

static bool names_id(k2s_module *m, k2s_instr *i, uint32_t id)
{
  fv_scan s = {id, false};
  k2s_foreach_id_operand(m, i, scan_operand, &s);
  return s.found;
}

typedef struct fv_subst {
  uint32_t from, to;
} fv_subst;

static void subst_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  fv_subst *s = ud;
  (void)in;
  if (*id == s->from)
    *id = s->to;
}

static bool function_uses(k2s_module *m, k2s_function *f, uint32_t id)
{
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (names_id(m, i, id))
        return true;
  return false;
}

/* Whether some OpFunctionCall in the module calls f. */
static bool is_called(k2s_module *m, k2s_function *f)
{
  uint32_t fid = f->def->result;
  k2s_foreach_function(g, m)
    k2s_foreach_block(b, g)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1 && i->ops[0] == fid)
          return true;
  return false;
}

/* Put v at the start of f's entry block (SPIR-V wants Function variables there). */
static void place_in_entry(k2s_function *f, k2s_instr *v)
{
  k2s_block *entry = f->first;
  v->block = entry;
  if (entry->body.first)
    k2s_list_insert_before(&entry->body, entry->body.first, v);
  else
    k2s_list_append(&entry->body, v);
}

/* Where else the variable is named: only names, decorations and entry-point
 * interfaces are expected; a global initialiser naming it (a pointer to it
 * stored in another global) cannot be split per function. */
static bool only_declared_elsewhere(k2s_module *m, uint32_t var)
{
  k2s_foreach_instr(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->result != var && names_id(m, g, var))
      return false;
  return true;
}

static void drop_from_interfaces(k2s_module *m, uint32_t var)
{
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    const char *name = e->n_ops >= 3 ? k2s_string_operand(e, 2) : NULL;
    if (!name)
      continue;
    uint32_t start = 2 + k2s_string_words(name), w = start;
    for (uint32_t r = start; r < e->n_ops; r++)
      if (e->ops[r] != var)
        e->ops[w++] = e->ops[r];
    e->n_ops = w;
  }
}

/* Move one variable into each function using it; false when it must stay
 * (the validator then reports it). */
static bool localise(k2s_module *m, k2s_instr *v)
{
  uint32_t var = v->result;
  if (v->n_ops >= 2) {
    k2s_instr *init = k2s_def(m, v->ops[1]);
    if (!init || init->block || init->opcode == SpvOpVariable)
      return false;
  }
  if (!only_declared_elsewhere(m, var))
    return false;
  /* A per-function copy is exact for read-only data (the lookup tables). A
   * writable variable keeps its meaning only in a function that runs once per
   * invocation: a kernel nothing calls, and the only user. */
  bool read_only = k2s_find_decoration(m, var, SpvDecorationConstant) != NULL;
  uint32_t n_users = 0;
  k2s_function *only = NULL;
  k2s_foreach_function(f, m)
    if (f->first && function_uses(m, f, var)) {
      n_users++;
      only = f;
    }
  if (!read_only && (n_users > 1 || (only && is_called(m, only))))
    return false;
  k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
  drop_from_interfaces(m, var);
  k2s_instr *cst;
  while ((cst = k2s_find_decoration(m, var, SpvDecorationConstant)))
    k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], cst);
  bool first = true;
  k2s_foreach_function(f, m) {
    if (!f->first || !function_uses(m, f, var))
      continue;
    if (first) {
      place_in_entry(f, v);
      first = false;
      continue;
    }
    uint32_t nid = k2s_new_id(m);
    k2s_instr *c = k2s_instr_new(m, SpvOpVariable, v->type, nid, v->ops, v->n_ops);
    place_in_entry(f, c);
    const char *name = k2s_name_of(m, var);
    if (name)
      k2s_set_name(m, nid, name);
    fv_subst s = {var, nid};
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i != c)
          k2s_foreach_id_operand(m, i, subst_operand, &s);
  }
  if (first) { /* used by no function: nothing needs it */
    k2s_remove_decorations(m, var);
    m->def[var] = NULL;
  }
  return true;
}

static bool repair_function_globals(k2s_module *m)
{
  uint32_t n = 0, kept = 0;
  const char *first = NULL;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassFunction)
      continue;
    const char *text = id_text(m, v->result);
    if (!localise(m, v)) {
      kept++;
      continue;
    }
    if (!first)
      first = text;
    n++;
  }
  if (!n)
    return false;
  k2s_invalidate_uses(m);
  k2s_warn(m, NULL,
           "repaired input: %u module-scope OpVariable%s of storage class Function, first %s "
           "(llvm-spirv 15 emits LLVM private-address-space globals such as -O2 switch lookup "
           "tables so; SPIR-V allows Function variables only inside functions); each became a "
           "Function variable with the same initialiser in each function using it",
           n, n == 1 ? "" : "s", first);
  (void)kept;
  return true;
}

/* ---- entry ---------------------------------------------------------------- */

bool k2s_repair_compat(k2s_module *m);
bool k2s_repair_compat(k2s_module *m)
{
  bool changed = false;
  changed |= repair_function_globals(m);
  return changed;
}
