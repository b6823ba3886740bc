#include "plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *plan_arg_label(const struct refl_kernel *k, uint32_t ordinal)
{
    static char buf[256];
    const struct refl_arg *a = refl_find_arg(k, ordinal);
    if (a && a->name)
        snprintf(buf, sizeof buf, "argument %u ('%s')", ordinal, a->name);
    else
        snprintf(buf, sizeof buf, "argument %u", ordinal);
    return buf;
}

/* ---- work-group size ------------------------------------------------------------------------- */

static bool same_size(const uint64_t a[3], const uint32_t b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* A size the host cannot change: reqd_work_group_size, or a literal LocalSize when the
 * module has no work-group-size spec constants. */
static bool fixed_size(const struct refl_module *r, const struct refl_kernel *k,
                       const k2s_module_entry *entry, uint32_t out[3], const char **why)
{
    if (k->has_reqd) {
        memcpy(out, k->reqd, sizeof k->reqd);
        *why = "reqd_work_group_size";
        return true;
    }
    if (!r->has_wg_spec && entry && entry->has_local_size && !entry->local_size_is_id) {
        memcpy(out, entry->local_size, sizeof entry->local_size);
        *why = "the module's fixed LocalSize (no work-group-size spec constants)";
        return true;
    }
    return false;
}

static bool choose_local(struct plan *p, const struct ndrange_request *req,
                         const struct refl_module *r, const struct refl_kernel *k,
                         const k2s_module_entry *entry)
{
    uint32_t fixed[3];
    const char *why;
    p->fixed_wg = fixed_size(r, k, entry, fixed, &why);
    if (p->fixed_wg) {
        if (req->local_dims && !same_size(req->local, fixed)) {
            k2s_error("--local %" PRIu64 ",%" PRIu64 ",%" PRIu64 " differs from %s %u,%u,%u",
                      req->local[0], req->local[1], req->local[2], why, fixed[0], fixed[1],
                      fixed[2]);
            return false;
        }
        for (int d = 0; d < 3; d++)
            p->local[d] = fixed[d];
        return true;
    }
    if (req->local_dims) {
        memcpy(p->local, req->local, sizeof p->local);
        return true;
    }
    k2s_default_local(p->global, p->local);
    if (req->verbose)
        fprintf(stderr, "%s: no --local given: using %" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                k2s_prog(), p->local[0], p->local[1], p->local[2]);
    return true;
}

/* ---- regions ----------------------------------------------------------------------------------- */

struct part {
    uint32_t wg, groups, offset, group_offset;
};

/* The "full" part and the remainder part of one dimension. */
static unsigned split_dim(uint64_t global, uint64_t local, struct part parts[2])
{
    unsigned n = 0;
    uint64_t full = global / local, rem = global % local;
    if (full)
        parts[n++] = (struct part){(uint32_t)local, (uint32_t)full, 0, 0};
    if (rem)
        parts[n++] = (struct part){(uint32_t)rem, 1, (uint32_t)(full * local), (uint32_t)full};
    return n;
}

static void make_regions(struct plan *p)
{
    struct part parts[3][2];
    unsigned n[3];
    for (int d = 0; d < 3; d++)
        n[d] = split_dim(p->global[d], p->local[d], parts[d]);
    p->nregions = 0;
    for (unsigned z = 0; z < n[2]; z++)
        for (unsigned y = 0; y < n[1]; y++)
            for (unsigned x = 0; x < n[0]; x++) {
                const struct part *pt[3] = {&parts[0][x], &parts[1][y], &parts[2][z]};
                struct region *rg = &p->regions[p->nregions++];
                for (int d = 0; d < 3; d++) {
                    rg->wg[d] = pt[d]->wg;
                    rg->groups[d] = pt[d]->groups;
                    rg->offset[d] = pt[d]->offset;
                    rg->group_offset[d] = pt[d]->group_offset;
                }
            }
}

static bool is_uniform(const struct plan *p)
{
    for (int d = 0; d < 3; d++)
        if (p->global[d] % p->local[d] != 0)
            return false;
    return true;
}

static bool check_non_uniform(const struct plan *p, const struct refl_module *r,
                              const struct refl_kernel *k)
{
    if (is_uniform(p))
        return true;
    if (p->fixed_wg) {
        k2s_error("the global size is not a multiple of the work-group size, and kernel '%s' "
                  "has a fixed work-group size: a non-uniform NDRange cannot run", k->name);
        return false;
    }
    const struct refl_range *push = refl_push(r, k);
    if (p->nregions > 1 && !push[PC_REGION_OFFSET].present &&
        !push[PC_REGION_GROUP_OFFSET].present) {
        k2s_error("the global size is not a multiple of the work-group size, but the module "
                  "declares no RegionOffset push constant to run a non-uniform NDRange");
        return false;
    }
    return true;
}

static bool check_sizes(const struct plan *p, const struct ndrange_request *req)
{
    if (req->local_dims > req->global_dims || req->offset_dims > req->global_dims) {
        k2s_error("--local/--offset have more dimensions than --global");
        return false;
    }
    for (int d = 0; d < 3; d++) {
        if (p->global[d] == 0 || p->local[d] == 0) {
            k2s_error("global and local sizes must be at least 1 in every dimension");
            return false;
        }
        if (p->global[d] + p->offset[d] > UINT32_MAX) {
            k2s_error("global offset + size exceeds 2^32 in dimension %d", d);
            return false;
        }
    }
    return true;
}

bool plan_ndrange(struct plan *p, const struct ndrange_request *req, const struct refl_module *r,
                  const struct refl_kernel *k, const k2s_module_entry *entry)
{
    memset(p, 0, sizeof *p);
    memcpy(p->global, req->global, sizeof p->global);
    memcpy(p->offset, req->offset, sizeof p->offset);
    p->dims = req->global_dims;
    if (!choose_local(p, req, r, k, entry) || !check_sizes(p, req))
        return false;
    make_regions(p);
    return check_non_uniform(p, r, k);
}

/* ---- arguments ----------------------------------------------------------------------------------- */

bool plan_pod_bytes(const struct refl_arg *a, const struct k2s_arg *spec, size_t *n)
{
    if (spec->size == a->size) {
        *n = a->size;
        return true;
    }
    /* A vec3 is 16 bytes in OpenCL, but a producer may reflect only its 12 used bytes. */
    if (spec->type.lanes == 3 && a->size == 3 * k2s_scalar_size(spec->type.scalar)) {
        *n = a->size;
        return true;
    }
    return false;
}

static bool expected_count(const struct refl_kernel *k, size_t nargs, size_t *expected)
{
    uint64_t max = 0;
    for (size_t i = 0; i < k->nargs; i++)
        if ((uint64_t)k->args[i].ordinal + 1 > max)
            max = (uint64_t)k->args[i].ordinal + 1;
    *expected = k->has_num_args ? k->num_args : (size_t)max;
    if (k->has_num_args && max > k->num_args) {
        k2s_error("reflection: kernel '%s' has %u arguments but describes argument %llu",
                  k->name, k->num_args, (unsigned long long)(max - 1));
        return false;
    }
    /* Without NumArguments, trailing unused arguments are invisible: allow extra ones. */
    if (k->has_num_args ? nargs != *expected : nargs < *expected) {
        k2s_error("kernel '%s' takes %zu argument%s, but %zu --arg %s given", k->name,
                  *expected, *expected == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        return false;
    }
    return true;
}

static enum k2s_arg_kind wanted_spec(enum refl_arg_kind kind)
{
    switch (kind) {
    case RA_POD_STORAGE:
    case RA_POD_UNIFORM:
    case RA_POD_PUSH: return K2S_ARG_POD;
    case RA_WORKGROUP: return K2S_ARG_LOCAL;
    case RA_SAMPLED_IMAGE:
    case RA_STORAGE_IMAGE:
    case RA_UNIFORM_TEXEL:
    case RA_STORAGE_TEXEL: return K2S_ARG_IMAGE;
    case RA_SAMPLER: return K2S_ARG_SAMPLER;
    default: return K2S_ARG_BUFFER;
    }
}

/* Where PODs and pointers may live: far beyond any real kernel's argument block, and small
 * enough that a corrupt offset cannot make the host allocate or write wildly. */
#define MAX_ARG_BLOCK (1u << 20)

static bool check_range(const struct refl_kernel *k, const struct refl_arg *a)
{
    bool placed = a->kind == RA_POD_STORAGE || a->kind == RA_POD_UNIFORM ||
                  a->kind == RA_POD_PUSH || a->kind == RA_POINTER_PUSH ||
                  a->kind == RA_POINTER_UNIFORM;
    if (!placed || ((uint64_t)a->offset + a->size <= MAX_ARG_BLOCK && a->size > 0))
        return true;
    k2s_error("reflection: %s of kernel '%s' has an impossible offset %u / size %u",
              plan_arg_label(k, a->ordinal), k->name, a->offset, a->size);
    return false;
}

static bool check_one(const struct refl_kernel *k, const struct refl_arg *a,
                      const struct k2s_arg *spec)
{
    const char *label = plan_arg_label(k, a->ordinal);
    if (!check_range(k, a))
        return false;
    static const char *const spec_names[] = {"buffer:", "pod:", "local:", "image...:",
                                             "sampler:"};
    if (a->kind == RA_UNSUPPORTED) {
        k2s_error("%s of kernel '%s' is %s, which k2s-run does not support", label, k->name,
                  a->what ? a->what : "unsupported");
        return false;
    }
    enum k2s_arg_kind want = wanted_spec(a->kind);
    if (spec->kind != want) {
        k2s_error("%s of kernel '%s' is a %s and needs a %s spec, got '%s'", label, k->name,
                  refl_kind_name(a->kind), spec_names[want], spec->text);
        return false;
    }
    bool texel = a->kind == RA_UNIFORM_TEXEL || a->kind == RA_STORAGE_TEXEL;
    if (want == K2S_ARG_IMAGE && texel != (spec->image.dim == K2S_IMG_1D_BUFFER)) {
        k2s_error("%s of kernel '%s' is %s, but '%s' is %s", label, k->name,
                  texel ? "an image1d_buffer" : "not an image1d_buffer", spec->text,
                  texel ? "not" : "one");
        return false;
    }
    size_t n;
    if (want == K2S_ARG_POD && !plan_pod_bytes(a, spec, &n)) {
        k2s_error("%s of kernel '%s' is a %u-byte POD, but '%s' gives %zu bytes", label,
                  k->name, a->size, spec->text, spec->size);
        return false;
    }
    if (want == K2S_ARG_LOCAL && spec->size % a->elem_size != 0) {
        k2s_error("%s of kernel '%s': local size %zu is not a multiple of the element size %u",
                  label, k->name, spec->size, a->elem_size);
        return false;
    }
    if ((a->kind == RA_POINTER_PUSH || a->kind == RA_POINTER_UNIFORM) && a->size != 8 &&
        a->size != 4) {
        k2s_error("%s of kernel '%s': pointer slot of %u bytes (expected 4 or 8)", label,
                  k->name, a->size);
        return false;
    }
    return true;
}

bool plan_check_args(const struct refl_module *r, const struct refl_kernel *k,
                     const struct k2s_arg *args, size_t nargs)
{
    if (r->unsupported) {
        k2s_error("the module uses %s, which k2s-run does not support", r->unsupported);
        return false;
    }
    if (k->unsupported) {
        k2s_error("kernel '%s' uses %s, which k2s-run does not support", k->name,
                  k->unsupported);
        return false;
    }
    size_t expected;
    if (!expected_count(k, nargs, &expected))
        return false;
    for (size_t i = 0; i < k->nargs; i++) {
        /* expected_count() guarantees ordinal < nargs; keep the index check local anyway. */
        if (k->args[i].ordinal >= nargs || !check_one(k, &k->args[i], &args[k->args[i].ordinal]))
            return false;
    }
    return true;
}

/* ---- buffer sizes ------------------------------------------------------------------------------- */

/* The byte size of one element of a buffer argument's OpenCL type, 0 when unknown. */
static uint32_t buffer_elem_size(const struct refl_arg *a, const k2s_module_info *info,
                                 const k2s_module_entry *entry)
{
    if (a->elem_size) /* JSON reflection: the OpenCL element size */
        return a->elem_size;
    if (a->kind != RA_STORAGE_BUFFER && a->kind != RA_UNIFORM)
        return 0; /* physical pointers: no declared array to look at */
    /* Kernels share set/binding numbers: only a variable this entry point uses counts. */
    for (size_t i = 0; i < info->n_resources; i++) {
        const k2s_module_resource *res = &info->resources[i];
        if (res->set != a->set || res->binding != a->binding ||
            !k2s_module_entry_may_use(entry, res->variable))
            continue;
        /* An array of 32-bit integers (or vectors of them) may be k2s's word view of
         * narrower data (char buffers, uniform-layout's uvec4 words): its stride says
         * nothing sure about the OpenCL element, so claim nothing. */
        return res->int32_elements ? 0 : res->array_stride;
    }
    return 0;
}

/* The spec's element type against the kernel's (its byte size, which is what the
 * reflection tells). A different size is often deliberate (a uchar* byte view of float
 * data, a struct copied as ints), so it is a warning, never silent; char/uchar specs are
 * raw bytes and say nothing. */
static bool check_elem_type(const struct refl_kernel *k, const struct refl_arg *a,
                            const struct k2s_arg *spec, uint32_t es, bool quiet)
{
    size_t ss = k2s_type_size(spec->type);
    if (!ss || ss == es || quiet || spec->type.scalar == K2S_CHAR ||
        spec->type.scalar == K2S_UCHAR)
        return true;
    k2s_warn("%s of kernel '%s' points to %u-byte elements, but '%s' gives %zu-byte "
             "elements, which the kernel sees reinterpreted (--no-size-warnings silences "
             "this)",
             plan_arg_label(k, a->ordinal), k->name, es, spec->text, ss);
    return true;
}

bool plan_check_buffer_sizes(const struct plan *p, const struct refl_kernel *k,
                             const k2s_module_info *info, const k2s_module_entry *entry,
                             const struct k2s_arg *args,
                             bool quiet)
{
    uint64_t items = p->global[0] * p->global[1] * p->global[2];
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        const struct k2s_arg *spec = &args[a->ordinal];
        if (spec->kind != K2S_ARG_BUFFER)
            continue;
        uint32_t es = buffer_elem_size(a, info, entry);
        if (es && spec->size < es) {
            k2s_error("%s of kernel '%s' points to %u-byte elements, but '%s' has only %zu "
                      "byte%s: not even one element",
                      plan_arg_label(k, a->ordinal), k->name, es, spec->text, spec->size,
                      spec->size == 1 ? "" : "s");
            return false;
        }
        if (es && !check_elem_type(k, a, spec, es, quiet))
            return false;
        /* Unknown element size: judge by the spec's own element count. */
        uint64_t elems = es ? spec->size / es : spec->count;
        if (!quiet && elems < items)
            k2s_warn("%s of kernel '%s': '%s' holds %" PRIu64 " element%s, fewer than the "
                     "%" PRIu64 " work-items of the NDRange: an access per work-item would "
                     "fall outside it, which Vulkan does not report (--no-size-warnings "
                     "silences this)",
                     plan_arg_label(k, a->ordinal), k->name, spec->text, elems,
                     elems == 1 ? "" : "s", items);
    }
    return true;
}
