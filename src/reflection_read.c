/* k2s_reflection_read(): the public reflection model, read from a module's embedded
 * NonSemantic.ClspvReflection instructions through the library's own parser (one
 * SPIR-V reader; it holds each instruction to the grammar's operand count, and
 * takes instructions of a newer revision as ids). Every operand is checked against
 * what clspv's reflection specification says it is (an OpString, a 32-bit OpConstant, a Kernel or
 * ArgumentInfo result); a mismatch is an error naming the instruction and its word
 * offset. The result owns its memory in one arena (include/k2s/k2s.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "k2s_internal.h"

typedef struct owner {
  k2s_reflection pub; /* first: the public pointer is the owner's */
  k2s_arena arena;
} owner;

/* Growable arrays of the public structs, kept here until the end. */
typedef struct kernel_build {
  k2s_reflection_kernel k;
  uint32_t decl; /* result id of its Kernel instruction */
  k2s_reflection_arg *args;
  size_t cap_args;
  k2s_reflection_image_info *images;
  size_t cap_images;
} kernel_build;

typedef struct reader {
  k2s_module *m;
  k2s_arena *arena;
  k2s_reflection *r;
  kernel_build *kernels;
  size_t n_kernels, cap_kernels;
  k2s_reflection_data *data;
  size_t cap_data;
  k2s_reflection_relocation *relocs;
  size_t cap_relocs;
  k2s_reflection_sampler *samplers;
  size_t cap_samplers;
  k2s_reflection_printf *printfs;
  size_t cap_printfs;
  const k2s_instr *at; /* the instruction being read, for errors */
  char *error;
} reader;

/* The grammar's entry for a reflection instruction (generated tables), or NULL. */
static const k2s_extinst_info *grammar_of(const k2s_instr *i)
{
  if (i->n_ops < 2)
    return NULL;
  return k2s_extinst_set_inst(&k2s_extinst_sets[K2S_EXT_CLSPV_REFLECTION], i->ops[1]);
}

static bool fail(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reader *rd, const char *fmt, ...)
{
  if (rd->error)
    return false;
  va_list ap;
  va_start(ap, fmt);
  char *msg = k2s_vsprintf(rd->arena, fmt, ap);
  va_end(ap);
  const k2s_extinst_info *info = rd->at ? grammar_of(rd->at) : NULL;
  const char *name = info ? k2s_extinst_info_name(info) : NULL;
  if (rd->at)
    rd->error = k2s_sprintf(rd->arena, "reflection instruction %s (%%%u) at word %u: %s",
                            name ? name : "?", rd->at->result, rd->at->offset, msg);
  else
    rd->error = msg;
  return false;
}

/* Grow *arr (n used, *cap allocated) to hold one more. */
static void *grow(reader *rd, void *arr, size_t n, size_t *cap, size_t elem)
{
  if (n < *cap)
    return arr;
  size_t c = *cap ? *cap * 2 : 8;
  arr = k2s_realloc_array(rd->arena, arr, n, c, elem);
  *cap = c;
  return arr;
}

/* Operand i of a reflection OpExtInst (after the set and instruction words). */
static bool has_operand(const reader *rd, uint32_t i)
{
  return 2 + i < rd->at->n_ops;
}

static bool operand_u32(reader *rd, uint32_t i, const char *what, uint32_t *out)
{
  if (!has_operand(rd, i))
    return fail(rd, "operand %u (%s) is missing", i, what);
  const k2s_instr *c = k2s_def(rd->m, rd->at->ops[2 + i]);
  const k2s_instr *t = c ? k2s_def(rd->m, c->type) : NULL;
  if (!c || c->opcode != SpvOpConstant || c->n_ops != 1 || !t || t->opcode != SpvOpTypeInt ||
      t->ops[0] != 32)
    return fail(rd, "%s (%%%u) is not a 32-bit integer OpConstant", what, rd->at->ops[2 + i]);
  *out = c->ops[0];
  return true;
}

static const char *operand_string(reader *rd, uint32_t i, const char *what)
{
  if (!has_operand(rd, i)) {
    fail(rd, "operand %u (%s) is missing", i, what);
    return NULL;
  }
  const k2s_instr *s = k2s_def(rd->m, rd->at->ops[2 + i]);
  const char *t = s && s->opcode == SpvOpString ? k2s_string_operand(s, 0) : NULL;
  if (!t)
    fail(rd, "%s (%%%u) is not an OpString", what, rd->at->ops[2 + i]);
  return t ? k2s_strdup(rd->arena, t) : NULL;
}

static bool operand_u32s(reader *rd, uint32_t first, uint32_t n, const char *const *what,
                         uint32_t *out)
{
  for (uint32_t k = 0; k < n; k++)
    if (!operand_u32(rd, first + k, what[k], &out[k]))
      return false;
  return true;
}

static kernel_build *kernel_of(reader *rd, uint32_t i)
{
  if (!has_operand(rd, i)) {
    fail(rd, "the kernel operand is missing");
    return NULL;
  }
  uint32_t decl = rd->at->ops[2 + i];
  for (size_t k = 0; k < rd->n_kernels; k++)
    if (rd->kernels[k].decl == decl)
      return &rd->kernels[k];
  fail(rd, "%%%u is not a Kernel reflection instruction", decl);
  return NULL;
}

/* ---- instructions -------------------------------------------------------------------- */

static bool read_kernel(reader *rd)
{
  rd->kernels = grow(rd, rd->kernels, rd->n_kernels, &rd->cap_kernels, sizeof(*rd->kernels));
  kernel_build *kb = &rd->kernels[rd->n_kernels];
  memset(kb, 0, sizeof(*kb));
  kb->decl = rd->at->result;
  k2s_reflection_kernel *k = &kb->k;
  if (!has_operand(rd, 0))
    return fail(rd, "the Kernel operand is missing");
  k->function = rd->at->ops[2];
  const k2s_instr *f = k2s_def(rd->m, k->function);
  if (!f || f->opcode != SpvOpFunction)
    return fail(rd, "Kernel (%%%u) is not an OpFunction", k->function);
  if (!(k->name = operand_string(rd, 1, "Name")))
    return false;
  if (has_operand(rd, 2)) {
    k->has_num_arguments = true;
    if (!operand_u32(rd, 2, "NumArguments", &k->num_arguments))
      return false;
  }
  if (has_operand(rd, 3) && !operand_u32(rd, 3, "Flags", &k->flags))
    return false;
  if (has_operand(rd, 4) && !(k->attributes = operand_string(rd, 4, "Attributes")))
    return false;
  rd->n_kernels++;
  return true;
}

/* The ArgumentInfo named by operand i, into a. */
static bool read_arg_info(reader *rd, uint32_t i, k2s_reflection_arg *a)
{
  if (!has_operand(rd, i))
    return true;
  const k2s_instr *info = k2s_def(rd->m, rd->at->ops[2 + i]);
  if (!info || info->opcode != SpvOpExtInst || info->n_ops < 2 || info->ops[0] != rd->at->ops[0] ||
      info->ops[1] != K2S_CLSPV_REFLECTION_ArgumentInfo)
    return fail(rd, "ArgInfo (%%%u) is not an ArgumentInfo instruction", rd->at->ops[2 + i]);
  const k2s_instr *arg = rd->at;
  rd->at = info;
  bool ok = (a->name = operand_string(rd, 0, "Name")) != NULL;
  if (ok && has_operand(rd, 1)) {
    a->has_info = true;
    static const char *const what[] = {"Address Qualifier", "Access Qualifier", "Type Qualifier"};
    uint32_t q[3] = {0, 0, 0};
    ok = (a->type_name = operand_string(rd, 1, "Type Name")) && operand_u32s(rd, 2, 3, what, q);
    a->address_qualifier = q[0], a->access_qualifier = q[1], a->type_qualifier = q[2];
  }
  rd->at = arg;
  return ok;
}

static bool add_arg(reader *rd, k2s_reflection_arg *a, uint32_t info_operand)
{
  kernel_build *kb = kernel_of(rd, 0);
  if (!kb || !read_arg_info(rd, info_operand, a))
    return false;
  for (size_t k = 0; k < kb->k.n_args; k++)
    if (kb->args[k].ordinal == a->ordinal)
      return fail(rd, "kernel '%s' describes argument %u twice", kb->k.name, a->ordinal);
  if (kb->k.has_num_arguments && a->ordinal >= kb->k.num_arguments)
    return fail(rd, "argument %u of kernel '%s', which has %u", a->ordinal, kb->k.name,
                kb->k.num_arguments);
  kb->args = grow(rd, kb->args, kb->k.n_args, &kb->cap_args, sizeof(*kb->args));
  kb->args[kb->k.n_args++] = *a;
  return true;
}

/* Decl, Ordinal, DescriptorSet, Binding [, ArgInfo] */
static bool read_descriptor_arg(reader *rd, k2s_reflection_arg_kind kind)
{
  static const char *const what[] = {"Ordinal", "DescriptorSet", "Binding"};
  uint32_t v[3];
  k2s_reflection_arg a = {.kind = kind};
  if (!operand_u32s(rd, 1, 3, what, v))
    return false;
  a.ordinal = v[0], a.set = v[1], a.binding = v[2];
  return add_arg(rd, &a, 4);
}

/* Decl, Ordinal, DescriptorSet, Binding, Offset, Size [, ArgInfo] */
static bool read_pod_descriptor_arg(reader *rd, k2s_reflection_arg_kind kind)
{
  static const char *const what[] = {"Ordinal", "DescriptorSet", "Binding", "Offset", "Size"};
  uint32_t v[5];
  k2s_reflection_arg a = {.kind = kind};
  if (!operand_u32s(rd, 1, 5, what, v))
    return false;
  a.ordinal = v[0], a.set = v[1], a.binding = v[2], a.offset = v[3], a.size = v[4];
  return add_arg(rd, &a, 6);
}

/* Decl, Ordinal, Offset, Size [, ArgInfo] */
static bool read_push_arg(reader *rd, k2s_reflection_arg_kind kind)
{
  static const char *const what[] = {"Ordinal", "Offset", "Size"};
  uint32_t v[3];
  k2s_reflection_arg a = {.kind = kind};
  if (!operand_u32s(rd, 1, 3, what, v))
    return false;
  a.ordinal = v[0], a.offset = v[1], a.size = v[2];
  return add_arg(rd, &a, 4);
}

/* Decl, Ordinal, SpecId, ElemSize [, ArgInfo] */
static bool read_workgroup_arg(reader *rd)
{
  static const char *const what[] = {"Ordinal", "SpecId", "ElemSize"};
  uint32_t v[3];
  k2s_reflection_arg a = {.kind = K2S_ARG_KIND_WORKGROUP};
  if (!operand_u32s(rd, 1, 3, what, v))
    return false;
  a.ordinal = v[0], a.spec_id = v[1], a.elem_size = v[2];
  if (!a.elem_size)
    return fail(rd, "local argument %u has element size 0", a.ordinal);
  return add_arg(rd, &a, 4);
}

static bool read_push_constant(reader *rd, enum k2s_push_constant_kind kind)
{
  static const char *const what[] = {"Offset", "Size"};
  uint32_t v[2];
  if (!operand_u32s(rd, 0, 2, what, v))
    return false;
  rd->r->push_constants[kind] = (k2s_reflection_range){true, v[0], v[1]};
  return true;
}

static bool read_spec(reader *rd, uint32_t n, bool *has, uint32_t *ids)
{
  static const char *const what[] = {"X", "Y", "Z"};
  static const char *const one[] = {"SpecId"};
  *has = true;
  return operand_u32s(rd, 0, n, n == 3 ? what : one, ids);
}

static bool read_reqd_size(reader *rd)
{
  static const char *const what[] = {"X", "Y", "Z"};
  kernel_build *kb = kernel_of(rd, 0);
  if (!kb || !operand_u32s(rd, 1, 3, what, kb->k.required_work_group_size))
    return false;
  kb->k.has_required_work_group_size = true;
  return true;
}

static bool decode_hex(reader *rd, const char *hex, k2s_reflection_data *d)
{
  size_t len = strlen(hex);
  if (len % 2)
    return fail(rd, "Data is not an even number of hex digits");
  uint8_t *bytes = k2s_alloc(rd->arena, len / 2 + 1);
  if (k2s_hex_decode(hex, len / 2, bytes) < len / 2)
    return fail(rd, "Data holds a character that is not a hex digit");
  d->bytes = bytes;
  d->n_bytes = len / 2;
  return true;
}

static bool add_data(reader *rd, const k2s_reflection_data *d)
{
  rd->data = grow(rd, rd->data, rd->r->n_data, &rd->cap_data, sizeof(*rd->data));
  rd->data[rd->r->n_data++] = *d;
  return true;
}

/* DescriptorSet, Binding, Data  or  Offset, Size, Data */
static bool read_data(reader *rd, k2s_data_kind kind, bool pointer)
{
  static const char *const buffer[] = {"DescriptorSet", "Binding"};
  static const char *const push[] = {"Offset", "Size"};
  uint32_t v[2];
  k2s_reflection_data d = {.kind = kind};
  const char *hex =
      operand_u32s(rd, 0, 2, pointer ? push : buffer, v) ? operand_string(rd, 2, "Data") : NULL;
  if (!hex || !decode_hex(rd, hex, &d))
    return false;
  if (pointer)
    d.offset = v[0], d.size = v[1];
  else
    d.set = v[0], d.binding = v[1];
  return add_data(rd, &d);
}

/* DescriptorSet, Binding, BufferSize  or  Offset, Size, BufferSize */
static bool read_printf_buffer(reader *rd, bool pointer)
{
  static const char *const buffer[] = {"DescriptorSet", "Binding", "BufferSize"};
  static const char *const push[] = {"Offset", "Size", "BufferSize"};
  uint32_t v[3];
  if (!operand_u32s(rd, 0, 3, pointer ? push : buffer, v))
    return false;
  k2s_reflection_data d = {.kind = pointer ? K2S_DATA_PRINTF_POINTER_PUSH
                                           : K2S_DATA_PRINTF_STORAGE_BUFFER,
                           .buffer_size = v[2]};
  if (pointer)
    d.offset = v[0], d.size = v[1];
  else
    d.set = v[0], d.binding = v[1];
  return add_data(rd, &d);
}

/* PrintfID, FormatString, ArgumentSizes... */
static bool read_printf_info(reader *rd)
{
  k2s_reflection_printf p = {0};
  if (!operand_u32(rd, 0, "PrintfID", &p.id) || !(p.format = operand_string(rd, 1, "FormatString")))
    return false;
  size_t n = rd->at->n_ops > 4 ? rd->at->n_ops - 4 : 0;
  uint32_t *sizes = k2s_alloc(rd->arena, (n + 1) * sizeof(uint32_t));
  for (size_t k = 0; k < n; k++)
    if (!operand_u32(rd, (uint32_t)(2 + k), "ArgumentSizes", &sizes[k]))
      return false;
  p.arg_sizes = sizes;
  p.n_arg_sizes = n;
  rd->printfs = grow(rd, rd->printfs, rd->r->n_printfs, &rd->cap_printfs, sizeof(*rd->printfs));
  rd->printfs[rd->r->n_printfs++] = p;
  return true;
}

static bool read_reloc(reader *rd)
{
  static const char *const what[] = {"ObjectOffset", "PointerOffset", "PointerSize"};
  uint32_t v[3];
  if (!operand_u32s(rd, 0, 3, what, v))
    return false;
  rd->relocs = grow(rd, rd->relocs, rd->r->n_relocations, &rd->cap_relocs, sizeof(*rd->relocs));
  rd->relocs[rd->r->n_relocations++] = (k2s_reflection_relocation){v[0], v[1], v[2]};
  return true;
}

static bool read_literal_sampler(reader *rd)
{
  static const char *const what[] = {"DescriptorSet", "Binding", "Mask"};
  uint32_t v[3];
  if (!operand_u32s(rd, 0, 3, what, v))
    return false;
  rd->samplers =
      grow(rd, rd->samplers, rd->r->n_literal_samplers, &rd->cap_samplers, sizeof(*rd->samplers));
  rd->samplers[rd->r->n_literal_samplers++] = (k2s_reflection_sampler){v[0], v[1], v[2]};
  return true;
}

/* Kernel, Ordinal, Offset, Size */
static bool read_image_info(reader *rd, k2s_reflection_image_info_kind kind)
{
  static const char *const what[] = {"Ordinal", "Offset", "Size"};
  kernel_build *kb = kernel_of(rd, 0);
  uint32_t v[3];
  if (!kb || !operand_u32s(rd, 1, 3, what, v))
    return false;
  if (v[2] != 4)
    return fail(rd, "image channel information of %u bytes (the format says 4)", v[2]);
  kb->images = grow(rd, kb->images, kb->k.n_image_info, &kb->cap_images, sizeof(*kb->images));
  kb->images[kb->k.n_image_info++] = (k2s_reflection_image_info){v[0], kind, v[1]};
  return true;
}

static bool mark_unsupported(reader *rd, const char *what)
{
  kernel_build *kb = kernel_of(rd, 0);
  if (kb && !kb->k.unsupported)
    kb->k.unsupported = what;
  return kb != NULL;
}

static bool read_instruction(reader *rd)
{
  k2s_reflection *r = rd->r;
  switch (rd->at->ops[1]) {
  case K2S_CLSPV_REFLECTION_Kernel:
  case K2S_CLSPV_REFLECTION_ArgumentInfo: return true; /* the first walk's, or by reference */
  case K2S_CLSPV_REFLECTION_ArgumentStorageBuffer:
    return read_descriptor_arg(rd, K2S_ARG_KIND_STORAGE_BUFFER);
  case K2S_CLSPV_REFLECTION_ArgumentUniform:
    return read_descriptor_arg(rd, K2S_ARG_KIND_UNIFORM_BUFFER);
  case K2S_CLSPV_REFLECTION_ArgumentSampledImage:
    return read_descriptor_arg(rd, K2S_ARG_KIND_SAMPLED_IMAGE);
  case K2S_CLSPV_REFLECTION_ArgumentStorageImage:
    return read_descriptor_arg(rd, K2S_ARG_KIND_STORAGE_IMAGE);
  case K2S_CLSPV_REFLECTION_ArgumentSampler: return read_descriptor_arg(rd, K2S_ARG_KIND_SAMPLER);
  case K2S_CLSPV_REFLECTION_ArgumentStorageTexelBuffer:
    return read_descriptor_arg(rd, K2S_ARG_KIND_STORAGE_TEXEL_BUFFER);
  case K2S_CLSPV_REFLECTION_ArgumentUniformTexelBuffer:
    return read_descriptor_arg(rd, K2S_ARG_KIND_UNIFORM_TEXEL_BUFFER);
  case K2S_CLSPV_REFLECTION_ArgumentPodStorageBuffer:
    return read_pod_descriptor_arg(rd, K2S_ARG_KIND_POD_STORAGE_BUFFER);
  case K2S_CLSPV_REFLECTION_ArgumentPodUniform:
    return read_pod_descriptor_arg(rd, K2S_ARG_KIND_POD_UNIFORM);
  case K2S_CLSPV_REFLECTION_ArgumentPointerUniform:
    return read_pod_descriptor_arg(rd, K2S_ARG_KIND_POINTER_UNIFORM);
  case K2S_CLSPV_REFLECTION_ArgumentPodPushConstant:
    return read_push_arg(rd, K2S_ARG_KIND_POD_PUSH_CONSTANT);
  case K2S_CLSPV_REFLECTION_ArgumentPointerPushConstant:
    return read_push_arg(rd, K2S_ARG_KIND_POINTER_PUSH_CONSTANT);
  case K2S_CLSPV_REFLECTION_ArgumentWorkgroup: return read_workgroup_arg(rd);
  case K2S_CLSPV_REFLECTION_SpecConstantWorkgroupSize:
    return read_spec(rd, 3, &r->has_workgroup_size_spec, r->workgroup_size_spec);
  case K2S_CLSPV_REFLECTION_SpecConstantGlobalOffset:
    return read_spec(rd, 3, &r->has_global_offset_spec, r->global_offset_spec);
  case K2S_CLSPV_REFLECTION_SpecConstantWorkDim:
    return read_spec(rd, 1, &r->has_work_dim_spec, &r->work_dim_spec);
  case K2S_CLSPV_REFLECTION_SpecConstantSubgroupMaxSize:
    return read_spec(rd, 1, &r->has_subgroup_max_size_spec, &r->subgroup_max_size_spec);
  case K2S_CLSPV_REFLECTION_PushConstantGlobalOffset:
    return read_push_constant(rd, K2S_PUSH_GLOBAL_OFFSET);
  case K2S_CLSPV_REFLECTION_PushConstantEnqueuedLocalSize:
    return read_push_constant(rd, K2S_PUSH_ENQUEUED_LOCAL_SIZE);
  case K2S_CLSPV_REFLECTION_PushConstantGlobalSize:
    return read_push_constant(rd, K2S_PUSH_GLOBAL_SIZE);
  case K2S_CLSPV_REFLECTION_PushConstantRegionOffset:
    return read_push_constant(rd, K2S_PUSH_REGION_OFFSET);
  case K2S_CLSPV_REFLECTION_PushConstantNumWorkgroups:
    return read_push_constant(rd, K2S_PUSH_NUM_WORKGROUPS);
  case K2S_CLSPV_REFLECTION_PushConstantRegionGroupOffset:
    return read_push_constant(rd, K2S_PUSH_REGION_GROUP_OFFSET);
  case K2S_CLSPV_REFLECTION_PropertyRequiredWorkgroupSize: return read_reqd_size(rd);
  case K2S_CLSPV_REFLECTION_ConstantDataStorageBuffer:
    return read_data(rd, K2S_DATA_CONSTANT_STORAGE_BUFFER, false);
  case K2S_CLSPV_REFLECTION_ConstantDataUniform:
    return read_data(rd, K2S_DATA_CONSTANT_UNIFORM, false);
  case K2S_CLSPV_REFLECTION_ProgramScopeVariablesStorageBuffer:
    return read_data(rd, K2S_DATA_PROGRAM_SCOPE_STORAGE_BUFFER, false);
  case K2S_CLSPV_REFLECTION_ConstantDataPointerPushConstant:
    return read_data(rd, K2S_DATA_CONSTANT_POINTER_PUSH, true);
  case K2S_CLSPV_REFLECTION_ProgramScopeVariablePointerPushConstant:
    return read_data(rd, K2S_DATA_PROGRAM_SCOPE_POINTER_PUSH, true);
  case K2S_CLSPV_REFLECTION_ProgramScopeVariablePointerRelocation: return read_reloc(rd);
  case K2S_CLSPV_REFLECTION_PrintfBufferStorageBuffer: return read_printf_buffer(rd, false);
  case K2S_CLSPV_REFLECTION_PrintfBufferPointerPushConstant: return read_printf_buffer(rd, true);
  case K2S_CLSPV_REFLECTION_PrintfInfo: return read_printf_info(rd);
  case K2S_CLSPV_REFLECTION_LiteralSampler: return read_literal_sampler(rd);
  case K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelOrderPushConstant:
    return read_image_info(rd, K2S_IMAGE_INFO_CHANNEL_ORDER);
  case K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelDataTypePushConstant:
    return read_image_info(rd, K2S_IMAGE_INFO_CHANNEL_DATA_TYPE);
  case K2S_CLSPV_REFLECTION_NormalizedSamplerMaskPushConstant:
    return read_image_info(rd, K2S_IMAGE_INFO_SAMPLER_MASK);
  case K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelOrderUniform:
  case K2S_CLSPV_REFLECTION_ImageArgumentInfoChannelDataTypeUniform:
    return mark_unsupported(rd, "image channel information in a uniform buffer");
  default:
    /* A newer grammar revision: every instruction the model has a field for is above. */
    r->n_unknown++;
    return true;
  }
}

static bool is_reflection(const k2s_module *m, const k2s_instr *i)
{
  return i->opcode == SpvOpExtInst && i->n_ops >= 2 && i->ops[0] < m->id_cap &&
         m->ext_set[i->ops[0]] == K2S_EXT_CLSPV_REFLECTION;
}

/* Kernels first (others name them, in any order), then everything else. */
static bool read_all(reader *rd)
{
  k2s_module *m = rd->m;
  const k2s_list *lists[2] = {&m->sec[K2S_SEC_GLOBAL], &m->tail};
  for (int walk = 0; walk < 2; walk++)
    for (int l = 0; l < 2; l++)
      k2s_foreach_instr(i, lists[l]) {
        if (!is_reflection(m, i))
          continue;
        rd->at = i;
        bool kernel = i->ops[1] == K2S_CLSPV_REFLECTION_Kernel;
        if (walk == 0 && kernel && !read_kernel(rd))
          return false;
        if (walk == 1 && !kernel && !read_instruction(rd))
          return false;
      }
  rd->at = NULL;
  return true;
}

static void publish(reader *rd)
{
  k2s_reflection *r = rd->r;
  k2s_reflection_kernel *ks = k2s_alloc(rd->arena, (rd->n_kernels + 1) * sizeof(*ks));
  for (size_t k = 0; k < rd->n_kernels; k++) {
    ks[k] = rd->kernels[k].k;
    ks[k].args = rd->kernels[k].args;
    ks[k].image_info = rd->kernels[k].images;
  }
  r->kernels = ks;
  r->n_kernels = rd->n_kernels;
  r->data = rd->data;
  r->relocations = rd->relocs;
  r->literal_samplers = rd->samplers;
  r->printfs = rd->printfs;
}

k2s_status k2s_reflection_read(const uint32_t *words, size_t n_words, k2s_reflection **out)
{
  owner *o = calloc(1, sizeof(*o));
  *out = o ? &o->pub : NULL;
  if (!o)
    return K2S_ERROR_INPUT;
  k2s_parse_error perr;
  k2s_module *m = words ? k2s_parse(words, n_words, &perr) : NULL;
  if (!m) {
    o->pub.error =
        words ? k2s_sprintf(&o->arena, "%s (word %lld)", perr.message, (long long)perr.word_offset)
              : "no module";
    return K2S_ERROR_INPUT;
  }
  reader rd = {.m = m, .arena = &o->arena, .r = &o->pub};
  jmp_buf oom;
  o->arena.oom = &oom;
  volatile bool ok = false;
  if (setjmp(oom) == 0)
    ok = read_all(&rd);
  else
    rd.error = "out of memory while reading the reflection";
  o->arena.oom = NULL;
  k2s_module_free(m);
  if (!ok) {
    memset(&o->pub, 0, sizeof(o->pub));
    o->pub.error = rd.error;
    return K2S_ERROR_INPUT;
  }
  publish(&rd);
  return K2S_OK;
}

void k2s_reflection_free(k2s_reflection *r)
{
  if (!r)
    return;
  owner *o = (owner *)r;
  k2s_arena_free(&o->arena);
  free(o);
}

const k2s_reflection_arg *k2s_reflection_find_arg(const k2s_reflection_kernel *k, uint32_t ordinal)
{
  for (size_t i = 0; k && i < k->n_args; i++)
    if (k->args[i].ordinal == ordinal)
      return &k->args[i];
  return NULL;
}
