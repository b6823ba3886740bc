/*
 * pointer-vars: Function variables that only hold one pointer → that pointer.
 *
 * Unoptimised producer output (clang -O0) spills every pointer argument and
 * pointer local to a Function variable (`%p.addr = OpVariable Function`,
 * one OpStore of the parameter, OpLoads wherever it is read). Logical
 * addressing cannot store a pointer in memory, so without this every -O0
 * kernel that takes a buffer was refused on vulkan1.1 (and forced into
 * physical mode on vulkan1.2+). A variable of pointer type whose only uses
 * are one OpStore, OpLoads that the store dominates (later in the same block,
 * or in blocks it dominates) and names, decorations or debug-info
 * instructions is removed: each load becomes the stored value. Debug
 * instructions naming the variable are dropped with it. Variables stored more
 * than once (a pointer incremented in a loop) are left alone (the pointers
 * pass then says what it cannot express). Runs after inlining, before
 * pointer-mode chooses between logical and physical. No options.
 */
#include <string.h>

#include "k2s_internal.h"

typedef struct slot {
  k2s_instr *store;
  uint32_t n_loads;
  bool bad;
} slot;

static bool is_pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer;
}

/* A use that goes away with the variable: a name, decoration or a debug
 * extended instruction (which only describes it). */
static bool droppable_use(k2s_module *m, const k2s_use *u)
{
  const k2s_instr *i = u->user;
  if (i->block == NULL)
    return i->opcode == SpvOpName || i->opcode == SpvOpDecorate;
  if (i->opcode != SpvOpExtInst || i->n_ops < 1 || (i->result && k2s_uses_of(m, i->result)))
    return false;
  k2s_instr *set = k2s_def(m, i->ops[0]);
  const char *name = set && set->opcode == SpvOpExtInstImport ? k2s_string_operand(set, 0) : NULL;
  return name && (strstr(name, "DebugInfo") || strncmp(name, "NonSemantic.", 12) == 0);
}

/* Position of i in its block, counted from the top (blocks are short at -O0). */
static uint32_t position(const k2s_instr *i)
{
  uint32_t n = 0;
  for (const k2s_instr *x = i; x; x = x->prev)
    n++;
  return n;
}

static bool promote_in(k2s_module *m, k2s_function *f)
{
  if (!f->first)
    return false;
  bool changed = false, have_cfg = false;
  k2s_arena a = {0};
  k2s_cfg *cfg = NULL;
  k2s_foreach_instr_safe(v, &f->first->body) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassFunction ||
        v->n_ops > 1)
      continue;
    k2s_instr *vt = k2s_def(m, v->type);
    if (!vt || vt->opcode != SpvOpTypePointer || vt->n_ops < 2 || !is_pointer_type(m, vt->ops[1]))
      continue;
    slot s = {0};
    k2s_foreach_use(u, m, v->result) {
      k2s_instr *i = u->user;
      if (i->dead)
        continue;
      if (i->opcode == SpvOpStore && u->word == 0 && !s.store)
        s.store = i;
      else if (i->opcode == SpvOpLoad && u->word == 0 && i->type == vt->ops[1])
        s.n_loads++;
      else if (!droppable_use(m, u))
        s.bad = true;
    }
    if (s.bad || !s.store || !s.store->block || s.store->n_ops < 2)
      continue;
    if (!have_cfg) {
      cfg = k2s_cfg_build(m, &a, f);
      k2s_cfg_dominators(cfg, &a);
      have_cfg = true;
    }
    /* Every load must see the store: later in its block, or in a block it dominates. */
    k2s_block *sb = s.store->block;
    uint32_t spos = position(s.store);
    k2s_foreach_use(u, m, v->result) {
      k2s_instr *i = u->user;
      if (i->dead || i->opcode != SpvOpLoad)
        continue;
      if (i->block == sb ? position(i) <= spos
                         : !k2s_cfg_dominates(cfg, sb->index, i->block->index))
        s.bad = true;
    }
    if (s.bad)
      continue;
    uint32_t value = s.store->ops[1];
    k2s_instr *users[64];
    uint32_t n = 0;
    bool more = true;
    while (more) { /* collect, then edit: edits change the use list */
      more = false;
      n = 0;
      k2s_foreach_use(u, m, v->result) {
        if (u->user->dead)
          continue;
        if (n == 64) {
          more = true;
          break;
        }
        bool seen = false;
        for (uint32_t k = 0; k < n; k++)
          seen |= users[k] == u->user;
        if (!seen)
          users[n++] = u->user;
      }
      for (uint32_t k = 0; k < n; k++) {
        k2s_instr *i = users[k];
        if (i->opcode == SpvOpLoad)
          k2s_replace_all_uses(m, i->result, value);
        k2s_instr_delete(m, i);
      }
    }
    k2s_instr_delete(m, v);
    changed = true;
  }
  k2s_arena_free(&a);
  return changed;
}

bool k2s_promote_pointer_vars(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bool changed = false;
  k2s_build_uses(m);
  k2s_foreach_function(f, m)
    changed |= promote_in(m, f);
  return changed;
}
