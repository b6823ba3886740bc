/* k2s-run's result presentation for people (present.c): --print, --output (.npy),
 * --version. */
#ifndef K2S_RUN_PRESENT_H
#define K2S_RUN_PRESENT_H

#include "argspec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct present {
    bool *selected;     /* by argument: its result is printed or written */
    const char *output; /* --output DIR, or NULL */
};

/* --print=LIST ("2,3" or "none"; NULL: every buffer and image) and --output DIR, checked
 * against the parsed arguments before the run. */
bool present_parse(const char *print, const char *output, const struct k2s_arg *args, size_t n,
                   struct present *p);
void present_free(struct present *p);
/* After the run: the selected results as text lines (or --dump-dir .bin files), or with
 * --output as DIR/argN.npy (a line naming each file on stdout). */
bool present_outputs(const struct present *p, const struct k2s_arg *args, size_t n,
                     unsigned char *const *outputs, const char *dump_dir);
/* --version: k2s-run's and the library's versions. */
void present_version(FILE *out);

#endif
