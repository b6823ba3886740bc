/* k2s-run: runs one kernel of a k2s-translated Vulkan compute module and prints its
 * buffer arguments, following docs/runtime-abi.md. */
#include "argspec.h"
#include "guard.h"
#include "loop_guard.h"
#include "module_check.h"
#include "plan.h"
#include "present.h"
#include "printf_out.h"
#include "reflection.h"
#include "refl_cross.h"
#include <k2s/k2s.h>
#include "vk_host.h"
#include "vk_run.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: k2s-run SHADER.spv --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
    "               [--offset X[,Y[,Z]]] --arg SPEC ... [--reflect FILE.json] [--time N]\n"
    "               [--device N|NAME] [--dump-dir DIR] [--timeout SECONDS] [--validate]\n"
    "               [--ignore-float-controls] [--no-spirv-val] [--no-size-warnings]\n"
    "               [--no-robust-access]\n"
    "               [--verbose] [--png N=FILE] [--no-reflect-check]\n"
    "               [--print=N[,N...]|none] [--output DIR]\n"
    "       k2s-run --list-devices | --version\n"
    "SPEC (in kernel argument order):\n"
    "  buffer:TYPE:COUNT[=INIT]  INIT: zeros, fill:V, iota, rand:SEED[:LO:HI], file:PATH\n"
    "  pod:TYPE=V[,V...]         pod:struct=HEX for raw struct bytes\n"
    "  local:BYTES               same:K  the buffer of earlier buffer argument K again\n"
    "  image2d:ORDER:TYPE:W,H[=INIT] (also image1d, image1d_buffer, image1d_array,\n"
    "  image2d_array, image3d), sampler:normalized|unnormalized,ADDRESS,nearest|linear\n"
    "--png N=FILE writes 2-D image argument N after the run as an RGBA PNG.\n"
    "--print=2,3 prints only those arguments (default: every buffer and image).\n"
    "--output DIR writes each of them as DIR/argN.npy (NumPy, typed) instead of text.\n"
    "TYPE: char uchar short ushort int uint long ulong half float double, and vectors\n"
    "      such as float4 or int2 (a 3-vector occupies 4 elements).\n"
    "Prints one line 'arg N: v0 v1 ...' per buffer argument (see corpus/FORMAT.md).\n";

struct cli {
    const char *input, *kernel, *global, *local, *offset, *reflect, *time, *device;
    const char *dump_dir, *timeout;
    const char *print, *output; /* present.c */
    bool version;
    const char **specs;
    size_t nspecs;
    const char **pngs;
    size_t npngs;
    bool list_devices, validate, verbose, help, ignore_float_controls, no_spirv_val;
    bool no_size_warnings;
    bool no_robust_access; /* robustBufferAccess off: timing as OpenCL runs (no bounds checks) */
    bool no_reflect_check; /* trust --reflect over the embedded reflection (refl_cross.c) */
};

static bool parse_cli(int argc, char **argv, struct cli *c)
{
    const struct k2s_option opts[] = {
        {"--kernel", &c->kernel, NULL, NULL, NULL},
        {"--global", &c->global, NULL, NULL, NULL},
        {"--local", &c->local, NULL, NULL, NULL},
        {"--offset", &c->offset, NULL, NULL, NULL},
        {"--arg", NULL, &c->specs, &c->nspecs, NULL},
        {"--png", NULL, &c->pngs, &c->npngs, NULL},
        {"--reflect", &c->reflect, NULL, NULL, NULL},
        {"--time", &c->time, NULL, NULL, NULL},
        {"--device", &c->device, NULL, NULL, NULL},
        {"--dump-dir", &c->dump_dir, NULL, NULL, NULL},
        {"--timeout", &c->timeout, NULL, NULL, NULL},
        {"--list-devices", NULL, NULL, NULL, &c->list_devices},
        {"--validate", NULL, NULL, NULL, &c->validate},
        {"--ignore-float-controls", NULL, NULL, NULL, &c->ignore_float_controls},
        {"--no-spirv-val", NULL, NULL, NULL, &c->no_spirv_val},
        {"--no-size-warnings", NULL, NULL, NULL, &c->no_size_warnings},
        {"--no-robust-access", NULL, NULL, NULL, &c->no_robust_access},
        {"--no-reflect-check", NULL, NULL, NULL, &c->no_reflect_check},
        {"--print", &c->print, NULL, NULL, NULL},
        {"--output", &c->output, NULL, NULL, NULL},
        {"--version", NULL, NULL, NULL, &c->version},
        {"--verbose", NULL, NULL, NULL, &c->verbose},
        {"-v", NULL, NULL, NULL, &c->verbose},
        {"--help", NULL, NULL, NULL, &c->help},
        {"-h", NULL, NULL, NULL, &c->help},
    };
    return k2s_parse_cli(argc, argv, opts, sizeof opts / sizeof opts[0], &c->input);
}

/* Everything main needs to release, whatever step failed. */
struct session {
    struct cli cli;
    uint32_t *words; /* the module as read from the file */
    size_t nwords;
    k2s_module_info *info; /* its facts, from the library's reader */
    struct refl_module refl;
    struct k2s_arg *args;
    struct present present;
    struct vk_host host;
    struct run_result result;
    uint32_t *code; /* the words given to the driver (host order, maybe stripped) */
    struct loop_guard loop_guard;
};

static bool parse_number(const char *what, const char *text, double min, double max, double *out)
{
    char *end;
    *out = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || !(*out >= min && *out <= max)) {
        k2s_error("%s: expected a number in [%g, %g], got '%s'", what, min, max, text);
        return false;
    }
    return true;
}

static bool load_module(struct session *s)
{
    size_t size;
    unsigned char *bytes = k2s_read_file(s->cli.input, &size);
    if (!bytes)
        return false;
    if (size % 4 != 0 || size < 20) {
        k2s_error("'%s' is not a SPIR-V module: its size, %zu bytes, is not a multiple of 4 "
                  "of at least 20", s->cli.input, size);
        free(bytes);
        return false;
    }
    s->words = (uint32_t *)bytes; /* malloc'd: aligned for any type */
    s->nwords = size / 4;
    if (k2s_module_info_read(s->words, s->nwords, &s->info) != K2S_OK) {
        k2s_error("'%s' is not a SPIR-V module k2s-run can read: %s", s->cli.input,
                  s->info && s->info->error ? s->info->error : "out of memory");
        return false;
    }
    if (k2s_module_info_has_capability(s->info, SpvCapabilityKernel)) {
        k2s_error("'%s' is an OpenCL (Kernel capability) module: translate it with k2s first",
                  s->cli.input);
        return false;
    }
    if (s->info->foreign_import) {
        k2s_error("the module imports the extended instruction set '%s', which Vulkan does "
                  "not accept (the translator left it in)", s->info->foreign_import);
        return false;
    }
    bool ok;
    if (s->cli.reflect)
        ok = refl_from_json(s->cli.reflect, &s->refl) &&
             (s->cli.no_reflect_check ||
              refl_cross_check(s->info, s->words, s->nwords, &s->refl, s->cli.reflect));
    else
        ok = refl_from_spirv(s->words, s->nwords, &s->refl, s->cli.verbose);
    return ok && loop_guard_bind(s->info, &s->refl, &s->loop_guard);
}

static void list_kernels(const struct refl_module *r)
{
    fprintf(stderr, "%s: the module's kernels:", k2s_prog());
    for (size_t i = 0; i < r->nkernels; i++)
        fprintf(stderr, " %s", r->kernels[i].name);
    fputc('\n', stderr);
}

static const struct refl_kernel *find_kernel(const struct session *s)
{
    const struct refl_module *r = &s->refl;
    if (!s->cli.kernel) {
        if (r->nkernels == 1)
            return &r->kernels[0];
        k2s_error("--kernel NAME is required: the module has %zu kernels", r->nkernels);
        list_kernels(r);
        return NULL;
    }
    for (size_t i = 0; i < r->nkernels; i++)
        if (strcmp(r->kernels[i].name, s->cli.kernel) == 0)
            return &r->kernels[i];
    k2s_error("kernel '%s' is not in the module", s->cli.kernel);
    list_kernels(r);
    return NULL;
}

/* The reflection names a function id (embedded) or only a name (JSON). */
static const k2s_module_entry *find_entry(const struct session *s, const struct refl_kernel *k)
{
    for (size_t i = 0; i < s->info->n_entries; i++) {
        const k2s_module_entry *e = &s->info->entries[i];
        bool match = k->func ? e->function == k->func : strcmp(e->name, k->name) == 0;
        if (match && e->execution_model == SpvExecutionModelGLCompute)
            return e;
    }
    k2s_error("the module has no GLCompute entry point for kernel '%s'", k->name);
    return NULL;
}

static bool parse_ndrange(const struct cli *c, struct ndrange_request *nd)
{
    memset(nd, 0, sizeof *nd);
    nd->verbose = c->verbose;
    if (!c->global) {
        k2s_error("--global X[,Y[,Z]] is required");
        return false;
    }
    return k2s_parse_ndrange("--global", c->global, 1, nd->global, &nd->global_dims) &&
           (!c->local || k2s_parse_ndrange("--local", c->local, 1, nd->local, &nd->local_dims)) &&
           (!c->offset ||
            k2s_parse_ndrange("--offset", c->offset, 0, nd->offset, &nd->offset_dims));
}

static bool needs_buffer_address(const struct refl_module *r, const struct refl_kernel *k)
{
    for (size_t i = 0; i < k->nargs; i++)
        if (k->args[i].kind == RA_POINTER_PUSH || k->args[i].kind == RA_POINTER_UNIFORM)
            return true;
    for (size_t i = 0; i < r->ndata; i++)
        if (r->data[i].kind == RD_POINTER_PUSH)
            return true;
    return r->nrelocs > 0;
}

static bool execute(struct session *s, const struct refl_kernel *k,
                    const k2s_module_entry *entry, const struct plan *plan)
{
    struct cli *c = &s->cli;
    double runs = 0, timeout = 60;
    if ((c->time && !parse_number("--time", c->time, 1, 1e6, &runs)) ||
        (c->timeout && !parse_number("--timeout", c->timeout, 0.001, 1e6, &timeout)))
        return false;
    struct vk_options vo = {c->device, c->validate, c->verbose, c->ignore_float_controls,
                            c->no_robust_access};
    if (!vk_host_create(&s->host, &vo, s->info, needs_buffer_address(&s->refl, k)))
        return false;
    size_t words;
    if (k2s_module_words_for_driver(s->info, !s->host.keep_nonsemantic, &s->code, &words) !=
            K2S_OK ||
        !s->code) {
        k2s_error("out of memory");
        return false;
    }
    const uint32_t *code = s->code;
    if (!c->no_spirv_val && !module_check(code, words, s->host.api_version, s->host.spirv_1_4,
                                             s->host.scalar_block_layout))
        return false;
    struct run_request req = {&s->refl, k, entry->name, s->info, entry, code,
                              words, s->args, c->nspecs, plan, (unsigned)runs, timeout,
                              c->verbose, s->loop_guard.data_index};
    /* printf output first, as an OpenCL host's stream has it when the kernel is done;
     * nothing at all when a loop was cut (the results are not to be trusted). */
    if (!vk_run_kernel(&s->host, &req, &s->result) ||
        !loop_guard_check(&s->loop_guard, s->result.loop_guard_flag,
                          s->host.props.deviceName, s->info->has_loops) ||
        (s->result.printf_bytes &&
         !k2s_print_printf_buffer(&s->refl, s->result.printf_bytes, s->result.printf_size,
                                  stdout)) ||
        !present_outputs(&s->present, s->args, c->nspecs, s->result.outputs, c->dump_dir) ||
        !k2s_write_pngs(c->pngs, c->npngs, s->args, c->nspecs, s->result.outputs))
        return false;
    return !s->result.timed ||
           k2s_report_times(stderr, s->result.times_us, s->result.ntimes, s->result.warmup,
                            s->result.gpu_clock ? "gpu" : "host");
}

static bool run(struct session *s)
{
    struct ndrange_request nd;
    struct plan plan;
    if (!load_module(s))
        return false;
    const struct refl_kernel *k = find_kernel(s);
    const k2s_module_entry *entry = k ? find_entry(s, k) : NULL;
    if (!entry || !parse_ndrange(&s->cli, &nd) ||
        !k2s_parse_args(s->cli.specs, s->cli.nspecs, &s->args) ||
        !present_parse(s->cli.print, s->cli.output, s->args, s->cli.nspecs, &s->present) ||
        !plan_check_args(&s->refl, k, s->args, s->cli.nspecs) ||
        !plan_ndrange(&plan, &nd, &s->refl, k, entry) ||
        !plan_check_buffer_sizes(&plan, k, s->info, entry, s->args,
                                 s->cli.no_size_warnings))
        return false;
    if (s->cli.verbose)
        fprintf(stderr, "%s: %u dispatch region%s\n", k2s_prog(), plan.nregions,
                plan.nregions == 1 ? "" : "s");
    return execute(s, k, entry, &plan);
}

static void session_free(struct session *s)
{
    run_result_free(&s->result, s->cli.nspecs);
    vk_host_destroy(&s->host);
    k2s_free_args(s->args, s->cli.nspecs);
    present_free(&s->present);
    refl_free(&s->refl);
    k2s_module_info_free(s->info);
    free(s->words);
    free(s->code);
    free(s->cli.specs);
}

int main(int argc, char **argv)
{
    k2s_set_prog("k2s-run");
    struct session s;
    memset(&s, 0, sizeof s);
    if (!parse_cli(argc, argv, &s.cli)) {
        free(s.cli.specs);
        return 2;
    }
    if (s.cli.help) {
        fputs(usage, stdout);
        free(s.cli.specs);
        return 0;
    }
    if (s.cli.version) {
        present_version(stdout);
        free(s.cli.specs);
        return 0;
    }
    if (s.cli.list_devices) {
        struct vk_options vo = {s.cli.device, s.cli.validate, s.cli.verbose, false, false};
        free(s.cli.specs);
        return vk_list_devices(&vo) ? 0 : 1;
    }
    if (!s.cli.input) {
        k2s_error("no SHADER.spv given (see --help)");
        free(s.cli.specs);
        return 2;
    }
    k2s_run_guard(); /* a crash in the driver becomes a message (guard.c) */
    bool ok = run(&s);
    session_free(&s);
    if (ok && vk_validation_errors()) {
        k2s_error("the validation layer reported %u error%s", vk_validation_errors(),
                  vk_validation_errors() == 1 ? "" : "s");
        ok = false;
    }
    return ok ? 0 : 1;
}
