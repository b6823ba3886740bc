/* The bridge to SPIRV-Tools: validation and whole-module disassembly, in this
 * process (libk2s, k2s-validator) or, in the k2s command, through k2s-validator. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <spirv-tools/libspirv.h>

#include "k2s_internal.h"

/* The helper's file name, beside the k2s command (passes/meson.build builds it). */
#define K2S_VALIDATOR_NAME "k2s-validator"

/* One SPIRV-Tools call, validation or disassembly, as plain data: the same in this
 * process (the library, the validator helper) and through the helper (the k2s
 * command, which links no SPIRV-Tools: its start-up would relocate SPIRV-Tools'
 * and libstdc++'s tables and set up libstdc++'s streams in every run, validating
 * or not; bench/RESULTS.md, session 11). */
enum { TOOLS_VALIDATE = 1, TOOLS_DISASSEMBLE = 2 };
enum { TOOLS_OK, TOOLS_FAILED, TOOLS_OUT_OF_MEMORY };

typedef struct tools_result {
  int status;    /* TOOLS_* */
  char *text;    /* the diagnostic (NULL: none) or the disassembly; in the caller's arena */
  int64_t index; /* the diagnostic's instruction ordinal, -1 where it names none */
} tools_result;

static tools_result tools_call(k2s_arena *a, int what, const uint32_t *words, size_t n, int env,
                               bool scalar_block_layout);

/* SPIRV-Tools could not get memory: the arena's recovery point (the
 * translation's "out of memory" error), else a message. */
static char *tools_out_of_memory(k2s_arena *a)
{
  if (a->oom)
    longjmp(*a->oom, 1);
  return k2s_strdup(a, "SPIRV-Tools ran out of memory (the system refused an allocation)");
}

/* SPIRV-Tools places a validation error by the instruction's ordinal (the
 * "line" spirv-val prints, counted from 1), not by its word: find the word. */
static int64_t instruction_word(const uint32_t *words, size_t n, uint64_t ordinal)
{
  size_t at = 5;
  for (uint64_t k = 1; at < n; k++) {
    if (k == ordinal)
      return (int64_t)at;
    uint32_t wc = words[at] >> 16;
    if (!wc)
      break;
    at += wc;
  }
  return -1;
}

char *k2s_validate_words(k2s_arena *a, const uint32_t *words, size_t n, int spv_env,
                         int64_t *word_offset)
{
  return k2s_validate_words_layout(a, words, n, spv_env, false, word_offset);
}

/* scalar_block_layout: check buffer layouts by VK_EXT_scalar_block_layout's rules. */
char *k2s_validate_words_layout(k2s_arena *a, const uint32_t *words, size_t n, int spv_env,
                                bool scalar_block_layout, int64_t *word_offset)
{
  tools_result r = tools_call(a, TOOLS_VALIDATE, words, n, spv_env, scalar_block_layout);
  if (word_offset)
    *word_offset = -1;
  if (r.status == TOOLS_OUT_OF_MEMORY)
    return tools_out_of_memory(a);
  if (r.status == TOOLS_OK)
    return NULL;
  if (!r.text)
    return k2s_strdup(a, "SPIRV-Tools rejected the module without a message");
  /* The validator's text usually ends in a newline-separated instruction dump. */
  char *msg = r.text;
  size_t len = strlen(msg);
  while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
    msg[--len] = 0;
  if (word_offset && r.index >= 0)
    *word_offset = instruction_word(words, n, (uint64_t)r.index);
  return msg;
}

char *k2s_disassemble(k2s_arena *a, const uint32_t *words, size_t n)
{
  tools_result r = tools_call(a, TOOLS_DISASSEMBLE, words, n, SPV_ENV_UNIVERSAL_1_6, false);
  if (r.status == TOOLS_OUT_OF_MEMORY)
    return tools_out_of_memory(a);
  return r.status == TOOLS_OK ? r.text : NULL;
}

/* The helper's protocol, over a socket pair, in host byte order (one machine):
 * request {what, env, scalar_block_layout, n} then n words; answer {status,
 * index, text length + 1 (0: no text)} then the text. */
typedef struct tools_request {
  uint32_t what, env, scalar_block_layout;
  uint64_t n;
} tools_request;
typedef struct tools_answer {
  int32_t status;
  int64_t index;
  uint64_t text_size;
} tools_answer;

/* Both ends of the protocol, over a socket: all size bytes read into p, or sent
 * from it (send(): a peer that is gone is an error here, not SIGPIPE). */
static bool transfer(int fd, void *p, size_t size, bool sending)
{
  char *c = p;
  while (size) {
    ssize_t k = sending ? send(fd, c, size, MSG_NOSIGNAL) : read(fd, c, size);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return false;
    c += k;
    size -= (size_t)k;
  }
  return true;
}

static bool read_all(int fd, void *p, size_t size)
{
  return transfer(fd, p, size, false);
}

static bool write_all(int fd, const void *p, size_t size)
{
  return transfer(fd, (void *)p, size, true);
}

#ifdef K2S_VALIDATE_BY_HELPER
/* ---- the k2s command: SPIRV-Tools in the helper process ------------------ */
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>

#include "cli.h"

extern char **environ;

/* One helper per thread (batch translations run in threads), started at the
 * first validation and ending when the command does (its socket closes). */
static _Thread_local struct {
  pid_t pid; /* 0: not started */
  int fd;
} helper;

/* The helper cannot run: nothing was or will be validated, so the command stops
 * (a module is never written unvalidated when validation was asked for). */
static _Noreturn void helper_failed(const char *what, const char *detail)
{
  /* Batch threads fail together when the helper is missing: one says so and
   * exits, the others wait here for the exit (exit() is not for two threads). */
  static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&once);
  fprintf(stderr,
          "k2s: error: cannot validate: %s%s%s (the validator, %s, is installed beside the "
          "k2s command; --no-validate-input --no-validate-output translate without it)\n",
          what, detail ? ": " : "", detail ? detail : "", K2S_VALIDATOR_NAME);
  exit(1);
}

static _Noreturn void helper_died(void)
{
  int st = 0;
  char why[64] = "it closed the connection";
  if (waitpid(helper.pid, &st, 0) == helper.pid) {
    if (WIFSIGNALED(st))
      snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(st));
    else if (WIFEXITED(st))
      snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(st));
  }
  helper_failed("internal error: the validator stopped", why);
}

void k2s_validator_start(void)
{
  if (helper.pid)
    return;
  /* Beside the running command (build/passes, or the installed bindir). */
  char path[4096];
  ssize_t len = readlink("/proc/self/exe", path, sizeof path - sizeof K2S_VALIDATOR_NAME - 1);
  if (len <= 0)
    helper_failed("cannot find the k2s command's directory (/proc/self/exe)", strerror(errno));
  path[len] = 0;
  char *slash = strrchr(path, '/');
  strcpy(slash ? slash + 1 : path, K2S_VALIDATOR_NAME);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    helper_failed("socketpair", strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0); /* dup2 clears close-on-exec */
  /* Not the command's standard output (a pipe's reader waits for every writer);
   * its standard error stays, for what a crashing helper prints. */
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  char *argv[] = {path, NULL};
  pid_t pid;
  int err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (err) {
    close(sv[0]);
    helper_failed(path, strerror(err));
  }
  helper.pid = pid;
  helper.fd = sv[0];
}

static void send_all(const void *p, size_t size)
{
  if (!write_all(helper.fd, p, size))
    helper_died();
}

static void recv_all(void *p, size_t size)
{
  if (!read_all(helper.fd, p, size))
    helper_died();
}

static tools_result tools_call(k2s_arena *a, int what, const uint32_t *words, size_t n, int env,
                               bool scalar_block_layout)
{
  k2s_validator_start();
  tools_request q = {(uint32_t)what, (uint32_t)env, scalar_block_layout, n};
  send_all(&q, sizeof q);
  send_all(words, n * sizeof(uint32_t));
  tools_answer ans;
  recv_all(&ans, sizeof ans);
  tools_result r = {ans.status, NULL, ans.index};
  if (ans.text_size) {
    r.text = k2s_alloc_uninit(a, ans.text_size);
    recv_all(r.text, ans.text_size);
    r.text[ans.text_size - 1] = 0;
  }
  return r;
}

#else
/* ---- SPIRV-Tools in this process: the library and the validator helper ---- */

#ifdef K2S_HAVE_CPP_GUARD
/* src/spirv_tools_guard.cc: the same calls, with C++ exceptions caught. */
spv_result_t k2s_spv_validate(spv_const_context ctx, spv_const_validator_options opts,
                              spv_const_binary bin, spv_diagnostic *diag);
spv_result_t k2s_spv_to_text(spv_const_context ctx, const uint32_t *words, size_t n,
                             uint32_t options, spv_text *text, spv_diagnostic *diag);
#else
/* Built without a C++ compiler: SPIRV-Tools' bad_alloc still aborts. */
#define k2s_spv_validate spvValidateWithOptions
#define k2s_spv_to_text spvBinaryToText
#endif

static tools_result tools_call(k2s_arena *a, int what, const uint32_t *words, size_t n, int env,
                               bool scalar_block_layout)
{
  tools_result out = {TOOLS_OK, NULL, -1};
  spv_context ctx = spvContextCreate((spv_target_env)env);
  spv_diagnostic diag = NULL;
  spv_result_t r;
  if (what == TOOLS_VALIDATE) {
    spv_const_binary_t bin = {words, n};
    spv_validator_options opts = spvValidatorOptionsCreate();
    spvValidatorOptionsSetScalarBlockLayout(opts, scalar_block_layout);
    r = k2s_spv_validate(ctx, opts, &bin, &diag);
    spvValidatorOptionsDestroy(opts);
    if (r != SPV_SUCCESS && r != SPV_ERROR_OUT_OF_MEMORY && diag && diag->error) {
      out.text = k2s_strdup(a, diag->error);
      if (!diag->isTextSource)
        out.index = (int64_t)diag->position.index;
    }
  } else {
    spv_text text = NULL;
    r = k2s_spv_to_text(ctx, words, n,
                        SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT,
                        &text, &diag);
    if (r == SPV_SUCCESS)
      out.text = k2s_strdup(a, text->str);
    spvTextDestroy(text);
  }
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  out.status = r == SPV_SUCCESS ? TOOLS_OK
               : r == SPV_ERROR_OUT_OF_MEMORY ? TOOLS_OUT_OF_MEMORY
                                              : TOOLS_FAILED;
  return out;
}

/* The validator helper's loop (src/validator_main.c): answer the k2s command's
 * requests on fd until it closes the connection. */
int k2s_validator_serve(int fd)
{
  tools_request q;
  while (read_all(fd, &q, sizeof q)) {
    k2s_arena arena = {0};
    jmp_buf oom;
    arena.oom = &oom;
    volatile bool have_words = false;
    tools_result r;
    if (setjmp(oom) == 0) {
      if (q.n > SIZE_MAX / sizeof(uint32_t))
        longjmp(oom, 1);
      uint32_t *words = k2s_alloc_uninit(&arena, q.n * sizeof(uint32_t));
      if (!read_all(fd, words, q.n * sizeof(uint32_t)))
        return 1;
      have_words = true;
      r = tools_call(&arena, (int)q.what, words, q.n, (int)q.env, q.scalar_block_layout != 0);
    } else {
      r = (tools_result){TOOLS_OUT_OF_MEMORY, NULL, -1};
      /* The words did not fit: read past them. */
      uint32_t sink[1024];
      for (uint64_t left = have_words ? 0 : q.n; left;) {
        size_t k = left < 1024 ? (size_t)left : 1024;
        if (!read_all(fd, sink, k * sizeof(uint32_t)))
          return 1;
        left -= k;
      }
    }
    tools_answer ans = {r.status, r.index, r.text ? strlen(r.text) + 1 : 0};
    bool ok = write_all(fd, &ans, sizeof ans) && (!r.text || write_all(fd, r.text, ans.text_size));
    k2s_arena_free(&arena);
    if (!ok)
      return 1;
  }
  return 0;
}
#endif

/* libspirv.h defines objects in the header, so only this file may include it. */
int k2s_input_spv_env(uint32_t version)
{
  switch ((version >> 8) & 0xff) {
  case 0:
  case 1:
  case 2: return SPV_ENV_OPENCL_2_2;
  case 3: return SPV_ENV_UNIVERSAL_1_3;
  case 4: return SPV_ENV_UNIVERSAL_1_4;
  case 5: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

/* The core (universal) environment of the module's SPIR-V version: SPIR-V's own
 * rules without an OpenCL profile's capability list (see translate.c). */
int k2s_input_core_env(uint32_t version);
int k2s_input_core_env(uint32_t version)
{
  switch ((version >> 8) & 0xff) {
  case 0: return SPV_ENV_UNIVERSAL_1_0;
  case 1: return SPV_ENV_UNIVERSAL_1_1;
  case 2: return SPV_ENV_UNIVERSAL_1_2;
  case 3: return SPV_ENV_UNIVERSAL_1_3;
  case 4: return SPV_ENV_UNIVERSAL_1_4;
  case 5: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

/* The environment to validate an input module in. Workaround: spirv-val's OpenCL
 * environments reject the Int64Atomics capability, which cl_khr_int64_base_atomics
 * allows in OpenCL (llvm-spirv 15 declares it for atom_* on long); such a module
 * is checked in the universal environment of its version instead, which still
 * checks every instruction, only not the OpenCL capability list. */
static int input_env(uint32_t version, bool int64_atomics)
{
  if (int64_atomics && ((version >> 8) & 0xff) <= 2)
    return k2s_input_core_env(version);
  return k2s_input_spv_env(version);
}

int k2s_input_spv_env_of(const k2s_module *m)
{
  return input_env(m->version, k2s_has_capability(m, SpvCapabilityInt64Atomics));
}

/* The same for a module in words (host byte order), e.g. a translator's output. */
int k2s_input_spv_env_words(const uint32_t *w, size_t n)
{
  if (n < 5)
    return k2s_input_spv_env(0);
  bool int64_atomics = false;
  for (size_t i = 5; i < n;) {
    uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
    if (op != SpvOpCapability || len < 2 || i + len > n)
      break;
    int64_atomics |= w[i + 1] == SpvCapabilityInt64Atomics;
    i += len;
  }
  return input_env(w[1], int64_atomics);
}

int k2s_target_spv_env(k2s_target_env e)
{
  switch (e) {
  case K2S_ENV_VULKAN_1_2: return SPV_ENV_VULKAN_1_2;
  case K2S_ENV_VULKAN_1_3: return SPV_ENV_VULKAN_1_3;
  default: return SPV_ENV_VULKAN_1_1;
  }
}


#ifndef K2S_VALIDATE_BY_HELPER
/* The library's API (k2s-run, programs linking libk2s): SPIRV-Tools in process. */
static int validate_env(k2s_target_env env, unsigned flags)
{
  if (env == K2S_ENV_VULKAN_1_1 && (flags & K2S_VALIDATE_SPIRV_1_4))
    return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
  return k2s_target_spv_env(env);
}

k2s_status k2s_validate(const uint32_t *words, size_t n_words, k2s_target_env env,
                        unsigned flags, char **message)
{
  *message = NULL;
  k2s_arena arena = {0};
  jmp_buf oom;
  arena.oom = &oom;
  if (setjmp(oom) != 0) {
    k2s_arena_free(&arena);
    *message = strdup("out of memory while validating");
    return K2S_ERROR_INPUT;
  }
  char *msg = k2s_validate_words_layout(&arena, words, n_words, validate_env(env, flags),
                                        (flags & K2S_VALIDATE_SCALAR_BLOCK_LAYOUT) != 0, NULL);
  arena.oom = NULL;
  if (msg) {
    const char *what = spvTargetEnvDescription((spv_target_env)validate_env(env, flags));
    size_t len = strlen(msg) + strlen(what) + 32;
    *message = malloc(len);
    if (*message)
      snprintf(*message, len, "not valid for %s: %s", what, msg);
  }
  k2s_arena_free(&arena);
  return msg ? K2S_ERROR_INPUT : K2S_OK;
}
#endif
