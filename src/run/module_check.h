/* Optional SPIR-V validation of the module before it reaches the driver: an invalid module
 * is undefined behaviour for Vulkan and crashes some drivers (lavapipe included). */
#ifndef K2S_RUN_MODULE_CHECK_H
#define K2S_RUN_MODULE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Validates for the Vulkan version in use (`api` as VK_API_VERSION_1_x; `spirv_1_4` when
 * VK_KHR_spirv_1_4 lets a Vulkan 1.1 device take SPIR-V 1.4; `scalar_layout` when the
 * device enabled scalarBlockLayout). Prints the error and returns false when invalid. */
bool module_check(const uint32_t *words, size_t count, uint32_t api, bool spirv_1_4,
                  bool scalar_layout);

#endif
