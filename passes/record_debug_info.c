/*
 * debug-info: OpenCL.DebugInfo.100 (and NonSemantic.Shader.DebugInfo.100)
 * → recorded in m->debug, removed from the module.
 *
 * Vulkan takes no OpenCL.DebugInfo.100 instruction; its debuggers read
 * NonSemantic.Shader.DebugInfo.100. The declarations (source, compilation
 * unit, types, functions, variables, lexical blocks) are recorded here in the
 * NonSemantic layout and written back by the debug-emit pass at the end of the
 * pipeline, with a DebugFunctionDefinition, DebugScope and DebugLine per
 * function that still exists. Recording and removing them first means no
 * pass meets a debug instruction naming a value it rewrites: what names
 * values (DebugDeclare, DebugValue, a DebugGlobalVariable's variable) does not
 * survive pointer lowering and is dropped (a variable then reads as optimised
 * out). OpString, OpLine, OpSource and names stay. Runs first, after the input
 * repair (src/repair_compat.c) made the debug information valid; any module.
 */
#include <string.h>

#include "debug_record.h"
#include "k2s_internal.h"

uint32_t k2s_strip_debug_set(k2s_module *m, uint8_t set); /* src/repair_compat.c */

/* Opcodes (generated from the grammar): the NonSemantic set's, which equal
 * OpenCL.DebugInfo.100's up to DebugSource (35); 36, DebugModuleINTEL, is
 * OpenCL-only. */
#define DBG(name) K2S_SHADER_DEBUGINFO_100_##name
enum { DBG_LAST_SHARED = DBG(DebugSource) };

typedef struct record_ctx {
  k2s_module *m;
  k2s_debug_record *r;
  uint8_t *recorded; /* input id -> 1 once recorded */
} record_ctx;

static uint8_t debug_set_of(const k2s_module *m, const k2s_instr *i)
{
  if (i->opcode != SpvOpExtInst || i->n_ops < 2 || i->ops[0] >= m->id_cap)
    return K2S_EXT_UNKNOWN;
  uint8_t s = m->ext_set[i->ops[0]];
  return s == K2S_EXT_OPENCL_DEBUGINFO_100 || s == K2S_EXT_SHADER_DEBUGINFO_100 ? s
                                                                                : K2S_EXT_UNKNOWN;
}

/* The recorded form of an <id> operand of a debug declaration. */
static k2s_debug_operand id_operand(record_ctx *c, uint32_t id)
{
  k2s_module *m = c->m;
  k2s_instr *d = k2s_def(m, id);
  uint64_t v;
  if (!d)
    return (k2s_debug_operand){K2S_DBG_NONE, 0, NULL};
  /* A declaration: recorded already, or later (a composite's members). */
  if ((id < m->id_cap && c->recorded[id]) || debug_set_of(m, d) != K2S_EXT_UNKNOWN)
    return (k2s_debug_operand){K2S_DBG_DECL, id, NULL};
  if (d->opcode == SpvOpString)
    return (k2s_debug_operand){K2S_DBG_STRING, id, k2s_string_operand(d, 0)};
  if (d->opcode == SpvOpTypeVoid)
    return (k2s_debug_operand){K2S_DBG_VOID, 0, NULL};
  /* Sizes, offsets, counts and, in the NonSemantic set, every number: the
   * value is kept, the constant (whose type a pass may rewrite) is not. */
  if ((d->opcode == SpvOpConstant || d->opcode == SpvOpConstantNull) &&
      k2s_const_value(m, id, &v) && v <= UINT32_MAX)
    return (k2s_debug_operand){K2S_DBG_CONST, (uint32_t)v, NULL};
  return (k2s_debug_operand){K2S_DBG_NONE, 0, NULL};
}

static void push_decl(k2s_debug_record *r, k2s_arena *a, k2s_debug_decl d)
{
  if (r->n_decls == r->cap_decls) {
    uint32_t cap = r->cap_decls ? 2 * r->cap_decls : 64;
    k2s_debug_decl *n = k2s_alloc(a, cap * sizeof(*n));
    if (r->n_decls)
      memcpy(n, r->decls, r->n_decls * sizeof(*n));
    r->decls = n;
    r->cap_decls = cap;
  }
  r->decls[r->n_decls++] = d;
}

/* Record one declaration of the globals section; false when it has no
 * NonSemantic form (its users then name DebugInfoNone). */
static bool record_decl(record_ctx *c, const k2s_instr *i, uint8_t set)
{
  k2s_module *m = c->m;
  uint32_t op = i->ops[1];
  const k2s_extinst_info *info = k2s_extinst_set_inst(&k2s_extinst_sets[set], op);
  if (!info)
    return false;
  bool opencl = set == K2S_EXT_OPENCL_DEBUGINFO_100;
  /* Positions and value bindings are not declarations (DebugLine & co. have
   * no place among the globals anyway). */
  if ((opencl && op > DBG_LAST_SHARED) || op == DBG(DebugScope) || op == DBG(DebugNoScope) ||
      op == DBG(DebugDeclare) || op == DBG(DebugValue) || op == DBG(DebugFunctionDefinition) ||
      op == DBG(DebugLine) || op == DBG(DebugNoLine))
    return false;
  uint32_t n = i->n_ops - 2;
  k2s_debug_decl d = {i->result, op, 0, 0,
                      k2s_alloc(&m->arena, (n + 1) * sizeof(k2s_debug_operand))};
  for (uint32_t w = 0; w < n; w++) {
    uint32_t k = info->n_operands ? (w < info->n_operands ? w : info->n_operands - 1u) : 0;
    /* An enumerator's (Value, Name) pair is two <id>s. */
    const k2s_kind_info *kind = info->n_operands ? &k2s_kinds[k2s_extinst_info_operands(info)[k].kind] : NULL;
    bool is_id = kind && (kind->category == K2S_CAT_ID ||
                          (kind->category == K2S_CAT_COMPOSITE && kind->name_at &&
                           strcmp(k2s_kind_info_name(kind), "PairIdRefIdRef") == 0));
    uint32_t v = i->ops[2 + w];
    if (opencl) {
      /* The NonSemantic layout drops a few OpenCL operands: a member's
       * parent, an inheritance's child, a function's OpFunction. */
      if ((op == DBG(DebugTypeMember) && w == 5) || (op == DBG(DebugTypeInheritance) && w == 0))
        continue;
      if (op == DBG(DebugFunction) && w == 9) {
        k2s_instr *f = k2s_def(m, v);
        d.function = f && f->opcode == SpvOpFunction ? v : 0;
        continue;
      }
    }
    k2s_debug_operand o = is_id ? id_operand(c, v) : (k2s_debug_operand){K2S_DBG_CONST, v, NULL};
    if (op == DBG(DebugGlobalVariable) && w == 7)
      o = (k2s_debug_operand){K2S_DBG_NONE, 0, NULL}; /* the variable: rewritten by the passes */
    d.ops[d.n_ops++] = o;
  }
  if (opencl && op == DBG(DebugTypeBasic))
    d.ops[d.n_ops++] = (k2s_debug_operand){K2S_DBG_CONST, 0, NULL}; /* Flags: none */
  push_decl(c->r, &m->arena, d);
  c->recorded[i->result] = 1;
  return true;
}

/* NonSemantic input: DebugFunctionDefinition ties a DebugFunction to its
 * OpFunction from inside the body. */
static void record_definition(record_ctx *c, const k2s_instr *i)
{
  if (i->ops[1] != DBG(DebugFunctionDefinition) || i->n_ops < 4 || !i->block)
    return;
  for (uint32_t k = 0; k < c->r->n_decls; k++)
    if (c->r->decls[k].id == i->ops[2] && c->r->decls[k].op == DBG(DebugFunction))
      c->r->decls[k].function = i->block->func->def->result;
}

bool k2s_record_debug_info(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool present = false;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT])
    present |= i->result < m->id_cap && (m->ext_set[i->result] == K2S_EXT_OPENCL_DEBUGINFO_100 ||
                                         m->ext_set[i->result] == K2S_EXT_SHADER_DEBUGINFO_100);
  if (!present)
    return false;
  record_ctx c = {m, k2s_alloc(&m->arena, sizeof(k2s_debug_record)),
                  k2s_alloc(&m->arena, m->id_cap)};
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) {
    uint8_t set = debug_set_of(m, i);
    if (set != K2S_EXT_UNKNOWN && i->result && i->result < m->id_cap && !record_decl(&c, i, set))
      c.r->n_dropped++;
  }
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr(i, &b->body)
        if (debug_set_of(m, i) == K2S_EXT_SHADER_DEBUGINFO_100)
          record_definition(&c, i);
  m->debug = c.r;
  k2s_strip_debug_set(m, K2S_EXT_OPENCL_DEBUGINFO_100);
  k2s_strip_debug_set(m, K2S_EXT_SHADER_DEBUGINFO_100);
  return true;
}
