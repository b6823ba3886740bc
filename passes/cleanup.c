/*
 * cleanup: remove what lowering leaves redundant, so the output stays lean.
 *
 * Lowering expands each construct on its own (an access chain per pointer use,
 * index arithmetic with constant 0 and 1 factors, the same conversion in every
 * builtin expansion, a load of the work-item inputs in every block), which
 * leaves work a driver must then remove and which made outputs grow. Per
 * function: first blocks that only fall into their one successor are merged
 * with it where structured control flow allows (cleanup_blocks.c). Then,
 * walking the dominator tree: integer identities (x+0, x-0, x*1, x/1, x<<0,
 * x|0, x^0, a select of two equal values or on a constant condition, a bitcast
 * to the value's own type or back to the type a bitcast came from) become their
 * operand; integer arithmetic,
 * conversions and comparisons of constants, a bitcast of a scalar constant to an
 * integer, and logical operations on boolean constants become a constant; a pure
 * instruction equal to one of the same block or of a dominating block (same
 * opcode, type and operands, no decorations but wrap flags, which the one kept
 * then loses where they differ) becomes that one, and so does a
 * load of memory nothing writes (inputs, push constants, uniform buffers); a
 * load of other memory becomes the value an earlier load or store of its block
 * read or wrote when nothing between may have written it (cleanup_memory.c
 * says how aliasing is decided). A phi whose incoming values are all one value
 * defined elsewhere becomes that value. An extract of a composite whose parts
 * are known reads the part (cleanup_composite.c). Then pure instructions, loads and phis
 * that no side effect needs are deleted (a mark from the stores, calls and
 * terminators: loop phis that only feed each other go too). Runs after
 * structurize, whose constructs it keeps.
 * --no-cleanup (options' no_cleanup) skips it: pass tests that check a
 * lowering's own shape use it.
 */
#include <string.h>

#include "cleanup.h"

/* Instructions with no side effect whose result depends only on their
 * operands: the grammar's arithmetic, bit, relational and logical, conversion
 * and composite classes, and the access chains (an address computation). */
static bool pure(uint16_t op)
{
  switch (op) {
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: return true;
  /* Pure as well, but kept out while the table was derived from the grammar
   * so that no output changed: merging equal mul_hi / add-with-carry pairs
   * (lower_builtins) and physical mode's address conversions would shrink 34
   * of the corpus's 856 translations, a change to measure on its own. */
  case SpvOpIAddCarry:
  case SpvOpISubBorrow:
  case SpvOpUMulExtended:
  case SpvOpSMulExtended:
  case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr: return false;
  default: break;
  }
  switch (k2s_opcode_class(op)) {
  case K2S_CLASS_ARITHMETIC:
  case K2S_CLASS_BIT:
  case K2S_CLASS_RELATIONAL_AND_LOGICAL:
  case K2S_CLASS_CONVERSION:
  case K2S_CLASS_COMPOSITE: return true;
  default: return false;
  }
}

/* Pure instructions whose purity needs more than the opcode: image size queries
 * (an image's size does not change while a kernel runs) and GLSL.std.450
 * instructions but those that write through a pointer (Modf, Frexp) or read
 * interpolated inputs. */
static bool pure_instr(k2s_module *m, const k2s_instr *i)
{
  switch (i->opcode) {
  case SpvOpImageQuerySizeLod:
  case SpvOpImageQuerySize:
  case SpvOpImageQueryLevels:
  case SpvOpImageQuerySamples: return true;
  case SpvOpExtInst:
    return i->n_ops >= 2 && i->ops[0] < m->id_cap &&
           m->ext_set[i->ops[0]] == K2S_EXT_GLSL_STD_450 &&
           i->ops[1] != K2S_GLSL_STD_450_Modf && i->ops[1] != K2S_GLSL_STD_450_Frexp &&
           (i->ops[1] < K2S_GLSL_STD_450_InterpolateAtCentroid ||
            i->ops[1] > K2S_GLSL_STD_450_InterpolateAtOffset);
  default: return pure(i->opcode);
  }
}

/* May write memory another load could see (everything impure but a load). */
static bool clobbers(k2s_module *m, const k2s_instr *i)
{
  return !pure_instr(m, i) && i->opcode != SpvOpLoad && i->opcode != SpvOpPhi &&
         i->opcode != SpvOpLine && i->opcode != SpvOpNoLine && i->opcode != SpvOpUndef;
}

static bool decorated(k2s_module *m, uint32_t id)
{
  k2s_foreach_use(u, m, id)
    if (!u->user->dead && !u->user->block && u->user->opcode != SpvOpName)
      return true; /* a decoration (or another use outside function bodies) */
  return false;
}

/* The decorations of id as far as cleanup may ignore them: NoSignedWrap and
 * NoUnsignedWrap (bits 0 and 1) only say the result is undefined on overflow, so
 * an identity, a fold or a removal keeps the meaning; OTHER_DECORATION for
 * anything else (or another use outside function bodies), which keeps the value
 * as it is. llvm-spirv puts the wrap flags on most integer arithmetic, and
 * finalize keeps them on SPIR-V 1.4+ targets. */
#define OTHER_DECORATION 4u
static uint32_t decorations(k2s_module *m, uint32_t id)
{
  uint32_t mask = 0;
  k2s_foreach_use(u, m, id) {
    k2s_instr *d = u->user;
    if (d->dead || d->block || d->opcode == SpvOpName)
      continue;
    if (d->opcode == SpvOpDecorate && d->n_ops == 2 && d->ops[0] == id &&
        (d->ops[1] == SpvDecorationNoSignedWrap || d->ops[1] == SpvDecorationNoUnsignedWrap))
      mask |= d->ops[1] == SpvDecorationNoSignedWrap ? 1u : 2u;
    else
      return OTHER_DECORATION;
  }
  return mask;
}

/* The wrap flags of a value in the value table (which holds no value with other
 * decorations, and cleanup adds none), through the decoration index: a walk of its
 * uses, which grow with every value replaced by it, made N equal values N². */
static uint32_t wrap_flags(k2s_module *m, uint32_t id)
{
  return (k2s_find_decoration(m, id, SpvDecorationNoSignedWrap) ? 1u : 0u) |
         (k2s_find_decoration(m, id, SpvDecorationNoUnsignedWrap) ? 2u : 0u);
}

/* The OpNames of i's result (or label), found through its uses. */
static void drop_names(k2s_module *m, k2s_instr *i)
{
  if (i->result)
    k2s_foreach_use(u, m, i->result)
      if (!u->user->dead && u->user->opcode == SpvOpName && !u->user->block)
        k2s_instr_delete(m, u->user);
}

void k2s_cl_drop(k2s_module *m, k2s_instr *i)
{
  drop_names(m, i);
  if (i->result && decorated(m, i->result)) /* (a scan of the annotations: only when needed) */
    k2s_remove_decorations(m, i->result);
  k2s_instr_delete(m, i);
}

static bool is_const(k2s_module *m, uint32_t id, uint64_t v)
{
  uint64_t x;
  return k2s_const_value(m, id, &x) && x == v;
}

/* x for (x - c) + c, c + (x - c), (x + c) - c and (c + x) - c (integer arithmetic
 * wraps, so these hold for every x and c; the image pass's size queries leave them), or 0. */
static uint32_t cancel(k2s_module *m, uint16_t op, uint32_t a, uint32_t b)
{
  k2s_instr *da = k2s_def(m, a), *db = k2s_def(m, b);
  if (op == SpvOpIAdd) {
    if (da && da->opcode == SpvOpISub && da->n_ops == 2 && da->ops[1] == b)
      return da->ops[0];
    if (db && db->opcode == SpvOpISub && db->n_ops == 2 && db->ops[1] == a)
      return db->ops[0];
  } else if (op == SpvOpISub && da && da->opcode == SpvOpIAdd && da->n_ops == 2) {
    if (da->ops[1] == b)
      return da->ops[0];
    if (da->ops[0] == b)
      return da->ops[1];
  }
  return 0;
}

/* The operand an integer identity reduces i to, or 0. */
static uint32_t identity(k2s_module *m, const k2s_instr *i)
{
  if (i->n_ops < 1)
    return 0;
  uint32_t a = i->ops[0], b = i->n_ops > 1 ? i->ops[1] : 0, r = 0;
  switch (i->opcode) {
  case SpvOpIAdd:
  case SpvOpBitwiseOr:
  case SpvOpBitwiseXor:
    r = is_const(m, b, 0) ? a : is_const(m, a, 0) ? b : 0;
    if (!r && i->opcode == SpvOpIAdd && i->n_ops == 2)
      r = cancel(m, i->opcode, a, b);
    break;
  case SpvOpISub:
    r = is_const(m, b, 0) ? a : i->n_ops == 2 ? cancel(m, i->opcode, a, b) : 0;
    break;
  case SpvOpShiftLeftLogical:
  case SpvOpShiftRightLogical:
  case SpvOpShiftRightArithmetic: r = is_const(m, b, 0) ? a : 0; break;
  case SpvOpIMul: r = is_const(m, b, 1) ? a : is_const(m, a, 1) ? b : 0; break;
  case SpvOpUDiv:
  case SpvOpSDiv: r = is_const(m, b, 1) ? a : 0; break;
  case SpvOpSelect: {
    k2s_instr *c = k2s_def(m, a);
    if (i->n_ops != 3)
      return 0;
    r = i->ops[1] == i->ops[2]                        ? i->ops[1]
        : c && c->opcode == SpvOpConstantTrue  ? i->ops[1]
        : c && c->opcode == SpvOpConstantFalse ? i->ops[2]
                                               : 0;
    break;
  }
  case SpvOpBitcast: {
    /* a bitcast back to the type a bitcast came from: the first one's operand */
    k2s_instr *c = k2s_def(m, a);
    r = c && c->opcode == SpvOpBitcast && c->n_ops >= 1 && k2s_type_of(m, c->ops[0]) == i->type
            ? c->ops[0]
            : a;
    break;
  }
  case SpvOpCopyObject: r = a; break;
  default: return 0;
  }
  /* The operand must be a value of the result's own type (signedness included). */
  return r && k2s_type_of(m, r) == i->type ? r : 0;
}

/* Integer constant folding of what lowering introduced (index arithmetic on
 * constants, the widths conversions of constant indices): the scalar integer
 * operations k2s_fold_int knows with constant operands become a constant. */
static bool bool_const(k2s_module *m, uint32_t id, bool *v)
{
  k2s_instr *c = k2s_def(m, id);
  if (!c || (c->opcode != SpvOpConstantTrue && c->opcode != SpvOpConstantFalse))
    return false;
  *v = c->opcode == SpvOpConstantTrue;
  return true;
}

/* A bitcast of a scalar constant (a float's bits: OpenCL C's isnormal and the like
 * on a constant) to an integer of its width, and logical operations on boolean
 * constants (what the comparisons folded below leave). */
static uint32_t fold_bits(k2s_module *m, const k2s_instr *i)
{
  bool a, b;
  if (i->opcode == SpvOpBitcast && i->n_ops == 1) {
    k2s_instr *c = k2s_def(m, i->ops[0]), *t = k2s_def(m, i->type);
    if (!c || c->opcode != SpvOpConstant || !t || t->opcode != SpvOpTypeInt ||
        k2s_vector_size(m, c->type) != 1 ||
        k2s_type_width(m, c->type) != k2s_type_width(m, i->type) || c->n_ops > 2)
      return 0;
    return k2s_const_int(m, i->type, c->ops[0] | (c->n_ops > 1 ? (uint64_t)c->ops[1] << 32 : 0));
  }
  if (i->opcode == SpvOpLogicalNot && i->n_ops == 1 && bool_const(m, i->ops[0], &a))
    return k2s_const_bool(m, !a);
  if (i->n_ops != 2 || !bool_const(m, i->ops[0], &a) || !bool_const(m, i->ops[1], &b))
    return 0;
  switch (i->opcode) {
  case SpvOpLogicalAnd: return k2s_const_bool(m, a && b);
  case SpvOpLogicalOr: return k2s_const_bool(m, a || b);
  case SpvOpLogicalEqual: return k2s_const_bool(m, a == b);
  case SpvOpLogicalNotEqual: return k2s_const_bool(m, a != b);
  default: return 0;
  }
}

static uint32_t fold(k2s_module *m, const k2s_instr *i)
{
  uint64_t v[2], r;
  uint32_t bits = fold_bits(m, i);
  if (bits)
    return bits;
  if (i->n_ops < 1 || i->n_ops > 2)
    return 0;
  for (uint32_t k = 0; k < i->n_ops; k++)
    if (!k2s_const_value(m, i->ops[k], &v[k]))
      return 0;
  if (!k2s_fold_int(m, i, v, &r))
    return 0;
  return k2s_def(m, i->type)->opcode == SpvOpTypeBool ? k2s_const_bool(m, r != 0)
                                                       : k2s_const_int(m, i->type, r);
}

/* ---- value numbering, scoped by the dominator tree ---- */

/* A table of instructions by (opcode, type, operands). Entries leave in the reverse
 * of their arrival (a block's when the walk leaves its subtree), which linear
 * probing allows exactly: nothing that arrived later still sits on a probe path
 * through the leaving entry's slot. Growing rehashes in arrival order (the log)
 * to keep that true. */
typedef struct vn_table {
  k2s_instr **slot;
  uint32_t cap, n;
  k2s_instr **log; /* entries in arrival order */
  uint32_t log_cap;
} vn_table;

static uint64_t key_hash(const k2s_instr *i)
{
  uint64_t h = 1469598103934665603ull ^ i->opcode ^ ((uint64_t)i->type << 20);
  for (uint32_t k = 0; k < i->n_ops; k++)
    h = (h ^ i->ops[k]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static bool same_key(const k2s_instr *a, const k2s_instr *b)
{
  return a->opcode == b->opcode && a->type == b->type && a->n_ops == b->n_ops &&
         memcmp(a->ops, b->ops, a->n_ops * sizeof(uint32_t)) == 0;
}

static void vn_put(vn_table *t, k2s_instr *i)
{
  uint32_t j = (uint32_t)key_hash(i) & (t->cap - 1);
  while (t->slot[j])
    j = (j + 1) & (t->cap - 1);
  t->slot[j] = i;
}

/* The equal instruction already in t, or NULL after adding i. */
static k2s_instr *vn_find_or_add(k2s_arena *a, vn_table *t, k2s_instr *i)
{
  if (t->cap) {
    uint32_t j = (uint32_t)key_hash(i) & (t->cap - 1);
    for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
      if (same_key(t->slot[j], i))
        return t->slot[j];
  }
  if (2 * (t->n + 1) > t->cap) {
    uint32_t cap = t->cap ? 2 * t->cap : 64;
    t->slot = k2s_alloc(a, cap * sizeof(*t->slot));
    t->cap = cap;
    for (uint32_t k = 0; k < t->n; k++)
      vn_put(t, t->log[k]);
  }
  if (t->n == t->log_cap) {
    uint32_t c = t->log_cap ? 2 * t->log_cap : 64;
    t->log = k2s_realloc_array(a, t->log, t->n, c, sizeof(*t->log));
    t->log_cap = c;
  }
  vn_put(t, i);
  t->log[t->n++] = i;
  return NULL;
}

/* Remove the entries that arrived after the first `keep`, latest first. */
static void vn_truncate(vn_table *t, uint32_t keep)
{
  while (t->n > keep) {
    k2s_instr *i = t->log[--t->n];
    uint32_t j = (uint32_t)key_hash(i) & (t->cap - 1);
    while (t->slot[j] != i)
      j = (j + 1) & (t->cap - 1);
    t->slot[j] = NULL;
  }
}

static bool volatile_load(const k2s_instr *i)
{
  return i->n_ops >= 2 && (i->ops[1] & SpvMemoryAccessVolatileMask);
}

/* A load of memory no invocation writes while the kernel runs (builtin inputs, push
 * constants, uniform buffers: the work-item values lowering reads in every block):
 * equal loads are equal anywhere, like pure values. */
static bool invariant_load(k2s_module *m, const k2s_instr *i)
{
  if (i->opcode != SpvOpLoad || i->n_ops < 1 || volatile_load(i))
    return false;
  k2s_instr *p = k2s_def(m, i->ops[0]);
  while (p && (p->opcode == SpvOpAccessChain || p->opcode == SpvOpInBoundsAccessChain) &&
         p->n_ops >= 1)
    p = k2s_def(m, p->ops[0]);
  if (!p || p->opcode != SpvOpVariable || p->block || p->n_ops < 1)
    return false;
  switch (p->ops[0]) {
  case SpvStorageClassInput:
  case SpvStorageClassPushConstant:
  case SpvStorageClassUniform:
  case SpvStorageClassUniformConstant: return true;
  default: return false;
  }
}

static void strip_wrap_flags(k2s_module *m, uint32_t id)
{
  k2s_foreach_use(u, m, id) {
    k2s_instr *d = u->user;
    if (!d->dead && !d->block && d->opcode == SpvOpDecorate && d->n_ops == 2 &&
        d->ops[0] == id &&
        (d->ops[1] == SpvDecorationNoSignedWrap || d->ops[1] == SpvDecorationNoUnsignedWrap))
      k2s_instr_delete(m, d);
  }
}

/* The names of i go first: replacing its uses would move them onto `by`, which
 * keeps its own (a value named twice, or a constant named after a variable). */
bool k2s_cl_replace(k2s_module *m, k2s_instr *i, uint32_t by)
{
  drop_names(m, i);
  k2s_replace_all_uses(m, i->result, by);
  k2s_cl_drop(m, i);
  return true;
}

/* A phi whose incoming values are all one value v defined in another block: v. */
static uint32_t single_value_phi(k2s_module *m, k2s_block *b, const k2s_instr *i)
{
  uint32_t v = 0;
  for (uint32_t k = 0; k + 1 < i->n_ops; k += 2)
    if (i->ops[k] != i->result) {
      if (v && v != i->ops[k])
        return 0;
      v = i->ops[k];
    }
  k2s_instr *d = v ? k2s_def(m, v) : NULL;
  /* (a value of this block itself could not dominate all the incoming edges) */
  return d && d->block != b && d->opcode != SpvOpUndef && k2s_type_of(m, v) == i->type ? v : 0;
}

/* One block, with the values of the blocks that dominate it in `values`. Loads of
 * writable memory are forwarded within the block only (cleanup_memory.c). */
static bool clean_block(k2s_module *m, k2s_arena *a, k2s_block *b, vn_table *values,
                        k2s_cl_mem *mem)
{
  bool changed = false;
  k2s_cl_mem_block(mem);
  k2s_foreach_instr_safe(i, &b->body) {
    if (i->opcode == SpvOpPhi && i->result && i->n_ops >= 2) {
      uint32_t v = single_value_phi(m, b, i);
      if (v)
        changed |= k2s_cl_replace(m, i, v);
      continue;
    }
    if (clobbers(m, i)) {
      k2s_cl_mem_write(mem, i);
      continue;
    }
    uint32_t deco = i->result && i->type ? decorations(m, i->result) : OTHER_DECORATION;
    if (deco & OTHER_DECORATION)
      continue;
    uint32_t r = pure(i->opcode) ? identity(m, i) : 0;
    if (!r && pure(i->opcode))
      r = fold(m, i);
    if (!r) {
      bool rewritten = false;
      r = k2s_cl_extract(m, i, &rewritten);
      changed |= rewritten || k2s_cl_insert_chain(m, i);
    }
    if (r) {
      changed |= k2s_cl_replace(m, i, r);
      continue;
    }
    if (pure_instr(m, i) || invariant_load(m, i)) {
      k2s_instr *same = vn_find_or_add(a, values, i);
      /* Equal values with other wrap flags: the one kept loses its flags (one
       * without them is defined where the other is not). */
      if (same && wrap_flags(m, same->result) != deco)
        strip_wrap_flags(m, same->result);
      if (same)
        changed |= k2s_cl_replace(m, i, same->result);
    } else if (i->opcode == SpvOpLoad) {
      uint32_t v = k2s_cl_mem_load(mem, i);
      if (v)
        changed |= k2s_cl_replace(m, i, v);
    }
  }
  return changed;
}

/* Walk the dominator tree depth first: a block sees the values of its dominators
 * (which dominate every use it has) and none of its siblings'. */
static bool value_numbering(k2s_module *m, k2s_arena *a, k2s_function *f, k2s_cl_mem *mem)
{
  if (!f->first)
    return false;
  k2s_cfg *cfg = k2s_cfg_build(m, a, f);
  k2s_cfg_dominators(cfg, a);
  uint32_t n = cfg->n_blocks;
  uint32_t *first = k2s_alloc(a, (n + 2) * sizeof(uint32_t));
  uint32_t *kids = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t entry = cfg->n_rpo ? cfg->rpo[0] : 0;
  for (uint32_t r = 0; r < cfg->n_rpo; r++) {
    uint32_t x = cfg->rpo[r], d = cfg->idom[x];
    if (x != entry && d < n && d != x)
      first[d + 1]++;
  }
  for (uint32_t x = 0; x < n; x++)
    first[x + 1] += first[x];
  uint32_t *fill = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  memcpy(fill, first, n * sizeof(uint32_t));
  for (uint32_t r = 0; r < cfg->n_rpo; r++) {
    uint32_t x = cfg->rpo[r], d = cfg->idom[x];
    if (x != entry && d < n && d != x)
      kids[fill[d]++] = x;
  }
  /* explicit stack (deep CFGs must not overflow the C stack): block, next child, mark */
  uint32_t *blk = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *mark = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  vn_table values = {0};
  bool changed = false;
  uint32_t top = 0;
  if (!cfg->n_rpo)
    return false;
  blk[0] = entry, next[0] = first[entry], mark[0] = 0;
  changed |= clean_block(m, a, cfg->blocks[entry], &values, mem);
  top = 1;
  while (top) {
    uint32_t x = blk[top - 1];
    if (next[top - 1] == first[x + 1]) {
      vn_truncate(&values, mark[top - 1]);
      top--;
      continue;
    }
    uint32_t y = kids[next[top - 1]++];
    blk[top] = y, next[top] = first[y], mark[top] = values.n;
    top++;
    changed |= clean_block(m, a, cfg->blocks[y], &values, mem);
  }
  return changed;
}

/* ---- dead code ---- */

/* Values a use keeps alive; anything else in a body (stores, calls, terminators,
 * decorated values) is a root. Phis count: a loop phi only its own update reads is
 * dead with it, which counting uses alone does not find. */
static bool removable(k2s_module *m, k2s_instr *i)
{
  return i->result && (pure_instr(m, i) || i->opcode == SpvOpPhi ||
                       (i->opcode == SpvOpLoad && !volatile_load(i))) &&
         !(decorations(m, i->result) & OTHER_DECORATION);
}

/* Live marks by result id, allocated once per pass and cleared after each function
 * through the list of ids marked: an id-bound-sized array per function made a
 * module of many functions quadratic (big1000: 143 M of 221 M instructions). */
typedef struct dce_marks {
  uint8_t *live;
  uint32_t n_live; /* entries in live */
  uint32_t *set, n_set, cap_set;
  k2s_arena *a; /* lives as long as the pass */
} dce_marks;

typedef struct dce_ctx {
  k2s_module *m;
  dce_marks *mk;
  k2s_instr **stack;
  uint32_t n, cap;
  k2s_arena *a;
} dce_ctx;

static void mark_live(dce_marks *mk, uint32_t id)
{
  if (mk->n_set == mk->cap_set) {
    uint32_t cap = mk->cap_set ? 2 * mk->cap_set : 256;
    mk->set = k2s_realloc_array(mk->a, mk->set, mk->n_set, cap, sizeof(*mk->set));
    mk->cap_set = cap;
  }
  mk->live[id] = 1;
  mk->set[mk->n_set++] = id;
}

static void push(dce_ctx *c, k2s_instr *i)
{
  if (c->n == c->cap) {
    uint32_t cap = c->cap ? 2 * c->cap : 256;
    c->stack = k2s_realloc_array(c->a, c->stack, c->n, cap, sizeof(*c->stack));
    c->cap = cap;
  }
  c->stack[c->n++] = i;
}

static void mark_def(void *ud, k2s_instr *in, uint32_t *id)
{
  (void)in;
  dce_ctx *c = ud;
  if (*id >= c->m->id_cap || c->mk->live[*id])
    return;
  k2s_instr *d = k2s_def(c->m, *id);
  if (d && d->block && !d->dead) {
    mark_live(c->mk, *id);
    push(c, d);
  }
}

/* Mark what the roots use, transitively; delete the removable values left unmarked. */
static bool dead_code(k2s_module *m, k2s_arena *a, dce_marks *mk, k2s_function *f)
{
  if (mk->n_live < m->id_cap + 1) { /* value numbering may have made ids: doubling */
    uint32_t n = mk->n_live ? 2 * mk->n_live : m->id_cap + 1;
    n = n < m->id_cap + 1 ? m->id_cap + 1 : n;
    mk->live = k2s_alloc(mk->a, n);
    mk->n_live = n;
  }
  dce_ctx c = {m, mk, NULL, 0, 0, a};
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (!removable(m, i)) {
        if (i->result && i->result < m->id_cap)
          mark_live(mk, i->result);
        push(&c, i);
      }
  while (c.n)
    k2s_foreach_id_operand(m, c.stack[--c.n], mark_def, &c);
  bool changed = false;
  k2s_foreach_block(b, f)
    k2s_foreach_instr_safe(i, &b->body)
      if (i->result < m->id_cap && !mk->live[i->result] && removable(m, i)) {
        k2s_cl_drop(m, i);
        changed = true;
      }
  for (uint32_t k = 0; k < mk->n_set; k++)
    mk->live[mk->set[k]] = 0;
  mk->n_set = 0;
  return changed;
}

bool k2s_cleanup(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  if (o->no_cleanup)
    return false;
  bool changed = false;
  k2s_arena a = {.oom = m->arena.oom}, keep = {.oom = m->arena.oom};
  dce_marks mk = {.a = &keep};
  k2s_build_uses(m);
  k2s_cl_mem *mem = k2s_cl_mem_new(m, &keep);
  k2s_foreach_function(f, m) {
    changed |= k2s_cl_merge_blocks(m, &a, f);
    k2s_arena_reset(&a);
    changed |= value_numbering(m, &a, f, mem);
    k2s_arena_reset(&a);
    changed |= dead_code(m, &a, &mk, f);
    k2s_arena_reset(&a);
  }
  k2s_arena_free(&a);
  k2s_arena_free(&keep);
  return changed;
}
