/*
 * private-atomics: an atomic on Function or Private memory → load, operation, store.
 *
 * OpenCL lets a kernel apply atomics to private memory (an `atomic_flag` or an
 * `atomic_int` declared in the kernel, reached through a generic pointer); only the
 * invocation itself can see that memory, so the atomic is an ordinary read-modify-write
 * there. Vulkan allows atomics only on Uniform, StorageBuffer, PhysicalStorageBuffer,
 * Workgroup and Image memory (VUID-StandaloneSpirv-None-04686): left alone, such an
 * atomic makes the output invalid. Every atomic opcode of the grammar's Atomic class is
 * rewritten (each returns the value it read, as the atomic did); its scope and memory
 * semantics go, as nothing else can observe the memory. Runs after 'pointers', when a
 * generic pointer has its concrete storage class, and before 'builtins', which lowers
 * the OpenCL.std fmin/fmax that the float min/max atomics become. No options.
 */
#include "k2s_internal.h"
#include "k2s_builder_ops.h"

static bool is_private(k2s_module *m, uint32_t ptr)
{
  k2s_instr *pt = k2s_def(m, k2s_type_of(m, ptr));
  return pt && pt->opcode == SpvOpTypePointer && pt->n_ops >= 2 &&
         (pt->ops[0] == SpvStorageClassFunction || pt->ops[0] == SpvStorageClassPrivate);
}

/* The type in memory: the pointee. */
static uint32_t pointee(k2s_module *m, uint32_t ptr)
{
  return k2s_def(m, k2s_type_of(m, ptr))->ops[1];
}

static bool is_int(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypeInt;
}

/* How many operands the atomic must have to be rewritten here; 0: not handled. */
static uint32_t operand_count(uint16_t op)
{
  switch (op) {
  case SpvOpAtomicLoad:
  case SpvOpAtomicIIncrement:
  case SpvOpAtomicIDecrement:
  case SpvOpAtomicFlagTestAndSet:
  case SpvOpAtomicFlagClear: return 3;
  case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak: return 6;
  default: return k2s_is_atomic(op) ? 4 : 0;
  }
}

/* new = op(old, v) for the read-modify-write atomics with a value operand. */
static uint32_t combine(k2s_builder *b, uint16_t op, uint32_t T, uint32_t old, uint32_t v)
{
  k2s_module *m = b->m;
  uint32_t B = k2s_type_bool(m);
  switch (op) {
  case SpvOpAtomicIAdd: return k2s_b_iadd(b, T, old, v);
  case SpvOpAtomicISub: return k2s_b_isub(b, T, old, v);
  case SpvOpAtomicAnd: return k2s_b_bitwise_and(b, T, old, v);
  case SpvOpAtomicOr: return k2s_b_bitwise_or(b, T, old, v);
  case SpvOpAtomicXor: return k2s_b_bitwise_xor(b, T, old, v);
  case SpvOpAtomicSMin: return k2s_b_select(b, T, k2s_b_sless_than(b, B, v, old), v, old);
  case SpvOpAtomicSMax: return k2s_b_select(b, T, k2s_b_sgreater_than(b, B, v, old), v, old);
  case SpvOpAtomicUMin: return k2s_b_select(b, T, k2s_b_uless_than(b, B, v, old), v, old);
  case SpvOpAtomicUMax: return k2s_b_select(b, T, k2s_b_ugreater_than(b, B, v, old), v, old);
  case SpvOpAtomicFAddEXT: return k2s_b_fadd(b, T, old, v);
  case SpvOpAtomicFMinEXT:
  case SpvOpAtomicFMaxEXT: {
    /* OpenCL.std fmin / fmax: NaN ignored, as cl_ext_float_atomics asks ('builtins'
     * lowers them). */
    uint32_t ops[4] = {k2s_ext_import(m, "OpenCL.std"),
                       op == SpvOpAtomicFMinEXT ? K2S_OPENCL_STD_fmin : K2S_OPENCL_STD_fmax, old, v};
    return k2s_emit(b, SpvOpExtInst, T, ops, 4);
  }
  case SpvOpAtomicExchange: return v;
  default: return 0;
  }
}

/* Rewrites one atomic; false (with an error) when it cannot. */
static bool lower(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t ptr = i->ops[0], T = pointee(m, ptr), result = 0, next = 0;
  uint16_t op = i->opcode;
  bool int_only = op == SpvOpAtomicFlagTestAndSet || op == SpvOpAtomicFlagClear ||
                  op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement ||
                  op == SpvOpAtomicCompareExchange || op == SpvOpAtomicCompareExchangeWeak;
  if (int_only && !is_int(m, T)) {
    k2s_error(m, i, "an atomic on private memory of a type that is not an integer");
    return false;
  }
  switch (op) {
  case SpvOpAtomicStore: next = i->ops[3]; break;
  case SpvOpAtomicFlagClear: next = k2s_const_int(m, T, 0); break;
  case SpvOpAtomicLoad: result = k2s_b_load(&b, T, ptr); break;
  case SpvOpAtomicFlagTestAndSet: {
    uint32_t old = k2s_b_load(&b, T, ptr);
    result = k2s_b_inot_equal(&b, i->type, old, k2s_const_int(m, T, 0));
    next = k2s_const_int(m, T, 1);
    break;
  }
  case SpvOpAtomicIIncrement:
  case SpvOpAtomicIDecrement:
    result = k2s_b_load(&b, T, ptr);
    next = op == SpvOpAtomicIIncrement ? k2s_b_iadd(&b, T, result, k2s_const_int(m, T, 1))
                                       : k2s_b_isub(&b, T, result, k2s_const_int(m, T, 1));
    break;
  case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak: {
    result = k2s_b_load(&b, T, ptr);
    uint32_t same = k2s_b_iequal(&b, k2s_type_bool(m), result, i->ops[5]);
    next = k2s_b_select(&b, T, same, i->ops[4], result);
    break;
  }
  default:
    result = k2s_b_load(&b, T, ptr);
    next = combine(&b, op, T, result, i->ops[3]);
    if (!next) {
      k2s_error(m, i, "an atomic on private memory that k2s cannot rewrite");
      return false;
    }
    break;
  }
  if (next)
    k2s_b_store(&b, ptr, next);
  if (i->result && result)
    k2s_replace_all_uses(m, i->result, result);
  k2s_instr_delete(m, i);
  return true;
}

bool k2s_lower_private_atomics(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr_safe(i, &blk->body) {
        uint32_t n = operand_count(i->opcode);
        if (!n || i->n_ops != n || !is_private(m, i->ops[0]))
          continue;
        if (!lower(m, i))
          return changed;
        changed = true;
      }
  if (changed)
    k2s_invalidate_uses(m);
  return changed;
}
