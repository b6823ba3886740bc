/*
 * SPIR-V binary → IR. Checks the structure as it goes and reports the first
 * problem with its word offset and, where the words allow, the disassembled
 * instruction. Never reads out of bounds; every loop advances by at least a
 * word; ids are bounds-checked against the header's bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

#define SPV_MAGIC 0x07230203u
#define K2S_MAX_BOUND 0x400000u /* SPIR-V's universal limit on ids is 4194303 */

typedef struct parser {
  k2s_module *m;
  const uint32_t *w;
  size_t n;
  k2s_parse_error *err;
  uint8_t *fwd_pointer; /* ids named by OpTypeForwardPointer */
  /* Ids used before their definition (allowed in functions): check_module looks
   * only at these, instead of decoding every instruction's ids a second time. */
  uint8_t *used_early;
  uint32_t n_used_early;
  bool failed;
  k2s_function *func;
  k2s_block *block;
  int section;
  bool in_functions;
} parser;

static bool perr(parser *p, const k2s_instr *at, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool perr(parser *p, const k2s_instr *at, size_t offset, const char *fmt, ...)
{
  if (p->failed)
    return false;
  p->failed = true;
  p->err->word_offset = (int64_t)offset;
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (at) {
    char *text = k2s_print_instr(p->m, at);
    snprintf(p->err->message, sizeof(p->err->message), "%s (word %zu: %.120s)", msg, offset,
             text);
  } else {
    snprintf(p->err->message, sizeof(p->err->message), "%s (word %zu)", msg, offset);
  }
  return false;
}

static bool check_header(parser *p)
{
  k2s_module *m = p->m;
  if (p->n < 5)
    return perr(p, NULL, 0, "the module is too short for a SPIR-V header (%zu words, need 5)",
                p->n);
  uint32_t version = p->w[1];
  uint32_t major = (version >> 16) & 0xff, minor = (version >> 8) & 0xff;
  if ((version & 0xff0000ffu) != 0 || major != 1 || minor > 6)
    return perr(p, NULL, 1, "unsupported SPIR-V version word 0x%08x (k2s reads 1.0 to 1.6)",
                version);
  uint32_t bound = p->w[3];
  if (bound == 0)
    return perr(p, NULL, 3, "the id bound is 0; a module needs at least one id");
  if (bound > K2S_MAX_BOUND)
    return perr(p, NULL, 3, "the id bound %u is beyond SPIR-V's limit of %u", bound,
                K2S_MAX_BOUND);
  m->version = version;
  m->generator = p->w[2];
  m->schema = p->w[4];
  /* Size the id tables once; the bound is trusted only after the check above. */
  k2s_set_def(m, bound - 1, NULL);
  m->bound = bound;
  m->input_bound = bound;
  p->fwd_pointer = k2s_alloc(&m->arena, bound);
  p->used_early = k2s_alloc(&m->arena, bound);
  return true;
}

typedef struct id_check {
  parser *p;
  const k2s_instr *in;
  size_t offset;
  bool global; /* types/constants/variables: no forward references */
} id_check;

/* The id in operand word `word` of in: in the bound, and defined before where it must be. */
static bool check_id(id_check *c, const k2s_instr *in, uint32_t word)
{
  parser *p = c->p;
  uint32_t id = in->ops[word];
  if (id == 0 || id >= p->m->bound)
    return perr(p, in, c->offset, "operand %u is id %u, outside the module's bound %u", word + 1,
                id, p->m->bound);
  if (p->m->def[id])
    return true;
  if (c->global && !p->fwd_pointer[id])
    return perr(p, in, c->offset,
                "%s refers to %%%u before it is defined (a forward reference or a cycle among "
                "types and constants)",
                k2s_opcode_name(in->opcode), id);
  if (!p->used_early[id]) {
    p->used_early[id] = 1;
    p->n_used_early++;
  }
  return true;
}

static bool check_operand(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  return op->cls != K2S_OPND_ID || check_id(ud, in, op->word);
}

static void check_id_word(void *ud, k2s_instr *in, uint32_t *id)
{
  id_check *c = ud;
  if (!c->p->failed)
    check_id(c, in, (uint32_t)(id - in->ops));
}

static bool is_global_def(uint16_t op)
{
  switch (op) {
  case SpvOpLine:
  case SpvOpNoLine:
  case SpvOpExtInst:
  case SpvOpTypeForwardPointer:
    return false;
  default:
    return true;
  }
}

static bool place_module_level(parser *p, k2s_instr *in, size_t offset)
{
  k2s_module *m = p->m;
  int s = k2s_section_of_opcode(in->opcode);
  if (p->in_functions) {
    /* Non-semantic instructions (e.g. ClspvReflection) may follow the functions. */
    if (in->opcode == SpvOpExtInst) {
      k2s_list_append(&m->tail, in);
      return true;
    }
    return perr(p, in, offset, "%s may not appear between or after functions",
                k2s_opcode_name(in->opcode));
  }
  if (s < p->section)
    return perr(p, in, offset, "%s is out of the module's layout order",
                k2s_opcode_name(in->opcode));
  p->section = s;
  k2s_list_append(&m->sec[s], in);
  if (in->opcode == SpvOpTypeForwardPointer && in->n_ops >= 1 && in->ops[0] < m->bound)
    p->fwd_pointer[in->ops[0]] = 1;
  return true;
}

static bool place_in_function(parser *p, k2s_instr *in, size_t offset)
{
  k2s_module *m = p->m;
  switch (in->opcode) {
  case SpvOpFunction:
    if (p->func)
      return perr(p, in, offset, "OpFunction inside another function (missing OpFunctionEnd)");
    p->func = k2s_alloc(&m->arena, sizeof(*p->func));
    p->func->def = in;
    p->block = NULL;
    p->in_functions = true;
    k2s_module_append_function(m, p->func);
    return true;
  case SpvOpFunctionEnd:
    if (!p->func)
      return perr(p, in, offset, "OpFunctionEnd outside a function");
    p->func->end = in;
    p->func = NULL;
    p->block = NULL;
    return true;
  case SpvOpFunctionParameter:
    if (!p->func || p->block)
      return perr(p, in, offset, "OpFunctionParameter outside a function's head");
    k2s_list_append(&p->func->head, in);
    return true;
  case SpvOpLabel: {
    if (!p->func)
      return perr(p, in, offset, "OpLabel outside a function");
    k2s_block *b = k2s_alloc(&m->arena, sizeof(*b));
    b->label = in;
    k2s_function_append_block(p->func, b);
    p->block = b;
    return true;
  }
  default:
    if (!p->func)
      return place_module_level(p, in, offset);
    if (!p->block) {
      if (in->opcode == SpvOpLine || in->opcode == SpvOpNoLine) {
        k2s_list_append(&p->func->head, in);
        return true;
      }
      return perr(p, in, offset, "%s in a function before its first OpLabel",
                  k2s_opcode_name(in->opcode));
    }
    in->block = p->block;
    k2s_list_append(&p->block->body, in);
    return true;
  }
}

static bool parse_instr(parser *p, size_t at, uint32_t wc)
{
  k2s_module *m = p->m;
  uint16_t op = p->w[at] & 0xffff;
  const k2s_opcode_info *info = k2s_opcode(op);
  uint32_t fixed = 1 + (info && info->has_type) + (info && info->has_result);
  /* The instruction and its operand words in one allocation (a later growth of the
   * operands takes new memory: k2s_instr_push_op). */
  size_t n_words = wc >= fixed ? wc - fixed : 0;
  k2s_instr *in = k2s_alloc_uninit(&m->arena, sizeof(*in) + n_words * sizeof(uint32_t));
  memset(in, 0, sizeof(*in));
  in->opcode = op;
  in->offset = (uint32_t)at;
  if (wc < fixed) {
    in->n_ops = 0;
    return perr(p, NULL, at, "%s has %u words, fewer than its result type and id need",
                k2s_opcode_name(op), wc);
  }
  size_t w = at + 1;
  if (info && info->has_type)
    in->type = p->w[w++];
  if (info && info->has_result)
    in->result = p->w[w++];
  in->n_ops = in->cap_ops = (uint32_t)(at + wc - w);
  if (in->n_ops) {
    in->ops = (uint32_t *)(in + 1);
    memcpy(in->ops, p->w + w, in->n_ops * sizeof(uint32_t));
  }
  if (in->type && (in->type >= m->bound || !k2s_def(m, in->type)))
    return perr(p, in, at, "result type %%%u is not defined before its use", in->type);
  if (info && info->has_type && in->type == 0)
    return perr(p, in, at, "result type id 0 is not a valid id");
  if (info && info->has_result) {
    if (in->result == 0 || in->result >= m->bound)
      return perr(p, in, at, "result id %u is outside the module's bound %u", in->result,
                  m->bound);
    k2s_instr *prev = k2s_def(m, in->result);
    if (prev)
      return perr(p, in, at, "id %%%u is defined twice (first by %s at word %u)", in->result,
                  k2s_opcode_name(prev->opcode), prev->offset);
  }
  bool global = !p->func && !p->in_functions && k2s_section_of_opcode(op) == K2S_SEC_GLOBAL &&
                is_global_def(op);
  id_check c = {p, in, at, global};
  const char *why = NULL;
  if (k2s_operands_well_formed(in))
    /* Well-formed by its word count alone: only its ids to check, found by the fast
     * decoding (the grammar walk per instruction was 40% of the parse). */
    k2s_foreach_id_operand(m, in, check_id_word, &c);
  else
    why = k2s_walk_operands(m, in, check_operand, &c);
  if (p->failed)
    return false;
  if (why)
    return perr(p, in, at, "%s: %s", k2s_opcode_name(op), why);
  if (!place_in_function(p, in, at))
    return false;
  if (in->result)
    m->def[in->result] = in;
  if (op == SpvOpExtInstImport)
    k2s_note_ext_import(m, in);
  return true;
}

typedef struct undef_check {
  parser *p;
} undef_check;

static void check_defined(void *ud, k2s_instr *in, uint32_t *id)
{
  parser *p = ud;
  if (!p->failed && !k2s_def(p->m, *id))
    perr(p, in, in->offset, "id %%%u is used but never defined", *id);
}

static bool check_all_defined(parser *p, k2s_instr *in)
{
  /* OpTypeForwardPointer names the pointer it will define; OpName and
   * decorations of ids nobody defines are harmless but still wrong. Every
   * instruction's operands passed the grammar walk when it was read, so the
   * fast id decoding finds the same ids (a second grammar walk per
   * instruction was 4% of a small translation). */
  k2s_foreach_id_operand(p->m, in, check_defined, p);
  return !p->failed;
}

static bool check_module(parser *p)
{
  k2s_module *m = p->m;
  if (p->func)
    return perr(p, NULL, p->n, "the module ends inside a function (missing OpFunctionEnd)");
  /* Every used id was defined where it was used, except these: when all of them are
   * defined now, so is every used id; otherwise the walk below finds the first use. */
  uint32_t undefined = 0;
  for (uint32_t id = 1; id < m->bound && p->n_used_early; id++)
    undefined += p->used_early[id] && !m->def[id];
  if (!undefined)
    return true;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s])
      if (!check_all_defined(p, i))
        return false;
  k2s_foreach_instr(i, &m->tail)
    if (!check_all_defined(p, i))
      return false;
  k2s_foreach_function(f, m) {
    if (!check_all_defined(p, f->def))
      return false;
    k2s_foreach_instr(i, &f->head)
      if (!check_all_defined(p, i))
        return false;
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (!check_all_defined(p, i))
          return false;
  }
  return true;
}

static uint32_t bswap32(uint32_t v)
{
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

k2s_module *k2s_parse(const uint32_t *words, size_t n_words, k2s_parse_error *err)
{
  memset(err, 0, sizeof(*err));
  err->word_offset = -1;
  if (n_words == 0) {
    err->word_offset = 0;
    snprintf(err->message, sizeof(err->message), "the module is empty");
    return NULL;
  }
  k2s_module *m = k2s_module_new();
  if (!m) {
    snprintf(err->message, sizeof(err->message), "out of memory");
    return NULL;
  }
  jmp_buf oom;
  m->arena.oom = &oom;
  if (setjmp(oom)) {
    snprintf(err->message, sizeof(err->message), "out of memory while parsing");
    k2s_module_free(m);
    k2s_budget_rethrow(); /* the translation's budget, not this parse, ran out */
    return NULL;
  }
  parser p = {.m = m, .w = words, .n = n_words, .err = err, .section = 0};
  if (words[0] != SPV_MAGIC) {
    if (bswap32(words[0]) != SPV_MAGIC) {
      err->word_offset = 0;
      snprintf(err->message, sizeof(err->message),
               "not a SPIR-V binary: the first word is 0x%08x, not the magic number 0x07230203",
               words[0]);
      k2s_module_free(m);
      return NULL;
    }
    uint32_t *sw = k2s_alloc(&m->arena, n_words * sizeof(uint32_t));
    for (size_t i = 0; i < n_words; i++)
      sw[i] = bswap32(words[i]);
    p.w = sw;
    m->big_endian = true;
  }
  if (!check_header(&p))
    goto fail;
  for (size_t at = 5; at < n_words;) {
    uint32_t wc = p.w[at] >> 16;
    if (wc == 0) {
      perr(&p, NULL, at, "instruction word count is 0 (opcode %u)", p.w[at] & 0xffff);
      goto fail;
    }
    if (wc > n_words - at) {
      perr(&p, NULL, at, "%s claims %u words but only %zu remain in the module",
           k2s_opcode_name(p.w[at] & 0xffff), wc, n_words - at);
      goto fail;
    }
    if (!parse_instr(&p, at, wc))
      goto fail;
    at += wc;
  }
  if (!check_module(&p))
    goto fail;
  m->arena.oom = NULL;
  return m;
fail:
  k2s_module_free(m);
  return NULL;
}
