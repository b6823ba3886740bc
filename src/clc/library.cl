/*
 * k2s builtin library: OpenCL C sources of the precise math functions, one
 * translation unit. Built by src/meson.build (clang-15 -> llvm-spirv-15 ->
 * embed.py) and linked on demand by passes/lower_math.c. Each exported
 * function is named __k2s_<builtin>_<type>; docs/math.md lists the methods,
 * bounds and measured errors.
 */
#include "common.h"
#include "fma.cl"
#include "exp.cl"
#include "log.cl"
#include "trig.cl"
#include "atrig.cl"
#include "hyp.cl"
#include "special.cl"
#include "gamma.cl"
#include "fma64.cl"
#include "div64.cl"
#include "dexp.cl"
#include "dtrig.cl"
#include "datrig.cl"
#include "derf.cl"
#include "dgamma.cl"
