/*
 * pointers: Kernel pointer arithmetic → logical access chains from a root.
 *
 * Vulkan's logical addressing has no pointer arithmetic: every pointer must
 * be an access chain from a variable. Each pointer the kernel computes
 * (OpPtrAccessChain on a buffer element, array decay through OpBitcast,
 * member access) is rebuilt in place as one OpAccessChain from its root
 * variable, adding a PtrAccessChain's element offset to the last array
 * index. Module-scope `constant` data (UniformConstant with an initializer)
 * becomes Private. What logical mode cannot express yet (pointer casts to
 * other types, pointer phis and selects, pointer comparisons and casts to
 * integers, generic pointers, program-scope global variables) is rejected
 * with a message. Runs after kernel-args (pointer parameters are already
 * access chains into resources) and inlining.
 */
#include <string.h>

#include "k2s_internal.h"

typedef struct chain {
  uint32_t root, sc, pointee, n;
  uint32_t view; /* a same-size type the code reads/writes the pointee as (0: none) */
  uint32_t *idx;
  bool known;
} chain;

typedef struct ptr_ctx {
  k2s_module *m;
  chain *ch; /* by id */
  uint32_t cap;
} ptr_ctx;

static chain *chain_of(ptr_ctx *c, uint32_t id)
{
  if (id >= c->cap || !c->ch[id].known)
    return NULL;
  return &c->ch[id];
}

static void set_chain(ptr_ctx *c, uint32_t id, chain v)
{
  if (id >= c->cap) {
    uint32_t cap = c->cap * 2 > id + 1 ? c->cap * 2 : id + 64;
    c->ch = k2s_realloc_array(&c->m->arena, c->ch, c->cap, cap, sizeof(chain));
    c->cap = cap;
  }
  v.known = true;
  c->ch[id] = v;
}

static bool is_pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer;
}

/* The type one index step selects inside `type`, or 0. */
static uint32_t step_type(k2s_module *m, uint32_t type, uint32_t index_id)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t)
    return 0;
  switch (t->opcode) {
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray:
  case SpvOpTypeVector:
  case SpvOpTypeMatrix:
    return t->ops[0];
  case SpvOpTypeStruct: {
    uint64_t v;
    if (!k2s_const_value(m, index_id, &v) || v >= t->n_ops)
      return 0;
    return t->ops[v];
  }
  default:
    return 0;
  }
}

static uint32_t type_at(k2s_module *m, uint32_t root_pointee, const uint32_t *idx, uint32_t n)
{
  uint32_t t = root_pointee;
  for (uint32_t k = 0; k < n && t; k++)
    t = step_type(m, t, idx[k]);
  return t;
}

static chain extend(ptr_ctx *c, const chain *base, const uint32_t *more, uint32_t n_more)
{
  chain r = *base;
  r.idx = k2s_alloc(&c->m->arena, (base->n + n_more + 1) * sizeof(uint32_t));
  if (base->n)
    memcpy(r.idx, base->idx, base->n * sizeof(uint32_t));
  if (n_more)
    memcpy(r.idx + base->n, more, n_more * sizeof(uint32_t));
  r.n = base->n + n_more;
  r.pointee = type_at(c->m, k2s_def(c->m, k2s_def(c->m, base->root)->type)->ops[1], r.idx, r.n);
  return r;
}

static bool is_zero(k2s_module *m, uint32_t id)
{
  uint64_t v;
  return k2s_const_value(m, id, &v) && v == 0;
}

/* a + b as array indices of possibly different widths (indices are signed). */
static uint32_t add_index(k2s_builder *b, uint32_t x, uint32_t y)
{
  k2s_module *m = b->m;
  if (is_zero(m, x))
    return y;
  if (is_zero(m, y))
    return x;
  uint32_t tx = k2s_type_of(m, x), ty = k2s_type_of(m, y);
  uint32_t wx = k2s_type_width(m, tx), wy = k2s_type_width(m, ty);
  if (wx < wy)
    x = k2s_emit(b, SpvOpSConvert, ty, &x, 1);
  else if (wy < wx)
    y = k2s_emit(b, SpvOpSConvert, tx, &y, 1);
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, SpvOpIAdd, wx < wy ? ty : tx, ops, 2);
}

static const char *type_text(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t ? k2s_print_instr(m, t) : "?";
}

/* Rewrite instruction i (which yields a pointer described by ch) into one
 * OpAccessChain from the root, keeping its result id. */
static void rewrite_as_chain(ptr_ctx *c, k2s_instr *i, const chain *ch)
{
  k2s_module *m = c->m;
  set_chain(c, i->result, *ch);
  if (ch->n == 0) {
    k2s_replace_all_uses(m, i->result, ch->root);
    k2s_instr_delete(m, i);
    return;
  }
  i->opcode = SpvOpAccessChain;
  i->type = k2s_type_pointer(m, ch->sc, ch->pointee);
  uint32_t *ops = k2s_alloc(&m->arena, (ch->n + 1) * sizeof(uint32_t));
  ops[0] = ch->root;
  memcpy(ops + 1, ch->idx, ch->n * sizeof(uint32_t));
  k2s_instr_set_ops(m, i, ops, ch->n + 1);
}

static bool lower_ptr_access_chain(ptr_ctx *c, k2s_instr *i, const chain *base)
{
  k2s_module *m = c->m;
  uint32_t elem = i->ops[1];
  chain r;
  if (base->n == 0) {
    if (!is_zero(m, elem)) {
      k2s_error(m, i, "pointer arithmetic steps outside the object it points into; logical "
                      "mode cannot express this yet");
      return false;
    }
    r = extend(c, base, i->ops + 2, i->n_ops - 2);
  } else {
    /* The element offset moves the last index, which must index an array. */
    uint32_t root_pointee = k2s_def(m, k2s_def(m, base->root)->type)->ops[1];
    uint32_t parent = type_at(m, root_pointee, base->idx, base->n - 1);
    k2s_instr *pt = k2s_def(m, parent);
    if (!is_zero(m, elem) &&
        (!pt || (pt->opcode != SpvOpTypeArray && pt->opcode != SpvOpTypeRuntimeArray))) {
      k2s_error(m, i, "pointer arithmetic on a pointer that does not point into an array; "
                      "logical mode cannot express this yet");
      return false;
    }
    chain moved = *base;
    moved.idx = k2s_alloc(&m->arena, (base->n + 1) * sizeof(uint32_t));
    memcpy(moved.idx, base->idx, base->n * sizeof(uint32_t)); /* n > 0 here */
    k2s_builder b = {m, k2s_before(i)};
    moved.idx[base->n - 1] = add_index(&b, base->idx[base->n - 1], elem);
    r = extend(c, &moved, i->ops + 2, i->n_ops - 2);
  }
  if (!r.pointee) {
    k2s_error(m, i, "cannot follow this access chain through the pointed-to type");
    return false;
  }
  rewrite_as_chain(c, i, &r);
  return true;
}

/* Scalars and vectors with the same OpenCL size (int/float, vec3/vec4 of one
 * element type) can be viewed as each other by converting the value. */
static bool same_size_view(k2s_module *m, uint32_t real, uint32_t view)
{
  k2s_instr *a = k2s_def(m, real), *b = k2s_def(m, view);
  if (!a || !b)
    return false;
  bool va = a->opcode == SpvOpTypeVector, vb = b->opcode == SpvOpTypeVector;
  uint32_t sa = k2s_scalar_type(m, real), sb = k2s_scalar_type(m, view);
  k2s_instr *ea = k2s_def(m, sa), *eb = k2s_def(m, sb);
  if (!ea || !eb || (ea->opcode != SpvOpTypeInt && ea->opcode != SpvOpTypeFloat) ||
      (eb->opcode != SpvOpTypeInt && eb->opcode != SpvOpTypeFloat))
    return false;
  uint64_t za, zb, al;
  if (!k2s_cl_layout(m, real, &za, &al) || !k2s_cl_layout(m, view, &zb, &al) || za != zb)
    return false;
  /* Differently sized components need a real reinterpretation (later work). */
  if (va && vb && k2s_vector_size(m, real) != k2s_vector_size(m, view))
    return k2s_type_width(m, sa) == k2s_type_width(m, sb);
  return k2s_type_width(m, real) * k2s_vector_size(m, real) ==
         k2s_type_width(m, view) * k2s_vector_size(m, view);
}

/* Convert value v of type `from` to type `to` (a same_size_view pair). */
static uint32_t convert_view(k2s_builder *b, uint32_t v, uint32_t from, uint32_t to)
{
  k2s_module *m = b->m;
  uint32_t nf = k2s_vector_size(m, from), nt = k2s_vector_size(m, to);
  if (nf != nt && nf > 1 && nt > 1) {
    /* vec3 <-> vec4: keep the components both have; the 4th is undefined. */
    uint32_t ops[2 + 4] = {v, v};
    for (uint32_t k = 0; k < nt; k++)
      ops[2 + k] = k < nf ? k : 0xffffffffu;
    uint32_t mid = k2s_type_vector(m, k2s_scalar_type(m, from), nt);
    v = k2s_emit(b, SpvOpVectorShuffle, mid, ops, 2 + nt);
    from = mid;
  }
  if (from == to)
    return v;
  return k2s_emit(b, SpvOpBitcast, to, &v, 1);
}

/* A load or store through a viewed pointer touches the real type. */
static bool lower_view_access(ptr_ctx *c, k2s_instr *i, const chain *ch)
{
  k2s_module *m = c->m;
  if (i->opcode == SpvOpLoad) {
    uint32_t old = i->result;
    i->result = k2s_new_id(m);
    i->type = ch->pointee;
    k2s_set_def(m, i->result, i);
    k2s_builder b = {m, k2s_after(i)};
    uint32_t v = convert_view(&b, i->result, ch->pointee, ch->view);
    k2s_replace_all_uses(m, old, v);
    return true;
  }
  if (i->opcode == SpvOpStore) {
    k2s_builder b = {m, k2s_before(i)};
    i->ops[1] = convert_view(&b, i->ops[1], ch->view, ch->pointee);
    return true;
  }
  k2s_error(m, i, "%s through a pointer cast to another type is not supported yet",
            k2s_opcode_name(i->opcode));
  return false;
}

static bool lower_bitcast(ptr_ctx *c, k2s_instr *i, const chain *base)
{
  k2s_module *m = c->m;
  uint32_t want = k2s_def(m, i->type)->ops[1];
  chain r = *base;
  /* Walk down through first elements/members until the type matches:
   * array decay (T[n]* → T*) and struct-to-first-member casts. */
  for (int depth = 0; depth < 8 && r.pointee != want; depth++) {
    k2s_instr *t = k2s_def(m, r.pointee);
    if (!t || (t->opcode != SpvOpTypeArray && t->opcode != SpvOpTypeRuntimeArray &&
               t->opcode != SpvOpTypeStruct))
      break;
    uint32_t zero = k2s_const_uint32(m, 0);
    r = extend(c, &r, &zero, 1);
  }
  if (r.pointee != want && same_size_view(m, base->pointee, want)) {
    r = *base;
    r.view = want;
  } else if (r.pointee != want) {
    k2s_error(m, i,
              "a pointer cast reinterprets memory as another type (%s as %s); logical-mode type "
              "punning is not supported yet",
              type_text(m, base->pointee), type_text(m, want));
    return false;
  }
  rewrite_as_chain(c, i, &r);
  return true;
}

static bool reject_pointer_use(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  switch (i->opcode) {
  case SpvOpPhi:
  case SpvOpSelect:
    if (is_pointer_type(m, i->type)) {
      k2s_error(m, i, "a pointer chosen at run time (phi/select of pointers) is not supported "
                      "in logical mode yet");
      return false;
    }
    return true;
  case SpvOpPtrEqual:
  case SpvOpPtrNotEqual:
  case SpvOpPtrDiff:
  case SpvOpConvertPtrToU:
  case SpvOpConvertUToPtr:
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit:
    k2s_error(m, i, "%s is not supported in logical mode yet", k2s_opcode_name(i->opcode));
    return false;
  default:
    return true;
  }
}

static bool lower_instr(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  switch (i->opcode) {
  case SpvOpVariable: {
    k2s_instr *pt = k2s_def(m, i->type);
    set_chain(c, i->result, (chain){.root = i->result, .sc = pt->ops[0], .pointee = pt->ops[1]});
    return true;
  }
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpBitcast:
  case SpvOpCopyObject: {
    if (!is_pointer_type(m, i->type))
      return true;
    chain *base = chain_of(c, i->ops[0]);
    if (!base) {
      k2s_error(m, i, "cannot tell which variable or buffer this pointer points into");
      return false;
    }
    chain b = *base;
    if (b.view && (i->opcode == SpvOpAccessChain || i->opcode == SpvOpInBoundsAccessChain ||
                   ((i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain) &&
                    i->n_ops > 2))) {
      k2s_error(m, i, "indexing into memory viewed as another type is not supported yet");
      return false;
    }
    if (i->opcode == SpvOpAccessChain || i->opcode == SpvOpInBoundsAccessChain) {
      chain r = extend(c, &b, i->ops + 1, i->n_ops - 1);
      rewrite_as_chain(c, i, &r);
      return true;
    }
    if (i->opcode == SpvOpCopyObject) {
      rewrite_as_chain(c, i, &b);
      return true;
    }
    if (i->opcode == SpvOpBitcast)
      return lower_bitcast(c, i, &b);
    return lower_ptr_access_chain(c, i, &b);
  }
  case SpvOpLoad:
  case SpvOpStore:
  case SpvOpAtomicLoad:
  case SpvOpAtomicStore:
  case SpvOpAtomicExchange:
  case SpvOpAtomicIAdd:
  case SpvOpAtomicISub:
  case SpvOpAtomicSMin:
  case SpvOpAtomicUMin:
  case SpvOpAtomicSMax:
  case SpvOpAtomicUMax:
  case SpvOpAtomicAnd:
  case SpvOpAtomicOr:
  case SpvOpAtomicXor:
  case SpvOpAtomicCompareExchange:
  case SpvOpAtomicIIncrement:
  case SpvOpAtomicIDecrement: {
    chain *ch = i->n_ops ? chain_of(c, i->ops[0]) : NULL;
    if (ch && ch->view)
      return lower_view_access(c, i, ch);
    return true;
  }
  default:
    return reject_pointer_use(c, i);
  }
}

static bool constant_data_to_private(k2s_module *m)
{
  bool changed = false;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1)
      continue;
    if (v->ops[0] == SpvStorageClassUniformConstant && v->n_ops >= 2) {
      uint32_t pointee = k2s_def(m, v->type)->ops[1];
      v->type = k2s_type_pointer(m, SpvStorageClassPrivate, pointee);
      v->ops[0] = SpvStorageClassPrivate;
      /* The new pointer type went to the end of the section: follow it. */
      k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
      k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
      changed = true;
    } else if (v->ops[0] == SpvStorageClassCrossWorkgroup) {
      k2s_error(m, v, "program-scope global variables are not supported yet");
      return changed;
    } else if (v->ops[0] == SpvStorageClassGeneric) {
      k2s_error(m, v, "generic-address-space variables are not supported yet");
      return changed;
    }
  }
  return changed;
}

bool k2s_lower_pointers(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bool changed = constant_data_to_private(m);
  if (m->failed)
    return changed;
  ptr_ctx c = {m, k2s_alloc(&m->arena, m->bound * sizeof(chain)), m->bound};
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable)
      lower_instr(&c, v);
  k2s_foreach_function(f, m) {
    k2s_arena scratch = {0};
    k2s_cfg *cfg = k2s_cfg_build(m, &scratch, f);
    /* Reverse post-order visits definitions before uses in a valid module
     * whatever the block order in the binary (llvm-spirv 15 sometimes emits
     * a block before its dominator). */
    for (uint32_t r = 0; r < cfg->n_rpo && !m->failed; r++)
      k2s_foreach_instr_safe(i, &cfg->blocks[cfg->rpo[r]]->body)
        if (!lower_instr(&c, i))
          break;
    k2s_arena_free(&scratch);
    if (m->failed)
      return true;
    changed = true;
  }
  return changed;
}
