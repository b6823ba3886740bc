/*
 * inline: inline the calls Vulkan cannot keep, and reject recursion.
 *
 * Vulkan's logical addressing forbids passing most pointers to functions,
 * and the work-item lowering needs builtins read inside the kernel whose
 * push constants they use. So a call is inlined when its callee takes or
 * returns a pointer, an image or a sampler, or reads a work-item builtin variable or
 * uses a work-group function (directly or through its own calls). A function that only
 * calls pointer-passing helpers stays: they are inlined into it, and it has no pointer
 * left to pass. Other calls stay: real code has huge call graphs
 * and Vulkan allows calls. Vulkan forbids recursion of any kind, so a cycle
 * in the call graph is an error naming the functions on it. Callees are
 * inlined into before their callers, so every call is inlined once. Runs
 * after entry-points; the CFG it leaves is rebuilt by structurize.
 */
#include <stdio.h>
#include <string.h>

#include "k2s_internal.h"

/* A function may grow to this many instructions through inlining; past it
 * the module is almost certainly a call tree that doubles at every level. */
#define K2S_MAX_INLINED_SIZE (1u << 20)

/* A value of this type may not cross a call: pointers (Vulkan's logical addressing),
 * and images and samplers (the images pass types an image by how the kernel uses it,
 * which it sees only once the image's uses are all in the kernel). */
static bool must_not_cross(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && (t->opcode == SpvOpTypePointer || t->opcode == SpvOpTypeImage ||
               t->opcode == SpvOpTypeSampler || t->opcode == SpvOpTypeSampledImage);
}

/* A work-group function: an instruction of the grammar's Group class whose
 * execution scope (its first operand, an IdScope) is Workgroup. group-ops needs the
 * work-group size of its kernel, known only inside the kernel when every kernel has
 * a reqd_work_group_size; async-copies' copy loops run over the local ids. */
static bool is_workgroup_function(k2s_module *m, k2s_instr *i)
{
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  uint64_t scope;
  return info && info->op_class == K2S_CLASS_GROUP && info->n_operands &&
         k2s_opcode_info_operands(info)[0].kind == K2S_OK_ID_SCOPE && i->n_ops &&
         k2s_const_value(m, i->ops[0], &scope) && scope == SpvScopeWorkgroup;
}

static bool reads_builtin_var(k2s_module *m, k2s_instr *i)
{
  if (is_workgroup_function(m, i))
    return true;
  if (i->opcode != SpvOpLoad || !i->n_ops)
    return false;
  k2s_instr *v = k2s_def(m, i->ops[0]);
  return v && v->opcode == SpvOpVariable && v->n_ops && v->ops[0] == SpvStorageClassInput;
}

/* One function of the call graph. */
typedef struct fn_node {
  k2s_function *f;
  k2s_instr **calls; /* its calls of functions in the module */
  uint32_t *callee;  /* node index of each call's callee */
  uint32_t n_calls;
  uint8_t state;  /* 0 not seen, 1 on the DFS stack, 2 done */
  bool own_needs; /* takes or returns a pointer, or reads a builtin variable */
  bool crosses;   /* takes or returns a pointer, image or sampler */
  bool reads;     /* reads a builtin variable (or is a work-group function), itself or
                     through a call: inlining a callee makes its reads the caller's */
  bool needs;     /* crosses or reads: its calls are inlined */
  uint64_t size;  /* instructions in its blocks, grown by inlining */
} fn_node;

typedef struct inliner {
  k2s_module *m;
  fn_node *node;
  uint32_t n_node;
  uint32_t *node_of; /* function id → node index + 1 (ids below bound0) */
  uint32_t bound0;   /* the bound when the pass started */
  uint32_t *order;   /* nodes in DFS postorder: callees before callers */
  uint32_t n_order;
  /* Ids whose defining instructions the pass dropped (calls, the headers of
   * inlined copies): their names and decorations go at the end. */
  uint32_t *gone;
  uint32_t n_gone, cap_gone;
  /* Call result → the inlined value, for the caller being processed; only
   * original calls (ids below bound0) are inlined, so a map by id works. */
  uint32_t *value_of;
  bool any_value;
} inliner;

static void note_gone(inliner *c, uint32_t id)
{
  if (!id)
    return;
  if (c->n_gone == c->cap_gone) {
    uint32_t cap = c->cap_gone ? 2 * c->cap_gone : 64;
    c->gone = k2s_realloc_array(&c->m->arena, c->gone, c->cap_gone, cap, sizeof(uint32_t));
    c->cap_gone = cap;
  }
  c->gone[c->n_gone++] = id;
}

/* An instruction that no longer belongs to any list: its id is undefined
 * from now on (k2s_instr_delete without its search for the list). */
static void forget_instr(inliner *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (i->result && i->result < m->id_cap && m->def[i->result] == i)
    m->def[i->result] = NULL;
  i->block = NULL;
  i->dead = true;
  note_gone(c, i->result);
}

static const char *fn_label(k2s_module *m, k2s_function *f)
{
  const char *name = k2s_name_of(m, f->def->result);
  return name ? k2s_sprintf(&m->arena, "'%s'", name)
              : k2s_sprintf(&m->arena, "%%%u", f->def->result);
}

static void build_call_graph(inliner *c)
{
  k2s_module *m = c->m;
  c->bound0 = m->bound;
  c->node_of = k2s_alloc(&m->arena, (size_t)m->bound * sizeof(uint32_t));
  k2s_foreach_function(f, m)
    if (f->def->result < m->bound)
      c->node_of[f->def->result] = ++c->n_node;
  c->node = k2s_alloc(&m->arena, (c->n_node + 1) * sizeof(fn_node));
  c->order = k2s_alloc(&m->arena, (c->n_node + 1) * sizeof(uint32_t));
  k2s_foreach_function(f, m) {
    if (f->def->result >= m->bound)
      continue;
    fn_node *n = &c->node[c->node_of[f->def->result] - 1];
    n->f = f;
    n->crosses = must_not_cross(m, f->def->type);
    k2s_foreach_instr(p, &f->head)
      if (p->opcode == SpvOpFunctionParameter && must_not_cross(m, p->type))
        n->crosses = true;
    n->own_needs = n->crosses;
    uint32_t n_calls = 0;
    k2s_foreach_block(b, f) {
      n->size++;
      k2s_foreach_instr(i, &b->body) {
        n->size++;
        if (reads_builtin_var(m, i))
          n->own_needs = n->reads = true;
        if (i->opcode == SpvOpFunctionCall && i->n_ops && i->ops[0] < m->bound &&
            c->node_of[i->ops[0]])
          n_calls++;
      }
    }
    n->calls = k2s_alloc(&m->arena, (n_calls + 1) * sizeof(k2s_instr *));
    n->callee = k2s_alloc(&m->arena, (n_calls + 1) * sizeof(uint32_t));
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpFunctionCall && i->n_ops && i->ops[0] < m->bound &&
            c->node_of[i->ops[0]]) {
          n->calls[n->n_calls] = i;
          n->callee[n->n_calls++] = c->node_of[i->ops[0]] - 1;
        }
  }
}

/* The call at `at` closes a cycle: stack[from..sp) are its functions. */
static void report_cycle(inliner *c, const uint32_t *stack, uint32_t from, uint32_t sp,
                         k2s_instr *at)
{
  k2s_module *m = c->m;
  bool needs = false;
  char path[512];
  size_t len = 0;
  path[0] = 0;
  for (uint32_t k = from; k <= sp; k++) {
    fn_node *n = &c->node[stack[k == sp ? from : k]];
    needs |= n->own_needs;
    const char *name = fn_label(m, n->f);
    if (len + strlen(name) + 8 >= sizeof(path)) {
      snprintf(path + len, sizeof(path) - len, " -> ...");
      break;
    }
    len += (size_t)snprintf(path + len, sizeof(path) - len, "%s%s", k > from ? " -> " : "", name);
  }
  const char *what =
      needs ? "a function that must be inlined (it takes or returns a pointer, or reads a "
              "work-item function)"
            : k2s_sprintf(&m->arena, "function %s", fn_label(m, c->node[stack[from]].f));
  k2s_error(m, at, "recursion through %s (%s); Vulkan forbids recursive calls", what, path);
}

/* Depth-first over the call graph from every function (no recursion in C:
 * call chains can be long). Fills c->order in postorder and each node's
 * `needs`; a cycle is an error. */
static bool order_call_graph(inliner *c)
{
  uint32_t *stack = k2s_alloc(&c->m->arena, (c->n_node + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(&c->m->arena, (c->n_node + 1) * sizeof(uint32_t));
  for (uint32_t r = 0; r < c->n_node; r++) {
    if (c->node[r].state)
      continue;
    uint32_t sp = 0;
    stack[sp] = r;
    next[sp++] = 0;
    c->node[r].state = 1;
    while (sp) {
      fn_node *u = &c->node[stack[sp - 1]];
      if (next[sp - 1] < u->n_calls) {
        uint32_t k = next[sp - 1]++;
        fn_node *v = &c->node[u->callee[k]];
        if (v->state == 1) {
          uint32_t from = sp - 1;
          while (stack[from] != u->callee[k])
            from--;
          report_cycle(c, stack, from, sp, u->calls[k]);
          return false;
        }
        if (v->state == 0) {
          v->state = 1;
          stack[sp] = u->callee[k];
          next[sp++] = 0;
        }
        continue;
      }
      u->state = 2;
      /* Only reads climb the call graph. A caller of a function that passes
       * pointers has none left to pass once that call is inlined into it: it stays
       * a function (inlining it too only grew every kernel that calls it). */
      for (uint32_t k = 0; k < u->n_calls; k++)
        u->reads |= c->node[u->callee[k]].reads;
      u->needs = u->crosses || u->reads;
      c->order[c->n_order++] = stack[--sp];
    }
  }
  return true;
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

/* Replace ids in every instruction of f's blocks (and only there: the names
 * and decorations of the ids stay as they are). */
static void substitute(k2s_module *m, k2s_function *f, const uint32_t *from, const uint32_t *to,
                       uint32_t n)
{
  id_subst s = {from, to, n};
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      k2s_instr_rewrite_ids(m, i, subst_id, &s);
}

static void subst_value(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  const inliner *c = ud;
  /* A value can be another inlined call's result (f(g(x)) where f returns
   * its parameter): follow the chain. */
  while (*id < c->bound0 && c->value_of[*id])
    *id = c->value_of[*id];
}

/* Inline g at `call` in block b of caller; returns the continuation block
 * that holds what followed the call. */
static k2s_block *inline_call(inliner *c, k2s_function *caller, k2s_block *b, k2s_instr *call,
                              k2s_function *callee)
{
  k2s_module *m = c->m;
  k2s_function *g = k2s_clone_function(m, callee);
  /* Parameters → arguments. */
  uint32_t k = 1, n_params = 0;
  k2s_foreach_instr(p, &g->head)
    if (p->opcode == SpvOpFunctionParameter)
      n_params++;
  uint32_t *from = k2s_alloc(&m->arena, (n_params + 1) * sizeof(uint32_t));
  uint32_t *to = k2s_alloc(&m->arena, (n_params + 1) * sizeof(uint32_t));
  n_params = 0;
  k2s_foreach_instr(p, &g->head)
    if (p->opcode == SpvOpFunctionParameter && k < call->n_ops) {
      from[n_params] = p->result;
      to[n_params++] = call->ops[k++];
    }
  substitute(m, g, from, to, n_params);
  /* The copy's header is dropped: its function and parameter ids (which the
   * copy took names and decorations for) are undefined from here on. */
  forget_instr(c, g->def);
  k2s_foreach_instr(p, &g->head)
    forget_instr(c, p);
  forget_instr(c, g->end);
  /* Split b after the call into a continuation block. */
  k2s_block *cont = k2s_split_block(m, call->next, k2s_new_id(m));
  /* Returns → branches to the continuation; return values → a phi. */
  uint32_t *phi_ops = k2s_alloc(&m->arena, 2 * sizeof(uint32_t));
  uint32_t n_phi = 0, cap_phi = 1;
  k2s_foreach_block(gb, g) {
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
  } else if (call->result) {
    /* The callee never returns: what follows the call is unreachable, but
     * its uses of the call's value still need a definition. */
    value = k2s_undef(m, call->type);
  }
  /* The callee's variables move to the caller's entry block. */
  k2s_foreach_block(gb, g)
    k2s_foreach_instr_safe(i, &gb->body)
      if (i->opcode == SpvOpVariable) {
        k2s_list_remove(&gb->body, i);
        i->block = caller->first;
        k2s_list_insert_after(&caller->first->body, NULL, i);
      }
  /* b now branches into the inlined body. */
  k2s_list_remove(&b->body, call);
  forget_instr(c, call);
  uint32_t entry = g->first->label->result;
  k2s_instr *br = k2s_instr_new(m, SpvOpBranch, 0, 0, &entry, 1);
  br->block = b;
  k2s_list_append(&b->body, br);
  k2s_block *pos = b; /* the callee's blocks go between b and cont */
  for (k2s_block *gb = g->first, *n; gb; gb = n) {
    n = gb->next;
    k2s_function_insert_block_after(caller, pos, gb);
    pos = gb;
  }
  /* The call's value is used only in the caller; its uses are rewritten in
   * one walk once every call in the caller is inlined. */
  if (value && call->result) {
    if (call->result < c->bound0) {
      c->value_of[call->result] = value;
      c->any_value = true;
    } else {
      substitute(m, caller, &call->result, &value, 1);
    }
  }
  return cont;
}

/* Inline the calls of n that need it. Its callees are done already (c->order
 * is a postorder), so an inlined body holds no such calls and the scan goes
 * on after it, at the continuation. */
static bool inline_into(inliner *c, fn_node *n)
{
  k2s_module *m = c->m;
  k2s_function *f = n->f;
  bool changed = false;
  uint32_t first_gone = c->n_gone; /* the calls inlined here are noted from here on */
  k2s_block *b = f->first;
  k2s_instr *i = b ? b->body.first : NULL;
  while (b && !m->failed) {
    if (!i) {
      b = b->next;
      i = b ? b->body.first : NULL;
      continue;
    }
    k2s_function *g = NULL;
    fn_node *gn = NULL;
    if (i->opcode == SpvOpFunctionCall && i->n_ops && i->ops[0] < c->bound0 &&
        c->node_of[i->ops[0]]) {
      gn = &c->node[c->node_of[i->ops[0]] - 1];
      g = gn->f;
    }
    if (!g || !g->first || !gn->needs) {
      i = i->next;
      continue;
    }
    n->size += gn->size;
    if (n->size > K2S_MAX_INLINED_SIZE) {
      k2s_error(m, i,
                "inlining the calls of %s that must be inlined (they pass pointers or read "
                "work-item functions) would grow it past %u instructions",
                fn_label(m, f), K2S_MAX_INLINED_SIZE);
      break;
    }
    b = inline_call(c, f, b, i, g);
    i = b->body.first;
    changed = true;
  }
  if (c->any_value) {
    k2s_foreach_block(bb, f)
      k2s_foreach_instr(x, &bb->body)
        k2s_instr_rewrite_ids(m, x, subst_value, c);
    for (uint32_t k = first_gone; k < c->n_gone; k++)
      if (c->gone[k] < c->bound0)
        c->value_of[c->gone[k]] = 0;
    c->any_value = false;
  }
  return changed;
}

/* Names and decorations of the ids whose definitions the pass dropped, in
 * one sweep of the debug and annotation sections. */
static void drop_names_of_gone(inliner *c)
{
  k2s_module *m = c->m;
  if (!c->n_gone)
    return;
  uint8_t *gone = k2s_alloc(&m->arena, m->bound + 1);
  for (uint32_t k = 0; k < c->n_gone; k++)
    if (c->gone[k] <= m->bound)
      gone[c->gone[k]] = 1;
  k2s_drop_annotations_of(m, gone);
}

bool k2s_inline_calls(k2s_module *m, const k2s_options *o)
{
  (void)o;
  k2s_keep_uses(m); /* operands change only through the API */
  inliner c = {.m = m};
  build_call_graph(&c);
  if (!order_call_graph(&c))
    return false;
  c.value_of = k2s_alloc(&m->arena, (size_t)c.bound0 * sizeof(uint32_t));
  bool changed = false;
  for (uint32_t k = 0; k < c.n_order && !m->failed; k++)
    changed |= inline_into(&c, &c.node[c.order[k]]);
  if (m->failed)
    return true;
  drop_names_of_gone(&c);
  /* Functions that were only called through inlined calls are now dead. */
  if (changed) {
    uint8_t *called = k2s_alloc(&m->arena, m->bound);
    k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
      called[e->ops[1]] = 1;
    k2s_foreach_function(f, m)
      k2s_foreach_block(b, f)
        k2s_foreach_instr(i, &b->body)
          if (i->opcode == SpvOpFunctionCall)
            called[i->ops[0]] = 1;
    k2s_function **dead = k2s_alloc(&m->arena, (c.n_node + 1) * sizeof(*dead));
    uint32_t n_dead = 0;
    k2s_foreach_function(f, m)
      if (!called[f->def->result])
        dead[n_dead++] = f;
    k2s_delete_functions(m, dead, n_dead);
  }
  return changed;
}
