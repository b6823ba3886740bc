/*
 * libFuzzer target: bytes → k2s_translate() → checks.
 *
 * Each input runs twice: the default pipeline, and --passes=none (parse →
 * write). An input whose length is not a multiple of 4 uses its ragged tail
 * (1 to 3 bytes, not part of the module) to pick the options of the first
 * run, so the fuzzer explores the option space too:
 *   byte 0: target env, POD placement, POD clustering, constant args in UBOs,
 *           distinct descriptor sets, --validate-after-each;
 *   byte 1: --pointers (auto/logical/physical), --math=native,
 *           -cl-fast-relaxed-math, -cl-denorms-are-zero, --scalar-block-layout,
 *           --denorm-preserve, --no-validate-input;
 *   byte 2: the device features the target lacks (--no-int8 ... --no-float-controls).
 * A module of an odd number of words also runs with --loop-guard (no tail byte
 * is left for it; the word count's parity varies freely under mutation).
 * tools/fuzz_seed_options.py writes each seed module under several such tails.
 * The properties checked, beyond "no crash, no sanitizer report":
 *   - a result always comes back, with a status that matches its words;
 *   - a failure carries at least one error diagnostic with a message, and no words;
 *   - a success gives a module that spirv-val accepts (checked again here,
 *     independently of the library's own output validation);
 *   - --passes=none (without validation) that succeeds gives back the input byte
 *     for byte.
 * A violated property calls abort(), which libFuzzer reports as a crash.
 *
 * Built by tools/build-fuzzer.sh (clang-15, -fsanitize=fuzzer,address,undefined);
 * replay_main.c turns it into a plain program that runs saved inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2s_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
  fprintf(stderr, "fuzz_translate: property violated: %s\n", what);
  abort();
}

static void check_result(const uint32_t *in, size_t n_in, k2s_status s, k2s_result *r,
                         bool identity, int env, bool scalar_block_layout)
{
  if (!r)
    fail("k2s_translate returned no result object");
  if (k2s_result_status(r) != s)
    fail("k2s_result_status differs from the returned status");
  size_t n_out = 0;
  const uint32_t *out = k2s_result_words(r, &n_out);
  bool has_error = false;
  for (size_t i = 0; i < k2s_result_diagnostic_count(r); i++) {
    const k2s_diagnostic *d = k2s_result_diagnostic(r, i);
    if (!d || !d->message || !d->message[0])
      fail("a diagnostic without a message");
    if (d->severity == K2S_ERROR)
      has_error = true;
  }
  if (s != K2S_OK) {
    if (out || n_out)
      fail("a failed translation returned words");
    if (!has_error)
      fail("a failed translation has no error diagnostic");
    return;
  }
  if (has_error)
    fail("a successful translation carries an error diagnostic");
  if (!out || n_out < 5)
    fail("a successful translation returned no module");
  if (identity) {
    if (n_out != n_in || memcmp(out, in, n_in * 4) != 0)
      fail("--passes=none did not give back the input byte for byte");
    return;
  }
  /* spirv-val wants host byte order; a big-endian input gives big-endian output. */
  uint32_t *native = malloc(n_out * 4);
  if (!native)
    return;
  bool swap = out[0] != 0x07230203u;
  for (size_t i = 0; i < n_out; i++)
    native[i] = swap ? __builtin_bswap32(out[i]) : out[i];
  if (native[0] != 0x07230203u)
    fail("the output does not start with the SPIR-V magic number");
  if (env < 0)
    env = k2s_input_spv_env_words(native, n_out);
  /* Under --scalar-block-layout the output's blocks (UBOs included) are laid
   * out by VK_EXT_scalar_block_layout's rules, which the device then has. */
  k2s_arena a = {0};
  char *msg = k2s_validate_words_layout(&a, native, n_out, env, scalar_block_layout, NULL);
  if (msg) {
    fprintf(stderr, "spirv-val: %s\n", msg);
    fail("a successful translation gave a module spirv-val rejects");
  }
  k2s_arena_free(&a);
  free(native);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  size_t n = size / 4;
  /* Copy into aligned words; a ragged tail is dropped (the CLI rejects it first). */
  uint32_t *words = malloc(n ? n * 4 : 4);
  if (!words)
    return 0;
  memcpy(words, data, n * 4);

  k2s_options o;
  k2s_options_init(&o);
  size_t tail = size % 4;
  if (tail >= 1) {
    uint8_t t = data[n * 4];
    o.target_env = (k2s_target_env)(t % 3);
    o.pod_mode = (k2s_pod_mode)((t >> 2) % 3);
    o.cluster_pod_args = !(t & 0x10);
    o.constant_args_ubo = t & 0x20;
    o.distinct_kernel_sets = t & 0x40;
    o.validate_after_each = t & 0x80;
  }
  if (tail >= 2) {
    uint8_t t = data[n * 4 + 1];
    o.pointers = (k2s_pointer_mode)(t % 3);
    o.math = (t & 0x04) ? K2S_MATH_NATIVE : K2S_MATH_PRECISE;
    o.fast_relaxed_math = t & 0x08;
    o.denorms_are_zero = t & 0x10;
    o.scalar_block_layout = t & 0x20;
    o.denorm_preserve = t & 0x40;
    o.validate_input = !(t & 0x80);
  }
  if (tail >= 3)
    o.missing_features = data[n * 4 + 2];
  o.loop_guard = n & 1;
  /* Bounded runs: a slow input is a finding of its own (libFuzzer -timeout),
   * but a huge allocation must end in the budget's clear error. */
  o.max_memory_mb = 2048;
  k2s_result *r = NULL;
  k2s_status s = k2s_translate(words, n, &o, &r);
  check_result(words, n, s, r, false, k2s_target_spv_env(o.target_env), o.scalar_block_layout);
  k2s_result_free(r);

  /* parse → write must give the input back byte for byte, whether or not the
   * module is valid: the identity is the property, so this run skips
   * validation (the first run validated the same words; validating them twice
   * more here, plus the recheck, made half of each input's cost). */
  o.passes = "none";
  o.validate_input = false;
  o.validate_output = false;
  r = NULL;
  s = k2s_translate(words, n, &o, &r);
  check_result(words, n, s, r, true, -1, false);
  k2s_result_free(r);

  free(words);
  return 0;
}
