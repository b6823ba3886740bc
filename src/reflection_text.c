/*
 * The reflection's text forms: --reflect JSON and the --descriptormap CSV (clspv's
 * format), made from the facts the passes recorded (k2s_refl) and those the reflection
 * pass (passes/emit_reflection.c) read from the module for them. Made on demand: by
 * k2s_result_reflection_json / k2s_result_descriptor_map, after the translation, so a
 * run that writes no file formats nothing (the text was 5% of a small translation).
 */
#include <stdio.h>
#include <string.h>

#include "k2s_internal.h"

static const char *const pc_name[K2S_PC_COUNT] = {"global_offset",       "global_size",
                                            "enqueued_local_size", "num_workgroups",
                                            "region_offset",       "region_group_offset"};

const char *k2s_refl_push_constant_name(int p)
{
  return pc_name[p];
}

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

/* clspv's descriptor-map spelling of a literal sampler's bits. */
static const char *sampler_expr(k2s_arena *arena, uint32_t mask)
{
  static const char *addr[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP",
                               "CLK_ADDRESS_REPEAT", "CLK_ADDRESS_MIRRORED_REPEAT"};
  uint32_t a = (mask >> 1) & 7;
  return k2s_sprintf(arena, "%s|%s|%s", a < 5 ? addr[a] : "?",
                     mask & 0x20 ? "CLK_FILTER_LINEAR" : "CLK_FILTER_NEAREST",
                     mask & 1 ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE");
}

/* A module-scope buffer's initial bytes as hex (the Data string of
 * ProgramScopeVariablesStorageBuffer and ConstantDataStorageBuffer, as clspv
 * writes it: two lower-case digits per byte, lowest address first). */
char *k2s_refl_hex_bytes(k2s_arena *a, const uint8_t *data, size_t size)
{
  static const char digits[] = "0123456789abcdef";
  char *hex = k2s_alloc_uninit(a, size * 2 + 1);
  for (size_t k = 0; k < size; k++) {
    hex[2 * k] = digits[data[k] >> 4];
    hex[2 * k + 1] = digits[data[k] & 15];
  }
  hex[2 * size] = 0;
  return hex;
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

/* What the module needs of the device's subgroup support (JSON "subgroups", read by
 * the reflection pass): the VkSubgroupFeatureFlagBits its GroupNonUniform* instructions
 * and subgroup builtins use, whether any works on a non-32-bit type
 * (shaderSubgroupExtendedTypes), and whether the OpenCL program's own sub-group
 * functions need full sub-groups. Empty when none. */
static void json_subgroups(const k2s_refl_facts *r, k2s_strbuf *sb)
{
  static const char *const names[K2S_SUBGROUP_OP_COUNT] = {"basic", "vote", "arithmetic",
                                                          "ballot", "shuffle"};
  if (!r->subgroup_any)
    return;
  k2s_sb_puts(sb, ",\n  \"subgroups\": {\"operations\": [");
  bool first = true;
  for (uint32_t k = 0; k < K2S_SUBGROUP_OP_COUNT; k++)
    if (r->subgroup_ops & (1u << k)) {
      k2s_sb_printf(sb, "%s\"%s\"", first ? "" : ", ", names[k]);
      first = false;
    }
  k2s_sb_printf(sb, "], \"extended_types\": %s, \"full_subgroups\": %s}",
                r->subgroup_extended ? "true" : "false", r->uses_sub_groups ? "true" : "false");
}

/* The Workgroup memory kernel k's code uses (JSON "workgroup_memory", summed by the
 * reflection pass): left out when both sizes are 0. */
static void json_workgroup_memory(const k2s_refl_kernel *k, k2s_strbuf *sb)
{
  if (!k->wg_bytes && !k->wg_bytes_per_item)
    return;
  k2s_sb_printf(sb,
                ", \"workgroup_memory\": {\"bytes\": %llu, \"bytes_per_work_item\": %llu, "
                "\"scratch_bytes\": %llu, \"scratch_bytes_per_work_item\": %llu}",
                (unsigned long long)k->wg_bytes, (unsigned long long)k->wg_bytes_per_item,
                (unsigned long long)k->wg_scratch, (unsigned long long)k->wg_scratch_per_item);
}

char *k2s_reflection_json(k2s_module *m)
{
  const k2s_refl_facts *r = k2s_refl(m);
  k2s_strbuf sb = {.arena = &m->arena};
  k2s_sb_puts(&sb, "{\n  \"kernels\": [");
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    const k2s_refl_kernel *k = &r->kernels[i];
    k2s_sb_printf(&sb, "%s\n    {\"name\": ", i ? "," : "");
    json_string(&sb, k->name);
    k2s_sb_puts(&sb, ", \"args\": [");
    for (uint32_t a = 0; a < k->n_args; a++) {
      const k2s_refl_arg *g = &k->args[a];
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
    k2s_sb_printf(&sb, ", \"pointers\": \"%s\"", k->physical ? "physical" : "logical");
    json_workgroup_memory(k, &sb);
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
                    sampler_expr(&m->arena, r->samplers[q].mask));
    k2s_sb_puts(&sb, "]");
  }
  if (r->has_constant_data)
    k2s_sb_printf(&sb,
                  ",\n  \"constant_data\": {\"set\": %u, \"binding\": %u, \"size\": %u, "
                  "\"data\": \"%s\"}",
                  r->cd_set, r->cd_binding, r->cd_size, k2s_refl_hex_bytes(&m->arena, r->cd_data, r->cd_size));
  if (r->has_psv)
    k2s_sb_printf(&sb,
                  ",\n  \"program_scope_variables\": {\"set\": %u, \"binding\": %u, "
                  "\"size\": %u, \"data\": \"%s\"}",
                  r->psv_set, r->psv_binding, r->psv_size, k2s_refl_hex_bytes(&m->arena, r->psv_data, r->psv_size));
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
  json_subgroups(r, &sb);
  uint32_t features = r->atomic_features;
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

char *k2s_reflection_csv(k2s_module *m)
{
  const k2s_refl_facts *r = k2s_refl(m);
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
                  r->cd_binding, k2s_refl_hex_bytes(&m->arena, r->cd_data, r->cd_size));
  /* clspv's form for module-scope data ("constant,...,kind,buffer,hexbytes,..."),
   * named for the program-scope buffer (clspv-reflection prints no line for it). */
  if (r->has_psv)
    k2s_sb_printf(&sb, "program_scope,descriptorSet,%u,binding,%u,kind,buffer,hexbytes,%s\n",
                  r->psv_set, r->psv_binding, k2s_refl_hex_bytes(&m->arena, r->psv_data, r->psv_size));
  /* k2s's own lines for printf (clspv's descriptor map predates its printf): the
   * buffer, then each format as hex bytes (formats hold commas and newlines) with the
   * record bytes of each argument. */
  if (r->has_printf)
    k2s_sb_printf(&sb, "printf_buffer,descriptorSet,%u,binding,%u,size,%u\n", r->printf_set,
                  r->printf_binding, r->printf_size);
  for (uint32_t q = 0; q < r->n_printfs; q++) {
    const struct k2s_refl_printf *p = &r->printfs[q];
    k2s_sb_printf(&sb, "printf,id,%u,hexformat,%s,argSizes,", p->id,
                  k2s_refl_hex_bytes(&m->arena, (const uint8_t *)p->format, strlen(p->format)));
    for (uint32_t a = 0; a < p->n_args; a++)
      k2s_sb_printf(&sb, "%s%u", a ? ":" : "", p->arg_sizes[a]);
    k2s_sb_puts(&sb, "\n");
  }
  for (uint32_t q = 0; q < r->n_samplers; q++)
    k2s_sb_printf(&sb, "sampler,%u,samplerExpr,\"%s\",descriptorSet,%u,binding,%u\n",
                  r->samplers[q].mask, sampler_expr(&m->arena, r->samplers[q].mask), r->samplers[q].set,
                  r->samplers[q].binding);
  for (uint32_t i = 0; i < r->n_kernels; i++) {
    const k2s_refl_kernel *k = &r->kernels[i];
    k2s_sb_printf(&sb, "kernel_decl,%s\n", k->name);
    for (uint32_t a = 0; a < k->n_args; a++) {
      const k2s_refl_arg *g = &k->args[a];
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
