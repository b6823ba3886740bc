// Reference for bit_ops_widths.cl, which PoCL 3.1 cannot build (no
// cl_khr_extended_bit_ops): the same values from the extension's definitions,
// bit by bit, in OpenCL C 1.2.

static ulong uext(ulong x, uint off, uint cnt)
{
  ulong r = 0;
  for (uint k = 0; k < cnt; k++)
    r |= ((x >> (off + k)) & 1) << k;
  return r;
}

static long sext(ulong x, uint off, uint cnt)
{
  ulong r = uext(x, off, cnt);
  if (cnt && ((r >> (cnt - 1)) & 1))
    for (uint k = cnt; k < 64; k++)
      r |= 1UL << k;
  return (long)r;
}

static ulong ins(ulong base, ulong v, uint off, uint cnt)
{
  for (uint k = 0; k < cnt; k++) {
    ulong bit = 1UL << (off + k);
    base = (base & ~bit) | (((v >> k) & 1) << (off + k));
  }
  return base;
}

static ulong rev(ulong x, uint w)
{
  ulong r = 0;
  for (uint k = 0; k < w; k++)
    r |= ((x >> k) & 1) << (w - 1 - k);
  return r;
}

kernel void bit_ops_widths(global const ulong *in, global ulong *out)
{
  uint g = get_global_id(0);
  ulong x = in[g] * 0x9E3779B97F4A7C15UL ^ (in[g] << 29);
  global ulong *o = out + g * 16;
  uint o64 = g % 64, c64 = (g * 7) % (65 - o64);
  o[0] = uext(x, o64, c64);
  o[1] = (ulong)sext(x, o64, c64);
  o[2] = ins(x, ~x * 3, o64, c64);
  o[3] = rev(x, 64);
  ulong h = x & 0xffff;
  uint o16 = g % 16, c16 = (g * 5) % (17 - o16);
  o[4] = uext(h, o16, c16);
  o[5] = (ulong)sext(h, o16, c16);
  o[6] = ins(h, (x >> 16) & 0xffff, o16, c16);
  o[7] = rev(h, 16);
  ulong b = (x >> 40) & 0xff;
  uint o8 = g % 8, c8 = (g * 3) % (9 - o8);
  o[8] = uext(b, o8, c8);
  o[9] = (ulong)sext(b, o8, c8);
  o[10] = ins(b, (x >> 48) & 0xff, o8, c8);
  o[11] = rev(b, 8);
  o[12] = uext(x, o64, c64);
  o[13] = uext(~x >> 3, o64, c64);
  o[14] = (ulong)sext(x & 0xffff, o16, c16) + ((ulong)sext((x >> 16) & 0xffff, o16, c16) << 16);
  o[15] = rev((x >> 32) & 0xffff, 16) + (rev(x >> 48, 16) << 16);
}
