/*
 * reflection: what a host needs to bind the kernels, in three forms.
 *
 * Embedded NonSemantic.ClspvReflection instructions (the revision of the
 * installed grammar) so clvk-style runtimes and k2s-run can read the module
 * alone; --reflect JSON; --descriptormap in clspv's CSV format. Reads the
 * facts kernel-args and work-items recorded. Runs after them, before
 * finalize (which adds SPV_KHR_non_semantic_info where needed). No options.
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

static const char *pc_name[K2S_PC_COUNT] = {"global_offset",       "global_size",
                                            "enqueued_local_size", "num_workgroups",
                                            "region_offset",       "region_group_offset"};
static const uint32_t pc_op[K2S_PC_COUNT] = {K2S_CLSPV_REFLECTION_PushConstantGlobalOffset,
                                             K2S_CLSPV_REFLECTION_PushConstantGlobalSize,
                                             K2S_CLSPV_REFLECTION_PushConstantEnqueuedLocalSize,
                                             K2S_CLSPV_REFLECTION_PushConstantNumWorkgroups,
                                             K2S_CLSPV_REFLECTION_PushConstantRegionOffset,
                                             K2S_CLSPV_REFLECTION_PushConstantRegionGroupOffset};

static const char *kind_name(uint32_t k)
{
  switch (k) {
  case K2S_ARG_BUFFER: return "buffer";
  case K2S_ARG_BUFFER_UBO: return "buffer_ubo";
  case K2S_ARG_POD: return "pod";
  case K2S_ARG_POD_UBO: return "pod_ubo";
  case K2S_ARG_POD_PUSH_CONSTANT: return "pod_pushconstant";
  case K2S_ARG_POINTER_PUSH_CONSTANT: return "pointer_pushconstant";
  case K2S_ARG_POINTER_UBO: return "pointer_ubo";
  case K2S_ARG_SAMPLED_IMAGE: return "ro_image";
  case K2S_ARG_STORAGE_IMAGE: return "wo_image";
  case K2S_ARG_SAMPLER: return "sampler";
  case K2S_ARG_UNIFORM_TEXEL_BUFFER: return "uniform_texel_buffer";
  case K2S_ARG_STORAGE_TEXEL_BUFFER: return "storage_texel_buffer";
  default: return "local";
  }
}

/* The JSON "what" and descriptor-map word of an image_info entry. */
static const char *info_name(uint32_t what)
{
  return what == K2S_INFO_CHANNEL_DATA_TYPE ? "channel_data_type"
         : what == K2S_INFO_SAMPLER_MASK    ? "normalized_sampler_mask"
                                            : "channel_order";
}

static const char *arg_kind_name(const k2s_refl_arg *g)
{
  return g->kind == K2S_ARG_STORAGE_IMAGE && g->read_write ? "rw_image" : kind_name(g->kind);
}

static bool is_descriptor_kind(uint32_t k)
{
  return k == K2S_ARG_SAMPLED_IMAGE || k == K2S_ARG_STORAGE_IMAGE || k == K2S_ARG_SAMPLER ||
         k == K2S_ARG_UNIFORM_TEXEL_BUFFER || k == K2S_ARG_STORAGE_TEXEL_BUFFER;
}

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

/* clspv's descriptor-map spelling of a literal sampler's bits. */
static const char *sampler_expr(k2s_module *m, uint32_t mask)
{
  static const char *addr[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP",
                               "CLK_ADDRESS_REPEAT", "CLK_ADDRESS_MIRRORED_REPEAT"};
  uint32_t a = (mask >> 1) & 7;
  return k2s_sprintf(&m->arena, "%s|%s|%s", a < 5 ? addr[a] : "?",
                     mask & 0x20 ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST",
                     mask & 1 ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE");
}

/* A module-scope buffer's initial bytes as hex (the Data string of
 * ProgramScopeVariablesStorageBuffer and ConstantDataStorageBuffer, as clspv
 * writes it: two lower-case digits per byte, lowest address first). */
static char *hex_bytes(k2s_module *m, const uint8_t *data, size_t size)
{
  static const char digits[] = "0123456789abcdef";
  char *hex = k2s_alloc(&m->arena, size * 2 + 1);
  for (size_t k = 0; k < size; k++) {
    hex[2 * k] = digits[data[k] >> 4];
    hex[2 * k + 1] = digits[data[k] & 15];
  }
  hex[2 * size] = 0;
  return hex;
}

static char *psv_hex(k2s_module *m, const k2s_refl_facts *r)
{
  return hex_bytes(m, r->psv_data, r->psv_size);
}

static char *cd_hex(k2s_module *m, const k2s_refl_facts *r)
{
  return hex_bytes(m, r->cd_data, r->cd_size);
}

/* clGetKernelArgInfo's enumerants, spelled as the JSON gives them. */
static const char *address_name(uint32_t v)
{
  static const char *const n[] = {"global", "local", "constant", "private"};
  return v >= 0x119B && v <= 0x119E ? n[v - 0x119B] : "?";
}

static const char *access_name(uint32_t v)
{
  static const char *const n[] = {"read_only", "write_only", "read_write", "none"};
  return v >= 0x11A0 && v <= 0x11A3 ? n[v - 0x11A0] : "?";
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
                  pc_name[p], off, o);
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
    uint32_t ops[3] = {u32(m, r->cd_set), u32(m, r->cd_binding), str(m, cd_hex(m, r))};
    ext(c, K2S_CLSPV_REFLECTION_ConstantDataStorageBuffer, ops, 3);
  }
  if (r->has_psv) {
    uint32_t ops[3] = {u32(m, r->psv_set), u32(m, r->psv_binding), str(m, psv_hex(m, r))};
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

static void json_string(k2s_strbuf *sb, const char *s)
{
  k2s_sb_puts(sb, "\"");
  /* Plain characters go in runs: a printf per character was a tenth of the
   * translation of a module with many kernels. */
  char run[64];
  size_t n = 0;
  for (;; s++) {
    bool plain = *s && *s != '"' && *s != '\\' && (unsigned char)*s >= 32;
    if (plain)
      run[n++] = *s;
    if (n && (!plain || n == sizeof(run) - 1)) {
      run[n] = 0;
      k2s_sb_puts(sb, run);
      n = 0;
    }
    if (!*s)
      break;
    if (*s == '"' || *s == '\\')
      k2s_sb_printf(sb, "\\%c", *s);
    else if ((unsigned char)*s < 32)
      k2s_sb_printf(sb, "\\u%04x", *s);
  }
  k2s_sb_puts(sb, "\"");
}

/* What the module needs of the device's subgroup support (JSON "subgroups"): the
 * VkSubgroupFeatureFlagBits its GroupNonUniform* instructions and subgroup builtins use,
 * whether any works on a non-32-bit type (shaderSubgroupExtendedTypes), and whether the
 * OpenCL program's own sub-group functions need full sub-groups. Empty when none. */
static void json_subgroups(k2s_module *m, k2s_refl_facts *r, k2s_strbuf *sb)
{
  static const struct {
    uint32_t cap;
    const char *name;
  } ops[] = {{SpvCapabilityGroupNonUniform, "basic"},
             {SpvCapabilityGroupNonUniformVote, "vote"},
             {SpvCapabilityGroupNonUniformArithmetic, "arithmetic"},
             {SpvCapabilityGroupNonUniformBallot, "ballot"},
             {SpvCapabilityGroupNonUniformShuffle, "shuffle"}};
  bool used[5] = {false}, extended = false, any = false;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_ANNOTATION])
    if (v->opcode == SpvOpDecorate && v->n_ops >= 3 && v->ops[1] == SpvDecorationBuiltIn &&
        (v->ops[2] == SpvBuiltInSubgroupSize || v->ops[2] == SpvBuiltInSubgroupId ||
         v->ops[2] == SpvBuiltInNumSubgroups || v->ops[2] == SpvBuiltInSubgroupLocalInvocationId))
      used[0] = any = true;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        if (i->opcode < SpvOpGroupNonUniformElect || i->opcode > SpvOpGroupNonUniformQuadSwap)
          continue;
        const k2s_opcode_info *info = k2s_opcode(i->opcode);
        for (uint32_t k = 0; info && k < 5; k++)
          for (uint32_t c = 0; c < info->n_caps; c++)
            if (info->caps[c] == ops[k].cap)
              used[k] = any = true;
        used[0] = true;
        uint32_t w = i->type ? k2s_type_width(m, i->type) : 32;
        if (w && w != 32)
          extended = true;
      }
  if (!any)
    return;
  k2s_sb_puts(sb, ",\n  \"subgroups\": {\"operations\": [");
  bool first = true;
  for (uint32_t k = 0; k < 5; k++)
    if (used[k]) {
      k2s_sb_printf(sb, "%s\"%s\"", first ? "" : ", ", ops[k].name);
      first = false;
    }
  k2s_sb_printf(sb, "], \"extended_types\": %s, \"full_subgroups\": %s}",
                extended ? "true" : "false", r->uses_sub_groups ? "true" : "false");
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
static void json_workgroup_memory(k2s_module *m, k2s_refl_kernel *k, uint32_t kernel_no,
                                  k2s_strbuf *sb, wg_vars *w)
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
  if (!fixed && !per_item)
    return; /* none: the key is left out */
  k2s_sb_printf(sb,
                ", \"workgroup_memory\": {\"bytes\": %llu, \"bytes_per_work_item\": %llu, "
                "\"scratch_bytes\": %llu, \"scratch_bytes_per_work_item\": %llu}",
                (unsigned long long)fixed, (unsigned long long)per_item,
                (unsigned long long)scratch, (unsigned long long)scratch_per_item);
}

static char *emit_json(k2s_module *m, k2s_refl_facts *r)
{
  k2s_strbuf sb = {.arena = &m->arena};
  wg_vars wg = gather_wg_vars(m);
  k2s_sb_puts(&sb, "{\n  \"kernels\": [");
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    k2s_refl_kernel *k = &r->kernels[i];
    k2s_sb_printf(&sb, "%s\n    {\"name\": ", i ? "," : "");
    json_string(&sb, k->name);
    k2s_sb_puts(&sb, ", \"args\": [");
    for (uint32_t a = 0; a < k->n_args; a++) {
      k2s_refl_arg *g = &k->args[a];
      k2s_sb_printf(&sb, "%s\n      {\"name\": ", a ? "," : "");
      json_string(&sb, g->name);
      k2s_sb_printf(&sb, ", \"ordinal\": %u, \"kind\": \"%s\"", g->ordinal, arg_kind_name(g));
      if (g->image_format) /* --image-format's ORDER:TYPE */
        k2s_sb_printf(&sb, ", \"image_format\": \"%s\"", g->image_format);
      if (is_descriptor_kind(g->kind))
        k2s_sb_printf(&sb, ", \"set\": %u, \"binding\": %u", g->set, g->binding);
      else if (g->kind == K2S_ARG_LOCAL)
        k2s_sb_printf(&sb, ", \"spec_id\": %u, \"elem_size\": %u", g->spec_id, g->elem_size);
      else if (g->kind == K2S_ARG_POD_PUSH_CONSTANT || g->kind == K2S_ARG_POINTER_PUSH_CONSTANT)
        k2s_sb_printf(&sb, ", \"offset\": %u, \"size\": %u", g->offset, g->size);
      else if (g->kind == K2S_ARG_POD || g->kind == K2S_ARG_POD_UBO ||
               g->kind == K2S_ARG_POINTER_UBO)
        k2s_sb_printf(&sb, ", \"set\": %u, \"binding\": %u, \"offset\": %u, \"size\": %u", g->set,
                      g->binding, g->offset, g->size);
      else
        k2s_sb_printf(&sb, ", \"set\": %u, \"binding\": %u, \"elem_size\": %u", g->set, g->binding,
                      g->elem_size);
      if (a < k->n_arg_info) {
        k2s_sb_puts(&sb, ", \"type_name\": ");
        json_string(&sb, k->arg_type_name[a]);
        k2s_sb_printf(&sb,
                      ", \"address_qualifier\": \"%s\", \"access_qualifier\": \"%s\", "
                      "\"type_qualifier\": %u",
                      address_name(k->arg_address[a]), access_name(k->arg_access[a]),
                      k->arg_type_qual[a]);
      }
      k2s_sb_puts(&sb, "}");
    }
    k2s_sb_puts(&sb, "]");
    if (k->has_reqd)
      k2s_sb_printf(&sb, ", \"required_work_group_size\": [%u, %u, %u]", k->reqd[0], k->reqd[1],
                    k->reqd[2]);
    if (k->n_image_info) {
      k2s_sb_puts(&sb, ", \"image_info\": [");
      for (uint32_t q = 0; q < k->n_image_info; q++)
        k2s_sb_printf(&sb, "%s{\"ordinal\": %u, \"what\": \"%s\", \"offset\": %u, \"size\": 4}",
                      q ? ", " : "", k->image_info[q].ordinal, info_name(k->image_info[q].what),
                      k->image_info[q].offset);
      k2s_sb_puts(&sb, "]");
    }
    k2s_function *kf = k2s_function_of_id(m, k->func);
    k2s_sb_printf(&sb, ", \"pointers\": \"%s\"", kf && kf->physical ? "physical" : "logical");
    json_workgroup_memory(m, k, i, &sb, &wg);
    k2s_sb_puts(&sb, ", \"push_constants\": {");
    bool first = true;
    for (int p = 0; p < K2S_PC_COUNT; p++)
      if (k->pc_offset[p] != UINT32_MAX) {
        k2s_sb_printf(&sb, "%s\"%s\": {\"offset\": %u, \"size\": 12}", first ? "" : ", ",
                      pc_name[p], k->pc_offset[p]);
        first = false;
      }
    k2s_sb_printf(&sb, "}, \"push_constant_size\": %u}", k2s_kernel_push_constant_size(m, k));
  }
  k2s_sb_puts(&sb, "\n  ],\n  \"spec_constants\": {");
  bool first = true;
  if (r->has_wg_spec) {
    k2s_sb_printf(&sb, "\"workgroup_size\": [%u, %u, %u]", r->wg_spec[0], r->wg_spec[1],
                  r->wg_spec[2]);
    first = false;
  }
  if (r->has_work_dim)
    k2s_sb_printf(&sb, "%s\"work_dim\": %u", first ? "" : ", ", r->work_dim_spec);
  k2s_sb_puts(&sb, "}");
  if (r->n_samplers) {
    k2s_sb_puts(&sb, ",\n  \"literal_samplers\": [");
    for (uint32_t q = 0; q < r->n_samplers; q++)
      k2s_sb_printf(&sb, "%s{\"set\": %u, \"binding\": %u, \"mask\": %u, \"expr\": \"%s\"}",
                    q ? ", " : "", r->samplers[q].set, r->samplers[q].binding, r->samplers[q].mask,
                    sampler_expr(m, r->samplers[q].mask));
    k2s_sb_puts(&sb, "]");
  }
  if (r->has_constant_data)
    k2s_sb_printf(&sb,
                  ",\n  \"constant_data\": {\"set\": %u, \"binding\": %u, \"size\": %u, "
                  "\"data\": \"%s\"}",
                  r->cd_set, r->cd_binding, r->cd_size, cd_hex(m, r));
  if (r->has_psv)
    k2s_sb_printf(&sb,
                  ",\n  \"program_scope_variables\": {\"set\": %u, \"binding\": %u, "
                  "\"size\": %u, \"data\": \"%s\"}",
                  r->psv_set, r->psv_binding, r->psv_size, psv_hex(m, r));
  if (r->has_printf) {
    k2s_sb_printf(&sb,
                  ",\n  \"printf\": {\"set\": %u, \"binding\": %u, \"size\": %u, \"formats\": [",
                  r->printf_set, r->printf_binding, r->printf_size);
    for (uint32_t q = 0; q < r->n_printfs; q++) {
      const struct k2s_refl_printf *p = &r->printfs[q];
      k2s_sb_printf(&sb, "%s\n    {\"id\": %u, \"format\": ", q ? "," : "", p->id);
      json_string(&sb, p->format);
      k2s_sb_puts(&sb, ", \"arg_sizes\": [");
      for (uint32_t a = 0; a < p->n_args; a++)
        k2s_sb_printf(&sb, "%s%u", a ? ", " : "", p->arg_sizes[a]);
      k2s_sb_puts(&sb, "]}");
    }
    k2s_sb_puts(&sb, "]}");
  }
  json_subgroups(m, r, &sb);
  uint32_t features = k2s_atomic_features(m);
  if (features) {
    k2s_sb_puts(&sb, ",\n  \"device_features\": [");
    first = true;
    for (uint32_t f = 0; f < K2S_ATOMIC_FEATURE_COUNT; f++)
      if (features & (1u << f)) {
        k2s_sb_printf(&sb, "%s\"%s\"", first ? "" : ", ", k2s_atomic_feature_name(f));
        first = false;
      }
    k2s_sb_puts(&sb, "]");
  }
  k2s_sb_puts(&sb, "\n}\n");
  return sb.data;
}

static char *emit_csv(k2s_module *m, k2s_refl_facts *r)
{
  k2s_strbuf sb = {.arena = &m->arena};
  k2s_sb_puts(&sb, "");
  if (r->has_wg_spec) {
    static const char *axis = "xyz";
    for (int d = 0; d < 3; d++)
      k2s_sb_printf(&sb, "spec_constant,workgroup_size_%c,spec_id,%u\n", axis[d], r->wg_spec[d]);
  }
  if (r->has_work_dim)
    k2s_sb_printf(&sb, "spec_constant,work_dim,spec_id,%u\n", r->work_dim_spec);
  /* clspv-reflection's line for ConstantDataStorageBuffer. */
  if (r->has_constant_data)
    k2s_sb_printf(&sb, "constant,descriptorSet,%u,binding,%u,kind,buffer,hexbytes,%s\n", r->cd_set,
                  r->cd_binding, cd_hex(m, r));
  /* clspv's form for module-scope data ("constant,...,kind,buffer,hexbytes,..."),
   * named for the program-scope buffer (clspv-reflection prints no line for it). */
  if (r->has_psv)
    k2s_sb_printf(&sb, "program_scope,descriptorSet,%u,binding,%u,kind,buffer,hexbytes,%s\n",
                  r->psv_set, r->psv_binding, psv_hex(m, r));
  /* k2s's own lines for printf (clspv's descriptor map predates its printf): the
   * buffer, then each format as hex bytes (formats hold commas and newlines) with the
   * record bytes of each argument. */
  if (r->has_printf)
    k2s_sb_printf(&sb, "printf_buffer,descriptorSet,%u,binding,%u,size,%u\n", r->printf_set,
                  r->printf_binding, r->printf_size);
  for (uint32_t q = 0; q < r->n_printfs; q++) {
    const struct k2s_refl_printf *p = &r->printfs[q];
    k2s_sb_printf(&sb, "printf,id,%u,hexformat,%s,argSizes,", p->id,
                  hex_bytes(m, (const uint8_t *)p->format, strlen(p->format)));
    for (uint32_t a = 0; a < p->n_args; a++)
      k2s_sb_printf(&sb, "%s%u", a ? ":" : "", p->arg_sizes[a]);
    k2s_sb_puts(&sb, "\n");
  }
  for (uint32_t q = 0; q < r->n_samplers; q++)
    k2s_sb_printf(&sb, "sampler,%u,samplerExpr,\"%s\",descriptorSet,%u,binding,%u\n",
                  r->samplers[q].mask, sampler_expr(m, r->samplers[q].mask), r->samplers[q].set,
                  r->samplers[q].binding);
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    k2s_refl_kernel *k = &r->kernels[i];
    k2s_sb_printf(&sb, "kernel_decl,%s\n", k->name);
    for (uint32_t a = 0; a < k->n_args; a++) {
      k2s_refl_arg *g = &k->args[a];
      k2s_sb_printf(&sb, "kernel,%s,arg,%s,argOrdinal,%u,", k->name, g->name, g->ordinal);
      switch (g->kind) {
      case K2S_ARG_LOCAL:
        k2s_sb_printf(&sb, "argKind,local,arrayElemSize,%u,arrayNumElemSpecId,%u\n", g->elem_size,
                      g->spec_id);
        break;
      case K2S_ARG_POD_PUSH_CONSTANT:
      case K2S_ARG_POINTER_PUSH_CONSTANT:
        k2s_sb_printf(&sb, "offset,%u,argKind,%s,argSize,%u\n", g->offset, kind_name(g->kind),
                      g->size);
        break;
      case K2S_ARG_POD:
      case K2S_ARG_POD_UBO:
      case K2S_ARG_POINTER_UBO:
        k2s_sb_printf(&sb, "descriptorSet,%u,binding,%u,offset,%u,argKind,%s,argSize,%u\n", g->set,
                      g->binding, g->offset, kind_name(g->kind), g->size);
        break;
      default:
        k2s_sb_printf(&sb, "descriptorSet,%u,binding,%u,offset,0,argKind,%s", g->set, g->binding,
                      arg_kind_name(g));
        /* k2s's addition (clspv's map has no formats): --image-format's ORDER:TYPE. */
        if (g->image_format)
          k2s_sb_printf(&sb, ",imageFormat,%s", g->image_format);
        k2s_sb_puts(&sb, "\n");
        break;
      }
    }
    for (uint32_t q = 0; q < k->n_image_info; q++)
      k2s_sb_printf(&sb, "image_info,kernel,%s,argOrdinal,%u,%s,offset,%u,size,4\n", k->name,
                    k->image_info[q].ordinal, info_name(k->image_info[q].what),
                    k->image_info[q].offset);
  }
  for (int p = 0; p < K2S_PC_COUNT; p++)
    for (uint32_t i = 0; i < r->n_kernels; i++)
      if (r->kernels[i].pc_offset[p] != UINT32_MAX) {
        k2s_sb_printf(&sb, "pushconstant,name,%s,offset,%u,size,12\n", pc_name[p],
                      r->kernels[i].pc_offset[p]);
        break;
      }
  return sb.data;
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
  m->reflection_json = emit_json(m, r);
  m->descriptor_map = emit_csv(m, r);
  return true;
}
