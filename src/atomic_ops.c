/*
 * What an atomic read-modify-write does to the value in memory, built as plain
 * instructions: the one place that knows it. 'private-atomics' stores it back
 * (memory only the invocation sees), 'atomics' swaps it in with a
 * compare-exchange loop (a float atomic the device lacks).
 */
#include "k2s_internal.h"
#include "k2s_builder_ops.h"

/* OpenCL.std fmin / fmax: NaN ignored, as cl_ext_float_atomics asks of the float
 * min/max atomics ('builtins' lowers them). */
static uint32_t opencl_std(k2s_builder *b, uint32_t T, uint32_t inst, uint32_t x, uint32_t y)
{
  uint32_t ops[4] = {k2s_ext_import(b->m, "OpenCL.std"), inst, x, y};
  return k2s_emit(b, SpvOpExtInst, T, ops, 4);
}

uint32_t k2s_build_atomic_update(k2s_builder *b, uint16_t op, uint32_t T, uint32_t old, uint32_t v,
                                 uint32_t comparator)
{
  k2s_module *m = b->m;
  switch (op) {
  case SpvOpAtomicIIncrement: return k2s_b_iadd(b, T, old, k2s_const_int(m, T, 1));
  case SpvOpAtomicIDecrement: return k2s_b_isub(b, T, old, k2s_const_int(m, T, 1));
  case SpvOpAtomicIAdd: return k2s_b_iadd(b, T, old, v);
  case SpvOpAtomicISub: return k2s_b_isub(b, T, old, v);
  case SpvOpAtomicAnd: return k2s_b_bitwise_and(b, T, old, v);
  case SpvOpAtomicOr: return k2s_b_bitwise_or(b, T, old, v);
  case SpvOpAtomicXor: return k2s_b_bitwise_xor(b, T, old, v);
  case SpvOpAtomicSMin:
    return k2s_b_select(b, T, k2s_b_sless_than(b, k2s_type_bool(m), v, old), v, old);
  case SpvOpAtomicSMax:
    return k2s_b_select(b, T, k2s_b_sgreater_than(b, k2s_type_bool(m), v, old), v, old);
  case SpvOpAtomicUMin:
    return k2s_b_select(b, T, k2s_b_uless_than(b, k2s_type_bool(m), v, old), v, old);
  case SpvOpAtomicUMax:
    return k2s_b_select(b, T, k2s_b_ugreater_than(b, k2s_type_bool(m), v, old), v, old);
  case SpvOpAtomicFAddEXT: return k2s_b_fadd(b, T, old, v);
  case SpvOpAtomicFMinEXT: return opencl_std(b, T, K2S_OPENCL_STD_fmin, old, v);
  case SpvOpAtomicFMaxEXT: return opencl_std(b, T, K2S_OPENCL_STD_fmax, old, v);
  case SpvOpAtomicExchange: return v;
  case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak:
    return k2s_b_select(b, T, k2s_b_iequal(b, k2s_type_bool(m), old, comparator), v, old);
  default: return 0;
  }
}
