/* Reads the JSON written by `k2s --reflect FILE.json` into the same model as the embedded
 * reflection. Expected shape (unknown keys are ignored; both spellings below are accepted
 * where the producer's choice is not pinned down by the ABI document):
 *
 *   {"kernels": [{"name": "k", "num_args": 3?,
 *                 "args": [{"ordinal": 0, "kind": "buffer", "set": 0, "binding": 0,
 *                           "offset": 0, "size": 4, "spec_id": 3, "elem_size": 4}],
 *                 "required_work_group_size": [x, y, z]?,
 *                 "push_constants": {...}?, "push_constant_size": n?}],
 *    "spec_constants": {"workgroup_size": [0, 1, 2], "work_dim": 3, "global_offset": [..],
 *                       "subgroup_max_size": n}
 *                   or [{"kind": "workgroup_size_x", "spec_id": 0}, ...],
 *    "push_constants": {"global_offset": {"offset": 0, "size": 12}, ...}
 *                   or [{"kind": "global_offset", "offset": 0, "size": 12}, ...],
 *    "program_scope_variables": {"set": 1, "binding": 0, "size": n, "data": "hex"}?}
 *
 * Push constants may be given per kernel (as `k2s --reflect` does) or for the module.
 *
 * Argument kinds use clspv's descriptor-map names: buffer, buffer_ubo, pod, pod_ubo,
 * pod_pushconstant, local, pointer_pushconstant, pointer_ubo; images/samplers are
 * recognised only to be reported as unsupported. */
#include "argspec.h"
#include "reflection.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum json_type { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct json {
    enum json_type type;
    double number;
    char *string;          /* J_STRING */
    struct json *items;    /* J_ARRAY elements or J_OBJECT values */
    char **keys;           /* J_OBJECT */
    size_t n;
};

struct parser {
    const char *p, *end;
    int depth;
    const char *error;
};

#define MAX_DEPTH 64

static void json_free(struct json *j)
{
    for (size_t i = 0; i < j->n; i++) {
        json_free(&j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->string);
    memset(j, 0, sizeof *j);
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
                               *ps->p == '\r'))
        ps->p++;
}

static bool fail(struct parser *ps, const char *msg)
{
    if (!ps->error)
        ps->error = msg;
    return false;
}

static bool parse_value(struct parser *ps, struct json *out);

static void put_utf8(char *dst, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        dst[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        dst[(*n)++] = (char)(0xc0 | cp >> 6);
        dst[(*n)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        dst[(*n)++] = (char)(0xe0 | cp >> 12);
        dst[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[(*n)++] = (char)(0x80 | (cp & 0x3f));
    }
}

static bool parse_escape(struct parser *ps, char *dst, size_t *n)
{
    if (ps->p >= ps->end)
        return fail(ps, "unterminated string");
    char c = *ps->p++;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = strchr(from, c);
    if (hit && c != '\0') {
        dst[(*n)++] = to[hit - from];
        return true;
    }
    if (c != 'u' || ps->end - ps->p < 4)
        return fail(ps, "bad escape in string");
    unsigned cp = 0;
    for (int i = 0; i < 4; i++) {
        char h = *ps->p++;
        int v = (h >= '0' && h <= '9') ? h - '0'
                : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                         : -1;
        if (v < 0)
            return fail(ps, "bad \\u escape");
        cp = cp << 4 | (unsigned)v;
    }
    /* Surrogates are not needed for reflection names; keep them as U+FFFD. */
    put_utf8(dst, n, (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    return true;
}

static bool parse_string(struct parser *ps, char **out)
{
    ps->p++; /* opening quote */
    /* The decoded string is never longer than the source text (\uXXXX: 6 -> at most 3). */
    char *s = malloc((size_t)(ps->end - ps->p) + 1);
    size_t n = 0;
    if (!s)
        return fail(ps, "out of memory");
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if ((unsigned char)c < 0x20) {
            free(s);
            return fail(ps, "control character in string");
        }
        if (c == '\\') {
            if (!parse_escape(ps, s, &n)) {
                free(s);
                return false;
            }
        } else {
            s[n++] = c;
        }
    }
    if (ps->p >= ps->end) {
        free(s);
        return fail(ps, "unterminated string");
    }
    ps->p++;
    s[n] = '\0';
    *out = s;
    return true;
}

static bool parse_number(struct parser *ps, struct json *out)
{
    char buf[64];
    size_t n = 0;
    while (ps->p < ps->end && n < sizeof buf - 1 && strchr("+-0123456789.eE", *ps->p))
        buf[n++] = *ps->p++;
    buf[n] = '\0';
    char *end;
    out->type = J_NUMBER;
    out->number = strtod(buf, &end);
    if (n == 0 || *end != '\0')
        return fail(ps, "bad number");
    return true;
}

static bool append_item(struct parser *ps, struct json *arr, struct json *item, char *key)
{
    struct json *items = realloc(arr->items, (arr->n + 1) * sizeof *items);
    if (!items)
        return fail(ps, "out of memory");
    arr->items = items;
    if (arr->type == J_OBJECT) {
        char **keys = realloc(arr->keys, (arr->n + 1) * sizeof *keys);
        if (!keys)
            return fail(ps, "out of memory");
        arr->keys = keys;
        keys[arr->n] = key;
    }
    items[arr->n++] = *item;
    return true;
}

/* Parses elements of an array or members of an object up to `close`. */
static bool parse_members(struct parser *ps, struct json *out, char close)
{
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(ps);
        if (out->type == J_OBJECT) {
            if (ps->p >= ps->end || *ps->p != '"' || !parse_string(ps, &key))
                return fail(ps, "expected a string key");
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p++ != ':') {
                free(key);
                return fail(ps, "expected ':'");
            }
        }
        struct json item = {0};
        if (!parse_value(ps, &item) || !append_item(ps, out, &item, key)) {
            json_free(&item);
            free(key);
            return false;
        }
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return true;
        }
        return fail(ps, "expected ',' or a closing bracket");
    }
}

static bool parse_literal(struct parser *ps, const char *word, struct json *out,
                          enum json_type type, double value)
{
    size_t len = strlen(word);
    if ((size_t)(ps->end - ps->p) < len || strncmp(ps->p, word, len) != 0)
        return fail(ps, "unexpected character");
    ps->p += len;
    out->type = type;
    out->number = value;
    return true;
}

static bool parse_value(struct parser *ps, struct json *out)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of input");
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, "nesting too deep");
    bool ok;
    switch (*ps->p) {
    case '{': out->type = J_OBJECT; ok = parse_members(ps, out, '}'); break;
    case '[': out->type = J_ARRAY; ok = parse_members(ps, out, ']'); break;
    case '"': out->type = J_STRING; ok = parse_string(ps, &out->string); break;
    case 't': ok = parse_literal(ps, "true", out, J_BOOL, 1); break;
    case 'f': ok = parse_literal(ps, "false", out, J_BOOL, 0); break;
    case 'n': ok = parse_literal(ps, "null", out, J_NULL, 0); break;
    default: ok = parse_number(ps, out); break;
    }
    ps->depth--;
    return ok;
}

/* ---- lookups ------------------------------------------------------------------------------- */

static const struct json *member(const struct json *obj, const char *key)
{
    if (!obj || obj->type != J_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

static bool as_u32(const struct json *j, uint32_t *out)
{
    if (!j || j->type != J_NUMBER || j->number < 0 || j->number > 4294967295.0 ||
        j->number != floor(j->number))
        return false;
    *out = (uint32_t)j->number;
    return true;
}

static bool get_u32(const struct json *obj, const char *key, uint32_t *out)
{
    return as_u32(member(obj, key), out);
}

/* [x, y, z] or {"x":..,"y":..,"z":..} */
static bool get_triple(const struct json *j, uint32_t out[3])
{
    if (j && j->type == J_ARRAY && j->n == 3)
        return as_u32(&j->items[0], &out[0]) && as_u32(&j->items[1], &out[1]) &&
               as_u32(&j->items[2], &out[2]);
    return get_u32(j, "x", &out[0]) && get_u32(j, "y", &out[1]) && get_u32(j, "z", &out[2]);
}

static const char *get_str(const struct json *obj, const char *key)
{
    const struct json *j = member(obj, key);
    return j && j->type == J_STRING ? j->string : NULL;
}

/* ---- model --------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    enum refl_arg_kind kind;
} arg_kinds[] = {
    {"buffer", RA_STORAGE_BUFFER},   {"buffer_ubo", RA_UNIFORM},
    {"pod", RA_POD_STORAGE},         {"pod_ubo", RA_POD_UNIFORM},
    {"pod_pushconstant", RA_POD_PUSH}, {"local", RA_WORKGROUP},
    {"pointer_pushconstant", RA_POINTER_PUSH}, {"pointer_ubo", RA_POINTER_UNIFORM},
    {"ro_image", RA_SAMPLED_IMAGE},  {"wo_image", RA_STORAGE_IMAGE},
    {"rw_image", RA_STORAGE_IMAGE},  {"sampler", RA_SAMPLER},
    {"uniform_texel_buffer", RA_UNIFORM_TEXEL}, {"storage_texel_buffer", RA_STORAGE_TEXEL},
};

static bool read_arg(const struct json *ja, struct refl_kernel *k)
{
    struct refl_arg a = {0};
    const char *kind = get_str(ja, "kind");
    if (!get_u32(ja, "ordinal", &a.ordinal) || !kind) {
        k2s_error("--reflect: kernel '%s': an argument lacks \"ordinal\" or \"kind\"", k->name);
        return false;
    }
    a.kind = RA_UNSUPPORTED;
    a.what = "an argument kind k2s-run does not know";
    for (size_t i = 0; i < sizeof arg_kinds / sizeof arg_kinds[0]; i++)
        if (strcmp(kind, arg_kinds[i].name) == 0)
            a.kind = arg_kinds[i].kind;
    get_u32(ja, "set", &a.set);
    get_u32(ja, "binding", &a.binding);
    get_u32(ja, "offset", &a.offset);
    get_u32(ja, "size", &a.size);
    get_u32(ja, "spec_id", &a.spec_id);
    get_u32(ja, "elem_size", &a.elem_size);
    if (a.kind == RA_WORKGROUP && a.elem_size == 0) {
        k2s_error("--reflect: kernel '%s': local argument %u needs \"elem_size\"", k->name,
                  a.ordinal);
        return false;
    }
    const char *name = get_str(ja, "name");
    a.name = name ? strdup(name) : NULL;
    if (refl_add_arg(k, &a))
        return true;
    free(a.name);
    return false;
}

static bool read_push_constants(const struct json *j, struct refl_range push[PC_COUNT]);

static bool read_kernel(const struct json *jk, struct refl_module *r)
{
    const char *name = get_str(jk, "name");
    if (!name) {
        k2s_error("--reflect: a kernel has no \"name\"");
        return false;
    }
    struct refl_kernel *k;
    if (!refl_add_kernel(r, &k) || !(k->name = strdup(name)))
        return false;
    k->has_num_args = get_u32(jk, "num_args", &k->num_args);
    const struct json *reqd = member(jk, "required_work_group_size");
    if (reqd && reqd->type != J_NULL) {
        if (!get_triple(reqd, k->reqd)) {
            k2s_error("--reflect: kernel '%s': bad \"required_work_group_size\"", name);
            return false;
        }
        k->has_reqd = true;
    }
    const struct json *push = member(jk, "push_constants");
    k->has_push = push && push->type != J_NULL;
    if (!read_push_constants(push, k->push))
        return false;
    get_u32(jk, "push_constant_size", &k->push_size);
    const struct json *args = member(jk, "args");
    for (size_t i = 0; args && args->type == J_ARRAY && i < args->n; i++)
        if (!read_arg(&args->items[i], k))
            return false;
    /* "image_info": [{"ordinal": N, "what": "channel_order"|"channel_data_type"|
     * "normalized_sampler_mask",
     * "offset": O, "size": 4}] */
    const struct json *info = member(jk, "image_info");
    for (size_t i = 0; info && info->type == J_ARRAY && i < info->n; i++) {
        const struct json *e = &info->items[i];
        const char *what = get_str(e, "what");
        struct refl_image_info ii = {0};
        if (!what || !get_u32(e, "ordinal", &ii.ordinal) || !get_u32(e, "offset", &ii.offset) ||
            (strcmp(what, "channel_order") && strcmp(what, "channel_data_type") &&
             strcmp(what, "normalized_sampler_mask"))) {
          k2s_error("--reflect: kernel '%s': bad \"image_info\" entry", name);
          return false;
        }
        ii.what = !strcmp(what, "channel_data_type")         ? RI_CHANNEL_DATA_TYPE
                  : !strcmp(what, "normalized_sampler_mask") ? RI_SAMPLER_MASK
                                                             : RI_CHANNEL_ORDER;
        struct refl_image_info *grown =
            realloc(k->image_info, (k->nimage_info + 1) * sizeof *grown);
        if (!grown)
            return false;
        grown[k->nimage_info++] = ii;
        k->image_info = grown;
    }
    return true;
}

/* "literal_samplers": [{"set": S, "binding": B, "mask": M}] */
static bool read_literal_samplers(const struct json *j, struct refl_module *r)
{
    for (size_t i = 0; j && j->type == J_ARRAY && i < j->n; i++) {
        struct refl_literal_sampler ls;
        if (!get_u32(&j->items[i], "set", &ls.set) ||
            !get_u32(&j->items[i], "binding", &ls.binding) ||
            !get_u32(&j->items[i], "mask", &ls.mask)) {
            k2s_error("--reflect: a literal sampler needs \"set\", \"binding\" and \"mask\"");
            return false;
        }
        struct refl_literal_sampler *grown =
            realloc(r->samplers, (r->nsamplers + 1) * sizeof *grown);
        if (!grown)
            return false;
        grown[r->nsamplers++] = ls;
        r->samplers = grown;
    }
    return true;
}

/* One spec constant given as {"kind": K, "spec_id": N} (or "id"). */
static void read_spec_entry(const struct json *e, struct refl_module *r)
{
    const char *kind = get_str(e, "kind");
    uint32_t id;
    if (!kind || !(get_u32(e, "spec_id", &id) || get_u32(e, "id", &id)))
        return;
    static const char *const axes[] = {"x", "y", "z"};
    for (int d = 0; d < 3; d++) {
        char name[40];
        snprintf(name, sizeof name, "workgroup_size_%s", axes[d]);
        if (strcmp(kind, name) == 0)
            r->wg_spec[d] = id, r->has_wg_spec = true;
        snprintf(name, sizeof name, "global_offset_%s", axes[d]);
        if (strcmp(kind, name) == 0)
            r->offset_spec[d] = id, r->has_offset_spec = true;
    }
    if (strcmp(kind, "work_dim") == 0)
        r->work_dim_spec = id, r->has_work_dim_spec = true;
    if (strcmp(kind, "subgroup_max_size") == 0)
        r->subgroup_spec = id, r->has_subgroup_spec = true;
}

static bool read_spec_constants(const struct json *j, struct refl_module *r)
{
    if (!j || j->type == J_NULL)
        return true;
    if (j->type == J_ARRAY) {
        for (size_t i = 0; i < j->n; i++)
            read_spec_entry(&j->items[i], r);
        return true;
    }
    const struct json *wg = member(j, "workgroup_size");
    if (wg && !(r->has_wg_spec = get_triple(wg, r->wg_spec))) {
        k2s_error("--reflect: bad spec_constants.workgroup_size");
        return false;
    }
    const struct json *off = member(j, "global_offset");
    if (off && !(r->has_offset_spec = get_triple(off, r->offset_spec))) {
        k2s_error("--reflect: bad spec_constants.global_offset");
        return false;
    }
    r->has_work_dim_spec = get_u32(j, "work_dim", &r->work_dim_spec);
    r->has_subgroup_spec = get_u32(j, "subgroup_max_size", &r->subgroup_spec);
    return true;
}

static bool read_range(const struct json *j, const char *what, struct refl_range *out)
{
    if (!get_u32(j, "offset", &out->offset) || !get_u32(j, "size", &out->size)) {
        k2s_error("--reflect: push constant '%s' needs \"offset\" and \"size\"", what);
        return false;
    }
    out->present = true;
    return true;
}

static bool read_push_constants(const struct json *j, struct refl_range push[PC_COUNT])
{
    if (!j || j->type == J_NULL)
        return true;
    for (int k = 0; k < PC_COUNT; k++) {
        const char *name = refl_push_name((enum refl_push_kind)k);
        if (j->type == J_OBJECT) {
            const struct json *e = member(j, name);
            if (e && !read_range(e, name, &push[k]))
                return false;
            continue;
        }
        for (size_t i = 0; j->type == J_ARRAY && i < j->n; i++) {
            const char *kind = get_str(&j->items[i], "kind");
            if (kind && strcmp(kind, name) == 0 && !read_range(&j->items[i], name, &push[k]))
                return false;
        }
    }
    return true;
}

/* "program_scope_variables" / "constant_data": {"set": S, "binding": B, "size": N,
 * "data": "hex"}: a module-scope storage buffer (the program-scope variables kernels
 * write, or read-only constant data) and its initial bytes
 * (ProgramScopeVariablesStorageBuffer / ConstantDataStorageBuffer when embedded). */
static bool read_module_buffer(const struct json *j, const char *what, bool program_scope,
                               struct refl_module *r)
{
    if (!j || j->type == J_NULL)
        return true;
    struct refl_data d = {.kind = RD_STORAGE, .program_scope = program_scope};
    const char *hex = get_str(j, "data");
    uint32_t size = 0;
    if (!hex || !get_u32(j, "set", &d.set) || !get_u32(j, "binding", &d.binding)) {
        k2s_error("--reflect: %s needs \"set\", \"binding\" and \"data\"", what);
        return false;
    }
    if (!refl_decode_hex(hex, &d))
        return false;
    if (get_u32(j, "size", &size) && size != d.nbytes) {
        k2s_error("--reflect: %s: \"size\" %u but %zu bytes of data", what, size, d.nbytes);
        free(d.bytes);
        return false;
    }
    if (refl_add_data(r, &d))
        return true;
    free(d.bytes);
    return false;
}

/* "printf": {"set": S, "binding": B, "size": N, "formats": [{"id": I, "format": "...",
 * "arg_sizes": [4, 8]}]}: the printf buffer and what its records mean (PrintfInfo and
 * PrintfBufferStorageBuffer in the embedded reflection). */
static bool read_printf(const struct json *j, struct refl_module *r)
{
    if (!j || j->type == J_NULL)
        return true;
    struct refl_data d = {.kind = RD_STORAGE};
    const struct json *formats = member(j, "formats");
    if (!get_u32(j, "set", &d.set) || !get_u32(j, "binding", &d.binding) ||
        !get_u32(j, "size", &d.nbytes_u32) || !formats || formats->type != J_ARRAY) {
        k2s_error("--reflect: printf needs \"set\", \"binding\", \"size\" and \"formats\"");
        return false;
    }
    for (size_t i = 0; i < formats->n; i++) {
        const struct json *f = &formats->items[i], *sizes = member(f, "arg_sizes");
        const char *text = get_str(f, "format");
        uint32_t id, v[64];
        if (!text || !get_u32(f, "id", &id) || !sizes || sizes->type != J_ARRAY ||
            sizes->n > 64) {
            k2s_error("--reflect: printf format %zu needs \"id\", \"format\" and "
                      "\"arg_sizes\" (at most 64)", i);
            return false;
        }
        for (size_t k = 0; k < sizes->n; k++)
            if (!as_u32(&sizes->items[k], &v[k])) {
                k2s_error("--reflect: printf format %u: bad argument size", id);
                return false;
            }
        if (!refl_add_printf(r, id, text, v, sizes->n))
            return false;
    }
    return refl_add_printf_buffer(r, &d);
}

static bool read_root(const struct json *root, struct refl_module *r)
{
    const struct json *kernels = member(root, "kernels");
    if (!kernels || kernels->type != J_ARRAY) {
        k2s_error("--reflect: no \"kernels\" array");
        return false;
    }
    for (size_t i = 0; i < kernels->n; i++)
        if (!read_kernel(&kernels->items[i], r))
            return false;
    return read_spec_constants(member(root, "spec_constants"), r) &&
           read_push_constants(member(root, "push_constants"), r->push) &&
           read_module_buffer(member(root, "constant_data"), "constant_data", false, r) &&
           read_module_buffer(member(root, "program_scope_variables"), "program_scope_variables",
                              true, r) &&
           read_printf(member(root, "printf"), r) &&
           read_literal_samplers(member(root, "literal_samplers"), r);
}

bool refl_from_json(const char *path, struct refl_module *r)
{
    memset(r, 0, sizeof *r);
    r->printf_data = -1;
    size_t size;
    unsigned char *text = k2s_read_file(path, &size);
    if (!text)
        return false;
    struct parser ps = {(const char *)text, (const char *)text + size, 0, NULL};
    struct json root = {0};
    bool ok = parse_value(&ps, &root);
    skip_ws(&ps);
    if (ok && ps.p != ps.end)
        ok = fail(&ps, "trailing characters");
    if (!ok)
        k2s_error("--reflect %s: invalid JSON at byte %zu: %s", path,
                  (size_t)(ps.p - (const char *)text), ps.error ? ps.error : "?");
    else
        ok = read_root(&root, r);
    json_free(&root);
    free(text);
    if (!ok)
        refl_free(r);
    return ok;
}
