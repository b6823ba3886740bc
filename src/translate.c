/* k2s_translate(): parse, validate the input, run the pipeline, validate
 * the output for the target, and hand back words, reflection and
 * diagnostics. Nothing is returned as output unless every step succeeded. */
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

struct k2s_result {
  k2s_arena arena;
  k2s_status status;
  uint32_t *words;
  size_t n_words;
  char *reflection_json, *descriptor_map, *log;
  k2s_diagnostic *diags;
  size_t n_diags, cap_diags;
};

void k2s_options_init(k2s_options *o)
{
  memset(o, 0, sizeof(*o));
  o->target_env = K2S_ENV_VULKAN_1_1;
  o->validate_input = true;
  o->validate_output = true;
  o->pod_mode = K2S_POD_SSBO;
  o->cluster_pod_args = true;
  o->max_push_constant_size = 128;
}

static void add_diag(k2s_result *r, k2s_severity sev, const char *pass, int64_t off,
                     const char *msg)
{
  if (r->n_diags == r->cap_diags) {
    size_t cap = r->cap_diags ? r->cap_diags * 2 : 8;
    r->diags = k2s_realloc_array(&r->arena, r->diags, r->n_diags, cap, sizeof(*r->diags));
    r->cap_diags = cap;
  }
  r->diags[r->n_diags++] = (k2s_diagnostic){sev, pass ? k2s_strdup(&r->arena, pass) : NULL, off,
                                            k2s_strdup(&r->arena, msg)};
}

static void take_module_diags(k2s_result *r, k2s_module *m)
{
  for (size_t i = 0; i < m->n_diags; i++) {
    const k2s_diagnostic *d = k2s_module_diag(m, i);
    add_diag(r, d->severity, d->pass, d->word_offset, d->message);
  }
}

/* llvm-spirv 15 emits CFG layouts and merge hints spirv-val rejects, and
 * leaves interface variables out of SPIR-V 1.4 entry points. The structurizer
 * rebuilds the CFG and finalize rebuilds the interface, so these complaints
 * are repaired, not fatal. */
static bool repairable_input_error(const char *msg)
{
  static const char *const known[] = {
      "appears in the binary before its dominator",
      "is already a merge block for another header",
      "is already a continue target",
      "OpPhi's number of incoming blocks",
      "must appear in a block",
      "Interface variable",
      "is not listed in the entry point's interface",
      "must be the first instruction in a loop header block",
      "back-edge",
      "structurally dominate",
      "Selection must be structured",
      "is targeted by",
  };
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
    if (strstr(msg, known[i]))
      return true;
  return false;
}

static k2s_status finish(k2s_result *r, k2s_status s)
{
  r->status = s;
  return s;
}

k2s_status k2s_translate(const uint32_t *words, size_t n_words, const k2s_options *user_opts,
                         k2s_result **out)
{
  k2s_options defaults;
  if (user_opts)
    defaults = *user_opts;
  else
    k2s_options_init(&defaults);
  const k2s_options *const opts = &defaults;
  k2s_result *r = calloc(1, sizeof(*r));
  *out = r;
  if (!r)
    return K2S_ERROR_TRANSLATION;
  jmp_buf oom;
  r->arena.oom = &oom;
  if (setjmp(oom)) {
    r->arena.oom = NULL;
    r->words = NULL;
    return finish(r, K2S_ERROR_TRANSLATION);
  }

  k2s_parse_error perr;
  k2s_module *m = k2s_parse(words, n_words, &perr);
  if (!m) {
    add_diag(r, K2S_ERROR, NULL, perr.word_offset,
             k2s_sprintf(&r->arena, "invalid input module: %s", perr.message));
    return finish(r, K2S_ERROR_INPUT);
  }
  jmp_buf moom;
  m->arena.oom = &moom;
  k2s_strbuf log = {.arena = &m->arena};
  m->log = &log;
  volatile k2s_status status = K2S_OK;
  if (setjmp(moom)) {
    add_diag(r, K2S_ERROR, m->pass, -1, "out of memory");
    status = K2S_ERROR_TRANSLATION;
    goto done;
  }

  int in_env = k2s_input_spv_env(m->version);
  if (opts->validate_input) {
    int64_t off;
    /* SPIRV-Tools (2023.1) decodes literal strings of a big-endian module
     * from the raw bytes ("OpenCL.std" reads as "nepOs.LC") and rejects it;
     * validate the host-order words instead. */
    const uint32_t *vwords = words;
    if (m->big_endian) {
      uint32_t *sw = k2s_alloc(&m->arena, n_words * sizeof(uint32_t));
      for (size_t i = 0; i < n_words; i++)
        sw[i] = __builtin_bswap32(words[i]);
      vwords = sw;
    }
    char *msg = k2s_validate_words(&m->arena, vwords, n_words, in_env, &off);
    if (msg) {
      if (repairable_input_error(msg)) {
        add_diag(r, K2S_WARNING, NULL, off,
                 k2s_sprintf(&m->arena,
                             "input fails spirv-val in a way k2s repairs (a known producer "
                             "quirk): %s",
                             msg));
      } else {
        add_diag(r, K2S_ERROR, NULL, off,
                 k2s_sprintf(&m->arena,
                             "the input is not a valid OpenCL SPIR-V module: %s (use "
                             "--no-validate-input to try anyway)",
                             msg));
        status = K2S_ERROR_INPUT;
        goto done;
      }
    }
  }

  const k2s_pass_info **list;
  int n = k2s_parse_pass_list(m, opts->passes, &list);
  if (n < 0) {
    status = K2S_ERROR_INPUT;
    goto done;
  }
  /* A misspelt --print-after would otherwise print nothing, silently. */
  if (opts->print_after && strcmp(opts->print_after, "all") != 0 &&
      !k2s_pass_description(opts->print_after)) {
    k2s_error(m, NULL, "unknown pass '%s' in --print-after (see --help for the list)",
              opts->print_after);
    status = K2S_ERROR_INPUT;
    goto done;
  }
  bool full = opts->passes == NULL;
  if (!k2s_run_passes(m, opts, list, n, full ? in_env : in_env)) {
    status = K2S_ERROR_TRANSLATION;
    goto done;
  }
  size_t nw;
  uint32_t *w = k2s_write(m, &nw);
  if (opts->validate_output) {
    /* The full pipeline must give a module for the target; a sub-pipeline
     * (research, debugging) is checked against the input's environment. */
    int env = full ? k2s_target_spv_env(opts->target_env) : in_env;
    int64_t off;
    uint32_t *native = m->big_endian ? k2s_write_native(m, &nw) : w;
    char *msg = k2s_validate_words_layout(&m->arena, native, nw, env,
                                          full && opts->scalar_block_layout, &off);
    if (msg) {
      k2s_error(m, NULL,
                "internal error: the translated module fails validation for %s: %s "
                "(nothing was written; please report this with the input module)",
                full ? (opts->target_env == K2S_ENV_VULKAN_1_3   ? "vulkan1.3"
                        : opts->target_env == K2S_ENV_VULKAN_1_2 ? "vulkan1.2"
                                                                 : "vulkan1.1")
                     : "the input's environment",
                msg);
      status = K2S_ERROR_TRANSLATION;
      goto done;
    }
  }
  r->words = k2s_alloc(&r->arena, nw * sizeof(uint32_t) + 1);
  memcpy(r->words, w, nw * sizeof(uint32_t));
  r->n_words = nw;
  if (m->reflection_json)
    r->reflection_json = k2s_strdup(&r->arena, m->reflection_json);
  if (m->descriptor_map)
    r->descriptor_map = k2s_strdup(&r->arena, m->descriptor_map);

done:
  take_module_diags(r, m);
  if (log.len)
    r->log = k2s_strdup(&r->arena, log.data);
  k2s_module_free(m);
  r->arena.oom = NULL;
  return finish(r, status);
}

k2s_status k2s_result_status(const k2s_result *r) { return r->status; }

const uint32_t *k2s_result_words(const k2s_result *r, size_t *n_words)
{
  *n_words = r->status == K2S_OK ? r->n_words : 0;
  return r->status == K2S_OK ? r->words : NULL;
}

const char *k2s_result_reflection_json(const k2s_result *r) { return r->reflection_json; }
const char *k2s_result_descriptor_map(const k2s_result *r) { return r->descriptor_map; }
const char *k2s_result_log(const k2s_result *r) { return r->log; }
size_t k2s_result_diagnostic_count(const k2s_result *r) { return r->n_diags; }

const k2s_diagnostic *k2s_result_diagnostic(const k2s_result *r, size_t i)
{
  return i < r->n_diags ? &r->diags[i] : NULL;
}

void k2s_result_free(k2s_result *r)
{
  if (!r)
    return;
  k2s_arena_free(&r->arena);
  free(r);
}
