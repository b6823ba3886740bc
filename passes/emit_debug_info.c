/*
 * debug-emit: the debug information recorded by the debug-info pass →
 * NonSemantic.Shader.DebugInfo.100, what Vulkan debuggers and profilers read.
 *
 * The recorded declarations are appended to the globals (their numbers become
 * 32-bit constants, as the NonSemantic set requires); each function that a
 * DebugFunction describes and that still exists gets a DebugFunctionDefinition
 * and, in every block, a DebugScope of that function, and each OpLine in it a
 * DebugLine (OpLine itself stays: it is valid Vulkan SPIR-V too). All of these
 * go after a block's OpPhi and OpVariable instructions, where the NonSemantic
 * rules want them. The extension SPV_KHR_non_semantic_info (needed below
 * SPIR-V 1.6) is declared by finalize, which runs next.
 *
 * --strip-debug instead drops the recorded information, OpLine/OpNoLine,
 * OpSource*, OpModuleProcessed and the OpStrings nothing else names (names
 * stay). Runs after every pass that moves code, before finalize.
 */
#include <string.h>

#include "debug_record.h"
#include "k2s_internal.h"

#define DBG(name) K2S_SHADER_DEBUGINFO_100_##name /* generated opcodes */

typedef struct emit_ctx {
  k2s_module *m;
  k2s_debug_record *r;
  uint32_t set, void_t, none;
  uint32_t *new_id; /* input id of a declaration -> its new id (0: none) */
  uint8_t *state;   /* input id of a declaration -> DECL_* */
  uint32_t cap;     /* size of new_id and state */
  uint32_t n_sources;
  uint32_t *source_file, *source_id; /* DebugSource: file OpString -> id */
} emit_ctx;

static k2s_instr *ext(emit_ctx *c, uint32_t op, const uint32_t *args, uint32_t n)
{
  return k2s_ext_inst_new(c->m, c->void_t, c->set, op, args, n);
}

static uint32_t global_ext(emit_ctx *c, uint32_t op, const uint32_t *args, uint32_t n)
{
  k2s_instr *i = ext(c, op, args, n);
  k2s_list_append(&c->m->sec[K2S_SEC_GLOBAL], i);
  return i->result;
}

static uint32_t none(emit_ctx *c)
{
  if (!c->none)
    c->none = global_ext(c, DBG(DebugInfoNone), NULL, 0);
  return c->none;
}

/* An OpString with this text: the input's if a pass has not removed it. */
static uint32_t string_id(emit_ctx *c, uint32_t id, const char *text)
{
  k2s_module *m = c->m;
  k2s_instr *d = k2s_def(m, id);
  if (d && d->opcode == SpvOpString)
    return id;
  if (!text)
    return 0;
  k2s_instr *s = k2s_string_new(m, text);
  k2s_list *l = &m->sec[K2S_SEC_DEBUG];
  if (l->first)
    k2s_list_insert_before(l, l->first, s); /* OpString comes first in its section */
  else
    k2s_list_append(l, s);
  return s->result;
}

static uint32_t operand_id(emit_ctx *c, const k2s_debug_operand *o)
{
  uint32_t id = 0;
  switch (o->kind) {
  case K2S_DBG_DECL: id = o->value < c->cap ? c->new_id[o->value] : 0; break;
  case K2S_DBG_STRING: id = string_id(c, o->value, o->text); break;
  case K2S_DBG_CONST: id = k2s_const_uint32(c->m, o->value); break;
  case K2S_DBG_VOID: id = c->void_t; break;
  default: break;
  }
  return id ? id : none(c);
}

/* Where a list operand (a function type's parameters, a composite's members,
 * a template's parameters) starts; a missing entry is left out of the list
 * rather than named DebugInfoNone, which the lists do not take. */
static uint32_t list_start(uint32_t op)
{
  switch (op) {
  case DBG(DebugTypeFunction): return 2;
  case DBG(DebugTypeComposite): return 9;
  case DBG(DebugTypeTemplate): return 1;
  default: return UINT32_MAX;
  }
}

/* Emit declaration k after the declarations it names (a composite after its
 * members, which the input lists after it); a reference that closes a cycle
 * counts as missing. Iterative, with an explicit stack: chains of scopes can
 * be long. */
enum { DECL_NEW, DECL_ACTIVE, DECL_DONE };

static bool missing(emit_ctx *c, const k2s_debug_operand *o)
{
  return o->kind == K2S_DBG_NONE ||
         (o->kind == K2S_DBG_DECL &&
          (o->value >= c->cap || !c->new_id[o->value] || c->state[o->value] != DECL_DONE));
}

static void emit_decl(emit_ctx *c, const k2s_debug_decl *d)
{
  k2s_module *m = c->m;
  /* The set and the instruction first: the OpExtInst is made whole. */
  uint32_t *ops = k2s_alloc(&m->arena, (d->n_ops + 3) * sizeof(uint32_t)), n = 0;
  uint32_t *args = ops + 2;
  ops[0] = c->set;
  ops[1] = d->op;
  for (uint32_t w = 0; w < d->n_ops; w++) {
    const k2s_debug_operand *o = &d->ops[w];
    if (missing(c, o) && w >= list_start(d->op))
      continue;
    args[n++] = missing(c, o) && o->kind == K2S_DBG_DECL ? none(c) : operand_id(c, o);
  }
  uint32_t id = c->new_id[d->id];
  k2s_instr *i = k2s_instr_new(m, SpvOpExtInst, c->void_t, id, ops, n + 2);
  k2s_list_append(&m->sec[K2S_SEC_GLOBAL], i);
  if (d->op == DBG(DebugSource) && n >= 1) {
    c->source_file[c->n_sources] = args[0];
    c->source_id[c->n_sources++] = id;
  }
}

static void emit_decls(emit_ctx *c)
{
  k2s_module *m = c->m;
  k2s_debug_record *r = c->r;
  uint32_t *index = k2s_alloc(&m->arena, c->cap * sizeof(uint32_t)); /* id -> k + 1 */
  for (uint32_t k = 0; k < r->n_decls; k++) {
    index[r->decls[k].id] = k + 1;
    c->new_id[r->decls[k].id] = k2s_new_id(m);
  }
  uint32_t *stack = k2s_alloc(&m->arena, (r->n_decls + 1) * sizeof(uint32_t)); /* decl k */
  uint32_t *next_op = k2s_alloc(&m->arena, (r->n_decls + 1) * sizeof(uint32_t));
  for (uint32_t root = 0; root < r->n_decls; root++) {
    if (c->state[r->decls[root].id] != DECL_NEW)
      continue;
    uint32_t sp = 0;
    stack[sp] = root;
    next_op[sp++] = 0;
    c->state[r->decls[root].id] = DECL_ACTIVE;
    while (sp) {
      const k2s_debug_decl *d = &r->decls[stack[sp - 1]];
      uint32_t w = next_op[sp - 1]++;
      if (w < d->n_ops) {
        const k2s_debug_operand *o = &d->ops[w];
        uint32_t t = o->kind == K2S_DBG_DECL && o->value < c->cap ? index[o->value] : 0;
        if (t && c->state[o->value] == DECL_NEW) {
          c->state[o->value] = DECL_ACTIVE;
          stack[sp] = t - 1;
          next_op[sp++] = 0;
        }
        continue;
      }
      emit_decl(c, d);
      c->state[d->id] = DECL_DONE;
      sp--;
    }
  }
}

/* The DebugSource of the file an OpLine names (a new one if none has it). */
static uint32_t source_of(emit_ctx *c, uint32_t file)
{
  for (uint32_t k = 0; k < c->n_sources; k++)
    if (c->source_file[k] == file)
      return c->source_id[k];
  uint32_t id = global_ext(c, DBG(DebugSource), &file, 1);
  c->source_file[c->n_sources] = file;
  c->source_id[c->n_sources++] = id;
  return id;
}

static k2s_instr *debug_line(emit_ctx *c, const k2s_instr *line)
{
  if (line->opcode == SpvOpNoLine)
    return ext(c, DBG(DebugNoLine), NULL, 0);
  uint32_t l = k2s_const_uint32(c->m, line->ops[1]), col = k2s_const_uint32(c->m, line->ops[2]);
  uint32_t args[5] = {source_of(c, line->ops[0]), l, l, col, col};
  return ext(c, DBG(DebugLine), args, 5);
}

static k2s_instr *in_block(k2s_block *b, k2s_instr *i)
{
  i->block = b;
  return i;
}

static bool is_line(const k2s_instr *i)
{
  return (i->opcode == SpvOpLine && i->n_ops >= 3) || i->opcode == SpvOpNoLine;
}

/* Scope, definition and lines for one function described by `dfn`. */
static void emit_function(emit_ctx *c, k2s_function *f, uint32_t dfn)
{
  k2s_foreach_block(b, f) {
    /* The prefix a NonSemantic instruction may not enter: phis, the entry
     * block's variables, and the lines among them. */
    k2s_instr *pos = NULL, *last_line = NULL;
    k2s_foreach_instr(i, &b->body) {
      if (i->opcode != SpvOpPhi && i->opcode != SpvOpVariable && !is_line(i))
        break;
      pos = i;
      if (is_line(i))
        last_line = i;
    }
    k2s_list *l = &b->body;
    k2s_instr *scope = in_block(b, ext(c, DBG(DebugScope), &dfn, 1));
    if (pos)
      k2s_list_insert_after(l, pos, scope);
    else if (l->first)
      k2s_list_insert_before(l, l->first, scope);
    else
      k2s_list_append(l, scope);
    pos = scope;
    if (b == f->first) {
      uint32_t args[2] = {dfn, f->def->result};
      k2s_instr *def = in_block(b, ext(c, DBG(DebugFunctionDefinition), args, 2));
      k2s_list_insert_after(l, pos, def);
      pos = def;
    }
    if (last_line)
      k2s_list_insert_after(l, pos, in_block(b, debug_line(c, last_line)));
  }
}

/* Every OpLine after the scope of a block: a DebugLine right after it, unless
 * it sits between a merge instruction and its branch. */
static void emit_lines_after_scope(emit_ctx *c, k2s_function *f)
{
  k2s_foreach_block(b, f) {
    bool after_scope = false;
    k2s_foreach_instr_safe(i, &b->body) {
      if (i->opcode == SpvOpExtInst && i->n_ops >= 2 && i->ops[0] == c->set &&
          i->ops[1] == DBG(DebugScope)) {
        after_scope = true;
        continue;
      }
      if (!after_scope || !is_line(i))
        continue;
      k2s_instr *p = i->prev;
      if (p && (p->opcode == SpvOpLoopMerge || p->opcode == SpvOpSelectionMerge))
        continue;
      k2s_list_insert_after(&b->body, i, in_block(b, debug_line(c, i)));
    }
  }
}

static bool strip(k2s_module *m)
{
  bool changed = false;
  static const int secs[] = {K2S_SEC_DEBUG, K2S_SEC_GLOBAL};
  for (int s = 0; s < 2; s++)
    k2s_foreach_instr_safe(i, &m->sec[secs[s]])
      if (is_line(i) || i->opcode == SpvOpSource || i->opcode == SpvOpSourceContinued ||
          i->opcode == SpvOpSourceExtension || i->opcode == SpvOpModuleProcessed) {
        k2s_instr_delete(m, i);
        changed = true;
      }
  k2s_foreach_function(f, m) {
    k2s_foreach_instr_safe(i, &f->head)
      if (is_line(i)) {
        k2s_instr_delete(m, i);
        changed = true;
      }
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body)
        if (is_line(i)) {
          k2s_instr_delete(m, i);
          changed = true;
        }
  }
  k2s_invalidate_uses(m);
  k2s_build_uses(m);
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_DEBUG])
    if (i->opcode == SpvOpString && !k2s_uses_of(m, i->result)) {
      k2s_instr_delete(m, i);
      changed = true;
    }
  k2s_invalidate_uses(m);
  return changed;
}

bool k2s_emit_debug_info(k2s_module *m, const k2s_options *o)
{
  k2s_debug_record *r = m->debug;
  if (o->strip_debug) {
    bool had = r && r->n_decls;
    m->debug = NULL;
    return strip(m) || had;
  }
  if (!r || !r->n_decls)
    return false;
  m->debug = NULL; /* emitted once, even by a sub-pipeline naming the pass twice */
  emit_ctx c = {.m = m, .r = r};
  c.set = k2s_ext_import(m, "NonSemantic.Shader.DebugInfo.100");
  c.void_t = k2s_type_void(m);
  c.cap = m->id_cap;
  c.new_id = k2s_alloc(&m->arena, c.cap * sizeof(uint32_t));
  c.state = k2s_alloc(&m->arena, c.cap);
  uint32_t max_sources = r->n_decls + m->bound + 1; /* one per decl or per OpString at most */
  c.source_file = k2s_alloc(&m->arena, max_sources * sizeof(uint32_t));
  c.source_id = k2s_alloc(&m->arena, max_sources * sizeof(uint32_t));
  emit_decls(&c);
  k2s_foreach_function(f, m)
    f->data = NULL;
  for (uint32_t k = 0; k < r->n_decls; k++) {
    const k2s_debug_decl *d = &r->decls[k];
    k2s_function *f = d->function ? k2s_function_of_id(m, d->function) : NULL;
    if (!f || !f->first || !c.new_id[d->id] || f->data == &c)
      continue;
    f->data = &c; /* one definition per function */
    emit_function(&c, f, c.new_id[d->id]);
    emit_lines_after_scope(&c, f);
  }
  k2s_foreach_function(f, m)
    if (f->data == &c)
      f->data = NULL;
  k2s_invalidate_uses(m);
  return true;
}
