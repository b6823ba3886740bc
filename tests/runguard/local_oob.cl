kernel void oob(global int *out, local int *tmp, int far) {
  int i = get_local_id(0);
  tmp[i + far] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[i];
}
