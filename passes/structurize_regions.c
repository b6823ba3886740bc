/*
 * structurize, phase 4: selection merges in acyclic regions (a loop body, or
 * the function outside loops), walked down the dominator tree; a branch merges
 * at its first merge child in reverse post-order, edges that jump further go
 * through a funnel; switch fallthrough is found and the cases ordered for it.
 * Exit summaries of constructs, built bottom-up once per snapshot, keep nested
 * ifs and switches linear. Then the merge instructions are emitted. Part of the
 * structurize pass (passes/structurize.c).
 */
#include <stdlib.h>
#include <string.h>

#include "structurize.h"

/* ---- 4. selection merges in acyclic regions --------------------------------- */

/* Is b a node of region R (loop R's body without its continue target and
 * inner loops, whose headers stand for them; NONE: outside all loops)? */
static bool in_region(st *s, k2s_block *b, uint32_t R)
{
  if (R != NONE && b == s->loops[R].header)
    return true;
  if (R != NONE && b == s->loops[R].cont)
    return false;
  uint32_t l = BI(b)->loop;
  if (l != NONE && s->loops[l].header == b)
    l = s->loops[l].parent;
  return l == R;
}

/* Inside a loop nested in R (so a walk of R may pass through it). */
static bool below_region(st *s, k2s_block *b, uint32_t R)
{
  uint32_t l = BI(b)->loop;
  if (l == NONE || l == R)
    return false;
  return R == NONE || loop_within(s, l, R);
}

/* Successors of node b in region R: an inner loop stands for its merge;
 * break and continue edges (to R's merge and continue target) are left out. */
static uint32_t regsucc(st *s, k2s_block *b, uint32_t R, uint32_t *out)
{
  uint32_t l = BI(b)->loop;
  if (l != NONE && s->loops[l].header == b && l != R) {
    k2s_block *mg = s->loops[l].merge;
    if (!reachable(s, mg))
      return 0;
    out[0] = BI(mg)->idx;
    return 1;
  }
  uint32_t i = BI(b)->idx, n = 0;
  for (uint32_t k = 0; k < s->nsucc[i]; k++) {
    k2s_block *x = s->blocks[s->succ[i][k]];
    if (R != NONE && (x == s->loops[R].cont || x == s->loops[R].merge || x == s->loops[R].header))
      continue;
    out[n++] = s->succ[i][k];
  }
  return n;
}

static uint32_t regpred_count(st *s, uint32_t c, uint32_t R)
{
  k2s_block *cb = s->blocks[c];
  uint32_t n = BI(cb)->loop_merge_of != NONE && reachable(s, cb) ? 1 : 0;
  for (uint32_t k = 0; k < s->npred[c]; k++) {
    k2s_block *p = s->blocks[s->pred[c][k]];
    if (!reachable(s, p) || !in_region(s, p, R))
      continue;
    if (is_loop_header(s, p) && BI(p)->loop != R)
      continue; /* stands for its loop: counted above when c is the merge */
    n++;
  }
  return n;
}

static bool is_sel_header(st *s, k2s_block *b)
{
  if (!reachable(s, b) || is_loop_header(s, b))
    return false;
  uint32_t R = BI(b)->loop;
  if (R != NONE && s->loops[R].cont == b)
    return false;
  k2s_instr *t = term(b);
  if (t->opcode == SpvOpSwitch)
    return true;
  if (t->opcode != SpvOpBranchConditional)
    return false;
  return regsucc(s, b, R, s->tmp) >= 2;
}

/* Switch cases may not target a loop's merge or continue target directly:
 * give those edges a block of their own (a case that breaks or continues). */
static void split_switch_escapes(st *s)
{
  for (uint32_t i = 0; i < s->n; i++) {
    k2s_block *b = s->blocks[i];
    k2s_instr *t = term(b);
    uint32_t R = BI(b)->loop;
    if (!t || t->opcode != SpvOpSwitch || R == NONE || !reachable(s, b))
      continue;
    k2s_block *esc[2] = {s->loops[R].cont, s->loops[R].merge};
    for (int e = 0; e < 2; e++) {
      uint32_t el = esc[e]->label->result;
      bool hit = false;
      for (uint32_t k = 0; k < k2s_sz_n_labels(s, t); k++)
        if (*k2s_sz_label_word(s, t, k) == el)
          hit = true;
      if (!hit)
        continue;
      k2s_block *sp = k2s_sz_new_block(s, R);
      k2s_sz_set_term(s, sp, SpvOpBranch, &el, 1);
      k2s_sz_retarget(s, t, el, sp->label->result);
      k2s_sz_phis_rename_pred(s, esc[e], b->label->result, sp->label->result);
    }
  }
}

typedef struct keyed_edge {
  uint32_t to, from; /* reverse post-order positions */
  edge e;
} keyed_edge;

static int cmp_keyed_edge(const void *pa, const void *pb)
{
  const keyed_edge *x = pa, *y = pb;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return 0;
}

/* Sorts edges by their targets', then their sources' reverse post-order:
 * the order of dispatch targets does not depend on how blocks are stored. */
static void sort_edges(st *s, edge *E, uint32_t ne)
{
  keyed_edge *k = k2s_alloc(&s->snap, (ne + 1) * sizeof(*k));
  for (uint32_t i = 0; i < ne; i++)
    k[i] = (keyed_edge){s->order[BI(E[i].to)->idx], s->order[BI(E[i].from)->idx], E[i]};
  qsort(k, ne, sizeof(*k), cmp_keyed_edge);
  for (uint32_t i = 0; i < ne; i++)
    E[i] = k[i].e;
}

typedef struct walk {
  uint32_t a, R, stamp;
  uint32_t *stack, *S, ns, *Y, ny;
  /* S holds the roots of the construct only (A, its walk children but the merge
   * children, the fallthrough targets), marked; their exit summaries stand for
   * the rest (switch_merge_by_summary). */
  bool summary;
} walk;

/* Adds the region nodes that root dominates to S, stopping at the merge
 * children of A (region nodes right below A in the region's dominator tree
 * with two or more region predecessors), which go to Y. */
static void walk_construct(st *s, walk *w, uint32_t root)
{
  uint32_t sp = 0;
  w->stack[sp++] = root;
  w->stack[sp++] = root;
  w->S[w->ns++] = root;
  s->mark[root] = w->stamp;
  while (sp) {
    uint32_t nra = w->stack[--sp];
    uint32_t x = w->stack[--sp];
    for (uint32_t k = 0; k < s->nkids[x]; k++) {
      uint32_t c = s->kids[x][k];
      k2s_block *cb = s->blocks[c];
      /* An enclosing selection's merge (the one way on, chosen deep inside
       * it) ends this construct too. */
      if (BI(cb)->sel_merge)
        continue;
      if (in_region(s, cb, w->R)) {
        if (nra == w->a && regpred_count(s, c, w->R) >= 2) {
          w->Y[w->ny++] = c;
          continue;
        }
        w->S[w->ns++] = c;
        s->mark[c] = w->stamp;
        w->stack[sp++] = c;
        w->stack[sp++] = c;
      } else if (below_region(s, cb, w->R)) {
        w->stack[sp++] = c;
        w->stack[sp++] = nra;
      }
    }
  }
}

/* Switch fallthrough: a case target y that only the switch and one other
 * case construct (headed by case target u) branch to stays a case construct
 * (SPIR-V allows one fallthrough per case, ordered in the OpSwitch) instead
 * of becoming a merge child. */
/* Whether every region successor of the nodes of S that u dominates is y or
 * dominated by u: a walk down u's dominator subtree through S and the inner
 * loops walk_construct passed through (every such node of S is reached that
 * way), not a scan of S per candidate (one switch of N cases cost N^2). */
static bool leaves_only_into(st *s, walk *w, uint32_t u, uint32_t y)
{
  uint32_t sp = 0;
  w->stack[sp++] = u;
  while (sp) {
    uint32_t x = w->stack[--sp];
    if (s->mark[x] == w->stamp) {
      uint32_t nr = regsucc(s, s->blocks[x], w->R, s->tmp);
      for (uint32_t i = 0; i < nr; i++)
        if (s->tmp[i] != y && !dominates(s, u, s->tmp[i]))
          return false;
    }
    for (uint32_t k = 0; k < s->nkids[x]; k++) {
      uint32_t c = s->kids[x][k];
      if (s->mark[c] == w->stamp || below_region(s, s->blocks[c], w->R))
        w->stack[sp++] = c;
    }
  }
  return true;
}

/* The case target u whose construct would fall through into merge child y of
 * the switch (y's one region predecessor but the switch lies in it), NONE. */
static uint32_t falling_case(st *s, walk *w, uint32_t y)
{
  uint32_t a = w->a, q = NONE, u = NONE;
  if (regpred_count(s, y, w->R) != 2 || BI(s->blocks[y])->loop_merge_of != NONE)
    return NONE;
  for (uint32_t j = 0; j < s->npred[y]; j++) {
    uint32_t p = s->pred[y][j];
    if (p != a && reachable(s, s->blocks[p]) && in_region(s, s->blocks[p], w->R))
      q = p;
  }
  if (q != NONE) {
    for (u = q; u != NONE && s->idom[u] != a; u = s->idom[u])
      ;
  }
  return u;
}

static bool falls_only_into(st *s, uint32_t u, uint32_t y);

static void find_fallthroughs(st *s, walk *w, k2s_block *A)
{
  uint32_t a = w->a;
  uint32_t astamp = ++s->walk_stamp;
  for (uint32_t k = 0; k < s->nsucc[a]; k++)
    BI(s->blocks[s->succ[a][k]])->astamp = astamp;
  /* Candidates in reverse post-order, so chains u → y → y2 are found. */
  for (uint32_t x = 1; x < w->ny; x++)
    for (uint32_t y = x; y > 0 && s->order[w->Y[y]] < s->order[w->Y[y - 1]]; y--) {
      uint32_t t = w->Y[y];
      w->Y[y] = w->Y[y - 1];
      w->Y[y - 1] = t;
    }
  uint32_t keep = 0;
  for (uint32_t k = 0; k < w->ny; k++) {
    uint32_t y = w->Y[k];
    /* A lone merge child is where the cases meet: the switch's merge. */
    if (w->ny == 1) {
      w->Y[keep++] = y;
      continue;
    }
    k2s_block *yb = s->blocks[y];
    bool ok = BI(yb)->astamp == astamp && !BI(yb)->claimed;
    uint32_t u = ok ? falling_case(s, w, y) : NONE;
    ok = ok && u != NONE && u != y && BI(s->blocks[u])->astamp == astamp &&
         s->mark[u] == w->stamp && !BI(s->blocks[u])->fall_to;
    /* The case construct of u may leave only into y: were it also to break
     * out of the switch, a selection inside it would need two merges. */
    ok = ok && (w->summary ? falls_only_into(s, u, y) : leaves_only_into(s, w, u, y));
    if (!ok) {
      w->Y[keep++] = y;
      continue;
    }
    binfo *ub = BI(s->blocks[u]);
    ub->fall_to = yb->label->result;
    binfo *ai = BI(A);
    if (ai->nfalls + 2 > ai->cap_falls) { /* doubling: a copy per pair cost N^2 */
      uint32_t c = 2 * ai->cap_falls + 8;
      ai->falls = k2s_realloc_array(&s->a, ai->falls, ai->nfalls, c, sizeof(uint32_t));
      ai->cap_falls = c;
    }
    ai->falls[ai->nfalls++] = s->blocks[u]->label->result;
    ai->falls[ai->nfalls++] = yb->label->result;
    BI(yb)->claimed = true;
    if (w->summary) {
      s->mark[y] = w->stamp;
      w->S[w->ns++] = y;
    } else {
      walk_construct(s, w, y);
    }
  }
  w->ny = keep;
}

/* An arm of A (a successor only A reaches) that can be A's merge. */
static k2s_block *arm_merge(st *s, k2s_block *A, uint32_t R)
{
  k2s_instr *t = term(A);
  uint32_t nl = k2s_sz_n_labels(s, t);
  /* Prefer the else branch, or the default. */
  uint32_t first = t->opcode == SpvOpBranchConditional ? 1 : 0;
  for (uint32_t k = 0; k < nl; k++) {
    uint32_t kk = t->opcode == SpvOpBranchConditional ? (first + nl - k) % nl : k;
    k2s_block *b = k2s_sz_block_of(s, *k2s_sz_label_word(s, t, kk));
    if (!b || !reachable(s, b) || !in_region(s, b, R) || BI(b)->claimed || BI(b)->fall_to ||
        is_loop_header(s, b) || BI(b)->loop_merge_of != NONE ||
        regpred_count(s, BI(b)->idx, R) != 1)
      continue;
    return b;
  }
  return NULL;
}

/* ---- construct exits, bottom-up ------------------------------------------------
 *
 * walk_construct visits a header's whole construct, so N nested ifs cost N^2 when
 * every header walks the constructs of the headers inside it. Instead each region
 * node x keeps a summary of the exit edges of T(x), the nodes a walk from x reaches
 * (walk_construct without the merge-child cut, which applies to the header's own
 * children only): the distinct targets, up to EXIT_TARGETS of them, with their
 * edge counts and a source. A summary is built from its children's once per
 * snapshot and dropped when a selection merge (which cuts walks) is chosen under
 * it, so a function costs its blocks once. A header whose exits do not fit (or that
 * needs the exit edges themselves: a funnel of several edges, which rebuilds the
 * snapshot anyway) walks as before. A switch reads the summaries of its case
 * constructs for its fallthrough search too (switch_merge_by_summary).
 *
 * Which targets stay inside: an edge u→t from the walk leaves the dominator
 * subtree of t's immediate dominator, which dominates u, so the walk from x
 * reaches t exactly when x dominates t, t is a node of the region and no
 * selection merge. An inner loop's header stands for the edge to its merge, which
 * the loop's blocks dominate instead: inside when the walk from the header meets
 * the merge, else the summary gives up (the walk stops at a merge in the loop).
 */
#define EXIT_TARGETS 4

typedef struct exits {
  uint32_t gen; /* valid while equal to s->ex_gen */
  uint32_t nt;  /* distinct targets; EXIT_TARGETS + 1: too many to know */
  uint32_t to[EXIT_TARGETS], from[EXIT_TARGETS], cnt[EXIT_TARGETS]; /* cnt stops at 2 */
} exits;

static void exits_add(exits *e, uint32_t t, uint32_t from, uint32_t cnt)
{
  if (e->nt > EXIT_TARGETS)
    return;
  for (uint32_t i = 0; i < e->nt; i++)
    if (e->to[i] == t) {
      e->cnt[i] = e->cnt[i] + cnt > 2 ? 2 : e->cnt[i] + cnt;
      return;
    }
  if (e->nt == EXIT_TARGETS) {
    e->nt++;
    return;
  }
  e->to[e->nt] = t;
  e->from[e->nt] = from;
  e->cnt[e->nt++] = cnt;
}

/* The region nodes a construct walk goes on to from x (through inner loops),
 * stopping at selection merges: walk_construct's children of x. */
static uint32_t walk_children(st *s, uint32_t x, uint32_t R, uint32_t *out)
{
  uint32_t n = 0, sp = 0, *stack = s->ex_pass;
  stack[sp++] = x;
  while (sp) {
    uint32_t v = stack[--sp];
    for (uint32_t k = 0; k < s->nkids[v]; k++) {
      uint32_t c = s->kids[v][k];
      k2s_block *cb = s->blocks[c];
      if (BI(cb)->sel_merge)
        continue;
      if (in_region(s, cb, R))
        out[n++] = c;
      else if (below_region(s, cb, R))
        stack[sp++] = c;
    }
  }
  return n;
}

/* Does the walk from x (a node of region R) reach t, the target of an edge
 * from a node it reaches? */
static bool walk_reaches(st *s, uint32_t x, uint32_t t, uint32_t R)
{
  k2s_block *tb = s->blocks[t];
  return t == x || (dominates(s, x, t) && in_region(s, tb, R) && !BI(tb)->sel_merge);
}

/* Summary of x's own exit edges and those of its walk children (computed at
 * out[0..nk)), as seen from T(x). */
static void summarize(st *s, uint32_t x, uint32_t R, uint32_t *out)
{
  exits *e = &s->ex[x];
  memset(e, 0, sizeof(*e));
  uint32_t nk = walk_children(s, x, R, out);
  k2s_block *xb = s->blocks[x];
  uint32_t nr = regsucc(s, xb, R, out + nk);
  bool stands_for_loop = is_loop_header(s, xb) && BI(xb)->loop != R;
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t t = out[nk + i];
    if (stands_for_loop) {
      bool met = false;
      for (uint32_t k = 0; k < nk && !met; k++)
        met = out[k] == t;
      if (!met)
        e->nt = EXIT_TARGETS + 1;
    } else if (!walk_reaches(s, x, t, R)) {
      exits_add(e, t, x, 1);
    }
  }
  for (uint32_t k = 0; k < nk; k++) {
    const exits *c = &s->ex[out[k]];
    if (c->nt > EXIT_TARGETS)
      e->nt = EXIT_TARGETS + 1;
    for (uint32_t i = 0; i < c->nt && i < EXIT_TARGETS; i++)
      if (!walk_reaches(s, x, c->to[i], R))
        exits_add(e, c->to[i], c->from[i], c->cnt[i]);
  }
  e->gen = s->ex_gen;
}

/* Makes the summary of region node c valid: children first, by an explicit
 * stack (dominator trees are deep). A node is on the stack once, first to be
 * visited, then as its finish mark (at most n entries), and summarize's
 * lists (children and successors, at most n each) go above: 3n in all. */
static void ensure_exits(st *s, uint32_t c, uint32_t R)
{
  const uint32_t FIN = 1u << 31;
  uint32_t *todo = s->ex_todo, sp = 0;
  todo[sp++] = c;
  while (sp) {
    uint32_t v = todo[--sp];
    if (v & FIN) {
      summarize(s, v & ~FIN, R, todo + sp);
      continue;
    }
    if (s->ex[v].gen == s->ex_gen)
      continue;
    todo[sp++] = v | FIN;
    uint32_t base = sp, nk = walk_children(s, v, R, todo + base);
    for (uint32_t k = 0; k < nk; k++)
      if (s->ex[todo[base + k]].gen != s->ex_gen)
        todo[sp++] = todo[base + k];
  }
}

/* Is the summary of region node x valid now, and does it know all of x's exits? */
static bool exits_known(st *s, uint32_t x, uint32_t R)
{
  ensure_exits(s, x, R);
  return s->ex[x].nt <= EXIT_TARGETS;
}

/* leaves_only_into from u's exit summary (exits_known): each exit target of u's
 * construct is y or dominated by u (a target u dominates is one the walk from u
 * stops at: not an exit for leaves_only_into). */
static bool falls_only_into(st *s, uint32_t u, uint32_t y)
{
  const exits *e = &s->ex[u];
  for (uint32_t i = 0; i < e->nt; i++)
    if (e->to[i] != y && !dominates(s, u, e->to[i]))
      return false;
  return true;
}

static void exits_init(st *s)
{
  if (s->ex)
    return;
  s->ex = k2s_alloc(&s->snap, (s->n + 1) * sizeof(exits));
  s->ex_todo = k2s_alloc(&s->snap, (3 * s->n + 3) * sizeof(uint32_t));
  s->ex_pass = k2s_alloc(&s->snap, (s->n + 1) * sizeof(uint32_t));
  s->ex_kids = k2s_alloc(&s->snap, (s->n + 1) * sizeof(uint32_t));
  s->ex_gen = 1;
}

/* After a selection merge m was chosen under header a: the walks from the
 * nodes between them stop at m now. */
static void exits_changed(st *s, uint32_t a, k2s_block *m)
{
  if (!s->ex || !reachable(s, m))
    return;
  uint32_t x = BI(m)->idx;
  if (!dominates(s, a, x)) {
    s->ex_gen++;
    return;
  }
  while (x != a) {
    x = s->idom[x];
    s->ex[x].gen = 0;
  }
}

/* Picks A's merge from its exit edges (ne of them, 2 meaning two or more,
 * all to target `to` when one_target, the first from `from`) and its merge
 * children (y1 first in reverse post-order); NULL: funnel the edges. */
static k2s_block *merge_for_exits(st *s, k2s_block *A, uint32_t ne, bool one_target, k2s_block *to,
                                  k2s_block *from, k2s_block *y1)
{
  uint32_t R = BI(A)->loop;
  if (y1 && one_target && to == y1 && !BI(y1)->claimed)
    return y1;
  if (ne == 1 && from != A && term(from)->opcode == SpvOpBranch && !BI(from)->claimed &&
      !is_loop_header(s, from) && BI(from)->loop_merge_of == NONE)
    return from; /* the one way on: merge there */
  if (ne)
    return NULL;
  /* Every path returns, breaks or continues and the arms never meet: one arm
   * can follow the selection instead of sitting in it. */
  k2s_block *merge = arm_merge(s, A, R);
  if (merge)
    return merge;
  merge = k2s_sz_new_block(s, R); /* every path returns, breaks or continues */
  k2s_sz_set_term(s, merge, SpvOpUnreachable, NULL, 0);
  BI(merge)->keep = true;
  return merge;
}

/* Header a's own edges that leave its construct S_a (the region nodes its walk
 * reaches but its merge children, which are marked ystamp), into q. */
static void own_exits(st *s, exits *q, uint32_t a, uint32_t R, uint32_t ystamp)
{
  uint32_t nr = regsucc(s, s->blocks[a], R, s->ex_todo);
  for (uint32_t i = 0; i < nr; i++) {
    uint32_t t = s->ex_todo[i];
    if (!walk_reaches(s, a, t, R) || s->mark[t] == ystamp)
      exits_add(q, t, a, 1);
  }
}

/* The exits of root r's construct (a part of S_a; its summary known) that leave
 * S_a too, into q. */
static void root_exits(st *s, exits *q, uint32_t a, uint32_t R, uint32_t ystamp, uint32_t r)
{
  const exits *e = &s->ex[r];
  for (uint32_t i = 0; i < e->nt; i++)
    if (!walk_reaches(s, a, e->to[i], R) || s->mark[e->to[i]] == ystamp)
      exits_add(q, e->to[i], e->from[i], e->cnt[i]);
}

/* A's merge from the exit summaries of its construct; NULL when they cannot
 * decide (too many targets, or a funnel). */
static k2s_block *merge_by_summary(st *s, k2s_block *A)
{
  uint32_t R = BI(A)->loop, a = BI(A)->idx;
  exits_init(s);
  /* The merge children (as walk_construct finds them) are cut from S_A. */
  uint32_t *kids = s->ex_kids, nk = walk_children(s, a, R, kids);
  uint32_t ystamp = ++s->stamp;
  k2s_block *y1 = NULL;
  for (uint32_t k = 0; k < nk; k++) {
    uint32_t c = kids[k];
    if (regpred_count(s, c, R) >= 2) {
      s->mark[c] = ystamp;
      if (!y1 || s->order[c] < s->order[BI(y1)->idx])
        y1 = s->blocks[c];
    }
  }
  exits q = {0};
  own_exits(s, &q, a, R, ystamp);
  for (uint32_t k = 0; k < nk; k++) {
    uint32_t c = kids[k];
    if (s->mark[c] == ystamp)
      continue;
    if (!exits_known(s, c, R))
      return NULL;
    root_exits(s, &q, a, R, ystamp, c);
  }
  if (q.nt > EXIT_TARGETS)
    return NULL;
  uint32_t ne = 0;
  for (uint32_t i = 0; i < q.nt; i++)
    ne += q.cnt[i];
  k2s_block *to = q.nt ? s->blocks[q.to[0]] : NULL;
  k2s_block *from = q.nt ? s->blocks[q.from[0]] : NULL;
  return merge_for_exits(s, A, ne > 2 ? 2 : ne, q.nt == 1, to, from, y1);
}

/* Would a block put on the one exit edge from → to of A's construct go unseen by
 * the headers still to process (those after A in reverse post-order)? Each reads
 * the snapshot within its own dominator subtree only, and `to`'s dominators
 * dominate `from` (its predecessor) too, so none sees the edge when no unprocessed
 * selection header (nor a loop header, to stay simple) lies on the dominator path
 * from `from` up to A, and `to` is none either. A later snapshot then holds the
 * new block as a rebuild now would have, and the headers between decide alike. */
static bool split_unseen(st *s, k2s_block *A, k2s_block *from, k2s_block *to)
{
  if (term(from)->opcode != SpvOpBranch || is_loop_header(s, to) ||
      (is_sel_header(s, to) && !BI(to)->processed))
    return false;
  uint32_t a = BI(A)->idx;
  for (uint32_t x = BI(from)->idx; x != a; x = s->idom[x]) {
    if (x == NONE)
      return false;
    k2s_block *xb = s->blocks[x];
    if (is_loop_header(s, xb) || (is_sel_header(s, xb) && !BI(xb)->processed))
      return false;
  }
  return true;
}

static void walk_init(st *s, walk *w, k2s_block *A)
{
  k2s_arena *sa = &s->snap;
  *w = (walk){.a = BI(A)->idx, .R = BI(A)->loop, .stamp = ++s->stamp};
  if (!s->ph_stack) {
    s->ph_stack = k2s_alloc(sa, (s->n + 1) * 2 * sizeof(uint32_t));
    s->ph_S = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
    s->ph_Y = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
    s->ph_rs = k2s_alloc(sa, (s->n + 1) * sizeof(uint32_t));
  }
  w->stack = s->ph_stack;
  w->S = s->ph_S;
  w->Y = s->ph_Y;
}

/* A's merge: a new block on A's exit edges E (sorted), which lead on from it.
 * Sets *changed unless the snapshot may stay. */
static k2s_block *funnel_exits(st *s, k2s_block *A, edge *E, uint32_t ne, bool *changed)
{
  uint32_t a = BI(A)->idx;
  bool unseen = ne == 1 && split_unseen(s, A, E[0].from, E[0].to);
  k2s_block *merge = k2s_sz_funnel(s, E, ne, BI(A)->loop);
  /* A split the headers still to come never read: the snapshot stays, and the
   * scan goes on instead of starting again (a rebuild and a restart per level
   * made nested switches quadratic). The summaries on the way down to the
   * source are dropped, as exits_changed drops them for a merge in the snapshot. */
  *changed = !unseen;
  if (unseen && s->ex)
    for (uint32_t x = BI(E[0].from)->idx;; x = s->idom[x]) {
      s->ex[x].gen = 0;
      if (x == a)
        break;
    }
  return merge;
}

/* A's merge from its walked construct (w: S marked, merge children in Y) and
 * its exit edges; sets *changed when they were funnelled through a new block. */
static k2s_block *merge_of_walk(st *s, k2s_block *A, walk *w, bool *changed)
{
  uint32_t R = w->R, stamp = w->stamp;
  k2s_arena *sa = &s->snap;
  uint32_t *S = w->S, ns = w->ns, *Y = w->Y, ny = w->ny;
  /* Exit edges of S_A, sorted by the targets' then the sources' order. */
  uint32_t ne = 0, cap = 8;
  edge *E = k2s_alloc(sa, cap * sizeof(edge));
  uint32_t *rs = s->ph_rs;
  for (uint32_t k = 0; k < ns; k++) {
    uint32_t nr = regsucc(s, s->blocks[S[k]], R, rs);
    for (uint32_t j = 0; j < nr; j++) {
      if (s->mark[rs[j]] == stamp)
        continue;
      if (ne == cap) {
        E = k2s_realloc_array(sa, E, ne, cap * 2, sizeof(edge));
        cap *= 2;
      }
      E[ne++] = (edge){s->blocks[S[k]], s->blocks[rs[j]]};
    }
  }
  sort_edges(s, E, ne);
  k2s_block *y1 = NULL;
  for (uint32_t k = 0; k < ny; k++)
    if (!y1 || s->order[Y[k]] < s->order[BI(y1)->idx])
      y1 = s->blocks[Y[k]];
  bool one_target = ne > 0;
  for (uint32_t e = 1; e < ne; e++)
    if (E[e].to != E[0].to)
      one_target = false;
  k2s_block *merge = merge_for_exits(s, A, ne > 2 ? 2 : ne, one_target, ne ? E[0].to : NULL,
                                     ne ? E[0].from : NULL, y1);
  return merge ? merge : funnel_exits(s, A, E, ne, changed);
}

/* A's merge from a walk of its construct (walk_construct) and its exit edges;
 * sets *changed when they were funnelled through a new block. */
static k2s_block *merge_by_walk(st *s, k2s_block *A, bool *changed)
{
  walk w;
  walk_init(s, &w, A);
  walk_construct(s, &w, w.a);
  if (term(A)->opcode == SpvOpSwitch)
    find_fallthroughs(s, &w, A);
  return merge_of_walk(s, A, &w, changed);
}

/* A switch's merge and fallthroughs as merge_by_walk finds them, from the exit
 * summaries of the roots of its construct (A, its walk children but the merge
 * children, the case targets it claims for fallthrough) instead of a walk of
 * the whole construct: each of N nested switches walked the switches inside it.
 * NULL before anything changed when a summary the fallthrough search may read
 * does not know all its exits (then merge_by_walk decides). Several exit edges
 * to funnel are listed by walks from the roots. */
static k2s_block *switch_merge_by_summary(st *s, k2s_block *A, bool *changed)
{
  exits_init(s);
  walk w;
  walk_init(s, &w, A);
  w.summary = true;
  uint32_t a = w.a, R = w.R, *kids = s->ex_kids, nk = walk_children(s, a, R, kids);
  s->mark[a] = w.stamp;
  w.S[w.ns++] = a;
  for (uint32_t k = 0; k < nk; k++) {
    uint32_t c = kids[k];
    if (regpred_count(s, c, R) >= 2) {
      w.Y[w.ny++] = c;
    } else {
      s->mark[c] = w.stamp;
      w.S[w.ns++] = c;
    }
  }
  /* The summaries of the roots and of the merge children that may become roots
   * (the search reads a case construct's before it makes that case a root). */
  for (uint32_t k = 1; k < w.ns; k++)
    if (!exits_known(s, w.S[k], R))
      return NULL;
  for (uint32_t k = 0; k < w.ny; k++)
    if (w.ny > 1 && falling_case(s, &w, w.Y[k]) != NONE && !exits_known(s, w.Y[k], R))
      return NULL;
  uint32_t nroots = w.ns;
  find_fallthroughs(s, &w, A);
  /* The exits of S_A: the roots' exit edges that leave it or go to a merge child. */
  uint32_t ystamp = ++s->stamp;
  k2s_block *y1 = NULL;
  for (uint32_t k = 0; k < w.ny; k++) {
    s->mark[w.Y[k]] = ystamp;
    if (!y1 || s->order[w.Y[k]] < s->order[BI(y1)->idx])
      y1 = s->blocks[w.Y[k]];
  }
  exits q = {0};
  own_exits(s, &q, a, R, ystamp);
  for (uint32_t k = 1; k < w.ns; k++)
    root_exits(s, &q, a, R, ystamp, w.S[k]);
  uint32_t ne = 0;
  for (uint32_t i = 0; i < q.nt && i < EXIT_TARGETS; i++)
    ne += q.cnt[i];
  if (q.nt <= EXIT_TARGETS) {
    k2s_block *to = q.nt ? s->blocks[q.to[0]] : NULL;
    k2s_block *from = q.nt ? s->blocks[q.from[0]] : NULL;
    k2s_block *merge = merge_for_exits(s, A, ne > 2 ? 2 : ne, q.nt == 1, to, from, y1);
    if (merge)
      return merge;
    if (ne == 1) {
      edge E = {from, to};
      return funnel_exits(s, A, &E, 1, changed);
    }
  }
  /* Several exit edges (or too many targets to know): the construct walked, with
   * the fallthroughs found above (the claimed targets first: walk_construct from
   * A puts them among its merge children, which they are no longer). */
  uint32_t nclaimed = w.ns - nroots, *claimed = s->ex_kids;
  memmove(claimed, w.S + nroots, nclaimed * sizeof(uint32_t));
  walk_init(s, &w, A);
  for (uint32_t k = 0; k < nclaimed; k++)
    walk_construct(s, &w, claimed[k]);
  walk_construct(s, &w, a);
  uint32_t keep = 0;
  for (uint32_t k = 0; k < w.ny; k++)
    if (s->mark[w.Y[k]] != w.stamp)
      w.Y[keep++] = w.Y[k];
  w.ny = keep;
  return merge_of_walk(s, A, &w, changed);
}

/* Gives header A its merge; returns whether the CFG changed. */
static bool process_header(st *s, k2s_block *A)
{
  bool changed = false;
  k2s_block *merge = NULL;
  if (term(A)->opcode == SpvOpSwitch)
    merge = switch_merge_by_summary(s, A, &changed);
  else
    merge = merge_by_summary(s, A);
  if (!merge)
    merge = merge_by_walk(s, A, &changed);
  BI(A)->processed = true;
  k2s_instr *t = term(A);
  if (t->opcode == SpvOpSwitch || (t->opcode == SpvOpBranchConditional && t->ops[1] != t->ops[2])) {
    BI(A)->merge = merge->label->result;
    BI(merge)->claimed = true;
    BI(merge)->sel_merge = true;
    exits_changed(s, BI(A)->idx, merge);
  }
  return changed;
}

bool k2s_sz_place_selection_merges(st *s)
{
  if (!k2s_sz_snapshot(s))
    return false;
  split_switch_escapes(s);
  if (!k2s_sz_snapshot(s))
    return false;
  uint64_t budget = 64 * (uint64_t)s->n + 1024;
  uint32_t pos = 0;
  while (pos < s->nrpo) {
    k2s_block *b = s->blocks[s->rpo[pos]];
    if (BI(b)->processed || !is_sel_header(s, b)) {
      pos++;
      continue;
    }
    if (!budget--) {
      k2s_error(s->m, s->f->def,
                "structurize: no structured form found for function %%%u "
                "(internal limit reached)",
                s->f->def->result);
      return false;
    }
    if (process_header(s, b)) {
      if (s->m->failed || !k2s_sz_snapshot(s))
        return false;
      pos = 0;
      continue;
    }
    pos++;
  }
  return true;
}

/* Orders an OpSwitch's cases so that each case construct that falls
 * through immediately precedes its fallthrough target (spirv-val's rule: a
 * fallthrough into the default counts as one into the default's own
 * fallthrough target, unless the default is also a case). */
static void order_switch_cases(st *s, k2s_block *A)
{
  binfo *ai = BI(A);
  k2s_instr *t = term(A);
  uint32_t lit = k2s_sz_lit_words(s, t), stride = lit + 1;
  uint32_t n = (t->n_ops - 2) / stride, dflt = t->ops[1], merge = ai->merge;
  /* The distinct case labels but the merge, in case order, found through a map
   * (not a scan per case: one switch of N cases cost N^2), and per label its
   * cases in order (first_case, then next_case). */
  uint32_t *labels = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *first_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *last_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *next_case = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  idset index = {0};
  uint32_t nl = 0;
  bool dflt_case = false;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t l = t->ops[2 + k * stride + lit];
    dflt_case |= l == dflt;
    next_case[k] = NONE;
    if (l == merge)
      continue;
    if (k2s_sz_idset_add(&s->a, &index, l, nl)) {
      first_case[nl] = last_case[nl] = k;
      labels[nl++] = l;
    } else {
      uint32_t i = k2s_sz_idset_get(&index, l);
      next_case[last_case[i]] = k;
      last_case[i] = k;
    }
  }
  /* next[i]: the label that must follow labels[i]. */
  uint32_t *next = k2s_alloc(&s->a, (nl + 1) * sizeof(uint32_t));
  bool *has_prev = k2s_alloc(&s->a, (nl + 1) * sizeof(bool));
  uint32_t dflt_next = 0;
  for (uint32_t k = 0; k + 1 < ai->nfalls; k += 2)
    if (ai->falls[k] == dflt && !dflt_case)
      dflt_next = ai->falls[k + 1];
  for (uint32_t k = 0; k + 1 < ai->nfalls; k += 2) {
    uint32_t u = ai->falls[k], c = ai->falls[k + 1];
    if (u == dflt && !dflt_case)
      continue;
    if (c == dflt && !dflt_case)
      c = dflt_next;
    if (!c)
      continue;
    uint32_t iu = k2s_sz_idset_get(&index, u), ic = k2s_sz_idset_get(&index, c);
    if (iu != NONE)
      next[iu] = c;
    if (ic != NONE)
      has_prev[ic] = true;
  }
  uint32_t *ops = k2s_alloc(&s->a, (t->n_ops + 1) * sizeof(uint32_t));
  uint32_t w = 0;
  ops[w++] = t->ops[0];
  ops[w++] = dflt;
  bool *done = k2s_alloc(&s->a, (nl + 1) * sizeof(bool));
  for (uint32_t i = 0; i < nl; i++) {
    if (has_prev[i] || done[i])
      continue;
    for (uint32_t j = i; j != NONE && !done[j];) {
      done[j] = true;
      for (uint32_t k = first_case[j]; k != NONE; k = next_case[k]) {
        memcpy(&ops[w], &t->ops[2 + k * stride], stride * sizeof(uint32_t));
        w += stride;
      }
      j = k2s_sz_idset_get(&index, next[j]);
    }
  }
  for (uint32_t k = 0; k < n; k++)
    if (t->ops[2 + k * stride + lit] == merge) {
      memcpy(&ops[w], &t->ops[2 + k * stride], stride * sizeof(uint32_t));
      w += stride;
    }
  if (w == t->n_ops)
    k2s_instr_set_ops(s->m, t, ops, w);
}

void k2s_sz_emit_merges(st *s)
{
  for (uint32_t L = 0; L < s->nloops; L++) {
    loop *l = &s->loops[L];
    uint32_t control =
        BI(l->header)->control & (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask);
    if (control == (SpvLoopControlUnrollMask | SpvLoopControlDontUnrollMask))
      control = 0;
    uint32_t ops[3] = {l->merge->label->result, l->cont->label->result, control};
    k2s_sz_emit_at(s, k2s_before(term(l->header)), SpvOpLoopMerge, 0, ops, 3);
    s->changed = true;
  }
  k2s_foreach_block(b, s->f)
    if (BI(b)->merge) {
      uint32_t ops[2] = {BI(b)->merge, SpvSelectionControlMaskNone};
      k2s_sz_emit_at(s, k2s_before(term(b)), SpvOpSelectionMerge, 0, ops, 2);
      s->changed = true;
      if (BI(b)->nfalls && term(b)->opcode == SpvOpSwitch)
        order_switch_cases(s, b);
    }
  cfg_changed(s); /* switch cases reordered: successor order, so the RPO, may change */
}
