/*
 * Input repairs and refusals (called from k2s_repair_input, before input
 * validation) for values SPIRV-LLVM-Translator leaks from its own model into
 * the module:
 *   - LinkageAttributes with linkage type 0x7FFFFFFE: the translator's
 *     internal "LinkageTypeInternal" (an LLVM function with internal linkage,
 *     which SPIR-V expresses by having no LinkageAttributes). llvm-spirv 14
 *     and 15 emit it for the helper functions __translate_ocl_memory_order and
 *     __translate_ocl_memory_scope, which they add when an atomic's memory
 *     order or scope is not a constant (clspv AtomicBuiltins/
 *     atomic_flag_errors.cl at -O0); spirv-val rejects the whole module
 *     ("Invalid linkage type operand"). The decoration goes: the function is
 *     defined here and used only here, which is what SPIR-V calls no linkage.
 *   - OpDot on integer vectors: llvm-spirv 14 translates OpenCL's integer
 *     dot() (cl_khr_integer_dot_product) into it, which SPIR-V allows only
 *     for floats, and the module no longer says whether each operand is
 *     signed: dot(char4, char4), dot(char4, uchar4), dot(uchar4, char4) and
 *     dot(uchar4, uchar4) give byte-identical modules, so what the
 *     instruction computes cannot be recovered. That is a refusal naming the
 *     producer and the way out (llvm-spirv 15 emits OpSDot/OpSUDot/OpUDot,
 *     which k2s translates), instead of the validator's "Expected float
 *     scalar type as Result Type: Dot".
 *   - OpAtomicFlagClear with Acquire or AcquireRelease semantics: the
 *     source's own mistake (OpenCL C forbids memory_order_acquire and
 *     memory_order_acq_rel for atomic_flag_clear_explicit; clspv's
 *     atomic_flag_errors.cl tests exactly that), refused in OpenCL C's terms
 *     rather than with the validator's SPIR-V ones.
 */
#include "k2s_internal.h"

/* SPIRV-LLVM-Translator's LinkageTypeInternal (SPIRVEnum.h: LinkageTypeMax - 1). */
#define LLVM_SPIRV_LINKAGE_INTERNAL 0x7FFFFFFEu

static bool is_internal_linkage(const k2s_instr *i)
{
  return i->opcode == SpvOpDecorate && i->n_ops >= 3 &&
         i->ops[1] == SpvDecorationLinkageAttributes &&
         i->ops[i->n_ops - 1] == LLVM_SPIRV_LINKAGE_INTERNAL;
}

static bool repair_internal_linkage(k2s_module *m)
{
  uint32_t n = 0;
  const char *first = NULL;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_ANNOTATION]) {
    if (!is_internal_linkage(i))
      continue;
    if (!first) {
      const char *name = k2s_string_operand(i, 2);
      first = name ? name : "?";
    }
    k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
    n++;
  }
  if (!n)
    return false;
  k2s_invalidate_uses(m);
  k2s_warn(m, NULL,
           "repaired input: %u LinkageAttributes with linkage type 0x7FFFFFFE, first for '%s' "
           "(llvm-spirv emits its internal 'LinkageTypeInternal' for the helpers it adds for "
           "an atomic's non-constant memory order or scope; SPIR-V has no such linkage type); "
           "removed, as an internal function has none",
           n, first);
  return true;
}

static bool is_int_scalar(const k2s_module *m, uint32_t type)
{
  const k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypeInt;
}

/* Returns false (with an error) at the first integer OpDot. */
static bool refuse_integer_dot(k2s_module *m)
{
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        if (i->opcode != SpvOpDot || !is_int_scalar(m, i->type))
          continue;
        k2s_error(m, i,
                  "OpDot on integer vectors: llvm-spirv 14 emits it for OpenCL's integer dot() "
                  "(cl_khr_integer_dot_product), but SPIR-V defines OpDot only for floats and "
                  "the module no longer says whether each operand is signed (dot(char4, "
                  "char4), dot(char4, uchar4) and dot(uchar4, uchar4) give the same "
                  "instruction), so what it computes is unknown; translate the source with "
                  "llvm-spirv 15 and --spirv-ext=+SPV_KHR_integer_dot_product "
                  "(OpSDot/OpSUDot/OpUDot), which k2s translates");
        return false;
      }
  return true;
}

/* Returns false (with an error) at the first flag clear with an acquire. */
static bool refuse_flag_clear_acquire(k2s_module *m)
{
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        uint64_t sem;
        if (i->opcode != SpvOpAtomicFlagClear || i->n_ops < 3 ||
            !k2s_const_value(m, i->ops[2], &sem) ||
            !(sem & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask)))
          continue;
        k2s_error(m, i,
                  "atomic_flag_clear_explicit with memory_order_acquire or "
                  "memory_order_acq_rel, which OpenCL C forbids for it (its order \"shall "
                  "not be memory_order_acquire nor memory_order_acq_rel\"): the source is in "
                  "error (SPIR-V: OpAtomicFlagClear cannot have Acquire or AcquireRelease "
                  "semantics)");
        return false;
      }
  return true;
}

bool k2s_repair_llvm_spirv(k2s_module *m);
bool k2s_repair_llvm_spirv(k2s_module *m)
{
  bool changed = repair_internal_linkage(m);
  if (refuse_integer_dot(m))
    refuse_flag_clear_acquire(m);
  return changed;
}
