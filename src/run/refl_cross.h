/* JSON reflection cross-checked with the embedded one (refl_cross.c). */
#ifndef K2S_RUN_REFL_CROSS_H
#define K2S_RUN_REFL_CROSS_H

#include "reflection.h"

/* True when the module has no embedded reflection or it agrees with json; otherwise
 * prints what differs and returns false. */
bool refl_cross_check(const k2s_module_info *info, const uint32_t *words, size_t count,
                      const struct refl_module *json, const char *json_path);

#endif
