/*
 * The builtin library's shared helpers (k2s's own code, written for it).
 *
 * Everything here is compiled to Kernel SPIR-V at build time and linked into
 * translated modules by passes/lower_math.c. It may only use operations that
 * the rest of the k2s pipeline lowers exactly: integer arithmetic, as_type
 * bit casts, float +, -, * (Vulkan rounds them correctly; the linker marks
 * them NoContraction so no driver fuses them), comparisons, and exact
 * builtins (fabs, rint, floor, trunc, copysign, clz). Division appears only
 * where its error (2.5 ulp in Vulkan) is damped by the algorithm; each such
 * place says so.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Helpers are inlined: a float-float struct must never cross a call (it
 * would be passed through a pointer). */
#define K2S_INLINE static inline __attribute__((always_inline))

typedef unsigned int u32;
typedef unsigned long u64;

#define K2S_INF as_float(0x7f800000u)
#define K2S_NAN as_float(0x7fc00000u)

/* A float-float value hi + lo, |lo| <= ulp(hi)/2. */
typedef struct ff {
  float hi, lo;
} ff;

K2S_INLINE ff ff_make(float hi, float lo)
{
  ff r = {hi, lo};
  return r;
}

/* Knuth's TwoSum: a + b = s + e exactly. */
K2S_INLINE ff two_sum(float a, float b)
{
  float s = a + b;
  float bb = s - a;
  float e = (a - (s - bb)) + (b - bb);
  return ff_make(s, e);
}

/* Dekker's FastTwoSum, |a| >= |b| (or a == 0). */
K2S_INLINE ff fast_two_sum(float a, float b)
{
  float s = a + b;
  return ff_make(s, b - (s - a));
}

/* Veltkamp split into 12 + 12 bits; |a| < 2^115 so the product cannot overflow. */
K2S_INLINE ff split(float a)
{
  float c = 4097.0f * a;
  float hi = c - (c - a);
  return ff_make(hi, a - hi);
}

/* Dekker's TwoProduct: a * b = p + e exactly (no fma needed). */
K2S_INLINE ff two_prod(float a, float b)
{
  float p = a * b;
  ff x = split(a), y = split(b);
  float e = ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo;
  return ff_make(p, e);
}

K2S_INLINE ff ff_add(ff a, ff b)
{
  ff s = two_sum(a.hi, b.hi);
  ff t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}

K2S_INLINE ff ff_add_f(ff a, float b)
{
  ff s = two_sum(a.hi, b);
  s.lo += a.lo;
  return fast_two_sum(s.hi, s.lo);
}

K2S_INLINE ff ff_mul(ff a, ff b)
{
  ff p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}

K2S_INLINE ff ff_mul_f(ff a, float b)
{
  ff p = two_prod(a.hi, b);
  p.lo += a.lo * b;
  return fast_two_sum(p.hi, p.lo);
}

/* 2^k as a float, k in [-126, 127]. */
K2S_INLINE float pow2i(int k)
{
  return as_float((u32)(k + 127) << 23);
}

/* x * 2^k rounding once, for |x| in [2^-30, 2^30] and |k| <= 240: the first
 * step is exact (its result stays normal), the second rounds. */
K2S_INLINE float scale2(float x, int k)
{
  if (k > 120) {
    x *= pow2i(120);
    k -= 120;
  } else if (k < -120) {
    x *= pow2i(-120);
    k += 120;
  }
  return x * pow2i(clamp(k, -126, 127));
}

K2S_INLINE bool is_nan(float x)
{
  return (as_uint(x) & 0x7fffffffu) > 0x7f800000u;
}

/* The zero of x's sign, in integer arithmetic. Where a test `x == 0` fires, return this,
 * not x: on a device that flushes subnormals (the H100) the test is true for a subnormal
 * x, whose bits a move keeps. */
K2S_INLINE float zero_of(float x)
{
  return as_float(as_uint(x) & 0x80000000u);
}

K2S_INLINE bool sign_of(float x)
{
  return (as_uint(x) >> 31) != 0u;
}

K2S_INLINE bool is_inf(float x)
{
  return (as_uint(x) & 0x7fffffffu) == 0x7f800000u;
}
