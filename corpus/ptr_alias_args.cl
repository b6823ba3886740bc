// Pointers into two buffer arguments compared: OpenCL lets the host pass one buffer
// to both, and then they are equal (and ordered by offset). In logical mode each
// argument is its own descriptor, so --pointers=auto lowers these kernels by physical
// mode (vulkan1.2+); on vulkan1.1 k2s refuses them, naming the comparison.

// An in-place path chosen at run time, as image and signal filters do.
kernel void scale_maybe_inplace(global float *in, global float *out, float k)
{
  size_t i = get_global_id(0);
  if (in == out)
    out[i] = in[i] * k;
  else
    out[i] = in[i] + k;
}

// memmove's direction test: copy forwards when the destination starts at or below the
// source. Each work-item owns 2*chunk elements and moves chunk of them, starting at
// element 4 of its part, by `shift` (|shift| <= 4); with one buffer passed as both
// arguments the copy overlaps, and only the right direction gives memmove's result.
kernel void move_chunks(global int *dst, global const int *src, int shift, int chunk)
{
  size_t base = get_global_id(0) * 2 * chunk + 4;
  global int *d = dst + base + shift;
  global const int *s = src + base;
  if (d <= s)
    for (int k = 0; k < chunk; k++)
      d[k] = s[k] + (d == s ? 1000 : 0);
  else
    for (int k = chunk - 1; k >= 0; k--)
      d[k] = s[k] + 2000;
}

// Restrict arguments promise not to alias: logical mode keeps them (the comparison
// folds to "different").
kernel void restrict_args(global float *restrict a, global float *restrict b)
{
  size_t i = get_global_id(0);
  b[i] = a == b ? -1.0f : a[i] * 2.0f;
}
