// read_write images read and written (corpus/images_rw_read.spec).
// A read_write image read and written in place. lavapipe 22 lacks
// shaderStorageImageReadWithoutFormat: the spec gives the image's format to k2s
// (--image-format), so the storage image has that format and needs no such capability.
kernel void rw_read(read_write image2d_t img, read_write image2d_t counts, global float4 *out)
{
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  float4 v = read_imagef(img, (int2)(x, y));
  out[y * w + x] = v;
  write_imagef(img, (int2)(x, y), v * 2.0f + (float4)(x, y, 0, 1));
  uint4 c = read_imageui(counts, (int2)(x, y));
  write_imageui(counts, (int2)(x, y), c + (uint4)(x, y, 1, 7));
}

kernel void rw_read_3d(read_write image3d_t vol, read_write image1d_array_t a1)
{
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int4 v = read_imagei(vol, (int4)(x, y, z, 0));
  write_imagei(vol, (int4)(x, y, z, 0), -v + z);
  if (z == 0) {
    /* 1 - f, not f * 0.5: halving odd k/255 lands on a tie of the unorm8 rounding, which
     * OpenCL (0.6 ulp) and Vulkan let a device round either way (the H100 and PoCL differ). */
    float4 f = read_imagef(a1, (int2)(x, y));
    write_imagef(a1, (int2)(x, y), 1.0f - f);
  }
}
