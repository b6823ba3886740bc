/* The public reflection model (k2s_reflection_read): every fact of a module laid out
 * as clspv lays it out (reflection before the functions, any order), the operand
 * checks with their messages, and mutated modules that must never crash the reader. */
#include <pthread.h>

#include "unit.h"

static const char clspv_style[] =
    "OpCapability Shader\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%refl = OpExtInstImport \"NonSemantic.ClspvReflection.5\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"foo\"\n"
    "%s_foo = OpString \"foo\"\n"
    "%s_attr = OpString \"reqd_work_group_size(4,1,1)\"\n"
    "%s_a = OpString \"a\"\n"
    "%s_t = OpString \"float*\"\n"
    "%s_n = OpString \"n\"\n"
    "%s_data = OpString \"0a0b0c0d\"\n"
    "%s_fmt = OpString \"%d %f\"\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%f1 = OpConstant %float 1\n"
    "%u0 = OpConstant %uint 0\n"
    "%u1 = OpConstant %uint 1\n"
    "%u2 = OpConstant %uint 2\n"
    "%u3 = OpConstant %uint 3\n"
    "%u4 = OpConstant %uint 4\n"
    "%u8 = OpConstant %uint 8\n"
    "%u12 = OpConstant %uint 12\n"
    "%u16 = OpConstant %uint 16\n"
    "%u64 = OpConstant %uint 64\n"
    "%uglobal = OpConstant %uint 4507\n"
    "%unone = OpConstant %uint 4515\n"
    /* An ArgumentInfo before its Kernel, the Kernel after its arguments: any order. */
    "%info_a = OpExtInst %void %refl ArgumentInfo %s_a %s_t %uglobal %unone %u1\n"
    "%arg_a = OpExtInst %void %refl ArgumentStorageBuffer %decl %u0 %u0 %u0 %info_a\n"
    "%decl = OpExtInst %void %refl Kernel %main %s_foo %u2 %u1 %s_attr\n"
    "%info_n = OpExtInst %void %refl ArgumentInfo %s_n\n"
    "%arg_n = OpExtInst %void %refl ArgumentPodPushConstant %decl %u1 %u16 %u4 %info_n\n"
    "%reqd = OpExtInst %void %refl PropertyRequiredWorkgroupSize %decl %u4 %u1 %u1\n"
    "%pc = OpExtInst %void %refl PushConstantRegionOffset %u0 %u12\n"
    "%wg = OpExtInst %void %refl SpecConstantWorkgroupSize %u0 %u1 %u2\n"
    "%cd = OpExtInst %void %refl ConstantDataStorageBuffer %u1 %u0 %s_data\n"
    "%ls = OpExtInst %void %refl LiteralSampler %u2 %u0 %u16\n"
    "%pb = OpExtInst %void %refl PrintfBufferStorageBuffer %u3 %u0 %u64\n"
    "%pi = OpExtInst %void %refl PrintfInfo %u0 %s_fmt %u4 %u8\n"
    "%future = OpExtInst %void %refl 200 %u0\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static k2s_reflection *read_text(const char *text, k2s_status expect)
{
  size_t n;
  uint32_t *w = unit_assemble(text, SPV_ENV_UNIVERSAL_1_3, &n);
  k2s_reflection *r = NULL;
  k2s_status s = k2s_reflection_read(w, n, &r);
  free(w);
  REQUIRE(r);
  CHECK_EQ(s, expect);
  if (s != expect && r->error)
    fprintf(stderr, "  reflection error: %s\n", r->error);
  return r;
}

static void reads_every_fact(void)
{
  k2s_reflection *r = read_text(clspv_style, K2S_OK);
  CHECK(r->error == NULL);
  REQUIRE(r->n_kernels == 1);
  const k2s_reflection_kernel *k = &r->kernels[0];
  CHECK(strcmp(k->name, "foo") == 0);
  CHECK(k->has_num_arguments && k->num_arguments == 2);
  CHECK_EQ(k->flags, 1);
  CHECK(k->attributes && strcmp(k->attributes, "reqd_work_group_size(4,1,1)") == 0);
  CHECK(k->has_required_work_group_size && k->required_work_group_size[0] == 4);
  REQUIRE(k->n_args == 2);
  const k2s_reflection_arg *a = k2s_reflection_find_arg(k, 0), *n = k2s_reflection_find_arg(k, 1);
  REQUIRE(a && n);
  CHECK_EQ(a->kind, K2S_ARG_KIND_STORAGE_BUFFER);
  CHECK(strcmp(a->name, "a") == 0 && a->has_info && strcmp(a->type_name, "float*") == 0);
  CHECK_EQ(a->address_qualifier, 0x119B);
  CHECK_EQ(a->access_qualifier, 0x11A3);
  CHECK_EQ(a->type_qualifier, 1);
  CHECK_EQ(n->kind, K2S_ARG_KIND_POD_PUSH_CONSTANT);
  CHECK(strcmp(n->name, "n") == 0 && !n->has_info);
  CHECK(n->offset == 16 && n->size == 4);
  CHECK(r->push_constants[K2S_PUSH_REGION_OFFSET].present);
  CHECK_EQ(r->push_constants[K2S_PUSH_REGION_OFFSET].size, 12);
  CHECK(!r->push_constants[K2S_PUSH_GLOBAL_OFFSET].present);
  CHECK(r->has_workgroup_size_spec && r->workgroup_size_spec[2] == 2);
  REQUIRE(r->n_data == 2);
  CHECK_EQ(r->data[0].kind, K2S_DATA_CONSTANT_STORAGE_BUFFER);
  CHECK(r->data[0].set == 1 && r->data[0].n_bytes == 4 && r->data[0].bytes[3] == 0x0d);
  CHECK_EQ(r->data[1].kind, K2S_DATA_PRINTF_STORAGE_BUFFER);
  CHECK_EQ(r->data[1].buffer_size, 64);
  REQUIRE(r->n_literal_samplers == 1);
  CHECK_EQ(r->literal_samplers[0].mask, 16);
  REQUIRE(r->n_printfs == 1);
  CHECK(strcmp(r->printfs[0].format, "%d %f") == 0 && r->printfs[0].n_arg_sizes == 2);
  CHECK_EQ(r->printfs[0].arg_sizes[1], 8);
  CHECK_EQ(r->n_unknown, 1);
  k2s_reflection_free(r);
}

/* The same module with one line replaced. */
static char *with(const char *from, const char *to)
{
  const char *at = strstr(clspv_style, from);
  REQUIRE(at);
  char *t = malloc(sizeof(clspv_style) + strlen(to));
  size_t head = (size_t)(at - clspv_style);
  memcpy(t, clspv_style, head);
  strcpy(t + head, to);
  strcat(t, at + strlen(from));
  return t;
}

static void refuses_what_breaks_the_contract(void)
{
  static const struct {
    const char *from, *to, *message;
  } cases[] = {
      {"Kernel %main %s_foo", "Kernel %u0 %s_foo", "Kernel (%"},
      {"Kernel %main %s_foo", "Kernel %main %u0", "Name (%"},
      {"ArgumentStorageBuffer %decl %u0 %u0 %u0", "ArgumentStorageBuffer %decl %u0 %f1 %u0",
       "DescriptorSet (%"},
      {"ArgumentStorageBuffer %decl", "ArgumentStorageBuffer %reqd", "is not a Kernel"},
      {"ArgumentInfo %s_a %s_t", "ArgumentInfo %s_a %uglobal", "Type Name"},
      {"%u1 %u16 %u4 %info_n", "%u0 %u16 %u4 %info_n", "describes argument 0 twice"},
      {"%u1 %u16 %u4 %info_n", "%u3 %u16 %u4 %info_n", "argument 3 of kernel 'foo', which has 2"},
      {"%s_data = OpString \"0a0b0c0d\"", "%s_data = OpString \"0a0b0c0\"", "even number"},
      {"%arg_n = OpExtInst %void %refl ArgumentPodPushConstant %decl %u1 %u16 %u4 %info_n",
       "%arg_n = OpExtInst %void %refl ArgumentPodPushConstant %decl %u1 %u16 %u4 %arg_a",
       "is not an ArgumentInfo"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    char *text = with(cases[c].from, cases[c].to);
    k2s_reflection *r = read_text(text, K2S_ERROR_INPUT);
    REQUIRE(r->error);
    CHECK_STR_CONTAINS(r->error, cases[c].message);
    CHECK_STR_CONTAINS(r->error, " at word ");
    CHECK(r->n_kernels == 0 && r->kernels == NULL);
    k2s_reflection_free(r);
    free(text);
  }
}

/* A translated module read back, then mutated word by word: every read either
 * succeeds or says why; none crashes (the ASan/UBSan build checks memory). */
static void survives_mutations(void)
{
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  k2s_options o;
  k2s_options_init(&o);
  k2s_result *res = NULL;
  REQUIRE(k2s_translate(w, n, &o, &res) == K2S_OK);
  size_t nw;
  const uint32_t *out = k2s_result_words(res, &nw);
  k2s_reflection *r = NULL;
  REQUIRE(k2s_reflection_read(out, nw, &r) == K2S_OK);
  CHECK(r->n_kernels == 1);
  k2s_reflection_free(r);
  uint32_t *m = malloc(nw * 4);
  uint64_t state = 12345;
  int ok = 0, refused = 0;
  static const uint32_t values[] = {0, 1, 2, 3, 12, 0xffffffffu, 0x10000u, 0x7fffffffu};
  for (int iter = 0; iter < 4000; iter++) {
    memcpy(m, out, nw * 4);
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    size_t at = 5 + (size_t)((state >> 33) % (nw - 5));
    uint32_t v = values[(state >> 20) % 8];
    m[at] = (state >> 28) & 1 ? v : m[at] ^ (1u << ((state >> 40) % 32));
    k2s_status s = k2s_reflection_read(m, nw, &r);
    REQUIRE(r);
    if (s == K2S_OK)
      ok++;
    else {
      CHECK(r->error != NULL);
      refused++;
    }
    k2s_reflection_free(r);
  }
  CHECK(ok > 0 && refused > 0);
  free(m);
  free(w);
  k2s_result_free(res);
}

/* The JSON and descriptor map are made when first asked for (src/reflection_text.c,
 * from the module the result keeps): the same text whichever is asked first, one
 * string per result however many threads ask at once, none for a failed translation. */
typedef struct text_ask {
  const k2s_result *r;
  bool json;
  const char *got;
} text_ask;

static void *ask_text(void *ud)
{
  text_ask *a = ud;
  a->got = a->json ? k2s_result_reflection_json(a->r) : k2s_result_descriptor_map(a->r);
  return NULL;
}

static void text_on_request(void)
{
  size_t n;
  uint32_t *w = unit_assemble(unit_kernel_text, SPV_ENV_UNIVERSAL_1_0, &n);
  k2s_options o;
  k2s_options_init(&o);
  k2s_result *first = NULL, *second = NULL;
  REQUIRE(k2s_translate(w, n, &o, &first) == K2S_OK);
  REQUIRE(k2s_translate(w, n, &o, &second) == K2S_OK);
  /* first: the map, then the JSON, each from four threads at once */
  for (int json = 0; json < 2; json++) {
    pthread_t t[4];
    text_ask ask[4];
    for (int k = 0; k < 4; k++) {
      ask[k] = (text_ask){first, json, NULL};
      REQUIRE(pthread_create(&t[k], NULL, ask_text, &ask[k]) == 0);
    }
    for (int k = 0; k < 4; k++)
      pthread_join(t[k], NULL);
    for (int k = 0; k < 4; k++)
      CHECK(ask[k].got && ask[k].got == ask[0].got);
  }
  /* second: the JSON first; the same text as first's, asked again the same string */
  const char *json = k2s_result_reflection_json(second), *csv = k2s_result_descriptor_map(second);
  REQUIRE(json && csv);
  CHECK(strcmp(json, k2s_result_reflection_json(first)) == 0);
  CHECK(strcmp(csv, k2s_result_descriptor_map(first)) == 0);
  CHECK(k2s_result_reflection_json(second) == json && k2s_result_descriptor_map(second) == csv);
  CHECK(strstr(json, "\"kernels\": [") && strstr(json, "\"push_constant_size\""));
  CHECK(strstr(csv, "kernel_decl,") != NULL);
  k2s_result_free(first);
  k2s_result_free(second);
  /* A translation that fails has neither. */
  k2s_result *bad = NULL;
  CHECK(k2s_translate(w, 3, &o, &bad) != K2S_OK);
  REQUIRE(bad);
  CHECK(!k2s_result_reflection_json(bad) && !k2s_result_descriptor_map(bad));
  k2s_result_free(bad);
  free(w);
}

UNIT_MAIN(T(reads_every_fact), T(refuses_what_breaks_the_contract), T(survives_mutations), T(text_on_request))
