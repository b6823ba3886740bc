/*
 * A tiny unit-test harness for the engine's internal API: CHECK macros that
 * count failures without stopping, a runner, and helpers that assemble
 * spvasm text with SPIRV-Tools so tests read like the modules they test.
 */
#ifndef K2S_UNIT_H
#define K2S_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libspirv.h defines an object (kDefaultMaxIdBound) in the header; src/validate.c
 * already holds one, so rename ours to keep the link clean. */
#define kDefaultMaxIdBound unit_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "k2s_internal.h"

static int unit_failures, unit_checks;

#define CHECK(cond)                                                                            \
  do {                                                                                         \
    unit_checks++;                                                                             \
    if (!(cond)) {                                                                             \
      unit_failures++;                                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                 \
    }                                                                                          \
  } while (0)

#define CHECK_EQ(a, b)                                                                         \
  do {                                                                                         \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                           \
    unit_checks++;                                                                             \
    if (a_ != b_) {                                                                            \
      unit_failures++;                                                                         \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%" PRIu64 " vs %" PRIu64 ")\n",       \
              __FILE__, __LINE__, #a, #b, a_, b_);                                             \
    }                                                                                          \
  } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                        \
  do {                                                                                         \
    const char *h_ = (hay);                                                                    \
    unit_checks++;                                                                             \
    if (!h_ || !strstr(h_, (needle))) {                                                        \
      unit_failures++;                                                                         \
      fprintf(stderr, "%s:%d: expected \"%s\" in \"%s\"\n", __FILE__, __LINE__, (needle),      \
              h_ ? h_ : "(null)");                                                             \
    }                                                                                          \
  } while (0)

/* A fatal precondition: the rest of the test would only crash. */
#define REQUIRE(cond)                                                                          \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);               \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

typedef struct unit_test {
  const char *name;
  void (*fn)(void);
} unit_test;

static int unit_run(const unit_test *tests, size_t n, int argc, char **argv)
{
  for (size_t i = 0; i < n; i++) {
    if (argc > 1 && !strstr(tests[i].name, argv[1]))
      continue;
    int before = unit_failures;
    tests[i].fn();
    printf("%s %s\n", unit_failures == before ? "ok  " : "FAIL", tests[i].name);
  }
  printf("%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures ? 1 : 0;
}

#define UNIT_MAIN(...)                                                                         \
  int main(int argc, char **argv)                                                              \
  {                                                                                            \
    static const unit_test tests[] = {__VA_ARGS__};                                            \
    return unit_run(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);                      \
  }
#define T(fn) {#fn, fn}

/* Assemble spvasm text; the words are malloc'd (free them). */
static inline uint32_t *unit_assemble(const char *text, spv_target_env env, size_t *n_words)
{
  spv_context ctx = spvContextCreate(env);
  spv_binary bin = NULL;
  spv_diagnostic diag = NULL;
  if (spvTextToBinaryWithOptions(ctx, text, strlen(text), SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS, &bin, &diag) != SPV_SUCCESS) {
    fprintf(stderr, "cannot assemble test module: %s\n", diag ? diag->error : "?");
    exit(1);
  }
  uint32_t *w = malloc(bin->wordCount * 4);
  memcpy(w, bin->code, bin->wordCount * 4);
  *n_words = bin->wordCount;
  spvBinaryDestroy(bin);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return w;
}

/* Parse spvasm text into a module; the test fails hard if it does not parse. */
static inline k2s_module *unit_module(const char *text)
{
  size_t n;
  uint32_t *w = unit_assemble(text, SPV_ENV_UNIVERSAL_1_0, &n);
  k2s_parse_error err;
  k2s_module *m = k2s_parse(w, n, &err);
  free(w);
  if (!m) {
    fprintf(stderr, "cannot parse test module: %s\n", err.message);
    exit(1);
  }
  return m;
}

/* Validate the module as it would be written, for env. NULL when valid. */
static inline char *unit_validate(k2s_module *m, spv_target_env env)
{
  size_t n;
  uint32_t *w = k2s_write_native(m, &n);
  return k2s_validate_words(&m->arena, w, n, env, NULL);
}

static inline int unit_count(const k2s_list *l, uint16_t opcode)
{
  int n = 0;
  k2s_foreach_instr(i, l)
    n += i->opcode == opcode;
  return n;
}

/* A small valid OpenCL kernel module, used by several tests. */
static const char unit_kernel_text[] =
    "OpCapability Addresses\n"
    "OpCapability Kernel\n"
    "OpCapability Int64\n"
    "%ext = OpExtInstImport \"OpenCL.std\"\n"
    "OpMemoryModel Physical64 OpenCL\n"
    "OpEntryPoint Kernel %k \"add\"\n"
    "OpName %k \"add\"\n"
    "OpName %p \"buf\"\n"
    "OpDecorate %p FuncParamAttr NoCapture\n"
    "%uint = OpTypeInt 32 0\n"
    "%ulong = OpTypeInt 64 0\n"
    "%void = OpTypeVoid\n"
    "%ptr = OpTypePointer CrossWorkgroup %uint\n"
    "%fn = OpTypeFunction %void %ptr\n"
    "%one = OpConstant %uint 1\n"
    "%k = OpFunction %void None %fn\n"
    "%p = OpFunctionParameter %ptr\n"
    "%entry = OpLabel\n"
    "%v = OpLoad %uint %p Aligned 4\n"
    "%s = OpIAdd %uint %v %one\n"
    "%a = OpExtInst %uint %ext u_abs_diff %s %one\n"
    "OpStore %p %a Aligned 4\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

#endif
