/* How much Workgroup (shared) memory an entry point of a translated module uses once its
 * specialization constants are set: the kernel's own local arrays, its local arguments and
 * the scratch k2s adds for work-group functions (docs/runtime-abi.md, "Workgroup memory").
 * The host checks the sum against maxComputeSharedMemorySize before creating a pipeline. */
#ifndef K2S_RUN_WORKGROUP_MEM_H
#define K2S_RUN_WORKGROUP_MEM_H

#include "spirv_words.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spec_value {
    uint32_t id, value;
};

struct workgroup_bytes {
    uint64_t total;
    uint64_t scratch; /* the part in k2s's scratch arrays (OpName k2s_group_scratch) */
    bool unknown;     /* a variable whose size this host cannot compute (not counted) */
};

/* The Workgroup variables entry `e` may use, sized with the given specialization constants
 * (the others keep their defaults). Types are sized naturally (Workgroup memory has no
 * explicit layout): scalars by width, vectors and arrays by count, structs with their
 * members aligned. */
bool spv_workgroup_bytes(const struct spv_module *m, const struct spv_info *info,
                         const struct spv_entry *e, const struct spec_value *specs, size_t nspecs,
                         struct workgroup_bytes *out);

#endif
