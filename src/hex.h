/* Hex text to bytes, the one implementation for the library (the reflection's Data
 * strings, src/reflection_read.c) and the hosts (k2s-run's JSON reflection data and
 * struct POD arguments, k2s-clref through the argument-spec library). Header-only on
 * purpose: the library and the argument-spec library are linked into one program, so
 * an external definition in each would clash. */
#ifndef K2S_HEX_H
#define K2S_HEX_H

#include <stddef.h>

/* The value of one hex digit, or -1. */
static inline int k2s_hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Decodes n_bytes bytes from the first 2 * n_bytes characters of hex (high nibble first)
 * into out. Returns the index of the first byte whose two characters are not both hex
 * digits, or n_bytes when all are. */
static inline size_t k2s_hex_decode(const char *hex, size_t n_bytes, unsigned char *out)
{
  for (size_t i = 0; i < n_bytes; i++) {
    int hi = k2s_hex_digit(hex[2 * i]), lo = k2s_hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return i;
    out[i] = (unsigned char)(hi << 4 | lo);
  }
  return n_bytes;
}

#endif
