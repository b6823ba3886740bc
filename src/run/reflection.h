/* The host's view of a translated module: what each kernel argument is bound to and which
 * specialisation and push constants the host must provide (docs/runtime-abi.md). Filled
 * either from embedded NonSemantic.ClspvReflection instructions or from `k2s --reflect`. */
#ifndef K2S_RUN_REFLECTION_H
#define K2S_RUN_REFLECTION_H

#include <k2s/k2s.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum refl_arg_kind {
    RA_STORAGE_BUFFER,
    RA_UNIFORM,
    RA_POD_STORAGE,
    RA_POD_UNIFORM,
    RA_POD_PUSH,
    RA_WORKGROUP,
    RA_POINTER_PUSH,    /* physical-storage-buffer address in the push constants */
    RA_POINTER_UNIFORM, /* physical-storage-buffer address in a UBO */
    RA_UNSUPPORTED,     /* what k2s-run cannot bind */
    RA_SAMPLED_IMAGE,   /* read_only image */
    RA_STORAGE_IMAGE,   /* write_only / read_write image */
    RA_SAMPLER,
    RA_UNIFORM_TEXEL,   /* read_only image1d_buffer_t */
    RA_STORAGE_TEXEL,   /* write_only / read_write image1d_buffer_t */
};

struct refl_arg {
    uint32_t ordinal;
    enum refl_arg_kind kind;
    uint32_t set, binding;
    uint32_t offset, size;      /* PODs and pointers */
    uint32_t spec_id, elem_size; /* workgroup (local) arguments */
    char *name;                 /* from ArgumentInfo, may be NULL */
    const char *what;           /* RA_UNSUPPORTED: what it is */
};

struct refl_range {
    bool present;
    uint32_t offset, size;
};

enum refl_push_kind {
    PC_GLOBAL_OFFSET,
    PC_ENQUEUED_LOCAL_SIZE,
    PC_GLOBAL_SIZE,
    PC_REGION_OFFSET,
    PC_NUM_WORKGROUPS,
    PC_REGION_GROUP_OFFSET,
    PC_COUNT
};

struct refl_kernel {
    char *name;
    uint32_t func;   /* OpFunction id (0 when from JSON: match the entry point by name) */
    uint32_t decl;   /* result id of the Kernel reflection instruction */
    bool has_num_args;
    uint32_t num_args;
    struct refl_arg *args;
    size_t nargs;
    bool has_reqd;
    uint32_t reqd[3];
    char *unsupported; /* first unsupported feature met (image info...), NULL if none */
    bool has_push;     /* push[] below overrides the module's (JSON gives them per kernel) */
    struct refl_range push[PC_COUNT];
    uint32_t push_size; /* declared push-constant block size, 0 if unknown */
    /* 32-bit push constants the host writes about an image argument (its CL_* channel
     * order or data type) or a sampler argument (its sampler_t bits: the sampler is
     * then created normalized and the shader normalizes the coordinates itself). */
    struct refl_image_info {
        uint32_t ordinal, offset;
        enum refl_info_kind { RI_CHANNEL_ORDER, RI_CHANNEL_DATA_TYPE, RI_SAMPLER_MASK } what;
    } *image_info;
    size_t nimage_info;
};

/* Module-scope buffers the host must create and bind (constant data, program-scope
 * variables, printf buffer), or whose address it must push. */
enum refl_data_kind { RD_STORAGE, RD_UNIFORM, RD_POINTER_PUSH };

struct refl_data {
    enum refl_data_kind kind;
    uint32_t set, binding;   /* RD_STORAGE, RD_UNIFORM */
    uint32_t offset, size;   /* RD_POINTER_PUSH: where the address goes */
    unsigned char *bytes;
    size_t nbytes;
    uint32_t nbytes_u32;     /* the printf buffer's size as the reflection gives it */
    bool program_scope;      /* relocations apply to this buffer */
};

struct refl_reloc {
    uint32_t object_offset, pointer_offset, pointer_size;
};

struct refl_module {
    struct refl_kernel *kernels;
    size_t nkernels;
    bool has_wg_spec;
    uint32_t wg_spec[3];
    bool has_offset_spec;
    uint32_t offset_spec[3];
    bool has_work_dim_spec;
    uint32_t work_dim_spec;
    bool has_subgroup_spec;
    uint32_t subgroup_spec;
    struct refl_range push[PC_COUNT];
    struct refl_data *data;
    size_t ndata;
    struct refl_reloc *relocs;
    size_t nrelocs;
    char *unsupported; /* module-level unsupported feature */
    struct refl_literal_sampler {
        uint32_t set, binding, mask;
    } *samplers;
    size_t nsamplers;
    /* printf: the formats and string arguments (PrintfInfo), and which data[] entry is
     * the printf buffer (-1: none), read back and printed after the dispatch. */
    struct refl_printf {
        uint32_t id;
        char *format;
        uint32_t *arg_sizes;
        size_t nargs;
    } *printfs;
    size_t nprintfs;
    long printf_data;
};

/* From the module's embedded reflection (k2s_reflection_read), count words. */
bool refl_from_spirv(const uint32_t *words, size_t count, struct refl_module *r, bool verbose);
bool refl_from_json(const char *path, struct refl_module *r);
void refl_free(struct refl_module *r);

const char *refl_kind_name(enum refl_arg_kind k);
const char *refl_push_name(enum refl_push_kind k);
const struct refl_arg *refl_find_arg(const struct refl_kernel *k, uint32_t ordinal);
/* The push constants that apply to kernel k. */
const struct refl_range *refl_push(const struct refl_module *r, const struct refl_kernel *k);

/* Helpers shared by both readers. */
bool refl_add_arg(struct refl_kernel *k, const struct refl_arg *arg);
bool refl_add_kernel(struct refl_module *r, struct refl_kernel **out);
bool refl_add_data(struct refl_module *r, const struct refl_data *d);
bool refl_add_printf_buffer(struct refl_module *r, struct refl_data *d);
bool refl_add_printf(struct refl_module *r, uint32_t id, const char *format,
                     const uint32_t *sizes, size_t n);
/* Fills d->bytes/d->nbytes from a hex string (two digits per byte). */
bool refl_decode_hex(const char *hex, struct refl_data *d);

#endif
