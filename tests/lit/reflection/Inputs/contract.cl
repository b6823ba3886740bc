constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
global int counter = 5;
global int big[2048] = {7};
const sampler_t lit = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void bufs(global float *out, constant float *in, float s, int2 v, local float *tmp) {
  size_t g = get_global_id(0), l = get_local_id(0);
  tmp[l] = in[g] * s + v.x + table[g & 3] + big[g & 1023];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[get_local_size(0) - 1 - l] + get_work_dim() + get_global_size(0) + get_num_groups(0) + get_group_id(0) + get_enqueued_local_size(0) + get_global_offset(0);
  if (g == 0) counter += 1;
}
kernel void imgs(read_only image2d_t src, write_only image2d_t dst, sampler_t smp, read_only image1d_buffer_t tb, write_only image1d_buffer_t wb, global int *info) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  float4 p = read_imagef(src, smp, c) + read_imagef(src, lit, c) + read_imagef(tb, c.x);
  write_imagef(dst, c, p);
  write_imagef(wb, c.x, p);
  info[0] = get_image_channel_order(src) + get_image_channel_data_type(src);
}
__attribute__((reqd_work_group_size(4, 1, 1))) kernel void fixed(global int *p) { p[get_global_id(0)] = 1; }
