/* Writing the CLI's output files safely, all of a run's outputs or none
 * (src/output_files.c). */
#ifndef K2S_OUTPUT_FILES_H
#define K2S_OUTPUT_FILES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct k2s_output {
  const char *what; /* how the user named it, for messages: "-o", "--reflect" */
  const char *path; /* as given; "-" is standard output */
  const void *data;
  size_t len;
  /* filled by k2s_write_outputs */
  int how;
  char *final; /* the path written after following symbolic links */
  char *tmp;   /* the temporary file beside it, while it exists */
} k2s_output;

/* Writes every output or, when any cannot be written, none of the regular
 * files (nothing is replaced, no temporary file stays). On failure returns
 * false with a message (without the "k2s: error: " prefix) in err. */
bool k2s_write_outputs(k2s_output *outs, int n, char *err, size_t err_size);

#endif
