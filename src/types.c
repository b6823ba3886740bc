/* Types and constants: find-or-create through a hash table over the global
 * section, so no duplicate type or constant is ever made. Aggregates that may
 * need distinct decorations (structs) are always fresh. */
#include <math.h>
#include <string.h>

#include "k2s_internal.h"

struct k2s_intern_entry {
  k2s_intern_entry *next;
  uint64_t hash;
  k2s_instr *instr;
};

static bool internable(uint16_t op)
{
  switch (op) {
  case SpvOpTypeVoid:
  case SpvOpTypeBool:
  case SpvOpTypeInt:
  case SpvOpTypeFloat:
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
  case SpvOpTypePointer:
  case SpvOpTypeFunction:
  case SpvOpTypeSampler:
  case SpvOpTypeImage:
  case SpvOpTypeSampledImage:
  case SpvOpTypeEvent:
  case SpvOpConstant:
  case SpvOpConstantTrue:
  case SpvOpConstantFalse:
  case SpvOpConstantNull:
  case SpvOpConstantComposite:
  case SpvOpUndef:
    return true;
  default:
    return false;
  }
}

static uint64_t hash_words(uint16_t op, uint32_t type, const uint32_t *ops, uint32_t n)
{
  uint64_t h = 0xcbf29ce484222325ull ^ op;
  h = (h ^ type) * 0x100000001b3ull;
  for (uint32_t i = 0; i < n; i++)
    h = (h ^ ops[i]) * 0x100000001b3ull;
  return h ^ n;
}

static void intern_insert(k2s_module *m, k2s_instr *i)
{
  uint64_t h = hash_words(i->opcode, i->type, i->ops, i->n_ops);
  if (m->intern_count * 2 >= m->intern_cap) {
    uint32_t cap = m->intern_cap ? m->intern_cap * 2 : 256;
    k2s_intern_entry **t = k2s_alloc(&m->arena, cap * sizeof(*t));
    for (uint32_t b = 0; b < m->intern_cap; b++)
      for (k2s_intern_entry *e = m->intern[b], *n; e; e = n) {
        n = e->next;
        e->next = t[e->hash & (cap - 1)];
        t[e->hash & (cap - 1)] = e;
      }
    m->intern = t;
    m->intern_cap = cap;
  }
  k2s_intern_entry *e = k2s_alloc(&m->arena, sizeof(*e));
  e->hash = h;
  e->instr = i;
  e->next = m->intern[h & (m->intern_cap - 1)];
  m->intern[h & (m->intern_cap - 1)] = e;
  m->intern_count++;
}

static void intern_rebuild(k2s_module *m)
{
  m->intern = NULL;
  m->intern_cap = m->intern_count = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (internable(i->opcode))
      intern_insert(m, i);
  m->intern_valid = true;
}

void k2s_invalidate_intern(k2s_module *m) { m->intern_valid = false; }

uint32_t k2s_intern(k2s_module *m, uint16_t opcode, uint32_t type, const uint32_t *ops,
                    uint32_t n_ops)
{
  if (!m->intern_valid)
    intern_rebuild(m);
  uint64_t h = hash_words(opcode, type, ops, n_ops);
  if (m->intern_cap)
    for (k2s_intern_entry *e = m->intern[h & (m->intern_cap - 1)]; e; e = e->next) {
      k2s_instr *i = e->instr;
      if (e->hash == h && i->opcode == opcode && i->type == type && i->n_ops == n_ops &&
          (n_ops == 0 || memcmp(i->ops, ops, n_ops * sizeof(uint32_t)) == 0))
        return i->result;
    }
  k2s_instr *i = k2s_instr_new(m, opcode, type, k2s_new_id(m), ops, n_ops);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], i);
  intern_insert(m, i);
  return i->result;
}

uint32_t k2s_type_void(k2s_module *m) { return k2s_intern(m, SpvOpTypeVoid, 0, NULL, 0); }
uint32_t k2s_type_bool(k2s_module *m) { return k2s_intern(m, SpvOpTypeBool, 0, NULL, 0); }

uint32_t k2s_type_int(k2s_module *m, uint32_t width, bool is_signed)
{
  uint32_t ops[2] = {width, is_signed};
  return k2s_intern(m, SpvOpTypeInt, 0, ops, 2);
}

uint32_t k2s_type_float(k2s_module *m, uint32_t width)
{
  return k2s_intern(m, SpvOpTypeFloat, 0, &width, 1);
}

uint32_t k2s_type_vector(k2s_module *m, uint32_t elem, uint32_t n)
{
  uint32_t ops[2] = {elem, n};
  return k2s_intern(m, SpvOpTypeVector, 0, ops, 2);
}

uint32_t k2s_type_array(k2s_module *m, uint32_t elem, uint32_t length_id)
{
  uint32_t ops[2] = {elem, length_id};
  return k2s_intern(m, SpvOpTypeArray, 0, ops, 2);
}

uint32_t k2s_type_runtime_array(k2s_module *m, uint32_t elem)
{
  return k2s_intern(m, SpvOpTypeRuntimeArray, 0, &elem, 1);
}

uint32_t k2s_type_pointer(k2s_module *m, uint32_t storage_class, uint32_t pointee)
{
  uint32_t ops[2] = {storage_class, pointee};
  return k2s_intern(m, SpvOpTypePointer, 0, ops, 2);
}

uint32_t k2s_type_function(k2s_module *m, uint32_t ret, const uint32_t *params, uint32_t n)
{
  uint32_t ops[64];
  if (n >= 64) {
    k2s_error(m, NULL, "a function type with %u parameters is beyond k2s's limit of 63", n);
    n = 63;
  }
  ops[0] = ret;
  if (n)
    memcpy(ops + 1, params, n * sizeof(uint32_t));
  return k2s_intern(m, SpvOpTypeFunction, 0, ops, n + 1);
}

uint32_t k2s_type_struct(k2s_module *m, const uint32_t *members, uint32_t n)
{
  k2s_instr *i = k2s_instr_new(m, SpvOpTypeStruct, 0, k2s_new_id(m), members, n);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], i);
  return i->result;
}

void k2s_retype_block_variable(k2s_module *m, k2s_instr *var, uint32_t words)
{
  uint32_t zero = 0;
  uint32_t st = k2s_type_struct(m, &words, 1);
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  k2s_member_decorate(m, st, 0, SpvDecorationOffset, &zero, 1);
  k2s_instr_set_type(m, var, k2s_type_pointer(m, var->ops[0], st));
  /* The new pointer type was appended to the globals: the variable follows it. */
  k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], var);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], var);
}

uint32_t k2s_type_width(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return 0;
  if (t->opcode == SpvOpTypeVector && t->n_ops >= 1)
    t = k2s_def(m, t->ops[0]);
  if (t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat) && t->n_ops >= 1)
    return t->ops[0];
  return 0;
}

uint32_t k2s_vector_size(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (t && t->opcode == SpvOpTypeVector && t->n_ops >= 2)
    return t->ops[1];
  return 1;
}

uint32_t k2s_scalar_type(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  if (t && t->opcode == SpvOpTypeVector && t->n_ops >= 1)
    return t->ops[0];
  return type;
}

uint32_t k2s_const_int(k2s_module *m, uint32_t type, uint64_t value)
{
  uint32_t w = k2s_type_width(m, type);
  if (w < 32 && w)
    value &= (1ull << w) - 1; /* narrow constants keep their high bits zero */
  uint32_t ops[2] = {(uint32_t)value, (uint32_t)(value >> 32)};
  return k2s_intern(m, SpvOpConstant, type, ops, w == 64 ? 2 : 1);
}

uint32_t k2s_const_uint32(k2s_module *m, uint32_t value)
{
  return k2s_const_int(m, k2s_type_int(m, 32, false), value);
}

uint32_t k2s_const_float(k2s_module *m, uint32_t type, double value)
{
  uint32_t w = k2s_type_width(m, type);
  if (w == 64) {
    uint64_t bits;
    memcpy(&bits, &value, 8);
    uint32_t ops[2] = {(uint32_t)bits, (uint32_t)(bits >> 32)};
    return k2s_intern(m, SpvOpConstant, type, ops, 2);
  }
  float f = (float)value;
  uint32_t bits;
  memcpy(&bits, &f, 4);
  if (w == 16) {
    /* Only exact small values are asked for here; convert by hand. */
    uint32_t sign = (bits >> 16) & 0x8000u;
    int32_t exp = (int32_t)((bits >> 23) & 0xff) - 127 + 15;
    uint32_t mant = (bits >> 13) & 0x3ffu;
    uint32_t h = f == 0 ? sign : exp <= 0 ? sign : exp >= 31 ? sign | 0x7c00u
                                                             : sign | (uint32_t)exp << 10 | mant;
    if (isnan(f))
      h = 0x7e00u;
    return k2s_intern(m, SpvOpConstant, type, &h, 1);
  }
  return k2s_intern(m, SpvOpConstant, type, &bits, 1);
}

uint32_t k2s_const_bool(k2s_module *m, bool value)
{
  return k2s_intern(m, value ? SpvOpConstantTrue : SpvOpConstantFalse, k2s_type_bool(m), NULL, 0);
}

uint32_t k2s_const_null(k2s_module *m, uint32_t type)
{
  return k2s_intern(m, SpvOpConstantNull, type, NULL, 0);
}

uint32_t k2s_const_composite(k2s_module *m, uint32_t type, const uint32_t *parts, uint32_t n)
{
  return k2s_intern(m, SpvOpConstantComposite, type, parts, n);
}

uint32_t k2s_undef(k2s_module *m, uint32_t type) { return k2s_intern(m, SpvOpUndef, type, NULL, 0); }

bool k2s_const_value(const k2s_module *m, uint32_t id, uint64_t *value)
{
  k2s_instr *c = k2s_def(m, id);
  if (!c)
    return false;
  if (c->opcode == SpvOpConstantNull && k2s_type_width(m, c->type)) {
    *value = 0;
    return true;
  }
  if (c->opcode != SpvOpConstant || c->n_ops < 1)
    return false;
  k2s_instr *t = k2s_def(m, c->type);
  if (!t || t->opcode != SpvOpTypeInt)
    return false;
  *value = c->ops[0] | (c->n_ops > 1 ? (uint64_t)c->ops[1] << 32 : 0);
  return true;
}

static int64_t sext(uint64_t v, uint32_t w)
{
  return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

bool k2s_fold_int(const k2s_module *m, const k2s_instr *i, const uint64_t *vals, uint64_t *out)
{
  k2s_instr *t = k2s_def(m, i->type);
  if (!t || i->n_ops < 1 || i->n_ops > 2)
    return false;
  bool binary = i->n_ops == 2;
  uint64_t a = vals[0], b = binary ? vals[1] : 0;
  uint32_t w = k2s_type_width(m, k2s_type_of(m, i->ops[0]));
  if (!w || w > 64)
    return false;
  uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  a &= mask, b &= mask;
  if (t->opcode == SpvOpTypeBool && binary) {
    int64_t sa = sext(a, w), sb = sext(b, w);
    switch (i->opcode) {
    case SpvOpIEqual: return *out = (a == b), true;
    case SpvOpINotEqual: return *out = (a != b), true;
    case SpvOpULessThan: return *out = (a < b), true;
    case SpvOpULessThanEqual: return *out = (a <= b), true;
    case SpvOpUGreaterThan: return *out = (a > b), true;
    case SpvOpUGreaterThanEqual: return *out = (a >= b), true;
    case SpvOpSLessThan: return *out = (sa < sb), true;
    case SpvOpSLessThanEqual: return *out = (sa <= sb), true;
    case SpvOpSGreaterThan: return *out = (sa > sb), true;
    case SpvOpSGreaterThanEqual: return *out = (sa >= sb), true;
    default: return false;
    }
  }
  if (t->opcode != SpvOpTypeInt || t->n_ops < 1)
    return false;
  uint64_t r;
  if (binary && (i->opcode == SpvOpShiftLeftLogical || i->opcode == SpvOpShiftRightLogical ||
                 i->opcode == SpvOpShiftRightArithmetic) &&
      b >= w)
    return false; /* undefined in SPIR-V: left as written */
  switch (binary ? i->opcode : 0) {
  case SpvOpIAdd: r = a + b; break;
  case SpvOpISub: r = a - b; break;
  case SpvOpIMul: r = a * b; break;
  case SpvOpUDiv:
    if (!b)
      return false;
    r = a / b;
    break;
  case SpvOpUMod:
    if (!b)
      return false;
    r = a % b;
    break;
  case SpvOpBitwiseAnd: r = a & b; break;
  case SpvOpBitwiseOr: r = a | b; break;
  case SpvOpBitwiseXor: r = a ^ b; break;
  case SpvOpShiftLeftLogical: r = a << b; break;
  case SpvOpShiftRightLogical: r = a >> b; break;
  case SpvOpShiftRightArithmetic: r = (uint64_t)(sext(a, w) >> b); break;
  case 0:
    switch (i->opcode) {
    case SpvOpUConvert: r = a; break;
    case SpvOpSConvert: r = (uint64_t)sext(a, w); break;
    case SpvOpNot: r = ~a; break;
    case SpvOpSNegate: r = 0 - a; break;
    default: return false;
    }
    break;
  default: return false;
  }
  uint32_t rw = k2s_type_width(m, i->type);
  *out = rw >= 64 ? r : r & ((1ull << rw) - 1);
  return true;
}

/* The bytes of a constant array of 8-bit integers into buf[0, n). */
static bool string_bytes(k2s_module *m, uint32_t init, char *buf, uint32_t n)
{
  k2s_instr *c = k2s_def(m, init);
  if (!c)
    return false;
  if (c->opcode == SpvOpConstantNull) {
    memset(buf, 0, n);
    return true;
  }
  if (c->opcode != SpvOpConstantComposite || c->n_ops != n)
    return false;
  for (uint32_t k = 0; k < n; k++) {
    uint64_t v;
    if (!k2s_const_value(m, c->ops[k], &v)) {
      k2s_instr *e = k2s_def(m, c->ops[k]);
      if (!e || e->opcode != SpvOpConstantNull)
        return false;
      v = 0;
    }
    buf[k] = (char)v;
  }
  return true;
}

const char *k2s_string_literal(k2s_module *m, uint32_t ptr)
{
  uint64_t offset = 0;
  for (int depth = 0; depth < 16; depth++) {
    k2s_instr *d = k2s_def(m, ptr);
    if (!d)
      return NULL;
    switch (d->opcode) {
    case SpvOpBitcast:
    case SpvOpCopyObject: ptr = d->ops[0]; continue;
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: {
      /* Every index but the one selecting a byte must be 0. */
      for (uint32_t k = 1; k < d->n_ops; k++) {
        uint64_t v;
        if (!k2s_const_value(m, d->ops[k], &v))
          return NULL;
        offset += v;
      }
      ptr = d->ops[0];
      continue;
    }
    case SpvOpVariable: {
      k2s_instr *pt = k2s_def(m, d->type);
      k2s_instr *arr = pt ? k2s_def(m, pt->ops[1]) : NULL;
      uint64_t len;
      if (d->n_ops < 2 || !arr || arr->opcode != SpvOpTypeArray ||
          k2s_type_width(m, arr->ops[0]) != 8 || !k2s_const_value(m, arr->ops[1], &len) ||
          len > (1u << 20) || offset >= len)
        return NULL;
      char *buf = k2s_alloc(&m->arena, len + 1);
      if (!string_bytes(m, d->ops[1], buf, (uint32_t)len) || !memchr(buf + offset, 0, len - offset))
        return NULL;
      return buf + offset;
    }
    default: return NULL;
    }
  }
  return NULL;
}

uint32_t k2s_spec_const_uint32(k2s_module *m, uint32_t spec_id, uint32_t default_value)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION])
    if (i->opcode == SpvOpDecorate && i->n_ops == 3 && i->ops[1] == SpvDecorationSpecId &&
        i->ops[2] == spec_id)
      return i->ops[0];
  k2s_instr *c = k2s_instr_new(m, SpvOpSpecConstant, k2s_type_int(m, 32, false), k2s_new_id(m),
                               &default_value, 1);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], c);
  k2s_decorate(m, c->result, SpvDecorationSpecId, &spec_id, 1);
  return c->result;
}

uint32_t k2s_global_variable(k2s_module *m, uint32_t ptr_type, uint32_t storage_class,
                             uint32_t initializer)
{
  uint32_t ops[2] = {storage_class, initializer};
  k2s_instr *v = k2s_instr_new(m, SpvOpVariable, ptr_type, k2s_new_id(m), ops, initializer ? 2 : 1);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
  return v->result;
}

uint32_t k2s_const_splat(k2s_module *m, uint32_t type, uint32_t scalar_const)
{
  uint32_t n = k2s_vector_size(m, type);
  if (n <= 1)
    return scalar_const;
  uint32_t parts[16];
  for (uint32_t k = 0; k < n && k < 16; k++)
    parts[k] = scalar_const;
  return k2s_const_composite(m, type, parts, n < 16 ? n : 16);
}
