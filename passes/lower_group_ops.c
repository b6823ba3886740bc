/*
 * group-ops: OpenCL work-group and sub-group functions → Vulkan code.
 *
 * The Kernel dialect's OpGroupAll/Any/Broadcast/IAdd/FAdd/[SUF]Min/[SUF]Max
 * (the Groups capability) do not exist in Vulkan. With Subgroup scope each
 * becomes its GroupNonUniform* twin (same operation, same scan order: the
 * sub-group local id). With Workgroup scope each becomes code over a Workgroup
 * scratch array (one per scalar type; two halves of X*Y*Z elements, the
 * spec-constant work-group size or the largest reqd_work_group_size) and
 * barriers, in increasing linear local id. Where the work-group size in x is a
 * multiple of the sub-group size (a uniform run-time test) and the type is
 * 32-bit, sub-group operations do the work: a reduction is a sub-group
 * reduction, one partial per sub-group, ONE barrier, then every sub-group folds
 * the partials itself; a scan goes through scratch memory in linear id order
 * (Vulkan ties sub-groups to no local ids) with three barriers. Otherwise, or
 * with --no-subgroups, a pairwise tree (one barrier a step) and a Hillis-Steele
 * scan (two a step). Broadcast: the chosen work-item stores, one barrier.
 * Consecutive functions alternate between the halves, so none needs a trailing
 * barrier (next_half). Float results are exact on exactly representable data;
 * float sums round in a device-dependent order, as OpenCL allows. Runs after
 * pointers (logical access chains) and work-items (the WorkgroupSize builtin
 * exists); inline_calls put every work-group function into its kernel, so a
 * reqd_work_group_size is known where it applies.
 */
#include <math.h>

#include "k2s_internal.h"

enum { MAX_SCRATCH = 16 };

typedef struct go_ctx {
  k2s_module *m;
  const k2s_options *o;
  uint32_t u32, boolean;
  uint32_t scratch_type[MAX_SCRATCH], scratch_var[MAX_SCRATCH];
  uint32_t n_scratch;
  uint32_t scratch_len; /* constant or spec-constant length of every scratch array */
  uint32_t half_len;    /* half of it: X*Y*Z */
  uint32_t parity_var;  /* Private uint: which half the next work-group function uses */
  uint32_t wg_size;     /* the WorkgroupSize builtin's value, 0 when none */
  uint32_t glsl;
  bool changed;
} go_ctx;

enum op_kind { OP_ADD, OP_MIN, OP_MAX };

static uint32_t emit2(k2s_builder *b, uint16_t op, uint32_t type, uint32_t x, uint32_t y)
{
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, op, type, ops, 2);
}

static uint32_t emit3(k2s_builder *b, uint16_t op, uint32_t type, uint32_t x, uint32_t y,
                      uint32_t z)
{
  uint32_t ops[3] = {x, y, z};
  return k2s_emit(b, op, type, ops, 3);
}

/* A Vulkan builtin Input variable of type uint (found or made). */
static uint32_t builtin_u32(go_ctx *c, uint32_t builtin)
{
  k2s_module *m = c->m;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassInput)
      continue;
    k2s_instr *bi = k2s_find_decoration(m, v->result, SpvDecorationBuiltIn);
    if (bi && bi->n_ops >= 3 && bi->ops[2] == builtin &&
        v->type == k2s_type_pointer(m, SpvStorageClassInput, c->u32))
      return v->result;
  }
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassInput, c->u32),
                                     SpvStorageClassInput, 0);
  k2s_decorate(m, var, SpvDecorationBuiltIn, &builtin, 1);
  return var;
}

static uint32_t load_builtin(go_ctx *c, k2s_builder *b, uint32_t builtin)
{
  uint32_t var = builtin_u32(c, builtin);
  return k2s_emit(b, SpvOpLoad, c->u32, &var, 1);
}

static uint32_t find_workgroup_size(k2s_module *m)
{
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION])
    if (d->opcode == SpvOpDecorate && d->n_ops >= 3 && d->ops[1] == SpvDecorationBuiltIn &&
        d->ops[2] == SpvBuiltInWorkgroupSize)
      return d->ops[0];
  return 0;
}

/* The length of the scratch arrays: two halves (see next_half) of X*Y*Z of
 * the spec constants, or of the largest required work-group size when every
 * kernel has one. */
static uint32_t scratch_length(go_ctx *c)
{
  k2s_module *m = c->m;
  if (c->scratch_len)
    return c->scratch_len;
  k2s_instr *ws = c->wg_size ? k2s_def(m, c->wg_size) : NULL;
  if (ws && ws->opcode == SpvOpSpecConstantComposite && ws->n_ops == 3) {
    uint32_t xy[3] = {SpvOpIMul, ws->ops[0], ws->ops[1]};
    k2s_instr *p = k2s_instr_new(m, SpvOpSpecConstantOp, c->u32, k2s_new_id(m), xy, 3);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], p);
    uint32_t xyz[3] = {SpvOpIMul, p->result, ws->ops[2]};
    k2s_instr *q = k2s_instr_new(m, SpvOpSpecConstantOp, c->u32, k2s_new_id(m), xyz, 3);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], q);
    uint32_t two[3] = {SpvOpIMul, q->result, k2s_const_uint32(m, 2)};
    k2s_instr *r2 = k2s_instr_new(m, SpvOpSpecConstantOp, c->u32, k2s_new_id(m), two, 3);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], r2);
    c->half_len = q->result;
    return c->scratch_len = r2->result;
  }
  k2s_refl_facts *r = k2s_refl(m);
  uint64_t most = 1;
  for (uint32_t i = 0; i < r->n_kernels; i++)
    if (r->kernels[i].has_reqd) {
      uint64_t n = (uint64_t)r->kernels[i].reqd[0] * r->kernels[i].reqd[1] * r->kernels[i].reqd[2];
      most = n > most ? n : most;
    }
  c->half_len = k2s_const_uint32(m, (uint32_t)most);
  return c->scratch_len = k2s_const_uint32(m, (uint32_t)(2 * most));
}

/* The Workgroup scratch array of scalar type t. */
static uint32_t scratch_of(go_ctx *c, uint32_t t, const k2s_instr *at)
{
  k2s_module *m = c->m;
  for (uint32_t i = 0; i < c->n_scratch; i++)
    if (c->scratch_type[i] == t)
      return c->scratch_var[i];
  if (c->n_scratch == MAX_SCRATCH) {
    k2s_error(m, at, "too many distinct value types in work-group functions (at most %d)",
              MAX_SCRATCH);
    return 0;
  }
  uint32_t arr = k2s_type_array(m, t, scratch_length(c));
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassWorkgroup, arr),
                                     SpvStorageClassWorkgroup, 0);
  k2s_set_name(m, var, "k2s_group_scratch");
  c->scratch_type[c->n_scratch] = t;
  c->scratch_var[c->n_scratch++] = var;
  return var;
}

static uint32_t elem_ptr(go_ctx *c, k2s_builder *b, uint32_t var, uint32_t t, uint32_t idx)
{
  return emit2(b, SpvOpAccessChain, k2s_type_pointer(c->m, SpvStorageClassWorkgroup, t), var, idx);
}

static uint32_t load_at(go_ctx *c, k2s_builder *b, uint32_t var, uint32_t t, uint32_t idx)
{
  uint32_t p = elem_ptr(c, b, var, t, idx);
  return k2s_emit(b, SpvOpLoad, t, &p, 1);
}

static void store_at(go_ctx *c, k2s_builder *b, uint32_t var, uint32_t t, uint32_t idx, uint32_t v)
{
  uint32_t ops[2] = {elem_ptr(c, b, var, t, idx), v};
  k2s_emit(b, SpvOpStore, 0, ops, 2);
}

static void barrier(go_ctx *c, k2s_builder *b)
{
  k2s_module *m = c->m;
  uint32_t wg = k2s_const_uint32(m, SpvScopeWorkgroup);
  uint32_t sem = k2s_const_uint32(m, SpvMemorySemanticsAcquireReleaseMask |
                                         SpvMemorySemanticsWorkgroupMemoryMask);
  uint32_t ops[3] = {wg, wg, sem};
  k2s_emit(b, SpvOpControlBarrier, 0, ops, 3);
}

static bool is_float(k2s_module *m, uint32_t t)
{
  k2s_instr *d = k2s_def(m, t);
  return d && d->opcode == SpvOpTypeFloat;
}

/* The identity of op on type t (signedness from the opcode). */
static uint32_t identity(go_ctx *c, enum op_kind k, bool is_signed, uint32_t t)
{
  k2s_module *m = c->m;
  uint32_t w = k2s_type_width(m, t);
  if (is_float(m, t))
    return k == OP_ADD ? k2s_const_float(m, t, 0.0)
                       : k2s_const_float(m, t, k == OP_MIN ? INFINITY : -INFINITY);
  uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
  if (k == OP_ADD)
    return k2s_const_int(m, t, 0);
  if (k == OP_MIN)
    return k2s_const_int(m, t, is_signed ? all >> 1 : all);
  return k2s_const_int(m, t, is_signed ? (all >> 1) + 1 : 0);
}

/* op(x, y), x the earlier value in scan order. */
static uint32_t combine(go_ctx *c, k2s_builder *b, enum op_kind k, bool is_signed, uint32_t t,
                        uint32_t x, uint32_t y)
{
  k2s_module *m = c->m;
  bool fl = is_float(m, t);
  if (k == OP_ADD)
    return emit2(b, fl ? SpvOpFAdd : SpvOpIAdd, t, x, y);
  if (fl) {
    /* NMin/NMax: a NaN operand yields the other one, as OpenCL's fmin/fmax. */
    if (!c->glsl)
      c->glsl = k2s_ext_import(m, "GLSL.std.450");
    uint32_t ops[4] = {c->glsl, k == OP_MIN ? K2S_GLSL_STD_450_NMin : K2S_GLSL_STD_450_NMax, x, y};
    return k2s_emit(b, SpvOpExtInst, t, ops, 4);
  }
  uint16_t lt = is_signed ? SpvOpSLessThan : SpvOpULessThan;
  uint32_t less = emit2(b, lt, c->boolean, x, y);
  return k == OP_MIN ? emit3(b, SpvOpSelect, t, less, x, y) : emit3(b, SpvOpSelect, t, less, y, x);
}

/* Dimension d of the reqd_work_group_size of f's kernel, when every kernel has one (no
 * WorkgroupSize builtin). inline_calls puts every work-group function into its kernels, so
 * a function that is not a kernel here is called by none: any size does for it. */
static uint32_t reqd_size(go_ctx *c, k2s_function *f, uint32_t d)
{
  k2s_refl_kernel *k = k2s_refl_kernel_of(c->m, f->def->result);
  return k && k->has_reqd ? k->reqd[d] : 1;
}

/* The number of work-items of the work-group running f (uint). */
static uint32_t group_size(go_ctx *c, k2s_builder *b, k2s_function *f, const k2s_instr *at)
{
  k2s_module *m = c->m;
  (void)at;
  if (!c->wg_size)
    return k2s_const_uint32(m, reqd_size(c, f, 0) * reqd_size(c, f, 1) * reqd_size(c, f, 2));
  uint32_t d[3];
  for (uint32_t i = 0; i < 3; i++)
    d[i] = emit2(b, SpvOpCompositeExtract, c->u32, c->wg_size, i);
  return emit2(b, SpvOpIMul, c->u32, emit2(b, SpvOpIMul, c->u32, d[0], d[1]), d[2]);
}

static uint32_t to_u32(go_ctx *c, k2s_builder *b, uint32_t v)
{
  uint32_t t = k2s_type_of(c->m, v);
  if (t == c->u32)
    return v;
  return k2s_emit(b, k2s_type_width(c->m, t) == 32 ? SpvOpBitcast : SpvOpUConvert, c->u32, &v, 1);
}

/* The linear local id of work_group_broadcast's local id operand (a scalar
 * or a 2- or 3-vector of size_t): x + sx * (y + sy * z). */
static uint32_t linear_index(go_ctx *c, k2s_builder *b, k2s_function *f, uint32_t id,
                             const k2s_instr *at)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_of(m, id);
  uint32_t n = k2s_vector_size(m, t);
  if (n == 1)
    return to_u32(c, b, id);
  uint32_t st = k2s_scalar_type(m, t);
  uint32_t comp[3], size[3];
  for (uint32_t i = 0; i < n; i++)
    comp[i] = to_u32(c, b, emit2(b, SpvOpCompositeExtract, st, id, i));
  (void)at;
  for (uint32_t i = 0; i < 2; i++)
    size[i] = c->wg_size ? emit2(b, SpvOpCompositeExtract, c->u32, c->wg_size, i)
                         : k2s_const_uint32(m, reqd_size(c, f, i));
  uint32_t acc = comp[n - 1];
  for (uint32_t i = n - 1; i-- > 0;)
    acc = emit2(b, SpvOpIAdd, c->u32, comp[i], emit2(b, SpvOpIMul, c->u32, size[i], acc));
  return acc;
}

/* If cond, run the code the returned builder emits, then continue before at. */
static k2s_builder emit_if(go_ctx *c, k2s_instr *at, uint32_t cond)
{
  k2s_module *m = c->m;
  k2s_block *pre = at->block;
  k2s_block *rest = k2s_split_block(m, at, k2s_new_id(m));
  k2s_block *then = k2s_block_new(m, pre->func, k2s_new_id(m));
  k2s_function_insert_block_after(pre->func, pre, then);
  k2s_builder b = {m, k2s_block_append(pre)};
  emit3(&b, SpvOpBranchConditional, 0, cond, then->label->result, rest->label->result);
  b = (k2s_builder){m, k2s_block_append(then)};
  uint32_t to = rest->label->result;
  k2s_instr *br = k2s_emit_instr(&b, SpvOpBranch, 0, &to, 1);
  return (k2s_builder){m, k2s_before(br)};
}

enum form { FORM_REDUCE, FORM_INCLUSIVE, FORM_EXCLUSIVE };

/* Consecutive work-group functions alternate between the two halves of each
 * scratch array: a per-invocation parity, the same in every work-item because
 * all of them meet the same work-group functions in the same order. A function
 * writes only its own half before its first barrier and reads only its own half
 * after its last one. So the next function (the other half) needs no barrier
 * after this one, and the one after that (this half again) writes it only once
 * every work-item has passed the next function's barrier, after all of this
 * one's reads: no trailing barrier anywhere. Returns the base of the half. */
static uint32_t next_half(go_ctx *c, k2s_builder *b)
{
  k2s_module *m = c->m;
  if (!c->parity_var) {
    c->parity_var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassPrivate, c->u32),
                                        SpvStorageClassPrivate, k2s_const_uint32(m, 0));
    k2s_set_name(m, c->parity_var, "k2s_group_half");
  }
  scratch_length(c);
  uint32_t p = k2s_emit(b, SpvOpLoad, c->u32, &c->parity_var, 1);
  uint32_t st[2] = {c->parity_var, emit2(b, SpvOpBitwiseXor, c->u32, p, k2s_const_uint32(c->m, 1))};
  k2s_emit(b, SpvOpStore, 0, st, 2);
  return emit2(b, SpvOpIMul, c->u32, p, c->half_len);
}

/* Scan v (type t) over the work-group through the half of scratch memory at
 * base and return the form asked for; the code goes before `at`, which ends up
 * in a new block. */
static uint32_t workgroup_scan(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed, uint32_t t,
                               uint32_t v, enum form form, uint32_t base)
{
  k2s_module *m = c->m;
  uint32_t var = scratch_of(c, t, at);
  if (!var)
    return 0;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t n = group_size(c, &b, at->block->func, at);
  if (!n)
    return 0;
  uint32_t lid = load_builtin(c, &b, SpvBuiltInLocalInvocationIndex);
  uint32_t slot = emit2(&b, SpvOpIAdd, c->u32, base, lid);
  store_at(c, &b, var, t, slot, v);
  barrier(c, &b);
  /* steps = ceil(log2(n)) = FindUMsb(n - 1) + 1 (FindUMsb(0) is -1). */
  if (!c->glsl)
    c->glsl = k2s_ext_import(m, "GLSL.std.450");
  uint32_t one = k2s_const_uint32(m, 1);
  uint32_t msb_ops[3] = {c->glsl, K2S_GLSL_STD_450_FindUMsb, emit2(&b, SpvOpISub, c->u32, n, one)};
  uint32_t msb = k2s_emit(&b, SpvOpExtInst, c->u32, msb_ops, 3);
  uint32_t steps = emit2(&b, SpvOpIAdd, c->u32, msb, one);
  k2s_counted_loop l = k2s_build_counted_loop(m, at, k2s_const_uint32(m, 0), steps);
  if (form == FORM_REDUCE) {
    /* A pairwise tree, one barrier per step: at step k (d = 2^k) each work-item whose id is
     * a multiple of 2d combines its element with the one d further on, if there is one. No
     * element is written in a step in which another work-item reads it. */
    b = (k2s_builder){m, k2s_before(l.step)};
    uint32_t d = emit2(&b, SpvOpShiftLeftLogical, c->u32, one, l.k);
    uint32_t mask =
        emit2(&b, SpvOpISub, c->u32, emit2(&b, SpvOpShiftLeftLogical, c->u32, d, one), one);
    uint32_t lead = emit2(&b, SpvOpIEqual, c->boolean,
                          emit2(&b, SpvOpBitwiseAnd, c->u32, lid, mask), k2s_const_uint32(m, 0));
    uint32_t other = emit2(&b, SpvOpIAdd, c->u32, lid, d);
    uint32_t inside = emit2(&b, SpvOpULessThan, c->boolean, other, n);
    uint32_t act = emit2(&b, SpvOpLogicalAnd, c->boolean, lead, inside);
    k2s_builder tb = emit_if(c, l.step, act);
    uint32_t x = load_at(c, &tb, var, t, slot);
    uint32_t y = load_at(c, &tb, var, t, emit2(&tb, SpvOpIAdd, c->u32, base, other));
    store_at(c, &tb, var, t, slot, combine(c, &tb, k, is_signed, t, x, y));
    b = (k2s_builder){m, k2s_before(l.step)};
    barrier(c, &b);
    b = (k2s_builder){m, k2s_before(at)};
    return load_at(c, &b, var, t, base);
  }
  /* Hillis-Steele: read, barrier, write, barrier per step. */
  b = (k2s_builder){m, k2s_before(l.step)};
  uint32_t d = emit2(&b, SpvOpShiftLeftLogical, c->u32, one, l.k);
  uint32_t x = load_at(c, &b, var, t, slot);
  uint32_t ge = emit2(&b, SpvOpUGreaterThanEqual, c->boolean, lid, d);
  uint32_t j = emit3(&b, SpvOpSelect, c->u32, ge, emit2(&b, SpvOpISub, c->u32, slot, d), slot);
  uint32_t y = load_at(c, &b, var, t, j);
  barrier(c, &b);
  uint32_t r = emit3(&b, SpvOpSelect, t, ge, combine(c, &b, k, is_signed, t, y, x), x);
  store_at(c, &b, var, t, slot, r);
  barrier(c, &b);
  b = (k2s_builder){m, k2s_before(at)};
  if (form == FORM_INCLUSIVE)
    return load_at(c, &b, var, t, slot);
  uint32_t first = emit2(&b, SpvOpIEqual, c->boolean, lid, k2s_const_uint32(m, 0));
  uint32_t left =
      emit3(&b, SpvOpSelect, c->u32, first, slot, emit2(&b, SpvOpISub, c->u32, slot, one));
  return emit3(&b, SpvOpSelect, t, first, identity(c, k, is_signed, t),
               load_at(c, &b, var, t, left));
}

static bool is_vote(uint32_t nonuniform_op)
{
  return nonuniform_op == SpvOpGroupNonUniformAll || nonuniform_op == SpvOpGroupNonUniformAny;
}

/* The sub-group's reduction of v: GroupNonUniform* arithmetic, or for all/any
 * (v is 0 or 1) a vote turned back into 0 or 1. */
static uint32_t subgroup_op(go_ctx *c, k2s_builder *b, uint32_t t, uint32_t nonuniform_op,
                            uint32_t group_op, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t sg = k2s_const_uint32(m, SpvScopeSubgroup);
  if (!is_vote(nonuniform_op))
    return emit3(b, nonuniform_op, t, sg, group_op, v);
  uint32_t pred = emit2(b, SpvOpINotEqual, c->boolean, v, k2s_const_uint32(m, 0));
  uint32_t vote = emit2(b, nonuniform_op, c->boolean, sg, pred);
  return emit3(b, SpvOpSelect, t, vote, k2s_const_uint32(m, 1), k2s_const_uint32(m, 0));
}

/* The identity an entry past the end is padded with: the spec's identity,
 * but -0.0 for float sums (x + -0.0 is x for every x, -0.0 included). */
static uint32_t pad_identity(go_ctx *c, enum op_kind k, bool is_signed, uint32_t t)
{
  if (k == OP_ADD && is_float(c->m, t))
    return k2s_const_float(c->m, t, -0.0);
  return identity(c, k, is_signed, t);
}

/* op over scratch[from + j] for j < count (count uniform in the sub-group),
 * computed by the whole sub-group: lane l folds the entries l, l + size, ...
 * (one round when count <= the sub-group size), then one sub-group reduction. */
static uint32_t fold_entries(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed, uint32_t t,
                             uint32_t nonuniform_op, uint32_t var, uint32_t from, uint32_t count)
{
  k2s_module *m = c->m;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t lane = load_builtin(c, &b, SpvBuiltInSubgroupLocalInvocationId);
  uint32_t size = load_builtin(c, &b, SpvBuiltInSubgroupSize);
  uint32_t up = emit2(&b, SpvOpISub, c->u32, emit2(&b, SpvOpIAdd, c->u32, count, size),
                      k2s_const_uint32(m, 1));
  /* Vulkan's sub-group sizes are powers of two: divide by a shift. */
  if (!c->glsl)
    c->glsl = k2s_ext_import(m, "GLSL.std.450");
  uint32_t lsb_ops[3] = {c->glsl, K2S_GLSL_STD_450_FindILsb, size};
  uint32_t log2_size = k2s_emit(&b, SpvOpExtInst, c->u32, lsb_ops, 3);
  uint32_t rounds = emit2(&b, SpvOpShiftRightLogical, c->u32, up, log2_size);
  uint32_t id = pad_identity(c, k, is_signed, t);
  k2s_counted_loop l = k2s_build_counted_loop(m, at, k2s_const_uint32(m, 0), rounds);
  k2s_instr *kphi = l.head->body.first;
  uint32_t acc = k2s_new_id(m);
  uint32_t phi_ops[4] = {id, kphi->ops[1], id, l.body->label->result};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, t, acc, phi_ops, 4);
  phi->block = l.head;
  k2s_list_insert_after(&l.head->body, kphi, phi);
  b = (k2s_builder){m, k2s_before(l.step)};
  uint32_t j = emit2(&b, SpvOpIAdd, c->u32, lane, emit2(&b, SpvOpIMul, c->u32, l.k, size));
  uint32_t in = emit2(&b, SpvOpULessThan, c->boolean, j, count);
  uint32_t idx = emit2(&b, SpvOpIAdd, c->u32, from,
                       emit3(&b, SpvOpSelect, c->u32, in, j, k2s_const_uint32(m, 0)));
  uint32_t x = emit3(&b, SpvOpSelect, t, in, load_at(c, &b, var, t, idx), id);
  k2s_instr_set_op(m, phi, 2, combine(c, &b, k, is_signed, t, acc, x));
  b = (k2s_builder){m, k2s_before(at)};
  return subgroup_op(c, &b, t, nonuniform_op, SpvGroupOperationReduce, acc);
}

/* Reduce v (type t) with sub-group operations: each sub-group's result goes to
 * scratch[base + SubgroupId]; after one barrier every sub-group folds the
 * NumSubgroups entries itself (no second barrier for the result). */
static uint32_t subgroup_reduce(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed,
                                uint32_t t, uint32_t nonuniform_op, uint32_t v, uint32_t base)
{
  k2s_module *m = c->m;
  uint32_t var = scratch_of(c, t, at);
  if (!var)
    return 0;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t sg = k2s_const_uint32(m, SpvScopeSubgroup);
  uint32_t part = subgroup_op(c, &b, t, nonuniform_op, SpvGroupOperationReduce, v);
  uint32_t elect = k2s_emit(&b, SpvOpGroupNonUniformElect, c->boolean, &sg, 1);
  uint32_t slot = emit2(&b, SpvOpIAdd, c->u32, base, load_builtin(c, &b, SpvBuiltInSubgroupId));
  k2s_builder tb = emit_if(c, at, elect);
  store_at(c, &tb, var, t, slot, part);
  b = (k2s_builder){m, k2s_before(at)};
  barrier(c, &b);
  uint32_t ns = load_builtin(c, &b, SpvBuiltInNumSubgroups);
  return fold_entries(c, at, k, is_signed, t, nonuniform_op, var, base, ns);
}

/* Scan v (type t) with sub-group scans, in linear local id order whatever
 * work-items the device puts into a sub-group (Vulkan promises no relation
 * between sub-groups and LocalInvocationIndex): every work-item stores v at
 * its linear id; sub-group s scans the entries s * size + lane (full
 * sub-groups tile the work-group) and its last lane writes the total into the
 * other half; the sub-group folds the totals of the sub-groups before it,
 * writes its results back at the same entries; each work-item reads its own.
 * Three barriers, against two per step of the scratch-memory scan. */
static uint32_t subgroup_scan(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed, uint32_t t,
                              uint32_t nonuniform_op, uint32_t v, enum form form, uint32_t base)
{
  k2s_module *m = c->m;
  uint32_t var = scratch_of(c, t, at);
  if (!var)
    return 0;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t lid = load_builtin(c, &b, SpvBuiltInLocalInvocationIndex);
  store_at(c, &b, var, t, emit2(&b, SpvOpIAdd, c->u32, base, lid), v);
  barrier(c, &b);
  uint32_t sgid = load_builtin(c, &b, SpvBuiltInSubgroupId);
  uint32_t size = load_builtin(c, &b, SpvBuiltInSubgroupSize);
  uint32_t lane = load_builtin(c, &b, SpvBuiltInSubgroupLocalInvocationId);
  uint32_t own =
      emit2(&b, SpvOpIAdd, c->u32, base,
            emit2(&b, SpvOpIAdd, c->u32, emit2(&b, SpvOpIMul, c->u32, sgid, size), lane));
  uint32_t w = load_at(c, &b, var, t, own);
  uint32_t s, total;
  if (form == FORM_INCLUSIVE) {
    s = total = subgroup_op(c, &b, t, nonuniform_op, SpvGroupOperationInclusiveScan, w);
  } else {
    s = subgroup_op(c, &b, t, nonuniform_op, SpvGroupOperationExclusiveScan, w);
    total = combine(c, &b, k, is_signed, t, s, w);
  }
  uint32_t other = emit2(&b, SpvOpISub, c->u32, c->half_len, base);
  uint32_t last = emit2(&b, SpvOpIEqual, c->boolean, lane,
                        emit2(&b, SpvOpISub, c->u32, size, k2s_const_uint32(m, 1)));
  uint32_t tslot = emit2(&b, SpvOpIAdd, c->u32, other, sgid);
  k2s_builder tb = emit_if(c, at, last);
  store_at(c, &tb, var, t, tslot, total);
  b = (k2s_builder){m, k2s_before(at)};
  barrier(c, &b);
  uint32_t before = fold_entries(c, at, k, is_signed, t, nonuniform_op, var, other, sgid);
  b = (k2s_builder){m, k2s_before(at)};
  uint32_t first = emit2(&b, SpvOpIEqual, c->boolean, sgid, k2s_const_uint32(m, 0));
  uint32_t r = emit3(&b, SpvOpSelect, t, first, s, combine(c, &b, k, is_signed, t, before, s));
  store_at(c, &b, var, t, own, r);
  barrier(c, &b);
  return load_at(c, &b, var, t, emit2(&b, SpvOpIAdd, c->u32, base, lid));
}

/* The work-group size in x (uint). */
static uint32_t group_size_x(go_ctx *c, k2s_builder *b, k2s_function *f)
{
  if (c->wg_size)
    return emit2(b, SpvOpCompositeExtract, c->u32, c->wg_size, 0);
  return k2s_const_uint32(c->m, reqd_size(c, f, 0));
}

/* Sub-group code is used only where it is known to be right: the work-group
 * size in x is a multiple of gl_SubgroupSize (what Vulkan's REQUIRE_FULL_SUBGROUPS
 * demands, and what makes every sub-group full; lavapipe forms sub-groups along x
 * and reports wrong ids and counts otherwise). The test is uniform; otherwise the
 * scratch-memory code runs. Returns the value. */
static uint32_t subgroups_either(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed,
                                 uint32_t t, uint32_t nonuniform_op, uint32_t v, enum form form,
                                 uint32_t base)
{
  k2s_module *m = c->m;
  k2s_function *f = at->block->func;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t x = group_size_x(c, &b, f);
  uint32_t size = load_builtin(c, &b, SpvBuiltInSubgroupSize);
  uint32_t rem = emit2(&b, SpvOpUMod, c->u32, x, size);
  uint32_t full = emit2(&b, SpvOpIEqual, c->boolean, rem, k2s_const_uint32(m, 0));
  if (form != FORM_REDUCE) {
    /* A scan covers entries s * size + lane: every sub-group must be full. Without
     * REQUIRE_FULL_SUBGROUPS (SPIR-V before 1.6) Vulkan allows partial ones even then;
     * NumSubgroups * SubgroupSize == the group's size holds only when none is. */
    uint32_t n = group_size(c, &b, f, at);
    uint32_t ns = load_builtin(c, &b, SpvBuiltInNumSubgroups);
    uint32_t tiles = emit2(&b, SpvOpIEqual, c->boolean, emit2(&b, SpvOpIMul, c->u32, ns, size), n);
    full = emit2(&b, SpvOpLogicalAnd, c->boolean, full, tiles);
  }
  k2s_block *pre = at->block;
  k2s_block *rest = k2s_split_block(m, at, k2s_new_id(m));
  k2s_block *ba = k2s_block_new(m, f, k2s_new_id(m));
  k2s_block *bb = k2s_block_new(m, f, k2s_new_id(m));
  k2s_function_insert_block_after(f, pre, ba);
  k2s_function_insert_block_after(f, ba, bb);
  b = (k2s_builder){m, k2s_block_append(pre)};
  emit3(&b, SpvOpBranchConditional, 0, full, ba->label->result, bb->label->result);
  uint32_t to = rest->label->result;
  b = (k2s_builder){m, k2s_block_append(ba)};
  k2s_instr *bra = k2s_emit_instr(&b, SpvOpBranch, 0, &to, 1);
  b = (k2s_builder){m, k2s_block_append(bb)};
  k2s_instr *brb = k2s_emit_instr(&b, SpvOpBranch, 0, &to, 1);
  uint32_t ra = form == FORM_REDUCE
                    ? subgroup_reduce(c, bra, k, is_signed, t, nonuniform_op, v, base)
                    : subgroup_scan(c, bra, k, is_signed, t, nonuniform_op, v, form, base);
  if (!ra)
    return 0;
  uint32_t rb = workgroup_scan(c, brb, k, is_signed, t, v, form, base);
  if (!rb)
    return 0;
  uint32_t phi_ops[4] = {ra, bra->block->label->result, rb, brb->block->label->result};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, t, k2s_new_id(m), phi_ops, 4);
  phi->block = rest;
  k2s_list_insert_before(&rest->body, rest->body.first, phi);
  return phi->result;
}

static bool arith_kind(uint16_t op, enum op_kind *k, bool *is_signed, uint16_t *nonuniform)
{
  switch (op) {
  case SpvOpGroupIAdd:
    *k = OP_ADD, *is_signed = false, *nonuniform = SpvOpGroupNonUniformIAdd;
    return true;
  case SpvOpGroupFAdd:
    *k = OP_ADD, *is_signed = false, *nonuniform = SpvOpGroupNonUniformFAdd;
    return true;
  case SpvOpGroupSMin:
    *k = OP_MIN, *is_signed = true, *nonuniform = SpvOpGroupNonUniformSMin;
    return true;
  case SpvOpGroupUMin:
    *k = OP_MIN, *is_signed = false, *nonuniform = SpvOpGroupNonUniformUMin;
    return true;
  case SpvOpGroupFMin:
    *k = OP_MIN, *is_signed = false, *nonuniform = SpvOpGroupNonUniformFMin;
    return true;
  case SpvOpGroupSMax:
    *k = OP_MAX, *is_signed = true, *nonuniform = SpvOpGroupNonUniformSMax;
    return true;
  case SpvOpGroupUMax:
    *k = OP_MAX, *is_signed = false, *nonuniform = SpvOpGroupNonUniformUMax;
    return true;
  case SpvOpGroupFMax:
    *k = OP_MAX, *is_signed = false, *nonuniform = SpvOpGroupNonUniformFMax;
    return true;
  default: return false;
  }
}

static bool subgroups_allowed(go_ctx *c)
{
  return !(c->o && (c->o->missing_features & K2S_FEATURE_SUBGROUP_OPS));
}

/* A Workgroup-scope group instruction → code; returns its value. */
static uint32_t lower_workgroup(go_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  uint32_t t = i->type;
  if (k2s_vector_size(m, t) != 1) {
    k2s_error(m, i, "a work-group function on a vector type; OpenCL defines them on scalars only");
    return 0;
  }
  bool sg = subgroups_allowed(c);
  k2s_builder hb = {m, k2s_before(i)};
  uint32_t base = next_half(c, &hb);
  switch (i->opcode) {
  case SpvOpGroupAll:
  case SpvOpGroupAny: {
    if (i->n_ops < 2)
      break;
    bool all = i->opcode == SpvOpGroupAll;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t v =
        emit3(&b, SpvOpSelect, c->u32, i->ops[1], k2s_const_uint32(m, 1), k2s_const_uint32(m, 0));
    enum op_kind k = all ? OP_MIN : OP_MAX;
    uint32_t r = sg ? subgroups_either(c, i, k, false, c->u32,
                                       all ? SpvOpGroupNonUniformAll : SpvOpGroupNonUniformAny, v,
                                       FORM_REDUCE, base)
                    : workgroup_scan(c, i, k, false, c->u32, v, FORM_REDUCE, base);
    if (!r)
      return 0;
    b = (k2s_builder){m, k2s_before(i)};
    return emit2(&b, SpvOpINotEqual, c->boolean, r, k2s_const_uint32(m, 0));
  }
  case SpvOpGroupBroadcast: {
    if (i->n_ops < 3)
      break;
    uint32_t var = scratch_of(c, t, i);
    if (!var)
      return 0;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t idx = linear_index(c, &b, i->block->func, i->ops[2], i);
    if (!idx)
      return 0;
    /* The local id is the same in every work-item (OpenCL C 2.0 §6.13.15): only
     * that work-item stores; one barrier. */
    uint32_t lid = load_builtin(c, &b, SpvBuiltInLocalInvocationIndex);
    k2s_builder tb = emit_if(c, i, emit2(&b, SpvOpIEqual, c->boolean, lid, idx));
    store_at(c, &tb, var, t, base, i->ops[1]);
    b = (k2s_builder){m, k2s_before(i)};
    barrier(c, &b);
    return load_at(c, &b, var, t, base);
  }
  default: {
    enum op_kind k;
    bool is_signed;
    uint16_t nu;
    if (!arith_kind(i->opcode, &k, &is_signed, &nu) || i->n_ops < 3)
      break;
    uint32_t op = i->ops[1], v = i->ops[2];
    enum form form = op == SpvGroupOperationReduce          ? FORM_REDUCE
                     : op == SpvGroupOperationInclusiveScan ? FORM_INCLUSIVE
                     : op == SpvGroupOperationExclusiveScan ? FORM_EXCLUSIVE
                                                            : (enum form) - 1;
    if ((int)form < 0) {
      k2s_error(m, i, "the group operation %s has no OpenCL work-group function",
                k2s_enumerant_name(K2S_OK_GROUP_OPERATION, op));
      return 0;
    }
    /* Sub-group operations for 32-bit types (other widths would need
     * shaderSubgroupExtendedTypes). Float sums then add in an order that depends
     * on the device, as OpenCL allows (its order "is not guaranteed"): exact on
     * exactly representable data whatever the sub-group size. */
    if (sg && k2s_type_width(m, t) == 32)
      return subgroups_either(c, i, k, is_signed, t, nu, v, form, base);
    return workgroup_scan(c, i, k, is_signed, t, v, form, base);
  }
  }
  k2s_error(m, i, "malformed group instruction");
  return 0;
}

/* A Subgroup-scope group instruction → its GroupNonUniform twin. */
static bool lower_subgroup(go_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (!subgroups_allowed(c)) {
    k2s_error(m, i,
              "sub-group functions need the device's subgroup operations (vote, "
              "arithmetic, ballot, shuffle), and the target was given --no-subgroups");
    return false;
  }
  k2s_refl(m)->uses_sub_groups = true;
  uint32_t sg = k2s_const_uint32(m, SpvScopeSubgroup);
  k2s_builder b = {m, k2s_before(i)};
  uint32_t r = 0;
  switch (i->opcode) {
  case SpvOpGroupAll:
  case SpvOpGroupAny:
    if (i->n_ops < 2)
      break;
    r = emit2(&b, i->opcode == SpvOpGroupAll ? SpvOpGroupNonUniformAll : SpvOpGroupNonUniformAny,
              c->boolean, sg, i->ops[1]);
    break;
  case SpvOpGroupBroadcast: {
    if (i->n_ops < 3 || k2s_vector_size(m, k2s_type_of(m, i->ops[2])) != 1)
      break;
    uint64_t cv;
    /* Broadcast needs a constant id before SPIR-V 1.5; Shuffle takes any. */
    if (k2s_const_value(m, i->ops[2], &cv))
      r = emit3(&b, SpvOpGroupNonUniformBroadcast, i->type, sg, i->ops[1],
                k2s_const_uint32(m, (uint32_t)cv));
    else
      r = emit3(&b, SpvOpGroupNonUniformShuffle, i->type, sg, i->ops[1], to_u32(c, &b, i->ops[2]));
    break;
  }
  default: {
    enum op_kind k;
    bool is_signed;
    uint16_t nu;
    if (!arith_kind(i->opcode, &k, &is_signed, &nu) || i->n_ops < 3)
      break;
    r = emit3(&b, nu, i->type, sg, i->ops[1], i->ops[2]);
    break;
  }
  }
  if (!r) {
    k2s_error(m, i, "malformed group instruction");
    return false;
  }
  k2s_replace_all_uses(m, i->result, r);
  k2s_instr_delete(m, i);
  return true;
}

static bool is_group_op(uint16_t op)
{
  enum op_kind k;
  bool s;
  uint16_t nu;
  return op == SpvOpGroupAll || op == SpvOpGroupAny || op == SpvOpGroupBroadcast ||
         arith_kind(op, &k, &s, &nu);
}

bool k2s_lower_group_ops(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool any = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr(i, &blk->body)
        any |= is_group_op(i->opcode);
  if (!any)
    return false;
  go_ctx c = {.m = m, .o = o};
  c.u32 = k2s_type_int(m, 32, false);
  c.boolean = k2s_type_bool(m);
  c.wg_size = find_workgroup_size(m);
  bool changed = false;
  k2s_instr **ops = NULL;
  uint32_t cap = 0;
  k2s_foreach_function(f, m) {
    /* Lowering splits blocks and makes new ones, but never makes a group
     * instruction: take f's in order first, then lower each (a restart of the
     * walk of f after each made N of them in one function quadratic). */
    uint32_t n = 0;
    k2s_foreach_block(blk, f)
      k2s_foreach_instr(i, &blk->body) {
        if (!is_group_op(i->opcode))
          continue;
        if (n == cap) {
          uint32_t c2 = cap ? 2 * cap : 16;
          ops = k2s_realloc_array(&m->arena, ops, cap, c2, sizeof(*ops));
          cap = c2;
        }
        ops[n++] = i;
      }
    for (uint32_t k = 0; k < n; k++) {
      k2s_instr *i = ops[k];
      uint64_t scope;
      if (!k2s_const_value(m, i->ops[0], &scope)) {
        k2s_error(m, i, "the execution scope of a group instruction is not a constant");
        return true;
      }
      if (scope == SpvScopeSubgroup) {
        if (!lower_subgroup(&c, i))
          return true;
      } else if (scope == SpvScopeWorkgroup) {
        uint32_t r = lower_workgroup(&c, i);
        if (!r)
          return true;
        k2s_replace_all_uses(m, i->result, r);
        k2s_instr_delete(m, i);
      } else {
        k2s_error(m, i,
                  "a group instruction with %s scope; OpenCL has only work-group and "
                  "sub-group functions",
                  k2s_enumerant_name(K2S_OK_SCOPE, (uint32_t)scope));
        return true;
      }
      changed = true;
    }
  }
  return changed;
}
