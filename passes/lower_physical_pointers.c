/*
 * physical-pointers: global/constant pointers → PhysicalStorageBuffer64 pointers.
 *
 * With --pointers=physical (Vulkan 1.2+: bufferDeviceAddress is core) OpenCL global and
 * constant pointers keep their meaning as 64-bit addresses instead of being modelled as
 * (buffer, index): pointer arithmetic stays OpPtrAccessChain (the pointer type carries the
 * ArrayStride), casts between pointer types stay bitcasts, pointer↔integer casts become
 * OpConvertPtrToU/OpConvertUToPtr on 64-bit integers, pointers can be stored in memory
 * (8 bytes, pointees explicitly laid out as OpenCL lays them out), compared, selected and
 * passed to functions, and NULL is address 0. Every load and store through such a pointer
 * carries an Aligned operand (Vulkan requires it), the OpenCL alignment when the input has
 * none. Function, Private and Workgroup pointers are left to the pointers pass; module
 * `constant` data is not a buffer and keeps its logical pointers.
 * Runs after inlining and work-items, before kernel-args, which then passes each pointer
 * parameter as a 64-bit address (push constants, or the POD uniform buffer when they do
 * not fit). Marks each function it lowers (k2s_function.physical). Options: --pointers,
 * --target-env (vulkan1.1 is refused).
 */
#include <string.h>

#include "k2s_builder_ops.h"
#include "k2s_internal.h"

typedef struct phys_ctx {
  k2s_module *m;
  const k2s_options *o;
  uint32_t *deep;    /* type id → the type with every global/constant pointer physical */
  uint8_t *state;    /* value id: 1 physical pointer, 2 logical (constant data) pointer */
  uint8_t *busy;     /* type id: being mapped (a recursive type) */
  uint32_t *fwd;     /* global pointer type id in a cycle → its forward-declared PSB pointer id */
  uint8_t *fwd_done; /* that PSB pointer's OpTypePointer exists */
  uint32_t *pending, n_pending; /* pointer types with a forward declaration */
  uint32_t cap;
  k2s_instr **loops; /* OpCopyMemorySized with a run-time size, lowered after rewriting */
  uint32_t n_loops;
  const k2s_instr *why; /* for diagnostics while mapping types */
  bool failed;
} phys_ctx;

enum { V_NONE, V_PHYS, V_LOGICAL };

static void grow(phys_ctx *c)
{
  uint32_t need = c->m->bound + 1;
  if (need <= c->cap)
    return;
  uint32_t cap = need * 2;
  c->deep = k2s_realloc_array(&c->m->arena, c->deep, c->cap, cap, sizeof(uint32_t));
  c->state = k2s_realloc_array(&c->m->arena, c->state, c->cap, cap, 1);
  c->busy = k2s_realloc_array(&c->m->arena, c->busy, c->cap, cap, 1);
  c->fwd = k2s_realloc_array(&c->m->arena, c->fwd, c->cap, cap, sizeof(uint32_t));
  c->fwd_done = k2s_realloc_array(&c->m->arena, c->fwd_done, c->cap, cap, 1);
  c->cap = cap;
}

static bool is_global_sc(uint32_t sc)
{
  return sc == SpvStorageClassCrossWorkgroup || sc == SpvStorageClassUniformConstant;
}

static k2s_instr *pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer ? t : NULL;
}

static bool is_global_pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = pointer_type(m, type);
  return t && is_global_sc(t->ops[0]);
}

static bool physical32(k2s_module *m)
{
  k2s_instr *mm = m->sec[K2S_SEC_MEMORY_MODEL].first;
  return mm && mm->n_ops && mm->ops[0] == SpvAddressingModelPhysical32;
}

static void fail(phys_ctx *c, const k2s_instr *at, const char *msg)
{
  if (!c->failed)
    k2s_error(c->m, at, "%s", msg);
  c->failed = true;
}

/* ---- types ---------------------------------------------------------------------------------- */

static uint32_t deep_type(phys_ctx *c, uint32_t type);

static uint32_t physical_pointer(phys_ctx *c, uint32_t pointee)
{
  k2s_module *m = c->m;
  uint32_t p = k2s_type_pointer(m, SpvStorageClassPhysicalStorageBuffer, pointee);
  /* Vulkan wants every PhysicalStorageBuffer pointee explicitly laid out. */
  k2s_instr *pt = k2s_def(m, pointee);
  if (pt && pt->opcode != SpvOpTypeVoid && !k2s_decorate_layout(m, pointee, c->why))
    c->failed = true;
  return p;
}

static uint32_t map_struct(phys_ctx *c, uint32_t type, k2s_instr *t)
{
  k2s_module *m = c->m;
  uint32_t *mem = k2s_alloc(&m->arena, (t->n_ops + 1) * sizeof(uint32_t));
  bool changed = false;
  for (uint32_t k = 0; k < t->n_ops; k++) {
    mem[k] = deep_type(c, t->ops[k]);
    changed |= mem[k] != t->ops[k];
  }
  if (!changed)
    return type;
  uint32_t st = k2s_type_struct(m, mem, t->n_ops);
  if (k2s_find_decoration(m, type, SpvDecorationCPacked))
    k2s_decorate(m, st, SpvDecorationCPacked, NULL, 0);
  const char *name = k2s_name_of(m, type);
  if (name)
    k2s_set_name(m, st, name);
  return st;
}

/* `type` with every global/constant pointer in it made physical (memoized). */
/* A linked structure (struct node { global struct node *next; }): the global pointer that
 * closes the cycle becomes a forward-declared PhysicalStorageBuffer pointer, defined once
 * the struct it points to is mapped. */
static uint32_t forward_pointer(phys_ctx *c, uint32_t type)
{
  k2s_module *m = c->m;
  if (!c->fwd[type]) {
    uint32_t id = k2s_new_id(m);
    grow(c);
    uint32_t ops[2] = {id, SpvStorageClassPhysicalStorageBuffer};
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL],
                    k2s_instr_new(m, SpvOpTypeForwardPointer, 0, 0, ops, 2));
    c->fwd[type] = id;
    c->pending =
        k2s_realloc_array(&m->arena, c->pending, c->n_pending, c->n_pending + 1, sizeof(uint32_t));
    c->pending[c->n_pending++] = type;
  }
  return c->fwd[type];
}

static void define_forward(phys_ctx *c, uint32_t type, uint32_t pointee)
{
  k2s_module *m = c->m;
  if (c->fwd_done[type])
    return;
  c->fwd_done[type] = 1;
  uint32_t ops[2] = {SpvStorageClassPhysicalStorageBuffer, pointee};
  k2s_instr *p = k2s_instr_new(m, SpvOpTypePointer, 0, c->fwd[type], ops, 2);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], p);
  k2s_set_def(m, c->fwd[type], p);
  k2s_invalidate_intern(m);
  if (!k2s_decorate_layout(m, pointee, c->why))
    c->failed = true;
}

static uint32_t deep_type(phys_ctx *c, uint32_t type)
{
  k2s_module *m = c->m;
  grow(c);
  if (type >= c->cap)
    return type;
  if (c->deep[type])
    return c->deep[type];
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return type;
  bool global_ptr = t->opcode == SpvOpTypePointer && is_global_sc(t->ops[0]);
  if (global_ptr && (c->busy[type] || (t->ops[1] < c->cap && c->busy[t->ops[1]])))
    return forward_pointer(c, type);
  if (c->busy[type]) {
    fail(c, c->why, "a recursive type without a global pointer in its cycle cannot be mapped");
    return type;
  }
  c->busy[type] = 1;
  uint32_t r = type;
  switch (t->opcode) {
  case SpvOpTypePointer: {
    uint32_t pointee = deep_type(c, t->ops[1]);
    grow(c);
    if (global_ptr && c->fwd[type]) {
      define_forward(c, type, pointee);
      r = c->fwd[type];
    } else if (global_ptr)
      r = physical_pointer(c, pointee);
    else if (pointee != t->ops[1])
      r = k2s_type_pointer(m, t->ops[0], pointee);
    break;
  }
  case SpvOpTypeStruct:
    r = map_struct(c, type, t);
    /* Forward pointers to this struct that closed a cycle get their definition. */
    for (uint32_t k = 0; k < c->n_pending; k++) {
      uint32_t p = c->pending[k];
      if (!c->fwd_done[p] && k2s_def(m, p)->ops[1] == type)
        define_forward(c, p, r);
    }
    break;
  case SpvOpTypeArray: {
    uint32_t e = deep_type(c, t->ops[0]);
    if (e != t->ops[0])
      r = k2s_type_array(m, e, t->ops[1]);
    break;
  }
  case SpvOpTypeRuntimeArray: {
    uint32_t e = deep_type(c, t->ops[0]);
    if (e != t->ops[0])
      r = k2s_type_runtime_array(m, e);
    break;
  }
  case SpvOpTypeFunction: {
    uint32_t n = t->n_ops;
    uint32_t *ops = k2s_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
    bool changed = false;
    for (uint32_t k = 0; k < n; k++) {
      ops[k] = deep_type(c, t->ops[k]);
      changed |= ops[k] != t->ops[k];
    }
    if (changed)
      r = k2s_type_function(m, ops[0], ops + 1, n - 1);
    break;
  }
  default: break;
  }
  grow(c);
  c->busy[type] = 0;
  c->deep[type] = r;
  return r;
}

/* The new type of a value: a logical pointer (constant data) keeps its storage class. */
static uint32_t value_type(phys_ctx *c, uint32_t id, uint32_t type)
{
  k2s_instr *t = pointer_type(c->m, type);
  if (t && t->ops[0] == SpvStorageClassGeneric && id < c->cap && c->state[id] == V_PHYS)
    return physical_pointer(c, deep_type(c, t->ops[1]));
  if (t && is_global_sc(t->ops[0]) && id < c->cap && c->state[id] == V_LOGICAL)
    return k2s_type_pointer(c->m, t->ops[0], deep_type(c, t->ops[1]));
  return deep_type(c, type);
}

/* ---- which pointers are physical ----------------------------------------------------------- */

static uint8_t state_of(phys_ctx *c, uint32_t id)
{
  if (id < c->cap && c->state[id] != V_NONE)
    return c->state[id];
  /* Module-scope `constant` data and program-scope variables are not buffers the host
   * passes: they stay logical (the pointers pass lowers them). */
  k2s_instr *d = k2s_def(c->m, id);
  if (d && !d->block && d->opcode == SpvOpVariable && is_global_sc(d->ops[0]))
    return V_LOGICAL;
  return V_NONE;
}

static bool set_state(phys_ctx *c, uint32_t id, uint8_t s, const k2s_instr *at)
{
  grow(c);
  if (s == V_NONE || c->state[id] == s)
    return false;
  if (c->state[id] != V_NONE) {
    fail(c, at,
         "a pointer here may point either into a buffer or into program-scope constant "
         "data; physical mode cannot express that");
    return false;
  }
  c->state[id] = s;
  return true;
}

/* Forward propagation over one instruction; returns whether a state changed. */
static bool classify(phys_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  k2s_instr *pt = i->result ? pointer_type(m, i->type) : NULL;
  if (!pt)
    return false;
  /* A generic pointer is physical when what it was cast from is (OpenCL 2.0 code that
   * passes a global pointer through a generic one); from local or private memory it is
   * the pointers pass's. */
  if (pt->ops[0] == SpvStorageClassGeneric) {
    if (i->opcode == SpvOpPtrCastToGeneric || i->opcode == SpvOpCopyObject ||
        i->opcode == SpvOpAccessChain || i->opcode == SpvOpInBoundsAccessChain ||
        i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain ||
        (i->opcode == SpvOpBitcast && pointer_type(m, k2s_type_of(m, i->ops[0]))))
      return set_state(c, i->result, state_of(c, i->ops[0]) == V_PHYS ? V_PHYS : V_NONE, i);
    if (i->opcode == SpvOpSelect)
      return set_state(c, i->result, state_of(c, i->ops[1]) == V_PHYS ? V_PHYS : V_NONE, i) |
             set_state(c, i->result, state_of(c, i->ops[2]) == V_PHYS ? V_PHYS : V_NONE, i);
    if (i->opcode == SpvOpPhi) {
      bool changed = false;
      for (uint32_t k = 0; k + 1 < i->n_ops; k += 2)
        changed |= set_state(c, i->result, state_of(c, i->ops[k]) == V_PHYS ? V_PHYS : V_NONE, i);
      return changed;
    }
    return false;
  }
  if (!is_global_sc(pt->ops[0]))
    return false;
  switch (i->opcode) {
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit:
    return set_state(c, i->result, state_of(c, i->ops[0]) == V_PHYS ? V_PHYS : V_NONE, i);
  case SpvOpFunctionParameter:
  case SpvOpConvertUToPtr:
  case SpvOpLoad:
  case SpvOpAtomicLoad:
  case SpvOpFunctionCall:
  case SpvOpCompositeExtract:
  case SpvOpBitcast: /* from an integer (pointer↔pointer casts are handled below) */
    if (i->opcode == SpvOpBitcast && pointer_type(m, k2s_type_of(m, i->ops[0])))
      return set_state(c, i->result, state_of(c, i->ops[0]), i);
    return set_state(c, i->result, V_PHYS, i);
  case SpvOpVariable: return set_state(c, i->result, V_LOGICAL, i);
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpCopyObject: return set_state(c, i->result, state_of(c, i->ops[0]), i);
  case SpvOpSelect:
    return set_state(c, i->result, state_of(c, i->ops[1]), i) |
           set_state(c, i->result, state_of(c, i->ops[2]), i);
  case SpvOpPhi: {
    bool changed = false;
    for (uint32_t k = 0; k + 1 < i->n_ops; k += 2)
      changed |= set_state(c, i->result, state_of(c, i->ops[k]), i);
    return changed;
  }
  default: return false;
  }
}

/* ---- rewriting ------------------------------------------------------------------------------ */

static uint32_t u64(k2s_module *m)
{
  return k2s_type_int(m, 64, false);
}

static uint32_t pointee_size(phys_ctx *c, uint32_t ptr_type, uint64_t *align)
{
  uint64_t s = 0, a = 1;
  k2s_instr *t = pointer_type(c->m, ptr_type);
  if (!t || !k2s_cl_layout(c->m, t->ops[1], &s, &a))
    s = 0, a = 1;
  if (align)
    *align = a;
  return (uint32_t)s;
}

/* Vulkan requires Aligned on every PhysicalStorageBuffer access: add the OpenCL
 * alignment of the pointee when the producer gave none. mask_word is where the
 * memory-operand mask is (or would be). */
static void ensure_aligned(phys_ctx *c, k2s_instr *i, uint32_t mask_word, uint32_t ptr)
{
  k2s_module *m = c->m;
  uint64_t align = 1;
  pointee_size(c, k2s_type_of(m, ptr), &align);
  if (i->n_ops <= mask_word) {
    k2s_instr_push_op(m, i, SpvMemoryAccessAlignedMask);
    k2s_instr_push_op(m, i, (uint32_t)align);
    return;
  }
  if (i->ops[mask_word] & SpvMemoryAccessAlignedMask)
    return;
  /* Aligned's literal comes first: only Volatile (no operand) has a lower bit. */
  uint32_t n = i->n_ops + 1;
  uint32_t *ops = k2s_alloc(&m->arena, n * sizeof(uint32_t));
  memcpy(ops, i->ops, (mask_word + 1) * sizeof(uint32_t));
  ops[mask_word] |= SpvMemoryAccessAlignedMask;
  ops[mask_word + 1] = (uint32_t)align;
  memcpy(ops + mask_word + 2, i->ops + mask_word + 1,
         (i->n_ops - mask_word - 1) * sizeof(uint32_t));
  k2s_instr_set_ops(m, i, ops, n);
}

static bool is_phys_value(phys_ctx *c, uint32_t id)
{
  k2s_instr *t = pointer_type(c->m, k2s_type_of(c->m, id));
  return t && t->ops[0] == SpvStorageClassPhysicalStorageBuffer;
}

/* A pointer as a 64-bit integer. */
static uint32_t address_of(k2s_builder *b, uint32_t ptr)
{
  return k2s_b_convert_ptr_to_u(b, u64(b->m), ptr);
}

/* OpPtrAccessChain needs an ArrayStride on its base pointer type (the element step). */
static bool decorate_stride(phys_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t bt = k2s_type_of(m, i->ops[0]);
  if (k2s_find_decoration(m, bt, SpvDecorationArrayStride))
    return true;
  uint32_t stride = pointee_size(c, bt, NULL);
  if (!stride) {
    fail(c, i, "pointer arithmetic on a pointer to a type without an OpenCL size");
    return false;
  }
  k2s_decorate(m, bt, SpvDecorationArrayStride, &stride, 1);
  return true;
}

/* An upper bound on the bits of integer value `id` when it is known to be non-negative
 * as a signed value of its width (constants, zero-extensions, and the arithmetic of such
 * that cannot reach the sign bit); 64 when unknown. `depth` bounds the walk. */
static uint32_t nonneg_bits(k2s_module *m, uint32_t id, int depth)
{
  uint32_t w = k2s_type_width(m, k2s_type_of(m, id));
  uint64_t v;
  if (!w || w > 64)
    return 64;
  if (k2s_const_value(m, id, &v)) {
    if (w < 64)
      v &= (UINT64_C(1) << w) - 1;
    uint32_t n = 0;
    while (n < 64 && (v >> n))
      n++;
    return n < w ? n : 64;
  }
  k2s_instr *d = k2s_def(m, id);
  if (!d || depth <= 0)
    return 64;
  uint32_t a, b, r = 64;
  switch (d->opcode) {
  case SpvOpUConvert: r = k2s_type_width(m, k2s_type_of(m, d->ops[0])); break;
  case SpvOpCompositeExtract: r = nonneg_bits(m, d->ops[0], depth - 1); break; /* a lane */
  case SpvOpBitwiseAnd:
    a = nonneg_bits(m, d->ops[0], depth - 1), b = nonneg_bits(m, d->ops[1], depth - 1);
    r = a < b ? a : b;
    break;
  case SpvOpIAdd:
  case SpvOpBitwiseOr:
    a = nonneg_bits(m, d->ops[0], depth - 1), b = nonneg_bits(m, d->ops[1], depth - 1);
    r = (a > b ? a : b) + (d->opcode == SpvOpIAdd);
    break;
  case SpvOpIMul:
    r = nonneg_bits(m, d->ops[0], depth - 1) + nonneg_bits(m, d->ops[1], depth - 1);
    break;
  case SpvOpShiftLeftLogical:
    if (k2s_const_value(m, d->ops[1], &v) && v < 64)
      r = nonneg_bits(m, d->ops[0], depth - 1) + (uint32_t)v;
    break;
  case SpvOpShiftRightLogical:
    if (k2s_const_value(m, d->ops[1], &v) && v >= 1 && v < 64) {
      a = nonneg_bits(m, d->ops[0], depth - 1);
      r = a < w ? (a > v ? a - (uint32_t)v : 0) : w - (uint32_t)v;
    }
    break;
  default: break;
  }
  return r < w ? r : 64;
}

/* OpPtrAccessChain on a PhysicalStorageBuffer pointer whose Element may be negative
 * (p[-1], p - n): NVIDIA's Vulkan driver (580) does not step backwards there, the access
 * lands elsewhere (docs/gpu-runs.md). The element step becomes address arithmetic:
 * ConvertUToPtr(ConvertPtrToU(base) + Element · stride), then the chain's other indexes
 * on that pointer, which is what OpPtrAccessChain means. */
static void element_as_address(phys_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (nonneg_bits(m, i->ops[1], 8) < 64)
    return;
  uint32_t bt = k2s_type_of(m, i->ops[0]);
  k2s_instr *sd = k2s_find_decoration(m, bt, SpvDecorationArrayStride);
  k2s_builder b = {m, k2s_before(i)};
  uint32_t idx = i->ops[1];
  if (k2s_type_width(m, k2s_type_of(m, idx)) != 64)
    idx = k2s_b_sconvert(&b, u64(m), idx); /* the Element is a signed count */
  uint32_t off = k2s_b_imul(&b, u64(m), idx, k2s_const_int(m, u64(m), sd->ops[2]));
  uint32_t addr = k2s_b_iadd(&b, u64(m), address_of(&b, i->ops[0]), off);
  if (i->n_ops == 2) {
    i->opcode = SpvOpConvertUToPtr;
    k2s_instr_set_ops(m, i, &addr, 1);
    return;
  }
  uint32_t p = k2s_b_convert_uto_ptr(&b, bt, addr);
  uint32_t *ops = k2s_alloc(&m->arena, (i->n_ops - 1) * sizeof(uint32_t));
  ops[0] = p;
  memcpy(ops + 1, i->ops + 2, (i->n_ops - 2) * sizeof(uint32_t));
  i->opcode = SpvOpAccessChain;
  k2s_instr_set_ops(m, i, ops, i->n_ops - 1);
}

static uint32_t strip_bitcasts(k2s_module *m, uint32_t ptr)
{
  for (int k = 0; k < 16; k++) {
    k2s_instr *d = k2s_def(m, ptr);
    if (!d || d->opcode != SpvOpBitcast || !pointer_type(m, k2s_type_of(m, d->ops[0])))
      break;
    ptr = d->ops[0];
  }
  return ptr;
}

static bool lower_copy_sized(phys_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint64_t size;
  if (!k2s_const_value(m, i->ops[2], &size) || size > 4096) {
    /* A loop, built once every instruction of the function has its new type (splitting
     * the block now would make the rewrite walk visit the moved instructions twice). */
    c->loops =
        k2s_realloc_array(&m->arena, c->loops, c->n_loops, c->n_loops + 1, sizeof(*c->loops));
    c->loops[c->n_loops++] = i;
    return true;
  }
  uint32_t align = i->n_ops > 4 && (i->ops[3] & SpvMemoryAccessAlignedMask) ? i->ops[4] : 1;
  /* A struct (or any object) copied whole: llvm's memcpy of i8 pointers cast from two
   * pointers to the same type becomes one typed load and store, whatever memory the
   * other side is in. Not when the type has padding: a typed copy moves its members
   * only, and memcpy copies every byte (PoCL does; the host may read them). */
  uint32_t d0 = strip_bitcasts(m, i->ops[0]), s0 = strip_bitcasts(m, i->ops[1]);
  k2s_instr *dpt = pointer_type(m, k2s_type_of(m, d0)), *spt = pointer_type(m, k2s_type_of(m, s0));
  uint64_t tsize = 0, talign = 1;
  if (dpt && spt && dpt->ops[1] == spt->ops[1] && k2s_cl_layout(m, dpt->ops[1], &tsize, &talign) &&
      tsize == size && !k2s_cl_has_padding(m, dpt->ops[1])) {
    k2s_builder b = {m, k2s_before(i)};
    uint32_t t = dpt->ops[1], al = align > talign ? align : (uint32_t)talign;
    uint32_t lops[3] = {s0, SpvMemoryAccessAlignedMask, al};
    uint32_t v = k2s_emit(&b, SpvOpLoad, t, lops, is_phys_value(c, s0) ? 3 : 1);
    uint32_t sops[4] = {d0, v, SpvMemoryAccessAlignedMask, al};
    k2s_emit(&b, SpvOpStore, 0, sops, is_phys_value(c, d0) ? 4 : 2);
    k2s_instr_delete(m, i);
    return true;
  }
  uint32_t unit = align >= 4 && size % 4 == 0 ? 4 : align >= 2 && size % 2 == 0 ? 2 : 1;
  if (size / unit > 256) {
    fail(c, i,
         "a memory copy of more than 256 pieces through physical pointers is not "
         "supported yet");
    return false;
  }
  /* Otherwise unit by unit. The side that is not a buffer (private or local memory)
   * is read or written as units through a cast pointer, which the pointers pass then
   * models over that memory like any other char or int pointer. */
  k2s_builder b = {m, k2s_before(i)};
  uint32_t ut = k2s_type_int(m, unit * 8, false);
  uint32_t side[2] = {i->ops[0], i->ops[1]}, pt[2];
  bool phys[2];
  for (int k = 0; k < 2; k++) {
    phys[k] = is_phys_value(c, side[k]);
    k2s_instr *t = pointer_type(m, k2s_type_of(m, side[k]));
    pt[k] = phys[k] ? physical_pointer(c, ut) : k2s_type_pointer(m, t->ops[0], ut);
    uint32_t stride = unit;
    if (phys[k] && !k2s_find_decoration(m, pt[k], SpvDecorationArrayStride))
      k2s_decorate(m, pt[k], SpvDecorationArrayStride, &stride, 1);
    side[k] = k2s_b_bitcast(&b, pt[k], phys[k] ? strip_bitcasts(m, side[k]) : side[k]);
  }
  for (uint64_t k = 0; k < size / unit; k++) {
    uint32_t idx = k2s_const_uint32(m, (uint32_t)k), at[2];
    for (int s = 0; s < 2; s++) {
      uint32_t ops[2] = {side[s], idx};
      at[s] = k ? k2s_emit(&b, SpvOpPtrAccessChain, pt[s], ops, 2) : side[s];
    }
    uint32_t lops[3] = {at[1], SpvMemoryAccessAlignedMask, unit};
    uint32_t v = k2s_emit(&b, SpvOpLoad, ut, lops, phys[1] ? 3 : 1);
    uint32_t st[4] = {at[0], v, SpvMemoryAccessAlignedMask, unit};
    k2s_emit(&b, SpvOpStore, 0, st, phys[0] ? 4 : 2);
  }
  k2s_instr_delete(m, i);
  return true;
}

/* Before `at`: for (k = lo; k < hi; k++) dst[k] = src[k], where dst and src are pointers
 * to `unit`-byte integers (PhysicalStorageBuffer ones with that ArrayStride, or logical
 * ones the pointers pass models); `phys` says which side is physical. */
static void copy_loop(phys_ctx *c, k2s_instr *at, uint32_t unit, uint32_t lo, uint32_t hi,
                      const uint32_t ptr[2], const uint32_t pt[2], const bool phys[2])
{
  k2s_module *m = c->m;
  uint32_t ut = k2s_type_int(m, unit * 8, false);
  k2s_counted_loop l = k2s_build_counted_loop(m, at, lo, hi);
  k2s_builder b = {m, k2s_before(l.step)};
  uint32_t el[2];
  for (int s = 0; s < 2; s++) {
    uint32_t ops[2] = {ptr[s], l.k};
    el[s] = k2s_emit(&b, SpvOpPtrAccessChain, pt[s], ops, 2);
  }
  uint32_t lops[3] = {el[1], SpvMemoryAccessAlignedMask, unit};
  uint32_t v = k2s_emit(&b, SpvOpLoad, ut, lops, phys[1] ? 3 : 1);
  uint32_t sops[4] = {el[0], v, SpvMemoryAccessAlignedMask, unit};
  k2s_emit(&b, SpvOpStore, 0, sops, phys[0] ? 4 : 2);
}

/* memcpy/memmove with a size known only at run time: when both sides promise 4-byte
 * alignment, a loop of n / 4 words, then a loop of the n % 4 bytes left; otherwise one
 * loop of n bytes. Each side is cast to a pointer to words/bytes: a buffer side is
 * PhysicalStorageBuffer (ArrayStride = the unit, Aligned = the unit), a private or local
 * side is left to the pointers pass, which models a run-time index like any other. */
static bool lower_copy_loop(phys_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t align = i->n_ops > 4 && (i->ops[3] & SpvMemoryAccessAlignedMask) ? i->ops[4] : 1;
  uint32_t n = i->ops[2], nt = k2s_type_of(m, n);
  k2s_instr *ntd = k2s_def(m, nt);
  if (!ntd || ntd->opcode != SpvOpTypeInt) {
    fail(c, i, "a memory copy whose size is not an integer");
    return false;
  }
  uint32_t units[2] = {align >= 4 ? 4 : 1, 1}, n_loops = align >= 4 ? 2 : 1;
  uint32_t zero = k2s_const_int(m, nt, 0), lo = zero;
  for (uint32_t l = 0; l < n_loops; l++) {
    uint32_t unit = units[l], ut = k2s_type_int(m, unit * 8, false);
    k2s_builder b = {m, k2s_before(i)};
    uint32_t ptr[2], pt[2];
    bool phys[2];
    for (int s = 0; s < 2; s++) {
      uint32_t side = i->ops[s];
      phys[s] = is_phys_value(c, side);
      k2s_instr *t = pointer_type(m, k2s_type_of(m, side));
      pt[s] = phys[s] ? physical_pointer(c, ut) : k2s_type_pointer(m, t->ops[0], ut);
      if (phys[s] && !k2s_find_decoration(m, pt[s], SpvDecorationArrayStride))
        k2s_decorate(m, pt[s], SpvDecorationArrayStride, &unit, 1);
      ptr[s] = k2s_b_bitcast(&b, pt[s], phys[s] ? strip_bitcasts(m, side) : side);
    }
    uint32_t hi = n;
    if (unit == 4) {
      /* Words [0, n >> 2), then bytes [4 * (n >> 2), n). */
      uint32_t sh[2] = {n, k2s_const_int(m, nt, 2)};
      hi = k2s_emit(&b, SpvOpShiftRightLogical, nt, sh, 2);
    }
    copy_loop(c, i, unit, lo, hi, ptr, pt, phys);
    if (unit == 4) {
      k2s_builder a = {m, k2s_before(i)};
      uint32_t sh[2] = {hi, k2s_const_int(m, nt, 2)};
      lo = k2s_emit(&a, SpvOpShiftLeftLogical, nt, sh, 2);
    }
  }
  k2s_instr_delete(m, i);
  return !c->failed;
}

/* Operand ids of i that are NULL/undef global pointers become physical ones. */
typedef struct null_fix {
  phys_ctx *c;
  k2s_function *f;
} null_fix;

static uint32_t physical_null(phys_ctx *c, k2s_function *f, uint32_t type)
{
  k2s_module *m = c->m;
  k2s_builder b = {m, k2s_block_start(f->first)};
  return k2s_b_convert_uto_ptr(&b, type, k2s_const_int(m, u64(m), 0));
}

/* A generic NULL next to a generic pointer into a buffer (a phi or select input, a
 * comparison operand) is the physical address 0. */
static bool generic_null_is_physical(phys_ctx *c, k2s_instr *in, k2s_instr *d)
{
  k2s_instr *t = pointer_type(c->m, d->type);
  if (!t || t->ops[0] != SpvStorageClassGeneric)
    return false;
  if (in->result && in->result < c->cap && c->state[in->result] == V_PHYS)
    return true;
  if (in->opcode == SpvOpPtrEqual || in->opcode == SpvOpPtrNotEqual || in->opcode == SpvOpPtrDiff)
    return state_of(c, in->ops[0]) == V_PHYS || state_of(c, in->ops[1]) == V_PHYS;
  return false;
}

static void fix_null_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  null_fix *nf = ud;
  phys_ctx *c = nf->c;
  k2s_module *m = c->m;
  k2s_instr *d = k2s_def(m, *id);
  if (!d || d->block || (d->opcode != SpvOpConstantNull && d->opcode != SpvOpUndef))
    return;
  /* a phi's NULL too: the entry block dominates every predecessor */
  uint32_t t;
  if (is_global_pointer_type(m, d->type))
    t = deep_type(c, d->type);
  else if (generic_null_is_physical(c, in, d))
    t = physical_pointer(c, deep_type(c, pointer_type(m, d->type)->ops[1]));
  else
    return;
  *id = d->opcode == SpvOpUndef ? k2s_undef(m, t) : physical_null(c, nf->f, t);
}

/* Whether generic pointer `id` is made only from local or private pointers (casts,
 * access chains, copies, phis and selects of such, NULL), so that to_global of it is NULL. */
static bool generic_from_logical(phys_ctx *c, uint32_t id, uint8_t *seen)
{
  k2s_module *m = c->m;
  if (id > m->bound)
    return false;
  if (seen[id])
    return true; /* a cycle through a phi: the other inputs decide */
  seen[id] = 1;
  k2s_instr *d = k2s_def(m, id);
  if (!d)
    return false;
  switch (d->opcode) {
  case SpvOpConstantNull:
  case SpvOpUndef: return true;
  case SpvOpPtrCastToGeneric: {
    k2s_instr *t = pointer_type(m, k2s_type_of(m, d->ops[0]));
    return t && (t->ops[0] == SpvStorageClassWorkgroup || t->ops[0] == SpvStorageClassFunction);
  }
  case SpvOpCopyObject:
  case SpvOpBitcast:
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
    return pointer_type(m, k2s_type_of(m, d->ops[0])) && generic_from_logical(c, d->ops[0], seen);
  case SpvOpSelect:
    return generic_from_logical(c, d->ops[1], seen) && generic_from_logical(c, d->ops[2], seen);
  case SpvOpPhi:
    for (uint32_t k = 0; k + 1 < d->n_ops; k += 2)
      if (!generic_from_logical(c, d->ops[k], seen))
        return false;
    return true;
  default: return false;
  }
}

/* i's result type becomes t (def-use follows; nothing to do when it is the same). */
static void retype(k2s_module *m, k2s_instr *i, uint32_t t)
{
  if (t != i->type)
    k2s_instr_set_type(m, i, t);
}

static bool rewrite(phys_ctx *c, k2s_function *f, k2s_instr *i)
{
  k2s_module *m = c->m;
  null_fix nf = {c, f};
  k2s_instr_rewrite_ids(m, i, fix_null_operand, &nf);
  if (i->type)
    retype(m, i, value_type(c, i->result, i->type));
  switch (i->opcode) {
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpPtrAccessChain:
    if (!is_phys_value(c, i->ops[0]))
      return true;
    i->opcode = SpvOpPtrAccessChain; /* InBounds needs Addresses */
    if (!decorate_stride(c, i))
      return false;
    element_as_address(c, i);
    return true;
  case SpvOpLoad:
    if (is_phys_value(c, i->ops[0]))
      ensure_aligned(c, i, 1, i->ops[0]);
    return true;
  case SpvOpStore:
    if (is_phys_value(c, i->ops[0]))
      ensure_aligned(c, i, 2, i->ops[0]);
    return true;
  case SpvOpCopyMemory: {
    if (!is_phys_value(c, i->ops[0]) && !is_phys_value(c, i->ops[1]))
      return true;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t t = k2s_def(m, k2s_type_of(m, i->ops[1]))->ops[1];
    uint64_t al = 1, sz;
    k2s_cl_layout(m, t, &sz, &al);
    if (k2s_cl_has_padding(m, t)) {
      /* Every byte, padding included, as a memcpy of its size would. */
      uint32_t ops[5] = {i->ops[0], i->ops[1], k2s_const_uint32(m, (uint32_t)sz),
                         SpvMemoryAccessAlignedMask, (uint32_t)al};
      i->opcode = SpvOpCopyMemorySized;
      k2s_instr_set_ops(m, i, ops, 5);
      return lower_copy_sized(c, i);
    }
    uint32_t lops[3] = {i->ops[1], SpvMemoryAccessAlignedMask, (uint32_t)al};
    uint32_t v = k2s_emit(&b, SpvOpLoad, t, lops, is_phys_value(c, i->ops[1]) ? 3 : 1);
    uint32_t sops[4] = {i->ops[0], v, SpvMemoryAccessAlignedMask, (uint32_t)al};
    k2s_emit(&b, SpvOpStore, 0, sops, is_phys_value(c, i->ops[0]) ? 4 : 2);
    k2s_instr_delete(m, i);
    return true;
  }
  case SpvOpCopyMemorySized:
    if (!is_phys_value(c, i->ops[0]) && !is_phys_value(c, i->ops[1]))
      return true;
    return lower_copy_sized(c, i);
  case SpvOpPtrEqual:
  case SpvOpPtrNotEqual:
  case SpvOpPtrDiff: {
    if (!is_phys_value(c, i->ops[0]))
      return true;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t x = address_of(&b, i->ops[0]), y = address_of(&b, i->ops[1]);
    uint32_t ops[2] = {x, y};
    if (i->opcode != SpvOpPtrDiff) {
      i->opcode = i->opcode == SpvOpPtrEqual ? SpvOpIEqual : SpvOpINotEqual;
      k2s_instr_set_ops(m, i, ops, 2);
      return true;
    }
    /* OpPtrDiff counts elements: the byte difference over the element size. */
    uint32_t bytes = k2s_emit(&b, SpvOpISub, u64(m), ops, 2);
    uint32_t size = pointee_size(c, k2s_type_of(m, i->ops[0]), NULL);
    uint32_t dops[2] = {bytes, k2s_const_int(m, u64(m), size ? size : 1)};
    uint32_t elems = k2s_emit(&b, SpvOpSDiv, u64(m), dops, 2);
    if (k2s_type_width(m, i->type) != 64) {
      i->opcode = SpvOpUConvert;
      k2s_instr_set_ops(m, i, &elems, 1);
    } else {
      i->opcode = SpvOpCopyObject;
      k2s_instr_set_ops(m, i, &elems, 1);
    }
    return true;
  }
  case SpvOpConvertPtrToU:
    if (!is_phys_value(c, i->ops[0]) || k2s_type_width(m, i->type) == 64)
      return true;
    {
      /* spir (32-bit) size_t: convert the 64-bit address, then narrow. */
      k2s_builder b = {m, k2s_before(i)};
      uint32_t a = address_of(&b, i->ops[0]);
      i->opcode = SpvOpUConvert;
      k2s_instr_set_ops(m, i, &a, 1);
    }
    return true;
  case SpvOpConvertUToPtr:
    if (!is_phys_value(c, i->result) || k2s_type_width(m, k2s_type_of(m, i->ops[0])) == 64)
      return true;
    {
      /* Through set_ops, which keeps def-use right: a later replacement of
       * the narrow operand (kernel-args: parameter → loaded value) must not
       * write it back over the widened one. */
      k2s_builder b = {m, k2s_before(i)};
      uint32_t wide = k2s_b_uconvert(&b, u64(m), i->ops[0]);
      k2s_instr_set_ops(m, i, &wide, 1);
    }
    return true;
  case SpvOpBitcast: {
    bool from_ptr = pointer_type(m, k2s_type_of(m, i->ops[0])) != NULL;
    bool to_ptr = pointer_type(m, i->type) != NULL;
    if (from_ptr && !to_ptr && is_phys_value(c, i->ops[0])) {
      /* Kernel SPIR-V may bitcast a pointer to an integer; Vulkan converts. From
       * SPIR-V 1.5 the integer may be a 2 x 32-bit vector (OpenCL-CTS spirv_new
       * ptr_bitcast), which OpConvertPtrToU cannot make: the 64-bit address,
       * bitcast. */
      k2s_instr *t = k2s_def(m, i->type);
      if (t && t->opcode == SpvOpTypeInt && k2s_type_width(m, i->type) == 64) {
        i->opcode = SpvOpConvertPtrToU;
        return true;
      }
      k2s_builder b = {m, k2s_before(i)};
      uint32_t a = address_of(&b, i->ops[0]);
      i->opcode = t && t->opcode == SpvOpTypeInt ? SpvOpUConvert : SpvOpBitcast;
      k2s_instr_set_ops(m, i, &a, 1);
      return true;
    }
    if (!from_ptr && to_ptr && is_phys_value(c, i->result)) {
      i->opcode = SpvOpConvertUToPtr;
      return true;
    }
    return true;
  }
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit:
    if (!is_phys_value(c, i->ops[0]) && i->opcode != SpvOpPtrCastToGeneric &&
        is_phys_value(c, i->result)) {
      /* to_global of a generic pointer into local or private memory: NULL. */
      uint8_t *seen = k2s_alloc(&m->arena, m->bound + 1);
      if (!generic_from_logical(c, i->ops[0], seen)) {
        fail(c, i,
             "to_global on a generic pointer whose origin physical mode cannot trace to "
             "local or private memory is not supported; use --pointers=auto or "
             "--pointers=logical");
        return false;
      }
      k2s_replace_all_uses(m, i->result, physical_null(c, f, i->type));
      k2s_instr_delete(m, i);
      return true;
    }
    if (!is_phys_value(c, i->ops[0]))
      return true;
    if (!is_phys_value(c, i->result)) {
      /* to_local/to_private of a pointer into a buffer (the classification made sure
       * it can only point into buffers): NULL, which the pointers pass models as its
       * null root (comparisons fold, an access through it is an error there). */
      k2s_replace_all_uses(m, i->result, k2s_const_null(m, i->type));
      k2s_instr_delete(m, i);
      return true;
    }
    /* The same address: generic and global are both PhysicalStorageBuffer now. */
    i->opcode = SpvOpCopyObject;
    k2s_instr_set_ops(c->m, i, i->ops, 1);
    return true;
  case SpvOpGenericPtrMemSemantics:
    if (!is_phys_value(c, i->ops[0]))
      return true;
    /* get_fence of a pointer into a buffer: the global memory fence. */
    k2s_replace_all_uses(c->m, i->result,
                         k2s_const_int(c->m, i->type, SpvMemorySemanticsCrossWorkgroupMemoryMask));
    k2s_instr_delete(c->m, i);
    return true;
  default: return true;
  }
}

/* Module-scope local and private variables the function uses that hold global pointers
 * (a `local global float *p[64]`) hold physical addresses now. */
typedef struct var_fix {
  phys_ctx *c;
} var_fix;

static void fix_variable(void *ud, k2s_instr *in, uint32_t *id)
{
  phys_ctx *c = ((var_fix *)ud)->c;
  k2s_module *m = c->m;
  (void)in;
  k2s_instr *v = k2s_def(m, *id);
  if (!v || v->block || v->opcode != SpvOpVariable)
    return;
  c->why = v;
  if (is_global_sc(v->ops[0])) {
    /* Program-scope data stays logical; one holding a global pointer (`global int *gp =
     * &counter;`) would hold an address of logical memory, which has none. */
    k2s_instr *t = pointer_type(m, v->type);
    if (t && deep_type(c, t->ops[1]) != t->ops[1])
      fail(c, in,
           "this uses a program-scope variable that holds a global pointer (e.g. `global "
           "int *gp = &counter;`); program-scope variables are not buffers with addresses, "
           "so physical mode cannot store their addresses");
    return;
  }
  uint32_t t = deep_type(c, v->type);
  if (t == v->type)
    return;
  k2s_instr_set_type(m, v, t);
  k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v); /* after its new type */
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
}

/* A generic pointer that may point into a buffer or into local/private memory, decided
 * at run time (`p = c ? (int *)global_ptr : (int *)local_ptr`): a buffer pointer is a
 * PhysicalStorageBuffer address while local and private memory have no address in
 * Vulkan, so no one type holds both. Logical mode tags the alternatives instead. */
static bool check_generic_merges(phys_ctx *c, k2s_function *f)
{
  k2s_module *m = c->m;
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body) {
      if ((i->opcode != SpvOpPhi && i->opcode != SpvOpSelect) || state_of(c, i->result) != V_PHYS)
        continue;
      k2s_instr *t = pointer_type(m, i->type);
      if (!t || t->ops[0] != SpvStorageClassGeneric)
        continue;
      uint32_t first = i->opcode == SpvOpSelect ? 1 : 0, step = i->opcode == SpvOpSelect ? 1 : 2;
      for (uint32_t k = first; k < i->n_ops; k += step) {
        k2s_instr *d = k2s_def(m, i->ops[k]);
        if (state_of(c, i->ops[k]) == V_PHYS ||
            (d && !d->block && (d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef)))
          continue;
        k2s_error(m, i,
                  "this generic pointer points into a buffer or into local/private memory, "
                  "chosen at run time; physical mode cannot express that (buffer pointers are "
                  "PhysicalStorageBuffer addresses, local and private memory have none): use "
                  "--pointers=auto or --pointers=logical");
        c->failed = true;
        return false;
      }
    }
  return true;
}

static bool lower_function(phys_ctx *c, k2s_function *f)
{
  k2s_module *m = c->m;
  if (f->physical)
    return true;
  c->why = f->def;
  grow(c);
  var_fix vf = {c};
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      k2s_foreach_id_operand(m, i, fix_variable, &vf);
  if (c->failed)
    return false;
  c->why = f->def;
  /* Classify pointers to a fixed point (phis may name later values). */
  for (int round = 0, changed = 1; changed && round < 64; round++) {
    changed = 0;
    k2s_foreach_instr(p, &f->head)
      changed |= classify(c, p);
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        changed |= classify(c, i);
    if (c->failed)
      return false;
  }
  if (!check_generic_merges(c, f))
    return false;
  uint32_t fn_type = deep_type(c, f->def->ops[1]);
  if (fn_type != f->def->ops[1])
    k2s_instr_set_op(m, f->def, 1, fn_type);
  retype(m, f->def, deep_type(c, f->def->type));
  k2s_foreach_instr(p, &f->head) {
    c->why = p;
    if (p->type)
      retype(m, p, value_type(c, p->result, p->type));
  }
  k2s_foreach_block(b, f)
    k2s_foreach_instr_safe(i, &b->body) {
      c->why = i;
      if (!rewrite(c, f, i) || c->failed) {
        if (!c->failed)
          c->failed = true;
        return false;
      }
    }
  if (c->failed)
    return false;
  for (uint32_t k = 0; k < c->n_loops; k++)
    if (!lower_copy_loop(c, c->loops[k]))
      return false;
  c->n_loops = 0;
  if (physical32(m)) {
    /* Pointers stored in memory are 8 bytes here but 4 in the OpenCL layout. */
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if ((i->opcode == SpvOpLoad && pointer_type(m, i->type) && is_phys_value(c, i->result)) ||
            (i->opcode == SpvOpStore && is_phys_value(c, i->ops[1]))) {
          k2s_error(m, i,
                    "a 32-bit (spir) module stores pointers in memory as 4 bytes; "
                    "physical mode has 8-byte addresses, so it cannot keep that layout");
          return false;
        }
  }
  /* The input's forward declarations of the global pointers that closed a cycle now
   * declare nothing Vulkan accepts (only PhysicalStorageBuffer may be forward-declared). */
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_GLOBAL])
    if (i->opcode == SpvOpTypeForwardPointer && i->n_ops >= 2 && is_global_sc(i->ops[1]) &&
        i->ops[0] < c->cap && c->fwd[i->ops[0]])
      k2s_instr_delete(m, i);
  f->physical = true;
  return true;
}

bool k2s_physical_lower_function(k2s_module *m, k2s_function *f, const k2s_options *o)
{
  phys_ctx c = {.m = m, .o = o};
  return lower_function(&c, f);
}

bool k2s_lower_physical_pointers(k2s_module *m, const k2s_options *o)
{
  if (o->pointers != K2S_POINTERS_PHYSICAL)
    return false;
  if (o->target_env == K2S_ENV_VULKAN_1_1) {
    k2s_error(m, m->sec[K2S_SEC_MEMORY_MODEL].first,
              "--pointers=physical needs --target-env vulkan1.2 or later (PhysicalStorageBuffer64 "
              "addresses and bufferDeviceAddress are Vulkan 1.2 features)");
    return false;
  }
  if (o->missing_features & K2S_FEATURE_INT64) {
    k2s_error(m, m->sec[K2S_SEC_MEMORY_MODEL].first,
              "--pointers=physical needs 64-bit integers for addresses (drop --no-int64)");
    return false;
  }
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  /* One context for the module: a struct mapped once is the same type in every function
   * (a call passing it by value type-checks). */
  phys_ctx c = {.m = m, .o = o};
  k2s_foreach_function(f, m) {
    if (!f->first)
      continue;
    if (!lower_function(&c, f))
      return true;
    changed = true;
  }
  return changed;
}
