/* OpenCL C printf format strings (OpenCL C 3.0 §6.15.14.2, 1.2 §6.12.13.2): one parser
 * for the translator (passes/lower_printf.c checks each format and sizes its records) and
 * the host (src/run/printf_out.c prints the records), so both read a format the same way.
 *
 * A conversion specification is `%` flags* width? (`.` precision?)? (`v` N)? length? conv:
 * flags `-+ #0`, width and precision decimal (OpenCL C has no `*`), N one of 2 3 4 8 16,
 * length `hh h hl l` (`hl` only with a vector), conv one of `diouxXcsfFeEgGaAp%`. */
#ifndef K2S_PRINTF_FORMAT_H
#define K2S_PRINTF_FORMAT_H

#include <stddef.h>

typedef struct k2s_printf_spec {
  size_t start, end; /* the specification's bytes [start, end): '%' .. conversion */
  size_t flags_end;  /* end of flags, width and precision (start of `v` or length) */
  char conv;         /* the conversion character ('%' for "%%") */
  unsigned vec;      /* vector length, 0 for a scalar */
  unsigned length;   /* element bytes the length modifier names: 1 hh, 2 h, 4 hl, 8 l; 0 none */
} k2s_printf_spec;

/* Finds the next conversion specification at or after *pos in fmt[0, len). Returns 1 and
 * fills *s (and moves *pos past it), 0 when there is none, or -1 with *error set to a
 * static message when the specification is not one OpenCL C allows (s->start says where). */
int k2s_printf_next(const char *fmt, size_t len, size_t *pos, k2s_printf_spec *s,
                    const char **error);

/* Does the conversion take a floating-point argument? */
int k2s_printf_is_float_conv(char conv);

#endif
