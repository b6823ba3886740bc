/*
 * group-ops: OpenCL work-group and sub-group functions → Vulkan code.
 *
 * The Kernel dialect's OpGroupAll/Any/Broadcast/IAdd/FAdd/[SUF]Min/[SUF]Max
 * (the Groups capability) do not exist in Vulkan. With Subgroup scope each
 * becomes its GroupNonUniform* twin (same operation, same scan order: the
 * sub-group local id). With Workgroup scope each becomes code over a Workgroup
 * scratch array (one per scalar type, X*Y*Z elements: the spec-constant
 * work-group size, or the largest reqd_work_group_size) and barriers, in
 * increasing linear local id: scans are Hillis-Steele (log2 n steps, each read /
 * barrier / write / barrier; exclusive = the left neighbour, the identity for
 * id 0), reductions a pairwise tree (log2 n steps of one barrier), both in an
 * order fixed by n alone, so float results are deterministic and exact on
 * exactly representable data. all/any and 32-bit integer and float min/max
 * reductions instead reduce each sub-group with GroupNonUniform* and combine
 * the sub-groups' results through the scratch array, when the work-group size
 * in x is a multiple of the sub-group size (a uniform run-time test), unless
 * --no-subgroups (the device lacks subgroup vote/arithmetic). Runs after
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

/* The length of the scratch arrays: X*Y*Z of the spec constants, or the
 * largest required work-group size when every kernel has one. */
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
    return c->scratch_len = q->result;
  }
  k2s_refl_facts *r = k2s_refl(m);
  uint64_t most = 1;
  for (uint32_t i = 0; i < r->n_kernels; i++)
    if (r->kernels[i].has_reqd) {
      uint64_t n = (uint64_t)r->kernels[i].reqd[0] * r->kernels[i].reqd[1] * r->kernels[i].reqd[2];
      most = n > most ? n : most;
    }
  return c->scratch_len = k2s_const_uint32(m, (uint32_t)most);
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

/* Scan v (type t) over the work-group through scratch memory and return the
 * form asked for; the code goes before `at`, which ends up in a new block. */
static uint32_t workgroup_scan(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed, uint32_t t,
                               uint32_t v, enum form form)
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
  store_at(c, &b, var, t, lid, v);
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
    uint32_t x = load_at(c, &tb, var, t, lid);
    uint32_t y = load_at(c, &tb, var, t, other);
    store_at(c, &tb, var, t, lid, combine(c, &tb, k, is_signed, t, x, y));
    b = (k2s_builder){m, k2s_before(l.step)};
    barrier(c, &b);
    b = (k2s_builder){m, k2s_before(at)};
    uint32_t res = load_at(c, &b, var, t, k2s_const_uint32(m, 0));
    barrier(c, &b); /* the next work-group function may reuse the scratch array */
    return res;
  }
  b = (k2s_builder){m, k2s_before(l.step)};
  uint32_t d = emit2(&b, SpvOpShiftLeftLogical, c->u32, one, l.k);
  uint32_t x = load_at(c, &b, var, t, lid);
  uint32_t ge = emit2(&b, SpvOpUGreaterThanEqual, c->boolean, lid, d);
  uint32_t j = emit3(&b, SpvOpSelect, c->u32, ge, emit2(&b, SpvOpISub, c->u32, lid, d), lid);
  uint32_t y = load_at(c, &b, var, t, j);
  barrier(c, &b);
  uint32_t r = emit3(&b, SpvOpSelect, t, ge, combine(c, &b, k, is_signed, t, y, x), x);
  store_at(c, &b, var, t, lid, r);
  barrier(c, &b);
  b = (k2s_builder){m, k2s_before(at)};
  uint32_t res;
  if (form == FORM_INCLUSIVE) {
    res = load_at(c, &b, var, t, lid);
  } else {
    uint32_t first = emit2(&b, SpvOpIEqual, c->boolean, lid, k2s_const_uint32(m, 0));
    uint32_t left =
        emit3(&b, SpvOpSelect, c->u32, first, lid, emit2(&b, SpvOpISub, c->u32, lid, one));
    res = emit3(&b, SpvOpSelect, t, first, identity(c, k, is_signed, t),
                load_at(c, &b, var, t, left));
  }
  barrier(c, &b); /* the next work-group function may reuse the scratch array */
  return res;
}

/* Reduce v (type t) with sub-group operations: each sub-group's result goes
 * to scratch[SubgroupId], then every work-item folds the NumSubgroups
 * entries in sub-group id order. */
static uint32_t subgroup_reduce(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed,
                                uint32_t t, uint32_t partial_op, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t var = scratch_of(c, t, at);
  if (!var)
    return 0;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t sg = k2s_const_uint32(m, SpvScopeSubgroup);
  uint32_t part;
  if (partial_op == SpvOpGroupNonUniformAll || partial_op == SpvOpGroupNonUniformAny) {
    uint32_t pred = emit2(&b, SpvOpINotEqual, c->boolean, v, k2s_const_uint32(m, 0));
    uint32_t vote = emit2(&b, partial_op, c->boolean, sg, pred);
    part = emit3(&b, SpvOpSelect, t, vote, k2s_const_uint32(m, 1), k2s_const_uint32(m, 0));
  } else {
    part = emit3(&b, partial_op, t, sg, SpvGroupOperationReduce, v);
  }
  uint32_t elect = k2s_emit(&b, SpvOpGroupNonUniformElect, c->boolean, &sg, 1);
  uint32_t sgid = load_builtin(c, &b, SpvBuiltInSubgroupId);
  k2s_builder tb = emit_if(c, at, elect);
  store_at(c, &tb, var, t, sgid, part);
  b = (k2s_builder){m, k2s_before(at)};
  barrier(c, &b);
  uint32_t ns = load_builtin(c, &b, SpvBuiltInNumSubgroups);
  uint32_t id = identity(c, k, is_signed, t);
  k2s_counted_loop l = k2s_build_counted_loop(m, at, k2s_const_uint32(m, 0), ns);
  k2s_instr *kphi = l.head->body.first;
  uint32_t acc = k2s_new_id(m);
  uint32_t phi_ops[4] = {id, kphi->ops[1], id, l.body->label->result};
  k2s_instr *phi = k2s_instr_new(m, SpvOpPhi, t, acc, phi_ops, 4);
  phi->block = l.head;
  k2s_list_insert_after(&l.head->body, kphi, phi);
  b = (k2s_builder){m, k2s_before(l.step)};
  uint32_t x = load_at(c, &b, var, t, l.k);
  phi->ops[2] = combine(c, &b, k, is_signed, t, acc, x);
  b = (k2s_builder){m, k2s_before(at)};
  barrier(c, &b);
  return acc;
}

/* The work-group size in x (uint). */
static uint32_t group_size_x(go_ctx *c, k2s_builder *b, k2s_function *f)
{
  if (c->wg_size)
    return emit2(b, SpvOpCompositeExtract, c->u32, c->wg_size, 0);
  return k2s_const_uint32(c->m, reqd_size(c, f, 0));
}

/* Sub-group partials are used only where they are known to be right: the
 * work-group size in x is a multiple of gl_SubgroupSize (what Vulkan's
 * REQUIRE_FULL_SUBGROUPS demands, and what makes every sub-group full; lavapipe
 * forms sub-groups along x and reports wrong ids and counts otherwise). The
 * test is uniform; otherwise the scratch-memory scan runs. Returns the value. */
static uint32_t reduce_either(go_ctx *c, k2s_instr *at, enum op_kind k, bool is_signed, uint32_t t,
                              uint32_t partial_op, uint32_t v)
{
  k2s_module *m = c->m;
  k2s_function *f = at->block->func;
  k2s_builder b = {m, k2s_before(at)};
  uint32_t x = group_size_x(c, &b, f);
  uint32_t size = load_builtin(c, &b, SpvBuiltInSubgroupSize);
  uint32_t rem = emit2(&b, SpvOpUMod, c->u32, x, size);
  uint32_t full = emit2(&b, SpvOpIEqual, c->boolean, rem, k2s_const_uint32(m, 0));
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
  uint32_t ra = subgroup_reduce(c, bra, k, is_signed, t, partial_op, v);
  if (!ra)
    return 0;
  uint32_t rb = workgroup_scan(c, brb, k, is_signed, t, v, FORM_REDUCE);
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
    uint32_t r = sg ? reduce_either(c, i, k, false, c->u32,
                                    all ? SpvOpGroupNonUniformAll : SpvOpGroupNonUniformAny, v)
                    : workgroup_scan(c, i, k, false, c->u32, v, FORM_REDUCE);
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
    uint32_t lid = load_builtin(c, &b, SpvBuiltInLocalInvocationIndex);
    store_at(c, &b, var, t, lid, i->ops[1]);
    barrier(c, &b);
    uint32_t r = load_at(c, &b, var, t, idx);
    barrier(c, &b);
    return r;
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
    /* Sub-group partials for reductions whose result does not depend on the
     * order: integer ones and float min/max, 32-bit only (other widths would
     * need shaderSubgroupExtendedTypes). Float sums keep the fixed order. */
    if (sg && form == FORM_REDUCE && k2s_type_width(m, t) == 32 && !(k == OP_ADD && is_float(m, t)))
      return reduce_either(c, i, k, is_signed, t, nu, v);
    return workgroup_scan(c, i, k, is_signed, t, v, form);
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
  k2s_foreach_function(f, m) {
    /* Lowering splits blocks; restart the walk of f after each instruction. */
    for (bool again = true; again;) {
      again = false;
      k2s_foreach_block(blk, f) {
        k2s_foreach_instr(i, &blk->body) {
          if (!is_group_op(i->opcode))
            continue;
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
          changed = again = true;
          break;
        }
        if (again)
          break;
      }
    }
  }
  if (changed)
    m->uses_valid = false;
  return changed;
}
