/*
 * Grammar-driven operand decoding: finds every operand of any instruction
 * (ids, literals, strings, enumerants and their parameters) from the tables
 * generated out of the SPIR-V grammar, so passes never hard-code layouts.
 */
#include <stdio.h>
#include <stdlib.h>
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
  uint8_t not_value; /* the not_value bits of the operand being walked */
  char buf[160];
} walker;

const k2s_opcode_info *k2s_opcode(uint16_t opcode)
{
  if (opcode >= K2S_OPCODE_LIMIT || !k2s_opcodes[opcode].name_at)
    return NULL;
  return &k2s_opcodes[opcode];
}

int k2s_opcode_class(uint16_t opcode)
{
  const k2s_opcode_info *info = k2s_opcode(opcode);
  return info ? info->op_class : -1;
}

uint8_t k2s_pointer_operands(uint16_t opcode)
{
  const k2s_opcode_info *info = k2s_opcode(opcode);
  return info ? info->pointers : 0;
}

const char *k2s_opcode_name(uint16_t opcode)
{
  static _Thread_local char buf[24];
  const k2s_opcode_info *info = k2s_opcode(opcode);
  if (info)
    return k2s_opcode_info_name(info);
  snprintf(buf, sizeof(buf), "Op<%u>", opcode);
  return buf;
}

/* The first position in kind's by-value list (k2s_enumerants_by_value, generated:
 * increasing values, aliases in grammar order) whose value is >= value. A linear scan
 * per enum operand (Decoration has hundreds of values) was most of the cost of walking
 * an OpDecorate, and of finalize's capability scan. */
static uint32_t lower_bound(const k2s_kind_info *k, uint64_t value)
{
  const uint16_t *e = &k2s_enumerants_by_value[k->by_value];
  uint32_t lo = 0, hi = k->n_by_value;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (k2s_kind_info_enumerants(k)[e[mid]].value < value)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static const k2s_enumerant *by_value_at(const k2s_kind_info *k, uint32_t pos)
{
  return pos < k->n_by_value ? &k2s_kind_info_enumerants(k)[k2s_enumerants_by_value[k->by_value + pos]] : NULL;
}

/* The first enumerant listed with the value, as a scan in grammar order finds it. */
static const k2s_enumerant *find_enumerant(uint16_t kind, uint32_t value)
{
  const k2s_kind_info *k = &k2s_kinds[kind];
  const k2s_enumerant *e = by_value_at(k, lower_bound(k, value));
  return e && e->value == value ? e : NULL;
}

const k2s_enumerant *k2s_enumerant_of(uint16_t kind, uint32_t value)
{
  return kind < K2S_OK_COUNT ? find_enumerant(kind, value) : NULL;
}

/* *at: 0 at the start, else one past the by-value position last returned. A value
 * enum's enumerants of the operand's value (aliases in grammar order); a bit enum's
 * of each set bit, lowest first (the grammar lists bits in increasing order, and
 * gen_tables.py checks that each value is one bit). */
const k2s_enumerant *k2s_next_named_enumerant(const k2s_instr *in, const k2s_operand *op,
                                              uint32_t *at)
{
  const k2s_kind_info *k = &k2s_kinds[op->kind];
  uint32_t v = in->ops[op->word];
  bool bits = k->category == K2S_CAT_BIT_ENUM;
  const k2s_enumerant *e;
  if (*at) {
    const k2s_enumerant *prev = by_value_at(k, *at - 1);
    e = by_value_at(k, *at);
    if (e && e->value == prev->value) {
      ++*at;
      return e;
    }
    if (!bits)
      return NULL;
    v &= (uint32_t)~((2ull * prev->value) - 1); /* the bits above the last one */
  }
  if (bits && !v)
    return NULL;
  uint32_t want = bits ? v & -v : v;
  uint32_t pos = lower_bound(k, want);
  while ((e = by_value_at(k, pos)) && bits && e->value != want) {
    /* no enumerant for this bit: the next set bit */
    v &= v - 1;
    if (!v)
      return NULL;
    want = v & -v;
    pos = lower_bound(k, want);
  }
  if (!e || e->value != want)
    return NULL;
  *at = pos + 1;
  return e;
}

const char *k2s_enumerant_name(uint16_t kind, uint32_t value)
{
  const k2s_enumerant *e = find_enumerant(kind, value);
  return e ? k2s_enumerant_spelling(e) : NULL;
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
  k2s_operand op = {w->pos, n_words, kind, cls, cls == K2S_OPND_ID && !(w->not_value & 1)};
  w->pos += n_words;
  if (w->fn && !w->fn(w->ud, w->in, &op))
    w->stop = true;
}

static void walk_kind(walker *w, uint16_t kind);

static void walk_desc(walker *w, const k2s_operand_desc *d, uint32_t n)
{
  for (uint32_t i = 0; i < n && !w->stop; i++) {
    w->not_value = d[i].not_value;
    switch (d[i].quantifier) {
    case K2S_Q_ONE:
      if (w->pos >= w->in->n_ops) {
        snprintf(w->buf, sizeof(w->buf), "missing operand %u (%s)", i + 1,
                 k2s_kind_info_name(&k2s_kinds[d[i].kind]));
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
  uint8_t outer = w->not_value;
  w->not_value = 0; /* an enumerant's <id> parameters are values */
  for (uint32_t p = 0; e && p < e->n_params && !w->stop; p++) {
    if (w->pos >= w->in->n_ops) {
      fail(w, "an enumerant's parameter is missing");
      return;
    }
    walk_kind(w, k2s_enumerant_params(e)[p]);
  }
  w->not_value = outer;
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
  walk_desc(w, k2s_opcode_info_operands(info), info->n_operands);
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
    const k2s_extinst_info *x = k2s_extinst_set_inst(s, ext_op);
    if (x) {
      walk_desc(w, k2s_extinst_info_operands(x), x->n_operands);
      if (w->pos < w->in->n_ops && !w->stop)
        fail(w, "too many operands for the extended instruction");
      return;
    }
    /* A newer revision of a non-semantic set (NonSemantic.ClspvReflection.6 read with
     * the grammar of .5) may add instructions: they are ids like the rest, below. */
    if (strncmp(k2s_extinst_set_import_name(s), "NonSemantic.", 12) != 0) {
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
  w->not_value = 1; /* what a set k2s does not know names, it cannot say */
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
  case K2S_CAT_COMPOSITE: {
    uint8_t pair = w->not_value;
    w->not_value = pair & 1;
    walk_kind(w, k->bases[0]);
    w->not_value = pair >> 1 & 1;
    if (!w->stop)
      walk_kind(w, k->bases[1]);
    w->not_value = pair;
    return;
  }
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
  const k2s_operand_desc *d = k2s_opcode_info_operands(&k2s_opcodes[SpvOpSwitch]); /* Selector, Default, pairs */
  w->not_value = d[0].not_value;
  emit(w, K2S_OK_ID_REF, K2S_OPND_ID, 1);
  w->not_value = d[1].not_value;
  emit(w, K2S_OK_ID_REF, K2S_OPND_ID, 1);
  uint32_t lit = 1;
  if (w->m && !w->stop) {
    uint32_t t = k2s_type_of(w->m, w->in->ops[0]);
    if (k2s_type_width(w->m, t) == 64)
      lit = 2;
  }
  w->not_value = d[2].not_value >> 1;
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
    walk_desc(&w, k2s_opcode_info_operands(info), info->n_operands);
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

/* Where an opcode's ids are, when its grammar fixes that without looking at the
 * operands' values: k2s_id_layouts (generated, see k2s_id_layout); walking the grammar
 * per instruction (a linear search of the enumerants per enum operand) was half of
 * all the work of a translation. */
bool k2s_opcode_may_have_enum_operands(uint16_t opcode)
{
  return opcode >= K2S_OPCODE_LIMIT || !k2s_opcode(opcode) || k2s_opcode_enum_operands[opcode];
}

/* The words after an enum operand of kind `kind` holding v that its value's parameters
 * take (of each set bit, for a bit enum), where every parameter is one word (an id, or a
 * literal or enum that takes one); -1 where only the walk can tell. */
static int enum_param_words(uint16_t kind, uint32_t v)
{
  bool bits = k2s_kinds[kind].category == K2S_CAT_BIT_ENUM;
  int words = 0;
  for (uint32_t rest = bits ? v : 1; rest; rest &= rest - 1) {
    const k2s_enumerant *e = find_enumerant(kind, bits ? rest & -rest : v);
    for (uint32_t p = 0; e && p < e->n_params; p++) {
      uint8_t c = k2s_kind_class[k2s_enumerant_params(e)[p]];
      if (c != K2S_KIND_ID && c != K2S_KIND_LITERAL)
        return -1;
      words++;
    }
  }
  return words;
}

/* One-word operands, then an enum whose value's parameters follow (the id layout's
 * K2S_TAIL_ENUM): OpDecorate, OpLoad and OpStore with memory operands, loop merges.
 * Most of the grammar walks of a parse were these. */
static bool enum_tail_well_formed(const k2s_instr *in)
{
  const k2s_id_layout *l = &k2s_id_layouts[in->opcode];
  uint32_t n = in->n_ops;
  if (l->tail != K2S_TAIL_ENUM || n < l->n_fixed)
    return false;
  if (n == l->n_fixed)
    return l->tail_optional;
  int p = enum_param_words(l->enum_kind, in->ops[l->n_fixed]);
  return p >= 0 && n == l->n_fixed + 1u + (uint32_t)p;
}

bool k2s_operands_well_formed(const k2s_instr *in)
{
  if (in->opcode >= K2S_OPCODE_LIMIT)
    return false;
  const k2s_operand_shape *sh = &k2s_operand_shapes[in->opcode];
  uint32_t n = in->n_ops;
  if (sh->tail == K2S_SHAPE_WALK)
    return enum_tail_well_formed(in);
  if (n < sh->n_fixed)
    return false;
  switch (sh->tail) {
  case K2S_SHAPE_UNITS:
    return (n - sh->n_fixed) % sh->unit == 0 && (n - sh->n_fixed) / sh->unit <= sh->max;
  case K2S_SHAPE_NUMBER: return n > sh->n_fixed;
  case K2S_SHAPE_STRING:
    /* the string's first word with a zero byte is the last word */
    for (uint32_t w = sh->n_fixed; w < n; w++) {
      uint32_t v = in->ops[w];
      if (!(v & 0xffu) || !(v & 0xff00u) || !(v & 0xff0000u) || !(v & 0xff000000u))
        return w + 1 == n;
    }
    return false;
  default: return false;
  }
}

/* The layout of a set's extended instruction (op within the set's n_opcodes). */
static const k2s_id_layout *ext_layout(uint32_t set, uint32_t op)
{
  return &k2s_ext_id_layouts[k2s_extinst_sets[set].layouts + op];
}

/* One operand of kind `kind` at *pos, as the grammar walk reads it: returns 0
 * where only the walk can tell (the caller falls back to it), 1 when decoded,
 * 2 when the walk would stop here (words missing or an unterminated string; the
 * ids before stay reported, as the walk reports them). fn NULL: only checks. */
static int decode_kind(const k2s_instr *in, uint16_t kind, uint32_t *pos, k2s_id_fn fn, void *ud)
{
  uint32_t n = in->n_ops;
  if (*pos >= n)
    return 2;
  switch (k2s_kind_class[kind]) {
  case K2S_KIND_ID:
    if (fn)
      fn(ud, (k2s_instr *)in, &((k2s_instr *)in)->ops[*pos]);
    (*pos)++;
    return 1;
  case K2S_KIND_LITERAL: (*pos)++; return 1;
  case K2S_KIND_ENUM: {
    const k2s_kind_info *k = &k2s_kinds[kind];
    uint32_t v = in->ops[(*pos)++];
    /* A value enum once; a bit enum's set bits, lowest first (as the walk). */
    bool bits = k->category == K2S_CAT_BIT_ENUM;
    for (uint32_t rest = bits ? v : 1; rest; rest &= rest - 1) {
      const k2s_enumerant *e = find_enumerant(kind, bits ? rest & -rest : v);
      for (uint32_t p = 0; e && p < e->n_params; p++) {
        uint16_t pk = k2s_enumerant_params(e)[p];
        uint8_t c = k2s_kind_class[pk];
        if (c != K2S_KIND_ID && c != K2S_KIND_LITERAL && pk != K2S_OK_LITERAL_STRING)
          return 0;
        int r = decode_kind(in, pk, pos, fn, ud);
        if (r != 1)
          return r;
      }
    }
    return 1;
  }
  default: break;
  }
  if (kind == K2S_OK_LITERAL_STRING) {
    for (uint32_t i = *pos; i < n; i++) {
      uint32_t v = in->ops[i];
      if (!(v & 0xffu) || !(v & 0xff00u) || !(v & 0xff0000u) || !(v & 0xff000000u)) {
        *pos = i + 1;
        return 1;
      }
    }
    return 2;
  }
  if (kind == K2S_OK_LITERAL_CONTEXT_DEPENDENT_NUMBER) {
    *pos = n;
    return 1;
  }
  if (k2s_kinds[kind].category == K2S_CAT_COMPOSITE) {
    int r = decode_kind(in, k2s_kinds[kind].bases[0], pos, fn, ud);
    return r == 1 ? decode_kind(in, k2s_kinds[kind].bases[1], pos, fn, ud) : r;
  }
  return 0;
}

/* The operands d[0..nd) from word pos on, as walk_desc reads them (0: only the
 * walk can tell). Words past the last operand are an error the walk reports
 * after its last id: nothing more to call fn for. */
static int decode_ids(const k2s_instr *in, const k2s_operand_desc *d, uint32_t nd, uint32_t pos,
                      k2s_id_fn fn, void *ud)
{
  for (uint32_t i = 0; i < nd; i++) {
    int r = 1;
    switch (d[i].quantifier) {
    case K2S_Q_ONE: r = decode_kind(in, d[i].kind, &pos, fn, ud); break;
    case K2S_Q_OPTIONAL:
      if (pos < in->n_ops)
        r = decode_kind(in, d[i].kind, &pos, fn, ud);
      break;
    default:
      while (r == 1 && pos < in->n_ops)
        r = decode_kind(in, d[i].kind, &pos, fn, ud);
      break;
    }
    if (r != 1)
      return r;
  }
  return 1;
}

/* The ids decode_ids finds, gathered so that one decoding both decides whether
 * the walk is needed and reports them (decoding twice, once to check and once to
 * report, was a fifth of a small translation: every def-use rebuild does it for
 * each OpExtInst and decorated or memory-operand instruction). */
typedef struct id_list {
  uint32_t *at[32];
  uint32_t n;
  bool overflow;
} id_list;

static void gather_id(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  id_list *l = ud;
  if (l->n < sizeof(l->at) / sizeof(l->at[0]))
    l->at[l->n++] = id;
  else
    l->overflow = true;
}

/* Decodes in->ops from pos on by d[0..nd) and reports the ids to fn, the words
 * before pos that are ids first (an OpExtInst's set). False: only the walk can
 * tell, and nothing was reported. */
static bool decode_and_report(k2s_instr *in, const k2s_operand_desc *d, uint32_t nd, uint32_t pos,
                              k2s_id_fn fn, void *ud)
{
  id_list l; /* at[] is written before it is read: no zeroing of 32 pointers */
  l.n = 0;
  l.overflow = false;
  if (!decode_ids(in, d, nd, pos, gather_id, &l))
    return false;
  if (pos)
    fn(ud, in, &in->ops[0]);
  if (l.overflow) /* more ids than gathered: decode again, reporting as it goes */
    return decode_ids(in, d, nd, pos, fn, ud), true;
  for (uint32_t i = 0; i < l.n; i++)
    fn(ud, in, l.at[i]);
  return true;
}

/* Whether a layout fixes where the ids of n operand words are. */
static bool layout_fits(const k2s_instr *in, const k2s_id_layout *l, uint32_t base)
{
  uint32_t n = in->n_ops - base;
  if (n <= l->n_fixed)
    return true;
  if (l->tail != K2S_TAIL_ENUM)
    return l->tail != K2S_TAIL_NONE && (!l->tail_optional || n == l->n_fixed + 1u);
  /* An enum last: its value's parameters (of each set bit, for a bit enum) hold no
   * ids, so the ids are the prefix's, whatever follows (words past the parameters
   * are a fault the walk reports after the same ids). Decorations, memory operands
   * and loop controls, mostly. */
  const k2s_id_param_set *p = &k2s_kind_id_params[l->enum_kind];
  uint32_t v = in->ops[base + l->n_fixed];
  if (k2s_kinds[l->enum_kind].category == K2S_CAT_BIT_ENUM)
    return !(v & p->bits);
  for (uint32_t i = 0; i < p->n_values; i++)
    if (k2s_id_param_values[p->values_at + i] == v)
      return false;
  return true;
}

/* Reports the ids of in->ops[base..] by a layout that fits them. */
static void report_by_layout(k2s_instr *in, const k2s_id_layout *l, uint32_t base, k2s_id_fn fn,
                             void *ud)
{
  if (in->n_ops <= base)
    return; /* no operand words (ops may be NULL: no offset from it) */
  uint32_t n = in->n_ops - base;
  uint32_t fixed = n < l->n_fixed ? n : l->n_fixed;
  uint32_t *ops = in->ops + base;
  for (uint32_t w = 0; w < fixed; w++)
    if (l->mask >> w & 1)
      fn(ud, in, &ops[w]);
  if (l->tail == K2S_TAIL_IDS)
    for (uint32_t w = fixed; w < n; w++)
      fn(ud, in, &ops[w]);
}

void k2s_foreach_id_operand_slow(const k2s_module *m, k2s_instr *in, k2s_id_fn fn, void *ud)
{
  const k2s_opcode_info *info = k2s_opcode(in->opcode);
  uint32_t n = in->n_ops;
  if (info && in->opcode == SpvOpExtInst) {
    /* Set, instruction number, then the set's operands for a set k2s knows. */
    uint32_t set = n >= 2 && m && m->ext_set && in->ops[0] < m->id_cap ? m->ext_set[in->ops[0]]
                                                                        : K2S_EXT_UNKNOWN;
    const k2s_extinst_info *x =
        set < K2S_N_EXTINST_SETS ? k2s_extinst_set_inst(&k2s_extinst_sets[set], in->ops[1]) : NULL;
    if (x) {
      const k2s_id_layout *l = ext_layout(set, in->ops[1]);
      if (layout_fits(in, l, 2)) {
        fn(ud, in, &in->ops[0]);
        report_by_layout(in, l, 2, fn, ud);
        return;
      }
      if (decode_and_report(in, k2s_extinst_info_operands(x), x->n_operands, 2, fn, ud))
        return;
    }
  } else if (info && in->opcode != SpvOpSwitch) {
    if (layout_fits(in, &k2s_id_layouts[in->opcode], 0)) {
      report_by_layout(in, &k2s_id_layouts[in->opcode], 0, fn, ud);
      return;
    }
    if (decode_and_report(in, k2s_opcode_info_operands(info), info->n_operands, 0, fn, ud))
      return;
  }
  id_walk iw = {fn, ud};
  k2s_walk_operands(m, in, id_cb, &iw);
}

/* The enum operands k2s_walk_operands would report for in->ops[pos..], decoded by
 * kind class like decode_ids: one-word ids and literals skipped, strings and numbers
 * as wide as their type measured, an enum's parameters after it. False where only
 * the walk can tell (an operand kind the decoding does not read, words missing or
 * left over: the walk reports what comes before such a fault, and says so). */
typedef struct enum_list {
  k2s_operand op[16];
  uint32_t n;
} enum_list;

static bool decode_enums_kind(const k2s_instr *in, uint16_t kind, uint32_t *pos, enum_list *l)
{
  uint32_t n = in->n_ops;
  if (*pos >= n)
    return false;
  const k2s_kind_info *k = &k2s_kinds[kind];
  switch (k->category) {
  case K2S_CAT_ID: (*pos)++; return true;
  case K2S_CAT_VALUE_ENUM:
  case K2S_CAT_BIT_ENUM: {
    if (l->n == sizeof(l->op) / sizeof(l->op[0]))
      return false;
    uint32_t v = in->ops[*pos];
    l->op[l->n++] = (k2s_operand){*pos, 1, kind, K2S_OPND_ENUM, false};
    (*pos)++;
    if (k2s_kind_class[kind] != K2S_KIND_ENUM)
      return true; /* no value of the kind takes parameters */
    bool bits = k->category == K2S_CAT_BIT_ENUM;
    for (uint32_t rest = bits ? v : 1; rest; rest &= rest - 1) {
      const k2s_enumerant *e = find_enumerant(kind, bits ? rest & -rest : v);
      for (uint32_t p = 0; e && p < e->n_params; p++)
        if (!decode_enums_kind(in, k2s_enumerant_params(e)[p], pos, l))
          return false;
    }
    return true;
  }
  case K2S_CAT_COMPOSITE:
    return decode_enums_kind(in, k->bases[0], pos, l) && decode_enums_kind(in, k->bases[1], pos, l);
  default: break;
  }
  if (kind == K2S_OK_LITERAL_INTEGER) {
    (*pos)++;
    return true;
  }
  if (kind == K2S_OK_LITERAL_STRING) {
    for (uint32_t i = *pos; i < n; i++) {
      uint32_t v = in->ops[i];
      if (!(v & 0xffu) || !(v & 0xff00u) || !(v & 0xff0000u) || !(v & 0xff000000u)) {
        *pos = i + 1;
        return true;
      }
    }
    return false;
  }
  if (kind == K2S_OK_LITERAL_CONTEXT_DEPENDENT_NUMBER) {
    *pos = n;
    return true;
  }
  return false; /* ext-inst and spec-constant-op numbers: another instruction's operands */
}

static bool decode_enums(const k2s_instr *in, const k2s_operand_desc *d, uint32_t nd, uint32_t pos,
                         enum_list *l)
{
  for (uint32_t i = 0; i < nd; i++) {
    switch (d[i].quantifier) {
    case K2S_Q_ONE:
      if (!decode_enums_kind(in, d[i].kind, &pos, l))
        return false;
      break;
    case K2S_Q_OPTIONAL:
      if (pos < in->n_ops && !decode_enums_kind(in, d[i].kind, &pos, l))
        return false;
      break;
    default:
      while (pos < in->n_ops)
        if (!decode_enums_kind(in, d[i].kind, &pos, l))
          return false;
      break;
    }
  }
  return pos == in->n_ops;
}

typedef struct enum_filter {
  k2s_operand_fn fn;
  void *ud;
} enum_filter;

static bool enum_only(void *ud, const k2s_instr *in, const k2s_operand *op)
{
  enum_filter *f = ud;
  return op->cls != K2S_OPND_ENUM || f->fn(f->ud, in, op);
}

void k2s_foreach_enum_operand(const k2s_module *m, const k2s_instr *in, k2s_operand_fn fn, void *ud)
{
  const k2s_opcode_info *info = k2s_opcode(in->opcode);
  if (!info || !k2s_opcode_enum_operands[in->opcode])
    return; /* an unknown opcode's words are one opaque literal to the walk */
  const k2s_operand_desc *d = k2s_opcode_info_operands(info);
  uint32_t nd = info->n_operands, pos = 0;
  if (in->opcode == SpvOpExtInst) {
    /* Set, instruction number, then the operands of an instruction of a set k2s knows. */
    uint32_t set = in->n_ops >= 2 && m && m->ext_set && in->ops[0] < m->id_cap
                       ? m->ext_set[in->ops[0]]
                       : K2S_EXT_UNKNOWN;
    const k2s_extinst_info *x =
        set < K2S_N_EXTINST_SETS ? k2s_extinst_set_inst(&k2s_extinst_sets[set], in->ops[1]) : NULL;
    if (x) {
      if (!x->enum_operands)
        return; /* the set's operand kinds hold no enum: the walk finds none */
      d = k2s_extinst_info_operands(x);
      nd = x->n_operands;
      pos = 2;
    } else
      d = NULL;
  }
  enum_list l;
  l.n = 0;
  if (d && decode_enums(in, d, nd, pos, &l)) {
    for (uint32_t i = 0; i < l.n; i++)
      if (!fn(ud, in, &l.op[i]))
        return;
    return;
  }
  enum_filter f = {fn, ud};
  k2s_walk_operands(m, in, enum_only, &f);
}
