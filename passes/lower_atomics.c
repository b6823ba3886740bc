/*
 * atomics: the OpenCL atomics Vulkan has no instruction for → ones it has.
 *
 *   OpAtomicCompareExchangeWeak → OpAtomicCompareExchange (a strong exchange is a
 *     valid weak one; Weak is gone from SPIR-V 1.4, which vulkan1.2+ targets);
 *   OpAtomicFlagTestAndSet → OpAtomicExchange of 1 on the flag's 32-bit int, != 0;
 *   OpAtomicFlagClear → OpAtomicStore of 0 (Vulkan has no flag instructions);
 *   OpAtomicFAddEXT / FMinEXT / FMaxEXT (cl_ext_float_atomics) → a compare-exchange
 *     loop on the bits (an integer of the float's width), unless --float-atomics
 *     says the device has SPV_EXT_shader_atomic_float_add / _min_max (and no other
 *     float atomic of that width needs a loop: emulated_widths).
 * Runs before the pointer passes, so the loop's integer view of the float goes
 * through their usual handling of a pointer cast. Memory semantics are made
 * Vulkan-legal later, in 'barriers'. Options: --float-atomics.
 */
#include "k2s_internal.h"
#include "k2s_builder_ops.h"

static bool is_float_rmw(uint16_t op)
{
  return op == SpvOpAtomicFAddEXT || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT;
}

/* Diagnostics about a new instruction (a later pass refusing the loop's atomic)
 * point at the input's atomic it came from, as clones do. */
static uint32_t from(k2s_module *m, uint32_t id, const k2s_instr *orig)
{
  k2s_def(m, id)->offset = orig->offset;
  return id;
}

/* A pointer to an integer of the pointee's width, in the pointer's storage class. */
static uint32_t int_view(k2s_builder *b, uint32_t ptr, uint32_t itype)
{
  k2s_module *m = b->m;
  k2s_instr *pt = k2s_def(m, k2s_type_of(m, ptr));
  return k2s_b_bitcast(b, k2s_type_pointer(m, pt->ops[0], itype), ptr);
}

/* Whether i has the operands its grammar gives an atomic of its opcode (else it
 * is left for validation to name). */
static bool whole_atomic(const k2s_instr *i)
{
  const k2s_atomic_operands *a = k2s_atomic_layout(i->opcode);
  return a && i->n_ops == a->n_operands;
}

/* old = atomic load; do { seen = cas(p, op(old, v), old) } while (seen != old). */
static void float_loop(k2s_module *m, k2s_instr *i)
{
  const k2s_atomic_operands *a = k2s_atomic_layout(i->opcode);
  uint32_t T = i->type, ptr = i->ops[a->pointer], scope = i->ops[a->scope];
  uint32_t sem = i->ops[a->semantics], v = i->ops[a->value];
  uint32_t I = k2s_type_int(m, k2s_type_width(m, T), false);
  k2s_block *pre = i->block;
  k2s_builder b = {m, k2s_before(i)};
  uint32_t ip = from(m, int_view(&b, ptr, I), i);
  uint32_t relaxed = k2s_const_uint32(m, 0);
  uint32_t first = from(m, k2s_b_atomic_load(&b, I, ip, scope, relaxed), i);

  k2s_block *rest = k2s_split_block(m, i, k2s_new_id(m));
  k2s_block *head = k2s_block_new(m, pre->func, k2s_new_id(m));
  k2s_function_insert_block_after(pre->func, pre, head);
  uint32_t hl = head->label->result;
  b = (k2s_builder){m, k2s_block_append(pre)};
  k2s_emit(&b, SpvOpBranch, 0, &hl, 1);

  uint32_t cur = k2s_new_id(m), seen = k2s_new_id(m);
  uint32_t phi_ops[4] = {first, pre->label->result, seen, hl};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, I, cur, phi_ops, 4);
  phi->block = head;
  k2s_list_append(&head->body, phi);
  b = (k2s_builder){m, k2s_block_append(head)};
  uint32_t curf = k2s_b_bitcast(&b, T, cur);
  uint32_t next = k2s_build_atomic_update(&b, i->opcode, T, curf, v, 0);
  uint32_t cas[6] = {ip, scope, sem, sem, k2s_b_bitcast(&b, I, next), cur};
  k2s_instr *x = k2s_emit_instr(&b, SpvOpAtomicCompareExchange, I, cas, 6);
  m->def[x->result] = NULL;
  x->result = seen;
  x->offset = i->offset;
  k2s_set_def(m, seen, x);
  uint32_t done = k2s_b_iequal(&b, k2s_type_bool(m), seen, cur);
  uint32_t br[3] = {done, rest->label->result, hl};
  k2s_emit(&b, SpvOpBranchConditional, 0, br, 3);

  k2s_replace_all_uses(m, i->result, curf);
  k2s_instr_delete(m, i);
}

static void flag_test_and_set(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t I = k2s_type_int(m, 32, false);
  uint32_t ptr = from(m, int_view(&b, i->ops[0], I), i);
  uint32_t ops[4] = {ptr, i->ops[1], i->ops[2], k2s_const_int(m, I, 1)};
  uint32_t old = from(m, k2s_emit(&b, SpvOpAtomicExchange, I, ops, 4), i);
  uint32_t set = k2s_b_inot_equal(&b, i->type, old, k2s_const_int(m, I, 0));
  k2s_replace_all_uses(m, i->result, set);
  k2s_instr_delete(m, i);
}

static void flag_clear(k2s_module *m, k2s_instr *i)
{
  k2s_builder b = {m, k2s_before(i)};
  uint32_t I = k2s_type_int(m, 32, false);
  uint32_t ops[4] = {from(m, int_view(&b, i->ops[0], I), i), i->ops[1], i->ops[2],
                     k2s_const_int(m, I, 0)};
  k2s_instr *st = k2s_emit_instr(&b, SpvOpAtomicStore, 0, ops, 4);
  st->offset = i->offset;
  k2s_instr_delete(m, i);
}

static bool device_has(const k2s_options *o, uint16_t op)
{
  return op == SpvOpAtomicFAddEXT ? o->float_atomic_add : o->float_atomic_min_max;
}

static uint32_t width_bit(k2s_module *m, const k2s_instr *i)
{
  uint32_t w = k2s_type_width(m, i->type);
  return w == 16 ? 1u : w == 32 ? 2u : w == 64 ? 4u : 0u;
}

/* The float widths (width_bit) of which some atomic becomes a loop. A loop views the
 * float's memory as an integer; a native float atomic on memory a loop also views that
 * way has no logical-mode form (pointers: "an atomic on float at a place the memory does
 * not hold one"), and which memory they share is known only after the pointer passes: so
 * a module with a loop for one float atomic of a width gets loops for all of that width
 * (e.g. --float-atomics=add with fetch_add and fetch_max on one buffer). */
static uint32_t emulated_widths(k2s_module *m, const k2s_options *o)
{
  uint32_t bits = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr(i, &blk->body)
        if (is_float_rmw(i->opcode) && whole_atomic(i) && !device_has(o, i->opcode))
          bits |= width_bit(m, i);
  return bits;
}

/* Lowers the atomics of one block; a float loop splits it, and the moved rest
 * (a later block of the function) is visited on its own. */
static bool lower_block(k2s_module *m, const k2s_options *o, uint32_t emulated,
                        k2s_block *blk)
{
  bool changed = false;
  k2s_foreach_instr_safe(i, &blk->body) {
    if (!whole_atomic(i))
      continue;
    switch (i->opcode) {
    case SpvOpAtomicCompareExchangeWeak:
      i->opcode = SpvOpAtomicCompareExchange;
      changed = true;
      break;
    case SpvOpAtomicFlagTestAndSet:
      flag_test_and_set(m, i);
      changed = true;
      break;
    case SpvOpAtomicFlagClear:
      flag_clear(m, i);
      changed = true;
      break;
    default:
      if (is_float_rmw(i->opcode) && (!device_has(o, i->opcode) || (emulated & width_bit(m, i)))) {
        float_loop(m, i);
        return true;
      }
      break;
    }
  }
  return changed;
}

bool k2s_lower_atomics(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  uint32_t emulated = emulated_widths(m, o);
  k2s_foreach_function(f, m)
    for (k2s_block *blk = f->first; blk; blk = blk->next)
      changed |= lower_block(m, o, emulated, blk);
  return changed;
}
