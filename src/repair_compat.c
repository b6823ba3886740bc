/*
 * Input repairs for what real OpenCL toolchains emit beyond the quirks of
 * src/repair.c (called from k2s_repair_input, before input validation):
 *   - module-scope OpVariables of storage class Function: llvm-spirv 15
 *     turns an LLVM global in the private address space (addrspace 0) into
 *     one, which SPIR-V forbids ("Variables can not have a function storage
 *     class outside of a function"); LLVM makes such globals for -O2 switch
 *     lookup tables (`@switch.table.*`). Each becomes a Function variable
 *     with the same initialiser in every function that uses it.
 *   - OpenCL.DebugInfo.100 as llvm-spirv 15 emits it with -g, often invalid:
 *     DebugSource's Text is DebugInfoNone instead of an OpString, a
 *     DebugTypeMember names its DebugTypeComposite before it is defined (the
 *     two refer to each other), pointers have storage class 0xFFFFFFFF, some
 *     operands are id 0. Valid debug instructions are kept; a bad operand in
 *     an optional or repeated position is removed, an instruction with a bad
 *     required operand is dropped (and what refers to it), with one warning.
 *     k2s_repair_strip_debug_info() drops all of it, for translate.c when the
 *     validator still rejects what was kept: a module is never refused for
 *     its debug information.
 *   - OpSelect with a scalar condition and vector (or composite) operands:
 *     SPIR-V allows it only from 1.4, yet llvm-spirv 15 emits it in SPIR-V
 *     1.0 modules (`c ? v1 : v2` with a scalar c and vectors v1, v2). The
 *     condition is splat into a vector (composites: selected member by
 *     member). The same rewrite, k2s_split_select_conditions(), serves the
 *     target-for pass (passes/lower_for_target.c) for vulkan1.1 (SPIR-V 1.3).
 *   - literal samplers without a filter mode: llvm-spirv 15 gives
 *     OpConstantSampler filter mode 0xFFFFFFFF for `CLK_NORMALIZED_COORDS_FALSE
 *     | CLK_ADDRESS_CLAMP_TO_EDGE` (no CLK_FILTER_* bit), which spirv-val
 *     rejects; OpenCL C's default is CLK_FILTER_NEAREST, so it becomes Nearest.
 *   - image writes to mip level 0 with a Lod operand (cl_khr_mipmap_image_writes),
 *     which the OpenCL environment forbids: a plain write.
 *   - the Shader capability declared for OpBitReverse in a Kernel module
 *     (src/repair_capabilities.c).
 * As in src/repair.c the input is not trusted: anything unexpected is left
 * for the validator, which then names it.
 */
#include <string.h>

#include "k2s_internal.h"

static const char *id_text(k2s_module *m, uint32_t id)
{
  const char *n = k2s_name_of(m, id);
  return n && *n ? k2s_sprintf(&m->arena, "%%%s", n) : k2s_sprintf(&m->arena, "%%%u", id);
}

/* ---- module-scope Function variables ------------------------------------ */

typedef struct fv_scan {
  uint32_t var;
  bool found;
} fv_scan;

static void scan_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  fv_scan *s = ud;
  (void)in;
  if (*id == s->var)
    s->found = true;
}

static bool names_id(k2s_module *m, k2s_instr *i, uint32_t id)
{
  fv_scan s = {id, false};
  k2s_foreach_id_operand(m, i, scan_operand, &s);
  return s.found;
}

typedef struct fv_subst {
  uint32_t from, to;
} fv_subst;

static void subst_operand(void *ud, k2s_instr *in, uint32_t *id)
{
  fv_subst *s = ud;
  (void)in;
  if (*id == s->from)
    *id = s->to;
}

static bool function_uses(k2s_module *m, k2s_function *f, uint32_t id)
{
  k2s_foreach_block(b, f)
    k2s_foreach_instr(i, &b->body)
      if (names_id(m, i, id))
        return true;
  return false;
}

/* Whether some OpFunctionCall in the module calls f. */
static bool is_called(k2s_module *m, k2s_function *f)
{
  uint32_t fid = f->def->result;
  k2s_foreach_function(g, m)
    k2s_foreach_block(b, g)
      k2s_foreach_instr(i, &b->body)
        if (i->opcode == SpvOpFunctionCall && i->n_ops >= 1 && i->ops[0] == fid)
          return true;
  return false;
}

/* Put v at the start of f's entry block (SPIR-V wants Function variables there). */
static void place_in_entry(k2s_function *f, k2s_instr *v)
{
  k2s_block *entry = f->first;
  v->block = entry;
  if (entry->body.first)
    k2s_list_insert_before(&entry->body, entry->body.first, v);
  else
    k2s_list_append(&entry->body, v);
}

/* Where else the variable is named: only names, decorations and entry-point
 * interfaces are expected; a global initialiser naming it (a pointer to it
 * stored in another global) cannot be split per function. */
static bool only_declared_elsewhere(k2s_module *m, uint32_t var)
{
  k2s_foreach_instr(g, &m->sec[K2S_SEC_GLOBAL])
    if (g->result != var && names_id(m, g, var))
      return false;
  return true;
}

static void drop_from_interfaces(k2s_module *m, uint32_t var)
{
  k2s_foreach_instr(e, &m->sec[K2S_SEC_ENTRY_POINT]) {
    const char *name = e->n_ops >= 3 ? k2s_string_operand(e, 2) : NULL;
    if (!name)
      continue;
    uint32_t start = 2 + k2s_string_words(name), w = start;
    for (uint32_t r = start; r < e->n_ops; r++)
      if (e->ops[r] != var)
        e->ops[w++] = e->ops[r];
    e->n_ops = w;
  }
}

/* Move one variable into each function using it; false when it must stay
 * (the validator then reports it). */
static bool localise(k2s_module *m, k2s_instr *v)
{
  uint32_t var = v->result;
  if (v->n_ops >= 2) {
    k2s_instr *init = k2s_def(m, v->ops[1]);
    if (!init || init->block || init->opcode == SpvOpVariable)
      return false;
  }
  if (!only_declared_elsewhere(m, var))
    return false;
  /* A per-function copy is exact for read-only data (the lookup tables). A
   * writable variable keeps its meaning only in a function that runs once per
   * invocation: a kernel nothing calls, and the only user. */
  bool read_only = k2s_find_decoration(m, var, SpvDecorationConstant) != NULL;
  uint32_t n_users = 0;
  k2s_function *only = NULL;
  k2s_foreach_function(f, m)
    if (f->first && function_uses(m, f, var)) {
      n_users++;
      only = f;
    }
  if (!read_only && (n_users > 1 || (only && is_called(m, only))))
    return false;
  k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], v);
  drop_from_interfaces(m, var);
  k2s_instr *cst;
  while ((cst = k2s_find_decoration(m, var, SpvDecorationConstant)))
    k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], cst);
  bool first = true;
  k2s_foreach_function(f, m) {
    if (!f->first || !function_uses(m, f, var))
      continue;
    if (first) {
      place_in_entry(f, v);
      first = false;
      continue;
    }
    uint32_t nid = k2s_new_id(m);
    k2s_instr *c = k2s_instr_new(m, SpvOpVariable, v->type, nid, v->ops, v->n_ops);
    place_in_entry(f, c);
    const char *name = k2s_name_of(m, var);
    if (name)
      k2s_set_name(m, nid, name);
    fv_subst s = {var, nid};
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (i != c)
          k2s_foreach_id_operand(m, i, subst_operand, &s);
  }
  if (first) { /* used by no function: nothing needs it */
    k2s_remove_decorations(m, var);
    m->def[var] = NULL;
  }
  return true;
}

static bool repair_function_globals(k2s_module *m)
{
  uint32_t n = 0, kept = 0;
  const char *first = NULL;
  k2s_foreach_instr_safe(v, &m->sec[K2S_SEC_GLOBAL]) {
    if (v->opcode != SpvOpVariable || v->n_ops < 1 || v->ops[0] != SpvStorageClassFunction)
      continue;
    const char *text = id_text(m, v->result);
    if (!localise(m, v)) {
      kept++;
      continue;
    }
    if (!first)
      first = text;
    n++;
  }
  if (!n)
    return false;
  k2s_invalidate_uses(m);
  k2s_warn(m, NULL,
           "repaired input: %u module-scope OpVariable%s of storage class Function, first %s "
           "(llvm-spirv 15 emits LLVM private-address-space globals such as -O2 switch lookup "
           "tables so; SPIR-V allows Function variables only inside functions); each became a "
           "Function variable with the same initialiser in each function using it",
           n, n == 1 ? "" : "s", first);
  (void)kept;
  return true;
}

/* ---- OpenCL.DebugInfo.100 ---------------------------------------------------- */

int k2s_input_core_env(uint32_t version); /* src/validate.c */
uint32_t k2s_repair_strip_debug_info(k2s_module *m);

static bool in_set(const k2s_module *m, const k2s_instr *i, uint8_t set)
{
  return i->opcode == SpvOpExtInst && i->n_ops >= 2 && i->ops[0] < m->id_cap &&
         m->ext_set[i->ops[0]] == set;
}

static bool is_debug_info(const k2s_module *m, const k2s_instr *i)
{
  return in_set(m, i, K2S_EXT_OPENCL_DEBUGINFO_100);
}

typedef struct dbg_ctx {
  k2s_module *m;
  uint8_t *state; /* id -> DBG_* */
  uint32_t dropped, trimmed;
  const char *first; /* what was wrong first, for the warning */
  const k2s_instr *first_at;
} dbg_ctx;

enum { DBG_LATER = 1, DBG_SEEN = 2, DBG_DROPPED = 3 };

static bool known_enumerant(uint16_t kind, uint32_t v)
{
  const k2s_kind_info *k = &k2s_kinds[kind];
  for (uint32_t e = 0; e < k->n_enumerants; e++)
    if (k2s_kind_info_enumerants(k)[e].value == v)
      return true;
  return false;
}

/* Why operand word w (0 = the first after the set and opcode) is bad, or NULL. */
static const char *bad_operand(dbg_ctx *c, const k2s_instr *i, uint32_t op, uint16_t kind,
                               uint32_t w)
{
  k2s_module *m = c->m;
  uint32_t v = i->ops[2 + w];
  if (k2s_kinds[kind].category == K2S_CAT_VALUE_ENUM && k2s_kinds[kind].n_enumerants)
    return known_enumerant(kind, v) ? NULL
                                    : k2s_sprintf(&m->arena, "%s %u is not a valid %s",
                                                  k2s_kind_info_name(&k2s_kinds[kind]), v,
                                                  k2s_kind_info_name(&k2s_kinds[kind]));
  if (k2s_kinds[kind].category != K2S_CAT_ID)
    return NULL;
  if (!v || v >= m->id_cap || !k2s_def(m, v))
    return k2s_sprintf(&m->arena, "operand id %u is not defined", v);
  if (c->state[v] == DBG_DROPPED)
    return "it names a dropped debug instruction";
  if (c->state[v] == DBG_LATER && !(op == 10 && w >= 9)) /* a composite's Members may */
    return k2s_sprintf(&m->arena, "it names %%%u before its definition", v);
  if (op == 35 && w == 1 && k2s_def(m, v)->opcode != SpvOpString) /* DebugSource Text */
    return "DebugSource's Text is not an OpString";
  return NULL;
}

static void note_first(dbg_ctx *c, const k2s_instr *i, const char *why)
{
  if (c->first)
    return;
  /* An instruction number the set does not have (read past the table before). */
  const char *name = k2s_extinst_op_name(K2S_EXT_OPENCL_DEBUGINFO_100, i->ops[1]);
  c->first = name ? k2s_sprintf(&c->m->arena, "%s: %s", name, why)
                  : k2s_sprintf(&c->m->arena, "instruction %u: %s", i->ops[1], why);
  c->first_at = i;
}

/* Check one debug instruction; false when it must be dropped. */
static bool repair_debug_instr(dbg_ctx *c, k2s_instr *i)
{
  uint32_t op = i->ops[1];
  const k2s_extinst_info *info =
      k2s_extinst_set_inst(&k2s_extinst_sets[K2S_EXT_OPENCL_DEBUGINFO_100], op);
  if (!info) {
    note_first(c, i, "unknown instruction");
    return false;
  }
  const k2s_operand_desc *desc = k2s_extinst_info_operands(info);
  uint32_t n = i->n_ops - 2, out = 0, n_desc = info->n_operands;
  for (uint32_t w = 0; w < n; w++) {
    uint32_t d = w < n_desc ? w : n_desc - 1;
    if (!n_desc || (w >= n_desc && desc[d].quantifier != K2S_Q_MANY)) {
      note_first(c, i, "too many operands");
      return false;
    }
    /* An optional operand given as DebugInfoNone (DebugSource's Text, a
     * DebugFunction's Declaration): absent is what the producer means, and
     * what spirv-val accepts; not worth a warning. */
    k2s_instr *none = desc[d].quantifier == K2S_Q_OPTIONAL &&
                              k2s_kinds[desc[d].kind].category == K2S_CAT_ID
                          ? k2s_def(c->m, i->ops[2 + w])
                          : NULL;
    if (none && is_debug_info(c->m, none) && none->ops[1] == 0)
      break;
    const char *why = bad_operand(c, i, op, desc[d].kind, w);
    if (why && desc[d].quantifier == K2S_Q_ONE) {
      note_first(c, i, why);
      return false;
    }
    if (why) {
      note_first(c, i, why);
      c->trimmed++;
      if (desc[d].quantifier == K2S_Q_OPTIONAL)
        break; /* what follows an optional operand would shift into its place */
      continue;
    }
    i->ops[2 + out++] = i->ops[2 + w];
  }
  for (uint32_t d = out; d < n_desc; d++)
    if (desc[d].quantifier == K2S_Q_ONE) {
      note_first(c, i, "missing operands");
      return false;
    }
  i->n_ops = 2 + out;
  return true;
}

static void repair_debug_list(dbg_ctx *c, k2s_list *l)
{
  k2s_foreach_instr_safe(i, l) {
    if (!is_debug_info(c->m, i)) {
      if (i->result && i->result < c->m->id_cap)
        c->state[i->result] = DBG_SEEN;
      continue;
    }
    bool keep = repair_debug_instr(c, i);
    if (i->result && i->result < c->m->id_cap)
      c->state[i->result] = keep ? DBG_SEEN : DBG_DROPPED;
    if (!keep) {
      k2s_instr_delete(c->m, i);
      c->dropped++;
    }
  }
}

static bool has_debug_info(k2s_module *m)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT])
    if (i->result < m->id_cap && m->ext_set[i->result] == K2S_EXT_OPENCL_DEBUGINFO_100)
      return true;
  return false;
}

/* Whether a spirv-val message is about a debug-info instruction. */
static bool is_debug_complaint(const char *msg)
{
  return strstr(msg, "DebugInfo") || (strstr(msg, "OpExtInst") && strstr(msg, " Debug"));
}

/* SPIRV-Tools 2023.1 accepts a DebugTypePointer and a DebugTypedef only of a
 * DebugTypeBasic (in both debug-info sets), yet `const float *`, `pair *`,
 * `size_t *` and `typedef struct {...} pair` are everyday kernel code
 * (llvm-spirv 15 -g output). A pointer to a qualified or typedef'd basic type
 * points at the basic type itself; any other pointer becomes a DebugTypeBasic
 * of encoding Address named after what it points to, of the pointer's size. A typedef of anything
 * but a basic type is replaced by what it names. A DebugTypeFunction
 * returning DebugInfoNone (llvm-spirv's void) returns OpTypeVoid. So no -g module loses all
 * its debug information to these rules. The count rewritten. */
static k2s_instr *strip_alias(k2s_module *m, k2s_instr *t)
{
  for (int hops = 0; hops < 64 && t && is_debug_info(m, t); hops++) {
    if (t->ops[1] == 4 && t->n_ops >= 3) /* DebugTypeQualifier: Base Type */
      t = k2s_def(m, t->ops[2]);
    else if (t->ops[1] == 7 && t->n_ops >= 4) /* DebugTypedef: Base Type */
      t = k2s_def(m, t->ops[3]);
    else
      break;
  }
  return t;
}

static bool is_basic(k2s_module *m, const k2s_instr *t)
{
  return t && is_debug_info(m, t) && t->ops[1] == 2;
}

/* An integer constant (32-bit, else 64-bit) of `value` defined before the
 * global `at` (a new one placed just before it when none is; the repair may
 * not reorder). 0 when no such integer type precedes `at`. */
static uint32_t const_before(k2s_module *m, k2s_instr *at, uint32_t value)
{
  k2s_instr *int_t = NULL;
  for (k2s_instr *g = m->sec[K2S_SEC_GLOBAL].first; g && g != at; g = g->next)
    if (g->opcode == SpvOpTypeInt && g->n_ops >= 2 && (g->ops[0] == 32 || g->ops[0] == 64) &&
        (!int_t || (int_t->ops[0] == 64 && g->ops[0] == 32)))
      int_t = g;
  if (!int_t)
    return 0;
  uint32_t words[2] = {value, 0}, n = int_t->ops[0] / 32;
  for (k2s_instr *g = m->sec[K2S_SEC_GLOBAL].first; g && g != at; g = g->next)
    if (g->opcode == SpvOpConstant && g->type == int_t->result && g->n_ops == n &&
        memcmp(g->ops, words, n * sizeof(uint32_t)) == 0)
      return g->result;
  k2s_instr *c = k2s_instr_new(m, SpvOpConstant, int_t->result, k2s_new_id(m), words, n);
  k2s_list_insert_before(&m->sec[K2S_SEC_GLOBAL], at, c);
  k2s_invalidate_intern(m);
  return c->result;
}

static uint32_t repair_debug_base_types(k2s_module *m)
{
  const k2s_extinst_set *set = &k2s_extinst_sets[K2S_EXT_OPENCL_DEBUGINFO_100];
  uint32_t *alias = k2s_alloc(&m->arena, m->id_cap * sizeof(uint32_t));
  uint32_t n = 0;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (!is_debug_info(m, i) || i->ops[1] >= set->n_opcodes)
      continue;
    const k2s_extinst_info *info = k2s_extinst_set_inst(set, i->ops[1]);
    for (uint32_t w = 2; info && w < i->n_ops && info->n_operands; w++) {
      uint32_t d = w - 2 < info->n_operands ? w - 2 : info->n_operands - 1u;
      if (k2s_kinds[k2s_extinst_info_operands(info)[d].kind].category == K2S_CAT_ID && i->ops[w] < m->id_cap &&
          alias[i->ops[w]])
        i->ops[w] = alias[i->ops[w]];
    }
    uint32_t op = i->ops[1];
    k2s_instr *ret = op == 8 && i->n_ops >= 4 ? k2s_def(m, i->ops[3]) : NULL;
    if (ret && is_debug_info(m, ret) && ret->ops[1] == 0) { /* returns void */
      i->ops[3] = i->type;
      n++;
    }
    if (op == 7 && i->n_ops >= 4 && !is_basic(m, k2s_def(m, i->ops[3]))) { /* DebugTypedef */
      k2s_instr *base = k2s_def(m, i->ops[3]);
      if (base && i->result < m->id_cap) {
        alias[i->result] = base->result;
        k2s_instr_delete(m, i);
        n++;
      }
      continue;
    }
    /* spirv-val: a qualifier (const, volatile, restrict) of a basic type only. A
     * typedef'd basic type gives the basic one; a qualified array, struct or pointer
     * (llvm-spirv 15 emits `volatile` on typedefs like uchar, `const` on arrays) is
     * its base type unqualified, as a typedef of one is. */
    if (op == 4 && i->n_ops >= 4) { /* DebugTypeQualifier */
      k2s_instr *base = strip_alias(m, k2s_def(m, i->ops[2]));
      if (is_basic(m, base)) {
        if (i->ops[2] != base->result) {
          i->ops[2] = base->result;
          n++;
        }
      } else if (base && i->result < m->id_cap) {
        alias[i->result] = i->ops[2];
        k2s_instr_delete(m, i);
        n++;
      }
      continue;
    }
    /* spirv-val: a vector of at most 4 lanes of a basic type. OpenCL's 8- and
     * 16-lane vectors become arrays; a typedef'd lane type, the basic one. */
    if (op == 6 && i->n_ops >= 4) { /* DebugTypeVector */
      k2s_instr *lane = strip_alias(m, k2s_def(m, i->ops[2]));
      if (is_basic(m, lane) && i->ops[2] != lane->result) {
        i->ops[2] = lane->result;
        n++;
      }
      uint32_t count = i->ops[3] > 4 ? const_before(m, i, i->ops[3]) : 0;
      if (count) {
        uint32_t ops[4] = {i->ops[0], 5 /* DebugTypeArray */, i->ops[2], count};
        k2s_instr_set_ops(m, i, ops, 4);
        n++;
      }
      continue;
    }
    /* llvm-spirv 15 follows an array's count with DebugInfoNone (a lower
     * bound it does not know), which spirv-val rejects as a count: it goes. */
    if (op == 5 && i->n_ops > 4) { /* DebugTypeArray */
      uint32_t out = 4;
      for (uint32_t w = 4; w < i->n_ops; w++) {
        k2s_instr *d = k2s_def(m, i->ops[w]);
        if (d && is_debug_info(m, d) && d->ops[1] == 0)
          n++;
        else
          i->ops[out++] = i->ops[w];
      }
      i->n_ops = out;
    }
    if (op != 3 || i->n_ops < 5) /* DebugTypePointer */
      continue;
    k2s_instr *base = strip_alias(m, k2s_def(m, i->ops[2]));
    if (is_basic(m, base)) {
      if (i->ops[2] != base->result) {
        i->ops[2] = base->result;
        n++;
      }
      continue;
    }
    /* The name: the pointee's (a composite's) or any string. */
    k2s_instr *target = k2s_def(m, i->ops[2]);
    k2s_instr *name = target && is_debug_info(m, target) && target->n_ops >= 3
                          ? k2s_def(m, target->ops[2])
                          : NULL;
    if (!name || name->opcode != SpvOpString) {
      name = NULL;
      k2s_foreach_instr(d, &m->sec[K2S_SEC_DEBUG])
        if (d->opcode == SpvOpString) {
          name = d;
          break;
        }
    }
    k2s_instr *mm = m->sec[K2S_SEC_MEMORY_MODEL].first;
    bool p32 = mm && mm->n_ops >= 1 && mm->ops[0] == SpvAddressingModelPhysical32;
    uint32_t size = name ? const_before(m, i, p32 ? 32 : 64) : 0;
    if (!size)
      continue; /* left for the validator, which drops all of it */
    uint32_t ops[5] = {i->ops[0], 2, name->result, size, 1 /* Address */};
    k2s_instr_set_ops(m, i, ops, 5);
    n++;
  }
  /* Body instructions (DebugDeclare, DebugValue) name types only through
   * variables, which stay. */
  return n;
}

/* A DebugDeclare's Variable must be an OpVariable or OpFunctionParameter. clang -O2
 * leaves llvm.dbg.declare of a variable it optimised away (a private array whose
 * elements all became values), which llvm-spirv 15 emits as a DebugDeclare of an
 * OpUndef pointer: that declaration says nothing and goes (the DebugLocalVariable
 * stays, with no location, which is the truth). A bitcast or copy of a variable
 * has its address: the declaration names the variable itself. The count changed. */
static uint32_t repair_debug_declares(k2s_module *m)
{
  uint32_t n = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (!is_debug_info(m, i) || i->ops[1] != 28 || i->n_ops < 4) /* DebugDeclare */
          continue;
        k2s_instr *v = k2s_def(m, i->ops[3]);
        for (int hops = 0; hops < 16 && v && (v->opcode == SpvOpBitcast || v->opcode == SpvOpCopyObject);
             hops++)
          v = k2s_def(m, v->ops[0]);
        if (v && (v->opcode == SpvOpVariable || v->opcode == SpvOpFunctionParameter)) {
          if (i->ops[3] != v->result) {
            i->ops[3] = v->result;
            n++;
          }
          continue;
        }
        if (i->result && k2s_uses_of(m, i->result))
          continue; /* named by something: left for the validator */
        k2s_instr_delete(m, i);
        n++;
      }
  return n;
}

/* llvm-spirv 15 gives DebugInfoNone for names it does not know (an
 * anonymous struct's Linkage Name, ...) where both debug-info sets require an
 * OpString: such an operand becomes the empty string. The operands, as
 * (extended opcode, operand index) from the specification's "must be an
 * OpString" rules. The count replaced. */
static uint32_t repair_debug_strings(k2s_module *m)
{
  static const uint8_t string_operands[][2] = {
      {2, 0},  {7, 0},  {9, 0},  {10, 0}, {10, 6}, {11, 0}, {15, 0}, {16, 0}, {17, 0},
      {18, 0}, {18, 6}, {19, 0}, {19, 6}, {20, 0}, {20, 6}, {26, 0}, {32, 2}, {34, 0}};
  uint32_t empty = 0, n = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    if (!is_debug_info(m, i))
      continue;
    for (size_t k = 0; k < sizeof(string_operands) / sizeof(string_operands[0]); k++) {
      uint32_t w = 2u + string_operands[k][1];
      if (i->ops[1] != string_operands[k][0] || w >= i->n_ops)
        continue;
      k2s_instr *d = k2s_def(m, i->ops[w]);
      if (d && d->opcode == SpvOpString)
        continue;
      if (!empty) {
        k2s_foreach_instr(s, &m->sec[K2S_SEC_DEBUG])
          if (s->opcode == SpvOpString && k2s_string_operand(s, 0) && !*k2s_string_operand(s, 0)) {
            empty = s->result;
            break;
          }
      }
      if (!empty) {
        k2s_instr *s = k2s_string_new(m, "");
        k2s_list *l = &m->sec[K2S_SEC_DEBUG];
        if (l->first)
          k2s_list_insert_before(l, l->first, s);
        else
          k2s_list_append(l, s);
        empty = s->result;
      }
      i->ops[w] = empty;
      n++;
    }
  }
  return n;
}

/* llvm-spirv 15 puts a struct's DebugTypeMembers before their
 * DebugTypeComposite, each naming the composite as its Parent: a forward
 * reference spirv-val rejects, which cost every struct its members. The
 * composite's Members operands may be forward references, so the composite
 * moves before its first member when everything else it names is defined
 * there. The count moved. */
static uint32_t repair_member_order(k2s_module *m)
{
  const k2s_extinst_info *comp =
      k2s_extinst_set_inst(&k2s_extinst_sets[K2S_EXT_OPENCL_DEBUGINFO_100], 10);
  uint8_t *state = k2s_alloc(&m->arena, m->id_cap); /* 1: a global later on, 2: seen */
  uint32_t n = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (i->result && i->result < m->id_cap)
      state[i->result] = 1;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_GLOBAL]) {
    k2s_instr *parent = is_debug_info(m, i) && i->ops[1] == 11 && i->n_ops >= 8 &&
                                i->ops[7] < m->id_cap && state[i->ops[7]] == 1
                            ? k2s_def(m, i->ops[7])
                            : NULL;
    bool movable = parent && is_debug_info(m, parent) && parent->ops[1] == 10 &&
                   parent->n_ops >= 11 && comp->n_operands >= 9;
    for (uint32_t w = 0; movable && w < 9; w++) {
      uint32_t v = parent->ops[2 + w];
      if (k2s_kinds[k2s_extinst_info_operands(comp)[w].kind].category == K2S_CAT_ID && v < m->id_cap &&
          state[v] == 1)
        movable = false;
    }
    if (movable) {
      k2s_list_remove(&m->sec[K2S_SEC_GLOBAL], parent);
      k2s_list_insert_before(&m->sec[K2S_SEC_GLOBAL], i, parent);
      state[parent->result] = 2;
      n++;
    }
    if (i->result && i->result < m->id_cap)
      state[i->result] = 2;
  }
  return n;
}

uint32_t k2s_repair_drop_merges(k2s_module *m); /* src/repair.c */
bool k2s_repair_debug_info(k2s_module *m);
bool k2s_repair_debug_info(k2s_module *m)
{
  if (!has_debug_info(m))
    return false;
  uint32_t moved = repair_member_order(m);
  /* llvm-spirv 15 gives a pointer without a DWARF address space (OpenCL's
   * default, private) storage class 0xFFFFFFFF: it is Function. */
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (is_debug_info(m, i) && i->ops[1] == 3 && i->n_ops >= 5 && i->ops[3] == UINT32_MAX) {
      i->ops[3] = SpvStorageClassFunction;
      moved++;
    }
  dbg_ctx c = {.m = m};
  c.state = k2s_alloc(&m->arena, m->id_cap);
  /* Debug instructions of the globals may only name what comes before them. */
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (is_debug_info(m, i) && i->result < m->id_cap)
      c.state[i->result] = DBG_LATER;
  repair_debug_list(&c, &m->sec[K2S_SEC_GLOBAL]);
  /* A composite's forward-named members that were dropped afterwards go. */
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (is_debug_info(m, i) && i->ops[1] == 10 && i->n_ops > 11) {
      uint32_t out = 11;
      for (uint32_t w = 11; w < i->n_ops; w++)
        if (i->ops[w] < m->id_cap && c.state[i->ops[w]] == DBG_SEEN && k2s_def(m, i->ops[w]))
          i->ops[out++] = i->ops[w];
        else
          c.trimmed++;
      i->n_ops = out;
    }
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      repair_debug_list(&c, &b->body);
  uint32_t pointers = moved + repair_debug_base_types(m) + repair_debug_strings(m) +
                      repair_debug_declares(m);
  if (c.dropped || c.trimmed || pointers)
    k2s_invalidate_uses(m);
  /* What is kept must pass spirv-val's debug-info rules (which llvm-spirv 15
   * breaks in more ways than the checks above know: DebugInfoNone where an
   * OpString or a debug type is required); else all of it goes. */
  size_t nw;
  uint32_t *w = k2s_write_native(m, &nw);
  int64_t off;
  int env = k2s_input_core_env(m->version);
  char *msg = k2s_validate_words(&m->arena, w, nw, env, &off);
  if (msg && !is_debug_complaint(msg)) {
    /* spirv-val stops at its first complaint: when that is the producer's
     * merge hints, which translate.c drops later, look past them on a copy. */
    k2s_parse_error perr;
    k2s_module *copy = k2s_parse(w, nw, &perr);
    if (copy) {
      k2s_repair_drop_merges(copy);
      size_t cn;
      uint32_t *cw = k2s_write_native(copy, &cn);
      char *cmsg = k2s_validate_words(&copy->arena, cw, cn, env, &off);
      msg = cmsg ? k2s_strdup(&m->arena, cmsg) : NULL;
      k2s_module_free(copy);
    }
  }
  if (msg && is_debug_complaint(msg)) {
    char *nl = strchr(msg, '\n');
    if (nl)
      *nl = 0;
    uint32_t n = k2s_repair_strip_debug_info(m);
    k2s_warn(m, NULL,
             "repaired input: the OpenCL.DebugInfo.100 debug information is invalid (llvm-spirv "
             "15 -g output; spirv-val: %s); all %u debug instructions were dropped (OpLine "
             "and names kept)",
             msg, n);
    return true;
  }
  if (!c.dropped && !c.trimmed)
    return pointers != 0;
  k2s_warn(m, c.first_at,
           "repaired input: the OpenCL.DebugInfo.100 debug information is partly invalid "
           "(llvm-spirv 15 -g output; first: %s); %u instruction%s dropped and %u operand%s "
           "removed, the rest kept",
           c.first, c.dropped, c.dropped == 1 ? "" : "s", c.trimmed, c.trimmed == 1 ? "" : "s");
  return true;
}

/* Drop every instruction of the extended set `set` (a debug-info set) and
 * its import; the count. */
uint32_t k2s_strip_debug_set(k2s_module *m, uint8_t set);
uint32_t k2s_strip_debug_set(k2s_module *m, uint8_t set)
{
  uint32_t n = 0;
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_GLOBAL])
    if (in_set(m, i, set)) {
      k2s_instr_delete(m, i);
      n++;
    }
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body)
        if (in_set(m, i, set)) {
          k2s_instr_delete(m, i);
          n++;
        }
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_EXT_IMPORT])
    if (i->result < m->id_cap && m->ext_set[i->result] == set)
      k2s_instr_delete(m, i);
  k2s_invalidate_uses(m);
  return n;
}

/* Drop every OpenCL.DebugInfo.100 instruction and the import; the count. */
uint32_t k2s_repair_strip_debug_info(k2s_module *m);
uint32_t k2s_repair_strip_debug_info(k2s_module *m)
{
  return k2s_strip_debug_set(m, K2S_EXT_OPENCL_DEBUGINFO_100);
}

/* ---- OpSelect with a scalar condition on vectors and composites ---------- */

static bool is_bool_scalar(k2s_module *m, uint32_t id)
{
  k2s_instr *t = k2s_def(m, k2s_type_of(m, id));
  return t && t->opcode == SpvOpTypeBool;
}

/* select(c, a, b) of type `type` for a scalar bool c, at the builder's cursor,
 * in forms valid before SPIR-V 1.4; 0 where a type is not understood. */
static uint32_t select_split(k2s_builder *bld, uint32_t type, uint32_t c, uint32_t a, uint32_t b,
                             int depth)
{
  k2s_module *m = bld->m;
  k2s_instr *t = k2s_def(m, type);
  if (!t || depth > 16)
    return 0;
  uint32_t n = 0, member[1] = {0};
  switch (t->opcode) {
  case SpvOpTypeVector: {
    if (t->n_ops < 2 || t->ops[1] > 16)
      return 0;
    uint32_t parts[16];
    for (uint32_t k = 0; k < t->ops[1]; k++)
      parts[k] = c;
    uint32_t bv = k2s_type_vector(m, k2s_type_bool(m), t->ops[1]);
    uint32_t cv = k2s_emit(bld, SpvOpCompositeConstruct, bv, parts, t->ops[1]);
    uint32_t ops[3] = {cv, a, b};
    return k2s_emit(bld, SpvOpSelect, type, ops, 3);
  }
  case SpvOpTypeStruct: n = t->n_ops; break;
  case SpvOpTypeArray: {
    uint64_t len;
    if (t->n_ops < 2 || !k2s_const_value(m, t->ops[1], &len) || len > 256)
      return 0;
    n = (uint32_t)len;
    break;
  }
  default: {
    uint32_t ops[3] = {c, a, b};
    return k2s_emit(bld, SpvOpSelect, type, ops, 3);
  }
  }
  uint32_t *parts = k2s_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
  for (uint32_t k = 0; k < n; k++) {
    uint32_t mt = t->opcode == SpvOpTypeStruct ? t->ops[k] : t->ops[0];
    member[0] = k;
    uint32_t xa[2] = {a, member[0]}, xb[2] = {b, member[0]};
    uint32_t pa = k2s_emit(bld, SpvOpCompositeExtract, mt, xa, 2);
    uint32_t pb = k2s_emit(bld, SpvOpCompositeExtract, mt, xb, 2);
    parts[k] = select_split(bld, mt, c, pa, pb, depth + 1);
    if (!parts[k])
      return 0;
  }
  return k2s_emit(bld, SpvOpCompositeConstruct, type, parts, n);
}

static bool needs_split(k2s_module *m, const k2s_instr *i)
{
  if (i->opcode != SpvOpSelect || i->n_ops != 3 || !i->type || !is_bool_scalar(m, i->ops[0]))
    return false;
  k2s_instr *t = k2s_def(m, i->type);
  return t && (t->opcode == SpvOpTypeVector || t->opcode == SpvOpTypeStruct ||
               t->opcode == SpvOpTypeArray);
}

/* Rewrite every OpSelect whose condition is a scalar and whose operands are
 * vectors or composites; returns how many. */
uint32_t k2s_split_select_conditions(k2s_module *m);
uint32_t k2s_split_select_conditions(k2s_module *m)
{
  uint32_t n = 0;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (!needs_split(m, i))
          continue;
        k2s_instr *t = k2s_def(m, i->type);
        k2s_builder bld = {m, k2s_before(i)};
        if (t->opcode == SpvOpTypeVector) {
          /* In place: the select keeps its id (and any name or decoration). */
          if (t->n_ops < 2 || t->ops[1] > 16)
            continue;
          uint32_t parts[16];
          for (uint32_t k = 0; k < t->ops[1]; k++)
            parts[k] = i->ops[0];
          uint32_t bv = k2s_type_vector(m, k2s_type_bool(m), t->ops[1]);
          uint32_t ops[3] = {k2s_emit(&bld, SpvOpCompositeConstruct, bv, parts, t->ops[1]),
                             i->ops[1], i->ops[2]};
          k2s_instr_set_ops(m, i, ops, 3);
        } else {
          uint32_t r = select_split(&bld, i->type, i->ops[0], i->ops[1], i->ops[2], 0);
          if (!r)
            continue;
          k2s_replace_all_uses(m, i->result, r);
          k2s_instr_delete(m, i);
        }
        n++;
      }
  return n; /* def-use followed the changes (set_ops, replace_all_uses, delete) */
}

static bool repair_select_conditions(k2s_module *m)
{
  if (((m->version >> 8) & 0xff) >= 4 || (m->version >> 16) > 1)
    return false;
  const k2s_instr *first = NULL;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (!first && needs_split(m, i))
          first = i;
  if (!first)
    return false;
  k2s_warn(m, first,
           "repaired input: OpSelect with a scalar condition and vector or composite operands "
           "is SPIR-V 1.4, the module is %u.%u (llvm-spirv 15 emits it for `c ? v1 : v2`); the "
           "condition was made a vector",
           (m->version >> 16) & 0xff, (m->version >> 8) & 0xff);
  return k2s_split_select_conditions(m) > 0;
}

/* ---- literal samplers without a filter mode -------------------------------- */

static bool repair_sampler_filters(k2s_module *m)
{
  uint32_t n = 0;
  const k2s_instr *first = NULL;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL])
    if (i->opcode == SpvOpConstantSampler && i->n_ops == 3 &&
        i->ops[2] != SpvSamplerFilterModeNearest && i->ops[2] != SpvSamplerFilterModeLinear) {
      if (!first) {
        first = i;
        k2s_warn(m, i,
                 "repaired input: a literal sampler has filter mode %u (llvm-spirv 15 emits "
                 "0xFFFFFFFF for a sampler_t without a CLK_FILTER_* bit); it became Nearest, "
                 "OpenCL C's default",
                 i->ops[2]);
      }
      i->ops[2] = SpvSamplerFilterModeNearest;
      n++;
    }
  if (n)
    k2s_invalidate_intern(m); /* the interned constants' operands changed */
  return n > 0;
}

/* ---- image writes to mip level 0 ------------------------------------------ */

/* cl_khr_mipmap_image_writes' write_image{f,i,ui}(img, coord, lod, color):
 * llvm-spirv 15 emits OpImageWrite with a Lod image operand, which SPIR-V's
 * OpenCL environment forbids ("Optional Image Operands are not allowed"), and
 * so the module was refused as invalid. A write to level 0 is a plain write:
 * the operand goes. Other levels stay for the validator to name. */
static bool repair_level0_writes(k2s_module *m)
{
  uint32_t n = 0;
  const k2s_instr *first = NULL;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body) {
        uint64_t lod;
        /* Lod's operand is the first after the mask (only Bias, absent on
         * writes, would come before it); SignExtend & co. have none. */
        if (i->opcode != SpvOpImageWrite || i->n_ops < 5 ||
            !(i->ops[3] & SpvImageOperandsLodMask) || (i->ops[3] & SpvImageOperandsBiasMask) ||
            !k2s_const_value(m, i->ops[4], &lod) || lod != 0)
          continue;
        uint32_t mask = i->ops[3] & ~(uint32_t)SpvImageOperandsLodMask;
        uint32_t *ops = k2s_alloc(&m->arena, i->n_ops * sizeof(uint32_t)), k = 3;
        memcpy(ops, i->ops, 3 * sizeof(uint32_t));
        if (mask)
          ops[k++] = mask;
        for (uint32_t w = 5; w < i->n_ops; w++)
          ops[k++] = i->ops[w];
        k2s_instr_set_ops(m, i, ops, k);
        first = first ? first : i;
        n++;
      }
  if (n) {
    k2s_invalidate_uses(m);
    k2s_warn(m, first,
             "repaired input: %u image write%s to mip level 0 carried a Lod operand, which the "
             "OpenCL environment forbids (llvm-spirv 15, cl_khr_mipmap_image_writes); now a "
             "plain write",
             n, n == 1 ? "" : "s");
  }
  return n > 0;
}

/* ---- entry ---------------------------------------------------------------- */

bool k2s_repair_shader_capability(k2s_module *m); /* src/repair_capabilities.c */
bool k2s_repair_compat(k2s_module *m);
bool k2s_repair_compat(k2s_module *m)
{
  bool changed = false;
  changed |= k2s_repair_shader_capability(m);
  changed |= repair_function_globals(m);
  changed |= repair_select_conditions(m);
  changed |= repair_sampler_filters(m);
  changed |= repair_level0_writes(m);
  return changed;
}
