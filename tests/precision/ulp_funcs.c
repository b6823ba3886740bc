/*
 * The rows of the precision tool's function table (see ulp_table.h for the meaning of each
 * field and for the citation of the bounds). Keep in the OpenCL C specification's order.
 */
#include <stddef.h>

#include "ulp_table.h"

/* The rows are kept one function per line, as a table (clang-format would break them up). */
// clang-format off
#define NB NO_BOUND
#define AB ABS_BOUND
#define B(k, lo, hi) {k, lo, hi}
#define BITS {B('b', 0, 0), B('b', 0, 0), B('b', 0, 0)}
#define POS {B('p', 0, 0)}
#define U1(lo, hi) {B('u', lo, hi)}
#define U2(lo, hi) {B('u', lo, hi), B('u', lo, hi)}
#define U3(lo, hi) {B('u', lo, hi), B('u', lo, hi), B('u', lo, hi)}
#define PI 3.14159265358979323846
#define LN2 0.69314718055994530942

/* One-argument function of the tested type. */
#define F1(n, e, ty, h, f, d, r1, r2)                                                            \
  {n, e, "f", "f", ty, {h, f, d}, 0, 0, {{BITS}, {r1}, {r2}}, 3}
/* Two arguments. */
#define F2(n, e, ty, h, f, d, r1, r2)                                                            \
  {n, e, "ff", "f", ty, {h, f, d}, 0, 0, {{BITS}, {r1}, {r2}}, 3}

const func k2s_ulp_funcs[] = {
    /* ---- math functions (OpenCL C 6.15.2) ---- */
    F1("acos", "acos(a0)", T_ALL, 2, 4, 4, U1(-1, 1), U1(-1.1, 1.1)),
    F1("acosh", "acosh(a0)", T_ALL, 2, 4, 4, U1(1, 1e4), U1(1, 2)),
    F1("acospi", "acospi(a0)", T_ALL, 2, 5, 5, U1(-1, 1), U1(-1.1, 1.1)),
    F1("asin", "asin(a0)", T_ALL, 2, 4, 4, U1(-1, 1), U1(-1e-3, 1e-3)),
    F1("asinh", "asinh(a0)", T_ALL, 2, 4, 4, U1(-1e4, 1e4), U1(-2, 2)),
    F1("asinpi", "asinpi(a0)", T_ALL, 2, 5, 5, U1(-1, 1), U1(-1e-3, 1e-3)),
    F1("atan", "atan(a0)", T_ALL, 2, 5, 5, U1(-100, 100), U1(-2, 2)),
    F2("atan2", "atan2(a0, a1)", T_ALL, 2, 6, 6, U2(-10, 10), U2(-1e4, 1e4)),
    F1("atanh", "atanh(a0)", T_ALL, 2, 5, 5, U1(-1, 1), U1(-1e-3, 1e-3)),
    F1("atanpi", "atanpi(a0)", T_ALL, 2, 5, 5, U1(-100, 100), U1(-2, 2)),
    F2("atan2pi", "atan2pi(a0, a1)", T_ALL, 2, 6, 6, U2(-10, 10), U2(-1e4, 1e4)),
    F1("cbrt", "cbrt(a0)", T_ALL, 2, 2, 2, U1(-1e3, 1e3), U1(-2, 2)),
    F1("ceil", "ceil(a0)", T_ALL, CR, CR, CR, U1(-1e3, 1e3), U1(-2, 2)),
    F2("copysign", "copysign(a0, a1)", T_ALL, 0, 0, 0, U2(-4, 4), U2(-1e3, 1e3)),
    F1("cos", "cos(a0)", T_ALL, 2, 4, 4, U1(-PI, PI), U1(-1e5, 1e5)),
    F1("cosh", "cosh(a0)", T_ALL, 2, 4, 4, U1(-90, 90), U1(-12, 12)),
    F1("cospi", "cospi(a0)", T_ALL, 2, 4, 4, U1(-4, 4), U1(-1e5, 1e5)),
    F1("erfc", "erfc(a0)", T_ALL, 4, 16, 16, U1(-6, 30), U1(-2, 2)),
    F1("erf", "erf(a0)", T_ALL, 4, 16, 16, U1(-6, 6), U1(-1e-2, 1e-2)),
    F1("exp", "exp(a0)", T_ALL, 2, 3, 3, U1(-110, 90), U1(-12, 12)),
    F1("exp2", "exp2(a0)", T_ALL, 2, 3, 3, U1(-155, 130), U1(-16, 16)),
    F1("exp10", "exp10(a0)", T_ALL, 2, 3, 3, U1(-46, 40), U1(-6, 6)),
    F1("expm1", "expm1(a0)", T_ALL, 2, 3, 3, U1(-20, 90), U1(-1e-2, 1e-2)),
    F1("fabs", "fabs(a0)", T_ALL, 0, 0, 0, U1(-1e3, 1e3), U1(-2, 2)),
    F2("fdim", "fdim(a0, a1)", T_ALL, CR, CR, CR, U2(-4, 4), U2(-1e3, 1e3)),
    F1("floor", "floor(a0)", T_ALL, CR, CR, CR, U1(-1e3, 1e3), U1(-2, 2)),
    {"fma", "fma(a0, a1, a2)", "fff", "f", T_ALL, {CR, CR, CR}, 0, 0,
     {{BITS}, {U3(-10, 10)}, {{B('u', -1e3, 1e3), B('u', -1e3, 1e3), B('u', -1e6, 1e6)}}}, 3},
    {"fmax", "fmax(a0, a1)", "ff", "f", T_ALL, {0, 0, 0}, 0, Z_FREE_BOTH_ZERO,
     {{BITS}, {U2(-4, 4)}, {U2(-1e3, 1e3)}}, 3},
    {"fmin", "fmin(a0, a1)", "ff", "f", T_ALL, {0, 0, 0}, 0, Z_FREE_BOTH_ZERO,
     {{BITS}, {U2(-4, 4)}, {U2(-1e3, 1e3)}}, 3},
    F2("fmod", "fmod(a0, a1)", T_ALL, 0, 0, 0, U2(-100, 100), U2(-1e6, 1e6)),
    {"fract", "fract(a0, &r1[i])", "f", "ff", T_ALL, {CR, CR, CR}, 0, 0,
     {{BITS}, {U1(-1e3, 1e3)}, {U1(-2, 2)}}, 3},
    {"frexp", "frexp(a0, &r1[i])", "f", "fi", T_ALL, {0, 0, 0}, 0, 0,
     {{BITS}, {U1(-1e3, 1e3)}, {POS}}, 3},
    F2("hypot", "hypot(a0, a1)", T_ALL, 2, 4, 4, U2(-1e3, 1e3), U2(-2, 2)),
    {"ilogb", "ilogb(a0)", "f", "i", T_ALL, {0, 0, 0}, 0, 0, {{BITS}, {POS}, {U1(-2, 2)}}, 3},
    {"ldexp", "ldexp(a0, a1)", "fi", "f", T_ALL, {CR, CR, CR}, 0, 0,
     {{{B('b', 0, 0), B('i', -1100, 1100)}},
      {{B('b', 0, 0), B('i', -40, 40)}},
      {{B('u', -4, 4), B('i', -160, 160)}}},
     3},
    F1("lgamma", "lgamma(a0)", T_ALL, NB, NB, NB, U1(-40, 40), U1(-1e4, 1e4)),
    {"lgamma_r", "lgamma_r(a0, &r1[i])", "f", "fi", T_ALL, {NB, NB, NB}, 0, 0,
     {{BITS}, {U1(-40, 40)}, {U1(-5, 5)}}, 3},
    F1("log", "log(a0)", T_ALL, 2, 3, 3, POS, U1(0.5, 2)),
    F1("log2", "log2(a0)", T_ALL, 2, 3, 3, POS, U1(0.5, 2)),
    F1("log10", "log10(a0)", T_ALL, 2, 3, 3, POS, U1(0.5, 2)),
    F1("log1p", "log1p(a0)", T_ALL, 2, 2, 2, U1(-1, 10), U1(-1e-2, 1e-2)),
    F1("logb", "logb(a0)", T_ALL, 0, 0, 0, POS, U1(-2, 2)),
    /* mad: float "either a correctly rounded fma or a multiply followed by an add both of
     * which are correctly rounded" (checked as such); double "any value", half
     * "implementation-defined". */
    {"mad", "mad(a0, a1, a2)", "fff", "f", T_ALL, {NB, CR, NB}, 0, 0,
     {{BITS}, {U3(-10, 10)}, {U3(-1e3, 1e3)}}, 3},
    {"maxmag", "maxmag(a0, a1)", "ff", "f", T_ALL, {0, 0, 0}, 0, Z_FREE_BOTH_ZERO,
     {{BITS}, {U2(-4, 4)}, {U2(-1e3, 1e3)}}, 3},
    {"minmag", "minmag(a0, a1)", "ff", "f", T_ALL, {0, 0, 0}, 0, Z_FREE_BOTH_ZERO,
     {{BITS}, {U2(-4, 4)}, {U2(-1e3, 1e3)}}, 3},
    {"modf", "modf(a0, &r1[i])", "f", "ff", T_ALL, {0, 0, 0}, 0, 0,
     {{BITS}, {U1(-1e3, 1e3)}, {U1(-2, 2)}}, 3},
    F2("nextafter", "nextafter(a0, a1)", T_ALL, 0, 0, 0, U2(-4, 4), U2(-1e-3, 1e-3)),
    {"pow", "pow(a0, a1)", "ff", "f", T_ALL, {4, 16, 16}, 0, 0,
     {{BITS}, {{B('u', 0, 10), B('u', -30, 30)}}, {{B('u', -10, 10), B('i', -30, 30)}}}, 3},
    {"pown", "pown(a0, a1)", "fi", "f", T_ALL, {4, 16, 16}, 0, 0,
     {{{B('b', 0, 0), B('i', -300, 300)}}, {{B('u', -10, 10), B('i', -40, 40)}},
      {{B('u', -2, 2), B('i', -1000, 1000)}}},
     3},
    {"powr", "powr(a0, a1)", "ff", "f", T_ALL, {4, 16, 16}, 0, 0,
     {{BITS}, {{B('u', 0, 10), B('u', -30, 30)}}, {{B('u', 0.5, 2), B('u', -200, 200)}}}, 3},
    F2("remainder", "remainder(a0, a1)", T_ALL, 0, 0, 0, U2(-100, 100), U2(-1e6, 1e6)),
    {"remquo", "remquo(a0, a1, &r1[i])", "ff", "fi", T_ALL, {0, 0, 0}, 0, 0,
     {{BITS}, {U2(-100, 100)}, {{B('u', -1e4, 1e4), B('u', -10, 10)}}}, 3},
    F1("rint", "rint(a0)", T_ALL, CR, CR, CR, U1(-1e3, 1e3), U1(-3, 3)),
    {"rootn", "rootn(a0, a1)", "fi", "f", T_ALL, {4, 16, 16}, 0, 0,
     {{{B('b', 0, 0), B('i', -20, 20)}}, {{B('u', -1e6, 1e6), B('i', -10, 10)}},
      {{B('p', 0, 0), B('i', 1, 4)}}},
     3},
    F1("round", "round(a0)", T_ALL, CR, CR, CR, U1(-1e3, 1e3), U1(-3, 3)),
    F1("rsqrt", "rsqrt(a0)", T_ALL, 1, 2, 2, POS, U1(0, 100)),
    F1("sin", "sin(a0)", T_ALL, 2, 4, 4, U1(-PI, PI), U1(-1e5, 1e5)),
    {"sincos", "sincos(a0, &r1[i])", "f", "ff", T_ALL, {2, 4, 4}, 0, 0,
     {{BITS}, {U1(-PI, PI)}, {U1(-1e5, 1e5)}}, 3},
    F1("sinh", "sinh(a0)", T_ALL, 2, 4, 4, U1(-90, 90), U1(-1, 1)),
    F1("sinpi", "sinpi(a0)", T_ALL, 2, 4, 4, U1(-4, 4), U1(-1e5, 1e5)),
    F1("sqrt", "sqrt(a0)", T_ALL, CR, 3, CR, POS, U1(0, 100)),
    F1("tan", "tan(a0)", T_ALL, 2, 5, 5, U1(-PI, PI), U1(-1e5, 1e5)),
    F1("tanh", "tanh(a0)", T_ALL, 2, 5, 5, U1(-10, 10), U1(-1e-2, 1e-2)),
    F1("tanpi", "tanpi(a0)", T_ALL, 2, 6, 6, U1(-4, 4), U1(-1e5, 1e5)),
    F1("tgamma", "tgamma(a0)", T_ALL, 4, 16, 16, U1(-40, 40), U1(-180, 180)),
    F1("trunc", "trunc(a0)", T_ALL, CR, CR, CR, U1(-1e3, 1e3), U1(-2, 2)),
    /* ---- division and reciprocal (operators; same table) ---- */
    F2("divide", "a0 / a1", T_ALL, CR, 2.5, CR, U2(-1e3, 1e3), U2(-2, 2)),
    F1("recip", "ONE / a0", T_ALL, CR, 2.5, CR, U1(-1e3, 1e3), POS),
    /* ---- half_* (float only; 8192 ulp; half_sin/cos/tan defined for |x| <= 2^16) ---- */
    {"half_cos", "half_cos(a0)", "f", "f", T_FLOAT, {NB, 8192, NB}, 0, TRIG16,
     {{U1(-65536, 65536)}, {U1(-PI, PI)}, {U1(-100, 100)}}, 3},
    F2("half_divide", "half_divide(a0, a1)", T_FLOAT, NB, 8192, NB, U2(-1e3, 1e3), U2(-2, 2)),
    F1("half_exp", "half_exp(a0)", T_FLOAT, NB, 8192, NB, U1(-110, 90), U1(-12, 12)),
    F1("half_exp2", "half_exp2(a0)", T_FLOAT, NB, 8192, NB, U1(-155, 130), U1(-16, 16)),
    F1("half_exp10", "half_exp10(a0)", T_FLOAT, NB, 8192, NB, U1(-46, 40), U1(-6, 6)),
    F1("half_log", "half_log(a0)", T_FLOAT, NB, 8192, NB, POS, U1(0.5, 2)),
    F1("half_log2", "half_log2(a0)", T_FLOAT, NB, 8192, NB, POS, U1(0.5, 2)),
    F1("half_log10", "half_log10(a0)", T_FLOAT, NB, 8192, NB, POS, U1(0.5, 2)),
    {"half_powr", "half_powr(a0, a1)", "ff", "f", T_FLOAT, {NB, 8192, NB}, 0, 0,
     {{BITS}, {{B('u', 0, 10), B('u', -30, 30)}}, {{B('u', 0.5, 2), B('u', -200, 200)}}}, 3},
    F1("half_recip", "half_recip(a0)", T_FLOAT, NB, 8192, NB, U1(-1e3, 1e3), POS),
    F1("half_rsqrt", "half_rsqrt(a0)", T_FLOAT, NB, 8192, NB, POS, U1(0, 100)),
    {"half_sin", "half_sin(a0)", "f", "f", T_FLOAT, {NB, 8192, NB}, 0, TRIG16,
     {{U1(-65536, 65536)}, {U1(-PI, PI)}, {U1(-100, 100)}}, 3},
    F1("half_sqrt", "half_sqrt(a0)", T_FLOAT, NB, 8192, NB, POS, U1(0, 100)),
    {"half_tan", "half_tan(a0)", "f", "f", T_FLOAT, {NB, 8192, NB}, 0, TRIG16,
     {{U1(-65536, 65536)}, {U1(-PI, PI)}, {U1(-100, 100)}}, 3},
    /* ---- native_* (float only; implementation-defined: measured, never failed) ---- */
    F1("native_cos", "native_cos(a0)", T_FLOAT, NB, NB, NB, U1(-PI, PI), U1(-100, 100)),
    F2("native_divide", "native_divide(a0, a1)", T_FLOAT, NB, NB, NB, U2(-1e3, 1e3),
       U2(-2, 2)),
    F1("native_exp", "native_exp(a0)", T_FLOAT, NB, NB, NB, U1(-110, 90), U1(-12, 12)),
    F1("native_exp2", "native_exp2(a0)", T_FLOAT, NB, NB, NB, U1(-155, 130), U1(-16, 16)),
    F1("native_exp10", "native_exp10(a0)", T_FLOAT, NB, NB, NB, U1(-46, 40), U1(-6, 6)),
    F1("native_log", "native_log(a0)", T_FLOAT, NB, NB, NB, POS, U1(0.5, 2)),
    F1("native_log2", "native_log2(a0)", T_FLOAT, NB, NB, NB, POS, U1(0.5, 2)),
    F1("native_log10", "native_log10(a0)", T_FLOAT, NB, NB, NB, POS, U1(0.5, 2)),
    {"native_powr", "native_powr(a0, a1)", "ff", "f", T_FLOAT, {NB, NB, NB}, 0, 0,
     {{BITS}, {{B('u', 0, 10), B('u', -30, 30)}}, {{B('u', 0.5, 2), B('u', -200, 200)}}}, 3},
    F1("native_recip", "native_recip(a0)", T_FLOAT, NB, NB, NB, U1(-1e3, 1e3), POS),
    F1("native_rsqrt", "native_rsqrt(a0)", T_FLOAT, NB, NB, NB, POS, U1(0, 100)),
    F1("native_sin", "native_sin(a0)", T_FLOAT, NB, NB, NB, U1(-PI, PI), U1(-100, 100)),
    F1("native_sqrt", "native_sqrt(a0)", T_FLOAT, NB, NB, NB, POS, U1(0, 100)),
    F1("native_tan", "native_tan(a0)", T_FLOAT, NB, NB, NB, U1(-PI, PI), U1(-100, 100)),
    /* ---- common functions (OpenCL C 6.15.4) ---- */
    F1("degrees", "degrees(a0)", T_ALL, 2, 2, 2, U1(-10, 10), U1(-1e4, 1e4)),
    F1("radians", "radians(a0)", T_ALL, 2, 2, 2, U1(-720, 720), U1(-1e6, 1e6)),
    F1("sign", "sign(a0)", T_ALL, 0, 0, 0, U1(-2, 2), U1(-1e-30, 1e-30)),
    F2("step", "step(a0, a1)", T_ALL, 0, 0, 0, U2(-2, 2), U2(-1e3, 1e3)),
    /* Absolute bounds hold only for operands of moderate size: inputs in [-1, 1]. */
    {"mix", "mix(a0, a1, a2)", "fff", "f", T_FLOAT, {NB, AB, NB}, 1e-3, NO_SPECIALS,
     {{{B('u', -1, 1), B('u', -1, 1), B('u', 0, 1)}}}, 1},
    {"smoothstep", "smoothstep(a0, a1, a2)", "fff", "f", T_FLOAT, {NB, AB, NB}, 1e-5, NO_SPECIALS,
     {{{B('u', -1, -0.01), B('u', 0.01, 1), B('u', -1.5, 1.5)}}}, 1},
};

// clang-format on

const size_t k2s_ulp_nfuncs = sizeof k2s_ulp_funcs / sizeof k2s_ulp_funcs[0];
