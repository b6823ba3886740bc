/*
 * finalize: make the module a Vulkan module for the target.
 *
 * Recomputes the capability and extension set from what the module uses (so
 * nothing Kernel-only survives by accident: a leftover Kernel construct
 * becomes a clear error naming it), sets the Logical/GLSL450 memory model and
 * the SPIR-V version of the target (1.3 for vulkan1.1, 1.5 for 1.2, 1.6 for
 * 1.3), strips Kernel-only decorations and rebuilds entry-point interfaces
 * (SPIR-V 1.4+ lists every global an entry point uses; llvm-spirv 15 leaves
 * some out). Runs last; --target-env steers it.
 *
 * Float controls: Vulkan lets a driver assume no NaN, infinity or signed zero
 * unless the shader asks otherwise (NVIDIA's does, and folds fmin, fract and
 * NaN tests on that assumption); OpenCL gives them their IEEE meaning. Each
 * entry point therefore gets SignedZeroInfNanPreserve for every float width the
 * module uses, unless -cl-fast-relaxed-math (which implies finite math and no
 * signed zeros) or --no-float-controls (a device without
 * VK_KHR_shader_float_controls). --denorm-preserve adds DenormPreserve (float
 * only when -cl-denorms-are-zero is absent): OpenCL requires double denormals,
 * and Vulkan drivers may flush them otherwise.
 */
#include <string.h>

#include "k2s_internal.h"

static uint32_t target_version(k2s_target_env e)
{
  switch (e) {
  case K2S_ENV_VULKAN_1_2: return 0x00010500;
  case K2S_ENV_VULKAN_1_3: return 0x00010600;
  default: return 0x00010300;
  }
}

static bool kernel_only_capability(uint32_t cap);
static const k2s_enumerant *enumerant(uint16_t kind, uint32_t value);

/* A decoration Vulkan cannot take: one only Kernel-only capabilities enable
 * (FuncParamAttr, Alignment, CPacked, LinkageAttributes, ...), one newer than
 * the target's SPIR-V (NoSignedWrap below 1.4), or one of the two Vulkan's
 * environment rules forbid on compute (Volatile as a decoration, and
 * FPRoundingMode, which Vulkan allows only on 16-bit float stores). */
static bool kernel_only_decoration(uint32_t d, uint32_t version)
{
  if (d == SpvDecorationVolatile || d == SpvDecorationFPRoundingMode)
    return true;
  const k2s_enumerant *e = enumerant(K2S_OK_DECORATION, d);
  if (!e)
    return false;
  if (e->version > version)
    return true;
  if (!e->n_caps)
    return false;
  for (uint32_t k = 0; k < e->n_caps; k++)
    if (!kernel_only_capability(k2s_enumerant_caps(e)[k]))
      return false;
  return true;
}

static bool strip_decorations(k2s_module *m, uint32_t version)
{
  bool changed = false;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_ANNOTATION]) {
    uint32_t d = UINT32_MAX;
    if ((i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId ||
         i->opcode == SpvOpDecorateString) &&
        i->n_ops >= 2)
      d = i->ops[1];
    else if ((i->opcode == SpvOpMemberDecorate || i->opcode == SpvOpMemberDecorateString) &&
             i->n_ops >= 3)
      d = i->ops[2];
    if (d != UINT32_MAX && kernel_only_decoration(d, version)) {
      k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
      changed = true;
    } else if (d == SpvDecorationUniformId) {
      /* A hint. Vulkan allows only Workgroup and Subgroup scopes, and
       * SPIRV-Tools 2023.1 crashes validating UniformId with either in a
       * Vulkan environment (it looks for the decoration's function): the
       * decoration goes. */
      k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
      changed = true;
    }
  }
  return changed;
}

/* ---- capabilities ---- */

typedef struct caps {
  k2s_module *m;
  uint8_t need[8192];
  const k2s_instr *why[8192]; /* first instruction needing it, for errors; set with need */
  /* The capabilities needed, in the order found (a module needs a few dozen at most;
   * walking all 8192 values twice was a tenth of finalize on a small module). */
  uint16_t list[8192];
  uint32_t n_list;
  /* Instructions with enum operands whose needs were found (seen_words). */
  const k2s_instr **seen;
  uint32_t seen_cap, n_seen;
} caps;

static void need(caps *c, uint32_t cap, const k2s_instr *why)
{
  if (cap < 8192 && !c->need[cap]) {
    c->need[cap] = 1;
    c->why[cap] = why;
    c->list[c->n_list++] = (uint16_t)cap;
  }
}

/* Where the grammar lists several capabilities, any one enables the
 * construct; Shader already implies many of them. */
static bool satisfied(caps *c, const uint16_t *list, uint32_t n)
{
  for (uint32_t k = 0; k < n; k++)
    if (list[k] < 8192 && c->need[list[k]])
      return true;
  return false;
}

/* Of the capabilities that each enable a construct, the first one Vulkan
 * allows (BuiltIn SubgroupId lists Kernel before GroupNonUniform). */
static uint32_t enabling_cap(const uint16_t *list, uint32_t n)
{
  for (uint32_t k = 0; k < n; k++)
    if (!kernel_only_capability(list[k]))
      return list[k];
  return list[0];
}

static bool operand_caps(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  caps *c = ud;
  if (op->cls != K2S_OPND_ENUM)
    return true;
  const k2s_enumerant *en;
  for (uint32_t at = 0; (en = k2s_next_named_enumerant(in, op, &at));)
    if (en->n_caps && !satisfied(c, k2s_enumerant_caps(en), en->n_caps) && op->kind != K2S_OK_CAPABILITY)
      need(c, enabling_cap(k2s_enumerant_caps(en), en->n_caps), in);
  return true;
}

/* Where the grammar lists Kernel beside a Shader-side capability (OpImageQuerySize
 * needs Kernel or ImageQuery), the Shader-side one. */
static uint32_t first_shader_capability(const uint16_t *list, uint32_t n)
{
  for (uint32_t k = 0; k < n; k++)
    if (!kernel_only_capability(list[k]))
      return list[k];
  return list[0];
}

/* What the grammar's Dim enumerants cannot say: storage images and texel buffers
 * (Sampled 2) of Dim 1D/Buffer need Image1D/ImageBuffer; reading or writing a format
 * Unknown storage image (images pass) needs the without-format capability of that
 * access only (many devices, lavapipe among them, lack the read one). */
static void image_caps(caps *c, const k2s_instr *i)
{
  k2s_module *m = c->m;
  if (i->opcode == SpvOpTypeImage && i->n_ops >= 7 && i->ops[5] == 2) {
    if (i->ops[1] == SpvDim1D)
      need(c, SpvCapabilityImage1D, i);
    else if (i->ops[1] == SpvDimBuffer)
      need(c, SpvCapabilityImageBuffer, i);
    return;
  }
  if ((i->opcode != SpvOpImageRead && i->opcode != SpvOpImageWrite) || !i->n_ops)
    return;
  k2s_instr *t = k2s_def(m, k2s_type_of(m, i->ops[0]));
  if (t && t->opcode == SpvOpTypeImage && t->n_ops >= 7 && t->ops[5] == 2 &&
      t->ops[6] == SpvImageFormatUnknown)
    need(c,
         i->opcode == SpvOpImageRead ? SpvCapabilityStorageImageReadWithoutFormat
                                     : SpvCapabilityStorageImageWriteWithoutFormat,
         i);
}

/* The grammar cannot say that an atomic's capability depends on its type:
 * 64-bit integer atomics need Int64Atomics, float add/min/max the
 * SPV_EXT_shader_atomic_float_add/_min_max capability of their width. */
static void atomic_caps(caps *c, const k2s_instr *i)
{
  uint32_t type = k2s_atomic_value_type(c->m, i);
  k2s_instr *t = type ? k2s_def(c->m, type) : NULL;
  if (!t || t->n_ops < 1)
    return;
  uint32_t w = t->ops[0];
  if (t->opcode == SpvOpTypeInt && w == 64)
    need(c, SpvCapabilityInt64Atomics, i);
  if (t->opcode != SpvOpTypeFloat)
    return;
  if (i->opcode == SpvOpAtomicFAddEXT)
    need(c,
         w == 64   ? SpvCapabilityAtomicFloat64AddEXT
         : w == 16 ? SpvCapabilityAtomicFloat16AddEXT
                   : SpvCapabilityAtomicFloat32AddEXT,
         i);
  else if (i->opcode == SpvOpAtomicFMinEXT || i->opcode == SpvOpAtomicFMaxEXT)
    need(c,
         w == 64   ? SpvCapabilityAtomicFloat64MinMaxEXT
         : w == 16 ? SpvCapabilityAtomicFloat16MinMaxEXT
                   : SpvCapabilityAtomicFloat32MinMaxEXT,
         i);
}

/* The words of i that its capabilities may depend on: all but the ids the grammar's
 * fixed layout places (an id elsewhere stays in: fewer matches, never a wrong one). */
static uint64_t id_mask(const k2s_instr *i)
{
  return i->opcode < K2S_OPCODE_LIMIT ? k2s_id_layouts[i->opcode].mask : 0;
}

static uint64_t words_hash(const k2s_instr *i, uint64_t ids)
{
  uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)i->opcode << 32 | i->n_ops);
  for (uint32_t k = 0; k < i->n_ops; k++)
    if (k >= 64 || !(ids >> k & 1))
      h = (h ^ i->ops[k]) * 0x100000001b3ull;
  return h ^ h >> 29;
}

static bool same_words(const k2s_instr *a, const k2s_instr *b, uint64_t ids)
{
  if (a->opcode != b->opcode || a->n_ops != b->n_ops)
    return false;
  for (uint32_t k = 0; k < a->n_ops; k++)
    if ((k >= 64 || !(ids >> k & 1)) && a->ops[k] != b->ops[k])
      return false;
  return true;
}

/* Whether no instruction before i had its opcode and the same words but ids (and
 * notes i as one). What the opcode's and its enum operands' capabilities need
 * depends on those alone, and a capability needed once stays needed: a second
 * such instruction adds nothing. Most instructions with enum operands repeat one
 * (decorations, memory operands, storage classes); decoding their operands was
 * most of finalize's capability scan (bench/RESULTS.md, session 11). */
static bool first_of_words(caps *c, const k2s_instr *i)
{
  if (2 * (c->n_seen + 1) > c->seen_cap) {
    uint32_t cap = c->seen_cap ? 2 * c->seen_cap : 256;
    const k2s_instr **slots = k2s_alloc(&c->m->arena, cap * sizeof(*slots));
    for (uint32_t k = 0; k < c->seen_cap; k++) {
      const k2s_instr *s = c->seen[k];
      if (!s)
        continue;
      uint32_t at = (uint32_t)words_hash(s, id_mask(s)) & (cap - 1);
      while (slots[at])
        at = (at + 1) & (cap - 1);
      slots[at] = s;
    }
    c->seen = slots;
    c->seen_cap = cap;
  }
  uint64_t ids = id_mask(i);
  uint32_t at = (uint32_t)words_hash(i, ids) & (c->seen_cap - 1);
  for (; c->seen[at]; at = (at + 1) & (c->seen_cap - 1))
    if (same_words(c->seen[at], i, ids))
      return false;
  c->seen[at] = i;
  c->n_seen++;
  return true;
}

static void instr_caps(caps *c, const k2s_instr *i)
{
  k2s_module *m = c->m;
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  if (i->opcode == SpvOpCapability || i->opcode == SpvOpExtension)
    return;
  /* What depends on the ids' types (images, atomics) is checked every time, what
   * depends on the opcode and its other words once (first_of_words). */
  bool fresh = !info || !k2s_opcode_enum_operands[i->opcode] || first_of_words(c, i);
  /* Float atomics: atomic_caps picks the capability of the width (the grammar's first,
   * AtomicFloat16*EXT, would ask a 32-bit add for VK_EXT_shader_atomic_float2). */
  if (fresh && info && info->n_caps && !satisfied(c, k2s_opcode_info_caps(info), info->n_caps) &&
      i->opcode != SpvOpAtomicFAddEXT && i->opcode != SpvOpAtomicFMinEXT &&
      i->opcode != SpvOpAtomicFMaxEXT)
    need(c, first_shader_capability(k2s_opcode_info_caps(info), info->n_caps), i);
  image_caps(c, i);
  if (i->opcode == SpvOpTypeInt && i->n_ops >= 1) {
    if (i->ops[0] == 8)
      need(c, SpvCapabilityInt8, i);
    else if (i->ops[0] == 16)
      need(c, SpvCapabilityInt16, i);
    else if (i->ops[0] == 64)
      need(c, SpvCapabilityInt64, i);
  } else if (i->opcode == SpvOpTypeFloat && i->n_ops >= 1) {
    if (i->ops[0] == 16)
      need(c, SpvCapabilityFloat16, i);
    else if (i->ops[0] == 64)
      need(c, SpvCapabilityFloat64, i);
  } else if (i->opcode == SpvOpTypeVector && i->n_ops >= 2 && i->ops[1] > 4) {
    need(c, SpvCapabilityVector16, i);
  }
  if (fresh)
    k2s_foreach_enum_operand(m, i, operand_caps, c);
  atomic_caps(c, i);
}

/* 8/16-bit types inside interface blocks need the storage capabilities. */
static void small_types_in(caps *c, uint32_t type, uint32_t sc, uint8_t *seen, const k2s_instr *why)
{
  k2s_module *m = c->m;
  k2s_instr *t = k2s_def(m, type);
  if (!t || type >= m->bound || seen[type])
    return;
  seen[type] = 1;
  switch (t->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: {
    uint32_t w = t->ops[0];
    if (w != 8 && w != 16)
      return;
    if (sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassPhysicalStorageBuffer)
      need(c, w == 8 ? SpvCapabilityStorageBuffer8BitAccess : SpvCapabilityStorageBuffer16BitAccess,
           why);
    else if (sc == SpvStorageClassUniform)
      need(c,
           w == 8 ? SpvCapabilityUniformAndStorageBuffer8BitAccess
                  : SpvCapabilityUniformAndStorageBuffer16BitAccess,
           why);
    else if (sc == SpvStorageClassPushConstant)
      need(c, w == 8 ? SpvCapabilityStoragePushConstant8 : SpvCapabilityStoragePushConstant16, why);
    return;
  }
  case SpvOpTypeVector:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: small_types_in(c, t->ops[0], sc, seen, why); return;
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < t->n_ops; k++)
      small_types_in(c, t->ops[k], sc, seen, why);
    return;
  default: return;
  }
}

static void storage_caps(caps *c)
{
  k2s_module *m = c->m;
  /* One visited set per storage class: what a type needs depends only on
   * the class (one set per pointer type made many-kernel modules quadratic). */
  static const uint32_t classes[] = {SpvStorageClassStorageBuffer, SpvStorageClassUniform,
                                     SpvStorageClassPushConstant,
                                     SpvStorageClassPhysicalStorageBuffer};
  uint8_t *seen[4] = {0};
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (i->opcode != SpvOpTypePointer || i->n_ops < 2)
      continue;
    uint32_t sc = i->ops[0];
    int k = 0;
    while (k < 4 && classes[k] != sc)
      k++;
    if (k == 4)
      continue;
    if (!seen[k])
      seen[k] = k2s_alloc(&m->arena, m->bound);
    small_types_in(c, i->ops[1], sc, seen[k], i);
  }
}

static void foreach_module_instr(k2s_module *m, void (*fn)(caps *, const k2s_instr *), caps *c)
{
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s])
      fn(c, i);
  k2s_foreach_instr(i, &m->tail)
    fn(c, i);
  k2s_foreach_function(f, m) {
    fn(c, f->def);
    k2s_foreach_instr(i, &f->head)
      fn(c, i);
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        fn(c, i);
  }
}

static const k2s_enumerant *enumerant(uint16_t kind, uint32_t value)
{
  const k2s_kind_info *k = &k2s_kinds[kind];
  for (uint32_t e = 0; e < k->n_enumerants; e++)
    if (k2s_kind_info_enumerants(k)[e].value == value)
      return &k2s_kind_info_enumerants(k)[e];
  return NULL;
}

/* Kernel-only: one of the OpenCL environment's own capabilities (Vulkan
 * forbids them; the grammar cannot say so), or one that the grammar says
 * depends on one of them (Vector16 on Kernel, GenericPointer on Addresses). */
static bool kernel_only_capability(uint32_t cap)
{
  switch (cap) {
  case SpvCapabilityKernel:
  case SpvCapabilityAddresses:
  case SpvCapabilityLinkage:
  case SpvCapabilityGroups: return true;
  default: break;
  }
  const k2s_enumerant *e = enumerant(K2S_OK_CAPABILITY, cap);
  for (uint32_t k = 0; e && k < e->n_caps; k++)
    if (k2s_enumerant_caps(e)[k] != cap && kernel_only_capability(k2s_enumerant_caps(e)[k]))
      return true;
  return false;
}

static const char *cap_name(uint32_t cap)
{
  const char *n = k2s_enumerant_name(K2S_OK_CAPABILITY, cap);
  return n ? n : "?";
}

/* The extension a capability needs below the SPIR-V version that made it
 * core, from the grammar. */
static const char *cap_extension(uint32_t cap, uint32_t version)
{
  const k2s_enumerant *e = enumerant(K2S_OK_CAPABILITY, cap);
  if (!e || (e->version && version >= e->version))
    return NULL;
  return k2s_enumerant_extension(e);
}

static bool uses_non_semantic(k2s_module *m)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT]) {
    const char *n = k2s_string_operand(i, 0);
    if (n && strncmp(n, "NonSemantic.", 12) == 0)
      return true;
  }
  return false;
}

/* The kernel (entry-point name) or function that instruction i is in. */
static const char *function_label(k2s_module *m, const k2s_instr *i)
{
  if (!i || !i->block)
    return NULL;
  uint32_t fid = i->block->func->def->result;
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    if (e->n_ops >= 3 && e->ops[1] == fid)
      return k2s_sprintf(&m->arena, "kernel '%s'", k2s_string_operand(e, 2));
  const char *n = k2s_name_of(m, fid);
  return k2s_sprintf(&m->arena, "function '%s'", n ? n : "(unnamed)");
}

/* For a type declaration, the first instruction in a function that produces a
 * value of that type (or of a vector of it), so the error names a kernel. */
static const k2s_instr *use_in_code(k2s_module *m, const k2s_instr *why)
{
  if (!why || why->block || !why->result)
    return why;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        const k2s_instr *t = i->type ? k2s_def(m, i->type) : NULL;
        if (t && t->opcode == SpvOpTypeVector)
          t = k2s_def(m, t->ops[0]);
        if (t == why)
          return i;
      }
  return why;
}

/* Features the user said the device lacks (--no-int64 & co.) that the output
 * still needs: a clear error, since k2s does not emulate them. */
static bool check_missing_features(caps *c, const k2s_options *o)
{
  static const struct {
    uint32_t feature, cap;
    const char *what, *flag;
  } rules[] = {
      {K2S_FEATURE_INT8, SpvCapabilityInt8, "8-bit integers", "--no-int8"},
      {K2S_FEATURE_INT16, SpvCapabilityInt16, "16-bit integers", "--no-int16"},
      {K2S_FEATURE_INT64, SpvCapabilityInt64, "64-bit integers", "--no-int64"},
      {K2S_FEATURE_INT64_ATOMICS, SpvCapabilityInt64Atomics,
       "64-bit integer atomics (shaderBufferInt64Atomics/shaderSharedInt64Atomics)",
       "--no-int64-atomics"},
      {K2S_FEATURE_FLOAT16, SpvCapabilityFloat16, "half-precision arithmetic", "--no-fp16"},
      {K2S_FEATURE_FLOAT64, SpvCapabilityFloat64, "double precision", "--no-fp64"},
      {K2S_FEATURE_STORAGE8, SpvCapabilityStorageBuffer8BitAccess, "8-bit buffer access",
       "--no-8bit-storage"},
      {K2S_FEATURE_STORAGE8, SpvCapabilityUniformAndStorageBuffer8BitAccess, "8-bit buffer access",
       "--no-8bit-storage"},
      {K2S_FEATURE_STORAGE8, SpvCapabilityStoragePushConstant8, "8-bit push constants",
       "--no-8bit-storage"},
      {K2S_FEATURE_STORAGE16, SpvCapabilityStorageBuffer16BitAccess, "16-bit buffer access",
       "--no-16bit-storage"},
      {K2S_FEATURE_STORAGE16, SpvCapabilityUniformAndStorageBuffer16BitAccess,
       "16-bit buffer access", "--no-16bit-storage"},
      {K2S_FEATURE_STORAGE16, SpvCapabilityStoragePushConstant16, "16-bit push constants",
       "--no-16bit-storage"},
  };
  for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
    if (!(o->missing_features & rules[r].feature) || !c->need[rules[r].cap])
      continue;
    const k2s_instr *at = use_in_code(c->m, c->why[rules[r].cap]);
    const char *where = function_label(c->m, at);
    k2s_error(c->m, at, "%s needs %s, which the device lacks (%s); k2s does not emulate them yet",
              where ? where : "the module", rules[r].what, rules[r].flag);
    return false;
  }
  return true;
}

static void recompute_capabilities(k2s_module *m, uint32_t version, const k2s_options *o)
{
  /* Only need[] is read before it is written (why[] and list[] are set with it):
   * zeroing the rest was 65 K instructions of every translation. */
  caps *c = k2s_alloc_uninit(&m->arena, sizeof(*c));
  c->m = m;
  memset(c->need, 0, sizeof(c->need));
  c->n_list = 0;
  c->seen = NULL;
  c->seen_cap = c->n_seen = 0;
  need(c, SpvCapabilityShader, NULL);
  foreach_module_instr(m, instr_caps, c);
  storage_caps(c);
  if (!check_missing_features(c, o))
    return;
  /* In increasing order, as the sections list them (an insertion sort: few). */
  for (uint32_t k = 1; k < c->n_list; k++) {
    uint16_t v = c->list[k];
    uint32_t j = k;
    for (; j > 0 && c->list[j - 1] > v; j--)
      c->list[j] = c->list[j - 1];
    c->list[j] = v;
  }
  for (uint32_t k = 0; k < c->n_list; k++) {
    uint32_t cap = c->list[k];
    if (kernel_only_capability(cap)) {
      k2s_error(m, c->why[cap],
                "this instruction needs the Kernel-only capability %s, and no pass lowered it; "
                "k2s cannot translate it yet",
                cap_name(cap));
      return;
    }
  }
  /* Rebuild the capability and extension sections from scratch. */
  m->sec[K2S_SEC_CAPABILITY] = (k2s_list){0};
  k2s_list old_ext = m->sec[K2S_SEC_EXTENSION];
  m->sec[K2S_SEC_EXTENSION] = (k2s_list){0};
  for (uint32_t k = 0; k < c->n_list; k++) {
    k2s_add_capability(m, c->list[k]);
    const char *ext = cap_extension(c->list[k], version);
    if (ext)
      k2s_add_extension(m, ext);
  }
  if (uses_non_semantic(m) && version < 0x00010600)
    k2s_add_extension(m, "SPV_KHR_non_semantic_info");
  /* Extensions a pass added on purpose (named SPV_KHR_*) that no capability
   * implies are kept; Kernel-side extensions are dropped. */
  k2s_foreach_instr(e, &old_ext) {
    const char *n = k2s_string_operand(e, 0);
    if (n &&
        (strcmp(n, "SPV_KHR_variable_pointers") == 0 || strcmp(n, "SPV_KHR_shader_clock") == 0))
      k2s_add_extension(m, n);
  }
}

/* ---- memory model, imports, interfaces ---- */

/* Only GLSL.std.450 and non-semantic sets are valid in a Vulkan module; an
 * instruction of another set (OpenCL.std that no pass lowered, a debug-info
 * set) would be accepted by spirv-val yet is not Vulkan SPIR-V. */
static bool check_ext_inst_sets(k2s_module *m, const k2s_options *o)
{
  /* A sub-pipeline (--passes) may stop before the builtins are lowered on
   * purpose; there the leftover is worth a warning only. */
  k2s_severity sev = o->passes ? K2S_WARNING : K2S_ERROR;
  k2s_foreach_function(fn, m)
    k2s_foreach_block(b, fn)
      k2s_foreach_instr(i, &b->body) {
        if (i->opcode != SpvOpExtInst || i->n_ops < 2)
          continue;
        uint32_t set = i->ops[0], op = i->ops[1];
        uint8_t id = set < m->id_cap ? m->ext_set[set] : K2S_EXT_UNKNOWN;
        if (id == K2S_EXT_GLSL_STD_450 || id == K2S_EXT_CLSPV_REFLECTION)
          continue;
        const k2s_instr *imp = k2s_def(m, set);
        const char *name = imp ? k2s_string_operand(imp, 0) : NULL;
        if (name && strncmp(name, "NonSemantic.", 12) == 0)
          continue;
        if (id == K2S_EXT_OPENCL_STD && op < k2s_extinst_sets[id].n_opcodes)
          k2s_diag(m, sev, i,
                   "the OpenCL builtin %s was not lowered by any pass; k2s cannot "
                   "translate it yet",
                   k2s_extinst_op_name(id, op));
        else
          k2s_diag(m, sev, i,
                   "extended instruction %u of the set '%s' is not valid in a Vulkan "
                   "module and no pass lowered it",
                   op, name ? name : "?");
        return sev != K2S_ERROR;
      }
  return true;
}

static void set_memory_model(k2s_module *m)
{
  uint32_t ops[2] = {SpvAddressingModelLogical, SpvMemoryModelGLSL450};
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (i->opcode == SpvOpTypePointer && i->n_ops >= 1 &&
        i->ops[0] == SpvStorageClassPhysicalStorageBuffer)
      ops[0] = SpvAddressingModelPhysicalStorageBuffer64;
  m->sec[K2S_SEC_MEMORY_MODEL] = (k2s_list){0};
  k2s_list_append(&m->sec[K2S_SEC_MEMORY_MODEL], k2s_instr_new(m, SpvOpMemoryModel, 0, 0, ops, 2));
}

static void drop_unused_imports(k2s_module *m)
{
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_EXT_IMPORT])
    if (!k2s_uses_of(m, i->result)) {
      k2s_list_remove(&m->sec[K2S_SEC_EXT_IMPORT], i);
      m->def[i->result] = NULL;
    }
}

typedef struct iface {
  k2s_module *m;
  uint8_t *fn_seen, *var_seen;
  uint32_t *vars, n_vars;
  bool all_globals;
  uint32_t *fns, n_fns; /* functions the walk visited (to clear fn_seen) */
} iface;

static void iface_id(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  iface *f = ud;
  k2s_instr *d = k2s_def(f->m, *id);
  if (!d || d->opcode != SpvOpVariable || d->block || *id >= f->m->bound || f->var_seen[*id])
    return;
  uint32_t sc = d->n_ops ? d->ops[0] : 0;
  if (!f->all_globals && sc != SpvStorageClassInput && sc != SpvStorageClassOutput)
    return;
  f->var_seen[*id] = 1;
  f->vars[f->n_vars++] = *id;
}

static void iface_walk(iface *f, k2s_function *fn)
{
  if (!fn || f->fn_seen[fn->def->result])
    return;
  f->fn_seen[fn->def->result] = 1;
  f->fns[f->n_fns++] = fn->def->result;
  k2s_foreach_block(b, fn)
    k2s_foreach_instr(i, &b->body) {
      k2s_foreach_id_operand(f->m, i, iface_id, f);
      if (i->opcode == SpvOpFunctionCall && i->n_ops)
        iface_walk(f, k2s_function_of_id(f->m, i->ops[0]));
    }
}

static void rebuild_interfaces(k2s_module *m, uint32_t version)
{
  /* One set of scratch arrays for all entry points, cleared through the
   * lists of what each walk touched: per-entry-point arrays of the module's
   * id bound made many-kernel modules quadratic in memory. */
  iface f = {m,
             k2s_alloc(&m->arena, m->bound),
             k2s_alloc(&m->arena, m->bound),
             k2s_alloc(&m->arena, m->bound * sizeof(uint32_t)),
             0,
             version >= 0x00010400,
             k2s_alloc(&m->arena, m->bound * sizeof(uint32_t)),
             0};
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (e->n_ops < 3)
      continue;
    const char *name = k2s_string_operand(e, 2);
    if (!name)
      continue;
    uint32_t name_words = k2s_string_words(name);
    f.n_vars = f.n_fns = 0;
    iface_walk(&f, k2s_function_of_id(m, e->ops[1]));
    e->n_ops = 2 + name_words;
    for (uint32_t k = 0; k < f.n_vars; k++) {
      k2s_instr_push_op(m, e, f.vars[k]);
      f.var_seen[f.vars[k]] = 0;
    }
    for (uint32_t k = 0; k < f.n_fns; k++)
      f.fn_seen[f.fns[k]] = 0;
  }
}

/* ---- dead globals ---- */

typedef struct live_ctx {
  k2s_module *m;
  uint8_t *live;
  uint32_t *work, n_work;
} live_ctx;

static void mark(live_ctx *c, uint32_t id)
{
  if (id == 0 || id >= c->m->bound || c->live[id])
    return;
  c->live[id] = 1;
  c->work[c->n_work++] = id;
}

static void mark_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  mark(ud, *id);
}

static void mark_instr(live_ctx *c, k2s_instr *i)
{
  mark(c, i->type);
  mark(c, i->result);
  k2s_foreach_id_operand(c->m, i, mark_cb, c);
}

/* Types, constants and variables nothing reaches are removed, with their
 * names and decorations: earlier passes leave Kernel-only types behind
 * (CrossWorkgroup pointers of the old parameters) that Vulkan rejects. */
static void remove_dead_globals(k2s_module *m)
{
  live_ctx c = {m, k2s_alloc(&m->arena, m->bound),
                k2s_alloc(&m->arena, m->bound * sizeof(uint32_t)), 0};
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT])
    mark(&c, e->ops[1]);
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    mark_instr(&c, x);
  k2s_foreach_instr(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->opcode == SpvOpExtInst || g->opcode == SpvOpTypeForwardPointer)
      mark_instr(&c, g);
  k2s_foreach_instr(g, &m->tail)
    mark_instr(&c, g);
  /* Decorations that give an object meaning to the host keep it (e.g. the
   * WorkgroupSize builtin). */
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->n_ops >= 2 && d->ops[1] == SpvDecorationBuiltIn)
      mark(&c, d->ops[0]);
    /* The <id> operands of a kept OpDecorateId (UniformId's scope, ...): a
     * decoration naming a removed constant is an undefined id. */
    for (uint32_t k = 2; d->opcode == SpvOpDecorateId && k < d->n_ops; k++)
      mark(&c, d->ops[k]);
  }
  k2s_foreach_function(f, m) {
    mark_instr(&c, f->def);
    k2s_foreach_instr(i, &f->head)
      mark_instr(&c, i);
    k2s_foreach_block(b, f) {
      mark_instr(&c, b->label);
      k2s_foreach_instr(i, &b->body)
        mark_instr(&c, i);
    }
  }
  while (c.n_work) {
    k2s_instr *d = k2s_def(m, c.work[--c.n_work]);
    if (d && !d->block)
      mark_instr(&c, d);
  }
  k2s_foreach_instr_safe(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->result && !c.live[g->result] && g->opcode != SpvOpExtInst) {
      k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], g);
      m->def[g->result] = NULL;
    }
  static const int secs[] = {K2S_SEC_DEBUG, K2S_SEC_ANNOTATION};
  for (int s = 0; s < 2; s++)
    k2s_foreach_instr_safe(i, &m->sec[secs[s]]) {
      if (i->opcode == SpvOpString || i->opcode == SpvOpSource ||
          i->opcode == SpvOpSourceContinued || i->opcode == SpvOpSourceExtension ||
          i->opcode == SpvOpModuleProcessed || i->opcode == SpvOpDecorationGroup || !i->n_ops)
        continue;
      if (!k2s_def(m, i->ops[0]))
        k2s_list_remove(&m->sec[secs[s]], i);
    }
  /* Def-use stays valid: what was taken out of its list is no use any more. */
  m->intern_valid = false;
}

/* Through the index of the modes by function: a scan of the section (which the
 * modes added here lengthen) per entry point made many-kernel modules quadratic
 * (big4500: 134 M instructions). */
static bool has_mode(const k2s_mode_index *modes, uint32_t ep, uint32_t mode, uint32_t width)
{
  k2s_foreach_mode_of(modes, ep, x) if (x->opcode == SpvOpExecutionMode && x->n_ops >= 3 &&
                                        x->ops[1] == mode && x->ops[2] == width) return true;
  return false;
}

static void add_float_controls(k2s_module *m, const k2s_options *o)
{
  bool widths[3] = {false, false, false}; /* 16, 32, 64 */
  k2s_foreach_instr(t, &m->sec[K2S_SEC_GLOBAL])
    if (t->opcode == SpvOpTypeFloat && t->n_ops >= 1 &&
        (t->ops[0] == 16 || t->ops[0] == 32 || t->ops[0] == 64))
      widths[t->ops[0] == 16 ? 0 : t->ops[0] == 32 ? 1 : 2] = true;
  bool nan_preserve = !o->fast_relaxed_math && !(o->missing_features & K2S_FEATURE_FLOAT_CONTROLS);
  bool denorms = o->denorm_preserve && !(o->missing_features & K2S_FEATURE_FLOAT_CONTROLS);
  k2s_mode_index modes = k2s_index_execution_modes(m);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (e->n_ops < 2 || e->ops[0] != SpvExecutionModelGLCompute)
      continue;
    for (uint32_t k = 0; k < 3; k++) {
      uint32_t w = 16u << k;
      if (!widths[k])
        continue;
      uint32_t add[2], n = 0;
      if (nan_preserve)
        add[n++] = SpvExecutionModeSignedZeroInfNanPreserve;
      if (denorms && !(w == 32 && o->denorms_are_zero))
        add[n++] = SpvExecutionModeDenormPreserve;
      for (uint32_t j = 0; j < n; j++) {
        if (has_mode(&modes, e->ops[1], add[j], w))
          continue;
        uint32_t ops[3] = {e->ops[1], add[j], w};
        k2s_instr *x = k2s_instr_new(m, SpvOpExecutionMode, 0, 0, ops, 3);
        k2s_list_append(&m->sec[K2S_SEC_EXECUTION_MODE], x);
        k2s_mode_index_add(m, &modes, x);
      }
    }
  }
}

bool k2s_finalize(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  uint32_t version = target_version(o->target_env);
  m->version = version;
  if (!check_ext_inst_sets(m, o))
    return true;
  strip_decorations(m, version);
  remove_dead_globals(m);
  drop_unused_imports(m);
  set_memory_model(m);
  add_float_controls(m, o);
  recompute_capabilities(m, version, o);
  rebuild_interfaces(m, version);
  /* finalize always rewrites the header and sections it owns. */
  return true;
}
