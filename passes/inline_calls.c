/*
 * inline: inline the calls Vulkan cannot keep.
 *
 * Vulkan's logical addressing forbids passing most pointers to functions,
 * and the work-item lowering needs builtins read inside the kernel whose
 * push constants they use. So a call is inlined when its callee takes or
 * returns a pointer, or reads a work-item builtin variable (directly or
 * through its own calls). Other calls stay: real code has huge call graphs
 * and Vulkan allows calls. Recursion through such a call is an error.
 * Runs after entry-points; the CFG it leaves is rebuilt by structurize.
 */
#include <string.h>

#include "k2s_internal.h"

#define K2S_MAX_INLINE_DEPTH 64

static bool is_pointer(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer;
}

static bool reads_builtin_var(k2s_module *m, k2s_instr *i)
{
  if (i->opcode != SpvOpLoad || !i->n_ops)
    return false;
  k2s_instr *v = k2s_def(m, i->ops[0]);
  return v && v->opcode == SpvOpVariable && v->n_ops && v->ops[0] == SpvStorageClassInput;
}

/* memo: 0 unknown, 1 visiting, 2 no, 3 yes */
static bool needs_inline(k2s_module *m, k2s_function *f, uint8_t *memo)
{
  uint32_t id = f->def->result;
  if (memo[id] >= 2)
    return memo[id] == 3;
  if (memo[id] == 1)
    return false; /* recursion is reported by the inliner */
  memo[id] = 1;
  bool yes = is_pointer(m, f->def->type);
  k2s_foreach_instr(p, &f->head) if (p->opcode == SpvOpFunctionParameter && is_pointer(m, p->type))
      yes = true;
  k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body)
  {
    if (reads_builtin_var(m, i))
      yes = true;
    if (i->opcode == SpvOpFunctionCall) {
      k2s_function *g = k2s_function_of_id(m, i->ops[0]);
      if (g && needs_inline(m, g, memo))
        yes = true;
    }
  }
  memo[id] = yes ? 3 : 2;
  return yes;
}

static void retarget_phis(k2s_module *m, k2s_block *succ, uint32_t from, uint32_t to)
{
  (void)m;
  k2s_foreach_instr(i, &succ->body)
  {
    if (i->opcode != SpvOpPhi)
      break;
    for (uint32_t k = 1; k < i->n_ops; k += 2)
      if (i->ops[k] == from)
        i->ops[k] = to;
  }
}

static void successors_retarget(k2s_module *m, k2s_block *b, uint32_t from, uint32_t to)
{
  k2s_instr *t = k2s_block_terminator(b);
  if (!t)
    return;
  uint32_t labels[64], n = 0;
  if (t->opcode == SpvOpBranch)
    labels[n++] = t->ops[0];
  else if (t->opcode == SpvOpBranchConditional) {
    labels[n++] = t->ops[1];
    labels[n++] = t->ops[2];
  } else if (t->opcode == SpvOpSwitch) {
    uint32_t lit = k2s_type_width(m, k2s_type_of(m, t->ops[0])) == 64 ? 2 : 1;
    labels[n++] = t->ops[1];
    for (uint32_t k = 2 + lit; k < t->n_ops && n < 64; k += lit + 1)
      labels[n++] = t->ops[k];
  }
  for (uint32_t k = 0; k < n; k++) {
    k2s_block *s = k2s_block_of_label(m, labels[k]);
    if (s)
      retarget_phis(m, s, from, to);
  }
}

typedef struct id_subst {
  const uint32_t *from, *to;
  uint32_t n;
} id_subst;

static void subst_id(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  const id_subst *s = ud;
  for (uint32_t k = 0; k < s->n; k++)
    if (*id == s->from[k]) {
      *id = s->to[k];
      return;
    }
}

/* Replace ids in every instruction of f's blocks. The def-use chains do not
 * cover a clone that is not in the module yet, so this walks the code. */
static void substitute(k2s_module *m, k2s_function *f, const uint32_t *from, const uint32_t *to,
                       uint32_t n)
{
  id_subst s = {from, to, n};
  k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body) k2s_foreach_id_operand(m, i, subst_id, &s);
  m->uses_valid = false;
}

static void inline_call(k2s_module *m, k2s_function *caller, k2s_block *b, k2s_instr *call,
                        k2s_function *callee)
{
  k2s_function *g = k2s_clone_function(m, callee, NULL);
  /* Parameters → arguments. */
  uint32_t k = 1, n_params = 0;
  k2s_foreach_instr(p, &g->head) if (p->opcode == SpvOpFunctionParameter) n_params++;
  uint32_t *from = k2s_alloc(&m->arena, (n_params + 1) * sizeof(uint32_t));
  uint32_t *to = k2s_alloc(&m->arena, (n_params + 1) * sizeof(uint32_t));
  n_params = 0;
  k2s_foreach_instr(p, &g->head) if (p->opcode == SpvOpFunctionParameter && k < call->n_ops)
  {
    from[n_params] = p->result;
    to[n_params++] = call->ops[k++];
  }
  substitute(m, g, from, to, n_params);
  /* Split b after the call into a continuation block. */
  k2s_block *cont = k2s_block_new(m, caller, k2s_new_id(m));
  for (k2s_instr *i = call->next, *n; i; i = n) {
    n = i->next;
    k2s_list_remove(&b->body, i);
    i->block = cont;
    k2s_list_append(&cont->body, i);
  }
  successors_retarget(m, cont, b->label->result, cont->label->result);
  /* Returns → branches to the continuation; return values → a phi. */
  uint32_t *phi_ops = k2s_alloc(&m->arena, 2 * sizeof(uint32_t));
  uint32_t n_phi = 0, cap_phi = 1;
  k2s_foreach_block(gb, g)
  {
    gb->func = caller;
    k2s_instr *t = k2s_block_terminator(gb);
    if (!t || (t->opcode != SpvOpReturn && t->opcode != SpvOpReturnValue))
      continue;
    if (t->opcode == SpvOpReturnValue) {
      if (n_phi == cap_phi) {
        phi_ops = k2s_realloc_array(&m->arena, phi_ops, 2 * n_phi, 4 * cap_phi, sizeof(uint32_t));
        cap_phi *= 2;
      }
      phi_ops[2 * n_phi] = t->ops[0];
      phi_ops[2 * n_phi + 1] = gb->label->result;
      n_phi++;
    }
    t->opcode = SpvOpBranch;
    uint32_t target = cont->label->result;
    k2s_instr_set_ops(m, t, &target, 1);
  }
  uint32_t value = 0;
  if (n_phi == 1) {
    value = phi_ops[0];
  } else if (n_phi > 1) {
    k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, call->type, k2s_new_id(m), phi_ops, 2 * n_phi);
    phi->block = cont;
    k2s_list_insert_after(&cont->body, NULL, phi);
    value = phi->result;
  }
  /* The callee's variables move to the caller's entry block. */
  k2s_foreach_block(gb, g) k2s_foreach_instr_safe(i, &gb->body) if (i->opcode == SpvOpVariable)
  {
    k2s_list_remove(&gb->body, i);
    i->block = caller->first;
    k2s_list_insert_after(&caller->first->body, NULL, i);
  }
  /* b now branches into the inlined body. */
  k2s_list_remove(&b->body, call);
  uint32_t entry = g->first->label->result;
  k2s_instr *br = k2s_instr_new(m, SpvOpBranch, 0, 0, &entry, 1);
  br->block = b;
  k2s_list_append(&b->body, br);
  k2s_block *pos = b;
  for (k2s_block *gb = g->first, *n; gb; gb = n) {
    n = gb->next;
    k2s_function_insert_block_after(caller, pos, gb);
    pos = gb;
  }
  k2s_function_insert_block_after(caller, pos, cont);
  /* The call's value is used only in the caller (now holding the callee too). */
  if (value && call->result)
    substitute(m, caller, &call->result, &value, 1);
  m->uses_valid = false;
}

static bool inline_into(k2s_module *m, k2s_function *f, uint8_t *memo, int depth)
{
  bool changed = false;
  for (bool again = true; again && !m->failed;) {
    again = false;
    k2s_foreach_block(b, f) k2s_foreach_instr(i, &b->body)
    {
      if (i->opcode != SpvOpFunctionCall)
        continue;
      k2s_function *g = k2s_function_of_id(m, i->ops[0]);
      if (!g || !g->first || !needs_inline(m, g, memo))
        continue;
      if (g == f || depth > K2S_MAX_INLINE_DEPTH) {
        k2s_error(m, i,
                  "recursion through a function that must be inlined (it takes a "
                  "pointer or reads a work-item function); Vulkan cannot express it");
        return changed;
      }
      inline_call(m, f, b, i, g);
      changed = again = true;
      if (++depth > K2S_MAX_INLINE_DEPTH * 64) {
        k2s_error(m, NULL, "inlining did not finish in function %%%u (recursion?)", f->def->result);
        return changed;
      }
      goto next; /* the block list changed: rescan */
    }
  next:;
  }
  return changed;
}

bool k2s_inline_calls(k2s_module *m, const k2s_options *o)
{
  (void)o;
  uint8_t *memo = k2s_alloc(&m->arena, m->bound);
  bool changed = false;
  k2s_foreach_function(f, m)
  {
    changed |= inline_into(m, f, memo, 0);
    if (m->failed)
      return true;
  }
  /* Functions that were only called through inlined calls are now dead. */
  if (changed) {
    uint8_t *called = k2s_alloc(&m->arena, m->bound);
    k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) called[e->ops[1]] = 1;
    k2s_foreach_function(f, m) k2s_foreach_block(b, f)
        k2s_foreach_instr(i, &b->body) if (i->opcode == SpvOpFunctionCall) called[i->ops[0]] = 1;
    for (k2s_function *f = m->first_func, *n; f; f = n) {
      n = f->next;
      if (!called[f->def->result])
        k2s_delete_function(m, f);
    }
  }
  return changed;
}
