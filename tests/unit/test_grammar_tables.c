/* Facts src/gen_tables.py derives from the SPIR-V grammar rather than lists typed
 * by hand: atomic operand roles, access chains, and which <id> operands name values
 * (the operand walk's k2s_operand.value). */
#include "unit.h"

static void atomic_layouts(void)
{
  const k2s_atomic_operands *a = k2s_atomic_layout(SpvOpAtomicCompareExchange);
  REQUIRE(a);
  CHECK_EQ(a->n_operands, 6);
  CHECK_EQ(a->pointer, 0);
  CHECK_EQ(a->scope, 1);
  CHECK_EQ(a->semantics, 2);
  CHECK_EQ(a->unequal, 3);
  CHECK_EQ(a->value, 4);
  CHECK_EQ(a->comparator, 5);
  a = k2s_atomic_layout(SpvOpAtomicLoad);
  REQUIRE(a);
  CHECK_EQ(a->n_operands, 3);
  CHECK_EQ(a->value, -1);
  CHECK_EQ(a->comparator, -1);
  a = k2s_atomic_layout(SpvOpAtomicFMaxEXT);
  REQUIRE(a);
  CHECK_EQ(a->n_operands, 4);
  CHECK_EQ(a->value, 3);
  CHECK_EQ(a->unequal, -1);
  CHECK(k2s_atomic_layout(SpvOpAtomicFlagClear) &&
        k2s_atomic_layout(SpvOpAtomicFlagClear)->n_operands == 3);
  CHECK(k2s_atomic_layout(SpvOpLoad) == NULL);
  /* Every opcode of the grammar's Atomic class has one, and no other opcode. */
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++)
    CHECK_EQ(k2s_atomic_layout((uint16_t)op) != NULL, k2s_is_atomic((uint16_t)op));
}

static void access_chains(void)
{
  CHECK(k2s_is_access_chain(SpvOpAccessChain));
  CHECK(k2s_is_access_chain(SpvOpInBoundsAccessChain));
  CHECK(k2s_is_access_chain(SpvOpPtrAccessChain));
  CHECK(k2s_is_access_chain(SpvOpInBoundsPtrAccessChain));
  CHECK(!k2s_is_access_chain(SpvOpLoad));
  CHECK(!k2s_is_access_chain(SpvOpPtrCastToGeneric));
}

/* The operand words of an instruction that are ids, as a mask (bit = word), and
 * which of those the walk says must be values. */
typedef struct id_bits {
  uint32_t ids, values;
} id_bits;

static bool collect(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  id_bits *b = ud;
  if (op->cls == K2S_OPND_ID) {
    b->ids |= 1u << op->word;
    if (op->value)
      b->values |= 1u << op->word;
  }
  return true;
}

static id_bits walk(const k2s_module *m, const k2s_instr *i)
{
  id_bits b = {0, 0};
  CHECK(k2s_walk_operands(m, i, collect, &b) == NULL);
  return b;
}

static const char value_text[] = "OpCapability Addresses\n"
                                 "OpCapability Kernel\n"
                                 "%std = OpExtInstImport \"OpenCL.std\"\n"
                                 "OpMemoryModel Physical64 OpenCL\n"
                                 "OpEntryPoint Kernel %k \"k\"\n"
                                 "%void = OpTypeVoid\n"
                                 "%uint = OpTypeInt 32 0\n"
                                 "%bool = OpTypeBool\n"
                                 "%float = OpTypeFloat 32\n"
                                 "%u0 = OpConstant %uint 0\n"
                                 "%ptr = OpTypePointer CrossWorkgroup %uint\n"
                                 "%hfn = OpTypeFunction %uint %uint\n"
                                 "%fn = OpTypeFunction %void %ptr\n"
                                 "%h = OpFunction %uint None %hfn\n"
                                 "%x = OpFunctionParameter %uint\n"
                                 "%he = OpLabel\n"
                                 "OpReturnValue %x\n"
                                 "OpFunctionEnd\n"
                                 "%k = OpFunction %void None %fn\n"
                                 "%p = OpFunctionParameter %ptr\n"
                                 "%e = OpLabel\n"
                                 "%v = OpLoad %uint %p Aligned 4\n"
                                 "%c = OpFunctionCall %uint %h %v\n"
                                 "%f = OpConvertUToF %float %c\n"
                                 "%g = OpExtInst %float %std fabs %f\n"
                                 "%t = OpULessThan %bool %v %u0\n"
                                 "OpSelectionMerge %m None\n"
                                 "OpBranchConditional %t %a %m\n"
                                 "%a = OpLabel\n"
                                 "OpBranch %m\n"
                                 "%m = OpLabel\n"
                                 "%r = OpPhi %uint %v %e %c %a\n"
                                 "OpSelectionMerge %end None\n"
                                 "OpSwitch %r %end 1 %end\n"
                                 "%end = OpLabel\n"
                                 "OpStore %p %r Aligned 4\n"
                                 "OpReturn\n"
                                 "OpFunctionEnd\n";

static k2s_instr *find(k2s_module *m, uint16_t opcode, int nth)
{
  k2s_foreach_function(f, m)
    for (k2s_block *b = f->first; b; b = b->next)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == opcode && nth-- == 0)
          return i;
  return NULL;
}

static void value_operands(void)
{
  k2s_module *m = unit_module(value_text);
  struct {
    uint16_t opcode;
    int nth;
    uint32_t ids, values;
  } want[] = {
      {SpvOpLoad, 0, 0x1, 0x1},              /* Pointer (Aligned's 4 is a literal) */
      {SpvOpFunctionCall, 0, 0x3, 0x2},      /* the callee is no value, its argument is */
      {SpvOpExtInst, 0, 0x5, 0x4},           /* the set is no value, fabs's x is */
      {SpvOpSelectionMerge, 0, 0x1, 0x0},    /* a label */
      {SpvOpBranchConditional, 0, 0x7, 0x1}, /* the condition; two labels */
      {SpvOpBranch, 0, 0x1, 0x0},
      {SpvOpPhi, 0, 0xf, 0x5},    /* (value, parent label) pairs */
      {SpvOpSwitch, 0, 0xb, 0x1}, /* selector, default, (literal, label) */
      {SpvOpStore, 0, 0x3, 0x3},
      {SpvOpReturnValue, 0, 0x1, 0x1},
  };
  for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
    k2s_instr *i = find(m, want[k].opcode, want[k].nth);
    REQUIRE(i);
    id_bits b = walk(m, i);
    if (b.ids != want[k].ids || b.values != want[k].values)
      fprintf(stderr, "%s: ids 0x%x values 0x%x\n", k2s_opcode_name(i->opcode), b.ids, b.values);
    CHECK_EQ(b.ids, want[k].ids);
    CHECK_EQ(b.values, want[k].values);
  }
  k2s_module_free(m);
}

UNIT_MAIN(T(atomic_layouts), T(access_chains), T(value_operands))
