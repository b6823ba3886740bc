/* printf output of a translated module: the records of its printf buffer, printed. */
#ifndef K2S_RUN_PRINTF_OUT_H
#define K2S_RUN_PRINTF_OUT_H

#include "reflection.h"

#include <stdbool.h>
#include <stdio.h>

/* Prints every record of the printf buffer `buf` (size bytes, read back after the
 * dispatch) to `out`, and the count of records the full buffer lost to stderr. */
bool k2s_print_printf_buffer(const struct refl_module *r, const unsigned char *buf, size_t size,
                             FILE *out);

#endif
