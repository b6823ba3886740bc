/* k2s_translate(): parse, validate the input, run the pipeline, validate
 * the output for the target, and hand back words, reflection and
 * diagnostics. Nothing is returned as output unless every step succeeded. */
#include <pthread.h>
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
  /* The translated module, kept when the reflection pass ran: its JSON and descriptor
   * map are made from it when first asked for (src/reflection_text.c), under text_lock
   * (a result may be read by several threads), so a run that writes neither formats
   * neither. Freed with the result. */
  k2s_module *module;
  pthread_mutex_t text_lock;
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
  o->printf_buffer_size = 1048576;
  o->max_seconds = 3600;
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

/* src/repair.c: the input repairs (only this file calls them). */
bool k2s_repair_input(k2s_module *m);
uint32_t k2s_repair_drop_merges(k2s_module *m);
uint32_t k2s_repair_strip_debug_info(k2s_module *m);      /* src/repair_compat.c */
bool k2s_repair_debug_info(k2s_module *m);                /* src/repair_compat.c */
uint32_t k2s_strip_debug_set(k2s_module *m, uint8_t set); /* src/repair_compat.c */

static uint32_t written_size(const k2s_instr *i)
{
  const k2s_opcode_info *info = k2s_opcode(i->opcode);
  if (info)
    return 1 + info->has_type + info->has_result + i->n_ops;
  return 1 + (i->type ? 1 : 0) + (i->result ? 1 : 0) + i->n_ops;
}

/* Advance *at over instruction i; true when word offset off lies in it. */
static bool covers(const k2s_instr *i, uint64_t *at, uint64_t off)
{
  if (off < *at + written_size(i))
    return true;
  *at += written_size(i);
  return false;
}

static const k2s_instr *in_list_at(const k2s_list *l, uint64_t *at, uint64_t off)
{
  k2s_foreach_instr(i, l)
    if (covers(i, at, off))
      return i;
  return NULL;
}

/* The instruction k2s_write() puts at word offset off (the writer's order). */
static const k2s_instr *instr_at_word(const k2s_module *m, int64_t off)
{
  uint64_t at = 5, o = (uint64_t)off;
  const k2s_instr *i;
  if (off < 5)
    return NULL;
  for (int s = 0; s < K2S_SEC_COUNT; s++)
    if ((i = in_list_at(&m->sec[s], &at, o)))
      return i;
  k2s_foreach_function(f, m) {
    if (covers(f->def, &at, o))
      return f->def;
    if ((i = in_list_at(&f->head, &at, o)))
      return i;
    k2s_foreach_block(b, f) {
      if (covers(b->label, &at, o))
        return b->label;
      if ((i = in_list_at(&b->body, &at, o)))
        return i;
    }
    if (f->end && covers(f->end, &at, o))
      return f->end;
  }
  return in_list_at(&m->tail, &at, o);
}

int k2s_input_core_env(uint32_t version); /* src/validate.c */

/* Validate the input for its OpenCL environment. SPIRV-Tools' OpenCL profiles
 * list only the capabilities every device has, so a module written for a
 * device with an extension (Float16 for cl_khr_fp16, which llvm-spirv 15
 * declares for half arithmetic) fails there on its OpCapability alone: such a
 * module is checked against SPIR-V's core rules for its version instead (what
 * k2s cannot translate is refused later, naming the feature). */
static char *validate_opencl(k2s_module *m, const uint32_t *w, size_t n, int env, int64_t *off)
{
  char *msg = k2s_validate_words(&m->arena, w, n, env, off);
  if (msg && strncmp(msg, "Capability ", 11) == 0 && strstr(msg, " is not allowed by OpenCL"))
    msg = k2s_validate_words(&m->arena, w, n, k2s_input_core_env(m->version), off);
  return msg;
}

/* Whether the validator's complaint is about an OpenCL.DebugInfo.100 instruction. */
static bool is_debug_info_at(k2s_module *m, int64_t off, const char *msg)
{
  const k2s_instr *at = off >= 0 ? instr_at_word(m, off) : NULL;
  if (at && at->opcode == SpvOpExtInst && at->n_ops >= 1 && at->ops[0] < m->id_cap &&
      m->ext_set[at->ops[0]] == K2S_EXT_OPENCL_DEBUGINFO_100)
    return true;
  return strstr(msg, "OpenCL.DebugInfo.100") != NULL;
}

static bool has_debug_info_import(const k2s_module *m)
{
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT])
    if (i->result < m->id_cap && m->ext_set[i->result] == K2S_EXT_OPENCL_DEBUGINFO_100)
      return true;
  return false;
}

/* The debug-info repair (src/repair_compat.c) keeps what spirv-val accepts as
 * far as it can tell; where the validator still rejects a debug instruction
 * (seen only once other faults are repaired), all debug information goes: a
 * module is never refused for it. Returns the validator's new verdict. */
static char *retry_without_debug_info(k2s_module *m, char *msg, int env, int64_t *off)
{
  if (!msg || !has_debug_info_import(m) || !is_debug_info_at(m, *off, msg))
    return msg;
  uint32_t n = k2s_repair_strip_debug_info(m);
  char *nl = strchr(msg, '\n');
  if (nl)
    *nl = 0;
  k2s_diag(m, K2S_WARNING, NULL,
           "repaired input: the OpenCL.DebugInfo.100 debug information is invalid (llvm-spirv "
           "15 -g output; spirv-val: %s); all %u debug instructions were dropped (OpLine and "
           "names kept)",
           msg, n);
  size_t nw;
  uint32_t *w = k2s_write_native(m, &nw);
  return validate_opencl(m, w, nw, env, off);
}

static bool has_merges(const k2s_module *m)
{
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f) {
      k2s_instr *mi = k2s_block_merge(b);
      if (mi)
        return true;
    }
  return false;
}

/* Validate the input after the repairs: the module's own words when nothing
 * was repaired (byte for byte what the user gave), else the repaired module,
 * whose word offsets are mapped back to the input's. Merge hints are dropped
 * (and the module validated again) only when spirv-val rejects a module that
 * has them: they are hints, structurize recomputes them, and llvm-spirv 15
 * gets them wrong ("is already a merge block for another header", bogus
 * OpLoopMerge from #pragma unroll). Returns the validator's message or NULL. */
static char *validate_input(k2s_module *m, const uint32_t *words, size_t n_words, bool repaired,
                            bool may_drop_merges, int env, int64_t *off)
{
  size_t nw = n_words;
  const uint32_t *vwords = words;
  if (repaired) {
    vwords = k2s_write_native(m, &nw);
  } else if (m->big_endian) {
    /* SPIRV-Tools (2023.1) decodes literal strings of a big-endian module
     * from the raw bytes ("OpenCL.std" reads as "nepOs.LC") and rejects it;
     * validate the host-order words instead. */
    uint32_t *sw = k2s_alloc(&m->arena, n_words * sizeof(uint32_t));
    for (size_t i = 0; i < n_words; i++)
      sw[i] = __builtin_bswap32(words[i]);
    vwords = sw;
  }
  char *msg = validate_opencl(m, vwords, nw, env, off);
  if (!may_drop_merges && msg && has_debug_info_import(m) && is_debug_info_at(m, *off, msg) &&
      k2s_check_structure(m, false)) {
    /* --passes=none repairs nothing else, but llvm-spirv 15's -g output breaks
     * spirv-val's debug-info rules in every module with a struct (a member names
     * its composite before the composite is defined): the debug-info repair runs
     * here as in the full pipeline, or no -g module would be accepted. It changes
     * debug instructions only; a module the validator accepts stays byte for byte. */
    k2s_repair_debug_info(m);
    repaired = true;
    vwords = k2s_write_native(m, &nw);
    msg = validate_opencl(m, vwords, nw, env, off);
  }
  if (has_debug_info_import(m)) {
    msg = retry_without_debug_info(m, msg, env, off);
    repaired |= !has_debug_info_import(m);
  }
  if (msg && may_drop_merges && has_merges(m)) {
    const k2s_instr *at = repaired ? instr_at_word(m, *off) : NULL;
    int64_t first_off = *off;
    if (repaired)
      first_off = at && at->offset != K2S_NEW_OFFSET ? (int64_t)at->offset : -1;
    char *first = msg;
    uint32_t n = k2s_repair_drop_merges(m);
    vwords = k2s_write_native(m, &nw);
    repaired = true;
    msg = retry_without_debug_info(m, validate_opencl(m, vwords, nw, env, off), env, off);
    if (!msg) {
      /* The validator's message is a line, then the instruction it names. */
      char *nl = strchr(first, '\n');
      const char *where = nl ? nl + 1 : "";
      while (*where == ' ')
        where++;
      if (nl)
        *nl = 0;
      k2s_diag(m, K2S_WARNING, NULL,
               "repaired input: spirv-val rejects the producer's merge hints (%s%s); all %u "
               "OpSelectionMerge/OpLoopMerge were dropped (structurize recomputes them)%s%s",
               first,
               first_off >= 0 ? k2s_sprintf(&m->arena, ", word %lld", (long long)first_off) : "", n,
               *where ? "\n  at: " : "", where);
      return NULL;
    }
  }
  if (msg && repaired && *off >= 0) {
    const k2s_instr *at = instr_at_word(m, *off);
    *off = at && at->offset != K2S_NEW_OFFSET ? (int64_t)at->offset : -1;
    if (!at || at->offset == K2S_NEW_OFFSET)
      msg = k2s_sprintf(&m->arena, "%s (in the module as repaired)", msg);
  }
  return msg;
}

/* What the module is, when it is not something k2s translates: a Vulkan
 * (Shader) module, possibly k2s's own output, or a Kernel module with no
 * kernels (a library of exported functions). Both would otherwise fail deep
 * in a pass. Returns the message, or NULL for a Kernel module with kernels. */
static const char *not_translatable(k2s_module *m)
{
  bool kernel_cap = false, shader_cap = false;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_CAPABILITY]) {
    if (i->n_ops < 1)
      continue;
    kernel_cap |= i->ops[0] == SpvCapabilityKernel;
    shader_cap |= i->ops[0] == SpvCapabilityShader;
  }
  unsigned kernels = 0, others = 0;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_ENTRY_POINT]) {
    if (i->opcode != SpvOpEntryPoint || i->n_ops < 1)
      continue;
    if (i->ops[0] == SpvExecutionModelKernel)
      kernels++;
    else
      others++;
  }
  if (!kernel_cap && (shader_cap || others))
    return k2s_sprintf(&m->arena,
                       "this is a Vulkan (Shader) module%s, not OpenCL Kernel SPIR-V: it "
                       "needs no translation (run it as it is, e.g. with k2s-run)",
                       others ? " with shader entry points" : "");
  if (kernel_cap && kernels == 0)
    return k2s_sprintf(&m->arena,
                       "the module has no kernels (no OpEntryPoint Kernel%s): there is "
                       "nothing to run on Vulkan; a library of functions must be linked "
                       "into a module with a kernel first (e.g. spirv-link, or llvm-link "
                       "before llvm-spirv)",
                       others ? "; its other entry points are not OpenCL kernels" : "");
  return NULL;
}

static k2s_status finish(k2s_result *r, k2s_status s)
{
  r->status = s;
  return s;
}

/* A diagnostic that needs no allocation, for when the arena itself failed. */
static k2s_diagnostic out_of_memory_diag = {K2S_ERROR, NULL, -1,
                                            "out of memory (the system refused an allocation)"};

static k2s_status translate(const uint32_t *words, size_t n_words, const k2s_options *user_opts,
                            k2s_result **out, k2s_budget *budget);

k2s_status k2s_translate(const uint32_t *words, size_t n_words, const k2s_options *user_opts,
                         k2s_result **out)
{
  k2s_options o;
  if (user_opts)
    o = *user_opts;
  else
    k2s_options_init(&o);
  k2s_budget budget;
  k2s_budget_begin(&budget, &o, NULL);
  k2s_status s = translate(words, n_words, &o, out, &budget);
  k2s_budget_end(&budget);
  return s;
}

static k2s_status translate(const uint32_t *words, size_t n_words, const k2s_options *user_opts,
                            k2s_result **out, k2s_budget *budget)
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
  pthread_mutex_init(&r->text_lock, NULL);
  jmp_buf oom;
  r->arena.oom = &oom;
  if (setjmp(oom)) {
    r->arena.oom = NULL;
    r->words = NULL;
    if (budget->exceeded) {
      /* The budget let go of its limit: this allocation succeeds unless
       * the system is really out of memory. */
      jmp_buf again;
      r->arena.oom = &again;
      k2s_budget_set_escape(&again);
      if (!setjmp(again))
        add_diag(r, K2S_ERROR, NULL, -1, k2s_budget_message(&r->arena, budget));
      r->arena.oom = NULL;
      k2s_budget_set_escape(NULL);
    }
    if (!r->n_diags) {
      r->diags = &out_of_memory_diag;
      r->n_diags = 1;
    }
    return finish(r, K2S_ERROR_TRANSLATION);
  }
  k2s_budget_set_escape(&oom);

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
  k2s_budget_set_escape(&moom);
  if (setjmp(moom)) {
    k2s_budget_set_escape(&oom);
    add_diag(r, K2S_ERROR, m->pass, -1,
             budget->exceeded ? k2s_budget_message(&r->arena, budget)
                              : "out of memory (the system refused an allocation)");
    status = K2S_ERROR_TRANSLATION;
    goto done;
  }

  const char *what = opts->passes ? NULL : not_translatable(m);
  if (what) {
    add_diag(r, K2S_ERROR, NULL, -1, what);
    k2s_module_free(m);
    return finish(r, K2S_ERROR_INPUT);
  }
  int in_env = k2s_input_spv_env_of(m);
  const k2s_pass_info **list;
  int n = k2s_parse_pass_list(m, opts->passes, &list);
  if (n < 0) {
    status = K2S_ERROR_INPUT;
    goto done;
  }
  /* Repair the producer's known mistakes first (src/repair.c), so that the
   * validator checks everything else. An empty pipeline (--passes=none) is
   * the identity: nothing is repaired, the input is validated as it is. */
  if (n > 0 && !k2s_check_structure(m, !opts->validate_input)) {
    status = K2S_ERROR_INPUT;
    goto done;
  }
  if (n == 0 && (opts->validate_input || opts->validate_output) &&
      !k2s_check_validator_hazards(m)) {
    status = K2S_ERROR_INPUT;
    goto done;
  }
  bool repaired = n > 0 && k2s_repair_input(m);
  if (m->failed) { /* a producer quirk that cannot be repaired (src/repair_llvm_spirv.c) */
    status = K2S_ERROR_INPUT;
    goto done;
  }
  if (opts->validate_input) {
    int64_t off;
    char *msg = validate_input(m, words, n_words, repaired, n > 0, in_env, &off);
    if (msg) {
      /* The repair warnings first: they say what the validator saw. */
      take_module_diags(r, m);
      m->n_diags = 0;
      add_diag(r, K2S_ERROR, NULL, off,
               k2s_sprintf(&m->arena,
                           "the input is not a valid OpenCL SPIR-V module: %s (use "
                           "--no-validate-input to try anyway)",
                           msg));
      status = K2S_ERROR_INPUT;
      goto done;
    }
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
    if (msg && strstr(msg, "NonSemantic.Shader.DebugInfo.100")) {
      /* The input's debug information, translated, breaks a rule the repair
       * did not know: the module is still written, without it. */
      char *nl = strchr(msg, '\n');
      if (nl)
        *nl = 0;
      uint32_t n = k2s_strip_debug_set(m, K2S_EXT_SHADER_DEBUGINFO_100);
      k2s_warn(m, NULL,
               "the translated debug information is invalid (spirv-val: %s); its %u "
               "NonSemantic.Shader.DebugInfo.100 instructions were dropped (OpLine kept)",
               msg, n);
      w = k2s_write(m, &nw);
      native = m->big_endian ? k2s_write_native(m, &nw) : w;
      msg = k2s_validate_words_layout(&m->arena, native, nw, env, full && opts->scalar_block_layout,
                                      &off);
    }
    int64_t in_off = -1;
    char *in_msg = msg && !opts->validate_input
                       ? validate_input(m, words, n_words, false, false, in_env, &in_off)
                       : NULL;
    if (in_msg) {
      /* --no-validate-input let an invalid module through, and the passes
       * carried its fault into the output: the input's fault, not k2s's. */
      add_diag(r, K2S_ERROR, NULL, in_off,
               k2s_sprintf(&m->arena,
                           "the input is not a valid OpenCL SPIR-V module: %s\n  (not "
                           "validated under --no-validate-input; the translation inherited "
                           "the fault and failed validation; nothing was written)",
                           in_msg));
      status = K2S_ERROR_INPUT;
      goto done;
    }
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
  r->words = k2s_alloc_uninit(&r->arena, nw * sizeof(uint32_t) + 1); /* all copied */
  memcpy(r->words, w, nw * sizeof(uint32_t));
  r->n_words = nw;

done:
  take_module_diags(r, m);
  if (log.len)
    r->log = k2s_strdup(&r->arena, log.data);
  if (status == K2S_OK && m->refl && m->refl->text_ready) {
    m->log = NULL; /* both pointed into this frame */
    m->arena.oom = m->uses_arena.oom = NULL;
    r->module = m;
  } else
    k2s_module_free(m);
  r->arena.oom = NULL;
  return finish(r, status);
}

k2s_status k2s_result_status(const k2s_result *r)
{
  return r->status;
}

const uint32_t *k2s_result_words(const k2s_result *r, size_t *n_words)
{
  *n_words = r->status == K2S_OK ? r->n_words : 0;
  return r->status == K2S_OK ? r->words : NULL;
}

/* The JSON (json) or descriptor map of r's module, made on the first request; NULL
 * when the reflection pass did not run, or when memory ran out making it (asking again
 * tries again). A result is logically const: the text is a cache of what its module says. */
static const char *reflection_text(const k2s_result *cr, bool json)
{
  k2s_result *r = (k2s_result *)cr;
  pthread_mutex_lock(&r->text_lock);
  char **text = json ? &r->reflection_json : &r->descriptor_map;
  if (!*text && r->module) {
    jmp_buf oom;
    r->module->arena.oom = &oom;
    if (!setjmp(oom))
      *text = json ? k2s_reflection_json(r->module) : k2s_reflection_csv(r->module);
    r->module->arena.oom = NULL;
  }
  const char *made = *text;
  pthread_mutex_unlock(&r->text_lock);
  return made;
}

const char *k2s_result_reflection_json(const k2s_result *r)
{
  return reflection_text(r, true);
}
const char *k2s_result_descriptor_map(const k2s_result *r)
{
  return reflection_text(r, false);
}
const char *k2s_result_log(const k2s_result *r)
{
  return r->log;
}
size_t k2s_result_diagnostic_count(const k2s_result *r)
{
  return r->n_diags;
}

const k2s_diagnostic *k2s_result_diagnostic(const k2s_result *r, size_t i)
{
  return i < r->n_diags ? &r->diags[i] : NULL;
}

void k2s_result_free(k2s_result *r)
{
  if (!r)
    return;
  k2s_module_free(r->module);
  pthread_mutex_destroy(&r->text_lock);
  k2s_arena_free(&r->arena);
  free(r);
}

const char *k2s_version(void)
{
  return K2S_VERSION_STRING;
}
