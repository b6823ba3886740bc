/* k2s-clref: the OpenCL reference host. Builds an OpenCL C kernel with the platform's
 * compiler (PoCL here), runs it with the same argument language as k2s-run and prints the
 * buffer arguments in exactly the same format, so the two outputs can be diffed.
 *
 * Exit status: 0 success, 1 error, 2 usage error, 3 the OpenCL implementation cannot run
 * this case (e.g. a non-uniform NDRange without device support): no reference exists. */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "argspec.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_UNSUPPORTED 3

static const char usage[] =
    "usage: k2s-clref KERNEL.cl --kernel NAME --global X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
    "                 [--offset X[,Y[,Z]]] --arg SPEC ... [--build-options \"...\"]\n"
    "                 [--platform N|NAME] [--device N] [--dump-dir DIR] [--time N] [--verbose]\n"
    "Same --arg language and output as k2s-run (see corpus/FORMAT.md).\n"
    "--time N: after the run whose results are printed, 3 untimed and N timed runs, timed\n"
    "by OpenCL event profiling (the same time: lines as k2s-run).\n"
    "Exit status 3: this OpenCL implementation cannot run the case.\n";

struct cli {
    const char *input, *kernel, *global, *local, *offset, *build_options, *platform, *device;
    const char *dump_dir, *time;
    const char **specs;
    size_t nspecs;
    bool verbose, help;
};

struct session {
    struct cli cli;
    struct k2s_arg *args;
    char *source;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
    cl_mem *mems;
    unsigned char **outputs;
    unsigned time_runs; /* --time N */
    size_t nd_dims, nd_global[3], nd_local[3], nd_offset[3];
    int status; /* exit status when a step fails */
};

static const char *cl_error_name(cl_int e)
{
    switch (e) {
#define CASE(x) \
    case x: return #x
        CASE(CL_DEVICE_NOT_FOUND);
        CASE(CL_DEVICE_NOT_AVAILABLE);
        CASE(CL_COMPILER_NOT_AVAILABLE);
        CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        CASE(CL_OUT_OF_RESOURCES);
        CASE(CL_OUT_OF_HOST_MEMORY);
        CASE(CL_BUILD_PROGRAM_FAILURE);
        CASE(CL_INVALID_VALUE);
        CASE(CL_INVALID_DEVICE);
        CASE(CL_INVALID_PLATFORM);
        CASE(CL_INVALID_CONTEXT);
        CASE(CL_INVALID_BUILD_OPTIONS);
        CASE(CL_INVALID_PROGRAM_EXECUTABLE);
        CASE(CL_INVALID_KERNEL_NAME);
        CASE(CL_INVALID_KERNEL);
        CASE(CL_INVALID_ARG_INDEX);
        CASE(CL_INVALID_ARG_VALUE);
        CASE(CL_INVALID_ARG_SIZE);
        CASE(CL_INVALID_KERNEL_ARGS);
        CASE(CL_INVALID_WORK_DIMENSION);
        CASE(CL_INVALID_WORK_GROUP_SIZE);
        CASE(CL_INVALID_WORK_ITEM_SIZE);
        CASE(CL_INVALID_GLOBAL_OFFSET);
        CASE(CL_INVALID_BUFFER_SIZE);
        CASE(CL_INVALID_GLOBAL_WORK_SIZE);
        CASE(CL_INVALID_MEM_OBJECT);
        CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
#undef CASE
    default: return "OpenCL error";
    }
}

static bool cl_ok(struct session *s, cl_int e, const char *what)
{
    if (e == CL_SUCCESS)
        return true;
    k2s_error("%s failed: %s (%d)", what, cl_error_name(e), e);
    s->status = 1;
    return false;
}

static bool parse_cli(int argc, char **argv, struct cli *c)
{
    const struct k2s_option opts[] = {
        {"--kernel", &c->kernel, NULL, NULL, NULL},
        {"--global", &c->global, NULL, NULL, NULL},
        {"--local", &c->local, NULL, NULL, NULL},
        {"--offset", &c->offset, NULL, NULL, NULL},
        {"--arg", NULL, &c->specs, &c->nspecs, NULL},
        {"--build-options", &c->build_options, NULL, NULL, NULL},
        {"--platform", &c->platform, NULL, NULL, NULL},
        {"--device", &c->device, NULL, NULL, NULL},
        {"--dump-dir", &c->dump_dir, NULL, NULL, NULL},
        {"--time", &c->time, NULL, NULL, NULL},
        {"--verbose", NULL, NULL, NULL, &c->verbose},
        {"-v", NULL, NULL, NULL, &c->verbose},
        {"--help", NULL, NULL, NULL, &c->help},
        {"-h", NULL, NULL, NULL, &c->help},
    };
    return k2s_parse_cli(argc, argv, opts, sizeof opts / sizeof opts[0], &c->input);
}

static bool parse_index(const char *what, const char *text, cl_uint count, cl_uint *out)
{
    char *end;
    unsigned long v = text ? strtoul(text, &end, 10) : 0;
    if (text && (*text == '\0' || *end != '\0')) {
        k2s_error("%s: expected an index, got '%s'", what, text);
        return false;
    }
    if (v >= count) {
        k2s_error("%s %lu: out of range (%u available)", what, v, count);
        return false;
    }
    *out = (cl_uint)v;
    return true;
}

/* ---- setup -------------------------------------------------------------------------------- */

/* --platform N, or a name: the first platform whose name or vendor contains it (a machine
 * may have several ICDs, e.g. a CPU OpenCL beside the GPU's, in no fixed order). */
static bool pick_platform(const char *want, const cl_platform_id *platforms, cl_uint n,
                          cl_uint *index)
{
    if (!want || (*want >= '0' && *want <= '9'))
        return parse_index("--platform", want, n, index);
    for (cl_uint i = 0; i < n; i++) {
        char name[256] = "", vendor[256] = "";
        clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
        if (strstr(name, want) || strstr(vendor, want)) {
            *index = i;
            return true;
        }
    }
    k2s_error("--platform %s: no OpenCL platform's name or vendor contains it", want);
    return false;
}

static bool pick_device(struct session *s)
{
    cl_platform_id platforms[16], platform;
    cl_device_id devices[16];
    cl_uint np = 0, nd = 0, pi, di;
    cl_int e = clGetPlatformIDs(16, platforms, &np);
    if (e != CL_SUCCESS || np == 0) {
        k2s_error("no OpenCL platform found (is an ICD such as PoCL installed?)");
        return false;
    }
    if (!pick_platform(s->cli.platform, platforms, np < 16 ? np : 16, &pi))
        return false;
    platform = platforms[pi];
    e = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, devices, &nd);
    if (e != CL_SUCCESS || nd == 0) {
        k2s_error("OpenCL platform %u has no devices", pi);
        return false;
    }
    if (!parse_index("--device", s->cli.device, nd < 16 ? nd : 16, &di))
        return false;
    s->device = devices[di];
    if (s->cli.verbose) {
        char name[256] = "?";
        clGetDeviceInfo(s->device, CL_DEVICE_NAME, sizeof name, name, NULL);
        fprintf(stderr, "k2s-clref: using platform %u device %u: %s\n", pi, di, name);
    }
    return true;
}

static void print_build_log(struct session *s)
{
    size_t size = 0;
    clGetProgramBuildInfo(s->program, s->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = malloc(size + 1);
    if (log && clGetProgramBuildInfo(s->program, s->device, CL_PROGRAM_BUILD_LOG, size, log,
                                     NULL) == CL_SUCCESS) {
        log[size] = '\0';
        fprintf(stderr, "%s\n", log);
    }
    free(log);
}

static bool build(struct session *s)
{
    size_t size;
    unsigned char *text = k2s_read_file(s->cli.input, &size);
    if (!text)
        return false;
    s->source = realloc(text, size + 1);
    if (!s->source) {
        free(text);
        return false;
    }
    s->source[size] = '\0';
    cl_int e;
    s->context = clCreateContext(NULL, 1, &s->device, NULL, NULL, &e);
    if (!cl_ok(s, e, "clCreateContext"))
        return false;
    s->queue = clCreateCommandQueue(s->context, s->device,
                                    s->time_runs ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
    if (!cl_ok(s, e, "clCreateCommandQueue"))
        return false;
    const char *src = s->source;
    s->program = clCreateProgramWithSource(s->context, 1, &src, NULL, &e);
    if (!cl_ok(s, e, "clCreateProgramWithSource"))
        return false;
    const char *options = s->cli.build_options ? s->cli.build_options : "";
    e = clBuildProgram(s->program, 1, &s->device, options, NULL, NULL);
    if (e != CL_SUCCESS) {
        k2s_error("cannot build '%s' with options '%s': %s", s->cli.input, options,
                  cl_error_name(e));
        print_build_log(s);
        return false;
    }
    s->kernel = clCreateKernel(s->program, s->cli.kernel, &e);
    if (e == CL_INVALID_KERNEL_NAME) {
        k2s_error("kernel '%s' is not in '%s'", s->cli.kernel, s->cli.input);
        return false;
    }
    return cl_ok(s, e, "clCreateKernel");
}

/* ---- arguments ---------------------------------------------------------------------------- */

/* The image's region in clEnqueue{Read,Write}Image terms. */
static void image_region(const struct k2s_image *im, size_t region[3])
{
    region[0] = im->width;
    region[1] = im->dim == K2S_IMG_1D_ARRAY ? im->layers : im->height;
    region[2] = im->dim == K2S_IMG_2D_ARRAY ? im->layers : im->depth;
}

static bool create_image(struct session *s, cl_uint i)
{
    const struct k2s_arg *a = &s->args[i];
    const struct k2s_image *im = &a->image;
    static const cl_mem_object_type types[] = {
        [K2S_IMG_1D] = CL_MEM_OBJECT_IMAGE1D,         [K2S_IMG_1D_BUFFER] = CL_MEM_OBJECT_IMAGE1D_BUFFER,
        [K2S_IMG_1D_ARRAY] = CL_MEM_OBJECT_IMAGE1D_ARRAY, [K2S_IMG_2D] = CL_MEM_OBJECT_IMAGE2D,
        [K2S_IMG_2D_ARRAY] = CL_MEM_OBJECT_IMAGE2D_ARRAY, [K2S_IMG_3D] = CL_MEM_OBJECT_IMAGE3D,
    };
    cl_image_format fmt = {k2s_image_cl_order(im->order), k2s_image_cl_type(im->type)};
    cl_image_desc desc = {0};
    desc.image_type = types[im->dim];
    desc.image_width = im->width;
    desc.image_height = im->height;
    desc.image_depth = im->depth;
    desc.image_array_size = im->layers;
    cl_int e;
    if (im->dim == K2S_IMG_1D_BUFFER) {
        cl_mem buf = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->size,
                                    a->bytes, &e);
        if (!cl_ok(s, e, "clCreateBuffer"))
            return false;
        desc.buffer = buf;
        s->mems[i] = clCreateImage(s->context, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &e);
    } else {
        s->mems[i] = clCreateImage(s->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt,
                                   &desc, a->bytes, &e);
    }
    if (e == CL_IMAGE_FORMAT_NOT_SUPPORTED || e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) {
        k2s_error("argument %u ('%s'): the OpenCL device cannot do this image format", i, a->text);
        return false;
    }
    return cl_ok(s, e, "clCreateImage");
}

static bool set_arg(struct session *s, cl_uint i)
{
    const struct k2s_arg *a = &s->args[i];
    cl_int e;
    if (a->kind == K2S_ARG_BUFFER && a->same_as) {
        s->mems[i] = s->mems[a->same_as - 1]; /* one buffer passed to both arguments */
        e = clRetainMemObject(s->mems[i]);
        if (!cl_ok(s, e, "clRetainMemObject"))
            return false;
        e = clSetKernelArg(s->kernel, i, sizeof(cl_mem), &s->mems[i]);
    } else if (a->kind == K2S_ARG_BUFFER) {
        s->mems[i] = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->size,
                                    a->bytes, &e);
        if (!cl_ok(s, e, "clCreateBuffer"))
            return false;
        e = clSetKernelArg(s->kernel, i, sizeof(cl_mem), &s->mems[i]);
    } else if (a->kind == K2S_ARG_IMAGE) {
        if (!create_image(s, i))
            return false;
        e = clSetKernelArg(s->kernel, i, sizeof(cl_mem), &s->mems[i]);
    } else if (a->kind == K2S_ARG_SAMPLER) {
        static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                                   CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                                   CL_ADDRESS_MIRRORED_REPEAT};
        cl_sampler smp = clCreateSampler(s->context, a->sampler.normalized,
                                         modes[a->sampler.address],
                                         a->sampler.linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST,
                                         &e);
        if (!cl_ok(s, e, "clCreateSampler"))
            return false;
        e = clSetKernelArg(s->kernel, i, sizeof smp, &smp);
    } else if (a->kind == K2S_ARG_POD) {
        e = clSetKernelArg(s->kernel, i, a->size, a->bytes);
    } else {
        e = clSetKernelArg(s->kernel, i, a->size, NULL);
    }
    if (e != CL_SUCCESS) {
        k2s_error("argument %u ('%s') does not suit the kernel: %s", i, a->text,
                  cl_error_name(e));
        return false;
    }
    return true;
}

static bool set_args(struct session *s)
{
    cl_uint n = 0;
    if (!cl_ok(s, clGetKernelInfo(s->kernel, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL),
               "clGetKernelInfo"))
        return false;
    if (n != s->cli.nspecs) {
        k2s_error("kernel '%s' takes %u argument%s, but %zu --arg %s given", s->cli.kernel, n,
                  n == 1 ? "" : "s", s->cli.nspecs, s->cli.nspecs == 1 ? "was" : "were");
        return false;
    }
    s->mems = calloc(n ? n : 1, sizeof *s->mems);
    if (!s->mems)
        return false;
    for (cl_uint i = 0; i < n; i++)
        if (!set_arg(s, i))
            return false;
    return true;
}

/* ---- NDRange -------------------------------------------------------------------------------- */

static bool nonuniform_supported(struct session *s)
{
    char version[128] = "";
    clGetDeviceInfo(s->device, CL_DEVICE_VERSION, sizeof version, version, NULL);
    int major = 0, minor = 0;
    if (sscanf(version, "OpenCL %d.%d", &major, &minor) != 2 || major < 2)
        return false;
    if (major == 2)
        return true;
    cl_bool support = CL_FALSE;
    clGetDeviceInfo(s->device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof support,
                    &support, NULL);
    return support == CL_TRUE;
}

/* --local, else the kernel's reqd_work_group_size, else k2s-run's default rule, so both
 * hosts use the same size when a spec leaves it out. */
static bool choose_local(struct session *s, const uint64_t global[3], unsigned dims,
                         uint64_t local[3])
{
    unsigned ldims;
    if (s->cli.local) {
        if (!k2s_parse_ndrange("--local", s->cli.local, 1, local, &ldims))
            return false;
        if (ldims > dims) {
            k2s_error("--local/--offset have more dimensions than --global");
            return false;
        }
        return true;
    }
    size_t reqd[3] = {0, 0, 0};
    clGetKernelWorkGroupInfo(s->kernel, s->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                             sizeof reqd, reqd, NULL);
    if (reqd[0] != 0) {
        for (int d = 0; d < 3; d++)
            local[d] = reqd[d];
        return true;
    }
    k2s_default_local(global, local);
    if (s->cli.verbose)
        fprintf(stderr, "k2s-clref: no --local given: using %llu,%llu,%llu\n",
                (unsigned long long)local[0], (unsigned long long)local[1],
                (unsigned long long)local[2]);
    return true;
}

static bool run(struct session *s)
{
    uint64_t global[3], local[3], offset[3];
    unsigned dims, odims = 0;
    if (!s->cli.global) {
        k2s_error("--global X[,Y[,Z]] is required");
        return false;
    }
    if (!k2s_parse_ndrange("--global", s->cli.global, 1, global, &dims) ||
        (s->cli.offset && !k2s_parse_ndrange("--offset", s->cli.offset, 0, offset, &odims)) ||
        !choose_local(s, global, dims, local))
        return false;
    if (!s->cli.offset)
        offset[0] = offset[1] = offset[2] = 0;
    if (odims > dims) {
        k2s_error("--local/--offset have more dimensions than --global");
        return false;
    }
    size_t g[3], l[3], o[3];
    bool uniform = true;
    for (int d = 0; d < 3; d++) {
        g[d] = (size_t)global[d], l[d] = (size_t)local[d], o[d] = (size_t)offset[d];
        uniform = uniform && l[d] && g[d] % l[d] == 0;
    }
    if (!uniform && !nonuniform_supported(s)) {
        k2s_error("this OpenCL device cannot run a non-uniform NDRange (global size not a "
                  "multiple of the local size)");
        s->status = EXIT_UNSUPPORTED;
        return false;
    }
    s->nd_dims = dims;
    memcpy(s->nd_global, g, sizeof g);
    memcpy(s->nd_local, l, sizeof l);
    memcpy(s->nd_offset, o, sizeof o);
    cl_int e = clEnqueueNDRangeKernel(s->queue, s->kernel, dims, o, g, l, 0, NULL, NULL);
    return cl_ok(s, e, "clEnqueueNDRangeKernel") && cl_ok(s, clFinish(s->queue), "clFinish");
}

/* ---- --time N ------------------------------------------------------------------------------- */

#define CLREF_WARMUP 3

/* One more run of the same NDRange; *us: its START-to-END time from event profiling. */
static bool timed_run(struct session *s, double *us)
{
    cl_event ev;
    cl_int e = clEnqueueNDRangeKernel(s->queue, s->kernel, (cl_uint)s->nd_dims, s->nd_offset,
                                      s->nd_global, s->nd_local, 0, NULL, us ? &ev : NULL);
    if (!cl_ok(s, e, "clEnqueueNDRangeKernel") || !cl_ok(s, clFinish(s->queue), "clFinish"))
        return false;
    if (!us)
        return true;
    cl_ulong start = 0, end = 0;
    bool got = cl_ok(s, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                                &start, NULL),
                     "clGetEventProfilingInfo") &&
               cl_ok(s, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                                NULL),
                     "clGetEventProfilingInfo");
    clReleaseEvent(ev);
    *us = (double)(end - start) / 1e3;
    return got;
}

static bool time_runs(struct session *s)
{
    unsigned n = s->time_runs;
    if (!n)
        return true;
    double *us = calloc(n, sizeof *us);
    bool ok = us != NULL;
    for (unsigned i = 0; ok && i < CLREF_WARMUP; i++)
        ok = timed_run(s, NULL);
    for (unsigned i = 0; ok && i < n; i++)
        ok = timed_run(s, &us[i]);
    ok = ok && k2s_report_times(stderr, us, n, CLREF_WARMUP, "opencl-event");
    free(us);
    return ok;
}

static bool parse_time(struct session *s)
{
    if (!s->cli.time)
        return true;
    char *end;
    unsigned long n = strtoul(s->cli.time, &end, 10);
    if (*end != '\0' || end == s->cli.time || n < 1 || n > 1000000) {
        k2s_error("--time: '%s' is not a number of runs from 1 to 1000000", s->cli.time);
        return false;
    }
    s->time_runs = (unsigned)n;
    return true;
}

static bool read_back(struct session *s)
{
    size_t n = s->cli.nspecs;
    s->outputs = calloc(n ? n : 1, sizeof *s->outputs);
    if (!s->outputs)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s->args[i].kind == K2S_ARG_IMAGE) {
            size_t origin[3] = {0, 0, 0}, region[3];
            image_region(&s->args[i].image, region);
            s->outputs[i] = malloc(s->args[i].size);
            if (!s->outputs[i] ||
                !cl_ok(s, clEnqueueReadImage(s->queue, s->mems[i], CL_TRUE, origin, region, 0, 0,
                                             s->outputs[i], 0, NULL, NULL),
                       "clEnqueueReadImage"))
                return false;
            continue;
        }
        if (s->args[i].kind != K2S_ARG_BUFFER)
            continue;
        s->outputs[i] = malloc(s->args[i].size);
        if (!s->outputs[i] ||
            !cl_ok(s, clEnqueueReadBuffer(s->queue, s->mems[i], CL_TRUE, 0, s->args[i].size,
                                          s->outputs[i], 0, NULL, NULL),
                   "clEnqueueReadBuffer"))
            return false;
    }
    return true;
}

static void session_free(struct session *s)
{
    size_t n = s->cli.nspecs;
    for (size_t i = 0; i < n; i++) {
        if (s->mems && s->mems[i])
            clReleaseMemObject(s->mems[i]);
        if (s->outputs)
            free(s->outputs[i]);
    }
    free(s->mems);
    free(s->outputs);
    if (s->kernel)
        clReleaseKernel(s->kernel);
    if (s->program)
        clReleaseProgram(s->program);
    if (s->queue)
        clReleaseCommandQueue(s->queue);
    if (s->context)
        clReleaseContext(s->context);
    k2s_free_args(s->args, n);
    free(s->source);
    free(s->cli.specs);
}

static int start(struct session *s, int argc, char **argv)
{
    if (!parse_cli(argc, argv, &s->cli))
        return 2;
    if (s->cli.help) {
        fputs(usage, stdout);
        return 0;
    }
    if (!s->cli.input || !s->cli.kernel) {
        k2s_error("KERNEL.cl and --kernel NAME are required (see --help)");
        return 2;
    }
    s->status = 1;
    bool ok = parse_time(s) && k2s_parse_args(s->cli.specs, s->cli.nspecs, &s->args) &&
              pick_device(s) && build(s) && set_args(s) && run(s) && read_back(s) &&
              k2s_emit_outputs(s->args, s->cli.nspecs, s->outputs, s->cli.dump_dir, NULL) &&
              time_runs(s);
    return ok ? 0 : s->status;
}

int main(int argc, char **argv)
{
    k2s_set_prog("k2s-clref");
    struct session s;
    memset(&s, 0, sizeof s);
    int status = start(&s, argc, argv);
    session_free(&s);
    return status;
}
