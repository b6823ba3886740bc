/* The header-only pieces the library shares with k2s-run and k2s-clref: hex decoding
 * (src/hex.h) and the --image-format ORDER:TYPE table (src/image_formats.h). */
#include "unit.h"

#include "hex.h"
#include "image_formats.h"

static void hex_decodes_and_stops_at_the_first_bad_byte(void)
{
  unsigned char b[4] = {0};
  CHECK_EQ(k2s_hex_decode("0aFf7e10", 4, b), 4);
  CHECK(b[0] == 0x0a && b[1] == 0xff && b[2] == 0x7e && b[3] == 0x10);
  CHECK_EQ(k2s_hex_decode("01zz03", 3, b), 1);
  CHECK_EQ(k2s_hex_decode("0g", 1, b), 0);
  CHECK_EQ(k2s_hex_decode("", 0, b), 0);
  CHECK_EQ(k2s_hex_digit('9'), 9);
  CHECK_EQ(k2s_hex_digit('a'), 10);
  CHECK_EQ(k2s_hex_digit('F'), 15);
  CHECK_EQ(k2s_hex_digit('x'), -1);
}

static void image_format_table(void)
{
  enum k2s_texel_kind kind;
  CHECK_EQ(k2s_storage_image_format("rgba", "float", &kind), SpvImageFormatRgba32f);
  CHECK_EQ(kind, K2S_TEXEL_FLOAT);
  CHECK_EQ(k2s_storage_image_format("r", "half", &kind), SpvImageFormatR16f);
  CHECK_EQ(k2s_storage_image_format("rg", "snorm16", &kind), SpvImageFormatRg16Snorm);
  CHECK_EQ(k2s_storage_image_format("rgba", "unorm8", &kind), SpvImageFormatRgba8);
  CHECK_EQ(kind, K2S_TEXEL_FLOAT);
  CHECK_EQ(k2s_storage_image_format("r", "int16", &kind), SpvImageFormatR16i);
  CHECK_EQ(kind, K2S_TEXEL_INT);
  CHECK_EQ(k2s_storage_image_format("rg", "uint32", &kind), SpvImageFormatRg32ui);
  CHECK_EQ(kind, K2S_TEXEL_UINT);
  CHECK_EQ(k2s_storage_image_format("bgra", "unorm8", &kind), SpvImageFormatUnknown);
  CHECK_EQ(k2s_storage_image_format("rgba", "double", &kind), SpvImageFormatUnknown);
  /* Every ORDER:TYPE has its own format. */
  static const char *const orders[] = {"r", "rg", "rgba"};
  static const char *const types[] = {"float", "half", "unorm8", "snorm8", "unorm16", "snorm16",
                                      "int8", "int16", "int32", "uint8", "uint16", "uint32"};
  uint32_t seen[36];
  size_t n = 0;
  for (size_t o = 0; o < 3; o++)
    for (size_t t = 0; t < 12; t++) {
      uint32_t f = k2s_storage_image_format(orders[o], types[t], &kind);
      CHECK(f != SpvImageFormatUnknown);
      for (size_t i = 0; i < n; i++)
        CHECK(seen[i] != f);
      seen[n++] = f;
    }
}

UNIT_MAIN(T(hex_decodes_and_stops_at_the_first_bad_byte), T(image_format_table))
