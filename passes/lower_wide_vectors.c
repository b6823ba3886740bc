/*
 * wide-vectors: 8- and 16-lane vectors → 4-lane pieces.
 *
 * Vulkan has no Vector16 capability (8- and 16-lane vectors are Kernel-only).
 * Every such value becomes two or four 4-lane values: arithmetic, compares,
 * conversions, selects and phis act per piece; shuffles, composite
 * construct/extract/insert, dynamic lane access and bitcasts regroup lanes;
 * OpenCL.std instructions are issued per piece (vloadn/vstoren and the half
 * loads/stores with the offset rescaled, shuffle/shuffle2 expanded here).
 * In memory (and in function signatures) the N-lane vector type itself
 * becomes an array of N/4 4-lane vectors with ArrayStride = the piece size:
 * the same bytes as OpenCL's layout, so buffers, structs and private arrays
 * keep their offsets; loads, call results and parameters are split with
 * OpCompositeExtract, stores, arguments and returns rebuilt with
 * OpCompositeConstruct, and access-chain/composite indices that select a lane
 * become (lane / 4, lane % 4). Anything else touching a wide vector is
 * rejected with a message naming the instruction.
 * Runs after pointers (memory is reached through access chains) and before
 * conversions and builtins, which then see 4-lane vectors only. No options.
 */
#include <string.h>

#include "k2s_internal.h"

enum { PIECE = 4, MAX_PIECES = 4 };

typedef struct wide_type {
  uint32_t id;    /* the N-lane OpTypeVector (becomes the array type) */
  uint32_t elem;  /* component type */
  uint32_t n;     /* 8 or 16 */
  uint32_t piece; /* 4-lane vector of elem */
} wide_type;

typedef struct pending_phi {
  k2s_instr *phi;  /* a piece phi whose wide incoming values are filled later */
  k2s_instr *orig; /* the wide phi it came from (operands kept for the fill) */
  uint32_t k;      /* which piece */
} pending_phi;

typedef struct wide {
  k2s_module *m;
  k2s_arena *a;
  k2s_builder b;
  uint32_t cap0;     /* tables below cover ids < cap0 */
  uint32_t bound0;   /* ids from here on were made by this pass */
  uint16_t *wide_of; /* type id -> 1 + index in types, 0 if not wide */
  wide_type *types;
  uint32_t n_types;
  uint32_t **pieces;  /* value id -> its pieces (NULL until known) */
  uint8_t *decorated; /* id has OpDecorate entries */
  uint8_t *removed;   /* id's definition was deleted by this pass */
  pending_phi *phis;
  uint32_t n_phis, cap_phis;
  k2s_instr *at;      /* the instruction being rewritten */
  uint32_t first_new; /* ids from here on were made while rewriting `at` */
  k2s_instr **dead;   /* rewritten instructions, deleted after their function */
  uint32_t n_dead, cap_dead;
} wide;

/* ---- types ---------------------------------------------------------------- */

static const wide_type *wide_info(wide *c, uint32_t type)
{
  if (type == 0 || type >= c->cap0 || !c->wide_of[type])
    return NULL;
  return &c->types[c->wide_of[type] - 1];
}

static const wide_type *wide_value(wide *c, uint32_t v)
{
  return wide_info(c, k2s_type_of(c->m, v));
}

static uint32_t lanes(wide *c, uint32_t t)
{
  const wide_type *w = wide_info(c, t);
  return w ? w->n : k2s_vector_size(c->m, t);
}

static uint32_t pointee(wide *c, uint32_t ptr_type, uint32_t *storage)
{
  k2s_instr *p = k2s_def(c->m, ptr_type);
  if (!p || p->opcode != SpvOpTypePointer || p->n_ops < 2)
    return 0;
  if (storage)
    *storage = p->ops[0];
  return p->ops[1];
}

/* ---- emitting ------------------------------------------------------------- */

static uint32_t emit(wide *c, uint16_t op, uint32_t t, const uint32_t *ops, uint32_t n)
{
  return k2s_emit(&c->b, op, t, ops, n);
}

static uint32_t op1(wide *c, uint16_t op, uint32_t t, uint32_t a)
{
  return emit(c, op, t, &a, 1);
}

static uint32_t op2(wide *c, uint16_t op, uint32_t t, uint32_t a, uint32_t b)
{
  uint32_t ops[2] = {a, b};
  return emit(c, op, t, ops, 2);
}

static uint32_t op3(wide *c, uint16_t op, uint32_t t, uint32_t a, uint32_t b, uint32_t d)
{
  uint32_t ops[3] = {a, b, d};
  return emit(c, op, t, ops, 3);
}

static uint32_t cint(wide *c, uint32_t t, uint64_t v)
{
  return k2s_const_int(c->m, t, v);
}

static uint32_t extract(wide *c, uint32_t t, uint32_t v, uint32_t idx)
{
  return op2(c, SpvOpCompositeExtract, t, v, idx);
}

static void fail(wide *c, const char *what)
{
  k2s_error(c->m, c->at, "%s", what);
}

/* ---- pieces --------------------------------------------------------------- */

static void set_pieces(wide *c, uint32_t v, const uint32_t *p, uint32_t k)
{
  if (v >= c->cap0)
    return;
  uint32_t *s = k2s_alloc(c->a, k * sizeof(uint32_t));
  memcpy(s, p, k * sizeof(uint32_t));
  c->pieces[v] = s;
}

/* The pieces of wide value v; false (after an error) when they are unknown. */
static bool get_pieces(wide *c, uint32_t v, uint32_t *out)
{
  const wide_type *w = wide_value(c, v);
  uint32_t k = w ? w->n / PIECE : 0;
  if (!w)
    return false;
  if (v < c->cap0 && c->pieces[v]) {
    memcpy(out, c->pieces[v], k * sizeof(uint32_t));
    return true;
  }
  k2s_instr *d = k2s_def(c->m, v);
  if (d && d->opcode == SpvOpConstantComposite && d->n_ops == w->n) {
    for (uint32_t j = 0; j < k; j++)
      out[j] = k2s_const_composite(c->m, w->piece, d->ops + PIECE * j, PIECE);
  } else if (d && d->opcode == SpvOpConstantNull) {
    for (uint32_t j = 0; j < k; j++)
      out[j] = k2s_const_null(c->m, w->piece);
  } else if (d && d->opcode == SpvOpUndef) {
    for (uint32_t j = 0; j < k; j++)
      out[j] = k2s_undef(c->m, w->piece);
  } else {
    k2s_error(c->m, c->at,
              "a %u-lane vector operand (id %u) has no 4-lane pieces: it comes from an "
              "instruction k2s cannot split (or from an unreachable block)",
              w->n, v);
    return false;
  }
  set_pieces(c, v, out, k);
  return true;
}

/* An array value (the memory form of a wide vector) built from v's pieces. */
static uint32_t as_array(wide *c, uint32_t v)
{
  const wide_type *w = wide_value(c, v);
  uint32_t p[MAX_PIECES];
  if (!get_pieces(c, v, p))
    return 0;
  return emit(c, SpvOpCompositeConstruct, w->id, p, w->n / PIECE);
}

/* Operand o of at, a wide value, becomes its array form. */
static bool array_operand(wide *c, k2s_instr *at, uint32_t o)
{
  uint32_t v = as_array(c, at->ops[o]);
  if (v)
    k2s_instr_set_op(c->m, at, o, v);
  return v != 0;
}

/* Split the array value v (a load, call result, parameter...) of wide type
 * w into pieces, recorded as the pieces of v. */
static void split_array_value(wide *c, const wide_type *w, uint32_t v)
{
  uint32_t p[MAX_PIECES];
  for (uint32_t j = 0; j < w->n / PIECE; j++)
    p[j] = extract(c, w->piece, v, j);
  set_pieces(c, v, p, w->n / PIECE);
}

/* Copy the decorations of `from` (FPRoundingMode, SaturatedConversion, wrap
 * flags...) to `to`, for later passes that read them. */
static void copy_decorations(wide *c, uint32_t from, uint32_t to)
{
  if (from >= c->cap0 || !c->decorated[from])
    return;
  k2s_module *m = c->m;
  k2s_instr *last = m->sec[K2S_SEC_ANNOTATION].last;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION])
  {
    if (i->opcode == SpvOpDecorate && i->n_ops >= 2 && i->ops[0] == from)
      k2s_decorate(m, to, i->ops[1], i->ops + 2, i->n_ops - 2);
    if (i == last)
      break;
  }
}

/* ---- lanes ---------------------------------------------------------------- */

typedef struct lane {
  uint32_t vec; /* vector or scalar id; 0 = undefined lane */
  uint32_t idx;
  bool scalar;
} lane;

/* Lane j of value v (wide, narrow vector or scalar). */
static bool lane_of(wide *c, uint32_t v, uint32_t j, lane *out)
{
  const wide_type *w = wide_value(c, v);
  if (w) {
    uint32_t p[MAX_PIECES];
    if (!get_pieces(c, v, p))
      return false;
    *out = (lane){p[j / PIECE], j % PIECE, false};
    return true;
  }
  uint32_t n = k2s_vector_size(c->m, k2s_type_of(c->m, v));
  *out = n == 1 ? (lane){v, 0, true} : (lane){v, j, false};
  return true;
}

static uint32_t lane_value(wide *c, uint32_t elem, lane l)
{
  if (!l.vec)
    return k2s_undef(c->m, elem);
  return l.scalar ? l.vec : extract(c, elem, l.vec, l.idx);
}

/* A value of type t (a vector of n <= 4 lanes, or a scalar when n == 1)
 * holding the given lanes: one OpVectorShuffle when they come from at most
 * two vectors, else extracts and a construct. */
static uint32_t gather(wide *c, uint32_t t, const lane *ls, uint32_t n)
{
  uint32_t elem = k2s_scalar_type(c->m, t);
  if (n == 1)
    return lane_value(c, elem, ls[0]);
  uint32_t v1 = 0, v2 = 0;
  bool shuffle = true;
  for (uint32_t i = 0; i < n && shuffle; i++) {
    if (!ls[i].vec)
      continue;
    if (ls[i].scalar)
      shuffle = false;
    else if (!v1 || ls[i].vec == v1)
      v1 = ls[i].vec;
    else if (!v2 || ls[i].vec == v2)
      v2 = ls[i].vec;
    else
      shuffle = false;
  }
  if (shuffle && v1) {
    uint32_t n1 = k2s_vector_size(c->m, k2s_type_of(c->m, v1));
    if (!v2 && n1 == n) { /* the identity keeps v1 itself */
      bool same = true;
      for (uint32_t i = 0; i < n; i++)
        same &= ls[i].vec == v1 && ls[i].idx == i;
      if (same)
        return v1;
    }
    uint32_t ops[2 + PIECE] = {v1, v2 ? v2 : v1};
    for (uint32_t i = 0; i < n; i++)
      ops[2 + i] = !ls[i].vec ? 0xffffffffu : ls[i].vec == v1 ? ls[i].idx : n1 + ls[i].idx;
    return emit(c, SpvOpVectorShuffle, t, ops, 2 + n);
  }
  uint32_t parts[PIECE];
  for (uint32_t i = 0; i < n; i++)
    parts[i] = lane_value(c, elem, ls[i]);
  return emit(c, SpvOpCompositeConstruct, t, parts, n);
}

/* Value v replaces c->at's (narrow) result: the instruction that computed v
 * takes c->at's result id when it was made for c->at, else an OpCopyObject
 * does. c->at is deleted by the caller. */
static bool take_result(wide *c, uint32_t v)
{
  k2s_instr *at = c->at;
  if (!v)
    return false;
  k2s_instr *d = at->prev;
  if (v < c->first_new || !d || d->result != v)
    d = k2s_emit_instr(&c->b, SpvOpCopyObject, at->type, &v, 1);
  k2s_set_def(c->m, d->result, NULL);
  d->result = at->result;
  k2s_set_def(c->m, at->result, d);
  return true;
}

/* The result of c->at from its lanes: pieces when it is wide, else one value
 * that replaces c->at's result. Returns false after an error. */
static bool finish_lanes(wide *c, const lane *ls)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_info(c, at->type);
  if (w) {
    uint32_t p[MAX_PIECES];
    for (uint32_t j = 0; j < w->n / PIECE; j++)
      p[j] = gather(c, w->piece, ls + PIECE * j, PIECE);
    set_pieces(c, at->result, p, w->n / PIECE);
    return true;
  }
  uint32_t n = k2s_vector_size(c->m, at->type);
  if (n > PIECE)
    return false;
  return take_result(c, gather(c, at->type, ls, n));
}

/* Lane `idx` (a dynamic integer) of v. */
static uint32_t dynamic_lane(wide *c, uint32_t v, uint32_t idx)
{
  const wide_type *w = wide_value(c, v);
  uint32_t it = k2s_type_of(c->m, idx);
  if (!w)
    return op2(c, SpvOpVectorExtractDynamic, k2s_scalar_type(c->m, k2s_type_of(c->m, v)), v, idx);
  uint32_t p[MAX_PIECES];
  if (!get_pieces(c, v, p))
    return 0;
  uint32_t low = op2(c, SpvOpBitwiseAnd, it, idx, cint(c, it, PIECE - 1));
  uint32_t high = op2(c, SpvOpShiftRightLogical, it, idx, cint(c, it, 2));
  uint32_t r = op2(c, SpvOpVectorExtractDynamic, w->elem, p[0], low);
  for (uint32_t j = 1; j < w->n / PIECE; j++) {
    uint32_t e = op2(c, SpvOpVectorExtractDynamic, w->elem, p[j], low);
    uint32_t is = op2(c, SpvOpIEqual, k2s_type_bool(c->m), high, cint(c, it, j));
    r = op3(c, SpvOpSelect, w->elem, is, e, r);
  }
  return r;
}

/* ---- per-piece (component-wise) instructions ------------------------------ */

/* Instructions that work lane by lane, so that each 4-lane piece is the same
 * instruction on the operands' pieces: the grammar's arithmetic, bit,
 * relational and logical and conversion classes, and OpCopyObject, bar those
 * whose lanes meet (dot products, matrix products), whose result is a
 * struct (carries, extended multiplies) or whose operands are pointers. */
static bool elementwise_opcode(uint16_t op)
{
  switch (op) {
  case SpvOpCopyObject: return true;
  case SpvOpDot:
  case SpvOpSDot:
  case SpvOpUDot:
  case SpvOpSUDot:
  case SpvOpSDotAccSat:
  case SpvOpUDotAccSat:
  case SpvOpSUDotAccSat:
  case SpvOpVectorTimesMatrix:
  case SpvOpMatrixTimesVector:
  case SpvOpMatrixTimesMatrix:
  case SpvOpMatrixTimesScalar:
  case SpvOpOuterProduct:
  case SpvOpIAddCarry:
  case SpvOpISubBorrow:
  case SpvOpUMulExtended:
  case SpvOpSMulExtended:
  case SpvOpAny:
  case SpvOpAll: return false;
  default: break;
  }
  switch (k2s_opcode_class(op)) {
  case K2S_CLASS_ARITHMETIC:
  case K2S_CLASS_BIT:
  case K2S_CLASS_RELATIONAL_AND_LOGICAL: return true;
  case K2S_CLASS_CONVERSION: return !k2s_pointer_operands(op) && op != SpvOpConvertUToPtr;
  default: return false;
  }
}

/* Operand `id` of a per-piece instruction for piece j: its piece when it is
 * wide; a bool scalar condition of OpSelect splat to 4 lanes (SPIR-V before
 * 1.4 wants as many condition lanes as result lanes); a pointer to a wide
 * vector (an out-parameter) narrowed to the piece; anything else as is. */
static bool piece_operand(wide *c, uint32_t id, uint32_t j, bool select_cond, uint32_t *out)
{
  const wide_type *w = wide_value(c, id);
  if (w) {
    uint32_t p[MAX_PIECES];
    if (!get_pieces(c, id, p))
      return false;
    *out = p[j];
    return true;
  }
  uint32_t t = k2s_type_of(c->m, id), storage = 0;
  const wide_type *pw = wide_info(c, pointee(c, t, &storage));
  if (pw) {
    uint32_t pt = k2s_type_pointer(c->m, storage, pw->piece);
    *out = op2(c, SpvOpAccessChain, pt, id, cint(c, k2s_type_int(c->m, 32, false), j));
    return true;
  }
  if (select_cond && t == k2s_type_bool(c->m)) {
    uint32_t parts[PIECE] = {id, id, id, id};
    *out = emit(c, SpvOpCompositeConstruct, k2s_type_vector(c->m, t, PIECE), parts, PIECE);
    return true;
  }
  *out = id;
  return true;
}

/* c->at (a wide result, or wide operands and a wide result) issued once per
 * piece; `first` is the index of the first operand that is a value (OpExtInst:
 * 2, after the set and the instruction number). */
static bool per_piece(wide *c, uint32_t first)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_info(c, at->type);
  if (!w) {
    fail(c, "this instruction takes an 8- or 16-lane vector but its result is not one; "
            "k2s cannot split it into 4-lane pieces");
    return false;
  }
  uint32_t k = w->n / PIECE, p[MAX_PIECES], cond_splat = 0;
  uint32_t *ops = k2s_alloc(c->a, at->n_ops * sizeof(uint32_t));
  for (uint32_t j = 0; j < k; j++) {
    memcpy(ops, at->ops, at->n_ops * sizeof(uint32_t));
    for (uint32_t o = first; o < at->n_ops; o++) {
      bool cond = at->opcode == SpvOpSelect && o == 0;
      if (cond && j > 0 && !wide_value(c, at->ops[0])) { /* the splat made for piece 0 */
        ops[o] = cond_splat;
        continue;
      }
      if (!piece_operand(c, at->ops[o], j, cond, &ops[o]))
        return false;
      if (cond)
        cond_splat = ops[o];
    }
    p[j] = emit(c, at->opcode, w->piece, ops, at->n_ops);
    copy_decorations(c, at->result, p[j]);
  }
  set_pieces(c, at->result, p, k);
  return true;
}

/* ---- bitcasts between different lane counts -------------------------------- */

/* Bits of v as a list of `unit`-bit unsigned scalars (unit 16 or 32, at
 * least... each lane is either split into units or several lanes form one). */
static uint32_t to_units(wide *c, uint32_t v, uint32_t unit, uint32_t *units)
{
  uint32_t t = k2s_type_of(c->m, v), n = lanes(c, t), ew = k2s_type_width(c->m, t);
  uint32_t elem = k2s_scalar_type(c->m, t), ut = k2s_type_int(c->m, unit, false);
  uint32_t count = 0;
  if (ew < unit) { /* several lanes (2 or 4) make one unit */
    uint32_t per = unit / ew, vt = k2s_type_vector(c->m, elem, per);
    for (uint32_t j = 0; j < n; j += per) {
      lane ls[PIECE];
      for (uint32_t q = 0; q < per; q++)
        if (!lane_of(c, v, j + q, &ls[q]))
          return 0;
      units[count++] = op1(c, SpvOpBitcast, ut, gather(c, vt, ls, per));
    }
    return count;
  }
  uint32_t per = ew / unit; /* 1 or 2 units per lane */
  uint32_t lt = per == 1 ? ut : k2s_type_vector(c->m, ut, per);
  for (uint32_t j = 0; j < n; j++) {
    lane l;
    if (!lane_of(c, v, j, &l))
      return 0;
    uint32_t b = op1(c, SpvOpBitcast, lt, lane_value(c, elem, l));
    for (uint32_t q = 0; q < per; q++)
      units[count++] = per == 1 ? b : extract(c, ut, b, q);
  }
  return count;
}

/* One lane of element type elem from units[*pos...]. */
static uint32_t from_units(wide *c, uint32_t elem, uint32_t unit, const uint32_t *units,
                           uint32_t *pos, uint32_t *out_lanes, uint32_t *n_out)
{
  uint32_t ew = k2s_type_width(c->m, elem), ut = k2s_type_int(c->m, unit, false);
  if (ew < unit) { /* one unit makes 2 or 4 lanes */
    uint32_t per = unit / ew, vt = k2s_type_vector(c->m, elem, per);
    uint32_t v = op1(c, SpvOpBitcast, vt, units[(*pos)++]);
    for (uint32_t q = 0; q < per; q++)
      out_lanes[(*n_out)++] = extract(c, elem, v, q);
    return per;
  }
  uint32_t per = ew / unit;
  uint32_t src = units[*pos];
  if (per > 1) {
    uint32_t parts[2] = {units[*pos], units[*pos + 1]};
    src = emit(c, SpvOpCompositeConstruct, k2s_type_vector(c->m, ut, 2), parts, 2);
  }
  *pos += per;
  out_lanes[(*n_out)++] = op1(c, SpvOpBitcast, elem, src);
  return 1;
}

static bool lower_bitcast(wide *c)
{
  k2s_instr *at = c->at;
  uint32_t v = at->ops[0], st = k2s_type_of(c->m, v), rt = at->type;
  uint32_t sw = k2s_type_width(c->m, st), rw = k2s_type_width(c->m, rt);
  uint32_t sn = lanes(c, st), rn = lanes(c, rt);
  if (sn == rn) /* same lane count: per piece */
    return per_piece(c, 0);
  k2s_instr *se = k2s_def(c->m, k2s_scalar_type(c->m, st));
  k2s_instr *re = k2s_def(c->m, k2s_scalar_type(c->m, rt));
  if (sw * sn != rw * rn || !se || !re || se->opcode == SpvOpTypeBool ||
      re->opcode == SpvOpTypeBool || sn == 3 || rn == 3) {
    fail(c, "k2s cannot split this bitcast of an 8- or 16-lane vector into 4-lane pieces");
    return false;
  }
  uint32_t unit = sw >= 32 || rw >= 32 ? 32 : 16;
  uint32_t units[64], vals[64], pos = 0, n_out = 0;
  uint32_t n_units = to_units(c, v, unit, units);
  if (!n_units)
    return false;
  uint32_t elem = k2s_scalar_type(c->m, rt);
  while (pos < n_units && n_out < rn)
    from_units(c, elem, unit, units, &pos, vals, &n_out);
  lane ls[16];
  for (uint32_t j = 0; j < rn; j++)
    ls[j] = (lane){vals[j], 0, true};
  return finish_lanes(c, ls);
}

/* ---- shuffles, constructs, lane access ------------------------------------ */

static bool lower_vector_shuffle(wide *c)
{
  k2s_instr *at = c->at;
  uint32_t v1 = at->ops[0], v2 = at->ops[1], n1 = lanes(c, k2s_type_of(c->m, v1));
  uint32_t n = at->n_ops - 2;
  lane ls[16];
  if (n > 16)
    return false;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t s = at->ops[2 + j];
    if (s == 0xffffffffu)
      ls[j] = (lane){0, 0, false};
    else if (!lane_of(c, s < n1 ? v1 : v2, s < n1 ? s : s - n1, &ls[j]))
      return false;
  }
  return finish_lanes(c, ls);
}

static bool lower_construct(wide *c)
{
  k2s_instr *at = c->at;
  if (!wide_info(c, at->type)) { /* a struct or array with a wide member */
    for (uint32_t o = 0; o < at->n_ops; o++)
      if (wide_value(c, at->ops[o]) && !array_operand(c, at, o))
        return false;
    return true;
  }
  lane ls[16];
  uint32_t n = 0, want = lanes(c, at->type);
  for (uint32_t o = 0; o < at->n_ops; o++) {
    uint32_t m = lanes(c, k2s_type_of(c->m, at->ops[o]));
    for (uint32_t j = 0; j < m && n < want; j++)
      if (!lane_of(c, at->ops[o], j, &ls[n++]))
        return false;
  }
  if (n != want) {
    fail(c, "this vector construct does not supply every lane");
    return false;
  }
  return finish_lanes(c, ls);
}

/* Rewrites a literal index path (composite extract/insert) or an id index
 * list (access chains) through `t`: an index that selects a lane of a wide
 * vector becomes two, (lane / 4, lane % 4). Returns the new operand list in
 * *out (NULL if nothing changed). ids: operands from `first` are <id>s. */
static bool split_path(wide *c, uint32_t t, const uint32_t *idx, uint32_t n, bool ids,
                       uint32_t **out, uint32_t *n_out)
{
  uint32_t *r = k2s_alloc(c->a, 2 * n * sizeof(uint32_t) + sizeof(uint32_t));
  uint32_t m = 0;
  bool changed = false;
  for (uint32_t i = 0; i < n; i++) {
    const wide_type *w = wide_info(c, t);
    k2s_instr *d = k2s_def(c->m, t);
    if (w) {
      changed = true;
      if (!ids) {
        r[m++] = idx[i] / PIECE;
        r[m++] = idx[i] % PIECE;
      } else {
        uint32_t it = k2s_type_of(c->m, idx[i]);
        uint64_t v;
        if (k2s_const_value(c->m, idx[i], &v)) {
          r[m++] = cint(c, it, v / PIECE);
          r[m++] = cint(c, it, v % PIECE);
        } else {
          r[m++] = op2(c, SpvOpShiftRightLogical, it, idx[i], cint(c, it, 2));
          r[m++] = op2(c, SpvOpBitwiseAnd, it, idx[i], cint(c, it, PIECE - 1));
        }
      }
      t = w->elem;
      continue;
    }
    r[m++] = idx[i];
    if (!d)
      return false;
    if (d->opcode == SpvOpTypeStruct) {
      uint64_t v = idx[i];
      if (ids && !k2s_const_value(c->m, idx[i], &v))
        return false;
      if (v >= d->n_ops)
        return false;
      t = d->ops[v];
    } else if (d->opcode == SpvOpTypeArray || d->opcode == SpvOpTypeRuntimeArray ||
               d->opcode == SpvOpTypeVector || d->opcode == SpvOpTypeMatrix) {
      t = d->ops[0];
    } else {
      return false;
    }
  }
  *out = changed ? r : NULL;
  *n_out = m;
  return true;
}

/* Access chains through a wide vector in memory. */
static bool lower_chain(wide *c)
{
  k2s_instr *at = c->at;
  bool ptr = at->opcode == SpvOpPtrAccessChain || at->opcode == SpvOpInBoundsPtrAccessChain;
  uint32_t first = ptr ? 2 : 1;
  if (at->n_ops < first)
    return true;
  uint32_t t = pointee(c, k2s_type_of(c->m, at->ops[0]), NULL), *r, n;
  if (!t)
    return true;
  if (!split_path(c, t, at->ops + first, at->n_ops - first, true, &r, &n) || !r)
    return true; /* nothing wide on the path (or a path this pass need not read) */
  uint32_t *ops = k2s_alloc(c->a, (first + n) * sizeof(uint32_t));
  memcpy(ops, at->ops, first * sizeof(uint32_t));
  memcpy(ops + first, r, n * sizeof(uint32_t));
  k2s_instr_set_ops(c->m, at, ops, first + n);
  return true;
}

/* OpCompositeExtract: from a wide value (a lane), or through a struct or
 * array holding a wide member. Returns whether c->at was replaced. */
static bool lower_extract(wide *c, bool *keep)
{
  k2s_instr *at = c->at;
  uint32_t v = at->ops[0];
  *keep = true;
  if (wide_value(c, v)) {
    if (at->n_ops != 2) {
      fail(c, "an extract from an 8- or 16-lane vector with more than one index");
      return false;
    }
    uint32_t p[MAX_PIECES];
    if (!get_pieces(c, v, p))
      return false;
    uint32_t ops[2] = {p[at->ops[1] / PIECE], at->ops[1] % PIECE};
    k2s_instr_set_ops(c->m, at, ops, 2);
    return true;
  }
  uint32_t *r, n;
  if (split_path(c, k2s_type_of(c->m, v), at->ops + 1, at->n_ops - 1, false, &r, &n) && r) {
    uint32_t *ops = k2s_alloc(c->a, (n + 1) * sizeof(uint32_t));
    ops[0] = v;
    memcpy(ops + 1, r, n * sizeof(uint32_t));
    k2s_instr_set_ops(c->m, at, ops, n + 1);
  }
  const wide_type *w = wide_info(c, at->type);
  if (w) { /* a wide member: an array value now */
    c->b.cursor = k2s_after(at);
    split_array_value(c, w, at->result);
  }
  return true;
}

static bool lower_insert(wide *c, bool *keep)
{
  k2s_instr *at = c->at;
  uint32_t obj = at->ops[0], comp = at->ops[1];
  const wide_type *w = wide_info(c, at->type);
  *keep = !w;
  if (w) {
    if (at->n_ops != 3) {
      fail(c, "an insert into an 8- or 16-lane vector with more than one index");
      return false;
    }
    uint32_t p[MAX_PIECES], j = at->ops[2];
    if (!get_pieces(c, comp, p))
      return false;
    uint32_t ops[3] = {obj, p[j / PIECE], j % PIECE};
    p[j / PIECE] = emit(c, SpvOpCompositeInsert, w->piece, ops, 3);
    set_pieces(c, at->result, p, w->n / PIECE);
    return true;
  }
  if (wide_value(c, obj) && !array_operand(c, at, 0))
    return false;
  uint32_t *r, n;
  if (split_path(c, k2s_type_of(c->m, comp), at->ops + 2, at->n_ops - 2, false, &r, &n) && r) {
    uint32_t *ops = k2s_alloc(c->a, (n + 2) * sizeof(uint32_t));
    ops[0] = at->ops[0];
    ops[1] = comp;
    memcpy(ops + 2, r, n * sizeof(uint32_t));
    k2s_instr_set_ops(c->m, at, ops, n + 2);
  }
  return true;
}

static bool lower_insert_dynamic(wide *c)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_info(c, at->type);
  uint32_t p[MAX_PIECES], idx = at->ops[2], it = k2s_type_of(c->m, idx);
  if (!get_pieces(c, at->ops[0], p))
    return false;
  uint32_t low = op2(c, SpvOpBitwiseAnd, it, idx, cint(c, it, PIECE - 1));
  uint32_t high = op2(c, SpvOpShiftRightLogical, it, idx, cint(c, it, 2));
  for (uint32_t j = 0; j < w->n / PIECE; j++) {
    uint32_t ins = op3(c, SpvOpVectorInsertDynamic, w->piece, p[j], at->ops[1], low);
    uint32_t is = op2(c, SpvOpIEqual, k2s_type_bool(c->m), high, cint(c, it, j));
    uint32_t cond[PIECE] = {is, is, is, is};
    uint32_t cv = emit(c, SpvOpCompositeConstruct,
                       k2s_type_vector(c->m, k2s_type_bool(c->m), PIECE), cond, PIECE);
    p[j] = op3(c, SpvOpSelect, w->piece, cv, ins, p[j]);
  }
  set_pieces(c, at->result, p, w->n / PIECE);
  return true;
}

/* OpAny / OpAll of a wide bool vector. */
static bool lower_any_all(wide *c)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_value(c, at->ops[0]);
  uint32_t p[MAX_PIECES], bt = k2s_type_bool(c->m);
  if (!get_pieces(c, at->ops[0], p))
    return false;
  uint32_t r = op1(c, at->opcode, bt, p[0]);
  for (uint32_t j = 1; j < w->n / PIECE; j++)
    r = op2(c, at->opcode == SpvOpAny ? SpvOpLogicalOr : SpvOpLogicalAnd, bt, r,
            op1(c, at->opcode, bt, p[j]));
  return take_result(c, r);
}

/* ---- OpenCL.std ----------------------------------------------------------- */

/* offset * scale + j in offset's type. */
static uint32_t scaled_offset(wide *c, uint32_t offset, uint32_t scale, uint32_t j)
{
  uint32_t t = k2s_type_of(c->m, offset);
  uint32_t o = op2(c, SpvOpIMul, t, offset, cint(c, t, scale));
  return j ? op2(c, SpvOpIAdd, t, o, cint(c, t, j)) : o;
}

/* vloadn, vload_halfn, vloada_halfn (offset, p, n) with n = 8 or 16: piece j
 * is the 4-lane load at offset * n/4 + j (for these n every form's stride is
 * n, so the lanes are p[offset * n + 4j + i]). */
static bool lower_wide_load(wide *c)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_info(c, at->type);
  if (!w || at->n_ops != 5 || at->ops[4] != w->n) {
    fail(c, "this vector load's lane count does not match its 8- or 16-lane result");
    return false;
  }
  uint32_t p[MAX_PIECES];
  for (uint32_t j = 0; j < w->n / PIECE; j++) {
    uint32_t ops[5] = {at->ops[0], at->ops[1], scaled_offset(c, at->ops[2], w->n / PIECE, j),
                       at->ops[3], PIECE};
    p[j] = emit(c, SpvOpExtInst, w->piece, ops, 5);
  }
  set_pieces(c, at->result, p, w->n / PIECE);
  return true;
}

/* vstoren, vstore_halfn(_r), vstorea_halfn(_r) (data, offset, p[, mode]). */
static bool lower_wide_store(wide *c)
{
  k2s_instr *at = c->at;
  const wide_type *w = wide_value(c, at->ops[2]);
  uint32_t p[MAX_PIECES];
  if (!w || !get_pieces(c, at->ops[2], p))
    return false;
  uint32_t *ops = k2s_alloc(c->a, at->n_ops * sizeof(uint32_t));
  for (uint32_t j = 0; j < w->n / PIECE; j++) {
    memcpy(ops, at->ops, at->n_ops * sizeof(uint32_t));
    ops[2] = p[j];
    ops[3] = scaled_offset(c, at->ops[3], w->n / PIECE, j);
    emit(c, SpvOpExtInst, at->type, ops, at->n_ops);
  }
  return true;
}

/* The constant lanes of an integer vector (constant composite or null). */
static bool constant_lanes(wide *c, uint32_t v, uint32_t n, uint64_t *out)
{
  k2s_instr *d = k2s_def(c->m, v);
  if (d && d->opcode == SpvOpConstantNull) {
    memset(out, 0, n * sizeof(*out));
    return true;
  }
  if (!d || d->opcode != SpvOpConstantComposite || d->n_ops != n)
    return false;
  for (uint32_t j = 0; j < n; j++) {
    k2s_instr *e = k2s_def(c->m, d->ops[j]);
    if (e && e->opcode == SpvOpUndef)
      out[j] = 0;
    else if (!k2s_const_value(c->m, d->ops[j], &out[j]))
      return false;
  }
  return true;
}

/* shuffle(x, mask) / shuffle2(x, y, mask) where some vector has 8 or 16
 * lanes: only the low log2(n) (shuffle2: log2(2n)) bits of a mask lane count. */
static bool lower_cl_shuffle(wide *c, bool two)
{
  k2s_instr *at = c->at;
  uint32_t x = at->ops[2], y = two ? at->ops[3] : 0, mask = at->ops[two ? 4 : 3];
  uint32_t nx = lanes(c, k2s_type_of(c->m, x)), nr = lanes(c, at->type);
  uint32_t mt = k2s_type_of(c->m, mask), me = k2s_scalar_type(c->m, mt);
  if (nx < 2 || (nx & (nx - 1)) || nx > 16 || nr > 16 || lanes(c, mt) != nr) {
    fail(c, "OpenCL shuffle needs a source vector of 2, 4, 8 or 16 lanes");
    return false;
  }
  uint64_t lim = two ? 2 * nx - 1 : nx - 1, ml[16];
  lane ls[16];
  uint32_t vals[16];
  if (constant_lanes(c, mask, nr, ml)) {
    for (uint32_t j = 0; j < nr; j++) {
      uint64_t s = ml[j] & lim;
      if (!lane_of(c, s < nx ? x : y, (uint32_t)(s % nx), &ls[j]))
        return false;
    }
    return finish_lanes(c, ls);
  }
  for (uint32_t j = 0; j < nr; j++) {
    lane l;
    if (!lane_of(c, mask, j, &l))
      return false;
    uint32_t mj = op2(c, SpvOpBitwiseAnd, me, lane_value(c, me, l), cint(c, me, lim));
    uint32_t idx = op2(c, SpvOpBitwiseAnd, me, mj, cint(c, me, nx - 1));
    uint32_t v = dynamic_lane(c, x, idx);
    if (!v)
      return false;
    if (two) {
      uint32_t vy = dynamic_lane(c, y, idx);
      if (!vy)
        return false;
      uint32_t from_x = op2(c, SpvOpULessThan, k2s_type_bool(c->m), mj, cint(c, me, nx));
      v = op3(c, SpvOpSelect, k2s_type_of(c->m, v), from_x, v, vy);
    }
    vals[j] = v;
    ls[j] = (lane){vals[j], 0, true};
  }
  return finish_lanes(c, ls);
}

static bool lower_opencl(wide *c)
{
  k2s_instr *at = c->at;
  const char *name = k2s_extinst_op_name(K2S_EXT_OPENCL_STD, at->ops[1]);
  switch (at->ops[1]) {
  case K2S_OPENCL_STD_vloadn:
  case K2S_OPENCL_STD_vload_halfn:
  case K2S_OPENCL_STD_vloada_halfn: return lower_wide_load(c);
  case K2S_OPENCL_STD_vstoren:
  case K2S_OPENCL_STD_vstore_halfn:
  case K2S_OPENCL_STD_vstore_halfn_r:
  case K2S_OPENCL_STD_vstorea_halfn:
  case K2S_OPENCL_STD_vstorea_halfn_r: return lower_wide_store(c);
  case K2S_OPENCL_STD_shuffle: return lower_cl_shuffle(c, false);
  case K2S_OPENCL_STD_shuffle2: return lower_cl_shuffle(c, true);
  case K2S_OPENCL_STD_printf:
    k2s_error(c->m, at,
              "printf reached the wide-vectors pass: the 'printf' pass lowers it (a "
              "--passes= list without it cannot translate printf)");
    return false;
  case K2S_OPENCL_STD_cross:
  case K2S_OPENCL_STD_length:
  case K2S_OPENCL_STD_distance:
  case K2S_OPENCL_STD_normalize:
  case K2S_OPENCL_STD_fast_length:
  case K2S_OPENCL_STD_fast_distance:
  case K2S_OPENCL_STD_fast_normalize:
    k2s_error(c->m, at,
              "the OpenCL builtin %s is defined for up to 4 lanes, not for this "
              "8- or 16-lane vector",
              name);
    return false;
  default: return per_piece(c, 2);
  }
}

/* ---- dispatch ------------------------------------------------------------- */

typedef struct touch {
  wide *c;
  bool wide;
} touch;

static void touch_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  touch *t = ud;
  (void)in;
  if (*id < t->c->m->id_cap && wide_value(t->c, *id))
    t->wide = true;
}

/* Whether i makes or reads a wide vector value (only <id> operands count:
 * a literal such as an alignment may equal a wide value's id). */
static bool touches_wide(wide *c, k2s_instr *i)
{
  if (wide_info(c, i->type))
    return true;
  touch t = {c, false};
  k2s_foreach_id_operand(c->m, i, touch_operand, &t);
  return t.wide;
}

/* Rewrites c->at; sets *keep when c->at stays (possibly with new operands). */
static bool rewrite(wide *c, bool *keep)
{
  k2s_instr *at = c->at;
  k2s_module *m = c->m;
  const wide_type *w = wide_info(c, at->type);
  *keep = false;
  c->b = (k2s_builder){m, k2s_before(at)};
  c->first_new = m->bound;
  switch (at->opcode) {
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: *keep = true; return lower_chain(c);
  case SpvOpCompositeExtract: return lower_extract(c, keep);
  case SpvOpCompositeInsert: return lower_insert(c, keep);
  default: break;
  }
  if (!touches_wide(c, at)) {
    *keep = true;
    return true;
  }
  switch (at->opcode) {
  case SpvOpLoad:
  case SpvOpFunctionCall:
    *keep = true;
    if (at->opcode == SpvOpFunctionCall)
      for (uint32_t o = 1; o < at->n_ops; o++)
        if (wide_value(c, at->ops[o]) && !array_operand(c, at, o))
          return false;
    if (w) {
      c->b.cursor = k2s_after(at);
      split_array_value(c, w, at->result);
    }
    return true;
  case SpvOpStore: *keep = true; return array_operand(c, at, 1);
  case SpvOpReturnValue: *keep = true; return array_operand(c, at, 0);
  case SpvOpPhi: {
    uint32_t k = w->n / PIECE, p[MAX_PIECES];
    for (uint32_t j = 0; j < k; j++) {
      k2s_instr *phi = k2s_emit_instr(&c->b, SpvOpPhi, w->piece, at->ops, at->n_ops);
      p[j] = phi->result;
      if (c->n_phis == c->cap_phis) {
        uint32_t cap = c->cap_phis ? 2 * c->cap_phis : 16;
        c->phis = k2s_realloc_array(c->a, c->phis, c->cap_phis, cap, sizeof(*c->phis));
        c->cap_phis = cap;
      }
      c->phis[c->n_phis++] = (pending_phi){phi, at, j};
    }
    set_pieces(c, at->result, p, k);
    return true;
  }
  case SpvOpUndef: {
    uint32_t p[MAX_PIECES];
    for (uint32_t j = 0; j < w->n / PIECE; j++)
      p[j] = k2s_undef(m, w->piece);
    set_pieces(c, at->result, p, w->n / PIECE);
    return true;
  }
  case SpvOpVectorShuffle: return lower_vector_shuffle(c);
  case SpvOpCompositeConstruct: *keep = !w; return lower_construct(c);
  case SpvOpVectorExtractDynamic: return take_result(c, dynamic_lane(c, at->ops[0], at->ops[1]));
  case SpvOpVectorInsertDynamic: return lower_insert_dynamic(c);
  case SpvOpAny:
  case SpvOpAll: return lower_any_all(c);
  case SpvOpBitcast: return lower_bitcast(c);
  case SpvOpExtInst:
    if (at->ops[0] < m->id_cap && m->ext_set[at->ops[0]] == K2S_EXT_OPENCL_STD)
      return lower_opencl(c);
    break;
  default:
    if (elementwise_opcode(at->opcode))
      return per_piece(c, 0);
    break;
  }
  k2s_error(m, at,
            "this instruction uses an 8- or 16-lane vector, and k2s cannot split it "
            "into 4-lane pieces (Vulkan has no Vector16)");
  return false;
}

static void defer_delete(wide *c, k2s_instr *i)
{
  if (c->n_dead == c->cap_dead) {
    uint32_t cap = c->cap_dead ? 2 * c->cap_dead : 64;
    c->dead = k2s_realloc_array(c->a, c->dead, c->cap_dead, cap, sizeof(*c->dead));
    c->cap_dead = cap;
  }
  c->dead[c->n_dead++] = i;
}

static bool fill_phis(wide *c)
{
  for (uint32_t i = 0; i < c->n_phis; i++) {
    pending_phi *pp = &c->phis[i];
    c->at = pp->orig;
    for (uint32_t o = 0; o + 1 < pp->orig->n_ops; o += 2) {
      uint32_t p[MAX_PIECES];
      if (!get_pieces(c, pp->orig->ops[o], p))
        return false;
      k2s_instr_set_op(c->m, pp->phi, o, p[pp->k]);
    }
  }
  c->n_phis = 0;
  /* Split instructions stay until here: their result types tell later
   * operands apart as wide. */
  for (uint32_t i = 0; i < c->n_dead; i++) {
    k2s_instr *d = c->dead[i];
    if (d->result && d->result < c->cap0 && k2s_def(c->m, d->result) == d)
      c->removed[d->result] = 1;
    k2s_instr_delete(c->m, d);
  }
  c->n_dead = 0;
  return true;
}

static bool rewrite_function(wide *c, k2s_function *f)
{
  k2s_module *m = c->m;
  if (!f->first)
    return true;
  /* parameters are array values: split them at the top of the entry block */
  k2s_foreach_instr(p, &f->head)
  {
    const wide_type *w = p->opcode == SpvOpFunctionParameter ? wide_info(c, p->type) : NULL;
    if (w) {
      c->b = (k2s_builder){m, k2s_block_start(f->first)};
      split_array_value(c, w, p->result);
    }
  }
  /* dominators before the blocks they dominate: values are split before use */
  k2s_cfg *cfg = k2s_cfg_build(m, c->a, f);
  uint8_t *seen = k2s_alloc(c->a, cfg->n_blocks + 1);
  for (uint32_t r = 0; r <= cfg->n_rpo + cfg->n_blocks; r++) {
    uint32_t bi;
    if (r < cfg->n_rpo) {
      bi = cfg->rpo[r];
    } else { /* then unreachable blocks, in function order */
      bi = r - cfg->n_rpo;
      if (bi >= cfg->n_blocks)
        break;
    }
    if (seen[bi])
      continue;
    seen[bi] = 1;
    k2s_foreach_instr_safe(i, &cfg->blocks[bi]->body)
    {
      if (i->result >= c->bound0) /* made by this pass (parameter splits) */
        continue;
      c->at = i;
      bool keep;
      if (!rewrite(c, &keep))
        return false;
      if (!keep)
        defer_delete(c, i);
    }
  }
  return fill_phis(c);
}

/* ---- types, constants and module order ------------------------------------ */

static uint32_t piece_bytes(wide *c, const wide_type *w)
{
  uint64_t size = 0, align = 0;
  if (!k2s_cl_layout(c->m, w->piece, &size, &align))
    return 0;
  return (uint32_t)size;
}

/* The wide vector types become arrays of pieces; their constants, arrays of
 * piece constants. */
static void retype(wide *c)
{
  k2s_module *m = c->m;
  for (uint32_t t = 0; t < c->n_types; t++) {
    const wide_type *w = &c->types[t];
    uint32_t len = k2s_const_uint32(m, w->n / PIECE);
    k2s_instr *d = k2s_def(m, w->id);
    uint32_t ops[2] = {w->piece, len};
    d->opcode = SpvOpTypeArray; /* first: its length operand is an <id>, a vector's count is not */
    k2s_instr_set_ops(m, d, ops, 2);
    uint32_t stride = piece_bytes(c, w);
    if (stride) /* bool vectors have no layout and never live in memory */
      k2s_decorate(m, w->id, SpvDecorationArrayStride, &stride, 1);
  }
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
  {
    const wide_type *w = wide_info(c, i->type);
    if (!w || i->opcode != SpvOpConstantComposite || i->n_ops != w->n)
      continue;
    uint32_t p[MAX_PIECES];
    for (uint32_t j = 0; j < w->n / PIECE; j++)
      p[j] = k2s_const_composite(m, w->piece, i->ops + PIECE * j, PIECE);
    k2s_instr_set_ops(m, i, p, w->n / PIECE);
  }
}

typedef struct topo {
  k2s_module *m;
  uint8_t *state; /* 1: in globals, not placed yet; 2: placed (or being placed) */
  k2s_list out;
} topo;

static void topo_place(topo *s, k2s_instr *i);

static void topo_dep(void *ud, k2s_instr *in, uint32_t *id)
{
  topo *s = ud;
  (void)in;
  if (*id < s->m->id_cap && s->state[*id] == 1)
    topo_place(s, k2s_def(s->m, *id));
}

static void topo_place(topo *s, k2s_instr *i)
{
  if (i->result) {
    if (s->state[i->result] == 2)
      return;
    s->state[i->result] = 2;
  }
  if (i->opcode != SpvOpTypeForwardPointer) {
    uint32_t t = i->type;
    topo_dep(s, i, &t);
    k2s_foreach_id_operand(s->m, i, topo_dep, s);
  }
  k2s_list_append(&s->out, i);
}

/* New types and constants were appended to the globals; the converted types
 * need theirs defined first. Reorder the section so that every instruction
 * follows the definitions it uses, otherwise keeping the order. */
static void order_globals(wide *c)
{
  k2s_module *m = c->m;
  topo s = {m, k2s_alloc(c->a, m->id_cap), {0}};
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) if (i->result && i->result < m->id_cap)
      s.state[i->result] = 1;
  k2s_instr **all = NULL;
  uint32_t n = 0, cap = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
  {
    if (n == cap) {
      uint32_t nc = cap ? 2 * cap : 256;
      all = k2s_realloc_array(c->a, all, cap, nc, sizeof(*all));
      cap = nc;
    }
    all[n++] = i;
  }
  for (uint32_t k = 0; k < n; k++)
    topo_place(&s, all[k]);
  m->sec[K2S_SEC_GLOBAL] = s.out;
}

/* Names and decorations of the values this pass deleted. */
static void drop_debug(wide *c)
{
  k2s_module *m = c->m;
  k2s_list *secs[2] = {&m->sec[K2S_SEC_DEBUG], &m->sec[K2S_SEC_ANNOTATION]};
  for (int s = 0; s < 2; s++)
    k2s_foreach_instr_safe(i, secs[s])
    {
      if ((i->opcode == SpvOpName || i->opcode == SpvOpDecorate) && i->n_ops >= 1 &&
          i->ops[0] < c->cap0 && c->removed[i->ops[0]] && !k2s_def(m, i->ops[0]))
        k2s_list_remove(secs[s], i);
    }
}

bool k2s_lower_wide_vectors(k2s_module *m, const k2s_options *o)
{
  (void)o;
  k2s_keep_uses(m); /* operands change only through the API */
  k2s_arena a = {0};
  a.oom = m->arena.oom;
  wide c = {.m = m, .a = &a, .cap0 = m->id_cap, .bound0 = m->bound};
  c.wide_of = k2s_alloc(&a, c.cap0 * sizeof(uint16_t));
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
  {
    if (i->opcode != SpvOpTypeVector || i->n_ops != 2 || (i->ops[1] != 8 && i->ops[1] != 16))
      continue;
    if (c.n_types == UINT16_MAX - 1)
      break;
    c.types = k2s_realloc_array(&a, c.types, c.n_types, c.n_types + 1, sizeof(*c.types));
    c.types[c.n_types++] = (wide_type){i->result, i->ops[0], i->ops[1], 0};
    c.wide_of[i->result] = (uint16_t)c.n_types;
  }
  if (!c.n_types) {
    k2s_arena_free(&a);
    return false;
  }
  for (uint32_t t = 0; t < c.n_types; t++)
    c.types[t].piece = k2s_type_vector(m, c.types[t].elem, PIECE);
  c.pieces = k2s_alloc(&a, c.cap0 * sizeof(uint32_t *));
  c.decorated = k2s_alloc(&a, c.cap0);
  c.removed = k2s_alloc(&a, c.cap0);
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ANNOTATION]) if (i->opcode == SpvOpDecorate &&
                                                        i->n_ops >= 1 && i->ops[0] < c.cap0)
      c.decorated[i->ops[0]] = 1;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
  {
    if (i->opcode == SpvOpSpecConstantComposite && wide_info(&c, i->type)) {
      k2s_error(m, i,
                "an 8- or 16-lane specialisation constant cannot be split into 4-lane "
                "pieces yet");
      k2s_arena_free(&a);
      return false;
    }
  }
  k2s_foreach_function(f, m)
  {
    if (!rewrite_function(&c, f)) {
      k2s_arena_free(&a);
      return true;
    }
  }
  retype(&c);
  drop_debug(&c);
  order_globals(&c);
  k2s_invalidate_intern(m);
  k2s_arena_free(&a);
  return true;
}
