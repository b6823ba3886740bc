/*
 * work-items: OpenCL work-item functions → Vulkan builtins + push constants.
 *
 * The Kernel dialect reads get_global_id() and friends from BuiltIn Input
 * variables of type v3ulong/v3uint (or scalars); Vulkan has only v3uint
 * builtins, no global offset, global size or work dim, and runs a
 * non-uniform NDRange as several dispatch regions. Each load of such a
 * variable becomes arithmetic over gl_* builtins, the kernel's push
 * constants and spec constants, per docs/runtime-abi.md. The work-group size
 * is the spec-constant vector decorated WorkgroupSize (SpecId 0, 1, 2) unless
 * every kernel has a reqd_work_group_size: then each entry point keeps its
 * LocalSize and there is no builtin. Runs after kernel-args
 * (the kernels' reflection entries exist) and after inlining (builtins are
 * read only in entry functions, where the kernel's push constants are known).
 */
#include <string.h>

#include "k2s_internal.h"

typedef struct wi_ctx {
  k2s_module *m;
  uint32_t u32, v3u32;
  uint32_t gl_var[16]; /* by Vulkan builtin slot below */
  uint32_t wg_size;    /* the WorkgroupSize value (spec or constant composite) */
} wi_ctx;

enum {
  GL_GLOBAL_ID,
  GL_LOCAL_ID,
  GL_GROUP_ID,
  GL_LOCAL_INDEX,
  GL_SUBGROUP_SIZE,
  GL_SUBGROUP_LOCAL_ID,
  GL_SUBGROUP_ID,
  GL_SLOTS
};

static const uint32_t gl_builtin[GL_SLOTS] = {
    SpvBuiltInGlobalInvocationId, SpvBuiltInLocalInvocationId,
    SpvBuiltInWorkgroupId,        SpvBuiltInLocalInvocationIndex,
    SpvBuiltInSubgroupSize,       SpvBuiltInSubgroupLocalInvocationId,
    SpvBuiltInSubgroupId};

static uint32_t gl_input(wi_ctx *c, int slot)
{
  k2s_module *m = c->m;
  if (!c->gl_var[slot]) {
    uint32_t t = slot >= GL_LOCAL_INDEX ? c->u32 : c->v3u32;
    c->gl_var[slot] = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassInput, t),
                                          SpvStorageClassInput, 0);
    k2s_decorate(m, c->gl_var[slot], SpvDecorationBuiltIn, &gl_builtin[slot], 1);
  }
  return c->gl_var[slot];
}

static uint32_t load(k2s_builder *b, uint32_t type, uint32_t ptr)
{
  return k2s_emit(b, SpvOpLoad, type, &ptr, 1);
}

static uint32_t push_constant(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, int which)
{
  k2s_module *m = c->m;
  uint32_t member;
  if (k->pc_offset[which] == UINT32_MAX) {
    uint32_t off;
    member = k2s_kernel_push_constant(m, k, c->v3u32, &off);
    k->pc_offset[which] = off;
    k->pc_member[which] = member;
    k2s_member_decorate(m, k->pc_struct, member, SpvDecorationNonWritable, NULL, 0);
  }
  member = k->pc_member[which];
  uint32_t ops[2] = {k->pc_var, k2s_const_uint32(m, member)};
  uint32_t ptr = k2s_emit(b, SpvOpAccessChain,
                          k2s_type_pointer(m, SpvStorageClassPushConstant, c->v3u32), ops, 2);
  return load(b, c->v3u32, ptr);
}

static uint32_t add3(wi_ctx *c, k2s_builder *b, uint32_t x, uint32_t y)
{
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, SpvOpIAdd, c->v3u32, ops, 2);
}

/* Whether every kernel of the module has a reqd_work_group_size. */
static bool all_required(k2s_module *m)
{
  k2s_refl_facts *r = k2s_refl(m);
  for (uint32_t i = 0; i < r->n_kernels; i++)
    if (!r->kernels[i].has_reqd)
      return false;
  return r->n_kernels > 0;
}

/* The work-group size of kernel k. A WorkgroupSize builtin would be one
 * object for every entry point of the module and would override each
 * entry's LocalSize, so: when every kernel has a required size, each entry
 * point keeps its own LocalSize and get_local_size() reads that constant
 * (no builtin, no spec constants). Otherwise the builtin is a composite of
 * spec constants 0-2 that the host sets per pipeline (to the required size
 * for a kernel that has one: the reflection says it), and LocalSize modes
 * are dropped. */
static uint32_t workgroup_size(wi_ctx *c, k2s_refl_kernel *k)
{
  k2s_module *m = c->m;
  if (all_required(m)) {
    uint32_t parts[3];
    for (int d = 0; d < 3; d++)
      parts[d] = k2s_const_uint32(m, k->reqd[d]);
    return k2s_const_composite(m, c->v3u32, parts, 3);
  }
  if (c->wg_size)
    return c->wg_size;
  k2s_refl_facts *r = k2s_refl(m);
  uint32_t parts[3];
  for (uint32_t d = 0; d < 3; d++) {
    k2s_instr *s = k2s_instr_new(m, SpvOpSpecConstant, c->u32, k2s_new_id(m), (uint32_t[]){1}, 1);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], s);
    k2s_decorate(m, s->result, SpvDecorationSpecId, &d, 1);
    parts[d] = s->result;
    r->wg_spec[d] = d;
  }
  r->has_wg_spec = true;
  k2s_instr *comp = k2s_instr_new(m, SpvOpSpecConstantComposite, c->v3u32, k2s_new_id(m), parts, 3);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], comp);
  c->wg_size = comp->result;
  k2s_foreach_instr_safe(x, &m->sec[K2S_SEC_EXECUTION_MODE])
    if (x->n_ops >= 2 && x->ops[1] == SpvExecutionModeLocalSize)
      k2s_list_remove(&m->sec[K2S_SEC_EXECUTION_MODE], x);
  uint32_t bi = SpvBuiltInWorkgroupSize;
  k2s_decorate(m, c->wg_size, SpvDecorationBuiltIn, &bi, 1);
  return c->wg_size;
}

static uint32_t work_dim(wi_ctx *c)
{
  k2s_module *m = c->m;
  k2s_refl_facts *r = k2s_refl(m);
  if (!r->has_work_dim) {
    r->has_work_dim = true;
    r->work_dim_spec = r->next_spec_id++;
  }
  return k2s_spec_const_uint32(m, r->work_dim_spec, 3);
}

/* The v3uint value of one Kernel builtin, computed at the builder's cursor. */
static uint32_t builtin_v3(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, uint32_t builtin,
                           const k2s_instr *at)
{
  k2s_module *m = c->m;
  switch (builtin) {
  case SpvBuiltInGlobalInvocationId: {
    /* As clspv defines it, RegionOffset is the region's first global id
     * including the global offset (runtimes written for clspv set it so). */
    uint32_t v = load(b, c->v3u32, gl_input(c, GL_GLOBAL_ID));
    return add3(c, b, v, push_constant(c, b, k, K2S_PC_REGION_OFFSET));
  }
  case SpvBuiltInLocalInvocationId: return load(b, c->v3u32, gl_input(c, GL_LOCAL_ID));
  case SpvBuiltInWorkgroupId: {
    uint32_t v = load(b, c->v3u32, gl_input(c, GL_GROUP_ID));
    return add3(c, b, v, push_constant(c, b, k, K2S_PC_REGION_GROUP_OFFSET));
  }
  case SpvBuiltInWorkgroupSize: return workgroup_size(c, k);
  case SpvBuiltInEnqueuedWorkgroupSize: return push_constant(c, b, k, K2S_PC_ENQUEUED_LOCAL_SIZE);
  case SpvBuiltInNumWorkgroups: return push_constant(c, b, k, K2S_PC_NUM_WORKGROUPS);
  case SpvBuiltInGlobalSize: return push_constant(c, b, k, K2S_PC_GLOBAL_SIZE);
  case SpvBuiltInGlobalOffset: return push_constant(c, b, k, K2S_PC_GLOBAL_OFFSET);
  default:
    k2s_error(m, at, "the work-item builtin %s is not supported yet",
              k2s_enumerant_name(K2S_OK_BUILT_IN, builtin));
    return 0;
  }
}

static uint32_t extract(k2s_builder *b, uint32_t type, uint32_t v, uint32_t i)
{
  uint32_t ops[2] = {v, i};
  return k2s_emit(b, SpvOpCompositeExtract, type, ops, 2);
}

static uint32_t binop(k2s_builder *b, uint16_t op, uint32_t type, uint32_t x, uint32_t y)
{
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, op, type, ops, 2);
}

/* get_global_linear_id() = ((gz - oz) * sy + (gy - oy)) * sx + (gx - ox) */
static uint32_t global_linear_id(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, const k2s_instr *at)
{
  uint32_t gid = builtin_v3(c, b, k, SpvBuiltInGlobalInvocationId, at);
  uint32_t off = push_constant(c, b, k, K2S_PC_GLOBAL_OFFSET);
  uint32_t size = push_constant(c, b, k, K2S_PC_GLOBAL_SIZE);
  uint32_t rel = binop(b, SpvOpISub, c->v3u32, gid, off);
  uint32_t u = c->u32;
  uint32_t acc = extract(b, u, rel, 2);
  acc = binop(b, SpvOpIMul, u, acc, extract(b, u, size, 1));
  acc = binop(b, SpvOpIAdd, u, acc, extract(b, u, rel, 1));
  acc = binop(b, SpvOpIMul, u, acc, extract(b, u, size, 0));
  return binop(b, SpvOpIAdd, u, acc, extract(b, u, rel, 0));
}

/* The product of the three components of a v3uint. */
static uint32_t product3(wi_ctx *c, k2s_builder *b, uint32_t v)
{
  uint32_t u = c->u32;
  uint32_t p = binop(b, SpvOpIMul, u, extract(b, u, v, 0), extract(b, u, v, 1));
  return binop(b, SpvOpIMul, u, p, extract(b, u, v, 2));
}

/* ceil(x / y) of uints */
static uint32_t ceil_div(wi_ctx *c, k2s_builder *b, uint32_t x, uint32_t y)
{
  uint32_t up =
      binop(b, SpvOpIAdd, c->u32, x, binop(b, SpvOpISub, c->u32, y, k2s_const_uint32(c->m, 1)));
  return binop(b, SpvOpUDiv, c->u32, up, y);
}

/* The sub-group work-item functions (cl_khr_subgroups), per the host contract
 * of docs/runtime-abi.md: sub-groups are gl_SubgroupSize work-items of
 * consecutive linear local id, full except the last of a work-group. */
static uint32_t subgroup_value(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, uint32_t builtin,
                               const k2s_instr *at)
{
  uint32_t u = c->u32;
  k2s_refl(c->m)->uses_sub_groups = true;
  switch (builtin) {
  case SpvBuiltInSubgroupLocalInvocationId: return load(b, u, gl_input(c, GL_SUBGROUP_LOCAL_ID));
  case SpvBuiltInSubgroupId: return load(b, u, gl_input(c, GL_SUBGROUP_ID));
  case SpvBuiltInNumSubgroups: {
    /* ceil(n / SubgroupSize), not gl_NumSubgroups: lavapipe (Mesa 22/23) reports
     * floor(n / SubgroupSize) for a work-group with a partial sub-group (20 work-items
     * in sub-groups of 8: 2, with sub-group ids 0-2). */
    uint32_t size = load(b, u, gl_input(c, GL_SUBGROUP_SIZE));
    uint32_t n = product3(c, b, builtin_v3(c, b, k, SpvBuiltInWorkgroupSize, at));
    return ceil_div(c, b, n, size);
  }
  case SpvBuiltInSubgroupMaxSize: return load(b, u, gl_input(c, GL_SUBGROUP_SIZE));
  case SpvBuiltInSubgroupSize: {
    /* min(SubgroupSize, n - SubgroupId * SubgroupSize): the last may be partial */
    uint32_t size = load(b, u, gl_input(c, GL_SUBGROUP_SIZE));
    uint32_t n = product3(c, b, builtin_v3(c, b, k, SpvBuiltInWorkgroupSize, at));
    uint32_t first = binop(b, SpvOpIMul, u, load(b, u, gl_input(c, GL_SUBGROUP_ID)), size);
    uint32_t left = binop(b, SpvOpISub, u, n, first);
    uint32_t less = binop(b, SpvOpULessThan, k2s_type_bool(c->m), left, size);
    uint32_t ops[3] = {less, left, size};
    return k2s_emit(b, SpvOpSelect, u, ops, 3);
  }
  case SpvBuiltInNumEnqueuedSubgroups: {
    /* ceil(enqueued work-group size / SubgroupSize) */
    uint32_t size = load(b, u, gl_input(c, GL_SUBGROUP_SIZE));
    uint32_t n = product3(c, b, push_constant(c, b, k, K2S_PC_ENQUEUED_LOCAL_SIZE));
    return ceil_div(c, b, n, size);
  }
  default: return 0;
  }
}

/* A v4uint constant of four uints. */
static uint32_t const_u4(wi_ctx *c, uint32_t u4, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
  uint32_t parts[4] = {k2s_const_uint32(c->m, x), k2s_const_uint32(c->m, y),
                       k2s_const_uint32(c->m, z), k2s_const_uint32(c->m, w)};
  return k2s_const_composite(c->m, u4, parts, 4);
}

/* The uint4 sub-group mask whose bits 0 .. n-1 are set (n <= 128): for
 * component j, all ones when n >= 32j + 32, none when n <= 32j, else the
 * low n - 32j bits. The shift count stays below 32 (a shift by 32 is
 * undefined in SPIR-V). */
static uint32_t mask_below(wi_ctx *c, k2s_builder *b, uint32_t u4, uint32_t n)
{
  k2s_module *m = c->m;
  uint32_t b4 = k2s_type_vector(m, k2s_type_bool(m), 4);
  uint32_t parts[4] = {n, n, n, n};
  uint32_t n4 = k2s_emit(b, SpvOpCompositeConstruct, u4, parts, 4);
  uint32_t first = const_u4(c, u4, 0, 32, 64, 96);
  uint32_t full = binop(b, SpvOpUGreaterThanEqual, b4, n4, const_u4(c, u4, 32, 64, 96, 128));
  uint32_t none = binop(b, SpvOpULessThanEqual, b4, n4, first);
  uint32_t count = binop(b, SpvOpBitwiseAnd, u4, binop(b, SpvOpISub, u4, n4, first),
                         const_u4(c, u4, 31, 31, 31, 31));
  uint32_t one = const_u4(c, u4, 1, 1, 1, 1);
  uint32_t part = binop(b, SpvOpISub, u4, binop(b, SpvOpShiftLeftLogical, u4, one, count), one);
  uint32_t ops[3] = {none, k2s_const_null(m, u4), part};
  part = k2s_emit(b, SpvOpSelect, u4, ops, 3);
  uint32_t all = ~0u;
  uint32_t ops2[3] = {full, const_u4(c, u4, all, all, all, all), part};
  return k2s_emit(b, SpvOpSelect, u4, ops2, 3);
}

/* get_sub_group_{eq,ge,gt,le,lt}_mask() (cl_khr_subgroup_ballot): the bits
 * of the sub-group local ids in [lo, hi), computed rather than read from
 * Vulkan's SubgroupGeMask/GtMask, which set bits up to gl_SubgroupSize - 1
 * even in the partial last sub-group of a work-group, where OpenCL has
 * fewer work-items (get_sub_group_size()); this also needs no ballot
 * capability. */
static uint32_t subgroup_mask(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, uint32_t builtin,
                              const k2s_instr *at)
{
  uint32_t u = c->u32, u4 = k2s_type_vector(c->m, u, 4);
  uint32_t lid = load(b, u, gl_input(c, GL_SUBGROUP_LOCAL_ID));
  uint32_t next = binop(b, SpvOpIAdd, u, lid, k2s_const_uint32(c->m, 1));
  uint32_t lo = 0, hi;
  switch (builtin) {
  case SpvBuiltInSubgroupEqMask: lo = lid, hi = next; break;
  case SpvBuiltInSubgroupLeMask: hi = next; break;
  case SpvBuiltInSubgroupLtMask: hi = lid; break;
  case SpvBuiltInSubgroupGeMask:
    lo = lid, hi = subgroup_value(c, b, k, SpvBuiltInSubgroupSize, at);
    break;
  default: lo = next, hi = subgroup_value(c, b, k, SpvBuiltInSubgroupSize, at); break;
  }
  uint32_t mask = mask_below(c, b, u4, hi);
  if (!lo)
    return mask;
  uint32_t low = mask_below(c, b, u4, lo);
  return binop(b, SpvOpBitwiseAnd, u4, mask, k2s_emit(b, SpvOpNot, u4, &low, 1));
}

/* Widen a uint / v3uint value to the variable's type (ulong for spir64). */
static uint32_t convert_to(wi_ctx *c, k2s_builder *b, uint32_t v, uint32_t want)
{
  k2s_module *m = c->m;
  uint32_t have = k2s_type_of(m, v);
  if (!have) /* constants made by the spec composite path */
    have = k2s_vector_size(m, want) == 3 ? c->v3u32 : c->u32;
  if (k2s_type_width(m, want) == 32) {
    if (k2s_def(m, want)->opcode == SpvOpTypeInt && k2s_def(m, want)->ops[1] == 0)
      return v;
    return k2s_emit(b, SpvOpBitcast, want, &v, 1);
  }
  return k2s_emit(b, SpvOpUConvert, want, &v, 1);
}

static uint32_t builtin_value(wi_ctx *c, k2s_builder *b, k2s_refl_kernel *k, uint32_t builtin,
                              uint32_t want, const k2s_instr *at)
{
  k2s_module *m = c->m;
  uint32_t v;
  switch (builtin) {
  case SpvBuiltInWorkDim: v = work_dim(c); break;
  case SpvBuiltInGlobalLinearId: v = global_linear_id(c, b, k, at); break;
  case SpvBuiltInLocalInvocationIndex: v = load(b, c->u32, gl_input(c, GL_LOCAL_INDEX)); break;
  case SpvBuiltInSubgroupSize:
  case SpvBuiltInSubgroupMaxSize:
  case SpvBuiltInNumSubgroups:
  case SpvBuiltInNumEnqueuedSubgroups:
  case SpvBuiltInSubgroupId:
  case SpvBuiltInSubgroupLocalInvocationId: v = subgroup_value(c, b, k, builtin, at); break;
  case SpvBuiltInSubgroupEqMask:
  case SpvBuiltInSubgroupGeMask:
  case SpvBuiltInSubgroupGtMask:
  case SpvBuiltInSubgroupLeMask:
  case SpvBuiltInSubgroupLtMask:
    k2s_refl(m)->uses_sub_groups = true;
    v = subgroup_mask(c, b, k, builtin, at);
    if (want != k2s_type_of(m, v)) {
      k2s_error(m, at, "the %s builtin variable is not a uint4",
                k2s_enumerant_name(K2S_OK_BUILT_IN, builtin));
      return 0;
    }
    return v;
  default:
    v = builtin_v3(c, b, k, builtin, at);
    if (!v)
      return 0;
    if (k2s_vector_size(m, want) != 3) {
      k2s_error(m, at, "unexpected type for the %s builtin variable",
                k2s_enumerant_name(K2S_OK_BUILT_IN, builtin));
      return 0;
    }
    break;
  }
  return convert_to(c, b, v, want);
}

static k2s_refl_kernel *kernel_of_function(k2s_module *m, k2s_function *f)
{
  return k2s_refl_kernel_of(m, f->def->result);
}

static bool lower_loads(wi_ctx *c, uint32_t var, uint32_t builtin)
{
  k2s_module *m = c->m;
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(blk, f)
      k2s_foreach_instr_safe(i, &blk->body) {
        if (i->opcode != SpvOpLoad || i->n_ops < 1 || i->ops[0] != var)
          continue;
        k2s_refl_kernel *k = kernel_of_function(m, f);
        if (!k) {
          k2s_error(m, i,
                    "a work-item function is read outside a kernel; inlining should "
                    "have put it into one (internal error)");
          return changed;
        }
        k2s_builder b = {m, k2s_before(i)};
        uint32_t v = builtin_value(c, &b, k, builtin, i->type, i);
        if (!v)
          return changed;
        k2s_replace_all_uses(m, i->result, v);
        k2s_instr_delete(m, i);
        changed = true;
      }
  return changed;
}

/* Which push constants the module's builtins need (module-wide, so every
 * kernel places each one at the same offset, as the reflection format
 * assumes). */
static uint32_t needed_push_constants(k2s_module *m)
{
  uint32_t need = 0;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassInput)
      continue;
    k2s_instr *bi = k2s_find_decoration(m, v->result, SpvDecorationBuiltIn);
    if (!bi || bi->n_ops < 3)
      continue;
    switch (bi->ops[2]) {
    case SpvBuiltInGlobalInvocationId: need |= 1u << K2S_PC_REGION_OFFSET; break;
    case SpvBuiltInGlobalLinearId:
      need |= 1u << K2S_PC_GLOBAL_OFFSET | 1u << K2S_PC_REGION_OFFSET | 1u << K2S_PC_GLOBAL_SIZE;
      break;
    case SpvBuiltInWorkgroupId: need |= 1u << K2S_PC_REGION_GROUP_OFFSET; break;
    case SpvBuiltInGlobalSize: need |= 1u << K2S_PC_GLOBAL_SIZE; break;
    case SpvBuiltInGlobalOffset: need |= 1u << K2S_PC_GLOBAL_OFFSET; break;
    case SpvBuiltInEnqueuedWorkgroupSize:
    case SpvBuiltInNumEnqueuedSubgroups: need |= 1u << K2S_PC_ENQUEUED_LOCAL_SIZE; break;
    case SpvBuiltInNumWorkgroups: need |= 1u << K2S_PC_NUM_WORKGROUPS; break;
    default: break;
    }
  }
  return need;
}

/* The uint and v3uint types, made only once the pass has work (a kernel
 * with no work-item function and a required size, or a module that only
 * exports functions, must come out unchanged: "no change" is checked). */
static void make_types(wi_ctx *c)
{
  if (c->u32)
    return;
  c->u32 = k2s_type_int(c->m, 32, false);
  c->v3u32 = k2s_type_vector(c->m, c->u32, 3);
}

/* Whether the module reads any BuiltIn Input variable. */
static bool has_builtin_inputs(k2s_module *m)
{
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable && v->n_ops >= 1 && v->ops[0] == SpvStorageClassInput &&
        k2s_find_decoration(m, v->result, SpvDecorationBuiltIn))
      return true;
  return false;
}

/* Register the kernels in entry-point order, with their required size, and
 * give each the module's push constants in a fixed order. */
static void register_kernels(wi_ctx *c)
{
  k2s_module *m = c->m;
  uint32_t need = needed_push_constants(m);
  if (need)
    make_types(c);
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    const char *name = e->n_ops >= 3 ? k2s_string_operand(e, 2) : NULL;
    k2s_refl_kernel *k = k2s_refl_add_kernel(m, e->ops[1], name ? name : "kernel");
    k2s_foreach_instr(x, &m->sec[K2S_SEC_EXECUTION_MODE])
      if (x->n_ops >= 5 && x->ops[0] == e->ops[1] && x->ops[1] == SpvExecutionModeLocalSize) {
        k->has_reqd = true;
        memcpy(k->reqd, &x->ops[2], sizeof(k->reqd));
      }
  }
  k2s_refl_facts *r = k2s_refl(m);
  for (uint32_t i = 0; i < r->n_kernels; i++)
    for (int p = 0; p < K2S_PC_COUNT; p++)
      if (need & (1u << p)) {
        uint32_t off;
        uint32_t member = k2s_kernel_push_constant(m, &r->kernels[i], c->v3u32, &off);
        r->kernels[i].pc_offset[p] = off;
        r->kernels[i].pc_member[p] = member;
        k2s_member_decorate(m, r->kernels[i].pc_struct, member, SpvDecorationNonWritable, NULL, 0);
      }
}

/* Whether a user of a builtin variable only names or decorates it (any
 * OpName/OpDecorate* form, e.g. OpDecorateString UserSemantic), or lists it
 * in an entry point's interface. */
static bool names_or_decorates(const k2s_instr *user)
{
  int cls = k2s_opcode_class(user->opcode);
  return cls == K2S_CLASS_DEBUG || cls == K2S_CLASS_ANNOTATION || user->opcode == SpvOpEntryPoint;
}

bool k2s_lower_work_items(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  wi_ctx c = {.m = m};
  bool changed = false;
  register_kernels(&c);
  bool need_wg = k2s_refl(m)->n_kernels && !all_required(m);
  if (!need_wg && !has_builtin_inputs(m))
    return false;
  make_types(&c);
  /* Vulkan needs a work-group size for every GLCompute entry point: its
   * LocalSize when every kernel has a required size, else the builtin. */
  if (need_wg) {
    workgroup_size(&c, NULL);
    changed = true;
  }
  /* The builtin variables' loads are lowered one variable after the other; then the
   * variables, their names and decorations go together (OpDecorateString UserSemantic
   * and decoration groups too: one scan of the sections, and the decoration index
   * the lookups above use is rebuilt once, not after each variable). Entry-point
   * interfaces are rebuilt by finalize; the variables leave them below. */
  k2s_instr **vars = NULL;
  uint32_t n_vars = 0, cap_vars = 0;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassInput)
      continue;
    k2s_instr *bi = k2s_find_decoration(m, v->result, SpvDecorationBuiltIn);
    if (!bi || bi->n_ops < 3)
      continue;
    bool ours = false;
    for (int s = 0; s < GL_SLOTS; s++)
      ours |= c.gl_var[s] == v->result;
    if (ours)
      continue;
    changed |= lower_loads(&c, v->result, bi->ops[2]);
    if (m->failed)
      return true;
    k2s_build_uses(m);
    k2s_foreach_use(u, m, v->result)
      if (!names_or_decorates(u->user)) {
        k2s_error(m, u->user,
                  "a work-item builtin variable (%s) is used other than by loads; k2s cannot "
                  "translate that yet",
                  k2s_enumerant_name(K2S_OK_BUILT_IN, bi->ops[2]));
        return true;
      }
    if (n_vars == cap_vars) {
      uint32_t cap = cap_vars ? 2 * cap_vars : 8;
      vars = k2s_realloc_array(&m->arena, vars, cap_vars, cap, sizeof(*vars));
      cap_vars = cap;
    }
    vars[n_vars++] = v;
    changed = true;
  }
  if (!n_vars)
    return changed;
  uint8_t *gone = k2s_alloc(&m->arena, (size_t)m->bound + 1);
  for (uint32_t k = 0; k < n_vars; k++)
    gone[vars[k]->result] = 1;
  k2s_drop_annotations_of(m, gone);
  for (uint32_t k = 0; k < n_vars; k++) {
    k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], vars[k]);
    m->def[vars[k]->result] = NULL;
  }
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    const char *name = k2s_string_operand(e, 2);
    uint32_t start = name ? 2 + k2s_string_words(name) : e->n_ops, w = start;
    for (uint32_t r = start; r < e->n_ops; r++)
      if (e->ops[r] > m->bound || !gone[e->ops[r]])
        e->ops[w++] = e->ops[r];
    if (w != e->n_ops)
      k2s_instr_set_ops(m, e, e->ops, w);
  }
  return changed;
}
