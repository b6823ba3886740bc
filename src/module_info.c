/* k2s_module_info_read() and its queries: the module facts a Vulkan host needs besides
 * the reflection (capabilities, extensions, entry points, descriptor-bound variables,
 * float controls, float atomics, Workgroup memory), read through the library's own
 * parser, so k2s-run has no SPIR-V reader of its own (issue 14). The info keeps the
 * parsed module for the queries that depend on the host's choices (specialization
 * constants, stripping non-semantic instructions); they only read it, so one info may
 * be asked from several threads (include/k2s/k2s.h). */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

typedef struct owner {
  k2s_module_info pub; /* first: the public pointer is the owner's */
  k2s_arena arena;
  k2s_module *m;
  uint32_t *words; /* the input in host byte order */
  size_t n_words;
  uint32_t *drop; /* word offsets of the non-semantic instructions, ascending */
  size_t n_drop;
} owner;

/* A growable array in the owner's arena. */
typedef struct vec {
  void *data;
  size_t n, cap;
} vec;

static void *vec_push(k2s_arena *a, vec *v, size_t elem)
{
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 8;
    v->data = k2s_realloc_array(a, v->data, v->cap, cap, elem);
    v->cap = cap;
  }
  return (char *)v->data + elem * v->n++;
}

static uint32_t decoration_value(const k2s_module *m, uint32_t id, uint32_t deco, bool *has)
{
  k2s_instr *d = k2s_find_decoration(m, id, deco);
  *has = d && d->n_ops >= 3;
  return *has ? d->ops[2] : 0;
}

static const k2s_instr *def_op(const k2s_module *m, uint32_t id, uint16_t opcode)
{
  const k2s_instr *d = k2s_def(m, id);
  return d && d->opcode == opcode ? d : NULL;
}

static bool is_int32(const k2s_module *m, uint32_t type)
{
  const k2s_instr *t = k2s_def(m, type);
  if (t && t->opcode == SpvOpTypeVector && t->n_ops >= 1)
    t = k2s_def(m, t->ops[0]);
  return t && t->opcode == SpvOpTypeInt && t->n_ops >= 1 && t->ops[0] == 32;
}

/* ---- module-level facts ------------------------------------------------------------ */

static void read_imports(owner *o)
{
  k2s_module *m = o->m;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT]) {
    const char *name = i->opcode == SpvOpExtInstImport ? k2s_string_operand(i, 0) : NULL;
    if (!name)
      continue;
    if (strncmp(name, "NonSemantic.", 12) == 0) {
      o->pub.uses_nonsemantic = true;
      o->pub.has_reflection |= strncmp(name, "NonSemantic.ClspvReflection", 27) == 0;
    } else if (strcmp(name, "GLSL.std.450") != 0 && !o->pub.foreign_import) {
      o->pub.foreign_import = k2s_strdup(&o->arena, name);
    }
  }
}

static void read_caps_and_exts(owner *o)
{
  vec caps = {0}, exts = {0};
  k2s_foreach_instr(i, &o->m->sec[K2S_SEC_CAPABILITY]) {
    if (i->opcode == SpvOpCapability && i->n_ops >= 1)
      *(uint32_t *)vec_push(&o->arena, &caps, sizeof(uint32_t)) = i->ops[0];
  }
  k2s_foreach_instr(i, &o->m->sec[K2S_SEC_EXTENSION]) {
    const char *name = i->opcode == SpvOpExtension ? k2s_string_operand(i, 0) : NULL;
    if (name)
      *(const char **)vec_push(&o->arena, &exts, sizeof(char *)) = k2s_strdup(&o->arena, name);
  }
  o->pub.capabilities = caps.data;
  o->pub.n_capabilities = caps.n;
  o->pub.extensions = exts.data;
  o->pub.n_extensions = exts.n;
}

static int cmp_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

typedef struct call_walk {
  const k2s_module *m;
  k2s_arena *arena;
  vec *globals;
  vec *todo;
  uint8_t *seen; /* by id: 1 a function queued, 2 a global noted */
} call_walk;

static void note_id(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  call_walk *w = ud;
  if (*id >= w->m->id_cap || w->seen[*id])
    return;
  const k2s_instr *d = k2s_def(w->m, *id);
  if (d && d->opcode == SpvOpVariable && !d->block) {
    w->seen[*id] = 2;
    *(uint32_t *)vec_push(w->arena, w->globals, sizeof(uint32_t)) = *id;
  } else if (d && d->opcode == SpvOpFunction) {
    w->seen[*id] = 1;
    *(uint32_t *)vec_push(w->arena, w->todo, sizeof(uint32_t)) = *id;
  }
}

/* The module-scope variables the static call tree from `func` names (SPIR-V before 1.4,
 * whose interfaces list only Input and Output variables). */
static void call_tree_globals(owner *o, uint32_t func, vec *globals)
{
  k2s_module *m = o->m;
  vec todo = {0};
  call_walk w = {m, &o->arena, globals, &todo, k2s_alloc(&o->arena, m->id_cap)};
  uint32_t start = func;
  note_id(&w, NULL, &start);
  while (todo.n) {
    uint32_t id = ((uint32_t *)todo.data)[--todo.n];
    k2s_function *f = k2s_function_of_id(m, id);
    if (!f)
      continue;
    k2s_foreach_instr(i, &f->head) k2s_foreach_id_operand(m, i, note_id, &w);
    k2s_foreach_block(b, f) {
      k2s_foreach_instr(i, &b->body) k2s_foreach_id_operand(m, i, note_id, &w);
    }
  }
}

static void entry_globals(owner *o, const k2s_instr *ep, k2s_module_entry *e, size_t n_entries,
                          uint32_t iface_first)
{
  k2s_module *m = o->m;
  vec globals = {0};
  if (m->version >= 0x00010400) {
    for (uint32_t k = iface_first; k < ep->n_ops; k++)
      *(uint32_t *)vec_push(&o->arena, &globals, sizeof(uint32_t)) = ep->ops[k];
  } else if (n_entries == 1) {
    k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
      if (i->opcode == SpvOpVariable)
        *(uint32_t *)vec_push(&o->arena, &globals, sizeof(uint32_t)) = i->result;
    }
  } else {
    call_tree_globals(o, e->function, &globals);
  }
  if (globals.n)
    qsort(globals.data, globals.n, sizeof(uint32_t), cmp_u32);
  e->globals = globals.data;
  e->n_globals = globals.n;
}

static void read_entries(owner *o)
{
  k2s_module *m = o->m;
  size_t n = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ENTRY_POINT]) n += i->opcode == SpvOpEntryPoint;
  k2s_module_entry *es = k2s_alloc(&o->arena, (n ? n : 1) * sizeof(*es));
  size_t k = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ENTRY_POINT]) {
    const char *name = i->opcode == SpvOpEntryPoint && i->n_ops >= 3 ? k2s_string_operand(i, 2)
                                                                      : NULL;
    if (!name)
      continue;
    k2s_module_entry *e = &es[k++];
    e->name = k2s_strdup(&o->arena, name);
    e->execution_model = i->ops[0];
    e->function = i->ops[1];
    entry_globals(o, i, e, n, 2 + k2s_string_words(name));
  }
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXECUTION_MODE]) {
    if (i->n_ops < 2)
      continue;
    uint32_t func = i->ops[0], mode = i->ops[1];
    if ((mode == SpvExecutionModeLocalSize || mode == SpvExecutionModeLocalSizeId) &&
        i->n_ops >= 5) {
      for (size_t j = 0; j < k; j++) {
        if (es[j].function != func)
          continue;
        es[j].has_local_size = true;
        es[j].local_size_is_id = mode == SpvExecutionModeLocalSizeId;
        memcpy(es[j].local_size, &i->ops[2], sizeof(es[j].local_size));
      }
    }
  }
  o->pub.entries = es;
  o->pub.n_entries = k;
}

static void read_float_modes(owner *o)
{
  vec modes = {0};
  k2s_foreach_instr(i, &o->m->sec[K2S_SEC_EXECUTION_MODE]) {
    if (i->n_ops < 3 || i->ops[1] < SpvExecutionModeDenormPreserve ||
        i->ops[1] > SpvExecutionModeRoundingModeRTZ)
      continue;
    k2s_module_float_mode *fm = vec_push(&o->arena, &modes, sizeof(*fm));
    *fm = (k2s_module_float_mode){i->ops[0], i->ops[1], i->ops[2]};
  }
  o->pub.float_modes = modes.data;
  o->pub.n_float_modes = modes.n;
}

/* ---- descriptor-bound variables ----------------------------------------------------- */

static void describe_resource(const k2s_module *m, const k2s_instr *var, k2s_module_resource *r)
{
  const k2s_instr *ptr = def_op(m, var->type, SpvOpTypePointer);
  uint32_t pointee = ptr && ptr->n_ops >= 2 ? ptr->ops[1] : 0;
  bool has;
  r->buffer_block = pointee && k2s_find_decoration(m, pointee, SpvDecorationBufferBlock);
  const k2s_instr *block = def_op(m, pointee, SpvOpTypeStruct);
  const k2s_instr *array = block && block->n_ops >= 1 ? k2s_def(m, block->ops[0]) : NULL;
  if (array && (array->opcode == SpvOpTypeArray || array->opcode == SpvOpTypeRuntimeArray) &&
      array->n_ops >= 1) {
    r->array_stride = decoration_value(m, array->result, SpvDecorationArrayStride, &has);
    r->int32_elements = is_int32(m, array->ops[0]);
  }
  const k2s_instr *image = def_op(m, pointee, SpvOpTypeImage);
  if (image && image->n_ops >= 7) {
    const k2s_instr *sampled = k2s_def(m, image->ops[0]);
    r->image_sampled_type = !sampled                            ? 0
                            : sampled->opcode == SpvOpTypeInt   ? 1
                            : sampled->opcode == SpvOpTypeFloat ? 2
                                                                : 0;
    r->image_format = image->ops[6];
  }
}

static void read_resources(owner *o)
{
  k2s_module *m = o->m;
  vec res = {0};
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (i->opcode != SpvOpVariable || i->n_ops < 1)
      continue;
    if (i->ops[0] == SpvStorageClassWorkgroup && i->n_ops >= 2)
      o->pub.workgroup_initializer = true;
    bool has_set, has_binding;
    uint32_t set = decoration_value(m, i->result, SpvDecorationDescriptorSet, &has_set);
    uint32_t binding = decoration_value(m, i->result, SpvDecorationBinding, &has_binding);
    if (!has_set || !has_binding)
      continue;
    k2s_module_resource *r = vec_push(&o->arena, &res, sizeof(*r));
    memset(r, 0, sizeof(*r));
    r->variable = i->result;
    r->set = set;
    r->binding = binding;
    r->storage_class = i->ops[0];
    const char *name = k2s_name_of(m, i->result);
    r->name = name ? k2s_strdup(&o->arena, name) : NULL;
    describe_resource(m, i, r);
  }
  o->pub.resources = res.data;
  o->pub.n_resources = res.n;
}

/* ---- code: float atomics, loops ----------------------------------------------------- */

static void note_code(owner *o, const k2s_instr *in)
{
  const k2s_module *m = o->m;
  if (in->opcode == SpvOpLoopMerge)
    o->pub.has_loops = true;
  bool min_max = in->opcode == SpvOpAtomicFMinEXT || in->opcode == SpvOpAtomicFMaxEXT;
  if ((!min_max && in->opcode != SpvOpAtomicFAddEXT) || in->n_ops < 1)
    return;
  const k2s_instr *type = def_op(m, in->type, SpvOpTypeFloat);
  const k2s_instr *ptr = def_op(m, k2s_type_of(m, in->ops[0]), SpvOpTypePointer);
  if (!type || type->n_ops < 1 || !ptr || ptr->n_ops < 1)
    return;
  uint32_t width = type->ops[0];
  uint32_t wi = width == 16 ? 0 : width == 32 ? 1 : 2;
  bool shared = ptr->ops[0] == SpvStorageClassWorkgroup;
  o->pub.float_atomics |= K2S_FLOAT_ATOMIC_BIT(min_max, wi, shared);
}

static void read_code(owner *o)
{
  k2s_foreach_function(f, o->m) {
    k2s_foreach_block(b, f) {
      k2s_foreach_instr(i, &b->body) note_code(o, i);
    }
  }
}

/* Word offsets of what a driver without VK_KHR_shader_non_semantic_info must not see:
 * NonSemantic.* imports, their OpExtInst, SPV_KHR_non_semantic_info. Non-semantic results
 * may only feed other non-semantic instructions, so dropping them all leaves no dangling
 * uses. */
static bool is_nonsemantic(const k2s_module *m, const k2s_instr *i)
{
  const char *s = NULL;
  if (i->opcode == SpvOpExtension)
    return (s = k2s_string_operand(i, 0)) && strcmp(s, "SPV_KHR_non_semantic_info") == 0;
  if (i->opcode == SpvOpExtInstImport)
    return (s = k2s_string_operand(i, 0)) && strncmp(s, "NonSemantic.", 12) == 0;
  if (i->opcode == SpvOpExtInst && i->n_ops >= 1) {
    const k2s_instr *set = def_op(m, i->ops[0], SpvOpExtInstImport);
    return set && (s = k2s_string_operand(set, 0)) && strncmp(s, "NonSemantic.", 12) == 0;
  }
  return false;
}

static void note_drop(owner *o, vec *drop, const k2s_instr *i)
{
  if (i->offset != K2S_NEW_OFFSET && is_nonsemantic(o->m, i))
    *(uint32_t *)vec_push(&o->arena, drop, sizeof(uint32_t)) = i->offset;
}

static void find_nonsemantic(owner *o)
{
  k2s_module *m = o->m;
  vec drop = {0};
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s]) note_drop(o, &drop, i);
  k2s_foreach_function(f, m) {
    k2s_foreach_instr(i, &f->head) note_drop(o, &drop, i);
    k2s_foreach_block(b, f) {
      k2s_foreach_instr(i, &b->body) note_drop(o, &drop, i);
    }
  }
  k2s_foreach_instr(i, &m->tail) note_drop(o, &drop, i);
  if (drop.n)
    qsort(drop.data, drop.n, sizeof(uint32_t), cmp_u32);
  o->drop = drop.data;
  o->n_drop = drop.n;
}

static void read_all(owner *o)
{
  o->pub.version = o->m->version;
  o->pub.bound = o->m->bound;
  read_caps_and_exts(o);
  read_imports(o);
  read_entries(o);
  read_float_modes(o);
  read_resources(o);
  read_code(o);
  find_nonsemantic(o);
}

static uint32_t bswap32(uint32_t v)
{
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

k2s_status k2s_module_info_read(const uint32_t *words, size_t n_words, k2s_module_info **out)
{
  owner *o = calloc(1, sizeof(*o));
  *out = o ? &o->pub : NULL;
  if (!o)
    return K2S_ERROR_INPUT;
  k2s_parse_error perr;
  o->m = words ? k2s_parse(words, n_words, &perr) : NULL;
  if (!o->m) {
    o->pub.error =
        words ? k2s_sprintf(&o->arena, "%s (word %lld)", perr.message, (long long)perr.word_offset)
              : "no module";
    return K2S_ERROR_INPUT;
  }
  jmp_buf oom;
  o->arena.oom = &oom;
  o->m->arena.oom = &oom;
  if (setjmp(oom) != 0) {
    o->arena.oom = NULL;
    k2s_module_free(o->m);
    o->m = NULL;
    memset(&o->pub, 0, sizeof(o->pub));
    o->pub.error = "out of memory while reading the module";
    return K2S_ERROR_INPUT;
  }
  o->words = k2s_alloc(&o->arena, n_words * sizeof(uint32_t));
  o->n_words = n_words;
  for (size_t i = 0; i < n_words; i++)
    o->words[i] = o->m->big_endian ? bswap32(words[i]) : words[i];
  read_all(o);
  o->arena.oom = NULL;
  o->m->arena.oom = NULL;
  return K2S_OK;
}

void k2s_module_info_free(k2s_module_info *info)
{
  if (!info)
    return;
  owner *o = (owner *)info;
  if (o->m)
    k2s_module_free(o->m);
  k2s_arena_free(&o->arena);
  free(o);
}

bool k2s_module_info_has_capability(const k2s_module_info *info, uint32_t capability)
{
  for (size_t i = 0; info && i < info->n_capabilities; i++)
    if (info->capabilities[i] == capability)
      return true;
  return false;
}

const k2s_module_entry *k2s_module_info_find_entry(const k2s_module_info *info, uint32_t function)
{
  for (size_t i = 0; info && i < info->n_entries; i++)
    if (info->entries[i].function == function)
      return &info->entries[i];
  return NULL;
}

bool k2s_module_entry_may_use(const k2s_module_entry *entry, uint32_t variable)
{
  return entry && entry->n_globals &&
         bsearch(&variable, entry->globals, entry->n_globals, sizeof(uint32_t), cmp_u32);
}

uint32_t k2s_module_info_find_name(const k2s_module_info *info, const char *name)
{
  const owner *o = (const owner *)info;
  if (!o || !o->m || !name)
    return 0;
  k2s_foreach_instr(i, &o->m->sec[K2S_SEC_DEBUG]) {
    const char *s = i->opcode == SpvOpName && i->n_ops >= 2 ? k2s_string_operand(i, 1) : NULL;
    if (s && strcmp(s, name) == 0)
      return i->ops[0];
  }
  return 0;
}

k2s_status k2s_module_words_for_driver(const k2s_module_info *info, bool strip_nonsemantic,
                                       uint32_t **words, size_t *n_words)
{
  const owner *o = (const owner *)info;
  *words = NULL;
  *n_words = 0;
  if (!o || !o->m)
    return K2S_ERROR_INPUT;
  uint32_t *w = malloc(o->n_words * sizeof(uint32_t));
  if (!w)
    return K2S_OK;
  /* The reader checked every instruction's word count; the offsets it recorded are
   * where the dropped instructions start. */
  size_t n = 5, d = 0;
  memcpy(w, o->words, 5 * sizeof(uint32_t));
  for (size_t at = 5; at < o->n_words;) {
    size_t wc = o->words[at] >> 16;
    while (d < o->n_drop && o->drop[d] < at)
      d++;
    bool drop = strip_nonsemantic && d < o->n_drop && o->drop[d] == at;
    if (!drop) {
      memcpy(w + n, o->words + at, wc * sizeof(uint32_t));
      n += wc;
    }
    at += wc;
  }
  *words = w;
  *n_words = n;
  return K2S_OK;
}

/* ---- Workgroup memory ------------------------------------------------------------------ */

/* Whether an OpName gives `id` this name (a walk: k2s_name_of builds a lazy index). */
static bool has_name(const k2s_module *m, uint32_t id, const char *name)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_DEBUG]) {
    const char *s = i->opcode == SpvOpName && i->n_ops >= 2 && i->ops[0] == id
                        ? k2s_string_operand(i, 1)
                        : NULL;
    if (s && strcmp(s, name) == 0)
      return true;
  }
  return false;
}

/* Ids index plain arrays sized by the module's id tables (scratch of one query). */
typedef struct wg_tables {
  uint32_t cap;
  uint32_t *spec_id;      /* SpecId + 1; 0 = none */
  uint64_t *value;        /* integer constants, spec constants as specialised */
  uint8_t *known;         /* value[] holds a value */
  uint64_t *size, *align; /* type sizes; 0 = not sizeable here */
} wg_tables;

static bool value_of(const wg_tables *t, uint32_t id, uint64_t *v)
{
  if (id >= t->cap || !t->known[id])
    return false;
  *v = t->value[id];
  return true;
}

static void set_value(wg_tables *t, uint32_t id, uint64_t v)
{
  if (id < t->cap) {
    t->value[id] = v;
    t->known[id] = 1;
  }
}

static void set_type(wg_tables *t, uint32_t id, uint64_t size, uint64_t align)
{
  if (id < t->cap) {
    t->size[id] = size;
    t->align[id] = align ? align : 1;
  }
}

static uint64_t size_of(const wg_tables *t, uint32_t id) { return id < t->cap ? t->size[id] : 0; }
static uint64_t align_of(const wg_tables *t, uint32_t id) { return id < t->cap ? t->align[id] : 1; }

static uint64_t literal64(const k2s_instr *in)
{
  return in->n_ops >= 2 ? (uint64_t)in->ops[1] << 32 | in->ops[0] : in->ops[0];
}

/* OpSpecConstantOp of the integer kinds k2s uses for array lengths. */
static void spec_constant_op(const k2s_instr *in, wg_tables *t)
{
  uint64_t a, b;
  if (in->n_ops < 3 || !value_of(t, in->ops[1], &a) || !value_of(t, in->ops[2], &b))
    return;
  switch (in->ops[0]) {
  case SpvOpIMul: set_value(t, in->result, a * b); break;
  case SpvOpIAdd: set_value(t, in->result, a + b); break;
  case SpvOpISub: set_value(t, in->result, a - b); break;
  case SpvOpUDiv:
    if (b)
      set_value(t, in->result, a / b);
    break;
  case SpvOpShiftLeftLogical: set_value(t, in->result, b < 64 ? a << b : 0); break;
  default: break;
  }
}

static void size_struct(const k2s_instr *in, wg_tables *t)
{
  uint64_t off = 0, most = 1;
  for (uint32_t k = 0; k < in->n_ops; k++) {
    uint64_t s = size_of(t, in->ops[k]), a = align_of(t, in->ops[k]);
    if (!s)
      return;
    off = (off + a - 1) / a * a + s;
    most = a > most ? a : most;
  }
  set_type(t, in->result, (off + most - 1) / most * most, most);
}

static void note_global(const k2s_instr *in, wg_tables *t, const k2s_spec_value *specs,
                        size_t n_specs)
{
  const uint32_t *o = in->ops;
  switch (in->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
    if (in->n_ops >= 1)
      set_type(t, in->result, o[0] / 8, o[0] / 8);
    break;
  case SpvOpTypeBool: set_type(t, in->result, 4, 4); break;
  case SpvOpTypeVector:
    if (in->n_ops >= 2) {
      uint64_t e = size_of(t, o[0]), n = o[1] == 3 ? 4 : o[1];
      set_type(t, in->result, e * o[1], e * n);
    }
    break;
  case SpvOpTypeArray: {
    uint64_t n;
    if (in->n_ops >= 2 && value_of(t, o[1], &n) && size_of(t, o[0]))
      set_type(t, in->result, size_of(t, o[0]) * n, align_of(t, o[0]));
    break;
  }
  case SpvOpTypeStruct: size_struct(in, t); break;
  case SpvOpConstant:
    if (in->n_ops >= 1)
      set_value(t, in->result, literal64(in));
    break;
  case SpvOpSpecConstant:
    if (in->n_ops >= 1 && in->result < t->cap) {
      uint64_t v = literal64(in);
      uint32_t sid = t->spec_id[in->result];
      for (size_t i = 0; sid && i < n_specs; i++)
        if (specs[i].spec_id == sid - 1)
          v = specs[i].value;
      set_value(t, in->result, v);
    }
    break;
  case SpvOpSpecConstantOp: spec_constant_op(in, t); break;
  default: break;
  }
}

bool k2s_module_workgroup_bytes(const k2s_module_info *info, const k2s_module_entry *entry,
                                const k2s_spec_value *specs, size_t n_specs,
                                k2s_workgroup_bytes *out)
{
  memset(out, 0, sizeof(*out));
  const owner *o = (const owner *)info;
  if (!o || !o->m)
    return true;
  const k2s_module *m = o->m;
  uint32_t cap = m->id_cap;
  wg_tables t = {cap, calloc(cap, 4), calloc(cap, 8), calloc(cap, 1), calloc(cap, 8),
                 calloc(cap, 8)};
  bool ok = t.spec_id && t.value && t.known && t.size && t.align;
  /* Sections walked directly, not through the module's lazy lookup indexes: this query
   * only reads the module (several threads may ask one info). */
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION]) {
    if (ok && i->opcode == SpvOpDecorate && i->n_ops >= 3 && i->ops[1] == SpvDecorationSpecId &&
        i->ops[0] < cap)
      t.spec_id[i->ops[0]] = i->ops[2] + 1;
  }
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (!ok)
      break;
    if (i->opcode != SpvOpVariable) {
      note_global(i, &t, specs, n_specs);
      continue;
    }
    if (i->n_ops < 1 || i->ops[0] != SpvStorageClassWorkgroup ||
        !k2s_module_entry_may_use(entry, i->result))
      continue;
    const k2s_instr *ptr = def_op(m, i->type, SpvOpTypePointer);
    uint64_t s = ptr && ptr->n_ops >= 2 ? size_of(&t, ptr->ops[1]) : 0;
    out->unknown |= !s;
    out->total += s;
    if (s && has_name(m, i->result, "k2s_group_scratch"))
      out->scratch += s;
  }
  free(t.spec_id);
  free(t.value);
  free(t.known);
  free(t.size);
  free(t.align);
  return ok;
}
