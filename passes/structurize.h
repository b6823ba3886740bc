/*
 * structurize's shared state: the pass is split by concern over
 * passes/structurize*.c (the phases and the entry in structurize.c, the CFG layer
 * in structurize_cfg.c, loops in structurize_loops.c, selection merges in
 * structurize_regions.c, SSA repair in structurize_ssa.c); this header is theirs
 * alone. Functions shared between the files carry the prefix k2s_sz_.
 */
#ifndef K2S_STRUCTURIZE_H
#define K2S_STRUCTURIZE_H

#include "k2s_internal.h"

#define NONE UINT32_MAX

typedef struct binfo {
  uint32_t idx;                       /* index in the current snapshot */
  uint32_t loop;                      /* innermost loop holding the block, NONE outside loops */
  uint32_t merge;                     /* label of the OpSelectionMerge chosen for this header */
  uint32_t loop_merge_of;             /* the loop whose merge block this is, NONE */
  uint32_t control;                   /* loop control of a producer OpLoopMerge here */
  uint32_t seen;                      /* stamp for walks */
  bool claimed;                       /* a merge or continue target: no selection may merge here */
  bool processed;                     /* phase 4 gave this header its merge */
  bool keep;                          /* an unreachable merge block made here: never delete */
  bool sel_merge;                     /* the merge block of a selection */
  uint32_t fall_to;                   /* a case construct: the case target it falls through to */
  uint32_t *falls, nfalls, cap_falls; /* a switch: (case, next case) fallthrough label pairs */
  /* funnel's scratch: stamps and slots of targets, sources, rerouted sources */
  uint32_t tstamp, tslot, sstamp, sslot, qstamp, qslot, rstamp;
  uint32_t astamp; /* find_fallthroughs: a successor of the switch */
} binfo;

typedef struct loop {
  k2s_block *header, *cont, *merge;
  uint32_t parent;
  uint32_t pre, post; /* numbers in the loop forest: nesting tests in O(1) */
  bool has_exits;     /* normalised with edges to its merge */
} loop;

typedef struct edge {
  k2s_block *from, *to;
} edge;

typedef struct st {
  k2s_module *m;
  k2s_function *f;
  k2s_arena a;    /* scratch for one function */
  k2s_arena snap; /* the current snapshot; freed when it is rebuilt */
  k2s_block **lbl;
  uint32_t lbl_cap;
  bool changed;
  uint32_t *dead; /* ids of deleted blocks and values, module arena */
  uint32_t n_dead, cap_dead;
  uint32_t walk_stamp;
  uint32_t *words, cap_words; /* k2s_sz_words' buffer, in a */

  /* snapshot of the CFG */
  uint32_t n;
  k2s_block **blocks;
  uint32_t **succ, *nsucc, **pred, *npred;
  uint32_t *rpo, nrpo, *order, *idom;
  uint32_t **kids, *nkids, *pre, *post;
  uint32_t *mark, stamp; /* scratch marks by block index */
  uint32_t *tmp;         /* scratch list, n entries */
  /* The snapshot is rebuilt only when the CFG changed since (cfg_gen counts the
   * edits: blocks made or deleted, terminators set or retargeted), or when the
   * scratch that lives until the next snapshot has outgrown it: most rewrites
   * of one loop or selection leave the rest alone, and a rebuild per rewrite
   * made a function with many constructs quadratic. */
  uint32_t cfg_gen, snap_gen;
  bool snap_valid;
  size_t snap_bytes;
  /* Live mode (loop normalisation): every edit updates the successor and
   * predecessor lists of the blocks it touches, and new blocks get the next
   * index, so the lists stay those a snapshot would build; the orders and
   * dominators are not kept (nothing reads them in live mode but through a
   * fresh snapshot). Each loop then costs its own blocks, not the function. */
  bool live;
  uint32_t *cap_s, *cap_p, cap_n;
  /* Stamps by target index while one block's successor list is built (a repeated
   * target is left out): a scan of the list per target made one OpSwitch of N cases
   * cost N^2. succ_gen changes per list built. */
  uint32_t *succ_stamp, succ_gen;
  uint32_t *lrpo, nlrpo, cap_lrpo; /* loop_rpo's result */

  loop *loops;
  uint32_t nloops, cap_loops;
  /* process_header's scratch (n-sized lists it fills before reading), allocated once
   * per snapshot instead of once per header: zeroing them per header made deep
   * selection nesting quadratic. */
  uint32_t *ph_stack, *ph_S, *ph_Y, *ph_rs;
  /* Exit summaries of constructs (merge_by_summary) and their scratch, per snapshot. */
  struct exits *ex;
  uint32_t ex_gen, *ex_todo, *ex_pass, *ex_kids;
} st;

static inline binfo *BI(k2s_block *b)
{
  return b->data;
}

/* ---- loops ------------------------------------------------------------------ */

/* Is loop l nested in loop L (or L itself)? */
static inline bool loop_within(st *s, uint32_t l, uint32_t L)
{
  return l != NONE && s->loops[L].pre <= s->loops[l].pre && s->loops[l].post <= s->loops[L].post;
}

static inline bool in_loop(st *s, k2s_block *b, uint32_t L)
{
  return loop_within(s, BI(b)->loop, L);
}

static inline bool is_loop_header(st *s, k2s_block *b)
{
  uint32_t l = BI(b)->loop;
  return l != NONE && s->loops[l].header == b;
}

/* A small open-addressing map of ids to indexes. */
typedef struct idset {
  uint32_t *slot, *val, cap, n;
} idset;

static inline k2s_instr *term(k2s_block *b)
{
  return k2s_block_terminator(b);
}

static inline void cfg_changed(st *s)
{
  s->cfg_gen++;
}

static inline bool reachable(st *s, k2s_block *b)
{
  uint32_t i = BI(b)->idx;
  return i < s->n && s->blocks[i] == b && s->order[i] != NONE;
}

static inline bool dominates(st *s, uint32_t a, uint32_t b)
{
  return s->pre[a] <= s->pre[b] && s->post[b] <= s->post[a];
}

static inline bool has_succ(st *s, uint32_t b, uint32_t x)
{
  for (uint32_t k = 0; k < s->nsucc[b]; k++)
    if (s->succ[b][k] == x)
      return true;
  return false;
}

static inline k2s_instr *phi_from(k2s_instr *i)
{
  for (; i; i = i->next) {
    if (i->opcode == SpvOpPhi)
      return i;
    if (i->opcode != SpvOpLine && i->opcode != SpvOpNoLine)
      return NULL;
  }
  return NULL;
}

static inline k2s_instr *first_phi(k2s_block *b)
{
  return phi_from(b->body.first);
}

static inline k2s_instr *next_phi(k2s_instr *p)
{
  return phi_from(p->next);
}

#define foreach_phi(p, b) for (k2s_instr *p = first_phi(b); p; p = next_phi(p))

/* structurize_cfg.c */
k2s_block *k2s_sz_block_of(st *s, uint32_t label);
void k2s_sz_map_label(st *s, k2s_block *b);
void k2s_sz_attach(st *s, k2s_block *b, uint32_t loop);
k2s_block *k2s_sz_new_block(st *s, uint32_t loop);
k2s_instr *k2s_sz_emit_at(st *s, k2s_cursor c, uint16_t op, uint32_t type, const uint32_t *ops,
                          uint32_t n);
uint32_t *k2s_sz_words(st *s, const uint32_t *from, uint32_t n);
void k2s_sz_delete_block(st *s, k2s_block *b);
uint32_t k2s_sz_lit_words(st *s, const k2s_instr *t);
uint32_t k2s_sz_n_labels(st *s, const k2s_instr *t);
const uint32_t *k2s_sz_label_word(st *s, const k2s_instr *t, uint32_t k);
void k2s_sz_retarget(st *s, k2s_instr *t, uint32_t from, uint32_t to);
k2s_instr *k2s_sz_set_term(st *s, k2s_block *b, uint16_t op, const uint32_t *ops, uint32_t n);
uint32_t k2s_sz_phi_value(const k2s_instr *phi, uint32_t label);
void k2s_sz_phi_remove(st *s, k2s_instr *phi, uint32_t label);
void k2s_sz_phi_add(st *s, k2s_instr *phi, uint32_t value, uint32_t label);
void k2s_sz_phis_rename_pred(st *s, k2s_block *b, uint32_t from, uint32_t to);
k2s_instr *k2s_sz_new_phi(st *s, k2s_block *b, uint32_t type);
void k2s_sz_push_list(k2s_arena *a, uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t v);
bool k2s_sz_snapshot(st *s);
void k2s_sz_live_resync(st *s, k2s_block *b);
k2s_block *k2s_sz_funnel(st *s, edge *E, uint32_t ne, uint32_t loop);
bool k2s_sz_idset_add(k2s_arena *a, idset *set, uint32_t id, uint32_t val);
uint32_t k2s_sz_idset_get(const idset *set, uint32_t id);

/* structurize_loops.c */
bool k2s_sz_build_loops(st *s);
void k2s_sz_number_loops(st *s);
bool k2s_sz_normalize_loop(st *s, uint32_t L);

/* structurize_regions.c */
bool k2s_sz_place_selection_merges(st *s);
void k2s_sz_emit_merges(st *s);

/* structurize_ssa.c */
void k2s_sz_repair_ssa(st *s);

#endif
