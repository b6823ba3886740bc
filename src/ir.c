/* The IR: lists of instructions, blocks and functions, the dense id table,
 * def-use chains built on demand, names and decorations by id. */
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

#define K2S_ID_LIMIT 0x3fffffu /* ids must stay below the universal limit 4194303 */

k2s_module *k2s_module_new(void)
{
  k2s_module *m = calloc(1, sizeof(*m));
  return m;
}

static void target_index_free(struct k2s_target_index *x);
static void record_uses_again(k2s_module *m, k2s_instr *i);
static bool target_index_fresh(const struct k2s_target_index *x, const k2s_list *l);
static void target_index_retarget(struct k2s_target_index *x, k2s_list *l, bool was_fresh,
                                  uint32_t old_id, uint32_t new_id);

void k2s_module_free(k2s_module *m)
{
  if (!m)
    return;
  target_index_free(m->name_idx);
  target_index_free(m->deco_idx);
  target_index_free(m->mdeco_idx);
  k2s_arena_free(&m->uses_arena);
  k2s_arena_free(&m->arena);
  free(m);
}

void k2s_list_append(k2s_list *l, k2s_instr *i)
{
  l->gen++;
  i->unlinked = false;
  i->prev = l->last;
  i->next = NULL;
  if (l->last)
    l->last->next = i;
  else
    l->first = i;
  l->last = i;
}

void k2s_list_insert_before(k2s_list *l, k2s_instr *pos, k2s_instr *i)
{
  if (!pos) {
    k2s_list_append(l, i);
    return;
  }
  l->gen++;
  i->unlinked = false;
  i->next = pos;
  i->prev = pos->prev;
  if (pos->prev)
    pos->prev->next = i;
  else
    l->first = i;
  pos->prev = i;
}

void k2s_list_insert_after(k2s_list *l, k2s_instr *pos, k2s_instr *i)
{
  l->gen++;
  i->unlinked = false;
  if (!pos) {
    i->prev = NULL;
    i->next = l->first;
    if (l->first)
      l->first->prev = i;
    else
      l->last = i;
    l->first = i;
    return;
  }
  i->prev = pos;
  i->next = pos->next;
  if (pos->next)
    pos->next->prev = i;
  else
    l->last = i;
  pos->next = i;
}

void k2s_list_remove(k2s_list *l, k2s_instr *i)
{
  l->gen++;
  if (i->prev)
    i->prev->next = i->next;
  else
    l->first = i->next;
  if (i->next)
    i->next->prev = i->prev;
  else
    l->last = i->prev;
  i->prev = i->next = NULL;
  i->unlinked = true;
}

static enum k2s_section section_of(uint16_t op)
{
  switch (op) {
  case SpvOpCapability: return K2S_SEC_CAPABILITY;
  case SpvOpExtension: return K2S_SEC_EXTENSION;
  case SpvOpExtInstImport: return K2S_SEC_EXT_IMPORT;
  case SpvOpMemoryModel: return K2S_SEC_MEMORY_MODEL;
  case SpvOpEntryPoint: return K2S_SEC_ENTRY_POINT;
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId: return K2S_SEC_EXECUTION_MODE;
  case SpvOpString:
  case SpvOpSourceExtension:
  case SpvOpSource:
  case SpvOpSourceContinued:
  case SpvOpName:
  case SpvOpMemberName:
  case SpvOpModuleProcessed: return K2S_SEC_DEBUG;
  case SpvOpDecorate:
  case SpvOpMemberDecorate:
  case SpvOpDecorationGroup:
  case SpvOpGroupDecorate:
  case SpvOpGroupMemberDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
  case SpvOpMemberDecorateString: return K2S_SEC_ANNOTATION;
  default: return K2S_SEC_GLOBAL;
  }
}

/* Opcodes whose module-level instructions may sit outside their section's
 * list: parameters (and debug lines) in function heads, non-semantic
 * instructions after the functions. */
static bool may_be_outside_section(uint16_t op)
{
  return op == SpvOpFunctionParameter || op == SpvOpExtInst || op == SpvOpLine || op == SpvOpNoLine;
}

k2s_list *k2s_instr_list(k2s_module *m, k2s_instr *i)
{
  if (i->block)
    return &i->block->body;
  /* Module-level instruction: its section list, which its opcode names. A
   * walk to find it there made deleting many of them quadratic (cleanup's
   * dead names on big4500: 8-13 s). */
  enum k2s_section s = section_of(i->opcode);
  if (!may_be_outside_section(i->opcode)) {
    bool linked = !i->unlinked && (i->prev || i->next || m->sec[s].first == i);
    return linked ? &m->sec[s] : NULL;
  }
  /* Function heads and the tail are found by walking, which only the rare
   * caller needs. */
  for (k2s_instr *j = m->sec[s].first; j; j = j->next)
    if (j == i)
      return &m->sec[s];
  k2s_foreach_function(f, m)
    for (k2s_instr *j = f->head.first; j; j = j->next)
      if (j == i)
        return &f->head;
  for (k2s_instr *j = m->tail.first; j; j = j->next)
    if (j == i)
      return &m->tail;
  return NULL;
}

/* Could this instruction be in the type/constant interning table? (A
 * superset is fine: it only costs a rebuild of the table.) */
static bool maybe_interned(const k2s_instr *i)
{
  uint16_t op = i->opcode;
  return !i->block && ((op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) ||
                       (op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) || op == SpvOpUndef);
}

/* Names and decorations (OpName, OpMemberName, OpDecorate*, OpMemberDecorate*):
 * no result, and the first operand, an <id>, is what they apply to. */
static bool targets_first_operand(uint16_t op)
{
  const k2s_opcode_info *info = k2s_opcode(op);
  return info && !info->has_result && info->n_operands && k2s_opcode_info_operands(info)[0].kind == K2S_OK_ID_REF;
}

void k2s_drop_annotations_of(k2s_module *m, const uint8_t *dead)
{
  static const int secs[] = {K2S_SEC_DEBUG, K2S_SEC_ANNOTATION};
#define GONE(id) ((id) <= m->bound && dead[id])
  for (int s = 0; s < 2; s++)
    k2s_foreach_instr_safe(i, &m->sec[secs[s]]) {
      bool drop = false;
      if (i->opcode == SpvOpGroupDecorate || i->opcode == SpvOpGroupMemberDecorate) {
        /* Targets follow the group (member targets in pairs). */
        uint32_t step = i->opcode == SpvOpGroupDecorate ? 1 : 2, w = 1;
        for (uint32_t k = 1; k + step - 1 < i->n_ops; k += step)
          if (!GONE(i->ops[k]))
            for (uint32_t j = 0; j < step; j++)
              i->ops[w++] = i->ops[k + j];
        drop = w == 1 && i->n_ops > 1;
        if (!drop && w != i->n_ops) {
          i->n_ops = w;
          record_uses_again(m, i);
        }
        if (!m->uses_kept)
          m->uses_valid = false;
      } else {
        drop = targets_first_operand(i->opcode) && i->n_ops && GONE(i->ops[0]);
      }
      if (drop) {
        k2s_list_remove(&m->sec[secs[s]], i);
        i->dead = true;
      }
    }
#undef GONE
}

void k2s_instr_delete(k2s_module *m, k2s_instr *i)
{
  /* Only a deleted type or constant makes the interning table stale;
   * invalidating on every deletion made passes quadratic. */
  if (maybe_interned(i))
    m->intern_valid = false;
  k2s_list *l = k2s_instr_list(m, i);
  if (l)
    k2s_list_remove(l, i);
  if (i->result && i->result < m->id_cap && m->def[i->result] == i)
    m->def[i->result] = NULL;
  i->block = NULL;
  /* Def-use stays valid: the chains drop dead users when next read
   * (rebuilding them after every deletion made passes quadratic). */
  i->dead = true;
}

static void uses_of_instr(k2s_module *m, k2s_instr *i);
static void copy_ops(k2s_module *m, k2s_instr *i, const uint32_t *ops, uint32_t n_ops);
static void add_use(k2s_module *m, k2s_instr *user, uint32_t id, uint32_t word);

k2s_instr *k2s_instr_new(k2s_module *m, uint16_t opcode, uint32_t type, uint32_t result,
                         const uint32_t *ops, uint32_t n_ops)
{
  k2s_instr *i = k2s_alloc(&m->arena, sizeof(*i));
  i->opcode = opcode;
  i->type = type;
  i->result = result;
  i->offset = K2S_NEW_OFFSET;
  copy_ops(m, i, ops, n_ops);
  if (result)
    k2s_set_def(m, result, i);
  /* Keep def-use valid by adding the new instruction's uses (a full rebuild
   * after every new instruction made passes quadratic in module size). */
  if (m->uses_valid)
    uses_of_instr(m, i);
  return i;
}

static void copy_ops(k2s_module *m, k2s_instr *i, const uint32_t *ops, uint32_t n_ops)
{
  if (n_ops > i->cap_ops) {
    i->ops = k2s_alloc(&m->arena, n_ops * sizeof(uint32_t));
    i->cap_ops = n_ops;
  }
  if (n_ops)
    memmove(i->ops, ops, n_ops * sizeof(uint32_t));
  i->n_ops = n_ops;
}

/* i's operands (or result type) changed: its old use records go stale and the
 * new ones are recorded, so def-use stays valid for the rest of the module
 * (a rebuild of the whole module per changed instruction was most of the
 * work on small modules: issue 16). */
static void record_uses_again(k2s_module *m, k2s_instr *i)
{
  if (!m->uses_valid)
    return;
  if (!m->uses_kept) { /* the pass may store into operands directly */
    m->uses_valid = false;
    return;
  }
  i->uses_gen++;
  i->uses_pending = false; /* recorded now; the pending list skips it */
  uses_of_instr(m, i);
}

void k2s_instr_set_ops(k2s_module *m, k2s_instr *i, const uint32_t *ops, uint32_t n_ops)
{
  copy_ops(m, i, ops, n_ops);
  record_uses_again(m, i);
}

void k2s_instr_set_op(k2s_module *m, k2s_instr *i, uint32_t word, uint32_t value)
{
  i->ops[word] = value;
  record_uses_again(m, i);
}

void k2s_instr_set_type(k2s_module *m, k2s_instr *i, uint32_t type)
{
  i->type = type;
  record_uses_again(m, i);
}

typedef struct rewrite_ctx {
  k2s_id_fn fn;
  void *ud;
  bool changed;
} rewrite_ctx;

static void rewrite_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  rewrite_ctx *c = ud;
  uint32_t old = *id;
  c->fn(c->ud, in, id);
  c->changed |= *id != old;
}

bool k2s_instr_rewrite_ids(k2s_module *m, k2s_instr *i, k2s_id_fn fn, void *ud)
{
  rewrite_ctx c = {fn, ud, false};
  k2s_foreach_id_operand(m, i, rewrite_cb, &c);
  if (c.changed)
    record_uses_again(m, i);
  return c.changed;
}

static void push_word(k2s_module *m, k2s_instr *i, uint32_t word)
{
  if (i->n_ops == i->cap_ops) {
    uint32_t cap = i->cap_ops ? i->cap_ops * 2 : 4;
    i->ops = k2s_realloc_array(&m->arena, i->ops, i->n_ops, cap, sizeof(uint32_t));
    i->cap_ops = cap;
  }
  i->ops[i->n_ops++] = word;
}

void k2s_instr_push_op(k2s_module *m, k2s_instr *i, uint32_t word)
{
  push_word(m, i, word);
  /* Whether the word is an <id> depends on the words still to come (an
   * OpExtInst's instruction number, a decoration's operands): the uses are
   * recorded when def-use is next read, once for all the words pushed. */
  if (!m->uses_valid || i->uses_pending)
    return;
  if (!m->uses_kept) {
    m->uses_valid = false;
    return;
  }
  if (m->n_uses_pending == m->cap_uses_pending) {
    uint32_t cap = m->cap_uses_pending ? 2 * m->cap_uses_pending : 64;
    m->uses_pending = k2s_realloc_array(&m->arena, m->uses_pending, m->n_uses_pending, cap,
                                        sizeof(*m->uses_pending));
    m->cap_uses_pending = cap;
  }
  m->uses_pending[m->n_uses_pending++] = i;
  i->uses_pending = true;
}

k2s_instr *k2s_ext_inst_new(k2s_module *m, uint32_t type, uint32_t set, uint32_t op,
                            const uint32_t *args, uint32_t n)
{
  /* Made whole: an empty OpExtInst does not fit the grammar, and recording
   * its uses (def-use kept valid) would format that complaint each time. */
  uint32_t small[16];
  uint32_t *ops = n + 2 <= 16 ? small : k2s_alloc(&m->arena, (n + 2) * sizeof(uint32_t));
  ops[0] = set;
  ops[1] = op;
  if (n)
    memcpy(ops + 2, args, n * sizeof(uint32_t));
  uint32_t id = k2s_new_id(m);
  return k2s_instr_new(m, SpvOpExtInst, type, id, ops, n + 2);
}

void k2s_instr_push_id(k2s_module *m, k2s_instr *i, uint32_t id)
{
  if (i->uses_pending) { /* recorded with the rest of its words */
    push_word(m, i, id);
    return;
  }
  push_word(m, i, id);
  /* One new use: recording it keeps def-use valid (a rebuild per pushed member
   * of a push-constant block made the work-item pass quadratic). */
  if (m->uses_valid)
    add_use(m, i, id, i->n_ops - 1);
}

void k2s_instr_push_string(k2s_module *m, k2s_instr *i, const char *s)
{
  size_t len = strlen(s);
  uint32_t n = k2s_string_words(s);
  for (uint32_t w = 0; w < n; w++) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < 4; b++) {
      size_t at = w * 4 + b;
      if (at < len)
        v |= (uint32_t)(unsigned char)s[at] << (8 * b);
    }
    k2s_instr_push_op(m, i, v);
  }
}

k2s_block *k2s_block_new(k2s_module *m, k2s_function *f, uint32_t label_id)
{
  k2s_block *b = k2s_alloc(&m->arena, sizeof(*b));
  b->func = f;
  b->label = k2s_instr_new(m, SpvOpLabel, 0, label_id, NULL, 0);
  k2s_index_block(m, b);
  return b;
}

void k2s_function_append_block(k2s_function *f, k2s_block *b)
{
  b->func = f;
  b->next = NULL;
  b->prev = f->last;
  if (f->last)
    f->last->next = b;
  else
    f->first = b;
  f->last = b;
}

void k2s_function_insert_block_after(k2s_function *f, k2s_block *pos, k2s_block *b)
{
  if (!pos || pos == f->last) {
    k2s_function_append_block(f, b);
    return;
  }
  b->func = f;
  b->prev = pos;
  b->next = pos->next;
  pos->next->prev = b;
  pos->next = b;
}

void k2s_function_remove_block(k2s_function *f, k2s_block *b)
{
  if (b->prev)
    b->prev->next = b->next;
  else
    f->first = b->next;
  if (b->next)
    b->next->prev = b->prev;
  else
    f->last = b->prev;
  b->prev = b->next = NULL;
}

/* A function's instructions enter or leave the module together: outside it
 * they are no uses (what a rebuild, which walks the module, would see). */
static void mark_function_unlinked(k2s_function *f, bool unlinked)
{
  if (f->def)
    f->def->unlinked = unlinked;
  k2s_foreach_instr(i, &f->head)
    i->unlinked = unlinked;
  k2s_foreach_block(b, f) {
    b->label->unlinked = unlinked;
    k2s_foreach_instr(i, &b->body)
      i->unlinked = unlinked;
  }
  if (f->end)
    f->end->unlinked = unlinked;
}

void k2s_module_append_function(k2s_module *m, k2s_function *f)
{
  mark_function_unlinked(f, false);
  f->prev = m->last_func;
  f->next = NULL;
  if (m->last_func)
    m->last_func->next = f;
  else
    m->first_func = f;
  m->last_func = f;
}

void k2s_module_remove_function(k2s_module *m, k2s_function *f)
{
  if (f->prev)
    f->prev->next = f->next;
  else
    m->first_func = f->next;
  if (f->next)
    f->next->prev = f->prev;
  else
    m->last_func = f->prev;
  f->prev = f->next = NULL;
  if (f->def && f->def->result < m->id_cap && m->func_of[f->def->result] == f)
    m->func_of[f->def->result] = NULL;
  /* Its instructions still name values; they are no uses now. */
  if (m->uses_kept)
    mark_function_unlinked(f, true);
  else
    m->uses_valid = false;
}

/* ---- ids ---- */

static void grow_ids(k2s_module *m, uint32_t need)
{
  if (need <= m->id_cap)
    return;
  uint32_t cap = m->id_cap ? m->id_cap : 64;
  while (cap < need)
    cap *= 2;
  m->def = k2s_realloc_array(&m->arena, m->def, m->id_cap, cap, sizeof(*m->def));
  m->func_of = k2s_realloc_array(&m->arena, m->func_of, m->id_cap, cap, sizeof(*m->func_of));
  if (m->block_of)
    m->block_of = k2s_realloc_array(&m->arena, m->block_of, m->id_cap, cap, sizeof(*m->block_of));
  m->ext_set = k2s_realloc_array(&m->arena, m->ext_set, m->id_cap, cap, 1);
  memset(m->ext_set + m->id_cap, K2S_EXT_UNKNOWN, cap - m->id_cap);
  if (m->uses) {
    m->uses_arena.oom = m->arena.oom;
    m->uses = k2s_realloc_array(&m->uses_arena, m->uses, m->id_cap, cap, sizeof(*m->uses));
  }
  m->id_cap = cap;
}

uint32_t k2s_new_id(k2s_module *m)
{
  if (m->bound >= K2S_ID_LIMIT && !m->ids_exhausted) {
    m->ids_exhausted = true;
    k2s_error(m, NULL,
              "the translated module needs more ids than SPIR-V allows (its id bound may not "
              "exceed %u; the input's bound is already %u)",
              K2S_ID_LIMIT, m->input_bound);
  }
  /* Past the limit, ids stay unique (never an existing id: a caller that
   * interns a type or constant would otherwise alias two definitions and
   * loop); the module has failed and is never written. */
  uint32_t id = m->bound++;
  grow_ids(m, m->bound);
  k2s_budget_tick();
  return id;
}

k2s_instr *k2s_def(const k2s_module *m, uint32_t id)
{
  if (id == 0 || id >= m->id_cap)
    return NULL;
  return m->def[id];
}

void k2s_set_def(k2s_module *m, uint32_t id, k2s_instr *i)
{
  grow_ids(m, id + 1);
  if (id >= m->bound)
    m->bound = id + 1;
  m->def[id] = i;
}

uint32_t k2s_type_of(const k2s_module *m, uint32_t id)
{
  k2s_instr *d = k2s_def(m, id);
  return d ? d->type : 0;
}

/* ---- def-use ---- */

typedef struct use_ctx {
  k2s_module *m;
  k2s_instr *user;
} use_ctx;

static void add_use(k2s_module *m, k2s_instr *user, uint32_t id, uint32_t word)
{
  if (id == 0 || id >= m->id_cap)
    return;
  /* Uses come in slabs: one k2s_alloc each would round 24 bytes up to 32. */
  if (!m->uses_free) {
    enum { SLAB = 1024 };
    m->uses_free = k2s_alloc_uninit(&m->uses_arena, SLAB * sizeof(k2s_use)); /* all set below */
    m->uses_free_end = m->uses_free + SLAB;
  }
  k2s_use *u = m->uses_free++;
  if (m->uses_free == m->uses_free_end)
    m->uses_free = NULL;
  u->user = user;
  u->word = word;
  u->gen = user->uses_gen;
  u->next = m->uses[id];
  m->uses[id] = u;
}

static void use_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  use_ctx *c = ud;
  add_use(c->m, in, *id, (uint32_t)(id - in->ops));
}

static void uses_of_instr(k2s_module *m, k2s_instr *i)
{
  use_ctx c = {m, i};
  if (i->type)
    add_use(m, i, i->type, UINT32_MAX);
  k2s_foreach_id_operand(m, i, use_cb, &c);
}

/* Records the uses of the instructions k2s_instr_push_op left pending. */
static void record_pending_uses(k2s_module *m)
{
  for (uint32_t k = 0; k < m->n_uses_pending; k++) {
    k2s_instr *i = m->uses_pending[k];
    if (i->uses_pending && !i->dead)
      record_uses_again(m, i);
    i->uses_pending = false;
  }
  m->n_uses_pending = 0;
}

void k2s_build_uses(k2s_module *m)
{
  if (m->uses_valid) {
    if (m->n_uses_pending)
      record_pending_uses(m);
    return;
  }
  for (uint32_t k = 0; k < m->n_uses_pending; k++)
    m->uses_pending[k]->uses_pending = false; /* the rebuild records them */
  m->n_uses_pending = 0;
  /* Old chains stay in the uses arena until the pass ends (see
   * k2s_release_stale_uses); rebuilding is rare compared to queries. */
  m->uses_arena.oom = m->arena.oom;
  m->uses = k2s_alloc(&m->uses_arena, m->id_cap * sizeof(*m->uses));
  m->uses_builds++;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s])
      uses_of_instr(m, i);
  k2s_foreach_instr(i, &m->tail)
    uses_of_instr(m, i);
  k2s_foreach_function(f, m) {
    uses_of_instr(m, f->def);
    k2s_foreach_instr(i, &f->head)
      uses_of_instr(m, i);
    k2s_foreach_block(b, f) {
      uses_of_instr(m, b->label);
      k2s_foreach_instr(i, &b->body)
        uses_of_instr(m, i);
    }
  }
  m->uses_valid = true;
}

void k2s_invalidate_uses(k2s_module *m)
{
  m->uses_valid = false;
}

void k2s_keep_uses(k2s_module *m)
{
  m->uses_kept = true;
}

void k2s_release_stale_uses(k2s_module *m)
{
  if (m->uses_valid)
    return; /* kept for the next pass (earlier builds of this pass stay too) */
  k2s_arena_free(&m->uses_arena);
  m->uses = NULL;
  m->uses_free = NULL;
}

/* Is u still a use of id: its user not deleted nor out of its list, its
 * operands not set again since, and the word still naming id? (What a rebuild
 * would record: it walks the lists.) */
static bool use_is_live(const k2s_use *u, uint32_t id)
{
  const k2s_instr *i = u->user;
  if (i->dead || i->unlinked || u->gen != i->uses_gen)
    return false;
  return u->word == UINT32_MAX ? i->type == id : u->word < i->n_ops && i->ops[u->word] == id;
}

/* Unlink stale uses (deleted users, operands set again) from id's chain. */
static void prune_dead(k2s_module *m, uint32_t id)
{
  for (k2s_use **u = &m->uses[id]; *u;)
    if (!use_is_live(*u, id))
      *u = (*u)->next;
    else
      u = &(*u)->next;
}

k2s_use *k2s_uses_of(k2s_module *m, uint32_t id)
{
  k2s_build_uses(m);
  if (id == 0 || id >= m->id_cap)
    return NULL;
  prune_dead(m, id);
  return m->uses[id];
}

void k2s_replace_all_uses(k2s_module *m, uint32_t old_id, uint32_t new_id)
{
  k2s_build_uses(m);
  if (old_id == 0 || old_id >= m->id_cap || old_id == new_id)
    return;
  prune_dead(m, old_id);
  bool rehash = false; /* a type or constant changed: interning is stale */
  bool retarget_names = false, retarget_decorations = false;
  bool names_fresh = target_index_fresh(m->name_idx, &m->sec[K2S_SEC_DEBUG]);
  bool decorations_fresh = target_index_fresh(m->deco_idx, &m->sec[K2S_SEC_ANNOTATION]);
  bool members_fresh = target_index_fresh(m->mdeco_idx, &m->sec[K2S_SEC_ANNOTATION]);
  for (k2s_use *u = m->uses[old_id]; u; u = u->next) {
    rehash |= maybe_interned(u->user);
    enum k2s_section sec = section_of(u->user->opcode);
    if (sec == K2S_SEC_DEBUG)
      retarget_names = true;
    else if (sec == K2S_SEC_ANNOTATION)
      retarget_decorations = true;
    if (u->word == UINT32_MAX)
      u->user->type = new_id;
    else
      u->user->ops[u->word] = new_id;
  }
  /* Move the chain over so later queries stay right without a rebuild. */
  k2s_use *tail = m->uses[old_id];
  if (tail && new_id < m->id_cap) {
    while (tail->next)
      tail = tail->next;
    tail->next = m->uses[new_id];
    m->uses[new_id] = m->uses[old_id];
  }
  m->uses[old_id] = NULL;
  if (rehash)
    m->intern_valid = false;
  if (retarget_names)
    target_index_retarget(m->name_idx, &m->sec[K2S_SEC_DEBUG], names_fresh, old_id, new_id);
  if (retarget_decorations) {
    target_index_retarget(m->deco_idx, &m->sec[K2S_SEC_ANNOTATION], decorations_fresh, old_id,
                          new_id);
    target_index_retarget(m->mdeco_idx, &m->sec[K2S_SEC_ANNOTATION], members_fresh, old_id, new_id);
  }
}

/* ---- names and decorations ---- */

/* A lookup index over one section: target id -> the instructions naming or
 * decorating it, in section order. It is valid while the section's gen and
 * ends are the ones it was built from; k2s_set_name/k2s_decorate keep it
 * valid as they append, anything else that edits the section makes the next
 * lookup rebuild it. Plain malloc: rebuilds must not grow the arena. */
typedef struct k2s_target_index {
  uint32_t gen;
  const k2s_instr *first, *last; /* the section's ends when built */
  uint32_t n_ids;                /* ids covered */
  uint32_t *head, *tail;         /* id -> entry + 1, 0 for none */
  k2s_instr **instr;
  uint32_t *next; /* entry -> next entry + 1 */
  uint32_t n, cap;
} k2s_target_index;

static void target_index_free(k2s_target_index *x)
{
  if (!x)
    return;
  free(x->head);
  free(x->tail);
  free(x->instr);
  free(x->next);
  free(x);
}

static bool target_index_fresh(const k2s_target_index *x, const k2s_list *l)
{
  return x && x->gen == l->gen && x->first == l->first && x->last == l->last;
}

/* Cover ids up to id: fresh ids past the bound the index was built with are
 * decorated all the time (a new block type, its array, its variable), and a
 * rebuild per such id would scan the section again each time. */
static bool target_index_cover(k2s_target_index *x, uint32_t id)
{
  if (id < x->n_ids)
    return true;
  uint32_t n = x->n_ids ? x->n_ids : 64;
  while (n <= id)
    n = n > UINT32_MAX / 2 ? UINT32_MAX : n * 2;
  if (n <= id)
    return false;
  uint32_t *head = realloc(x->head, ((size_t)n + 1) * sizeof(uint32_t));
  if (head)
    x->head = head;
  uint32_t *tail = realloc(x->tail, ((size_t)n + 1) * sizeof(uint32_t));
  if (tail)
    x->tail = tail;
  if (!head || !tail)
    return false;
  memset(head + x->n_ids, 0, ((size_t)n + 1 - x->n_ids) * sizeof(uint32_t));
  memset(tail + x->n_ids, 0, ((size_t)n + 1 - x->n_ids) * sizeof(uint32_t));
  x->n_ids = n;
  return true;
}

static bool target_index_add(k2s_target_index *x, k2s_instr *i)
{
  uint32_t id = i->ops[0];
  if (id >= x->n_ids && !target_index_cover(x, id)) /* covered: the call's cost saved */
    return false;
  if (x->n == x->cap) {
    uint32_t cap = x->cap ? x->cap * 2 : 256;
    k2s_instr **instr = realloc(x->instr, cap * sizeof(*instr));
    if (instr)
      x->instr = instr;
    uint32_t *next = realloc(x->next, cap * sizeof(*next));
    if (next)
      x->next = next;
    if (!instr || !next)
      return false;
    x->cap = cap;
  }
  x->instr[x->n] = i;
  x->next[x->n] = 0;
  if (x->tail[id])
    x->next[x->tail[id] - 1] = x->n + 1;
  else
    x->head[id] = x->n + 1;
  x->tail[id] = ++x->n;
  return true;
}

static bool indexed_name(const k2s_instr *i)
{
  return i->opcode == SpvOpName && i->n_ops >= 2;
}

static bool indexed_decoration(const k2s_instr *i)
{
  return (i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId) && i->n_ops >= 2;
}

static bool indexed_member_decoration(const k2s_instr *i)
{
  return i->opcode == SpvOpMemberDecorate && i->n_ops >= 3;
}

/* The fresh index of section l (rebuilt if stale), or NULL without memory. */
static k2s_target_index *target_index(const k2s_module *m, k2s_target_index **slot,
                                      const k2s_list *l, bool (*want)(const k2s_instr *))
{
  k2s_target_index *x = *slot;
  if (target_index_fresh(x, l))
    return x;
  target_index_free(x);
  *slot = x = calloc(1, sizeof(*x));
  if (!x)
    return NULL;
  x->n_ids = m->id_cap;
  x->head = calloc(x->n_ids + 1, sizeof(uint32_t));
  x->tail = calloc(x->n_ids + 1, sizeof(uint32_t));
  bool ok = x->head && x->tail;
  for (k2s_instr *i = l->first; ok && i; i = i->next)
    if (want(i) && !target_index_add(x, i))
      ok = false;
  if (!ok) {
    target_index_free(x);
    *slot = NULL;
    return NULL;
  }
  x->gen = l->gen;
  x->first = l->first;
  x->last = l->last;
  return x;
}

/* After appending i to section l through the API: keep a fresh index fresh. */
static void target_index_appended(k2s_target_index *x, const k2s_list *l, k2s_instr *i,
                                  bool was_fresh, bool (*want)(const k2s_instr *))
{
  if (!x || !was_fresh)
    return;
  if (want(i) && !target_index_add(x, i)) {
    x->gen = l->gen - 1; /* stale: rebuilt on the next lookup */
    return;
  }
  x->gen = l->gen;
  x->first = l->first;
  x->last = l->last;
}

/* After k2s_replace_all_uses moved the names or decorations of old_id to
 * new_id: move old_id's entries over when that keeps section order (new_id
 * had none), else let the next lookup rebuild. */
static void target_index_retarget(k2s_target_index *x, k2s_list *l, bool was_fresh, uint32_t old_id,
                                  uint32_t new_id)
{
  if (!x || !was_fresh)
    return; /* rebuilt on its next lookup anyway: leave the section's other indexes be */
  bool ok = old_id < x->n_ids && target_index_cover(x, new_id) && !x->head[new_id];
  if (ok)
    for (uint32_t e = x->head[old_id]; e; e = x->next[e - 1])
      ok &= x->instr[e - 1]->ops[0] == new_id;
  if (!ok) {
    l->gen++; /* stale */
    return;
  }
  x->head[new_id] = x->head[old_id];
  x->tail[new_id] = x->tail[old_id];
  x->head[old_id] = x->tail[old_id] = 0;
}

const char *k2s_name_of(const k2s_module *m, uint32_t id)
{
  const k2s_list *l = &m->sec[K2S_SEC_DEBUG];
  k2s_target_index *x = target_index(m, (k2s_target_index **)&m->name_idx, l, indexed_name);
  if (x && id >= x->n_ids)
    return NULL; /* the index covers every id its section names */
  if (x) {
    uint32_t e = x->head[id];
    if (!e)
      return NULL;
    k2s_instr *i = x->instr[e - 1];
    if (indexed_name(i) && i->ops[0] == id)
      return k2s_string_operand(i, 1);
  }
  k2s_foreach_instr(i, l) /* ids past the index, or an instruction edited in place */
    if (indexed_name(i) && i->ops[0] == id)
      return k2s_string_operand(i, 1);
  return NULL;
}

/* What a decoration lookup asks for: its kind of instruction (the index's predicate), the
 * target id, the decoration, and for OpDecorate a first literal (value, NULL: any) or for
 * OpMemberDecorate a member (K2S_ANY_MEMBER: any). */
typedef struct deco_query {
  bool (*indexed)(const k2s_instr *i);
  uint32_t id, decoration, member;
  const uint32_t *value;
} deco_query;

static bool deco_matches(const k2s_instr *i, const deco_query *q)
{
  if (!q->indexed(i) || i->ops[0] != q->id)
    return false;
  if (q->indexed == indexed_member_decoration)
    return (q->member == K2S_ANY_MEMBER || i->ops[1] == q->member) && i->ops[2] == q->decoration;
  return i->ops[1] == q->decoration && (!q->value || (i->n_ops >= 3 && i->ops[2] == *q->value));
}

/* Through the id index where it is intact, else a scan of the annotation section. */
static k2s_instr *find_deco(const k2s_module *m, void **idx_slot, const deco_query *q)
{
  const k2s_list *l = &m->sec[K2S_SEC_ANNOTATION];
  k2s_target_index *x = target_index(m, (k2s_target_index **)idx_slot, l, q->indexed);
  if (x && q->id >= x->n_ids)
    return NULL; /* the index covers every id its section names */
  if (x) {
    bool intact = true;
    for (uint32_t e = x->head[q->id]; e; e = x->next[e - 1]) {
      k2s_instr *i = x->instr[e - 1];
      if (!q->indexed(i) || i->ops[0] != q->id) {
        intact = false;
        break;
      }
      if (deco_matches(i, q))
        return i;
    }
    if (intact)
      return NULL;
  }
  k2s_foreach_instr(i, l)
    if (deco_matches(i, q))
      return i;
  return NULL;
}

k2s_instr *k2s_find_decoration_value(const k2s_module *m, uint32_t id, uint32_t decoration,
                                     const uint32_t *value)
{
  deco_query q = {indexed_decoration, id, decoration, 0, value};
  return find_deco(m, (void **)&m->deco_idx, &q);
}

k2s_instr *k2s_find_decoration(const k2s_module *m, uint32_t id, uint32_t decoration)
{
  return k2s_find_decoration_value(m, id, decoration, NULL);
}

k2s_instr *k2s_find_member_decoration(const k2s_module *m, uint32_t id, uint32_t member,
                                      uint32_t decoration)
{
  deco_query q = {indexed_member_decoration, id, decoration, member, NULL};
  return find_deco(m, (void **)&m->mdeco_idx, &q);
}

static bool decorates(const k2s_instr *i, uint32_t id)
{
  return i->n_ops >= 1 && i->ops[0] == id && section_of(i->opcode) == K2S_SEC_ANNOTATION &&
         i->opcode != SpvOpGroupDecorate && i->opcode != SpvOpGroupMemberDecorate;
}

static void remove_decoration(k2s_module *m, k2s_instr *i)
{
  k2s_list_remove(&m->sec[K2S_SEC_ANNOTATION], i);
  i->dead = true; /* def-use drops it when next read */
}

void k2s_remove_decorations(k2s_module *m, uint32_t id)
{
  if (m->uses_valid && id && id < m->id_cap) {
    /* Its uses name its decorations: no scan of the whole section per id. */
    for (k2s_use *u = k2s_uses_of(m, id); u; u = u->next)
      if (u->word == 0 && !u->user->block && decorates(u->user, id))
        remove_decoration(m, u->user);
  } else {
    k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_ANNOTATION])
      if (decorates(i, id))
        remove_decoration(m, i);
  }
  if (!m->uses_kept)
    m->uses_valid = false;
}

/* ---- execution modes by function ---- */

void k2s_mode_index_add(k2s_module *m, k2s_mode_index *x, k2s_instr *mode)
{
  if (mode->n_ops < 1 || mode->ops[0] >= x->bound)
    return;
  if (x->n == x->cap) {
    uint32_t cap = x->cap ? 2 * x->cap : 16;
    x->next = k2s_realloc_array(&m->arena, x->next, x->n, cap, sizeof(uint32_t));
    x->mode = k2s_realloc_array(&m->arena, x->mode, x->n, cap, sizeof(k2s_instr *));
    x->cap = cap;
  }
  x->mode[x->n] = mode;
  x->next[x->n] = x->first[mode->ops[0]];
  x->first[mode->ops[0]] = ++x->n;
}

k2s_mode_index k2s_index_execution_modes(k2s_module *m)
{
  k2s_mode_index x = {m->bound, k2s_alloc(&m->arena, m->bound * sizeof(uint32_t)), NULL, NULL, 0,
                      0};
  /* Backwards: each added mode goes first, so the lists come out in section order. */
  for (k2s_instr *e = m->sec[K2S_SEC_EXECUTION_MODE].last; e; e = e->prev)
    k2s_mode_index_add(m, &x, e);
  return x;
}

/* ---- capabilities and extensions ---- */

bool k2s_has_capability(const k2s_module *m, uint32_t cap)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_CAPABILITY])
    if (i->n_ops == 1 && i->ops[0] == cap)
      return true;
  return false;
}

void k2s_add_capability(k2s_module *m, uint32_t cap)
{
  if (!k2s_has_capability(m, cap))
    k2s_list_append(&m->sec[K2S_SEC_CAPABILITY], k2s_instr_new(m, SpvOpCapability, 0, 0, &cap, 1));
}

void k2s_remove_capability(k2s_module *m, uint32_t cap)
{
  k2s_foreach_instr_safe(i, &m->sec[K2S_SEC_CAPABILITY])
    if (i->n_ops == 1 && i->ops[0] == cap)
      k2s_list_remove(&m->sec[K2S_SEC_CAPABILITY], i);
}

/* Operand words: n_pre words, then a literal string (arena scratch). Helpers
 * build complete operands before k2s_instr_new so def-use stays valid. */
static uint32_t *ops_with_string(k2s_module *m, const uint32_t *pre, uint32_t n_pre, const char *s,
                                 uint32_t *n)
{
  size_t len = strlen(s);
  uint32_t n_str = k2s_string_words(s);
  uint32_t *ops = k2s_alloc(&m->arena, (n_pre + n_str) * sizeof(uint32_t));
  if (n_pre)
    memcpy(ops, pre, n_pre * sizeof(uint32_t));
  memcpy(ops + n_pre, s, len); /* the rest is zero: the terminator and padding */
  *n = n_pre + n_str;
  return ops;
}

k2s_instr *k2s_string_new(k2s_module *m, const char *s)
{
  /* Made whole, as k2s_ext_inst_new: an OpString without its string does not
   * fit the grammar. */
  uint32_t n;
  uint32_t *ops = ops_with_string(m, NULL, 0, s, &n);
  uint32_t id = k2s_new_id(m);
  return k2s_instr_new(m, SpvOpString, 0, id, ops, n);
}

void k2s_add_extension(k2s_module *m, const char *name)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXTENSION]) {
    const char *s = k2s_string_operand(i, 0);
    if (s && strcmp(s, name) == 0)
      return;
  }
  uint32_t n;
  uint32_t *ops = ops_with_string(m, NULL, 0, name, &n);
  k2s_list_append(&m->sec[K2S_SEC_EXTENSION], k2s_instr_new(m, SpvOpExtension, 0, 0, ops, n));
}

static uint8_t ext_set_of_name(const char *name)
{
  for (uint8_t s = 0; s < K2S_N_EXTINST_SETS; s++) {
    size_t n = strlen(k2s_extinst_set_import_name(&k2s_extinst_sets[s]));
    /* NonSemantic.ClspvReflection carries its revision as a suffix (".5"). */
    if (strncmp(name, k2s_extinst_set_import_name(&k2s_extinst_sets[s]), n) == 0 && (name[n] == 0 || name[n] == '.'))
      return s;
  }
  return K2S_EXT_UNKNOWN;
}

void k2s_note_ext_import(k2s_module *m, k2s_instr *i)
{
  const char *name = k2s_string_operand(i, 0);
  if (name && i->result < m->id_cap)
    m->ext_set[i->result] = ext_set_of_name(name);
}

uint32_t k2s_ext_import(k2s_module *m, const char *name)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT]) {
    const char *s = k2s_string_operand(i, 0);
    if (s && strcmp(s, name) == 0)
      return i->result;
  }
  uint32_t n;
  uint32_t *ops = ops_with_string(m, NULL, 0, name, &n);
  k2s_instr *i = k2s_instr_new(m, SpvOpExtInstImport, 0, k2s_new_id(m), ops, n);
  k2s_list_append(&m->sec[K2S_SEC_EXT_IMPORT], i);
  k2s_note_ext_import(m, i);
  return i->result;
}

void k2s_decorate(k2s_module *m, uint32_t id, uint32_t decoration, const uint32_t *extra,
                  uint32_t n_extra)
{
  uint32_t *ops = k2s_alloc(&m->arena, (2 + n_extra) * sizeof(uint32_t));
  ops[0] = id;
  ops[1] = decoration;
  for (uint32_t e = 0; e < n_extra; e++)
    ops[2 + e] = extra[e];
  k2s_instr *i = k2s_instr_new(m, SpvOpDecorate, 0, 0, ops, 2 + n_extra);
  k2s_list *l = &m->sec[K2S_SEC_ANNOTATION];
  bool fresh = target_index_fresh(m->deco_idx, l);
  bool members_fresh = target_index_fresh(m->mdeco_idx, l);
  k2s_list_append(l, i);
  target_index_appended(m->deco_idx, l, i, fresh, indexed_decoration);
  target_index_appended(m->mdeco_idx, l, i, members_fresh, indexed_member_decoration);
}

void k2s_member_decorate(k2s_module *m, uint32_t id, uint32_t member, uint32_t decoration,
                         const uint32_t *extra, uint32_t n_extra)
{
  uint32_t *ops = k2s_alloc(&m->arena, (3 + n_extra) * sizeof(uint32_t));
  ops[0] = id;
  ops[1] = member;
  ops[2] = decoration;
  for (uint32_t e = 0; e < n_extra; e++)
    ops[3 + e] = extra[e];
  k2s_instr *i = k2s_instr_new(m, SpvOpMemberDecorate, 0, 0, ops, 3 + n_extra);
  k2s_list *l = &m->sec[K2S_SEC_ANNOTATION];
  bool fresh = target_index_fresh(m->deco_idx, l);
  bool members_fresh = target_index_fresh(m->mdeco_idx, l);
  k2s_list_append(l, i);
  target_index_appended(m->deco_idx, l, i, fresh, indexed_decoration);
  target_index_appended(m->mdeco_idx, l, i, members_fresh, indexed_member_decoration);
}

void k2s_set_name(k2s_module *m, uint32_t id, const char *name)
{
  uint32_t n;
  uint32_t *ops = ops_with_string(m, &id, 1, name, &n);
  k2s_instr *i = k2s_instr_new(m, SpvOpName, 0, 0, ops, n);
  k2s_list *l = &m->sec[K2S_SEC_DEBUG];
  if (l->last && l->last->opcode == SpvOpModuleProcessed) {
    /* Names go before OpModuleProcessed (clang -g emits one); the index is
     * rebuilt when next read. */
    k2s_instr *mp = l->last;
    while (mp->prev && mp->prev->opcode == SpvOpModuleProcessed)
      mp = mp->prev;
    k2s_list_insert_before(l, mp, i);
    return;
  }
  bool fresh = target_index_fresh(m->name_idx, l);
  k2s_list_append(l, i);
  target_index_appended(m->name_idx, l, i, fresh, indexed_name);
}

enum k2s_section k2s_section_of_opcode(uint16_t op)
{
  return section_of(op);
}

bool k2s_is_debug_info(const k2s_module *m, const k2s_instr *i)
{
  if (i->opcode != SpvOpExtInst || i->n_ops < 1 || i->ops[0] >= m->id_cap)
    return false;
  if (m->ext_set && (m->ext_set[i->ops[0]] == K2S_EXT_OPENCL_DEBUGINFO_100 ||
                     m->ext_set[i->ops[0]] == K2S_EXT_SHADER_DEBUGINFO_100))
    return true;
  k2s_instr *imp = k2s_def(m, i->ops[0]);
  const char *name = imp && imp->opcode == SpvOpExtInstImport ? k2s_string_operand(imp, 0) : NULL;
  return name && strncmp(name, "NonSemantic.", 12) == 0;
}

/* ---- def-use self-check (debug builds, after every pass) ---- */

typedef struct use_triple {
  const k2s_instr *user;
  uint32_t word, id;
} use_triple;

typedef struct triple_list {
  k2s_arena *a;
  use_triple *v;
  size_t n, cap;
} triple_list;

static void push_triple(triple_list *l, const k2s_instr *user, uint32_t word, uint32_t id)
{
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    l->v = k2s_realloc_array(l->a, l->v, l->n, cap, sizeof(*l->v));
    l->cap = cap;
  }
  l->v[l->n++] = (use_triple){user, word, id};
}

typedef struct expect_ctx {
  triple_list *l; /* NULL: only count */
  uint32_t id_cap;
  size_t n;
} expect_ctx;

static void expect_cb(void *ud, k2s_instr *in, uint32_t *id)
{
  expect_ctx *c = ud;
  if (*id && *id < c->id_cap) {
    c->n++;
    if (c->l)
      push_triple(c->l, in, (uint32_t)(id - in->ops), *id);
  }
}

static void expect_instr(const k2s_module *m, expect_ctx *c, k2s_instr *i)
{
  if (i->type && i->type < m->id_cap) {
    c->n++;
    if (c->l)
      push_triple(c->l, i, UINT32_MAX, i->type);
  }
  k2s_foreach_id_operand(m, i, expect_cb, c);
}

/* The uses the module's instructions have (listed when l is not NULL); the count. */
static size_t expect_uses(const k2s_module *m, triple_list *l)
{
  expect_ctx c = {l, m->id_cap, 0};
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    k2s_foreach_instr(i, &m->sec[s])
      expect_instr(m, &c, i);
  k2s_foreach_instr(i, &m->tail)
    expect_instr(m, &c, i);
  k2s_foreach_function(f, m) {
    expect_instr(m, &c, f->def);
    k2s_foreach_instr(i, &f->head)
      expect_instr(m, &c, i);
    k2s_foreach_block(b, f) {
      expect_instr(m, &c, b->label);
      k2s_foreach_instr(i, &b->body)
        expect_instr(m, &c, i);
    }
  }
  return c.n;
}

static int cmp_triple(const void *pa, const void *pb)
{
  const use_triple *a = pa, *b = pb;
  if (a->user != b->user)
    return (uintptr_t)a->user < (uintptr_t)b->user ? -1 : 1;
  if (a->word != b->word)
    return a->word < b->word ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

const char *k2s_check_uses(k2s_module *m, k2s_arena *a)
{
  if (!m->uses_valid)
    return NULL;
  k2s_build_uses(m); /* the pending instructions */
  /* A live record always names its user's operand (use_is_live), and one
   * operand gets one live record (generations): equal counts mean equal sets
   * unless a user outside the lists makes up for a missing record, which the
   * lists below would show. Only a mismatch pays for sorting them. */
  size_t live = 0;
  for (uint32_t id = 1; id < m->id_cap; id++)
    for (k2s_use *u = m->uses[id]; u; u = u->next)
      live += use_is_live(u, id);
  if (live == expect_uses(m, NULL))
    return NULL;
  triple_list want = {a, NULL, 0, 0}, have = {a, NULL, 0, 0};
  expect_uses(m, &want);
  for (uint32_t id = 1; id < m->id_cap; id++)
    for (k2s_use *u = m->uses[id]; u; u = u->next)
      if (use_is_live(u, id))
        push_triple(&have, u->user, u->word, id);
  qsort(want.v, want.n, sizeof(*want.v), cmp_triple);
  qsort(have.v, have.n, sizeof(*have.v), cmp_triple);
  size_t i = 0, j = 0;
  while (i < want.n || j < have.n) {
    int c = i == want.n ? 1 : j == have.n ? -1 : cmp_triple(&want.v[i], &have.v[j]);
    if (c == 0) {
      i++, j++;
      continue;
    }
    const use_triple *t = c < 0 ? &want.v[i] : &have.v[j];
    return k2s_sprintf(a, "def-use %s the use of %%%u by %s%s (operand word %d)",
                       c < 0 ? "lacks" : "has a stale record of", t->id,
                       k2s_opcode_name(t->user->opcode),
                       t->user->result ? k2s_sprintf(a, " %%%u", t->user->result) : "",
                       t->word == UINT32_MAX ? -1 : (int)t->word);
  }
  return NULL;
}
