// printf: every conversion, flag, width, precision, length modifier and vector form
// OpenCL C allows, string literal arguments, printf in a helper function and under
// control flow, and printf's return value. Run specs compare the set of printed lines
// with the reference's (the order between work-items is unspecified).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void printf_ints(global int *ret, int a, uint b, long c, ulong d)
{
  int i = (int)get_global_id(0);
  int x = a * (i + 1);
  ret[i] = printf("%d|%i|%5d|%-5d|%+d|% d|%05d|%.3d|%8.4d|%-+6d|\n", x, x, x, x, x, x, x, x, x, x);
  printf("u %u %o %#o %x %#x %X %#X %8x %-8X| %.0u|\n", b + i, b + i, b + i, b + i, b + i,
         b + i, b + i, b + i, b + i, 0u);
  printf("c %c%c%c [%3c] [%-3c]\n", 'k', '2' + i, 's', 'x', 'y');
  printf("hh %hhd %hhu %hhx h %hd %hu %hx\n", x * 37, x * 37, x * 37, x * 3001, x * 3001,
         x * 3001);
  printf("l %ld %lu %lx %lX %lo %+ld %20ld|%-20lu|\n", c * (i + 1), d + i, d + i, d + i,
         d + i, c, c, d);
}

kernel void printf_floats(global int *ret, float f, float g, double d)
{
  int i = (int)get_global_id(0);
  float v = f * (float)(i + 1);
  ret[i] = printf("%f %F %e %E %g %G %a %A\n", v, v, v, v, v, v, v, v);
  printf("%.2f|%10.3f|%-10.1f|%+f|% f|%010.2f|%#.0f|%.0e|%#g|%.3g|%12.4E|\n", v, v, v, v, v,
         v, v, v, v, v, v);
  printf("%g %g %g %g %.10g %a %.3a %-14a|\n", g, 1.0f / g, 1e-5f * g, 1e20f * g, g,
         g * 1e-30f, g, -g); // (not subnormal: devices may flush them, the H100 does)
  printf("inf %f %F %e %g nan %f %E -0 %f %g\n", INFINITY, -INFINITY, INFINITY, -INFINITY,
         NAN, NAN, -0.0f, -0.0f);
  // PoCL 3.1 prints double arguments at float precision: the specs pass doubles that
  // are floats, so the reference is right.
  printf("d %f %.17g %e %a %lf\n", d * (i + 1), d, d, d, d);
}

kernel void printf_vectors(global int *ret, int4 a, float4 f, long2 l)
{
  int i = (int)get_global_id(0);
  int4 ai = a + i;
  ret[i] = printf("%v4hld|%v4hlx|%#v4hlo|%+5v4hli|\n", ai, ai, ai, ai);
  printf("%v2hhd %v3hhu %#v4hhx %v8hhd %v16hhx\n", convert_char2(ai.xy),
         convert_uchar3(ai.xyz), convert_uchar4(ai), convert_char8((int8)(ai, -ai)),
         convert_uchar16((int16)(ai, ai * 2, ai * 3, ai * 4)));
  printf("%v2hd %v3hu %v4hx %v8hd %v16hX\n", convert_short2(ai.xy * 1000),
         convert_ushort3(ai.xyz), convert_short4(ai * -7), convert_short8((int8)(ai, ai * 99)),
         convert_ushort16((int16)(ai, ai * 2, ai * 3, ai * 4)));
  printf("%v4hlf|%.2v4hlf|%10.3v2hle|%v3hlg|%v8hla|%v16hlg\n", f * i, f, f.xy, f.xyz,
         (float8)(f, -f), (float16)(f, f * 2, f * 3, f * 4));
  // (no %v16ld: PoCL 3.1 prints garbage for 16-lane 64-bit vectors)
  printf("%v2ld %v2lx %v3lu %v4ld %v8lx\n", l + i, l, convert_ulong3(ai.xyz),
         convert_long4(ai) * l.x, convert_long8((int8)(ai, ai)));
  printf("%v2lf %.3v3le %v4lg %v8la\n", convert_double2(f.xy), convert_double3(f.xyz),
         convert_double4(f), convert_double8((float8)(f, f)));
  printf("%v2hlu %v3hli\n", convert_uint2(ai.xy), ai.xyz);
}

kernel void printf_strings(global int *ret, int n)
{
  int i = (int)get_global_id(0);
  printf("plain text, no arguments\n");
  // (no width with a precision on %s: PoCL 3.1 prints "%5.2s" of "ab" as two spaces)
  printf("%s|%10s|%-10s|%.3s|%%|100%%\n", "string", "right", "left", "truncated");
  printf("%s and %s at %d\n", "first", "literal", i);
  printf("");
  if (i < n)
    ret[i] = printf("work-item %d of %d is below %d\n", i, (int)get_global_size(0), n);
  else
    ret[i] = 10 + printf("work-item %d is not\n", i);
  for (int k = 0; k < i; k++)
    printf("loop %d.%d\n", i, k);
}

// printf in a function the kernel calls (kept a call: k2s inlines only what it must).
// PoCL 3.1 crashes on printf in a noinline function: printf_ref.cl is the reference.
static void __attribute__((noinline)) report(int i, int v)
{
  printf("helper %d: %d\n", i, v);
}

kernel void printf_helper(global int *ret)
{
  int i = (int)get_global_id(0);
  report(i, i * i);
  ret[i] = i;
}
