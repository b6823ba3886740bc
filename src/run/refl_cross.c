/* A JSON reflection (--reflect FILE.json) is checked against the module's embedded
 * NonSemantic.ClspvReflection when the module has one: a JSON file from another build of
 * the kernel (other options, an older k2s) would otherwise bind arguments to the wrong
 * places and print numbers that look fine. Every fact both describe must agree: kernels,
 * argument kinds, descriptor set and binding, POD offset and size, local spec ids and
 * element sizes, push constants and the work-group size spec ids. */
#include "refl_cross.h"

#include "argspec.h"

#include <string.h>

static bool differ(const char *json, const char *kernel, const char *what, uint32_t a,
                   uint32_t b)
{
    k2s_error("'%s' contradicts the module's embedded reflection: kernel '%s': %s is %u in "
              "the JSON file but %u in the module (was it written for another build of this "
              "module?)",
              json, kernel, what, a, b);
    return false;
}

static bool same_arg(const char *json, const struct refl_kernel *k, const struct refl_arg *j,
                     const struct refl_arg *e)
{
    char what[96];
#define FIELD(f, label)                                                                       \
    if (j->f != e->f) {                                                                       \
        snprintf(what, sizeof what, "argument %u's %s", j->ordinal, label);                   \
        return differ(json, k->name, what, (uint32_t)j->f, (uint32_t)e->f);                   \
    }
    FIELD(kind, "kind (0 storage buffer, 1 uniform, 2-4 POD, 5 local, 6-7 pointer)")
    switch (j->kind) {
    case RA_STORAGE_BUFFER:
    case RA_UNIFORM:
        FIELD(set, "descriptor set")
        FIELD(binding, "binding")
        break;
    case RA_POD_STORAGE:
    case RA_POD_UNIFORM:
        FIELD(set, "descriptor set")
        FIELD(binding, "binding")
        FIELD(offset, "offset")
        FIELD(size, "size")
        break;
    case RA_POD_PUSH:
    case RA_POINTER_PUSH:
    case RA_POINTER_UNIFORM:
        FIELD(offset, "offset")
        FIELD(size, "size")
        break;
    case RA_WORKGROUP:
        FIELD(spec_id, "spec id")
        FIELD(elem_size, "element size")
        break;
    default: break;
    }
#undef FIELD
    return true;
}

bool refl_cross_check(const k2s_module_info *info, const uint32_t *words, size_t count,
                      const struct refl_module *json, const char *json_path)
{
    if (!info->has_reflection)
        return true; /* nothing to check against */
    struct refl_module emb;
    if (!refl_from_spirv(words, count, &emb, false)) {
        k2s_error("cannot check '%s' against the module's embedded reflection, which does "
                  "not read (see above)",
                  json_path);
        return false;
    }
    bool ok = true;
    if (json->nkernels != emb.nkernels)
        ok = differ(json_path, "*", "the number of kernels", (uint32_t)json->nkernels,
                    (uint32_t)emb.nkernels);
    for (size_t i = 0; ok && i < json->nkernels; i++) {
        const struct refl_kernel *jk = &json->kernels[i], *ek = NULL;
        for (size_t e = 0; e < emb.nkernels && !ek; e++)
            if (strcmp(emb.kernels[e].name, jk->name) == 0)
                ek = &emb.kernels[e];
        if (!ek) {
            k2s_error("'%s' contradicts the module's embedded reflection: it describes a "
                      "kernel '%s' the module does not have",
                      json_path, jk->name);
            ok = false;
            break;
        }
        if (jk->nargs != ek->nargs) {
            ok = differ(json_path, jk->name, "the number of arguments", (uint32_t)jk->nargs,
                        (uint32_t)ek->nargs);
            break;
        }
        for (size_t a = 0; ok && a < jk->nargs; a++) {
            const struct refl_arg *ea = refl_find_arg(ek, jk->args[a].ordinal);
            if (!ea) {
                ok = differ(json_path, jk->name, "an argument ordinal", jk->args[a].ordinal,
                            UINT32_MAX);
                break;
            }
            ok = same_arg(json_path, jk, &jk->args[a], ea);
        }
        const struct refl_range *jp = refl_push(json, jk), *ep = refl_push(&emb, ek);
        for (int p = 0; ok && p < PC_COUNT; p++) {
            char what[80];
            if (jp[p].present != ep[p].present) {
                snprintf(what, sizeof what, "the presence of push constant %s",
                         refl_push_name((enum refl_push_kind)p));
                ok = differ(json_path, jk->name, what, jp[p].present, ep[p].present);
            } else if (jp[p].present && jp[p].offset != ep[p].offset) {
                snprintf(what, sizeof what, "the offset of push constant %s",
                         refl_push_name((enum refl_push_kind)p));
                ok = differ(json_path, jk->name, what, jp[p].offset, ep[p].offset);
            }
        }
    }
    for (int d = 0; ok && d < 3 && json->has_wg_spec && emb.has_wg_spec; d++)
        if (json->wg_spec[d] != emb.wg_spec[d])
            ok = differ(json_path, "*", "a work-group size spec id", json->wg_spec[d],
                        emb.wg_spec[d]);
    refl_free(&emb);
    return ok;
}
