/*
 * barriers: OpenCL scopes and memory semantics → what Vulkan allows.
 *
 * Every <id> operand of kind IdScope or IdMemorySemantics (barriers, fences,
 * atomics) is re-pointed at a Vulkan-legal constant: CrossDevice scope
 * becomes Device; SequentiallyConsistent (forbidden in Vulkan) becomes
 * AcquireRelease, which is what OpenCL's barrier/fence orderings need;
 * CrossWorkgroupMemory (global memory) becomes UniformMemory, which covers
 * storage buffers; a barrier that names storage classes but no ordering gets
 * AcquireRelease so the fence still orders memory. Works from the operand
 * kinds in the grammar, so new opcodes are covered. No options.
 */
#include "k2s_internal.h"

static uint32_t map_semantics(uint32_t s)
{
  uint32_t storage = s & (SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsWorkgroupMemoryMask |
                          SpvMemorySemanticsCrossWorkgroupMemoryMask |
                          SpvMemorySemanticsImageMemoryMask | SpvMemorySemanticsSubgroupMemoryMask |
                          SpvMemorySemanticsAtomicCounterMemoryMask);
  uint32_t order = s & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                        SpvMemorySemanticsAcquireReleaseMask |
                        SpvMemorySemanticsSequentiallyConsistentMask);
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

static uint32_t map_scope(uint32_t s)
{
  return s == SpvScopeCrossDevice ? SpvScopeDevice : s;
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
  if (!k2s_const_value(m, id, &v)) {
    k2s_error(m, in, "a memory scope or semantics operand is not a constant; Vulkan requires "
                     "constants here");
    return false;
  }
  uint32_t nv = op->kind == K2S_OK_ID_SCOPE ? map_scope((uint32_t)v) : map_semantics((uint32_t)v);
  if (nv != v) {
    ((k2s_instr *)in)->ops[op->word] = k2s_const_uint32(m, nv);
    c->changed = true;
  }
  return true;
}

bool k2s_lower_barriers(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bar_ctx c = {m, false};
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        k2s_walk_operands(m, i, visit, &c);
        if (m->failed)
          return true;
      }
  if (c.changed)
    m->uses_valid = false;
  return c.changed;
}
