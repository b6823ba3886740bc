/* Writer: identity round trip (byte for byte), the bound, byte order, and
 * modules changed through the IR that still validate. */
#include "unit.h"

static void write_identity(void)
{
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  w[2] = 0x000e0000u; /* generator */
  w[4] = 0;           /* schema */
  k2s_parse_error err;
  k2s_module *m = k2s_parse(w, n, &err);
  REQUIRE(m);
  size_t n_out;
  uint32_t *out = k2s_write(m, &n_out);
  CHECK_EQ(n_out, n);
  CHECK(n_out == n && memcmp(out, w, n * 4) == 0);
  /* Writing twice gives the same words. */
  uint32_t *again = k2s_write(m, &n_out);
  CHECK(n_out == n && memcmp(again, w, n * 4) == 0);
  CHECK_EQ(k2s_hash_module(m), k2s_hash_module(m));
  k2s_module_free(m);
  free(w);
}

static void write_bound_and_hash(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  uint64_t h0 = k2s_hash_module(m);
  uint32_t old_bound = m->bound;
  uint32_t b = k2s_type_bool(m); /* a new type: a new id, the bound moves */
  CHECK_EQ(b, old_bound);
  size_t n;
  uint32_t *out = k2s_write(m, &n);
  CHECK_EQ(out[3], old_bound + 1);
  CHECK(k2s_hash_module(m) != h0);
  CHECK(unit_validate(m, SPV_ENV_OPENCL_2_2) == NULL);
  k2s_module_free(m);
}

static void write_after_edits(void)
{
  k2s_module *m = unit_module(unit_kernel_text);
  /* Delete the ExtInst's store, store the IAdd instead; rename; drop a decoration. */
  k2s_block *blk = m->first_func->first;
  k2s_instr *add = NULL, *ext = NULL, *store = NULL;
  k2s_foreach_instr(i, &blk->body) {
    if (i->opcode == SpvOpIAdd)
      add = i;
    if (i->opcode == SpvOpExtInst)
      ext = i;
    if (i->opcode == SpvOpStore)
      store = i;
  }
  REQUIRE(add && ext && store);
  store->ops[1] = add->result;
  k2s_instr_delete(m, ext);
  uint32_t p = m->first_func->head.first->result;
  k2s_remove_decorations(m, p);
  size_t n;
  uint32_t *out = k2s_write(m, &n);
  /* Reparse what was written: same structure, no ExtInst. */
  k2s_parse_error err;
  k2s_module *m2 = k2s_parse(out, n, &err);
  REQUIRE(m2);
  CHECK_EQ(unit_count(&m2->first_func->first->body, SpvOpExtInst), 0);
  CHECK_EQ(unit_count(&m2->sec[K2S_SEC_ANNOTATION], SpvOpDecorate), 0);
  CHECK(unit_validate(m2, SPV_ENV_OPENCL_2_2) == NULL);
  k2s_module_free(m2);
  k2s_module_free(m);
}

static void write_big_endian_output(void)
{
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  for (size_t i = 0; i < n; i++)
    w[i] = __builtin_bswap32(w[i]);
  k2s_parse_error err;
  k2s_module *m = k2s_parse(w, n, &err);
  REQUIRE(m);
  k2s_type_bool(m);
  size_t n_out, n_native;
  uint32_t *out = k2s_write(m, &n_out);
  CHECK_EQ(out[0], 0x03022307u); /* the magic, byte-swapped */
  uint32_t *copy = malloc(n_out * 4);
  memcpy(copy, out, n_out * 4);
  uint32_t *native = k2s_write_native(m, &n_native);
  CHECK_EQ(n_out, n_native);
  for (size_t i = 0; i < n_out; i++)
    CHECK_EQ(__builtin_bswap32(copy[i]), native[i]);
  free(copy);
  k2s_module_free(m);
  free(w);
}

static void translate_api_identity(void)
{
  /* The public API: --passes=none gives the input back, warnings and all. */
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  k2s_options o;
  k2s_options_init(&o);
  o.passes = "none";
  k2s_result *r;
  CHECK_EQ(k2s_translate(w, n, &o, &r), K2S_OK);
  size_t n_out;
  const uint32_t *out = k2s_result_words(r, &n_out);
  CHECK(out && n_out == n && memcmp(out, w, n * 4) == 0);
  k2s_result_free(r);
  /* An unknown pass is an input error with a message, and no words. */
  o.passes = "no-such-pass";
  CHECK_EQ(k2s_translate(w, n, &o, &r), K2S_ERROR_INPUT);
  CHECK(k2s_result_words(r, &n_out) == NULL && n_out == 0);
  CHECK(k2s_result_diagnostic_count(r) >= 1);
  CHECK_STR_CONTAINS(k2s_result_diagnostic(r, 0)->message, "unknown pass 'no-such-pass'");
  k2s_result_free(r);
  /* Bad words: an input error from the parser. */
  w[0] = 0;
  CHECK_EQ(k2s_translate(w, n, &o, &r), K2S_ERROR_INPUT);
  CHECK_STR_CONTAINS(k2s_result_diagnostic(r, 0)->message, "invalid input module: not a SPIR-V binary");
  k2s_result_free(r);
  /* NULL options mean the defaults. */
  CHECK(k2s_translate(w, n, NULL, &r) == K2S_ERROR_INPUT);
  k2s_result_free(r);
  free(w);
  /* The pass list is public and described. */
  const char *const *names = k2s_pass_names();
  REQUIRE(names && names[0]);
  for (size_t i = 0; names[i]; i++)
    CHECK(k2s_pass_description(names[i]) != NULL);
  CHECK(k2s_pass_description("no-such-pass") == NULL);
}

UNIT_MAIN(T(write_identity), T(write_bound_and_hash), T(write_after_edits),
          T(write_big_endian_output), T(translate_api_identity))
