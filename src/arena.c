/* Arena allocation: one arena per module, freed all at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

#define K2S_CHUNK_SIZE (256u * 1024u)

static void out_of_memory(k2s_arena *a)
{
  if (a->oom)
    longjmp(*a->oom, 1);
  /* No recovery point: an internal invariant, not bad input. */
  fputs("k2s: fatal: out of memory\n", stderr);
  abort();
}

void *k2s_alloc_chunk(k2s_arena *a, size_t size)
{
  size_t cap = size > K2S_CHUNK_SIZE ? size : K2S_CHUNK_SIZE;
  k2s_budget_charge((int64_t)(sizeof(k2s_arena_chunk) + cap), a->oom);
  k2s_arena_chunk *c = malloc(sizeof(*c) + cap);
  if (!c) {
    out_of_memory(a);
    return NULL;
  }
  c->size = cap;
  c->used = size;
  /* A big one-off allocation goes behind the current chunk so the
   * current chunk's free space stays usable. */
  if (a->head && size > K2S_CHUNK_SIZE) {
    c->next = a->head->next;
    a->head->next = c;
  } else {
    c->next = a->head;
    a->head = c;
  }
  return c->data;
}

void *k2s_alloc(k2s_arena *a, size_t size)
{
  void *p = k2s_alloc_uninit(a, size);
  memset(p, 0, size);
  return p;
}

void *k2s_realloc_array(k2s_arena *a, void *old, size_t old_n, size_t new_n, size_t elem)
{
  /* Only the new part is zeroed: the copied part is overwritten at once. */
  size_t keep = old ? (old_n < new_n ? old_n : new_n) * elem : 0;
  char *p = k2s_alloc_uninit(a, new_n * elem);
  if (keep)
    memcpy(p, old, keep);
  memset(p + keep, 0, new_n * elem - keep);
  return p;
}

char *k2s_strdup(k2s_arena *a, const char *s)
{
  size_t n = strlen(s) + 1;
  char *p = k2s_alloc_uninit(a, n);
  memcpy(p, s, n);
  return p;
}

char *k2s_vsprintf(k2s_arena *a, const char *fmt, va_list ap)
{
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    n = 0;
  char *p = k2s_alloc_uninit(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

char *k2s_sprintf(k2s_arena *a, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *p = k2s_vsprintf(a, fmt, ap);
  va_end(ap);
  return p;
}

size_t k2s_arena_bytes(const k2s_arena *a)
{
  size_t n = 0;
  for (const k2s_arena_chunk *c = a->head; c; c = c->next)
    n += c->used;
  return n;
}

void k2s_arena_reset(k2s_arena *a)
{
  k2s_arena_chunk *keep = a->head;
  if (keep && keep->size != K2S_CHUNK_SIZE)
    keep = NULL; /* a one-off big chunk is not worth keeping */
  k2s_arena_chunk *c = keep ? keep->next : a->head;
  while (c) {
    k2s_arena_chunk *n = c->next;
    free(c);
    c = n;
  }
  if (keep) {
    keep->next = NULL;
    keep->used = 0;
  }
  a->head = keep;
}

void k2s_arena_free(k2s_arena *a)
{
  k2s_arena_chunk *c = a->head;
  while (c) {
    k2s_arena_chunk *n = c->next;
    k2s_budget_charge(-(int64_t)(sizeof(*c) + c->size), NULL);
    free(c);
    c = n;
  }
  a->head = NULL;
}

static void sb_reserve(k2s_strbuf *sb, size_t extra)
{
  if (sb->len + extra + 1 <= sb->cap)
    return;
  size_t cap = sb->cap ? sb->cap * 2 : 256;
  while (cap < sb->len + extra + 1)
    cap *= 2;
  sb->data = k2s_realloc_array(sb->arena, sb->data, sb->cap, cap, 1);
  sb->cap = cap;
}

void k2s_sb_puts(k2s_strbuf *sb, const char *s)
{
  size_t n = strlen(s);
  sb_reserve(sb, n);
  memcpy(sb->data + sb->len, s, n + 1);
  sb->len += n;
}

void k2s_sb_printf(k2s_strbuf *sb, const char *fmt, ...)
{
  /* Format straight into the free space; only text that does not fit is
   * formatted twice (measuring every piece first doubled the reflection's
   * cost, 4% of a small translation). */
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  size_t room = sb->data ? sb->cap - sb->len : 0; /* no buffer yet: measure only */
  int n = vsnprintf(room ? sb->data + sb->len : NULL, room, fmt, ap);
  if (n > 0 && (size_t)n >= room) {
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
  }
  if (n > 0)
    sb->len += (size_t)n;
  else if (room)
    sb->data[sb->len] = 0; /* nothing (or an encoding error): the text stays as it was */
  va_end(ap2);
  va_end(ap);
}
