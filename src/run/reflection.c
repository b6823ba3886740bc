/* k2s-run's view of a module's reflection: filled from the library's reflection model
 * (k2s_reflection_read(), the project's one reader of NonSemantic.ClspvReflection) or,
 * with --reflect, from the JSON (reflect_json.c). */
#include "reflection.h"

#include "argspec.h"
#include "../hex.h"

#include <k2s/k2s.h>
#include <stdlib.h>
#include <string.h>

/* The library's image-info kind as k2s-run's. */
static enum refl_info_kind what_of(k2s_reflection_image_info_kind w)
{
    return w == K2S_IMAGE_INFO_SAMPLER_MASK        ? RI_SAMPLER_MASK
           : w == K2S_IMAGE_INFO_CHANNEL_DATA_TYPE ? RI_CHANNEL_DATA_TYPE
                                                   : RI_CHANNEL_ORDER;
}

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
    if (k2s_hex_decode(hex, d->nbytes, d->bytes) < d->nbytes) {
        k2s_error("reflection: constant data holds a non-hex character");
        free(d->bytes);
        return false;
    }
    return true;
}

/* ---- from the library's reflection model ------------------------------------------------ */

static enum refl_arg_kind arg_kind(k2s_reflection_arg_kind k)
{
    switch (k) {
    case K2S_ARG_KIND_STORAGE_BUFFER: return RA_STORAGE_BUFFER;
    case K2S_ARG_KIND_UNIFORM_BUFFER: return RA_UNIFORM;
    case K2S_ARG_KIND_POD_STORAGE_BUFFER: return RA_POD_STORAGE;
    case K2S_ARG_KIND_POD_UNIFORM: return RA_POD_UNIFORM;
    case K2S_ARG_KIND_POD_PUSH_CONSTANT: return RA_POD_PUSH;
    case K2S_ARG_KIND_POINTER_PUSH_CONSTANT: return RA_POINTER_PUSH;
    case K2S_ARG_KIND_POINTER_UNIFORM: return RA_POINTER_UNIFORM;
    case K2S_ARG_KIND_WORKGROUP: return RA_WORKGROUP;
    case K2S_ARG_KIND_SAMPLED_IMAGE: return RA_SAMPLED_IMAGE;
    case K2S_ARG_KIND_STORAGE_IMAGE: return RA_STORAGE_IMAGE;
    case K2S_ARG_KIND_SAMPLER: return RA_SAMPLER;
    case K2S_ARG_KIND_UNIFORM_TEXEL_BUFFER: return RA_UNIFORM_TEXEL;
    case K2S_ARG_KIND_STORAGE_TEXEL_BUFFER: return RA_STORAGE_TEXEL;
    }
    return RA_UNSUPPORTED;
}

/* k2s-run's push-constant order differs from the library's enum: map by meaning. */
static const enum refl_push_kind push_kind[K2S_PUSH_COUNT] = {
    [K2S_PUSH_GLOBAL_OFFSET] = PC_GLOBAL_OFFSET,
    [K2S_PUSH_ENQUEUED_LOCAL_SIZE] = PC_ENQUEUED_LOCAL_SIZE,
    [K2S_PUSH_GLOBAL_SIZE] = PC_GLOBAL_SIZE,
    [K2S_PUSH_REGION_OFFSET] = PC_REGION_OFFSET,
    [K2S_PUSH_NUM_WORKGROUPS] = PC_NUM_WORKGROUPS,
    [K2S_PUSH_REGION_GROUP_OFFSET] = PC_REGION_GROUP_OFFSET,
};

static bool take_kernel(struct refl_module *r, const k2s_reflection_kernel *lk)
{
    struct refl_kernel *k;
    if (!refl_add_kernel(r, &k))
        return false;
    k->name = strdup(lk->name);
    k->func = lk->function;
    k->has_num_args = lk->has_num_arguments;
    k->num_args = lk->num_arguments;
    k->has_reqd = lk->has_required_work_group_size;
    memcpy(k->reqd, lk->required_work_group_size, sizeof k->reqd);
    if (!k->name || (lk->unsupported && !(k->unsupported = strdup(lk->unsupported))))
        goto oom;
    for (size_t i = 0; i < lk->n_args; i++) {
        const k2s_reflection_arg *la = &lk->args[i];
        struct refl_arg a = {.ordinal = la->ordinal, .kind = arg_kind(la->kind),
                             .set = la->set, .binding = la->binding, .offset = la->offset,
                             .size = la->size, .spec_id = la->spec_id,
                             .elem_size = la->elem_size};
        if (la->name && !(a.name = strdup(la->name)))
            goto oom;
        if (!refl_add_arg(k, &a)) {
            free(a.name);
            return false;
        }
    }
    if (lk->n_image_info) {
        k->image_info = calloc(lk->n_image_info, sizeof *k->image_info);
        if (!k->image_info)
            goto oom;
        for (size_t i = 0; i < lk->n_image_info; i++)
            k->image_info[i] = (struct refl_image_info){lk->image_info[i].ordinal,
                                                         lk->image_info[i].offset,
                                                         what_of(lk->image_info[i].what)};
        k->nimage_info = lk->n_image_info;
    }
    return true;
oom:
    k2s_error("out of memory");
    return false;
}

/* The printf buffer (its size in d->nbytes_u32): zero-filled, read back after the dispatch
 * and its records printed (printf_out.c). Both reflection sources come here. */
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

/* A format string or string argument (PrintfInfo): its id and the record bytes of each
 * argument. */
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
    if (!grown) {
        k2s_error("out of memory");
        return false;
    }
    r->printfs = grown;
    struct refl_printf *p = &grown[r->nprintfs];
    p->id = id;
    p->format = strdup(format);
    p->arg_sizes = malloc((n ? n : 1) * sizeof *sizes);
    p->nargs = n;
    if (!p->format || !p->arg_sizes) {
        free(p->format);
        free(p->arg_sizes);
        k2s_error("out of memory");
        return false;
    }
    if (n)
        memcpy(p->arg_sizes, sizes, n * sizeof *sizes);
    r->nprintfs++;
    return true;
}

/* A module-scope buffer: its initial bytes, or for the printf buffer its size. */
static bool take_data(struct refl_module *r, const k2s_reflection_data *ld)
{
    bool pointer = ld->kind == K2S_DATA_CONSTANT_POINTER_PUSH ||
                   ld->kind == K2S_DATA_PROGRAM_SCOPE_POINTER_PUSH ||
                   ld->kind == K2S_DATA_PRINTF_POINTER_PUSH;
    bool printf_buffer = ld->kind == K2S_DATA_PRINTF_STORAGE_BUFFER ||
                         ld->kind == K2S_DATA_PRINTF_POINTER_PUSH;
    struct refl_data d = {
        .kind = pointer ? RD_POINTER_PUSH
                        : ld->kind == K2S_DATA_CONSTANT_UNIFORM ? RD_UNIFORM : RD_STORAGE,
        .set = ld->set, .binding = ld->binding, .offset = ld->offset, .size = ld->size,
        .program_scope = ld->kind == K2S_DATA_PROGRAM_SCOPE_STORAGE_BUFFER ||
                         ld->kind == K2S_DATA_PROGRAM_SCOPE_POINTER_PUSH};
    if (printf_buffer) {
        d.nbytes_u32 = ld->buffer_size;
        return refl_add_printf_buffer(r, &d);
    }
    d.nbytes = ld->n_bytes;
    d.bytes = calloc(d.nbytes ? d.nbytes : 1, 1);
    if (!d.bytes) {
        k2s_error("out of memory");
        return false;
    }
    if (ld->n_bytes)
        memcpy(d.bytes, ld->bytes, ld->n_bytes);
    if (refl_add_data(r, &d))
        return true;
    free(d.bytes);
    return false;
}

static bool take_module(struct refl_module *r, const k2s_reflection *lr, bool verbose)
{
    for (size_t i = 0; i < lr->n_kernels; i++)
        if (!take_kernel(r, &lr->kernels[i]))
            return false;
    r->has_wg_spec = lr->has_workgroup_size_spec;
    memcpy(r->wg_spec, lr->workgroup_size_spec, sizeof r->wg_spec);
    r->has_offset_spec = lr->has_global_offset_spec;
    memcpy(r->offset_spec, lr->global_offset_spec, sizeof r->offset_spec);
    r->has_work_dim_spec = lr->has_work_dim_spec;
    r->work_dim_spec = lr->work_dim_spec;
    r->has_subgroup_spec = lr->has_subgroup_max_size_spec;
    r->subgroup_spec = lr->subgroup_max_size_spec;
    for (int p = 0; p < K2S_PUSH_COUNT; p++)
        r->push[push_kind[p]] = (struct refl_range){lr->push_constants[p].present,
                                                    lr->push_constants[p].offset,
                                                    lr->push_constants[p].size};
    for (size_t i = 0; i < lr->n_data; i++)
        if (!take_data(r, &lr->data[i]))
            return false;
    for (size_t i = 0; i < lr->n_printfs; i++)
        if (!refl_add_printf(r, lr->printfs[i].id, lr->printfs[i].format,
                             lr->printfs[i].arg_sizes, lr->printfs[i].n_arg_sizes))
            return false;
    if (lr->n_relocations) {
        r->relocs = calloc(lr->n_relocations, sizeof *r->relocs);
        if (!r->relocs) {
            k2s_error("out of memory");
            return false;
        }
        for (size_t i = 0; i < lr->n_relocations; i++)
            r->relocs[i] = (struct refl_reloc){lr->relocations[i].object_offset,
                                               lr->relocations[i].pointer_offset,
                                               lr->relocations[i].pointer_size};
        r->nrelocs = lr->n_relocations;
    }
    if (lr->n_literal_samplers) {
        r->samplers = calloc(lr->n_literal_samplers, sizeof *r->samplers);
        if (!r->samplers) {
            k2s_error("out of memory");
            return false;
        }
        for (size_t i = 0; i < lr->n_literal_samplers; i++)
            r->samplers[i] = (struct refl_literal_sampler){lr->literal_samplers[i].set,
                                                           lr->literal_samplers[i].binding,
                                                           lr->literal_samplers[i].mask};
        r->nsamplers = lr->n_literal_samplers;
    }
    if (lr->n_unknown && verbose)
        k2s_warn("ignoring %zu reflection instruction%s of a newer grammar revision",
                 lr->n_unknown, lr->n_unknown == 1 ? "" : "s");
    return true;
}

bool refl_from_spirv(const uint32_t *words, size_t count, struct refl_module *r, bool verbose)
{
    memset(r, 0, sizeof *r);
    r->printf_data = -1;
    k2s_reflection *lr = NULL;
    if (k2s_reflection_read(words, count, &lr) != K2S_OK) {
        k2s_error("%s", lr && lr->error ? lr->error : "out of memory");
        k2s_reflection_free(lr);
        return false;
    }
    bool ok = take_module(r, lr, verbose);
    k2s_reflection_free(lr);
    if (ok && r->nkernels == 0) {
        k2s_error("the module has no NonSemantic.ClspvReflection kernel descriptions "
                  "(translate with reflection enabled, or pass --reflect FILE.json)");
        ok = false;
    }
    if (!ok)
        refl_free(r);
    return ok;
}
