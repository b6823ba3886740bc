/*
 * The embedded builtin library's build-time index (src/clc/embed.py) against a
 * full, checking parse of the same words, and the linker (src/link.c) that
 * copies functions out of it without parsing the library.
 */
#include "clc/k2s_clc.h"
#include "unit.h"

static k2s_module *parse_library(void)
{
  k2s_parse_error err;
  k2s_module *lib = k2s_parse(k2s_clc_library, k2s_clc_library_words, &err);
  if (!lib)
    fprintf(stderr, "the library does not parse: word %lld: %s\n", (long long)err.word_offset,
            err.message);
  REQUIRE(lib);
  return lib;
}

static void library_is_valid_input(void)
{
  /* The parse above checks every operand; the library is also valid SPIR-V. */
  k2s_module *lib = parse_library();
  CHECK(lib->bound == k2s_clc_bound);
  k2s_module_free(lib);
}

static void index_matches_parse(void)
{
  k2s_module *lib = parse_library();
  uint32_t n_defs = 0, n_index = 0;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &lib->sec[s]) {
      if (!i->result)
        continue;
      n_defs++;
      CHECK_EQ(k2s_clc_def_offset[i->result], i->offset);
    }
  uint32_t n_funcs = 0;
  k2s_foreach_function(f, lib) {
    n_funcs++;
    n_defs++;
    uint32_t id = f->def->result;
    CHECK_EQ(k2s_clc_def_offset[id], f->def->offset);
    const k2s_clc_function *e = NULL;
    for (uint32_t k = 0; k < k2s_clc_n_functions; k++)
      if (k2s_clc_functions[k].id == id)
        e = &k2s_clc_functions[k];
    CHECK(e);
    if (!e)
      continue;
    CHECK_EQ(e->begin, f->def->offset);
    CHECK_EQ(e->end, f->end->offset);
    CHECK(e->has_body == (f->first != NULL));
    const char *name = k2s_name_of(lib, id);
    CHECK((name == NULL) == (e->name == NULL));
    if (name && e->name)
      CHECK(strcmp(name, e->name) == 0);
  }
  for (uint32_t id = 0; id < k2s_clc_bound; id++)
    n_index += k2s_clc_def_offset[id] != 0;
  CHECK_EQ(n_index, n_defs); /* nothing else is indexed */
  CHECK_EQ(k2s_clc_n_functions, n_funcs);
  for (uint32_t k = 1; k < k2s_clc_n_functions; k++)
    CHECK(k2s_clc_functions[k - 1].id < k2s_clc_functions[k].id);

  /* By name: every named function with a body, the first of its name. */
  uint32_t n_named = 0;
  k2s_foreach_function(f, lib) {
    const char *name = k2s_name_of(lib, f->def->result);
    if (!name || !f->first)
      continue;
    bool first = true;
    k2s_foreach_function(g, lib) {
      if (g == f)
        break;
      const char *gn = k2s_name_of(lib, g->def->result);
      if (gn && g->first && strcmp(gn, name) == 0)
        first = false;
    }
    if (!first)
      continue;
    n_named++;
    bool found = false;
    for (uint32_t k = 0; k < k2s_clc_n_named; k++) {
      const k2s_clc_function *e = &k2s_clc_functions[k2s_clc_functions_by_name[k]];
      if (strcmp(e->name, name) == 0) {
        CHECK_EQ(e->id, f->def->result);
        found = true;
      }
    }
    CHECK(found);
  }
  CHECK_EQ(k2s_clc_n_named, n_named);
  for (uint32_t k = 1; k < k2s_clc_n_named; k++)
    CHECK(strcmp(k2s_clc_functions[k2s_clc_functions_by_name[k - 1]].name,
                 k2s_clc_functions[k2s_clc_functions_by_name[k]].name) < 0);

  uint32_t n_imports = 0;
  k2s_foreach_instr(i, &lib->sec[K2S_SEC_EXT_IMPORT]) {
    CHECK(n_imports < k2s_clc_n_imports && k2s_clc_imports[n_imports] == i->offset);
    n_imports++;
  }
  CHECK_EQ(k2s_clc_n_imports, n_imports);
  k2s_module_free(lib);
}

static uint32_t count_code(const k2s_function *f)
{
  uint32_t n = 0;
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      n += i->opcode != SpvOpLine && i->opcode != SpvOpNoLine;
  return n;
}

static k2s_function *function_named(k2s_module *m, const char *name)
{
  k2s_foreach_function(f, m) {
    const char *n = k2s_name_of(m, f->def->result);
    if (n && strcmp(n, name) == 0)
      return f;
  }
  return NULL;
}

typedef struct defined_check {
  k2s_module *m;
  bool ok;
} defined_check;

static void expect_defined(void *ud, k2s_instr *in, uint32_t *id)
{
  defined_check *c = ud;
  (void)in;
  if (*id >= c->m->bound || !k2s_def(c->m, *id))
    c->ok = false;
}

/* sin uses OpSwitch (its quadrant), whose literal width the linker reads from
 * the copied selector. */
static void link_copies_the_called_function(void)
{
  k2s_module *lib = parse_library();
  k2s_module *m = unit_module(unit_kernel_text);
  uint32_t funcs_before = 0;
  k2s_foreach_function(f, m)
    funcs_before++;
  k2s_linker *l = k2s_linker_new(m, NULL);
  CHECK(k2s_linker_has(l, "__k2s_sin_f32"));
  CHECK(!k2s_linker_has(l, "__k2s_no_such_function"));
  uint32_t id = k2s_link_function(l, "__k2s_sin_f32", NULL);
  CHECK(id != 0);
  CHECK(!m->failed);
  CHECK_EQ(k2s_link_function(l, "__k2s_sin_f32", NULL), id); /* copied once */
  k2s_function *copy = k2s_function_of_id(m, id);
  k2s_function *orig = function_named(lib, "__k2s_sin_f32");
  REQUIRE(copy && orig);
  CHECK_EQ(count_code(copy), count_code(orig));
  uint32_t switches = 0;
  k2s_foreach_block(b, copy)
    k2s_foreach_instr(i, &b->body)
      switches += i->opcode == SpvOpSwitch;
  CHECK(switches > 0);
  /* Only sin and what it calls came in, not the library's other functions. */
  uint32_t funcs_after = 0;
  k2s_foreach_function(f, m)
    funcs_after++;
  CHECK(funcs_after > funcs_before && funcs_after - funcs_before < k2s_clc_n_functions / 4);
  /* Every id the copy refers to is defined in m (labels, switch targets,
   * callees, types, constants), and it has the original's instructions in
   * order with the same operand counts. */
  defined_check dc = {m, true};
  k2s_foreach_block(b, copy)
    k2s_foreach_instr(i, &b->body)
      k2s_foreach_id_operand(m, i, expect_defined, &dc);
  CHECK(dc.ok);
  k2s_block *ob = orig->first;
  for (k2s_block *cb = copy->first; cb && ob; cb = cb->next, ob = ob->next) {
    k2s_instr *oi = ob->body.first;
    for (k2s_instr *ci = cb->body.first; ci && oi; ci = ci->next, oi = oi->next) {
      CHECK_EQ(ci->opcode, oi->opcode);
      CHECK_EQ(ci->n_ops, oi->n_ops);
      if (ci->opcode == SpvOpSwitch) /* literals copied, not mapped as ids */
        for (uint32_t w = 2; w < ci->n_ops; w += 2)
          CHECK_EQ(ci->ops[w], oi->ops[w]);
    }
  }
  CHECK_EQ(k2s_link_function(l, "__k2s_no_such_function", NULL), 0);
  CHECK(m->failed);
  k2s_linker_done(l);
  k2s_module_free(m);
  k2s_module_free(lib);
}

UNIT_MAIN(T(library_is_valid_input), T(index_matches_parse), T(link_copies_the_called_function))
