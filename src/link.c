/* Linking functions of the embedded builtin library into a module.
 *
 * The library (src/clc/, Kernel SPIR-V built at build time) is parsed once
 * per process, on first use (pthread_once), together with a table of its
 * functions by name; after that it is only read, so any number of
 * translations, in any threads, share it. A requested function is copied
 * into the target module with fresh ids; what it refers to is imported on
 * demand: types and constants are interned (find-or-create, so nothing is
 * duplicated), the OpenCL.std import is shared, and callees are linked the
 * same way. Each library function is copied at most once per module. Float
 * arithmetic in copied code is decorated NoContraction: the library's
 * float-float algorithms (Dekker's TwoProduct, TwoSum) are exact only if no
 * driver fuses a*b+c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clc/k2s_clc.h"

typedef struct lib_entry {
  const char *name;
  k2s_function *f;
  uint32_t order; /* in the library's function list: the first of equal names wins */
} lib_entry;

/* The parsed library, shared read-only by every linker of the process. */
static struct {
  k2s_module *lib;
  k2s_parse_error err;
  lib_entry *by_name; /* defined functions, sorted by name */
  uint32_t n;
  const char **name_of; /* function id -> its name, NULL when none */
} clc;
static pthread_once_t clc_once = PTHREAD_ONCE_INIT;

static int cmp_entry(const void *a, const void *b)
{
  const lib_entry *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int cmp_name(const void *key, const void *b)
{
  return strcmp(key, ((const lib_entry *)b)->name);
}

/* Parses the library and builds everything later lookups need, so that no
 * lookup fills a cache of the shared module (k2s_name_of, k2s_function_of_id
 * do on first use). */
static void clc_init(void)
{
  /* Release builds trust the library k2s's build made (two thirds of its parse
   * is per-operand checking); debug builds, CI's, check it like any input. */
#ifdef NDEBUG
  k2s_module *lib = k2s_parse_trusted(k2s_clc_library, k2s_clc_library_words, &clc.err);
#else
  k2s_module *lib = k2s_parse(k2s_clc_library, k2s_clc_library_words, &clc.err);
#endif
  if (!lib)
    return;
  uint32_t n = 0;
  k2s_foreach_function(f, lib)
    n++;
  lib_entry *e = calloc(n + 1, sizeof(*e));
  const char **name_of = calloc(lib->bound + 1, sizeof(*name_of));
  if (!e || !name_of) {
    free(e);
    free(name_of);
    k2s_module_free(lib);
    snprintf(clc.err.message, sizeof(clc.err.message), "out of memory");
    return;
  }
  n = 0;
  k2s_foreach_function(f, lib) {
    uint32_t id = f->def->result;
    (void)k2s_function_of_id(lib, id); /* fills the id -> function cache */
    const char *name = k2s_name_of(lib, id);
    if (id <= lib->bound)
      name_of[id] = name;
    if (name && f->first) {
      e[n] = (lib_entry){name, f, n};
      n++;
    }
  }
  qsort(e, n, sizeof(*e), cmp_entry);
  clc.by_name = e;
  clc.n = n;
  clc.name_of = name_of;
  clc.lib = lib;
}

struct k2s_linker {
  k2s_module *m;
  const k2s_options *o;
  k2s_module *lib; /* the shared library, NULL until first use */
  bool lib_failed;
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
    l->lib = NULL; /* the library stays for the process */
}

static bool load(k2s_linker *l)
{
  if (l->lib)
    return true;
  if (l->lib_failed)
    return false;
  pthread_once(&clc_once, clc_init);
  l->lib = clc.lib;
  if (!l->lib) {
    l->lib_failed = true;
    k2s_error(l->m, NULL,
              "internal error: the embedded builtin library does not parse (word %lld: %s)",
              (long long)clc.err.word_offset, clc.err.message);
    return false;
  }
  l->map = k2s_alloc(&l->m->arena, l->lib->bound * sizeof(uint32_t));
  return true;
}

static const char *lib_name(k2s_linker *l, uint32_t id)
{
  return id <= l->lib->bound ? clc.name_of[id] : NULL;
}

static k2s_function *lib_function(k2s_linker *l, const char *name)
{
  (void)l;
  lib_entry *e = bsearch(name, clc.by_name, clc.n, sizeof(*e), cmp_name);
  if (!e)
    return NULL;
  while (e > clc.by_name && strcmp(e[-1].name, name) == 0)
    e--; /* the first of equal names in function order, as a walk would find */
  return e->f;
}

bool k2s_linker_has(k2s_linker *l, const char *name)
{
  return load(l) && lib_function(l, name);
}

static uint32_t import_id(k2s_linker *l, uint32_t id);
static uint32_t link_function(k2s_linker *l, k2s_function *f);

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

/* src's operands with every <id> translated into m. */
static uint32_t *mapped_ops(k2s_linker *l, const k2s_instr *src)
{
  uint32_t *ops = k2s_alloc(&l->m->arena, (src->n_ops + 1) * sizeof(uint32_t));
  if (src->n_ops) /* ops may be NULL then, and memcpy from NULL is undefined */
    memcpy(ops, src->ops, src->n_ops * sizeof(uint32_t));
  remap r = {l, src, ops};
  k2s_foreach_id_operand(l->lib, (k2s_instr *)src, remap_cb, &r);
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
  if (id >= l->lib->bound)
    return 0;
  if (l->map[id])
    return l->map[id];
  k2s_instr *d = k2s_def(l->lib, id);
  if (!d)
    return 0;
  uint32_t nid;
  if (d->opcode == SpvOpFunction) {
    k2s_function *f = k2s_function_of_id(l->lib, id);
    nid = f ? link_function(l, f) : 0;
  } else {
    nid = import_global(l, d);
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

static uint32_t link_function(k2s_linker *l, k2s_function *f)
{
  k2s_module *m = l->m;
  if (!f->first) {
    if (!l->failed)
      k2s_error(m, l->at, "internal error: the builtin library declares %s without a body",
                lib_name(l, f->def->result));
    l->failed = true;
    return 0;
  }
  /* Fresh ids for everything the function defines first: phis and branches
   * refer forward. The function's own id goes in the map before its body is
   * copied, so (not that the library does it) recursion would terminate. */
  uint32_t fid = k2s_new_id(m);
  l->map[f->def->result] = fid;
  k2s_foreach_instr(p, &f->head)
    if (p->result)
      l->map[p->result] = k2s_new_id(m);
  k2s_foreach_block(b, f) {
    l->map[b->label->result] = k2s_new_id(m);
    k2s_foreach_instr(i, &b->body)
      if (i->result)
        l->map[i->result] = k2s_new_id(m);
  }

  k2s_function *nf = k2s_alloc(&m->arena, sizeof(*nf));
  nf->def = copy_instr(l, f->def);
  k2s_foreach_instr(p, &f->head)
    if (p->opcode == SpvOpFunctionParameter)
      k2s_list_append(&nf->head, copy_instr(l, p));
  k2s_foreach_block(b, f) {
    k2s_block *nb = k2s_block_new(m, nf, l->map[b->label->result]);
    k2s_function_append_block(nf, nb);
    k2s_foreach_instr(i, &b->body) {
      if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
        continue;
      k2s_instr *c = copy_instr(l, i);
      c->block = nb;
      k2s_list_append(&nb->body, c);
      if (contractible(c->opcode))
        k2s_decorate(m, c->result, SpvDecorationNoContraction, NULL, 0);
    }
  }
  nf->end = k2s_instr_new(m, SpvOpFunctionEnd, 0, 0, NULL, 0);
  if (l->failed)
    return 0;
  k2s_module_append_function(m, nf);
  const char *name = lib_name(l, f->def->result);
  if (name)
    k2s_set_name(m, fid, name);
  return fid;
}

uint32_t k2s_link_function(k2s_linker *l, const char *name, const k2s_instr *at)
{
  if (!load(l))
    return 0;
  k2s_function *f = lib_function(l, name);
  if (!f) {
    k2s_error(l->m, at, "internal error: the builtin library has no function %s", name);
    return 0;
  }
  l->at = at;
  l->root = name;
  l->failed = false;
  uint32_t id = import_id(l, f->def->result);
  if (l->failed || !id) {
    /* A failed copy leaves nothing half-linked reachable: the map entries of
     * the failed function are cleared so no later request reuses them. */
    l->map[f->def->result] = 0;
    return 0;
  }
  return id;
}
