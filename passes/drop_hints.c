/*
 * hints: OpExpectKHR → its value, OpAssumeTrueKHR → nothing.
 *
 * llvm-spirv 15 turns __builtin_expect / llvm.expect (also on 8- and 16-lane
 * vectors after vectorisation) and llvm.assume into SPV_KHR_expect_assume.
 * They are hints with no effect on results; in Vulkan they would need
 * VK_KHR_shader_expect_assume, and every pass would have to know them (the
 * wide-vector split refused an 8-lane OpExpectKHR). Dropped first; the
 * capability and extension go with them in finalize. Any module; no options.
 */
#include "k2s_internal.h"

bool k2s_drop_hints(k2s_module *m, const k2s_options *o)
{
  k2s_keep_uses(m); /* operands change only through the API */
  (void)o;
  bool changed = false;
  k2s_foreach_function(f, m)
    k2s_foreach_block(b, f)
      k2s_foreach_instr_safe(i, &b->body) {
        if (i->opcode == SpvOpExpectKHR && i->n_ops == 2 && i->result) {
          k2s_replace_all_uses(m, i->result, i->ops[0]);
          k2s_instr_delete(m, i);
          changed = true;
        } else if (i->opcode == SpvOpAssumeTrueKHR) {
          k2s_instr_delete(m, i);
          changed = true;
        }
      }
  return changed;
}
