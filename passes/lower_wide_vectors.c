/*
 * wide-vectors: 8- and 16-lane vectors → 4-lane pieces.
 *
 * Vulkan has no Vector16 capability, so every 8- or 16-lane vector value is
 * rewritten into two or four 4-lane values, and in memory an N-lane vector
 * becomes an array of N/4 4-lane vectors (same size and OpenCL layout).
 * (Being written: for now such vectors are rejected with a clear message.)
 * Runs after pointers (memory is reached through access chains). No options.
 */
#include "k2s_internal.h"

bool k2s_lower_wide_vectors(k2s_module *m, const k2s_options *o)
{
  (void)o;
  k2s_foreach_instr(i, &m->sec[K2S_SEC_GLOBAL]) if (i->opcode == SpvOpTypeVector && i->n_ops == 2 &&
                                                    (i->ops[1] == 8 || i->ops[1] == 16))
  {
    k2s_error(m, i, "%u-lane vectors are not split into 4-lane pieces yet", i->ops[1]);
    return false;
  }
  return false;
}
