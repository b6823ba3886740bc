/*
 * k2s internal header: the IR, the engine's services and the pass interface.
 * One flat header on purpose (QBE style): every pass includes just this.
 */
#ifndef K2S_INTERNAL_H
#define K2S_INTERNAL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "k2s/k2s.h"
#include "k2s_tables.h"

/* ---- arena ------------------------------------------------------------ */

typedef struct k2s_arena_chunk k2s_arena_chunk;
typedef struct k2s_arena {
  k2s_arena_chunk *head;
  jmp_buf *oom; /* where to unwind when malloc fails; NULL: abort */
} k2s_arena;

struct k2s_arena_chunk {
  k2s_arena_chunk *next;
  size_t used, size;
  max_align_t data[];
};

void *k2s_alloc(k2s_arena *a, size_t size);   /* zeroed */
/* A new chunk for size (rounded) bytes: k2s_alloc_uninit when the head chunk is full. */
void *k2s_alloc_chunk(k2s_arena *a, size_t size);
/* Not zeroed: for memory every byte of which the caller writes before reading. Inline:
 * thousands of calls per small module, and the out-of-line call's register saves for
 * the rare new chunk cost more than the bump itself. */
static inline void *k2s_alloc_uninit(k2s_arena *a, size_t size)
{
  size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
  k2s_arena_chunk *c = a->head;
  if (__builtin_expect(!c || c->size - c->used < size, 0))
    return k2s_alloc_chunk(a, size);
  void *p = (char *)c->data + c->used;
  c->used += size;
  return p;
}
void *k2s_realloc_array(k2s_arena *a, void *old, size_t old_n, size_t new_n, size_t elem);
char *k2s_strdup(k2s_arena *a, const char *s);
char *k2s_sprintf(k2s_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *k2s_vsprintf(k2s_arena *a, const char *fmt, va_list ap);
void k2s_arena_free(k2s_arena *a);
size_t k2s_arena_bytes(const k2s_arena *a); /* allocated so far (a walk of its chunks) */
/* Frees everything allocated so far but keeps one chunk for what comes next:
 * scratch reused per function without a malloc and free each time. */
void k2s_arena_reset(k2s_arena *a);

/* The resource budget of one translation (src/budget.c): arena bytes and
 * time, checked by the library; exceeding it unwinds to the escape point. */
enum { K2S_BUDGET_MEMORY = 1, K2S_BUDGET_TIME = 2 };
typedef struct k2s_budget {
  uint64_t limit_bytes, used_bytes, peak_bytes, limit_bytes_asked;
  uint32_t limit_seconds, limit_seconds_asked; /* 0: none */
  double start;
  unsigned ticks;
  int exceeded; /* 0 or K2S_BUDGET_* */
  jmp_buf *escape;
  struct k2s_budget *outer;
} k2s_budget;
void k2s_budget_begin(k2s_budget *b, const k2s_options *o, jmp_buf *escape);
void k2s_budget_end(k2s_budget *b);
void k2s_budget_set_escape(jmp_buf *escape);
/* Arena chunks: bytes > 0 allocated (may unwind to arena_escape, else the
 * budget's escape), < 0 freed. */
void k2s_budget_charge(int64_t bytes, jmp_buf *arena_escape);
void k2s_budget_check_time(jmp_buf *escape);
/* After a local out-of-memory recovery: unwind on if the budget ran out. */
void k2s_budget_rethrow(void);
void k2s_budget_tick(void); /* cheap; checks the time now and then */
char *k2s_budget_message(k2s_arena *a, const k2s_budget *b);

/* A growable string in an arena. */
typedef struct k2s_strbuf {
  k2s_arena *arena;
  char *data;
  size_t len, cap;
} k2s_strbuf;
void k2s_sb_printf(k2s_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void k2s_sb_puts(k2s_strbuf *sb, const char *s);

/* ---- IR ----------------------------------------------------------------- */

#define K2S_NEW_OFFSET UINT32_MAX /* word offset of an instruction k2s created */

typedef struct k2s_block k2s_block;
typedef struct k2s_function k2s_function;
typedef struct k2s_module k2s_module;

typedef struct k2s_instr k2s_instr;
struct k2s_instr {
  k2s_instr *prev, *next; /* intrusive list: a section, a block or a function head */
  k2s_block *block;       /* owning block, NULL outside blocks */
  uint32_t *ops;          /* operand words after result type and result id */
  uint32_t n_ops, cap_ops;
  uint16_t opcode;
  uint32_t type;   /* result type id, 0 if none */
  uint32_t result; /* result id, 0 if none */
  uint32_t offset; /* word offset in the input, K2S_NEW_OFFSET if created */
  uint32_t uses_gen; /* its uses recorded in def-use carry this number; changing the
                        operands bumps it, so the old records read as stale */
  bool dead;         /* deleted: dropped from use chains when they are next read */
  bool uses_pending; /* operands pushed one by one: uses recorded at the next query */
  bool unlinked;     /* taken out of its list (k2s_list_remove): no uses until put back */
};

typedef struct k2s_list {
  k2s_instr *first, *last;
  uint32_t gen; /* bumped by every insertion and removal (lookup indexes check it) */
} k2s_list;

struct k2s_block {
  k2s_block *prev, *next;
  k2s_function *func;
  k2s_instr *label;
  k2s_list body; /* phis, variables, code, merge instruction and terminator */
  uint32_t index; /* scratch for analyses */
  void *data;     /* scratch for passes */
};

struct k2s_function {
  k2s_function *prev, *next;
  k2s_instr *def;     /* OpFunction */
  k2s_list head;      /* OpFunctionParameter (and any debug lines among them) */
  k2s_block *first, *last;
  k2s_instr *end;     /* OpFunctionEnd */
  void *data;         /* scratch for passes */
  bool physical;      /* physical-pointers lowered it: its global/constant pointers are
                         PhysicalStorageBuffer pointers, final; the pointers pass leaves
                         those alone (it still lowers Function/Private/Workgroup ones) */
};

enum k2s_section {
  K2S_SEC_CAPABILITY,
  K2S_SEC_EXTENSION,
  K2S_SEC_EXT_IMPORT,
  K2S_SEC_MEMORY_MODEL,
  K2S_SEC_ENTRY_POINT,
  K2S_SEC_EXECUTION_MODE,
  K2S_SEC_DEBUG,
  K2S_SEC_ANNOTATION,
  K2S_SEC_GLOBAL, /* types, constants, global variables, undef, lines */
  K2S_SEC_COUNT
};

typedef struct k2s_use k2s_use;
struct k2s_use {
  k2s_instr *user;
  uint32_t word; /* index into user->ops; UINT32_MAX means the result type */
  uint32_t gen;  /* user->uses_gen when recorded; any other value: stale */
  k2s_use *next;
};

typedef struct k2s_diag_node k2s_diag_node;

typedef struct k2s_intern_entry k2s_intern_entry;
typedef struct k2s_refl_facts k2s_refl_facts; /* facts for the host, filled by passes */

struct k2s_module {
  k2s_arena arena;
  uint32_t version, generator, schema;
  uint32_t bound;     /* next free id */
  uint32_t id_cap;    /* size of the id tables */
  bool big_endian;    /* the input's byte order; the writer keeps it */

  k2s_list sec[K2S_SEC_COUNT];
  k2s_function *first_func, *last_func;
  k2s_list tail; /* module-scope non-semantic instructions after the functions */

  k2s_instr **def;     /* id -> defining instruction (dense, bounds-checked) */
  k2s_function **func_of; /* OpFunction id -> function (a cache: see k2s_function_of_id) */
  k2s_block **block_of;   /* OpLabel id -> block (a cache: see k2s_block_of_label); NULL
                             until the first lookup */
  /* OpName / OpDecorate lookup by target id, rebuilt when their section
   * changed other than through k2s_set_name/k2s_decorate (src/ir.c). */
  struct k2s_target_index *name_idx, *deco_idx;
  struct k2s_target_index *mdeco_idx; /* OpMemberDecorate by structure id */
  uint8_t *ext_set;    /* id of an OpExtInstImport -> enum k2s_extinst_set_id */

  /* def-use, built on demand by k2s_build_uses(), dropped by k2s_invalidate_uses().
   * The chains live in their own arena: a rebuild leaves the old ones there
   * (a caller may still be walking one), and k2s_release_stale_uses() frees
   * them between passes, when no one is. */
  k2s_use **uses;
  bool uses_valid;
  uint32_t uses_builds; /* whole-module builds so far (--time-passes reports them per pass) */
  k2s_arena uses_arena;
  k2s_use *uses_free, *uses_free_end; /* the rest of the current slab of uses */
  /* Instructions whose operands were pushed since def-use was last read: their
   * uses are recorded when it is next read (k2s_instr_push_op). */
  k2s_instr **uses_pending;
  uint32_t n_uses_pending, cap_uses_pending;
  /* The running pass changes operands only through k2s_instr_set_ops/set_op/
   * set_type/push_op (k2s_keep_uses): def-use follows each change. Otherwise
   * (the default, reset before every pass) any such change drops def-use,
   * since the pass may also store into ops[] directly. */
  bool uses_kept;

  /* type and constant interning (find-or-create) */
  k2s_intern_entry **intern;
  uint32_t intern_cap, intern_count;
  bool intern_valid;

  /* diagnostics */
  k2s_diag_node *diags, *diags_last;
  size_t n_diags;
  bool failed;
  bool ids_exhausted;   /* k2s_new_id has reported running out of ids */
  uint32_t input_bound; /* the id bound the input module declared */
  const char *pass; /* the pass running now, for diagnostics */
  k2s_strbuf *log;  /* --print-after / --time-passes output */

  /* reflection produced by the passes (NULL until then) */
  k2s_refl_facts *refl;
  /* the input's debug information, recorded by the debug-info pass and
   * emitted again by debug-emit (src/debug_record.h); NULL when none */
  struct k2s_debug_record *debug;
  /* Loop controls (Unroll/DontUnroll) of producer OpLoopMerge instructions the
   * input repair dropped (k2s_repair_drop_merges), as (header label id, control)
   * pairs: structurize gives them to the loops it finds at those headers, so a
   * #pragma nounroll survives llvm-spirv's invalid merges. */
  uint32_t *loop_hints; /* sorted by label */
  uint32_t n_loop_hints;
};

/* list and IR manipulation */
#define k2s_foreach_instr(i, list) for (k2s_instr *i = (list)->first; i; i = i->next)
#define k2s_foreach_instr_safe(i, list)                                                    \
  for (k2s_instr *i = (list)->first, *i##_next = i ? i->next : NULL; i;                    \
       i = i##_next, i##_next = i ? i->next : NULL)
#define k2s_foreach_function(f, m) for (k2s_function *f = (m)->first_func; f; f = f->next)
#define k2s_foreach_block(b, f) for (k2s_block *b = (f)->first; b; b = b->next)

void k2s_list_append(k2s_list *l, k2s_instr *i);
void k2s_list_insert_before(k2s_list *l, k2s_instr *pos, k2s_instr *i);
void k2s_list_insert_after(k2s_list *l, k2s_instr *pos, k2s_instr *i);
void k2s_list_remove(k2s_list *l, k2s_instr *i);
k2s_list *k2s_instr_list(k2s_module *m, k2s_instr *i); /* the list holding i */
/* Remove i from its list and forget its result id. */
void k2s_instr_delete(k2s_module *m, k2s_instr *i);
/* Remove the names and decorations (debug and annotation sections) whose
 * target is marked in dead[0..m->bound], and drop such targets from
 * OpGroupDecorate/OpGroupMemberDecorate lists; for passes that delete values
 * in bulk. Removed instructions are marked dead. */
void k2s_drop_annotations_of(k2s_module *m, const uint8_t *dead);

k2s_instr *k2s_instr_new(k2s_module *m, uint16_t opcode, uint32_t type, uint32_t result,
                         const uint32_t *ops, uint32_t n_ops);
void k2s_instr_set_ops(k2s_module *m, k2s_instr *i, const uint32_t *ops, uint32_t n_ops);
void k2s_instr_push_op(k2s_module *m, k2s_instr *i, uint32_t word);
/* One operand word, or the result type, changed in place; def-use stays valid
 * (a plain store into ops[] or type leaves it stale: the debug build's check
 * after each pass names the instruction). */
void k2s_instr_set_op(k2s_module *m, k2s_instr *i, uint32_t word, uint32_t value);
void k2s_instr_set_type(k2s_module *m, k2s_instr *i, uint32_t type);
/* A new (unlinked) OpExtInst of `set` with a fresh result id: instruction `op` of the set
 * on the n id operands args. */
k2s_instr *k2s_ext_inst_new(k2s_module *m, uint32_t type, uint32_t set, uint32_t op,
                            const uint32_t *args, uint32_t n);
/* A new (unlinked) OpString of s with a fresh result id. */
k2s_instr *k2s_string_new(k2s_module *m, const char *s);
/* Appends an <id> operand, keeping def-use valid (push_op drops it). */
void k2s_instr_push_id(k2s_module *m, k2s_instr *i, uint32_t id);
k2s_block *k2s_block_new(k2s_module *m, k2s_function *f, uint32_t label_id);
void k2s_function_append_block(k2s_function *f, k2s_block *b);
void k2s_function_insert_block_after(k2s_function *f, k2s_block *pos, k2s_block *b);
void k2s_function_remove_block(k2s_function *f, k2s_block *b);
void k2s_module_append_function(k2s_module *m, k2s_function *f);
void k2s_module_remove_function(k2s_module *m, k2s_function *f);

k2s_module *k2s_module_new(void);
void k2s_module_free(k2s_module *m);

/* ids */
uint32_t k2s_new_id(k2s_module *m); /* reports overflow of the id limit */
k2s_instr *k2s_def(const k2s_module *m, uint32_t id); /* NULL if out of range or undefined */
void k2s_set_def(k2s_module *m, uint32_t id, k2s_instr *i);
uint32_t k2s_type_of(const k2s_module *m, uint32_t id); /* result type of id's definition */

/* Operand decoding driven by the grammar tables. */
enum k2s_operand_class {
  K2S_OPND_ID,      /* an <id> */
  K2S_OPND_LITERAL, /* literal number word(s) */
  K2S_OPND_STRING,  /* a literal string (n words) */
  K2S_OPND_ENUM,    /* an enumerant word */
};
typedef struct k2s_operand {
  uint32_t word;   /* index in instr->ops */
  uint32_t n_words;
  uint16_t kind;   /* enum k2s_operand_kind */
  uint8_t cls;     /* enum k2s_operand_class */
  /* K2S_OPND_ID: the id must name a value (a result with a type), by the
   * grammar (k2s_operand_desc.not_value); false for labels, functions, types,
   * strings, sets, and the operands of an extended set k2s does not know. */
  bool value;
} k2s_operand;
typedef bool (*k2s_operand_fn)(void *ud, const k2s_instr *in, const k2s_operand *op);
/* Calls fn for each operand (fn returning false stops the walk). Returns NULL
 * on success or a message saying how the words do not fit the grammar. */
const char *k2s_walk_operands(const k2s_module *m, const k2s_instr *in, k2s_operand_fn fn,
                              void *ud);
/* Calls fn(ud, in, &id_word) for every <id> operand word (not result type/result). */
typedef void (*k2s_id_fn)(void *ud, k2s_instr *in, uint32_t *id);
/* The instructions whose ids the opcode's generated layout places by the operand
 * count alone take the inline path (most of them: every walk of a pass over ids comes
 * here, and inline the callback is known at the call); the others decode their
 * enum, set or case operands (src/operands.c). */
void k2s_foreach_id_operand_slow(const k2s_module *m, k2s_instr *in, k2s_id_fn fn, void *ud);
static inline void k2s_foreach_id_operand(const k2s_module *m, k2s_instr *in, k2s_id_fn fn, void *ud)
{
  uint32_t n = in->n_ops;
  if (in->opcode < K2S_OPCODE_LIMIT && n < k2s_id_layouts[in->opcode].fast_limit) {
    const k2s_id_layout *l = &k2s_id_layouts[in->opcode];
    uint32_t fixed = n < l->n_fixed ? n : l->n_fixed;
    uint64_t mask = l->mask;
    uint32_t w = 0;
    for (; w < fixed; w++)
      if (mask >> w & 1)
        fn(ud, in, &in->ops[w]);
    if (l->tail == K2S_TAIL_IDS)
      for (; w < n; w++)
        fn(ud, in, &in->ops[w]);
    return;
  }
  k2s_foreach_id_operand_slow(m, in, fn, ud);
}
/* The same walk for fn to store new ids into the words: def-use follows (the
 * instruction's uses recorded again) when any word changed. True then. */
bool k2s_instr_rewrite_ids(k2s_module *m, k2s_instr *i, k2s_id_fn fn, void *ud);
/* False when no operand of the opcode can be an enum value (by the grammar), so a
 * walk looking for enum operands has nothing to find; true for unknown opcodes. */
bool k2s_opcode_may_have_enum_operands(uint16_t opcode);
/* True when the grammar alone says that in's operand words are well-formed (the walk
 * would find no fault: k2s_operand_shapes, or one-word operands then an enum whose
 * value's parameters are one word each); false where they are not, or only the walk
 * can tell. */
bool k2s_operands_well_formed(const k2s_instr *in);
/* Calls fn for each enum operand of in, as k2s_walk_operands reports them (fn returning
 * false stops), decoding by kind where the grammar allows and walking otherwise. */
void k2s_foreach_enum_operand(const k2s_module *m, const k2s_instr *in, k2s_operand_fn fn, void *ud);
const k2s_opcode_info *k2s_opcode(uint16_t opcode); /* NULL if unknown */
const char *k2s_opcode_name(uint16_t opcode);       /* "Op<n>" text if unknown */
/* The grammar's instruction class of opcode (enum k2s_op_class), -1 if unknown. */
int k2s_opcode_class(uint16_t opcode);
/* The operand words of opcode that are memory operands (pointers): bit k for
 * word k, from the grammar's operand names (src/gen_tables.py); 0 if none. */
uint8_t k2s_pointer_operands(uint16_t opcode);
const char *k2s_enumerant_name(uint16_t kind, uint32_t value);
/* The grammar's enumerant of kind with value (its capabilities, version, ...); NULL if none. */
const k2s_enumerant *k2s_enumerant_of(uint16_t kind, uint32_t value);
/* The enumerants an enum operand (op, from k2s_walk_operands) of in names, one per call
 * from *at (start at 0): its value for a value enum, each whose bits are all set for a
 * bit enum (None never); NULL after the last. */
const k2s_enumerant *k2s_next_named_enumerant(const k2s_instr *in, const k2s_operand *op,
                                              uint32_t *at);
const char *k2s_string_operand(const k2s_instr *in, uint32_t word); /* NULL if unterminated */
uint32_t k2s_string_words(const char *s);
/* Append a literal string operand. */
void k2s_instr_push_string(k2s_module *m, k2s_instr *i, const char *s);

void k2s_note_ext_import(k2s_module *m, k2s_instr *i); /* records the set of an import */
enum k2s_section k2s_section_of_opcode(uint16_t op);

/* def-use */
void k2s_build_uses(k2s_module *m);
/* Frees the def-use chains when they are no longer valid. Only where nothing
 * holds a k2s_use (between passes). */
void k2s_release_stale_uses(k2s_module *m);
void k2s_invalidate_uses(k2s_module *m);
/* Called by a pass that changes operands only through the API (never a plain
 * store into ops[] or type): def-use then stays valid across its changes
 * instead of being rebuilt after each (SPIRV-Tools opt's "preserved analyses").
 * The debug build checks def-use against the module after every pass. */
void k2s_keep_uses(k2s_module *m);
/* NULL when def-use is invalid or matches the module's operands exactly;
 * else what differs (debug builds check it after every pass). */
const char *k2s_check_uses(k2s_module *m, k2s_arena *scratch);
#define k2s_foreach_use(u, m, id) for (k2s_use *u = k2s_uses_of(m, id); u; u = u->next)
k2s_use *k2s_uses_of(k2s_module *m, uint32_t id);
void k2s_replace_all_uses(k2s_module *m, uint32_t old_id, uint32_t new_id);

/* names and decorations */
const char *k2s_name_of(const k2s_module *m, uint32_t id); /* OpName or NULL */
/* An OpenCL.DebugInfo.100, NonSemantic.Shader.DebugInfo.100 or other
 * NonSemantic.* instruction: it only describes the module. */
bool k2s_is_debug_info(const k2s_module *m, const k2s_instr *i);
/* Finds OpDecorate target Decoration; returns the instruction or NULL. */
k2s_instr *k2s_find_decoration(const k2s_module *m, uint32_t id, uint32_t decoration);
/* The same, for a decoration whose first literal is *value (FuncParamAttr NoWrite:
 * one id may carry several decorations of one kind); value NULL: any. */
k2s_instr *k2s_find_decoration_value(const k2s_module *m, uint32_t id, uint32_t decoration,
                                     const uint32_t *value);
/* Finds OpMemberDecorate structure member Decoration (indexed like the above);
 * member K2S_ANY_MEMBER: the first such decoration of any member. */
#define K2S_ANY_MEMBER UINT32_MAX
k2s_instr *k2s_find_member_decoration(const k2s_module *m, uint32_t id, uint32_t member,
                                      uint32_t decoration);
void k2s_remove_decorations(k2s_module *m, uint32_t id);
/* The execution modes of each function id, built in one walk of their section
 * (a walk per entry point made many-kernel modules quadratic). A list is in
 * section order; modes added later (k2s_mode_index_add) come first. */
typedef struct k2s_mode_index {
  uint32_t bound;   /* ids indexed: 1 .. bound-1 */
  uint32_t *first;  /* by id: 1 + index into mode, 0 for none */
  uint32_t *next;   /* by index: 1 + the next of the same id, 0 at the end */
  k2s_instr **mode;
  uint32_t n, cap;
} k2s_mode_index;
k2s_mode_index k2s_index_execution_modes(k2s_module *m);
void k2s_mode_index_add(k2s_module *m, k2s_mode_index *x, k2s_instr *mode);
#define k2s_foreach_mode_of(x, id, e)                                                         \
  for (uint32_t e##_k = (id) < (x)->bound ? (x)->first[id] : 0; e##_k;                       \
       e##_k = (x)->next[e##_k - 1])                                                          \
    for (k2s_instr *e = (x)->mode[e##_k - 1]; e; e = NULL)

/* ---- diagnostics ---------------------------------------------------------- */

void k2s_diag(k2s_module *m, k2s_severity sev, const k2s_instr *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define k2s_error(m, at, ...) k2s_diag((m), K2S_ERROR, (at), __VA_ARGS__)
#define k2s_warn(m, at, ...) k2s_diag((m), K2S_WARNING, (at), __VA_ARGS__)
/* Disassemble one instruction ("%5 = OpIAdd %uint %3 %4") into the arena. */
char *k2s_print_instr(k2s_module *m, const k2s_instr *in);

/* ---- parse, write, validate ---------------------------------------------- */

typedef struct k2s_parse_error {
  int64_t word_offset;
  char message[1024];
} k2s_parse_error;

/* The structure the passes rely on (src/check_structure.c); false after an error. */
bool k2s_check_structure(k2s_module *m, bool values);
bool k2s_check_validator_hazards(k2s_module *m);
/* Returns NULL and fills *err on failure. */
k2s_module *k2s_parse(const uint32_t *words, size_t n_words, k2s_parse_error *err);
/* Serialize; the result lives in the module's arena. */
uint32_t *k2s_write(k2s_module *m, size_t *n_words);
uint32_t *k2s_write_native(k2s_module *m, size_t *n_words); /* host byte order */
/* Validate words with SPIRV-Tools; returns NULL or a message (arena-allocated). */
char *k2s_validate_words(k2s_arena *a, const uint32_t *words, size_t n, int spv_env,
                         int64_t *word_offset);
char *k2s_validate_words_layout(k2s_arena *a, const uint32_t *words, size_t n, int spv_env,
                                bool scalar_block_layout, int64_t *word_offset);
/* Disassemble a module to text with SPIRV-Tools (arena-allocated), NULL on failure. */
char *k2s_disassemble(k2s_arena *a, const uint32_t *words, size_t n);
uint64_t k2s_hash_module(k2s_module *m);

/* ---- types, constants, builder -------------------------------------------- */

/* Find-or-create: never creates a duplicate non-aggregate type or constant.
 * (Structs are always new: SPIR-V allows distinct identical structs.) */
uint32_t k2s_type_void(k2s_module *m);
uint32_t k2s_type_bool(k2s_module *m);
uint32_t k2s_type_int(k2s_module *m, uint32_t width, bool is_signed);
uint32_t k2s_type_float(k2s_module *m, uint32_t width);
uint32_t k2s_type_vector(k2s_module *m, uint32_t elem, uint32_t n);
uint32_t k2s_type_array(k2s_module *m, uint32_t elem, uint32_t length_id);
uint32_t k2s_type_runtime_array(k2s_module *m, uint32_t elem);
uint32_t k2s_type_pointer(k2s_module *m, uint32_t storage_class, uint32_t pointee);
uint32_t k2s_type_function(k2s_module *m, uint32_t ret, const uint32_t *params, uint32_t n);
uint32_t k2s_type_struct(k2s_module *m, const uint32_t *members, uint32_t n); /* always new */
/* Redeclares buffer variable var (Uniform, StorageBuffer, PushConstant) as a Block
 * `struct { words; }` (the member at offset 0) and moves it after its new pointer type,
 * at the end of the globals; its accesses are the caller's to retype. */
void k2s_retype_block_variable(k2s_module *m, k2s_instr *var, uint32_t words);
uint32_t k2s_const_int(k2s_module *m, uint32_t type, uint64_t value);
uint32_t k2s_const_uint32(k2s_module *m, uint32_t value);
uint32_t k2s_const_float(k2s_module *m, uint32_t type, double value);
uint32_t k2s_const_bool(k2s_module *m, bool value);
uint32_t k2s_const_null(k2s_module *m, uint32_t type);
uint32_t k2s_const_composite(k2s_module *m, uint32_t type, const uint32_t *parts, uint32_t n);
/* scalar_const itself for a scalar type; for a vector type, a composite of it in every lane */
uint32_t k2s_const_splat(k2s_module *m, uint32_t type, uint32_t scalar_const);
uint32_t k2s_spec_const_uint32(k2s_module *m, uint32_t spec_id, uint32_t default_value);
uint32_t k2s_undef(k2s_module *m, uint32_t type);
/* Generic find-or-create of a global (type/constant) instruction. */
uint32_t k2s_intern(k2s_module *m, uint16_t opcode, uint32_t type, const uint32_t *ops,
                    uint32_t n_ops);
void k2s_invalidate_intern(k2s_module *m);
/* Type queries (0 / false when id is not such a type). */
uint32_t k2s_type_width(const k2s_module *m, uint32_t type); /* int/float width, vector elem */
uint32_t k2s_vector_size(const k2s_module *m, uint32_t type); /* 1 for scalars */
uint32_t k2s_scalar_type(const k2s_module *m, uint32_t type);
bool k2s_const_value(const k2s_module *m, uint32_t id, uint64_t *value); /* int constants */
/* Integer constant folding (cleanup, scalar-replace's indices): the value of the
 * scalar integer operation i (arithmetic, bitwise, shifts, UConvert/SConvert, Not,
 * SNegate; integer comparisons give 0/1) on operand values vals[0..i->n_ops),
 * truncated to the result's width; false where it is not such an operation, or
 * the result is undefined (division by zero, a shift by the width or more). Signed
 * division and remainders are left to the driver. */
bool k2s_fold_int(const k2s_module *m, const k2s_instr *i, const uint64_t *vals, uint64_t *out);
/* The string literal a pointer points into (a variable with a constant initializer of
 * 8-bit integers, at a constant offset; printf formats), NUL-terminated, or NULL. */
const char *k2s_string_literal(k2s_module *m, uint32_t ptr);
void k2s_add_capability(k2s_module *m, uint32_t cap);
bool k2s_has_capability(const k2s_module *m, uint32_t cap);
void k2s_remove_capability(k2s_module *m, uint32_t cap);
void k2s_add_extension(k2s_module *m, const char *name);
uint32_t k2s_ext_import(k2s_module *m, const char *name); /* find-or-create */
void k2s_decorate(k2s_module *m, uint32_t id, uint32_t decoration, const uint32_t *extra,
                  uint32_t n_extra);
void k2s_member_decorate(k2s_module *m, uint32_t id, uint32_t member, uint32_t decoration,
                         const uint32_t *extra, uint32_t n_extra);
void k2s_set_name(k2s_module *m, uint32_t id, const char *name);
/* Append a global variable (or other global) to the globals section. */
uint32_t k2s_global_variable(k2s_module *m, uint32_t ptr_type, uint32_t storage_class,
                             uint32_t initializer);

/* A cursor: where the builder inserts the next instruction. */
typedef enum k2s_cursor_kind {
  K2S_CURSOR_BEFORE,
  K2S_CURSOR_AFTER,
  K2S_CURSOR_BLOCK_START, /* after phis and (in the entry block) variables */
  K2S_CURSOR_BLOCK_END,   /* before the merge instruction and terminator */
  K2S_CURSOR_BLOCK_APPEND /* after everything (to build terminators) */
} k2s_cursor_kind;
typedef struct k2s_cursor {
  k2s_cursor_kind kind;
  k2s_instr *instr;
  k2s_block *block;
} k2s_cursor;
typedef struct k2s_builder {
  k2s_module *m;
  k2s_cursor cursor;
} k2s_builder;

static inline k2s_cursor k2s_before(k2s_instr *i) { return (k2s_cursor){K2S_CURSOR_BEFORE, i, i->block}; }
static inline k2s_cursor k2s_after(k2s_instr *i) { return (k2s_cursor){K2S_CURSOR_AFTER, i, i->block}; }
static inline k2s_cursor k2s_block_start(k2s_block *b) { return (k2s_cursor){K2S_CURSOR_BLOCK_START, NULL, b}; }
static inline k2s_cursor k2s_block_end(k2s_block *b) { return (k2s_cursor){K2S_CURSOR_BLOCK_END, NULL, b}; }
static inline k2s_cursor k2s_block_append(k2s_block *b) { return (k2s_cursor){K2S_CURSOR_BLOCK_APPEND, NULL, b}; }

/* Insert an instruction at the cursor; returns its result id (0 if none).
 * The cursor moves past the new instruction. */
uint32_t k2s_emit(k2s_builder *b, uint16_t opcode, uint32_t type, const uint32_t *ops,
                  uint32_t n_ops);
k2s_instr *k2s_emit_instr(k2s_builder *b, uint16_t opcode, uint32_t type, const uint32_t *ops,
                          uint32_t n_ops);
/* Whether op ends a block (a branch, return, OpKill, OpUnreachable, ...). */
bool k2s_is_terminator(uint16_t op);
k2s_instr *k2s_block_terminator(k2s_block *b);
k2s_instr *k2s_block_merge(k2s_block *b); /* OpSelectionMerge/OpLoopMerge or NULL */
/* The Unroll/DontUnroll bits of the producer OpLoopMerge the input repair dropped
 * from the block labelled `label` (m->loop_hints; src/repair.c), or 0. */
uint32_t k2s_repaired_loop_hint(const k2s_module *m, uint32_t label);

/* Copy f with fresh ids (not inserted in the module), its names and decorations too. */
k2s_function *k2s_clone_function(k2s_module *m, k2s_function *f);
k2s_function *k2s_function_of_id(const k2s_module *m, uint32_t id);
/* Sets seen[id] for f and every function reachable from it through calls (seen: bound bytes). */
void k2s_mark_called(k2s_module *m, k2s_function *f, uint8_t *seen);
void k2s_delete_functions(k2s_module *m, k2s_function *const *fns, uint32_t n);
void k2s_delete_function(k2s_module *m, k2s_function *f);

/* Physical mode for one function (passes/lower_physical_pointers.c): global and
 * constant pointers become PhysicalStorageBuffer64 pointers; sets f->physical. Runs
 * before kernel-args, which passes such pointer parameters as 64-bit addresses.
 * Returns false after an error. */
bool k2s_physical_lower_function(k2s_module *m, k2s_function *f, const k2s_options *o);

/* OpenCL C data layout (src/layout.c). */
bool k2s_cl_layout(const k2s_module *m, uint32_t type, uint64_t *size, uint64_t *align);
uint64_t k2s_cl_member_offset(const k2s_module *m, uint32_t st, uint32_t member);
/* Every member's offset in one walk (k2s_cl_member_offset walks the members before the
 * one asked for): packed = k2s_cl_packed(struct), *end = 0 before the first member; the
 * member of type `type` goes at the offset returned, and *end becomes its end. */
bool k2s_cl_packed(const k2s_module *m, uint32_t st);
uint64_t k2s_cl_place_member(const k2s_module *m, uint32_t type, bool packed, uint64_t *end);
/* Does the type have bytes no scalar of it occupies (struct padding)? A typed copy of
 * it skips them; memcpy must not. */
bool k2s_cl_has_padding(const k2s_module *m, uint32_t type);
bool k2s_decorate_layout(k2s_module *m, uint32_t type, const k2s_instr *why);

/* ---- reflection: facts for the host, filled by the interface passes ------ */

enum k2s_refl_arg_kind {
  K2S_ARG_BUFFER,     /* StorageBuffer */
  K2S_ARG_BUFFER_UBO, /* constant pointer as a uniform buffer */
  K2S_ARG_POD,        /* POD in a storage buffer */
  K2S_ARG_POD_UBO,
  K2S_ARG_POD_PUSH_CONSTANT,
  K2S_ARG_LOCAL, /* local pointer: Workgroup array sized by a spec constant */
  K2S_ARG_POINTER_PUSH_CONSTANT, /* physical mode: a 64-bit address in the push constants */
  K2S_ARG_POINTER_UBO,           /* physical mode: a 64-bit address in the POD uniform buffer */
  K2S_ARG_SAMPLED_IMAGE,         /* read_only image: VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE */
  K2S_ARG_STORAGE_IMAGE,         /* write_only/read_write image: STORAGE_IMAGE */
  K2S_ARG_SAMPLER,               /* sampler_t: VK_DESCRIPTOR_TYPE_SAMPLER */
  K2S_ARG_UNIFORM_TEXEL_BUFFER,  /* read_only image1d_buffer_t */
  K2S_ARG_STORAGE_TEXEL_BUFFER,  /* write_only/read_write image1d_buffer_t */
};

/* A 32-bit push constant the host writes about an image or sampler argument: an
 * image's CL_* channel order or data type (clspv's ImageArgumentInfoChannel{Order,
 * DataType}PushConstant), or the sampler_t bits of a sampler argument that meets a
 * 3-D or array image (NormalizedSamplerMaskPushConstant: the host binds a normalized
 * sampler and the shader scales unnormalized coordinates itself). */
enum k2s_image_info_kind {
  K2S_INFO_CHANNEL_ORDER,
  K2S_INFO_CHANNEL_DATA_TYPE,
  K2S_INFO_SAMPLER_MASK
};
typedef struct k2s_refl_image_info {
  uint32_t ordinal, offset;
  uint32_t what;   /* enum k2s_image_info_kind */
  uint32_t member; /* its member of the kernel's push-constant block */
} k2s_refl_image_info;

/* A literal sampler (clspv's LiteralSampler): Mask is the OpenCL sampler_t bits. */
typedef struct k2s_refl_sampler {
  uint32_t set, binding, mask, var;
} k2s_refl_sampler;

enum k2s_push_constant {
  K2S_PC_GLOBAL_OFFSET,
  K2S_PC_GLOBAL_SIZE,
  K2S_PC_ENQUEUED_LOCAL_SIZE,
  K2S_PC_NUM_WORKGROUPS,
  K2S_PC_REGION_OFFSET,
  K2S_PC_REGION_GROUP_OFFSET,
  K2S_PC_COUNT
};

typedef struct k2s_refl_arg {
  const char *name, *type_name;
  uint32_t ordinal, kind, set, binding, offset, size, spec_id, elem_size;
  uint32_t var;    /* buffers, images and samplers: their variable (kernel-args) */
  bool read_write; /* a read_write image (reflected as a storage image) */
  const char *image_format; /* --image-format's ORDER:TYPE for a storage image, or NULL */
} k2s_refl_arg;

typedef struct k2s_refl_kernel {
  const char *name;
  uint32_t func; /* the entry point's function id */
  k2s_refl_arg *args;
  uint32_t n_args;
  bool has_reqd;
  uint32_t reqd[3];
  bool may_use_printf; /* the Kernel instruction's MayUsePrintf flag (set by the printf lowering) */
  /* clGetKernelArgInfo facts for clspv's ArgumentInfo, recorded by entry-points from
   * the kernel's parameters before any pass retypes them, and present only when the
   * producer supplied the type names (llvm-spirv's "kernel_arg_type.K." OpString):
   * per ordinal the type name, CL_KERNEL_ARG_ADDRESS_*, CL_KERNEL_ARG_ACCESS_* and
   * the CL_KERNEL_ARG_TYPE_* bits. n_arg_info is 0 when the producer gave none. */
  uint32_t n_arg_info;
  const char **arg_type_name;
  uint32_t *arg_address, *arg_access, *arg_type_qual;
  const char *hints;   /* "work_group_size_hint(...) vec_type_hint(...)" or NULL (entry-points) */
  uint32_t pc_offset[K2S_PC_COUNT]; /* UINT32_MAX when the kernel does not use it */
  uint32_t pc_var;                   /* its push-constant variable, 0 if none */
  uint32_t pc_struct;                /* that variable's struct type */
  uint32_t pc_end;                   /* bytes its members occupy (end of the last) */
  uint32_t pc_member[K2S_PC_COUNT];  /* member index of each pc_offset entry */
  k2s_refl_image_info *image_info;   /* images: host-supplied order / data type */
  uint32_t n_image_info;
  /* Read from the module by the reflection pass for the text forms, which are made
   * after later passes changed it: the kernel's pointer mode, and the Workgroup
   * memory its code uses (fixed bytes, bytes per work-item, k2s's scratch of each). */
  bool physical;
  uint64_t wg_bytes, wg_bytes_per_item, wg_scratch, wg_scratch_per_item;
} k2s_refl_kernel;

/* The subgroup features JSON "subgroups" names (VkSubgroupFeatureFlagBits). */
enum k2s_subgroup_op {
  K2S_SUBGROUP_BASIC,
  K2S_SUBGROUP_VOTE,
  K2S_SUBGROUP_ARITHMETIC,
  K2S_SUBGROUP_BALLOT,
  K2S_SUBGROUP_SHUFFLE,
  K2S_SUBGROUP_OP_COUNT
};

struct k2s_refl_facts {
  k2s_refl_kernel *kernels;
  uint32_t n_kernels, cap_kernels;
  /* OpFunction id -> 1 + its index in kernels (0: none), so that finding a
   * kernel's facts is O(1): a scan per kernel made 4,500 kernels cost 10%. */
  uint32_t *kernel_index, cap_kernel_index;
  bool has_wg_spec;
  uint32_t wg_spec[3];
  bool has_work_dim;
  uint32_t work_dim_spec;
  uint32_t next_spec_id; /* SpecIds 0..2 are the work-group size */
  /* The OpenCL program uses sub-group functions (cl_khr_subgroups): the host must run full
   * sub-groups of consecutive linear local ids (docs/runtime-abi.md, "Sub-groups"). */
  bool uses_sub_groups;
  /* Program-scope variables kernels write (OpenCL C 2.0): one storage buffer the host
   * creates and fills with these bytes (the initialisers in OpenCL layout) before a
   * dispatch (ProgramScopeVariablesStorageBuffer); has_psv false when there is none. */
  bool has_psv;
  uint32_t psv_set, psv_binding;
  uint8_t *psv_data;
  uint32_t psv_size;
  /* Read-only module-scope data in one storage buffer (clspv's ConstantDataStorageBuffer):
   * `constant` variables under -module-constants-in-storage-buffer, and read-only
   * program-scope `global` variables too big for a Private copy. */
  bool has_constant_data;
  uint32_t cd_set, cd_binding;
  uint8_t *cd_data;
  uint32_t cd_size;
  k2s_refl_sampler *samplers; /* literal samplers, one per distinct value */
  uint32_t n_samplers;
  /* printf (passes/lower_printf.c): one storage buffer of printf_size bytes the host
   * zero-fills before a dispatch and decodes after it (docs/runtime-abi.md, "printf"),
   * and one entry per format string and per string-literal argument (clspv's
   * PrintfInfo). has_printf false when no kernel calls printf. */
  bool has_printf;
  uint32_t printf_set, printf_binding, printf_size;
  struct k2s_refl_printf {
    uint32_t id;
    const char *format; /* NUL-terminated; the NUL ends it */
    uint32_t *arg_sizes; /* bytes each argument occupies in a record (multiples of 4) */
    uint32_t n_args;
  } *printfs;
  uint32_t n_printfs;
  /* Read from the module by the reflection pass for the text forms: the subgroup
   * features its code uses (bits of enum k2s_subgroup_op; subgroup_any: any at all),
   * whether one works on a non-32-bit type, and its atomics' device features. */
  uint8_t subgroup_ops;
  bool subgroup_extended, subgroup_any;
  uint32_t atomic_features;
  bool text_ready; /* the reflection pass ran: k2s_reflection_json/csv can be made */
};

/* Vulkan device features the module's atomics need (src/atomic_features.c): a
 * bit set of enum k2s_atomic_feature, each named by k2s_atomic_feature_name(). */
enum k2s_atomic_feature {
  K2S_ATOMIC_INT64_BUFFER, /* the shared-memory feature of each is the next bit */
  K2S_ATOMIC_F16_ADD_BUFFER = 2,
  K2S_ATOMIC_F16_MINMAX_BUFFER = 8,
  K2S_ATOMIC_FEATURE_COUNT = 14
};
uint32_t k2s_atomic_features(k2s_module *m);
/* The type of the value an atomic instruction reads or writes (0: not an atomic). */
uint32_t k2s_atomic_value_type(const k2s_module *m, const k2s_instr *i);
/* Whether op is in the grammar's Atomic instruction class (its operand 0 is the pointer). */
bool k2s_is_atomic(uint16_t op);
/* The value an atomic read-modify-write of opcode op leaves in memory of type T,
 * built at b from the value it read (old), its Value operand v and, for a
 * compare-exchange, its Comparator (src/atomic_ops.c): op(old, v) for the
 * arithmetic, bitwise and min/max atomics (float min/max as OpenCL.std fmin/fmax),
 * old ± 1 for increment/decrement, v for exchange, v if old == comparator (else
 * old) for compare-exchange. 0 for an atomic that does not update a value (load,
 * store, the flag instructions) and for any other opcode. */
uint32_t k2s_build_atomic_update(k2s_builder *b, uint16_t op, uint32_t T, uint32_t old,
                                 uint32_t v, uint32_t comparator);
const char *k2s_atomic_feature_name(uint32_t feature);

k2s_refl_facts *k2s_refl(k2s_module *m); /* created on first use */
k2s_refl_kernel *k2s_refl_kernel_of(k2s_module *m, uint32_t func);
k2s_refl_kernel *k2s_refl_add_kernel(k2s_module *m, uint32_t func, const char *name);
uint32_t k2s_kernel_push_constant(k2s_module *m, k2s_refl_kernel *k, uint32_t type,
                                  uint32_t *offset);
uint32_t k2s_kernel_push_constant_size(k2s_module *m, const k2s_refl_kernel *k);
/* The reflection as --reflect JSON and as clspv's descriptor-map CSV
 * (src/reflection_text.c), in m's arena, from facts the reflection pass completed
 * (m->refl->text_ready); the module may have changed since. */
char *k2s_reflection_json(k2s_module *m);
char *k2s_reflection_csv(k2s_module *m);
/* data as hex, two lower-case digits per byte (clspv's Data strings). */
char *k2s_refl_hex_bytes(k2s_arena *a, const uint8_t *data, size_t size);
/* The name of push constant p (enum of K2S_PC_COUNT entries), as clspv spells it. */
const char *k2s_refl_push_constant_name(int p);

/* ---- analyses (built on demand) ------------------------------------------- */

typedef struct k2s_cfg {
  k2s_function *func;
  uint32_t n_blocks;
  k2s_block **blocks;    /* by index (function order) */
  uint32_t **succ, *n_succ;
  uint32_t **pred, *n_pred;
  uint32_t *rpo, n_rpo;  /* reachable blocks in reverse post-order */
  uint32_t *idom;        /* immediate dominator index; UINT32_MAX for entry/unreachable */
  uint32_t *dom_pre, *dom_post; /* dominator-tree intervals (k2s_cfg_dominates); pre
                                   UINT32_MAX for unreachable blocks */
  uint32_t *ipdom;       /* immediate post-dominator; UINT32_MAX = virtual exit */
} k2s_cfg;

uint32_t k2s_graph_rpo(k2s_arena *a, uint32_t n, uint32_t *const *succ, const uint32_t *n_succ,
                       uint32_t start, uint32_t *rpo);
k2s_cfg *k2s_cfg_build(k2s_module *m, k2s_arena *a, k2s_function *f);
void k2s_cfg_dominators(k2s_cfg *c, k2s_arena *a);
void k2s_cfg_post_dominators(k2s_cfg *c, k2s_arena *a);
bool k2s_cfg_dominates(const k2s_cfg *c, uint32_t a, uint32_t b);
/* The block label_id opens, if it is in a function of the module; O(1) through an
 * index that k2s_block_new and k2s_clone_function keep (src/cfg.c). */
k2s_block *k2s_block_of_label(k2s_module *m, uint32_t label_id);
void k2s_index_block(k2s_module *m, k2s_block *b);
/* Move `first` and every instruction after it in its block into a new block
 * labelled label_id, placed right after; the phis of the function that name the
 * old block as a predecessor (those of the moved terminator's targets) name the
 * new one. The old block is left without a terminator. */
k2s_block *k2s_split_block(k2s_module *m, k2s_instr *first, uint32_t label_id);
/* A loop for (k = lo; k < hi; k++) (unsigned compare, k of hi's type) put before
 * `at`: at's block is split there (k2s_split_block) and branches to head; head
 * holds k's phi and the test, body holds k + 1 (`step`) and the back branch, and
 * the body's code goes before step. Unstructured: structurize gives it a merge. */
typedef struct k2s_counted_loop {
  k2s_block *head, *body, *rest;
  uint32_t k;
  k2s_instr *step;
} k2s_counted_loop;
k2s_counted_loop k2s_build_counted_loop(k2s_module *m, k2s_instr *at, uint32_t lo, uint32_t hi);

/* ---- passes --------------------------------------------------------------- */

/* A pass returns whether it changed the module; errors go through k2s_error(),
 * which marks the module failed. */
typedef bool (*k2s_pass_fn)(k2s_module *m, const k2s_options *o);

typedef struct k2s_pass_info {
  const char *name;
  k2s_pass_fn run;
  const char *description;
} k2s_pass_info;

extern const k2s_pass_info k2s_pipeline[];
extern const size_t k2s_pipeline_length;
int k2s_target_spv_env(k2s_target_env e);
int k2s_input_spv_env(uint32_t version);
int k2s_input_spv_env_of(const k2s_module *m); /* with the OpenCL env workarounds */
int k2s_input_spv_env_words(const uint32_t *w, size_t n); /* the same, from words */
int k2s_parse_pass_list(k2s_module *m, const char *spec, const k2s_pass_info ***out);
bool k2s_run_passes(k2s_module *m, const k2s_options *o, const k2s_pass_info **list, int n,
                    int validate_env);
const k2s_diagnostic *k2s_module_diag(const k2s_module *m, size_t i);


#include "k2s_passes.h"

#endif
