/* Buffers, descriptors, push/spec constants, pipelines and dispatches for one kernel. */
#include "vk_run.h"
#include "vk_images.h"

#include "vk_transfer.h"

#include <math.h>
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct buf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    VkDeviceAddress address;
};

/* A clustered POD (or pointer) block bound as one storage/uniform buffer. */
struct pod_block {
    uint32_t set, binding;
    VkDescriptorType type;
    unsigned char *bytes;
    size_t size;
    struct buf buf;
};

struct binding {
    uint32_t set, binding;
    VkDescriptorType type;
    const struct buf *buf;
    const char *what;
    const struct vk_image_arg *image; /* images, texel buffers, samplers (vk_images.c) */
};

#define MAX_PIPELINES 8

struct run_state {
    struct vk_host *h;
    const struct run_request *req;
    struct buf *arg_bufs;
    struct buf *data_bufs;
    struct pod_block *pods;
    size_t npods;
    struct binding *bindings;
    size_t nbindings;
    unsigned char *push;
    uint32_t push_size;
    VkDescriptorSetLayout *layouts;
    uint32_t nsets;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipelines[MAX_PIPELINES];
    unsigned npipelines;
    unsigned region_pipeline[8];
    VkDescriptorPool pool;
    VkDescriptorSet *sets;
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkQueryPool queries;
    VkFence fence;
    bool gpu_timing;
    struct vk_images images;
};

static bool vk_ok(VkResult r, const char *what)
{
    if (r == VK_SUCCESS)
        return true;
    k2s_error("%s failed: %s", what, vk_result_name(r));
    return false;
}

/* ---- buffers -------------------------------------------------------------------------------- */

/* Buffers live in device-local memory; data moves through staging copies (vk_transfer.c). */
static bool buf_alloc(struct run_state *s, VkDeviceSize size, struct buf *b)
{
    const struct vk_host *h = s->h;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 (h->buffer_device_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0),
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (!vk_ok(vkCreateBuffer(h->device, &info, NULL, &b->buffer), "vkCreateBuffer"))
        return false;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, b->buffer, &req);
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = h->buffer_device_address ? &flags : NULL,
        .allocationSize = req.size,
    };
    if (!vk_device_memory_type(h, req.memoryTypeBits, &alloc.memoryTypeIndex) ||
        !vk_ok(vkAllocateMemory(h->device, &alloc, NULL, &b->memory), "vkAllocateMemory") ||
        !vk_ok(vkBindBufferMemory(h->device, b->buffer, b->memory, 0), "vkBindBufferMemory"))
        return false;
    b->size = size;
    if (h->buffer_device_address) {
        VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                        .buffer = b->buffer};
        b->address = vkGetBufferDeviceAddress(h->device, &ai);
    }
    return true;
}

/* Sizes are padded to 16 bytes so that a translator widening narrow element accesses to
 * 32-bit words never reads past the end of a small buffer. */
static VkDeviceSize padded(size_t size) { return ((VkDeviceSize)size + 15) & ~(VkDeviceSize)15; }

static bool buf_create(struct run_state *s, const void *init, size_t size, struct buf *b)
{
    return buf_alloc(s, padded(size ? size : 1), b) &&
           vk_upload(s->h, b->buffer, init, size, (size_t)b->size);
}

static void buf_destroy(struct run_state *s, struct buf *b)
{
    if (b->memory)
        vkFreeMemory(s->h->device, b->memory, NULL);
    if (b->buffer)
        vkDestroyBuffer(s->h->device, b->buffer, NULL);
    memset(b, 0, sizeof *b);
}

static void put_pointer(unsigned char *dst, uint32_t size, VkDeviceAddress address)
{
    uint32_t low = (uint32_t)address;
    if (size == 4)
        memcpy(dst, &low, 4);
    else
        memcpy(dst, &address, 8);
}

static bool create_arg_buffers(struct run_state *s)
{
    const struct run_request *req = s->req;
    s->arg_bufs = calloc(req->nargs ? req->nargs : 1, sizeof *s->arg_bufs);
    if (!s->arg_bufs)
        return false;
    for (size_t i = 0; i < req->nargs; i++) {
        const struct k2s_arg *a = &req->args[i];
        if (a->kind == K2S_ARG_BUFFER && a->same_as)
            continue; /* bound below to the earlier argument's buffer */
        if (a->kind == K2S_ARG_BUFFER && !buf_create(s, a->bytes, a->size, &s->arg_bufs[i]))
            return false;
    }
    for (size_t i = 0; i < req->nargs; i++) {
        const struct k2s_arg *a = &req->args[i];
        if (a->kind == K2S_ARG_BUFFER && a->same_as)
            s->arg_bufs[i] = s->arg_bufs[a->same_as - 1];
    }
    return vk_images_create(s->h, req->refl, req->kernel, req->args, req->nargs, &s->images);
}

/* Program-scope variables may hold pointers into their own buffer: the initial bytes get
 * the buffer's addresses before they are uploaded. */
static bool apply_relocations(struct run_state *s, struct refl_data *d, struct buf *b)
{
    const struct refl_module *r = s->req->refl;
    unsigned char *bytes = malloc(d->nbytes ? d->nbytes : 1);
    if (!bytes)
        return false;
    if (d->nbytes)
        memcpy(bytes, d->bytes, d->nbytes);
    for (size_t i = 0; i < r->nrelocs; i++) {
        const struct refl_reloc *rl = &r->relocs[i];
        uint32_t size = rl->pointer_size;
        if ((size != 4 && size != 8) || rl->object_offset > d->nbytes ||
            d->nbytes - rl->object_offset < size) {
            k2s_error("reflection: program-scope relocation out of range");
            free(bytes);
            return false;
        }
        put_pointer(bytes + rl->object_offset, size, b->address + rl->pointer_offset);
    }
    bool uploaded = vk_upload(s->h, b->buffer, bytes, d->nbytes, (size_t)b->size);
    free(bytes);
    return uploaded;
}

static bool create_data_buffers(struct run_state *s)
{
    const struct refl_module *r = s->req->refl;
    s->data_bufs = calloc(r->ndata ? r->ndata : 1, sizeof *s->data_bufs);
    if (!s->data_bufs)
        return false;
    for (size_t i = 0; i < r->ndata; i++) {
        struct refl_data *d = &r->data[i];
        if (!buf_create(s, d->bytes, d->nbytes, &s->data_bufs[i]))
            return false;
        if (d->program_scope && r->nrelocs && !apply_relocations(s, d, &s->data_bufs[i]))
            return false;
    }
    return true;
}

/* ---- POD blocks ------------------------------------------------------------------------------- */

static bool in_block(enum refl_arg_kind k)
{
    return k == RA_POD_STORAGE || k == RA_POD_UNIFORM || k == RA_POINTER_UNIFORM;
}

static struct pod_block *find_block(struct run_state *s, const struct refl_arg *a)
{
    for (size_t i = 0; i < s->npods; i++)
        if (s->pods[i].set == a->set && s->pods[i].binding == a->binding)
            return &s->pods[i];
    struct pod_block *grown = realloc(s->pods, (s->npods + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    s->pods = grown;
    struct pod_block *b = &grown[s->npods++];
    memset(b, 0, sizeof *b);
    b->set = a->set;
    b->binding = a->binding;
    b->type = a->kind == RA_POD_STORAGE ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                        : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    return b;
}

/* Copies a POD value or a buffer address into `dst` (the slot of argument `a`). */
static void put_arg(struct run_state *s, const struct refl_arg *a, unsigned char *dst)
{
    const struct k2s_arg *spec = &s->req->args[a->ordinal];
    size_t n;
    if (a->kind == RA_POINTER_PUSH || a->kind == RA_POINTER_UNIFORM)
        put_pointer(dst, a->size, s->arg_bufs[a->ordinal].address);
    else if (plan_pod_bytes(a, spec, &n))
        memcpy(dst, spec->bytes, n);
}

static bool build_pod_blocks(struct run_state *s)
{
    const struct refl_kernel *k = s->req->kernel;
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        struct pod_block *b = in_block(a->kind) ? find_block(s, a) : NULL;
        if (in_block(a->kind) && !b)
            return false;
        if (b && (size_t)a->offset + a->size > b->size)
            b->size = (size_t)a->offset + a->size;
    }
    for (size_t i = 0; i < s->npods; i++) {
        /* UBO blocks are read in 16-byte units (std140); a larger zeroed block is harmless. */
        s->pods[i].size = (size_t)padded(s->pods[i].size);
        s->pods[i].bytes = calloc(s->pods[i].size ? s->pods[i].size : 1, 1);
        if (!s->pods[i].bytes)
            return false;
    }
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        if (in_block(a->kind))
            put_arg(s, a, find_block(s, a)->bytes + a->offset);
    }
    for (size_t i = 0; i < s->npods; i++)
        if (!buf_create(s, s->pods[i].bytes, s->pods[i].size, &s->pods[i].buf))
            return false;
    return true;
}

/* ---- push constants ------------------------------------------------------------------------- */

static void grow_push(uint64_t *size, uint32_t offset, uint32_t len)
{
    if ((uint64_t)offset + len > *size)
        *size = (uint64_t)offset + len;
}

static uint64_t push_block_size(const struct run_state *s)
{
    const struct refl_module *r = s->req->refl;
    const struct refl_kernel *k = s->req->kernel;
    const struct refl_range *push = refl_push(r, k);
    uint64_t size = k->push_size;
    for (int i = 0; i < PC_COUNT; i++)
        if (push[i].present)
            grow_push(&size, push[i].offset, push[i].size);
    for (size_t i = 0; i < k->nargs; i++)
        if (k->args[i].kind == RA_POD_PUSH || k->args[i].kind == RA_POINTER_PUSH)
            grow_push(&size, k->args[i].offset, k->args[i].size);
    for (size_t i = 0; i < r->ndata; i++)
        if (r->data[i].kind == RD_POINTER_PUSH)
            grow_push(&size, r->data[i].offset, r->data[i].size);
    for (size_t i = 0; i < k->nimage_info; i++)
        grow_push(&size, k->image_info[i].offset, 4);
    return (size + 3) & ~(uint64_t)3; /* push-constant ranges are in 4-byte units */
}

/* A uint3 by default; a size of 24 or more means 64-bit components (size_t on spir64). */
static void put_triple(unsigned char *push, const struct refl_range *rg, const uint64_t v[3])
{
    if (!rg->present)
        return;
    bool wide = rg->size >= 24 && rg->size % 8 == 0;
    uint32_t elem = wide ? 8 : 4, n = rg->size / elem;
    for (uint32_t d = 0; d < n && d < 3; d++) {
        uint32_t narrow = (uint32_t)v[d];
        memcpy(push + rg->offset + d * elem, wide ? (const void *)&v[d] : (const void *)&narrow,
               elem);
    }
}

static bool build_push(struct run_state *s)
{
    const struct refl_module *r = s->req->refl;
    const struct refl_kernel *k = s->req->kernel;
    const struct plan *p = s->req->plan;
    uint64_t size = push_block_size(s);
    if (size > s->h->props.limits.maxPushConstantsSize) {
        k2s_error("the module needs %llu bytes of push constants; device '%s' allows %u",
                  (unsigned long long)size, s->h->props.deviceName,
                  s->h->props.limits.maxPushConstantsSize);
        return false;
    }
    s->push_size = (uint32_t)size;
    s->push = calloc(s->push_size ? s->push_size : 4, 1);
    if (!s->push)
        return false;
    uint64_t groups[3];
    for (int d = 0; d < 3; d++)
        groups[d] = (p->global[d] + p->local[d] - 1) / p->local[d];
    const struct refl_range *push = refl_push(r, k);
    put_triple(s->push, &push[PC_GLOBAL_OFFSET], p->offset);
    put_triple(s->push, &push[PC_GLOBAL_SIZE], p->global);
    put_triple(s->push, &push[PC_ENQUEUED_LOCAL_SIZE], p->local);
    put_triple(s->push, &push[PC_NUM_WORKGROUPS], groups);
    for (size_t i = 0; i < k->nargs; i++)
        if (k->args[i].kind == RA_POD_PUSH || k->args[i].kind == RA_POINTER_PUSH)
            put_arg(s, &k->args[i], s->push + k->args[i].offset);
    for (size_t i = 0; i < r->ndata; i++)
        if (r->data[i].kind == RD_POINTER_PUSH)
            put_pointer(s->push + r->data[i].offset, r->data[i].size, s->data_bufs[i].address);
    /* get_image_channel_order / data_type: the CL_* values; a sampler's sampler_t bits
     * (clspv's conventions). */
    for (size_t i = 0; i < k->nimage_info; i++) {
        const struct refl_image_info *ii = &k->image_info[i];
        if (ii->ordinal >= s->req->nargs)
          continue;
        const struct k2s_arg *a = &s->req->args[ii->ordinal];
        uint32_t v;
        if (ii->what == RI_SAMPLER_MASK && a->kind == K2S_ARG_SAMPLER)
          v = k2s_sampler_mask(&a->sampler);
        else if (ii->what != RI_SAMPLER_MASK && a->kind == K2S_ARG_IMAGE)
          v = ii->what == RI_CHANNEL_DATA_TYPE ? k2s_image_cl_type(a->image.type)
                                               : k2s_image_cl_order(a->image.order);
        else
          continue;
        memcpy(s->push + ii->offset, &v, 4);
    }
    return true;
}

static void push_region(struct run_state *s, const struct region *rg)
{
    const struct refl_range *push = refl_push(s->req->refl, s->req->kernel);
    uint64_t off[3], goff[3];
    for (int d = 0; d < 3; d++) {
        /* clspv's contract: the region's first global id, global offset included. */
        off[d] = rg->offset[d] + s->req->plan->offset[d];
        goff[d] = rg->group_offset[d];
    }
    put_triple(s->push, &push[PC_REGION_OFFSET], off);
    put_triple(s->push, &push[PC_REGION_GROUP_OFFSET], goff);
}

/* ---- descriptors ----------------------------------------------------------------------------- */

static bool add_binding(struct run_state *s, uint32_t set, uint32_t binding, VkDescriptorType type,
                        const struct buf *b, const char *what)
{
    if (set >= s->h->props.limits.maxBoundDescriptorSets) {
        k2s_error("%s uses descriptor set %u; the device binds at most %u sets", what, set,
                  s->h->props.limits.maxBoundDescriptorSets);
        return false;
    }
    for (size_t i = 0; i < s->nbindings; i++) {
        if (s->bindings[i].set == set && s->bindings[i].binding == binding) {
            k2s_error("reflection: %s and %s both use descriptor set %u binding %u",
                      s->bindings[i].what, what, set, binding);
            return false;
        }
    }
    struct binding *grown = realloc(s->bindings, (s->nbindings + 1) * sizeof *grown);
    if (!grown)
        return false;
    s->bindings = grown;
    grown[s->nbindings++] = (struct binding){set, binding, type, b, what, NULL};
    if (set + 1 > s->nsets)
        s->nsets = set + 1;
    return true;
}

static bool check_range(struct run_state *s, VkDescriptorType type, VkDeviceSize size,
                        const char *what)
{
    const VkPhysicalDeviceLimits *l = &s->h->props.limits;
    uint32_t max = type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? l->maxUniformBufferRange
                                                              : l->maxStorageBufferRange;
    if (size <= max)
        return true;
    k2s_error("%s: %llu bytes exceed the device's max %s buffer range of %u bytes", what,
              (unsigned long long)size,
              type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? "uniform" : "storage", max);
    return false;
}

static bool collect_bindings(struct run_state *s)
{
    const struct refl_kernel *k = s->req->kernel;
    const struct refl_module *r = s->req->refl;
    static char labels[64][64]; /* stable storage for messages */
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        if (a->kind != RA_STORAGE_BUFFER && a->kind != RA_UNIFORM)
            continue;
        VkDescriptorType t = a->kind == RA_UNIFORM ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        char *label = labels[i % 64];
        snprintf(label, 64, "argument %u", a->ordinal);
        const struct buf *b = &s->arg_bufs[a->ordinal];
        /* k2s declares a constant argument's uniform buffer as a 64 KiB array
         * (docs/runtime-abi.md): more would be read past the array's end. */
        if (a->kind == RA_UNIFORM && b->size > 65536) {
            k2s_error("%s: %llu bytes, more than the 64 KiB a uniform-buffer (constant) "
                      "argument holds (translate without -constant-args-ubo)", label,
                      (unsigned long long)b->size);
            return false;
        }
        if (!check_range(s, t, b->size, label) || !add_binding(s, a->set, a->binding, t, b, label))
            return false;
    }
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        const struct vk_image_arg *x = &s->images.args[a->ordinal];
        if (!x->type && !x->sampler)
            continue;
        char *label = labels[i % 64];
        snprintf(label, 64, "argument %u", a->ordinal);
        if (!add_binding(s, a->set, a->binding, x->type, NULL, label))
            return false;
        s->bindings[s->nbindings - 1].image = x;
    }
    for (size_t i = 0; i < s->images.nliterals; i++) {
        if (!add_binding(s, r->samplers[i].set, r->samplers[i].binding, VK_DESCRIPTOR_TYPE_SAMPLER,
                         NULL, "a literal sampler"))
            return false;
        s->bindings[s->nbindings - 1].image = &s->images.literals[i];
    }
    for (size_t i = 0; i < s->npods; i++) {
        const struct pod_block *p = &s->pods[i];
        if (!check_range(s, p->type, p->buf.size, "the POD argument block") ||
            !add_binding(s, p->set, p->binding, p->type, &p->buf, "the POD argument block"))
            return false;
    }
    for (size_t i = 0; i < r->ndata; i++) {
        const struct refl_data *d = &r->data[i];
        if (d->kind == RD_POINTER_PUSH)
            continue;
        VkDescriptorType t = d->kind == RD_UNIFORM ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                   : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        if (!check_range(s, t, s->data_bufs[i].size, "a module data buffer") ||
            !add_binding(s, d->set, d->binding, t, &s->data_bufs[i], "a module data buffer"))
            return false;
    }
    return true;
}

static const char *type_label(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? "uniform buffer" : "storage buffer";
}

/* The layout comes from the reflection; a shader disagreeing with it is undefined
 * behaviour that crashes some drivers, so compare it with the module's own decorations. */
static bool check_resource(struct run_state *s, const k2s_module_resource *res)
{
    const struct binding *b = NULL;
    for (size_t i = 0; i < s->nbindings && !b; i++)
        if (s->bindings[i].set == res->set && s->bindings[i].binding == res->binding)
            b = &s->bindings[i];
    bool storage = res->storage_class == SpvStorageClassStorageBuffer ||
                   (res->storage_class == SpvStorageClassUniform && res->buffer_block);
    bool uniform = res->storage_class == SpvStorageClassUniform && !res->buffer_block;
    /* Another kernel's resource may share the set and binding with another kind. */
    if (!k2s_module_entry_may_use(s->req->entry_info, res->variable))
        return true;
    if (!b) {
        k2s_error("the shader uses descriptor set %u binding %u (%%%u), which the reflection "
                  "of kernel '%s' does not describe", res->set, res->binding, res->variable,
                  s->req->kernel->name);
        return false;
    }
    if ((storage && b->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) ||
        (uniform && b->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER) ||
        (res->storage_class == SpvStorageClassUniformConstant && b->image)) {
        const struct k2s_arg *arg = NULL;
        for (size_t i = 0; i < s->req->kernel->nargs && !arg; i++)
            if (s->req->kernel->args[i].set == res->set &&
                s->req->kernel->args[i].binding == res->binding &&
                s->req->args[s->req->kernel->args[i].ordinal].kind == K2S_ARG_IMAGE)
                arg = &s->req->args[s->req->kernel->args[i].ordinal];
        /* read_imagef of an integer image (or read_imagei/ui of a float one): undefined
         * in OpenCL, and a format Vulkan does not let the shader's image type read. */
        if (arg && res->image_sampled_type &&
            (res->image_sampled_type == 1) != k2s_image_is_integer(arg->image.type)) {
            k2s_error("%s ('%s'): the kernel reads or writes it as %s data, but the format is "
                      "%s (OpenCL leaves that undefined)", b->what, arg->text,
                      res->image_sampled_type == 1 ? "integer" : "float",
                      k2s_image_is_integer(arg->image.type) ? "integer" : "not integer");
            return false;
        }
        /* A storage image with a format (k2s --image-format): the bound image must have
         * exactly that format. */
        if (arg && res->image_format && res->image_format != k2s_image_spirv_format(&arg->image)) {
          k2s_error("%s ('%s'): the shader's storage image has a fixed format (SPIR-V "
                    "ImageFormat %u, from k2s --image-format) that the argument's order and "
                    "type are not",
                    b->what, arg->text, res->image_format);
          return false;
        }
        return true;
    }
    k2s_error("the shader declares descriptor set %u binding %u (%%%u) as a %s, but the "
              "reflection binds %s (a %s) there", res->set, res->binding, res->variable,
              storage ? "storage buffer" : uniform ? "uniform buffer" : "image or sampler",
              b->what, type_label(b->type));
    return false;
}

static bool check_resources(struct run_state *s)
{
    const k2s_module_info *info = s->req->info;
    for (size_t i = 0; info && i < info->n_resources; i++)
        if (!check_resource(s, &info->resources[i]))
            return false;
    return true;
}

static bool create_set_layout(struct run_state *s, uint32_t set)
{
    VkDescriptorSetLayoutBinding *lb = calloc(s->nbindings ? s->nbindings : 1, sizeof *lb);
    uint32_t n = 0;
    if (!lb)
        return false;
    for (size_t i = 0; i < s->nbindings; i++) {
        if (s->bindings[i].set != set)
            continue;
        lb[n++] = (VkDescriptorSetLayoutBinding){
            .binding = s->bindings[i].binding,
            .descriptorType = s->bindings[i].type,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    /* Unused set numbers below the highest one get an empty layout. */
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = lb,
    };
    bool ok = vk_ok(vkCreateDescriptorSetLayout(s->h->device, &info, NULL, &s->layouts[set]),
                    "vkCreateDescriptorSetLayout");
    free(lb);
    return ok;
}

static bool create_layouts(struct run_state *s)
{
    if (s->nsets > s->h->props.limits.maxBoundDescriptorSets) {
        k2s_error("the kernel uses descriptor set %u; the device binds at most %u sets",
                  s->nsets - 1, s->h->props.limits.maxBoundDescriptorSets);
        return false;
    }
    s->layouts = calloc(s->nsets ? s->nsets : 1, sizeof *s->layouts);
    if (!s->layouts)
        return false;
    for (uint32_t set = 0; set < s->nsets; set++)
        if (!create_set_layout(s, set))
            return false;
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, s->push_size};
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = s->nsets,
        .pSetLayouts = s->layouts,
        .pushConstantRangeCount = s->push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    return vk_ok(vkCreatePipelineLayout(s->h->device, &info, NULL, &s->layout),
                 "vkCreatePipelineLayout");
}

static bool create_descriptors(struct run_state *s)
{
    if (s->nsets == 0)
        return true;
    /* One pool size per descriptor type (buffers, images, texel buffers, samplers). */
    static const VkDescriptorType types[] = {
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,       VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,        VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        VK_DESCRIPTOR_TYPE_SAMPLER,              VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
        VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    };
    VkDescriptorPoolSize sizes[7];
    for (int t = 0; t < 7; t++) {
        sizes[t] = (VkDescriptorPoolSize){types[t], 0};
        for (size_t i = 0; i < s->nbindings; i++)
            sizes[t].descriptorCount += s->bindings[i].type == types[t];
        if (!sizes[t].descriptorCount)
            sizes[t].descriptorCount = 1;
    }
    VkDescriptorPoolCreateInfo pinfo = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = s->nsets,
        .poolSizeCount = 7,
        .pPoolSizes = sizes,
    };
    s->sets = calloc(s->nsets, sizeof *s->sets);
    if (!s->sets ||
        !vk_ok(vkCreateDescriptorPool(s->h->device, &pinfo, NULL, &s->pool), "vkCreateDescriptorPool"))
        return false;
    VkDescriptorSetAllocateInfo ainfo = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = s->pool,
        .descriptorSetCount = s->nsets,
        .pSetLayouts = s->layouts,
    };
    if (!vk_ok(vkAllocateDescriptorSets(s->h->device, &ainfo, s->sets), "vkAllocateDescriptorSets"))
        return false;
    for (size_t i = 0; i < s->nbindings; i++) {
        const struct binding *b = &s->bindings[i];
        if (b->image) {
            VkWriteDescriptorSet w = {
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = s->sets[b->set],
                .dstBinding = b->binding,
                .descriptorCount = 1,
                .descriptorType = b->type,
                .pImageInfo = &b->image->image_info,
                .pTexelBufferView = &b->image->texel_view,
            };
            vkUpdateDescriptorSets(s->h->device, 1, &w, 0, NULL);
            continue;
        }
        VkDescriptorBufferInfo bi = {b->buf->buffer, 0, b->buf->size};
        VkWriteDescriptorSet w = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = s->sets[b->set],
            .dstBinding = b->binding,
            .descriptorCount = 1,
            .descriptorType = b->type,
            .pBufferInfo = &bi,
        };
        vkUpdateDescriptorSets(s->h->device, 1, &w, 0, NULL);
    }
    return true;
}

/* ---- pipelines ------------------------------------------------------------------------------ */

static bool spec_add(k2s_spec_value *list, unsigned *n, uint32_t id, uint32_t value)
{
    for (unsigned i = 0; i < *n; i++) {
        if (list[i].spec_id != id)
            continue;
        if (list[i].value == value)
            return true;
        k2s_error("reflection: specialization constant %u is given two different meanings", id);
        return false;
    }
    list[(*n)++] = (k2s_spec_value){id, value};
    return true;
}

/* Spec constants for one region: work-group size, work dim, offsets, local sizes. */
static bool region_specs(struct run_state *s, const struct region *rg, k2s_spec_value *list,
                         unsigned *n)
{
    const struct refl_module *r = s->req->refl;
    const struct refl_kernel *k = s->req->kernel;
    const struct plan *p = s->req->plan;
    bool ok = true;
    *n = 0;
    for (int d = 0; d < 3; d++) {
        /* Also for a fixed (reqd) size: the WorkgroupSize builtin is module-wide, so a
         * module mixing kernels may still size this kernel through the spec constants. */
        if (r->has_wg_spec)
            ok = ok && spec_add(list, n, r->wg_spec[d], rg->wg[d]);
        if (r->has_offset_spec)
            ok = ok && spec_add(list, n, r->offset_spec[d], (uint32_t)p->offset[d]);
    }
    if (r->has_work_dim_spec)
        ok = ok && spec_add(list, n, r->work_dim_spec, p->dims);
    if (r->has_subgroup_spec)
        ok = ok && spec_add(list, n, r->subgroup_spec, s->h->subgroup.subgroupSize);
    for (size_t i = 0; i < k->nargs; i++) {
        const struct refl_arg *a = &k->args[i];
        if (a->kind == RA_WORKGROUP)
            ok = ok && spec_add(list, n, a->spec_id,
                                (uint32_t)(s->req->args[a->ordinal].size / a->elem_size));
    }
    return ok;
}

/* The Workgroup memory the kernel uses with these spec constants (its local arrays and
 * arguments, and k2s's scratch for work-group functions) must fit the device: drivers do
 * not have to report it, and some fail the dispatch or corrupt memory instead. */
static bool check_workgroup_memory(const struct run_state *s, const struct region *rg,
                                   const k2s_spec_value *specs, unsigned n)
{
    const struct run_request *q = s->req;
    k2s_workgroup_bytes wb;
    if (!q->info || !q->entry_info)
        return true; /* nothing to size it from */
    if (!k2s_module_workgroup_bytes(q->info, q->entry_info, specs, n, &wb)) {
        k2s_error("out of memory sizing the module's workgroup memory");
        return false;
    }
    uint32_t limit = s->h->props.limits.maxComputeSharedMemorySize;
    if (wb.unknown && q->verbose)
        fprintf(stderr, "%s: a workgroup variable of kernel '%s' has a size k2s-run cannot "
                        "compute; not counted against maxComputeSharedMemorySize\n",
                k2s_prog(), q->entry);
    if (wb.total <= limit)
        return true;
    k2s_error("kernel '%s' with work-groups of %ux%ux%u needs %llu bytes of workgroup (local) "
              "memory (%llu of them k2s's scratch for work-group functions), more than device "
              "'%s' allows (maxComputeSharedMemorySize = %u)",
              q->entry, rg->wg[0], rg->wg[1], rg->wg[2], (unsigned long long)wb.total,
              (unsigned long long)wb.scratch, s->h->props.deviceName, limit);
    return false;
}

static bool create_pipeline(struct run_state *s, const struct region *rg, VkPipeline *out)
{
    size_t max = 8 + s->req->kernel->nargs;
    k2s_spec_value *list = calloc(max, sizeof *list);
    VkSpecializationMapEntry *map = calloc(max, sizeof *map);
    unsigned n = 0;
    bool ok = list && map && region_specs(s, rg, list, &n);
    for (unsigned i = 0; ok && i < n; i++)
        map[i] = (VkSpecializationMapEntry){list[i].spec_id, (uint32_t)(i * sizeof *list + 4), 4};
    VkSpecializationInfo spec = {n, map, n * sizeof *list, list};
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = s->module,
            .pName = s->req->entry,
            .pSpecializationInfo = n ? &spec : NULL,
        },
        .layout = s->layout,
    };
    ok = ok && check_workgroup_memory(s, rg, list, n);
    /* Full sub-groups (docs/runtime-abi.md, "Sub-groups"): Vulkan allows the flag only when
     * the work-group size in x is a multiple of maxSubgroupSize. */
    if (s->h->full_subgroups && rg->wg[0] % s->h->max_subgroup_size == 0)
        info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    if (ok) {
        VkResult r = vkCreateComputePipelines(s->h->device, VK_NULL_HANDLE, 1, &info, NULL, out);
        ok = r == VK_SUCCESS;
        if (!ok)
            k2s_error("vkCreateComputePipelines failed: %s (the driver rejected the shader; "
                      "--validate may say why)", vk_result_name(r));
    }
    free(list);
    free(map);
    return ok;
}

static bool check_region_limits(const struct run_state *s, const struct region *rg)
{
    const VkPhysicalDeviceLimits *l = &s->h->props.limits;
    uint64_t invocations = (uint64_t)rg->wg[0] * rg->wg[1] * rg->wg[2];
    for (int d = 0; d < 3; d++) {
        if (rg->wg[d] > l->maxComputeWorkGroupSize[d] || rg->groups[d] > l->maxComputeWorkGroupCount[d]) {
            k2s_error("work-group size %u or group count %u in dimension %d exceeds the device "
                      "limits (%u, %u)", rg->wg[d], rg->groups[d], d,
                      l->maxComputeWorkGroupSize[d], l->maxComputeWorkGroupCount[d]);
            return false;
        }
    }
    if (invocations > l->maxComputeWorkGroupInvocations) {
        k2s_error("work-group of %llu work-items exceeds the device limit of %u",
                  (unsigned long long)invocations, l->maxComputeWorkGroupInvocations);
        return false;
    }
    return true;
}

static bool create_pipelines(struct run_state *s)
{
    VkShaderModuleCreateInfo minfo = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = s->req->code_words * 4,
        .pCode = s->req->code,
    };
    if (!vk_ok(vkCreateShaderModule(s->h->device, &minfo, NULL, &s->module), "vkCreateShaderModule"))
        return false;
    const struct plan *p = s->req->plan;
    for (unsigned i = 0; i < p->nregions; i++) {
        const struct region *rg = &p->regions[i];
        if (!check_region_limits(s, rg))
            return false;
        unsigned found = s->npipelines;
        for (unsigned j = 0; j < i; j++)
            if (memcmp(p->regions[j].wg, rg->wg, sizeof rg->wg) == 0)
                found = s->region_pipeline[j];
        if (found == s->npipelines && !create_pipeline(s, rg, &s->pipelines[s->npipelines++]))
            return false;
        s->region_pipeline[i] = found;
    }
    return true;
}

/* ---- execution ------------------------------------------------------------------------------ */

static bool create_commands(struct run_state *s)
{
    VkDevice dev = s->h->device;
    VkCommandPoolCreateInfo pinfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                     .queueFamilyIndex = s->h->queue_family};
    VkCommandBufferAllocateInfo ainfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandBufferCount = 1,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY};
    VkFenceCreateInfo finfo = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!vk_ok(vkCreateCommandPool(dev, &pinfo, NULL, &s->cmd_pool), "vkCreateCommandPool"))
        return false;
    ainfo.commandPool = s->cmd_pool;
    if (!vk_ok(vkAllocateCommandBuffers(dev, &ainfo, &s->cmd), "vkAllocateCommandBuffers") ||
        !vk_ok(vkCreateFence(dev, &finfo, NULL, &s->fence), "vkCreateFence"))
        return false;
    s->gpu_timing = s->req->time_runs && s->h->timestamp_bits > 0;
    if (s->req->time_runs && !s->gpu_timing && s->req->verbose)
        fprintf(stderr, "%s: the queue has no timestamps; timing on the CPU\n", k2s_prog());
    VkQueryPoolCreateInfo qinfo = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                   .queryCount = 2};
    return !s->gpu_timing ||
           vk_ok(vkCreateQueryPool(dev, &qinfo, NULL, &s->queries), "vkCreateQueryPool");
}

static void record_dispatches(struct run_state *s)
{
    const struct plan *p = s->req->plan;
    if (s->nsets)
        vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, s->nsets,
                                s->sets, 0, NULL);
    for (unsigned i = 0; i < p->nregions; i++) {
        const struct region *rg = &p->regions[i];
        vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                          s->pipelines[s->region_pipeline[i]]);
        if (s->push_size) {
            push_region(s, rg);
            vkCmdPushConstants(s->cmd, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, s->push_size,
                               s->push);
        }
        vkCmdDispatch(s->cmd, rg->groups[0], rg->groups[1], rg->groups[2]);
    }
}

static bool record(struct run_state *s)
{
    VkCommandBufferBeginInfo binfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if (!vk_ok(vkBeginCommandBuffer(s->cmd, &binfo), "vkBeginCommandBuffer"))
        return false;
    if (s->gpu_timing) {
        vkCmdResetQueryPool(s->cmd, s->queries, 0, 2);
        vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s->queries, 0);
    }
    record_dispatches(s);
    if (s->gpu_timing)
        vkCmdWriteTimestamp(s->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s->queries, 1);
    /* Make the shader's writes visible to the read-back copies and to the next run. */
    VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                                                VK_ACCESS_SHADER_READ_BIT |
                                                VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         1, &barrier, 0, NULL, 0, NULL);
    return vk_ok(vkEndCommandBuffer(s->cmd), "vkEndCommandBuffer");
}

static bool submit_and_wait(struct run_state *s)
{
    VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &s->cmd};
    if (!vk_ok(vkResetFences(s->h->device, 1, &s->fence), "vkResetFences") ||
        !vk_ok(vkQueueSubmit(s->h->queue, 1, &info, s->fence), "vkQueueSubmit"))
        return false;
    uint64_t timeout = (uint64_t)(s->req->timeout_s * 1e9);
    VkResult r = vkWaitForFences(s->h->device, 1, &s->fence, VK_TRUE, timeout);
    if (r == VK_TIMEOUT) {
        /* The device is still busy with the kernel: tearing it down would block, so leave
         * without running any destructor. */
        k2s_error("the kernel did not finish within %g s (--timeout)", s->req->timeout_s);
        fflush(NULL);
        _exit(1);
    }
    return vk_ok(r, "vkWaitForFences");
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static bool timed_run(struct run_state *s, double *us)
{
    double start = now_us();
    if (!submit_and_wait(s))
        return false;
    if (!s->gpu_timing) {
        *us = now_us() - start;
        return true;
    }
    uint64_t ts[2];
    if (!vk_ok(vkGetQueryPoolResults(s->h->device, s->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults"))
        return false;
    uint64_t mask = s->h->timestamp_bits >= 64 ? UINT64_MAX
                                               : (UINT64_C(1) << s->h->timestamp_bits) - 1;
    uint64_t ticks = (ts[1] - ts[0]) & mask;
    *us = (double)ticks * s->h->props.limits.timestampPeriod / 1e3;
    return true;
}

static bool read_back(struct run_state *s, struct run_result *res)
{
    const struct run_request *req = s->req;
    res->outputs = calloc(req->nargs ? req->nargs : 1, sizeof *res->outputs);
    if (!res->outputs)
        return false;
    double start = now_us(), bytes = 0;
    for (size_t i = 0; i < req->nargs; i++) {
        if (req->args[i].kind == K2S_ARG_IMAGE) {
            res->outputs[i] = malloc(req->args[i].size);
            if (!res->outputs[i] ||
                !vk_images_read(s->h, &s->images, req->args, i, res->outputs[i]))
                return false;
            continue;
        }
        if (req->args[i].kind != K2S_ARG_BUFFER)
            continue;
        res->outputs[i] = malloc(req->args[i].size ? req->args[i].size : 1);
        if (!res->outputs[i]) {
            k2s_error("out of memory reading back argument %zu", i);
            return false;
        }
        if (!vk_download(s->h, s->arg_bufs[i].buffer, res->outputs[i], req->args[i].size))
            return false;
        bytes += (double)req->args[i].size;
    }
    long pf = req->refl->printf_data;
    if (pf >= 0) {
        const struct refl_data *d = &req->refl->data[pf];
        res->printf_bytes = malloc(d->nbytes);
        res->printf_size = d->nbytes;
        if (!res->printf_bytes ||
            !vk_download(s->h, s->data_bufs[pf].buffer, res->printf_bytes, d->nbytes))
            return false;
        bytes += (double)d->nbytes;
    }
    if (req->loop_guard_data >= 0 &&
        !vk_download(s->h, s->data_bufs[req->loop_guard_data].buffer, &res->loop_guard_flag,
                     sizeof res->loop_guard_flag))
        return false;
    double us = now_us() - start;
    if (req->verbose)
        fprintf(stderr, "%s: read back %.0f bytes in %.0f us (%.0f MB/s)\n", k2s_prog(), bytes,
                us, us > 0 ? bytes / us : 0.0);
    return true;
}

/* The first run gives the results; with --time N, K2S_RUN_WARMUP more untimed runs (the
 * driver's and the caches' first-use costs), then N timed ones. */
#define K2S_RUN_WARMUP 3

static bool run_all(struct run_state *s, struct run_result *res)
{
    if (!submit_and_wait(s) || !read_back(s, res))
        return false;
    unsigned n = s->req->time_runs;
    if (!n)
        return true;
    res->times_us = calloc(n, sizeof *res->times_us);
    if (!res->times_us)
        return false;
    for (unsigned i = 0; i < K2S_RUN_WARMUP; i++)
        if (!submit_and_wait(s))
            return false;
    res->best_us = INFINITY;
    for (unsigned i = 0; i < n; i++) {
        double us;
        if (!timed_run(s, &us))
            return false;
        res->times_us[i] = us;
        if (us < res->best_us)
            res->best_us = us;
    }
    res->ntimes = n;
    res->warmup = K2S_RUN_WARMUP;
    res->gpu_clock = s->gpu_timing;
    res->timed = true;
    return true;
}

static void state_destroy(struct run_state *s)
{
    VkDevice dev = s->h->device;
    if (dev)
        vkDeviceWaitIdle(dev);
    if (s->fence)
        vkDestroyFence(dev, s->fence, NULL);
    if (s->queries)
        vkDestroyQueryPool(dev, s->queries, NULL);
    if (s->cmd_pool)
        vkDestroyCommandPool(dev, s->cmd_pool, NULL);
    if (s->pool)
        vkDestroyDescriptorPool(dev, s->pool, NULL);
    for (unsigned i = 0; i < s->npipelines; i++)
        if (s->pipelines[i])
            vkDestroyPipeline(dev, s->pipelines[i], NULL);
    if (s->module)
        vkDestroyShaderModule(dev, s->module, NULL);
    if (s->layout)
        vkDestroyPipelineLayout(dev, s->layout, NULL);
    for (uint32_t i = 0; s->layouts && i < s->nsets; i++)
        if (s->layouts[i])
            vkDestroyDescriptorSetLayout(dev, s->layouts[i], NULL);
    for (size_t i = 0; s->arg_bufs && i < s->req->nargs; i++)
        if (!s->req->args[i].same_as) /* a shared buffer is its first argument's */
            buf_destroy(s, &s->arg_bufs[i]);
    for (size_t i = 0; s->data_bufs && i < s->req->refl->ndata; i++)
        buf_destroy(s, &s->data_bufs[i]);
    for (size_t i = 0; i < s->npods; i++) {
        buf_destroy(s, &s->pods[i].buf);
        free(s->pods[i].bytes);
    }
    vk_images_destroy(s->h, &s->images);
    free(s->sets);
    free(s->layouts);
    free(s->bindings);
    free(s->pods);
    free(s->push);
    free(s->arg_bufs);
    free(s->data_bufs);
}

bool vk_run_kernel(struct vk_host *h, const struct run_request *req, struct run_result *res)
{
    struct run_state s = {.h = h, .req = req};
    unsigned errors = k2s_error_count();
    memset(res, 0, sizeof *res);
    bool ok = create_arg_buffers(&s) && create_data_buffers(&s) && build_pod_blocks(&s) &&
              build_push(&s) && collect_bindings(&s) && check_resources(&s) && create_layouts(&s) &&
              create_descriptors(&s) && create_pipelines(&s) && create_commands(&s) &&
              record(&s) && run_all(&s, res);
    if (!ok && k2s_error_count() == errors)
        k2s_error("could not run kernel '%s': out of memory", req->kernel->name);
    state_destroy(&s);
    if (!ok)
        run_result_free(res, req->nargs);
    return ok;
}

void run_result_free(struct run_result *res, size_t nargs)
{
    for (size_t i = 0; res->outputs && i < nargs; i++)
        free(res->outputs[i]);
    free(res->outputs);
    res->outputs = NULL;
    free(res->printf_bytes);
    res->printf_bytes = NULL;
    free(res->times_us);
    res->times_us = NULL;
}
