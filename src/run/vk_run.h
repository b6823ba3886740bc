/* Runs one kernel of a translated module on a prepared device (docs/runtime-abi.md). */
#ifndef K2S_RUN_VK_RUN_H
#define K2S_RUN_VK_RUN_H

#include "argspec.h"
#include "plan.h"
#include "reflection.h"
#include "vk_host.h"

struct run_request {
    const struct refl_module *refl;
    const struct refl_kernel *kernel;
    const char *entry;      /* OpEntryPoint name */
    const k2s_module_info *info; /* the module's facts (for interface checks) */
    const k2s_module_entry *entry_info;
    const uint32_t *code;   /* module words as given to vkCreateShaderModule */
    size_t code_words;
    const struct k2s_arg *args;
    size_t nargs;
    const struct plan *plan;
    unsigned time_runs;     /* 0: no timing */
    double timeout_s;
    bool verbose;
    long loop_guard_data; /* refl->data index of the loop-guard flag buffer, -1: none */
};

struct run_result {
    unsigned char **outputs; /* per argument: read-back bytes of buffers, else NULL */
    unsigned char *printf_bytes; /* the printf buffer after the first run, NULL if none */
    size_t printf_size;
    bool timed;
    double best_us;
    double *times_us; /* the N timed runs of --time N, in run order */
    unsigned ntimes, warmup;
    bool gpu_clock;   /* times from GPU timestamps (else the host's clock) */
    uint32_t loop_guard_flag; /* the loop guard's word after the first run (loop_guard.h) */
};

bool vk_run_kernel(struct vk_host *h, const struct run_request *req, struct run_result *res);
void run_result_free(struct run_result *res, size_t nargs);

#endif
