// Images and samplers: image types x access x function family x sampler mode x format
// family (corpus/images.spec). Kernels write what they read into buffers or write-only
// images so both hosts' results can be compared value by value.
const sampler_t prog_linear_repeat =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
// PoCL 3.1 reads garbage through a literal sampler without a filter bit, so the
// filter-less form (llvm-spirv filter mode 0xFFFFFFFF) is covered by a lit test.
const sampler_t prog_mirror =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;

// 2-D: sampler argument with integer and float coordinates, sampler-less read, write,
// size and format queries.
kernel void sample2d(read_only image2d_t src, sampler_t s, write_only image2d_t dst,
                     global float4 *out, global int *info)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float4 a = read_imagef(src, s, (int2)(x, y));
  float4 b = read_imagef(src, s, (float2)(x - 1.25f, y + 0.5f));
  float4 c = read_imagef(src, (int2)(x, y));
  write_imagef(dst, (int2)(x, y), a * 0.5f + c * 0.25f);
  out[2 * (y * w + x)] = b;
  out[2 * (y * w + x) + 1] = a - c;
  if (x == 0 && y == 0) {
    info[0] = get_image_width(src);
    info[1] = get_image_height(src);
    info[2] = get_image_dim(dst).x;
    info[3] = get_image_dim(dst).y;
    info[4] = get_image_channel_order(src);
    info[5] = get_image_channel_data_type(src);
    info[6] = get_image_channel_order(dst);
    info[7] = get_image_channel_data_type(dst);
  }
}

// Literal samplers at program and kernel scope (normalized repeat/mirrored linear/nearest,
// unnormalized clamp with the border colour of a format with alpha).
kernel void literal(read_only image2d_t src, global float4 *out)
{
  const sampler_t clamp_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |
                                  CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float2 n = (float2)((x + 0.5f) / 4.0f - 0.75f, (y + 0.5f) / 4.0f + 0.5f);
  out[3 * (y * w + x)] = read_imagef(src, prog_linear_repeat, n);
  out[3 * (y * w + x) + 1] = read_imagef(src, prog_mirror, n * 1.5f);
  out[3 * (y * w + x) + 2] = read_imagef(src, clamp_nearest, (float2)(x - 2.0f, y + 0.25f));
}

// Integer formats: read_imageui/read_imagei without and with a sampler, write_imageui/i.
kernel void integers(read_only image2d_t u, read_only image2d_t i, write_only image2d_t wu,
                     write_only image2d_t wi, global uint2 *out)
{
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                      CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  uint4 a = read_imageui(u, (int2)(x, y));
  int4 b = read_imagei(i, s, (int2)(x + 1, y));
  // a.w is 1 (an integer format without alpha); PoCL 3.1 says 0 (fix-reference in the spec).
  write_imageui(wu, (int2)(x, y), a + (uint4)(1, 2, 3, 4));
  write_imagei(wi, (int2)(x, y), b * -3);
  out[y * w + x] = a.xy + as_uint2(b.xy);
}

// 1-D, 1-D array, 2-D array and 3-D images; image1d_buffer as a texel buffer.
kernel void dims(read_only image1d_t i1, read_only image1d_array_t a1,
                 read_only image2d_array_t a2, read_only image3d_t i3,
                 read_only image1d_buffer_t tb, write_only image1d_t o1, sampler_t s,
                 global float4 *out, global int *sizes)
{
  int x = get_global_id(0);
  float4 v = read_imagef(i1, x) + read_imagef(a1, (int2)(x, 1)) * 2.0f +
             read_imagef(a2, (int4)(x, 1, 1, 0)) * 4.0f + read_imagef(i3, (int4)(x, 1, 2, 0)) * 8.0f +
             read_imagef(tb, x) * 16.0f;
  write_imagef(o1, x, v);
  out[2 * x] = v;
  out[2 * x + 1] = read_imagef(i1, s, (x + 0.5f) / 8.0f) + read_imagef(a1, s, (float2)((x + 0.5f) / 8.0f, 0.6f));
  if (x == 0) {
    sizes[0] = get_image_width(i1);
    sizes[1] = get_image_array_size(a1);
    sizes[2] = get_image_array_size(a2);
    sizes[3] = get_image_depth(i3);
    sizes[4] = get_image_width(o1); // PoCL 3.1 lacks get_image_width(image1d_buffer_t)
    sizes[5] = get_image_height(a2);
  }
}

// half reads and writes (cl_khr_fp16), through a helper function that takes the images.
// A reference without cl_khr_fp16 (PoCL 3.1 on CPU) gets OpenCL C 1.2 emulation: the
// float value rounded to half (round to nearest even) in float arithmetic.
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define READ_H(img, s, c) convert_float4(read_imageh(img, s, c))
#define READ_H0(img, c) convert_float4(read_imageh(img, c))
#define WRITE_H(img, c, v) write_imageh(img, c, convert_half4(v))
#else
static float half_rte(float v)
{
  int e;
  float m = frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1: a half keeps 11 bits of m */
  if (e < -13)            /* below 2^-14: half subnormals, steps of 2^-24 */
    return rint(v * 0x1p24f) * 0x1p-24f;
  return ldexp(rint(ldexp(m, 11)), e - 11);
}

static float4 to_half(float4 v)
{
  return (float4)(half_rte(v.x), half_rte(v.y), half_rte(v.z), half_rte(v.w));
}
#define READ_H(img, s, c) to_half(read_imagef(img, s, c))
#define READ_H0(img, c) to_half(read_imagef(img, c))
#define WRITE_H(img, c, v) write_imagef(img, c, to_half(v))
#endif

static float4 fetch_h(read_only image2d_t img, sampler_t s, int x, int y)
{
  float2 n = (float2)(x + 0.5f, y + 0.5f) / (float2)(get_image_width(img), get_image_height(img));
  return READ_H(img, s, n) + READ_H0(img, (int2)(x, y));
}

kernel void halves(read_only image2d_t src, sampler_t s, write_only image2d_t dst,
                   global half *out, global size_t *n)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float4 v = fetch_h(src, s, x, y);
  WRITE_H(dst, (int2)(x, y), v * 0.5f);
  vstore_half4(READ_H(src, s, (float2)(x - 0.75f, y + 0.25f) / (float2)(4.0f, 2.0f)), y * w + x,
               out);
  if (x == 0 && y == 0)
    n[0] = get_image_width(dst) * 100 + get_image_height(dst);
}

// Unnormalized literal samplers on 3-D and array images (Vulkan allows unnormalized
// samplers on 1-D/2-D non-array images only: k2s normalizes the coordinates).
kernel void unnorm_layers(read_only image2d_array_t a2, read_only image3d_t i3,
                          global float4 *out)
{
  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                            CLK_FILTER_NEAREST;
  const sampler_t linear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  int o = 5 * (y * w + x);
  out[o] = read_imagef(a2, nearest, (int4)(x, y, 1, 0));
  out[o + 1] = read_imagef(a2, nearest, (float4)(x + 0.75f, y - 0.25f, 0.6f, 0.0f));
  out[o + 2] = read_imagef(i3, nearest, (int4)(x, y, 2, 0));
  out[o + 3] = read_imagef(i3, nearest, (float4)(x * 1.5f, y + 0.5f, 1.5f, 0.0f));
  out[o + 4] = read_imagef(i3, linear, (float4)(x + 0.25f, y + 0.75f, 1.5f, 0.0f));
}
