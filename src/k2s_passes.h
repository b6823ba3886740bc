/*
 * The pipeline: one list, in order. Each entry is a pass file
 * passes/<file>.c exporting bool k2s_<file>(k2s_module *, const k2s_options *),
 * its command-line name (--passes=, --print-after=) and a one-line summary.
 * Adding a pass = one file + one line here.
 */
#ifndef K2S_PASSES_H
#define K2S_PASSES_H

#define K2S_PIPELINE(X)                                                                       \
  X(record_debug_info, "debug-info", "OpenCL.DebugInfo.100 / NonSemantic.Shader.DebugInfo.100 → recorded for debug-emit, removed") \
  X(drop_hints, "hints", "OpExpectKHR → its value, OpAssumeTrueKHR dropped (hints Vulkan would need an extension for)") \
  X(lower_entry_points, "entry-points", "Kernel entry points → GLCompute; drop Linkage and wrappers") \
  X(lower_math, "math", "OpenCL.std math with OpenCL precision → calls into the linked builtin library") \
  X(inline_calls, "inline", "inline calls that pass pointers or read work-item functions")      \
  X(promote_locals, "promote-locals", "Function variables only loaded and stored whole → SSA values (mem2reg)") \
  X(lower_async_copies, "async-copies", "async_work_group_copy/strided_copy, wait_group_events → copy loops and barriers") \
  X(lower_work_items, "work-items", "work-item functions → Vulkan builtins, push/spec constants") \
  X(lower_atomics, "atomics", "flag, weak-exchange and float atomics → exchanges, compare-exchange loops") \
  X(choose_pointer_mode, "pointer-mode", "--pointers=auto: physical mode for kernels logical mode cannot express") \
  X(lower_physical_pointers, "physical-pointers", "--pointers=physical: global/constant pointers → PhysicalStorageBuffer64") \
  X(lower_kernel_args, "kernel-args", "kernel parameters → buffers, PODs, workgroup arrays")      \
  X(lower_images, "images", "image and sampler arguments, reads, writes, queries, literal samplers → Vulkan's") \
  X(lower_pointers, "pointers", "pointer arithmetic → access chains from root variables")        \
  X(lower_private_atomics, "private-atomics", "atomics on Function/Private memory (private atomic_flag, atomic_int) → load, operation, store") \
  X(lower_printf, "printf", "printf → records in the printf storage buffer, formats in the reflection") \
  X(lower_group_ops, "group-ops", "work-group functions → scratch memory, barriers and subgroup ops; sub-group functions → GroupNonUniform*") \
  X(lower_wide_vectors, "wide-vectors", "8- and 16-lane vectors → 4-lane pieces (values and memory)") \
  X(lower_conversions, "conversions", "saturated and rounding-mode conversions → explicit arithmetic") \
  X(lower_builtins, "builtins", "OpenCL.std builtins → GLSL.std.450 and core arithmetic")       \
  X(lower_signed_rem, "signed-rem", "OpSRem/OpSMod → OpUMod on magnitudes (Vulkan leaves negative operands undefined)") \
  X(narrow_indices, "narrow-indices", "64-bit indices into fixed-size arrays (local tiles) → 32-bit arithmetic") \
  X(word_vectors, "word-vectors", "storage buffers of 4x8-bit / 2x16-bit vectors, whole elements only → 32-bit words and bitcasts") \
  X(lower_uniform_layout, "uniform-layout", "uniform blocks Vulkan cannot lay out as OpenCL does → uvec4 words") \
  X(lower_physical_aligned, "physical-aligned", "Aligned on every PhysicalStorageBuffer load/store") \
  X(emulate_ftz, "emulate-ftz", "--emulate-ftz: float32 operands and results flushed to zero as on a DenormFlushToZero device (testing aid)") \
  X(no_contraction, "no-contraction", "NoContraction on float add/sub/mul: Vulkan drivers may fuse them, OpenCL does not") \
  X(lower_barriers, "barriers", "OpenCL scopes and memory semantics → Vulkan's")                 \
  X(emit_reflection, "reflection", "embedded ClspvReflection, JSON and descriptor map")          \
  X(scalar_replace, "scalar-replace", "private arrays/structs reached only by constant indices → one variable per part, then SSA values (promote-locals)") \
  X(structurize, "structurize", "arbitrary CFG → structured control flow (merges, one exit per loop)") \
  X(loop_guard, "loop-guard", "--loop-guard: loops report a driver's cut (lavapipe's 65,535-iteration cap) into a flag buffer") \
  X(lower_for_target, "target", "instructions newer than the target's SPIR-V (OpSelect on vectors with a scalar condition) → older forms") \
  X(cleanup, "cleanup", "redundant values, loads and phis, integer identities, dead code → removed (what lowering left)") \
  X(loop_hints, "loop-hints", "innermost loops with a runtime or small constant trip count → Loop Control Unroll (--unroll-hints=none: left None)") \
  X(emit_debug_info, "debug-emit", "recorded debug information → NonSemantic.Shader.DebugInfo.100 (or none: --strip-debug)") \
  X(finalize, "finalize", "capabilities, extensions, memory model and version for the target")

#define K2S_DECLARE_PASS(fn, name, desc) bool k2s_##fn(k2s_module *m, const k2s_options *o);
K2S_PIPELINE(K2S_DECLARE_PASS)
#undef K2S_DECLARE_PASS

#endif
