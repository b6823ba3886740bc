/* Image and sampler argument specs, shared by k2s-run and k2s-clref (see images.h and
 * corpus/FORMAT.md). An image's pixels are built exactly as a buffer of its channel type
 * would be (same INIT forms, same generator), so both hosts see identical bytes. */
#include "images.h"

#include "argspec.h"
#include "../image_formats.h"

#include <spirv/unified1/spirv.h>
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

uint32_t k2s_image_spirv_format(const struct k2s_image *im)
{
    /* The translator's table (--image-format ORDER:TYPE), by this host's names. */
    enum k2s_texel_kind kind;
    return k2s_storage_image_format(orders[im->order].name, types[im->type].name, &kind);
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

/* ---- PNG ---------------------------------------------------------------------------------- */

static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return crc;
}

static bool put_chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
    unsigned char len[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                            (unsigned char)(n >> 8), (unsigned char)n};
    uint32_t crc = crc_update(0xFFFFFFFFu, (const unsigned char *)type, 4);
    crc = ~crc_update(crc, data, n);
    unsigned char c[4] = {(unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                          (unsigned char)(crc >> 8), (unsigned char)crc};
    return fwrite(len, 1, 4, f) == 4 && fwrite(type, 1, 4, f) == 4 &&
           (n == 0 || fwrite(data, 1, n, f) == n) && fwrite(c, 1, 4, f) == 4;
}

/* One channel as 0..255. */
static unsigned char to_byte(const struct k2s_image *im, const unsigned char *p)
{
    float v;
    switch (im->type) {
    case K2S_CH_UNORM8:
    case K2S_CH_SNORM8:
    case K2S_CH_UNORM16:
    case K2S_CH_SNORM16: v = normalized(im->type, p); break;
    case K2S_CH_HALF: {
        uint16_t h;
        memcpy(&h, p, 2);
        v = k2s_half_to_float(h);
        break;
    }
    case K2S_CH_FLOAT: memcpy(&v, p, 4); break;
    default: {
        int64_t x = 0;
        if (im->type == K2S_CH_UINT8)
            x = p[0];
        else if (im->type == K2S_CH_INT8)
            x = (int8_t)p[0];
        else if (im->type == K2S_CH_UINT16 || im->type == K2S_CH_INT16) {
            uint16_t u;
            memcpy(&u, p, 2);
            x = im->type == K2S_CH_INT16 ? (int16_t)u : u;
        } else {
            uint32_t u;
            memcpy(&u, p, 4);
            x = im->type == K2S_CH_INT32 ? (int64_t)(int32_t)u : (int64_t)u;
        }
        return (unsigned char)(x < 0 ? 0 : x > 255 ? 255 : x);
    }
    }
    if (!(v > 0.0f)) /* NaN too */
        return 0;
    return v >= 1.0f ? 255 : (unsigned char)(v * 255.0f + 0.5f);
}

static bool write_png(const char *path, const struct k2s_arg *arg, const unsigned char *data)
{
    const struct k2s_image *im = &arg->image;
    uint32_t w = im->width, h = im->height;
    size_t row = (size_t)w * 4 + 1, raw_n = row * h;
    unsigned char *raw = malloc(raw_n);
    /* zlib stream of stored deflate blocks (at most 65535 bytes each). */
    size_t nblocks = raw_n / 65535 + 1, z_n = 2 + raw_n + 5 * nblocks + 4;
    unsigned char *z = malloc(z_n);
    if (!raw || !z) {
        free(raw);
        free(z);
        k2s_error("--png: out of memory");
        return false;
    }
    for (uint32_t y = 0; y < h; y++) {
        unsigned char *out = raw + y * row;
        *out++ = 0; /* filter: none */
        for (uint32_t x = 0; x < w; x++) {
            const unsigned char *px =
                data + ((size_t)y * w + x) * im->channels * im->channel_size;
            unsigned char c[4] = {0, 0, 0, 255};
            for (unsigned k = 0; k < im->channels; k++)
                c[k] = to_byte(im, px + k * im->channel_size);
            if (im->order == K2S_ORDER_R)
                c[1] = c[2] = c[0];
            else if (im->order == K2S_ORDER_BGRA) {
                unsigned char t = c[0];
                c[0] = c[2];
                c[2] = t;
            }
            memcpy(out + 4 * x, c, 4);
        }
    }
    size_t zp = 0;
    z[zp++] = 0x78;
    z[zp++] = 0x01;
    uint32_t a = 1, b = 0;
    for (size_t off = 0; off < raw_n || off == 0; off += 65535) {
        size_t n = raw_n - off < 65535 ? raw_n - off : 65535;
        z[zp++] = off + n >= raw_n;
        z[zp++] = (unsigned char)n;
        z[zp++] = (unsigned char)(n >> 8);
        z[zp++] = (unsigned char)~n;
        z[zp++] = (unsigned char)(~n >> 8);
        memcpy(z + zp, raw + off, n);
        zp += n;
        if (off + n >= raw_n)
            break;
    }
    for (size_t i = 0; i < raw_n; i++) {
        a = (a + raw[i]) % 65521;
        b = (b + a) % 65521;
    }
    uint32_t adler = b << 16 | a;
    z[zp++] = (unsigned char)(adler >> 24);
    z[zp++] = (unsigned char)(adler >> 16);
    z[zp++] = (unsigned char)(adler >> 8);
    z[zp++] = (unsigned char)adler;
    unsigned char ihdr[13] = {(unsigned char)(w >> 24), (unsigned char)(w >> 16),
                              (unsigned char)(w >> 8),  (unsigned char)w,
                              (unsigned char)(h >> 24), (unsigned char)(h >> 16),
                              (unsigned char)(h >> 8),  (unsigned char)h,
                              8, 6, 0, 0, 0};
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(sig, 1, 8, f) == 8 && put_chunk(f, "IHDR", ihdr, 13) &&
              put_chunk(f, "IDAT", z, zp) && put_chunk(f, "IEND", NULL, 0);
    if (f)
        ok = fclose(f) == 0 && ok;
    if (!ok)
        k2s_error("--png: cannot write '%s'", path);
    free(raw);
    free(z);
    return ok;
}

bool k2s_write_pngs(const char **specs, size_t n, const struct k2s_arg *args, size_t nargs,
                    unsigned char *const *outputs)
{
    for (size_t i = 0; i < n; i++) {
        char *end;
        unsigned long ord = strtoul(specs[i], &end, 10);
        if (end == specs[i] || *end != '=' || !end[1]) {
            k2s_error("--png %s: expected N=FILE", specs[i]);
            return false;
        }
        if (ord >= nargs || args[ord].kind != K2S_ARG_IMAGE ||
            args[ord].image.dim != K2S_IMG_2D || !outputs[ord]) {
            k2s_error("--png %s: argument %lu is not a 2-D image argument", specs[i], ord);
            return false;
        }
        if (!write_png(end + 1, &args[ord], outputs[ord]))
            return false;
    }
    return true;
}
