/*
 * barriers: OpenCL scopes and memory semantics → what Vulkan allows.
 *
 * Every <id> operand of kind IdScope or IdMemorySemantics (barriers, fences,
 * atomics) is re-pointed at a Vulkan-legal constant: CrossDevice scope
 * becomes Device; SequentiallyConsistent (forbidden in Vulkan) becomes
 * AcquireRelease, which is what OpenCL's barrier/fence orderings need;
 * CrossWorkgroupMemory (global memory) becomes UniformMemory, which covers
 * storage buffers; a barrier that names storage classes but no ordering gets
 * AcquireRelease so the fence still orders memory. Atomics get what Vulkan
 * allows for their kind of access (see map_atomic_semantics; docs/builtins.md
 * says what each memory_order becomes). Works from the operand kinds in the
 * grammar, so new opcodes are covered. No options.
 */
#include "k2s_internal.h"

static uint32_t map_semantics(uint32_t s)
{
  uint32_t storage =
      s & (SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsWorkgroupMemoryMask |
           SpvMemorySemanticsCrossWorkgroupMemoryMask | SpvMemorySemanticsImageMemoryMask |
           SpvMemorySemanticsSubgroupMemoryMask | SpvMemorySemanticsAtomicCounterMemoryMask);
  uint32_t order =
      s & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
           SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask);
  if (storage & SpvMemorySemanticsCrossWorkgroupMemoryMask)
    storage = (storage & ~SpvMemorySemanticsCrossWorkgroupMemoryMask) |
              SpvMemorySemanticsUniformMemoryMask;
  storage &= ~(SpvMemorySemanticsSubgroupMemoryMask | SpvMemorySemanticsAtomicCounterMemoryMask);
  if (order & SpvMemorySemanticsSequentiallyConsistentMask)
    order = SpvMemorySemanticsAcquireReleaseMask;
  if (storage && !order)
    order = SpvMemorySemanticsAcquireReleaseMask;
  /* Vulkan allows at most one ordering bit. */
  if ((order & SpvMemorySemanticsAcquireMask) && (order & SpvMemorySemanticsReleaseMask))
    order = SpvMemorySemanticsAcquireReleaseMask;
  return storage | order;
}

/* An atomic's semantics: the same mapping, then what Vulkan allows for each
 * kind of access (no Release on a load or on a compare-exchange's Unequal
 * semantics, no Acquire on a store) and, where an ordering remains without a
 * storage class (OpenCL C 2.0's atomic_*_explicit), the storage class of the
 * pointer, whose memory the ordering is about. A relaxed atomic names no
 * storage class (it orders nothing). */
enum atomic_role { ROLE_RMW, ROLE_LOAD, ROLE_STORE };

static uint32_t class_bit(uint32_t sc)
{
  switch (sc) {
  case SpvStorageClassWorkgroup: return SpvMemorySemanticsWorkgroupMemoryMask;
  case SpvStorageClassStorageBuffer:
  case SpvStorageClassPhysicalStorageBuffer:
  case SpvStorageClassUniform: return SpvMemorySemanticsUniformMemoryMask;
  case SpvStorageClassImage: return SpvMemorySemanticsImageMemoryMask;
  default: return 0;
  }
}

static uint32_t map_atomic_semantics(uint32_t s, enum atomic_role role, uint32_t sc)
{
  uint32_t v = map_semantics(s);
  uint32_t order = v & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                        SpvMemorySemanticsAcquireReleaseMask);
  uint32_t storage = v & ~order;
  if (!(s & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
             SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask)))
    return 0;
  if (role == ROLE_LOAD && order)
    order = order == SpvMemorySemanticsReleaseMask ? 0 : SpvMemorySemanticsAcquireMask;
  if (role == ROLE_STORE && order)
    order = order == SpvMemorySemanticsAcquireMask ? 0 : SpvMemorySemanticsReleaseMask;
  if (!order)
    return 0;
  if (!storage)
    storage = class_bit(sc);
  return storage ? storage | order : 0;
}

/* The role of semantics operand `word` of atomic `in`; false if not an atomic. */
static bool atomic_role(const k2s_instr *in, uint32_t word, enum atomic_role *role)
{
  switch (in->opcode) {
  case SpvOpAtomicLoad: *role = ROLE_LOAD; return true;
  case SpvOpAtomicStore: *role = ROLE_STORE; return true;
  case SpvOpAtomicCompareExchange:
  case SpvOpAtomicCompareExchangeWeak: *role = word == 3 ? ROLE_LOAD : ROLE_RMW; return true;
  case SpvOpAtomicFlagClear: *role = ROLE_STORE; return true;
  default: /* every other atomic reads, modifies and writes */
    *role = ROLE_RMW;
    return k2s_is_atomic(in->opcode);
  }
}

/* Vulkan allows no Invocation scope on an atomic: the narrowest it has is
 * Subgroup, which is at least as strong (memory_scope_work_item). An atomic on
 * buffer memory gets Device scope at least. Workaround: llvm-spirv 15 gives the
 * OpenCL 1.x atomic_* / atom_* functions Workgroup scope even on global memory,
 * where OpenCL makes them atomic for the whole device; with Workgroup scope a
 * Vulkan driver may make them atomic only within a work-group (NVIDIA's
 * group-scope atomics). C11 atomics with a narrower scope lose nothing by it. */
static uint32_t map_atomic_scope(uint32_t s, uint32_t sc)
{
  s = s == SpvScopeCrossDevice ? SpvScopeDevice : s;
  s = s == SpvScopeInvocation ? SpvScopeSubgroup : s;
  bool buffer = sc == SpvStorageClassStorageBuffer || sc == SpvStorageClassPhysicalStorageBuffer ||
                sc == SpvStorageClassUniform;
  if (buffer && (s == SpvScopeWorkgroup || s == SpvScopeSubgroup))
    s = SpvScopeDevice;
  return s;
}

static uint32_t map_scope(uint32_t s)
{
  return s == SpvScopeCrossDevice ? SpvScopeDevice : s;
}

/* A memory order or scope that is not a constant: llvm-spirv passes an
 * atomic_*_explicit / atomic_work_item_fence order or scope that is not an
 * LLVM constant (at -O0 any local variable holding one) through helpers it
 * adds (__translate_ocl_memory_order/_scope), whose result only the run time
 * knows; Vulkan wants constants. The strongest of the values OpenCL allows
 * there is correct for each of them (a stronger ordering and a wider scope
 * only forbid outcomes): SequentiallyConsistent on every memory Vulkan
 * orders, which the mapping below narrows to what the access may have, and
 * Device scope. A barrier's (execution) scope is not guessed: a wider one
 * would wait for invocations that may never arrive. */
static uint32_t strongest_semantics(void)
{
  return SpvMemorySemanticsSequentiallyConsistentMask | SpvMemorySemanticsUniformMemoryMask |
         SpvMemorySemanticsWorkgroupMemoryMask | SpvMemorySemanticsImageMemoryMask;
}

typedef struct bar_ctx {
  k2s_module *m;
  bool changed;
} bar_ctx;

static bool visit(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  bar_ctx *c = ud;
  if (op->kind != K2S_OK_ID_SCOPE && op->kind != K2S_OK_ID_MEMORY_SEMANTICS)
    return true;
  k2s_module *m = c->m;
  uint32_t id = in->ops[op->word];
  uint64_t v;
  bool known = k2s_const_value(m, id, &v);
  enum atomic_role role;
  bool atomic = atomic_role(in, op->word, &role);
  if (!known) {
    if (!atomic && in->opcode != SpvOpMemoryBarrier) {
      k2s_error(m, in,
                "a barrier's scope or memory semantics is not a constant (a "
                "work_group_barrier/sub_group_barrier whose flags or memory_scope is "
                "computed at run time); Vulkan requires constants here");
      return false;
    }
    v = op->kind == K2S_OK_ID_SCOPE ? SpvScopeDevice : strongest_semantics();
  }
  uint32_t nv;
  if (atomic) {
    k2s_instr *pt = k2s_def(m, k2s_type_of(m, in->ops[0]));
    uint32_t sc = pt && pt->opcode == SpvOpTypePointer ? pt->ops[0] : 0;
    nv = op->kind == K2S_OK_ID_SCOPE ? map_atomic_scope((uint32_t)v, sc)
                                     : map_atomic_semantics((uint32_t)v, role, sc);
  } else {
    nv = op->kind == K2S_OK_ID_SCOPE ? map_scope((uint32_t)v) : map_semantics((uint32_t)v);
  }
  if (!known || nv != v) {
    k2s_instr_set_op(m, (k2s_instr *)in, op->word, k2s_const_uint32(m, nv));
    c->changed = true;
  }
  return true;
}

/* A barrier whose memory scope is Invocation (memory_scope_work_item: a fence
 * that orders nothing another invocation can see) must have no memory
 * semantics in Vulkan (VUID-StandaloneSpirv-None-04641); an OpMemoryBarrier
 * may not have none (04732), and is a no-op: it goes. */
static void invocation_fence(bar_ctx *c, k2s_instr *i)
{
  uint64_t s;
  if (i->opcode == SpvOpMemoryBarrier && i->n_ops >= 2 && k2s_const_value(c->m, i->ops[0], &s) &&
      s == SpvScopeInvocation) {
    k2s_instr_delete(c->m, i);
    c->changed = true;
    return;
  }
  uint32_t w = i->opcode == SpvOpControlBarrier ? 1 : 0;
  uint64_t scope, sem;
  if ((i->opcode != SpvOpControlBarrier && i->opcode != SpvOpMemoryBarrier) || i->n_ops < w + 2 ||
      !k2s_const_value(c->m, i->ops[w], &scope) || scope != SpvScopeInvocation ||
      !k2s_const_value(c->m, i->ops[w + 1], &sem) || sem == 0)
    return;
  k2s_instr_set_op(c->m, i, w + 1, k2s_const_uint32(c->m, 0));
  c->changed = true;
}

bool k2s_lower_barriers(k2s_module *m, const k2s_options *o)
{
  (void)o;
  k2s_keep_uses(m); /* operands change only through the API */
  bar_ctx c = {m, false};
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        /* The grammar walk only where a scope or semantics operand may be. */
        if (i->opcode < K2S_OPCODE_LIMIT && k2s_opcode_sync_operands[i->opcode])
          k2s_walk_operands(m, i, visit, &c);
        if (m->failed)
          return true;
        invocation_fence(&c, i);
      }
  return c.changed;
}
