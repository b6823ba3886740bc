/*
 * The resource budget of one translation: memory and time the library checks
 * itself, so a hostile or huge module ends in a clear error instead of an
 * OOM kill (or a silent exit when malloc fails under a ulimit) or a run that
 * never ends.
 *
 * Memory counts the bytes of live arena chunks of the translating thread (the
 * module, its scratch arenas and the result), which is where k2s's own memory
 * goes; SPIRV-Tools' validator allocates outside it. Time is checked when a
 * chunk is allocated, every 4096 fresh ids and between passes, so a pass
 * that loops without allocating is not caught here.
 *
 * k2s_options.max_memory_mb: 0 = automatic: three quarters of the physical
 * memory, or of RLIMIT_AS / RLIMIT_DATA when those are lower.
 * k2s_options.max_seconds: 0 = no limit. The state is thread-local: parallel
 * translations in one process each have their own budget.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "k2s_internal.h"

static _Thread_local k2s_budget *budget_now;

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t auto_limit(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t limit = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
  int which[2] = {RLIMIT_AS, RLIMIT_DATA};
  for (int k = 0; k < 2; k++) {
    struct rlimit rl;
    if (getrlimit(which[k], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uint64_t)rl.rlim_cur < limit)
      limit = (uint64_t)rl.rlim_cur;
  }
  return limit == UINT64_MAX ? UINT64_MAX : limit / 4 * 3;
}

void k2s_budget_begin(k2s_budget *b, const k2s_options *o, jmp_buf *escape)
{
  *b = (k2s_budget){0};
  b->limit_bytes = o->max_memory_mb ? (uint64_t)o->max_memory_mb << 20 : auto_limit();
  b->limit_seconds = o->max_seconds;
  b->limit_bytes_asked = b->limit_bytes;
  b->limit_seconds_asked = b->limit_seconds;
  b->start = now_s();
  b->escape = escape;
  b->outer = budget_now;
  budget_now = b;
}

void k2s_budget_end(k2s_budget *b)
{
  budget_now = b->outer;
}

void k2s_budget_set_escape(jmp_buf *escape)
{
  if (budget_now)
    budget_now->escape = escape;
}

static _Noreturn void exceeded(k2s_budget *b, int what, jmp_buf *where)
{
  b->exceeded = what;
  /* Let the error report itself allocate. */
  b->limit_bytes = UINT64_MAX;
  b->limit_seconds = 0;
  longjmp(*where, 1);
}

void k2s_budget_charge(int64_t bytes, jmp_buf *arena_escape)
{
  k2s_budget *b = budget_now;
  if (!b)
    return;
  if (bytes < 0) {
    uint64_t give = (uint64_t)-bytes;
    b->used_bytes = give > b->used_bytes ? 0 : b->used_bytes - give;
    return;
  }
  jmp_buf *where = arena_escape ? arena_escape : b->escape;
  if (b->used_bytes + (uint64_t)bytes > b->limit_bytes && where)
    exceeded(b, K2S_BUDGET_MEMORY, where);
  b->used_bytes += (uint64_t)bytes;
  if (b->used_bytes > b->peak_bytes)
    b->peak_bytes = b->used_bytes;
  k2s_budget_check_time(arena_escape);
}

void k2s_budget_rethrow(void)
{
  k2s_budget *b = budget_now;
  if (b && b->exceeded && b->escape)
    longjmp(*b->escape, 1);
}

void k2s_budget_check_time(jmp_buf *escape)
{
  k2s_budget *b = budget_now;
  jmp_buf *where = escape ? escape : b ? b->escape : NULL;
  if (b && b->limit_seconds && where && now_s() - b->start > (double)b->limit_seconds)
    exceeded(b, K2S_BUDGET_TIME, where);
}

void k2s_budget_tick(void)
{
  k2s_budget *b = budget_now;
  if (b && (++b->ticks & 4095) == 0)
    k2s_budget_check_time(NULL);
}

char *k2s_budget_message(k2s_arena *a, const k2s_budget *b)
{
  if (b->exceeded == K2S_BUDGET_TIME)
    return k2s_sprintf(a,
                       "the translation ran out of its time budget (%u s; raise it with "
                       "--max-time=SECONDS, or 0 for none)",
                       b->limit_seconds_asked);
  return k2s_sprintf(a,
                     "the translation ran out of its memory budget (%llu MB; raise it with "
                     "--max-memory=MB)",
                     (unsigned long long)(b->limit_bytes_asked >> 20));
}
