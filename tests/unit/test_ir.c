/* IR: instruction lists, blocks and functions, the id table, def-use and
 * replace-all-uses, names, decorations, capabilities, extensions, operands. */
#include "unit.h"

static void ir_lists(void)
{
  k2s_module *m = k2s_module_new();
  k2s_list l = {0};
  uint32_t v[4] = {1, 2, 3, 4};
  k2s_instr *a = k2s_instr_new(m, SpvOpNop, 0, 0, &v[0], 1);
  k2s_instr *b = k2s_instr_new(m, SpvOpNop, 0, 0, &v[1], 1);
  k2s_instr *c = k2s_instr_new(m, SpvOpNop, 0, 0, &v[2], 1);
  k2s_instr *d = k2s_instr_new(m, SpvOpNop, 0, 0, &v[3], 1);
  k2s_list_append(&l, b);               /* b */
  k2s_list_insert_before(&l, b, a);     /* a b */
  k2s_list_insert_after(&l, b, d);      /* a b d */
  k2s_list_insert_before(&l, d, c);     /* a b c d */
  uint32_t expect = 1;
  k2s_foreach_instr(i, &l)
    CHECK_EQ(i->ops[0], expect++);
  CHECK_EQ(expect, 5);
  CHECK(l.first == a && l.last == d && a->prev == NULL && d->next == NULL);
  k2s_list_remove(&l, a);
  k2s_list_remove(&l, d);
  CHECK(l.first == b && l.last == c && b->prev == NULL && c->next == NULL);
  k2s_list_insert_after(&l, NULL, a); /* NULL position: at the front */
  k2s_list_insert_before(&l, NULL, d); /* NULL position: at the back */
  expect = 1;
  k2s_foreach_instr(i, &l)
    CHECK_EQ(i->ops[0], expect++);
  /* Removing while iterating with the _safe variant. */
  k2s_foreach_instr_safe(i, &l)
    if (i->ops[0] % 2 == 0)
      k2s_list_remove(&l, i);
  CHECK(l.first == a && a->next == c && c->next == NULL && l.last == c);
  k2s_list_remove(&l, a);
  k2s_list_remove(&l, c);
  CHECK(l.first == NULL && l.last == NULL);
  k2s_module_free(m);
}

static void ir_ids(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  uint32_t bound = m->bound;
  uint32_t id = k2s_new_id(m);
  CHECK_EQ(id, bound);
  CHECK_EQ(m->bound, bound + 1);
  CHECK(k2s_def(m, id) == NULL);
  /* set_def beyond the table grows it and raises the bound. */
  k2s_instr *i = k2s_instr_new(m, SpvOpTypeBool, 0, 5000, NULL, 0);
  CHECK(k2s_def(m, 5000) == i);
  CHECK_EQ(m->bound, 5001);
  CHECK(m->id_cap >= 5001);
  /* deleting forgets the id */
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], i);
  k2s_instr_delete(m, i);
  CHECK(k2s_def(m, 5000) == NULL);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_GLOBAL], SpvOpTypeBool), 0);
  k2s_module_free(m);
}

static void ir_id_overflow(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  m->bound = 0x3fffff; /* SPIR-V's limit: the next id is one too many */
  uint32_t id = k2s_new_id(m);
  CHECK(m->failed);
  /* Past the limit ids stay unique (never an existing one), and the error
   * is said once; the failed module is never written. */
  CHECK(id >= 0x3fffff);
  CHECK(k2s_new_id(m) != id);
  CHECK_EQ(m->n_diags, 1);
  CHECK_STR_CONTAINS(k2s_module_diag(m, 0)->message, "more ids than SPIR-V allows");
  k2s_module_free(m);
}

static k2s_instr *find_op(k2s_module *m, uint16_t op)
{
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == op)
          return i;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s])
      if (i->opcode == op)
        return i;
  return NULL;
}

static void ir_def_use(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  k2s_instr *load = find_op(m, SpvOpLoad), *add = find_op(m, SpvOpIAdd);
  k2s_instr *one = find_op(m, SpvOpConstant), *ext = find_op(m, SpvOpExtInst);
  REQUIRE(load && add && one && ext);
  /* %one is used by the IAdd and by the ExtInst (u_abs_diff). */
  int n = 0, in_add = 0, in_ext = 0;
  k2s_foreach_use(u, m, one->result) {
    n++;
    in_add += u->user == add;
    in_ext += u->user == ext;
    CHECK_EQ(u->user->ops[u->word], one->result);
  }
  CHECK_EQ(n, 2);
  CHECK_EQ(in_add, 1);
  CHECK_EQ(in_ext, 1);
  /* The result type is a use too (word UINT32_MAX). */
  int type_uses = 0;
  k2s_foreach_use(u, m, add->type)
    type_uses += u->word == UINT32_MAX && u->user == add;
  CHECK_EQ(type_uses, 1);
  /* Replace %v (the load) by %one everywhere. */
  k2s_replace_all_uses(m, load->result, one->result);
  CHECK_EQ(add->ops[0], one->result);
  CHECK(k2s_uses_of(m, load->result) == NULL);
  n = 0;
  k2s_foreach_use(u, m, one->result)
    n++;
  CHECK_EQ(n, 3);
  /* A rebuild from scratch agrees with the moved chains. */
  k2s_invalidate_uses(m);
  n = 0;
  k2s_foreach_use(u, m, one->result)
    n++;
  CHECK_EQ(n, 3);
  CHECK(unit_validate(m, SPV_ENV_OPENCL_2_2) == NULL);
  k2s_module_free(m);
}

static void ir_names_decorations_caps(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  uint32_t uint = k2s_type_int(m, 32, false);
  k2s_set_name(m, uint, "a_rather_long_name_for_uint");
  CHECK(k2s_name_of(m, uint) && strcmp(k2s_name_of(m, uint), "a_rather_long_name_for_uint") == 0);
  uint32_t four = 4;
  k2s_decorate(m, uint, SpvDecorationAlignment, &four, 1);
  k2s_instr *d = k2s_find_decoration(m, uint, SpvDecorationAlignment);
  CHECK(d && d->n_ops == 3 && d->ops[2] == 4);
  k2s_remove_decorations(m, uint);
  CHECK(k2s_find_decoration(m, uint, SpvDecorationAlignment) == NULL);

  CHECK(k2s_has_capability(m, SpvCapabilityKernel));
  CHECK(!k2s_has_capability(m, SpvCapabilityShader));
  k2s_add_capability(m, SpvCapabilityShader);
  k2s_add_capability(m, SpvCapabilityShader);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_CAPABILITY], SpvOpCapability), 4);
  k2s_remove_capability(m, SpvCapabilityShader);
  CHECK(!k2s_has_capability(m, SpvCapabilityShader));

  k2s_add_extension(m, "SPV_KHR_storage_buffer_storage_class");
  k2s_add_extension(m, "SPV_KHR_storage_buffer_storage_class");
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_EXTENSION], SpvOpExtension), 1);
  CHECK(strcmp(k2s_string_operand(m->sec[K2S_SEC_EXTENSION].first, 0),
               "SPV_KHR_storage_buffer_storage_class") == 0);

  uint32_t ocl = m->sec[K2S_SEC_EXT_IMPORT].first->result;
  CHECK_EQ(k2s_ext_import(m, "OpenCL.std"), ocl);
  uint32_t glsl = k2s_ext_import(m, "GLSL.std.450");
  CHECK(glsl != ocl && glsl != 0);
  CHECK(m->ext_set[glsl] != K2S_EXT_UNKNOWN && m->ext_set[glsl] != m->ext_set[ocl]);
  CHECK_EQ(unit_count(&m->sec[K2S_SEC_EXT_IMPORT], SpvOpExtInstImport), 2);
  k2s_module_free(m);
}

static void ir_strings(void)
{
  k2s_module *m = k2s_module_new();
  /* A string of 4n characters needs a whole extra word for its terminator. */
  CHECK_EQ(k2s_string_words(""), 1);
  CHECK_EQ(k2s_string_words("abc"), 1);
  CHECK_EQ(k2s_string_words("abcd"), 2);
  k2s_instr *i = k2s_instr_new(m, SpvOpSourceExtension, 0, 0, NULL, 0);
  k2s_instr_push_string(m, i, "abcd");
  CHECK_EQ(i->n_ops, 2);
  CHECK_EQ(i->ops[0], 0x64636261u);
  CHECK_EQ(i->ops[1], 0);
  CHECK(strcmp(k2s_string_operand(i, 0), "abcd") == 0);
  i->ops[1] = 0x41414141u; /* no terminator */
  CHECK(k2s_string_operand(i, 0) == NULL);
  k2s_module_free(m);
}

typedef struct op_log {
  int n, ids, literals, strings, enums;
} op_log;

static bool log_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  op_log *l = ud;
  l->n++;
  l->ids += op->cls == K2S_OPND_ID;
  l->literals += op->cls == K2S_OPND_LITERAL;
  l->strings += op->cls == K2S_OPND_STRING;
  l->enums += op->cls == K2S_OPND_ENUM;
  return true;
}

static void ir_operands(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  /* OpEntryPoint Kernel %k "add": enum, id, string. */
  op_log l = {0};
  CHECK(k2s_walk_operands(m, m->sec[K2S_SEC_ENTRY_POINT].first, log_operand, &l) == NULL);
  CHECK_EQ(l.enums, 1);
  CHECK_EQ(l.ids, 1);
  CHECK_EQ(l.strings, 1);
  /* OpLoad %uint %p Aligned 4: id, memory-access mask, its literal. */
  memset(&l, 0, sizeof(l));
  CHECK(k2s_walk_operands(m, find_op(m, SpvOpLoad), log_operand, &l) == NULL);
  CHECK_EQ(l.ids, 1);
  CHECK_EQ(l.enums, 1);
  CHECK_EQ(l.literals, 1);
  /* OpExtInst %uint %ext u_abs_diff %s %one: set id, number, two ids from the OpenCL.std grammar. */
  memset(&l, 0, sizeof(l));
  CHECK(k2s_walk_operands(m, find_op(m, SpvOpExtInst), log_operand, &l) == NULL);
  CHECK_EQ(l.ids, 3);
  CHECK_EQ(l.literals, 1);
  /* Too few and too many words are reported, not read past. */
  k2s_instr *bad = k2s_instr_new(m, SpvOpIAdd, 1, 0, (uint32_t[]){2}, 1);
  CHECK_STR_CONTAINS(k2s_walk_operands(m, bad, NULL, NULL), "missing operand 2");
  k2s_instr_set_ops(m, bad, (uint32_t[]){2, 3, 4}, 3);
  CHECK_STR_CONTAINS(k2s_walk_operands(m, bad, NULL, NULL), "more words than its operands take");
  /* Names of opcodes and enumerants come from the grammar. */
  CHECK(strcmp(k2s_opcode_name(SpvOpIAdd), "OpIAdd") == 0);
  CHECK(strcmp(k2s_opcode_name(0xfffe), "Op<65534>") == 0);
  CHECK(k2s_opcode(0xfffe) == NULL);
  k2s_module_free(m);
}

static void ir_print_instr(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  char *s = k2s_print_instr(m, find_op(m, SpvOpIAdd));
  CHECK_STR_CONTAINS(s, "OpIAdd");
  CHECK_STR_CONTAINS(s, "= ");
  s = k2s_print_instr(m, m->sec[K2S_SEC_ENTRY_POINT].first);
  CHECK_STR_CONTAINS(s, "OpEntryPoint Kernel");
  CHECK_STR_CONTAINS(s, "\"add\"");
  k2s_module_free(m);
}

static void ir_diagnostics(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  k2s_instr *add = find_op(m, SpvOpIAdd);
  m->pass = "unit";
  k2s_warn(m, add, "something odd about %s", "this");
  CHECK(!m->failed);
  k2s_error(m, NULL, "broken");
  CHECK(m->failed);
  CHECK_EQ(m->n_diags, 2);
  const k2s_diagnostic *d = k2s_module_diag(m, 0);
  CHECK_EQ(d->severity, K2S_WARNING);
  CHECK(d->pass && strcmp(d->pass, "unit") == 0);
  CHECK_EQ(d->word_offset, add->offset);
  CHECK_STR_CONTAINS(d->message, "something odd about this");
  CHECK_STR_CONTAINS(d->message, "OpIAdd");
  d = k2s_module_diag(m, 1);
  CHECK_EQ(d->severity, K2S_ERROR);
  CHECK_EQ(d->word_offset, -1);
  CHECK(k2s_module_diag(m, 2) == NULL);
  k2s_module_free(m);
}

static void ir_blocks_functions(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  k2s_function *f = m->first_func;
  k2s_block *b0 = f->first;
  k2s_block *b1 = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *b2 = k2s_block_new(m, f, k2s_new_id(m));
  k2s_function_append_block(f, b2);
  k2s_function_insert_block_after(f, b0, b1);
  CHECK(f->first == b0 && b0->next == b1 && b1->next == b2 && f->last == b2);
  CHECK(b2->prev == b1 && b1->prev == b0);
  CHECK(k2s_block_of_label(m, b1->label->result) == b1);
  k2s_function_remove_block(f, b1);
  CHECK(b0->next == b2 && b2->prev == b0);
  k2s_function_remove_block(f, b2);
  CHECK(f->first == b0 && f->last == b0 && b0->next == NULL);
  CHECK(unit_validate(m, SPV_ENV_OPENCL_2_2) == NULL);
  k2s_module_free(m);
}

/* k2s_block_of_label's index follows splits, removals and clones, and
 * k2s_split_block renames the predecessor in the moved terminator's targets. */
static void ir_block_index(void)
{
  k2s_module *m = unit_module("OpCapability Addresses\n"
                              "OpCapability Kernel\n"
                              "OpMemoryModel Physical64 OpenCL\n"
                              "OpEntryPoint Kernel %k \"k\"\n"
                              "%uint = OpTypeInt 32 0\n"
                              "%bool = OpTypeBool\n"
                              "%void = OpTypeVoid\n"
                              "%ptr = OpTypePointer CrossWorkgroup %uint\n"
                              "%fn = OpTypeFunction %void %ptr\n"
                              "%one = OpConstant %uint 1\n"
                              "%k = OpFunction %void None %fn\n"
                              "%p = OpFunctionParameter %ptr\n"
                              "%entry = OpLabel\n"
                              "%v = OpLoad %uint %p Aligned 4\n"
                              "OpBranch %h\n"
                              "%h = OpLabel\n"
                              "%j = OpPhi %uint %v %entry %jn %b\n"
                              "%t = OpULessThan %bool %j %one\n"
                              "OpBranchConditional %t %b %x\n"
                              "%b = OpLabel\n"
                              "%jn = OpIAdd %uint %j %one\n"
                              "OpBranch %h\n"
                              "%x = OpLabel\n"
                              "OpStore %p %j Aligned 4\n"
                              "OpReturn\n"
                              "OpFunctionEnd\n");
  k2s_function *f = m->first_func;
  k2s_block *entry = f->first, *h = entry->next, *b = h->next, *x = b->next;
  CHECK(k2s_block_of_label(m, h->label->result) == h); /* the parsed blocks: one walk */
  CHECK(k2s_block_of_label(m, x->label->result) == x);
  CHECK(k2s_block_of_label(m, entry->body.first->result) == NULL); /* not a label */
  k2s_instr *phi = h->body.first;
  /* entry's branch moves: h's phi names the new block instead of entry. */
  k2s_block *r1 = k2s_split_block(m, entry->body.last, k2s_new_id(m));
  uint32_t to_r1 = r1->label->result;
  k2s_emit(&(k2s_builder){m, k2s_block_append(entry)}, SpvOpBranch, 0, &to_r1, 1);
  CHECK(entry->next == r1 && r1->next == h);
  CHECK_EQ(phi->ops[1], to_r1);
  CHECK(k2s_block_of_label(m, to_r1) == r1);
  /* All of b moves (its back edge with it): the phi's second edge follows. */
  k2s_block *r2 = k2s_split_block(m, b->body.first, k2s_new_id(m));
  uint32_t to_r2 = r2->label->result;
  k2s_emit(&(k2s_builder){m, k2s_block_append(b)}, SpvOpBranch, 0, &to_r2, 1);
  CHECK_EQ(phi->ops[3], to_r2);
  CHECK_EQ(phi->ops[1], to_r1);
  CHECK(unit_validate(m, SPV_ENV_OPENCL_2_2) == NULL);
  /* A block out of its function, or a function out of the module: no block. */
  k2s_function_remove_block(f, x);
  CHECK(k2s_block_of_label(m, x->label->result) == NULL);
  k2s_function_append_block(f, x);
  CHECK(k2s_block_of_label(m, x->label->result) == x);
  k2s_function *g = k2s_clone_function(m, f);
  CHECK(k2s_block_of_label(m, g->last->label->result) == NULL);
  k2s_module_append_function(m, g);
  CHECK(k2s_block_of_label(m, g->last->label->result) == g->last);
  CHECK(k2s_block_of_label(m, g->first->next->label->result) == g->first->next);
  k2s_module_remove_function(m, g);
  CHECK(k2s_block_of_label(m, g->last->label->result) == NULL);
  CHECK(k2s_block_of_label(m, x->label->result) == x);
  k2s_module_free(m);
}

static int count_uses(k2s_module *m, uint32_t id)
{
  int n = 0;
  k2s_foreach_use(u, m, id)
    n++;
  return n;
}

static void ir_def_use_stays_valid(void)
{
  /* New instructions add their uses and deleted ones drop out, without a
   * rebuild of the whole table (which made passes quadratic). */
  k2s_module *m = unit_module(unit_kernel_text);
  k2s_instr *add = find_op(m, SpvOpIAdd), *one = find_op(m, SpvOpConstant);
  REQUIRE(add && one);
  CHECK_EQ(count_uses(m, one->result), 2);
  CHECK(m->uses_valid);
  k2s_builder b = {m, k2s_after(add)};
  uint32_t ops[2] = {add->result, one->result};
  uint32_t mul = k2s_emit(&b, SpvOpIMul, add->type, ops, 2);
  CHECK(m->uses_valid);
  CHECK_EQ(count_uses(m, one->result), 3);
  CHECK_EQ(count_uses(m, add->result), 2); /* the ExtInst and the new IMul */
  /* Helpers that build decorations, names and extensions keep it valid too. */
  k2s_set_name(m, mul, "product");
  k2s_decorate(m, mul, SpvDecorationNoSignedWrap, NULL, 0);
  CHECK(m->uses_valid);
  CHECK_EQ(count_uses(m, mul), 2);
  /* Deleting: the use is gone at once, and a rebuild agrees. */
  k2s_instr_delete(m, k2s_def(m, mul));
  CHECK_EQ(count_uses(m, one->result), 2);
  CHECK_EQ(count_uses(m, add->result), 1);
  k2s_replace_all_uses(m, add->result, one->result);
  CHECK_EQ(count_uses(m, one->result), 3);
  k2s_invalidate_uses(m);
  CHECK_EQ(count_uses(m, one->result), 3);
  CHECK_EQ(count_uses(m, add->result), 0);
  /* Editing function bodies leaves interning valid; deleting a type does not. */
  uint32_t uint = k2s_type_int(m, 32, false);
  CHECK(m->intern_valid);
  k2s_instr_delete(m, find_op(m, SpvOpLoad));
  CHECK(m->intern_valid);
  CHECK_EQ(k2s_type_int(m, 32, false), uint);
  k2s_instr_delete(m, k2s_def(m, k2s_type_int(m, 8, false)));
  CHECK(!m->intern_valid);
  k2s_module_free(m);
}

static void ir_def_use_kept_across_changes(void)
{
  /* A pass that calls k2s_keep_uses changes operands through the API only, and
   * def-use follows each change instead of being rebuilt (issue 16); without it,
   * a change drops def-use as before. Each state is checked against a rebuild
   * (k2s_check_uses). */
  k2s_module *m = unit_module(unit_kernel_text);
  k2s_instr *add = find_op(m, SpvOpIAdd), *one = find_op(m, SpvOpConstant);
  REQUIRE(add && one);
  k2s_arena scratch = {0};
  uint32_t a = add->ops[0], b = add->ops[1];
  k2s_instr_set_op(m, add, 0, one->result); /* not kept: def-use is dropped */
  CHECK(!m->uses_valid);
  k2s_instr_set_op(m, add, 0, a);
  k2s_keep_uses(m);
  k2s_build_uses(m);
  int uses_a = count_uses(m, a), uses_one = count_uses(m, one->result);
  k2s_instr_set_op(m, add, 0, one->result);
  CHECK(m->uses_valid);
  CHECK_EQ(count_uses(m, one->result), uses_one + 1);
  CHECK_EQ(count_uses(m, a), uses_a - (b == a ? 0 : 1));
  CHECK(k2s_check_uses(m, &scratch) == NULL);
  /* Setting it back must not make the first record live again (a duplicate). */
  k2s_instr_set_op(m, add, 0, a);
  CHECK_EQ(count_uses(m, one->result), uses_one);
  CHECK_EQ(count_uses(m, a), uses_a);
  CHECK(k2s_check_uses(m, &scratch) == NULL);
  /* Pushed words are recorded at the next query, once. */
  k2s_instr *x = k2s_instr_new(m, SpvOpIMul, add->type, k2s_new_id(m), NULL, 0);
  k2s_list_insert_after(&add->block->body, add, x);
  k2s_instr_push_op(m, x, add->result);
  k2s_instr_push_op(m, x, one->result);
  CHECK(m->uses_valid);
  CHECK_EQ(count_uses(m, one->result), uses_one + 1);
  CHECK(k2s_check_uses(m, &scratch) == NULL);
  /* The result type, and an instruction taken out of its list. */
  uint32_t old_type = x->type, u64 = k2s_type_int(m, 64, false);
  int type_uses = count_uses(m, old_type);
  k2s_instr_set_type(m, x, u64);
  CHECK_EQ(count_uses(m, old_type), type_uses - 1);
  k2s_list_remove(&add->block->body, x);
  CHECK_EQ(count_uses(m, one->result), uses_one);
  CHECK(k2s_check_uses(m, &scratch) == NULL);
  /* A plain store is what the check is for: it names the stale record. */
  k2s_list_insert_after(&add->block->body, add, x);
  x->ops[1] = a;
  const char *why = k2s_check_uses(m, &scratch);
  CHECK(why && strstr(why, "lacks the use"));
  k2s_arena_free(&scratch);
  k2s_module_free(m);
}

/* A module importing every extended instruction set k2s knows, as %1 to %5. */
static const char ext_sets_text[] = "OpCapability Kernel\nOpCapability Addresses\n"
                                    "%1 = OpExtInstImport \"OpenCL.std\"\n"
                                    "%2 = OpExtInstImport \"GLSL.std.450\"\n"
                                    "%3 = OpExtInstImport \"NonSemantic.ClspvReflection.5\"\n"
                                    "%4 = OpExtInstImport \"OpenCL.DebugInfo.100\"\n"
                                    "%5 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
                                    "OpMemoryModel Physical64 OpenCL\n";

/* k2s_foreach_id_operand's per-opcode fast path names exactly the words the grammar
 * walk calls ids: every opcode, 0 to 9 operand words, several word patterns (zero
 * bytes end strings; set bits select enum parameters). */
typedef struct id_words {
  uint32_t pos[16];
  uint32_t n;
} id_words;

static void collect_id(void *ud, k2s_instr *in, uint32_t *id)
{
  id_words *w = ud;
  if (w->n < 16)
    w->pos[w->n++] = (uint32_t)(id - in->ops);
}

static bool collect_walked_id(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  id_words *w = ud;
  if (op->cls == K2S_OPND_ID && w->n < 16)
    w->pos[w->n++] = op->word;
  return true;
}

static void ir_id_operands_fast_path(void)
{
  /* 27 Decoration UniformId and 46 AlignmentId take an id; 0xffffffff sets every bit of
   * a mask (MemoryAccess MakePointerAvailable takes a scope id, Aligned a literal). */
  static const uint32_t patterns[] = {0, 1, 0x01010101u, 0xffffffffu, 0x00000004u, 27, 46, 3, 0x8};
  uint32_t words[9];
  int mismatches = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    if (!k2s_opcode((uint16_t)op))
      continue;
    for (uint32_t n = 0; n <= 9; n++)
      for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
        for (uint32_t i = 0; i < n; i++)
          words[i] = patterns[p] ? patterns[p] + (p == 1 ? i : 0) : 0;
        k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
        id_words fast = {{0}, 0}, walked = {{0}, 0};
        k2s_foreach_id_operand(NULL, &in, collect_id, &fast);
        k2s_walk_operands(NULL, &in, collect_walked_id, &walked);
        if (fast.n != walked.n || memcmp(fast.pos, walked.pos, fast.n * sizeof(uint32_t))) {
          if (mismatches++ < 5)
            fprintf(stderr, "%s with %u words (pattern %zu): %u ids, the grammar walk %u\n",
                    k2s_opcode_name((uint16_t)op), n, p, fast.n, walked.n);
        }
      }
  }
  /* Extended instructions of every set k2s knows (their operands come from the set's
   * grammar, which needs the module's imports). */
  k2s_module *m = unit_module(ext_sets_text);
  int ext_checked = 0;
  for (uint32_t set = 1; set <= 5; set++) {
    CHECK(m->ext_set[set] != K2S_EXT_UNKNOWN);
    for (uint32_t x = 0; x < 256; x++)
      for (uint32_t n = 2; n <= 9; n++)
        for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
          for (uint32_t i = 0; i < n; i++)
            words[i] = patterns[p] ? patterns[p] + (p == 1 ? i : 0) : 0;
          words[0] = set;
          words[1] = x;
          k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = SpvOpExtInst};
          id_words fast = {{0}, 0}, walked = {{0}, 0};
          k2s_foreach_id_operand(m, &in, collect_id, &fast);
          k2s_walk_operands(m, &in, collect_walked_id, &walked);
          ext_checked++;
          if (fast.n != walked.n || memcmp(fast.pos, walked.pos, fast.n * sizeof(uint32_t))) {
            if (mismatches++ < 10)
              fprintf(stderr, "OpExtInst set %u instruction %u with %u words: %u ids, the grammar walk %u\n",
                      set, x, n, fast.n, walked.n);
          }
        }
  }
  CHECK(ext_checked > 0);
  CHECK_EQ(mismatches, 0);
  k2s_module_free(m);
}

static bool note_enum(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  if (op->cls == K2S_OPND_ENUM)
    ++*(int *)ud;
  return true;
}

/* finalize skips the grammar walk for opcodes k2s_opcode_may_have_enum_operands
 * clears: the walk must find no enum operand in them, whatever their words. */
static void ir_enum_operand_predicate(void)
{
  static const uint32_t patterns[] = {0, 1, 0x01010101u, 0xffffffffu, 0x00000004u};
  uint32_t words[9];
  int wrong = 0, cleared = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    if (!k2s_opcode((uint16_t)op) || k2s_opcode_may_have_enum_operands((uint16_t)op))
      continue;
    cleared++;
    for (uint32_t n = 0; n <= 9; n++)
      for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
        for (uint32_t i = 0; i < n; i++)
          words[i] = patterns[p] + (p == 1 ? i : 0);
        k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
        int enums = 0;
        k2s_walk_operands(NULL, &in, note_enum, &enums);
        if (enums && wrong++ < 5)
          fprintf(stderr, "%s with %u words: the walk finds an enum operand\n",
                  k2s_opcode_name((uint16_t)op), n);
      }
  }
  CHECK_EQ(wrong, 0);
  CHECK(cleared > 100); /* most opcodes take only ids and literals */
  CHECK(!k2s_opcode_may_have_enum_operands(SpvOpIAdd));
  CHECK(k2s_opcode_may_have_enum_operands(SpvOpLoad));          /* MemoryAccess */
  CHECK(k2s_opcode_may_have_enum_operands(SpvOpDecorate));      /* Decoration */
  CHECK(k2s_opcode_may_have_enum_operands(SpvOpExtInst));       /* the set's operands */
  CHECK(k2s_opcode_may_have_enum_operands(SpvOpSpecConstantOp)); /* another opcode's */
  CHECK(k2s_opcode_may_have_enum_operands(0xffff));             /* unknown */
}

/* k2s_enumerant_name's bisection finds what a scan of the grammar's list finds:
 * the first enumerant listed with a value (aliases share values), none for others. */
static void ir_enumerant_lookup(void)
{
  int wrong = 0;
  for (uint16_t kind = 0; kind < K2S_OK_COUNT; kind++) {
    const k2s_kind_info *k = &k2s_kinds[kind];
    for (uint32_t i = 0; i < k->n_enumerants; i++) {
      uint32_t v = k2s_kind_info_enumerants(k)[i].value;
      const char *first = NULL;
      for (uint32_t j = 0; j < k->n_enumerants && !first; j++)
        if (k2s_kind_info_enumerants(k)[j].value == v)
          first = k2s_enumerant_spelling(&k2s_kind_info_enumerants(k)[j]);
      const char *found = k2s_enumerant_name(kind, v);
      if (!found || strcmp(found, first) != 0)
        wrong++;
      if (v + 1 != 0) {
        bool exists = false;
        for (uint32_t j = 0; j < k->n_enumerants; j++)
          exists |= k2s_kind_info_enumerants(k)[j].value == v + 1;
        if (!exists && k2s_enumerant_name(kind, v + 1))
          wrong++;
      }
    }
  }
  CHECK(k2s_enumerant_name(K2S_OK_DECORATION, SpvDecorationBlock) != NULL);
  CHECK_EQ(wrong, 0);
}

/* The grammar-derived opcode facts the passes use in place of hand-typed lists:
 * memory operands by name (and only where the name means a pointer) and the
 * instruction classes. */
static void ir_grammar_opcode_facts(void)
{
  CHECK_EQ(k2s_pointer_operands(SpvOpLoad), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpStore), 0x1); /* the Object is not a memory operand */
  CHECK_EQ(k2s_pointer_operands(SpvOpCopyMemorySized), 0x3);
  CHECK_EQ(k2s_pointer_operands(SpvOpInBoundsPtrAccessChain), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpGroupAsyncCopy), 0x6);
  CHECK_EQ(k2s_pointer_operands(SpvOpReservedReadPipe), 0x8);
  CHECK_EQ(k2s_pointer_operands(SpvOpPtrDiff), 0x3);
  CHECK_EQ(k2s_pointer_operands(SpvOpAtomicCompareExchange), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpAtomicFAddEXT), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpGenericCastToPtrExplicit), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpSubgroupBlockWriteINTEL), 0x1);
  CHECK_EQ(k2s_pointer_operands(SpvOpShiftLeftLogical), 0); /* 'Base' of a shift */
  CHECK_EQ(k2s_pointer_operands(SpvOpBitFieldInsert), 0);
  CHECK_EQ(k2s_pointer_operands(SpvOpDecorate), 0); /* 'Target' of a decoration */
  CHECK_EQ(k2s_pointer_operands(SpvOpName), 0);
  CHECK_EQ(k2s_pointer_operands(SpvOpIAdd), 0);
  CHECK_EQ(k2s_pointer_operands(0xfffe), 0);
  int atomics = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++)
    if (k2s_is_atomic((uint16_t)op)) {
      atomics++;
      CHECK_EQ(k2s_pointer_operands((uint16_t)op) & 1, 1);
    }
  CHECK(atomics >= 19);
  CHECK_EQ(k2s_opcode_class(SpvOpIAdd), K2S_CLASS_ARITHMETIC);
  CHECK_EQ(k2s_opcode_class(SpvOpSelect), K2S_CLASS_RELATIONAL_AND_LOGICAL);
  CHECK_EQ(k2s_opcode_class(SpvOpVectorShuffle), K2S_CLASS_COMPOSITE);
  CHECK_EQ(k2s_opcode_class(SpvOpLoad), K2S_CLASS_MEMORY);
  CHECK_EQ(k2s_opcode_class(0xfffe), -1);
}

/* The arena: k2s_alloc zeroes, also memory a reset hands out again (written
 * before); k2s_realloc_array keeps the old elements and zeroes the new ones
 * (it zeroes only those, the copied part being overwritten). */
static void ir_arena_zeroing(void)
{
  k2s_arena a = {0};
  for (int round = 0; round < 2; round++) {
    uint8_t *p = k2s_alloc(&a, 4000);
    for (int i = 0; i < 4000; i++)
      CHECK_EQ(p[i], 0);
    memset(p, 0xab, 4000);
    char *s = k2s_strdup(&a, "twelve chars");
    CHECK(strcmp(s, "twelve chars") == 0);
    uint32_t *w = k2s_alloc_uninit(&a, 40 * sizeof *w);
    for (uint32_t i = 0; i < 40; i++)
      w[i] = 0xdead0000u + i;
    w = k2s_realloc_array(&a, w, 40, 100, sizeof *w);
    for (uint32_t i = 0; i < 40; i++)
      CHECK_EQ(w[i], 0xdead0000u + i);
    for (uint32_t i = 40; i < 100; i++)
      CHECK_EQ(w[i], 0);
    w = k2s_realloc_array(&a, w, 100, 10, sizeof *w); /* shrinking keeps the first 10 */
    CHECK_EQ(w[9], 0xdead0009u);
    k2s_arena_reset(&a); /* round 2 gets the written chunk again */
  }
  k2s_arena_free(&a);
}

/* k2s_next_named_enumerant (finalize's and the repair's capability scans) visits what a
 * scan of the grammar's list in order visits: a value enum's enumerants of the value,
 * aliases included (BuiltIn FragSizeEXT / FragmentSizeNV differ in capabilities); a bit
 * enum's of every set bit. Values: each enumerant's, its neighbours, bit mixtures. */
static void ir_named_enumerants(void)
{
  int wrong = 0, visited = 0;
  for (uint16_t kind = 0; kind < K2S_OK_COUNT; kind++) {
    const k2s_kind_info *k = &k2s_kinds[kind];
    bool bits = k->category == K2S_CAT_BIT_ENUM;
    if (k->category != K2S_CAT_VALUE_ENUM && !bits)
      continue;
    for (uint32_t i = 0; i <= k->n_enumerants; i++)
      for (uint32_t d = 0; d < 4; d++) {
        uint32_t v = i < k->n_enumerants ? k2s_kind_info_enumerants(k)[i].value : 0xffffffffu;
        v = d == 1 ? v + 1 : d == 2 ? v - 1 : d == 3 ? v * 0x10001u + 0x30u : v;
        k2s_instr in = {.ops = &v, .n_ops = 1, .cap_ops = 1};
        k2s_operand op = {.word = 0, .n_words = 1, .kind = kind, .cls = K2S_OPND_ENUM};
        const k2s_enumerant *want[64], *got;
        uint32_t n_want = 0, n_got = 0, at = 0;
        for (uint32_t j = 0; j < k->n_enumerants && n_want < 64; j++) {
          const k2s_enumerant *e = &k2s_kind_info_enumerants(k)[j];
          if (bits ? e->value && (v & e->value) == e->value : e->value == v)
            want[n_want++] = e;
        }
        while ((got = k2s_next_named_enumerant(&in, &op, &at))) {
          if (n_got >= n_want || got != want[n_got])
            wrong++;
          if (++n_got > 64)
            break;
        }
        wrong += n_got != n_want;
        visited += n_got;
      }
  }
  CHECK_EQ(wrong, 0);
  CHECK(visited > 1000);
}

/* The enum operands the capability scans read (k2s_foreach_enum_operand, decoding by
 * kind) are the ones the grammar walk reports, for every opcode and set k2s knows,
 * over word patterns that hit enum values with parameters (Decoration BuiltIn 11 and
 * LinkageAttributes 41 with a string, MemoryAccess Aligned 2, mask mixtures). */
typedef struct enum_ops {
  uint32_t word[16], kind[16], n;
} enum_ops;

static bool collect_enum(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  enum_ops *e = ud;
  if (op->cls == K2S_OPND_ENUM && e->n < 16) {
    e->word[e->n] = op->word;
    e->kind[e->n++] = op->kind;
  }
  return true;
}

static int compare_enum_operands(const k2s_module *m, k2s_instr *in)
{
  enum_ops fast = {{0}, {0}, 0}, walked = {{0}, {0}, 0};
  k2s_foreach_enum_operand(m, in, collect_enum, &fast);
  k2s_walk_operands(m, in, collect_enum, &walked);
  bool same = fast.n == walked.n && !memcmp(fast.word, walked.word, sizeof fast.word) &&
              !memcmp(fast.kind, walked.kind, sizeof fast.kind);
  static int printed;
  if (!same && printed++ < 10)
    fprintf(stderr, "%s with %u words: %u enum operands, the grammar walk %u\n",
            k2s_opcode_name(in->opcode), in->n_ops, fast.n, walked.n);
  return !same;
}

static void ir_enum_operands_fast_path(void)
{
  static const uint32_t patterns[] = {0, 1, 2, 3, 4, 11, 41, 0x01010101u, 0xffffffffu, 0x2a};
  uint32_t words[9];
  int mismatches = 0, checked = 0;
  k2s_module *m = unit_module(ext_sets_text);
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT + 2; op++)
    for (uint32_t n = 0; n <= 9; n++)
      for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
        for (uint32_t shape = 0; shape < 3; shape++) {
          /* every word the pattern; word i the pattern plus i; the pattern after ids */
          for (uint32_t i = 0; i < n; i++)
            words[i] = shape == 0 ? patterns[p] : shape == 1 ? patterns[p] + i : i < 2 ? i + 1 : patterns[p];
          k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
          if (op == SpvOpExtInst && n >= 2)
            for (uint32_t set = 1; set <= 6; set++)
              for (uint32_t x = 0; x < 200; x += 1 + (p > 1) * 13) {
                words[0] = set;
                words[1] = x;
                mismatches += compare_enum_operands(m, &in);
                checked++;
              }
          else {
            mismatches += compare_enum_operands(m, &in);
            checked++;
          }
        }
  CHECK(checked > 100000);
  CHECK_EQ(mismatches, 0);
  k2s_module_free(m);
}

/* The parse checks an instruction by its word count alone where the grammar allows
 * (k2s_operands_well_formed: k2s_operand_shapes); there it must agree with the walk,
 * for every opcode whose shape is known, over counts and words that make strings end
 * early, late or never. */
static void ir_operand_shapes(void)
{
  static const uint32_t patterns[] = {0, 1, 0x01010101u, 0x00636261u, 0x61626364u, 0xffffffffu};
  uint32_t words[12];
  int wrong = 0, known = 0, formed = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    if (!k2s_opcode((uint16_t)op) || k2s_operand_shapes[op].tail == K2S_SHAPE_WALK)
      continue;
    known++;
    for (uint32_t n = 0; n <= 11; n++)
      for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
        for (uint32_t end = 0; end <= n; end++) {
          /* the pattern, with a zero word (a string's end) at word `end` when end < n */
          for (uint32_t i = 0; i < n; i++)
            words[i] = i == end ? 0 : patterns[p] + (p == 1 ? i : 0);
          k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
          bool fast = k2s_operands_well_formed(&in);
          bool walked = k2s_walk_operands(NULL, &in, NULL, NULL) == NULL;
          formed += fast;
          if (fast != walked && wrong++ < 5)
            fprintf(stderr, "%s with %u words (pattern %zu, zero at %u): %s, the walk %s\n",
                    k2s_opcode_name((uint16_t)op), n, p, end, fast ? "well-formed" : "not",
                    walked ? "well-formed" : "not");
        }
  }
  CHECK_EQ(wrong, 0);
  CHECK(known > 300 && formed > 1000);
  CHECK_EQ(k2s_operand_shapes[SpvOpName].tail, K2S_SHAPE_STRING);
  CHECK_EQ(k2s_operand_shapes[SpvOpConstant].tail, K2S_SHAPE_NUMBER);
  CHECK_EQ(k2s_operand_shapes[SpvOpDecorate].tail, K2S_SHAPE_WALK); /* Decoration's parameters */
}

static bool sync_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  (void)in;
  *(bool *)ud |= op->kind == K2S_OK_ID_SCOPE || op->kind == K2S_OK_ID_MEMORY_SEMANTICS;
  return true;
}

/* k2s_opcode_sync_operands (generated; the barriers pass walks only where it is set):
 * where it is not, the walk finds no scope or semantics operand, whatever the words. */
static void ir_sync_operand_opcodes(void)
{
  static const uint32_t values[] = {0, 1, 2, 3, 0x10000, 0x1ffffu, 0xffffffffu};
  uint32_t words[8];
  int missed = 0, flagged = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    if (!k2s_opcode((uint16_t)op) || k2s_opcode_sync_operands[op]) {
      flagged += k2s_opcode((uint16_t)op) != NULL;
      continue;
    }
    for (uint32_t n = 0; n <= 8; n++)
      for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
        for (uint32_t i = 0; i < n; i++)
          words[i] = values[(v + i) % (sizeof(values) / sizeof(values[0]))];
        k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
        bool found = false;
        k2s_walk_operands(NULL, &in, sync_operand, &found);
        if (found && missed++ < 5)
          fprintf(stderr, "%s: a scope or semantics operand, but not flagged\n",
                  k2s_opcode_name((uint16_t)op));
      }
  }
  CHECK_EQ(missed, 0);
  CHECK(k2s_opcode_sync_operands[SpvOpControlBarrier] && k2s_opcode_sync_operands[SpvOpAtomicIAdd] &&
        k2s_opcode_sync_operands[SpvOpMemoryBarrier] && k2s_opcode_sync_operands[SpvOpLoad]);
  CHECK(!k2s_opcode_sync_operands[SpvOpIAdd] && !k2s_opcode_sync_operands[SpvOpBranch]);
  CHECK(flagged > 50 && flagged < 300);
}

/* The inline path of k2s_foreach_id_operand (an instruction with fewer operand words
 * than its layout's fast_limit): for every opcode of the grammar, over every word
 * count it takes inline (up to 14) and values of every kind, the ids the grammar walk
 * finds; and the generated id-parameter sets of the enum tails (k2s_kind_id_params)
 * hold exactly the values whose enumerant takes an id. */
static void ir_id_inline_layouts(void)
{
  static const uint32_t patterns[] = {0, 1, 0x01010101u, 0xffffffffu, 0x00000004u, 27, 46, 3, 0x8};
  uint32_t words[14];
  int mismatches = 0, inline_opcodes = 0, unlimited = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    uint32_t limit = k2s_id_layouts[op].fast_limit;
    if (!k2s_opcode((uint16_t)op)) {
      if (limit)
        mismatches++; /* no opcode: only the walk's unknown-opcode answer */
      continue;
    }
    if (op == SpvOpSwitch || op == SpvOpExtInst)
      CHECK_EQ(limit, 0u);
    inline_opcodes += limit > 0;
    unlimited += limit == 0xffff;
    for (uint32_t n = 0; n < limit && n <= 14; n++)
      for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++) {
        for (uint32_t i = 0; i < n; i++)
          words[i] = patterns[p] + (p == 1 ? i : 0);
        k2s_instr in = {.ops = n ? words : NULL, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
        id_words fast = {{0}, 0}, walked = {{0}, 0};
        k2s_foreach_id_operand(NULL, &in, collect_id, &fast);
        k2s_walk_operands(NULL, &in, collect_walked_id, &walked);
        if ((fast.n != walked.n || memcmp(fast.pos, walked.pos, fast.n * sizeof(uint32_t))) &&
            mismatches++ < 5)
          fprintf(stderr, "%s with %u words (pattern %zu) inline: %u ids, the grammar walk %u\n",
                  k2s_opcode_name((uint16_t)op), n, p, fast.n, walked.n);
      }
  }
  CHECK_EQ(mismatches, 0);
  CHECK(inline_opcodes > 300 && unlimited > 20);
  CHECK(k2s_id_layouts[SpvOpIAdd].fast_limit == 3 && k2s_id_layouts[SpvOpPhi].fast_limit == 0xffff);
  CHECK(k2s_id_layouts[SpvOpLoad].fast_limit == 2); /* memory operands: the value decides */
  int wrong = 0, with_ids = 0;
  for (uint16_t kind = 0; kind < K2S_OK_COUNT; kind++) {
    const k2s_kind_info *k = &k2s_kinds[kind];
    const k2s_id_param_set *ps = &k2s_kind_id_params[kind];
    bool bits = k->category == K2S_CAT_BIT_ENUM;
    if (k->category != K2S_CAT_VALUE_ENUM && !bits) {
      wrong += ps->bits || ps->n_values;
      continue;
    }
    for (uint32_t i = 0; i < k->n_enumerants; i++) {
      uint32_t v = k2s_kind_info_enumerants(k)[i].value;
      const k2s_enumerant *e = k2s_enumerant_of(kind, v);
      bool listed = false;
      if (bits)
        listed = (ps->bits & v) != 0;
      for (uint32_t j = 0; !bits && j < ps->n_values; j++)
        listed |= k2s_id_param_values[ps->values_at + j] == v;
      with_ids += listed;
      if (listed != (e && e->param_ids) && wrong++ < 5)
        fprintf(stderr, "%s %#x: %s the id-parameter set\n", k2s_kind_info_name(k), v,
                listed ? "wrongly in" : "missing from");
    }
  }
  CHECK_EQ(wrong, 0);
  CHECK(with_ids >= 4); /* UniformId, AlignmentId, MakePointerAvailable, ... */
}

/* One-word operands then an enum (the id layout's K2S_TAIL_ENUM: decorations, memory
 * operands, loop controls): well-formed by the enum value's parameters only where the
 * walk agrees, over values with and without parameters, unknown values and bits. */
static void ir_operand_enum_tails(void)
{
  static const uint32_t values[] = {0, 1, 2, 3, 4, 6, 11, 30, 0x22, 0x10000, 0xffffffffu};
  uint32_t words[8];
  int wrong = 0, opcodes = 0, formed = 0;
  for (uint32_t op = 0; op < K2S_OPCODE_LIMIT; op++) {
    if (!k2s_opcode((uint16_t)op) || k2s_id_layouts[op].tail != K2S_TAIL_ENUM)
      continue;
    opcodes++;
    uint32_t at = k2s_id_layouts[op].n_fixed;
    for (uint32_t n = 0; n <= 7; n++)
      for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
        for (uint32_t i = 0; i < n; i++)
          words[i] = i == at ? values[v] : 5 + i;
        k2s_instr in = {.ops = words, .n_ops = n, .cap_ops = n, .opcode = (uint16_t)op};
        bool fast = k2s_operands_well_formed(&in);
        bool walked = k2s_walk_operands(NULL, &in, NULL, NULL) == NULL;
        formed += fast;
        if (fast && !walked && wrong++ < 5)
          fprintf(stderr, "%s with %u words (enum value %#x): well-formed, the walk not\n",
                  k2s_opcode_name((uint16_t)op), n, values[v]);
      }
  }
  CHECK_EQ(wrong, 0);
  CHECK(opcodes > 20 && formed > 200);
  /* OpDecorate %5 RelaxedPrecision; %5 SpecId 7; OpLoad %t %r %5 Aligned 4; %5 Volatile|Aligned 4 */
  uint32_t relaxed[] = {5, SpvDecorationRelaxedPrecision}, spec_id[] = {5, SpvDecorationSpecId, 7};
  uint32_t aligned[] = {5, SpvMemoryAccessAlignedMask, 4},
           both[] = {5, SpvMemoryAccessVolatileMask | SpvMemoryAccessAlignedMask, 4};
  k2s_instr d1 = {.ops = relaxed, .n_ops = 2, .opcode = SpvOpDecorate};
  k2s_instr d2 = {.ops = spec_id, .n_ops = 3, .opcode = SpvOpDecorate};
  k2s_instr d3 = {.ops = spec_id, .n_ops = 2, .opcode = SpvOpDecorate}; /* SpecId's literal missing */
  k2s_instr l1 = {.ops = aligned, .n_ops = 3, .opcode = SpvOpLoad};
  k2s_instr l2 = {.ops = both, .n_ops = 3, .opcode = SpvOpLoad};
  k2s_instr l3 = {.ops = aligned, .n_ops = 1, .opcode = SpvOpLoad}; /* no memory operands */
  k2s_instr l4 = {.ops = both, .n_ops = 2, .opcode = SpvOpLoad};   /* Aligned's literal missing */
  CHECK(k2s_operands_well_formed(&d1) && k2s_operands_well_formed(&d2));
  CHECK(!k2s_operands_well_formed(&d3));
  CHECK(k2s_operands_well_formed(&l1) && k2s_operands_well_formed(&l2) &&
        k2s_operands_well_formed(&l3));
  CHECK(!k2s_operands_well_formed(&l4));
}

UNIT_MAIN(T(ir_arena_zeroing), T(ir_lists), T(ir_ids), T(ir_id_overflow), T(ir_def_use), T(ir_def_use_stays_valid), T(ir_def_use_kept_across_changes), T(ir_names_decorations_caps),
          T(ir_strings), T(ir_operands), T(ir_id_operands_fast_path), T(ir_enum_operand_predicate), T(ir_enumerant_lookup), T(ir_named_enumerants), T(ir_enum_operands_fast_path), T(ir_operand_shapes), T(ir_operand_enum_tails), T(ir_id_inline_layouts), T(ir_sync_operand_opcodes), T(ir_grammar_opcode_facts), T(ir_print_instr), T(ir_diagnostics),
          T(ir_blocks_functions), T(ir_block_index))
