// cl_khr_extended_bit_ops on char, short, long and vectors (SPV_KHR_bit_instructions:
// OpBitFieldInsert, OpBitField[SU]Extract, OpBitReverse). Vulkan allows these on 32-bit
// values only; the builtins pass widens narrow ones and builds 64-bit ones from
// shifts (SLT test/extensions/KHR/SPV_KHR_bit_instructions, sweep E). Offsets and
// counts cover every field of each width, a count of 0 included.
// PoCL 3.1 lacks the extension: bit_ops_widths_ref.cl computes the values.

kernel void bit_ops_widths(global const ulong *in, global ulong *out)
{
  uint g = get_global_id(0);
  ulong x = in[g] * 0x9E3779B97F4A7C15UL ^ (in[g] << 29);
  global ulong *o = out + g * 16;
  uint o64 = g % 64, c64 = (g * 7) % (65 - o64);
  o[0] = bitfield_extract_unsigned(x, o64, c64);
  o[1] = (ulong)bitfield_extract_signed((long)x, o64, c64);
  o[2] = bitfield_insert(x, ~x * 3, o64, c64);
  o[3] = bit_reverse(x);
  ushort h = (ushort)x;
  uint o16 = g % 16, c16 = (g * 5) % (17 - o16);
  o[4] = bitfield_extract_unsigned(h, o16, c16);
  o[5] = (ulong)(long)bitfield_extract_signed((short)h, o16, c16);
  o[6] = bitfield_insert(h, (ushort)(x >> 16), o16, c16);
  o[7] = bit_reverse(h);
  uchar b = (uchar)(x >> 40);
  uint o8 = g % 8, c8 = (g * 3) % (9 - o8);
  o[8] = bitfield_extract_unsigned(b, o8, c8);
  o[9] = (ulong)(long)bitfield_extract_signed((char)b, o8, c8);
  o[10] = bitfield_insert(b, (uchar)(x >> 48), o8, c8);
  o[11] = bit_reverse(b);
  ulong2 v = (ulong2)(x, ~x >> 3);
  ulong2 e = bitfield_extract_unsigned(v, o64, c64);
  o[12] = e.x;
  o[13] = e.y;
  short4 s = (short4)((short)x, (short)(x >> 16), (short)(x >> 32), (short)(x >> 48));
  short4 r = bitfield_extract_signed(s, o16, c16);
  o[14] = (ulong)(long)r.x + ((ulong)(long)r.y << 16);
  ushort4 rr = bit_reverse(as_ushort4(s));
  o[15] = (ulong)rr.z + ((ulong)rr.w << 16);
}
