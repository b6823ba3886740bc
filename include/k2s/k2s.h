/*
 * k2s — translate OpenCL Kernel-dialect SPIR-V into Vulkan Shader-dialect SPIR-V.
 *
 * Public C API. The library never exits or aborts on bad input: every problem
 * becomes a diagnostic in the result, and k2s_translate() returns a status.
 *
 * Thread safety: k2s_translate() may run in several threads at once (each call
 * owns its module, arena and result; the library keeps no mutable global state
 * besides what it initialises once, safely). A k2s_result must not be freed by
 * one thread while another reads it; reading one result from several threads
 * is fine.
 *
 * Ownership: the caller keeps the input words and the options (k2s copies what
 * it needs before returning). Everything a result hands out (words, strings,
 * diagnostics) belongs to the result and lives until k2s_result_free().
 *
 * ABI: the shared library's SONAME carries the major version (libk2s.so.0);
 * only the functions declared here are exported. k2s_options may grow at its
 * end in a later minor version: always fill it with k2s_options_init() first.
 */
#ifndef K2S_K2S_H
#define K2S_K2S_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define K2S_VERSION_MAJOR 0
#define K2S_VERSION_MINOR 1
#define K2S_VERSION_PATCH 0
#define K2S_VERSION_STRING "0.1.0"

#if defined(K2S_BUILDING_LIBRARY) && defined(__GNUC__)
#define K2S_API __attribute__((visibility("default")))
#else
#define K2S_API
#endif

typedef enum k2s_status {
  K2S_OK = 0,
  K2S_ERROR_TRANSLATION = 1, /* unsupported construct or a pass failed */
  K2S_ERROR_INPUT = 2,       /* unreadable or invalid input module, bad options */
} k2s_status;

typedef enum k2s_target_env {
  K2S_ENV_VULKAN_1_1,
  K2S_ENV_VULKAN_1_2,
  K2S_ENV_VULKAN_1_3,
} k2s_target_env;

typedef enum k2s_pod_mode {
  K2S_POD_SSBO,          /* default: one storage buffer holding all POD arguments */
  K2S_POD_UBO,           /* -pod-ubo */
  K2S_POD_PUSH_CONSTANT, /* -pod-pushconstant */
} k2s_pod_mode;

typedef enum k2s_math_mode {
  K2S_MATH_PRECISE, /* default: OpenCL full-profile ULP bounds and edge cases */
  K2S_MATH_NATIVE,  /* --math=native: GLSL.std.450 and core ops, Vulkan's precision */
} k2s_math_mode;

typedef enum k2s_pointer_mode {
  K2S_POINTERS_AUTO,     /* default: logical when exact, else physical where the target allows */
  K2S_POINTERS_LOGICAL,  /* --pointers=logical */
  K2S_POINTERS_PHYSICAL, /* --pointers=physical (vulkan1.2+, buffer device address) */
} k2s_pointer_mode;

typedef enum k2s_unroll_hints {
  K2S_UNROLL_HINTS_AUTO, /* default: Unroll on innermost loops worth it (passes/loop_hints.c) */
  K2S_UNROLL_HINTS_NONE, /* --unroll-hints=none: loop controls as the producer gave them */
} k2s_unroll_hints;

typedef enum k2s_severity {
  K2S_NOTE,
  K2S_WARNING,
  K2S_ERROR,
} k2s_severity;

/* Device features the target lacks; a module that needs one is rejected
 * with a message naming the kernel, the type and the switch. */
enum k2s_feature {
  K2S_FEATURE_INT8 = 1u << 0,
  K2S_FEATURE_INT16 = 1u << 1,
  K2S_FEATURE_INT64 = 1u << 2,
  K2S_FEATURE_FLOAT16 = 1u << 3,
  K2S_FEATURE_FLOAT64 = 1u << 4,
  K2S_FEATURE_STORAGE8 = 1u << 5,  /* 8-bit storage buffer access */
  K2S_FEATURE_STORAGE16 = 1u << 6, /* 16-bit storage buffer access */
  /* VK_KHR_shader_float_controls with shaderSignedZeroInfNanPreserveFloat16/32/64 */
  K2S_FEATURE_FLOAT_CONTROLS = 1u << 7,
  /* Subgroup vote/arithmetic/ballot/shuffle operations in compute shaders
   * (VkPhysicalDeviceSubgroupProperties::supportedOperations); Vulkan 1.1's
   * basic subgroup builtins are always there. */
  K2S_FEATURE_SUBGROUP_OPS = 1u << 16,
  /* VK_KHR_shader_atomic_int64 (shaderBufferInt64Atomics, shaderSharedInt64Atomics) */
  K2S_FEATURE_INT64_ATOMICS = 1u << 17,
  /* shaderStorageImageReadWithoutFormat: a read_write image the kernel reads then needs
   * a format from k2s_options.image_formats. */
  K2S_FEATURE_STORAGE_IMAGE_READ_WITHOUT_FORMAT = 1u << 18,
};

typedef struct k2s_options {
  k2s_target_env target_env;
  /* Comma-separated sub-pipeline ("none" for none); NULL runs the default pipeline. */
  const char *passes;
  /* Pass name or "all": disassembly after it goes to the diagnostics sink. */
  const char *print_after;
  bool time_passes;
  bool validate_after_each;
  bool validate_input;  /* default true: spvValidate the input for OpenCL */
  bool validate_output; /* default true */
  bool verbose;
  bool no_cleanup; /* --no-cleanup: leave what lowering made redundant (the cleanup and scalar-replace passes) */

  /* Kernel interface (clspv-compatible switches). */
  k2s_pod_mode pod_mode;
  bool cluster_pod_args;     /* default true */
  bool constant_args_ubo;    /* constant pointers → uniform buffers */
  bool distinct_kernel_sets; /* a descriptor set per kernel */
  uint32_t max_push_constant_size; /* default 128 */
  uint32_t missing_features; /* enum k2s_feature bits the device lacks */

  /* Memory and math. */
  k2s_pointer_mode pointers;
  bool scalar_block_layout; /* --scalar-block-layout: the device has scalarBlockLayout */
  k2s_math_mode math;
  bool fast_relaxed_math;   /* -cl-fast-relaxed-math */
  /* --fma=fused: the device's GLSL.std.450 Fma rounds once (what VK_KHR_shader_fma
   * promises; NVIDIA, AMD and Intel GPUs fuse it in practice, lavapipe does not), so
   * float and half fma() become Fma instead of the library's integer fma. The
   * module cannot record this (SPV_KHR_fma is newer than the SPIR-V headers k2s
   * builds with): it is the user's statement about the device. */
  bool fma_fused;
  /* --narrow-buffer-indices: every storage buffer the kernels get is below 4 GiB (the
   * device's maxStorageBufferRange is at most 2^32, as on most Vulkan drivers), so an
   * in-bounds element index into one fits 32 bits and narrow-indices computes the
   * size_t index arithmetic of global accesses in 32 bits too. */
  bool narrow_buffer_indices;
  bool denorms_are_zero;    /* -cl-denorms-are-zero */
  /* --emulate-ftz: every float32 arithmetic instruction flushes subnormal operands and
   * results to zero, as a device running DenormFlushToZero (the H100) does; a testing
   * aid that reproduces such devices on lavapipe (passes/emulate_ftz.c). */
  bool emulate_ftz;
  /* --denorm-preserve: the device has shaderDenormPreserveFloat16/32/64 for the
   * float widths the module uses (DenormPreserve execution modes are emitted). */
  bool denorm_preserve;
  /* --float-atomics=add,min-max: the device has VK_EXT_shader_atomic_float (add) and
   * VK_EXT_shader_atomic_float2 (min/max) for the widths and memories the module uses;
   * otherwise float atomic add/min/max become compare-exchange loops. */
  bool float_atomic_add;
  bool float_atomic_min_max;

  /* Resource budget the library checks (a clear error when exceeded).
   * max_memory_mb: 0 = automatic (3/4 of physical memory or of the process's
   * RLIMIT_AS/RLIMIT_DATA); max_seconds: 0 = none. Default: automatic, 3600 s. */
  uint32_t max_memory_mb;
  uint32_t max_seconds;

  /* -module-constants-in-storage-buffer: every module-scope `constant` variable lives in
   * one storage buffer the host fills (clspv's ConstantDataStorageBuffer) instead of a
   * Private copy per invocation. Default false. */
  bool module_constants_in_storage_buffer;

  /* -printf-buffer-size=N (clspv's spelling): bytes of the printf storage buffer
   * (a multiple of 4, at least 16; default 1048576, clspv's). */
  uint32_t printf_buffer_size;

  /* --loop-guard: every loop reports, through a one-word storage buffer named
   * "k2s.loop_guard", when the driver ends it before its exit condition
   * (lavapipe stops loops after 65,535 iterations; passes/loop_guard.c). */
  bool loop_guard;

  /* --strip-debug: no debug information in the output (by default the
   * input's OpenCL.DebugInfo.100 becomes NonSemantic.Shader.DebugInfo.100). */
  bool strip_debug;

  /* --image-format=KERNEL:ARG=ORDER:TYPE[,...]: the format of a write_only or read_write
   * image argument (ARG its name or ordinal; ORDER r rg rgba, TYPE as k2s-run's image
   * arguments): its storage image gets that format instead of Unknown, so reading it
   * needs no shaderStorageImageReadWithoutFormat. NULL: none. */
  const char *image_formats;

  /* --unroll-hints=auto|none: whether the loop-hints pass marks innermost loops
   * Unroll (a hint a driver may ignore; NVIDIA's Vulkan compiler unrolls only
   * loops so marked). A producer's Unroll/DontUnroll is kept either way. */
  k2s_unroll_hints unroll_hints;
} k2s_options;

typedef struct k2s_diagnostic {
  k2s_severity severity;
  const char *pass;     /* NULL outside a pass (parse, validation) */
  int64_t word_offset;  /* word offset in the input module, -1 if none */
  const char *message;
} k2s_diagnostic;

typedef struct k2s_result k2s_result;

/* Fill *o with the defaults. */
K2S_API void k2s_options_init(k2s_options *o);

/* Translate n_words words of SPIR-V. Always returns a result object (free it
 * with k2s_result_free) unless out of memory, in which case *out is NULL. */
K2S_API k2s_status k2s_translate(const uint32_t *words, size_t n_words, const k2s_options *o,
                         k2s_result **out);

K2S_API k2s_status k2s_result_status(const k2s_result *r);
/* The translated module; NULL unless the status is K2S_OK. */
K2S_API const uint32_t *k2s_result_words(const k2s_result *r, size_t *n_words);
/* Reflection as JSON and as a clspv descriptor map (NULL when not produced). */
K2S_API const char *k2s_result_reflection_json(const k2s_result *r);
K2S_API const char *k2s_result_descriptor_map(const k2s_result *r);
/* Text produced by --print-after and --time-passes, or NULL. */
K2S_API const char *k2s_result_log(const k2s_result *r);
K2S_API size_t k2s_result_diagnostic_count(const k2s_result *r);
K2S_API const k2s_diagnostic *k2s_result_diagnostic(const k2s_result *r, size_t i);
K2S_API void k2s_result_free(k2s_result *r);

/* ---- Reflection: what a host needs to bind and run a translated module ----------------
 *
 * The one reflection model of the project (k2s-run uses it): read from the module's
 * embedded NonSemantic.ClspvReflection instructions (any revision of the grammar), so
 * it describes a module translated earlier, by another process, or by clspv, as well
 * as a fresh k2s_result. docs/runtime-abi.md says what each fact asks of the host.
 *
 * Ownership: a k2s_reflection owns every array and string it points to; all of them
 * live until k2s_reflection_free(). It keeps no pointer into the words it was read
 * from, nor into a k2s_result. Thread safety: reading modules in several threads at
 * once is fine; one k2s_reflection may be read by several threads, and freed by one
 * when none reads it any more. */

typedef enum k2s_reflection_arg_kind {
  K2S_ARG_KIND_STORAGE_BUFFER,        /* ArgumentStorageBuffer: global/constant pointer */
  K2S_ARG_KIND_UNIFORM_BUFFER,        /* ArgumentUniform: constant pointer as a UBO */
  K2S_ARG_KIND_POD_STORAGE_BUFFER,    /* ArgumentPodStorageBuffer (offset, size) */
  K2S_ARG_KIND_POD_UNIFORM,           /* ArgumentPodUniform (offset, size) */
  K2S_ARG_KIND_POD_PUSH_CONSTANT,     /* ArgumentPodPushConstant (offset, size) */
  K2S_ARG_KIND_POINTER_PUSH_CONSTANT, /* ArgumentPointerPushConstant: a 64-bit address */
  K2S_ARG_KIND_POINTER_UNIFORM,       /* ArgumentPointerUniform: a 64-bit address in a UBO */
  K2S_ARG_KIND_WORKGROUP,             /* ArgumentWorkgroup: local pointer (spec_id, elem_size) */
  K2S_ARG_KIND_SAMPLED_IMAGE,         /* ArgumentSampledImage: read_only image */
  K2S_ARG_KIND_STORAGE_IMAGE,         /* ArgumentStorageImage: write_only/read_write image */
  K2S_ARG_KIND_SAMPLER,               /* ArgumentSampler */
  K2S_ARG_KIND_UNIFORM_TEXEL_BUFFER,  /* ArgumentUniformTexelBuffer: read_only image1d_buffer_t */
  K2S_ARG_KIND_STORAGE_TEXEL_BUFFER,  /* ArgumentStorageTexelBuffer */
} k2s_reflection_arg_kind;

typedef struct k2s_reflection_arg {
  uint32_t ordinal;
  k2s_reflection_arg_kind kind;
  uint32_t set, binding;       /* descriptor kinds */
  uint32_t offset, size;       /* PODs and pointers: bytes in their block */
  uint32_t spec_id, elem_size; /* K2S_ARG_KIND_WORKGROUP: array length's SpecId, element bytes */
  const char *name;            /* ArgumentInfo's Name, or NULL */
  /* The rest of ArgumentInfo (clGetKernelArgInfo), when has_info: */
  bool has_info;
  const char *type_name;      /* "int*", "image2d_t", ... */
  uint32_t address_qualifier; /* CL_KERNEL_ARG_ADDRESS_* (0x119B global ... 0x119E private) */
  uint32_t access_qualifier;  /* CL_KERNEL_ARG_ACCESS_* (0x11A0 read_only ... 0x11A3 none) */
  uint32_t type_qualifier; /* CL_KERNEL_ARG_TYPE_* bits (const 1, restrict 2, volatile 4, pipe 8) */
} k2s_reflection_arg;

typedef enum k2s_reflection_image_info_kind {
  K2S_IMAGE_INFO_CHANNEL_ORDER,     /* the image's CL channel order */
  K2S_IMAGE_INFO_CHANNEL_DATA_TYPE, /* the image's CL channel data type */
  K2S_IMAGE_INFO_SAMPLER_MASK,      /* a sampler argument's sampler_t bits; the host binds
                                       that sampler normalized (NormalizedSamplerMask) */
} k2s_reflection_image_info_kind;

typedef struct k2s_reflection_image_info {
  uint32_t ordinal; /* the image (or, for a sampler mask, the sampler) argument */
  k2s_reflection_image_info_kind what;
  uint32_t offset; /* where the host pushes the 32-bit value */
} k2s_reflection_image_info;

typedef struct k2s_reflection_kernel {
  const char *name;
  uint32_t function; /* the entry point's OpFunction id */
  bool has_num_arguments;
  uint32_t num_arguments;
  uint32_t flags;                 /* KernelPropertyFlags (1: may use printf) */
  const char *attributes;         /* CL_KERNEL_ATTRIBUTES spelling, or NULL */
  const k2s_reflection_arg *args; /* in module order; look up by ordinal */
  size_t n_args;
  bool has_required_work_group_size;
  uint32_t required_work_group_size[3];
  const k2s_reflection_image_info *image_info;
  size_t n_image_info;
  /* The first reflection fact of this kernel the model has no field for (clspv's
   * ImageArgumentInfo*Uniform), or NULL: a host should refuse to run the kernel. */
  const char *unsupported;
} k2s_reflection_kernel;

/* Module-wide push constants (each 3 x uint32 unless size says otherwise). */
enum k2s_push_constant_kind {
  K2S_PUSH_GLOBAL_OFFSET,
  K2S_PUSH_ENQUEUED_LOCAL_SIZE,
  K2S_PUSH_GLOBAL_SIZE,
  K2S_PUSH_REGION_OFFSET,
  K2S_PUSH_NUM_WORKGROUPS,
  K2S_PUSH_REGION_GROUP_OFFSET,
  K2S_PUSH_COUNT
};

typedef struct k2s_reflection_range {
  bool present;
  uint32_t offset, size;
} k2s_reflection_range;

typedef enum k2s_data_kind {
  K2S_DATA_CONSTANT_STORAGE_BUFFER,      /* ConstantDataStorageBuffer */
  K2S_DATA_CONSTANT_UNIFORM,             /* ConstantDataUniform */
  K2S_DATA_PROGRAM_SCOPE_STORAGE_BUFFER, /* ProgramScopeVariablesStorageBuffer */
  K2S_DATA_CONSTANT_POINTER_PUSH,        /* ConstantDataPointerPushConstant */
  K2S_DATA_PROGRAM_SCOPE_POINTER_PUSH,   /* ProgramScopeVariablePointerPushConstant */
  K2S_DATA_PRINTF_STORAGE_BUFFER,        /* PrintfBufferStorageBuffer (bytes: none) */
  K2S_DATA_PRINTF_POINTER_PUSH,          /* PrintfBufferPointerPushConstant (bytes: none) */
} k2s_data_kind;

/* A module-scope buffer the host creates, fills with `bytes` and binds (or whose
 * device address it pushes at offset/size). Printf buffers have buffer_size bytes
 * and no initial data. */
typedef struct k2s_reflection_data {
  k2s_data_kind kind;
  uint32_t set, binding; /* storage/uniform kinds */
  uint32_t offset, size; /* pointer kinds: the address's place in the push constants */
  const uint8_t *bytes;
  size_t n_bytes;
  uint32_t buffer_size; /* printf kinds */
} k2s_reflection_data;

typedef struct k2s_reflection_relocation {
  uint32_t object_offset, pointer_offset, pointer_size;
} k2s_reflection_relocation;

typedef struct k2s_reflection_sampler {
  uint32_t set, binding, mask; /* mask: the OpenCL sampler_t bits */
} k2s_reflection_sampler;

typedef struct k2s_reflection_printf {
  uint32_t id;
  const char *format;
  const uint32_t *arg_sizes;
  size_t n_arg_sizes;
} k2s_reflection_printf;

typedef struct k2s_reflection {
  const k2s_reflection_kernel *kernels;
  size_t n_kernels;
  bool has_workgroup_size_spec;
  uint32_t workgroup_size_spec[3]; /* SpecIds of X, Y, Z */
  bool has_global_offset_spec;
  uint32_t global_offset_spec[3];
  bool has_work_dim_spec;
  uint32_t work_dim_spec;
  bool has_subgroup_max_size_spec;
  uint32_t subgroup_max_size_spec;
  k2s_reflection_range push_constants[K2S_PUSH_COUNT];
  const k2s_reflection_data *data;
  size_t n_data;
  const k2s_reflection_relocation *relocations;
  size_t n_relocations;
  const k2s_reflection_sampler *literal_samplers;
  size_t n_literal_samplers;
  const k2s_reflection_printf *printfs;
  size_t n_printfs;
  /* Unknown instructions of a newer grammar revision that were skipped. */
  size_t n_unknown;
  /* NULL, or why the reflection could not be read (with the instruction's word offset);
   * the other fields are then empty. */
  const char *error;
} k2s_reflection;

/* Read the reflection of a translated module (n_words words of SPIR-V, either byte
 * order). Returns K2S_OK, or K2S_ERROR_INPUT with (*out)->error saying what is wrong;
 * *out is NULL only when out of memory. A module without reflection instructions
 * reads as no kernels (K2S_OK). */
K2S_API k2s_status k2s_reflection_read(const uint32_t *words, size_t n_words, k2s_reflection **out);
K2S_API void k2s_reflection_free(k2s_reflection *r);
/* The argument of `kernel` with this ordinal, or NULL. */
K2S_API const k2s_reflection_arg *k2s_reflection_find_arg(const k2s_reflection_kernel *kernel,
                                                          uint32_t ordinal);

/* ---- Module facts: what a host checks before it hands a module to a driver ----------
 *
 * k2s_module_info_read() reads a (translated, Shader) module with the library's one
 * SPIR-V reader and answers what a Vulkan host needs besides the reflection: the
 * capabilities and extensions to enable, the entry points and their work-group sizes, the
 * descriptor-bound variables, the float-controls execution modes, the float atomics by
 * width and memory, and how much Workgroup memory an entry point uses once specialised.
 * Any module the reader accepts can be asked (a Kernel module too: the host refuses it by
 * its Kernel capability).
 *
 * Ownership: a k2s_module_info owns every array and string it points to, and a copy of
 * the module's IR; all live until k2s_module_info_free(). It keeps no pointer into the
 * words it was read from. Thread safety: the queries below only read the info, so one
 * info may be asked by several threads at once, and freed by one when none asks it any
 * more; reading modules in several threads at once is fine. */

typedef struct k2s_module_entry {
  const char *name;
  uint32_t function;        /* the OpFunction id */
  uint32_t execution_model; /* SpvExecutionModel */
  bool has_local_size;      /* a LocalSize or LocalSizeId execution mode */
  bool local_size_is_id;    /* LocalSizeId: local_size holds constant ids, not sizes */
  uint32_t local_size[3];
  /* The module-scope variables the entry point may use, ascending: its interface from
   * SPIR-V 1.4 on (which lists every global it uses); before, every variable of a
   * module with one entry point, else those its static call tree names. */
  const uint32_t *globals;
  size_t n_globals;
} k2s_module_entry;

/* A module-scope variable with a DescriptorSet and a Binding. */
typedef struct k2s_module_resource {
  uint32_t variable;
  uint32_t set, binding;
  uint32_t storage_class; /* SpvStorageClass */
  const char *name;       /* its OpName, or NULL */
  bool buffer_block;      /* Uniform + BufferBlock: an old-style storage buffer */
  /* A Block { T a[] } or { T a[N] }: the ArrayStride of member 0's array; 0 when the
   * variable is not such a block or the stride is not decorated. */
  uint32_t array_stride;
  /* T is a 32-bit integer or a vector of them (k2s declares buffers it views as 32-bit
   * words that way, so the stride need not be the OpenCL element size). */
  bool int32_elements;
  /* An image variable: its Sampled Type, 1 integer, 2 float; 0 for anything else. */
  uint32_t image_sampled_type;
  uint32_t image_format; /* an image variable: its SpvImageFormat (0: Unknown) */
} k2s_module_resource;

/* A float-controls execution mode (DenormPreserve ... RoundingModeRTZ) and its width. */
typedef struct k2s_module_float_mode {
  uint32_t function, mode, width;
} k2s_module_float_mode;

/* Bit of k2s_module_info.float_atomics: min_max 0 for OpAtomicFAddEXT, 1 for
 * OpAtomicF{Min,Max}EXT; width_index 0/1/2 for 16/32/64 bits; workgroup 1 for Workgroup
 * memory, 0 for buffers. */
#define K2S_FLOAT_ATOMIC_BIT(min_max, width_index, workgroup)                              \
  (1u << (6 * (min_max) + 2 * (width_index) + (workgroup)))

typedef struct k2s_module_info {
  uint32_t version; /* 0x00MMmm00 */
  uint32_t bound;
  const uint32_t *capabilities; /* SpvCapability, in module order */
  size_t n_capabilities;
  const char *const *extensions;
  size_t n_extensions;
  const k2s_module_entry *entries;
  size_t n_entries;
  const k2s_module_resource *resources;
  size_t n_resources;
  const k2s_module_float_mode *float_modes;
  size_t n_float_modes;
  uint32_t float_atomics;     /* K2S_FLOAT_ATOMIC_BIT()s of the atomics the code uses */
  bool workgroup_initializer; /* a Workgroup variable with an initializer */
  bool uses_nonsemantic;      /* imports a NonSemantic.* set */
  bool has_reflection;        /* imports NonSemantic.ClspvReflection */
  bool has_loops;             /* an OpLoopMerge */
  /* The first imported set other than GLSL.std.450 and NonSemantic.* (OpenCL.std...),
   * which Vulkan does not accept; NULL when none. */
  const char *foreign_import;
  /* NULL, or why the module could not be read (with a word offset); the other fields
   * are then empty. */
  const char *error;
} k2s_module_info;

/* Read the facts of n_words words of SPIR-V (either byte order). Returns K2S_OK, or
 * K2S_ERROR_INPUT with (*out)->error saying what is wrong; *out is NULL only when out
 * of memory. */
K2S_API k2s_status k2s_module_info_read(const uint32_t *words, size_t n_words,
                                        k2s_module_info **out);
K2S_API void k2s_module_info_free(k2s_module_info *info);
K2S_API bool k2s_module_info_has_capability(const k2s_module_info *info, uint32_t capability);
/* The entry point whose OpFunction is `function`, or NULL. */
K2S_API const k2s_module_entry *k2s_module_info_find_entry(const k2s_module_info *info,
                                                           uint32_t function);
/* Whether `entry` may use module-scope variable `variable` (see k2s_module_entry.globals). */
K2S_API bool k2s_module_entry_may_use(const k2s_module_entry *entry, uint32_t variable);
/* The id an OpName gives `name` (the first such), or 0. */
K2S_API uint32_t k2s_module_info_find_name(const k2s_module_info *info, const char *name);

typedef struct k2s_spec_value {
  uint32_t spec_id, value;
} k2s_spec_value;

typedef struct k2s_workgroup_bytes {
  uint64_t total;
  uint64_t scratch; /* the part in k2s's work-group function scratch (k2s_group_scratch) */
  bool unknown;     /* a variable whose size could not be computed (not counted) */
} k2s_workgroup_bytes;

/* The Workgroup memory `entry` uses with these specialization constants (the others keep
 * their defaults): its Workgroup variables sized naturally (Workgroup memory has no
 * explicit layout): scalars by width, vectors and arrays by count, structs with their
 * members aligned. Returns false only when out of memory. */
K2S_API bool k2s_module_workgroup_bytes(const k2s_module_info *info, const k2s_module_entry *entry,
                                        const k2s_spec_value *specs, size_t n_specs,
                                        k2s_workgroup_bytes *out);

/* The module's words in host byte order, for a driver; with strip_nonsemantic without
 * NonSemantic.* imports, their OpExtInst and SPV_KHR_non_semantic_info (for drivers
 * without VK_KHR_shader_non_semantic_info). *words is malloc'd: release it with free().
 * Returns K2S_ERROR_INPUT when the module cannot be read, NULL words when out of memory. */
K2S_API k2s_status k2s_module_words_for_driver(const k2s_module_info *info, bool strip_nonsemantic,
                                               uint32_t **words, size_t *n_words);

/* Validate n_words words of SPIR-V (host byte order) for a Vulkan target with the
 * SPIRV-Tools validator linked into the library, so a host needs no SPIRV-Tools of its
 * own. Returns K2S_OK when valid; otherwise K2S_ERROR_INPUT and *message, a malloc'd
 * text ("not valid for <environment>: <why>") the caller releases with free() (NULL
 * only when out of memory). Thread safety: any number of calls at once. */
enum k2s_validate_flags {
  K2S_VALIDATE_SPIRV_1_4 = 1u << 0, /* Vulkan 1.1 with VK_KHR_spirv_1_4: SPIR-V 1.4 allowed */
  K2S_VALIDATE_SCALAR_BLOCK_LAYOUT = 1u << 1, /* the device enabled scalarBlockLayout */
};
K2S_API k2s_status k2s_validate(const uint32_t *words, size_t n_words, k2s_target_env env,
                                unsigned flags, char **message);

/* The library's version, "MAJOR.MINOR.PATCH" (may differ from the header's
 * K2S_VERSION_STRING when a program runs with another build of the library). */
K2S_API const char *k2s_version(void);

/* The pipeline's pass names, in order (NULL-terminated). */
K2S_API const char *const *k2s_pass_names(void);
K2S_API const char *k2s_pass_description(const char *name);

#ifdef __cplusplus
}
#endif
#endif
