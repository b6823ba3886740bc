/* Vulkan instance/device setup for k2s-run: device choice, and enabling exactly the
 * features, extensions and limits the translated module needs. */
#ifndef K2S_RUN_VK_HOST_H
#define K2S_RUN_VK_HOST_H

#include <k2s/k2s.h>

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vk_options {
    const char *device;         /* NULL: automatic; else an index or a name substring */
    bool validate;              /* enable VK_LAYER_KHRONOS_validation, fail on its errors */
    bool verbose;
    bool ignore_float_controls; /* warn instead of failing on unsupported float controls */
    bool no_robust_access;      /* leave robustBufferAccess off (OpenCL does not check bounds) */
};

struct vk_host {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t api_version; /* the version in use: min(instance, device, 1.3) */
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    VkPhysicalDeviceSubgroupProperties subgroup;
    uint32_t timestamp_bits;
    bool buffer_device_address; /* enabled */
    bool scalar_block_layout;   /* enabled (whenever the device has it) */
    bool keep_nonsemantic;      /* the driver accepts NonSemantic.* instructions */
    bool spirv_1_4;             /* VK_KHR_spirv_1_4 enabled on a Vulkan 1.1 device */
    bool full_subgroups;        /* computeFullSubgroups enabled (the module uses sub-groups) */
    uint32_t max_subgroup_size; /* maxSubgroupSize, when full_subgroups */
    bool verbose;
};

/* Prints the devices, marking the one chosen by default. */
bool vk_list_devices(const struct vk_options *opt);

/* Creates the instance and a device able to run `module`. `needs_bda` asks for
 * bufferDeviceAddress even when no capability does (pointer arguments). */
bool vk_host_create(struct vk_host *h, const struct vk_options *opt, const k2s_module_info *info,
                    bool needs_bda);
void vk_host_destroy(struct vk_host *h);

/* Number of validation-layer errors reported so far. */
unsigned vk_validation_errors(void);

const char *vk_result_name(VkResult r);

#endif
