/* A tiny, self-contained SPIR-V word walker: just enough to read the module facts a host
 * needs (capabilities, extensions, entry points, execution modes) and the embedded
 * NonSemantic.ClspvReflection instructions. Deliberately independent of the translator. */
#ifndef K2S_RUN_SPIRV_WORDS_H
#define K2S_RUN_SPIRV_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spv_module {
    uint32_t *words; /* host byte order */
    size_t count;
    uint32_t version; /* 0x00MMmm00 */
    uint32_t bound;
};

struct spv_inst {
    uint32_t opcode;
    uint32_t count; /* words, including the header word */
    const uint32_t *w; /* w[0] is the header word */
};

/* Copies `bytes` into host order and checks the header and every instruction length, so
 * that later walks need no bounds checks beyond operand counts. */
bool spv_load(const unsigned char *bytes, size_t size, struct spv_module *m);
void spv_free(struct spv_module *m);

/* Iteration: size_t pos = SPV_FIRST_INST; while (spv_next(m, &pos, &inst)) ... */
#define SPV_FIRST_INST 5
bool spv_next(const struct spv_module *m, size_t *pos, struct spv_inst *inst);

/* Decodes the literal string starting at word `first`; returns a malloc'd copy, or NULL
 * when it runs past the instruction. *next receives the word after it. */
char *spv_string(const struct spv_inst *inst, uint32_t first, uint32_t *next);

struct spv_entry {
    char *name;
    uint32_t func;
    uint32_t model;
    uint32_t *interface; /* OpEntryPoint interface ids (all used globals from SPIR-V 1.4) */
    size_t ninterface;
    bool has_local_size;
    bool local_size_is_id; /* LocalSizeId: the three values are ids, not literals */
    uint32_t local_size[3];
};

/* A descriptor-bound variable (buffer, image, sampler) the shader declares. */
struct spv_resource {
    uint32_t var;
    uint32_t set, binding;
    uint32_t storage_class;
    bool buffer_block; /* Uniform + BufferBlock: an old-style storage buffer */
    /* Block { T a[] } or { T a[N] }: the ArrayStride of member 0's array, 0 when the
     * variable is not such a block or the stride is not decorated. */
    uint32_t array_stride;
    /* T is a 32-bit integer or a vector of them: k2s also declares buffers it views as
     * 32-bit words that way, so the stride need not be the OpenCL element size. */
    bool int32_elements;
    /* An image variable: its Sampled Type, 1 integer, 2 float; 0 for anything else. */
    unsigned image_sampled;
    uint32_t image_format; /* an image variable: its SPIR-V Image Format (0: Unknown) */
};

struct spv_float_mode {
    uint32_t func, mode, width;
};

/* Module facts a host needs to pick device features and the entry point. */
struct spv_info {
    uint32_t *caps;
    size_t ncaps;
    char **exts;
    size_t nexts;
    struct spv_entry *entries;
    size_t nentries;
    struct spv_resource *resources;
    size_t nresources;
    struct spv_float_mode *float_modes;
    size_t nfloat_modes;
    bool workgroup_initializer; /* a Workgroup variable with an initializer */
    /* Float atomics (OpAtomicFAddEXT, OpAtomicF{Min,Max}EXT) by kind, width and memory: bit
     * SPV_FLOAT_ATOMIC_BIT(min_max, width index 0/1/2 for 16/32/64, shared) — the facts of
     * the reflection's "device_features", which the capability alone does not give. */
    uint32_t float_atomics;
    bool uses_nonsemantic;      /* any NonSemantic.* import */
    char *foreign_import;       /* first import Vulkan does not know (OpenCL.std...) */
};

#define SPV_FLOAT_ATOMIC_BIT(min_max, width_index, shared)                                       \
    (1u << (6 * (min_max) + 2 * (width_index) + (shared)))

bool spv_scan(const struct spv_module *m, struct spv_info *info);
/* Whether entry `e` may use global variable `var`: exact from SPIR-V 1.4 (the interface
 * lists every global); before, assumed with a single entry point, else whether the entry's
 * static call tree names the variable. */
bool spv_entry_may_use(const struct spv_module *m, const struct spv_info *info,
                       const struct spv_entry *e, uint32_t var);
void spv_info_free(struct spv_info *info);
bool spv_has_cap(const struct spv_info *info, uint32_t cap);
bool spv_has_ext(const struct spv_info *info, const char *name);
const struct spv_entry *spv_find_entry(const struct spv_info *info, uint32_t func);

/* Returns a copy of the module without NonSemantic.* imports, their OpExtInst and the
 * SPV_KHR_non_semantic_info extension, for drivers without VK_KHR_shader_non_semantic_info. */
bool spv_strip_nonsemantic(const struct spv_module *m, uint32_t **words, size_t *count);

#endif
