/* The storage image formats of --image-format's ORDER:TYPE, the one table for the
 * translator (passes/lower_images.c gives a write_only/read_write image that format) and
 * k2s-run (src/run/images.c checks an image argument against the module's format).
 * Header-only for the reason src/hex.h gives. */
#ifndef K2S_IMAGE_FORMATS_H
#define K2S_IMAGE_FORMATS_H

#include <spirv/unified1/spirv.h>
#include <stdint.h>
#include <string.h>

enum k2s_texel_kind { K2S_TEXEL_FLOAT, K2S_TEXEL_INT, K2S_TEXEL_UINT };

/* The SPIR-V Image Format of ORDER (r, rg, rgba) and TYPE (float half unorm8 snorm8
 * unorm16 snorm16 int8 int16 int32 uint8 uint16 uint32), and whether its texels are
 * float, signed or unsigned integers; SpvImageFormatUnknown (0) for any other pair
 * (bgra has no storage format). */
static inline uint32_t k2s_storage_image_format(const char *order, const char *type,
                                                enum k2s_texel_kind *kind)
{
  static const struct {
    const char *type;
    enum k2s_texel_kind kind;
    uint32_t r, rg, rgba;
  } t[] = {
      {"float", K2S_TEXEL_FLOAT, SpvImageFormatR32f, SpvImageFormatRg32f, SpvImageFormatRgba32f},
      {"half", K2S_TEXEL_FLOAT, SpvImageFormatR16f, SpvImageFormatRg16f, SpvImageFormatRgba16f},
      {"unorm8", K2S_TEXEL_FLOAT, SpvImageFormatR8, SpvImageFormatRg8, SpvImageFormatRgba8},
      {"snorm8", K2S_TEXEL_FLOAT, SpvImageFormatR8Snorm, SpvImageFormatRg8Snorm,
       SpvImageFormatRgba8Snorm},
      {"unorm16", K2S_TEXEL_FLOAT, SpvImageFormatR16, SpvImageFormatRg16, SpvImageFormatRgba16},
      {"snorm16", K2S_TEXEL_FLOAT, SpvImageFormatR16Snorm, SpvImageFormatRg16Snorm,
       SpvImageFormatRgba16Snorm},
      {"int8", K2S_TEXEL_INT, SpvImageFormatR8i, SpvImageFormatRg8i, SpvImageFormatRgba8i},
      {"int16", K2S_TEXEL_INT, SpvImageFormatR16i, SpvImageFormatRg16i, SpvImageFormatRgba16i},
      {"int32", K2S_TEXEL_INT, SpvImageFormatR32i, SpvImageFormatRg32i, SpvImageFormatRgba32i},
      {"uint8", K2S_TEXEL_UINT, SpvImageFormatR8ui, SpvImageFormatRg8ui, SpvImageFormatRgba8ui},
      {"uint16", K2S_TEXEL_UINT, SpvImageFormatR16ui, SpvImageFormatRg16ui,
       SpvImageFormatRgba16ui},
      {"uint32", K2S_TEXEL_UINT, SpvImageFormatR32ui, SpvImageFormatRg32ui,
       SpvImageFormatRgba32ui},
  };
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (strcmp(type, t[i].type) != 0)
      continue;
    *kind = t[i].kind;
    return strcmp(order, "r") == 0      ? t[i].r
           : strcmp(order, "rg") == 0   ? t[i].rg
           : strcmp(order, "rgba") == 0 ? t[i].rgba
                                        : SpvImageFormatUnknown;
  }
  return SpvImageFormatUnknown;
}

#endif
