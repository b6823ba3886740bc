/* Parser: sections, functions and blocks, the id table, word offsets, byte
 * order, and the first error of a broken module with its word offset. */
#include "unit.h"

static void parse_sections_and_functions(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  CHECK_EQ(m->version, 0x00010000);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_CAPABILITY], SpvOpCapability), 3);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_EXT_IMPORT], SpvOpExtInstImport), 1);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_MEMORY_MODEL], SpvOpMemoryModel), 1);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_ENTRY_POINT], SpvOpEntryPoint), 1);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_DEBUG], SpvOpName), 2);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_ANNOTATION], SpvOpDecorate), 1);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_GLOBAL], SpvOpTypeInt), 2);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_GLOBAL], SpvOpConstant), 1);
  REQUIRE(m->first_func && m->first_func == m->last_func);
  k2s_function *f = m->first_func;
  CHECK_EQ(f->def->opcode, SpvOpFunction);
  CHECK_EQ(f->end->opcode, SpvOpFunctionEnd);
  CHECK_EQ(unit_count(&f->head, SpvOpFunctionParameter), 1);
  REQUIRE(f->first && f->first == f->last);
  k2s_block *b = f->first;
  CHECK_EQ(b->label->opcode, SpvOpLabel);
  CHECK_EQ(b->body.first->opcode, SpvOpLoad);
  CHECK_EQ(b->body.last->opcode, SpvOpReturn);
  CHECK(k2s_block_terminator(b) == b->body.last);
  k2s_foreach_instr(i, &b->body)
    CHECK(i->block == b);
  k2s_module_free(m);
}

static void parse_ids_and_offsets(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  /* Every result id is in the dense table, pointing at its definition. */
  int defs = 0;
  for (uint32_t id = 1; id < m->bound; id++) {
    k2s_instr *d = k2s_def(m, id);
    if (d) {
      CHECK_EQ(d->result, id);
      defs++;
    }
  }
  CHECK(defs > 10);
  CHECK(k2s_def(m, 0) == NULL);
  CHECK(k2s_def(m, m->bound) == NULL);
  CHECK(k2s_def(m, UINT32_MAX) == NULL);
  /* Offsets are the word index of each instruction in the input. */
  CHECK_EQ(m->sec[K2S_SEC_CAPABILITY].first->offset, 5);
  CHECK_EQ(m->sec[K2S_SEC_CAPABILITY].first->next->offset, 7);
  /* Names and decorations by id. */
  uint32_t k = m->sec[K2S_SEC_ENTRY_POINT].first->ops[1];
  CHECK(k2s_name_of(m, k) && strcmp(k2s_name_of(m, k), "add") == 0);
  uint32_t p = m->first_func->head.first->result;
  CHECK(k2s_name_of(m, p) && strcmp(k2s_name_of(m, p), "buf") == 0);
  CHECK(k2s_find_decoration(m, p, SpvDecorationFuncParamAttr) != NULL);
  CHECK(k2s_find_decoration(m, p, SpvDecorationAlignment) == NULL);
  /* The OpenCL.std import is recognised, so OpExtInst operands decode. */
  uint32_t ext = m->sec[K2S_SEC_EXT_IMPORT].first->result;
  CHECK(m->ext_set[ext] != K2S_EXT_UNKNOWN);
  k2s_module_free(m);
}

static void swap_words(uint32_t *w, size_t n)
{
  for (size_t i = 0; i < n; i++)
    w[i] = __builtin_bswap32(w[i]);
}

static void parse_big_endian(void)
{
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  k2s_parse_error err;
  k2s_module *le = k2s_parse(w, n, &err);
  REQUIRE(le);
  CHECK(!le->big_endian);
  swap_words(w, n);
  k2s_module *be = k2s_parse(w, n, &err);
  REQUIRE(be);
  CHECK(be->big_endian);
  /* The same IR, whatever the byte order. */
  size_t n1, n2;
  uint32_t *a = k2s_write_native(le, &n1), *b = k2s_write_native(be, &n2);
  CHECK_EQ(n1, n2);
  CHECK(n1 == n2 && memcmp(a, b, n1 * 4) == 0);
  /* k2s_write keeps the input's byte order. */
  uint32_t *out = k2s_write(be, &n2);
  CHECK(n2 == n && memcmp(out, w, n * 4) == 0);
  k2s_module_free(le);
  k2s_module_free(be);
  free(w);
}

/* Parse words that must fail; check the message and the word offset. */
static void expect_error(const uint32_t *w, size_t n, const char *text, int64_t offset)
{
  k2s_parse_error err;
  k2s_module *m = k2s_parse(w, n, &err);
  CHECK(m == NULL);
  if (m)
    k2s_module_free(m);
  CHECK_STR_CONTAINS(err.message, text);
  CHECK_EQ(err.word_offset, offset);
}

static void parse_header_errors(void)
{
  uint32_t h[8] = {0x07230203u, 0x00010000u, 0, 10, 0, 0, 0, 0};
  expect_error(h, 0, "the module is empty", 0);
  expect_error(h, 3, "too short for a SPIR-V header (3 words, need 5)", 0);
  uint32_t bad_magic[5] = {0xdeadbeefu, 0x00010000u, 0, 10, 0};
  expect_error(bad_magic, 5, "not a SPIR-V binary: the first word is 0xdeadbeef", 0);
  uint32_t v2[5] = {0x07230203u, 0x00020000u, 0, 10, 0};
  expect_error(v2, 5, "unsupported SPIR-V version word 0x00020000", 1);
  uint32_t v17[5] = {0x07230203u, 0x00010700u, 0, 10, 0};
  expect_error(v17, 5, "unsupported SPIR-V version word 0x00010700", 1);
  uint32_t b0[5] = {0x07230203u, 0x00010000u, 0, 0, 0};
  expect_error(b0, 5, "the id bound is 0", 3);
  uint32_t big[5] = {0x07230203u, 0x00010000u, 0, 0x7fffffffu, 0};
  expect_error(big, 5, "the id bound 2147483647 is beyond SPIR-V's limit", 3);
  /* A header alone is a (useless) module the parser accepts. */
  k2s_parse_error err;
  k2s_module *m = k2s_parse(h, 5, &err);
  CHECK(m != NULL);
  k2s_module_free(m);
}

static void parse_instruction_errors(void)
{
  /* word count 0 */
  uint32_t wc0[6] = {0x07230203u, 0x00010000u, 0, 10, 0, 0x00000011u};
  expect_error(wc0, 6, "instruction word count is 0 (opcode 17)", 5);
  /* OpCapability claims 3 words, 2 remain */
  uint32_t past[7] = {0x07230203u, 0x00010000u, 0, 10, 0, (3u << 16) | SpvOpCapability, 6};
  expect_error(past, 7, "OpCapability claims 3 words but only 2 remain", 5);
  /* OpTypeInt result id 12 beyond bound 10 */
  uint32_t beyond[9] = {0x07230203u, 0x00010000u, 0, 10, 0, (4u << 16) | SpvOpTypeInt, 12, 32, 0};
  expect_error(beyond, 9, "result id 12 is outside the module's bound 10", 5);
  /* id 1 defined twice */
  uint32_t twice[13] = {0x07230203u, 0x00010000u, 0, 10, 0, (4u << 16) | SpvOpTypeInt, 1, 32, 0,
                        (4u << 16) | SpvOpTypeInt, 1, 16, 0};
  expect_error(twice, 13, "id %1 is defined twice (first by OpTypeInt at word 5)", 9);
  /* a vector of a type defined later: a forward reference among types */
  uint32_t fwd[13] = {0x07230203u, 0x00010000u, 0, 10, 0, (4u << 16) | SpvOpTypeVector, 1, 2, 4,
                      (4u << 16) | SpvOpTypeInt, 2, 32, 0};
  expect_error(fwd, 13, "OpTypeVector refers to %2 before it is defined", 5);
  /* operand id beyond the bound */
  uint32_t opnd[13] = {0x07230203u, 0x00010000u, 0, 10, 0, (4u << 16) | SpvOpTypeInt, 1, 32, 0,
                       (4u << 16) | SpvOpTypeVector, 2, 99, 4};
  expect_error(opnd, 13, "operand 1 is id 99, outside the module's bound 10", 9);
  /* an instruction with fewer words than its result needs */
  uint32_t shortw[6] = {0x07230203u, 0x00010000u, 0, 10, 0, (1u << 16) | SpvOpTypeInt};
  expect_error(shortw, 6, "OpTypeInt has 1 words, fewer than its result type and id need", 5);
  /* an unterminated literal string */
  uint32_t str[7] = {0x07230203u, 0x00010000u, 0, 10, 0, (2u << 16) | SpvOpExtension, 0x41414141u};
  expect_error(str, 7, "a literal string is not terminated", 5);
  /* used but never defined (an OpName of a missing id) */
  uint32_t undef[8] = {0x07230203u, 0x00010000u, 0, 10, 0, (3u << 16) | SpvOpName, 7, 0};
  expect_error(undef, 8, "id %7 is used but never defined", 5);
}

static void parse_layout_errors(void)
{
  /* A type after a function: out of layout. */
  static const char text[] = "OpCapability Kernel\n"
                             "OpCapability Addresses\n"
                             "OpMemoryModel Physical64 OpenCL\n"
                             "%void = OpTypeVoid\n"
                             "%fn = OpTypeFunction %void\n"
                             "%f = OpFunction %void None %fn\n"
                             "%l = OpLabel\n"
                             "OpReturn\n"
                             "OpFunctionEnd\n";
  size_t n;
  uint32_t *w = unit_assemble(text, SPV_ENV_UNIVERSAL_1_0, &n);
  /* Append "%9 = OpTypeBool" after OpFunctionEnd (bound is large enough? grow it). */
  uint32_t *w2 = malloc((n + 2) * 4);
  memcpy(w2, w, n * 4);
  w2[3] = 20;
  w2[n] = (2u << 16) | SpvOpTypeBool;
  w2[n + 1] = 19;
  expect_error(w2, n + 2, "OpTypeBool may not appear between or after functions", (int64_t)n);
  /* Truncate before OpFunctionEnd: the module ends inside a function. */
  expect_error(w, n - 1, "the module ends inside a function (missing OpFunctionEnd)",
               (int64_t)n - 1);
  /* OpMemoryModel after the types: out of order. */
  uint32_t order[12] = {0x07230203u, 0x00010000u, 0, 10, 0, (2u << 16) | SpvOpTypeBool, 1,
                        (3u << 16) | SpvOpMemoryModel, 2, 2, 0, 0};
  expect_error(order, 10, "OpMemoryModel is out of the module's layout order", 7);
  free(w);
  free(w2);
}

/* Insert n_new words before the first instruction with opcode op. */
static uint32_t *insert_before(const uint32_t *w, size_t n, uint16_t op, const uint32_t *ins,
                               size_t n_ins)
{
  size_t at = 5;
  while (at < n && (w[at] & 0xffff) != op)
    at += w[at] >> 16;
  REQUIRE(at < n);
  uint32_t *out = malloc((n + n_ins) * 4);
  memcpy(out, w, at * 4);
  memcpy(out + at, ins, n_ins * 4);
  memcpy(out + at + n_ins, w + at, (n - at) * 4);
  return out;
}

static void parse_unknown_opcode_survives(void)
{
  /* Opcodes the grammar does not know (0xfffe) round-trip as opaque words,
   * among the globals and inside a block. */
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  uint32_t unknown[3] = {(3u << 16) | 0xfffeu, 0x12345678u, 0x9abcdef0u};
  uint32_t *w1 = insert_before(w, n, SpvOpFunction, unknown, 3);
  uint32_t *w2 = insert_before(w1, n + 3, SpvOpReturn, unknown, 3);
  k2s_parse_error err;
  k2s_module *m = k2s_parse(w2, n + 6, &err);
  CHECK(m != NULL);
  if (m) {
    CHECK_EQ(unit_count(&m->sec[K2S_SEC_GLOBAL], 0xfffe), 1);
    CHECK_EQ(unit_count(&m->first_func->first->body, 0xfffe), 1);
    size_t n_out;
    uint32_t *out = k2s_write(m, &n_out);
    CHECK(n_out == n + 6 && memcmp(out, w2, n_out * 4) == 0);
    k2s_module_free(m);
  } else {
    fprintf(stderr, "  parse error: %s\n", err.message);
  }
  free(w);
  free(w1);
  free(w2);
}

UNIT_MAIN(T(parse_sections_and_functions), T(parse_ids_and_offsets), T(parse_big_endian),
          T(parse_header_errors), T(parse_instruction_errors), T(parse_layout_errors),
          T(parse_unknown_opcode_survives))
