/* IR → SPIR-V binary, in the input's byte order. An unchanged module comes
 * out byte-identical: every instruction is re-emitted from its words. */
#include <string.h>

#include "k2s_internal.h"

typedef struct writer {
  k2s_module *m;
  uint32_t *w;
  size_t n, cap;
  bool hashing; /* fold the words into hash instead of storing them */
  uint64_t hash;
} writer;

static void put(writer *wr, uint32_t v)
{
  if (wr->hashing) {
    wr->hash ^= v;
    wr->hash *= 0x100000001b3ull;
    wr->n++;
    return;
  }
  if (wr->n == wr->cap) {
    size_t cap = wr->cap ? wr->cap * 2 : 1024;
    wr->w = k2s_realloc_array(&wr->m->arena, wr->w, wr->n, cap, sizeof(uint32_t));
    wr->cap = cap;
  }
  wr->w[wr->n++] = v;
}

static void put_instr(writer *wr, const k2s_instr *i)
{
  uint32_t wc = 1 + (i->type ? 1 : 0) + (i->result ? 1 : 0) + i->n_ops;
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  /* Known opcodes keep their grammar shape even if an id is (wrongly) 0. */
  if (info)
    wc = 1 + info->has_type + info->has_result + i->n_ops;
  put(wr, (wc << 16) | i->opcode);
  if (info ? info->has_type : i->type != 0)
    put(wr, i->type);
  if (info ? info->has_result : i->result != 0)
    put(wr, i->result);
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

static void write_module(writer *wr_, k2s_module *m)
{
  writer wr = *wr_;
  put(&wr, 0x07230203u);
  put(&wr, m->version);
  put(&wr, m->generator);
  put(&wr, m->bound);
  put(&wr, m->schema);
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    put_list(&wr, &m->sec[s]);
  k2s_foreach_function(f, m) {
    put_instr(&wr, f->def);
    put_list(&wr, &f->head);
    k2s_foreach_block(b, f) {
      put_instr(&wr, b->label);
      put_list(&wr, &b->body);
    }
    if (f->end)
      put_instr(&wr, f->end);
  }
  put_list(&wr, &m->tail);
  *wr_ = wr;
}

uint32_t *k2s_write_native(k2s_module *m, size_t *n_words)
{
  writer wr = {.m = m};
  write_module(&wr, m);
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
  /* FNV-1a over the words the writer would emit, folded as they are made:
   * cheap, any change shows, and nothing is allocated (a serialized copy per
   * hash, two per pass, grew the arena by dozens of output sizes). Debug
   * builds only. */
  writer wr = {.m = m, .hashing = true, .hash = 0xcbf29ce484222325ull};
  write_module(&wr, m);
  return wr.hash;
}
