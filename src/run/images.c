/* Image and sampler argument specs, shared by k2s-run and k2s-clref (see images.h and
 * corpus/FORMAT.md). An image's pixels are built exactly as a buffer of its channel type
 * would be (same INIT forms, same generator), so both hosts see identical bytes. */
#include "images.h"

#include "argspec.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum k2s_image_dim dim;
    unsigned sizes; /* how many of W,H,D/LAYERS */
} dims[] = {
    {"image1d_buffer", K2S_IMG_1D_BUFFER, 1}, {"image1d_array", K2S_IMG_1D_ARRAY, 2},
    {"image1d", K2S_IMG_1D, 1},               {"image2d_array", K2S_IMG_2D_ARRAY, 3},
    {"image2d", K2S_IMG_2D, 2},               {"image3d", K2S_IMG_3D, 3},
};

static const struct {
    const char *name;
    unsigned channels;
} orders[] = {{"r", 1}, {"rg", 2}, {"rgba", 4}, {"bgra", 4}};

static const struct {
    const char *name, *scalar; /* the buffer element type holding one channel */
} types[] = {
    {"unorm8", "uchar"},   {"snorm8", "char"},   {"unorm16", "ushort"}, {"snorm16", "short"},
    {"uint8", "uchar"},    {"int8", "char"},     {"uint16", "ushort"},  {"int16", "short"},
    {"uint32", "uint"},    {"int32", "int"},     {"half", "half"},      {"float", "float"},
};

const char *k2s_image_dim_name(enum k2s_image_dim d)
{
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++)
        if (dims[i].dim == d)
            return dims[i].name;
    return "image";
}

static char *field(char **p)
{
    char *s = *p, *c = strchr(s, ':');
    if (!c)
        return NULL;
    *c = '\0';
    *p = c + 1;
    return s;
}

bool k2s_image_parse(const char *text, struct k2s_arg *arg)
{
    char *copy = strdup(text), *p = copy;
    struct k2s_image *im = &arg->image;
    bool ok = false;
    if (!copy)
        return false;
    char *dim = field(&p), *order = dim ? field(&p) : NULL, *type = order ? field(&p) : NULL;
    char *init = strchr(p, '=');
    if (init)
        *init++ = '\0';
    if (!type) {
        k2s_error("--arg %s: expected IMAGEKIND:ORDER:TYPE:SIZES[=INIT]", text);
        goto out;
    }
    size_t d = 0, o = 0, t = 0;
    while (d < sizeof dims / sizeof *dims && strcmp(dims[d].name, dim))
        d++;
    while (o < sizeof orders / sizeof *orders && strcmp(orders[o].name, order))
        o++;
    while (t < sizeof types / sizeof *types && strcmp(types[t].name, type))
        t++;
    if (d == sizeof dims / sizeof *dims) {
        k2s_error("--arg %s: unknown image kind '%s' (image1d, image1d_buffer, image1d_array, "
                  "image2d, image2d_array, image3d)", text, dim);
        goto out;
    }
    if (o == sizeof orders / sizeof *orders) {
        k2s_error("--arg %s: unknown channel order '%s' (r, rg, rgba, bgra)", text, order);
        goto out;
    }
    if (t == sizeof types / sizeof *types) {
        k2s_error("--arg %s: unknown channel type '%s'", text, type);
        goto out;
    }
    uint64_t sz[3] = {1, 1, 1};
    unsigned n = 0;
    if (!k2s_parse_ndrange(text, p, 1, sz, &n) || n != dims[d].sizes || !sz[0] || !sz[1] ||
        !sz[2]) {
        k2s_error("--arg %s: %s needs %u non-zero size(s), got '%s'", text, dims[d].name,
                  dims[d].sizes, p);
        goto out;
    }
    im->dim = dims[d].dim;
    im->order = (enum k2s_image_order)o;
    im->type = (enum k2s_image_type)t;
    im->channels = orders[o].channels;
    im->width = (uint32_t)sz[0];
    im->height = im->depth = im->layers = 1;
    if (im->dim == K2S_IMG_1D_ARRAY)
        im->layers = (uint32_t)sz[1];
    else if (im->dim == K2S_IMG_2D || im->dim == K2S_IMG_2D_ARRAY || im->dim == K2S_IMG_3D)
        im->height = (uint32_t)sz[1];
    if (im->dim == K2S_IMG_2D_ARRAY)
        im->layers = (uint32_t)sz[2];
    else if (im->dim == K2S_IMG_3D)
        im->depth = (uint32_t)sz[2];
    uint64_t count = (uint64_t)im->width * im->height * im->depth * im->layers * im->channels;
    char spec[256];
    snprintf(spec, sizeof spec, "buffer:%s:%llu=%s", types[t].scalar, (unsigned long long)count,
             init ? init : "zeros");
    struct k2s_arg buf;
    if (!k2s_arg_parse(spec, &buf))
        goto out;
    arg->type = buf.type;
    arg->count = buf.count;
    arg->bytes = buf.bytes;
    arg->size = buf.size;
    im->channel_size = k2s_scalar_size(buf.type.scalar);
    ok = true;
out:
    free(copy);
    return ok;
}

bool k2s_sampler_parse(const char *text, struct k2s_arg *arg)
{
    static const char *modes[] = {"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"};
    char *copy = strdup(text);
    if (!copy)
        return false;
    char *a = strchr(copy, ','), *f = a ? strchr(a + 1, ',') : NULL;
    bool ok = a && f;
    if (ok) {
        *a++ = '\0';
        *f++ = '\0';
        struct k2s_sampler *s = &arg->sampler;
        ok = !strcmp(copy, "normalized") || !strcmp(copy, "unnormalized");
        s->normalized = !strcmp(copy, "normalized");
        unsigned m = 0;
        while (m < 5 && strcmp(modes[m], a))
            m++;
        s->address = m;
        ok = ok && m < 5 && (!strcmp(f, "nearest") || !strcmp(f, "linear"));
        s->linear = !strcmp(f, "linear");
        if (ok && !s->normalized && (m == 3 || m == 4)) {
            k2s_error("--arg sampler:%s: OpenCL allows repeat and mirrored_repeat only with "
                      "normalized coordinates", text);
            free(copy);
            return false;
        }
    }
    if (!ok)
        k2s_error("--arg sampler:%s: expected sampler:normalized|unnormalized,none|"
                  "clamp_to_edge|clamp|repeat|mirrored_repeat,nearest|linear", text);
    free(copy);
    return ok;
}

uint32_t k2s_sampler_mask(const struct k2s_sampler *s)
{
    return (s->normalized ? 1u : 0u) | s->address << 1 | (s->linear ? 0x20u : 0x10u);
}

uint32_t k2s_image_cl_order(enum k2s_image_order o)
{
    static const uint32_t v[] = {0x10B0 /* CL_R */, 0x10B2 /* CL_RG */, 0x10B5 /* CL_RGBA */,
                                 0x10B6 /* CL_BGRA */};
    return v[o];
}

uint32_t k2s_image_cl_type(enum k2s_image_type t)
{
    static const uint32_t v[] = {
        0x10D2 /* CL_UNORM_INT8 */,    0x10D0 /* CL_SNORM_INT8 */,
        0x10D3 /* CL_UNORM_INT16 */,   0x10D1 /* CL_SNORM_INT16 */,
        0x10DA /* CL_UNSIGNED_INT8 */, 0x10D7 /* CL_SIGNED_INT8 */,
        0x10DB /* CL_UNSIGNED_INT16 */, 0x10D8 /* CL_SIGNED_INT16 */,
        0x10DC /* CL_UNSIGNED_INT32 */, 0x10D9 /* CL_SIGNED_INT32 */,
        0x10DD /* CL_HALF_FLOAT */,    0x10DE /* CL_FLOAT */,
    };
    return v[t];
}

bool k2s_image_is_integer(enum k2s_image_type t)
{
    return t >= K2S_CH_UINT8 && t <= K2S_CH_INT32;
}

/* A normalized channel as OpenCL reads it (OpenCL C 1.2, 8.3.1.1). */
static float normalized(enum k2s_image_type t, const unsigned char *p)
{
    switch (t) {
    case K2S_CH_UNORM8: return (float)p[0] / 255.0f;
    case K2S_CH_SNORM8: {
        float v = (float)(int8_t)p[0] / 127.0f;
        return v < -1.0f ? -1.0f : v;
    }
    case K2S_CH_UNORM16: {
        uint16_t u;
        memcpy(&u, p, 2);
        return (float)u / 65535.0f;
    }
    default: {
        int16_t s;
        memcpy(&s, p, 2);
        float v = (float)s / 32767.0f;
        return v < -1.0f ? -1.0f : v;
    }
    }
}

void k2s_print_image(FILE *out, unsigned ordinal, const struct k2s_arg *arg, const void *data)
{
    const struct k2s_image *im = &arg->image;
    if (im->type > K2S_CH_SNORM16) {
        k2s_print_buffer(out, ordinal, arg, data);
        return;
    }
    float *f = malloc(arg->count * sizeof *f);
    if (!f)
        return;
    for (uint64_t k = 0; k < arg->count; k++)
        f[k] = normalized(im->type, (const unsigned char *)data + k * im->channel_size);
    struct k2s_arg as_float = {.kind = K2S_ARG_BUFFER,
                               .type = {K2S_FLOAT, 1},
                               .count = arg->count,
                               .size = arg->count * sizeof *f};
    k2s_print_buffer(out, ordinal, &as_float, f);
    free(f);
}
