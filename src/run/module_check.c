#include "module_check.h"

#include "argspec.h"

#include <vulkan/vulkan.h>

#ifdef K2S_RUN_HAVE_SPIRV_TOOLS
#include <spirv-tools/libspirv.h>

bool module_check_available(void) { return true; }

static spv_target_env target_env(uint32_t api, bool spirv_1_4)
{
    if (api >= VK_API_VERSION_1_3)
        return SPV_ENV_VULKAN_1_3;
    if (api >= VK_API_VERSION_1_2)
        return SPV_ENV_VULKAN_1_2;
    return spirv_1_4 ? SPV_ENV_VULKAN_1_1_SPIRV_1_4 : SPV_ENV_VULKAN_1_1;
}

bool module_check(const uint32_t *words, size_t count, uint32_t api, bool spirv_1_4,
                  bool scalar_layout)
{
    spv_target_env env = target_env(api, spirv_1_4);
    spv_context ctx = spvContextCreate(env);
    spv_validator_options opts = spvValidatorOptionsCreate();
    spv_diagnostic diag = NULL;
    spv_const_binary_t binary = {words, count};
    bool ok = ctx && opts;
    if (ok) {
        spvValidatorOptionsSetScalarBlockLayout(opts, scalar_layout);
        ok = spvValidateWithOptions(ctx, opts, &binary, &diag) == SPV_SUCCESS;
        if (!ok)
            k2s_error("the module is not valid for %s: %s (--no-spirv-val skips this check)",
                      spvTargetEnvDescription(env),
                      diag && diag->error ? diag->error : "unknown validation error");
    } else {
        k2s_error("cannot create a SPIR-V validator");
    }
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(opts);
    spvContextDestroy(ctx);
    return ok;
}

#else

bool module_check_available(void) { return false; }

bool module_check(const uint32_t *words, size_t count, uint32_t api, bool spirv_1_4,
                  bool scalar_layout)
{
    (void)words;
    (void)count;
    (void)api;
    (void)spirv_1_4;
    (void)scalar_layout;
    return true;
}

#endif
