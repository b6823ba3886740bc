/* The public module facts (k2s_module_info_read and its queries), the host's view of a
 * translated module besides the reflection: capabilities, extensions, entry points,
 * descriptor-bound variables, float controls, float atomics, Workgroup memory with
 * specialization constants, stripping non-semantic instructions, byte order, bad input. */
#include "unit.h"

/* Two entry points (SPIR-V 1.3: interfaces list no buffers, so "may use" follows the
 * static call tree), a helper function, buffers, an image, a Workgroup array sized by a
 * spec constant, k2s's scratch, a float atomic on Workgroup memory, a loop and an
 * embedded reflection import. */
static const char module_13[] =
    "OpCapability Shader\n"
    "OpCapability AtomicFloat32AddEXT\n"
    "OpCapability StorageImageWriteWithoutFormat\n"
    "OpExtension \"SPV_EXT_shader_atomic_float_add\"\n"
    "OpExtension \"SPV_KHR_non_semantic_info\"\n"
    "%refl = OpExtInstImport \"NonSemantic.ClspvReflection.5\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %k1 \"first\"\n"
    "OpEntryPoint GLCompute %k2 \"second\"\n"
    "OpExecutionMode %k1 LocalSize 4 2 1\n"
    "OpName %guard \"k2s.loop_guard\"\n"
    "OpName %scratch \"k2s_group_scratch\"\n"
    "OpDecorate %rt ArrayStride 4\n"
    "OpDecorate %blk Block\n"
    "OpMemberDecorate %blk 0 Offset 0\n"
    "OpDecorate %buf DescriptorSet 0\n"
    "OpDecorate %buf Binding 1\n"
    "OpDecorate %guard DescriptorSet 0\n"
    "OpDecorate %guard Binding 2\n"
    "OpDecorate %img DescriptorSet 1\n"
    "OpDecorate %img Binding 0\n"
    "OpDecorate %n SpecId 3\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%true = OpConstantTrue %bool\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%u0 = OpConstant %uint 0\n"
    "%u1 = OpConstant %uint 1\n"
    "%u2 = OpConstant %uint 2\n"
    "%u8 = OpConstant %uint 8\n"
    "%f1 = OpConstant %float 1\n"
    "%n = OpSpecConstant %uint 16\n"
    "%n2 = OpSpecConstantOp %uint IMul %n %u2\n"
    "%rt = OpTypeRuntimeArray %float\n"
    "%blk = OpTypeStruct %rt\n"
    "%pblk = OpTypePointer StorageBuffer %blk\n"
    "%buf = OpVariable %pblk StorageBuffer\n"
    "%guard = OpVariable %pblk StorageBuffer\n"
    "%im = OpTypeImage %uint 2D 0 0 0 2 Rgba32ui\n"
    "%pim = OpTypePointer UniformConstant %im\n"
    "%img = OpVariable %pim UniformConstant\n"
    "%arr = OpTypeArray %float %n2\n"
    "%parr = OpTypePointer Workgroup %arr\n"
    "%local = OpVariable %parr Workgroup\n"
    "%arr8 = OpTypeArray %uint %u8\n"
    "%parr8 = OpTypePointer Workgroup %arr8\n"
    "%scratch = OpVariable %parr8 Workgroup\n"
    "%pwf = OpTypePointer Workgroup %float\n"
    "%psf = OpTypePointer StorageBuffer %float\n"
    "%wgs = OpExtInst %void %refl SpecConstantWorkgroupSize %u0 %u1 %u2\n"
    "%helper = OpFunction %void None %fn\n"
    "%h0 = OpLabel\n"
    "%e = OpAccessChain %pwf %local %u0\n"
    "%old = OpAtomicFAddEXT %float %e %u2 %u0 %f1\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    "%k1 = OpFunction %void None %fn\n"
    "%a0 = OpLabel\n"
    "%call = OpFunctionCall %void %helper\n"
    "%p = OpAccessChain %psf %buf %u0 %u0\n"
    "OpStore %p %f1\n"
    "OpBranch %hdr\n"
    "%hdr = OpLabel\n"
    "OpLoopMerge %done %hdr None\n"
    "OpBranchConditional %true %hdr %done\n"
    "%done = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n"
    "%k2 = OpFunction %void None %fn\n"
    "%b0 = OpLabel\n"
    "%s0 = OpAccessChain %pwf %scratch %u0\n"
    "%q = OpAccessChain %psf %guard %u0 %u0\n"
    "OpStore %q %f1\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint32_t id_named(const k2s_module_info *info, const char *name)
{
  uint32_t id = k2s_module_info_find_name(info, name);
  REQUIRE(id);
  return id;
}

static k2s_module_info *read_text(const char *text, spv_target_env env, uint32_t **words,
                                  size_t *n)
{
  *words = unit_assemble(text, env, n);
  k2s_module_info *info = NULL;
  k2s_status s = k2s_module_info_read(*words, *n, &info);
  REQUIRE(info);
  if (s != K2S_OK)
    fprintf(stderr, "  module info error: %s\n", info->error ? info->error : "?");
  REQUIRE(s == K2S_OK && !info->error);
  return info;
}

static void reads_module_facts(void)
{
  uint32_t *w;
  size_t n;
  k2s_module_info *info = read_text(module_13, SPV_ENV_UNIVERSAL_1_3, &w, &n);

  CHECK_EQ(info->version, 0x00010300);
  REQUIRE(info->n_capabilities == 3);
  CHECK(k2s_module_info_has_capability(info, SpvCapabilityAtomicFloat32AddEXT));
  CHECK(!k2s_module_info_has_capability(info, SpvCapabilityKernel));
  REQUIRE(info->n_extensions == 2);
  CHECK(strcmp(info->extensions[0], "SPV_EXT_shader_atomic_float_add") == 0);
  CHECK(info->uses_nonsemantic && info->has_reflection && !info->foreign_import);
  CHECK(info->has_loops);
  CHECK(!info->workgroup_initializer);
  CHECK_EQ(info->float_atomics, K2S_FLOAT_ATOMIC_BIT(0, 1, 1));

  REQUIRE(info->n_entries == 2);
  const k2s_module_entry *first = &info->entries[0], *second = &info->entries[1];
  CHECK(strcmp(first->name, "first") == 0 && strcmp(second->name, "second") == 0);
  CHECK_EQ(first->execution_model, SpvExecutionModelGLCompute);
  CHECK(first->has_local_size && !first->local_size_is_id);
  CHECK(first->local_size[0] == 4 && first->local_size[1] == 2 && first->local_size[2] == 1);
  CHECK(!second->has_local_size);
  CHECK(k2s_module_info_find_entry(info, first->function) == first);
  CHECK(k2s_module_info_find_entry(info, 12345) == NULL);

  /* Before SPIR-V 1.4, "may use" follows the call tree: first reaches %local through
   * its helper, second only %scratch and the guard buffer. */
  uint32_t guard = id_named(info, "k2s.loop_guard"), scratch = id_named(info, "k2s_group_scratch");
  CHECK(k2s_module_entry_may_use(second, guard));
  CHECK(!k2s_module_entry_may_use(first, guard));
  CHECK(k2s_module_entry_may_use(second, scratch));
  CHECK(!k2s_module_entry_may_use(first, scratch));
  CHECK_EQ(k2s_module_info_find_name(info, "nothing"), 0);

  REQUIRE(info->n_resources == 3);
  const k2s_module_resource *buf = &info->resources[0], *img = &info->resources[2];
  CHECK(buf->set == 0 && buf->binding == 1);
  CHECK_EQ(buf->storage_class, SpvStorageClassStorageBuffer);
  CHECK(buf->array_stride == 4 && !buf->int32_elements && !buf->buffer_block);
  CHECK(k2s_module_entry_may_use(first, buf->variable));
  CHECK(!k2s_module_entry_may_use(second, buf->variable));
  CHECK(info->resources[1].name && strcmp(info->resources[1].name, "k2s.loop_guard") == 0);
  CHECK(img->set == 1 && img->binding == 0);
  CHECK_EQ(img->image_sampled_type, 1);
  CHECK_EQ(img->image_format, SpvImageFormatRgba32ui);

  /* Workgroup memory: 16 floats * 2 by default, the spec constant set to 5 gives 40
   * bytes; second uses only the 32-byte scratch. */
  k2s_workgroup_bytes wb;
  REQUIRE(k2s_module_workgroup_bytes(info, first, NULL, 0, &wb));
  CHECK(wb.total == 128 && wb.scratch == 0 && !wb.unknown);
  k2s_spec_value five = {3, 5};
  REQUIRE(k2s_module_workgroup_bytes(info, first, &five, 1, &wb));
  CHECK_EQ(wb.total, 40);
  REQUIRE(k2s_module_workgroup_bytes(info, second, &five, 1, &wb));
  CHECK(wb.total == 32 && wb.scratch == 32);

  /* For a driver: all of it, or without the reflection import, its OpExtInst and the
   * extension (and still a module the library reads). */
  uint32_t *dw;
  size_t dn;
  REQUIRE(k2s_module_words_for_driver(info, false, &dw, &dn) == K2S_OK && dw);
  CHECK(dn == n && memcmp(dw, w, n * 4) == 0);
  free(dw);
  REQUIRE(k2s_module_words_for_driver(info, true, &dw, &dn) == K2S_OK && dw);
  CHECK(dn < n);
  k2s_module_info *stripped = NULL;
  REQUIRE(k2s_module_info_read(dw, dn, &stripped) == K2S_OK);
  CHECK(!stripped->uses_nonsemantic && !stripped->has_reflection);
  CHECK_EQ(stripped->n_extensions, 1);
  CHECK_EQ(stripped->n_entries, 2);
  k2s_module_info_free(stripped);
  free(dw);

  /* The other byte order reads the same, and the driver gets host order. */
  uint32_t *sw = malloc(n * 4);
  REQUIRE(sw);
  for (size_t i = 0; i < n; i++)
    sw[i] = __builtin_bswap32(w[i]);
  k2s_module_info *swapped = NULL;
  REQUIRE(k2s_module_info_read(sw, n, &swapped) == K2S_OK);
  CHECK_EQ(swapped->n_resources, 3);
  REQUIRE(k2s_module_words_for_driver(swapped, false, &dw, &dn) == K2S_OK && dw);
  CHECK(dn == n && memcmp(dw, w, n * 4) == 0);
  free(dw);
  k2s_module_info_free(swapped);
  free(sw);
  k2s_module_info_free(info);
  free(w);
}

/* From SPIR-V 1.4 the interface lists every global an entry point uses. */
static void interface_from_1_4(void)
{
  static const char text[] =
      "OpCapability Shader\n"
      "%cl = OpExtInstImport \"OpenCL.std\"\n"
      "OpMemoryModel Logical GLSL450\n"
      "OpEntryPoint GLCompute %k \"k\" %used\n"
      "OpExecutionMode %k LocalSizeId %u1 %u1 %u1\n"
      "OpExecutionMode %k DenormPreserve 32\n"
      "%void = OpTypeVoid\n"
      "%fn = OpTypeFunction %void\n"
      "%uint = OpTypeInt 32 0\n"
      "%u1 = OpConstant %uint 1\n"
      "%pw = OpTypePointer Workgroup %uint\n"
      "%used = OpVariable %pw Workgroup %u1\n"
      "%unused = OpVariable %pw Workgroup\n"
      "%k = OpFunction %void None %fn\n"
      "%l = OpLabel\n"
      "OpReturn\n"
      "OpFunctionEnd\n";
  uint32_t *w;
  size_t n;
  k2s_module_info *info = read_text(text, SPV_ENV_UNIVERSAL_1_4, &w, &n);
  REQUIRE(info->n_entries == 1);
  const k2s_module_entry *e = &info->entries[0];
  CHECK(e->has_local_size && e->local_size_is_id);
  CHECK_EQ(e->n_globals, 1);
  CHECK(info->workgroup_initializer);
  CHECK(info->foreign_import && strcmp(info->foreign_import, "OpenCL.std") == 0);
  CHECK(!info->has_loops && !info->uses_nonsemantic);
  REQUIRE(info->n_float_modes == 1);
  CHECK_EQ(info->float_modes[0].mode, SpvExecutionModeDenormPreserve);
  CHECK_EQ(info->float_modes[0].width, 32);
  k2s_workgroup_bytes wb;
  REQUIRE(k2s_module_workgroup_bytes(info, e, NULL, 0, &wb));
  CHECK_EQ(wb.total, 4);
  k2s_module_info_free(info);
  free(w);
}

static void refuses_bad_input(void)
{
  static const uint32_t not_spirv[] = {0x12345678, 0x10000, 0, 10, 0};
  k2s_module_info *info = NULL;
  CHECK_EQ(k2s_module_info_read(not_spirv, 5, &info), K2S_ERROR_INPUT);
  REQUIRE(info);
  CHECK_STR_CONTAINS(info->error, "magic number");
  CHECK(info->n_entries == 0 && info->n_capabilities == 0);
  uint32_t *dw;
  size_t dn;
  CHECK_EQ(k2s_module_words_for_driver(info, true, &dw, &dn), K2S_ERROR_INPUT);
  k2s_module_info_free(info);
  /* A word count running past the end names the word. */
  static const uint32_t truncated[] = {0x07230203, 0x10000, 0, 10, 0, (5u << 16) | 17, 1};
  CHECK_EQ(k2s_module_info_read(truncated, 7, &info), K2S_ERROR_INPUT);
  CHECK_STR_CONTAINS(info->error, "word 5");
  k2s_module_info_free(info);
  CHECK_EQ(k2s_module_info_read(NULL, 0, &info), K2S_ERROR_INPUT);
  k2s_module_info_free(info);
}

UNIT_MAIN(T(reads_module_facts), T(interface_from_1_4), T(refuses_bad_input))
