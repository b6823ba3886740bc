/* Command-line helpers shared by k2s-run and k2s-clref, so both accept the same language. */
#include "argspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct k2s_option *find_option(const struct k2s_option *opts, size_t n,
                                            const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

static bool store_value(const struct k2s_option *o, const char *value)
{
    if (o->value) {
        *o->value = value;
        return true;
    }
    const char **grown = realloc(*o->list, (*o->nlist + 1) * sizeof *grown);
    if (!grown) {
        k2s_error("out of memory");
        return false;
    }
    grown[(*o->nlist)++] = value;
    *o->list = grown;
    return true;
}

/* One "-..." argument at argv[*i]; may consume the next one as its value. */
static bool parse_option(int argc, char **argv, int *i, const struct k2s_option *opts,
                         size_t nopts)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const struct k2s_option *o = find_option(opts, nopts, arg, len);
    if (!o) {
        k2s_error("unknown option '%.*s' (see --help)", (int)len, arg);
        return false;
    }
    if (o->flag) {
        if (eq) {
            k2s_error("option '%s' takes no value", o->name);
            return false;
        }
        *o->flag = true;
        return true;
    }
    if (eq)
        return store_value(o, eq + 1);
    if (*i + 1 >= argc) {
        k2s_error("option '%s' needs a value", o->name);
        return false;
    }
    return store_value(o, argv[++*i]);
}

bool k2s_parse_cli(int argc, char **argv, const struct k2s_option *opts, size_t nopts,
                   const char **positional)
{
    *positional = NULL;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            if (!parse_option(argc, argv, &i, opts, nopts))
                return false;
        } else if (*positional) {
            k2s_error("unexpected extra argument '%s' (one input file only)", arg);
            return false;
        } else {
            *positional = arg;
        }
    }
    return true;
}

/* `same:K`: argument i is bound to the buffer of the earlier buffer argument K (OpenCL lets
 * the host pass one buffer to several arguments). It takes K's type and size; its bytes are
 * K's, so it has none of its own. */
static bool same_buffer(const char *text, struct k2s_arg *args, size_t i)
{
    char *end;
    errno = 0;
    unsigned long k = strtoul(text + 5, &end, 10);
    if (errno || end == text + 5 || *end || k >= i || args[k].kind != K2S_ARG_BUFFER) {
        k2s_error("argument %zu: '%s': same:K names an earlier buffer argument K", i, text);
        return false;
    }
    const struct k2s_arg *a = &args[k];
    args[i] = (struct k2s_arg){.kind = K2S_ARG_BUFFER, .type = a->type, .count = a->count,
                               .size = a->size, .text = text,
                               .same_as = a->same_as ? a->same_as : (unsigned)k + 1};
    return true;
}

bool k2s_parse_args(const char **specs, size_t n, struct k2s_arg **out)
{
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out) {
        k2s_error("out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!strncmp(specs[i], "same:", 5)) {
            if (same_buffer(specs[i], *out, i))
                continue;
            k2s_free_args(*out, i);
            *out = NULL;
            return false;
        }
        if (!k2s_arg_parse(specs[i], &(*out)[i])) {
            k2s_free_args(*out, i);
            *out = NULL;
            return false;
        }
    }
    return true;
}

void k2s_free_args(struct k2s_arg *args, size_t n)
{
    for (size_t i = 0; args && i < n; i++)
        k2s_arg_free(&args[i]);
    free(args);
}

bool k2s_make_dirs(const char *what, const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        k2s_error("%s: %s path", what, len ? "too long a" : "empty");
        return false;
    }
    memcpy(path, dir, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char saved = path[i];
        path[i] = '\0';
        struct stat st;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            k2s_error("%s: cannot create '%s': %s", what, path, strerror(errno));
            return false;
        }
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            k2s_error("%s: '%s' is not a directory", what, path);
            return false;
        }
        path[i] = saved;
    }
    return true;
}

bool k2s_emit_outputs(const struct k2s_arg *args, size_t n, unsigned char *const *outputs,
                      const char *dump_dir, const bool *selected)
{
    if (dump_dir && !k2s_make_dirs("--dump-dir", dump_dir))
        return false;
    for (size_t i = 0; i < n; i++) {
        if ((args[i].kind != K2S_ARG_BUFFER && args[i].kind != K2S_ARG_IMAGE) || !outputs[i] ||
            (selected && !selected[i]))
            continue;
        if (args[i].kind == K2S_ARG_IMAGE && !dump_dir) {
            k2s_print_image(stdout, (unsigned)i, &args[i], outputs[i]);
            continue;
        }
        if (dump_dir) {
            if (!k2s_dump_buffer(dump_dir, (unsigned)i, outputs[i], args[i].size))
                return false;
        } else {
            k2s_print_buffer(stdout, (unsigned)i, &args[i], outputs[i]);
        }
    }
    if (fflush(stdout) != 0) {
        k2s_error("cannot write the results to stdout");
        return false;
    }
    return true;
}
