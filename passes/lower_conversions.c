/*
 * conversions: OpenCL conversions with SaturatedConversion / FPRoundingMode
 * and the Kernel-only OpSatConvert* → explicit Shader arithmetic.
 * (Work in progress: the rewriting follows in the next commits.)
 */
#include "k2s_internal.h"

bool k2s_lower_conversions(k2s_module *m, const k2s_options *o)
{
  (void)m;
  (void)o;
  return false;
}
