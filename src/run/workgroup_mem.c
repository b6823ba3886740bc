#include "workgroup_mem.h"

#include "argspec.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* Ids index plain arrays (spv_scan already bounds the id bound). */
struct wg_tables {
    uint32_t bound;
    uint32_t *spec_id;    /* SpecId + 1; 0 = none */
    uint64_t *value;      /* integer constants, spec constants as specialized */
    unsigned char *known; /* value[] holds a value */
    uint64_t *size, *align; /* type sizes; 0 = not sizeable here */
    uint32_t *ptr_pointee;
    unsigned char *scratch_name; /* OpName k2s_group_scratch */
};

static uint64_t spec_or_default(const struct spec_value *specs, size_t n, uint32_t spec_id,
                                uint64_t dflt)
{
    for (size_t i = 0; i < n; i++)
        if (specs[i].id == spec_id)
            return specs[i].value;
    return dflt;
}

static bool value_of(const struct wg_tables *t, uint32_t id, uint64_t *v)
{
    if (id >= t->bound || !t->known[id])
        return false;
    *v = t->value[id];
    return true;
}

static void set_value(struct wg_tables *t, uint32_t id, uint64_t v)
{
    if (id < t->bound) {
        t->value[id] = v;
        t->known[id] = 1;
    }
}

/* OpSpecConstantOp of the integer kinds k2s uses for array lengths. */
static void spec_constant_op(const struct spv_inst *in, struct wg_tables *t)
{
    uint64_t a, b;
    if (in->count < 6 || !value_of(t, in->w[4], &a) || !value_of(t, in->w[5], &b))
        return;
    switch (in->w[3]) {
    case SpvOpIMul: set_value(t, in->w[2], a * b); break;
    case SpvOpIAdd: set_value(t, in->w[2], a + b); break;
    case SpvOpISub: set_value(t, in->w[2], a - b); break;
    case SpvOpUDiv:
        if (b)
            set_value(t, in->w[2], a / b);
        break;
    case SpvOpShiftLeftLogical: set_value(t, in->w[2], b < 64 ? a << b : 0); break;
    default: break;
    }
}

static void set_type(struct wg_tables *t, uint32_t id, uint64_t size, uint64_t align)
{
    if (id < t->bound) {
        t->size[id] = size;
        t->align[id] = align ? align : 1;
    }
}

static uint64_t size_of(const struct wg_tables *t, uint32_t id)
{
    return id < t->bound ? t->size[id] : 0;
}

static uint64_t align_of(const struct wg_tables *t, uint32_t id)
{
    return id < t->bound ? t->align[id] : 1;
}

static void note(const struct spv_inst *in, struct wg_tables *t, const struct spec_value *specs,
                 size_t nspecs)
{
    const uint32_t *w = in->w;
    switch (in->opcode) {
    case SpvOpDecorate:
        if (in->count >= 4 && w[2] == SpvDecorationSpecId && w[1] < t->bound)
            t->spec_id[w[1]] = w[3] + 1;
        break;
    case SpvOpName:
        if (in->count >= 3 && w[1] < t->bound) {
            char *name = spv_string(in, 2, NULL);
            t->scratch_name[w[1]] = name && strcmp(name, "k2s_group_scratch") == 0;
            free(name);
        }
        break;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (in->count >= 3)
            set_type(t, w[1], w[2] / 8, w[2] / 8);
        break;
    case SpvOpTypeBool: set_type(t, w[1], 4, 4); break;
    case SpvOpTypeVector:
        if (in->count >= 4) {
            uint64_t e = size_of(t, w[2]), n = w[3] == 3 ? 4 : w[3];
            set_type(t, w[1], e * w[3], e * n);
        }
        break;
    case SpvOpTypeArray: {
        uint64_t n;
        if (in->count >= 4 && value_of(t, w[3], &n) && size_of(t, w[2]))
            set_type(t, w[1], size_of(t, w[2]) * n, align_of(t, w[2]));
        break;
    }
    case SpvOpTypeStruct: {
        uint64_t off = 0, most = 1;
        for (uint32_t k = 2; k < in->count; k++) {
            uint64_t s = size_of(t, w[k]), a = align_of(t, w[k]);
            if (!s)
                return;
            off = (off + a - 1) / a * a + s;
            most = a > most ? a : most;
        }
        set_type(t, w[1], (off + most - 1) / most * most, most);
        break;
    }
    case SpvOpTypePointer:
        if (in->count >= 4 && w[1] < t->bound)
            t->ptr_pointee[w[1]] = w[3];
        break;
    case SpvOpConstant:
        if (in->count >= 4)
            set_value(t, w[2], in->count >= 5 ? (uint64_t)w[4] << 32 | w[3] : w[3]);
        break;
    case SpvOpSpecConstant:
        if (in->count >= 4 && w[2] < t->bound) {
            uint64_t dflt = in->count >= 5 ? (uint64_t)w[4] << 32 | w[3] : w[3];
            uint32_t sid = t->spec_id[w[2]];
            set_value(t, w[2], sid ? spec_or_default(specs, nspecs, sid - 1, dflt) : dflt);
        }
        break;
    case SpvOpSpecConstantOp: spec_constant_op(in, t); break;
    default: break;
    }
}

bool spv_workgroup_bytes(const struct spv_module *m, const struct spv_info *info,
                         const struct spv_entry *e, const struct spec_value *specs, size_t nspecs,
                         struct workgroup_bytes *out)
{
    memset(out, 0, sizeof *out);
    uint32_t bound = m->bound;
    struct wg_tables t = {bound,           calloc(bound, 4), calloc(bound, 8), calloc(bound, 1),
                          calloc(bound, 8), calloc(bound, 8), calloc(bound, 4), calloc(bound, 1)};
    bool ok = t.spec_id && t.value && t.known && t.size && t.align && t.ptr_pointee &&
              t.scratch_name;
    size_t pos = SPV_FIRST_INST;
    struct spv_inst in;
    while (ok && spv_next(m, &pos, &in)) {
        if (in.opcode == SpvOpFunction)
            break; /* types, constants and module-scope variables come before */
        if (in.opcode != SpvOpVariable || in.count < 4) {
            note(&in, &t, specs, nspecs);
            continue;
        }
        if (in.w[3] != SpvStorageClassWorkgroup || !spv_entry_may_use(m, info, e, in.w[2]))
            continue;
        uint32_t pointee = in.w[1] < bound ? t.ptr_pointee[in.w[1]] : 0;
        uint64_t s = size_of(&t, pointee);
        if (!s)
            out->unknown = true;
        out->total += s;
        if (in.w[2] < bound && t.scratch_name[in.w[2]])
            out->scratch += s;
    }
    free(t.spec_id);
    free(t.value);
    free(t.known);
    free(t.size);
    free(t.align);
    free(t.ptr_pointee);
    free(t.scratch_name);
    if (!ok)
        k2s_error("out of memory sizing the module's workgroup memory");
    return ok;
}
