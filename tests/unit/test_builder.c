/* Builder: every cursor kind puts instructions where it says, results get
 * fresh ids, the generated per-opcode helpers emit the grammar's layout, and
 * the edited module validates. */
#include "unit.h"
#include "k2s_builder_ops.h"

static const char two_blocks[] =
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %k \"k\"\n"
    "%uint = OpTypeInt 32 0\n"
    "%bool = OpTypeBool\n"
    "%void = OpTypeVoid\n"
    "%pfn = OpTypePointer Function %uint\n"
    "%fn = OpTypeFunction %void %uint\n"
    "%one = OpConstant %uint 1\n"
    "%k = OpFunction %void None %fn\n"
    "%x = OpFunctionParameter %uint\n"
    "%entry = OpLabel\n"
    "%var = OpVariable %pfn Function\n"
    "%c = OpULessThan %bool %x %one\n"
    "OpSelectionMerge %merge None\n"
    "OpBranchConditional %c %then %merge\n"
    "%then = OpLabel\n"
    "OpBranch %merge\n"
    "%merge = OpLabel\n"
    "%phi = OpPhi %uint %one %entry %x %then\n"
    "OpStore %var %phi\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static k2s_block *block_n(k2s_module *m, int n)
{
  k2s_block *b = m->first_func->first;
  while (n-- && b)
    b = b->next;
  return b;
}

static void builder_cursors(void)
{
  k2s_module *m = unit_module(two_blocks);
  uint32_t uint = k2s_type_int(m, 32, false);
  uint32_t one = k2s_const_uint32(m, 1);
  uint32_t x = m->first_func->head.first->result;
  k2s_block *entry = block_n(m, 0), *merge = block_n(m, 2);
  k2s_builder b = {m, k2s_block_start(entry)};

  /* Block start in the entry block: after the OpVariable. */
  uint32_t bound = m->bound;
  uint32_t s1 = k2s_b_iadd(&b, uint, x, one);
  CHECK_EQ(s1, bound);
  k2s_instr *i1 = k2s_def(m, s1);
  REQUIRE(i1);
  CHECK(i1->block == entry);
  CHECK_EQ(i1->prev->opcode, SpvOpVariable);
  /* The cursor moved past it: the next one follows. */
  uint32_t s2 = k2s_b_imul(&b, uint, s1, s1);
  CHECK(k2s_def(m, s2)->prev == i1);

  /* Block end: before the merge instruction and the terminator. */
  b.cursor = k2s_block_end(entry);
  uint32_t s3 = k2s_b_isub(&b, uint, s2, one);
  k2s_instr *i3 = k2s_def(m, s3);
  CHECK_EQ(i3->next->opcode, SpvOpSelectionMerge);
  uint32_t s4 = k2s_b_bitwise_and(&b, uint, s3, one);
  CHECK(k2s_def(m, s4)->prev == i3); /* order kept at the end too */

  /* Block start after phis in a non-entry block. */
  b.cursor = k2s_block_start(merge);
  uint32_t s5 = k2s_b_iadd(&b, uint, one, one);
  CHECK_EQ(k2s_def(m, s5)->prev->opcode, SpvOpPhi);

  /* Before / after an instruction. */
  b.cursor = k2s_before(i3);
  uint32_t s6 = k2s_b_not(&b, uint, one);
  CHECK(k2s_def(m, s6)->next == i3);
  uint32_t s7 = k2s_b_not(&b, uint, s6);
  CHECK(k2s_def(m, s7)->next == i3 && k2s_def(m, s7)->prev == k2s_def(m, s6));
  b.cursor = k2s_after(i1);
  uint32_t s8 = k2s_b_not(&b, uint, s1);
  CHECK(k2s_def(m, s8)->prev == i1);

  CHECK(k2s_block_terminator(entry) && k2s_block_terminator(entry)->opcode == SpvOpBranchConditional);
  CHECK(k2s_block_merge(entry) && k2s_block_merge(entry)->opcode == SpvOpSelectionMerge);
  CHECK(k2s_block_merge(merge) == NULL);
  char *err = unit_validate(m, SPV_ENV_OPENCL_2_2);
  CHECK(err == NULL);
  if (err)
    fprintf(stderr, "  %s\n", err);
  k2s_module_free(m);
}

static void builder_new_blocks(void)
{
  /* Split the 'then' edge with a new block built by BLOCK_APPEND. */
  k2s_module *m = unit_module(two_blocks);
  k2s_function *f = m->first_func;
  k2s_block *then = block_n(m, 1), *merge = block_n(m, 2);
  k2s_block *nb = k2s_block_new(m, f, k2s_new_id(m));
  k2s_function_insert_block_after(f, then, nb);
  k2s_builder b = {m, k2s_block_append(nb)};
  k2s_b_branch(&b, merge->label->result);
  k2s_block_terminator(then)->ops[0] = nb->label->result;
  /* The phi's incoming block changes from 'then' to the new block. */
  k2s_instr *phi = merge->body.first;
  REQUIRE(phi->opcode == SpvOpPhi);
  k2s_replace_all_uses(m, then->label->result, nb->label->result);
  /* replace_all_uses also hit then's own label? It must not: a definition is not a use. */
  CHECK(then->label->result != nb->label->result);
  CHECK_EQ(phi->ops[3], nb->label->result);
  char *err = unit_validate(m, SPV_ENV_OPENCL_2_2);
  CHECK(err == NULL);
  if (err)
    fprintf(stderr, "  %s\n", err);
  k2s_module_free(m);
}

static void builder_emit_without_result(void)
{
  k2s_module *m = unit_module(two_blocks);
  k2s_block *merge = block_n(m, 2);
  k2s_builder b = {m, k2s_block_end(merge)};
  uint32_t bound = m->bound;
  k2s_instr *st = NULL;
  k2s_foreach_instr(i, &merge->body)
    if (i->opcode == SpvOpStore)
      st = i;
  REQUIRE(st);
  uint32_t r = k2s_b_store(&b, st->ops[0], k2s_const_uint32(m, 7));
  CHECK_EQ(r, 0); /* no result id */
  CHECK_EQ(m->bound, bound + 1); /* only the new constant took an id */
  CHECK_EQ(merge->body.last->prev->opcode, SpvOpStore);
  CHECK(unit_validate(m, SPV_ENV_OPENCL_2_2) == NULL);
  k2s_module_free(m);
}

UNIT_MAIN(T(builder_cursors), T(builder_new_blocks), T(builder_emit_without_result))
