/* Prints the records of a translated module's printf buffer as an OpenCL implementation
 * prints printf output (docs/runtime-abi.md, "printf"): each record's format from the
 * reflection (PrintfInfo), each conversion done by the C library's printf on the value
 * the record holds, vector lanes joined by commas, string arguments by their id. */
#include "printf_out.h"

#include "../printf_format.h"
#include "argspec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct out {
    char *text;
    size_t len, cap;
};

static bool put(struct out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->len + n + 1) * 2;
        char *grown = realloc(o->text, cap);
        if (!grown)
            return false;
        o->text = grown, o->cap = cap;
    }
    memcpy(o->text + o->len, s, n);
    o->len += n;
    o->text[o->len] = 0;
    return true;
}

static const struct refl_printf *find_format(const struct refl_module *r, uint32_t id)
{
    for (size_t i = 0; i < r->nprintfs; i++)
        if (r->printfs[i].id == id)
            return &r->printfs[i];
    return NULL;
}

static uint64_t load(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

/* One value (a scalar or one vector lane) of `bytes` bytes at p, converted as the
 * specification `spec` says, by the C library with a C length modifier. */
static bool convert(struct out *o, const char *spec, size_t spec_len, const k2s_printf_spec *s,
                    const unsigned char *p, unsigned bytes)
{
    char cfmt[96], buf[4096];
    const char *flags = spec + 1; /* flags, width and precision */
    int nflags = (int)(s->flags_end - s->start - 1);
    if (spec_len > 64)
        return false;
    uint64_t v = load(p, bytes);
    int n;
    if (k2s_printf_is_float_conv(s->conv)) {
        double d;
        if (bytes == 2) {
            d = k2s_half_to_float((uint16_t)v);
        } else if (bytes == 4) {
            float f;
            uint32_t u = (uint32_t)v;
            memcpy(&f, &u, 4);
            d = f;
        } else {
            memcpy(&d, &v, 8);
        }
        snprintf(cfmt, sizeof cfmt, "%%%.*s%c", nflags, flags, s->conv);
        n = snprintf(buf, sizeof buf, cfmt, d);
    } else if (s->conv == 'c') {
        snprintf(cfmt, sizeof cfmt, "%%%.*sc", nflags, flags);
        n = snprintf(buf, sizeof buf, cfmt, (int)(unsigned char)v);
    } else if (s->conv == 'p') {
        snprintf(cfmt, sizeof cfmt, "%%%.*sp", nflags, flags);
        n = snprintf(buf, sizeof buf, cfmt, (void *)(uintptr_t)v);
    } else {
        /* The element width: a vector's from its length modifier, a scalar's from its
         * slot, narrowed as hh / h ask (C converts the promoted int the same way). */
        unsigned width = s->vec ? s->length : bytes;
        if (!s->vec && (s->length == 1 || s->length == 2))
            width = s->length;
        bool is_signed = s->conv == 'd' || s->conv == 'i';
        int64_t sv;
        switch (width) {
        case 1: sv = is_signed ? (int8_t)v : (int64_t)(uint8_t)v; break;
        case 2: sv = is_signed ? (int16_t)v : (int64_t)(uint16_t)v; break;
        case 4: sv = is_signed ? (int32_t)v : (int64_t)(uint32_t)v; break;
        default: sv = (int64_t)v; break;
        }
        snprintf(cfmt, sizeof cfmt, "%%%.*sll%c", nflags, flags, s->conv);
        n = is_signed ? snprintf(buf, sizeof buf, cfmt, (long long)sv)
                      : snprintf(buf, sizeof buf, cfmt, (unsigned long long)(uint64_t)sv);
    }
    if (n < 0 || (size_t)n >= sizeof buf) {
        k2s_error("printf: a conversion of more than %zu characters", sizeof buf - 1);
        return false;
    }
    return put(o, buf, (size_t)n);
}

/* A %s conversion: the argument is the id of the string's PrintfInfo. */
static bool convert_string(struct out *o, const struct refl_module *r, const k2s_printf_spec *s,
                           const char *spec, uint32_t id)
{
    const struct refl_printf *str = find_format(r, id);
    if (!str) {
        k2s_error("printf: a %%s argument names string %u, which the reflection lacks", id);
        return false;
    }
    char cfmt[96];
    snprintf(cfmt, sizeof cfmt, "%%%.*ss", (int)(s->flags_end - s->start - 1), spec + 1);
    int n = snprintf(NULL, 0, cfmt, str->format);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!buf)
        return false;
    snprintf(buf, (size_t)n + 1, cfmt, str->format);
    bool ok = put(o, buf, (size_t)n);
    free(buf);
    return ok;
}

/* One record: its format's text with each conversion replaced by its argument. */
static bool print_record(struct out *o, const struct refl_module *r, const struct refl_printf *f,
                         const unsigned char *args)
{
    const char *fmt = f->format;
    size_t len = strlen(fmt), pos = 0, done = 0, arg = 0, offset = 0;
    k2s_printf_spec s;
    const char *why;
    int got;
    while ((got = k2s_printf_next(fmt, len, &pos, &s, &why)) > 0) {
        if (!put(o, fmt + done, s.start - done))
            return false;
        done = s.end;
        if (s.conv == '%') {
            if (!put(o, "%", 1))
                return false;
            continue;
        }
        if (arg >= f->nargs) {
            k2s_error("printf: format %u has more conversions than argument sizes", f->id);
            return false;
        }
        const unsigned char *p = args + offset;
        uint32_t size = f->arg_sizes[arg++];
        offset += size;
        if (s.conv == 's') {
            if (!convert_string(o, r, &s, fmt + s.start, (uint32_t)load(p, 4)))
                return false;
            continue;
        }
        if (!s.vec) {
            if (!convert(o, fmt + s.start, s.end - s.start, &s, p, size > 8 ? 8 : size))
                return false;
            continue;
        }
        if ((size_t)s.vec * s.length > size) {
            k2s_error("printf: format %u: a %u-lane vector of %u-byte lanes in %u bytes", f->id,
                      s.vec, s.length, size);
            return false;
        }
        for (unsigned k = 0; k < s.vec; k++)
            if ((k && !put(o, ",", 1)) ||
                !convert(o, fmt + s.start, s.end - s.start, &s, p + k * s.length, s.length))
                return false;
    }
    if (got < 0) {
        k2s_error("printf: format %u: %s", f->id, why);
        return false;
    }
    return put(o, fmt + done, len - done);
}

static uint32_t record_words(const struct refl_printf *f)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < f->nargs; i++)
        bytes += f->arg_sizes[i];
    return (uint32_t)(1 + bytes / 4);
}

bool k2s_print_printf_buffer(const struct refl_module *r, const unsigned char *buf, size_t size,
                             FILE *out)
{
    if (size < 16 || size % 4) {
        k2s_error("printf buffer of %zu bytes (at least 16, a multiple of 4)", size);
        return false;
    }
    uint32_t total = (uint32_t)(size / 4), capacity = total - 2;
    uint32_t used = (uint32_t)load(buf, 4), lost = (uint32_t)load(buf + size - 4, 4);
    if (used > capacity) {
        k2s_error("printf buffer: word 0 says %u words were written, but it holds %u", used,
                  capacity);
        return false;
    }
    struct out o = {0};
    bool ok = true;
    for (uint32_t pos = 1; ok && pos < 1 + used;) {
        uint32_t id = (uint32_t)load(buf + 4 * (size_t)pos, 4);
        const struct refl_printf *f = find_format(r, id);
        if (!f) {
            k2s_error("printf buffer: the record at word %u names format %u, which the "
                      "reflection lacks",
                      pos, id);
            ok = false;
            break;
        }
        uint32_t n = record_words(f);
        if (pos + n > 1 + used) {
            k2s_error("printf buffer: the record at word %u runs past the %u words written", pos,
                      used);
            ok = false;
            break;
        }
        o.len = 0;
        ok = print_record(&o, r, f, buf + 4 * ((size_t)pos + 1)) &&
             fwrite(o.text ? o.text : "", 1, o.len, out) == o.len;
        pos += n;
    }
    free(o.text);
    fflush(out);
    if (lost)
        fprintf(stderr,
                "%s: %u printf record%s lost: the printf buffer (%zu bytes) was full "
                "(translate with a larger -printf-buffer-size)\n",
                k2s_prog(), lost, lost == 1 ? " was" : "s were", size);
    return ok;
}
