/*
 * async-copies: async_work_group_copy / _strided_copy and wait_group_events →
 * a cooperative copy loop over the work-group with barriers; events vanish.
 *
 * Vulkan has no OpGroupAsyncCopy, OpGroupWaitEvents or event type. Every
 * work-item copies the elements lid, lid + n, lid + 2n, ... (lid its linear
 * local id, n the work-group's size) with ordinary loads and stores; the stride
 * applies to the side that is not local memory, as in OpenCL. A work-group
 * barrier (local and global memory) before the loop makes the source the group
 * wrote visible to every copier, and wait_group_events becomes one after the
 * copies, so each work-item sees every element afterwards. Events are never
 * real: event values, variables, arrays and their lifetime markers are removed
 * (an event used any other way is an error). Runs after inline (the copies sit
 * in the kernels) and before work-items, which lowers the builtins read here,
 * and before the pointer passes. No options.
 */
#include "k2s_internal.h"
#include "k2s_builder_ops.h"

typedef struct ac_ctx {
  k2s_module *m;
  uint32_t index_type;           /* size_t: ulong (Physical64) or uint */
  uint32_t local_id, local_size; /* BuiltIn Input variables, made on first use */
} ac_ctx;

static uint32_t builtin_var(ac_ctx *c, uint32_t builtin)
{
  k2s_module *m = c->m;
  uint32_t v3 = k2s_type_vector(m, c->index_type, 3);
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassInput, v3),
                                     SpvStorageClassInput, 0);
  k2s_decorate(m, var, SpvDecorationBuiltIn, &builtin, 1);
  return var;
}

/* x + y * sx + z * sx * sy of a v3 builtin against the local size. */
static void linear_id_and_size(ac_ctx *c, k2s_builder *b, uint32_t *lid, uint32_t *n)
{
  k2s_module *m = c->m;
  uint32_t T = c->index_type, v3 = k2s_type_vector(m, T, 3);
  if (!c->local_id) {
    c->local_id = builtin_var(c, SpvBuiltInLocalInvocationId);
    c->local_size = builtin_var(c, SpvBuiltInWorkgroupSize);
  }
  uint32_t id = k2s_b_load(b, v3, c->local_id), sz = k2s_b_load(b, v3, c->local_size);
  uint32_t i[3], s[3];
  for (uint32_t k = 0; k < 3; k++) {
    uint32_t xi[2] = {id, k}, xs[2] = {sz, k};
    i[k] = k2s_emit(b, SpvOpCompositeExtract, T, xi, 2);
    s[k] = k2s_emit(b, SpvOpCompositeExtract, T, xs, 2);
  }
  uint32_t sxy = k2s_b_imul(b, T, s[0], s[1]);
  *lid = k2s_b_iadd(b, T, i[0],
                    k2s_b_iadd(b, T, k2s_b_imul(b, T, i[1], s[0]), k2s_b_imul(b, T, i[2], sxy)));
  *n = k2s_b_imul(b, T, sxy, s[2]);
}

static uint32_t storage_class_of(k2s_module *m, uint32_t ptr)
{
  k2s_instr *t = k2s_def(m, k2s_type_of(m, ptr));
  return t && t->opcode == SpvOpTypePointer ? t->ops[0] : 0;
}

/* The work-group barrier OpenCL's barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
 * gives, in Kernel terms ('barriers' maps it to Vulkan's). */
static void group_barrier(k2s_builder *b)
{
  k2s_module *m = b->m;
  uint32_t wg = k2s_const_uint32(m, SpvScopeWorkgroup);
  uint32_t ops[3] = {wg, wg,
                     k2s_const_uint32(m, SpvMemorySemanticsSequentiallyConsistentMask |
                                             SpvMemorySemanticsWorkgroupMemoryMask |
                                             SpvMemorySemanticsCrossWorkgroupMemoryMask)};
  k2s_emit(b, SpvOpControlBarrier, 0, ops, 3);
}

static uint32_t as_index(ac_ctx *c, k2s_builder *b, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_of(m, v);
  return t == c->index_type ? v : k2s_b_uconvert(b, c->index_type, v);
}

/* %e = OpGroupAsyncCopy %Event Workgroup %dst %src %num %stride %event_in */
static bool lower_copy(ac_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t dst = i->ops[1], src = i->ops[2];
  k2s_instr *dt = k2s_def(m, k2s_type_of(m, dst));
  if (!dt || dt->opcode != SpvOpTypePointer) {
    k2s_error(m, i, "async_work_group_copy: the destination is not a pointer");
    return false;
  }
  uint32_t elem = dt->ops[1];
  bool dst_local = storage_class_of(m, dst) == SpvStorageClassWorkgroup;
  k2s_builder b = {m, k2s_before(i)};
  group_barrier(&b);
  uint32_t num = as_index(c, &b, i->ops[3]), stride = as_index(c, &b, i->ops[4]);
  uint32_t lid, n;
  linear_id_and_size(c, &b, &lid, &n);
  k2s_counted_loop l = k2s_build_counted_loop(m, i, lid, num);
  k2s_instr_set_op(m, l.step, 1, n); /* k += the work-group's size */
  b = (k2s_builder){m, k2s_before(l.step)};
  uint32_t far = k2s_b_imul(&b, c->index_type, l.k, stride);
  uint32_t si[2] = {src, dst_local ? far : l.k}, di[2] = {dst, dst_local ? l.k : far};
  uint32_t sp = k2s_emit(&b, SpvOpInBoundsPtrAccessChain, k2s_type_of(m, src), si, 2);
  uint32_t dp = k2s_emit(&b, SpvOpInBoundsPtrAccessChain, k2s_type_of(m, dst), di, 2);
  uint32_t v = k2s_b_load(&b, elem, sp);
  uint32_t st[2] = {dp, v};
  k2s_emit(&b, SpvOpStore, 0, st, 2);
  /* The event: a null one; remove_events() takes it out with the others. */
  k2s_replace_all_uses(m, i->result, k2s_const_null(m, i->type));
  k2s_instr_delete(m, i);
  return true;
}

/* OpGroupWaitEvents Workgroup %n %events → a work-group barrier. */
static void lower_wait(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  group_barrier(&b);
  k2s_instr_delete(m, i);
}

/* ---- events ---------------------------------------------------------------- */

/* An event, a pointer to one, or an array of them. */
static bool eventish(k2s_module *m, uint32_t type, int depth)
{
  k2s_instr *t = type ? k2s_def(m, type) : NULL;
  if (!t || depth > 8)
    return false;
  switch (t->opcode) {
  case SpvOpTypeEvent: return true;
  case SpvOpTypePointer: return eventish(m, t->ops[1], depth + 1);
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return eventish(m, t->ops[0], depth + 1);
  default: return false;
  }
}

typedef struct uses_ud {
  const uint8_t *dead;
  bool hit;
} uses_ud;

static void note_use(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  uses_ud *u = ud;
  u->hit |= u->dead[*id];
}

/* Users of a dead value that may go with it: stores into event variables,
 * lifetime markers, casts of event variables (for those markers), and anything
 * that is itself an event. */
static bool removable_user(k2s_module *m, const k2s_instr *i)
{
  switch (i->opcode) {
  case SpvOpStore:
  case SpvOpLifetimeStart:
  case SpvOpLifetimeStop:
  case SpvOpBitcast:
  case SpvOpName:
  case SpvOpDecorate: return true;
  default: return i->result && eventish(m, i->type, 0);
  }
}

/* -1: an error; 0: no events; 1: removed. */
static int remove_events(k2s_module *m)
{
  uint8_t *dead = k2s_alloc(&m->arena, m->bound);
  bool any = false;
  k2s_foreach_instr(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->result && (eventish(m, g->result, 0) || eventish(m, g->type, 0)))
      dead[g->result] = 1, any = true;
  if (!any)
    return 0;
  k2s_arena scratch = {.oom = m->arena.oom};
  k2s_instr **gone = NULL;
  uint32_t n_gone = 0, cap = 0;
  for (bool grew = true; grew;) {
    grew = false;
    k2s_foreach_function(f, m) {
      k2s_foreach_instr(p, &f->head)
        if (p->result && eventish(m, p->type, 0)) {
          k2s_error(m, p,
                    "an event is passed to a function; k2s cannot lower that (the events "
                    "of async copies must stay in the kernel)");
          k2s_arena_free(&scratch);
          return -1;
        }
      k2s_foreach_block(b, f)
        k2s_foreach_instr(i, &b->body) {
          if (i->dead || (i->result && dead[i->result]))
            continue;
          uses_ud u = {dead, false};
          k2s_foreach_id_operand(m, i, note_use, &u);
          if (!u.hit && !(i->result && eventish(m, i->type, 0)))
            continue;
          if (!removable_user(m, i)) {
            k2s_error(m, i,
                      "an event of an async copy is used in a way k2s cannot lower (only "
                      "async copies, wait_group_events and event variables are)");
            k2s_arena_free(&scratch);
            return -1;
          }
          if (i->result)
            dead[i->result] = 1;
          i->dead = true; /* seen; deleted below */
          if (n_gone == cap) {
            uint32_t nc = cap ? cap * 2 : 16;
            gone = k2s_realloc_array(&scratch, gone, n_gone, nc, sizeof(*gone));
            cap = nc;
          }
          gone[n_gone++] = i;
          grew = true;
        }
    }
  }
  for (uint32_t k = 0; k < n_gone; k++) {
    gone[k]->dead = false;
    k2s_instr_delete(m, gone[k]);
  }
  k2s_arena_free(&scratch);
  k2s_foreach_instr_safe(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->result && dead[g->result]) {
      k2s_remove_decorations(m, g->result);
      k2s_instr_delete(m, g);
    }
  k2s_foreach_instr_safe(n, &m->sec[K2S_SEC_DEBUG])
    if (n->opcode == SpvOpName && n->n_ops && n->ops[0] < m->bound && dead[n->ops[0]])
      k2s_instr_delete(m, n);
  return 1;
}

bool k2s_lower_async_copies(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  ac_ctx c = {m, 0, 0, 0};
  bool changed = false;
  k2s_foreach_function(f, m)
    for (k2s_block *blk = f->first; blk; blk = blk->next)
      k2s_foreach_instr_safe(i, &blk->body) {
        if (i->opcode == SpvOpGroupAsyncCopy && i->n_ops == 6) {
          if (!c.index_type) {
            /* size_t, as the module's builtins have it (made only when needed: a
             * pass that changes nothing must not add a type). */
            k2s_instr *mm = m->sec[K2S_SEC_MEMORY_MODEL].first;
            bool wide = !mm || mm->n_ops < 1 || mm->ops[0] != SpvAddressingModelPhysical32;
            c.index_type = k2s_type_int(m, wide ? 64 : 32, false);
          }
          if (!lower_copy(&c, i))
            return true;
          changed = true;
          break; /* the block was split: the rest is a later block */
        }
        if (i->opcode == SpvOpGroupWaitEvents) {
          lower_wait(m, i);
          changed = true;
        }
      }
  int r = remove_events(m);
  if (r < 0)
    return true;
  changed |= r > 0;
  return changed;
}
