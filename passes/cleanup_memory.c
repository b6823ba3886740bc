/*
 * cleanup, memory forwarding within a block: a load of a pointer an earlier
 * load or store of the block read or wrote becomes that value when nothing in
 * between may have written the memory. Private arrays and the packed POD
 * argument copy are stored and read back element by element (pod_packed: 28 of
 * 36 loads), which a driver's SSA rewrite would otherwise have to remove.
 *
 * Aliasing is decided conservatively from the pointers' addresses: a root (an
 * OpVariable, or any other pointer value) and the constant indices of the
 * OpAccessChains above it. Two addresses are disjoint when their storage classes
 * differ (StorageBuffer, PhysicalStorageBuffer and Uniform count as one: the
 * same buffer may be bound or addressed through each), when their roots are two
 * different Function, Private or Workgroup variables, or when one root is indexed
 * by two different constants at the same depth. Anything else may alias, so a
 * store forgets what it may overwrite. A call, barrier, atomic, image write,
 * copy, volatile access or any other instruction that may write memory forgets
 * everything; so does the end of the block (what other blocks write is not
 * followed). Volatile loads are never forwarded.
 */
#include <string.h>

#include "cleanup.h"

/* Known values at most; past it the forgotten entries are compacted away, and
 * if all are still live everything is forgotten (a store scans them all). */
#define MAX_KNOWN 128u
#define MAX_DEPTH 6u

enum { GROUP_BUFFER = 0xffffffffu };

typedef struct address {
  uint32_t root;  /* the pointer the access chains start from */
  uint32_t group; /* storage class, GROUP_BUFFER for the buffer classes */
  bool variable;  /* root is an OpVariable of Function, Private or Workgroup */
  bool deep;      /* more than MAX_DEPTH indices: they are not compared */
  uint32_t n;
  bool is_const[MAX_DEPTH];
  uint64_t index[MAX_DEPTH];
} address;

typedef struct known {
  uint32_t ptr;
  address addr;
} known;

struct k2s_cl_mem {
  k2s_module *m;
  uint32_t gen;                   /* the block (and writes) since which entries count */
  uint32_t cap;                   /* pointer ids below it are tracked */
  uint32_t *stamp, *value, *slot; /* by pointer id: gen, value (0: forgotten), index in list */
  known *list;
  uint32_t n;
};

k2s_cl_mem *k2s_cl_mem_new(k2s_module *m, k2s_arena *a)
{
  k2s_cl_mem *mem = k2s_alloc(a, sizeof(*mem));
  mem->m = m;
  mem->gen = 1;
  mem->cap = m->id_cap;
  mem->stamp = k2s_alloc(a, (mem->cap + 1) * sizeof(uint32_t));
  mem->value = k2s_alloc(a, (mem->cap + 1) * sizeof(uint32_t));
  mem->slot = k2s_alloc(a, (mem->cap + 1) * sizeof(uint32_t));
  mem->list = k2s_alloc(a, MAX_KNOWN * sizeof(known));
  return mem;
}

void k2s_cl_mem_block(k2s_cl_mem *mem)
{
  mem->gen++;
  mem->n = 0;
}

static uint32_t storage_group(k2s_module *m, uint32_t ptr)
{
  k2s_instr *t = k2s_def(m, k2s_type_of(m, ptr));
  if (!t || t->opcode != SpvOpTypePointer || t->n_ops < 1)
    return GROUP_BUFFER; /* (not a pointer type: may alias anything a buffer does) */
  switch (t->ops[0]) {
  case SpvStorageClassStorageBuffer:
  case SpvStorageClassPhysicalStorageBuffer:
  case SpvStorageClassUniform: return GROUP_BUFFER;
  default: return t->ops[0];
  }
}

static void address_of(k2s_module *m, uint32_t ptr, address *ad)
{
  uint32_t rev[MAX_DEPTH]; /* indices, innermost chain first */
  uint32_t n = 0;
  ad->group = storage_group(m, ptr);
  ad->deep = false;
  k2s_instr *d = k2s_def(m, ptr);
  while (d && (d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain) &&
         d->n_ops >= 1) {
    for (uint32_t k = d->n_ops; k-- > 1;) {
      if (n == MAX_DEPTH)
        ad->deep = true; /* (the walk goes on to the root) */
      else
        rev[n++] = d->ops[k];
    }
    ptr = d->ops[0];
    d = k2s_def(m, ptr);
  }
  ad->root = ptr;
  ad->variable = d && d->opcode == SpvOpVariable && d->n_ops >= 1 &&
                 (d->ops[0] == SpvStorageClassFunction || d->ops[0] == SpvStorageClassPrivate ||
                  d->ops[0] == SpvStorageClassWorkgroup);
  ad->n = ad->deep ? 0 : n;
  for (uint32_t k = 0; k < ad->n; k++)
    ad->is_const[k] = k2s_const_value(m, rev[n - 1 - k], &ad->index[k]);
}

static bool disjoint(const address *p, const address *q)
{
  if (p->group != q->group)
    return true;
  if (p->root != q->root)
    return p->variable && q->variable;
  if (p->deep || q->deep)
    return false;
  for (uint32_t k = 0; k < p->n && k < q->n; k++) {
    if (!p->is_const[k] || !q->is_const[k])
      return false;
    if (p->index[k] != q->index[k])
      return true;
  }
  return false; /* one address contains the other */
}

static void forget_all(k2s_cl_mem *mem)
{
  k2s_cl_mem_block(mem);
}

static bool live(const k2s_cl_mem *mem, uint32_t ptr)
{
  return ptr < mem->cap && mem->stamp[ptr] == mem->gen && mem->value[ptr];
}

/* Drops the forgotten entries from the list. */
static void compact(k2s_cl_mem *mem)
{
  uint32_t n = 0;
  for (uint32_t k = 0; k < mem->n; k++) {
    uint32_t p = mem->list[k].ptr;
    if (!mem->value[p]) {
      mem->stamp[p] = 0;
      continue;
    }
    mem->list[n] = mem->list[k];
    mem->slot[p] = n++;
  }
  mem->n = n;
}

static void remember(k2s_cl_mem *mem, uint32_t ptr, const address *ad, uint32_t value)
{
  if (ptr >= mem->cap)
    return;
  if (mem->stamp[ptr] == mem->gen) { /* listed already, live or forgotten */
    mem->value[ptr] = value;
    mem->list[mem->slot[ptr]].addr = *ad;
    return;
  }
  if (mem->n == MAX_KNOWN)
    compact(mem);
  if (mem->n == MAX_KNOWN)
    forget_all(mem);
  mem->stamp[ptr] = mem->gen;
  mem->value[ptr] = value;
  mem->slot[ptr] = mem->n;
  mem->list[mem->n++] = (known){ptr, *ad};
}

/* Memory operands that leave a load or store an ordinary access. */
static bool plain_access(const k2s_instr *i, uint32_t mask_word)
{
  return i->n_ops <= mask_word ||
         !(i->ops[mask_word] &
           ~(uint32_t)(SpvMemoryAccessAlignedMask | SpvMemoryAccessNontemporalMask));
}

uint32_t k2s_cl_mem_load(k2s_cl_mem *mem, k2s_instr *i)
{
  if (i->n_ops < 1 || !plain_access(i, 1))
    return 0;
  uint32_t p = i->ops[0];
  if (live(mem, p)) {
    uint32_t v = mem->value[p];
    if (k2s_type_of(mem->m, v) == i->type)
      return v;
    return 0;
  }
  address ad;
  address_of(mem->m, p, &ad);
  remember(mem, p, &ad, i->result);
  return 0;
}

void k2s_cl_mem_write(k2s_cl_mem *mem, k2s_instr *i)
{
  if (i->opcode != SpvOpStore || i->n_ops < 2 || !plain_access(i, 2)) {
    forget_all(mem);
    return;
  }
  uint32_t p = i->ops[0];
  address ad;
  address_of(mem->m, p, &ad);
  for (uint32_t k = 0; k < mem->n; k++) {
    uint32_t q = mem->list[k].ptr;
    if (mem->value[q] && q != p && !disjoint(&ad, &mem->list[k].addr))
      mem->value[q] = 0;
  }
  remember(mem, p, &ad, i->ops[1]);
}
