/*
 * Which Vulkan device features a module's atomics need, by width, kind and
 * memory (the capability alone does not say buffer or shared memory): the
 * reflection lists them for the host (docs/runtime-abi.md). Read after the
 * pointer passes, when every atomic's pointer has its final storage class.
 */
#include "k2s_internal.h"

static const char *const feature_names[K2S_ATOMIC_FEATURE_COUNT] = {
    "shaderBufferInt64Atomics",        "shaderSharedInt64Atomics",
    "shaderBufferFloat16AtomicAdd",    "shaderSharedFloat16AtomicAdd",
    "shaderBufferFloat32AtomicAdd",    "shaderSharedFloat32AtomicAdd",
    "shaderBufferFloat64AtomicAdd",    "shaderSharedFloat64AtomicAdd",
    "shaderBufferFloat16AtomicMinMax", "shaderSharedFloat16AtomicMinMax",
    "shaderBufferFloat32AtomicMinMax", "shaderSharedFloat32AtomicMinMax",
    "shaderBufferFloat64AtomicMinMax", "shaderSharedFloat64AtomicMinMax",
};

const char *k2s_atomic_feature_name(uint32_t feature)
{
  return feature < K2S_ATOMIC_FEATURE_COUNT ? feature_names[feature] : "?";
}

bool k2s_is_atomic(uint16_t op)
{
  return k2s_opcode_class(op) == K2S_CLASS_ATOMIC;
}

/* The value type of an atomic, 0 when i is none. */
uint32_t k2s_atomic_value_type(const k2s_module *m, const k2s_instr *i)
{
  if (!k2s_is_atomic(i->opcode))
    return 0;
  switch (i->opcode) {
  case SpvOpAtomicStore: {
    const k2s_atomic_operands *a = k2s_atomic_layout(i->opcode);
    return i->n_ops == a->n_operands ? k2s_type_of(m, i->ops[a->value]) : 0;
  }
  case SpvOpAtomicFlagTestAndSet: /* a bool result, no value in memory of a known type */
  case SpvOpAtomicFlagClear: return 0;
  default: return i->type; /* every other atomic returns the value it reads */
  }
}

uint32_t k2s_atomic_features(k2s_module *m)
{
  uint32_t need = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        uint32_t type = k2s_atomic_value_type(m, i);
        k2s_instr *t = type ? k2s_def(m, type) : NULL;
        k2s_instr *pt = type && i->n_ops ? k2s_def(m, k2s_type_of(m, i->ops[0])) : NULL;
        if (!t || !pt || pt->opcode != SpvOpTypePointer)
          continue;
        uint32_t shared = pt->ops[0] == SpvStorageClassWorkgroup, w = t->ops[0];
        uint32_t wi = w == 16 ? 0 : w == 32 ? 1 : 2;
        if (t->opcode == SpvOpTypeInt && w == 64)
          need |= 1u << (K2S_ATOMIC_INT64_BUFFER + shared);
        else if (i->opcode == SpvOpAtomicFAddEXT)
          need |= 1u << (K2S_ATOMIC_F16_ADD_BUFFER + 2 * wi + shared);
        else if (i->opcode == SpvOpAtomicFMinEXT || i->opcode == SpvOpAtomicFMaxEXT)
          need |= 1u << (K2S_ATOMIC_F16_MINMAX_BUFFER + 2 * wi + shared);
      }
  return need;
}
