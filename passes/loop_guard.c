/*
 * loop-guard: structured loops → loops that report when the driver cut them short.
 *
 * Mesa's llvmpipe (lavapipe) ends every loop after 65,535 back edges, counted
 * per SIMD group over all loops of the shader, and carries on after the loop
 * as if it had exited: a kernel that loops longer computes wrong numbers and
 * reports success. This pass makes that visible. Each invocation keeps a word
 * in a Workgroup array (a slot per LocalInvocationIndex): 1 while it is inside
 * a loop, 0 on every edge that leaves the loop as the program says (a break).
 * The loop's exits go through a new merge block that reads the word: 1 there
 * means the invocation left without taking an exit, i.e. the driver cut the
 * loop, and the block stores 1 into a one-word storage buffer (set 0, the
 * first free binding, named "k2s.loop_guard"; docs/runtime-abi.md) that
 * k2s-run reads after the run (src/run/loop_guard.c). The word lives in
 * memory with Volatile accesses because the cut is outside the program's
 * semantics: a variable in SSA form would be folded to "always exited".
 * A loop with no exit gets one its back edge never takes (the word is never
 * 2), so that the code after it survives the driver's dead-code elimination.
 * Runs after structurize (loops have merges) and before finalize (which
 * rebuilds entry-point interfaces and capabilities). Steered by --loop-guard
 * (k2s_options.loop_guard); off by default.
 */
#include "k2s_internal.h"

#define VOLATILE SpvMemoryAccessVolatileMask

typedef struct guard_ctx {
  k2s_module *m;
  k2s_arena *a;
  uint32_t u32, bool_t, zero, one, two;
  uint32_t ptr_wg_u32, ptr_sb_u32;
  uint32_t state;  /* Workgroup uint[work-group size] */
  uint32_t index;  /* Input LocalInvocationIndex */
  uint32_t flag;   /* StorageBuffer Block { uint } */
  uint32_t *stamp; /* per block: the loop whose walk reached it */
} guard_ctx;

/* One structured loop: its header, merge, and the blocks of the loop that
 * branch to the merge (breaks) or to the header (back edges). */
typedef struct guard_loop {
  k2s_block *header, *merge;
  uint32_t *breaks, n_breaks;
  uint32_t *backs, n_backs;
} guard_loop;

static bool has_loop(const k2s_function *f)
{
  k2s_foreach_block(b, f) {
    k2s_instr *mi = k2s_block_merge((k2s_block *)b);
    if (mi && mi->opcode == SpvOpLoopMerge)
      return true;
  }
  return false;
}

/* The value of the target's decoration `deco` (first literal), or UINT32_MAX. */
static uint32_t decoration_value(const k2s_module *m, uint32_t id, uint32_t deco)
{
  k2s_instr *d = k2s_find_decoration(m, id, deco);
  return d && d->n_ops >= 3 ? d->ops[2] : UINT32_MAX;
}

/* Number of invocations in a work group: the WorkgroupSize builtin's product
 * (a spec-constant expression when the host sets it), else the largest
 * LocalSize of the entry points. 0 when the module states neither. */
static uint32_t workgroup_invocations(guard_ctx *c)
{
  k2s_module *m = c->m;
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION]) {
    if (d->opcode != SpvOpDecorate || d->n_ops < 3 || d->ops[1] != SpvDecorationBuiltIn ||
        d->ops[2] != SpvBuiltInWorkgroupSize)
      continue;
    k2s_instr *v = k2s_def(m, d->ops[0]);
    if (!v || v->n_ops != 3)
      continue;
    if (v->opcode == SpvOpConstantComposite) {
      uint64_t x, y, z;
      if (k2s_const_value(m, v->ops[0], &x) && k2s_const_value(m, v->ops[1], &y) &&
          k2s_const_value(m, v->ops[2], &z))
        return k2s_const_uint32(m, (uint32_t)(x * y * z));
    } else if (v->opcode == SpvOpSpecConstantComposite) {
      uint32_t xy = k2s_new_id(m), xyz = k2s_new_id(m);
      uint32_t o1[3] = {SpvOpIMul, v->ops[0], v->ops[1]}, o2[3] = {SpvOpIMul, xy, v->ops[2]};
      k2s_list_append(&m->sec[K2S_SEC_GLOBAL],
                      k2s_instr_new(m, SpvOpSpecConstantOp, c->u32, xy, o1, 3));
      k2s_list_append(&m->sec[K2S_SEC_GLOBAL],
                      k2s_instr_new(m, SpvOpSpecConstantOp, c->u32, xyz, o2, 3));
      return xyz;
    }
  }
  uint64_t most = 0;
  k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    if (x->opcode == SpvOpExecutionMode && x->n_ops >= 5 && x->ops[1] == SpvExecutionModeLocalSize) {
      uint64_t n = (uint64_t)x->ops[2] * x->ops[3] * x->ops[4];
      if (n > most)
        most = n;
    }
  return most && most <= UINT32_MAX ? k2s_const_uint32(m, (uint32_t)most) : 0;
}

static uint32_t local_invocation_index(guard_ctx *c)
{
  k2s_module *m = c->m;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable && v->n_ops >= 1 && v->ops[0] == SpvStorageClassInput &&
        decoration_value(m, v->result, SpvDecorationBuiltIn) == SpvBuiltInLocalInvocationIndex)
      return v->result;
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassInput, c->u32),
                                     SpvStorageClassInput, 0);
  uint32_t bi = SpvBuiltInLocalInvocationIndex;
  k2s_decorate(m, var, SpvDecorationBuiltIn, &bi, 1);
  return var;
}

/* The flag buffer goes to descriptor set 0, after every binding the module uses there. */
static uint32_t flag_buffer(guard_ctx *c)
{
  k2s_module *m = c->m;
  uint32_t binding = 0;
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION])
    if (d->opcode == SpvOpDecorate && d->n_ops >= 3 && d->ops[1] == SpvDecorationDescriptorSet &&
        d->ops[2] == 0) {
      uint32_t b = decoration_value(m, d->ops[0], SpvDecorationBinding);
      if (b != UINT32_MAX && b + 1 > binding)
        binding = b + 1;
    }
  uint32_t st = k2s_type_struct(m, &c->u32, 1);
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  uint32_t zero_offset = 0;
  k2s_member_decorate(m, st, 0, SpvDecorationOffset, &zero_offset, 1);
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassStorageBuffer, st),
                                     SpvStorageClassStorageBuffer, 0);
  uint32_t set = 0;
  k2s_decorate(m, var, SpvDecorationDescriptorSet, &set, 1);
  k2s_decorate(m, var, SpvDecorationBinding, &binding, 1);
  k2s_set_name(m, var, "k2s.loop_guard");
  return var;
}

static bool make_globals(guard_ctx *c)
{
  k2s_module *m = c->m;
  c->u32 = k2s_type_int(m, 32, false);
  c->bool_t = k2s_type_bool(m);
  c->zero = k2s_const_uint32(m, 0);
  c->one = k2s_const_uint32(m, 1);
  c->two = k2s_const_uint32(m, 2);
  uint32_t n = workgroup_invocations(c);
  if (!n) {
    k2s_error(m, NULL, "--loop-guard: the module states no work-group size (neither a "
                       "WorkgroupSize builtin nor LocalSize)");
    return false;
  }
  c->ptr_wg_u32 = k2s_type_pointer(m, SpvStorageClassWorkgroup, c->u32);
  c->ptr_sb_u32 = k2s_type_pointer(m, SpvStorageClassStorageBuffer, c->u32);
  uint32_t arr = k2s_type_array(m, c->u32, n);
  c->state = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassWorkgroup, arr),
                                 SpvStorageClassWorkgroup, 0);
  k2s_set_name(m, c->state, "k2s.loop_guard_state");
  c->index = local_invocation_index(c);
  c->flag = flag_buffer(c);
  return true;
}

static k2s_instr *emit(k2s_module *m, k2s_cursor at, uint16_t op, uint32_t type,
                       const uint32_t *ops, uint32_t n)
{
  k2s_builder b = {m, at};
  return k2s_emit_instr(&b, op, type, ops, n);
}

static void store_state(guard_ctx *c, k2s_cursor at, uint32_t slot, uint32_t value)
{
  emit(c->m, at, SpvOpStore, 0, (uint32_t[]){slot, value, VOLATILE}, 3);
}

/* Walk the loop from its header without passing its merge: the blocks of the
 * loop construct and its continue construct (structured exits all go through
 * the merge; returns leave the function). Records breaks and back edges. */
static void walk_loop(guard_ctx *c, const k2s_cfg *cfg, guard_loop *l, uint32_t loop_no)
{
  uint32_t h = l->header->index, mg = l->merge->index, n = cfg->n_blocks;
  uint32_t *todo = k2s_alloc(c->a, n * sizeof(uint32_t)), top = 0;
  l->breaks = k2s_alloc(c->a, n * sizeof(uint32_t));
  l->backs = k2s_alloc(c->a, n * sizeof(uint32_t));
  c->stamp[h] = loop_no;
  todo[top++] = h;
  while (top) {
    uint32_t b = todo[--top];
    bool breaks = false, back = false;
    for (uint32_t s = 0; s < cfg->n_succ[b]; s++) {
      uint32_t t = cfg->succ[b][s];
      breaks |= t == mg;
      back |= t == h;
      if (t != mg && c->stamp[t] != loop_no) {
        c->stamp[t] = loop_no;
        todo[top++] = t;
      }
    }
    if (breaks)
      l->breaks[l->n_breaks++] = b;
    if (back)
      l->backs[l->n_backs++] = b;
  }
}

/* Point the block's terminator at `to` instead of `from` and store into the
 * state word, before the branch, 0 when it goes to `to`, 1 otherwise. */
static bool retarget_break(guard_ctx *c, k2s_block *b, uint32_t slot, uint32_t from, uint32_t to)
{
  k2s_module *m = c->m;
  k2s_instr *t = k2s_block_terminator(b);
  k2s_cursor at = k2s_block_end(b);
  uint32_t value = 0;
  if (t->opcode == SpvOpBranch) {
    value = c->zero;
    t->ops[0] = to;
  } else if (t->opcode == SpvOpBranchConditional) {
    bool yes = t->ops[1] == from, no = t->ops[2] == from;
    value = yes && no ? c->zero
                      : emit(m, at, SpvOpSelect, c->u32,
                             (uint32_t[]){t->ops[0], yes ? c->zero : c->one,
                                          yes ? c->one : c->zero}, 3)->result;
    t->ops[1] = yes ? to : t->ops[1];
    t->ops[2] = no ? to : t->ops[2];
  } else if (t->opcode == SpvOpSwitch) {
    /* The switch breaks when its selector picks a case that goes to the merge. */
    uint32_t sel_t = k2s_type_of(m, t->ops[0]);
    uint32_t words = k2s_type_width(m, sel_t) > 32 ? 2 : 1;
    bool by_default = t->ops[1] == from;
    uint32_t any = 0;
    for (uint32_t k = 2; k + words < t->n_ops; k += words + 1) {
      if ((t->ops[k + words] == from) == by_default)
        continue;
      uint64_t lit = t->ops[k] | (words == 2 ? (uint64_t)t->ops[k + 1] << 32 : 0);
      uint32_t eq = emit(m, at, SpvOpIEqual, c->bool_t,
                         (uint32_t[]){t->ops[0], k2s_const_int(m, sel_t, lit)}, 2)->result;
      any = any ? emit(m, at, SpvOpLogicalOr, c->bool_t, (uint32_t[]){any, eq}, 2)->result : eq;
    }
    /* any: a listed case goes to the merge (or, by_default, one that does not). */
    if (!any)
      value = by_default ? c->zero : c->one;
    else
      value = emit(m, at, SpvOpSelect, c->u32,
                   (uint32_t[]){any, by_default ? c->one : c->zero,
                                by_default ? c->zero : c->one}, 3)->result;
    for (uint32_t k = 1; k < t->n_ops; k += (k == 1 ? 1 + words : words + 1))
      if (t->ops[k] == from)
        t->ops[k] = to;
  } else {
    k2s_error(m, t, "--loop-guard: cannot instrument a loop exit through %s",
              k2s_opcode_name(t->opcode));
    return false;
  }
  store_state(c, k2s_block_end(b), slot, value);
  return true;
}

/* Phis of the old merge: the incoming values from the loop now arrive
 * through the new merge block (a phi there), then through `last`. */
static void move_phis(guard_ctx *c, k2s_block *merge, k2s_block *check, k2s_block *last,
                      const guard_loop *l)
{
  k2s_module *m = c->m;
  k2s_foreach_instr(phi, &merge->body) {
    if (phi->opcode != SpvOpPhi)
      break;
    uint32_t *moved = k2s_alloc(c->a, phi->n_ops * sizeof(uint32_t)), n_moved = 0, w = 0;
    for (uint32_t k = 0; k + 1 < phi->n_ops; k += 2) {
      bool from_loop = false;
      for (uint32_t i = 0; i < l->n_breaks && !from_loop; i++)
        from_loop = phi->ops[k + 1] == l->breaks[i];
      if (from_loop) {
        moved[n_moved++] = phi->ops[k];
        moved[n_moved++] = phi->ops[k + 1];
      } else {
        phi->ops[w++] = phi->ops[k];
        phi->ops[w++] = phi->ops[k + 1];
      }
    }
    if (!n_moved) {
      /* The merge gains a predecessor the phi has no value for (a loop without
       * exits, whose merge was unreachable). */
      k2s_instr_push_op(m, phi, k2s_undef(m, phi->type));
      k2s_instr_push_op(m, phi, last->label->result);
      continue;
    }
    k2s_instr *np = k2s_instr_new(m, SpvOpPhi, phi->type, k2s_new_id(m), moved, n_moved);
    k2s_list_insert_before(&check->body, check->body.first, np);
    np->block = check;
    phi->ops[w++] = np->result;
    phi->ops[w++] = last->label->result;
    phi->n_ops = w;
  }
}

static bool guard_loop_exits(guard_ctx *c, const k2s_cfg *cfg, guard_loop *l, uint32_t slot)
{
  k2s_module *m = c->m;
  k2s_function *f = l->header->func;
  k2s_instr *mi = k2s_block_merge(l->header);
  k2s_block *check = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *flag = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *last = k2s_block_new(m, f, k2s_new_id(m));
  k2s_function_insert_block_after(f, l->merge->prev, check);
  k2s_function_insert_block_after(f, check, flag);
  k2s_function_insert_block_after(f, flag, last);

  uint32_t from = l->merge->label->result, to = check->label->result;
  /* Break sources by label, for the phis. */
  for (uint32_t i = 0; i < l->n_breaks; i++) {
    k2s_block *b = cfg->blocks[l->breaks[i]];
    if (!retarget_break(c, b, slot, from, to))
      return false;
    l->breaks[i] = b->label->result;
  }
  move_phis(c, l->merge, check, last, l);
  if (!l->n_breaks) {
    /* No exit: the code after the loop is unreachable, and the driver would drop
     * the check with it. The back-edge block gets an exit it never takes. */
    k2s_instr *t = l->n_backs == 1 ? k2s_block_terminator(cfg->blocks[l->backs[0]]) : NULL;
    if (!t || t->opcode != SpvOpBranch) {
      k2s_error(m, k2s_block_merge(l->header),
                "--loop-guard: cannot instrument a loop without exits whose back edge is "
                "not a plain branch");
      return false;
    }
    k2s_cursor at = k2s_block_end(cfg->blocks[l->backs[0]]);
    uint32_t v = emit(m, at, SpvOpLoad, c->u32, (uint32_t[]){slot, VOLATILE}, 2)->result;
    uint32_t never = emit(m, at, SpvOpIEqual, c->bool_t, (uint32_t[]){v, c->two}, 2)->result;
    k2s_instr_set_ops(m, t, (uint32_t[]){never, to, t->ops[0]}, 3);
    t->opcode = SpvOpBranchConditional;
    /* The old merge was unreachable; reaching its OpUnreachable now would let the
     * driver drop the check as dead code: it returns instead. */
    k2s_instr *mt = k2s_block_terminator(l->merge);
    if (mt && mt->opcode == SpvOpUnreachable) {
      uint32_t ret = f->def->type;
      if (ret == k2s_type_void(m)) {
        mt->opcode = SpvOpReturn;
        mt->n_ops = 0;
      } else {
        mt->opcode = SpvOpReturnValue;
        k2s_instr_set_ops(m, mt, (uint32_t[]){k2s_undef(m, ret)}, 1);
      }
    }
  }
  mi->ops[0] = to;

  /* check: a cut loop left its word at 1 */
  k2s_cursor at = k2s_block_append(check);
  uint32_t v = emit(m, at, SpvOpLoad, c->u32, (uint32_t[]){slot, VOLATILE}, 2)->result;
  uint32_t cut = emit(m, at, SpvOpIEqual, c->bool_t, (uint32_t[]){v, c->one}, 2)->result;
  emit(m, at, SpvOpSelectionMerge, 0, (uint32_t[]){last->label->result, 0}, 2);
  emit(m, at, SpvOpBranchConditional, 0, (uint32_t[]){cut, flag->label->result,
                                                      last->label->result}, 3);
  at = k2s_block_append(flag);
  uint32_t p = emit(m, at, SpvOpAccessChain, c->ptr_sb_u32, (uint32_t[]){c->flag, c->zero},
                    2)->result;
  emit(m, at, SpvOpStore, 0, (uint32_t[]){p, c->one}, 2);
  emit(m, at, SpvOpBranch, 0, (uint32_t[]){last->label->result}, 1);
  /* Back inside any enclosing loop (or after a callee's loop, inside the
   * caller's): the word is 1 again until the next exit. */
  at = k2s_block_append(last);
  store_state(c, at, slot, c->one);
  emit(m, at, SpvOpBranch, 0, (uint32_t[]){from}, 1);

  store_state(c, k2s_block_start(l->header), slot, c->one);
  return true;
}

static bool guard_function(guard_ctx *c, k2s_function *f)
{
  k2s_module *m = c->m;
  k2s_cfg *cfg = k2s_cfg_build(m, c->a, f);
  c->stamp = k2s_alloc(c->a, (cfg->n_blocks + 1) * sizeof(uint32_t));
  guard_loop *loops = k2s_alloc(c->a, cfg->n_blocks * sizeof(guard_loop));
  uint32_t n = 0;
  /* Every loop's blocks are found before any CFG edit. */
  for (uint32_t i = 0; i < cfg->n_blocks; i++) {
    k2s_instr *mi = k2s_block_merge(cfg->blocks[i]);
    if (!mi || mi->opcode != SpvOpLoopMerge)
      continue;
    k2s_block *merge = k2s_block_of_label(m, mi->ops[0]);
    if (!merge || merge->func != f) {
      k2s_error(m, mi, "--loop-guard: the loop's merge block is not in its function");
      return false;
    }
    loops[n] = (guard_loop){.header = cfg->blocks[i], .merge = merge};
    walk_loop(c, cfg, &loops[n], n + 1);
    n++;
  }
  k2s_cursor at = k2s_block_start(f->first);
  k2s_instr *idx = emit(m, at, SpvOpLoad, c->u32, (uint32_t[]){c->index}, 1);
  uint32_t slot = emit(m, k2s_after(idx), SpvOpAccessChain, c->ptr_wg_u32, (uint32_t[]){c->state, idx->result},
                       2)->result;
  for (uint32_t i = 0; i < n; i++)
    if (!guard_loop_exits(c, cfg, &loops[i], slot))
      return false;
  return true;
}

bool k2s_loop_guard(k2s_module *m, const k2s_options *o)
{
  if (!o->loop_guard)
    return false;
  bool any = false;
  k2s_foreach_function(f, m)
    any |= has_loop(f);
  if (!any)
    return false;
  k2s_arena scratch = {.oom = m->arena.oom};
  guard_ctx c = {.m = m, .a = &scratch};
  if (make_globals(&c))
    k2s_foreach_function(f, m)
      if (has_loop(f) && !guard_function(&c, f))
        break;
  k2s_arena_free(&scratch);
  k2s_invalidate_uses(m);
  return true;
}
