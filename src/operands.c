/*
 * Grammar-driven operand decoding: finds every operand of any instruction
 * (ids, literals, strings, enumerants and their parameters) from the tables
 * generated out of the SPIR-V grammar, so passes never hard-code layouts.
 */
#include <stdio.h>
#include <string.h>

#include "k2s_internal.h"

typedef struct walker {
  const k2s_module *m;
  const k2s_instr *in;
  k2s_operand_fn fn;
  void *ud;
  uint32_t pos;
  const char *error;
  bool stop;
  char buf[160];
} walker;

const k2s_opcode_info *k2s_opcode(uint16_t opcode)
{
  if (opcode >= K2S_OPCODE_LIMIT || !k2s_opcodes[opcode].name)
    return NULL;
  return &k2s_opcodes[opcode];
}

const char *k2s_opcode_name(uint16_t opcode)
{
  static _Thread_local char buf[24];
  const k2s_opcode_info *info = k2s_opcode(opcode);
  if (info)
    return info->name;
  snprintf(buf, sizeof(buf), "Op<%u>", opcode);
  return buf;
}

static const k2s_enumerant *find_enumerant(uint16_t kind, uint32_t value)
{
  const k2s_kind_info *k = &k2s_kinds[kind];
  for (uint32_t i = 0; i < k->n_enumerants; i++)
    if (k->enumerants[i].value == value)
      return &k->enumerants[i];
  return NULL;
}

const char *k2s_enumerant_name(uint16_t kind, uint32_t value)
{
  const k2s_enumerant *e = find_enumerant(kind, value);
  return e ? e->name : NULL;
}

const char *k2s_string_operand(const k2s_instr *in, uint32_t word)
{
  for (uint32_t w = word; w < in->n_ops; w++) {
    uint32_t v = in->ops[w];
    for (int b = 0; b < 4; b++)
      if (((v >> (8 * b)) & 0xffu) == 0)
        return (const char *)&in->ops[word];
  }
  return NULL;
}

uint32_t k2s_string_words(const char *s) { return (uint32_t)(strlen(s) / 4 + 1); }

static void fail(walker *w, const char *msg)
{
  if (!w->error)
    w->error = msg;
  w->stop = true;
}

static void emit(walker *w, uint16_t kind, uint8_t cls, uint32_t n_words)
{
  if (w->stop)
    return;
  if (w->pos + n_words > w->in->n_ops) {
    fail(w, "the instruction ends in the middle of an operand");
    return;
  }
  k2s_operand op = {w->pos, n_words, kind, cls};
  w->pos += n_words;
  if (w->fn && !w->fn(w->ud, w->in, &op))
    w->stop = true;
}

static void walk_kind(walker *w, uint16_t kind);

static void walk_desc(walker *w, const k2s_operand_desc *d, uint32_t n)
{
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    switch (d[i].quantifier) {
    case K2S_Q_ONE:
      if (w->pos >= w->in->n_ops) {
        snprintf(w->buf, sizeof(w->buf), "missing operand %u (%s)", i + 1,
                 k2s_kinds[d[i].kind].name);
        fail(w, w->buf);
        return;
      }
      walk_kind(w, d[i].kind);
      break;
    case K2S_Q_OPTIONAL:
      if (w->pos < w->in->n_ops)
        walk_kind(w, d[i].kind);
      break;
    default:
      while (w->pos < w->in->n_ops && !w->stop)
        walk_kind(w, d[i].kind);
      break;
    }
  }
}

static void walk_enum_params(walker *w, const k2s_enumerant *e)
{
  for (uint32_t p = 0; e && p < e->n_params && !w->stop; p++) {
    if (w->pos >= w->in->n_ops) {
      fail(w, "an enumerant's parameter is missing");
      return;
    }
    walk_kind(w, e->params[p]);
  }
}

static uint32_t string_len(walker *w)
{
  for (uint32_t i = w->pos; i < w->in->n_ops; i++) {
    uint32_t v = w->in->ops[i];
    for (int b = 0; b < 4; b++)
      if (((v >> (8 * b)) & 0xffu) == 0)
        return i - w->pos + 1;
  }
  fail(w, "a literal string is not terminated");
  return 0;
}

static void walk_spec_constant_op(walker *w)
{
  uint32_t op = w->in->ops[w->pos - 1];
  const k2s_opcode_info *info = k2s_opcode((uint16_t)op);
  if (!info || op > 0xffff) {
    fail(w, "OpSpecConstantOp names an unknown opcode");
    return;
  }
  walk_desc(w, info->operands, info->n_operands);
}

static void walk_ext_inst(walker *w)
{
  uint32_t set_id = w->in->ops[0];
  uint32_t ext_op = w->in->ops[w->pos - 1];
  uint8_t set = K2S_EXT_UNKNOWN;
  if (w->m && set_id < w->m->id_cap && w->m->ext_set)
    set = w->m->ext_set[set_id];
  if (set != K2S_EXT_UNKNOWN && set < K2S_N_EXTINST_SETS) {
    const k2s_extinst_set *s = &k2s_extinst_sets[set];
    if (ext_op < s->n_opcodes && s->insts[ext_op].name) {
      walk_desc(w, s->insts[ext_op].operands, s->insts[ext_op].n_operands);
      if (w->pos < w->in->n_ops && !w->stop)
        fail(w, "too many operands for the extended instruction");
      return;
    }
    /* A newer revision of a non-semantic set (NonSemantic.ClspvReflection.6 read with
     * the grammar of .5) may add instructions: they are ids like the rest, below. */
    if (strncmp(s->import_name, "NonSemantic.", 12) != 0) {
      fail(w, "unknown extended instruction number");
      return;
    }
  }
  /* Non-semantic sets take only <id> operands; other unknown sets are opaque. */
  bool non_semantic = false;
  if (w->m && set_id < w->m->id_cap && w->m->def && w->m->def[set_id]) {
    const char *name = k2s_string_operand(w->m->def[set_id], 0);
    non_semantic = name && strncmp(name, "NonSemantic.", 12) == 0;
  }
  while (w->pos < w->in->n_ops && !w->stop)
    emit(w, non_semantic ? K2S_OK_ID_REF : K2S_OK_LITERAL_INTEGER,
         non_semantic ? K2S_OPND_ID : K2S_OPND_LITERAL, 1);
}

static void walk_kind(walker *w, uint16_t kind)
{
  const k2s_kind_info *k = &k2s_kinds[kind];
  switch (k->category) {
  case K2S_CAT_ID:
    emit(w, kind, K2S_OPND_ID, 1);
    return;
  case K2S_CAT_VALUE_ENUM: {
    uint32_t v = w->in->ops[w->pos];
    emit(w, kind, K2S_OPND_ENUM, 1);
    walk_enum_params(w, find_enumerant(kind, v));
    return;
  }
  case K2S_CAT_BIT_ENUM: {
    uint32_t v = w->in->ops[w->pos];
    emit(w, kind, K2S_OPND_ENUM, 1);
    for (uint32_t bit = 0; bit < 32 && !w->stop; bit++)
      if (v & (1u << bit))
        walk_enum_params(w, find_enumerant(kind, 1u << bit));
    return;
  }
  case K2S_CAT_COMPOSITE:
    walk_kind(w, k->bases[0]);
    if (!w->stop)
      walk_kind(w, k->bases[1]);
    return;
  default:
    break;
  }
  if (kind == K2S_OK_LITERAL_STRING) {
    uint32_t n = string_len(w);
    if (n)
      emit(w, kind, K2S_OPND_STRING, n);
  } else if (kind == K2S_OK_LITERAL_CONTEXT_DEPENDENT_NUMBER) {
    /* OpConstant / OpSpecConstant: the number fills the rest. */
    emit(w, kind, K2S_OPND_LITERAL, w->in->n_ops - w->pos);
  } else if (kind == K2S_OK_LITERAL_EXT_INST_INTEGER) {
    emit(w, kind, K2S_OPND_LITERAL, 1);
    if (!w->stop)
      walk_ext_inst(w);
  } else if (kind == K2S_OK_LITERAL_SPEC_CONSTANT_OP_INTEGER) {
    emit(w, kind, K2S_OPND_LITERAL, 1);
    if (!w->stop)
      walk_spec_constant_op(w);
  } else {
    emit(w, kind, K2S_OPND_LITERAL, 1);
  }
}

/* OpSwitch literals are as wide as the selector's type, which the grammar
 * cannot say; look the selector up. */
static void walk_switch(walker *w)
{
  emit(w, K2S_OK_ID_REF, K2S_OPND_ID, 1);
  emit(w, K2S_OK_ID_REF, K2S_OPND_ID, 1);
  uint32_t lit = 1;
  if (w->m && !w->stop) {
    uint32_t t = k2s_type_of(w->m, w->in->ops[0]);
    if (k2s_type_width(w->m, t) == 64)
      lit = 2;
  }
  while (w->pos < w->in->n_ops && !w->stop) {
    emit(w, K2S_OK_LITERAL_INTEGER, K2S_OPND_LITERAL, lit);
    emit(w, K2S_OK_ID_REF, K2S_OPND_ID, 1);
  }
}

const char *k2s_walk_operands(const k2s_module *m, const k2s_instr *in, k2s_operand_fn fn,
                              void *ud)
{
  static _Thread_local char msg[160];
  walker w = {.m = m, .in = in, .fn = fn, .ud = ud};
  const k2s_opcode_info *info = k2s_opcode(in->opcode);
  if (!info) {
    /* Unknown opcode: opaque words that round-trip untouched. */
    if (in->n_ops)
      emit(&w, K2S_OK_LITERAL_INTEGER, K2S_OPND_LITERAL, in->n_ops);
    return NULL;
  }
  if (in->opcode == SpvOpSwitch)
    walk_switch(&w);
  else
    walk_desc(&w, info->operands, info->n_operands);
  if (!w.error && w.pos < in->n_ops && !w.stop)
    w.error = "the instruction has more words than its operands take";
  if (w.error) {
    snprintf(msg, sizeof(msg), "%s", w.error);
    return msg;
  }
  return NULL;
}

typedef struct id_walk {
  k2s_id_fn fn;
  void *ud;
} id_walk;

static bool id_cb(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  id_walk *iw = ud;
  if (op->cls == K2S_OPND_ID)
    iw->fn(iw->ud, (k2s_instr *)in, &((k2s_instr *)in)->ops[op->word]);
  return true;
}

void k2s_foreach_id_operand(const k2s_module *m, k2s_instr *in, k2s_id_fn fn, void *ud)
{
  id_walk iw = {fn, ud};
  k2s_walk_operands(m, in, id_cb, &iw);
}
