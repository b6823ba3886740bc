/*
 * The embedded builtin library (the OpenCL C sources in src/clc/, compiled to Kernel SPIR-V at
 * build time) and the linker that copies its functions into a module
 * (src/link.c). Used by passes/lower_math.c.
 */
#ifndef K2S_CLC_H
#define K2S_CLC_H

#include "k2s_internal.h"

extern const uint32_t k2s_clc_library[];
extern const size_t k2s_clc_library_words;

/* The library's index, made with it at build time (src/clc/embed.py), so that
 * the linker reads only the instructions of the functions it copies. */
typedef struct k2s_clc_function {
  const char *name;    /* its OpName, NULL when none */
  uint32_t id;         /* result id of its OpFunction */
  uint32_t begin, end; /* word offsets of its OpFunction and its OpFunctionEnd */
  bool has_body;       /* false for a declaration */
} k2s_clc_function;
extern const uint32_t k2s_clc_bound;
extern const uint32_t k2s_clc_def_offset[];        /* id -> word offset of its module-level
                                                      definition (OpFunction too); 0: none */
extern const k2s_clc_function k2s_clc_functions[]; /* sorted by id */
extern const uint32_t k2s_clc_n_functions;
extern const uint16_t k2s_clc_functions_by_name[]; /* indexes of functions with a body and a
                                                      name, sorted by name (strcmp); the
                                                      first of equal names only */
extern const uint32_t k2s_clc_n_named;
extern const uint32_t k2s_clc_imports[]; /* word offsets of the OpExtInstImports */
extern const uint32_t k2s_clc_n_imports;

typedef struct k2s_linker k2s_linker;

/* A linker into m. Lives in m's arena; k2s_linker_done() ends its use. */
k2s_linker *k2s_linker_new(k2s_module *m, const k2s_options *o);
void k2s_linker_done(k2s_linker *l);

/* Whether the library defines a function of that name. */
bool k2s_linker_has(k2s_linker *l, const char *name);

/* The id in m of library function `name`, copied in (with its callees, types
 * and constants, interned) on first request and reused afterwards. Returns 0
 * after reporting an error at `at` (no such function, or it needs a feature
 * the target lacks). */
uint32_t k2s_link_function(k2s_linker *l, const char *name, const k2s_instr *at);

#endif
