/*
 * cleanup's shared state: the pass is split by concern over passes/cleanup*.c
 * (value numbering, folding, dead code and the entry in cleanup.c, block merging
 * in cleanup_blocks.c, memory forwarding in cleanup_memory.c, composite parts in
 * cleanup_composite.c); this header is
 * theirs alone. Functions shared between the files carry the prefix k2s_cl_.
 */
#ifndef K2S_CLEANUP_H
#define K2S_CLEANUP_H

#include "k2s_internal.h"

/* Deletes i, the names and decorations of its result with it. */
void k2s_cl_drop(k2s_module *m, k2s_instr *i);
/* Every use of i's result becomes `by`; i goes (its names first: they would
 * otherwise move onto `by`). Returns true. */
bool k2s_cl_replace(k2s_module *m, k2s_instr *i, uint32_t by);

/* Blocks that only fall into a successor of which they are the one predecessor
 * are merged with it, where structured control flow allows (cleanup_blocks.c). */
bool k2s_cl_merge_blocks(k2s_module *m, k2s_arena *a, k2s_function *f);

/* The part an OpCompositeExtract reads when its composite's parts are known
 * (cleanup_composite.c), or 0; it may rewrite i to read from an earlier
 * composite (an insert's or a shuffle's source), setting *rewritten. */
uint32_t k2s_cl_extract(k2s_module *m, k2s_instr *i, bool *rewritten);
bool k2s_cl_insert_chain(k2s_module *m, k2s_instr *i);

/* Block-local memory forwarding (cleanup_memory.c): what a load reads when an
 * earlier load or store of its block says so and nothing between may have
 * written the memory. One per pass; k2s_cl_mem_block starts a block. */
typedef struct k2s_cl_mem k2s_cl_mem;
k2s_cl_mem *k2s_cl_mem_new(k2s_module *m, k2s_arena *pass_arena);
void k2s_cl_mem_block(k2s_cl_mem *mem);
/* A load of the block, in order: the value it reads when known (0 otherwise, and
 * the load is remembered). */
uint32_t k2s_cl_mem_load(k2s_cl_mem *mem, k2s_instr *i);
/* An instruction of the block that may write memory: a store remembers its value
 * and forgets what it may overwrite; anything else forgets everything. */
void k2s_cl_mem_write(k2s_cl_mem *mem, k2s_instr *i);

#endif
