// OpenCL C 2.0 read_write images (corpus/images_rw.spec); the rest is in images.cl.
// A read_write image (a storage image, like write_only) written in place; reading it too
// needs shaderStorageImageReadWithoutFormat, which lavapipe 22 lacks (docs/runtime-abi.md).
kernel void rw_write(read_write image2d_t img, read_only image1d_t src)
{
  int x = get_global_id(0), y = get_global_id(1);
  write_imagei(img, (int2)(x, y), read_imagei(src, x) * (y + 1));
}
