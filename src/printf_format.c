/* OpenCL C printf format strings: see printf_format.h. */
#include "printf_format.h"

#include <string.h>

int k2s_printf_is_float_conv(char conv)
{
  return conv && strchr("fFeEgGaA", conv) != NULL;
}

static size_t skip_digits(const char *f, size_t len, size_t p)
{
  while (p < len && f[p] >= '0' && f[p] <= '9')
    p++;
  return p;
}

/* `v` N: N one of 2 3 4 8 16; returns the position after N, or 0 when N is not one. */
static size_t vector_length(const char *f, size_t len, size_t p, unsigned *n)
{
  size_t q = skip_digits(f, len, p);
  if (q == p || q - p > 2)
    return 0;
  unsigned v = 0;
  for (size_t k = p; k < q; k++)
    v = v * 10 + (unsigned)(f[k] - '0');
  if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
    return 0;
  *n = v;
  return q;
}

int k2s_printf_next(const char *fmt, size_t len, size_t *pos, k2s_printf_spec *s,
                    const char **error)
{
  size_t p = *pos;
  while (p < len && fmt[p] != '%')
    p++;
  if (p >= len)
    return 0;
  memset(s, 0, sizeof *s);
  s->start = p++;
  while (p < len && fmt[p] && strchr("-+ #0", fmt[p]))
    p++;
  if (p < len && fmt[p] == '*') {
    *error = "'*' as a field width is not part of OpenCL C's printf (the width is a "
             "decimal number)";
    return -1;
  }
  p = skip_digits(fmt, len, p);
  if (p < len && fmt[p] == '.') {
    p++;
    if (p < len && fmt[p] == '*') {
      *error = "'*' as a precision is not part of OpenCL C's printf (the precision is a "
               "decimal number)";
      return -1;
    }
    p = skip_digits(fmt, len, p);
  }
  s->flags_end = p;
  if (p < len && fmt[p] == 'v') {
    p = vector_length(fmt, len, p + 1, &s->vec);
    if (!p) {
      *error = "a vector specifier's length must be 2, 3, 4, 8 or 16";
      return -1;
    }
  }
  if (p + 1 < len && fmt[p] == 'h' && fmt[p + 1] == 'h')
    s->length = 1, p += 2;
  else if (p + 1 < len && fmt[p] == 'h' && fmt[p + 1] == 'l')
    s->length = 4, p += 2;
  else if (p < len && fmt[p] == 'h')
    s->length = 2, p++;
  else if (p < len && fmt[p] == 'l')
    s->length = 8, p++;
  if (p < len && fmt[p] == 'l' && s->length == 8) {
    *error = "the length modifier 'll' is not part of OpenCL C's printf ('l' is 64 bits)";
    return -1;
  }
  if (p >= len || !fmt[p] || !strchr("diouxXcsfFeEgGaAp%", fmt[p])) {
    *error = p >= len ? "the format ends inside a conversion specification"
                      : "unknown conversion specifier (OpenCL C allows d i o u x X c s f F "
                        "e E g G a A p and %%)";
    return -1;
  }
  s->conv = fmt[p++];
  s->end = p;
  *pos = p;
  if (s->length == 4 && !s->vec) {
    *error = "the length modifier 'hl' is only for vectors";
    return -1;
  }
  if (s->conv == '%' && (s->end - s->start != 2)) {
    *error = "the conversion written %% takes no flags, width, precision, vector or length";
    return -1;
  }
  if (s->vec && (s->conv == 'c' || s->conv == 's' || s->conv == 'p')) {
    *error = "a vector specifier only goes with d i o u x X f F e E g G a A";
    return -1;
  }
  if (s->vec && !s->length) {
    *error = "a vector specifier needs a length modifier (hh, h, hl or l) saying the "
             "element size";
    return -1;
  }
  return 1;
}
