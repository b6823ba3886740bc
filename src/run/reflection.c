/* Reads the embedded NonSemantic.ClspvReflection instructions of a module. */
#include "reflection.h"

#include "argspec.h"

#include <spirv/unified1/NonSemanticClspvReflection.h>
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* Revision 7's NormalizedSamplerMaskPushConstant(Kernel, Ordinal, Offset, Size): the
 * installed header (revision 5) predates it. */
enum { REFL_NORMALIZED_SAMPLER_MASK_PUSH_CONSTANT = 41 };

/* Ids index plain arrays; a larger bound is either hostile or absurd for a kernel module. */
#define MAX_BOUND (1u << 22)

struct reader {
    const struct spv_module *m;
    struct refl_module *r;
    bool verbose;
    char **strings;      /* OpString by id */
    uint32_t *consts;    /* OpConstant value by id */
    unsigned char *is_const;
    unsigned char *is_set; /* id is a ClspvReflection import */
    const char **arg_names; /* ArgumentInfo result id -> name (borrowed from strings) */
    struct spv_inst *insts; /* the reflection OpExtInst instructions, module order */
    size_t ninsts;
};

/* ---- generic model helpers ------------------------------------------------------------- */

const char *refl_kind_name(enum refl_arg_kind k)
{
    static const char *const names[] = {
        [RA_STORAGE_BUFFER] = "storage buffer", [RA_UNIFORM] = "uniform buffer",
        [RA_POD_STORAGE] = "POD (storage buffer)", [RA_POD_UNIFORM] = "POD (uniform buffer)",
        [RA_POD_PUSH] = "POD (push constant)", [RA_WORKGROUP] = "local memory",
        [RA_POINTER_PUSH] = "pointer (push constant)",
        [RA_POINTER_UNIFORM] = "pointer (uniform buffer)", [RA_UNSUPPORTED] = "unsupported",
        [RA_SAMPLED_IMAGE] = "read-only image", [RA_STORAGE_IMAGE] = "writable image",
        [RA_SAMPLER] = "sampler", [RA_UNIFORM_TEXEL] = "read-only image1d_buffer",
        [RA_STORAGE_TEXEL] = "writable image1d_buffer",
    };
    return names[k];
}

const char *refl_push_name(enum refl_push_kind k)
{
    static const char *const names[] = {
        [PC_GLOBAL_OFFSET] = "global_offset",     [PC_ENQUEUED_LOCAL_SIZE] = "enqueued_local_size",
        [PC_GLOBAL_SIZE] = "global_size",         [PC_REGION_OFFSET] = "region_offset",
        [PC_NUM_WORKGROUPS] = "num_workgroups",   [PC_REGION_GROUP_OFFSET] = "region_group_offset",
    };
    return names[k];
}

const struct refl_arg *refl_find_arg(const struct refl_kernel *k, uint32_t ordinal)
{
    for (size_t i = 0; i < k->nargs; i++)
        if (k->args[i].ordinal == ordinal)
            return &k->args[i];
    return NULL;
}

const struct refl_range *refl_push(const struct refl_module *r, const struct refl_kernel *k)
{
    return k->has_push ? k->push : r->push;
}

bool refl_add_arg(struct refl_kernel *k, const struct refl_arg *arg)
{
    if (refl_find_arg(k, arg->ordinal)) {
        k2s_error("reflection: kernel '%s' describes argument %u twice", k->name, arg->ordinal);
        return false;
    }
    struct refl_arg *grown = realloc(k->args, (k->nargs + 1) * sizeof *grown);
    if (!grown) {
        k2s_error("out of memory");
        return false;
    }
    grown[k->nargs++] = *arg;
    k->args = grown;
    return true;
}

bool refl_add_kernel(struct refl_module *r, struct refl_kernel **out)
{
    struct refl_kernel *grown = realloc(r->kernels, (r->nkernels + 1) * sizeof *grown);
    if (!grown) {
        k2s_error("out of memory");
        return false;
    }
    r->kernels = grown;
    *out = &grown[r->nkernels++];
    memset(*out, 0, sizeof **out);
    return true;
}

bool refl_add_data(struct refl_module *r, const struct refl_data *d)
{
    struct refl_data *grown = realloc(r->data, (r->ndata + 1) * sizeof *grown);
    if (!grown) {
        k2s_error("out of memory");
        return false;
    }
    grown[r->ndata++] = *d;
    r->data = grown;
    return true;
}

void refl_free(struct refl_module *r)
{
    for (size_t i = 0; i < r->nkernels; i++) {
        struct refl_kernel *k = &r->kernels[i];
        for (size_t j = 0; j < k->nargs; j++)
            free(k->args[j].name);
        free(k->args);
        free(k->name);
        free(k->unsupported);
        free(k->image_info);
    }
    for (size_t i = 0; i < r->ndata; i++)
        free(r->data[i].bytes);
    free(r->kernels);
    free(r->data);
    free(r->relocs);
    free(r->unsupported);
    free(r->samplers);
    for (size_t i = 0; i < r->nprintfs; i++) {
        free(r->printfs[i].format);
        free(r->printfs[i].arg_sizes);
    }
    free(r->printfs);
    memset(r, 0, sizeof *r);
    r->printf_data = -1;
}

/* ---- operand access --------------------------------------------------------------------- */

/* Operand i of a reflection OpExtInst lives at word 5 + i. */
static bool has_operand(const struct spv_inst *in, unsigned i) { return 5 + i < in->count; }

static bool operand_id(const struct reader *rd, const struct spv_inst *in, unsigned i,
                       uint32_t *id)
{
    if (!has_operand(in, i) || in->w[5 + i] >= rd->m->bound) {
        k2s_error("reflection instruction %u: operand %u missing or out of range", in->w[4], i);
        return false;
    }
    *id = in->w[5 + i];
    return true;
}

static bool operand_u32(const struct reader *rd, const struct spv_inst *in, unsigned i,
                        uint32_t *out)
{
    uint32_t id;
    if (!operand_id(rd, in, i, &id))
        return false;
    if (!rd->is_const[id]) {
        k2s_error("reflection instruction %u: operand %u (%%%u) is not an OpConstant",
                  in->w[4], i, id);
        return false;
    }
    *out = rd->consts[id];
    return true;
}

static const char *operand_str(const struct reader *rd, const struct spv_inst *in, unsigned i)
{
    uint32_t id;
    if (!operand_id(rd, in, i, &id))
        return NULL;
    if (!rd->strings[id]) {
        k2s_error("reflection instruction %u: operand %u (%%%u) is not an OpString", in->w[4],
                  i, id);
        return NULL;
    }
    return rd->strings[id];
}

/* Reads operands [first, first+n) as constants. */
static bool operand_u32s(const struct reader *rd, const struct spv_inst *in, unsigned first,
                         unsigned n, uint32_t *out)
{
    for (unsigned i = 0; i < n; i++)
        if (!operand_u32(rd, in, first + i, &out[i]))
            return false;
    return true;
}

static struct refl_kernel *kernel_by_decl(const struct reader *rd, const struct spv_inst *in)
{
    uint32_t decl;
    if (!operand_id(rd, in, 0, &decl))
        return NULL;
    for (size_t i = 0; i < rd->r->nkernels; i++)
        if (rd->r->kernels[i].decl == decl)
            return &rd->r->kernels[i];
    k2s_error("reflection instruction %u: %%%u is not a Kernel reflection instruction",
              in->w[4], decl);
    return NULL;
}

/* ---- first pass: ids --------------------------------------------------------------------- */

static bool note_import(struct reader *rd, const struct spv_inst *in)
{
    char *name = in->count >= 3 ? spv_string(in, 2, NULL) : NULL;
    if (!name)
        return false;
    /* Any revision: the grammar only ever grew, and unknown instructions are skipped. */
    if (strncmp(name, "NonSemantic.ClspvReflection.", 28) == 0 && in->w[1] < rd->m->bound)
        rd->is_set[in->w[1]] = 1;
    free(name);
    return true;
}

static bool note_ext_inst(struct reader *rd, const struct spv_inst *in)
{
    if (in->count < 5 || in->w[3] >= rd->m->bound || !rd->is_set[in->w[3]])
        return true;
    if (in->w[2] >= rd->m->bound)
        return false; /* result ids index the per-id tables */
    struct spv_inst *grown = realloc(rd->insts, (rd->ninsts + 1) * sizeof *grown);
    if (!grown)
        return false;
    grown[rd->ninsts++] = *in;
    rd->insts = grown;
    return true;
}

static bool note_ids(struct reader *rd, const struct spv_inst *in)
{
    switch (in->opcode) {
    case SpvOpString:
        if (in->count < 3 || in->w[1] >= rd->m->bound)
            return false;
        free(rd->strings[in->w[1]]);
        rd->strings[in->w[1]] = spv_string(in, 2, NULL);
        return rd->strings[in->w[1]] != NULL;
    case SpvOpConstant:
        if (in->count < 4 || in->w[2] >= rd->m->bound)
            return false;
        rd->consts[in->w[2]] = in->w[3];
        rd->is_const[in->w[2]] = 1;
        return true;
    case SpvOpExtInstImport: return note_import(rd, in);
    case SpvOpExtInst: return note_ext_inst(rd, in);
    default: return true;
    }
}

static bool collect(struct reader *rd)
{
    uint32_t bound = rd->m->bound;
    if (bound == 0 || bound > MAX_BOUND) {
        k2s_error("SPIR-V module: id bound %u is out of the supported range", bound);
        return false;
    }
    rd->strings = calloc(bound, sizeof *rd->strings);
    rd->consts = calloc(bound, sizeof *rd->consts);
    rd->is_const = calloc(bound, 1);
    rd->is_set = calloc(bound, 1);
    rd->arg_names = calloc(bound, sizeof *rd->arg_names);
    if (!rd->strings || !rd->consts || !rd->is_const || !rd->is_set || !rd->arg_names) {
        k2s_error("out of memory");
        return false;
    }
    size_t pos = SPV_FIRST_INST;
    struct spv_inst in;
    while (spv_next(rd->m, &pos, &in)) {
        if (!note_ids(rd, &in)) {
            k2s_error("SPIR-V module: malformed instruction (opcode %u) at word %zu", in.opcode,
                      pos - in.count);
            return false;
        }
    }
    return true;
}

/* ---- second pass: instructions ----------------------------------------------------------- */

static bool read_kernel(struct reader *rd, const struct spv_inst *in)
{
    uint32_t func;
    const char *name = operand_str(rd, in, 1);
    if (!name || !operand_id(rd, in, 0, &func))
        return false;
    struct refl_kernel *k;
    if (!refl_add_kernel(rd->r, &k))
        return false;
    k->name = strdup(name);
    k->func = func;
    k->decl = in->w[2];
    if (has_operand(in, 2)) {
        k->has_num_args = true;
        if (!operand_u32(rd, in, 2, &k->num_args))
            return false;
    }
    return k->name != NULL;
}

static bool read_arg_info(struct reader *rd, const struct spv_inst *in)
{
    const char *name = operand_str(rd, in, 0);
    if (!name)
        return false;
    rd->arg_names[in->w[2]] = name;
    return true;
}

/* Adds an argument; `info_op` is the index of the optional ArgInfo operand. */
static bool add_arg(struct reader *rd, const struct spv_inst *in, struct refl_arg *arg,
                    unsigned info_op)
{
    struct refl_kernel *k = kernel_by_decl(rd, in);
    if (!k)
        return false;
    uint32_t info;
    if (has_operand(in, info_op) && operand_id(rd, in, info_op, &info) && rd->arg_names[info])
        arg->name = strdup(rd->arg_names[info]);
    if (!refl_add_arg(k, arg)) {
        free(arg->name);
        return false;
    }
    return true;
}

/* Decl, Ordinal, DescriptorSet, Binding [, ArgInfo] */
static bool read_descriptor_arg(struct reader *rd, const struct spv_inst *in,
                                enum refl_arg_kind kind, const char *what)
{
    struct refl_arg a = {.kind = kind, .what = what};
    uint32_t v[3];
    if (!operand_u32s(rd, in, 1, 3, v))
        return false;
    a.ordinal = v[0], a.set = v[1], a.binding = v[2];
    return add_arg(rd, in, &a, 4);
}

/* Decl, Ordinal, DescriptorSet, Binding, Offset, Size [, ArgInfo] */
static bool read_pod_descriptor_arg(struct reader *rd, const struct spv_inst *in,
                                    enum refl_arg_kind kind)
{
    struct refl_arg a = {.kind = kind};
    uint32_t v[5];
    if (!operand_u32s(rd, in, 1, 5, v))
        return false;
    a.ordinal = v[0], a.set = v[1], a.binding = v[2], a.offset = v[3], a.size = v[4];
    return add_arg(rd, in, &a, 6);
}

/* Decl, Ordinal, Offset, Size [, ArgInfo] */
static bool read_push_arg(struct reader *rd, const struct spv_inst *in, enum refl_arg_kind kind)
{
    struct refl_arg a = {.kind = kind};
    uint32_t v[3];
    if (!operand_u32s(rd, in, 1, 3, v))
        return false;
    a.ordinal = v[0], a.offset = v[1], a.size = v[2];
    return add_arg(rd, in, &a, 4);
}

static bool read_workgroup_arg(struct reader *rd, const struct spv_inst *in)
{
    struct refl_arg a = {.kind = RA_WORKGROUP};
    uint32_t v[3];
    if (!operand_u32s(rd, in, 1, 3, v))
        return false;
    a.ordinal = v[0], a.spec_id = v[1], a.elem_size = v[2];
    if (a.elem_size == 0) {
        k2s_error("reflection: local argument %u has element size 0", a.ordinal);
        return false;
    }
    return add_arg(rd, in, &a, 4);
}

static bool read_push_constant(struct reader *rd, const struct spv_inst *in,
                               enum refl_push_kind kind)
{
    uint32_t v[2];
    if (!operand_u32s(rd, in, 0, 2, v))
        return false;
    rd->r->push[kind] = (struct refl_range){true, v[0], v[1]};
    return true;
}

static bool read_reqd_size(struct reader *rd, const struct spv_inst *in)
{
    struct refl_kernel *k = kernel_by_decl(rd, in);
    if (!k || !operand_u32s(rd, in, 1, 3, k->reqd))
        return false;
    k->has_reqd = true;
    return true;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool refl_decode_hex(const char *hex, struct refl_data *d)
{
    size_t len = strlen(hex);
    if (len % 2 != 0) {
        k2s_error("reflection: constant data is not an even number of hex digits");
        return false;
    }
    d->nbytes = len / 2;
    d->bytes = calloc(d->nbytes ? d->nbytes : 1, 1);
    if (!d->bytes) {
        k2s_error("out of memory");
        return false;
    }
    for (size_t i = 0; i < d->nbytes; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            k2s_error("reflection: constant data holds a non-hex character");
            free(d->bytes);
            return false;
        }
        d->bytes[i] = (unsigned char)(hi << 4 | lo);
    }
    return true;
}

/* DescriptorSet, Binding, Data(hex) */
static bool read_data_buffer(struct reader *rd, const struct spv_inst *in,
                             enum refl_data_kind kind, bool program_scope)
{
    struct refl_data d = {.kind = kind, .program_scope = program_scope};
    const char *hex = operand_str(rd, in, 2);
    if (!hex || !operand_u32(rd, in, 0, &d.set) || !operand_u32(rd, in, 1, &d.binding) ||
        !refl_decode_hex(hex, &d))
        return false;
    if (refl_add_data(rd->r, &d))
        return true;
    free(d.bytes);
    return false;
}

/* Offset, Size, Data(hex) */
static bool read_data_pointer(struct reader *rd, const struct spv_inst *in, bool program_scope)
{
    struct refl_data d = {.kind = RD_POINTER_PUSH, .program_scope = program_scope};
    const char *hex = operand_str(rd, in, 2);
    if (!hex || !operand_u32(rd, in, 0, &d.offset) || !operand_u32(rd, in, 1, &d.size) ||
        !refl_decode_hex(hex, &d))
        return false;
    if (refl_add_data(rd->r, &d))
        return true;
    free(d.bytes);
    return false;
}

/* The printf buffer (its size in d->nbytes_u32): zero-filled, read back and printed after
 * the dispatch. */
bool refl_add_printf_buffer(struct refl_module *r, struct refl_data *d)
{
    if (r->printf_data >= 0) {
        k2s_error("reflection: two printf buffers");
        return false;
    }
    if (d->nbytes_u32 < 16 || d->nbytes_u32 % 4 || d->nbytes_u32 > (1u << 30)) {
        k2s_error("reflection: printf buffer of %u bytes (16 to 2^30, a multiple of 4)",
                  d->nbytes_u32);
        return false;
    }
    d->nbytes = d->nbytes_u32;
    d->bytes = calloc(d->nbytes, 1);
    if (!d->bytes || !refl_add_data(r, d)) {
        free(d->bytes);
        return false;
    }
    r->printf_data = (long)r->ndata - 1;
    return true;
}

/* Set, Binding, BufferSize or Offset, Size, BufferSize (clspv's physical-mode form). */
static bool read_printf_buffer(struct reader *rd, const struct spv_inst *in, bool pointer)
{
    struct refl_data d = {.kind = pointer ? RD_POINTER_PUSH : RD_STORAGE};
    uint32_t v[3];
    if (!operand_u32s(rd, in, 0, 3, v))
        return false;
    if (pointer)
        d.offset = v[0], d.size = v[1];
    else
        d.set = v[0], d.binding = v[1];
    d.nbytes_u32 = v[2];
    return refl_add_printf_buffer(rd->r, &d);
}

bool refl_add_printf(struct refl_module *r, uint32_t id, const char *format,
                     const uint32_t *sizes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sizes[i] == 0 || sizes[i] % 4 || sizes[i] > 128) {
            k2s_error("reflection: printf format %u: argument size %u (4 to 128, a multiple "
                      "of 4)", id, sizes[i]);
            return false;
        }
    for (size_t i = 0; i < r->nprintfs; i++)
        if (r->printfs[i].id == id) {
            k2s_error("reflection: printf format %u described twice", id);
            return false;
        }
    struct refl_printf *grown = realloc(r->printfs, (r->nprintfs + 1) * sizeof *grown);
    if (!grown)
        return false;
    r->printfs = grown;
    struct refl_printf *p = &grown[r->nprintfs];
    p->id = id;
    p->format = strdup(format);
    p->arg_sizes = malloc((n ? n : 1) * sizeof *sizes);
    p->nargs = n;
    if (!p->format || !p->arg_sizes) {
        free(p->format);
        free(p->arg_sizes);
        return false;
    }
    if (n)
        memcpy(p->arg_sizes, sizes, n * sizeof *sizes);
    r->nprintfs++;
    return true;
}

/* PrintfID, FormatString, ArgumentSizes... */
static bool read_printf_info(struct reader *rd, const struct spv_inst *in)
{
    uint32_t id;
    const char *format = operand_str(rd, in, 1);
    if (!format || !operand_u32(rd, in, 0, &id))
        return false;
    size_t n = in->count > 7 ? in->count - 7 : 0;
    uint32_t *sizes = calloc(n ? n : 1, sizeof *sizes);
    bool ok = sizes && operand_u32s(rd, in, 2, (unsigned)n, sizes) &&
              refl_add_printf(rd->r, id, format, sizes, n);
    free(sizes);
    return ok;
}

static bool read_reloc(struct reader *rd, const struct spv_inst *in)
{
    uint32_t v[3];
    if (!operand_u32s(rd, in, 0, 3, v))
        return false;
    struct refl_reloc *grown = realloc(rd->r->relocs, (rd->r->nrelocs + 1) * sizeof *grown);
    if (!grown)
        return false;
    grown[rd->r->nrelocs++] = (struct refl_reloc){v[0], v[1], v[2]};
    rd->r->relocs = grown;
    return true;
}

/* Set, Binding, Mask */
static bool read_literal_sampler(struct reader *rd, const struct spv_inst *in)
{
    uint32_t v[3];
    if (!operand_u32s(rd, in, 0, 3, v))
        return false;
    struct refl_module *r = rd->r;
    struct refl_literal_sampler *grown = realloc(r->samplers, (r->nsamplers + 1) * sizeof *grown);
    if (!grown)
        return false;
    grown[r->nsamplers++] = (struct refl_literal_sampler){v[0], v[1], v[2]};
    r->samplers = grown;
    return true;
}

/* Decl, Ordinal, Offset, Size */
static bool read_image_info(struct reader *rd, const struct spv_inst *in, enum refl_info_kind what)
{
    struct refl_kernel *k = kernel_by_decl(rd, in);
    uint32_t v[3];
    if (!k || !operand_u32s(rd, in, 1, 3, v))
        return false;
    if (v[2] != 4) {
      k2s_error("reflection: image or sampler push constant of %u bytes (expected 4)", v[2]);
      return false;
    }
    struct refl_image_info *grown = realloc(k->image_info, (k->nimage_info + 1) * sizeof *grown);
    if (!grown)
        return false;
    grown[k->nimage_info++] = (struct refl_image_info){v[0], v[1], what};
    k->image_info = grown;
    return true;
}

static bool mark_kernel_unsupported(struct reader *rd, const struct spv_inst *in,
                                    const char *what)
{
    struct refl_kernel *k = kernel_by_decl(rd, in);
    if (!k)
        return false;
    if (!k->unsupported)
        k->unsupported = strdup(what);
    return true;
}

static bool read_spec_triple(struct reader *rd, const struct spv_inst *in, bool *has,
                             uint32_t ids[3])
{
    *has = true;
    return operand_u32s(rd, in, 0, 3, ids);
}

static bool read_spec_one(struct reader *rd, const struct spv_inst *in, bool *has, uint32_t *id)
{
    *has = true;
    return operand_u32(rd, in, 0, id);
}

static bool read_inst(struct reader *rd, const struct spv_inst *in)
{
    struct refl_module *r = rd->r;
    switch (in->w[4]) {
    case NonSemanticClspvReflectionKernel:
    case NonSemanticClspvReflectionArgumentInfo: return true; /* earlier passes */
    case NonSemanticClspvReflectionArgumentStorageBuffer:
        return read_descriptor_arg(rd, in, RA_STORAGE_BUFFER, NULL);
    case NonSemanticClspvReflectionArgumentUniform:
        return read_descriptor_arg(rd, in, RA_UNIFORM, NULL);
    case NonSemanticClspvReflectionArgumentSampledImage:
        return read_descriptor_arg(rd, in, RA_SAMPLED_IMAGE, NULL);
    case NonSemanticClspvReflectionArgumentStorageImage:
        return read_descriptor_arg(rd, in, RA_STORAGE_IMAGE, NULL);
    case NonSemanticClspvReflectionArgumentSampler:
        return read_descriptor_arg(rd, in, RA_SAMPLER, NULL);
    case NonSemanticClspvReflectionArgumentStorageTexelBuffer:
        return read_descriptor_arg(rd, in, RA_STORAGE_TEXEL, NULL);
    case NonSemanticClspvReflectionArgumentUniformTexelBuffer:
        return read_descriptor_arg(rd, in, RA_UNIFORM_TEXEL, NULL);
    case NonSemanticClspvReflectionArgumentPodStorageBuffer:
        return read_pod_descriptor_arg(rd, in, RA_POD_STORAGE);
    case NonSemanticClspvReflectionArgumentPodUniform:
        return read_pod_descriptor_arg(rd, in, RA_POD_UNIFORM);
    case NonSemanticClspvReflectionArgumentPointerUniform:
        return read_pod_descriptor_arg(rd, in, RA_POINTER_UNIFORM);
    case NonSemanticClspvReflectionArgumentPodPushConstant:
        return read_push_arg(rd, in, RA_POD_PUSH);
    case NonSemanticClspvReflectionArgumentPointerPushConstant:
        return read_push_arg(rd, in, RA_POINTER_PUSH);
    case NonSemanticClspvReflectionArgumentWorkgroup: return read_workgroup_arg(rd, in);
    case NonSemanticClspvReflectionSpecConstantWorkgroupSize:
        return read_spec_triple(rd, in, &r->has_wg_spec, r->wg_spec);
    case NonSemanticClspvReflectionSpecConstantGlobalOffset:
        return read_spec_triple(rd, in, &r->has_offset_spec, r->offset_spec);
    case NonSemanticClspvReflectionSpecConstantWorkDim:
        return read_spec_one(rd, in, &r->has_work_dim_spec, &r->work_dim_spec);
    case NonSemanticClspvReflectionSpecConstantSubgroupMaxSize:
        return read_spec_one(rd, in, &r->has_subgroup_spec, &r->subgroup_spec);
    case NonSemanticClspvReflectionPushConstantGlobalOffset:
        return read_push_constant(rd, in, PC_GLOBAL_OFFSET);
    case NonSemanticClspvReflectionPushConstantEnqueuedLocalSize:
        return read_push_constant(rd, in, PC_ENQUEUED_LOCAL_SIZE);
    case NonSemanticClspvReflectionPushConstantGlobalSize:
        return read_push_constant(rd, in, PC_GLOBAL_SIZE);
    case NonSemanticClspvReflectionPushConstantRegionOffset:
        return read_push_constant(rd, in, PC_REGION_OFFSET);
    case NonSemanticClspvReflectionPushConstantNumWorkgroups:
        return read_push_constant(rd, in, PC_NUM_WORKGROUPS);
    case NonSemanticClspvReflectionPushConstantRegionGroupOffset:
        return read_push_constant(rd, in, PC_REGION_GROUP_OFFSET);
    case NonSemanticClspvReflectionPropertyRequiredWorkgroupSize: return read_reqd_size(rd, in);
    case NonSemanticClspvReflectionConstantDataStorageBuffer:
        return read_data_buffer(rd, in, RD_STORAGE, false);
    case NonSemanticClspvReflectionConstantDataUniform:
        return read_data_buffer(rd, in, RD_UNIFORM, false);
    case NonSemanticClspvReflectionProgramScopeVariablesStorageBuffer:
        return read_data_buffer(rd, in, RD_STORAGE, true);
    case NonSemanticClspvReflectionConstantDataPointerPushConstant:
        return read_data_pointer(rd, in, false);
    case NonSemanticClspvReflectionProgramScopeVariablePointerPushConstant:
        return read_data_pointer(rd, in, true);
    case NonSemanticClspvReflectionProgramScopeVariablePointerRelocation:
        return read_reloc(rd, in);
    case NonSemanticClspvReflectionPrintfBufferStorageBuffer:
        return read_printf_buffer(rd, in, false);
    case NonSemanticClspvReflectionPrintfBufferPointerPushConstant:
        return read_printf_buffer(rd, in, true);
    case NonSemanticClspvReflectionPrintfInfo: return read_printf_info(rd, in);
    case NonSemanticClspvReflectionLiteralSampler: return read_literal_sampler(rd, in);
    case NonSemanticClspvReflectionImageArgumentInfoChannelOrderPushConstant:
      return read_image_info(rd, in, RI_CHANNEL_ORDER);
    case NonSemanticClspvReflectionImageArgumentInfoChannelDataTypePushConstant:
      return read_image_info(rd, in, RI_CHANNEL_DATA_TYPE);
    case REFL_NORMALIZED_SAMPLER_MASK_PUSH_CONSTANT:
      return read_image_info(rd, in, RI_SAMPLER_MASK);
    case NonSemanticClspvReflectionImageArgumentInfoChannelOrderUniform:
    case NonSemanticClspvReflectionImageArgumentInfoChannelDataTypeUniform:
        return mark_kernel_unsupported(rd, in, "image channel information");
    default:
        /* A newer grammar revision: anything we rely on is above, so skip it. */
        if (rd->verbose)
            k2s_warn("ignoring unknown reflection instruction %u", in->w[4]);
        return true;
    }
}

static bool interpret(struct reader *rd)
{
    /* Kernels and argument infos first: other instructions refer to them by id, and a
     * producer is free to order the non-semantic instructions as it likes. */
    for (size_t i = 0; i < rd->ninsts; i++) {
        const struct spv_inst *in = &rd->insts[i];
        if (in->w[4] == NonSemanticClspvReflectionKernel && !read_kernel(rd, in))
            return false;
        if (in->w[4] == NonSemanticClspvReflectionArgumentInfo && !read_arg_info(rd, in))
            return false;
    }
    for (size_t i = 0; i < rd->ninsts; i++)
        if (!read_inst(rd, &rd->insts[i]))
            return false;
    return true;
}

static void reader_free(struct reader *rd)
{
    if (rd->strings)
        for (uint32_t i = 0; i < rd->m->bound; i++)
            free(rd->strings[i]);
    free(rd->strings);
    free(rd->consts);
    free(rd->is_const);
    free(rd->is_set);
    free(rd->arg_names);
    free(rd->insts);
}

bool refl_from_spirv(const struct spv_module *m, struct refl_module *r, bool verbose)
{
    memset(r, 0, sizeof *r);
    r->printf_data = -1;
    struct reader rd = {.m = m, .r = r, .verbose = verbose};
    bool ok = collect(&rd) && interpret(&rd);
    if (ok && r->nkernels == 0) {
        k2s_error("the module has no NonSemantic.ClspvReflection kernel descriptions "
                  "(translate with reflection enabled, or pass --reflect FILE.json)");
        ok = false;
    }
    reader_free(&rd);
    if (!ok)
        refl_free(r);
    return ok;
}
