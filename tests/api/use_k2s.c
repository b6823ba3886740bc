/* A program built against the installed k2s (pkg-config k2s): translates the
 * module named on the command line, checks the result through the public API
 * only, and writes it. Exit 0 when everything holds. */
#include <k2s/k2s.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: use_k2s IN.spv OUT.spv\n");
    return 2;
  }
  if (strcmp(k2s_version(), K2S_VERSION_STRING) != 0) {
    fprintf(stderr, "header %s, library %s\n", K2S_VERSION_STRING, k2s_version());
    return 1;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return 2;
  static uint32_t words[1 << 20];
  size_t n = fread(words, 4, sizeof(words) / 4, f);
  fclose(f);
  k2s_options o;
  k2s_options_init(&o);
  o.target_env = K2S_ENV_VULKAN_1_2;
  k2s_result *r = NULL;
  if (k2s_translate(words, n, &o, &r) != K2S_OK || k2s_result_status(r) != K2S_OK) {
    for (size_t i = 0; i < k2s_result_diagnostic_count(r); i++)
      fprintf(stderr, "%s\n", k2s_result_diagnostic(r, i)->message);
    return 1;
  }
  size_t nw = 0;
  const uint32_t *out = k2s_result_words(r, &nw);
  const char *json = k2s_result_reflection_json(r);
  if (!out || nw < 5 || out[0] != 0x07230203u || !json || !strstr(json, "\"kernels\"")) {
    fprintf(stderr, "unexpected result\n");
    return 1;
  }
  size_t n_out = nw;
  /* The reflection model, read back from the translated words: vadd(a, b, c), three
   * storage buffers at set 0, bindings 0-2, named. */
  k2s_reflection *refl = NULL;
  if (k2s_reflection_read(out, nw, &refl) != K2S_OK || refl->error || refl->n_kernels != 1 ||
      strcmp(refl->kernels[0].name, "vadd") != 0 || refl->kernels[0].n_args != 3) {
    fprintf(stderr, "reflection: %s\n", refl && refl->error ? refl->error : "unexpected model");
    return 1;
  }
  for (uint32_t a = 0; a < 3; a++) {
    const k2s_reflection_arg *g = k2s_reflection_find_arg(&refl->kernels[0], a);
    if (!g || g->kind != K2S_ARG_KIND_STORAGE_BUFFER || g->set != 0 || g->binding != a ||
        !g->name || g->name[0] != "abc"[a]) {
      fprintf(stderr, "reflection: argument %u is not what vadd declares\n", a);
      return 1;
    }
  }
  if (!refl->has_workgroup_size_spec || k2s_reflection_find_arg(&refl->kernels[0], 3)) {
    fprintf(stderr, "reflection: spec constants or argument count wrong\n");
    return 1;
  }
  k2s_reflection_free(refl);
  /* A module cut short: an error naming the word, and an empty model. */
  if (k2s_reflection_read(out, nw - 1, &refl) != K2S_ERROR_INPUT || !refl->error ||
      refl->n_kernels != 0 || !strstr(refl->error, "word")) {
    fprintf(stderr, "reflection: a truncated module was not refused\n");
    return 1;
  }
  k2s_reflection_free(refl);
  /* The module facts a host checks: vadd's one GLCompute entry point uses its three
   * storage buffers, and the stripped words drop the reflection. */
  k2s_module_info *info = NULL;
  if (k2s_module_info_read(out, nw, &info) != K2S_OK || info->n_entries != 1 ||
      info->n_resources < 3 || !info->has_reflection ||
      !k2s_module_info_has_capability(info, 1 /* Shader */) ||
      !k2s_module_entry_may_use(&info->entries[0], info->resources[0].variable)) {
    fprintf(stderr, "module info: %s\n", info && info->error ? info->error : "unexpected facts");
    return 1;
  }
  uint32_t *driver = NULL;
  size_t n_driver = 0;
  if (k2s_module_words_for_driver(info, true, &driver, &n_driver) != K2S_OK || !driver ||
      n_driver >= nw) {
    fprintf(stderr, "module info: the non-semantic instructions were not stripped\n");
    return 1;
  }
  free(driver);
  k2s_module_info_free(info);
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, 4, nw, f) != nw || fclose(f) != 0)
    return 1;
  /* A bad module: a diagnostic, no words. */
  uint32_t junk[8] = {0xdeadbeef};
  k2s_result *bad = NULL;
  if (k2s_translate(junk, 8, &o, &bad) != K2S_ERROR_INPUT || k2s_result_diagnostic_count(bad) == 0 ||
      k2s_result_words(bad, &nw) != NULL) {
    fprintf(stderr, "a bad module was not refused\n");
    return 1;
  }
  k2s_result_free(bad);
  k2s_result_free(r);
  printf("k2s %s from C: %zu words\n", k2s_version(), n_out);
  return 0;
}
