/*
 * The precision tool's function table: every OpenCL.std float function it measures, the
 * OpenCL C expression a test kernel evaluates, the argument and result kinds, the inputs'
 * useful ranges, and the full-profile error bound per type.
 *
 * Bounds: OpenCL C specification (unified, 3.0), section 7.4 "Relative Error as ULPs",
 * tables "ULP Values for Single-Precision Built-in Math Functions" (table-ulp-float-math),
 * "ULP Values for Double-Precision Built-in Math Functions" (table-ulp-double) and
 * "ULP Values for Half-Precision Floating-Point Arithmetic Operations" (table-ulp-half-math,
 * full-profile column), https://registry.khronos.org/OpenCL/specs/3.0-unified/html/
 * OpenCL_C.html#relative-error-as-ulps. "Correctly rounded" is a bound of 0.5 ulp, "0 ulp" a
 * bound of 0 (the exact result is representable); half_* functions are float-only with 8192
 * ulp; native_*, lgamma, and the "implementation-defined" / "any value" rows have no bound
 * (measured, never failed). mix and smoothstep have absolute bounds (1e-3, 1e-5).
 */
#ifndef K2S_ULP_TABLE_H
#define K2S_ULP_TABLE_H

enum {
  NO_BOUND = -1, /* implementation-defined or undefined: reported, never failed */
  ABS_BOUND = -2 /* absolute error bound in abs_bound */
};
#define CR 0.5 /* "Correctly rounded" */

/* Which types a row exists for (bit per type). */
enum { T_HALF = 1, T_FLOAT = 2, T_DOUBLE = 4, T_ALL = 7, T_FD = 6 };

/* One input range: 'b' every bit pattern (NaN, inf and subnormals included), 'p' every
 * positive finite bit pattern, 'u' uniform in [lo, hi] rounded to the type, 'i' an int in
 * [lo, hi]. Each row has up to 3 range sets; random inputs are spread evenly over them. */
typedef struct range {
  char kind;
  double lo, hi;
} range;

typedef struct range_set {
  range arg[3];
} range_set;

enum {
  Z_FREE_BOTH_ZERO = 1, /* fmin/fmax family: ±0 result sign free when both inputs are zeros */
  NO_SPECIALS = 2,      /* mix/smoothstep: only in-range inputs (the bound is absolute) */
  TRIG16 = 4,           /* half_sin/cos/tan: |x| <= 2^16 (OpenCL C "half_cos") */
};

typedef struct func {
  const char *name;
  const char *expr; /* OpenCL C: a0 a1 a2 are the inputs, r1 the second output lane */
  const char *args; /* 'f' the tested type, 'i' int */
  const char *outs; /* result kinds: 'f' tested type, 'i' int */
  unsigned types;   /* T_* */
  double bound[3];  /* half, float, double: ulp, NO_BOUND or ABS_BOUND */
  double abs_bound;
  unsigned flags;
  range_set sets[3];
  int nsets;
} func;

#endif
