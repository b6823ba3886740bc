/* Linking functions of the embedded builtin library into a module.
 *
 * The library (src/clc/, Kernel SPIR-V built at build time) is embedded with
 * an index made from the same words at build time (src/clc/embed.py): the
 * word offset of each module-level definition, each function's word range
 * and name. Nothing parses the whole library: a requested function's
 * instructions are decoded from its words as they are copied into the target
 * module with fresh ids, and what they refer to is imported on demand: types
 * and constants are interned (find-or-create, so nothing is duplicated), the
 * OpenCL.std import is shared, and callees are linked the same way. Each
 * library function is copied at most once per module. The library and its
 * index are constant data, so translations in any threads share them; the
 * one thing built at run time (which ids are imports of which instruction
 * set, for the operand walk) is built once per process (pthread_once) and
 * only read afterwards. Float arithmetic in copied code is decorated
 * NoContraction: the library's float-float algorithms (Dekker's TwoProduct,
 * TwoSum) are exact only if no driver fuses a*b+c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clc/k2s_clc.h"

/* What the operand walk (k2s_foreach_id_operand) reads of a module: which
 * ids are imports of which extended instruction set. */
static k2s_module lib_view;
static pthread_once_t lib_view_once = PTHREAD_ONCE_INIT;

/* One instruction of the library, decoded in place: its operands point into
 * the constant words (the linker copies them before changing them). */
static k2s_instr lib_instr(uint32_t at)
{
  const uint32_t *w = k2s_clc_library;
  uint16_t op = w[at] & 0xffff;
  uint32_t end = at + (w[at] >> 16);
  const k2s_opcode_info *info = k2s_opcode(op);
  k2s_instr in = {.opcode = op, .offset = at};
  uint32_t p = at + 1;
  if (info && info->has_type)
    in.type = w[p++];
  if (info && info->has_result)
    in.result = w[p++];
  in.n_ops = in.cap_ops = end > p ? end - p : 0;
  in.ops = in.n_ops ? (uint32_t *)(w + p) : NULL;
  return in;
}

static void lib_view_init(void)
{
  /* Kept for the process (reachable, like the library itself). */
  uint8_t *ext_set = malloc(k2s_clc_bound);
  if (!ext_set)
    return; /* load() reports it */
  memset(ext_set, K2S_EXT_UNKNOWN, k2s_clc_bound);
  lib_view.ext_set = ext_set;
  lib_view.id_cap = k2s_clc_bound;
  for (uint32_t i = 0; i < k2s_clc_n_imports; i++) {
    k2s_instr in = lib_instr(k2s_clc_imports[i]);
    k2s_note_ext_import(&lib_view, &in);
  }
}

struct k2s_linker {
  k2s_module *m;
  const k2s_options *o;
  bool loaded, lib_failed;
  uint32_t *map;       /* library id -> id in m, 0 = not imported yet */
  const k2s_instr *at; /* where errors are reported */
  const char *root;    /* the function requested, for messages */
  bool failed;
};

k2s_linker *k2s_linker_new(k2s_module *m, const k2s_options *o)
{
  k2s_linker *l = k2s_alloc(&m->arena, sizeof(*l));
  l->m = m;
  l->o = o;
  return l;
}

void k2s_linker_done(k2s_linker *l)
{
  if (l)
    l->map = NULL; /* in m's arena, freed with it */
}

static bool load(k2s_linker *l)
{
  if (l->loaded)
    return true;
  if (l->lib_failed)
    return false;
  pthread_once(&lib_view_once, lib_view_init);
  if (!lib_view.ext_set) {
    l->lib_failed = true;
    k2s_error(l->m, NULL, "out of memory: the builtin library's table of imports (%u bytes)",
              k2s_clc_bound);
    return false;
  }
  l->map = k2s_alloc(&l->m->arena, k2s_clc_bound * sizeof(uint32_t));
  l->loaded = true;
  return true;
}

static const k2s_clc_function *lib_function_of_id(uint32_t id)
{
  uint32_t lo = 0, hi = k2s_clc_n_functions;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (k2s_clc_functions[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < k2s_clc_n_functions && k2s_clc_functions[lo].id == id ? &k2s_clc_functions[lo] : NULL;
}

static const k2s_clc_function *lib_function(const char *name)
{
  uint32_t lo = 0, hi = k2s_clc_n_named;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const k2s_clc_function *f = &k2s_clc_functions[k2s_clc_functions_by_name[mid]];
    int c = strcmp(f->name, name);
    if (c == 0)
      return f;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

bool k2s_linker_has(k2s_linker *l, const char *name)
{
  (void)l;
  return lib_function(name) != NULL;
}

static uint32_t import_id(k2s_linker *l, uint32_t id);
static uint32_t link_function(k2s_linker *l, const k2s_clc_function *f);

typedef struct remap {
  k2s_linker *l;
  const k2s_instr *src;
  uint32_t *ops; /* the copy's operands, same layout as src->ops */
} remap;

static void remap_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  remap *r = ud;
  uint32_t w = (uint32_t)(id - in->ops);
  r->ops[w] = import_id(r->l, *id);
}

/* OpSwitch's literals are as wide as its selector's type, which the operand
 * walk would look up among the library's definitions, and the linker has
 * none: the selector is read in m instead, where it is already copied (its
 * definition dominates the switch, so it comes first in the words). */
static void map_switch(k2s_linker *l, const k2s_instr *src, uint32_t *ops)
{
  if (src->n_ops < 2)
    return;
  ops[0] = import_id(l, src->ops[0]);
  ops[1] = import_id(l, src->ops[1]);
  uint32_t lit = k2s_type_width(l->m, k2s_type_of(l->m, ops[0])) == 64 ? 2 : 1;
  for (uint32_t w = 2 + lit; w < src->n_ops; w += lit + 1)
    ops[w] = import_id(l, src->ops[w]);
}

/* src's operands with every <id> translated into m. */
static uint32_t *mapped_ops(k2s_linker *l, const k2s_instr *src)
{
  uint32_t *ops = k2s_alloc(&l->m->arena, (src->n_ops + 1) * sizeof(uint32_t));
  if (src->n_ops) /* ops may be NULL then, and memcpy from NULL is undefined */
    memcpy(ops, src->ops, src->n_ops * sizeof(uint32_t));
  if (src->opcode == SpvOpSwitch) {
    map_switch(l, src, ops);
    return ops;
  }
  remap r = {l, src, ops};
  k2s_foreach_id_operand(&lib_view, (k2s_instr *)src, remap_cb, &r);
  return ops;
}

static bool feature_ok(k2s_linker *l, const k2s_instr *t)
{
  uint32_t missing = l->o ? l->o->missing_features : 0;
  const char *what = NULL;
  if (t->opcode == SpvOpTypeInt && t->ops[0] == 64 && (missing & K2S_FEATURE_INT64))
    what = "64-bit integers (--no-int64)";
  if (t->opcode == SpvOpTypeFloat && t->ops[0] == 64 && (missing & K2S_FEATURE_FLOAT64))
    what = "64-bit floats (--no-fp64)";
  if (!what)
    return true;
  if (!l->failed)
    k2s_error(l->m, l->at,
              "the precise implementation of this builtin (%s) needs %s, which the target "
              "lacks (use --math=native to accept Vulkan's precision instead)",
              l->root, what);
  l->failed = true;
  return false;
}

static uint32_t import_global(k2s_linker *l, const k2s_instr *d)
{
  k2s_module *m = l->m;
  switch (d->opcode) {
  case SpvOpExtInstImport: {
    const char *name = k2s_string_operand(d, 0);
    return name ? k2s_ext_import(m, name) : 0;
  }
  case SpvOpTypeVoid:
  case SpvOpTypeBool:
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
  case SpvOpTypeVector:
  case SpvOpTypePointer:
  case SpvOpTypeFunction:
  case SpvOpTypeArray:
    if (!feature_ok(l, d))
      return 0;
    if (d->opcode == SpvOpTypeInt && d->ops[0] == 64)
      k2s_add_capability(m, SpvCapabilityInt64);
    return k2s_intern(m, d->opcode, 0, mapped_ops(l, d), d->n_ops);
  case SpvOpConstant:
  case SpvOpConstantTrue:
  case SpvOpConstantFalse:
  case SpvOpConstantNull:
  case SpvOpConstantComposite:
  case SpvOpUndef: {
    uint32_t t = import_id(l, d->type);
    return t ? k2s_intern(m, d->opcode, t, mapped_ops(l, d), d->n_ops) : 0;
  }
  default:
    if (!l->failed)
      k2s_error(m, l->at,
                "internal error: the builtin library's %s uses %s, which the linker does not "
                "copy (please report this)",
                l->root, k2s_opcode_name(d->opcode));
    l->failed = true;
    return 0;
  }
}

static uint32_t import_id(k2s_linker *l, uint32_t id)
{
  if (id >= k2s_clc_bound)
    return 0;
  if (l->map[id])
    return l->map[id];
  uint32_t at = k2s_clc_def_offset[id];
  if (!at)
    return 0;
  k2s_instr d = lib_instr(at);
  uint32_t nid;
  if (d.opcode == SpvOpFunction) {
    const k2s_clc_function *f = lib_function_of_id(id);
    nid = f ? link_function(l, f) : 0;
  } else {
    nid = import_global(l, &d);
  }
  l->map[id] = nid;
  return nid;
}

static bool contractible(uint16_t op)
{
  return op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFMul || op == SpvOpFNegate;
}

static k2s_instr *copy_instr(k2s_linker *l, const k2s_instr *src)
{
  uint32_t type = src->type ? import_id(l, src->type) : 0;
  uint32_t *ops = mapped_ops(l, src);
  uint32_t result = src->result ? l->map[src->result] : 0;
  return k2s_instr_new(l->m, src->opcode, type, result, ops, src->n_ops);
}

static uint32_t next_instr(uint32_t at)
{
  return at + (k2s_clc_library[at] >> 16);
}

static uint32_t link_function(k2s_linker *l, const k2s_clc_function *f)
{
  k2s_module *m = l->m;
  if (!f->has_body) {
    if (!l->failed)
      k2s_error(m, l->at, "internal error: the builtin library declares %s without a body",
                f->name ? f->name : "a function");
    l->failed = true;
    return 0;
  }
  /* Fresh ids for everything the function defines first (parameters, labels,
   * values, in word order): phis and branches refer forward. The function's
   * own id goes in the map before its body is copied, so (not that the
   * library does it) recursion would terminate. */
  uint32_t fid = k2s_new_id(m);
  l->map[f->id] = fid;
  uint32_t body = next_instr(f->begin), end = f->end;
  for (uint32_t at = body; at < end; at = next_instr(at)) {
    k2s_instr i = lib_instr(at);
    if (i.result)
      l->map[i.result] = k2s_new_id(m);
  }

  k2s_function *nf = k2s_alloc(&m->arena, sizeof(*nf));
  k2s_instr def = lib_instr(f->begin);
  nf->def = copy_instr(l, &def);
  k2s_block *nb = NULL;
  for (uint32_t at = body; at < end; at = next_instr(at)) {
    k2s_instr i = lib_instr(at);
    if (i.opcode == SpvOpLabel) {
      nb = k2s_block_new(m, nf, l->map[i.result]);
      k2s_function_append_block(nf, nb);
      continue;
    }
    if (!nb) { /* the head: parameters (and debug lines, which are not copied) */
      if (i.opcode == SpvOpFunctionParameter)
        k2s_list_append(&nf->head, copy_instr(l, &i));
      continue;
    }
    if (i.opcode == SpvOpLine || i.opcode == SpvOpNoLine)
      continue;
    k2s_instr *c = copy_instr(l, &i);
    c->block = nb;
    k2s_list_append(&nb->body, c);
    if (contractible(c->opcode))
      k2s_decorate(m, c->result, SpvDecorationNoContraction, NULL, 0);
  }
  nf->end = k2s_instr_new(m, SpvOpFunctionEnd, 0, 0, NULL, 0);
  if (l->failed)
    return 0;
  k2s_module_append_function(m, nf);
  if (f->name)
    k2s_set_name(m, fid, f->name);
  return fid;
}

uint32_t k2s_link_function(k2s_linker *l, const char *name, const k2s_instr *at)
{
  if (!load(l))
    return 0;
  const k2s_clc_function *f = lib_function(name);
  if (!f) {
    k2s_error(l->m, at, "internal error: the builtin library has no function %s", name);
    return 0;
  }
  l->at = at;
  l->root = name;
  l->failed = false;
  uint32_t id = import_id(l, f->id);
  if (l->failed || !id) {
    /* A failed copy leaves nothing half-linked reachable: the map entries of
     * the failed function are cleared so no later request reuses them. */
    l->map[f->id] = 0;
    return 0;
  }
  return id;
}
