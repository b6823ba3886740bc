/*
 * structurize, phases 2 and 3: the loop forest and loop normal form. Builds the
 * loop forest (natural loops in near-linear time; a function with irreducible
 * cycles has them rewritten one at a time, each through one dispatch header,
 * the first found with each nesting level's natural loops folded; Tarjan per
 * level is the reference both agree with), numbers the loops, and gives each loop,
 * innermost first, one continue target and one merge block (several exits go
 * through a new merge that dispatches on an exit selector). Runs in live mode:
 * each loop costs its own blocks. Part of the structurize pass
 * (passes/structurize.c).
 */
#include <stdlib.h>
#include <string.h>

#include "structurize.h"

/* ---- 2. loop forest, irreducible cycles -------------------------------------- */

typedef struct scope {
  uint32_t *nodes, n, parent;
} scope;

static uint32_t add_loop(st *s, k2s_block *h, uint32_t parent)
{
  if (s->nloops == s->cap_loops) {
    uint32_t cap = s->cap_loops ? s->cap_loops * 2 : 8;
    s->loops = k2s_realloc_array(&s->a, s->loops, s->nloops, cap, sizeof(loop));
    s->cap_loops = cap;
  }
  loop *l = &s->loops[s->nloops];
  memset(l, 0, sizeof(*l));
  l->header = h;
  l->parent = parent;
  return s->nloops++;
}

/* One entry per cycle: reroute every edge into the entries through a new
 * dispatch header. */
static void fix_irreducible(st *s, uint32_t *entries, uint32_t ne)
{
  uint32_t n_edges = 0;
  for (uint32_t k = 0; k < ne; k++)
    n_edges += s->npred[entries[k]];
  edge *E = k2s_alloc(&s->a, (n_edges + 1) * sizeof(edge));
  n_edges = 0;
  /* Deterministic: entries in reverse post-order, their predecessors too. */
  for (uint32_t a = 0; a < ne; a++)
    for (uint32_t b = a + 1; b < ne; b++)
      if (s->order[entries[b]] < s->order[entries[a]]) {
        uint32_t t = entries[a];
        entries[a] = entries[b];
        entries[b] = t;
      }
  for (uint32_t k = 0; k < ne; k++)
    for (uint32_t j = 0; j < s->npred[entries[k]]; j++) {
      uint32_t p = s->pred[entries[k]][j];
      if (s->order[p] == NONE)
        continue;
      E[n_edges].from = s->blocks[p];
      E[n_edges].to = s->blocks[entries[k]];
      n_edges++;
    }
  k2s_sz_funnel(s, E, n_edges, NONE);
}

/* Builds the loop forest (BI()->loop, s->loops) by Tarjan's algorithm per
 * nesting level: the function, then each loop's blocks but its header. False
 * when an irreducible cycle was rewritten instead: build again. Each level
 * searches every block nested in it (N nested loops cost N^2), so reducible
 * functions take forest_reducible; this one finds and rewrites irreducible
 * cycles, and its numbering of the loops is the one both give. */
static bool build_loops_by_levels(st *s)
{
  k2s_arena *a = &s->snap;
  uint32_t n = s->n;
  s->nloops = 0;
  for (uint32_t i = 0; i < n; i++)
    BI(s->blocks[i])->loop = NONE;
  uint32_t *in_scope = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *vis = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *idx = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *low = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint8_t *onst = k2s_alloc(a, n + 1);
  uint32_t *scc_of = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *tstack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *fstack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *fedge = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t scope_stamp = 0, scc_count = 0;
  scope *work = k2s_alloc(a, (n + 2) * sizeof(scope));
  uint32_t nwork = 0;
  work[nwork++] = (scope){s->rpo, s->nrpo, NONE};
  while (nwork) {
    scope sc = work[--nwork];
    scope_stamp++;
    for (uint32_t k = 0; k < sc.n; k++)
      in_scope[sc.nodes[k]] = scope_stamp;
    uint32_t counter = 0, tsp = 0;
    /* The scopes inside this one, by loop (from L0 on), filled once its
     * cycles are known: a pass over the scope's nodes keeps reverse
     * post-order inside each (a sort per loop made deep loop nests cubic). */
    uint32_t L0 = s->nloops;
    scope *inner = k2s_alloc(a, (sc.n + 1) * sizeof(scope));
    for (uint32_t r = 0; r < sc.n; r++) {
      uint32_t root = sc.nodes[r];
      if (vis[root] == scope_stamp)
        continue;
      uint32_t fsp = 0;
      vis[root] = scope_stamp;
      idx[root] = low[root] = counter++;
      tstack[tsp++] = root;
      onst[root] = 1;
      fstack[fsp] = root;
      fedge[fsp++] = 0;
      while (fsp) {
        uint32_t v = fstack[fsp - 1];
        if (fedge[fsp - 1] < s->nsucc[v]) {
          uint32_t w = s->succ[v][fedge[fsp - 1]++];
          if (in_scope[w] != scope_stamp)
            continue;
          if (vis[w] != scope_stamp) {
            vis[w] = scope_stamp;
            idx[w] = low[w] = counter++;
            tstack[tsp++] = w;
            onst[w] = 1;
            fstack[fsp] = w;
            fedge[fsp++] = 0;
          } else if (onst[w] && idx[w] < low[v]) {
            low[v] = idx[w];
          }
          continue;
        }
        fsp--;
        if (fsp && low[v] < low[fstack[fsp - 1]])
          low[fstack[fsp - 1]] = low[v];
        if (low[v] != idx[v])
          continue;
        /* v roots an SCC: the stack down to v. */
        uint32_t start = tsp;
        do
          start--;
        while (tstack[start] != v);
        uint32_t size = tsp - start;
        uint32_t id = ++scc_count;
        for (uint32_t k = start; k < tsp; k++) {
          onst[tstack[k]] = 0;
          scc_of[tstack[k]] = id;
        }
        bool cyclic = size > 1 || has_succ(s, v, v);
        if (cyclic) {
          uint32_t *nodes = k2s_alloc(a, size * sizeof(uint32_t));
          memcpy(nodes, &tstack[start], size * sizeof(uint32_t));
          uint32_t *entries = k2s_alloc(a, size * sizeof(uint32_t));
          uint32_t nent = 0;
          for (uint32_t k = 0; k < size; k++) {
            uint32_t x = nodes[k];
            bool entry = x == 0;
            for (uint32_t j = 0; j < s->npred[x] && !entry; j++) {
              uint32_t p = s->pred[x][j];
              if (s->order[p] != NONE && scc_of[p] != id)
                entry = true;
            }
            if (entry)
              entries[nent++] = x;
          }
          if (nent > 1) {
            fix_irreducible(s, entries, nent);
            return false;
          }
          uint32_t h = nent ? entries[0] : nodes[0];
          uint32_t L = add_loop(s, s->blocks[h], sc.parent);
          for (uint32_t k = 0; k < size; k++)
            BI(s->blocks[nodes[k]])->loop = L;
          inner[L - L0] = (scope){k2s_alloc(a, size * sizeof(uint32_t)), 0, L};
        }
        tsp = start;
      }
    }
    for (uint32_t k = 0; k < sc.n; k++) {
      uint32_t x = sc.nodes[k], l = BI(s->blocks[x])->loop;
      if (l != sc.parent && s->loops[l].header != s->blocks[x])
        inner[l - L0].nodes[inner[l - L0].n++] = x;
    }
    for (uint32_t L = L0; L < s->nloops; L++)
      if (inner[L - L0].n)
        work[nwork++] = inner[L - L0];
  }
  return true;
}

/* ---- the loop forest of a reducible function in near-linear time ------------- */

/* By block index; TOP (= s->n) stands for the function outside all loops. */
typedef struct forest {
  uint32_t top;
  uint32_t *loop_of;         /* header of the innermost loop holding the block, NONE */
  uint32_t *parent;          /* by header: header of the enclosing loop, NONE */
  uint32_t *lpre, *lpost;    /* by header: numbers in the forest, for nesting tests */
  uint32_t **ev, *nev;       /* by header: exits as (from, to) pairs, search order; 2 × count */
  uint32_t **scope, *nscope; /* by header and TOP: own blocks and inner headers, in RPO */
  uint32_t *number;          /* by header: the loop's index in s->loops */
  uint32_t *vis, vstamp;     /* search marks */
  uint32_t *stack;           /* (block, next edge) pairs */
} forest;

static uint32_t uf_find(uint32_t *uf, uint32_t x)
{
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

/* Loop l (a header) inside loop P (a header or TOP), or l == P. */
static bool forest_within(const forest *F, uint32_t l, uint32_t P)
{
  if (P == F->top)
    return true;
  return l != NONE && F->lpre[P] <= F->lpre[l] && F->lpost[l] <= F->lpost[P];
}

/* The k-th edge a search of loop P follows from v (false past the last):
 * v's own edges, or, for the header of a loop inside P, that loop's exits
 * in the order its own search meets them (nothing inside a loop but its
 * header is entered from outside it, so the search of P passes through an
 * inner loop exactly as the inner loop's own search does). */
static bool forest_edge(st *s, forest *F, uint32_t P, uint32_t v, uint32_t k, uint32_t *from,
                        uint32_t *to)
{
  if (F->loop_of[v] == v && v != P) {
    if (2 * k >= F->nev[v])
      return false;
    *from = F->ev[v][2 * k];
    *to = F->ev[v][2 * k + 1];
    return true;
  }
  if (k >= s->nsucc[v])
    return false;
  *from = v;
  *to = s->succ[v][k];
  return true;
}

/* Searches loop P with its inner loops folded into their headers, from
 * `roots` in order. With `exits`, P's exits go to F->ev[P]; else the edges
 * to P's header are left out and each inner loop is numbered (the next
 * index of s->loops) when its search ends. False when the graph is not what
 * a reducible function's forest promises (then Tarjan per level decides). */
static bool forest_search(st *s, forest *F, uint32_t P, const uint32_t *roots, uint32_t nroots,
                          bool exits)
{
  uint32_t stamp = ++F->vstamp, *stack = F->stack, cap_ev = 0;
  uint32_t Pl = P == F->top ? NONE : P;
  for (uint32_t r = 0; r < nroots; r++) {
    if (F->vis[roots[r]] == stamp)
      continue;
    uint32_t sp = 0;
    F->vis[roots[r]] = stamp;
    stack[sp++] = roots[r];
    stack[sp++] = 0;
    while (sp) {
      uint32_t v = stack[sp - 2], from, w;
      if (!forest_edge(s, F, P, v, stack[sp - 1]++, &from, &w)) {
        sp -= 2;
        if (!exits && F->loop_of[v] == v && v != P) {
          F->number[v] = add_loop(s, s->blocks[v], Pl == NONE ? NONE : F->number[Pl]);
        }
        continue;
      }
      bool inside =
          F->loop_of[w] == Pl || (F->loop_of[w] != NONE && forest_within(F, F->loop_of[w], P));
      if (!inside || (!exits && w == P)) {
        if (!inside && exits) {
          k2s_sz_push_list(&s->snap, &F->ev[P], &F->nev[P], &cap_ev, from);
          k2s_sz_push_list(&s->snap, &F->ev[P], &F->nev[P], &cap_ev, w);
        }
        continue;
      }
      /* A block of P's own, or the header of a loop right inside P. */
      if (F->loop_of[w] != Pl && !(F->loop_of[w] == w && F->parent[w] == Pl))
        return false;
      if (F->vis[w] == stamp)
        continue;
      F->vis[w] = stamp;
      stack[sp++] = w;
      stack[sp++] = 0;
    }
  }
  return true;
}

/* Does every retreating edge go to a block that dominates its source? */
static bool reducible(st *s)
{
  for (uint32_t q = 0; q < s->nrpo; q++) {
    uint32_t u = s->rpo[q];
    for (uint32_t k = 0; k < s->nsucc[u]; k++) {
      uint32_t v = s->succ[u][k];
      if (s->order[v] <= s->order[u] && !dominates(s, v, u))
        return false;
    }
  }
  return true;
}

/* The forest of natural loops (a header's loop: the blocks it dominates that
 * reach one of its back edges without passing it), innermost first, inner
 * loops merged into their headers by union-find (Havlak; Ramalingam), with
 * forest numbers, each level's blocks in reverse post-order and each loop's
 * exits listed once from its own blocks and its inner loops' exits. In an
 * irreducible function the cycles with several entries are no natural loops:
 * their blocks stay in the loop around them. False when the graph is not what
 * such a forest promises (a bug: the caller falls back to Tarjan per level). */
static bool forest_build(st *s, forest *Fp, uint32_t **work_out)
{
  k2s_arena *a = &s->snap;
  uint32_t n = s->n;
  forest F = {.top = n};
  F.loop_of = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.parent = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.lpre = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.lpost = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.ev = k2s_alloc(a, (n + 1) * sizeof(*F.ev));
  F.nev = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.scope = k2s_alloc(a, (n + 1) * sizeof(*F.scope));
  F.nscope = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.number = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.vis = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  F.stack = k2s_alloc(a, (2 * n + 2) * sizeof(uint32_t));
  uint32_t *uf = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint32_t *work = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i <= n; i++) {
    F.loop_of[i] = F.parent[i] = NONE;
    uf[i] = i;
  }
  /* Natural loops, innermost (last in reverse post-order) first. */
  for (uint32_t q = s->nrpo; q-- > 0;) {
    uint32_t h = s->rpo[q], nw = 0, stamp = ++F.vstamp;
    for (uint32_t k = 0; k < s->npred[h]; k++) {
      uint32_t p = s->pred[h][k];
      if (s->order[p] == NONE || !dominates(s, h, p))
        continue;
      F.loop_of[h] = h;
      uint32_t y = uf_find(uf, p);
      if (y != h && F.vis[y] != stamp) {
        F.vis[y] = stamp;
        work[nw++] = y;
      }
    }
    while (nw) {
      uint32_t y = work[--nw];
      if (F.loop_of[y] == NONE)
        F.loop_of[y] = h;
      else
        F.parent[y] = h; /* a loop's header, that loop's first enclosing loop */
      uf[y] = h;
      for (uint32_t k = 0; k < s->npred[y]; k++) {
        uint32_t p = s->pred[y][k];
        if (s->order[p] == NONE)
          continue;
        uint32_t z = uf_find(uf, p);
        if (z == h || F.vis[z] == stamp)
          continue;
        if (!dominates(s, h, z))
          return false; /* a second entry: irreducible after all */
        F.vis[z] = stamp;
        work[nw++] = z;
      }
    }
  }
  /* Forest numbers (a loop's parent comes before it in reverse post-order),
   * and each level's blocks in reverse post-order. */
  {
    uint32_t *first = work, *next = uf, clock = 0, sp = 0;
    for (uint32_t i = 0; i <= n; i++)
      first[i] = NONE;
    for (uint32_t q = s->nrpo; q-- > 0;) {
      uint32_t h = s->rpo[q];
      if (F.loop_of[h] != h)
        continue;
      uint32_t p = F.parent[h] == NONE ? n : F.parent[h];
      next[h] = first[p];
      first[p] = h;
    }
    uint32_t *stack = F.stack;
    stack[sp++] = n;
    while (sp) {
      uint32_t v = stack[sp - 1], c = first[v];
      if (c != NONE) {
        first[v] = next[c];
        F.lpre[c] = clock++;
        stack[sp++] = c;
      } else {
        if (v != n)
          F.lpost[v] = clock++;
        sp--;
      }
    }
  }
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t q = 0; q < s->nrpo; q++) {
      uint32_t x = s->rpo[q], l = F.loop_of[x];
      uint32_t key = l == x ? (F.parent[x] == NONE ? n : F.parent[x]) : l == NONE ? n : l;
      if (pass == 0) {
        F.nscope[key]++;
      } else {
        if (!F.scope[key]) {
          F.scope[key] = k2s_alloc(a, F.nscope[key] * sizeof(uint32_t));
          F.nscope[key] = 0;
        }
        F.scope[key][F.nscope[key]++] = x;
      }
    }
  /* Exits, inner loops first. */
  for (uint32_t q = s->nrpo; q-- > 0;) {
    uint32_t h = s->rpo[q];
    if (F.loop_of[h] == h && !forest_search(s, &F, h, &h, 1, true))
      return false;
  }
  *Fp = F;
  *work_out = work;
  return true;
}

/* The loop forest of a reducible function (every retreating edge goes to a
 * block that dominates its source), numbered as build_loops_by_levels numbers
 * it: the natural loops of forest_build, then each level searched with its
 * inner loops folded. Costs the function's edges plus the exits of each loop,
 * not the blocks of each loop. False when the forest does not fit (nothing in
 * s changed then). */
static bool forest_reducible(st *s)
{
  uint32_t n = s->n, *work;
  forest F;
  if (!forest_build(s, &F, &work))
    return false;
  /* Number the loops level by level, as build_loops_by_levels does: a level's
   * loops in the order their searches end, then the levels inside the last
   * loop first. */
  s->nloops = 0;
  uint32_t *levels = work, nl = 0;
  levels[nl++] = n;
  while (nl) {
    uint32_t P = levels[--nl], L0 = s->nloops;
    if (!forest_search(s, &F, P, F.scope[P], F.nscope[P], false)) {
      s->nloops = 0;
      return false;
    }
    for (uint32_t L = L0; L < s->nloops; L++) {
      uint32_t h = BI(s->loops[L].header)->idx;
      if (F.nscope[h])
        levels[nl++] = h;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = F.loop_of[i];
    BI(s->blocks[i])->loop = l == NONE ? NONE : F.number[l];
  }
  return true;
}

/* ---- the first irreducible cycle in near-linear time ------------------------ */

/* Is block p, seen from level P (a header or TOP) with its inner loops folded,
 * in component id? p stands for itself when it is one of P's own blocks, else
 * for the header of the loop right inside P that holds it; outside P it is in
 * no component of the level. */
static bool folded_in(const forest *F, uint32_t P, uint32_t p, const uint32_t *comp, uint32_t id)
{
  uint32_t Pl = P == F->top ? NONE : P, r = p;
  if (p == P)
    return false;
  if (F->loop_of[p] != Pl) {
    r = F->loop_of[p];
    while (r != NONE && F->parent[r] != Pl)
      r = F->parent[r];
    if (r == NONE)
      return false;
  }
  return comp[r] == id;
}

/* Tarjan's search state: depth-first numbers and low links by block, the
 * stack of blocks not yet in a component, the search stack of (block, next
 * edge) pairs; vis[v] == stamp for the blocks met in this search. */
typedef struct tarjan {
  uint32_t *vis, *idx, *low, *tstack, *stack;
  uint8_t *onst;
  uint32_t stamp, counter, tsp, sp;
} tarjan;

static void tarjan_visit(tarjan *T, uint32_t v)
{
  T->vis[v] = T->stamp;
  T->idx[v] = T->low[v] = T->counter++;
  T->tstack[T->tsp++] = v;
  T->onst[v] = 1;
  T->stack[T->sp++] = v;
  T->stack[T->sp++] = 0;
}

/* Finds the cycle with several entries that build_loops_by_levels would
 * rewrite first, and rewrites it the same way, without its search of every
 * level's whole scope (N loops around an irreducible cycle cost N^2 there).
 * Each level is searched with its natural loops folded into their headers
 * (forest_edge): a natural loop is entered only at its header, so the folded
 * search meets the level's strongly connected components in the order the
 * unfolded one does, with the same entries, each inner natural loop one
 * component of its own; a component of several folded blocks is a cycle with
 * several entries (one with a single entry would be that entry's natural
 * loop). Levels in the order build_loops_by_levels takes them: a level, then
 * the levels inside its last loop first. False when no such cycle turned up
 * or the forest did not fit (the caller asks Tarjan per level then). */
static bool rewrite_first_irreducible(st *s)
{
  k2s_arena *a = &s->snap;
  uint32_t n = s->n, *levels, nl = 0, ncomp = 0;
  forest F;
  if (!forest_build(s, &F, &levels))
    return false;
  uint32_t *entries = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  tarjan T = {.vis = F.vis, .stack = F.stack};
  T.idx = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  T.low = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  T.tstack = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  T.onst = k2s_alloc(a, n + 1);
  uint32_t *idx = T.idx, *low = T.low, *tstack = T.tstack, *stack = T.stack;
  uint32_t *comp = k2s_alloc(a, (n + 1) * sizeof(uint32_t));
  uint8_t *onst = T.onst;
  levels[nl++] = n;
  while (nl) {
    uint32_t P = levels[--nl], Pl = P == n ? NONE : P;
    T.stamp = ++F.vstamp;
    T.counter = T.tsp = 0;
    for (uint32_t r = 0; r < F.nscope[P]; r++) {
      uint32_t root = F.scope[P][r];
      if (T.vis[root] == T.stamp)
        continue;
      T.sp = 0;
      tarjan_visit(&T, root);
      while (T.sp) {
        uint32_t v = stack[T.sp - 2], from, w;
        if (forest_edge(s, &F, P, v, stack[T.sp - 1]++, &from, &w)) {
          bool own = F.loop_of[w] == Pl && w != P;
          bool inner = F.loop_of[w] == w && w != P && F.parent[w] == Pl;
          if (!own && !inner)
            continue;
          if (T.vis[w] != T.stamp) {
            tarjan_visit(&T, w);
          } else if (onst[w] && idx[w] < low[v]) {
            low[v] = idx[w];
          }
          continue;
        }
        T.sp -= 2;
        if (T.sp && low[v] < low[stack[T.sp - 2]])
          low[stack[T.sp - 2]] = low[v];
        if (low[v] != idx[v])
          continue;
        uint32_t start = T.tsp, id = ++ncomp;
        do
          start--;
        while (tstack[start] != v);
        for (uint32_t k = start; k < T.tsp; k++) {
          onst[tstack[k]] = 0;
          comp[tstack[k]] = id;
        }
        if (T.tsp - start == 1) {
          /* An inner loop (its level is searched after this one's) or a
           * block on no cycle of this level. */
          if (F.loop_of[v] == v && F.nscope[v])
            levels[nl++] = v;
          T.tsp = start;
          continue;
        }
        uint32_t nent = 0;
        for (uint32_t k = start; k < T.tsp; k++) {
          uint32_t x = tstack[k];
          bool entry = x == 0;
          for (uint32_t j = 0; j < s->npred[x] && !entry; j++) {
            uint32_t p = s->pred[x][j];
            entry = s->order[p] != NONE && !folded_in(&F, P, p, comp, id);
          }
          if (entry)
            entries[nent++] = x;
        }
        if (nent < 2)
          return false;
        fix_irreducible(s, entries, nent);
        return true;
      }
    }
  }
  return false;
}

/* Builds the loop forest (BI()->loop, s->loops). False when an irreducible
 * cycle was rewritten instead: build again. */
bool k2s_sz_build_loops(st *s)
{
  if (reducible(s))
    return forest_reducible(s) || build_loops_by_levels(s);
  return !rewrite_first_irreducible(s) && build_loops_by_levels(s);
}

/* Pre/post numbers of the loop forest (parents come before their children in
 * s->loops: build_loops adds a loop before the scopes inside it). */
void k2s_sz_number_loops(st *s)
{
  uint32_t n = s->nloops, clock = 0, sp = 0;
  uint32_t *first = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *next = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  uint32_t *stack = k2s_alloc(&s->a, (n + 1) * sizeof(uint32_t));
  for (uint32_t L = 0; L <= n; L++)
    first[L] = NONE; /* first[n]: the roots */
  for (uint32_t L = n; L-- > 0;) {
    uint32_t p = s->loops[L].parent == NONE ? n : s->loops[L].parent;
    next[L] = first[p];
    first[p] = L;
  }
  for (uint32_t r = first[n]; r != NONE; r = next[r]) {
    s->loops[r].pre = clock++;
    stack[sp++] = r;
    first[n] = next[r];
    while (sp) {
      uint32_t v = stack[sp - 1], c = first[v];
      if (c != NONE) {
        first[v] = next[c];
        s->loops[c].pre = clock++;
        stack[sp++] = c;
      } else {
        s->loops[v].post = clock++;
        sp--;
      }
    }
  }
}

/* ---- 3. loop normal form ---------------------------------------------------- */

/* Moves b's terminator into a new block so that b can hold an OpLoopMerge
 * (which must precede an OpBranch or OpBranchConditional). */
static void split_after(st *s, k2s_block *b, uint32_t loop)
{
  k2s_block *nb = k2s_sz_new_block(s, loop);
  k2s_instr *t = term(b);
  uint32_t nl = k2s_sz_n_labels(s, t);
  k2s_list_remove(&b->body, t);
  t->block = nb;
  k2s_list_append(&nb->body, t);
  if (s->live)
    k2s_sz_live_resync(s, nb);
  for (uint32_t k = 0; k < nl; k++) {
    k2s_block *to = k2s_sz_block_of(s, *k2s_sz_label_word(s, t, k));
    bool dup = false;
    for (uint32_t j = 0; j < k; j++)
      if (*k2s_sz_label_word(s, t, j) == *k2s_sz_label_word(s, t, k))
        dup = true;
    if (to && !dup)
      k2s_sz_phis_rename_pred(s, to, b->label->result, nb->label->result);
  }
  uint32_t l = nb->label->result;
  k2s_sz_set_term(s, b, SpvOpBranch, &l, 1);
}

/* Only phis and a return or OpUnreachable: cheap to give each exit its own. */
static bool pure_exit(k2s_block *b)
{
  k2s_foreach_instr(i, &b->body) {
    if (i->opcode == SpvOpPhi || i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
      continue;
    if (i->next)
      return false;
    if (i->opcode == SpvOpReturn || i->opcode == SpvOpUnreachable)
      return true;
    return i->opcode == SpvOpReturnValue && i->n_ops == 1;
  }
  return false;
}

/* The exit p→x (x a pure exit) becomes a return of p's own. */
static void own_exit(st *s, k2s_block *p, k2s_block *x, uint32_t L)
{
  k2s_instr *xt = term(x);
  uint32_t ops[1] = {0};
  uint32_t nops = 0;
  if (xt->opcode == SpvOpReturnValue) {
    ops[0] = xt->ops[0];
    k2s_instr *d = k2s_def(s->m, ops[0]);
    if (d && d->opcode == SpvOpPhi && d->block == x)
      ops[0] = k2s_sz_phi_value(d, p->label->result);
    nops = 1;
  }
  k2s_instr *pt = term(p);
  if (pt->opcode == SpvOpBranch) {
    k2s_sz_set_term(s, p, xt->opcode, ops, nops);
  } else {
    k2s_block *r = k2s_sz_new_block(s, L);
    k2s_sz_set_term(s, r, xt->opcode, ops, nops);
    k2s_sz_retarget(s, pt, x->label->result, r->label->result);
  }
  foreach_phi(phi, x) k2s_sz_phi_remove(s, phi, p->label->result);
}

static bool header_ok(st *s, uint32_t L)
{
  k2s_instr *t = term(s->loops[L].header);
  uint32_t ml = s->loops[L].merge->label->result;
  if (t->opcode == SpvOpBranch)
    return true;
  return t->opcode == SpvOpBranchConditional && (t->ops[1] == ml || t->ops[2] == ml);
}

static bool reusable_latch(st *s, k2s_block *l, uint32_t L)
{
  k2s_instr *t = term(l);
  uint32_t hl = s->loops[L].header->label->result;
  if (t->opcode == SpvOpBranch)
    return t->ops[0] == hl;
  if (t->opcode != SpvOpBranchConditional)
    return false;
  uint32_t other = t->ops[1] == hl ? t->ops[2] : t->ops[2] == hl ? t->ops[1] : 0;
  k2s_block *ob = other ? k2s_sz_block_of(s, other) : NULL;
  return ob && !in_loop(s, ob, L);
}

static void push_u32(k2s_arena *a, uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
  if (*n == *cap) {
    uint32_t c = *cap ? *cap * 2 : 16;
    *v = k2s_realloc_array(a, *v, *n, c, sizeof(uint32_t));
    *cap = c;
  }
  (*v)[(*n)++] = x;
}

/* The successors a search of loop L follows from block v: an inner loop,
 * normalised before L (innermost first), leaves only to its merge, so its
 * header stands for the whole loop and one edge to the merge when it has
 * exits; a block of L follows its own edges. NONE past the last. */
static uint32_t loop_succ(st *s, uint32_t v, uint32_t L, uint32_t k)
{
  k2s_block *b = s->blocks[v];
  uint32_t l = BI(b)->loop;
  if (l != L && l != NONE && s->loops[l].header == b && s->loops[l].merge) {
    if (k || !s->loops[l].has_exits)
      return NONE;
    return BI(s->loops[l].merge)->idx;
  }
  return k < s->nsucc[v] ? s->succ[v][k] : NONE;
}

/* L's own blocks reachable from its header (all of them: only the header
 * enters a loop) and the headers of the loops right inside it, stamped
 * `seen`, in s->lrpo/nlrpo in the order a snapshot's reverse post-order
 * gives them: the whole function's depth-first search meets them as a search
 * from the header that stays in the loop would, since whatever leaves the
 * loop comes back only through the header, and an inner loop's blocks
 * between its header and its merge add nothing to the order of the others.
 * Costs L's own blocks, not its inner loops' (a nest of N loops cost N^2). */
static uint32_t loop_rpo(st *s, uint32_t L)
{
  k2s_arena *a = &s->snap;
  uint32_t stamp = ++s->walk_stamp;
  uint32_t *stack = NULL, sp = 0, cap = 0, np = 0;
  uint32_t h = BI(s->loops[L].header)->idx;
  s->nlrpo = 0;
  BI(s->blocks[h])->seen = stamp;
  push_u32(a, &stack, &sp, &cap, h);
  push_u32(a, &stack, &sp, &cap, 0);
  while (sp) {
    uint32_t v = stack[sp - 2], k = stack[sp - 1];
    uint32_t wi = loop_succ(s, v, L, k);
    if (wi != NONE) {
      stack[sp - 1]++;
      k2s_block *w = s->blocks[wi];
      if (BI(w)->seen != stamp && in_loop(s, w, L)) {
        BI(w)->seen = stamp;
        push_u32(a, &stack, &sp, &cap, wi);
        push_u32(a, &stack, &sp, &cap, 0);
      }
    } else {
      push_u32(a, &s->lrpo, &np, &s->cap_lrpo, v);
      sp -= 2;
    }
  }
  for (uint32_t i = 0; i < np / 2; i++) {
    uint32_t t = s->lrpo[i];
    s->lrpo[i] = s->lrpo[np - 1 - i];
    s->lrpo[np - 1 - i] = t;
  }
  s->nlrpo = np;
  return stamp;
}

static int cmp_u32(const void *pa, const void *pb)
{
  uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
  return x < y ? -1 : x > y;
}

/* Normalises loop L in live mode (see st): reads only the loop's blocks, the
 * blocks its edges leave to and their predecessors; a full snapshot only
 * when the choice of the block that stays outside, or a merge that is the
 * header of the next loop, needs the function's order or dominators. */
bool k2s_sz_normalize_loop(st *s, uint32_t L)
{
  k2s_block *h = s->loops[L].header;
  uint32_t parent = s->loops[L].parent;
  if (term(h)->opcode == SpvOpSwitch)
    split_after(s, h, L);
  /* The continue target. */
  uint32_t in = loop_rpo(s, L);
  uint32_t hi = BI(h)->idx, nl = 0, latch = NONE;
  for (uint32_t k = 0; k < s->npred[hi]; k++) {
    k2s_block *p = s->blocks[s->pred[hi][k]];
    if (BI(p)->seen == in) {
      nl++;
      latch = s->pred[hi][k];
    }
  }
  k2s_block *C;
  /* A single-block loop is its own continue target, unless it is the merge of
   * the loop before it: spirv-val nests a continue target one level below its
   * immediate dominator before it looks at merges, so that header would sit
   * below the block that breaks to it, and a break from a switch case there is
   * "an invalid branch" out of the case. With a continue block of its own the
   * header is a merge only, as deep as the loop it follows. That loop is
   * normalised first: loops are numbered as their searches finish, and this
   * one's header, which the other's dominates, finishes before it. */
  if (nl == 1 && latch == hi && BI(h)->loop_merge_of == NONE) {
    C = h;
  } else if (nl == 1 && BI(s->blocks[latch])->loop == L && !BI(s->blocks[latch])->claimed &&
             reusable_latch(s, s->blocks[latch], L)) {
    C = s->blocks[latch];
  } else {
    edge *E = k2s_alloc(&s->a, (nl + 1) * sizeof(edge));
    uint32_t ne = 0;
    for (uint32_t k = 0; k < s->npred[hi]; k++) {
      k2s_block *p = s->blocks[s->pred[hi][k]];
      if (BI(p)->seen == in)
        E[ne++] = (edge){p, h};
    }
    C = k2s_sz_funnel(s, E, ne, L);
    in = loop_rpo(s, L);
  }
  BI(C)->claimed = true;
  s->loops[L].cont = C;
  /* Exits to a shared return (or OpUnreachable) get returns of their own:
   * blocks by index, as a snapshot lists them; each one's successors as they
   * were before its own exits were made. */
  {
    uint32_t nb = s->nlrpo;
    uint32_t *byidx = k2s_alloc(&s->snap, (nb + 1) * sizeof(uint32_t));
    memcpy(byidx, s->lrpo, nb * sizeof(uint32_t));
    qsort(byidx, nb, sizeof(uint32_t), cmp_u32);
    uint32_t *succ = NULL, cap = 0;
    for (uint32_t q = 0; q < nb; q++) {
      uint32_t i = byidx[q];
      k2s_block *b = s->blocks[i];
      if (b == C || b == h)
        continue;
      uint32_t ns = 0;
      for (uint32_t k = 0; k < s->nsucc[i]; k++)
        push_u32(&s->snap, &succ, &ns, &cap, s->succ[i][k]);
      for (uint32_t k = 0; k < ns; k++) {
        k2s_block *x = s->blocks[succ[k]];
        if (!in_loop(s, x, L) && pure_exit(x)) {
          bool shared = false;
          for (uint32_t j = 0; j < s->npred[BI(x)->idx]; j++)
            if (!in_loop(s, s->blocks[s->pred[BI(x)->idx][j]], L))
              shared = true;
          if (shared)
            own_exit(s, b, x, L);
        }
      }
    }
  }
  in = loop_rpo(s, L);
  /* Blocks that only the loop reaches and that never come back (returns)
   * belong to the loop body when the loop has several exit targets: then
   * those need no exit dispatch. One target stays out to be the merge (the
   * header's exit if it has one, a while loop's; else the first in reverse
   * post-order). */
  k2s_block *keep_out = NULL;
  uint32_t n_targets = 0, *targets = NULL, cap_t = 0;
  uint32_t tstamp = ++s->walk_stamp;
  for (uint32_t q = 0; q < s->nlrpo; q++) {
    uint32_t i = s->lrpo[q];
    for (uint32_t k = 0; k < s->nsucc[i]; k++) {
      k2s_block *x = s->blocks[s->succ[i][k]];
      if (in_loop(s, x, L) || BI(x)->rstamp == tstamp)
        continue;
      BI(x)->rstamp = tstamp;
      push_u32(&s->a, &targets, &n_targets, &cap_t, s->succ[i][k]);
      if (s->blocks[i] == h)
        keep_out = x;
    }
  }
  if (!keep_out && n_targets == 1) {
    keep_out = s->blocks[targets[0]];
  } else if (!keep_out && n_targets) {
    k2s_block **tb = k2s_alloc(&s->a, n_targets * sizeof(*tb));
    for (uint32_t k = 0; k < n_targets; k++)
      tb[k] = s->blocks[targets[k]];
    if (!k2s_sz_snapshot(s))
      return false;
    for (uint32_t k = 0; k < n_targets; k++)
      if (!keep_out || s->order[BI(tb[k])->idx] < s->order[BI(keep_out)->idx])
        keep_out = tb[k];
    for (uint32_t k = 0; k < n_targets; k++)
      targets[k] = BI(tb[k])->idx;
  }
  if (n_targets >= 2) {
    /* Grows to the one fixed point, whatever the order: a block joins once all
     * its predecessors and successors are in the loop, which only grows. */
    uint32_t *work = NULL, nw = 0, cap_w = 0;
    for (uint32_t k = n_targets; k-- > 0;)
      push_u32(&s->a, &work, &nw, &cap_w, targets[k]);
    while (nw) {
      uint32_t i = work[--nw];
      k2s_block *x = s->blocks[i];
      if (x == keep_out || in_loop(s, x, L) || BI(x)->claimed || is_loop_header(s, x) ||
          !s->npred[i])
        continue;
      bool ok = true;
      for (uint32_t j = 0; j < s->npred[i] && ok; j++) {
        k2s_block *p = s->blocks[s->pred[i][j]];
        ok = in_loop(s, p, L) && p != C;
      }
      for (uint32_t j = 0; j < s->nsucc[i] && ok; j++)
        ok = in_loop(s, s->blocks[s->succ[i][j]], L);
      if (!ok)
        continue;
      BI(x)->loop = L;
      for (uint32_t j = 0; j < s->nsucc[i]; j++)
        push_u32(&s->a, &work, &nw, &cap_w, s->succ[i][j]);
    }
    in = loop_rpo(s, L);
  }
  (void)in;
  /* The exits. */
  uint32_t cap = 8, ne = 0;
  edge *E = k2s_alloc(&s->a, cap * sizeof(edge));
  for (uint32_t k = 0; k < s->nlrpo; k++) {
    uint32_t i = s->lrpo[k];
    for (uint32_t j = 0; j < s->nsucc[i]; j++) {
      k2s_block *x = s->blocks[s->succ[i][j]];
      if (in_loop(s, x, L))
        continue;
      if (ne == cap) {
        E = k2s_realloc_array(&s->a, E, ne, cap * 2, sizeof(edge));
        cap *= 2;
      }
      E[ne++] = (edge){s->blocks[i], x};
    }
  }
  k2s_block *M = NULL;
  if (!ne) {
    M = k2s_sz_new_block(s, parent);
    k2s_sz_set_term(s, M, SpvOpUnreachable, NULL, 0);
    BI(M)->keep = true;
  } else {
    bool single = true;
    for (uint32_t e = 1; e < ne; e++)
      if (E[e].to != E[0].to)
        single = false;
    k2s_block *x = E[0].to;
    bool header = is_loop_header(s, x);
    if (!single || BI(x)->claimed) {
      single = false;
    } else if (header) {
      /* The header of a loop right after this one (a sibling: only it and
       * this loop enter it) can be the merge. */
      single = s->loops[BI(x)->loop].parent == parent;
      if (single) {
        if (!k2s_sz_snapshot(s))
          return false;
        single = dominates(s, BI(h)->idx, BI(x)->idx);
      }
    } else {
      /* The merge needs the loop header to dominate it. */
      uint32_t xi = BI(x)->idx;
      for (uint32_t j = 0; j < s->npred[xi]; j++)
        if (!in_loop(s, s->blocks[s->pred[xi][j]], L))
          single = false;
    }
    if (single) {
      M = x;
      if (!header)
        BI(M)->loop = parent;
    } else {
      M = k2s_sz_funnel(s, E, ne, parent);
    }
  }
  BI(M)->claimed = true;
  BI(M)->loop_merge_of = L;
  s->loops[L].merge = M;
  s->loops[L].has_exits = ne > 0;
  if (!header_ok(s, L))
    split_after(s, h, L);
  return true;
}
