/*
 * no-contraction: keep every float add, subtract and multiply rounded on its own.
 *
 * In the Kernel dialect two operations are never fused behind the program's
 * back: OpenCL C's contraction (FP_CONTRACT, -cl-mad-enable) reaches SPIR-V
 * as explicit mad/fma instructions. Vulkan drivers, though, may fuse an
 * OpFMul feeding an OpFAdd unless the result is decorated NoContraction, and
 * NVIDIA's does. Decorating each float OpFAdd/OpFSub/OpFMul/OpFNegate/
 * OpVectorTimesScalar keeps the OpenCL result exact, and the builtin
 * library's error-free transformations (Dekker products, float-float sums)
 * depend on it. -cl-fast-relaxed-math lets contraction happen (OpenCL allows
 * it there) and skips the pass; so does the producer's own fast-math flag on one
 * instruction: llvm-spirv writes FPFastMathMode Fast for -cl-fast-relaxed-math
 * (AllowContractFastINTEL with SPV_INTEL_fp_fast_math_mode), which finalize then
 * strips as Kernel-only.
 */
#include "k2s_internal.h"

/* FPFastMathMode bits that allow contraction: Fast, AllowContractFastINTEL */
#define CONTRACT_OK (0x10u | 0x10000u)

static bool producer_allows_contraction(const k2s_module *m, uint32_t id)
{
  k2s_instr *d = k2s_find_decoration(m, id, SpvDecorationFPFastMathMode);
  return d && d->n_ops >= 3 && (d->ops[2] & CONTRACT_OK);
}

static bool contractible(uint16_t op)
{
  return op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFMul || op == SpvOpFNegate ||
         op == SpvOpVectorTimesScalar;
}

bool k2s_no_contraction(k2s_module *m, const k2s_options *o)
{
  if (o->fast_relaxed_math)
    return false;
  k2s_keep_uses(m); /* only adds decorations */
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (contractible(i->opcode) && i->result &&
            !k2s_find_decoration(m, i->result, SpvDecorationNoContraction) &&
            !producer_allows_contraction(m, i->result)) {
          k2s_decorate(m, i->result, SpvDecorationNoContraction, NULL, 0);
          changed = true;
        }
  return changed;
}
