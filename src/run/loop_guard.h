/* The loop guard of k2s --loop-guard (passes/loop_guard.c): a one-word storage buffer the
 * module sets when the driver ended a loop before its exit condition. k2s-run binds it,
 * reads it after the run and refuses to report results when it is set. */
#ifndef K2S_RUN_LOOP_GUARD_H
#define K2S_RUN_LOOP_GUARD_H

#include "reflection.h"
#include <k2s/k2s.h>

#include <stdbool.h>
#include <stdint.h>

struct loop_guard {
    bool present;
    uint32_t set, binding;
    long data_index; /* its entry in refl_module.data; -1 without a guard */
};

/* Finds the guard buffer (the StorageBuffer variable named "k2s.loop_guard") and adds it
 * to the reflection's module buffers, zero-filled. A module without one gets present =
 * false; false only for a malformed guard or out of memory. */
bool loop_guard_bind(const k2s_module_info *info, struct refl_module *r, struct loop_guard *g);

/* After the run: false, with the error, when a loop was cut (flag set). Without a guard,
 * on lavapipe (device_name "llvmpipe ..."), a module with loops gets a warning once. */
bool loop_guard_check(const struct loop_guard *g, uint32_t flag, const char *device_name,
                      bool module_has_loops);

#endif
