// Sampler *arguments* with 3-D and array images (corpus/images_sampler_args.spec).
// Vulkan has no unnormalized samplers for 3-D or array images and a sampler argument's
// normalized bit is known only at run time: the host binds it normalized and passes
// its sampler_t bits in a push constant (NormalizedSamplerMaskPushConstant); the shader
// normalizes unnormalized coordinates itself, nearest or linear as the bits say. The
// same sampler also samples a 2-D image here, which must then be normalized too.
// `norm` says whether the run's sampler is normalized: the kernel divides its texel
// coordinates by the image size then. The array layer is never normalized.
kernel void sargs(read_only image3d_t i3, read_only image2d_array_t a2,
                  read_only image1d_array_t a1, read_only image2d_t i2, sampler_t s,
                  int norm, float off, global float4 *out)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  int o = 5 * (y * w + x);
  float4 s3 = norm ? (float4)(get_image_width(i3), get_image_height(i3), get_image_depth(i3), 1)
                   : (float4)(1.0f);
  float4 sa = norm ? (float4)(get_image_width(a2), get_image_height(a2), 1, 1) : (float4)(1.0f);
  float2 s1 = norm ? (float2)(get_image_width(a1), 1) : (float2)(1.0f);
  float2 s2 = norm ? (float2)(get_image_width(i2), get_image_height(i2)) : (float2)(1.0f);
  /* Texel coordinates from off - 1 up to past the far edge (clamp modes); `off` keeps
   * them in range for CLK_ADDRESS_NONE. The image sizes are powers of two and the
   * coordinates multiples of 1/8 from the texel centres, so normalizing is exact and
   * linear weights need only 3 bits of Vulkan's sub-texel precision (4 at least).
   * Layers (unnormalized always) -0.6 .. 5.05: rounded and clamped. PoCL 3.1 scales
   * the layer by the array size when the sampler is normalized (OpenCL C 1.2 8.4 never
   * does): normalized runs use layers 0.1, 2.2 and -0.6, which round the same both ways. */
  float fx = x * 1.25f + off - 0.625f, fy = y * 0.75f + off - 0.25f;
  float layer = y == 0 ? -0.6f : norm ? ((x + y) & 1 ? 2.2f : 0.1f) : 0.3f + 0.95f * (x + y);
  out[o] = read_imagef(i3, s, (float4)(fx, fy, 0.375f + 0.875f * y, 0) / s3);
  out[o + 1] = read_imagef(a2, s, (float4)(fx, fy, 0, 0) / sa + (float4)(0, 0, layer, 0));
  out[o + 2] = read_imagef(a1, s, (float2)(fx, 0) / s1 + (float2)(0, layer));
  out[o + 3] = read_imagef(i2, s, (float2)(fx, fy) / s2);
  out[o + 4] = read_imagef(a2, s, (float4)(x * 0.75f + 0.5f, y + 0.5f, 0, 0) / sa + (float4)(0, 0, norm ? 2 : 1, 0));
}

// Integer coordinates (OpenCL allows them with unnormalized nearest samplers only).
kernel void sargs_int(read_only image3d_t i3, read_only image2d_array_t a2, sampler_t s,
                      global uint4 *out)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[2 * (y * w + x)] = read_imageui(i3, s, (int4)(x, y, x % 3, 0));
  out[2 * (y * w + x) + 1] = read_imageui(a2, s, (int4)(y, x, x & 1, 0));
}
