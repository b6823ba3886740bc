/* Bridges to SPIRV-Tools: validation and whole-module disassembly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "k2s_internal.h"

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
  spv_context ctx = spvContextCreate((spv_target_env)spv_env);
  spv_const_binary_t bin = {words, n};
  spv_diagnostic diag = NULL;
  spv_validator_options opts = spvValidatorOptionsCreate();
  spvValidatorOptionsSetScalarBlockLayout(opts, scalar_block_layout);
  spv_result_t r = k2s_spv_validate(ctx, opts, &bin, &diag);
  char *msg = NULL;
  if (word_offset)
    *word_offset = -1;
  if (r == SPV_ERROR_OUT_OF_MEMORY) {
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(opts);
    spvContextDestroy(ctx);
    return tools_out_of_memory(a);
  }
  if (r != SPV_SUCCESS) {
    if (diag && diag->error) {
      msg = k2s_strdup(a, diag->error);
      /* The validator's text usually ends in a newline-separated instruction dump. */
      size_t len = strlen(msg);
      while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        msg[--len] = 0;
      if (word_offset && !diag->isTextSource)
        *word_offset = instruction_word(words, n, diag->position.index);
    } else {
      msg = k2s_strdup(a, "SPIRV-Tools rejected the module without a message");
    }
  }
  spvDiagnosticDestroy(diag);
  spvValidatorOptionsDestroy(opts);
  spvContextDestroy(ctx);
  return msg;
}

char *k2s_disassemble(k2s_arena *a, const uint32_t *words, size_t n)
{
  spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_text text = NULL;
  spv_diagnostic diag = NULL;
  char *out = NULL;
  spv_result_t r = k2s_spv_to_text(ctx, words, n,
                                   SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                                       SPV_BINARY_TO_TEXT_OPTION_INDENT,
                                   &text, &diag);
  if (r == SPV_SUCCESS)
    out = k2s_strdup(a, text->str);
  spvTextDestroy(text);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return r == SPV_ERROR_OUT_OF_MEMORY ? tools_out_of_memory(a) : out;
}

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
