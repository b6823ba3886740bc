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
#include <stdlib.h>
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

/* Through the index of the modes by function: a scan of the section per kernel
 * made unwrapping N kernels quadratic (big4500, 1,840 modes: 120 M of the
 * pass's 160 M instructions). */
static void retarget_execution_modes(k2s_module *m, k2s_mode_index *x, uint32_t from, uint32_t to)
{
  k2s_foreach_mode_of(x, from, e) k2s_instr_set_op(m, e, 0, to);
  if (from < x->bound)
    x->first[from] = 0; /* they name `to` now: none is left naming `from` */
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

/* The wrapper's parameter names and FuncParamAttr decorations are the
 * kernel's: llvm-spirv 15 puts the argument names only on the wrapper when
 * clang's driver discarded the body's value names (clang -c without
 * -fno-discard-value-names), and the reflection would otherwise say arg0.
 * pairs[2k] is a wrapper's parameter, pairs[2k+1] the body's. One scan of the
 * names and one of the decorations for all kernels (the indexes are rebuilt
 * after every insertion, so look everything up before adding anything). */
static void inherit_parameter_facts(k2s_module *m, const uint32_t *pairs, uint32_t n_pairs)
{
  uint32_t bound = m->bound;
  uint32_t *body_of = k2s_alloc(&m->arena, bound * sizeof(uint32_t));
  uint32_t *attrs = k2s_alloc(&m->arena, bound * sizeof(uint32_t)); /* bit per attribute */
  const char **names = k2s_alloc(&m->arena, (n_pairs + 1) * sizeof(*names));
  for (uint32_t k = 0; k < n_pairs; k++) {
    if (pairs[2 * k] < bound && pairs[2 * k + 1] < bound)
      body_of[pairs[2 * k]] = pairs[2 * k + 1];
    const char *name = k2s_name_of(m, pairs[2 * k]);
    names[k] = name && *name && !k2s_name_of(m, pairs[2 * k + 1]) ? name : NULL;
  }
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION])
    if (d->opcode == SpvOpDecorate && d->n_ops >= 3 && d->ops[0] < bound &&
        d->ops[1] == SpvDecorationFuncParamAttr && d->ops[2] < 32)
      attrs[d->ops[0]] |= 1u << d->ops[2];
  for (uint32_t k = 0; k < n_pairs; k++)
    if (names[k])
      k2s_set_name(m, pairs[2 * k + 1], names[k]);
  for (uint32_t id = 0; id < bound; id++) {
    uint32_t b = body_of[id], missing = b ? attrs[id] & ~attrs[b] : 0;
    for (; missing; missing &= missing - 1) { /* lowest attribute first */
      uint32_t a = (uint32_t)__builtin_ctz(missing);
      k2s_decorate(m, b, SpvDecorationFuncParamAttr, &a, 1);
    }
  }
}

/* Append the (wrapper parameter, body parameter) pairs of w and body. */
static uint32_t *pair_parameters(k2s_module *m, k2s_function *w, k2s_function *body,
                                 uint32_t *pairs, uint32_t *n, uint32_t *cap)
{
  k2s_instr *wp = w->head.first, *bp = body->head.first;
  for (;;) {
    while (wp && wp->opcode != SpvOpFunctionParameter)
      wp = wp->next;
    while (bp && bp->opcode != SpvOpFunctionParameter)
      bp = bp->next;
    if (!wp || !bp)
      return pairs;
    if (*n + 2 > *cap) {
      uint32_t c = *cap ? *cap * 2 : 64;
      pairs = k2s_realloc_array(&m->arena, pairs, *cap, c, sizeof(*pairs));
      *cap = c;
    }
    pairs[(*n)++] = wp->result;
    pairs[(*n)++] = bp->result;
    wp = wp->next;
    bp = bp->next;
  }
}

static bool unwrap_entry_points(k2s_module *m)
{
  uint32_t bound = m->bound; /* clones get ids past it: they are never callees here */
  uint32_t *calls = count_all_calls(m);
  k2s_mode_index modes = k2s_index_execution_modes(m);
  uint8_t *entry = k2s_alloc(&m->arena, bound);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 2 && e->ops[1] < bound)
      entry[e->ops[1]] = 1;
  k2s_function **dead = NULL;
  uint32_t n_dead = 0, cap_dead = 0, *pairs = NULL, n_pairs = 0, cap_pairs = 0;
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
      body = k2s_clone_function(m, callee);
      k2s_module_append_function(m, body);
    } else {
      entry[cid] = 1;
    }
    calls[cid]--; /* the wrapper's call goes with the wrapper */
    pairs = pair_parameters(m, w, body, pairs, &n_pairs, &cap_pairs);
    retarget_execution_modes(m, &modes, w->def->result, body->def->result);
    k2s_instr_set_op(m, e, 1, body->def->result);
    if (n_dead == cap_dead) {
      uint32_t cap = cap_dead ? cap_dead * 2 : 16;
      dead = k2s_realloc_array(&m->arena, dead, cap_dead, cap, sizeof(*dead));
      cap_dead = cap;
    }
    dead[n_dead++] = w;
  }
  inherit_parameter_facts(m, pairs, n_pairs / 2);
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

static bool remove_dead_functions(k2s_module *m)
{
  uint8_t *live = k2s_alloc(&m->arena, m->bound);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 2)
      k2s_mark_called(m, k2s_function_of_id(m, e->ops[1]), live);
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

/* The producer's kernel-arg-info strings (llvm-spirv's
 * --preserve-ocl-kernel-arg-type-metadata-through-string: OpString
 * "kernel_arg_type.NAME.t0,t1,...," and "kernel_arg_type_qual.NAME.q0,q1,...,"),
 * sorted by kind, NAME and section order once per module: a scan of the debug
 * section per kernel made a module of many kernels quadratic (big1000: 211 M of
 * 235 M instructions in this pass). */
typedef struct arg_info_entry {
  uint32_t kind;    /* index into arg_info_kinds */
  uint32_t order;   /* position in the debug section: the first string wins */
  const char *name; /* NAME, up to its first '.' */
  size_t name_len;
  const char *text; /* the string */
} arg_info_entry;

typedef struct arg_info_index {
  arg_info_entry *e;
  uint32_t n;
} arg_info_index;

static const char *const arg_info_kinds[] = {"kernel_arg_type", "kernel_arg_type_qual"};

static int cmp_arg_info(const void *pa, const void *pb)
{
  const arg_info_entry *a = pa, *b = pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  size_t l = a->name_len < b->name_len ? a->name_len : b->name_len;
  int c = memcmp(a->name, b->name, l);
  if (c || a->name_len != b->name_len)
    return c ? c : (a->name_len < b->name_len ? -1 : 1);
  return a->order < b->order ? -1 : a->order > b->order;
}

static arg_info_index index_arg_info(k2s_module *m)
{
  arg_info_index x = {0};
  uint32_t cap = 0, order = 0;
  k2s_foreach_instr(s, &m->sec[K2S_SEC_DEBUG]) {
    const char *t = s->opcode == SpvOpString ? k2s_string_operand(s, 0) : NULL;
    order++;
    for (uint32_t kind = 0; t && kind < 2; kind++) {
      size_t wl = strlen(arg_info_kinds[kind]);
      const char *name = t + wl + 1, *dot;
      if (strncmp(t, arg_info_kinds[kind], wl) || t[wl] != '.' || !(dot = strchr(name, '.')))
        continue;
      if (x.n == cap) {
        uint32_t c = cap ? 2 * cap : 64;
        x.e = k2s_realloc_array(&m->arena, x.e, x.n, c, sizeof(*x.e));
        cap = c;
      }
      x.e[x.n++] = (arg_info_entry){kind, order, name, (size_t)(dot - name), t};
    }
  }
  if (x.n)
    qsort(x.e, x.n, sizeof(*x.e), cmp_arg_info);
  return x;
}

/* The part after "KIND.kernel." of the first such string, or NULL. A kernel name
 * holding a '.' (not an OpenCL C identifier, but a valid SPIR-V entry-point name)
 * could match a string whose indexed NAME is shorter: those few are found by a
 * scan, as before the index. */
static const char *arg_info_string(k2s_module *m, const arg_info_index *x, uint32_t kind,
                                   const char *kernel)
{
  const char *what = arg_info_kinds[kind];
  size_t wl = strlen(what), kl = strlen(kernel);
  if (strchr(kernel, '.')) {
    k2s_foreach_instr(s, &m->sec[K2S_SEC_DEBUG]) {
      const char *t = s->opcode == SpvOpString ? k2s_string_operand(s, 0) : NULL;
      if (t && !strncmp(t, what, wl) && t[wl] == '.' && !strncmp(t + wl + 1, kernel, kl) &&
          t[wl + 1 + kl] == '.')
        return t + wl + 2 + kl;
    }
    return NULL;
  }
  arg_info_entry key = {kind, 0, kernel, kl, NULL};
  uint32_t lo = 0, hi = x->n; /* the first entry not below key (order 0 sorts first) */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (cmp_arg_info(&x->e[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < x->n && x->e[lo].kind == kind && x->e[lo].name_len == kl &&
      !memcmp(x->e[lo].name, kernel, kl))
    return x->e[lo].text + wl + 2 + kl;
  return NULL;
}

/* The n-th comma-terminated field of a kernel-arg-info list, or NULL. */
static const char *arg_info_field(k2s_module *m, const char *list, uint32_t n)
{
  for (; n && list; n--) {
    list = strchr(list, ',');
    if (list)
      list++;
  }
  const char *end = list ? strchr(list, ',') : NULL;
  return end ? k2s_sprintf(&m->arena, "%.*s", (int)(end - list), list) : NULL;
}

/* CL_KERNEL_ARG_TYPE_* bits of one type-qualifier field ("restrict const"). */
static uint32_t type_qualifier_bits(const char *q)
{
  static const char *const word[] = {"const", "restrict", "volatile", "pipe"};
  uint32_t bits = 0;
  for (uint32_t k = 0; k < 4; k++)
    for (const char *p = strstr(q, word[k]); p; p = strstr(p + 1, word[k])) {
      size_t l = strlen(word[k]);
      if ((p == q || p[-1] == ' ') && (p[l] == 0 || p[l] == ' '))
        bits |= 1u << k;
    }
  return bits;
}

/* clGetKernelArgInfo for a kernel's parameters (clspv's ArgumentInfo operands), read
 * now, while the parameters still have their OpenCL types: the address qualifier from
 * a pointer's storage class (images: global, as clang reports them), the access
 * qualifier from an image's type, and the type name and type qualifiers from the
 * producer's strings. Without those strings (llvm-spirv without
 * --preserve-ocl-kernel-arg-type-metadata-through-string) the reflection gives names
 * only: a type name cannot be recovered from SPIR-V types. */
static void record_arg_info(k2s_module *m, const arg_info_index *x, k2s_refl_kernel *k)
{
  k2s_function *f = k2s_function_of_id(m, k->func);
  const char *types = arg_info_string(m, x, 0, k->name);
  const char *quals = arg_info_string(m, x, 1, k->name);
  if (!f || !types || !quals)
    return;
  uint32_t n = 0;
  k2s_foreach_instr(p, &f->head)
    n += p->opcode == SpvOpFunctionParameter;
  const char **names = k2s_alloc(&m->arena, (n + 1) * sizeof(*names));
  uint32_t *words = k2s_alloc(&m->arena, (3 * n + 1) * sizeof(uint32_t));
  uint32_t a = 0;
  k2s_foreach_instr(p, &f->head) {
    if (p->opcode != SpvOpFunctionParameter)
      continue;
    const char *t = arg_info_field(m, types, a), *q = arg_info_field(m, quals, a);
    if (!t || !q)
      return; /* fewer entries than parameters: not this kernel's strings */
    k2s_instr *ty = k2s_def(m, p->type);
    uint32_t address = 0x119E /* PRIVATE */, access = 0x11A3 /* NONE */;
    if (ty && ty->opcode == SpvOpTypePointer) {
      if (ty->ops[0] == SpvStorageClassCrossWorkgroup)
        address = 0x119B;
      else if (ty->ops[0] == SpvStorageClassWorkgroup)
        address = 0x119C;
      else if (ty->ops[0] == SpvStorageClassUniformConstant)
        address = 0x119D;
    } else if (ty && ty->opcode == SpvOpTypeImage) {
      address = 0x119B;
      if (ty->n_ops >= 8 && ty->ops[7] <= 2)
        access = 0x11A0 + ty->ops[7]; /* ReadOnly, WriteOnly, ReadWrite */
    }
    names[a] = t;
    words[a] = address;
    words[n + a] = access;
    words[2 * n + a] = type_qualifier_bits(q);
    a++;
  }
  k->n_arg_info = n;
  k->arg_type_name = names;
  k->arg_address = words;
  k->arg_access = words + n;
  k->arg_type_qual = words + 2 * n;
}

/* The attribute hints a kernel's execution modes carry, as OpenCL spells them
 * (clGetKernelInfo CL_KERNEL_ATTRIBUTES), for the reflection: the modes go
 * below. Every kernel gets its reflection entry here, in entry-point order. */
static void record_hints(k2s_module *m)
{
  static const char *const elem[] = {"char", "short", "int", "long", "half", "float", "double"};
  arg_info_index x = index_arg_info(m);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (e->n_ops < 3 || e->ops[0] != SpvExecutionModelKernel)
      continue;
    k2s_refl_kernel *k = k2s_refl_add_kernel(m, e->ops[1], k2s_string_operand(e, 2));
    record_arg_info(m, &x, k);
  }
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE]) {
    if (x->opcode != SpvOpExecutionMode || x->n_ops < 3)
      continue;
    k2s_strbuf sb = {.arena = &m->arena};
    if (x->ops[1] == SpvExecutionModeLocalSizeHint && x->n_ops >= 5)
      k2s_sb_printf(&sb, "work_group_size_hint(%u,%u,%u)", x->ops[2], x->ops[3], x->ops[4]);
    else if (x->ops[1] == SpvExecutionModeVecTypeHint && (x->ops[2] & 0xffff) < 7) {
      uint32_t n = x->ops[2] >> 16;
      k2s_sb_printf(&sb, "vec_type_hint(%s", elem[x->ops[2] & 0xffff]);
      if (n > 1)
        k2s_sb_printf(&sb, "%u", n);
      k2s_sb_puts(&sb, ")");
    } else {
      continue;
    }
    k2s_refl_kernel *k = k2s_refl_kernel_of(m, x->ops[0]);
    if (k)
      k->hints = k->hints ? k2s_sprintf(&m->arena, "%s %s", k->hints, sb.data) : sb.data;
  }
}

/* LocalSizeId (SPIR-V 1.2) is a Vulkan 1.3 execution mode. With plain
 * constants it says what LocalSize says, for every target; sizes given by
 * specialization constants (or constant instructions) need vulkan1.3. */
static bool local_size_id(k2s_module *m, const k2s_options *o, k2s_instr *x, bool *changed)
{
  if (x->n_ops < 5)
    return true;
  uint32_t v[3];
  bool plain = true;
  for (int k = 0; k < 3; k++) {
    uint64_t c;
    const k2s_instr *d = k2s_def(m, x->ops[2 + k]);
    if (!d || d->opcode != SpvOpConstant || !k2s_const_value(m, x->ops[2 + k], &c) ||
        c > UINT32_MAX)
      plain = false;
    else
      v[k] = (uint32_t)c;
  }
  if (plain) {
    x->opcode = SpvOpExecutionMode;
    uint32_t ops[5] = {x->ops[0], SpvExecutionModeLocalSize, v[0], v[1], v[2]};
    k2s_instr_set_ops(m, x, ops, 5); /* the sizes are literals now, no uses */
    *changed = true;
    return true;
  }
  if (o->target_env < K2S_ENV_VULKAN_1_3) {
    k2s_error(m, x,
              "LocalSizeId with a work-group size given by specialization constants or "
              "constant instructions needs --target-env vulkan1.3 (Vulkan 1.1/1.2 take "
              "LocalSize with literal sizes only)");
    return false;
  }
  return true;
}

static bool convert_models(k2s_module *m)
{
  record_hints(m);
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
    case SpvExecutionModeLocalSize: break;
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
    default: break;
    }
  }
  return changed;
}

bool k2s_lower_entry_points(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    if (x->opcode == SpvOpExecutionModeId && x->n_ops >= 2 &&
        x->ops[1] == SpvExecutionModeLocalSizeId && !local_size_id(m, o, x, &changed))
      return changed;
  changed |= unwrap_entry_points(m);
  changed |= drop_linkage(m);
  changed |= remove_dead_functions(m);
  check_imports(m);
  changed |= convert_models(m);
  return changed;
}
