/* Vulkan images, texel buffers and samplers for k2s-run (see vk_images.h).
 *
 * An image argument is an optimal-tiling VkImage in VK_IMAGE_LAYOUT_GENERAL, filled from
 * and read back through a host-visible staging buffer holding the pixels tightly packed
 * in row-major order (the spec's memory order); image1d_buffer arguments are texel
 * buffers over host-visible memory. A sampler argument or literal sampler becomes a
 * VkSampler with OpenCL's filter, addressing and coordinate mode; CLK_ADDRESS_CLAMP uses
 * a transparent black border, which is OpenCL's colour for formats with alpha. */
#include "vk_images.h"

#include <stdlib.h>
#include <string.h>

static bool ok(VkResult r, const char *what)
{
    if (r == VK_SUCCESS)
        return true;
    k2s_error("%s failed: %s", what, vk_result_name(r));
    return false;
}

static VkFormat format_of(const struct k2s_image *im)
{
    static const VkFormat f[4][12] = {
        /* unorm8, snorm8, unorm16, snorm16, uint8, int8, uint16, int16, uint32, int32, half,
         * float */
        {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SNORM,
         VK_FORMAT_R8_UINT, VK_FORMAT_R8_SINT, VK_FORMAT_R16_UINT, VK_FORMAT_R16_SINT,
         VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT, VK_FORMAT_R16_SFLOAT, VK_FORMAT_R32_SFLOAT},
        {VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R16G16_UNORM,
         VK_FORMAT_R16G16_SNORM, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R16G16_UINT,
         VK_FORMAT_R16G16_SINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SINT,
         VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R32G32_SFLOAT},
        {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R16G16B16A16_UNORM,
         VK_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_SINT,
         VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R32G32B32A32_UINT,
         VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R16G16B16A16_SFLOAT,
         VK_FORMAT_R32G32B32A32_SFLOAT},
        {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SNORM, VK_FORMAT_UNDEFINED,
         VK_FORMAT_UNDEFINED, VK_FORMAT_B8G8R8A8_UINT, VK_FORMAT_B8G8R8A8_SINT,
         VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED,
         VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED},
    };
    return f[im->order][im->type];
}

static bool host_memory(struct vk_host *h, VkMemoryRequirements req, VkMemoryPropertyFlags want,
                        VkDeviceMemory *mem)
{
    for (uint32_t i = 0; i < h->memory.memoryTypeCount; i++)
        if ((req.memoryTypeBits & (1u << i)) &&
            (h->memory.memoryTypes[i].propertyFlags & want) == want) {
            VkMemoryAllocateInfo a = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                      .allocationSize = req.size,
                                      .memoryTypeIndex = i};
            return ok(vkAllocateMemory(h->device, &a, NULL, mem), "vkAllocateMemory");
        }
    k2s_error("the device has no suitable memory type for an image argument");
    return false;
}

static bool make_buffer(struct vk_host *h, size_t size, VkBufferUsageFlags usage,
                        struct vk_image_arg *x, const void *init)
{
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkMemoryRequirements req;
    if (!ok(vkCreateBuffer(h->device, &bi, NULL, &x->buffer), "vkCreateBuffer"))
        return false;
    vkGetBufferMemoryRequirements(h->device, x->buffer, &req);
    if (!host_memory(h, req,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                     &x->buffer_memory) ||
        !ok(vkBindBufferMemory(h->device, x->buffer, x->buffer_memory, 0), "vkBindBufferMemory") ||
        !ok(vkMapMemory(h->device, x->buffer_memory, 0, VK_WHOLE_SIZE, 0, &x->map), "vkMapMemory"))
        return false;
    memcpy(x->map, init, size);
    return true;
}

static bool check_format(struct vk_host *h, const struct k2s_arg *a, VkFormat f,
                         VkFormatFeatureFlags need, bool buffer, size_t ordinal)
{
    VkFormatProperties p;
    if (f != VK_FORMAT_UNDEFINED) {
        vkGetPhysicalDeviceFormatProperties(h->phys, f, &p);
        VkFormatFeatureFlags have = buffer ? p.bufferFeatures : p.optimalTilingFeatures;
        if ((have & need) == need)
            return true;
    }
    k2s_error("argument %zu ('%s'): device '%s' cannot use this image format (%s) as %s", ordinal,
              a->text, h->props.deviceName, f == VK_FORMAT_UNDEFINED ? "no Vulkan format" : "Vulkan",
              need & (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT)
                  ? "a writable image"
                  : "a sampled image");
    return false;
}

static bool one_shot(struct vk_host *h, struct vk_images *im, VkCommandBuffer *cmd)
{
    if (!im->pool) {
        VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                      .queueFamilyIndex = h->queue_family};
        if (!ok(vkCreateCommandPool(h->device, &pi, NULL, &im->pool), "vkCreateCommandPool"))
            return false;
    }
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = im->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    return ok(vkAllocateCommandBuffers(h->device, &ai, cmd), "vkAllocateCommandBuffers") &&
           ok(vkBeginCommandBuffer(*cmd, &bi), "vkBeginCommandBuffer");
}

static bool submit(struct vk_host *h, struct vk_images *im, VkCommandBuffer cmd)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &cmd};
    bool r = ok(vkEndCommandBuffer(cmd), "vkEndCommandBuffer") &&
             ok(vkQueueSubmit(h->queue, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit") &&
             ok(vkQueueWaitIdle(h->queue), "vkQueueWaitIdle");
    vkFreeCommandBuffers(h->device, im->pool, 1, &cmd);
    return r;
}

static VkBufferImageCopy region_of(const struct k2s_image *m)
{
    VkBufferImageCopy c = {0};
    c.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    c.imageSubresource.layerCount = m->layers;
    c.imageExtent = (VkExtent3D){m->width, m->height, m->depth};
    return c;
}

static void barrier(VkCommandBuffer cmd, VkImage image, uint32_t layers, VkImageLayout from,
                    VkImageLayout to, VkAccessFlags src, VkAccessFlags dst)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src,
                              .dstAccessMask = dst,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = image,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers}};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &b);
}

static bool make_image(struct vk_host *h, struct vk_images *ims, const struct k2s_arg *a,
                       enum refl_arg_kind kind, size_t ordinal, struct vk_image_arg *x)
{
    const struct k2s_image *m = &a->image;
    VkFormat f = format_of(m);
    bool storage = kind == RA_STORAGE_IMAGE || kind == RA_STORAGE_TEXEL;
    if (m->dim == K2S_IMG_1D_BUFFER) {
        VkFormatFeatureFlags need = storage ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                            : VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
        if (!check_format(h, a, f, need, true, ordinal) ||
            !make_buffer(h, a->size,
                         storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                 : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                         x, a->bytes))
            return false;
        VkBufferViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                     .buffer = x->buffer,
                                     .format = f,
                                     .range = VK_WHOLE_SIZE};
        x->type = storage ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                          : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        return ok(vkCreateBufferView(h->device, &vi, NULL, &x->texel_view), "vkCreateBufferView");
    }
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT |
                                (storage ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT
                                         : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT);
    if (!check_format(h, a, f, need, false, ordinal))
        return false;
    bool d1 = m->dim == K2S_IMG_1D || m->dim == K2S_IMG_1D_ARRAY, d3 = m->dim == K2S_IMG_3D;
    bool arr = m->dim == K2S_IMG_1D_ARRAY || m->dim == K2S_IMG_2D_ARRAY;
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = d1 ? VK_IMAGE_TYPE_1D : d3 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
        .format = f,
        .extent = {m->width, m->height, m->depth},
        .mipLevels = 1,
        .arrayLayers = m->layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 (storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkMemoryRequirements req;
    if (!ok(vkCreateImage(h->device, &ii, NULL, &x->image), "vkCreateImage"))
        return false;
    vkGetImageMemoryRequirements(h->device, x->image, &req);
    if (!host_memory(h, req, 0, &x->memory) ||
        !ok(vkBindImageMemory(h->device, x->image, x->memory, 0), "vkBindImageMemory"))
        return false;
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = x->image,
        .viewType = d1    ? (arr ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D)
                    : d3  ? VK_IMAGE_VIEW_TYPE_3D
                    : arr ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                          : VK_IMAGE_VIEW_TYPE_2D,
        .format = f,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, m->layers},
    };
    if (!ok(vkCreateImageView(h->device, &vi, NULL, &x->view), "vkCreateImageView") ||
        !make_buffer(h, a->size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     x, a->bytes))
        return false;
    VkCommandBuffer cmd;
    if (!one_shot(h, ims, &cmd))
        return false;
    barrier(cmd, x->image, m->layers, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy c = region_of(m);
    vkCmdCopyBufferToImage(cmd, x->buffer, x->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
    barrier(cmd, x->image, m->layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    x->type = storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    x->image_info = (VkDescriptorImageInfo){VK_NULL_HANDLE, x->view, VK_IMAGE_LAYOUT_GENERAL};
    return submit(h, ims, cmd);
}

static bool make_sampler(struct vk_host *h, const struct k2s_sampler *s, struct vk_image_arg *x)
{
    static const VkSamplerAddressMode modes[] = {
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,   /* none: any in-range behaviour is right */
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,   VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        VK_SAMPLER_ADDRESS_MODE_REPEAT,          VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
    };
    VkFilter filter = s->linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    VkSamplerAddressMode mode = modes[s->address < 5 ? s->address : 0];
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = mode,
        .addressModeV = mode,
        .addressModeW = mode,
        .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
        .unnormalizedCoordinates = !s->normalized,
    };
    x->type = VK_DESCRIPTOR_TYPE_SAMPLER;
    if (!ok(vkCreateSampler(h->device, &si, NULL, &x->sampler), "vkCreateSampler"))
        return false;
    x->image_info = (VkDescriptorImageInfo){x->sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
    return true;
}

static struct k2s_sampler sampler_of_mask(uint32_t mask)
{
    return (struct k2s_sampler){.normalized = mask & 1, .linear = (mask & 0x30) == 0x20,
                                .address = (mask >> 1) & 7};
}

bool vk_images_create(struct vk_host *h, const struct refl_module *r,
                      const struct refl_kernel *k, const struct k2s_arg *args, size_t nargs,
                      struct vk_images *out)
{
    memset(out, 0, sizeof *out);
    out->args = calloc(nargs ? nargs : 1, sizeof *out->args);
    out->literals = calloc(r->nsamplers ? r->nsamplers : 1, sizeof *out->literals);
    if (!out->args || !out->literals)
        return false;
    out->nargs = nargs;
    out->nliterals = r->nsamplers;
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        if (a->ordinal >= nargs)
            continue;
        bool image = a->kind == RA_SAMPLED_IMAGE || a->kind == RA_STORAGE_IMAGE ||
                     a->kind == RA_UNIFORM_TEXEL || a->kind == RA_STORAGE_TEXEL;
        if (image && !make_image(h, out, &args[a->ordinal], a->kind, a->ordinal,
                                 &out->args[a->ordinal]))
            return false;
        if (a->kind == RA_SAMPLER) {
          /* A sampler whose bits the shader reads (NormalizedSamplerMaskPushConstant)
           * is normalized in Vulkan: the shader scales unnormalized coordinates. */
          struct k2s_sampler s = args[a->ordinal].sampler;
          for (size_t q = 0; q < k->nimage_info; q++)
            if (k->image_info[q].what == RI_SAMPLER_MASK && k->image_info[q].ordinal == a->ordinal)
              s.normalized = true;
          if (!make_sampler(h, &s, &out->args[a->ordinal]))
            return false;
        }
    }
    for (size_t i = 0; i < r->nsamplers; i++) {
        struct k2s_sampler s = sampler_of_mask(r->samplers[i].mask);
        if (!make_sampler(h, &s, &out->literals[i]))
            return false;
    }
    return true;
}

bool vk_images_read(struct vk_host *h, struct vk_images *im, const struct k2s_arg *args,
                    size_t ordinal, void *dst)
{
    struct vk_image_arg *x = &im->args[ordinal];
    const struct k2s_image *m = &args[ordinal].image;
    if (x->image) {
        VkCommandBuffer cmd;
        if (!one_shot(h, im, &cmd))
            return false;
        barrier(cmd, x->image, m->layers, VK_IMAGE_LAYOUT_GENERAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferImageCopy c = region_of(m);
        vkCmdCopyImageToBuffer(cmd, x->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, x->buffer, 1,
                               &c);
        VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                    .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                    .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .buffer = x->buffer,
                                    .size = VK_WHOLE_SIZE};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                             NULL, 1, &bb, 0, NULL);
        if (!submit(h, im, cmd))
            return false;
    }
    if (!x->map)
        return false;
    memcpy(dst, x->map, args[ordinal].size);
    return true;
}

static void destroy_one(struct vk_host *h, struct vk_image_arg *x)
{
    if (x->sampler)
        vkDestroySampler(h->device, x->sampler, NULL);
    if (x->view)
        vkDestroyImageView(h->device, x->view, NULL);
    if (x->texel_view)
        vkDestroyBufferView(h->device, x->texel_view, NULL);
    if (x->image)
        vkDestroyImage(h->device, x->image, NULL);
    if (x->buffer)
        vkDestroyBuffer(h->device, x->buffer, NULL);
    if (x->memory)
        vkFreeMemory(h->device, x->memory, NULL);
    if (x->buffer_memory)
        vkFreeMemory(h->device, x->buffer_memory, NULL);
}

void vk_images_destroy(struct vk_host *h, struct vk_images *im)
{
    for (size_t i = 0; im->args && i < im->nargs; i++)
        destroy_one(h, &im->args[i]);
    for (size_t i = 0; im->literals && i < im->nliterals; i++)
        destroy_one(h, &im->literals[i]);
    if (im->pool)
        vkDestroyCommandPool(h->device, im->pool, NULL);
    free(im->args);
    free(im->literals);
    memset(im, 0, sizeof *im);
}
