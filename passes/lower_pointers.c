/*
 * pointers: OpenCL pointers → logical accesses from root variables.
 *
 * Vulkan's logical addressing has no pointer arithmetic, so every pointer the
 * kernel computes is modelled as (root variable, byte offset), the offset a
 * linear form c + Σ coef·id over the kernel's integer values. Each access is
 * then rebuilt from its root: when the root's type has an object of the
 * accessed type (or a same-size view: int/float, vec3/vec4) at that offset, it
 * becomes one OpAccessChain (plain typed access, no shifts or bitcasts of the
 * data); composites are split into such pieces otherwise. A root that memory
 * accesses of several layouts overlap (char* over float data, unions, struct*
 * over bytes) is re-typed as an array of 32-bit words and every access to it
 * goes through shifts and bitcasts (sub-word stores to shared memory use
 * atomic and/or, so neighbours are never clobbered). Pointer phis and selects
 * become offset phis/selects (several roots: a root tag, and accesses switch
 * on it); comparisons and differences compare offsets; pointer↔integer casts
 * resolve through per-root pseudo-addresses when the integer only serves
 * alignment masks, differences and comparisons; generic pointers take their
 * roots' storage classes; memcpy/struct copies with a constant size are
 * unrolled. Module-scope `constant` data and small never-written
 * program-scope variables become Private; written ones move to one storage
 * buffer per module (ProgramScopeVariablesStorageBuffer), big read-only ones
 * (and `constant` data under -module-constants-in-storage-buffer) to another
 * (clspv's ConstantDataStorageBuffer); the buffers are then roots like argument
 * buffers. Anything else is rejected with a message.
 * Runs after inlining (no pointer crosses a call) and kernel-args.
 * Options: --pointers (logical; physical is another pass's), missing features,
 * -module-constants-in-storage-buffer.
 * docs/pointers.md describes the model and what is still rejected.
 */
#include <string.h>

#include "k2s_internal.h"

#define MAX_PATH 48
#define MAX_LEAVES 4096

/* ---- linear byte offsets ------------------------------------------------ */

typedef struct term {
  int64_t coef;
  uint32_t id;
} term;

typedef struct lin {
  int64_t c;
  uint32_t n;
  term *t;
} lin;

/* ---- roots and pointer values ------------------------------------------- */

enum space { SP_NONE, SP_GLOBAL, SP_CONSTANT, SP_LOCAL, SP_PRIVATE };

typedef struct root {
  uint32_t var, sc, type; /* the variable, its storage class and pointee */
  bool punned;            /* accessed with several layouts: re-typed as words */
  bool bytewise;          /* holds packed structs: wider pieces assembled from bytes */
  bool needs_typed;       /* a builtin needs a typed pointer into it */
  bool written;           /* stored to (program-scope variables) */
  const k2s_instr *pun_why, *typed_why, *write_why;
  uint32_t align;   /* what OpenCL guarantees about its address */
  uint32_t view[9]; /* buffers: aliased 8/16/64-bit views of the same binding (by width/8) */
  bool arg_buffer;  /* a kernel's buffer argument not marked restrict: the host may bind
                     * one buffer (or overlapping sub-buffers) to several of them */
} root;

typedef struct alt {
  uint32_t root; /* index into roots; 0 is the null pointer */
  lin off;
} alt;

typedef struct pval {
  bool known;
  uint32_t pointee, hint; /* hint: the pointee before a cast (memcpy sizes) */
  uint32_t n;             /* alternatives; more than one: `tag` says which */
  alt *a;
  uint32_t tag; /* uint32 id: the root index the pointer has at run time */
} pval;

/* Ids a phi/select/int-to-pointer needs for its offsets and tag. */
typedef struct aux {
  uint32_t tag;
  uint32_t n, cap;
  uint32_t *roots, *ids;
  int64_t g;      /* offsets are kept in units of g bytes */
  uint32_t owner; /* the phi/select/int-to-pointer whose rewrite defines the ids */
} aux;

/* How many pseudo-address bases an integer holds (ConvertPtrToU). */
typedef struct taint {
  uint32_t root; /* (the first of) the roots the address comes from */
  int64_t k;
  bool bad;
  bool multi;     /* from a pointer with several possible roots */
  uint32_t align; /* what the bases are known to be aligned to */
  bool narrow;    /* cut to fewer bits than an address: the bases are gone */
} taint;

typedef struct ptr_ctx {
  k2s_module *m;
  const k2s_options *o;
  root *roots;
  uint32_t n_roots, cap_roots;
  uint32_t *root_of; /* var id -> root index */
  pval *pv;          /* by id */
  aux **ax;          /* by id */
  taint *tn;         /* by id */
  k2s_instr **dead;  /* pointer instructions to delete at the end */
  uint32_t n_dead, cap_dead;
  uint32_t cap; /* size of the by-id tables */
  uint32_t addr_width;
  bool changed, iter_changed;
  uint8_t *aux_width;      /* by id: width of offset ids defined only later */
  uint32_t *n_uses;        /* by id: uses in code (for dead variables) */
  uint32_t *aux_owner;     /* by id: for offset/tag ids, the id of their aux's owner */
  const k2s_cfg *cfg;      /* the function being analysed, with dominators */
} ptr_ctx;

static void grow(ptr_ctx *c, uint32_t need)
{
  if (need < c->cap)
    return;
  uint32_t cap = c->cap * 2 > need + 1 ? c->cap * 2 : need + 64;
  k2s_arena *a = &c->m->arena;
  c->root_of = k2s_realloc_array(a, c->root_of, c->cap, cap, sizeof(*c->root_of));
  c->pv = k2s_realloc_array(a, c->pv, c->cap, cap, sizeof(*c->pv));
  c->ax = k2s_realloc_array(a, c->ax, c->cap, cap, sizeof(*c->ax));
  c->tn = k2s_realloc_array(a, c->tn, c->cap, cap, sizeof(*c->tn));
  c->aux_width = k2s_realloc_array(a, c->aux_width, c->cap, cap, 1);
  c->n_uses = k2s_realloc_array(a, c->n_uses, c->cap, cap, sizeof(uint32_t));
  c->aux_owner = k2s_realloc_array(a, c->aux_owner, c->cap, cap, sizeof(uint32_t));
  c->cap = cap;
}

static pval *pv_of(ptr_ctx *c, uint32_t id)
{
  return id < c->cap && c->pv[id].known ? &c->pv[id] : NULL;
}

static uint32_t new_id(ptr_ctx *c)
{
  uint32_t id = k2s_new_id(c->m);
  grow(c, id);
  return id;
}

static uint32_t id_width(ptr_ctx *c, uint32_t id)
{
  if (id < c->cap && c->aux_width[id])
    return c->aux_width[id];
  return k2s_type_width(c->m, k2s_type_of(c->m, id));
}

static k2s_instr *def_type(k2s_module *m, uint32_t type)
{
  return k2s_def(m, type);
}

static bool is_pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer;
}

/* Physical mode already lowered these (k2s_function.physical): not ours. */
static bool is_physical_pointer_type(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t && t->opcode == SpvOpTypePointer && t->ops[0] == SpvStorageClassPhysicalStorageBuffer;
}

static uint32_t pointee_of(k2s_module *m, uint32_t ptr_type)
{
  k2s_instr *t = k2s_def(m, ptr_type);
  return t && t->opcode == SpvOpTypePointer ? t->ops[1] : 0;
}

static const char *type_text(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  return t ? k2s_print_instr(m, t) : "?";
}

static bool const_sval(k2s_module *m, uint32_t id, int64_t *v)
{
  uint64_t u;
  if (!k2s_const_value(m, id, &u))
    return false;
  uint32_t w = k2s_type_width(m, k2s_type_of(m, id));
  if (w && w < 64) {
    u &= (1ull << w) - 1;
    if ((u >> (w - 1)) & 1)
      u |= ~0ull << w;
  }
  *v = (int64_t)u;
  return true;
}

static uint64_t cl_size(k2s_module *m, uint32_t type)
{
  uint64_t s = 0, a = 1;
  return k2s_cl_layout(m, type, &s, &a) ? s : 0;
}

static uint64_t cl_align(k2s_module *m, uint32_t type)
{
  uint64_t s = 0, a = 1;
  return k2s_cl_layout(m, type, &s, &a) ? a : 1;
}

/* ---- linear forms --------------------------------------------------------- */

/* Offsets are arithmetic modulo 2^64, as the pointer arithmetic they model:
 * constants from the input can be anything, so products and sums wrap
 * instead of overflowing. */
static int64_t wadd(int64_t a, int64_t b)
{
  return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wmul(int64_t a, int64_t b)
{
  return (int64_t)((uint64_t)a * (uint64_t)b);
}

static lin lin_const(int64_t v)
{
  return (lin){v, 0, NULL};
}

/* a + k·b */
static lin lin_add(ptr_ctx *c, lin a, lin b, int64_t k)
{
  lin r = {wadd(a.c, wmul(k, b.c)), 0, k2s_alloc(&c->m->arena, (a.n + b.n + 1) * sizeof(term))};
  for (uint32_t i = 0; i < a.n; i++)
    r.t[r.n++] = a.t[i];
  for (uint32_t i = 0; i < b.n; i++) {
    uint32_t j = 0;
    while (j < r.n && r.t[j].id != b.t[i].id)
      j++;
    if (j == r.n)
      r.t[r.n++] = (term){0, b.t[i].id};
    r.t[j].coef = wadd(r.t[j].coef, wmul(k, b.t[i].coef));
  }
  uint32_t w = 0;
  for (uint32_t i = 0; i < r.n; i++)
    if (r.t[i].coef)
      r.t[w++] = r.t[i];
  r.n = w;
  return r;
}

static lin lin_term(ptr_ctx *c, uint32_t id, int64_t coef)
{
  lin r = {0, 1, k2s_alloc(&c->m->arena, sizeof(term))};
  r.t[0] = (term){coef, id};
  return coef ? r : lin_const(0);
}

/* coef·(value of integer id), looking through constant adds and multiplies
 * of the same width (the index arithmetic clang emits). */
static lin lin_of_index(ptr_ctx *c, uint32_t id, int64_t coef, int depth)
{
  k2s_module *m = c->m;
  int64_t v;
  if (const_sval(m, id, &v))
    return lin_const(wmul(v, coef));
  k2s_instr *d = k2s_def(m, id);
  if (d && depth < 8 && d->block && d->n_ops == 2 &&
      k2s_type_width(m, d->type) == k2s_type_width(m, k2s_type_of(m, d->ops[0]))) {
    int64_t k;
    switch (d->opcode) {
    case SpvOpIAdd:
      if (const_sval(m, d->ops[1], &k))
        return lin_add(c, lin_of_index(c, d->ops[0], coef, depth + 1), lin_const(wmul(k, coef)), 1);
      break;
    case SpvOpISub:
      if (const_sval(m, d->ops[1], &k))
        return lin_add(c, lin_of_index(c, d->ops[0], coef, depth + 1),
                       lin_const(wmul(wmul(k, -1), coef)), 1);
      break;
    case SpvOpIMul:
      if (const_sval(m, d->ops[1], &k) && k > 0 && k < (1 << 20))
        return lin_of_index(c, d->ops[0], wmul(coef, k), depth + 1);
      break;
    case SpvOpShiftLeftLogical:
      if (const_sval(m, d->ops[1], &k) && k >= 0 && k < 20)
        return lin_of_index(c, d->ops[0], wmul(coef, (int64_t)1 << k), depth + 1);
      break;
    default: break;
    }
  }
  return lin_term(c, id, coef);
}

static bool lin_equal(lin a, lin b)
{
  if (a.c != b.c || a.n != b.n)
    return false;
  for (uint32_t i = 0; i < a.n; i++) {
    uint32_t j = 0;
    while (j < b.n && b.t[j].id != a.t[i].id)
      j++;
    if (j == b.n || b.t[j].coef != a.t[i].coef)
      return false;
  }
  return true;
}

static bool lin_uses(lin a, uint32_t id)
{
  for (uint32_t i = 0; i < a.n; i++)
    if (a.t[i].id == id)
      return true;
  return false;
}

static bool lin_terms_divisible(lin a, int64_t s)
{
  if (s == -1)
    return true;
  for (uint32_t i = 0; i < a.n; i++)
    if (a.t[i].coef % s)
      return false;
  return true;
}

static bool lin_divisible(lin a, int64_t s)
{
  return lin_terms_divisible(a, s) && (s == -1 || a.c % s == 0);
}

static int64_t floor_div(int64_t a, int64_t b)
{
  if (b == -1)
    return wmul(a, -1);
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* a = s·q + r with 0 ≤ r < s (terms divisible by s). */
static lin lin_div(ptr_ctx *c, lin a, int64_t s, int64_t *rem)
{
  lin q = {floor_div(a.c, s), a.n, k2s_alloc(&c->m->arena, (a.n + 1) * sizeof(term))};
  for (uint32_t i = 0; i < a.n; i++)
    q.t[i] = (term){s == -1 ? wmul(a.t[i].coef, -1) : a.t[i].coef / s, a.t[i].id};
  if (rem)
    *rem = wadd(a.c, wmul(wmul(q.c, s), -1));
  return q;
}

static uint32_t lin_width(ptr_ctx *c, lin a, uint32_t at_least)
{
  uint32_t w = at_least;
  for (uint32_t i = 0; i < a.n; i++) {
    uint32_t tw = id_width(c, a.t[i].id);
    if (tw > w)
      w = tw;
  }
  return w;
}

static uint32_t cint(k2s_module *m, uint32_t width, int64_t v)
{
  uint64_t u = (uint64_t)v;
  if (width < 64)
    u &= (1ull << width) - 1;
  return k2s_const_int(m, k2s_type_int(m, width, false), u);
}

static uint32_t op2(k2s_builder *b, uint16_t op, uint32_t type, uint32_t x, uint32_t y)
{
  uint32_t ops[2] = {x, y};
  return k2s_emit(b, op, type, ops, 2);
}

/* The value of a as a `width`-bit integer (ids are sign-extended). */
static uint32_t materialize(ptr_ctx *c, k2s_builder *b, lin a, uint32_t width)
{
  k2s_module *m = c->m;
  uint32_t t = k2s_type_int(m, width, false), acc = 0;
  for (uint32_t i = 0; i < a.n; i++) {
    uint32_t v = a.t[i].id;
    if (id_width(c, v) != width)
      v = k2s_emit(b, SpvOpSConvert, t, &v, 1);
    if (a.t[i].coef == -1)
      v = k2s_emit(b, SpvOpSNegate, t, &v, 1);
    else if (a.t[i].coef != 1)
      v = op2(b, SpvOpIMul, t, v, cint(m, width, a.t[i].coef));
    acc = acc ? op2(b, SpvOpIAdd, t, acc, v) : v;
  }
  if (a.c || !acc) {
    uint32_t k = cint(m, width, a.c);
    acc = acc ? op2(b, SpvOpIAdd, t, acc, k) : k;
  }
  return acc;
}

/* floor(a / s) as a value, for offsets OpenCL's alignment rules say are
 * multiples of s but that the linear form cannot prove so. */
static uint32_t materialize_div(ptr_ctx *c, k2s_builder *b, lin a, int64_t s, uint32_t width)
{
  if (lin_divisible(a, s))
    return materialize(c, b, lin_div(c, a, s, NULL), width);
  uint32_t v = materialize(c, b, a, width), t = k2s_type_int(c->m, width, false);
  if ((s & (s - 1)) == 0) {
    int sh = 0;
    while ((1ll << sh) < s)
      sh++;
    return op2(b, SpvOpShiftRightArithmetic, t, v, cint(c->m, width, sh));
  }
  return op2(b, SpvOpSDiv, t, v, cint(c->m, width, s));
}

/* ---- roots --------------------------------------------------------------- */

static enum space space_of_sc(uint32_t sc)
{
  switch (sc) {
  case SpvStorageClassStorageBuffer:
  case SpvStorageClassCrossWorkgroup:
  case SpvStorageClassPhysicalStorageBuffer: return SP_GLOBAL;
  case SpvStorageClassUniform:
  case SpvStorageClassUniformConstant:
  case SpvStorageClassPushConstant: return SP_CONSTANT;
  case SpvStorageClassWorkgroup: return SP_LOCAL;
  case SpvStorageClassFunction:
  case SpvStorageClassPrivate: return SP_PRIVATE;
  default: return SP_NONE;
  }
}

static uint32_t add_root(ptr_ctx *c, k2s_instr *v)
{
  k2s_module *m = c->m;
  if (c->n_roots + 1 >= c->cap_roots) {
    uint32_t cap = c->cap_roots ? c->cap_roots * 2 : 16;
    c->roots = k2s_realloc_array(&m->arena, c->roots, c->cap_roots, cap, sizeof(root));
    c->cap_roots = cap;
  }
  if (!c->n_roots)
    c->n_roots = 1; /* index 0 is the null pointer */
  uint32_t r = c->n_roots++;
  k2s_instr *pt = k2s_def(m, v->type);
  root *ro = &c->roots[r];
  memset(ro, 0, sizeof(*ro));
  ro->var = v->result;
  ro->sc = pt->ops[0];
  ro->type = pt->ops[1];
  /* Buffers: OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN is at least 1024 bits. */
  ro->align = space_of_sc(ro->sc) == SP_GLOBAL || ro->sc == SpvStorageClassUniform
                  ? 128
                  : (uint32_t)cl_align(m, ro->type);
  grow(c, v->result);
  c->root_of[v->result] = r;
  pval p = {.known = true, .pointee = ro->type, .n = 1};
  p.a = k2s_alloc(&m->arena, sizeof(alt));
  p.a[0] = (alt){r, lin_const(0)};
  c->pv[v->result] = p;
  return r;
}

static pval single(ptr_ctx *c, uint32_t root_index, lin off, uint32_t pointee)
{
  pval p = {.known = true, .pointee = pointee, .n = 1};
  p.a = k2s_alloc(&c->m->arena, sizeof(alt));
  p.a[0] = (alt){root_index, off};
  return p;
}

/* ---- offsets of access chains ------------------------------------------ */

/* The byte offset `indices` select inside `type`; *out gets the type reached. */
static bool chain_offset(ptr_ctx *c, uint32_t type, const uint32_t *idx, uint32_t n, lin *off,
                         uint32_t *out, const k2s_instr *at)
{
  k2s_module *m = c->m;
  lin r = lin_const(0);
  for (uint32_t k = 0; k < n; k++) {
    k2s_instr *t = def_type(m, type);
    if (!t)
      return false;
    switch (t->opcode) {
    case SpvOpTypeStruct: {
      int64_t v;
      if (!const_sval(m, idx[k], &v) || v < 0 || (uint64_t)v >= t->n_ops)
        return false;
      r = lin_add(c, r, lin_const((int64_t)k2s_cl_member_offset(m, type, (uint32_t)v)), 1);
      type = t->ops[v];
      break;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeVector: {
      uint32_t e = t->ops[0];
      uint64_t s = cl_size(m, e);
      if (!s) {
        k2s_error(m, at, "cannot tell the size of %s", type_text(m, e));
        return false;
      }
      r = lin_add(c, r, lin_of_index(c, idx[k], (int64_t)s, 0), 1);
      type = e;
      break;
    }
    default: return false;
    }
  }
  *off = r;
  *out = type;
  return true;
}

/* ---- typed paths --------------------------------------------------------- */

/* Scalars and vectors with the same OpenCL size (int/float, vec3/vec4 of one
 * element type) can be viewed as each other by converting the value. */
static bool same_size_view(k2s_module *m, uint32_t real, uint32_t view)
{
  if (real == view)
    return true;
  k2s_instr *a = k2s_def(m, real), *b = k2s_def(m, view);
  if (!a || !b)
    return false;
  if (is_physical_pointer_type(m, real) && is_physical_pointer_type(m, view))
    return true; /* two PhysicalStorageBuffer pointer types: an address either way */
  bool va = a->opcode == SpvOpTypeVector, vb = b->opcode == SpvOpTypeVector;
  uint32_t sa = k2s_scalar_type(m, real), sb = k2s_scalar_type(m, view);
  k2s_instr *ea = k2s_def(m, sa), *eb = k2s_def(m, sb);
  if (!ea || !eb || (ea->opcode != SpvOpTypeInt && ea->opcode != SpvOpTypeFloat) ||
      (eb->opcode != SpvOpTypeInt && eb->opcode != SpvOpTypeFloat))
    return false;
  if (cl_size(m, real) != cl_size(m, view))
    return false;
  if (va && vb && k2s_vector_size(m, real) != k2s_vector_size(m, view))
    return k2s_type_width(m, sa) == k2s_type_width(m, sb);
  return k2s_type_width(m, real) * k2s_vector_size(m, real) ==
         k2s_type_width(m, view) * k2s_vector_size(m, view);
}

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

typedef struct step {
  lin idx;
  int64_t div; /* 0: idx is the index; else the index is idx / div */
} step;

typedef struct tpath {
  uint32_t n, found;
  step s[MAX_PATH];
} tpath;

/* Is there an object of type A (or a same-size view of it) at byte offset
 * `off` in an object of type T? Fills the index path. */
static bool typed_path(ptr_ctx *c, uint32_t T, lin off, uint32_t A, tpath *p)
{
  k2s_module *m = c->m;
  p->n = 0;
  for (;;) {
    if (off.n == 0 && off.c == 0 && same_size_view(m, T, A)) {
      p->found = T;
      return true;
    }
    k2s_instr *t = def_type(m, T);
    if (!t || p->n >= MAX_PATH)
      return false;
    step *st = &p->s[p->n];
    switch (t->opcode) {
    case SpvOpTypeStruct: {
      /* The member holding the constant part; a dynamic part stays inside
       * it (C forbids pointer arithmetic across members). */
      int64_t cpart = off.c, k_off = 0;
      uint32_t k = UINT32_MAX;
      uint64_t end = 0;
      bool pk = k2s_cl_packed(m, T);
      for (uint32_t j = 0; j < t->n_ops; j++) {
        int64_t mo = (int64_t)k2s_cl_place_member(m, t->ops[j], pk, &end);
        uint64_t ms = cl_size(m, t->ops[j]);
        k2s_instr *mt = def_type(m, t->ops[j]);
        bool open = mt && mt->opcode == SpvOpTypeRuntimeArray;
        if (cpart >= mo && (open || cpart < mo + (int64_t)ms || (ms == 0 && cpart == mo))) {
          k = j;
          k_off = mo;
        }
      }
      if (k == UINT32_MAX)
        return false;
      st->idx = lin_const(k);
      st->div = 0;
      off = lin_add(c, off, lin_const(-k_off), 1);
      T = t->ops[k];
      break;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeVector: {
      uint32_t e = t->ops[0];
      int64_t s = (int64_t)cl_size(m, e);
      if (s <= 0)
        return false;
      if (lin_terms_divisible(off, s)) {
        int64_t rem;
        st->idx = lin_div(c, off, s, &rem);
        st->div = 0;
        off = lin_const(rem);
        if (t->opcode == SpvOpTypeVector && st->idx.n == 0 &&
            (st->idx.c < 0 || st->idx.c >= (int64_t)t->ops[1]))
          return false;
      } else if (same_size_view(m, e, A)) {
        st->idx = off; /* OpenCL alignment: a T* is aligned to T */
        st->div = s;
        off = lin_const(0);
      } else {
        return false;
      }
      T = e;
      break;
    }
    default: return false;
    }
    p->n++;
  }
}

static uint32_t root_index_width(ptr_ctx *c, const root *r)
{
  return space_of_sc(r->sc) == SP_GLOBAL || space_of_sc(r->sc) == SP_CONSTANT ? c->addr_width : 32;
}

static uint32_t emit_chain(ptr_ctx *c, k2s_builder *b, const root *r, const tpath *p)
{
  k2s_module *m = c->m;
  if (p->n == 0)
    return r->var;
  uint32_t *ops = k2s_alloc(&m->arena, (p->n + 1) * sizeof(uint32_t));
  ops[0] = r->var;
  uint32_t T = r->type;
  for (uint32_t k = 0; k < p->n; k++) {
    k2s_instr *t = def_type(m, T);
    if (t->opcode == SpvOpTypeStruct) {
      ops[k + 1] = k2s_const_uint32(m, (uint32_t)p->s[k].idx.c);
      T = t->ops[p->s[k].idx.c];
      continue;
    }
    uint32_t w = lin_width(c, p->s[k].idx, 32);
    ops[k + 1] = p->s[k].div ? materialize_div(c, b, p->s[k].idx, p->s[k].div, w)
                             : materialize(c, b, p->s[k].idx, w);
    T = t->ops[0];
  }
  return k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, r->sc, p->found), ops, p->n + 1);
}

/* ---- composites ------------------------------------------------------------ */

static uint32_t n_children(k2s_module *m, uint32_t A)
{
  k2s_instr *t = def_type(m, A);
  uint64_t len;
  if (!t)
    return 0;
  switch (t->opcode) {
  case SpvOpTypeStruct: return t->n_ops;
  case SpvOpTypeVector: return t->ops[1];
  case SpvOpTypeArray:
    return k2s_const_value(m, t->ops[1], &len) && len < MAX_LEAVES ? (uint32_t)len : 0;
  default: return 0;
  }
}

static uint32_t child(k2s_module *m, uint32_t A, uint32_t k, int64_t *off)
{
  k2s_instr *t = def_type(m, A);
  if (t->opcode == SpvOpTypeStruct) {
    *off = (int64_t)k2s_cl_member_offset(m, A, k);
    return t->ops[k];
  }
  *off = (int64_t)(k * cl_size(m, t->ops[0]));
  return t->ops[0];
}

/* Can every piece of an A at `off` be reached with typed access? */
static bool plan_typed(ptr_ctx *c, const root *r, lin off, uint32_t A, uint32_t *budget)
{
  tpath p;
  if (typed_path(c, r->type, off, A, &p))
    return true;
  uint32_t n = n_children(c->m, A);
  if (!n || *budget < n)
    return false;
  *budget -= n;
  for (uint32_t k = 0; k < n; k++) {
    int64_t co;
    uint32_t ct = child(c->m, A, k, &co);
    if (!plan_typed(c, r, lin_add(c, off, lin_const(co), 1), ct, budget))
      return false;
  }
  return true;
}

/* ---- word views (punned roots) ---------------------------------------------- */

static uint32_t word_type(k2s_module *m)
{
  return k2s_type_int(m, 32, false);
}

/* A scalar or vector of 1, 2, 4 or 8 bytes that is one piece of words. */
static bool is_word_leaf(k2s_module *m, uint32_t A)
{
  k2s_instr *t = def_type(m, A);
  if (!t)
    return false;
  if (t->opcode == SpvOpTypeVector && t->ops[1] == 3)
    return false;
  if (t->opcode != SpvOpTypeInt && t->opcode != SpvOpTypeFloat && t->opcode != SpvOpTypeVector)
    return false;
  uint64_t s = cl_size(m, A);
  uint32_t bits = k2s_type_width(m, A) * k2s_vector_size(m, A);
  return (s == 1 || s == 2 || s == 4 || s == 8) && bits == s * 8;
}

static uint32_t word_ptr(ptr_ctx *c, k2s_builder *b, const root *r, uint32_t widx)
{
  k2s_module *m = c->m;
  uint32_t ops[3] = {r->var, k2s_const_uint32(m, 0), widx};
  bool block = def_type(m, r->type)->opcode == SpvOpTypeStruct;
  if (!block) {
    ops[1] = widx;
    return k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, r->sc, word_type(m)), ops, 2);
  }
  return k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, r->sc, word_type(m)), ops, 3);
}

/* A re-typed buffer's 8-, 16- or 64-bit view: a second variable on the same
 * descriptor (aliasing is allowed in Vulkan; both are Aliased), so byte and
 * short stores need no atomics, and a 64-bit atomic has a 64-bit location (a
 * word view cannot hold one). 0 when the target lacks that storage. */
static uint32_t narrow_view(ptr_ctx *c, root *r, uint32_t bytes)
{
  k2s_module *m = c->m;
  if (r->sc != SpvStorageClassStorageBuffer || (bytes != 1 && bytes != 2 && bytes != 8))
    return 0;
  if (c->o->missing_features & (bytes == 1   ? (K2S_FEATURE_STORAGE8 | K2S_FEATURE_INT8)
                                : bytes == 2 ? (K2S_FEATURE_STORAGE16 | K2S_FEATURE_INT16)
                                             : K2S_FEATURE_INT64))
    return 0;
  if (r->view[bytes])
    return r->view[bytes];
  k2s_instr *set = k2s_find_decoration(m, r->var, SpvDecorationDescriptorSet);
  k2s_instr *bind = k2s_find_decoration(m, r->var, SpvDecorationBinding);
  if (!set || !bind || set->n_ops < 3 || bind->n_ops < 3)
    return 0;
  uint32_t et = k2s_type_int(m, bytes * 8, false);
  uint32_t arr = k2s_type_runtime_array(m, et);
  if (!k2s_find_decoration(m, arr, SpvDecorationArrayStride))
    k2s_decorate(m, arr, SpvDecorationArrayStride, &bytes, 1);
  uint32_t st = k2s_type_struct(m, &arr, 1), zero = 0;
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  k2s_member_decorate(m, st, 0, SpvDecorationOffset, &zero, 1);
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, r->sc, st), r->sc, 0);
  uint32_t set_v = set->ops[2], bind_v = bind->ops[2];
  k2s_decorate(m, var, SpvDecorationDescriptorSet, &set_v, 1);
  k2s_decorate(m, var, SpvDecorationBinding, &bind_v, 1);
  k2s_decorate(m, var, SpvDecorationAliased, NULL, 0);
  if (!k2s_find_decoration(m, r->var, SpvDecorationAliased))
    k2s_decorate(m, r->var, SpvDecorationAliased, NULL, 0);
  const char *name = k2s_name_of(m, r->var);
  if (name)
    k2s_set_name(m, var, k2s_sprintf(&m->arena, "%s.u%u", name, bytes * 8));
  grow(c, var);
  r->view[bytes] = var;
  return var;
}

/* Load or store of a byte/short through the narrow view of a buffer. */
static uint32_t narrow_access(ptr_ctx *c, k2s_builder *b, uint32_t view, lin off, uint32_t A,
                              uint32_t bytes, uint32_t store_value, uint32_t sc)
{
  k2s_module *m = c->m;
  uint32_t it = k2s_type_int(m, bytes * 8, false);
  uint32_t idx = materialize_div(c, b, off, bytes, lin_width(c, off, 32));
  uint32_t ops[3] = {view, k2s_const_uint32(m, 0), idx};
  uint32_t p = k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, sc, it), ops, 3);
  if (store_value) {
    uint32_t x = A == it ? store_value : k2s_emit(b, SpvOpBitcast, it, &store_value, 1);
    op2(b, SpvOpStore, 0, p, x);
    return 0;
  }
  uint32_t x = k2s_emit(b, SpvOpLoad, it, &p, 1);
  return A == it ? x : k2s_emit(b, SpvOpBitcast, A, &x, 1);
}

/* Word index and bit shift of byte offset `off`. */
static void word_at(ptr_ctx *c, k2s_builder *b, const root *r, lin off, uint32_t *widx,
                    uint32_t *shift)
{
  k2s_module *m = c->m;
  uint32_t w = lin_width(c, off, 32);
  (void)r;
  if (lin_terms_divisible(off, 4)) {
    int64_t rem;
    lin q = lin_div(c, off, 4, &rem);
    *widx = materialize(c, b, q, w);
    *shift = k2s_const_uint32(m, (uint32_t)rem * 8);
    return;
  }
  uint32_t t = k2s_type_int(m, w, false);
  uint32_t v = materialize(c, b, off, w);
  *widx = op2(b, SpvOpShiftRightArithmetic, t, v, cint(m, w, 2));
  uint32_t low = op2(b, SpvOpBitwiseAnd, t, v, cint(m, w, 3));
  if (w != 32)
    low = k2s_emit(b, SpvOpUConvert, word_type(m), &low, 1);
  *shift = op2(b, SpvOpShiftLeftLogical, word_type(m), low, k2s_const_uint32(m, 3));
}

static uint32_t add1(ptr_ctx *c, k2s_builder *b, uint32_t idx)
{
  uint32_t w = k2s_type_width(c->m, k2s_type_of(c->m, idx));
  return op2(b, SpvOpIAdd, k2s_type_int(c->m, w, false), idx, cint(c->m, w, 1));
}

static uint32_t word_load(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A);
static void word_store(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A, uint32_t v);

/* Packed structs put members at any byte: a 2-, 4- or 8-byte piece of such a
 * root is assembled from (stored as) single bytes, which need no alignment. */
static uint32_t bytes_load(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A, uint32_t s)
{
  k2s_module *m = c->m;
  uint32_t wt = k2s_type_int(m, s * 8, false), u8 = k2s_type_int(m, 8, false), acc = 0;
  for (uint32_t j = 0; j < s; j++) {
    uint32_t x = word_load(c, b, r, lin_add(c, off, lin_const(j), 1), u8);
    x = k2s_emit(b, SpvOpUConvert, wt, &x, 1);
    if (j)
      x = op2(b, SpvOpShiftLeftLogical, wt, x, cint(m, s * 8, 8 * j));
    acc = acc ? op2(b, SpvOpBitwiseOr, wt, acc, x) : x;
  }
  return A == wt ? acc : k2s_emit(b, SpvOpBitcast, A, &acc, 1);
}

static void bytes_store(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A, uint32_t v,
                        uint32_t s)
{
  k2s_module *m = c->m;
  uint32_t wt = k2s_type_int(m, s * 8, false), u8 = k2s_type_int(m, 8, false);
  uint32_t bits = A == wt ? v : k2s_emit(b, SpvOpBitcast, wt, &v, 1);
  for (uint32_t j = 0; j < s; j++) {
    uint32_t x = j ? op2(b, SpvOpShiftRightLogical, wt, bits, cint(m, s * 8, 8 * j)) : bits;
    x = k2s_emit(b, SpvOpUConvert, u8, &x, 1);
    word_store(c, b, r, lin_add(c, off, lin_const(j), 1), u8, x);
  }
}

static uint32_t word_load(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A)
{
  k2s_module *m = c->m;
  uint32_t u32 = word_type(m), s = (uint32_t)cl_size(m, A), widx, sh;
  if (r->bytewise && s > 1)
    return bytes_load(c, b, r, off, A, s);
  uint32_t view = s < 4 ? narrow_view(c, r, s) : 0;
  if (view)
    return narrow_access(c, b, view, off, A, s, 0, r->sc);
  word_at(c, b, r, off, &widx, &sh);
  uint32_t p = word_ptr(c, b, r, widx);
  uint32_t w = k2s_emit(b, SpvOpLoad, u32, &p, 1);
  if (s == 4)
    return A == u32 ? w : k2s_emit(b, SpvOpBitcast, A, &w, 1);
  if (s == 8) {
    uint32_t p2 = word_ptr(c, b, r, add1(c, b, widx));
    uint32_t parts[2] = {w, k2s_emit(b, SpvOpLoad, u32, &p2, 1)};
    uint32_t v2 = k2s_emit(b, SpvOpCompositeConstruct, k2s_type_vector(m, u32, 2), parts, 2);
    return k2s_emit(b, SpvOpBitcast, A, &v2, 1);
  }
  uint32_t x = op2(b, SpvOpShiftRightLogical, u32, w, sh);
  uint32_t it = k2s_type_int(m, s * 8, false);
  x = k2s_emit(b, SpvOpUConvert, it, &x, 1);
  return A == it ? x : k2s_emit(b, SpvOpBitcast, A, &x, 1);
}

static void word_store(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t u32 = word_type(m), s = (uint32_t)cl_size(m, A), widx, sh;
  if (r->bytewise && s > 1) {
    bytes_store(c, b, r, off, A, v, s);
    return;
  }
  uint32_t view = s < 4 ? narrow_view(c, r, s) : 0;
  if (view) {
    narrow_access(c, b, view, off, A, s, v, r->sc);
    return;
  }
  word_at(c, b, r, off, &widx, &sh);
  uint32_t p = word_ptr(c, b, r, widx);
  if (s == 4) {
    uint32_t x = A == u32 ? v : k2s_emit(b, SpvOpBitcast, u32, &v, 1);
    op2(b, SpvOpStore, 0, p, x);
    return;
  }
  if (s == 8) {
    uint32_t v2 = k2s_emit(b, SpvOpBitcast, k2s_type_vector(m, u32, 2), &v, 1);
    uint32_t lo[2] = {v2, 0}, hi[2] = {v2, 1};
    uint32_t a = k2s_emit(b, SpvOpCompositeExtract, u32, lo, 2);
    uint32_t d = k2s_emit(b, SpvOpCompositeExtract, u32, hi, 2);
    op2(b, SpvOpStore, 0, p, a);
    op2(b, SpvOpStore, 0, word_ptr(c, b, r, add1(c, b, widx)), d);
    return;
  }
  uint32_t it = k2s_type_int(m, s * 8, false);
  uint32_t x = A == it ? v : k2s_emit(b, SpvOpBitcast, it, &v, 1);
  x = k2s_emit(b, SpvOpUConvert, u32, &x, 1);
  x = op2(b, SpvOpShiftLeftLogical, u32, x, sh);
  uint32_t mask =
      op2(b, SpvOpShiftLeftLogical, u32, k2s_const_uint32(m, s == 1 ? 0xffu : 0xffffu), sh);
  uint32_t keep = k2s_emit(b, SpvOpNot, u32, &mask, 1);
  if (r->sc == SpvStorageClassFunction || r->sc == SpvStorageClassPrivate) {
    uint32_t w = k2s_emit(b, SpvOpLoad, u32, &p, 1);
    w = op2(b, SpvOpBitwiseOr, u32, op2(b, SpvOpBitwiseAnd, u32, w, keep), x);
    op2(b, SpvOpStore, 0, p, w);
    return;
  }
  /* Shared memory: other work-items may write the other bytes of the word
   * at the same time; two atomics change only this one's bits. */
  uint32_t scope =
      k2s_const_uint32(m, r->sc == SpvStorageClassWorkgroup ? SpvScopeWorkgroup : SpvScopeDevice);
  uint32_t sem = k2s_const_uint32(m, 0);
  uint32_t a1[4] = {p, scope, sem, keep}, a2[4] = {p, scope, sem, x};
  k2s_emit(b, SpvOpAtomicAnd, u32, a1, 4);
  k2s_emit(b, SpvOpAtomicOr, u32, a2, 4);
}

/* ---- loads and stores of any type through one root ---------------------- */

/* The alignment an access promises (its Aligned operand); a load or store
 * without one has its type's natural alignment (UINT32_MAX here), a memcpy
 * none: its pieces are this pass's choice, not the source's. */
static uint32_t declared_align(const k2s_instr *at)
{
  uint32_t mask_at;
  switch (at ? at->opcode : 0) {
  case SpvOpLoad: mask_at = 1; break;
  case SpvOpStore:
  case SpvOpCopyMemory: mask_at = 2; break;
  case SpvOpCopyMemorySized: mask_at = 3; break;
  default: return UINT32_MAX;
  }
  if (at->n_ops > mask_at + 1 && (at->ops[mask_at] & SpvMemoryAccessAlignedMask))
    return at->ops[mask_at + 1];
  return at->opcode == SpvOpCopyMemorySized ? 1 : UINT32_MAX;
}

/* Whether an s-byte piece at `off` of a word-typed root may not sit where
 * the word path puts it (an index of off / min(s, 4) and a shift of the low
 * bits, which only a 2-byte piece uses): clang's `memcpy(p + 5 * i + 1, &v,
 * 4)` becomes `OpStore ... Aligned 1` of a uint. Such a piece goes through
 * single bytes, which need no alignment. */
static bool unaligned_piece(lin off, uint32_t s, const k2s_instr *at)
{
  uint32_t need = s < 4 ? s : 4;
  if (need <= 1 || lin_divisible(off, need))
    return false;
  if (lin_terms_divisible(off, need))
    return true; /* misaligned by its constant part, whatever the promise */
  return declared_align(at) < need;
}

static uint32_t load_at(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A,
                        const k2s_instr *at)
{
  k2s_module *m = c->m;
  if (!r->punned) {
    tpath p;
    if (typed_path(c, r->type, off, A, &p)) {
      uint32_t ptr = emit_chain(c, b, r, &p);
      uint32_t v = k2s_emit(b, SpvOpLoad, p.found, &ptr, 1);
      return convert_view(b, v, p.found, A);
    }
  } else if (is_word_leaf(m, A)) {
    uint32_t s = (uint32_t)cl_size(m, A);
    if (unaligned_piece(off, s, at))
      return bytes_load(c, b, r, off, A, s);
    return word_load(c, b, r, off, A);
  }
  uint32_t n = n_children(m, A);
  if (!n) {
    k2s_error(m, at, "cannot read %s at this place of %s", type_text(m, A), type_text(m, r->type));
    return 0;
  }
  uint32_t *parts = k2s_alloc(&m->arena, n * sizeof(uint32_t));
  for (uint32_t k = 0; k < n; k++) {
    int64_t co;
    uint32_t ct = child(m, A, k, &co);
    parts[k] = load_at(c, b, r, lin_add(c, off, lin_const(co), 1), ct, at);
    if (!parts[k])
      return 0;
  }
  return k2s_emit(b, SpvOpCompositeConstruct, A, parts, n);
}

static bool store_at(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A, uint32_t v,
                     const k2s_instr *at)
{
  k2s_module *m = c->m;
  if (!r->punned) {
    tpath p;
    if (typed_path(c, r->type, off, A, &p)) {
      uint32_t ptr = emit_chain(c, b, r, &p);
      op2(b, SpvOpStore, 0, ptr, convert_view(b, v, A, p.found));
      return true;
    }
  } else if (is_word_leaf(m, A)) {
    uint32_t s = (uint32_t)cl_size(m, A);
    if (unaligned_piece(off, s, at))
      bytes_store(c, b, r, off, A, v, s);
    else
      word_store(c, b, r, off, A, v);
    return true;
  }
  uint32_t n = n_children(m, A);
  if (!n) {
    k2s_error(m, at, "cannot write %s at this place of %s", type_text(m, A), type_text(m, r->type));
    return false;
  }
  for (uint32_t k = 0; k < n; k++) {
    int64_t co;
    uint32_t ct = child(m, A, k, &co);
    uint32_t ex[2] = {v, k};
    uint32_t part = k2s_emit(b, SpvOpCompositeExtract, ct, ex, 2);
    if (!store_at(c, b, r, lin_add(c, off, lin_const(co), 1), ct, part, at))
      return false;
  }
  return true;
}

/* ---- analysis: pointer values ------------------------------------------- */

static bool same_alts(const pval *a, const pval *b)
{
  if (a->n != b->n)
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (a->a[i].root != b->a[i].root)
      return false;
  return true;
}

static int64_t gcd64(int64_t a, int64_t b)
{
  uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  /* 2^63 (the gcd of INT64_MIN with itself) is no usable unit: 1 is. */
  return x && x <= (uint64_t)INT64_MAX ? (int64_t)x : 1;
}

static aux *aux_of(ptr_ctx *c, uint32_t id, int64_t g)
{
  if (!c->ax[id]) {
    c->ax[id] = k2s_alloc(&c->m->arena, sizeof(aux));
    c->ax[id]->g = g > 0 ? g : 1;
    c->ax[id]->owner = id;
  }
  return c->ax[id];
}

static uint32_t aux_id(ptr_ctx *c, aux *x, uint32_t r, uint32_t width)
{
  for (uint32_t k = 0; k < x->n; k++)
    if (x->roots[k] == r)
      return x->ids[k];
  if (x->n == x->cap) {
    uint32_t cap = x->cap ? x->cap * 2 : 4;
    x->roots = k2s_realloc_array(&c->m->arena, x->roots, x->n, cap, sizeof(uint32_t));
    x->ids = k2s_realloc_array(&c->m->arena, x->ids, x->n, cap, sizeof(uint32_t));
    x->cap = cap;
  }
  x->roots[x->n] = r;
  x->ids[x->n] = new_id(c);
  c->aux_width[x->ids[x->n]] = (uint8_t)width;
  c->aux_owner[x->ids[x->n]] = x->owner;
  return x->ids[x->n++];
}

static const alt *alt_of(const pval *p, uint32_t r)
{
  for (uint32_t k = 0; p && k < p->n; k++)
    if (p->a[k].root == r)
      return &p->a[k];
  return NULL;
}

/* Whether the value of `id` is the same at the end of every predecessor of
 * `blk` and in `blk` itself: its definition strictly dominates `blk`. A phi of
 * `blk` (or anything defined in `blk` or after it in a loop) has a new value on
 * each entry: `q = p` across a back edge means the *previous* p. Offset and tag
 * ids count as defined where their owner (phi/select/int-to-pointer) is. */
static bool defined_before(ptr_ctx *c, uint32_t id, const k2s_block *blk)
{
  uint32_t at = id < c->cap && c->aux_owner[id] ? c->aux_owner[id] : id;
  k2s_instr *d = k2s_def(c->m, at);
  if (!d || !d->block)
    return true; /* constants, globals, function parameters */
  if (d->block == blk || !c->cfg)
    return false;
  return k2s_cfg_dominates(c->cfg, d->block->index, blk->index);
}

static bool lin_defined_before(ptr_ctx *c, lin a, const k2s_block *blk)
{
  for (uint32_t t = 0; t < a.n; t++)
    if (!defined_before(c, a.t[t].id, blk))
      return false;
  return true;
}

/* A phi or select of pointers: the union of the inputs' roots, each with an
 * offset kept in a fresh id (units of g bytes), plus a tag when several. */
static void merge_pval(ptr_ctx *c, k2s_instr *i, const uint32_t *in, uint32_t n_in)
{
  k2s_module *m = c->m;
  uint32_t pointee = pointee_of(m, i->type);
  aux *x = aux_of(c, i->result, (int64_t)cl_size(m, pointee));
  uint32_t roots[64], nr = 0;
  for (uint32_t k = 0; k < n_in; k++) {
    pval *p = pv_of(c, in[k]);
    for (uint32_t j = 0; p && j < p->n; j++) {
      uint32_t q = 0;
      while (q < nr && roots[q] != p->a[j].root)
        q++;
      if (q == nr) {
        if (nr == 64) {
          k2s_error(m, i,
                    "this pointer may point into more than 64 different objects; logical "
                    "mode does not track that many");
          return;
        }
        roots[nr++] = p->a[j].root;
      }
    }
  }
  if (!nr)
    return;
  /* Offsets are kept in units of g: the pointee size, unless some input is not
   * a multiple of it ((S *)((char *)p + 4)); then the common divisor. */
  int64_t g = x->g;
  for (uint32_t k = 0; k < n_in; k++) {
    pval *p = pv_of(c, in[k]);
    for (uint32_t j = 0; p && j < p->n; j++) {
      const lin *o = &p->a[j].off;
      for (uint32_t t = 0; t < o->n; t++) {
        bool own = false;
        for (uint32_t q = 0; q < x->n; q++)
          own |= o->t[t].id == x->ids[q];
        if (!own)
          g = gcd64(g, o->t[t].coef);
      }
      g = gcd64(g, o->c);
    }
  }
  if (g != x->g) {
    x->g = g;
    c->iter_changed = true;
  }
  /* Keep a stable order (by root index). */
  for (uint32_t a = 1; a < nr; a++)
    for (uint32_t b2 = a; b2 > 0 && roots[b2 - 1] > roots[b2]; b2--) {
      uint32_t t = roots[b2];
      roots[b2] = roots[b2 - 1];
      roots[b2 - 1] = t;
    }
  pval r = {.known = true, .pointee = pointee, .n = nr};
  r.a = k2s_alloc(&m->arena, nr * sizeof(alt));
  for (uint32_t k = 0; k < nr; k++) {
    if (!roots[k]) {
      r.a[k] = (alt){0, lin_const(0)};
      continue;
    }
    /* Every input with this root at the same offset: no offset phi needed —
     * for a select always (its inputs' terms dominate it), for a phi only when
     * the terms are defined before its block: with `p = q + 1; q = p` in a
     * loop, q's offset is the *previous* iteration's p, not p's offset id. */
    const alt *same = NULL;
    bool all_same = true;
    uint32_t own = aux_id(c, x, roots[k], root_index_width(c, &c->roots[roots[k]]));
    for (uint32_t j = 0; j < n_in && all_same; j++) {
      const alt *a = alt_of(pv_of(c, in[j]), roots[k]);
      if (!a)
        continue;
      if (lin_uses(a->off, own) || (same && !lin_equal(same->off, a->off)) ||
          (i->opcode == SpvOpPhi && !lin_defined_before(c, a->off, i->block)))
        all_same = false;
      same = a;
    }
    r.a[k] = (alt){roots[k], all_same && same ? same->off : lin_term(c, own, x->g)};
  }
  if (nr > 1) {
    if (!x->tag)
      x->tag = new_id(c);
    r.tag = x->tag;
  }
  pval *old = pv_of(c, i->result);
  bool same = old && same_alts(old, &r);
  for (uint32_t k = 0; same && k < nr; k++)
    same = lin_equal(old->a[k].off, r.a[k].off);
  if (!same)
    c->iter_changed = true;
  c->pv[i->result] = r;
}

static void set_pv(ptr_ctx *c, uint32_t id, pval p)
{
  grow(c, id);
  pval *old = pv_of(c, id);
  if (!old || !same_alts(old, &p))
    c->iter_changed = true;
  c->pv[id] = p;
}

/* p with every offset moved by `delta`. */
static pval moved(ptr_ctx *c, const pval *p, lin delta, uint32_t pointee)
{
  pval r = *p;
  r.pointee = pointee;
  r.hint = 0;
  r.a = k2s_alloc(&c->m->arena, p->n * sizeof(alt));
  for (uint32_t k = 0; k < p->n; k++)
    r.a[k] = (alt){p->a[k].root, p->a[k].root ? lin_add(c, p->a[k].off, delta, 1) : p->a[k].off};
  return r;
}

static enum space space_of_root(ptr_ctx *c, uint32_t r)
{
  return r ? space_of_sc(c->roots[r].sc) : SP_NONE;
}

/* Pointer values of one instruction; false after an error. */
static bool analyze_def(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (!i->result || !is_pointer_type(m, i->type) || is_physical_pointer_type(m, i->type))
    return true;
  uint32_t pointee = pointee_of(m, i->type);
  switch (i->opcode) {
  case SpvOpVariable:
    if (!c->root_of[i->result])
      add_root(c, i);
    return true;
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain: {
    pval *b = pv_of(c, i->ops[0]);
    if (!b)
      return true; /* defined later in a loop: the next round sees it */
    bool ptr = i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain;
    lin delta = lin_const(0);
    if (ptr) {
      uint64_t s = cl_size(m, b->pointee);
      if (!s) {
        k2s_error(m, i, "pointer arithmetic on %s, which has no OpenCL size",
                  type_text(m, b->pointee));
        return false;
      }
      delta = lin_of_index(c, i->ops[1], (int64_t)s, 0);
    }
    uint32_t first = ptr ? 2 : 1, reached;
    lin more;
    if (!chain_offset(c, b->pointee, i->ops + first, i->n_ops - first, &more, &reached, i)) {
      if (!m->failed)
        k2s_error(m, i, "cannot follow this access chain through %s", type_text(m, b->pointee));
      return false;
    }
    set_pv(c, i->result, moved(c, b, lin_add(c, delta, more, 1), pointee));
    return true;
  }
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr: {
    pval *b = pv_of(c, i->ops[0]);
    if (!b) {
      if (!is_pointer_type(m, k2s_type_of(m, i->ops[0]))) {
        k2s_error(m, i,
                  "an integer becomes a pointer; logical mode cannot tell what it "
                  "points to (use --pointers=physical on vulkan1.2+)");
        return false;
      }
      return true;
    }
    pval r = moved(c, b, lin_const(0), pointee);
    r.hint = b->hint ? b->hint : b->pointee;
    set_pv(c, i->result, r);
    return true;
  }
  case SpvOpGenericCastToPtrExplicit: {
    pval *b = pv_of(c, i->ops[0]);
    if (!b)
      return true;
    enum space want = space_of_sc(i->ops[1]);
    pval r = moved(c, b, lin_const(0), pointee);
    uint32_t w = 0;
    bool any_null = false;
    for (uint32_t k = 0; k < r.n; k++) {
      if (space_of_root(c, r.a[k].root) == want)
        r.a[w++] = r.a[k];
      else
        any_null = true;
    }
    if (any_null && (!w || r.a[0].root != 0)) {
      /* The null alternative goes first (root 0). */
      for (uint32_t k = w; k > 0; k--)
        r.a[k] = r.a[k - 1];
      r.a[0] = (alt){0, lin_const(0)};
      w++;
    }
    r.n = w;
    if (w > 1 && !r.tag) {
      k2s_error(m, i,
                "to_global/to_local/to_private on a pointer whose address space is known "
                "only at run time is not supported yet");
      return false;
    }
    set_pv(c, i->result, r);
    return true;
  }
  case SpvOpConstantNull:
  case SpvOpUndef: set_pv(c, i->result, single(c, 0, lin_const(0), pointee)); return true;
  case SpvOpPhi: {
    uint32_t in[256], n = 0;
    for (uint32_t k = 0; k + 1 < i->n_ops && n < 256; k += 2)
      in[n++] = i->ops[k];
    merge_pval(c, i, in, n);
    return true;
  }
  case SpvOpSelect: merge_pval(c, i, i->ops + 1, 2); return true;
  case SpvOpConvertUToPtr: {
    taint *t = i->ops[0] < c->cap ? &c->tn[i->ops[0]] : NULL;
    if (t && t->k == 1 && t->narrow) {
      k2s_error(m, i,
                "an address cut to fewer bits than a pointer becomes a pointer again; "
                "logical mode cannot tell what it points to (use --pointers=physical on "
                "vulkan1.2+)");
      return false;
    }
    if (!t || t->bad || t->k != 1 || !t->root || t->multi) {
      k2s_error(m, i,
                "an integer becomes a pointer; logical mode can only turn back addresses "
                "it took from one pointer (use --pointers=physical on vulkan1.2+)");
      return false;
    }
    aux *x = aux_of(c, i->result, 1);
    uint32_t w = k2s_type_width(m, k2s_type_of(m, i->ops[0]));
    set_pv(c, i->result, single(c, t->root, lin_term(c, aux_id(c, x, t->root, w), 1), pointee));
    return true;
  }
  case SpvOpFunctionParameter:
  case SpvOpFunctionCall: return true; /* reported at its use */
  default: return true;
  }
}

/* ---- analysis: integers holding addresses ------------------------------- */

static taint taint_of(ptr_ctx *c, uint32_t id)
{
  return id < c->cap ? c->tn[id] : (taint){0};
}

static void set_taint(ptr_ctx *c, uint32_t id, taint t)
{
  taint o = c->tn[id];
  if (o.root != t.root || o.k != t.k || o.bad != t.bad || o.multi != t.multi)
    c->iter_changed = true;
  c->tn[id] = t;
}

static bool tainted(ptr_ctx *c, uint32_t id)
{
  taint t = taint_of(c, id);
  return t.bad || t.k != 0;
}

/* Forward propagation of pseudo-address multiplicities through integer code. */
static void analyze_taint(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  if (!i->result || i->result >= c->cap)
    return;
  if (i->opcode == SpvOpConvertPtrToU) {
    pval *p = pv_of(c, i->ops[0]);
    taint t = {0, 1, false, p && p->n > 1, UINT32_MAX, k2s_type_width(m, i->type) < c->addr_width};
    for (uint32_t k = 0; p && k < p->n; k++)
      if (p->a[k].root) {
        if (!t.root)
          t.root = p->a[k].root;
        if (c->roots[p->a[k].root].align < t.align)
          t.align = c->roots[p->a[k].root].align;
      }
    if (t.root)
      set_taint(c, i->result, t);
    return;
  }
  bool any = false;
  if (i->opcode == SpvOpPhi) {
    for (uint32_t k = 0; k < i->n_ops; k += 2)
      any |= tainted(c, i->ops[k]);
  } else {
    uint32_t first = i->opcode == SpvOpSelect ? 1 : 0;
    for (uint32_t k = first; k < i->n_ops && k < first + 2; k++)
      any |= tainted(c, i->ops[k]);
  }
  if (!any || is_pointer_type(m, i->type))
    return;
  taint a = taint_of(c, i->opcode == SpvOpSelect ? i->ops[1] : i->ops[0]);
  taint b2 =
      i->n_ops > 1 ? taint_of(c, i->opcode == SpvOpSelect ? i->ops[2] : i->ops[1]) : (taint){0};
  taint r = {a.root ? a.root : b2.root,
             0,
             a.bad || b2.bad,
             a.multi || b2.multi,
             a.align < b2.align ? a.align : b2.align,
             a.narrow || b2.narrow};
  if (!a.k && !a.bad)
    r.align = b2.align;
  else if (!b2.k && !b2.bad)
    r.align = a.align;
  if (a.root && b2.root && a.root != b2.root && a.k && b2.k)
    r.bad = true;
  int64_t k;
  switch (i->opcode) {
  case SpvOpIAdd: r.k = a.k + b2.k; break;
  case SpvOpISub: r.k = a.k - b2.k; break;
  case SpvOpIMul:
    if (const_sval(m, i->ops[1], &k))
      r.k = a.k * k;
    else if (const_sval(m, i->ops[0], &k))
      r.k = b2.k * k;
    else
      r.bad = true;
    break;
  case SpvOpUConvert:
  case SpvOpSConvert:
    r = a;
    r.narrow |= k2s_type_width(m, i->type) < c->addr_width;
    break;
  case SpvOpBitcast:
  case SpvOpCopyObject: r = a; break;
  case SpvOpBitwiseAnd: {
    uint64_t mask;
    uint32_t w = k2s_type_width(m, i->type);
    uint64_t all = w >= 64 ? ~0ull : (1ull << w) - 1;
    uint32_t other = tainted(c, i->ops[0]) ? i->ops[1] : i->ops[0];
    r.k = tainted(c, i->ops[0]) ? a.k : b2.k;
    if (tainted(c, i->ops[0]) && tainted(c, i->ops[1]))
      r.bad = true;
    else if (k2s_const_value(m, other, &mask)) {
      uint32_t al = r.align;
      if ((mask & all) < al)
        r.k = 0; /* only bits below the base's alignment: the exact value */
      else if ((~mask & all) >= al)
        r.bad = true;
    } else {
      r.bad = true;
    }
    break;
  }
  case SpvOpPhi: {
    taint first_t = {0};
    bool set = false;
    for (uint32_t j = 0; j + 1 < i->n_ops; j += 2) {
      taint t = taint_of(c, i->ops[j]);
      if (!set) {
        first_t = t;
        set = true;
      } else if (t.k != first_t.k || (t.k && t.root != first_t.root) || t.bad) {
        first_t.bad = true;
      }
      first_t.narrow |= t.narrow;
    }
    r = first_t;
    break;
  }
  case SpvOpSelect:
    if (a.k != b2.k || (a.k && a.root != b2.root))
      r.bad = true;
    r.k = a.k;
    break;
  default: return; /* uses are checked in check_taint_use() */
  }
  if (r.k == 0 && !r.bad)
    r = (taint){0};
  set_taint(c, i->result, r);
}

/* The integer comparisons, an address's one use besides arithmetic. Typed, not
 * from the grammar: its class Relational_and_Logical also holds the float
 * comparisons, the logical operators and OpIsNan & co., and it knows no operand
 * types. */
static bool is_comparison(uint16_t op)
{
  switch (op) {
  case SpvOpIEqual:
  case SpvOpINotEqual:
  case SpvOpULessThan:
  case SpvOpULessThanEqual:
  case SpvOpUGreaterThan:
  case SpvOpUGreaterThanEqual:
  case SpvOpSLessThan:
  case SpvOpSLessThanEqual:
  case SpvOpSGreaterThan:
  case SpvOpSGreaterThanEqual: return true;
  default: return false;
  }
}

/* The instructions an address taken from a pointer may reach: those whose result
 * analyze_taint computes (the cases of its switch: the arithmetic whose effect on
 * an address this pass models, a rule of the pass, not a grammar fact) and those
 * that consume one (comparisons, OpConvertUToPtr). Keep it in step with
 * analyze_taint. */
static bool propagates_taint(uint16_t op)
{
  switch (op) {
  case SpvOpIAdd:
  case SpvOpISub:
  case SpvOpIMul:
  case SpvOpUConvert:
  case SpvOpSConvert:
  case SpvOpBitcast:
  case SpvOpCopyObject:
  case SpvOpBitwiseAnd:
  case SpvOpPhi:
  case SpvOpSelect:
  case SpvOpConvertUToPtr: return true;
  default: return is_comparison(op);
  }
}

typedef struct use_check {
  ptr_ctx *c;
  k2s_instr *bad_ptr, *bad_int;
} use_check;

/* The instructions a pointer value flows through unchanged in kind: merges and
 * copies (the grammar's pointer operands do not name them: their operands may be
 * anything). */
static bool passes_pointer(uint16_t op)
{
  return op == SpvOpBitcast || op == SpvOpCopyObject || op == SpvOpPhi || op == SpvOpSelect;
}

/* Whether the pointer result of opcode op is derived from a pointer operand: the
 * merges and copies, the access chains, and the pointer casts (the grammar's
 * Conversion class with a memory operand). */
static bool derives_pointer(uint16_t op)
{
  return passes_pointer(op) || k2s_is_access_chain(op) ||
         (k2s_opcode_class(op) == K2S_CLASS_CONVERSION && k2s_pointer_operands(op));
}

/* Whether this pass rewrites an instruction of opcode op that uses a pointer
 * value: the ones a pointer flows through (casts, copies, merges; builtins'
 * pointer operands, checked per set) and those with memory operands (the
 * grammar's, k2s_pointer_operands) of the Memory, Atomic and Conversion
 * classes and the lifetime markers, bar the two Shader-only Memory opcodes.
 * Other memory operands (OpSizeOf, pipes, block reads; async copies, lowered
 * before) have no logical-mode translation: the use check refuses them. */
static bool handles_pointer_operands(uint16_t op)
{
  if (passes_pointer(op))
    return true;
  switch (op) {
  case SpvOpExtInst: return true;
  case SpvOpArrayLength:
  case SpvOpImageTexelPointer: return false;
  default: break;
  }
  switch (k2s_opcode_class(op)) {
  case K2S_CLASS_MEMORY:
  case K2S_CLASS_ATOMIC:
  case K2S_CLASS_CONVERSION: return k2s_pointer_operands(op) != 0;
  default: return op == SpvOpLifetimeStart || op == SpvOpLifetimeStop;
  }
}

static void check_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  use_check *u = ud;
  ptr_ctx *c = u->c;
  if (*id >= c->cap)
    return;
  if (in->opcode != SpvOpLifetimeStart && in->opcode != SpvOpLifetimeStop)
    c->n_uses[*id]++;
  if (c->pv[*id].known && !handles_pointer_operands(in->opcode) && !u->bad_ptr)
    u->bad_ptr = in;
  taint t = c->tn[*id];
  if ((t.k || t.bad) && !propagates_taint(in->opcode) && !u->bad_int)
    u->bad_int = in;
}

/* ---- vloadn / vstoren ----------------------------------------------------- */

/* vloadn(offset, p, n) / vstoren(data, offset, p): n elements at p + offset·n.
 * The builtins pass lowers them through a typed access chain; when the
 * pointer's root was re-typed as words or is chosen at run time, this pass
 * expands them itself, element by element (vloadn only needs element
 * alignment, so no vector-wide typed access is assumed). */
typedef struct vmem {
  bool is_store;
  uint32_t ptr, offset, data, n, elem; /* elem: the scalar type */
} vmem;

static bool vmem_of(ptr_ctx *c, k2s_instr *i, vmem *v)
{
  k2s_module *m = c->m;
  if (i->opcode != SpvOpExtInst || i->n_ops < 5 || i->ops[0] >= m->id_cap ||
      m->ext_set[i->ops[0]] != K2S_EXT_OPENCL_STD)
    return false;
  if (i->ops[1] == K2S_OPENCL_STD_vloadn) {
    *v = (vmem){
        false, i->ops[3], i->ops[2], 0, k2s_vector_size(m, i->type), k2s_scalar_type(m, i->type)};
    return true;
  }
  if (i->ops[1] == K2S_OPENCL_STD_vstoren) {
    uint32_t dt = k2s_type_of(m, i->ops[2]);
    *v = (vmem){
        true, i->ops[4], i->ops[3], i->ops[2], k2s_vector_size(m, dt), k2s_scalar_type(m, dt)};
    return true;
  }
  return false;
}

static lin vmem_offset(ptr_ctx *c, const vmem *v, lin base, uint32_t lane)
{
  int64_t es = (int64_t)cl_size(c->m, v->elem);
  lin o = lin_add(c, base, lin_of_index(c, v->offset, es * v->n, 0), 1);
  return lin_add(c, o, lin_const(es * lane), 1);
}

typedef struct vmem_ud {
  const vmem *v;
  const k2s_instr *at;
} vmem_ud;

static uint32_t do_vmem(ptr_ctx *c, k2s_builder *b, root *r, lin off, void *ud)
{
  vmem_ud *u = ud;
  const vmem *v = u->v;
  k2s_module *m = c->m;
  uint32_t parts[16];
  for (uint32_t k = 0; k < v->n && k < 16; k++) {
    lin o = vmem_offset(c, v, off, k);
    if (v->is_store) {
      uint32_t ex[2] = {v->data, k};
      uint32_t x = v->n == 1 ? v->data : k2s_emit(b, SpvOpCompositeExtract, v->elem, ex, 2);
      if (!store_at(c, b, r, o, v->elem, x, u->at))
        return 0;
    } else {
      parts[k] = load_at(c, b, r, o, v->elem, u->at);
      if (!parts[k])
        return 0;
    }
  }
  if (v->is_store)
    return 0;
  uint32_t vt = v->n == 1 ? v->elem : k2s_type_vector(m, v->elem, v->n);
  return v->n == 1 ? parts[0] : k2s_emit(b, SpvOpCompositeConstruct, vt, parts, v->n);
}

/* ---- analysis: accesses ------------------------------------------------------ */

static void mark_punned(ptr_ctx *c, uint32_t r, const k2s_instr *why)
{
  if (!c->roots[r].punned) {
    c->roots[r].punned = true;
    c->roots[r].pun_why = why;
  }
}

static void plan_access(ptr_ctx *c, const pval *p, uint32_t A, const k2s_instr *at)
{
  for (uint32_t k = 0; k < p->n; k++) {
    uint32_t r = p->a[k].root;
    if (!r)
      continue;
    uint32_t budget = MAX_LEAVES;
    if (!plan_typed(c, &c->roots[r], p->a[k].off, A, &budget))
      mark_punned(c, r, at);
  }
}

static bool dynamic_copy(ptr_ctx *c, k2s_instr *i)
{
  int64_t size;
  return i->opcode == SpvOpCopyMemorySized && i->n_ops >= 3 && !const_sval(c->m, i->ops[2], &size);
}

/* A copy into an array of 64-bit scalars (clang -O2 turns `l[0] = 0; l[1] = 0;`
 * into a memcpy from a byte constant) goes by those elements, so that the
 * array stays typed: a 32-bit word view could not hold its 64-bit atomics. */
static uint32_t wide_elements(ptr_ctx *c, const pval *dst, int64_t size)
{
  k2s_module *m = c->m;
  if (dst->n != 1 || !dst->a[0].root)
    return 0;
  k2s_instr *t = def_type(m, c->roots[dst->a[0].root].type);
  while (t && (t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeRuntimeArray))
    t = def_type(m, t->ops[0]);
  if (!t || (t->opcode != SpvOpTypeInt && t->opcode != SpvOpTypeFloat) || t->ops[0] != 64 ||
      size % 8 != 0 || !lin_divisible(dst->a[0].off, 8))
    return 0;
  return k2s_type_array(m, t->result, k2s_const_uint32(m, (uint32_t)(size / 8)));
}

static uint32_t copy_type(ptr_ctx *c, k2s_instr *i, const pval *dst, const pval *src)
{
  k2s_module *m = c->m;
  int64_t size;
  if (i->opcode == SpvOpCopyMemory) {
    size = (int64_t)cl_size(m, dst->pointee);
    if (!k2s_cl_has_padding(m, dst->pointee) || size <= 0)
      return dst->pointee;
  } else if (!const_sval(m, i->ops[2], &size) || size <= 0) {
    k2s_error(m, i,
              "a memory copy whose size is known only at run time is not supported in "
              "logical mode");
    return 0;
  }
  /* A type with padding would copy its members only; memcpy copies every byte
   * (PoCL does, and the host may read them), so such a copy goes by words or
   * bytes, which re-types the struct roots it touches as words. */
  uint32_t wide = wide_elements(c, dst, size);
  if (wide)
    return wide;
  uint32_t hints[4] = {dst->hint, src->hint, dst->pointee, src->pointee};
  for (int k = 0; k < 4; k++)
    if (hints[k] && cl_size(m, hints[k]) == (uint64_t)size && !k2s_cl_has_padding(m, hints[k]))
      return hints[k];
  bool words = size % 4 == 0;
  for (uint32_t k = 0; k < dst->n && words; k++)
    words = lin_divisible(dst->a[k].off, 4);
  for (uint32_t k = 0; k < src->n && words; k++)
    words = lin_divisible(src->a[k].off, 4);
  uint32_t e = words ? word_type(m) : k2s_type_int(m, 8, false);
  return k2s_type_array(m, e, k2s_const_uint32(m, (uint32_t)(words ? size / 4 : size)));
}

static void mark_written(ptr_ctx *c, const pval *p, const k2s_instr *at)
{
  for (uint32_t k = 0; p && k < p->n; k++)
    if (p->a[k].root && !c->roots[p->a[k].root].written) {
      c->roots[p->a[k].root].written = true;
      c->roots[p->a[k].root].write_why = at;
    }
}

static bool analyze_use(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  switch (i->opcode) {
  case SpvOpLoad:
  case SpvOpStore: {
    pval *p = pv_of(c, i->ops[0]);
    if (!p)
      return true;
    if (i->opcode == SpvOpStore && pv_of(c, i->ops[1])) {
      k2s_error(m, i,
                "a pointer is stored in memory; logical mode cannot express that (use "
                "--pointers=physical on vulkan1.2+)");
      return false;
    }
    if (i->opcode == SpvOpStore)
      mark_written(c, p, i);
    plan_access(c, p, p->pointee, i);
    return true;
  }
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized: {
    pval *d = pv_of(c, i->ops[0]), *s = pv_of(c, i->ops[1]);
    if (!d || !s)
      return true;
    if (dynamic_copy(c, i)) {
      /* A byte loop: each side is accessed as bytes at a run-time offset. */
      mark_written(c, d, i);
      const pval *ps[2] = {d, s};
      for (int k = 0; k < 2; k++) {
        if (ps[k]->n != 1 || !ps[k]->a[0].root) {
          k2s_error(m, i,
                    "a memory copy with a run-time size through a pointer whose object "
                    "is known only at run time is not supported in logical mode");
          return false;
        }
        uint32_t budget = MAX_LEAVES;
        lin o = lin_add(c, ps[k]->a[0].off, lin_term(c, i->ops[2], 1), 1);
        if (!plan_typed(c, &c->roots[ps[k]->a[0].root], o, k2s_type_int(m, 8, false), &budget))
          mark_punned(c, ps[k]->a[0].root, i);
      }
      return true;
    }
    uint32_t A = copy_type(c, i, d, s);
    if (!A)
      return false;
    mark_written(c, d, i);
    plan_access(c, d, A, i);
    plan_access(c, s, A, i);
    return true;
  }
  case SpvOpExtInst: {
    vmem v;
    if (vmem_of(c, i, &v)) {
      pval *p = pv_of(c, v.ptr);
      if (!p)
        return true;
      if (v.is_store)
        mark_written(c, p, i);
      for (uint32_t j = 0; j < p->n; j++)
        for (uint32_t k = 0; k < v.n && p->a[j].root; k++) {
          uint32_t budget = MAX_LEAVES;
          if (!plan_typed(c, &c->roots[p->a[j].root], vmem_offset(c, &v, p->a[j].off, k), v.elem,
                          &budget))
            mark_punned(c, p->a[j].root, i);
        }
      return true;
    }
    for (uint32_t k = 2; k < i->n_ops; k++) {
      pval *p = pv_of(c, i->ops[k]);
      for (uint32_t j = 0; p && j < p->n; j++)
        if (p->a[j].root) {
          c->roots[p->a[j].root].needs_typed = true;
          c->roots[p->a[j].root].typed_why = i;
          mark_written(c, p, i);
        }
    }
    return true;
  }
  default:
    if (k2s_is_atomic(i->opcode)) {
      pval *p = pv_of(c, i->ops[0]);
      if (!p)
        return true;
      mark_written(c, p, i);
      /* An atomic needs its own type at that place (atomic_cmpxchg on an int*
       * over float data: the root goes to words, where 32-bit atomics work). */
      for (uint32_t k = 0; k < p->n; k++) {
        tpath path;
        uint32_t r = p->a[k].root;
        if (r && (!typed_path(c, c->roots[r].type, p->a[k].off, p->pointee, &path) ||
                  path.found != p->pointee))
          mark_punned(c, r, i);
      }
    }
    return true;
  }
}

/* ---- rewriting ----------------------------------------------------------- */

static void kill(ptr_ctx *c, k2s_instr *i)
{
  if (c->n_dead == c->cap_dead) {
    uint32_t cap = c->cap_dead ? c->cap_dead * 2 : 64;
    c->dead = k2s_realloc_array(&c->m->arena, c->dead, c->n_dead, cap, sizeof(k2s_instr *));
    c->cap_dead = cap;
  }
  c->dead[c->n_dead++] = i;
}

/* Give value v the result id of `old` (which is going away). */
static void take_result(ptr_ctx *c, k2s_builder *b, k2s_instr *old, uint32_t v)
{
  k2s_module *m = c->m;
  uint32_t id = old->result;
  old->result = 0;
  k2s_instr *d = k2s_def(m, v);
  if (d && d->offset == K2S_NEW_OFFSET && d->block && d->result == v && d->type == old->type) {
    m->def[v] = NULL;
    d->result = id;
    k2s_set_def(m, id, d);
    return;
  }
  k2s_instr *cp = k2s_emit_instr(b, SpvOpCopyObject, old->type, &v, 1);
  m->def[cp->result] = NULL;
  cp->result = id;
  k2s_set_def(m, id, cp);
}

/* Move everything after `at` in its block into a new block that follows. */
static k2s_block *split_after(ptr_ctx *c, k2s_instr *at)
{
  return k2s_split_block(c->m, at->next, new_id(c));
}

typedef uint32_t (*alt_fn)(ptr_ctx *c, k2s_builder *b, root *r, lin off, void *ud);

/* Run fn for the alternative the pointer has at run time: a switch on the
 * tag with one block per alternative, joined by a phi of fn's results. */
static uint32_t dispatch(ptr_ctx *c, k2s_instr *at, const pval *p, uint32_t result_type, alt_fn fn,
                         void *ud)
{
  k2s_module *m = c->m;
  if (p->n == 1 || !p->tag) {
    if (!p->a[0].root) {
      /* The pointer can only be null here: the access is undefined behaviour
       * where it runs, and is typically on a path that never runs (clang
       * -O2 folds `p = cond ? buf : NULL; if (cond) *p` only so far). A load
       * reads zero (not OpUndef: no poison spreads from it), a store or an
       * atomic does nothing. */
      k2s_warn(m, at,
               "this access goes through a null pointer (undefined behaviour if it runs): a "
               "load gives zero, a store or atomic does nothing");
      return result_type ? k2s_const_null(m, result_type) : 1;
    }
    k2s_builder b = {m, k2s_before(at)};
    return fn(c, &b, &c->roots[p->a[0].root], p->a[0].off, ud);
  }
  k2s_block *head = at->block;
  k2s_builder b = {m, k2s_before(at)};
  /* Make `at` the first instruction of the join block. */
  k2s_instr *prev = at->prev;
  k2s_block *join;
  if (prev) {
    join = split_after(c, prev);
  } else {
    k2s_instr *nop = k2s_emit_instr(&b, SpvOpNop, 0, NULL, 0);
    join = split_after(c, nop);
    k2s_instr_delete(m, nop);
  }
  uint32_t *cases = k2s_alloc(&m->arena, (2 * p->n + 2) * sizeof(uint32_t));
  uint32_t *phi = k2s_alloc(&m->arena, (2 * p->n + 2) * sizeof(uint32_t));
  uint32_t n_cases = 0, n_phi = 0, deflt = 0;
  k2s_block *pos = head;
  for (uint32_t k = 0; k < p->n; k++) {
    if (!p->a[k].root)
      continue; /* null: undefined behaviour; taken by the default below */
    k2s_block *blk = k2s_block_new(m, head->func, new_id(c));
    k2s_function_insert_block_after(head->func, pos, blk);
    pos = blk;
    k2s_builder bb = {m, k2s_block_append(blk)};
    uint32_t v = fn(c, &bb, &c->roots[p->a[k].root], p->a[k].off, ud);
    if (m->failed)
      return 0;
    uint32_t jl = join->label->result;
    k2s_emit(&bb, SpvOpBranch, 0, &jl, 1);
    if (!deflt)
      deflt = blk->label->result;
    else {
      cases[2 * n_cases] = p->a[k].root;
      cases[2 * n_cases + 1] = blk->label->result;
      n_cases++;
    }
    if (result_type) {
      phi[2 * n_phi] = v;
      phi[2 * n_phi + 1] = blk->label->result;
      n_phi++;
    }
  }
  k2s_builder hb = {m, k2s_block_append(head)};
  uint32_t *sw = k2s_alloc(&m->arena, (2 + 2 * n_cases) * sizeof(uint32_t));
  sw[0] = p->tag;
  sw[1] = deflt;
  memcpy(sw + 2, cases, 2 * n_cases * sizeof(uint32_t));
  k2s_emit(&hb, SpvOpSwitch, 0, sw, 2 + 2 * n_cases);
  if (!result_type)
    return 0;
  k2s_builder jb = {m, k2s_block_start(join)};
  jb.cursor = (k2s_cursor){K2S_CURSOR_BEFORE, join->body.first, join};
  return k2s_emit(&jb, SpvOpPhi, result_type, phi, 2 * n_phi);
}

typedef struct access_ud {
  uint32_t type, value;
  const k2s_instr *at;
} access_ud;

static uint32_t do_load(ptr_ctx *c, k2s_builder *b, root *r, lin off, void *ud)
{
  access_ud *a = ud;
  return load_at(c, b, r, off, a->type, a->at);
}

static uint32_t do_store(ptr_ctx *c, k2s_builder *b, root *r, lin off, void *ud)
{
  access_ud *a = ud;
  store_at(c, b, r, off, a->type, a->value, a->at);
  return 0;
}

static bool check_root_retypable(ptr_ctx *c, root *r)
{
  k2s_module *m = c->m;
  k2s_instr *v = k2s_def(m, r->var);
  if (r->needs_typed) {
    k2s_error(m, r->typed_why,
              "this builtin needs a typed pointer into memory that the kernel also accesses as "
              "other types (first at: %s); logical mode cannot give it one",
              k2s_print_instr(m, r->pun_why));
    return false;
  }
  if (r->sc != SpvStorageClassStorageBuffer && r->sc != SpvStorageClassWorkgroup &&
      r->sc != SpvStorageClassFunction && r->sc != SpvStorageClassPrivate) {
    k2s_error(m, r->pun_why,
              "memory in storage class %s is accessed as several types (%s); logical mode can "
              "only re-type storage buffers and workgroup/private memory",
              k2s_enumerant_name(K2S_OK_STORAGE_CLASS, r->sc), k2s_print_instr(m, v));
    return false;
  }
  return true;
}

/* Bytes of a constant in OpenCL layout (false for what it cannot encode). */
static bool const_bytes(k2s_module *m, uint32_t id, uint8_t *out, uint64_t size)
{
  k2s_instr *d = k2s_def(m, id);
  if (!d)
    return false;
  if (d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef) {
    memset(out, 0, size);
    return true;
  }
  k2s_instr *t = def_type(m, d->type);
  if (d->opcode == SpvOpConstant) {
    uint64_t s = cl_size(m, d->type),
             v = d->ops[0] | (d->n_ops > 1 ? (uint64_t)d->ops[1] << 32 : 0);
    for (uint64_t k = 0; k < s && k < size && k < 8; k++)
      out[k] = (uint8_t)(v >> (8 * k));
    return true;
  }
  if (d->opcode == SpvOpConstantTrue || d->opcode == SpvOpConstantFalse) {
    out[0] = d->opcode == SpvOpConstantTrue;
    return true;
  }
  if (d->opcode != SpvOpConstantComposite || !t)
    return false;
  memset(out, 0, size);
  for (uint32_t k = 0; k < d->n_ops; k++) {
    int64_t off = 0;
    uint32_t ct = child(m, d->type, k, &off);
    uint64_t cs = cl_size(m, ct);
    if ((uint64_t)off + cs > size || !const_bytes(m, d->ops[k], out + off, cs))
      return false;
  }
  return true;
}

/* A punned root becomes an array of 32-bit words (in a Block for buffers). */
static bool retype_root(ptr_ctx *c, root *r)
{
  k2s_module *m = c->m;
  k2s_instr *v = k2s_def(m, r->var);
  uint32_t u32 = word_type(m);
  if (!check_root_retypable(c, r))
    return false;
  uint32_t nt;
  if (r->sc == SpvStorageClassStorageBuffer) {
    uint32_t arr = k2s_type_runtime_array(m, u32);
    if (!k2s_find_decoration(m, arr, SpvDecorationArrayStride)) {
      uint32_t four = 4;
      k2s_decorate(m, arr, SpvDecorationArrayStride, &four, 1);
    }
    nt = k2s_type_struct(m, &arr, 1);
    uint32_t zero = 0;
    k2s_decorate(m, nt, SpvDecorationBlock, NULL, 0);
    k2s_member_decorate(m, nt, 0, SpvDecorationOffset, &zero, 1);
  } else {
    k2s_instr *t = def_type(m, r->type);
    uint64_t size = cl_size(m, r->type), len;
    uint32_t len_id;
    if (size) {
      len_id = k2s_const_uint32(m, (uint32_t)((size + 3) / 4));
    } else if (t && t->opcode == SpvOpTypeArray && !k2s_const_value(m, t->ops[1], &len)) {
      /* A local argument sized by a spec constant: (n·size + 3) / 4 words. */
      uint64_t es = cl_size(m, t->ops[0]);
      uint32_t mul[3] = {SpvOpIMul, t->ops[1], k2s_const_uint32(m, (uint32_t)es)};
      uint32_t bytes = k2s_intern(m, SpvOpSpecConstantOp, u32, mul, 3);
      uint32_t add[3] = {SpvOpIAdd, bytes, k2s_const_uint32(m, 3)};
      uint32_t up = k2s_intern(m, SpvOpSpecConstantOp, u32, add, 3);
      uint32_t dv[3] = {SpvOpUDiv, up, k2s_const_uint32(m, 4)};
      len_id = k2s_intern(m, SpvOpSpecConstantOp, u32, dv, 3);
    } else {
      k2s_error(m, v, "cannot re-type %s as words: its size is unknown", type_text(m, r->type));
      return false;
    }
    nt = k2s_type_array(m, u32, len_id);
    if (v->n_ops >= 2) {
      /* The initializer, re-encoded as words. */
      uint64_t n = (size + 3) / 4;
      uint8_t *bytes = k2s_alloc(&m->arena, n * 4 + 8);
      if (!const_bytes(m, v->ops[1], bytes, size)) {
        k2s_error(m, v, "cannot re-encode this variable's initializer as words");
        return false;
      }
      uint32_t *words = k2s_alloc(&m->arena, n * sizeof(uint32_t));
      for (uint64_t k = 0; k < n; k++)
        words[k] = k2s_const_uint32(m, (uint32_t)bytes[4 * k] | (uint32_t)bytes[4 * k + 1] << 8 |
                                           (uint32_t)bytes[4 * k + 2] << 16 |
                                           (uint32_t)bytes[4 * k + 3] << 24);
      uint32_t init = k2s_const_composite(m, nt, words, (uint32_t)n);
      k2s_instr_set_op(m, v, 1, init);
    }
  }
  k2s_instr_set_type(m, v, k2s_type_pointer(m, r->sc, nt));
  r->type = nt;
  if (!v->block) {
    /* The new types went to the end of the globals: follow them. */
    k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
  }
  return true;
}

static uint32_t idx_width(ptr_ctx *c, const aux *x, uint32_t r)
{
  (void)x;
  return root_index_width(c, &c->roots[r]);
}

/* Offset (in units of x->g) of alternative root r of pointer p, or 0. */
static uint32_t alt_offset_value(ptr_ctx *c, k2s_builder *b, const pval *p, uint32_t r, int64_t g,
                                 uint32_t width)
{
  const alt *a = alt_of(p, r);
  if (!a)
    return cint(c->m, width, 0);
  return materialize_div(c, b, a->off, g, width);
}

static uint32_t tag_value(ptr_ctx *c, const pval *p)
{
  if (!p || !p->n)
    return k2s_const_uint32(c->m, 0);
  if (p->tag)
    return p->tag;
  return k2s_const_uint32(c->m, p->a[0].root);
}

static k2s_instr *define(ptr_ctx *c, k2s_builder *b, uint16_t op, uint32_t type, uint32_t id,
                         const uint32_t *ops, uint32_t n)
{
  k2s_instr *i = k2s_instr_new(c->m, op, type, id, ops, n);
  (void)b;
  return i;
}

static void insert_phi(k2s_block *blk, k2s_instr *i)
{
  i->block = blk;
  k2s_list_insert_after(&blk->body, NULL, i);
}

static bool aux_used(const pval *me, const aux *x, uint32_t k)
{
  const alt *a = alt_of(me, x->roots[k]);
  return a && lin_uses(a->off, x->ids[k]);
}

static bool rewrite_merge(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  aux *x = c->ax[i->result];
  pval *me = pv_of(c, i->result);
  if (!x || !me)
    return true;
  uint32_t u32 = word_type(m);
  if (i->opcode == SpvOpSelect) {
    k2s_builder b = {m, k2s_before(i)};
    pval *pa = pv_of(c, i->ops[1]), *pb = pv_of(c, i->ops[2]);
    for (uint32_t k = 0; k < x->n; k++) {
      if (!aux_used(me, x, k))
        continue;
      uint32_t w = idx_width(c, x, x->roots[k]), t = k2s_type_int(m, w, false);
      uint32_t ops[3] = {i->ops[0], alt_offset_value(c, &b, pa, x->roots[k], x->g, w),
                         alt_offset_value(c, &b, pb, x->roots[k], x->g, w)};
      k2s_instr *s = define(c, &b, SpvOpSelect, t, x->ids[k], ops, 3);
      k2s_list_insert_before(&i->block->body, i, s);
      s->block = i->block;
    }
    if (x->tag) {
      uint32_t ops[3] = {i->ops[0], tag_value(c, pa), tag_value(c, pb)};
      k2s_instr *s = define(c, &b, SpvOpSelect, u32, x->tag, ops, 3);
      k2s_list_insert_before(&i->block->body, i, s);
      s->block = i->block;
    }
    return true;
  }
  /* A phi: each incoming edge computes its offsets at the end of its block. */
  uint32_t n_in = i->n_ops / 2;
  uint32_t **vals = k2s_alloc(&m->arena, (x->n + 1) * sizeof(uint32_t *));
  for (uint32_t k = 0; k <= x->n; k++)
    vals[k] = k2s_alloc(&m->arena, 2 * n_in * sizeof(uint32_t));
  for (uint32_t e = 0; e < n_in; e++) {
    uint32_t label = i->ops[2 * e + 1];
    k2s_block *pred = k2s_block_of_label(m, label);
    pval *pin = pv_of(c, i->ops[2 * e]);
    k2s_builder b = {m, k2s_block_end(pred)};
    for (uint32_t k = 0; k < x->n; k++) {
      uint32_t w = idx_width(c, x, x->roots[k]);
      if (!aux_used(me, x, k))
        continue;
      vals[k][2 * e] = alt_offset_value(c, &b, pin, x->roots[k], x->g, w);
      vals[k][2 * e + 1] = label;
    }
    vals[x->n][2 * e] = tag_value(c, pin);
    vals[x->n][2 * e + 1] = label;
  }
  for (uint32_t k = 0; k < x->n; k++) {
    uint32_t w = idx_width(c, x, x->roots[k]);
    if (!aux_used(me, x, k))
      continue;
    insert_phi(i->block,
               define(c, NULL, SpvOpPhi, k2s_type_int(m, w, false), x->ids[k], vals[k], 2 * n_in));
  }
  if (x->tag)
    insert_phi(i->block, define(c, NULL, SpvOpPhi, u32, x->tag, vals[x->n], 2 * n_in));
  return true;
}

/* The pseudo-address base of root r: r·2^32 (r·2^24 with 32-bit addresses),
 * cut to `width` bits like the address itself, so that `(uint)p` and
 * `(uint)(ulong)p` agree and a 32-bit difference of two addresses of one root
 * is exact on spir64 (a 2^24 base for 32-bit casts made it 0xFF000000 off). */
static uint64_t pseudo_base(ptr_ctx *c, uint32_t r, uint32_t width)
{
  uint64_t full = c->addr_width >= 64 ? (uint64_t)r << 32 : (uint64_t)r << 24;
  return width >= 64 ? full : full & ((1ull << width) - 1);
}

static uint32_t fence_of(enum space s)
{
  switch (s) {
  case SP_LOCAL: return SpvMemorySemanticsWorkgroupMemoryMask;
  case SP_GLOBAL:
  case SP_CONSTANT: return SpvMemorySemanticsCrossWorkgroupMemoryMask;
  default: return 0;
  }
}

static bool pointer_operand_ok(ptr_ctx *c, k2s_instr *i, pval *p)
{
  if (!p->n) {
    k2s_error(c->m, i, "cannot tell which variable or buffer this pointer points into");
    return false;
  }
  return true;
}

/* Buffer arguments are separate descriptors here, and a comparison of addresses in
 * two of them folds to "different objects". OpenCL lets the host pass one buffer
 * (or overlapping sub-buffers) to both, and then they compare equal (or ordered
 * by offset): only physical mode has the addresses. An error, so that
 * --pointers=auto lowers the kernel by physical mode where the target has it
 * (passes/choose_pointer_mode.c). Restrict arguments promise not to alias. */
static bool aliasing_args(ptr_ctx *c, k2s_instr *i, uint32_t ra, uint32_t rb)
{
  if (ra == rb || !ra || !rb || !c->roots[ra].arg_buffer || !c->roots[rb].arg_buffer)
    return false;
  const char *na = k2s_name_of(c->m, c->roots[ra].var), *nb = k2s_name_of(c->m, c->roots[rb].var);
  k2s_error(c->m, i,
            "this compares pointers into two buffer arguments ('%s' and '%s'); the host may "
            "pass one buffer to both, and logical mode cannot tell: it needs physical "
            "pointers (PhysicalStorageBuffer64, --target-env vulkan1.2 or later), or "
            "declare one of them restrict",
            na ? na : "?", nb ? nb : "?");
  return true;
}

static bool rewrite_compare(ptr_ctx *c, k2s_instr *i, pval *a, pval *b2)
{
  k2s_module *m = c->m;
  for (uint32_t k = 0; k < a->n; k++)
    for (uint32_t j = 0; j < b2->n; j++)
      if (aliasing_args(c, i, a->a[k].root, b2->a[j].root))
        return false;
  k2s_builder b = {m, k2s_before(i)};
  bool eq = i->opcode == SpvOpPtrEqual;
  uint32_t bt = k2s_type_bool(m), v = 0;
  /* Equal when both name the same root and, for a real root, the same offset:
   * an OR over the roots they have in common (constants fold for one root). */
  for (uint32_t k = 0; k < a->n; k++) {
    const alt *y = alt_of(b2, a->a[k].root);
    if (!y)
      continue;
    uint32_t r = a->a[k].root, term;
    if (!r) {
      term = k2s_const_bool(m, true);
    } else {
      uint32_t w = root_index_width(c, &c->roots[r]);
      uint32_t x = materialize(c, &b, a->a[k].off, w), z = materialize(c, &b, y->off, w);
      term = op2(&b, SpvOpIEqual, bt, x, z);
    }
    if (a->n > 1)
      term = op2(&b, SpvOpLogicalAnd, bt, term,
                 op2(&b, SpvOpIEqual, bt, a->tag, k2s_const_uint32(m, r)));
    if (b2->n > 1)
      term = op2(&b, SpvOpLogicalAnd, bt, term,
                 op2(&b, SpvOpIEqual, bt, b2->tag, k2s_const_uint32(m, r)));
    v = v ? op2(&b, SpvOpLogicalOr, bt, v, term) : term;
  }
  if (!v)
    v = k2s_const_bool(m, false);
  if (!eq)
    v = k2s_emit(&b, SpvOpLogicalNot, bt, &v, 1);
  take_result(c, &b, i, v);
  kill(c, i);
  return true;
}

/* The pointer an atomic of type A at `off` of root r uses: typed, or a word of
 * a re-typed root. 0 after an error. */
static uint32_t atomic_ptr(ptr_ctx *c, k2s_builder *b, root *r, lin off, uint32_t A,
                           const k2s_instr *at)
{
  k2s_module *m = c->m;
  tpath path;
  if (!r->punned && typed_path(c, r->type, off, A, &path) && path.found == A)
    return emit_chain(c, b, r, &path);
  if (r->punned && A == word_type(m) && lin_divisible(off, 4)) {
    uint32_t widx, sh;
    word_at(c, b, r, off, &widx, &sh);
    return word_ptr(c, b, r, widx);
  }
  /* A 64-bit atomic (long/ulong, or the compare-exchange loop of a double atomic) on a
   * buffer re-typed as words: the 8-byte element of the buffer's aliased 64-bit view. */
  uint32_t view = 0;
  if (r->punned && A == k2s_type_int(m, 64, false) && lin_divisible(off, 8))
    view = narrow_view(c, r, 8);
  if (view) {
    uint32_t ops[3] = {view, k2s_const_uint32(m, 0),
                       materialize_div(c, b, off, 8, lin_width(c, off, 32))};
    return k2s_emit(b, SpvOpAccessChain, k2s_type_pointer(m, r->sc, A), ops, 3);
  }
  if (r->punned && k2s_type_width(m, A) == 64)
    k2s_error(m, at,
              "a 64-bit atomic on memory accessed with several layouts (re-typed as 32-bit "
              "words): %s",
              r->sc != SpvStorageClassStorageBuffer
                  ? "only a buffer has a 64-bit view of such memory, not local or private "
                    "memory (access it with one layout)"
                  : "the buffer's 64-bit view needs an offset known to be a multiple of 8 "
                    "(physical pointers, vulkan1.2+, have no such limit)");
  else
    k2s_error(m, at, "an atomic on %s at a place the memory does not hold one",
              type_text(m, A));
  return 0;
}

typedef struct atomic_ud {
  k2s_instr *at;
} atomic_ud;

static uint32_t do_atomic(ptr_ctx *c, k2s_builder *b, root *r, lin off, void *ud)
{
  k2s_instr *i = ((atomic_ud *)ud)->at;
  uint32_t ptr = atomic_ptr(c, b, r, off, pointee_of(c->m, k2s_type_of(c->m, i->ops[0])), i);
  if (!ptr)
    return 0;
  uint32_t *ops = k2s_alloc(&c->m->arena, i->n_ops * sizeof(uint32_t));
  memcpy(ops, i->ops, i->n_ops * sizeof(uint32_t));
  ops[0] = ptr;
  return k2s_emit(b, i->opcode, i->type, ops, i->n_ops);
}

/* memcpy with a run-time size: a byte loop
 *   head: k = phi(0, k + 1); k < n ? body : rest;   body: dst[k] = src[k]. */
static bool copy_loop(ptr_ctx *c, k2s_instr *i, const pval *d, const pval *s)
{
  k2s_module *m = c->m;
  uint32_t n = i->ops[2], w = k2s_type_width(m, k2s_type_of(m, n));
  uint32_t u8 = k2s_type_int(m, 8, false);
  k2s_counted_loop l = k2s_build_counted_loop(m, i->next, cint(m, w, 0), n);
  grow(c, m->bound);
  k2s_builder b = {m, k2s_before(l.step)};
  c->aux_width[l.k] = (uint8_t)w;
  lin step = lin_term(c, l.k, 1);
  uint32_t v = load_at(c, &b, &c->roots[s->a[0].root], lin_add(c, s->a[0].off, step, 1), u8, i);
  if (!v || !store_at(c, &b, &c->roots[d->a[0].root], lin_add(c, d->a[0].off, step, 1), u8, v, i))
    return false;
  kill(c, i);
  c->changed = true;
  return true;
}

static bool rewrite_instr(ptr_ctx *c, k2s_instr *i)
{
  k2s_module *m = c->m;
  switch (i->opcode) {
  case SpvOpLoad:
  case SpvOpStore: {
    pval *p = pv_of(c, i->ops[0]);
    if (!p)
      return true;
    if (!pointer_operand_ok(c, i, p))
      return false;
    bool is_load = i->opcode == SpvOpLoad;
    uint32_t A = p->pointee;
    /* The common case: one root, plain typed access: only the pointer changes. */
    if (p->n == 1 && p->a[0].root && !c->roots[p->a[0].root].punned) {
      const root *r = &c->roots[p->a[0].root];
      tpath path;
      if (typed_path(c, r->type, p->a[0].off, A, &path) && path.found == A) {
        k2s_builder b = {m, k2s_before(i)};
        uint32_t ptr = emit_chain(c, &b, r, &path);
        if (ptr != i->ops[0]) {
          k2s_instr_set_op(m, i, 0, ptr);
          c->changed = true;
        }
        return true;
      }
    }
    c->changed = true;
    access_ud ud = {A, is_load ? 0 : i->ops[1], i};
    uint32_t v = dispatch(c, i, p, is_load ? A : 0, is_load ? do_load : do_store, &ud);
    if (m->failed)
      return false;
    if (is_load) {
      k2s_builder b = {m, k2s_before(i)};
      take_result(c, &b, i, v);
    }
    kill(c, i);
    return true;
  }
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized: {
    pval *d = pv_of(c, i->ops[0]), *s = pv_of(c, i->ops[1]);
    if (!d || !s)
      return true;
    if (!pointer_operand_ok(c, i, d) || !pointer_operand_ok(c, i, s))
      return false;
    if (dynamic_copy(c, i))
      return copy_loop(c, i, d, s);
    uint32_t A = copy_type(c, i, d, s);
    if (!A)
      return false;
    access_ud lu = {A, 0, i};
    uint32_t v = dispatch(c, i, s, A, do_load, &lu);
    if (m->failed)
      return false;
    access_ud su = {A, v, i};
    dispatch(c, i, d, 0, do_store, &su);
    kill(c, i);
    c->changed = true;
    return !m->failed;
  }
  case SpvOpLifetimeStart:
  case SpvOpLifetimeStop:
    kill(c, i);
    c->changed = true;
    return true;
  case SpvOpPtrEqual:
  case SpvOpPtrNotEqual: {
    pval *a = pv_of(c, i->ops[0]), *b2 = pv_of(c, i->ops[1]);
    if (!a || !b2)
      return true;
    c->changed = true;
    return rewrite_compare(c, i, a, b2);
  }
  case SpvOpPtrDiff: {
    pval *a = pv_of(c, i->ops[0]), *b2 = pv_of(c, i->ops[1]);
    if (!a || !b2)
      return true;
    if (a->n != 1 || b2->n != 1 || a->a[0].root != b2->a[0].root || !a->a[0].root) {
      /* SPIR-V leaves OpPtrDiff of pointers into different arrays undefined,
       * yet the CTS (spirv_new spv1.4/ptrops) expects the address difference
       * there: choose_pointer_mode sends such kernels to physical mode where
       * the target has it. */
      k2s_error(m, i,
                "OpPtrDiff of pointers into different objects (or objects chosen at run "
                "time) has no logical-mode translation: it needs physical pointers "
                "(PhysicalStorageBuffer64, --target-env vulkan1.2 or later)");
      return false;
    }
    k2s_builder b = {m, k2s_before(i)};
    uint64_t s = cl_size(m, a->pointee);
    lin d = lin_add(c, a->a[0].off, b2->a[0].off, -1);
    uint32_t w = k2s_type_width(m, i->type);
    take_result(c, &b, i, materialize_div(c, &b, d, s ? (int64_t)s : 1, w));
    kill(c, i);
    c->changed = true;
    return true;
  }
  case SpvOpConvertPtrToU: {
    pval *p = pv_of(c, i->ops[0]);
    if (!p)
      return true;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t w = k2s_type_width(m, i->type), v = 0;
    /* Several roots: the pseudo-address of the one the tag names. */
    for (uint32_t k = 0; k < p->n; k++) {
      uint32_t x = cint(m, w, 0);
      if (p->a[k].root) {
        x = materialize(c, &b, p->a[k].off, w);
        x = op2(&b, SpvOpIAdd, i->type, x, cint(m, w, (int64_t)pseudo_base(c, p->a[k].root, w)));
      }
      if (!v) {
        v = x;
        continue;
      }
      uint32_t is =
          op2(&b, SpvOpIEqual, k2s_type_bool(m), p->tag, k2s_const_uint32(m, p->a[k].root));
      uint32_t ops[3] = {is, x, v};
      v = k2s_emit(&b, SpvOpSelect, i->type, ops, 3);
    }
    take_result(c, &b, i, v);
    kill(c, i);
    c->changed = true;
    return true;
  }
  case SpvOpConvertUToPtr: {
    aux *x = c->ax[i->result];
    pval *p = pv_of(c, i->result);
    if (!x || !p)
      return true;
    uint32_t w = k2s_type_width(m, k2s_type_of(m, i->ops[0]));
    uint32_t ops[2] = {i->ops[0], cint(m, w, (int64_t)pseudo_base(c, x->roots[0], w))};
    k2s_instr *s = k2s_instr_new(m, SpvOpISub, k2s_type_int(m, w, false), x->ids[0], ops, 2);
    k2s_list_insert_before(&i->block->body, i, s);
    s->block = i->block;
    kill(c, i);
    c->changed = true;
    return true;
  }
  case SpvOpGenericPtrMemSemantics: {
    pval *p = pv_of(c, i->ops[0]);
    if (!p)
      return true;
    k2s_builder b = {m, k2s_before(i)};
    uint32_t w = k2s_type_width(m, i->type), v = 0;
    for (uint32_t k = 0; k < p->n; k++) {
      uint32_t x = cint(m, w, fence_of(space_of_root(c, p->a[k].root)));
      if (!v || x == v) {
        v = x;
        continue;
      }
      uint32_t is =
          op2(&b, SpvOpIEqual, k2s_type_bool(m), p->tag, k2s_const_uint32(m, p->a[k].root));
      uint32_t ops[3] = {is, x, v};
      v = k2s_emit(&b, SpvOpSelect, i->type, ops, 3);
    }
    take_result(c, &b, i, v);
    kill(c, i);
    c->changed = true;
    return true;
  }
  case SpvOpExtInst: {
    vmem v;
    pval *vp = vmem_of(c, i, &v) ? pv_of(c, v.ptr) : NULL;
    if (vp && (vp->n != 1 || (vp->a[0].root && c->roots[vp->a[0].root].punned))) {
      vmem_ud ud = {&v, i};
      uint32_t rt = v.is_store ? 0 : i->type;
      uint32_t x = dispatch(c, i, vp, rt, do_vmem, &ud);
      if (m->failed)
        return false;
      if (!v.is_store) {
        k2s_builder b = {m, k2s_before(i)};
        take_result(c, &b, i, x);
      }
      kill(c, i);
      c->changed = true;
      return true;
    }
    for (uint32_t k = 2; k < i->n_ops; k++) {
      pval *p = pv_of(c, i->ops[k]);
      if (!p)
        continue;
      if (p->n != 1 || !p->a[0].root) {
        k2s_error(m, i,
                  i->ops[1] == K2S_OPENCL_STD_printf && m->ext_set[i->ops[0]] == K2S_EXT_OPENCL_STD
                      ? "printf's format and %%s arguments must be string literals (OpenCL C); "
                        "this one is chosen at run time"
                      : "a builtin takes a pointer whose object is known only at run time");
        return false;
      }
      const root *r = &c->roots[p->a[0].root];
      tpath path;
      /* A same-size view (a ushort buffer as half*) is the builtin's to convert. */
      if (!typed_path(c, r->type, p->a[0].off, p->pointee, &path)) {
        k2s_error(m, i, "this builtin's pointer does not point at a %s in %s",
                  type_text(m, p->pointee), type_text(m, r->type));
        return false;
      }
      k2s_builder b = {m, k2s_before(i)};
      uint32_t ptr = emit_chain(c, &b, r, &path);
      if (ptr != i->ops[k]) {
        k2s_instr_set_op(m, i, k, ptr);
        c->changed = true;
      }
    }
    return true;
  }
  case SpvOpPhi:
  case SpvOpSelect:
    if (is_pointer_type(m, i->type) && pv_of(c, i->result)) {
      rewrite_merge(c, i);
      kill(c, i);
      c->changed = true;
    }
    return true;
  default:
    if (k2s_is_atomic(i->opcode)) {
      pval *p = pv_of(c, i->ops[0]);
      if (!p)
        return true;
      if (p->n != 1 || !p->a[0].root) {
        /* Several possible roots: the atomic runs in the tag's switch arm. */
        atomic_ud ud = {i};
        uint32_t x = dispatch(c, i, p, i->result ? i->type : 0, do_atomic, &ud);
        if (m->failed)
          return false;
        if (i->result) {
          k2s_builder b = {m, k2s_before(i)};
          take_result(c, &b, i, x);
        }
        kill(c, i);
        c->changed = true;
        return true;
      }
      k2s_builder b = {m, k2s_before(i)};
      uint32_t ptr = atomic_ptr(c, &b, &c->roots[p->a[0].root], p->a[0].off, p->pointee, i);
      if (!ptr)
        return false;
      if (ptr != i->ops[0]) {
        k2s_instr_set_op(m, i, 0, ptr);
        c->changed = true;
      }
      return true;
    }
    if (i->result && pv_of(c, i->result) && i->opcode != SpvOpVariable) {
      if (i->opcode == SpvOpConvertUToPtr)
        return true;
      kill(c, i);
      c->changed = true;
    }
    return true;
  }
}

/* ---- module-scope variables ---------------------------------------------- */

/* Images and samplers (images pass) stay UniformConstant. */
static bool is_opaque(const k2s_instr *t)
{
  return t && (t->opcode == SpvOpTypeImage || t->opcode == SpvOpTypeSampler ||
               t->opcode == SpvOpTypeSampledImage);
}

/* `constant` variables become Private copies of their initialiser, unless
 * -module-constants-in-storage-buffer keeps them for the constant-data buffer
 * (program_scope_to_buffer). */
static bool constant_data_to_private(k2s_module *m, const k2s_options *o)
{
  bool changed = false;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1)
      continue;
    if (v->ops[0] == SpvStorageClassUniformConstant && v->n_ops >= 2 &&
        !o->module_constants_in_storage_buffer &&
        !is_opaque(k2s_def(m, k2s_def(m, v->type)->ops[1]))) {
      uint32_t pointee = k2s_def(m, v->type)->ops[1];
      k2s_instr_set_type(m, v, k2s_type_pointer(m, SpvStorageClassPrivate, pointee));
      k2s_instr_set_op(m, v, 0, SpvStorageClassPrivate);
      /* The new pointer type went to the end of the section: follow it. */
      k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
      k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
      changed = true;
    } else if (v->ops[0] == SpvStorageClassGeneric) {
      k2s_error(m, v, "generic-address-space variables are not supported");
      return changed;
    }
  }
  return changed;
}

/* Does this OpLoad of a pointer read a program-scope `global` or `constant` variable?
 * Physical mode refuses those too (they are not buffers with addresses), so the
 * logical-mode error must not suggest it. */
static bool loads_from_program_scope(ptr_ctx *c, const k2s_instr *i)
{
  const pval *p = pv_of(c, i->ops[0]);
  for (uint32_t k = 0; p && k < p->n; k++) {
    const root *ro = &c->roots[p->a[k].root];
    if (p->a[k].root &&
        (ro->sc == SpvStorageClassCrossWorkgroup || ro->sc == SpvStorageClassUniformConstant))
      return true;
  }
  return false;
}

/* Program-scope `global` variables (OpenCL C 2.0) that no kernel writes are
 * exact as Private copies of their initializer. */
static bool program_scope_to_private(ptr_ctx *c)
{
  k2s_module *m = c->m;
  for (uint32_t r = 1; r < c->n_roots; r++) {
    root *ro = &c->roots[r];
    if (ro->sc != SpvStorageClassCrossWorkgroup)
      continue;
    k2s_instr *v = k2s_def(m, ro->var);
    if (ro->written) {
      k2s_error(m, ro->write_why,
                "this writes the program-scope variable %s; logical mode makes such variables "
                "read-only Private copies (a storage buffer shared between kernels and launches "
                "is not supported yet)",
                k2s_name_of(m, ro->var) ? k2s_name_of(m, ro->var) : "(unnamed)");
      return false;
    }
    k2s_instr_set_type(m, v, k2s_type_pointer(m, SpvStorageClassPrivate, ro->type));
    k2s_instr_set_op(m, v, 0, SpvStorageClassPrivate);
    if (v->n_ops < 2) /* OpenCL zero-initialises program-scope variables */
      k2s_instr_push_op(m, v, k2s_const_null(m, ro->type));
    ro->sc = SpvStorageClassPrivate;
    k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
    k2s_list_append(&m->sec[K2S_SEC_GLOBAL], v);
    c->changed = true;
  }
  return true;
}

/* A read-only program-scope variable bigger than this goes to the buffer too: a
 * Private copy is one per invocation. */
#define PRIVATE_COPY_MAX 4096

/* The two module-scope buffers, each a descriptor clspv defines: variables a kernel
 * writes (ProgramScopeVariablesStorageBuffer) and read-only data
 * (ConstantDataStorageBuffer): `constant` variables left UniformConstant by
 * -module-constants-in-storage-buffer, and read-only program-scope `global`
 * variables too big for a Private copy. */
enum module_buffer { MB_PROGRAM_SCOPE, MB_CONSTANT_DATA };

static bool in_module_buffer(ptr_ctx *c, const root *ro, enum module_buffer which)
{
  if (which == MB_PROGRAM_SCOPE)
    return ro->sc == SpvStorageClassCrossWorkgroup && ro->written;
  if (ro->sc == SpvStorageClassUniformConstant)
    return !is_opaque(k2s_def(c->m, ro->type));
  return ro->sc == SpvStorageClassCrossWorkgroup && !ro->written &&
         cl_size(c->m, ro->type) > PRIVATE_COPY_MAX;
}

typedef struct psv_use {
  const uint32_t *member_of; /* by id: member index + 1 of a moved variable, 0 otherwise */
  uint32_t bound;            /* member_of's size */
  uint32_t *chain;           /* by member: this function's access chain, 0 until made */
  bool *used;                /* by member: the function uses it */
} psv_use;

static void psv_mark(void *ud, k2s_instr *in, uint32_t *id)
{
  psv_use *u = ud;
  (void)in;
  if (*id < u->bound && u->member_of[*id])
    u->used[u->member_of[*id] - 1] = true;
}

static void psv_replace(void *ud, k2s_instr *in, uint32_t *id)
{
  psv_use *u = ud;
  (void)in;
  if (*id < u->bound && u->member_of[*id])
    *id = u->chain[u->member_of[*id] - 1];
}

/* Module-scope variables of one kind (`which`: see in_module_buffer) live in one
 * storage buffer for the whole module, a Block with
 * one member per variable at its OpenCL layout offset, as clspv's program-scope
 * buffer: the host creates it from the reflection's bytes (the initialisers, zeros
 * where none) and binds it to every kernel, so all work-items of a dispatch share the
 * variables. Each function's uses of a variable become an access chain to its
 * member, and the caller runs the pass again: the buffer is then a root like any
 * argument buffer (typed, or re-typed as words). Returns 1 when it moved variables,
 * 0 when there are none, -1 on error. */
static int program_scope_to_buffer(ptr_ctx *c, enum module_buffer which)
{
  k2s_module *m = c->m;
  uint32_t n = 0;
  for (uint32_t r = 1; r < c->n_roots; r++)
    n += in_module_buffer(c, &c->roots[r], which);
  if (!n)
    return 0;
  uint32_t id_bound = m->bound + 1;
  uint32_t *member_of = k2s_alloc(&m->arena, id_bound * sizeof(uint32_t));
  uint32_t *types = k2s_alloc(&m->arena, n * sizeof(uint32_t));
  k2s_instr **vars = k2s_alloc(&m->arena, n * sizeof(k2s_instr *));
  uint32_t k = 0;
  for (uint32_t r = 1; r < c->n_roots; r++)
    if (in_module_buffer(c, &c->roots[r], which)) {
      vars[k] = k2s_def(m, c->roots[r].var);
      types[k] = c->roots[r].type;
      member_of[c->roots[r].var] = ++k;
    }
  /* An initialiser holding a variable's address needs a relocation by the host
   * (ProgramScopeVariablePointerRelocation), which is not built. */
  psv_use scan = {member_of, id_bound, NULL, k2s_alloc(&m->arena, n * sizeof(bool))};
  k2s_foreach_instr(g, &m->sec[K2S_SEC_GLOBAL]) {
    k2s_foreach_id_operand(m, g, psv_mark, &scan);
    for (k = 0; k < n; k++)
      if (scan.used[k]) {
        const char *name = k2s_name_of(m, vars[k]->result);
        k2s_error(m, g,
                  "this holds the address of the program-scope variable %s, which lives in "
                  "the program-scope storage buffer; addresses of such variables in "
                  "initialisers (relocations) are not supported",
                  name ? name : "(unnamed)");
        return -1;
      }
  }
  uint32_t st = k2s_type_struct(m, types, n);
  k2s_decorate(m, st, SpvDecorationBlock, NULL, 0);
  if (!k2s_decorate_layout(m, st, vars[0]))
    return -1;
  uint64_t size = cl_size(m, st);
  /* The buffer's initial bytes travel in the reflection as one hex literal
   * string (ProgramScopeVariablesStorageBuffer, as clspv writes it), and SPIR-V
   * caps a literal string at 65,535 words. Found by fuzzing: a 2^40-element
   * array truncated `words` below and the memset wrote past the allocation
   * (SIGSEGV); 256 MB of variables took 7.5 GB and 37 s to end in an internal
   * error (a 134-million-word OpString). */
  const uint64_t max_bytes = (65535u * 4 - 1) / 2;
  if (size > max_bytes) {
    k2s_error(m, vars[0],
              "the program-scope variables take %llu bytes; their initial contents go into "
              "the embedded reflection as one hex string, which SPIR-V limits to %llu bytes",
              (unsigned long long)size, (unsigned long long)max_bytes);
    return -1;
  }
  uint32_t words = (uint32_t)((size + 3) / 4);
  uint8_t *data = k2s_alloc(&m->arena, (size_t)words * 4 + 1);
  memset(data, 0, (size_t)words * 4);
  for (k = 0; k < n; k++) {
    uint64_t off = k2s_cl_member_offset(m, st, k);
    if (vars[k]->n_ops >= 2 && !const_bytes(m, vars[k]->ops[1], data + off, cl_size(m, types[k]))) {
      k2s_error(m, vars[k],
                "the initialiser of this program-scope variable cannot be written as bytes "
                "(does it hold addresses?)");
      return -1;
    }
  }
  /* Its own descriptor set, after every set kernel-args used: no kernel's bindings
   * can collide with it. */
  uint32_t set = 0;
  k2s_foreach_instr(d, &m->sec[K2S_SEC_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->n_ops >= 3 && d->ops[1] == SpvDecorationDescriptorSet &&
        d->ops[2] + 1 > set)
      set = d->ops[2] + 1;
  }
  uint32_t binding = 0;
  uint32_t var = k2s_global_variable(m, k2s_type_pointer(m, SpvStorageClassStorageBuffer, st),
                                     SpvStorageClassStorageBuffer, 0);
  k2s_decorate(m, var, SpvDecorationDescriptorSet, &set, 1);
  k2s_decorate(m, var, SpvDecorationBinding, &binding, 1);
  k2s_set_name(m, var, which == MB_PROGRAM_SCOPE ? "program_scope_variables" : "constant_data");

  psv_use u = {member_of, id_bound, k2s_alloc(&m->arena, n * sizeof(uint32_t)),
               k2s_alloc(&m->arena, n * sizeof(bool))};
  k2s_foreach_function(f, m) {
    if (!f->first)
      continue;
    memset(u.chain, 0, n * sizeof(uint32_t));
    memset(u.used, 0, n * sizeof(bool));
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        k2s_foreach_id_operand(m, i, psv_mark, &u);
    k2s_builder bd = {m, k2s_block_start(f->first)};
    for (k = 0; k < n; k++)
      if (u.used[k]) {
        uint32_t ops[2] = {var, k2s_const_uint32(m, k)};
        u.chain[k] = k2s_emit(&bd, SpvOpAccessChain,
                              k2s_type_pointer(m, SpvStorageClassStorageBuffer, types[k]), ops, 2);
        const char *name = k2s_name_of(m, vars[k]->result);
        if (name)
          k2s_set_name(m, u.chain[k], name);
      }
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        k2s_instr_rewrite_ids(m, i, psv_replace, &u);
  }
  /* The variables go, with their names, decorations and interface entries. */
  enum k2s_section secs[3] = {K2S_SEC_DEBUG, K2S_SEC_ANNOTATION, K2S_SEC_ENTRY_POINT};
  for (int s = 0; s < 3; s++)
    k2s_foreach_instr_safe(i, &m->sec[secs[s]]) {
      if (secs[s] == K2S_SEC_ENTRY_POINT) {
        const char *name = i->n_ops >= 3 ? k2s_string_operand(i, 2) : NULL;
        if (!name)
          continue;
        uint32_t w = 2 + k2s_string_words(name), out = w;
        uint32_t *ops = k2s_alloc(&m->arena, i->n_ops * sizeof(uint32_t));
        memcpy(ops, i->ops, w * sizeof(uint32_t));
        for (uint32_t j = w; j < i->n_ops; j++)
          if (i->ops[j] >= id_bound || !member_of[i->ops[j]])
            ops[out++] = i->ops[j];
        if (out != i->n_ops)
          k2s_instr_set_ops(m, i, ops, out);
        continue;
      }
      if ((i->opcode == SpvOpName || i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId ||
           i->opcode == SpvOpDecorateString) &&
          i->n_ops && i->ops[0] < id_bound && member_of[i->ops[0]])
        k2s_instr_delete(m, i);
    }
  for (k = 0; k < n; k++)
    k2s_instr_delete(m, vars[k]);

  k2s_refl_facts *rf = k2s_refl(m);
  if (which == MB_PROGRAM_SCOPE) {
    rf->has_psv = true;
    rf->psv_set = set;
    rf->psv_binding = binding;
    rf->psv_data = data;
    rf->psv_size = words * 4;
  } else {
    rf->has_constant_data = true;
    rf->cd_set = set;
    rf->cd_binding = binding;
    rf->cd_data = data;
    rf->cd_size = words * 4;
  }
  if (c->o->verbose)
    k2s_diag(m, K2S_NOTE, vars[0],
             "%u module-scope variable(s) live in the %s storage buffer (%u bytes, descriptor "
             "set %u, binding %u)",
             n, which == MB_PROGRAM_SCOPE ? "program-scope" : "constant-data", words * 4, set,
             binding);
  return 1;
}

/* Does `type` hold a packed (CPacked) struct? */
static bool holds_packed(k2s_module *m, uint32_t type, int depth)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t || depth > 16)
    return false;
  switch (t->opcode) {
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return holds_packed(m, t->ops[0], depth + 1);
  case SpvOpTypeStruct:
    if (k2s_find_decoration(m, type, SpvDecorationCPacked))
      return true;
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (holds_packed(m, t->ops[k], depth + 1))
        return true;
    return false;
  default: return false;
  }
}

/* Does `type` hold scalars of `width` bits? */
static bool holds_width(k2s_module *m, uint32_t type, uint32_t width, int depth)
{
  k2s_instr *t = k2s_def(m, type);
  if (!t || depth > 16)
    return false;
  switch (t->opcode) {
  case SpvOpTypeInt:
  case SpvOpTypeFloat: return t->ops[0] == width;
  case SpvOpTypeVector:
  case SpvOpTypeArray:
  case SpvOpTypeRuntimeArray: return holds_width(m, t->ops[0], width, depth + 1);
  case SpvOpTypeStruct:
    for (uint32_t k = 0; k < t->n_ops; k++)
      if (holds_width(m, t->ops[k], width, depth + 1))
        return true;
    return false;
  default: return false;
  }
}

/* Variables holding PhysicalStorageBuffer addresses (physical mode's pointers
 * kept in private or local memory) need AliasedPointer in Vulkan. */
static bool holds_physical_pointer(k2s_module *m, uint32_t type)
{
  k2s_instr *t = k2s_def(m, type);
  for (int depth = 0; t && depth < 16; depth++) {
    if (is_physical_pointer_type(m, type))
      return true;
    if (t->opcode != SpvOpTypeArray && t->opcode != SpvOpTypeRuntimeArray)
      return false;
    type = t->ops[0];
    t = k2s_def(m, type);
  }
  return false;
}

static void decorate_physical_holders(ptr_ctx *c)
{
  k2s_module *m = c->m;
  for (uint32_t r = 1; r < c->n_roots; r++)
    if (holds_physical_pointer(m, c->roots[r].type) &&
        !k2s_find_decoration(m, c->roots[r].var, SpvDecorationAliasedPointer) &&
        !k2s_find_decoration(m, c->roots[r].var, SpvDecorationRestrictPointer)) {
      k2s_decorate(m, c->roots[r].var, SpvDecorationAliasedPointer, NULL, 0);
      c->changed = true;
    }
}

/* ---- driver ------------------------------------------------------------ */

typedef struct fn_order {
  k2s_function *f;
  k2s_cfg *cfg; /* with dominators, for the analysis (module arena) */
  k2s_instr **ins;
  uint32_t n;
} fn_order;

static fn_order order_of(ptr_ctx *c, k2s_function *f)
{
  k2s_module *m = c->m;
  k2s_cfg *cfg = k2s_cfg_build(m, &m->arena, f);
  k2s_cfg_dominators(cfg, &m->arena);
  uint32_t n = 0;
  for (uint32_t r = 0; r < cfg->n_rpo; r++)
    k2s_foreach_instr(i, &cfg->blocks[cfg->rpo[r]]->body)
      n++;
  fn_order o = {f, cfg, k2s_alloc(&m->arena, (n + 1) * sizeof(k2s_instr *)), 0};
  /* Reverse post-order visits definitions before uses whatever the block
   * order in the binary (llvm-spirv 15 emits blocks before their dominator). */
  for (uint32_t r = 0; r < cfg->n_rpo; r++)
    k2s_foreach_instr(i, &cfg->blocks[cfg->rpo[r]]->body)
      o.ins[o.n++] = i;
  return o;
}

bool k2s_lower_pointers(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  bool changed = constant_data_to_private(m, o);
  if (m->failed)
    return changed;
  ptr_ctx c = {.m = m, .o = o};
  grow(&c, m->bound + 64);
  c.addr_width = 64;
  k2s_foreach_instr(mm, &m->sec[K2S_SEC_MEMORY_MODEL])
    if (mm->n_ops && mm->ops[0] == SpvAddressingModelPhysical32)
      c.addr_width = 32;
  k2s_foreach_instr(v, &m->sec[K2S_SEC_GLOBAL])
    if (v->opcode == SpvOpVariable)
      add_root(&c, v);
    else if (v->result && is_pointer_type(m, v->type) &&
             (v->opcode == SpvOpConstantNull || v->opcode == SpvOpUndef))
      analyze_def(&c, v);
  k2s_refl_facts *rf = k2s_refl(m);
  for (uint32_t k = 0; k < rf->n_kernels; k++)
    for (uint32_t a = 0; a < rf->kernels[k].n_args; a++) {
      const k2s_refl_arg *ra = &rf->kernels[k].args[a];
      if ((ra->kind == K2S_ARG_BUFFER || ra->kind == K2S_ARG_BUFFER_UBO) && ra->var &&
          ra->var < c.cap && c.root_of[ra->var] &&
          !k2s_find_decoration(m, ra->var, SpvDecorationRestrict))
        c.roots[c.root_of[ra->var]].arg_buffer = true;
    }

  uint32_t n_fn = 0;
  k2s_foreach_function(f, m)
    n_fn++;
  fn_order *fo = k2s_alloc(&m->arena, (n_fn + 1) * sizeof(fn_order));
  uint32_t nf = 0;
  k2s_foreach_function(f, m) {
    if (f->first)
      fo[nf++] = order_of(&c, f);
  }

  /* 1. Pointer values and address-holding integers, to a fixed point. */
  for (uint32_t f = 0; f < nf && !m->failed; f++) {
    c.cfg = fo[f].cfg;
    for (int round = 0; round < 16; round++) {
      c.iter_changed = false;
      for (uint32_t k = 0; k < fo[f].n && !m->failed; k++) {
        analyze_taint(&c, fo[f].ins[k]);
        if (!analyze_def(&c, fo[f].ins[k]))
          break;
      }
      if (!c.iter_changed)
        break;
    }
  }
  c.cfg = NULL;
  if (m->failed)
    return true;

  /* 2. Every use of a pointer or address must be one this pass rewrites. */
  for (uint32_t f = 0; f < nf; f++)
    for (uint32_t k = 0; k < fo[f].n; k++) {
      k2s_instr *i = fo[f].ins[k];
      use_check u = {&c, NULL, NULL};
      k2s_foreach_id_operand(m, i, check_operand, &u);
      /* SPIR-V 1.5 lets OpBitcast turn a pointer into an integer or a 2 x 32-bit
       * vector (OpenCL-CTS spirv_new ptr_bitcast): the pointer's bits as a number,
       * which a logical pointer does not have; left alone it reached the output (a
       * Function pointer bitcast to an integer, invalid below SPIR-V 1.5 and
       * meaningless above). */
      if (i->opcode == SpvOpBitcast && i->n_ops >= 1 && pv_of(&c, i->ops[0]) &&
          !is_pointer_type(m, i->type)) {
        k2s_error(m, i,
                  "OpBitcast of a pointer to an integer or vector: the address as a number "
                  "has no logical-mode translation (OpConvertPtrToU has, for alignment "
                  "masks, differences and comparisons; or use --pointers=physical on "
                  "vulkan1.2+ for global memory)");
        return true;
      }
      if (!u.bad_ptr && derives_pointer(i->opcode) && i->result &&
          is_physical_pointer_type(m, i->type)) {
        /* physical mode lowered the global side of a generic pointer; the
         * local/private side (ours) cannot flow into an address */
        for (uint32_t k = 0; k < i->n_ops && !u.bad_ptr; k++)
          if (i->ops[k] < c.cap && c.pv[i->ops[k]].known && i->opcode != SpvOpPhi)
            u.bad_ptr = i;
        for (uint32_t k = 0; k + 1 < i->n_ops && !u.bad_ptr; k += 2)
          if (i->opcode == SpvOpPhi && i->ops[k] < c.cap && c.pv[i->ops[k]].known)
            u.bad_ptr = i;
        if (u.bad_ptr) {
          k2s_error(m, i,
                    "a pointer into local or private memory meets physical global "
                    "pointers here (a generic pointer that may point to either); physical "
                    "mode only turns global memory into addresses");
          return true;
        }
      }
      if (u.bad_ptr) {
        if (u.bad_ptr->opcode == SpvOpFunctionCall)
          k2s_error(m, u.bad_ptr, "a pointer is passed to a function that was not inlined");
        else if (u.bad_ptr->opcode == SpvOpReturnValue)
          k2s_error(m, u.bad_ptr, "a function returns a pointer and was not inlined");
        else
          k2s_error(m, u.bad_ptr, "%s on a pointer has no logical-mode translation",
                    k2s_opcode_name(u.bad_ptr->opcode));
        return true;
      }
      if (u.bad_int) {
        k2s_error(m, u.bad_int,
                  "an address taken from a pointer is used as a number here; logical mode can "
                  "only use addresses for alignment masks, differences and comparisons (use "
                  "--pointers=physical on vulkan1.2+)");
        return true;
      }
      if (is_comparison(i->opcode) && i->n_ops >= 2 && i->ops[0] < c.cap && i->ops[1] < c.cap) {
        /* Cut to 32 bits on spir64, addresses keep only their offsets: two
         * objects' addresses would compare as if they overlapped. */
        taint ta = c.tn[i->ops[0]], tb = c.tn[i->ops[1]];
        if (ta.k && tb.k && (ta.narrow || tb.narrow) &&
            (ta.root != tb.root || ta.multi || tb.multi)) {
          k2s_error(m, i,
                    "this compares addresses of different objects cut to fewer bits than a "
                    "pointer; logical mode keeps only their offsets there (compare the "
                    "pointers, or use --pointers=physical on vulkan1.2+)");
          return true;
        }
        /* Addresses of two buffer arguments: equal or ordered by offset when the
         * host binds one buffer to both (a pointer with several roots is judged by
         * the first; its others are not kept in the taint). */
        if (ta.k && tb.k && aliasing_args(&c, i, ta.root, tb.root))
          return true;
      }
      if (i->opcode == SpvOpConvertPtrToU || is_comparison(i->opcode) ||
          i->opcode == SpvOpConvertUToPtr)
        continue;
      if (i->result && i->result < c.cap && c.tn[i->result].bad && !is_pointer_type(m, i->type)) {
        k2s_error(m, i,
                  "this arithmetic on an address taken from a pointer cannot be resolved in "
                  "logical mode (use --pointers=physical on vulkan1.2+)");
        return true;
      }
      if (is_pointer_type(m, i->type) && i->result && !pv_of(&c, i->result) &&
          !is_physical_pointer_type(m, i->type) && i->opcode != SpvOpFunctionParameter &&
          i->opcode != SpvOpFunctionCall) {
        if (i->opcode == SpvOpLoad && loads_from_program_scope(&c, i))
          k2s_error(m, i,
                    "a pointer is loaded from a program-scope variable (e.g. `global int *gp "
                    "= &counter;`); neither logical nor physical mode can express a "
                    "program-scope variable that holds a pointer");
        else if (i->opcode == SpvOpLoad)
          k2s_error(m, i,
                    "a pointer is loaded from memory; logical mode cannot express pointers "
                    "stored in memory (use --pointers=physical on vulkan1.2+)");
        else
          k2s_error(m, i, "cannot tell which variable or buffer this pointer points into");
        return true;
      }
    }

  /* 3. Which roots are accessed with several layouts. */
  for (uint32_t f = 0; f < nf && !m->failed; f++)
    for (uint32_t k = 0; k < fo[f].n && !m->failed; k++)
      analyze_use(&c, fo[f].ins[k]);
  if (m->failed)
    return true;
  /* Constant data first, then written variables: each buffer takes the set after
   * every set in use, so the constant data's set comes first, as in clspv. */
  int moved = program_scope_to_buffer(&c, MB_CONSTANT_DATA);
  if (!moved)
    moved = program_scope_to_buffer(&c, MB_PROGRAM_SCOPE);
  if (moved < 0)
    return true;
  if (moved) { /* again, with the buffer as a root */
    k2s_lower_pointers(m, o);
    return true;
  }
  if (!program_scope_to_private(&c))
    return true;
  /* Buffers of 8/16-bit data on a device without 8/16-bit storage: words. */
  for (uint32_t r = 1; r < c.n_roots; r++) {
    root *ro = &c.roots[r];
    if (ro->sc != SpvStorageClassStorageBuffer || ro->punned || ro->needs_typed)
      continue;
    if (((o->missing_features & K2S_FEATURE_STORAGE8) && holds_width(m, ro->type, 8, 0)) ||
        ((o->missing_features & K2S_FEATURE_STORAGE16) && holds_width(m, ro->type, 16, 0)))
      mark_punned(&c, r, k2s_def(m, ro->var));
  }
  /* Packed structs: members at any byte, so everything through bytes. */
  for (uint32_t r = 1; r < c.n_roots; r++) {
    root *ro = &c.roots[r];
    bool retypable = ro->sc == SpvStorageClassStorageBuffer || ro->sc == SpvStorageClassWorkgroup ||
                     ro->sc == SpvStorageClassFunction || ro->sc == SpvStorageClassPrivate;
    /* Read-only POD blocks (no runtime array) are uniform-layout's to lay out. */
    k2s_instr *bt = k2s_def(m, ro->type);
    k2s_instr *last = bt && bt->opcode == SpvOpTypeStruct && bt->n_ops
                          ? k2s_def(m, bt->ops[bt->n_ops - 1])
                          : NULL;
    if (ro->sc == SpvStorageClassStorageBuffer && !ro->written &&
        !(last && last->opcode == SpvOpTypeRuntimeArray))
      continue;
    if (retypable && !ro->needs_typed && holds_packed(m, ro->type, 0)) {
      ro->bytewise = true;
      mark_punned(&c, r, k2s_def(m, ro->var));
    }
  }
  for (uint32_t r = 1; r < c.n_roots; r++)
    if (c.roots[r].punned) {
      if (!retype_root(&c, &c.roots[r]))
        return true;
      c.changed = true;
      if (o->verbose)
        k2s_diag(m, K2S_NOTE, c.roots[r].pun_why,
                 "%s is accessed as several types: it is now an array of 32-bit words",
                 k2s_name_of(m, c.roots[r].var) ? k2s_name_of(m, c.roots[r].var) : "memory");
    }

  decorate_physical_holders(&c);
  /* A private variable that holds a pointer and is never used (clang leaves
   * some at -O0) would keep a Kernel storage class in the output. */
  for (uint32_t r = 1; r < c.n_roots; r++) {
    k2s_instr *v = k2s_def(m, c.roots[r].var);
    if (v && v->block && c.roots[r].sc == SpvStorageClassFunction &&
        is_pointer_type(m, c.roots[r].type) && !is_physical_pointer_type(m, c.roots[r].type) &&
        !c.n_uses[c.roots[r].var]) {
      kill(&c, v);
      c.changed = true;
    }
  }

  /* 4. Rewrite. */
  for (uint32_t f = 0; f < nf && !m->failed; f++) {
    for (uint32_t k = 0; k < fo[f].n && !m->failed; k++)
      if (!fo[f].ins[k]->dead && fo[f].ins[k]->block)
        rewrite_instr(&c, fo[f].ins[k]);
  }
  if (m->failed)
    return true;
  uint8_t *gone = k2s_alloc(&m->arena, m->bound + 1);
  for (uint32_t k = 0; k < c.n_dead; k++)
    if (!c.dead[k]->dead) {
      if (c.dead[k]->result && c.dead[k]->result <= m->bound)
        gone[c.dead[k]->result] = 1;
      k2s_instr_delete(m, c.dead[k]);
    }
  /* Names and decorations of the deleted values go with them. */
  k2s_drop_annotations_of(m, gone);
  return changed || c.changed;
}
