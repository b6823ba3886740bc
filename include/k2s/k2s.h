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
  bool denorms_are_zero;    /* -cl-denorms-are-zero */
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

  /* -printf-buffer-size=N (clspv's spelling): bytes of the printf storage buffer
   * (a multiple of 4, at least 16; default 1048576, clspv's). */
  uint32_t printf_buffer_size;

  /* --image-format=KERNEL:ARG=ORDER:TYPE[,...]: the format of a write_only or read_write
   * image argument (ARG its name or ordinal; ORDER r rg rgba, TYPE as k2s-run's image
   * arguments): its storage image gets that format instead of Unknown, so reading it
   * needs no shaderStorageImageReadWithoutFormat. NULL: none. */
  const char *image_formats;
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
