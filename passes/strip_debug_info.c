/*
 * debug-info: OpenCL.DebugInfo.100 → dropped.
 *
 * Vulkan accepts no OpenCL.DebugInfo.100 instruction, and k2s does not
 * translate them into NonSemantic.Shader.DebugInfo.100 yet, so every one (the
 * declarations, DebugScope/DebugDeclare/DebugValue in function bodies) and the
 * import go, with a note; OpString, OpLine, OpSource and names stay (they are
 * valid Vulkan SPIR-V). It runs first, so that no pass meets a debug
 * instruction naming the values it rewrites (a DebugDeclare of a pointer, a
 * DebugValue of a deleted value). Any module; no options.
 */
#include "k2s_internal.h"

uint32_t k2s_repair_strip_debug_info(k2s_module *m); /* src/repair_compat.c */

bool k2s_strip_debug_info(k2s_module *m, const k2s_options *o)
{
  (void)o;
  bool present = false;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_EXT_IMPORT])
    present |= i->result < m->id_cap && m->ext_set[i->result] == K2S_EXT_OPENCL_DEBUGINFO_100;
  if (!present)
    return false;
  uint32_t n = k2s_repair_strip_debug_info(m);
  k2s_diag(m, K2S_NOTE, NULL,
           "%u OpenCL.DebugInfo.100 instruction%s dropped: k2s does not translate them into "
           "NonSemantic.Shader.DebugInfo.100 yet (OpLine line information is kept)",
           n, n == 1 ? " was" : "s were");
  return true;
}
