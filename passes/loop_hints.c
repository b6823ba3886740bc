/*
 * loop-hints: OpLoopMerge's Loop Control None → Unroll on innermost loops that
 * a GPU compiler should unroll.
 *
 * NVIDIA's OpenCL compiler (NVVM) unrolls small loops by itself, partially when
 * the trip count is known only at run time; its Vulkan compiler, measured on an
 * H100 (driver 580; bench/GPU.md, "Session 8: loop hints"), keeps a loop whose
 * control is None rolled, and unrolls it when the control says Unroll.
 * PartialCount made no difference there, so Unroll is the only hint given. The
 * SPIR-V specification calls Unroll a "strong request, to the degree possible":
 * a hint, which a driver may ignore; results never depend on it.
 *
 * The rule, for each loop whose control has neither Unroll nor DontUnroll (a
 * producer's hint, e.g. from #pragma unroll / nounroll, is kept as it is):
 *   - only innermost loops (no other loop header among the loop's blocks);
 *   - never a body of more than MAX_BODY instructions (the loop's blocks, less
 *     labels, merge instructions and debug lines);
 *   - a trip count the pass proves constant (an integer header phi starting at a
 *     constant, stepped by a constant add or subtract, and the loop's one exit
 *     a compare of it against a constant, in the header or the back-edge block)
 *     gets Unroll while trips x body instructions <= UNROLL_BUDGET: the driver
 *     unrolls such a loop fully, and a long straight-line body can be slower
 *     than the loop (fma_peak, 512 x 21, was 9% slower unrolled);
 *   - every other loop (trip count known only at run time) gets Unroll, what
 *     NVVM's runtime unrolling does (transpose's j loop: 0.82x → 1.02x).
 * Runs last before debug-emit, on the structured CFG cleanup left, so that the
 * sizes counted are those the driver sees. Steered by --unroll-hints=auto|none
 * (k2s_options.unroll_hints; none leaves every control as it is).
 */
#include "k2s_internal.h"

/* Constant trip count x body instructions above which a loop is left rolled.
 * On the H100: nbody's inner loop, 256 x 22 = 5,632, was 7% faster unrolled;
 * fma_peak's, 512 x 21 = 10,752, 9% slower. 8,192 lies between the two. */
#define UNROLL_BUDGET 8192u
/* A body this long has instruction-level parallelism enough on its own, and
 * unrolling it costs registers and instruction cache. */
#define MAX_BODY 200u

typedef struct hint_ctx {
  k2s_module *m;
  k2s_arena *a;
  k2s_cfg *cfg;
  uint32_t *index_of_label; /* label id -> block index + 1 (0: none), per function */
  uint8_t *in_loop;         /* per block index: in the loop being looked at */
  uint32_t *list;           /* the loop's block indices */
  uint32_t n_list;
} hint_ctx;

enum trip_kind { TRIPS_RUNTIME, TRIPS_CONSTANT, TRIPS_OVER_CAP };

static uint32_t block_index(const hint_ctx *c, uint32_t label)
{
  return label < c->m->id_cap && c->index_of_label[label] ? c->index_of_label[label] - 1
                                                          : UINT32_MAX;
}

/* The loop construct (SPIR-V's definition): the blocks the header dominates and
 * the merge does not. Leaves them in c->list and c->in_loop. Returns false when
 * the construct holds another loop header (the loop is not innermost). */
static bool collect_loop(hint_ctx *c, uint32_t header, uint32_t merge)
{
  const k2s_cfg *g = c->cfg;
  c->n_list = 0;
  c->list[c->n_list++] = header;
  c->in_loop[header] = 1;
  for (uint32_t k = 0; k < c->n_list; k++) {
    uint32_t x = c->list[k];
    if (x != header) {
      k2s_instr *mi = k2s_block_merge(g->blocks[x]);
      if (mi && mi->opcode == SpvOpLoopMerge)
        return false; /* the walk stops: an outer loop is never looked at further */
    }
    for (uint32_t s = 0; s < g->n_succ[x]; s++) {
      uint32_t y = g->succ[x][s];
      if (c->in_loop[y] || y == merge || !k2s_cfg_dominates(g, header, y) ||
          (merge != UINT32_MAX && k2s_cfg_dominates(g, merge, y)))
        continue;
      c->in_loop[y] = 1;
      c->list[c->n_list++] = y;
    }
  }
  return true;
}

static void clear_loop(hint_ctx *c)
{
  for (uint32_t k = 0; k < c->n_list; k++)
    c->in_loop[c->list[k]] = 0;
}

static uint32_t body_size(hint_ctx *c)
{
  uint32_t n = 0;
  for (uint32_t k = 0; k < c->n_list; k++)
    k2s_foreach_instr(i, &c->cfg->blocks[c->list[k]]->body) {
      if (i->opcode == SpvOpLoopMerge || i->opcode == SpvOpSelectionMerge ||
          i->opcode == SpvOpLine || i->opcode == SpvOpNoLine || k2s_is_debug_info(c->m, i))
        continue;
      n++;
    }
  return n;
}

/* The integer constant `id` and its width, if it is one. */
static bool int_constant(const k2s_module *m, uint32_t id, uint32_t *width, uint64_t *value)
{
  k2s_instr *d = k2s_def(m, id);
  k2s_instr *t = d ? k2s_def(m, d->type) : NULL;
  if (!t || t->opcode != SpvOpTypeInt || !k2s_const_value(m, id, value))
    return false;
  *width = k2s_type_width(m, d->type);
  return *width >= 1 && *width <= 64;
}

static int64_t sign_extend(uint64_t v, uint32_t width)
{
  return width == 64 ? (int64_t)v : (int64_t)(v << (64 - width)) >> (64 - width);
}

/* a OP b for an integer compare opcode on width-bit values; -1: not a compare. */
static int compare(uint16_t op, uint64_t a, uint64_t b, uint32_t width)
{
  int64_t sa = sign_extend(a, width), sb = sign_extend(b, width);
  switch (op) {
  case SpvOpIEqual: return a == b;
  case SpvOpINotEqual: return a != b;
  case SpvOpULessThan: return a < b;
  case SpvOpULessThanEqual: return a <= b;
  case SpvOpUGreaterThan: return a > b;
  case SpvOpUGreaterThanEqual: return a >= b;
  case SpvOpSLessThan: return sa < sb;
  case SpvOpSLessThanEqual: return sa <= sb;
  case SpvOpSGreaterThan: return sa > sb;
  case SpvOpSGreaterThanEqual: return sa >= sb;
  default: return -1;
  }
}

/* The simple induction of the loop whose one exit is the conditional branch `exit`
 * (in block `exiting`): its trip count (how often the body runs), counted up to
 * `cap`. TRIPS_RUNTIME for anything but a constant start, constant step and a
 * compare against a constant. */
static enum trip_kind trip_count(hint_ctx *c, uint32_t header, bool after_body, k2s_instr *exit,
                                 uint32_t merge_label, uint64_t cap, uint64_t *trips)
{
  k2s_module *m = c->m;
  bool exit_on_true = exit->ops[1] == merge_label;
  k2s_instr *cond = k2s_def(m, exit->ops[0]);
  if (cond && cond->opcode == SpvOpLogicalNot && cond->n_ops == 1) {
    exit_on_true = !exit_on_true;
    cond = k2s_def(m, cond->ops[0]);
  }
  if (!cond || cond->n_ops != 2 || compare(cond->opcode, 0, 0, 32) < 0) /* not a compare */
    return TRIPS_RUNTIME;
  /* Which side is the constant bound; the other is the induction value. */
  uint32_t width, w2, side;
  uint64_t bound, init, step;
  if (int_constant(m, cond->ops[1], &width, &bound))
    side = 0;
  else if (int_constant(m, cond->ops[0], &width, &bound))
    side = 1;
  else
    return TRIPS_RUNTIME;
  uint32_t value = cond->ops[side];
  /* value is the header phi, or the phi plus the step (the next iteration's value). */
  k2s_instr *v = k2s_def(m, value), *phi = v;
  if (v && (v->opcode == SpvOpIAdd || v->opcode == SpvOpISub) && v->n_ops == 2) {
    k2s_instr *p0 = k2s_def(m, v->ops[0]);
    phi = p0 && p0->opcode == SpvOpPhi ? p0 : k2s_def(m, v->ops[1]);
  }
  if (!phi || phi->opcode != SpvOpPhi || phi->n_ops != 4 || phi->block != c->cfg->blocks[header])
    return TRIPS_RUNTIME;
  uint32_t p_in = block_index(c, phi->ops[1]), p_back = block_index(c, phi->ops[3]);
  uint32_t init_id = phi->ops[0], next_id = phi->ops[2];
  if (p_in < c->cfg->n_blocks && c->in_loop[p_in]) {
    uint32_t t = p_in;
    p_in = p_back, p_back = t;
    init_id = phi->ops[2], next_id = phi->ops[0];
  }
  if (p_in >= c->cfg->n_blocks || c->in_loop[p_in] || p_back >= c->cfg->n_blocks ||
      !c->in_loop[p_back] || !int_constant(m, init_id, &w2, &init) || w2 != width)
    return TRIPS_RUNTIME;
  k2s_instr *next = k2s_def(m, next_id);
  if (!next || next->n_ops != 2 || (next->opcode != SpvOpIAdd && next->opcode != SpvOpISub))
    return TRIPS_RUNTIME;
  if (next->ops[0] == phi->result && int_constant(m, next->ops[1], &w2, &step))
    step = next->opcode == SpvOpISub ? 0 - step : step;
  else if (next->opcode == SpvOpIAdd && next->ops[1] == phi->result &&
           int_constant(m, next->ops[0], &w2, &step))
    ;
  else
    return TRIPS_RUNTIME;
  if (v != phi && v != next) /* a value other than the induction's own step */
    return TRIPS_RUNTIME;
  /* The exit tests value k (the phi) or k + 1 (the step) of the sequence, in
   * the header before the body runs or in the back-edge block after it. */
  uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
  uint64_t x = (init + (v == next ? step : 0)) & mask;
  for (uint64_t k = 0; k <= cap; k++, x = (x + step) & mask) {
    int r = compare(cond->opcode, side == 0 ? x : bound, side == 0 ? bound : x, width);
    if ((r != 0) == exit_on_true) {
      *trips = k + (after_body ? 1 : 0);
      return TRIPS_CONSTANT;
    }
  }
  return TRIPS_OVER_CAP;
}

/* What the pass found out about a loop, for the decision and for --verbose. */
typedef struct loop_facts {
  uint32_t size;       /* body instructions */
  enum trip_kind kind; /* TRIPS_RUNTIME also for loops with no simple count */
  uint64_t trips;      /* TRIPS_CONSTANT */
} loop_facts;

/* The facts of the innermost loop in c->list. */
static loop_facts examine_loop(hint_ctx *c, uint32_t header, uint32_t merge_label)
{
  loop_facts l = {.size = body_size(c), .kind = TRIPS_RUNTIME};
  if (l.size > MAX_BODY)
    return l;
  /* The one block that leaves the loop, by a conditional branch to the merge
   * from the header or from the block that branches back to it. */
  k2s_instr *exit = NULL;
  uint32_t exiting = UINT32_MAX, n_exiting = 0;
  for (uint32_t k = 0; k < c->n_list; k++) {
    uint32_t x = c->list[k];
    k2s_instr *t = k2s_block_terminator(c->cfg->blocks[x]);
    if (!t || (t->opcode != SpvOpBranch && t->opcode != SpvOpBranchConditional &&
               t->opcode != SpvOpSwitch))
      return l; /* returns or ends inside the loop: no simple count */
    for (uint32_t s = 0; s < c->cfg->n_succ[x]; s++)
      if (!c->in_loop[c->cfg->succ[x][s]]) {
        n_exiting++, exiting = x, exit = t;
        break;
      }
  }
  if (n_exiting != 1 || exit->opcode != SpvOpBranchConditional || exit->n_ops < 3)
    return l;
  /* Staying branches back to the header: the test ends an iteration (a one-block
   * loop's header does that too); else it is the header's, before the body. */
  uint32_t other = exit->ops[1] == merge_label ? exit->ops[2] : exit->ops[1];
  bool after_body = block_index(c, other) == header;
  if ((exit->ops[1] != merge_label && exit->ops[2] != merge_label) ||
      (exiting != header && !after_body))
    return l;
  l.kind = trip_count(c, header, after_body, exit, merge_label,
                      UNROLL_BUDGET / (l.size ? l.size : 1), &l.trips);
  return l;
}

static bool wants_unroll(const loop_facts *l)
{
  if (l->size > MAX_BODY)
    return false;
  return l->kind == TRIPS_RUNTIME ||
         (l->kind == TRIPS_CONSTANT && l->trips * l->size <= UNROLL_BUDGET);
}

static void explain(hint_ctx *c, k2s_instr *loop_merge, const loop_facts *l, bool unroll)
{
  const char *what = unroll ? "Unroll" : "left None";
  if (l->size > MAX_BODY)
    k2s_diag(c->m, K2S_NOTE, loop_merge, "%u body instructions > %u: %s", l->size, MAX_BODY, what);
  else if (l->kind == TRIPS_CONSTANT)
    k2s_diag(c->m, K2S_NOTE, loop_merge,
             "constant trip count %llu x %u body instructions = %llu (budget %u): %s",
             (unsigned long long)l->trips, l->size, (unsigned long long)(l->trips * l->size),
             UNROLL_BUDGET, what);
  else if (l->kind == TRIPS_OVER_CAP)
    k2s_diag(c->m, K2S_NOTE, loop_merge,
             "constant trip count above %u (budget %u / %u body instructions): %s",
             UNROLL_BUDGET / (l->size ? l->size : 1), UNROLL_BUDGET, l->size, what);
  else
    k2s_diag(c->m, K2S_NOTE, loop_merge, "trip count known at run time, %u body instructions: %s",
             l->size, what);
}

static bool hint_function(hint_ctx *c, k2s_function *f, bool verbose)
{
  k2s_module *m = c->m;
  bool changed = false;
  c->cfg = k2s_cfg_build(m, c->a, f);
  k2s_cfg_dominators(c->cfg, c->a);
  uint32_t n = c->cfg->n_blocks;
  c->in_loop = k2s_alloc(c->a, n + 1);
  c->list = k2s_alloc(c->a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i < n; i++)
    if (c->cfg->blocks[i]->label->result < m->id_cap)
      c->index_of_label[c->cfg->blocks[i]->label->result] = i + 1;
  for (uint32_t i = 0; i < n; i++) {
    k2s_instr *mi = k2s_block_merge(c->cfg->blocks[i]);
    if (!mi || mi->opcode != SpvOpLoopMerge || mi->n_ops < 3 ||
        (mi->ops[2] & (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask)))
      continue;
    uint32_t merge = block_index(c, mi->ops[0]);
    if (collect_loop(c, i, merge)) {
      loop_facts l = examine_loop(c, i, mi->ops[0]);
      bool unroll = wants_unroll(&l);
      if (verbose)
        explain(c, mi, &l, unroll);
      if (unroll) {
        k2s_instr_set_op(m, mi, 2, mi->ops[2] | SpvLoopControlUnrollMask);
        changed = true;
      }
    }
    clear_loop(c);
  }
  for (uint32_t i = 0; i < n; i++)
    if (c->cfg->blocks[i]->label->result < m->id_cap)
      c->index_of_label[c->cfg->blocks[i]->label->result] = 0;
  return changed;
}

bool k2s_loop_hints(k2s_module *m, const k2s_options *o)
{
  if (o->unroll_hints == K2S_UNROLL_HINTS_NONE)
    return false;
  k2s_keep_uses(m); /* operands change only through the API */
  /* The label table lives for the pass (hint_function leaves it all zero
   * again); each function's CFG and loop sets go with its scratch. */
  k2s_arena whole = {.oom = m->arena.oom}, scratch = {.oom = m->arena.oom};
  hint_ctx c = {.m = m, .a = &scratch};
  c.index_of_label = k2s_alloc(&whole, (m->id_cap + 1) * sizeof(uint32_t));
  bool changed = false;
  k2s_foreach_function(f, m) {
    if (!f->first)
      continue;
    changed |= hint_function(&c, f, o->verbose);
    k2s_arena_reset(&scratch);
  }
  k2s_arena_free(&scratch);
  k2s_arena_free(&whole);
  return changed;
}
