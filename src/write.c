/* IR → SPIR-V binary, in the input's byte order. An unchanged module comes
 * out byte-identical: every instruction is re-emitted from its words. */
#include <string.h>

#include "k2s_internal.h"

/* The writer walks the module once to count (and, for the hash, to fold)
 * the words, then once more to store them into one exact allocation: the
 * module arena never frees, and a doubling buffer left about twice the
 * module's size behind per write (debug builds hash the module twice per
 * pass; a 10 MB module grew to 1 GB). */
typedef struct writer {
  uint32_t *w; /* NULL: count, or with hashing, fold */
  size_t n;
  bool hashing;
  uint64_t hash;
} writer;

static void put(writer *wr, uint32_t v)
{
  if (wr->w)
    wr->w[wr->n] = v;
  else
    wr->hash = (wr->hash ^ v) * 0x100000001b3ull;
  wr->n++;
}

static void put_instr(writer *wr, const k2s_instr *i)
{
  uint32_t wc = 1 + (i->type ? 1 : 0) + (i->result ? 1 : 0) + i->n_ops;
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  /* Known opcodes keep their grammar shape even if an id is (wrongly) 0. */
  if (info)
    wc = 1 + info->has_type + info->has_result + i->n_ops;
  if (!wr->w && !wr->hashing) { /* counting: the words themselves do not matter */
    wr->n += wc;
    return;
  }
  put(wr, (wc << 16) | i->opcode);
  if (info ? info->has_type : i->type != 0)
    put(wr, i->type);
  if (info ? info->has_result : i->result != 0)
    put(wr, i->result);
  if (wr->w) {
    if (i->n_ops)
      memcpy(wr->w + wr->n, i->ops, i->n_ops * sizeof(uint32_t));
    wr->n += i->n_ops;
    return;
  }
  for (uint32_t k = 0; k < i->n_ops; k++)
    put(wr, i->ops[k]);
}

static void put_list(writer *wr, const k2s_list *l)
{
  k2s_foreach_instr(i, l)
    put_instr(wr, i);
}

static uint32_t bswap32(uint32_t v)
{
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static void walk(writer *wr, const k2s_module *m)
{
  put(wr, 0x07230203u);
  put(wr, m->version);
  put(wr, m->generator);
  put(wr, m->bound);
  put(wr, m->schema);
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    put_list(wr, &m->sec[s]);
  k2s_foreach_function(f, m) {
    put_instr(wr, f->def);
    put_list(wr, &f->head);
    k2s_foreach_block(b, f) {
      put_instr(wr, b->label);
      put_list(wr, &b->body);
    }
    if (f->end)
      put_instr(wr, f->end);
  }
  put_list(wr, &m->tail);
}

uint32_t *k2s_write_native(k2s_module *m, size_t *n_words)
{
  writer count = {0};
  walk(&count, m);
  writer wr = {.w = k2s_alloc_uninit(&m->arena, count.n * sizeof(uint32_t))}; /* all stored */
  walk(&wr, m);
  *n_words = wr.n;
  return wr.w;
}

uint32_t *k2s_write(k2s_module *m, size_t *n_words)
{
  uint32_t *w = k2s_write_native(m, n_words);
  if (m->big_endian)
    for (size_t i = 0; i < *n_words; i++)
      w[i] = bswap32(w[i]);
  return w;
}

uint64_t k2s_hash_module(k2s_module *m)
{
  /* FNV-1a over the serialized words, folded while walking: nothing is
   * allocated (hashing is for debug builds only). */
  writer wr = {.hashing = true, .hash = 0xcbf29ce484222325ull};
  walk(&wr, m);
  return wr.hash;
}
