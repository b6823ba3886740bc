/* JSON reflection cross-checked with the embedded one (refl_cross.c). */
#ifndef K2S_RUN_REFL_CROSS_H
#define K2S_RUN_REFL_CROSS_H

#include "reflection.h"

/* True when the module has no embedded reflection or it agrees with json; otherwise
 * prints what differs and returns false. */
bool refl_cross_check(const struct spv_module *m, const struct refl_module *json,
                      const char *json_path);

#endif
