/* k2s-run's side of k2s --loop-guard (loop_guard.h; the module side is passes/loop_guard.c).
 * Lavapipe (llvmpipe) ends every loop after 65,535 back edges per SIMD group and carries on
 * as if the loop had exited: without this check a long loop prints wrong numbers and
 * exits 0. */
#include "loop_guard.h"

#include "argspec.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_NAME "k2s.loop_guard"

bool loop_guard_bind(const k2s_module_info *info, struct refl_module *r, struct loop_guard *g)
{
    memset(g, 0, sizeof *g);
    g->data_index = -1;
    uint32_t var = k2s_module_info_find_name(info, GUARD_NAME);
    if (!var)
        return true;
    const k2s_module_resource *res = NULL;
    for (size_t i = 0; i < info->n_resources && !res; i++)
        if (info->resources[i].variable == var)
            res = &info->resources[i];
    if (!res || res->storage_class != SpvStorageClassStorageBuffer) {
        k2s_error("the module names %%%u '%s' but it is not a storage buffer with a descriptor "
                  "set and binding (k2s --loop-guard declares one)", var, GUARD_NAME);
        return false;
    }
    struct refl_data d = {.kind = RD_STORAGE, .set = res->set, .binding = res->binding,
                          .bytes = calloc(1, 4), .nbytes = 4};
    if (!d.bytes || !refl_add_data(r, &d)) {
        free(d.bytes);
        return false;
    }
    g->present = true;
    g->set = res->set;
    g->binding = res->binding;
    g->data_index = (long)r->ndata - 1;
    return true;
}

bool loop_guard_check(const struct loop_guard *g, uint32_t flag, const char *device_name,
                      bool module_has_loops)
{
    bool lavapipe = device_name && strstr(device_name, "llvmpipe");
    if (g->present && flag) {
        k2s_error("a loop ended before its exit condition: the driver cut it short%s; the "
                  "results are not to be trusted and are not printed",
                  lavapipe ? " (lavapipe stops loops after 65,535 iterations)" : "");
        return false;
    }
    if (!g->present && lavapipe && module_has_loops)
        fprintf(stderr,
                "%s: warning: lavapipe stops loops after 65,535 iterations and this module "
                "has no loop guard: translate with k2s --loop-guard to have that detected\n",
                k2s_prog());
    return true;
}
