/* Interning: find-or-create types and constants, never a duplicate
 * non-aggregate; finds what the parser read; structs always fresh. */
#include "unit.h"

static const char types_text[] = "OpCapability Addresses\n"
                                 "OpCapability Kernel\n"
                                 "OpCapability Int64\n"
                                 "OpCapability Float16\n"
                                 "OpCapability Linkage\n"
                                 "OpCapability Shader\n"
                                 "OpCapability Int16\n"
                                 "OpMemoryModel Physical64 OpenCL\n"
                                 "%uint = OpTypeInt 32 0\n"
                                 "%ulong = OpTypeInt 64 0\n"
                                 "%float = OpTypeFloat 32\n"
                                 "%v4f = OpTypeVector %float 4\n"
                                 "%c7 = OpConstant %uint 7\n"
                                 "%big = OpConstant %ulong 0x100000002\n";

static int count_global(k2s_module *m, uint16_t op)
{
  return unit_count(&m->sec[K2S_SEC_GLOBAL], op);
}

static void intern_finds_parsed(void)
{
  k2s_module *m = unit_module(types_text);
  uint32_t bound = m->bound;
  uint32_t uint = k2s_type_int(m, 32, false);
  CHECK(uint && k2s_def(m, uint)->opcode == SpvOpTypeInt);
  CHECK_EQ(k2s_type_int(m, 64, false), m->sec[K2S_SEC_GLOBAL].first->next->result);
  uint32_t f = k2s_type_float(m, 32);
  CHECK_EQ(k2s_type_vector(m, f, 4), m->sec[K2S_SEC_GLOBAL].first->next->next->next->result);
  CHECK_EQ(k2s_const_uint32(m, 7), m->sec[K2S_SEC_GLOBAL].first->next->next->next->next->result);
  CHECK_EQ(k2s_const_int(m, k2s_type_int(m, 64, false), 0x100000002ull),
           m->sec[K2S_SEC_GLOBAL].last->result);
  CHECK_EQ(m->bound, bound); /* nothing new */
  k2s_module_free(m);
}

static void intern_no_duplicates(void)
{
  k2s_module *m = unit_module(types_text);
  uint32_t u16 = k2s_type_int(m, 16, false), s16 = k2s_type_int(m, 16, true);
  CHECK(u16 != s16);
  CHECK_EQ(k2s_type_int(m, 16, false), u16);
  uint32_t h = k2s_type_float(m, 16);
  CHECK_EQ(k2s_type_float(m, 16), h);
  uint32_t ptr = k2s_type_pointer(m, SpvStorageClassCrossWorkgroup, u16);
  CHECK_EQ(k2s_type_pointer(m, SpvStorageClassCrossWorkgroup, u16), ptr);
  CHECK(k2s_type_pointer(m, SpvStorageClassWorkgroup, u16) != ptr);
  uint32_t rta = k2s_type_runtime_array(m, u16);
  CHECK_EQ(k2s_type_runtime_array(m, u16), rta);
  uint32_t len = k2s_const_uint32(m, 16);
  uint32_t arr = k2s_type_array(m, u16, len);
  CHECK_EQ(k2s_type_array(m, u16, k2s_const_uint32(m, 16)), arr);
  uint32_t void_ = k2s_type_void(m);
  uint32_t params[2] = {u16, ptr};
  uint32_t fn = k2s_type_function(m, void_, params, 2);
  CHECK_EQ(k2s_type_function(m, void_, params, 2), fn);
  CHECK(k2s_type_function(m, void_, params, 1) != fn);
  CHECK_EQ(k2s_const_bool(m, true), k2s_const_bool(m, true));
  CHECK(k2s_const_bool(m, true) != k2s_const_bool(m, false));
  CHECK_EQ(k2s_const_null(m, ptr), k2s_const_null(m, ptr));
  CHECK_EQ(k2s_undef(m, u16), k2s_undef(m, u16));
  uint32_t f = k2s_type_float(m, 32);
  uint32_t c1 = k2s_const_float(m, f, 1.5);
  CHECK_EQ(k2s_const_float(m, f, 1.5), c1);
  uint32_t parts[2] = {k2s_const_uint32(m, 1), k2s_const_uint32(m, 2)};
  uint32_t v2 = k2s_type_vector(m, k2s_type_int(m, 32, false), 2);
  uint32_t cc = k2s_const_composite(m, v2, parts, 2);
  CHECK_EQ(k2s_const_composite(m, v2, parts, 2), cc);
  /* One of each: count the globals. */
  CHECK_EQ(count_global(m, SpvOpTypeInt), 4); /* uint, ulong, ushort, short */
  CHECK_EQ(count_global(m, SpvOpTypeFloat), 2);
  CHECK_EQ(count_global(m, SpvOpTypeBool), 1);
  CHECK_EQ(count_global(m, SpvOpTypeVoid), 1);
  CHECK_EQ(count_global(m, SpvOpTypePointer), 2);
  CHECK_EQ(count_global(m, SpvOpConstantTrue), 1);
  CHECK_EQ(count_global(m, SpvOpConstantFalse), 1);
  /* A lot of constants: the hash table grows and keeps finding them. */
  uint32_t ids[1000];
  for (uint32_t i = 0; i < 1000; i++)
    ids[i] = k2s_const_uint32(m, 1000 + i);
  for (uint32_t i = 0; i < 1000; i++)
    CHECK_EQ(k2s_const_uint32(m, 1000 + i), ids[i]);
  char *err = unit_validate(m, SPV_ENV_UNIVERSAL_1_0) /* Float16: not OpenCL */;
  CHECK(err == NULL);
  if (err)
    fprintf(stderr, "  %s\n", err);
  k2s_module_free(m);
}

static void intern_structs_are_fresh(void)
{
  k2s_module *m = unit_module(types_text);
  uint32_t uint = k2s_type_int(m, 32, false);
  uint32_t a = k2s_type_struct(m, &uint, 1), b = k2s_type_struct(m, &uint, 1);
  CHECK(a != b);
  CHECK_EQ(count_global(m, SpvOpTypeStruct), 2);
  k2s_module_free(m);
}

static void intern_constant_values(void)
{
  k2s_module *m = unit_module(types_text);
  uint32_t u8 = k2s_type_int(m, 8, false), u64 = k2s_type_int(m, 64, false);
  /* Narrow constants keep their high bits zero; 64-bit ones take two words. */
  uint32_t c = k2s_const_int(m, u8, 0x1ff);
  CHECK_EQ(k2s_def(m, c)->n_ops, 1);
  CHECK_EQ(k2s_def(m, c)->ops[0], 0xff);
  CHECK_EQ(k2s_const_int(m, u8, 0xff), c);
  uint64_t v = 0;
  CHECK(k2s_const_value(m, c, &v) && v == 0xff);
  uint32_t c64 = k2s_const_int(m, u64, 0xfedcba9876543210ull);
  CHECK_EQ(k2s_def(m, c64)->n_ops, 2);
  CHECK(k2s_const_value(m, c64, &v) && v == 0xfedcba9876543210ull);
  CHECK(k2s_const_value(m, k2s_const_null(m, u64), &v) && v == 0);
  CHECK(!k2s_const_value(m, u64, &v));
  /* half: 1.0 is 0x3c00, -2.0 is 0xc000; double takes two words. */
  uint32_t h = k2s_type_float(m, 16), d = k2s_type_float(m, 64);
  CHECK_EQ(k2s_def(m, k2s_const_float(m, h, 1.0))->ops[0], 0x3c00);
  CHECK_EQ(k2s_def(m, k2s_const_float(m, h, -2.0))->ops[0], 0xc000);
  CHECK_EQ(k2s_def(m, k2s_const_float(m, h, 0.0))->ops[0], 0);
  k2s_instr *dc = k2s_def(m, k2s_const_float(m, d, 1.0));
  CHECK(dc->n_ops == 2 && dc->ops[0] == 0 && dc->ops[1] == 0x3ff00000u);
  /* Type queries. */
  uint32_t v4f = k2s_type_vector(m, k2s_type_float(m, 32), 4);
  CHECK_EQ(k2s_type_width(m, v4f), 32);
  CHECK_EQ(k2s_vector_size(m, v4f), 4);
  CHECK_EQ(k2s_vector_size(m, u64), 1);
  CHECK_EQ(k2s_scalar_type(m, v4f), k2s_type_float(m, 32));
  CHECK_EQ(k2s_scalar_type(m, u64), u64);
  CHECK_EQ(k2s_type_width(m, 0), 0);
  k2s_add_capability(m, SpvCapabilityInt8);
  k2s_add_capability(m, SpvCapabilityFloat64);
  char *err = unit_validate(m, SPV_ENV_UNIVERSAL_1_0) /* Float16: not OpenCL */;
  CHECK(err == NULL);
  if (err)
    fprintf(stderr, "  %s\n", err);
  k2s_module_free(m);
}

static void intern_spec_constants(void)
{
  k2s_module *m = unit_module(types_text);
  uint32_t a = k2s_spec_const_uint32(m, 0, 1);
  CHECK_EQ(k2s_spec_const_uint32(m, 0, 1), a);
  uint32_t b = k2s_spec_const_uint32(m, 1, 1);
  CHECK(a != b);
  k2s_instr *d = k2s_find_decoration(m, b, SpvDecorationSpecId);
  CHECK(d && d->ops[2] == 1);
  k2s_module_free(m);
}

static void intern_after_delete(void)
{
  /* A deleted type must not be handed out again. */
  k2s_module *m = unit_module(types_text);
  uint32_t u16 = k2s_type_int(m, 16, false);
  k2s_instr_delete(m, k2s_def(m, u16));
  uint32_t again = k2s_type_int(m, 16, false);
  CHECK(again != u16);
  CHECK(k2s_def(m, again) != NULL);
  CHECK_EQ(count_global(m, SpvOpTypeInt), 3);
  k2s_module_free(m);
}

UNIT_MAIN(T(intern_finds_parsed), T(intern_no_duplicates), T(intern_structs_are_fresh),
          T(intern_constant_values), T(intern_spec_constants), T(intern_after_delete))
