/*
 * reflection: what a host needs to bind the kernels, in three forms.
 *
 * Embedded NonSemantic.ClspvReflection instructions (the revision of the
 * installed grammar) so clvk-style runtimes and k2s-run can read the module
 * alone; --reflect JSON and --descriptormap in clspv's CSV format, which
 * src/reflection_text.c makes on request after the translation, from the facts
 * kernel-args and work-items recorded and those this pass reads from the module
 * for them. Runs after those passes, before finalize (which adds
 * SPV_KHR_non_semantic_info where needed). No options.
 */
#include <stdio.h>
#include <string.h>

#include "k2s_internal.h"

typedef struct refl_ctx {
  k2s_module *m;
  uint32_t set, void_t;
} refl_ctx;

static uint32_t str(k2s_module *m, const char *s)
{
  k2s_instr *i = k2s_string_new(m, s);
  /* OpString belongs to the debug section, before names. */
  k2s_list_insert_after(&m->sec[K2S_SEC_DEBUG], NULL, i);
  return i->result;
}

static uint32_t u32(k2s_module *m, uint32_t v)
{
  return k2s_const_uint32(m, v);
}

static uint32_t ext(refl_ctx *c, uint32_t op, const uint32_t *args, uint32_t n)
{
  k2s_instr *i = k2s_ext_inst_new(c->m, c->void_t, c->set, op, args, n);
  k2s_list_append(&c->m->tail, i);
  return i->result;
}

static const uint32_t pc_op[K2S_PC_COUNT] = {K2S_CLSPV_REFLECTION_PushConstantGlobalOffset,
                                             K2S_CLSPV_REFLECTION_PushConstantGlobalSize,
                                             K2S_CLSPV_REFLECTION_PushConstantEnqueuedLocalSize,
                                             K2S_CLSPV_REFLECTION_PushConstantNumWorkgroups,
                                             K2S_CLSPV_REFLECTION_PushConstantRegionOffset,
                                             K2S_CLSPV_REFLECTION_PushConstantRegionGroupOffset};

static uint32_t descriptor_op(uint32_t k)
{
  switch (k) {
  case K2S_ARG_SAMPLED_IMAGE: return K2S_CLSPV_REFLECTION_ArgumentSampledImage;
  case K2S_ARG_STORAGE_IMAGE: return K2S_CLSPV_REFLECTION_ArgumentStorageImage;
  case K2S_ARG_SAMPLER: return K2S_CLSPV_REFLECTION_ArgumentSampler;
  case K2S_ARG_UNIFORM_TEXEL_BUFFER: return K2S_CLSPV_REFLECTION_ArgumentUniformTexelBuffer;
  default: return K2S_CLSPV_REFLECTION_ArgumentStorageTexelBuffer;
  }
}

/* The kernel's attributes as clGetKernelInfo(CL_KERNEL_ATTRIBUTES) spells them
 * (the Attributes operand of clspv's Kernel): the required size, then the
 * hints entry-points read before dropping their execution modes. */
static const char *kernel_attributes(k2s_module *m, const k2s_refl_kernel *k)
{
  k2s_strbuf sb = {.arena = &m->arena};
  if (k->has_reqd)
    k2s_sb_printf(&sb, "reqd_work_group_size(%u,%u,%u)", k->reqd[0], k->reqd[1], k->reqd[2]);
  if (k->hints)
    k2s_sb_printf(&sb, "%s%s", sb.len ? " " : "", k->hints);
  return sb.len ? sb.data : "";
}

static void emit_embedded(refl_ctx *c, k2s_refl_facts *r)
{
  k2s_module *m = c->m;
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    k2s_refl_kernel *k = &r->kernels[i];
    /* Kernel, Name, NumArguments, Flags (KernelPropertyFlags), Attributes:
     * every operand clspv emits, as clvk reads them. */
    uint32_t kargs[5] = {k->func, str(m, k->name), u32(m, k->n_args),
                         u32(m, k->may_use_printf ? 1u : 0u), str(m, kernel_attributes(m, k))};
    uint32_t decl = ext(c, K2S_CLSPV_REFLECTION_Kernel, kargs, 5);
    for (uint32_t a = 0; a < k->n_args; a++) {
      k2s_refl_arg *g = &k->args[a];
      /* Name, then (when the producer supplied kernel-arg-info) Type Name, Address
       * Qualifier, Access Qualifier and Type Qualifier, as clspv -cl-kernel-arg-info. */
      uint32_t info_args[5] = {str(m, g->name)}, n_info = 1;
      if (a < k->n_arg_info) {
        info_args[1] = str(m, k->arg_type_name[a]);
        info_args[2] = u32(m, k->arg_address[a]);
        info_args[3] = u32(m, k->arg_access[a]);
        info_args[4] = u32(m, k->arg_type_qual[a]);
        n_info = 5;
      }
      uint32_t info = ext(c, K2S_CLSPV_REFLECTION_ArgumentInfo, info_args, n_info);
      switch (g->kind) {
      case K2S_ARG_BUFFER:
      case K2S_ARG_BUFFER_UBO: {
        uint32_t ops[5] = {decl, u32(m, g->ordinal), u32(m, g->set), u32(m, g->binding), info};
        ext(c,
            g->kind == K2S_ARG_BUFFER ? K2S_CLSPV_REFLECTION_ArgumentStorageBuffer
                                      : K2S_CLSPV_REFLECTION_ArgumentUniform,
            ops, 5);
        break;
      }
      case K2S_ARG_POD:
      case K2S_ARG_POD_UBO:
      case K2S_ARG_POINTER_UBO: {
        uint32_t ops[7] = {decl,
                           u32(m, g->ordinal),
                           u32(m, g->set),
                           u32(m, g->binding),
                           u32(m, g->offset),
                           u32(m, g->size),
                           info};
        ext(c,
            g->kind == K2S_ARG_POD       ? K2S_CLSPV_REFLECTION_ArgumentPodStorageBuffer
            : g->kind == K2S_ARG_POD_UBO ? K2S_CLSPV_REFLECTION_ArgumentPodUniform
                                         : K2S_CLSPV_REFLECTION_ArgumentPointerUniform,
            ops, 7);
        break;
      }
      case K2S_ARG_POD_PUSH_CONSTANT:
      case K2S_ARG_POINTER_PUSH_CONSTANT: {
        uint32_t ops[5] = {decl, u32(m, g->ordinal), u32(m, g->offset), u32(m, g->size), info};
        ext(c,
            g->kind == K2S_ARG_POD_PUSH_CONSTANT ? K2S_CLSPV_REFLECTION_ArgumentPodPushConstant
                                                 : K2S_CLSPV_REFLECTION_ArgumentPointerPushConstant,
            ops, 5);
        break;
      }
      case K2S_ARG_SAMPLED_IMAGE:
      case K2S_ARG_STORAGE_IMAGE:
      case K2S_ARG_SAMPLER:
      case K2S_ARG_UNIFORM_TEXEL_BUFFER:
      case K2S_ARG_STORAGE_TEXEL_BUFFER: {
        uint32_t ops[5] = {decl, u32(m, g->ordinal), u32(m, g->set), u32(m, g->binding), info};
        ext(c, descriptor_op(g->kind), ops, 5);
        break;
      }
      default: {
        uint32_t ops[5] = {decl, u32(m, g->ordinal), u32(m, g->spec_id), u32(m, g->elem_size),
                           info};
        ext(c, K2S_CLSPV_REFLECTION_ArgumentWorkgroup, ops, 5);
        break;
      }
      }
    }
    for (uint32_t q = 0; q < k->n_image_info; q++) {
      k2s_refl_image_info *ii = &k->image_info[q];
      uint32_t ops[4] = {decl, u32(m, ii->ordinal), u32(m, ii->offset), u32(m, 4)};
      static const uint32_t op[] = {
          [K2S_INFO_CHANNEL_ORDER] = K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelOrderPushConstant,
          [K2S_INFO_CHANNEL_DATA_TYPE] =
              K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelDataTypePushConstant,
          [K2S_INFO_SAMPLER_MASK] = K2S_CLSPV_REFLECTION_NormalizedSamplerMaskPushConstant};
      ext(c, op[ii->what], ops, 4);
    }
    if (k->has_reqd) {
      uint32_t ops[4] = {decl, u32(m, k->reqd[0]), u32(m, k->reqd[1]), u32(m, k->reqd[2])};
      ext(c, K2S_CLSPV_REFLECTION_PropertyRequiredWorkgroupSize, ops, 4);
    }
  }
  /* Push constants are per kernel in k2s but the format has no kernel
   * operand: every kernel that uses one places it at the same offset (the
   * work-item pass allocates them first, in a fixed order), so one entry
   * each holds for all; a mismatch is reported as an error. */
  for (int p = 0; p < K2S_PC_COUNT; p++) {
    uint32_t off = UINT32_MAX;
    for (uint32_t i = 0; i < r->n_kernels; i++) {
      uint32_t o = r->kernels[i].pc_offset[p];
      if (o == UINT32_MAX)
        continue;
      if (off != UINT32_MAX && off != o) {
        k2s_error(m, NULL,
                  "kernels place the %s push constant at different offsets (%u, %u); "
                  "the reflection format cannot describe that",
                  k2s_refl_push_constant_name(p), off, o);
        return;
      }
      off = o;
    }
    if (off != UINT32_MAX) {
      uint32_t ops[2] = {u32(m, off), u32(m, 12)};
      ext(c, pc_op[p], ops, 2);
    }
  }
  if (r->has_wg_spec) {
    uint32_t ops[3] = {u32(m, r->wg_spec[0]), u32(m, r->wg_spec[1]), u32(m, r->wg_spec[2])};
    ext(c, K2S_CLSPV_REFLECTION_SpecConstantWorkgroupSize, ops, 3);
  }
  if (r->has_work_dim) {
    uint32_t ops[1] = {u32(m, r->work_dim_spec)};
    ext(c, K2S_CLSPV_REFLECTION_SpecConstantWorkDim, ops, 1);
  }
  for (uint32_t q = 0; q < r->n_samplers; q++) {
    uint32_t ops[3] = {u32(m, r->samplers[q].set), u32(m, r->samplers[q].binding),
                       u32(m, r->samplers[q].mask)};
    ext(c, K2S_CLSPV_REFLECTION_LiteralSampler, ops, 3);
  }
  if (r->has_constant_data) {
    uint32_t ops[3] = {u32(m, r->cd_set), u32(m, r->cd_binding), str(m, k2s_refl_hex_bytes(&m->arena, r->cd_data, r->cd_size))};
    ext(c, K2S_CLSPV_REFLECTION_ConstantDataStorageBuffer, ops, 3);
  }
  if (r->has_psv) {
    uint32_t ops[3] = {u32(m, r->psv_set), u32(m, r->psv_binding), str(m, k2s_refl_hex_bytes(&m->arena, r->psv_data, r->psv_size))};
    ext(c, K2S_CLSPV_REFLECTION_ProgramScopeVariablesStorageBuffer, ops, 3);
  }
  /* PrintfInfo: PrintfID, FormatString, ArgumentSizes...; then the buffer. */
  for (uint32_t q = 0; q < r->n_printfs; q++) {
    const struct k2s_refl_printf *p = &r->printfs[q];
    uint32_t *ops = k2s_alloc(&m->arena, (p->n_args + 2) * sizeof(uint32_t));
    ops[0] = u32(m, p->id);
    ops[1] = str(m, p->format);
    for (uint32_t a = 0; a < p->n_args; a++)
      ops[2 + a] = u32(m, p->arg_sizes[a]);
    ext(c, K2S_CLSPV_REFLECTION_PrintfInfo, ops, p->n_args + 2);
  }
  if (r->has_printf) {
    uint32_t ops[3] = {u32(m, r->printf_set), u32(m, r->printf_binding), u32(m, r->printf_size)};
    ext(c, K2S_CLSPV_REFLECTION_PrintfBufferStorageBuffer, ops, 3);
  }
}

/* What the module needs of the device's subgroup support (JSON "subgroups"): the
 * VkSubgroupFeatureFlagBits its GroupNonUniform* instructions and subgroup builtins use
 * (bit k of subgroup_ops: enum k2s_subgroup_op), and whether any works on a non-32-bit
 * type (shaderSubgroupExtendedTypes). */
static void record_subgroups(k2s_module *m, k2s_refl_facts *r)
{
  static const uint32_t caps[K2S_SUBGROUP_OP_COUNT] = {
      SpvCapabilityGroupNonUniform, SpvCapabilityGroupNonUniformVote,
      SpvCapabilityGroupNonUniformArithmetic, SpvCapabilityGroupNonUniformBallot,
      SpvCapabilityGroupNonUniformShuffle};
  uint32_t used = 0;
  bool extended = false, any = false;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_ANNOTATION])
    if (v->opcode == SpvOpDecorate && v->n_ops >= 3 && v->ops[1] == SpvDecorationBuiltIn &&
        (v->ops[2] == SpvBuiltInSubgroupSize || v->ops[2] == SpvBuiltInSubgroupId ||
         v->ops[2] == SpvBuiltInNumSubgroups || v->ops[2] == SpvBuiltInSubgroupLocalInvocationId)) {
      used |= 1u << K2S_SUBGROUP_BASIC;
      any = true;
    }
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        if (i->opcode < SpvOpGroupNonUniformElect || i->opcode > SpvOpGroupNonUniformQuadSwap)
          continue;
        const k2s_opcode_info *info = k2s_opcode(i->opcode);
        for (uint32_t k = 0; info && k < K2S_SUBGROUP_OP_COUNT; k++)
          for (uint32_t c = 0; c < info->n_caps; c++)
            if (k2s_opcode_info_caps(info)[c] == caps[k]) {
              used |= 1u << k;
              any = true;
            }
        used |= 1u << K2S_SUBGROUP_BASIC;
        uint32_t w = i->type ? k2s_type_width(m, i->type) : 32;
        if (w && w != 32)
          extended = true;
      }
  r->subgroup_ops = (uint8_t)used;
  r->subgroup_extended = extended;
  r->subgroup_any = any;
}

/* The module's Workgroup variables and, per function, the ones its code uses, gathered
 * once: asking every variable's uses once per kernel made a module of many kernels
 * quadratic (kernels x variables; big1000: 167,000 use walks). */
typedef struct wg_vars {
  k2s_instr **v; /* the module's Workgroup variables */
  uint32_t n;
  uint32_t *first;      /* id-indexed (functions): first entry of its list, NONE_USE when none */
  uint32_t *var, *next; /* the entries: a variable index and the next entry of that function */
  uint32_t n_use;
  uint32_t *stamp;  /* id-indexed (functions): the kernel that reached it last, plus one */
  uint32_t *vstamp; /* by variable: the kernel that counted it last, plus one */
  uint32_t *stack;  /* function ids still to walk */
} wg_vars;

#define NONE_USE UINT32_MAX

static wg_vars gather_wg_vars(k2s_module *m)
{
  wg_vars w = {0};
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    w.n += v->opcode == SpvOpVariable && v->n_ops && v->ops[0] == SpvStorageClassWorkgroup;
  if (!w.n)
    return w;
  w.v = k2s_alloc(&m->arena, w.n * sizeof *w.v);
  w.n = 0;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable && v->n_ops && v->ops[0] == SpvStorageClassWorkgroup)
      w.v[w.n++] = v;
  uint32_t n_use = 0, n_func = 0;
  for (uint32_t q = 0; q < w.n; q++)
    k2s_foreach_use(u, m, w.v[q]->result)
      n_use += u->user->block != NULL;
  k2s_foreach_function(f, m)
    n_func++;
  w.first = k2s_alloc(&m->arena, m->bound * sizeof *w.first);
  memset(w.first, 0xff, m->bound * sizeof *w.first);
  w.stamp = k2s_alloc(&m->arena, m->bound * sizeof *w.stamp);
  w.vstamp = k2s_alloc(&m->arena, w.n * sizeof *w.vstamp);
  w.var = k2s_alloc(&m->arena, (n_use + 1) * sizeof *w.var);
  w.next = k2s_alloc(&m->arena, (n_use + 1) * sizeof *w.next);
  w.stack = k2s_alloc(&m->arena, (n_func + 1) * sizeof *w.stack);
  for (uint32_t q = 0; q < w.n; q++)
    k2s_foreach_use(u, m, w.v[q]->result) {
      if (!u->user->block)
        continue;
      uint32_t fid = u->user->block->func->def->result;
      w.var[w.n_use] = q;
      w.next[w.n_use] = w.first[fid];
      w.first[fid] = w.n_use++;
    }
  return w;
}

/* The Workgroup memory kernel k's code uses (JSON "workgroup_memory"): "bytes" of fixed
 * size (its local arrays; k2s's scratch when the work-group size is required),
 * "bytes_per_work_item" (k2s's scratch for work-group functions sized by the work-group-size
 * spec constants: two halves of X*Y*Z elements), and of both the "scratch_bytes" /
 * "scratch_bytes_per_work_item" k2s added; left out when both are 0. Local arguments come
 * on top (count x elem_size). kernel_no numbers the kernels from 0. The variables are
 * visited per function the kernel reaches, each once; the sums do not depend on the order. */
static void record_workgroup_memory(k2s_module *m, k2s_refl_kernel *k, uint32_t kernel_no,
                                    wg_vars *w)
{
  k2s_function *kf = k2s_function_of_id(m, k->func);
  if (!w->n || !kf)
    return;
  uint32_t mark = kernel_no + 1, n_stack = 0;
  uint64_t fixed = 0, per_item = 0, scratch = 0, scratch_per_item = 0;
  w->stamp[kf->def->result] = mark;
  w->stack[n_stack++] = kf->def->result;
  while (n_stack) {
    uint32_t fid = w->stack[--n_stack];
    k2s_foreach_block(b, k2s_function_of_id(m, fid))
      k2s_foreach_instr(i, &b->body) {
        k2s_function *g = i->opcode == SpvOpFunctionCall && i->n_ops >= 1
                              ? k2s_function_of_id(m, i->ops[0])
                              : NULL;
        if (g && w->stamp[g->def->result] != mark) {
          w->stamp[g->def->result] = mark;
          w->stack[n_stack++] = g->def->result;
        }
      }
    for (uint32_t e = w->first[fid]; e != NONE_USE; e = w->next[e]) {
      if (w->vstamp[w->var[e]] == mark)
        continue;
      w->vstamp[w->var[e]] = mark;
      k2s_instr *v = w->v[w->var[e]];
      k2s_instr *pt = k2s_def(m, v->type);
      uint32_t pointee = pt && pt->n_ops >= 2 ? pt->ops[1] : 0;
      const char *name = k2s_name_of(m, v->result);
      bool ours = name && strcmp(name, "k2s_group_scratch") == 0;
      uint64_t size, align;
      if (!pointee)
        continue;
      if (k2s_cl_layout(m, pointee, &size, &align)) {
        fixed += size;
        scratch += ours ? size : 0;
        continue;
      }
      k2s_instr *arr = k2s_def(m, pointee);
      if (ours && arr && arr->opcode == SpvOpTypeArray && arr->n_ops >= 1 &&
          k2s_cl_layout(m, arr->ops[0], &size, &align)) {
        per_item += 2 * size; /* two halves of X*Y*Z (group-ops) */
        scratch_per_item += 2 * size;
      }
      /* else a local argument's array, sized by its spec constant: listed in "args" */
    }
  }
  k->wg_bytes = fixed;
  k->wg_bytes_per_item = per_item;
  k->wg_scratch = scratch;
  k->wg_scratch_per_item = scratch_per_item;
}

/* What the text forms (src/reflection_text.c, made after the translation, from the
 * module as the last pass left it) need of the module as it is here. */
static void record_for_text(k2s_module *m, k2s_refl_facts *r)
{
  wg_vars wg = gather_wg_vars(m);
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    k2s_refl_kernel *k = &r->kernels[i];
    k2s_function *kf = k2s_function_of_id(m, k->func);
    k->physical = kf && kf->physical;
    record_workgroup_memory(m, k, i, &wg);
  }
  record_subgroups(m, r);
  r->atomic_features = k2s_atomic_features(m);
  r->text_ready = true;
}

bool k2s_emit_reflection(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  k2s_refl_facts *r = k2s_refl(m);
  refl_ctx c = {m, 0, k2s_type_void(m)};
  char name[64];
  snprintf(name, sizeof(name), "NonSemantic.ClspvReflection.%d",
           K2S_CLSPV_REFLECTION_GRAMMAR_REVISION);
  c.set = k2s_ext_import(m, name);
  emit_embedded(&c, r);
  record_for_text(m, r);
  return true;
}
