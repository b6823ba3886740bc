/* Device-local buffers for k2s-run, filled and read back through staging buffers and copy
 * commands (issue 13): kernels then touch only device memory, as a native OpenCL driver's
 * buffers do, and read-back runs at memory-copy speed instead of through uncached mapped
 * device memory. */
#ifndef K2S_RUN_VK_TRANSFER_H
#define K2S_RUN_VK_TRANSFER_H

#include "vk_host.h"

#include <stdbool.h>
#include <stddef.h>

/* The memory type for kernel buffers: device-local (preferably not host-visible), else any
 * allowed type. */
bool vk_device_memory_type(const struct vk_host *h, uint32_t bits, uint32_t *index);

/* Copies `size` bytes of `data` (NULL: zeros) to the start of `dst` and zeroes bytes
 * [size, total); the copy is complete and visible to later shader reads and writes on
 * the queue when this returns. */
bool vk_upload(struct vk_host *h, VkBuffer dst, const void *data, size_t size, size_t total);

/* Copies the first `size` bytes of `src` into `data`; earlier shader writes on the queue
 * must be made available to transfer reads (a barrier at the end of the kernel's commands). */
bool vk_download(struct vk_host *h, VkBuffer src, void *data, size_t size);

#endif
