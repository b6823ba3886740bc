#include "module_check.h"

#include "argspec.h"

#include <k2s/k2s.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

/* The library's validator (k2s_validate): k2s-run links no SPIRV-Tools of its own. */
bool module_check(const uint32_t *words, size_t count, uint32_t api, bool spirv_1_4,
                  bool scalar_layout)
{
    k2s_target_env env = api >= VK_API_VERSION_1_3   ? K2S_ENV_VULKAN_1_3
                         : api >= VK_API_VERSION_1_2 ? K2S_ENV_VULKAN_1_2
                                                     : K2S_ENV_VULKAN_1_1;
    unsigned flags = (spirv_1_4 ? K2S_VALIDATE_SPIRV_1_4 : 0u) |
                     (scalar_layout ? K2S_VALIDATE_SCALAR_BLOCK_LAYOUT : 0u);
    char *msg = NULL;
    if (k2s_validate(words, count, env, flags, &msg) == K2S_OK)
        return true;
    k2s_error("the module is %s (--no-spirv-val skips this check)",
              msg ? msg : "not valid (out of memory while validating)");
    free(msg);
    return false;
}
