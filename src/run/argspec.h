/* Kernel-argument specifications shared by k2s-run (Vulkan) and k2s-clref (OpenCL).
 *
 * Both hosts must build byte-identical inputs from the same `--arg` text and print results
 * in the same format, so everything that touches argument bytes lives here. The exact
 * formats (including the random generator) are documented in corpus/FORMAT.md. */
#ifndef K2S_RUN_ARGSPEC_H
#define K2S_RUN_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "images.h"

enum k2s_scalar {
    K2S_CHAR,
    K2S_UCHAR,
    K2S_SHORT,
    K2S_USHORT,
    K2S_INT,
    K2S_UINT,
    K2S_LONG,
    K2S_ULONG,
    K2S_HALF,
    K2S_FLOAT,
    K2S_DOUBLE,
    K2S_STRUCT, /* raw bytes given as hex (pod:struct=...) */
};

struct k2s_type {
    enum k2s_scalar scalar;
    unsigned lanes; /* 1, 2, 3, 4, 8 or 16; a 3-lane vector is stored as 4 lanes */
};

enum k2s_arg_kind { K2S_ARG_BUFFER, K2S_ARG_POD, K2S_ARG_LOCAL, K2S_ARG_IMAGE, K2S_ARG_SAMPLER };

struct k2s_arg {
    enum k2s_arg_kind kind;
    struct k2s_type type;
    uint64_t count;        /* buffers: number of elements of `type` */
    unsigned char *bytes;  /* buffer initial contents or POD bytes */
    size_t size;           /* byte size of `bytes` (buffers, PODs) or local:BYTES */
    const char *text;      /* the spec as given, for messages */
    struct k2s_image image;     /* K2S_ARG_IMAGE (bytes: the pixels, type/count: channels) */
    struct k2s_sampler sampler; /* K2S_ARG_SAMPLER */
    unsigned same_as;           /* buffers: 1 + the ordinal of the earlier buffer argument
                                 * whose buffer this one is (`same:K`), 0 for its own */
};

/* Program name used as the prefix of every diagnostic ("k2s-run", "k2s-clref"). */
void k2s_set_prog(const char *name);
const char *k2s_prog(void);
/* Prints "PROG: error: ...\n" to stderr. */
void k2s_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void k2s_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Number of errors printed so far (lets callers add context only when nothing was said). */
unsigned k2s_error_count(void);

/* Scalar/vector types. */
size_t k2s_scalar_size(enum k2s_scalar s);
size_t k2s_type_size(struct k2s_type t);
bool k2s_scalar_is_float(enum k2s_scalar s);
bool k2s_parse_type(const char *name, size_t len, struct k2s_type *out);
const char *k2s_scalar_name(enum k2s_scalar s);

/* Parses one `--arg` spec and materialises its bytes. On failure prints an error naming
 * the spec and returns false (nothing to free). */
bool k2s_arg_parse(const char *text, struct k2s_arg *out);
void k2s_arg_free(struct k2s_arg *arg);

/* "X[,Y[,Z]]": fills out[0..2] (missing dimensions = `fill`), *dims = number given. */
bool k2s_parse_ndrange(const char *what, const char *text, uint64_t fill, uint64_t out[3],
                       unsigned *dims);
/* Default work-group size when neither --local nor a required size is known. */
void k2s_default_local(const uint64_t global[3], uint64_t local[3]);

/* Result output: one line "arg N: v0 v1 ..." per buffer, or DIR/argN.bin. */
void k2s_print_buffer(FILE *out, unsigned ordinal, const struct k2s_arg *arg, const void *data);
bool k2s_dump_buffer(const char *dir, unsigned ordinal, const void *data, size_t size);

/* The reproducible generator behind rand:SEED (splitmix64). */
uint64_t k2s_rand_next(uint64_t *state);

/* IEEE binary16 conversions, round to nearest even. */
uint16_t k2s_double_to_half(double d);
float k2s_half_to_float(uint16_t h);

/* mkdir -p: creates `dir` and any missing parents (an existing directory is fine);
 * errors name the option `what`. */
bool k2s_make_dirs(const char *what, const char *dir);

/* The value of a hex digit (either case), -1 for any other character. */

/* Whole-file read; returns NULL and prints an error on failure. */
unsigned char *k2s_read_file(const char *path, size_t *size);


/* ---- command line (shared by both hosts) ------------------------------------------------ */

struct k2s_option {
    const char *name;     /* "--kernel"; "-v" style short names work too */
    const char **value;   /* option taking a value: last one wins */
    const char ***list;   /* repeatable option taking a value (--arg) */
    size_t *nlist;
    bool *flag;           /* option without a value */
};

/* Accepts "--name VALUE" and "--name=VALUE". Exactly one positional argument is stored in
 * *positional (NULL if none). Returns false after printing an error. */
bool k2s_parse_cli(int argc, char **argv, const struct k2s_option *opts, size_t nopts,
                   const char **positional);

/* Parses every --arg; on failure frees what was parsed and returns false. */
bool k2s_parse_args(const char **specs, size_t n, struct k2s_arg **out);
void k2s_free_args(struct k2s_arg *args, size_t n);

/* --time N: prints "time: MIN us" and "time: min=A median=B max=C us runs=N warmup=W
 * clock=CLOCK" (timing.c). */
bool k2s_report_times(FILE *out, const double *us, unsigned n, unsigned warmup,
                      const char *clock);

/* Prints (or dumps into `dump_dir`) every buffer and image argument's read-back bytes,
 * or only those whose `selected` entry is true (NULL: all). */
bool k2s_emit_outputs(const struct k2s_arg *args, size_t n, unsigned char *const *outputs,
                      const char *dump_dir, const bool *selected);

#endif
