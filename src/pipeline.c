/* The pass manager: runs the pipeline (or a sub-pipeline), with
 * --print-after, --time-passes, --validate-after-each and, in debug builds,
 * a check that a pass reporting "no change" changed nothing. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "k2s_internal.h"

#define K2S_PASS_ENTRY(fn, name, desc) {name, k2s_##fn, desc},
const k2s_pass_info k2s_pipeline[] = {K2S_PIPELINE(K2S_PASS_ENTRY)};
#undef K2S_PASS_ENTRY
const size_t k2s_pipeline_length = sizeof(k2s_pipeline) / sizeof(k2s_pipeline[0]);

const char *const *k2s_pass_names(void)
{
  static const char *names[sizeof(k2s_pipeline) / sizeof(k2s_pipeline[0]) + 1];
  for (size_t i = 0; i < k2s_pipeline_length; i++)
    names[i] = k2s_pipeline[i].name;
  return names;
}

const char *k2s_pass_description(const char *name)
{
  for (size_t i = 0; i < k2s_pipeline_length; i++)
    if (strcmp(k2s_pipeline[i].name, name) == 0)
      return k2s_pipeline[i].description;
  return NULL;
}

static const k2s_pass_info *find_pass(const char *name, size_t len)
{
  for (size_t i = 0; i < k2s_pipeline_length; i++)
    if (strlen(k2s_pipeline[i].name) == len && strncmp(k2s_pipeline[i].name, name, len) == 0)
      return &k2s_pipeline[i];
  return NULL;
}

/* Parse "a,b,c" / "none" into a list of passes; NULL spec = whole pipeline. */
int k2s_parse_pass_list(k2s_module *m, const char *spec, const k2s_pass_info ***out)
{
  const k2s_pass_info **list = k2s_alloc(&m->arena, (k2s_pipeline_length + 64) * sizeof(*list));
  int n = 0;
  if (!spec) {
    for (size_t i = 0; i < k2s_pipeline_length; i++)
      list[n++] = &k2s_pipeline[i];
  } else if (!spec[0]) {
    k2s_error(m, NULL, "--passes is empty (use --passes=none to run no pass)");
    return -1;
  } else if (strcmp(spec, "none") != 0) {
    for (const char *p = spec; *p;) {
      const char *e = strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      const k2s_pass_info *pi = find_pass(p, len);
      if (!pi) {
        k2s_error(m, NULL, "unknown pass '%.*s' in --passes (see --help for the list)", (int)len,
                  p);
        return -1;
      }
      if (n >= (int)k2s_pipeline_length + 63) {
        k2s_error(m, NULL, "--passes lists too many passes");
        return -1;
      }
      list[n++] = pi;
      p += len + (e ? 1 : 0);
    }
  }
  *out = list;
  return n;
}

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void print_module(k2s_module *m, const char *title)
{
  size_t n;
  uint32_t *w = k2s_write_native(m, &n);
  char *text = k2s_disassemble(&m->arena, w, n);
  k2s_sb_printf(m->log, "; ---- %s ----\n%s", title,
                text ? text : "; (SPIRV-Tools could not disassemble the module)\n");
}

bool k2s_run_passes(k2s_module *m, const k2s_options *o, const k2s_pass_info **list, int n,
                    int validate_env)
{
  bool print_all = o->print_after && strcmp(o->print_after, "all") == 0;
  size_t arena_before =
      o->time_passes ? k2s_arena_bytes(&m->arena) + k2s_arena_bytes(&m->uses_arena) : 0;
  for (int i = 0; i < n; i++) {
    const k2s_pass_info *p = list[i];
    m->pass = p->name;
    m->uses_kept = false; /* until the pass says it keeps def-use (k2s_keep_uses) */
    k2s_release_stale_uses(m);
    uint32_t builds_before = m->uses_builds;
#ifndef NDEBUG
    uint64_t before = k2s_hash_module(m);
#endif
    k2s_budget_check_time(NULL);
    double t0 = now_ms();
    bool changed = p->run(m, o);
    double t1 = now_ms();
    if (o->time_passes) {
      /* The module's arena after the pass: what each pass adds to peak memory. */
      size_t arena = k2s_arena_bytes(&m->arena) + k2s_arena_bytes(&m->uses_arena);
      /* Def-use built for the whole module: a pass that does not keep it
       * valid across its changes makes the next query rebuild it (issue 16). */
      char builds[40] = "";
      if (m->uses_builds != builds_before)
        snprintf(builds, sizeof builds, "  def-use built %u×", m->uses_builds - builds_before);
      k2s_sb_printf(m->log, "time: %-24s %9.3f ms %9.1f MB arena (%+.1f)%s%s\n", p->name, t1 - t0,
                    arena / 1e6, ((double)arena - (double)arena_before) / 1e6,
                    changed ? "" : "  (no change)", builds);
      arena_before = arena;
    }
    if (m->failed) {
      m->pass = NULL;
      return false;
    }
    /* A pass that did not keep def-use may have stored into operands after
     * its last rebuild: the next pass starts from fresh chains. */
    if (changed && !m->uses_kept)
      k2s_invalidate_uses(m);
#ifndef NDEBUG
    if (!changed && k2s_hash_module(m) != before) {
      k2s_error(m, NULL, "internal error: pass '%s' reported no change but changed the module",
                p->name);
      m->pass = NULL;
      return false;
    }
    if (changed && m->uses_kept && m->uses_valid) {
      /* The pass said it keeps def-use valid across its changes (src/ir.c):
       * a plain store into operands would leave records that mislead the
       * next pass. */
      k2s_arena scratch = {0};
      scratch.oom = m->arena.oom;
      const char *stale = k2s_check_uses(m, &scratch);
      if (stale)
        k2s_error(m, NULL, "internal error: after pass '%s', %s", p->name, stale);
      k2s_arena_free(&scratch);
      if (stale) {
        m->pass = NULL;
        return false;
      }
    }
#endif
    if (print_all || (o->print_after && strcmp(o->print_after, p->name) == 0))
      print_module(m, k2s_sprintf(&m->arena, "after %s", p->name));
    if (o->validate_after_each) {
      /* Between passes a module is a hybrid of the two dialects, valid in no
       * SPIR-V environment; what must hold is structure: every id defined
       * once, every operand shaped as the grammar says, sections in order.
       * Re-parsing the serialized module checks exactly that. The final
       * module is checked by spirv-val for the target as usual. */
      size_t nw;
      uint32_t *w = k2s_write_native(m, &nw);
      k2s_parse_error perr;
      k2s_module *check = k2s_parse(w, nw, &perr);
      if (!check) {
        k2s_error(m, NULL, "internal error: the module is malformed after pass '%s': %s",
                  p->name, perr.message);
        m->pass = NULL;
        return false;
      }
      k2s_module_free(check);
      (void)validate_env;
    }
  }
  k2s_release_stale_uses(m);
  m->uses_kept = false;
  m->pass = NULL;
  return true;
}
