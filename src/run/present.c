/* What k2s-run shows of a run's results, for people: `--print=2,3` (which arguments),
 * `--output DIR` (each as a typed NumPy .npy file instead of text), `--version`.
 * Kept apart from main.c so the runner's other work does not touch it. */
#include "present.h"

#include <errno.h>
#include <k2s/k2s.h>
#include <stdlib.h>
#include <string.h>

static bool is_result(const struct k2s_arg *a)
{
    return a->kind == K2S_ARG_BUFFER || a->kind == K2S_ARG_IMAGE;
}

bool present_parse(const char *print, const char *output, const struct k2s_arg *args, size_t n,
                   struct present *p)
{
    memset(p, 0, sizeof *p);
    p->output = output;
    p->selected = calloc(n ? n : 1, sizeof *p->selected);
    if (!p->selected) {
        k2s_error("out of memory");
        return false;
    }
    if (!print) {
        for (size_t i = 0; i < n; i++)
            p->selected[i] = is_result(&args[i]);
        return true;
    }
    if (strcmp(print, "none") == 0)
        return true;
    for (const char *s = print; *s;) {
        char *end;
        errno = 0;
        unsigned long k = strtoul(s, &end, 10);
        if (end == s || errno || (*end && *end != ',') || *s == '-' || *s == '+') {
            k2s_error("--print takes argument numbers separated by commas (e.g. --print=2,3) "
                      "or 'none', not '%s'",
                      print);
            return false;
        }
        if (k >= n) {
            k2s_error("--print: argument %lu does not exist (the kernel is given %zu "
                      "argument%s, numbered from 0)",
                      k, n, n == 1 ? "" : "s");
            return false;
        }
        if (!is_result(&args[k])) {
            k2s_error("--print: argument %lu (%s) is not a buffer or an image; only those "
                      "have results",
                      k, args[k].text);
            return false;
        }
        p->selected[k] = true;
        s = *end ? end + 1 : end;
    }
    return true;
}

void present_free(struct present *p)
{
    free(p->selected);
    memset(p, 0, sizeof *p);
}

/* The NumPy dtype of a buffer's scalars or an image's channels ('<' little-endian:
 * the host's order on every machine k2s-run runs on). */
static const char *dtype(const struct k2s_arg *a)
{
    if (a->kind == K2S_ARG_IMAGE) {
        static const char *const ch[] = {
            [K2S_CH_UNORM8] = "|u1",  [K2S_CH_SNORM8] = "|i1", [K2S_CH_UNORM16] = "<u2",
            [K2S_CH_SNORM16] = "<i2", [K2S_CH_UINT8] = "|u1",  [K2S_CH_INT8] = "|i1",
            [K2S_CH_UINT16] = "<u2",  [K2S_CH_INT16] = "<i2",  [K2S_CH_UINT32] = "<u4",
            [K2S_CH_INT32] = "<i4",   [K2S_CH_HALF] = "<f2",   [K2S_CH_FLOAT] = "<f4"};
        return ch[a->image.type];
    }
    static const char *const sc[] = {
        [K2S_CHAR] = "|i1",  [K2S_UCHAR] = "|u1", [K2S_SHORT] = "<i2",  [K2S_USHORT] = "<u2",
        [K2S_INT] = "<i4",   [K2S_UINT] = "<u4",  [K2S_LONG] = "<i8",   [K2S_ULONG] = "<u8",
        [K2S_HALF] = "<f2",  [K2S_FLOAT] = "<f4", [K2S_DOUBLE] = "<f8", [K2S_STRUCT] = "|u1"};
    return sc[a->type.scalar];
}

/* The array's shape, "(N,)" style; *lanes_kept tells a 3-vector's padding lane to drop. */
static void shape(const struct k2s_arg *a, char *buf, size_t size, unsigned *lanes_kept)
{
    *lanes_kept = 0;
    if (a->kind == K2S_ARG_IMAGE) {
        const struct k2s_image *im = &a->image;
        size_t len = 0;
        len += (size_t)snprintf(buf + len, size - len, "(");
        if (im->dim == K2S_IMG_1D_ARRAY || im->dim == K2S_IMG_2D_ARRAY)
            len += (size_t)snprintf(buf + len, size - len, "%u, ", im->layers);
        if (im->dim == K2S_IMG_3D)
            len += (size_t)snprintf(buf + len, size - len, "%u, ", im->depth);
        if (im->dim == K2S_IMG_2D || im->dim == K2S_IMG_2D_ARRAY || im->dim == K2S_IMG_3D)
            len += (size_t)snprintf(buf + len, size - len, "%u, ", im->height);
        snprintf(buf + len, size - len, "%u, %u)", im->width, im->channels);
        return;
    }
    unsigned lanes = a->type.lanes;
    if (a->type.scalar == K2S_STRUCT)
        snprintf(buf, size, "(%zu,)", a->size);
    else if (lanes == 1)
        snprintf(buf, size, "(%llu,)", (unsigned long long)a->count);
    else {
        *lanes_kept = lanes == 3 ? 3 : 0; /* OpenCL stores a 3-vector in 4 lanes */
        snprintf(buf, size, "(%llu, %u)", (unsigned long long)a->count, lanes);
    }
}

/* NumPy format 1.0: magic, version, header length, a dict padded with spaces to a
 * multiple of 64 bytes ending in '\n', then the data in C order. */
static bool write_npy(const char *path, const struct k2s_arg *a, const unsigned char *data)
{
    char shp[128], header[256];
    unsigned keep;
    shape(a, shp, sizeof shp, &keep);
    int n = snprintf(header, sizeof header,
                     "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dtype(a), shp);
    size_t total = 10 + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    FILE *f = fopen(path, "wb");
    if (!f) {
        k2s_error("--output: cannot create '%s': %s", path, strerror(errno));
        return false;
    }
    unsigned short hlen = (unsigned short)(padded - 10);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                             (unsigned char)(hlen >> 8)};
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(header, 1, (size_t)n, f) == (size_t)n;
    for (size_t k = total; ok && k < padded; k++)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    if (keep) { /* the 3 used lanes of each 4-lane element */
        size_t lane = k2s_scalar_size(a->type.scalar);
        for (uint64_t e = 0; ok && e < a->count; e++)
            ok = fwrite(data + e * 4 * lane, lane, 3, f) == 3;
    } else {
        ok = ok && fwrite(data, 1, a->size, f) == a->size;
    }
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        k2s_error("--output: cannot write '%s': %s", path, strerror(errno));
    return ok;
}

bool present_outputs(const struct present *p, const struct k2s_arg *args, size_t n,
                     unsigned char *const *outputs, const char *dump_dir)
{
    if (!p->output)
        return k2s_emit_outputs(args, n, outputs, dump_dir, p->selected);
    if (!k2s_make_dirs("--output", p->output))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!p->selected[i] || !outputs[i])
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/arg%zu.npy", p->output, i) >= (int)sizeof path) {
            k2s_error("--output: path too long");
            return false;
        }
        if (!write_npy(path, &args[i], outputs[i]))
            return false;
        printf("arg %zu: %s\n", i, path);
    }
    if (fflush(stdout) != 0) {
        k2s_error("cannot write the results to stdout");
        return false;
    }
    return true;
}

/* The library's version (k2s_version), as k2s and k2s-cc print it. */
void present_version(FILE *out)
{
    fprintf(out, "k2s-run %s\n", k2s_version());
}
