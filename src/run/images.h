/* Image and sampler arguments shared by k2s-run (Vulkan) and k2s-clref (OpenCL): the
 * `--arg image2d:ORDER:TYPE:W,H[=INIT]` and `--arg sampler:...` specs, the OpenCL
 * enumerants both hosts hand to a kernel, and how results are printed (corpus/FORMAT.md). */
#ifndef K2S_RUN_IMAGES_H
#define K2S_RUN_IMAGES_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum k2s_image_dim {
    K2S_IMG_1D,
    K2S_IMG_1D_BUFFER,
    K2S_IMG_1D_ARRAY,
    K2S_IMG_2D,
    K2S_IMG_2D_ARRAY,
    K2S_IMG_3D,
};
enum k2s_image_order { K2S_ORDER_R, K2S_ORDER_RG, K2S_ORDER_RGBA, K2S_ORDER_BGRA };
enum k2s_image_type {
    K2S_CH_UNORM8,
    K2S_CH_SNORM8,
    K2S_CH_UNORM16,
    K2S_CH_SNORM16,
    K2S_CH_UINT8,
    K2S_CH_INT8,
    K2S_CH_UINT16,
    K2S_CH_INT16,
    K2S_CH_UINT32,
    K2S_CH_INT32,
    K2S_CH_HALF,
    K2S_CH_FLOAT,
};
struct k2s_image {
    enum k2s_image_dim dim;
    enum k2s_image_order order;
    enum k2s_image_type type;
    uint32_t width, height, depth; /* height 1 for 1-D, depth 1 unless 3-D */
    uint32_t layers;               /* 1 unless an array */
    unsigned channels;             /* per pixel */
    size_t channel_size;           /* bytes per channel */
};
/* sampler_t bits as OpenCL C spells them (CLK_*): normalized 1, address mode << 1
 * (none 0, clamp_to_edge 1, clamp 2, repeat 3, mirrored_repeat 4), filter 0x10/0x20. */
struct k2s_sampler {
    bool normalized, linear;
    unsigned address; /* 0..4 as above */
};

struct k2s_arg;
/* Parse the text after "image...:" / "sampler:" into arg (bytes hold the pixels). */
bool k2s_image_parse(const char *text, struct k2s_arg *arg);
bool k2s_sampler_parse(const char *text, struct k2s_arg *arg);
uint32_t k2s_sampler_mask(const struct k2s_sampler *s);
/* CL_R..., CL_UNORM_INT8...: what get_image_channel_order/data_type return. */
uint32_t k2s_image_cl_order(enum k2s_image_order o);
uint32_t k2s_image_cl_type(enum k2s_image_type t);
bool k2s_image_is_integer(enum k2s_image_type t);
/* The SPIR-V Image Format of the image's order and type (Unknown for bgra). */
uint32_t k2s_image_spirv_format(const struct k2s_image *im);
const char *k2s_image_dim_name(enum k2s_image_dim d);
/* "arg N: v0 v1 ...": channel values in memory order, normalized formats as float. */
void k2s_print_image(FILE *out, unsigned ordinal, const struct k2s_arg *arg, const void *data);
/* --png N=FILE (repeatable): writes 2-D image argument N's read-back pixels as an 8-bit
 * RGBA PNG (normalized and float channels scaled from 0..1, integers clamped to 0..255;
 * r → grey, rg → blue 0; alpha 255 where the format has none). */
bool k2s_write_pngs(const char **specs, size_t n, const struct k2s_arg *args, size_t nargs,
                    unsigned char *const *outputs);
#endif
