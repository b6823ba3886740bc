#include "spirv_words.h"

#include "argspec.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#define SPV_MAGIC 0x07230203u

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* Every instruction must have a non-zero length that stays inside the module. */
static bool check_lengths(const struct spv_module *m)
{
    size_t pos = SPV_FIRST_INST;
    while (pos < m->count) {
        uint32_t count = m->words[pos] >> 16;
        if (count == 0 || count > m->count - pos) {
            k2s_error("SPIR-V module: instruction at word %zu has a bad word count %u", pos,
                      count);
            return false;
        }
        pos += count;
    }
    return true;
}

bool spv_load(const unsigned char *bytes, size_t size, struct spv_module *m)
{
    memset(m, 0, sizeof *m);
    if (size % 4 != 0 || size < 4 * SPV_FIRST_INST) {
        k2s_error("not a SPIR-V module: size %zu is not a multiple of 4 of at least 20 bytes",
                  size);
        return false;
    }
    m->count = size / 4;
    m->words = malloc(size);
    if (!m->words) {
        k2s_error("out of memory reading the SPIR-V module");
        return false;
    }
    memcpy(m->words, bytes, size);
    /* A module written on a machine of the other endianness reads as a swapped magic. */
    bool swap = m->words[0] == bswap32(SPV_MAGIC);
    if (!swap && m->words[0] != SPV_MAGIC) {
        k2s_error("not a SPIR-V module: bad magic number 0x%08x", m->words[0]);
        spv_free(m);
        return false;
    }
    if (swap)
        for (size_t i = 0; i < m->count; i++)
            m->words[i] = bswap32(m->words[i]);
    m->version = m->words[1];
    m->bound = m->words[3];
    if (!check_lengths(m)) {
        spv_free(m);
        return false;
    }
    return true;
}

void spv_free(struct spv_module *m)
{
    free(m->words);
    memset(m, 0, sizeof *m);
}

bool spv_next(const struct spv_module *m, size_t *pos, struct spv_inst *inst)
{
    if (*pos >= m->count)
        return false;
    inst->w = m->words + *pos;
    inst->opcode = inst->w[0] & 0xffffu;
    inst->count = inst->w[0] >> 16;
    *pos += inst->count;
    return true;
}

char *spv_string(const struct spv_inst *inst, uint32_t first, uint32_t *next)
{
    /* Characters are packed low byte first within each word, independent of host order. */
    size_t max = inst->count > first ? (size_t)(inst->count - first) * 4 : 0;
    char *s = malloc(max + 1);
    if (!s)
        return NULL;
    for (size_t i = 0; i < max; i++) {
        s[i] = (char)(inst->w[first + i / 4] >> (8 * (i % 4)));
        if (s[i] == '\0') {
            if (next)
                *next = first + (uint32_t)(i / 4) + 1;
            return s;
        }
    }
    free(s);
    return NULL;
}

/* ---- module facts ---------------------------------------------------------------------- */

static bool push_u32(uint32_t **arr, size_t *n, uint32_t v)
{
    uint32_t *grown = realloc(*arr, (*n + 1) * sizeof **arr);
    if (!grown)
        return false;
    grown[(*n)++] = v;
    *arr = grown;
    return true;
}

static bool scan_extension(const struct spv_inst *inst, struct spv_info *info)
{
    char *name = spv_string(inst, 1, NULL);
    char **grown = name ? realloc(info->exts, (info->nexts + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(name);
        return false;
    }
    grown[info->nexts++] = name;
    info->exts = grown;
    return true;
}

static bool scan_entry(const struct spv_inst *inst, struct spv_info *info)
{
    if (inst->count < 4)
        return false;
    char *name = spv_string(inst, 3, NULL);
    struct spv_entry *grown =
        name ? realloc(info->entries, (info->nentries + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(name);
        return false;
    }
    struct spv_entry *e = &grown[info->nentries++];
    memset(e, 0, sizeof *e);
    e->model = inst->w[1];
    e->func = inst->w[2];
    e->name = name;
    info->entries = grown;
    uint32_t first = 3;
    free(spv_string(inst, 3, &first));
    for (uint32_t i = first; i < inst->count; i++)
        if (!push_u32(&e->interface, &e->ninterface, inst->w[i]))
            return false;
    return true;
}

static bool scan_exec_mode(const struct spv_inst *inst, struct spv_info *info)
{
    if (inst->count < 3)
        return false;
    uint32_t func = inst->w[1], mode = inst->w[2];
    if (mode == SpvExecutionModeLocalSize || mode == SpvExecutionModeLocalSizeId) {
        if (inst->count < 6)
            return false;
        /* Entry points precede execution modes in a valid module's layout. */
        for (size_t i = 0; i < info->nentries; i++) {
            struct spv_entry *e = &info->entries[i];
            if (e->func != func)
                continue;
            e->has_local_size = true;
            e->local_size_is_id = mode == SpvExecutionModeLocalSizeId;
            memcpy(e->local_size, inst->w + 3, sizeof e->local_size);
        }
        return true;
    }
    if (mode >= SpvExecutionModeDenormPreserve && mode <= SpvExecutionModeRoundingModeRTZ) {
        if (inst->count < 4)
            return false;
        struct spv_float_mode *grown =
            realloc(info->float_modes, (info->nfloat_modes + 1) * sizeof *grown);
        if (!grown)
            return false;
        grown[info->nfloat_modes++] = (struct spv_float_mode){func, mode, inst->w[3]};
        info->float_modes = grown;
    }
    return true;
}

static bool scan_one(const struct spv_inst *inst, struct spv_info *info)
{
    switch (inst->opcode) {
    case SpvOpCapability:
        return inst->count >= 2 && push_u32(&info->caps, &info->ncaps, inst->w[1]);
    case SpvOpExtension: return scan_extension(inst, info);
    case SpvOpExtInstImport: {
        char *name = spv_string(inst, 2, NULL);
        if (!name)
            return false;
        if (strncmp(name, "NonSemantic.", 12) == 0)
            info->uses_nonsemantic = true;
        else if (strcmp(name, "GLSL.std.450") != 0 && !info->foreign_import)
            info->foreign_import = name, name = NULL;
        free(name);
        return true;
    }
    case SpvOpEntryPoint: return scan_entry(inst, info);
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId: return scan_exec_mode(inst, info);
    case SpvOpVariable:
        if (inst->count >= 5 && inst->w[3] == SpvStorageClassWorkgroup)
            info->workgroup_initializer = true;
        return true;
    default: return true;
    }
}

/* Id-indexed facts needed to describe descriptor-bound variables. */
struct resource_tables {
    uint32_t *set, *binding;   /* value + 1; 0 = not decorated */
    uint32_t *ptr_class, *ptr_pointee; /* OpTypePointer; class + 1 */
    unsigned char *buffer_block;
    uint32_t *array_stride;   /* ArrayStride decoration */
    uint32_t *member0;        /* OpTypeStruct: the type of member 0 */
    uint32_t *array_elem;     /* OpTypeArray / OpTypeRuntimeArray: the element type */
    unsigned char *int32;     /* 1: OpTypeInt 32, 2: a vector of those */
    unsigned char *kind;      /* 1 int, 2 float; OpTypeImage: 4 + its Sampled Type's */
    unsigned char *width;     /* OpTypeInt / OpTypeFloat: the width */
    uint32_t *value_type;     /* pointers made in functions: their type */
    uint32_t *image_format;   /* OpTypeImage: its Image Format */
};

/* Ids index plain arrays; a larger bound is either hostile or absurd for a kernel module. */
#define MAX_BOUND (1u << 22)

static void note_decoration(const struct spv_inst *in, struct resource_tables *t,
                            uint32_t bound)
{
    if (in->count < 3 || in->w[1] >= bound)
        return;
    uint32_t id = in->w[1], deco = in->w[2];
    if (deco == SpvDecorationDescriptorSet && in->count >= 4)
        t->set[id] = in->w[3] + 1;
    else if (deco == SpvDecorationBinding && in->count >= 4)
        t->binding[id] = in->w[3] + 1;
    else if (deco == SpvDecorationBufferBlock)
        t->buffer_block[id] = 1;
    else if (deco == SpvDecorationArrayStride && in->count >= 4)
        t->array_stride[id] = in->w[3];
}

/* Types a buffer block is made of (enough to find its array's stride and element kind). */
static void note_type(const struct spv_inst *in, struct resource_tables *t, uint32_t bound)
{
    if (in->count < 3 || in->w[1] >= bound)
        return;
    uint32_t id = in->w[1];
    switch (in->opcode) {
    case SpvOpTypePointer:
        if (in->count >= 4) {
            t->ptr_class[id] = in->w[2] + 1;
            t->ptr_pointee[id] = in->w[3];
        }
        break;
    case SpvOpTypeStruct: t->member0[id] = in->w[2]; break;
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: t->array_elem[id] = in->w[2]; break;
    case SpvOpTypeInt:
        t->int32[id] = in->w[2] == 32;
        t->kind[id] = 1;
        break;
    case SpvOpTypeFloat:
        t->kind[id] = 2;
        t->width[id] = (unsigned char)in->w[2];
        break;
    case SpvOpTypeImage:
        t->kind[id] = 4 + (in->w[2] < bound ? t->kind[in->w[2]] : 0);
        t->image_format[id] = in->count > 8 ? in->w[8] : 0;
        break;
    case SpvOpTypeVector:
        if (in->w[2] < bound && t->int32[in->w[2]] == 1)
            t->int32[id] = 2;
        break;
    default: break;
    }
}

/* The type of a pointer an instruction in a function makes (what atomics point through). */
static void note_pointer_value(const struct spv_inst *in, struct resource_tables *t,
                               uint32_t bound)
{
    switch (in->opcode) {
    case SpvOpFunctionParameter:
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
    case SpvOpCopyObject:
    case SpvOpPhi:
    case SpvOpSelect:
    case SpvOpBitcast:
    case SpvOpConvertUToPtr:
        if (in->count >= 3 && in->w[1] < bound && in->w[2] < bound && t->ptr_class[in->w[1]])
            t->value_type[in->w[2]] = in->w[1];
        break;
    default: break;
    }
}

/* A float atomic: which feature bit it needs (buffer or shared memory, by width). */
static void note_float_atomic(const struct spv_inst *in, const struct resource_tables *t,
                              uint32_t bound, struct spv_info *info)
{
    bool min_max = in->opcode == SpvOpAtomicFMinEXT || in->opcode == SpvOpAtomicFMaxEXT;
    if ((!min_max && in->opcode != SpvOpAtomicFAddEXT) || in->count < 4)
        return;
    uint32_t type = in->w[1], ptr = in->w[3];
    uint32_t ptype = ptr < bound ? t->value_type[ptr] : 0;
    if (type >= bound || t->kind[type] != 2 || !ptype)
        return;
    unsigned w = t->width[type];
    uint32_t wi = w == 16 ? 0 : w == 32 ? 1 : 2;
    bool shared = t->ptr_class[ptype] - 1 == SpvStorageClassWorkgroup;
    info->float_atomics |= SPV_FLOAT_ATOMIC_BIT(min_max, wi, shared);
}

static bool note_resource(const struct spv_inst *in, const struct resource_tables *t,
                          uint32_t bound, struct spv_info *info)
{
    uint32_t type = in->w[1], var = in->w[2], sc = in->w[3];
    if (var >= bound || !t->set[var] || !t->binding[var])
        return true;
    uint32_t pointee = type < bound ? t->ptr_pointee[type] : 0;
    uint32_t array = pointee < bound ? t->member0[pointee] : 0;
    uint32_t elem = array < bound ? t->array_elem[array] : 0;
    struct spv_resource *grown = realloc(info->resources, (info->nresources + 1) * sizeof *grown);
    if (!grown)
        return false;
    info->resources = grown;
    grown[info->nresources++] =
        (struct spv_resource){var,
                              t->set[var] - 1,
                              t->binding[var] - 1,
                              sc,
                              pointee < bound && t->buffer_block[pointee],
                              elem && elem < bound ? t->array_stride[array] : 0,
                              elem && elem < bound && t->int32[elem] != 0,
                              pointee < bound && t->kind[pointee] >= 4 ? t->kind[pointee] - 4u : 0,
                              pointee < bound ? t->image_format[pointee] : 0};
    return true;
}

static bool scan_resources(const struct spv_module *m, struct spv_info *info)
{
    uint32_t bound = m->bound;
    if (bound == 0 || bound > MAX_BOUND) {
        k2s_error("SPIR-V module: id bound %u is out of the supported range", bound);
        return false;
    }
    struct resource_tables t = {calloc(bound, 4), calloc(bound, 4), calloc(bound, 4),
                                calloc(bound, 4), calloc(bound, 1), calloc(bound, 4),
                                calloc(bound, 4), calloc(bound, 4), calloc(bound, 1), calloc(bound, 1),
                                calloc(bound, 1), calloc(bound, 4), calloc(bound, 4)};
    bool ok = t.set && t.binding && t.ptr_class && t.ptr_pointee && t.buffer_block &&
              t.array_stride && t.member0 && t.array_elem && t.int32 && t.kind && t.width &&
              t.value_type && t.image_format;
    size_t pos = SPV_FIRST_INST;
    struct spv_inst in;
    while (ok && spv_next(m, &pos, &in)) {
        if (in.opcode == SpvOpDecorate)
            note_decoration(&in, &t, bound);
        else if (in.opcode == SpvOpVariable && in.count >= 4) {
            if (in.w[2] < bound && in.w[1] < bound)
                t.value_type[in.w[2]] = in.w[1];
            ok = note_resource(&in, &t, bound, info);
        } else {
            note_type(&in, &t, bound);
            note_pointer_value(&in, &t, bound);
            note_float_atomic(&in, &t, bound, info);
        }
    }
    free(t.set);
    free(t.binding);
    free(t.ptr_class);
    free(t.ptr_pointee);
    free(t.buffer_block);
    free(t.array_stride);
    free(t.member0);
    free(t.array_elem);
    free(t.int32);
    free(t.kind);
    free(t.width);
    free(t.value_type);
    free(t.image_format);
    if (!ok)
        k2s_error("out of memory scanning the module");
    return ok;
}

/* Where function `func` starts (the position of its OpFunction), 0 if absent. */
static size_t function_start(const struct spv_module *m, uint32_t func)
{
    size_t pos = SPV_FIRST_INST;
    struct spv_inst in;
    while (spv_next(m, &pos, &in))
        if (in.opcode == SpvOpFunction && in.count >= 3 && in.w[2] == func)
            return pos - in.count;
    return 0;
}

/* Whether the static call tree from `func` names `var` in an operand (a literal word that
 * happens to equal it also counts: the answer errs towards "may use"). */
static bool calls_may_use(const struct spv_module *m, uint32_t func, uint32_t var)
{
    uint32_t *todo = NULL, *seen = NULL;
    size_t ntodo = 0, nseen = 0;
    bool found = false, ok = push_u32(&todo, &ntodo, func) && push_u32(&seen, &nseen, func);
    while (ok && !found && ntodo) {
        size_t pos = function_start(m, todo[--ntodo]);
        struct spv_inst in;
        while (pos && !found && ok && spv_next(m, &pos, &in) && in.opcode != SpvOpFunctionEnd) {
            for (uint32_t k = 1; k < in.count && !found; k++)
                found = in.w[k] == var;
            if (in.opcode != SpvOpFunctionCall || in.count < 4)
                continue;
            bool known = false;
            for (size_t i = 0; i < nseen && !known; i++)
                known = seen[i] == in.w[3];
            if (!known)
                ok = push_u32(&seen, &nseen, in.w[3]) && push_u32(&todo, &ntodo, in.w[3]);
        }
    }
    free(todo);
    free(seen);
    return found || !ok;
}

bool spv_entry_may_use(const struct spv_module *m, const struct spv_info *info,
                       const struct spv_entry *e, uint32_t var)
{
    if (m->version >= 0x00010400) {
        for (size_t i = 0; i < e->ninterface; i++)
            if (e->interface[i] == var)
                return true;
        return false;
    }
    return info->nentries == 1 || calls_may_use(m, e->func, var);
}

bool spv_scan(const struct spv_module *m, struct spv_info *info)
{
    memset(info, 0, sizeof *info);
    size_t pos = SPV_FIRST_INST;
    struct spv_inst inst;
    while (spv_next(m, &pos, &inst)) {
        if (!scan_one(&inst, info)) {
            k2s_error("SPIR-V module: malformed instruction (opcode %u) at word %zu",
                      inst.opcode, pos - inst.count);
            spv_info_free(info);
            return false;
        }
    }
    if (!scan_resources(m, info)) {
        spv_info_free(info);
        return false;
    }
    return true;
}

void spv_info_free(struct spv_info *info)
{
    for (size_t i = 0; i < info->nexts; i++)
        free(info->exts[i]);
    for (size_t i = 0; i < info->nentries; i++) {
        free(info->entries[i].name);
        free(info->entries[i].interface);
    }
    free(info->resources);
    free(info->exts);
    free(info->entries);
    free(info->caps);
    free(info->float_modes);
    free(info->foreign_import);
    memset(info, 0, sizeof *info);
}

bool spv_has_cap(const struct spv_info *info, uint32_t cap)
{
    for (size_t i = 0; i < info->ncaps; i++)
        if (info->caps[i] == cap)
            return true;
    return false;
}

bool spv_has_ext(const struct spv_info *info, const char *name)
{
    for (size_t i = 0; i < info->nexts; i++)
        if (strcmp(info->exts[i], name) == 0)
            return true;
    return false;
}

const struct spv_entry *spv_find_entry(const struct spv_info *info, uint32_t func)
{
    for (size_t i = 0; i < info->nentries; i++)
        if (info->entries[i].func == func)
            return &info->entries[i];
    return NULL;
}

/* ---- stripping ---------------------------------------------------------------------------- */

static bool is_nonsemantic_import(const struct spv_inst *inst)
{
    char *name = inst->opcode == SpvOpExtInstImport ? spv_string(inst, 2, NULL) : NULL;
    bool yes = name && strncmp(name, "NonSemantic.", 12) == 0;
    free(name);
    return yes;
}

static bool is_nonsemantic_extension(const struct spv_inst *inst)
{
    char *name = inst->opcode == SpvOpExtension ? spv_string(inst, 1, NULL) : NULL;
    bool yes = name && strcmp(name, "SPV_KHR_non_semantic_info") == 0;
    free(name);
    return yes;
}

bool spv_strip_nonsemantic(const struct spv_module *m, uint32_t **words, size_t *count)
{
    uint32_t *out = malloc(m->count * sizeof *out);
    uint32_t *sets = NULL;
    size_t nsets = 0, n = SPV_FIRST_INST;
    if (!out)
        return false;
    memcpy(out, m->words, SPV_FIRST_INST * sizeof *out);
    size_t pos = SPV_FIRST_INST;
    struct spv_inst inst;
    while (spv_next(m, &pos, &inst)) {
        bool drop = is_nonsemantic_extension(&inst);
        if (is_nonsemantic_import(&inst)) {
            drop = true;
            if (!push_u32(&sets, &nsets, inst.w[1])) {
                free(out);
                free(sets);
                return false;
            }
        }
        /* Non-semantic OpExtInst results may only feed other non-semantic instructions,
         * so dropping them all together leaves no dangling uses. */
        for (size_t i = 0; inst.opcode == SpvOpExtInst && inst.count >= 5 && i < nsets; i++)
            drop = drop || inst.w[3] == sets[i];
        if (!drop) {
            memcpy(out + n, inst.w, inst.count * sizeof *out);
            n += inst.count;
        }
    }
    free(sets);
    *words = out;
    *count = n;
    return true;
}
