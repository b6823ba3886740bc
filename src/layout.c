/* OpenCL C data layout: sizes and alignments of types (vec3 takes the space
 * of vec4, structs use C rules unless CPacked), and the explicit Offset /
 * ArrayStride decorations Vulkan needs to see that exact layout. */
#include "k2s_internal.h"

static bool physical32(const k2s_module *m)
{
  k2s_instr *mm = m->sec[K2S_SEC_MEMORY_MODEL].first;
  return mm && mm->n_ops && mm->ops[0] == SpvAddressingModelPhysical32;
}

bool k2s_cl_packed(const k2s_module *m, uint32_t st)
{
  return k2s_find_decoration(m, st, SpvDecorationCPacked) != NULL;
}

bool k2s_cl_layout(const k2s_module *m, uint32_t type, uint64_t *size, uint64_t *align)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeBool: *size = *align = 1; return true;
  case SpvOpTypePointer:
    /* A pointer stored in memory: 8 bytes as a PhysicalStorageBuffer64 address,
     * else the module's own address size (Physical32: 4). */
    *size = *align = t->ops[0] != SpvStorageClassPhysicalStorageBuffer && physical32(m) ? 4 : 8;
    return true;
  case SpvOpTypeInt:
  case SpvOpTypeFloat: *size = *align = t->ops[0] / 8; return true;
  case SpvOpTypeVector: {
    uint64_t es, ea;
    if (!k2s_cl_layout(m, t->ops[0], &es, &ea))
      return false;
    uint32_t n = t->ops[1] == 3 ? 4 : t->ops[1];
    *size = *align = es * n;
    return true;
  }
  case SpvOpTypeArray: {
    uint64_t es, ea, len;
    if (!k2s_cl_layout(m, t->ops[0], &es, &ea) || !k2s_const_value(m, t->ops[1], &len))
      return false;
    *size = es * len;
    *align = ea;
    return true;
  }
  case SpvOpTypeStruct: {
    uint64_t off = 0, max_align = 1;
    bool pk = k2s_cl_packed(m, type);
    for (uint32_t k = 0; k < t->n_ops; k++) {
      uint64_t ms, ma;
      if (!k2s_cl_layout(m, t->ops[k], &ms, &ma))
        return false;
      if (pk)
        ma = 1;
      off = (off + ma - 1) / ma * ma;
      off += ms;
      if (ma > max_align)
        max_align = ma;
    }
    *align = max_align;
    *size = (off + max_align - 1) / max_align * max_align;
    return true;
  }
  default: return false;
  }
}

uint64_t k2s_cl_place_member(const k2s_module *m, uint32_t type, bool pk, uint64_t *end)
{
  uint64_t ms = 0, ma = 1;
  k2s_cl_layout(m, type, &ms, &ma);
  if (pk)
    ma = 1;
  uint64_t off = (*end + ma - 1) / ma * ma;
  *end = off + ms;
  return off;
}

uint64_t k2s_cl_member_offset(const k2s_module *m, uint32_t st, uint32_t member)
{
  k2s_instr *t = k2s_def(m, st);
  uint64_t end = 0;
  bool pk = k2s_cl_packed(m, st);
  for (uint32_t k = 0; t && k <= member && k < t->n_ops; k++) {
    uint64_t off = k2s_cl_place_member(m, t->ops[k], pk, &end);
    if (k == member)
      return off;
  }
  return end;
}

/* Bytes of a type that its scalars occupy: less than its size when a struct (at any
 * depth) has padding. A 3-component vector counts as its whole 4-component slot:
 * OpenCL leaves the fourth component undefined, and counting it as padding would
 * turn every float3 copy into a word copy. */
static uint64_t data_bytes(const k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  uint64_t len, n = 0, size = 0, align = 1;
  if (t && t->opcode == SpvOpTypeStruct) {
    for (uint32_t k = 0; k < t->n_ops; k++)
      n += data_bytes(m, t->ops[k]);
    return n;
  }
  if (t && t->opcode == SpvOpTypeArray && k2s_const_value(m, t->ops[1], &len))
    return len * data_bytes(m, t->ops[0]);
  return k2s_cl_layout(m, type, &size, &align) ? size : 0;
}

bool k2s_cl_has_padding(const k2s_module *m, uint32_t type)
{
  uint64_t size = 0, align = 1;
  return k2s_cl_layout(m, type, &size, &align) && data_bytes(m, type) < size;
}

static bool has_member_offset(const k2s_module *m, uint32_t st)
{
  return k2s_find_member_decoration(m, st, K2S_ANY_MEMBER, SpvDecorationOffset) != NULL;
}

/* Decorate type (and what it contains) with its OpenCL layout. Returns false
 * (after an error) for a type without a defined layout. */
bool k2s_decorate_layout(k2s_module *m, uint32_t type, const k2s_instr *why)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: {
    uint64_t es, ea;
    if (!k2s_cl_layout(m, t->ops[0], &es, &ea)) {
      k2s_error(m, why, "the element type %%%u has no OpenCL data layout", t->ops[0]);
      return false;
    }
    if (!k2s_find_decoration(m, type, SpvDecorationArrayStride)) {
      uint32_t stride = (uint32_t)es;
      k2s_decorate(m, type, SpvDecorationArrayStride, &stride, 1);
    }
    return k2s_decorate_layout(m, t->ops[0], why);
  }
  case SpvOpTypeStruct:
    if (!has_member_offset(m, type)) {
      /* k2s_cl_member_offset of each member, in one walk of the members (that
       * function walks the members before the one asked for: N members were N²) */
      uint64_t end = 0;
      bool pk = k2s_cl_packed(m, type);
      for (uint32_t k = 0; k < t->n_ops; k++) {
        uint32_t off = (uint32_t)k2s_cl_place_member(m, t->ops[k], pk, &end);
        k2s_member_decorate(m, type, k, SpvDecorationOffset, &off, 1);
      }
    }
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (!k2s_decorate_layout(m, t->ops[k], why))
        return false;
    return true;
  case SpvOpTypePointer:
    /* A physical pointer is an 8-byte address; what it points to is laid out
     * when the pointer type is made (PhysicalStorageBuffer pointees need it). */
    if (t->ops[0] == SpvStorageClassPhysicalStorageBuffer)
      return true;
    k2s_error(m, why,
              "a pointer stored in memory needs physical pointers (--pointers=physical "
              "on vulkan1.2+)");
    return false;
  default: return true;
  }
}
