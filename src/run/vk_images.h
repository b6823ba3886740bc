/* Vulkan images, texel buffers and samplers for k2s-run's image and sampler arguments and
 * the module's literal samplers (docs/runtime-abi.md, "Images and samplers"). */
#ifndef K2S_RUN_VK_IMAGES_H
#define K2S_RUN_VK_IMAGES_H
#include "argspec.h"
#include "reflection.h"
#include "vk_host.h"

struct vk_image_arg {
    VkImage image;
    VkImageView view;
    VkBuffer buffer; /* texel buffer, or the staging buffer of an image */
    VkBufferView texel_view;
    VkDeviceMemory memory, buffer_memory;
    void *map; /* buffer_memory mapped */
    VkSampler sampler;
    VkDescriptorType type;
    VkDescriptorImageInfo image_info;
};

struct vk_images {
    struct vk_image_arg *args;     /* per argument ordinal */
    struct vk_image_arg *literals; /* per literal sampler of the module */
    size_t nargs, nliterals;
    VkCommandPool pool;
};

/* Creates every image/sampler argument and literal sampler and uploads the pixels. */
bool vk_images_create(struct vk_host *h, const struct refl_module *r,
                      const struct refl_kernel *k, const struct k2s_arg *args, size_t nargs,
                      struct vk_images *out);
/* Copies image argument `ordinal` back into `dst` (args[ordinal].size bytes). */
bool vk_images_read(struct vk_host *h, struct vk_images *im, const struct k2s_arg *args,
                    size_t ordinal, void *dst);
void vk_images_destroy(struct vk_host *h, struct vk_images *im);
#endif
