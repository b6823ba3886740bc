/* Argument-spec parsing, input generation and result printing shared by both hosts.
 * See corpus/FORMAT.md for the user-visible definition of every format handled here. */
#include "argspec.h"
#include "../hex.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *prog_name = "k2s-run";
static unsigned error_count;

unsigned k2s_error_count(void) { return error_count; }

void k2s_set_prog(const char *name) { prog_name = name; }
const char *k2s_prog(void) { return prog_name; }

void k2s_error(const char *fmt, ...)
{
    va_list ap;
    error_count++;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void k2s_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: warning: ", prog_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- types ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    size_t size;
} scalar_info[] = {
    [K2S_CHAR] = {"char", 1},     [K2S_UCHAR] = {"uchar", 1},   [K2S_SHORT] = {"short", 2},
    [K2S_USHORT] = {"ushort", 2}, [K2S_INT] = {"int", 4},       [K2S_UINT] = {"uint", 4},
    [K2S_LONG] = {"long", 8},     [K2S_ULONG] = {"ulong", 8},   [K2S_HALF] = {"half", 2},
    [K2S_FLOAT] = {"float", 4},   [K2S_DOUBLE] = {"double", 8}, [K2S_STRUCT] = {"struct", 1},
};

size_t k2s_scalar_size(enum k2s_scalar s) { return scalar_info[s].size; }
const char *k2s_scalar_name(enum k2s_scalar s) { return scalar_info[s].name; }

bool k2s_scalar_is_float(enum k2s_scalar s)
{
    return s == K2S_HALF || s == K2S_FLOAT || s == K2S_DOUBLE;
}

static bool scalar_is_signed(enum k2s_scalar s)
{
    return s == K2S_CHAR || s == K2S_SHORT || s == K2S_INT || s == K2S_LONG;
}

/* OpenCL stores a 3-component vector in the space of 4. */
static unsigned storage_lanes(struct k2s_type t) { return t.lanes == 3 ? 4 : t.lanes; }

size_t k2s_type_size(struct k2s_type t) { return k2s_scalar_size(t.scalar) * storage_lanes(t); }

bool k2s_parse_type(const char *name, size_t len, struct k2s_type *out)
{
    /* Longest scalar-name prefix first, so "uchar4" is not read as "char". */
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof scalar_info / sizeof scalar_info[0]; i++) {
        size_t n = strlen(scalar_info[i].name);
        if (n <= len && n > best_len && strncmp(name, scalar_info[i].name, n) == 0) {
            best_len = n;
            out->scalar = (enum k2s_scalar)i;
        }
    }
    if (best_len == 0)
        return false;
    const char *suffix = name + best_len;
    size_t suffix_len = len - best_len;
    if (suffix_len == 0) {
        out->lanes = 1;
        return true;
    }
    if (out->scalar == K2S_STRUCT || suffix_len > 2)
        return false;
    char digits[3] = {0};
    memcpy(digits, suffix, suffix_len);
    static const char *const widths[] = {"2", "3", "4", "8", "16"};
    for (size_t i = 0; i < 5; i++) {
        if (strcmp(digits, widths[i]) == 0) {
            out->lanes = (unsigned)atoi(digits);
            return true;
        }
    }
    return false;
}

/* ---- numbers --------------------------------------------------------------------------- */

/* Decimal, or hex with 0x; a leading '-' is allowed. Not strtoull(base 0): "010" must be 10. */
static bool parse_u64(const char *s, uint64_t *out, bool *negative)
{
    *negative = false;
    if (*s == '-') {
        *negative = true;
        s++;
    } else if (*s == '+') {
        s++;
    }
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

/* An integer for a type of `bits` bits: accepted when it fits either the signed or the
 * unsigned range (so uchar accepts -1 and 255 alike); returned as two's complement bits. */
static bool parse_int_for(const char *s, unsigned bits, uint64_t *out)
{
    uint64_t mag;
    bool neg;
    if (!parse_u64(s, &mag, &neg))
        return false;
    uint64_t umax = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t neg_max = UINT64_C(1) << (bits - 1);
    if (neg ? mag > neg_max : mag > umax)
        return false;
    *out = neg ? (uint64_t)0 - mag : mag;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    if (*s == '\0')
        return false;
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    /* Underflow still gives a usable (denormal or zero) value; overflow is a typo. */
    return *end == '\0' && !(errno == ERANGE && isinf(*out));
}

static bool parse_size(const char *s, uint64_t *out)
{
    bool neg;
    return parse_u64(s, out, &neg) && !neg;
}

/* ---- half -------------------------------------------------------------------------------- */

uint16_t k2s_double_to_half(double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    if (isnan(d))
        return sign | 0x7e00;
    double a = fabs(d);
    /* 65520 is halfway between 65504 (max half, odd mantissa) and 2^16: rounds to inf. */
    if (a >= 65520.0)
        return sign | 0x7c00;
    if (a < ldexp(1.0, -14)) {
        /* Subnormal: units of 2^-24; nearbyint rounds to nearest even. Rounding up to
         * 1024 units yields the smallest normal's encoding, which is correct. */
        return sign | (uint16_t)nearbyint(ldexp(a, 24));
    }
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exponent = e - 1;
    double mant = nearbyint((ldexp(f, 1) - 1.0) * 1024.0);
    if (mant >= 1024.0) {
        mant = 0.0;
        exponent++;
    }
    return sign | (uint16_t)((exponent + 15) << 10) | (uint16_t)mant;
}

float k2s_half_to_float(uint16_t h)
{
    int exponent = (h >> 10) & 0x1f;
    int mant = h & 0x3ff;
    double v;
    if (exponent == 0)
        v = ldexp(mant, -24);
    else if (exponent == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexp(mant + 1024, exponent - 25);
    return (float)((h & 0x8000) ? -v : v);
}

/* ---- lane stores and loads ---------------------------------------------------------------- */

static void store_int(enum k2s_scalar s, unsigned char *dst, uint64_t v)
{
    /* Truncation to the low bytes; hosts are little-endian like every Vulkan/OpenCL target
     * we run on, and the bytes are copied, not reinterpreted, so aliasing is not an issue. */
    uint8_t b8 = (uint8_t)v;
    uint16_t b16 = (uint16_t)v;
    uint32_t b32 = (uint32_t)v;
    switch (k2s_scalar_size(s)) {
    case 1: memcpy(dst, &b8, 1); break;
    case 2: memcpy(dst, &b16, 2); break;
    case 4: memcpy(dst, &b32, 4); break;
    default: memcpy(dst, &v, 8); break;
    }
}

static void store_float(enum k2s_scalar s, unsigned char *dst, double v)
{
    if (s == K2S_HALF) {
        uint16_t h = k2s_double_to_half(v);
        memcpy(dst, &h, 2);
    } else if (s == K2S_FLOAT) {
        float f = (float)v;
        memcpy(dst, &f, 4);
    } else {
        memcpy(dst, &v, 8);
    }
}

/* Stores a numeric text value into one lane, checking it suits the type. */
static bool store_text(enum k2s_scalar s, unsigned char *dst, const char *text)
{
    if (k2s_scalar_is_float(s)) {
        double d;
        if (!parse_double(text, &d))
            return false;
        store_float(s, dst, d);
        return true;
    }
    uint64_t v;
    if (!parse_int_for(text, (unsigned)k2s_scalar_size(s) * 8, &v))
        return false;
    store_int(s, dst, v);
    return true;
}

/* ---- random ------------------------------------------------------------------------------- */

uint64_t k2s_rand_next(uint64_t *state)
{
    /* splitmix64 (Steele, Lea, Flood 2014): tiny, well mixed, trivially reproducible. */
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

struct rand_range {
    bool has_range;
    uint64_t lo_bits, hi_bits; /* integers, two's complement */
    double lo, hi;             /* floats */
};

/* Without a range, floats are exact multiples of the type's epsilon in [-1, 1): the top
 * mantissa-width bits of z are taken as an integer k and mapped to (k - 2^(p-1)) / 2^(p-1). */
static double rand_float_unit(enum k2s_scalar s, uint64_t z)
{
    switch (s) {
    case K2S_HALF: return ldexp((double)(int64_t)(z >> 53) - 1024.0, -10);
    case K2S_FLOAT: return ldexp((double)(int64_t)(z >> 40) - 8388608.0, -23);
    default: return ldexp((double)(int64_t)(z >> 11) - 4503599627370496.0, -52);
    }
}

static void store_random(enum k2s_scalar s, unsigned char *dst, uint64_t z,
                         const struct rand_range *r)
{
    if (k2s_scalar_is_float(s)) {
        if (!r->has_range) {
            store_float(s, dst, rand_float_unit(s, z));
            return;
        }
        double u = ldexp((double)(z >> 11), -53); /* [0, 1) */
        store_float(s, dst, r->lo + (r->hi - r->lo) * u);
        return;
    }
    if (!r->has_range) {
        store_int(s, dst, z);
        return;
    }
    uint64_t span = r->hi_bits - r->lo_bits + 1; /* 0 means the full 64-bit range */
    store_int(s, dst, r->lo_bits + (span ? z % span : z));
}

static bool range_bound_less(enum k2s_scalar s, uint64_t a, uint64_t b)
{
    unsigned bits = (unsigned)k2s_scalar_size(s) * 8;
    if (!scalar_is_signed(s))
        return a < b;
    /* Sign-extend from the type width so "-1" and "255" for char compare sensibly. */
    int64_t sa = (int64_t)(a << (64 - bits)) >> (64 - bits);
    int64_t sb = (int64_t)(b << (64 - bits)) >> (64 - bits);
    return sa < sb;
}

/* "SEED" or "SEED:LO:HI". */
static bool parse_rand(enum k2s_scalar s, char *text, uint64_t *seed, struct rand_range *r)
{
    memset(r, 0, sizeof *r);
    char *lo = strchr(text, ':');
    if (lo) {
        *lo++ = '\0';
        char *hi = strchr(lo, ':');
        if (!hi)
            return false;
        *hi++ = '\0';
        r->has_range = true;
        if (k2s_scalar_is_float(s)) {
            if (!parse_double(lo, &r->lo) || !parse_double(hi, &r->hi) || !(r->lo <= r->hi))
                return false;
        } else {
            unsigned bits = (unsigned)k2s_scalar_size(s) * 8;
            if (!parse_int_for(lo, bits, &r->lo_bits) || !parse_int_for(hi, bits, &r->hi_bits))
                return false;
            if (range_bound_less(s, r->hi_bits, r->lo_bits))
                return false;
            /* Work in the type's own signedness so the span is right for negatives. */
            if (scalar_is_signed(s) && bits < 64) {
                r->lo_bits = (uint64_t)((int64_t)(r->lo_bits << (64 - bits)) >> (64 - bits));
                r->hi_bits = (uint64_t)((int64_t)(r->hi_bits << (64 - bits)) >> (64 - bits));
            } else if (bits < 64) {
                r->lo_bits &= (UINT64_C(1) << bits) - 1;
                r->hi_bits &= (UINT64_C(1) << bits) - 1;
            }
        }
    }
    return parse_size(text, seed);
}

/* ---- buffers -------------------------------------------------------------------------------- */

/* Calls visit(lane_ptr, lane_index) for every real lane, skipping vec3 padding lanes. */
struct lane_iter {
    unsigned char *base;
    uint64_t count;
    struct k2s_type type;
};

static size_t lane_count(const struct lane_iter *it) { return (size_t)it->count * it->type.lanes; }

static unsigned char *lane_ptr(const struct lane_iter *it, size_t k)
{
    size_t elem = k / it->type.lanes, lane = k % it->type.lanes;
    return it->base + elem * k2s_type_size(it->type) + lane * k2s_scalar_size(it->type.scalar);
}

static bool init_fill(const struct lane_iter *it, const char *value)
{
    unsigned char tmp[8];
    if (!store_text(it->type.scalar, tmp, value))
        return false;
    size_t n = k2s_scalar_size(it->type.scalar);
    for (size_t k = 0; k < lane_count(it); k++)
        memcpy(lane_ptr(it, k), tmp, n);
    return true;
}

static void init_iota(const struct lane_iter *it)
{
    for (size_t k = 0; k < lane_count(it); k++) {
        if (k2s_scalar_is_float(it->type.scalar))
            store_float(it->type.scalar, lane_ptr(it, k), (double)k);
        else
            store_int(it->type.scalar, lane_ptr(it, k), k);
    }
}

static bool init_rand(const struct lane_iter *it, char *text)
{
    uint64_t state;
    struct rand_range range;
    if (!parse_rand(it->type.scalar, text, &state, &range))
        return false;
    for (size_t k = 0; k < lane_count(it); k++)
        store_random(it->type.scalar, lane_ptr(it, k), k2s_rand_next(&state), &range);
    return true;
}

static bool init_file(struct k2s_arg *arg, const char *path)
{
    size_t size;
    unsigned char *data = k2s_read_file(path, &size);
    if (!data)
        return false;
    if (size < arg->size) {
        k2s_error("--arg %s: file '%s' has %zu bytes, the buffer needs %zu", arg->text, path,
                  size, arg->size);
        free(data);
        return false;
    }
    memcpy(arg->bytes, data, arg->size);
    free(data);
    return true;
}

static bool apply_init(struct k2s_arg *arg, char *init)
{
    struct lane_iter it = {arg->bytes, arg->count, arg->type};
    if (strcmp(init, "zeros") == 0)
        return true;
    if (strcmp(init, "iota") == 0) {
        init_iota(&it);
        return true;
    }
    if (strncmp(init, "fill:", 5) == 0) {
        if (init_fill(&it, init + 5))
            return true;
        k2s_error("--arg %s: '%s' is not a valid %s value", arg->text, init + 5,
                  k2s_scalar_name(arg->type.scalar));
        return false;
    }
    if (strncmp(init, "rand:", 5) == 0) {
        if (init_rand(&it, init + 5))
            return true;
        k2s_error("--arg %s: expected rand:SEED or rand:SEED:LO:HI with LO <= HI", arg->text);
        return false;
    }
    if (strncmp(init, "file:", 5) == 0)
        return init_file(arg, init + 5);
    k2s_error("--arg %s: unknown initialiser '%s' (zeros, fill:V, iota, rand:SEED, file:PATH)",
              arg->text, init);
    return false;
}

/* Buffers above this are surely a typo and would only exhaust memory. */
#define MAX_BUFFER_BYTES (UINT64_C(1) << 34)

/* "TYPE:COUNT[=INIT]" */
static bool parse_buffer(char *body, struct k2s_arg *arg)
{
    char *colon = strchr(body, ':');
    if (!colon) {
        k2s_error("--arg %s: expected buffer:TYPE:COUNT=INIT", arg->text);
        return false;
    }
    if (!k2s_parse_type(body, (size_t)(colon - body), &arg->type) ||
        arg->type.scalar == K2S_STRUCT) {
        k2s_error("--arg %s: unknown element type '%.*s'", arg->text, (int)(colon - body), body);
        return false;
    }
    char *count = colon + 1;
    char *init = strchr(count, '=');
    if (init)
        *init++ = '\0';
    size_t elem = k2s_type_size(arg->type);
    if (!parse_size(count, &arg->count) || arg->count == 0 ||
        arg->count > MAX_BUFFER_BYTES / elem) {
        k2s_error("--arg %s: bad element count '%s' (must be 1 .. %" PRIu64 ")", arg->text,
                  count, MAX_BUFFER_BYTES / elem);
        return false;
    }
    arg->size = (size_t)arg->count * elem;
    arg->bytes = calloc(1, arg->size);
    if (!arg->bytes) {
        k2s_error("--arg %s: out of memory for %zu bytes", arg->text, arg->size);
        return false;
    }
    return apply_init(arg, init ? init : "zeros");
}

static bool parse_struct_pod(const char *hex, struct k2s_arg *arg)
{
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex += 2;
    size_t len = strlen(hex);
    if (len == 0 || len % 2 != 0) {
        k2s_error("--arg %s: struct bytes must be a non-empty even number of hex digits",
                  arg->text);
        return false;
    }
    arg->size = len / 2;
    arg->bytes = calloc(1, arg->size);
    if (!arg->bytes) {
        k2s_error("--arg %s: out of memory", arg->text);
        return false;
    }
    size_t bad = k2s_hex_decode(hex, arg->size, arg->bytes);
    if (bad < arg->size) {
        k2s_error("--arg %s: '%c%c' is not a hex byte", arg->text, hex[2 * bad],
                  hex[2 * bad + 1]);
        return false;
    }
    return true;
}

/* Splits `values` on commas into the lanes of a POD; one value is splatted to all lanes. */
static bool fill_pod_lanes(char *values, struct k2s_arg *arg)
{
    char *parts[16];
    unsigned n = 0;
    for (char *p = values;; n++) {
        if (n == 16) {
            k2s_error("--arg %s: too many values", arg->text);
            return false;
        }
        parts[n] = p;
        char *comma = strchr(p, ',');
        if (!comma) {
            n++;
            break;
        }
        *comma = '\0';
        p = comma + 1;
    }
    if (n != 1 && n != arg->type.lanes) {
        k2s_error("--arg %s: %u values given for a %u-component type", arg->text, n,
                  arg->type.lanes);
        return false;
    }
    size_t ssize = k2s_scalar_size(arg->type.scalar);
    for (unsigned lane = 0; lane < arg->type.lanes; lane++) {
        const char *text = parts[n == 1 ? 0 : lane];
        if (!store_text(arg->type.scalar, arg->bytes + lane * ssize, text)) {
            k2s_error("--arg %s: '%s' is not a valid %s value", arg->text, text,
                      k2s_scalar_name(arg->type.scalar));
            return false;
        }
    }
    return true;
}

/* "TYPE=V[,V...]" or "struct=HEX" */
static bool parse_pod(char *body, struct k2s_arg *arg)
{
    char *eq = strchr(body, '=');
    if (!eq) {
        k2s_error("--arg %s: expected pod:TYPE=VALUE", arg->text);
        return false;
    }
    if (!k2s_parse_type(body, (size_t)(eq - body), &arg->type)) {
        k2s_error("--arg %s: unknown type '%.*s'", arg->text, (int)(eq - body), body);
        return false;
    }
    if (arg->type.scalar == K2S_STRUCT)
        return parse_struct_pod(eq + 1, arg);
    arg->count = 1;
    arg->size = k2s_type_size(arg->type);
    arg->bytes = calloc(1, arg->size);
    if (!arg->bytes) {
        k2s_error("--arg %s: out of memory", arg->text);
        return false;
    }
    return fill_pod_lanes(eq + 1, arg);
}

static bool parse_local(const char *body, struct k2s_arg *arg)
{
    uint64_t bytes;
    if (!parse_size(body, &bytes) || bytes == 0 || bytes > UINT32_MAX) {
        k2s_error("--arg %s: expected local:BYTES with BYTES > 0", arg->text);
        return false;
    }
    arg->size = (size_t)bytes;
    return true;
}

bool k2s_arg_parse(const char *text, struct k2s_arg *out)
{
    memset(out, 0, sizeof *out);
    out->text = text;
    char *copy = strdup(text);
    if (!copy) {
        k2s_error("out of memory");
        return false;
    }
    bool ok;
    if (strncmp(copy, "buffer:", 7) == 0) {
        out->kind = K2S_ARG_BUFFER;
        ok = parse_buffer(copy + 7, out);
    } else if (strncmp(copy, "pod:", 4) == 0) {
        out->kind = K2S_ARG_POD;
        ok = parse_pod(copy + 4, out);
    } else if (strncmp(copy, "local:", 6) == 0) {
        out->kind = K2S_ARG_LOCAL;
        ok = parse_local(copy + 6, out);
    } else if (strncmp(copy, "image", 5) == 0) {
        out->kind = K2S_ARG_IMAGE;
        ok = k2s_image_parse(text, out);
    } else if (strncmp(copy, "sampler:", 8) == 0) {
        out->kind = K2S_ARG_SAMPLER;
        ok = k2s_sampler_parse(text + 8, out);
    } else {
        k2s_error("--arg %s: expected buffer:..., pod:..., local:..., image...:... or sampler:...",
                  text);
        ok = false;
    }
    free(copy);
    if (!ok)
        k2s_arg_free(out);
    return ok;
}

void k2s_arg_free(struct k2s_arg *arg)
{
    free(arg->bytes);
    arg->bytes = NULL;
    arg->size = 0;
}

/* ---- NDRange ------------------------------------------------------------------------------ */

bool k2s_parse_ndrange(const char *what, const char *text, uint64_t fill, uint64_t out[3],
                       unsigned *dims)
{
    out[0] = out[1] = out[2] = fill;
    *dims = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char tok[32];
        uint64_t v;
        bool ok = *dims < 3 && len > 0 && len < sizeof tok;
        if (ok) {
            memcpy(tok, p, len);
            tok[len] = '\0';
            ok = parse_size(tok, &v) && v <= UINT32_MAX;
        }
        if (!ok) {
            k2s_error("%s: expected X[,Y[,Z]] with up to 3 integers below 2^32, got '%s'",
                      what, text);
            return false;
        }
        out[(*dims)++] = v;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

void k2s_default_local(const uint64_t global[3], uint64_t local[3])
{
    local[0] = 1;
    for (uint64_t size = 64; size > 1; size /= 2) {
        if (global[0] % size == 0) {
            local[0] = size;
            break;
        }
    }
    local[1] = local[2] = 1;
}

/* ---- output -------------------------------------------------------------------------------- */

static void print_lane(FILE *out, enum k2s_scalar s, const unsigned char *p)
{
    union {
        int8_t i8;
        uint8_t u8;
        int16_t i16;
        uint16_t u16;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f;
        double d;
    } v;
    memcpy(&v, p, k2s_scalar_size(s));
    switch (s) {
    case K2S_CHAR: fprintf(out, " %d", v.i8); break;
    case K2S_UCHAR: fprintf(out, " %u", v.u8); break;
    case K2S_SHORT: fprintf(out, " %d", v.i16); break;
    case K2S_USHORT: fprintf(out, " %u", v.u16); break;
    case K2S_INT: fprintf(out, " %" PRId32, v.i32); break;
    case K2S_UINT: fprintf(out, " %" PRIu32, v.u32); break;
    case K2S_LONG: fprintf(out, " %" PRId64, v.i64); break;
    case K2S_ULONG: fprintf(out, " %" PRIu64, v.u64); break;
    case K2S_HALF: fprintf(out, " %.9g", (double)k2s_half_to_float(v.u16)); break;
    case K2S_FLOAT: fprintf(out, " %.9g", (double)v.f); break;
    case K2S_DOUBLE: fprintf(out, " %.17g", v.d); break;
    case K2S_STRUCT: fprintf(out, " %02x", v.u8); break;
    }
}

void k2s_print_buffer(FILE *out, unsigned ordinal, const struct k2s_arg *arg, const void *data)
{
    struct lane_iter it = {(unsigned char *)data, arg->count, arg->type};
    fprintf(out, "arg %u:", ordinal);
    for (size_t k = 0; k < lane_count(&it); k++)
        print_lane(out, arg->type.scalar, lane_ptr(&it, k));
    fputc('\n', out);
}

bool k2s_dump_buffer(const char *dir, unsigned ordinal, const void *data, size_t size)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/arg%u.bin", dir, ordinal) >= (int)sizeof path) {
        k2s_error("--dump-dir: path too long");
        return false;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        k2s_error("cannot create '%s': %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        k2s_error("cannot write '%s': %s", path, strerror(errno));
    return ok;
}

unsigned char *k2s_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        k2s_error("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *data = malloc(cap);
    while (data) {
        len += fread(data + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *bigger = cap < (SIZE_MAX / 2) ? realloc(data, cap * 2) : NULL;
        if (!bigger) {
            free(data);
            data = NULL;
            break;
        }
        data = bigger;
        cap *= 2;
    }
    if (!data || ferror(f)) {
        k2s_error("cannot read '%s': %s", path, data ? strerror(errno) : "out of memory");
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = len;
    return data;
}
