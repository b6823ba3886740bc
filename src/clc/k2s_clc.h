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

typedef struct k2s_linker k2s_linker;

/* A linker into m; parses the library on first use. Lives in m's arena;
 * k2s_linker_done() frees the parsed library. */
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
