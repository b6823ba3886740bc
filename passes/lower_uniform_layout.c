/*
 * uniform-layout: buffer blocks whose OpenCL layout breaks Vulkan's rules → 32-bit words.
 *
 * kernel-args lays out constant-pointer UBOs (-constant-args-ubo) and POD blocks (uniform,
 * storage or push constant) exactly as OpenCL C does (Offset/ArrayStride decorations).
 * Vulkan uniform buffers need the extended (std140) layout, relaxed for vectors: array
 * strides and struct offsets that are multiples of 16, so `constant float *lut` (stride 4)
 * or a POD struct at offset 4 cannot be declared as is; storage buffers and push constants
 * need std430, which a packed struct (an int at offset 1) breaks. Such a block is
 * redeclared as 32-bit words holding the same bytes — `struct { uvec4 w[N]; }` (stride 16)
 * for uniform buffers, `struct { uint w[N]; }` otherwise — and each load through an access
 * chain into it is rebuilt from words: byte offset o is word o/4 (uniform: element o/16,
 * component (o/4)%4); 8/16-bit values are shifted out of their word, 64-bit values join two
 * words, values a packed layout leaves unaligned are put together byte by byte, and
 * vectors, arrays and structs are built member by member. The same rewrite serves a block
 * holding 8/16-bit values on a device without 8/16-bit storage access (--no-8bit-storage,
 * --no-16bit-storage): words need none. Only loads can be rebuilt: a
 * block that is written keeps its layout (and the error says why). With
 * --scalar-block-layout a block legal under the scalar layout stays typed (the device must
 * enable scalarBlockLayout). Blocks that are already legal are left alone.
 * Runs after pointers and builtins: every access is then one OpAccessChain from the
 * variable followed by OpLoad.
 */
#include <string.h>

#include "k2s_builder_ops.h"
#include "k2s_internal.h"

/* A byte offset: a constant part plus an optional run-time uint32 value. */
typedef struct offset {
  uint32_t cst;
  uint32_t dyn;       /* id of a uint32, 0 when none */
  uint32_t dyn_align; /* a power of two the run-time part is a multiple of */
} offset;

typedef struct words_ctx {
  k2s_module *m;
  uint32_t var;
  uint32_t u32, ptr_u32;
  bool vec4;         /* uniform buffer: words are grouped in uvec4 elements */
  uint32_t n_values; /* scalars built so far for one load (a bound on code growth) */
} words_ctx;

#define MAX_SCALARS_PER_LOAD 4096

static uint32_t array_stride(const k2s_module *m, uint32_t arr)
{
  k2s_instr *d = k2s_find_decoration(m, arr, SpvDecorationArrayStride);
  if (d && d->n_ops >= 3)
    return d->ops[2];
  uint64_t s = 0, a = 1;
  k2s_cl_layout(m, k2s_def(m, arr)->ops[0], &s, &a);
  return (uint32_t)s;
}

static uint32_t member_offset(const k2s_module *m, uint32_t st, uint32_t member)
{
  k2s_instr *d = k2s_find_member_decoration(m, st, member, SpvDecorationOffset);
  if (d && d->n_ops >= 4)
    return d->ops[3];
  return (uint32_t)k2s_cl_member_offset(m, st, member);
}

static uint64_t type_size(const k2s_module *m, uint32_t type)
{
  uint64_t s = 0, a = 1;
  if (!k2s_cl_layout(m, type, &s, &a))
    return 0;
  return s;
}

/* Size in bytes of a vector's components only (vec3 is 12 bytes here, not 16). */
static uint64_t packed_vector_size(const k2s_module *m, uint32_t type)
{
  return (uint64_t)k2s_type_width(m, type) / 8 * k2s_vector_size(m, type);
}

static uint64_t round16(uint64_t v)
{
  return (v + 15) / 16 * 16;
}

/* Is `type` placed at byte offset `off` legal under Vulkan's extended (std140)
 * uniform layout with relaxed vector placement (core since Vulkan 1.1)? */
static bool extended_ok(const k2s_module *m, uint32_t type, uint64_t off)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return off % (t->ops[0] / 8) == 0;
  case SpvOpTypeVector: {
    uint64_t cs = k2s_type_width(m, type) / 8, total = packed_vector_size(m, type);
    if (off % cs)
      return false;
    return total <= 16 ? off % 16 + total <= 16 : off % 16 == 0;
  }
  case SpvOpTypeArray: {
    uint32_t stride = array_stride(m, type);
    return stride % 16 == 0 && off % 16 == 0 && stride >= type_size(m, t->ops[0]) &&
           extended_ok(m, t->ops[0], off);
  }
  case SpvOpTypeStruct: {
    if (off % 16)
      return false;
    uint64_t next = 0; /* first offset the next member may use */
    for (uint32_t k = 0; k < t->n_ops; k++) {
      uint64_t mo = member_offset(m, type, k);
      if (mo < next || !extended_ok(m, t->ops[k], off + mo))
        return false;
      k2s_instr *mt = k2s_def(m, t->ops[k]);
      uint64_t ms = mt->opcode == SpvOpTypeVector ? packed_vector_size(m, t->ops[k])
                                                  : type_size(m, t->ops[k]);
      next = mo + ms;
      /* std140: what follows a struct or an array starts at its 16-byte-rounded end. */
      if (mt->opcode == SpvOpTypeStruct || mt->opcode == SpvOpTypeArray)
        next = round16(next);
    }
    return true;
  }
  default: return false;
  }
}

/* std430 base alignment (storage buffers, push constants): scalars their size, vectors
 * of 2 twice the component, of 3 or 4 four times; arrays their element's; structs their
 * largest member's. */
static uint64_t std430_align(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  switch (t ? t->opcode : 0) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return t->ops[0] / 8;
  case SpvOpTypeVector: return k2s_type_width(m, type) / 8 * (t->ops[1] == 2 ? 2 : 4);
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return std430_align(m, t->ops[0]);
  case SpvOpTypeStruct: {
    uint64_t a = 1;
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (std430_align(m, t->ops[k]) > a)
        a = std430_align(m, t->ops[k]);
    return a;
  }
  default: return 1;
  }
}

/* Is `type` at offset `off` legal under std430 with relaxed vector placement? */
static bool std430_ok(const k2s_module *m, uint32_t type, uint64_t off)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return off % (t->ops[0] / 8) == 0;
  case SpvOpTypeVector: {
    uint64_t cs = k2s_type_width(m, type) / 8, total = packed_vector_size(m, type);
    if (off % cs)
      return false;
    return total <= 16 ? off % 16 + total <= 16 : off % 16 == 0;
  }
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: {
    uint32_t stride = array_stride(m, type);
    uint64_t a = std430_align(m, t->ops[0]);
    return stride % a == 0 && off % a == 0 && stride >= type_size(m, t->ops[0]) &&
           std430_ok(m, t->ops[0], off);
  }
  case SpvOpTypeStruct: {
    if (off % std430_align(m, type))
      return false;
    uint64_t next = 0;
    for (uint32_t k = 0; k < t->n_ops; k++) {
      uint64_t mo = member_offset(m, type, k);
      if (mo < next || !std430_ok(m, t->ops[k], off + mo))
        return false;
      k2s_instr *mt = k2s_def(m, t->ops[k]);
      next = mo + (mt->opcode == SpvOpTypeVector ? packed_vector_size(m, t->ops[k])
                                                 : type_size(m, t->ops[k]));
    }
    return true;
  }
  default: return false;
  }
}

/* The scalar block layout (VK_EXT_scalar_block_layout): every scalar aligned to its size. */
static bool scalar_ok(const k2s_module *m, uint32_t type, uint64_t off)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return off % (t->ops[0] / 8) == 0;
  case SpvOpTypeVector: return off % (k2s_type_width(m, type) / 8) == 0;
  case SpvOpTypeArray: {
    uint32_t stride = array_stride(m, type);
    uint64_t es = type_size(m, t->ops[0]);
    return stride >= es && scalar_ok(m, t->ops[0], off) && scalar_ok(m, t->ops[0], off + stride);
  }
  case SpvOpTypeStruct: {
    uint64_t next = 0;
    for (uint32_t k = 0; k < t->n_ops; k++) {
      uint64_t mo = member_offset(m, type, k);
      if (mo < next || !scalar_ok(m, t->ops[k], off + mo))
        return false;
      k2s_instr *mt = k2s_def(m, t->ops[k]);
      next = mo + (mt->opcode == SpvOpTypeVector ? packed_vector_size(m, t->ops[k])
                                                 : type_size(m, t->ops[k]));
    }
    return true;
  }
  default: return false;
  }
}

/* Does the type hold 8-bit (16-bit) values the device cannot load from buffer memory
 * (--no-8bit-storage, --no-16bit-storage)? Read from words, they need no such access. */
static bool has_narrow(const k2s_module *m, uint32_t type, uint32_t missing)
{
  k2s_instr *t = k2s_def(m, type);
  switch (t ? t->opcode : 0) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
    return (t->ops[0] == 8 && (missing & K2S_FEATURE_STORAGE8)) ||
           (t->ops[0] == 16 && (missing & K2S_FEATURE_STORAGE16));
  case SpvOpTypeVector:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return has_narrow(m, t->ops[0], missing);
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (has_narrow(m, t->ops[k], missing))
        return true;
    return false;
  default: return false;
  }
}

/* ---- offsets ------------------------------------------------------------------------------- */

static uint32_t to_u32(k2s_builder *b, uint32_t v)
{
  k2s_module *m = b->m;
  uint32_t u32 = k2s_type_int(m, 32, false);
  uint32_t t = k2s_type_of(m, v);
  k2s_instr *td = k2s_def(m, t);
  if (t == u32)
    return v;
  if (td->ops[0] == 32)
    return k2s_b_bitcast(b, u32, v);
  if (td->ops[0] > 32 || !td->ops[1])
    return k2s_b_uconvert(b, u32, v); /* truncation wraps like the byte address does */
  /* A narrow signed index: sign-extend, then view as unsigned. */
  uint32_t wide = k2s_b_sconvert(b, k2s_type_int(m, 32, true), v);
  return k2s_b_bitcast(b, u32, wide);
}

static offset add_index(k2s_builder *b, offset o, uint32_t index, uint64_t scale)
{
  k2s_module *m = b->m;
  uint64_t v;
  if (k2s_const_value(m, index, &v)) {
    k2s_instr *t = k2s_def(m, k2s_type_of(m, index));
    if (t->ops[0] < 64 && t->ops[1] && (v >> (t->ops[0] - 1)) & 1)
      v |= ~0ull << t->ops[0]; /* sign-extend a negative constant index */
    o.cst += (uint32_t)(v * scale);
    return o;
  }
  uint32_t u32 = k2s_type_int(m, 32, false);
  uint32_t x = to_u32(b, index);
  if (scale != 1)
    x = k2s_b_imul(b, u32, x, k2s_const_uint32(m, (uint32_t)scale));
  uint32_t a = (uint32_t)(scale & -scale); /* the largest power of two dividing scale */
  if (!a || a > 16)
    a = 16;
  o.dyn_align = o.dyn ? (a < o.dyn_align ? a : o.dyn_align) : a;
  o.dyn = o.dyn ? k2s_b_iadd(b, u32, o.dyn, x) : x;
  return o;
}

static offset plus(offset o, uint32_t bytes)
{
  o.cst += bytes;
  return o;
}

/* Is the offset a multiple of `align` (a power of two) whatever the run-time part is? */
static bool aligned(offset o, uint32_t align)
{
  return o.cst % align == 0 && (!o.dyn || o.dyn_align % align == 0);
}

/* ---- building values from words -------------------------------------------------------- */

/* The 32-bit word holding byte offset o (o rounded down to a multiple of 4), and the
 * bit shift of o inside it. */
static uint32_t load_word(words_ctx *c, k2s_builder *b, offset o, uint32_t *shift)
{
  k2s_module *m = c->m;
  uint32_t widx, comp;
  if (!o.dyn) {
    widx = k2s_const_uint32(m, c->vec4 ? o.cst / 16 : o.cst / 4);
    comp = k2s_const_uint32(m, o.cst / 4 % 4);
    if (shift)
      *shift = k2s_const_uint32(m, o.cst % 4 * 8);
  } else {
    uint32_t full = o.cst ? k2s_b_iadd(b, c->u32, o.dyn, k2s_const_uint32(m, o.cst)) : o.dyn;
    uint32_t w = k2s_b_shift_right_logical(b, c->u32, full, k2s_const_uint32(m, 2));
    widx = c->vec4 ? k2s_b_shift_right_logical(b, c->u32, full, k2s_const_uint32(m, 4)) : w;
    comp = c->vec4 ? k2s_b_bitwise_and(b, c->u32, w, k2s_const_uint32(m, 3)) : 0;
    if (shift) {
      uint32_t lo = k2s_b_bitwise_and(b, c->u32, full, k2s_const_uint32(m, 3));
      *shift = k2s_b_shift_left_logical(b, c->u32, lo, k2s_const_uint32(m, 3));
    }
  }
  uint32_t ops[4] = {c->var, k2s_const_uint32(m, 0), widx, comp};
  uint32_t ptr = k2s_emit(b, SpvOpAccessChain, c->ptr_u32, ops, c->vec4 ? 4 : 3);
  return k2s_b_load(b, c->u32, ptr);
}

/* `bytes` (1..4) bytes at an offset with no useful alignment, as a uint32: byte k is
 * shifted out of its own word (a packed struct can put an int across two words). */
static uint32_t load_bytes(words_ctx *c, k2s_builder *b, offset o, uint32_t bytes)
{
  k2s_module *m = c->m;
  uint32_t v = 0;
  for (uint32_t k = 0; k < bytes; k++) {
    uint32_t shift;
    uint32_t w = load_word(c, b, plus(o, k), &shift);
    w = k2s_b_shift_right_logical(b, c->u32, w, shift);
    w = k2s_b_bitwise_and(b, c->u32, w, k2s_const_uint32(m, 0xff));
    if (k)
      w = k2s_b_shift_left_logical(b, c->u32, w, k2s_const_uint32(m, 8 * k));
    v = k ? k2s_b_bitwise_or(b, c->u32, v, w) : w;
  }
  return v;
}

static uint32_t build_value(words_ctx *c, k2s_builder *b, uint32_t type, offset o,
                            const k2s_instr *why);

static uint32_t too_big(k2s_module *m, const k2s_instr *why)
{
  k2s_error(m, why,
            "this load from a buffer block stored as words reads more than %u "
            "scalars; copy the data in smaller pieces or drop "
            "-constant-args-ubo/-pod-ubo",
            MAX_SCALARS_PER_LOAD);
  return 0;
}

static uint32_t build_scalar(words_ctx *c, k2s_builder *b, uint32_t type, offset o,
                             const k2s_instr *why)
{
  k2s_module *m = c->m;
  uint32_t width = k2s_def(m, type)->ops[0];
  if (++c->n_values > MAX_SCALARS_PER_LOAD)
    return too_big(m, why);
  if (width == 32) {
    uint32_t w = aligned(o, 4) ? load_word(c, b, o, NULL) : load_bytes(c, b, o, 4);
    return type == c->u32 ? w : k2s_b_bitcast(b, type, w);
  }
  if (width == 64) {
    /* Two words, low first; a uvec2 bitcasts to any 64-bit scalar. */
    bool al = aligned(o, 4);
    uint32_t lo = al ? load_word(c, b, o, NULL) : load_bytes(c, b, o, 4);
    uint32_t hi = al ? load_word(c, b, plus(o, 4), NULL) : load_bytes(c, b, plus(o, 4), 4);
    uint32_t parts[2] = {lo, hi};
    uint32_t v2 = k2s_emit(b, SpvOpCompositeConstruct, k2s_type_vector(m, c->u32, 2), parts, 2);
    return k2s_b_bitcast(b, type, v2);
  }
  if (width == 16 && !aligned(o, 2)) {
    uint32_t narrow = k2s_type_int(m, 16, false);
    uint32_t v = k2s_b_uconvert(b, narrow, load_bytes(c, b, o, 2));
    return type == narrow ? v : k2s_b_bitcast(b, type, v);
  }
  if (width == 8 || width == 16) {
    uint32_t shift;
    uint32_t w = load_word(c, b, o, &shift);
    uint64_t sv;
    if (!k2s_const_value(m, shift, &sv) || sv)
      w = k2s_b_shift_right_logical(b, c->u32, w, shift);
    uint32_t narrow = k2s_type_int(m, width, false);
    uint32_t v = k2s_b_uconvert(b, narrow, w);
    return type == narrow ? v : k2s_b_bitcast(b, type, v);
  }
  k2s_error(m, why, "cannot read a %u-bit value from a buffer block stored as words", width);
  return 0;
}

static uint32_t build_composite(words_ctx *c, k2s_builder *b, uint32_t type, uint32_t n,
                                const uint32_t *member_types, const uint32_t *offsets, offset o,
                                const k2s_instr *why)
{
  k2s_module *m = c->m;
  uint32_t *parts = k2s_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
  for (uint32_t k = 0; k < n; k++) {
    parts[k] = build_value(c, b, member_types[k], plus(o, offsets[k]), why);
    if (!parts[k])
      return 0;
  }
  return k2s_emit(b, SpvOpCompositeConstruct, type, parts, n);
}

static uint32_t build_value(words_ctx *c, k2s_builder *b, uint32_t type, offset o,
                            const k2s_instr *why)
{
  k2s_module *m = c->m;
  k2s_instr *t = k2s_def(m, type);
  switch (t ? t->opcode : 0) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return build_scalar(c, b, type, o, why);
  case SpvOpTypeVector: {
    uint32_t n = t->ops[1], cs = k2s_type_width(m, type) / 8;
    uint32_t types[16], offs[16];
    for (uint32_t k = 0; k < n && k < 16; k++)
      types[k] = t->ops[0], offs[k] = k * cs;
    return build_composite(c, b, type, n, types, offs, o, why);
  }
  case SpvOpTypeArray: {
    uint64_t len;
    if (!k2s_const_value(m, t->ops[1], &len)) {
      k2s_error(m, why,
                "cannot read an array whose length is not a constant from a buffer "
                "block stored as words");
      return 0;
    }
    if (len > MAX_SCALARS_PER_LOAD)
      return too_big(m, why);
    uint32_t stride = array_stride(m, type);
    uint32_t *types = k2s_alloc(&m->arena, (len + 1) * sizeof(uint32_t));
    uint32_t *offs = k2s_alloc(&m->arena, (len + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < len; k++)
      types[k] = t->ops[0], offs[k] = k * stride;
    return build_composite(c, b, type, (uint32_t)len, types, offs, o, why);
  }
  case SpvOpTypeStruct: {
    uint32_t *offs = k2s_alloc(&m->arena, (t->n_ops + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < t->n_ops; k++)
      offs[k] = member_offset(m, type, k);
    return build_composite(c, b, type, t->n_ops, t->ops, offs, o, why);
  }
  default:
    k2s_error(m, why, "cannot read a value of type %%%u from a buffer block stored as words", type);
    return 0;
  }
}

/* ---- rewriting the accesses ----------------------------------------------------------------- */

/* Replace `load` (of a value of `type` at byte offset o) by a value built from words. */
static bool rewrite_load(words_ctx *c, k2s_instr *load, offset o)
{
  k2s_builder b = {c->m, k2s_before(load)};
  c->n_values = 0;
  uint32_t v = build_value(c, &b, load->type, o, load);
  if (!v)
    return false;
  k2s_replace_all_uses(c->m, load->result, v);
  k2s_instr_delete(c->m, load);
  return true;
}

static bool unsupported_use(words_ctx *c, k2s_instr *user)
{
  k2s_error(c->m, user,
            "%s of a buffer block whose OpenCL layout Vulkan's layout rules cannot express "
            "(stored as 32-bit words) is not supported; drop -constant-args-ubo/-pod-ubo or "
            "pass --scalar-block-layout",
            k2s_opcode_name(user->opcode));
  return false;
}

/* The byte offset an access chain from the variable selects. */
static bool chain_offset(words_ctx *c, k2s_instr *chain, uint32_t pointee, offset *out)
{
  k2s_module *m = c->m;
  k2s_builder b = {m, k2s_before(chain)};
  offset o = {0, 0, 0};
  uint32_t t = pointee;
  for (uint32_t k = 1; k < chain->n_ops; k++) {
    k2s_instr *td = k2s_def(m, t);
    uint32_t idx = chain->ops[k];
    uint64_t v;
    switch (td ? td->opcode : 0) {
    case SpvOpTypeStruct:
      if (!k2s_const_value(m, idx, &v) || v >= td->n_ops)
        return unsupported_use(c, chain);
      o = plus(o, member_offset(m, t, (uint32_t)v));
      t = td->ops[v];
      break;
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
      o = add_index(&b, o, idx, array_stride(m, t));
      t = td->ops[0];
      break;
    case SpvOpTypeVector:
      o = add_index(&b, o, idx, k2s_type_width(m, t) / 8);
      t = td->ops[0];
      break;
    default: return unsupported_use(c, chain);
    }
  }
  *out = o;
  return true;
}

static k2s_instr **users_of(k2s_module *m, uint32_t id, uint32_t *n)
{
  uint32_t cnt = 0;
  k2s_foreach_use(u, m, id) cnt++;
  k2s_instr **list = k2s_alloc(&m->arena, (cnt + 1) * sizeof(*list));
  *n = 0;
  k2s_foreach_use(u, m, id)
  {
    bool seen = false;
    for (uint32_t k = 0; k < *n; k++)
      seen |= list[k] == u->user;
    if (!seen)
      list[(*n)++] = u->user;
  }
  return list;
}

static bool rewrite_chain(words_ctx *c, k2s_instr *chain, uint32_t pointee)
{
  k2s_module *m = c->m;
  offset o;
  if (!chain_offset(c, chain, pointee, &o))
    return false;
  uint32_t n;
  k2s_instr **users = users_of(m, chain->result, &n);
  for (uint32_t k = 0; k < n; k++) {
    k2s_instr *u = users[k];
    if (!u->block) /* OpName, decorations */
      continue;
    if (u->opcode != SpvOpLoad || u->ops[0] != chain->result)
      return unsupported_use(c, u);
    if (!rewrite_load(c, u, o))
      return false;
  }
  k2s_instr_delete(m, chain);
  return true;
}

/* Only loads read the block (through access chains from it, or whole)? */
static bool read_only(k2s_module *m, k2s_instr *var)
{
  uint32_t n;
  k2s_instr **users = users_of(m, var->result, &n);
  for (uint32_t k = 0; k < n; k++) {
    k2s_instr *u = users[k];
    if (!u->block || (u->opcode == SpvOpLoad && u->ops[0] == var->result))
      continue;
    if (u->opcode != SpvOpAccessChain && u->opcode != SpvOpInBoundsAccessChain)
      return false;
    uint32_t nc;
    k2s_instr **cu = users_of(m, u->result, &nc);
    for (uint32_t j = 0; j < nc; j++)
      if (cu[j]->block && (cu[j]->opcode != SpvOpLoad || cu[j]->ops[0] != u->result))
        return false;
  }
  return true;
}

static bool rewrite_variable(k2s_module *m, k2s_instr *var, uint32_t block)
{
  uint64_t size = 0;
  k2s_instr *st = k2s_def(m, block);
  for (uint32_t k = 0; k < st->n_ops; k++) {
    uint64_t end = member_offset(m, block, k) + type_size(m, st->ops[k]);
    if (end > size)
      size = end;
  }
  uint32_t sc = var->ops[0];
  words_ctx c = {m, var->result, k2s_type_int(m, 32, false), 0, sc == SpvStorageClassUniform, 0};
  c.ptr_u32 = k2s_type_pointer(m, sc, c.u32);
  uint32_t n;
  k2s_instr **users = users_of(m, var->result, &n);
  for (uint32_t k = 0; k < n; k++) {
    k2s_instr *u = users[k];
    if (!u->block)
      continue;
    bool ok;
    if ((u->opcode == SpvOpAccessChain || u->opcode == SpvOpInBoundsAccessChain) &&
        u->ops[0] == var->result)
      ok = rewrite_chain(&c, u, block);
    else if (u->opcode == SpvOpLoad && u->ops[0] == var->result)
      ok = rewrite_load(&c, u, (offset){0, 0, 0});
    else
      ok = unsupported_use(&c, u);
    if (!ok)
      return false;
  }
  /* struct { uvec4 w[N]; } (stride 16) for uniform buffers, struct { uint w[N]; }
   * otherwise: legal under every layout, and no larger than the bytes (rounded). */
  uint32_t elem = c.vec4 ? k2s_type_vector(m, c.u32, 4) : c.u32;
  uint32_t stride = c.vec4 ? 16 : 4;
  uint32_t n_words = (uint32_t)((size + stride - 1) / stride);
  /* A storage buffer ending in a runtime array (a `constant uchar *` argument) stays
   * unsized: struct { uint w[]; }. */
  k2s_instr *last = st->n_ops ? k2s_def(m, st->ops[st->n_ops - 1]) : NULL;
  bool runtime = last && last->opcode == SpvOpTypeRuntimeArray;
  uint32_t words = runtime ? k2s_type_runtime_array(m, elem)
                           : k2s_type_array(m, elem, k2s_const_uint32(m, n_words ? n_words : 1));
  if (!k2s_find_decoration(m, words, SpvDecorationArrayStride))
    k2s_decorate(m, words, SpvDecorationArrayStride, &stride, 1);
  k2s_retype_block_variable(m, var, words);
  return true;
}

bool k2s_lower_uniform_layout(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = false;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL])
  {
    uint32_t sc = v->opcode == SpvOpVariable ? v->ops[0] : 0;
    if (sc != SpvStorageClassUniform && sc != SpvStorageClassStorageBuffer &&
        sc != SpvStorageClassPushConstant)
      continue;
    uint32_t block = k2s_def(m, v->type)->ops[1];
    k2s_instr *st = k2s_def(m, block);
    if (!st || st->opcode != SpvOpTypeStruct || !k2s_find_decoration(m, block, SpvDecorationBlock))
      continue;
    bool legal = sc == SpvStorageClassUniform ? extended_ok(m, block, 0) : std430_ok(m, block, 0);
    bool narrow = has_narrow(m, block, o->missing_features);
    if (!narrow && (legal || (o->scalar_block_layout && scalar_ok(m, block, 0))))
      continue;
    /* A storage buffer the kernel writes is the pointers pass's to lay out. */
    if (sc == SpvStorageClassStorageBuffer && !read_only(m, v))
      continue;
    changed = true;
    if (!rewrite_variable(m, v, block))
      return true;
  }
  return changed;
}
