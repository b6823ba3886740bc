/*
 * target: instructions newer than the target's SPIR-V → their older forms.
 *
 * A Kernel module may be SPIR-V 1.4 or later (llvm-spirv 15 emits 1.4 when
 * wrap flags are present) while vulkan1.1 means SPIR-V 1.3. Of what can
 * reach here, OpSelect with a scalar condition and vector or composite
 * operands is 1.4-only: its condition is splat into a bool vector (a struct
 * or array is selected member by member). The same rewrite repairs 1.0-1.3
 * inputs (src/repair_compat.c). Runs after the passes that create code,
 * before finalize; steered by --target-env only.
 */
#include "k2s_internal.h"

uint32_t k2s_split_select_conditions(k2s_module *m); /* src/repair_compat.c */

bool k2s_lower_for_target(k2s_module *m, const k2s_options *o)
{
  if (o->target_env != K2S_ENV_VULKAN_1_1)
    return false; /* vulkan1.2 is SPIR-V 1.5, vulkan1.3 is 1.6 */
  return k2s_split_select_conditions(m) > 0;
}
