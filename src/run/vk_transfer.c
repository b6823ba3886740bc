/* Staging buffers and copy commands between host memory and k2s-run's device-local buffers
 * (see vk_transfer.h). A transfer goes through one staging buffer of at most STAGING_CHUNK
 * bytes, a chunk at a time: each chunk is one submission on the kernel's queue, waited for
 * with a fence (host memory the driver must pin costs time per byte, so a large buffer does
 * not get a staging buffer of its own size). The staging buffer lives only for its transfer. */
#include "vk_transfer.h"

#include "argspec.h"

#include <stdint.h>
#include <string.h>

#include <stdlib.h>

#define STAGING_CHUNK ((size_t)32 << 20)

/* K2S_RUN_STAGING_CHUNK=BYTES (a multiple of 4) overrides the chunk size, so that the tests
 * can cross chunk boundaries with small buffers. */
static size_t chunk_size(void)
{
  const char *env = getenv("K2S_RUN_STAGING_CHUNK");
  unsigned long long v = env ? strtoull(env, NULL, 10) : 0;
  return v >= 4 && v % 4 == 0 ? (size_t)v : STAGING_CHUNK;
}

struct staging {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *map;
  bool coherent;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
};

static bool ok(VkResult r, const char *what)
{
  if (r == VK_SUCCESS)
    return true;
  k2s_error("%s failed: %s", what, vk_result_name(r));
  return false;
}

/* The first memory type allowed by `bits` that has all of `want` and none of `avoid`. */
static bool find_type(const struct vk_host *h, uint32_t bits, VkMemoryPropertyFlags want,
                      VkMemoryPropertyFlags avoid, uint32_t *index)
{
  for (uint32_t i = 0; i < h->memory.memoryTypeCount; i++) {
    VkMemoryPropertyFlags f = h->memory.memoryTypes[i].propertyFlags;
    if ((bits & (1u << i)) && (f & want) == want && !(f & avoid)) {
      *index = i;
      return true;
    }
  }
  return false;
}

bool vk_device_memory_type(const struct vk_host *h, uint32_t bits, uint32_t *index)
{
  if (find_type(h, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                index) ||
      find_type(h, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, index) ||
      find_type(h, bits, 0, 0, index))
    return true;
  k2s_error("device has no memory type for buffers");
  return false;
}

/* Host memory the CPU reads fast (cached) for read-back, or writes fast (coherent, not the
 * device's BAR window) for uploads. */
static bool staging_type(const struct vk_host *h, uint32_t bits, bool readback, uint32_t *index,
                         bool *coherent)
{
  const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  const VkMemoryPropertyFlags hc = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  const VkMemoryPropertyFlags dl = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  bool found =
      readback ? find_type(h, bits, hv | cached | hc, dl, index) ||
                     find_type(h, bits, hv | cached, dl, index) ||
                     find_type(h, bits, hv | cached, 0, index)
               : find_type(h, bits, hv | hc, dl, index) || find_type(h, bits, hv | hc, 0, index);
  if (!found && !find_type(h, bits, hv, 0, index)) {
    k2s_error("device has no host-visible memory type for staging buffers");
    return false;
  }
  *coherent = h->memory.memoryTypes[*index].propertyFlags & hc;
  return true;
}

static void staging_free(struct vk_host *h, struct staging *st)
{
  if (st->fence)
    vkDestroyFence(h->device, st->fence, NULL);
  if (st->pool)
    vkDestroyCommandPool(h->device, st->pool, NULL);
  if (st->memory)
    vkFreeMemory(h->device, st->memory, NULL); /* unmaps */
  if (st->buffer)
    vkDestroyBuffer(h->device, st->buffer, NULL);
}

static bool staging_create(struct vk_host *h, size_t size, bool readback, struct staging *st)
{
  memset(st, 0, sizeof *st);
  VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size ? size : 1,
      .usage = readback ? VK_BUFFER_USAGE_TRANSFER_DST_BIT : VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  if (!ok(vkCreateBuffer(h->device, &info, NULL, &st->buffer), "vkCreateBuffer (staging)"))
    return false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(h->device, st->buffer, &req);
  VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size};
  VkCommandPoolCreateInfo pinfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                   .queueFamilyIndex = h->queue_family};
  VkCommandBufferAllocateInfo ainfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandBufferCount = 1,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY};
  VkFenceCreateInfo finfo = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (!staging_type(h, req.memoryTypeBits, readback, &alloc.memoryTypeIndex, &st->coherent) ||
      !ok(vkAllocateMemory(h->device, &alloc, NULL, &st->memory), "vkAllocateMemory (staging)") ||
      !ok(vkBindBufferMemory(h->device, st->buffer, st->memory, 0), "vkBindBufferMemory") ||
      !ok(vkMapMemory(h->device, st->memory, 0, VK_WHOLE_SIZE, 0, &st->map), "vkMapMemory") ||
      !ok(vkCreateCommandPool(h->device, &pinfo, NULL, &st->pool), "vkCreateCommandPool"))
    return false;
  ainfo.commandPool = st->pool;
  return ok(vkAllocateCommandBuffers(h->device, &ainfo, &st->cmd), "vkAllocateCommandBuffers") &&
         ok(vkCreateFence(h->device, &finfo, NULL, &st->fence), "vkCreateFence");
}

/* Records one copy and a barrier making its writes visible to `dst_stage`/`dst_access`,
 * submits it and waits. */
static bool copy_and_wait(struct vk_host *h, struct staging *st, VkBuffer src, VkBuffer dst,
                          const VkBufferCopy *region, VkPipelineStageFlags dst_stage,
                          VkAccessFlags dst_access)
{
  VkCommandBufferBeginInfo binfo = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  if (!ok(vkResetCommandPool(h->device, st->pool, 0), "vkResetCommandPool") ||
      !ok(vkResetFences(h->device, 1, &st->fence), "vkResetFences") ||
      !ok(vkBeginCommandBuffer(st->cmd, &binfo), "vkBeginCommandBuffer"))
    return false;
  vkCmdCopyBuffer(st->cmd, src, dst, 1, region);
  VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                             .dstAccessMask = dst_access};
  vkCmdPipelineBarrier(st->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, dst_stage, 0, 1, &barrier, 0, NULL,
                       0, NULL);
  if (!ok(vkEndCommandBuffer(st->cmd), "vkEndCommandBuffer"))
    return false;
  VkSubmitInfo info = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &st->cmd};
  return ok(vkQueueSubmit(h->queue, 1, &info, st->fence), "vkQueueSubmit (copy)") &&
         ok(vkWaitForFences(h->device, 1, &st->fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
}

bool vk_upload(struct vk_host *h, VkBuffer dst, const void *data, size_t size, size_t total)
{
  struct staging st;
  size_t chunk = total < chunk_size() ? total : chunk_size();
  bool done = staging_create(h, chunk, false, &st);
  if (!data)
    size = 0;
  for (size_t off = 0; done && off < total; off += chunk) {
    size_t n = total - off < chunk ? total - off : chunk;
    size_t have = off < size ? (size - off < n ? size - off : n) : 0;
    if (have)
      memcpy(st.map, (const unsigned char *)data + off, have);
    memset((unsigned char *)st.map + have, 0, n - have);
    VkMappedMemoryRange r = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = st.memory, .size = VK_WHOLE_SIZE};
    VkBufferCopy region = {0, off, n};
    done = (st.coherent || ok(vkFlushMappedMemoryRanges(h->device, 1, &r), "flush")) &&
           copy_and_wait(h, &st, st.buffer, dst, &region, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                             VK_ACCESS_UNIFORM_READ_BIT);
  }
  staging_free(h, &st);
  return done;
}

bool vk_download(struct vk_host *h, VkBuffer src, void *data, size_t size)
{
  struct staging st;
  size_t chunk = size < chunk_size() ? (size ? size : 1) : chunk_size();
  bool done = staging_create(h, chunk, true, &st);
  for (size_t off = 0; done && off < size; off += chunk) {
    size_t n = size - off < chunk ? size - off : chunk;
    VkBufferCopy region = {off, 0, n};
    VkMappedMemoryRange r = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = st.memory, .size = VK_WHOLE_SIZE};
    done = copy_and_wait(h, &st, src, st.buffer, &region, VK_PIPELINE_STAGE_HOST_BIT,
                         VK_ACCESS_HOST_READ_BIT) &&
           (st.coherent || ok(vkInvalidateMappedMemoryRanges(h->device, 1, &r), "invalidate"));
    if (done)
      memcpy((unsigned char *)data + off, st.map, n);
  }
  staging_free(h, &st);
  return done;
}
