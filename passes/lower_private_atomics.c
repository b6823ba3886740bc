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

/* Rewrites one atomic (the operands where its grammar layout a puts them); false
 * (with an error) when it cannot. */
static bool lower(k2s_module *m, k2s_instr *i, const k2s_atomic_operands *a)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t ptr = i->ops[a->pointer], T = pointee(m, ptr), result = 0, next = 0;
  uint32_t v = a->value >= 0 ? i->ops[a->value] : 0;
  uint16_t op = i->opcode;
  bool int_only = op == SpvOpAtomicFlagTestAndSet || op == SpvOpAtomicFlagClear ||
                  op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement ||
                  op == SpvOpAtomicCompareExchange || op == SpvOpAtomicCompareExchangeWeak;
  if (int_only && !is_int(m, T)) {
    k2s_error(m, i, "an atomic on private memory of a type that is not an integer");
    return false;
  }
  switch (op) {
  case SpvOpAtomicStore: next = v; break;
  case SpvOpAtomicFlagClear: next = k2s_const_int(m, T, 0); break;
  case SpvOpAtomicLoad: result = k2s_b_load(&b, T, ptr); break;
  case SpvOpAtomicFlagTestAndSet: {
    uint32_t old = k2s_b_load(&b, T, ptr);
    result = k2s_b_inot_equal(&b, i->type, old, k2s_const_int(m, T, 0));
    next = k2s_const_int(m, T, 1);
    break;
  }
  default:
    result = k2s_b_load(&b, T, ptr);
    next = k2s_build_atomic_update(&b, op, T, result, v,
                                   a->comparator >= 0 ? i->ops[a->comparator] : 0);
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
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr_safe(i, &blk->body) {
        const k2s_atomic_operands *a = k2s_atomic_layout(i->opcode);
        if (!a || i->n_ops != a->n_operands || !is_private(m, i->ops[a->pointer]))
          continue;
        if (!lower(m, i, a))
          return changed;
        changed = true;
      }
  return changed;
}
