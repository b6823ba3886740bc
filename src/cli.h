/* The k2s command line: one input (src/main.c) or a batch of them (src/batch.c). */
#ifndef K2S_CLI_H
#define K2S_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "k2s/k2s.h"

/* Translate one input and write its outputs, all or none (reflect and dmap may be
 * NULL); messages go to msg. Returns the exit status: 0, 1 (translation) or 2 (input
 * or usage). Safe to run in several threads at once. */
int k2s_cli_translate(const char *input, const char *output, const char *reflect, const char *dmap,
                      const k2s_options *o, FILE *msg);

/* -o names a directory: an existing one, or a path ending in '/'. */
bool k2s_is_directory_target(const char *output);

/* Translate each input into OUTDIR/NAME.spv with NAME.json and NAME.csv beside it,
 * in `jobs` threads; per-input messages are printed whole, prefixed by the input.
 * Returns 0 when every input translated, else the worst exit status. */
int k2s_cli_batch(const char *const *inputs, int n_inputs, const char *outdir, const char *reflect,
                  const char *dmap, unsigned jobs, const k2s_options *o);

/* Start this thread's validator helper, k2s-validator (src/validate.c), now: it
 * relocates and sets up SPIRV-Tools while the thread reads and parses its input
 * instead of at the first validation. Exits, naming the helper, if it cannot start. */
void k2s_validator_start(void);

#endif
