/* Host-side planning that needs no device: matching `--arg` specs to the reflected
 * arguments, choosing the work-group size, and splitting a non-uniform NDRange. */
#ifndef K2S_RUN_PLAN_H
#define K2S_RUN_PLAN_H

#include "argspec.h"
#include "reflection.h"
#include <k2s/k2s.h>

#include <stdbool.h>
#include <stdint.h>

/* One dispatch: a block of equally sized work-groups (docs/runtime-abi.md, non-uniform). */
struct region {
    uint32_t wg[3];           /* work-group size of this region */
    uint32_t groups[3];       /* vkCmdDispatch group counts */
    uint32_t offset[3];       /* RegionOffset: first global id, not counting the offset */
    uint32_t group_offset[3]; /* RegionGroupOffset */
};

struct plan {
    uint64_t global[3], local[3], offset[3];
    unsigned dims;
    bool fixed_wg; /* work-group size baked into the module (reqd or LocalSize) */
    struct region regions[8];
    unsigned nregions;
};

struct ndrange_request {
    uint64_t global[3], local[3], offset[3];
    unsigned global_dims, local_dims, offset_dims; /* 0: not given */
    bool verbose;
};

bool plan_ndrange(struct plan *p, const struct ndrange_request *req, const struct refl_module *r,
                  const struct refl_kernel *k, const k2s_module_entry *entry);

/* Checks every --arg against the kernel's reflection (count, kinds, POD sizes...). */
bool plan_check_args(const struct refl_module *r, const struct refl_kernel *k,
                     const struct k2s_arg *args, size_t nargs);

/* Checks each buffer argument's size against the element size of its OpenCL type (the
 * JSON reflection's elem_size, else the ArrayStride of the module's buffer block when that
 * is a typed array): less than one element is an error. Unless `quiet`, warns (stderr) for
 * a buffer with fewer elements than the NDRange has work-items (see docs/runtime-abi.md). */
bool plan_check_buffer_sizes(const struct plan *p, const struct refl_kernel *k,
                             const k2s_module_info *info, const k2s_module_entry *entry,
                             const struct k2s_arg *args,
                             bool quiet);

/* Label for messages: "argument 2 ('n')" or "argument 2". */
const char *plan_arg_label(const struct refl_kernel *k, uint32_t ordinal);

/* Bytes of POD argument `a` to copy from `spec` (a vec3 POD may be reflected as 12 bytes). */
bool plan_pod_bytes(const struct refl_arg *a, const struct k2s_arg *spec, size_t *n);

#endif
