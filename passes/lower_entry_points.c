/*
 * entry-points: OpEntryPoint Kernel → GLCompute, and the Linkage model gone.
 *
 * Vulkan entry points take no parameters and are never called; Kernel
 * modules are linkable and llvm-spirv 15 emits every kernel twice (an
 * exported function plus an entry-point wrapper that only calls it). This
 * pass points each entry point at the real kernel body (cloning it when other
 * code still calls it, e.g. a kernel calling a kernel), deletes the wrappers,
 * drops LinkageAttributes and the Linkage capability, removes functions no
 * entry point reaches, rejects calls to functions the module only imports,
 * and keeps reqd_work_group_size as LocalSize. Kernel parameters stay for
 * kernel-interface to turn into resources. Runs first; no options.
 */
#include <string.h>

#include "k2s_internal.h"

/* A wrapper: one block "OpFunctionCall %callee <params in order>; OpReturn". */
static k2s_function *wrapped_callee(k2s_module *m, k2s_function *w)
{
  if (!w->first || w->first != w->last)
    return NULL;
  k2s_instr *call = w->first->body.first;
  if (!call || call->opcode != SpvOpFunctionCall || !call->next ||
      call->next->opcode != SpvOpReturn || call->next->next)
    return NULL;
  uint32_t k = 1;
  k2s_foreach_instr(p, &w->head) {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    if (k >= call->n_ops || call->ops[k] != p->result)
      return NULL;
    k++;
  }
  if (k != call->n_ops)
    return NULL;
  k2s_function *callee = k2s_function_of_id(m, call->ops[0]);
  if (!callee || callee == w || callee->def->ops[1] != w->def->ops[1] || !callee->first)
    return NULL;
  return callee;
}

static void retarget_execution_modes(k2s_module *m, uint32_t from, uint32_t to)
{
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    if (x->n_ops >= 1 && x->ops[0] == from)
      x->ops[0] = to;
}

/* Calls to each function id from the whole module (the wrapper loop keeps
 * it up to date), so that unwrapping N kernels is not N module scans. */
static uint32_t *count_all_calls(k2s_module *m)
{
  uint32_t *calls = k2s_alloc(&m->arena, m->bound * sizeof(uint32_t));
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1 && i->ops[0] < m->bound)
          calls[i->ops[0]]++;
  return calls;
}

static bool unwrap_entry_points(k2s_module *m)
{
  uint32_t bound = m->bound; /* clones get ids past it: they are never callees here */
  uint32_t *calls = count_all_calls(m);
  uint8_t *entry = k2s_alloc(&m->arena, bound);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 2 && e->ops[1] < bound)
      entry[e->ops[1]] = 1;
  k2s_function **dead = NULL;
  uint32_t n_dead = 0, cap_dead = 0;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (e->n_ops < 2 || e->ops[0] != SpvExecutionModelKernel)
      continue;
    k2s_function *w = k2s_function_of_id(m, e->ops[1]);
    k2s_function *callee = w ? wrapped_callee(m, w) : NULL;
    if (!callee || callee->def->result >= bound)
      continue;
    uint32_t cid = callee->def->result;
    k2s_function *body = callee;
    /* Entry points may not be called: take a private copy if anything
     * besides this wrapper (its one call) calls the kernel body, or another
     * entry point already uses it. */
    if (calls[cid] > 1 || entry[cid]) {
      body = k2s_clone_function(m, callee, NULL);
      k2s_module_append_function(m, body);
    } else {
      entry[cid] = 1;
    }
    calls[cid]--; /* the wrapper's call goes with the wrapper */
    /* The wrapper's parameter names and decorations are the kernel's. */
    retarget_execution_modes(m, w->def->result, body->def->result);
    e->ops[1] = body->def->result;
    if (n_dead == cap_dead) {
      uint32_t cap = cap_dead ? cap_dead * 2 : 16;
      dead = k2s_realloc_array(&m->arena, dead, cap_dead, cap, sizeof(*dead));
      cap_dead = cap;
    }
    dead[n_dead++] = w;
  }
  k2s_delete_functions(m, dead, n_dead);
  return n_dead > 0;
}

static bool drop_linkage(k2s_module *m)
{
  bool changed = false;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_ANNOTATION])
    if (i->opcode == SpvOpDecorate && i->n_ops >= 2 &&
        i->ops[1] == SpvDecorationLinkageAttributes) {
      k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
      changed = true;
    }
  if (k2s_has_capability(m, SpvCapabilityLinkage)) {
    k2s_remove_capability(m, SpvCapabilityLinkage);
    changed = true;
  }
  return changed;
}

/* Mark functions reachable from entry points through calls. */
static void mark_reachable(k2s_module *m, k2s_function *f, uint8_t *live)
{
  if (!f || live[f->def->result])
    return;
  live[f->def->result] = 1;
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1)
        mark_reachable(m, k2s_function_of_id(m, i->ops[0]), live);
}

static bool remove_dead_functions(k2s_module *m)
{
  uint8_t *live = k2s_alloc(&m->arena, m->bound);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 2)
      mark_reachable(m, k2s_function_of_id(m, e->ops[1]), live);
  uint32_t n_dead = 0;
  k2s_foreach_function(f, m)
    n_dead += !live[f->def->result];
  if (!n_dead)
    return false;
  k2s_function **dead = k2s_alloc(&m->arena, n_dead * sizeof(*dead));
  n_dead = 0;
  k2s_foreach_function(f, m)
    if (!live[f->def->result])
      dead[n_dead++] = f;
  k2s_delete_functions(m, dead, n_dead);
  return true;
}

static void check_imports(k2s_module *m)
{
  k2s_foreach_function(f, m)
    if (!f->first) {
      const char *name = k2s_name_of(m, f->def->result);
      k2s_error(m, f->def,
                "a kernel calls '%s', which the module declares but does not define; k2s "
                "translates one whole program and does not link (link first with spirv-link)",
                name ? name : "(unnamed function)");
    }
}

static bool convert_models(k2s_module *m)
{
  bool changed = false;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 1 && e->ops[0] == SpvExecutionModelKernel) {
      e->ops[0] = SpvExecutionModelGLCompute;
      changed = true;
    }
  /* Kernel-only execution modes carry hints Vulkan has no use for. */
  k2s_foreach_instr_safe(x, &m->sec[K2S_SEC_EXECUTION_MODE]) {
    if (x->n_ops < 2)
      continue;
    switch (x->ops[1]) {
    case SpvExecutionModeLocalSize:
      break;
    case SpvExecutionModeContractionOff:
    case SpvExecutionModeLocalSizeHint:
    case SpvExecutionModeLocalSizeHintId:
    case SpvExecutionModeSubgroupsPerWorkgroupId:
    case SpvExecutionModeVecTypeHint:
    case SpvExecutionModeInitializer:
    case SpvExecutionModeFinalizer:
    case SpvExecutionModeSubgroupsPerWorkgroup:
      k2s_list_remove(&m->sec[K2S_SEC_EXECUTION_MODE], x);
      changed = true;
      break;
    default:
      break;
    }
  }
  return changed;
}

bool k2s_lower_entry_points(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bool changed = unwrap_entry_points(m);
  changed |= drop_linkage(m);
  changed |= remove_dead_functions(m);
  check_imports(m);
  changed |= convert_models(m);
  return changed;
}
