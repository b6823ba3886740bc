/*
 * word-vectors: storage buffers of 32-bit vectors of 8/16-bit lanes → 32-bit words.
 *
 * A `global uchar4 *` argument becomes a storage buffer of `u8vec4` (stride 4), read and
 * written with 8-bit vector loads and stores, which need StorageBuffer8BitAccess and
 * which a driver may split into one access per byte; NVIDIA's OpenCL reads the same
 * pixel with one 32-bit load (bench/gpu `image` and `histogram`, issue 13). When every
 * access to such a buffer is a whole element — one OpAccessChain %var 0 %i, then OpLoad
 * or OpStore — the buffer is redeclared as `struct { uint w[]; }` (the same stride, the
 * same bytes) and each access moves a uint, OpBitcast to or from the vector (a bitcast
 * keeps the lanes in memory order: lane k is bits 8k..8k+7, as in the buffer). A buffer
 * with any other access (one lane through a pointer, a byte view, atomics) is left alone.
 * Runs after pointers (accesses are access chains from the variable), logical mode only
 * (PhysicalStorageBuffer accesses have no variable); no options (--passes leaves it out).
 * Measured on an H100 (bench/GPU.md, s6-gpuperf-1): no change in speed there, NVIDIA's
 * driver already merges a u8vec4 access; what it buys is no StorageBuffer8BitAccess
 * where no byte buffer remains.
 */
#include <string.h>

#include "k2s_builder_ops.h"
#include "k2s_internal.h"

/* A vector of 8- or 16-bit lanes, 32 bits in all (u8vec4, i16vec2, f16vec2)? */
static bool word_sized_vector(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t || t->opcode != SpvOpTypeVector || t->n_ops != 2)
    return false;
  uint32_t w = k2s_type_width(m, type);
  return w && w < 32 && w * t->ops[1] == 32;
}

static uint32_t array_stride(const k2s_module *m, uint32_t type)
{
  k2s_instr *d = k2s_find_decoration(m, type, SpvDecorationArrayStride);
  return d && d->n_ops > 2 ? d->ops[2] : 0;
}

/* The element chain of var (OpAccessChain %var 0 %i) with only whole-element loads and
 * stores through it? */
static bool whole_element_chain(k2s_module *m, const k2s_instr *chain, uint32_t var)
{
  uint64_t member;
  if ((chain->opcode != SpvOpAccessChain && chain->opcode != SpvOpInBoundsAccessChain) ||
      chain->n_ops != 3 || chain->ops[0] != var || !k2s_const_value(m, chain->ops[1], &member) ||
      member != 0)
    return false;
  k2s_foreach_use(u, m, chain->result)
  {
    const k2s_instr *i = u->user;
    if (!i->block)
      continue; /* OpName */
    if (i->opcode == SpvOpLoad && i->ops[0] == chain->result)
      continue;
    if (i->opcode == SpvOpStore && i->ops[0] == chain->result && i->ops[1] != chain->result)
      continue;
    return false;
  }
  return true;
}

/* The storage buffer variable's runtime array of word-sized vectors, when every access to
 * it is a whole element; else 0. */
static uint32_t word_vector_array(k2s_module *m, const k2s_instr *var)
{
  k2s_instr *ptr = k2s_def(m, var->type);
  k2s_instr *st = ptr ? k2s_def(m, ptr->ops[1]) : NULL;
  if (!st || st->opcode != SpvOpTypeStruct || st->n_ops != 1 ||
      !k2s_find_decoration(m, st->result, SpvDecorationBlock))
    return 0;
  k2s_instr *arr = k2s_def(m, st->ops[0]);
  if (!arr || arr->opcode != SpvOpTypeRuntimeArray || !word_sized_vector(m, arr->ops[0]) ||
      array_stride(m, arr->result) != 4)
    return 0;
  k2s_foreach_use(u, m, var->result)
  {
    const k2s_instr *i = u->user;
    if (!i->block || i->opcode == SpvOpArrayLength) /* names, decorations, the interface */
      continue;
    if (!whole_element_chain(m, i, var->result))
      return 0;
  }
  return arr->result;
}

/* A load or store through one of the variable's element chains now moves a uint,
 * bitcast from or to the vector. */
static void rewrite_access(k2s_module *m, k2s_instr *i, uint32_t u32)
{
  k2s_builder b = {m, k2s_before(i)};
  if (i->opcode == SpvOpLoad) {
    /* %v = OpLoad %v4uchar %p  →  %w = OpLoad %uint %p; %v = OpBitcast %v4uchar %w */
    uint32_t word = k2s_emit(&b, SpvOpLoad, u32, i->ops, i->n_ops);
    i->opcode = SpvOpBitcast;
    k2s_instr_set_ops(m, i, &word, 1);
    return;
  }
  uint32_t *ops = k2s_alloc(&m->arena, i->n_ops * sizeof(uint32_t));
  memcpy(ops, i->ops, i->n_ops * sizeof(uint32_t));
  ops[1] = k2s_emit(&b, SpvOpBitcast, u32, &i->ops[1], 1);
  k2s_instr_set_ops(m, i, ops, i->n_ops);
}

static bool rewrite_variable(k2s_module *m, k2s_instr *var)
{
  uint32_t u32 = k2s_type_int(m, 32, false), four = 4;
  uint32_t words = k2s_type_runtime_array(m, u32);
  uint32_t stride = array_stride(m, words);
  if (stride && stride != 4)
    return false; /* the interned uint[] has another stride: no second one can be made */
  if (!stride)
    k2s_decorate(m, words, SpvDecorationArrayStride, &four, 1);
  uint32_t ptr_u32 = k2s_type_pointer(m, var->ops[0], u32);
  /* Every chain and access first: rewriting leaves def-use stale. */
  uint32_t n = 0;
  k2s_foreach_use(u, m, var->result)
  {
    if (u->user->block && u->user->opcode != SpvOpArrayLength)
      k2s_foreach_use(a, m, u->user->result) n++;
  }
  k2s_instr **chains = k2s_alloc(&m->arena, (n + 1) * sizeof(*chains));
  k2s_instr **accesses = k2s_alloc(&m->arena, (n + 1) * sizeof(*accesses));
  uint32_t n_chains = 0, n_accesses = 0;
  k2s_foreach_use(u, m, var->result)
  {
    if (!u->user->block || u->user->opcode == SpvOpArrayLength ||
        (n_chains && chains[n_chains - 1] == u->user))
      continue;
    chains[n_chains++] = u->user;
    k2s_foreach_use(a, m, u->user->result)
    {
      if (a->user->block && (n_accesses == 0 || accesses[n_accesses - 1] != a->user))
        accesses[n_accesses++] = a->user;
    }
  }
  for (uint32_t k = 0; k < n_chains; k++)
    k2s_instr_set_type(m, chains[k], ptr_u32);
  for (uint32_t k = 0; k < n_accesses; k++)
    rewrite_access(m, accesses[k], u32);
  k2s_retype_block_variable(m, var, words);
  return true;
}

bool k2s_word_vectors(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool changed = false;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL])
  {
    if (v->opcode != SpvOpVariable || v->ops[0] != SpvStorageClassStorageBuffer ||
        !word_vector_array(m, v))
      continue;
    changed |= rewrite_variable(m, v);
  }
  return changed;
}
