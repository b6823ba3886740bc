// sweep sample: an image argument, which k2s refuses naming the feature (refused class).
kernel void copy_img(read_only image2d_t src, global float4 *dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    dst[p.y * get_image_width(src) + p.x] = read_imagef(src, p);
}
