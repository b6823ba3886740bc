// Application-style image filters on buffers (the shape of OpenCV/photo-pipeline kernels):
// a separable-equivalent 5x5 Gaussian blur on uchar RGBA with clamp-to-edge addressing,
// and a Sobel gradient magnitude on a float plane with a 2D range.
#pragma OPENCL FP_CONTRACT OFF

constant int gauss5[5] = {1, 4, 6, 4, 1};

kernel void gauss5x5_rgba(global const uchar4 *src, global uchar4 *dst, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int4 acc = (int4)(0);
    for (int dy = -2; dy <= 2; dy++) {
        int yy = clamp(y + dy, 0, height - 1);
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, width - 1);
            acc += convert_int4(src[yy * width + xx]) * (gauss5[dy + 2] * gauss5[dx + 2]);
        }
    }
    dst[y * width + x] = convert_uchar4_sat((acc + 128) >> 8);
}

kernel void sobel_mag(global const float *in, global float *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
        if (x < width && y < height)
            out[y * width + x] = 0.0f;
        return;
    }
#define P(i, j) in[(y + (j)) * width + (x + (i))]
    float gx = (P(1, -1) + 2.0f * P(1, 0) + P(1, 1)) - (P(-1, -1) + 2.0f * P(-1, 0) + P(-1, 1));
    float gy = (P(-1, 1) + 2.0f * P(0, 1) + P(1, 1)) - (P(-1, -1) + 2.0f * P(0, -1) + P(1, -1));
#undef P
    out[y * width + x] = sqrt(gx * gx + gy * gy);
}
