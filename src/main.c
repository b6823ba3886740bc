/* k2s: the command-line translator. Exit 0 on success, 1 when translation
 * fails (unsupported or internal), 2 for usage errors and bad input. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "k2s/k2s.h"
#include "output_files.h"

enum { EXIT_TRANSLATION = 1, EXIT_USAGE = 2 };

static void usage(FILE *f)
{
  fprintf(
      f,
      "usage: k2s [options] INPUT.spv -o OUTPUT.spv     ('-' for stdin/stdout)\n"
      "Translates OpenCL Kernel-dialect SPIR-V into Vulkan compute SPIR-V.\n\n"
      "Target:\n"
      "  --target-env=vulkan1.1|vulkan1.2|vulkan1.3   (default vulkan1.1)\n"
      "  --no-int8 --no-int16 --no-int64 --no-fp16 --no-fp64\n"
      "  --no-8bit-storage --no-16bit-storage          features the device lacks\n"
      "  --no-float-controls                           no VK_KHR_shader_float_controls: NaN, inf\n"
      "                                                and -0 may then be optimised away\n"
      "  --denorm-preserve                             the device has shaderDenormPreserveFloat*\n"
      "  --emulate-ftz                                 flush float subnormal operands and results\n"
      "                                                (as the H100 does; to test on lavapipe)\n"
      "  --no-subgroups                                no subgroup vote/arithmetic/shuffle ops:\n"
      "                                                work-group functions use memory only\n"
      "  --no-int64-atomics                            no shaderBuffer/SharedInt64Atomics\n"
      "  --float-atomics=add,min-max|none              the device has float atomic add / min-max\n"
      "                                                (default none: compare-exchange loops)\n"
      "  --no-storage-image-read-without-format        no shaderStorageImageReadWithoutFormat:\n"
      "                                                a read_write image that is read needs\n"
      "  --image-format=KERNEL:ARG=ORDER:TYPE          its format (ARG a name or ordinal; ORDER\n"
      "                                                r rg rgba, TYPE float half unorm8 ... "
      "int32;\n"
      "                                                repeatable; reflected, the host checks it)\n"
      "Kernel interface (clspv-compatible; one or two leading dashes):\n"
      "  -pod-ubo | -pod-pushconstant                  where POD arguments go (default SSBO)\n"
      "  -cluster-pod-kernel-args=0|1                  one binding for all PODs (default 1)\n"
      "  -max-pushconstant-size=N                      (default 128)\n"
      "  -constant-args-ubo                            constant pointers as uniform buffers\n"
      "  -distinct-kernel-descriptor-sets              a descriptor set per kernel\n"
      "  -module-constants-in-storage-buffer           `constant` variables in one storage buffer\n"
      "                                                the host fills (ConstantDataStorageBuffer)\n"
      "  -printf-buffer-size=N                         printf buffer bytes (default 1048576)\n"
      "Memory and math:\n"
      "  --pointers=auto|logical|physical              pointer model (default auto)\n"
      "  --scalar-block-layout                         the device has scalarBlockLayout\n"
      "  --narrow-buffer-indices                       storage buffers are below 4 GiB (the\n"
      "                                                device's maxStorageBufferRange): 32-bit\n"
      "                                                element indices into them\n"
      "  --math=precise|native                         OpenCL precision (default) or GLSL.std.450\n"
      "  --fma=fused|any                               the device's Fma rounds once (fma() maps to it)\n"
      "  -cl-fast-relaxed-math  -cl-denorms-are-zero\n"
      "Running:\n"
      "  --loop-guard                                  loops report when the driver ends them early\n"
      "                                                (lavapipe's 65,535-iteration cap; k2s-run checks)\n"
      "  --unroll-hints=auto|none                      Unroll on innermost loops worth unrolling\n"
      "                                                (default auto; none: Loop Control as given)\n"
      "Reflection:\n"
      "  --reflect=FILE.json  --descriptormap=FILE.csv\n"
      "Batch (several inputs, or -o naming a directory):\n"
      "  k2s a.spv b.spv ... -o OUTDIR/ [--jobs N]     OUTDIR/NAME.spv, NAME.json and NAME.csv\n"
      "                                                per input, each input all or none\n"
      "Debug information (OpenCL.DebugInfo.100 becomes NonSemantic.Shader.DebugInfo.100):\n"
      "  --strip-debug                                 none in the output (also OpLine, OpSource)\n"
      "Value options take --opt=V or --opt V. clspv spellings: -cl-native-math\n"
      "(--math=native), -physical-storage-buffers (--pointers=physical), -fp64=0\n"
      "(--no-fp64), -fp16=0 (--no-fp16), -descriptormap FILE; -cl-std= is ignored.\n"
      "Resources (a clear error when exceeded):\n"
      "  --max-memory=MB                               (default 0: 3/4 of RAM or of the ulimit)\n"
      "  --max-time=SECONDS                            (default 3600; 0 for none)\n"
      "Pipeline:\n"
      "  --passes=a,b,c|none  --print-after=PASS|all  --time-passes\n"
      "  --validate-after-each  --no-validate-input  --no-validate-output  --no-cleanup\n"
      "  --list-passes  --verbose  --help  --version\n");
}

static void list_passes(void)
{
  const char *const *names = k2s_pass_names();
  for (size_t i = 0; names[i]; i++)
    printf("  %-22s %s\n", names[i], k2s_pass_description(names[i]));
}

static int fail_usage(const char *fmt, const char *arg)
{
  fprintf(stderr, "k2s: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see k2s --help)\n");
  return EXIT_USAGE;
}

static unsigned char *read_all(const char *path, size_t *len, const char **why)
{
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    *why = strerror(errno);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) {
      if (ferror(f)) {
        *why = strerror(errno);
        free(buf);
        buf = NULL;
      }
      break;
    }
    cap *= 2;
    unsigned char *nb = realloc(buf, cap);
    if (!nb) {
      free(buf);
      buf = NULL;
      *why = "out of memory";
    }
    buf = nb;
  }
  if (f != stdin)
    fclose(f);
  *len = n;
  return buf;
}

/* Printable ASCII or UTF-8 text (comments in sources often hold UTF-8). */
static bool looks_like_text(const unsigned char *b, size_t n)
{
  size_t k = n < 256 ? n : 256;
  for (size_t i = 0; i < k; i++) {
    unsigned c = b[i];
    if (c == '\n' || c == '\r' || c == '\t' || (c >= 32 && c < 127))
      continue;
    size_t more = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 9;
    if (more == 9)
      return false;
    for (size_t j = 1; j <= more; j++)
      if (i + j < k && (b[i + j] & 0xC0) != 0x80)
        return false;
    i += more;
  }
  return k > 0;
}

static const char *opt_value(const char *arg, const char *name)
{
  /* Accept -name=V and --name=V. */
  if (arg[0] != '-')
    return NULL;
  const char *a = arg[1] == '-' ? arg + 2 : arg + 1;
  size_t n = strlen(name);
  if (strncmp(a, name, n) == 0 && a[n] == '=')
    return a + n + 1;
  return NULL;
}

/* -name=V, --name=V, or -name V / --name V (the value in the next argument,
 * as clspv's -descriptormap FILE and spirv-opt's options take it). */
/* Repeated --image-format values, comma-joined. The one joined string lives
 * in a static (each join replaces and frees the previous one), so it stays
 * reachable until the process exits, as the option it backs must. */
static char *joined_formats;

static const char *join_formats(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  char *r = malloc(la + lb + 2);
  if (r) {
    memcpy(r, a, la);
    r[la] = ',';
    memcpy(r + la + 1, b, lb + 1);
  }
  free(joined_formats); /* a, when a is the previous join: copied already */
  joined_formats = r;
  return r;
}

static const char *take_value(int argc, char **argv, int *i, const char *name)
{
  const char *a = argv[*i], *v = opt_value(a, name);
  if (v || a[0] != '-')
    return v;
  const char *bare = a[1] == '-' ? a + 2 : a + 1;
  if (strcmp(bare, name) != 0 || *i + 1 >= argc)
    return NULL;
  return argv[++*i];
}

static bool opt_flag(const char *arg, const char *name)
{
  if (arg[0] != '-')
    return false;
  const char *a = arg[1] == '-' ? arg + 2 : arg + 1;
  return strcmp(a, name) == 0;
}

/* Every option name, for "did you mean" (clspv aliases included). */
static const char *const option_names[] = {"help",
                                           "version",
                                           "list-passes",
                                           "target-env",
                                           "passes",
                                           "print-after",
                                           "time-passes",
                                           "validate-after-each",
                                           "no-validate-input",
                                           "no-validate-output",
                                           "no-cleanup",
                                           "strip-debug",
                                           "verbose",
                                           "reflect",
                                           "descriptormap",
                                           "pod-ubo",
                                           "pod-pushconstant",
                                           "cluster-pod-kernel-args",
                                           "max-pushconstant-size",
                                           "constant-args-ubo",
                                           "distinct-kernel-descriptor-sets",
                                           "module-constants-in-storage-buffer",
                                           "printf-buffer-size",
                                           "jobs",
                                           "pointers",
                                           "scalar-block-layout",
                                           "narrow-buffer-indices",
                                           "loop-guard",
                                           "unroll-hints",
                                           "math",
                                           "cl-fast-relaxed-math",
                                           "cl-denorms-are-zero",
                                           "no-int8",
                                           "no-int16",
                                           "no-int64",
                                           "no-fp16",
                                           "no-fp64",
                                           "no-8bit-storage",
                                           "no-16bit-storage",
                                           "no-float-controls",
                                           "denorm-preserve",
                                           "emulate-ftz",
                                           "cl-native-math",
                                           "physical-storage-buffers",
                                           "fp16",
                                           "fp64",
                                           "cl-std",
                                           "no-subgroups",
                                           "no-int64-atomics",
                                           "float-atomics",
                                           "no-storage-image-read-without-format",
                                           "image-format",
                                           "max-memory",
                                           "max-time",
                                           NULL};

static size_t edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64)
    return 64;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

static int unknown_option(const char *a)
{
  const char *bare = a[1] == '-' ? a + 2 : a + 1;
  size_t nl = strcspn(bare, "=");
  char name[65];
  if (nl > 64)
    nl = 64;
  memcpy(name, bare, nl);
  name[nl] = 0;
  const char *best = NULL;
  size_t bd = 3; /* suggest only close spellings */
  for (size_t k = 0; option_names[k]; k++) {
    size_t d = edit_distance(name, option_names[k]);
    if (d < bd || (d == bd && !best && d * 3 <= nl)) {
      bd = d;
      best = option_names[k];
    }
  }
  if (best && bd == 0) {
    /* The name is right, the form is not: a value option at the end of the
     * command line, or a switch given a value. */
    if (bare[nl] == '=')
      fprintf(stderr, "k2s: error: option '--%s' takes no value ('%s')", best, a);
    else
      fprintf(stderr, "k2s: error: option '%s' needs a value (%s=VALUE or %s VALUE)", a, a, a);
    fprintf(stderr, "\n(see k2s --help)\n");
    return EXIT_USAGE;
  }
  fprintf(stderr, "k2s: error: unknown option '%s'", a);
  if (best)
    fprintf(stderr, "; did you mean '--%s'?", best);
  fprintf(stderr, "\n(see k2s --help)\n");
  return EXIT_USAGE;
}

/* What a file that is not binary SPIR-V is, and what to run instead; false
 * when it is nothing k2s recognises (the parser then says what is wrong). */
static bool explain_not_spirv(FILE *msg, const char *path, const unsigned char *b, size_t n)
{
  const char *what = NULL, *instead = NULL;
  if (n >= 4 && b[0] == 'B' && b[1] == 'C' && b[2] == 0xC0 && b[3] == 0xDE)
    what = "LLVM bitcode", instead = "translate it with llvm-spirv-15 first, or compile the "
                                     "OpenCL C source with k2s-cc";
  else if (n >= 4 && b[0] == 0xDE && b[1] == 0xC0 && b[2] == 0x17 && b[3] == 0x0B)
    what = "LLVM bitcode (wrapped)", instead = "translate it with llvm-spirv-15 first, or "
                                               "compile the OpenCL C source with k2s-cc";
  else if (n >= 4 && b[0] == 0x7F && b[1] == 'E' && b[2] == 'L' && b[3] == 'F')
    what = "an ELF object or executable", instead = "give k2s a SPIR-V module";
  else if (looks_like_text(b, n)) {
    size_t k = n < 65536 ? n : 65536;
    char *t = malloc(k + 1);
    if (t) {
      memcpy(t, b, k);
      t[k] = 0;
      if (strstr(t, "OpCapability") || strstr(t, "; SPIR-V") || strstr(t, "OpMemoryModel"))
        what = "SPIR-V assembly text", instead = "assemble it with spirv-as first";
      else if (strstr(t, "target triple") || strstr(t, "; ModuleID") ||
               strstr(t, "source_filename"))
        what = "LLVM IR text", instead = "assemble it with llvm-as-15 and translate it with "
                                         "llvm-spirv-15 first";
      else if (strstr(t, "kernel") || strstr(t, "#include") || strstr(t, "#pragma") ||
               strstr(t, "#define") || (strchr(t, '{') && strchr(t, ';')))
        what = "OpenCL C (or C) source", instead =
                                             "compile it with k2s-cc (k2s-cc FILE.cl -o "
                                             "FILE.spv), which runs clang, llvm-spirv and k2s";
      free(t);
    }
    if (!what)
      what = "text", instead = "k2s reads binary SPIR-V modules";
  }
  if (!what)
    return false;
  fprintf(msg, "k2s: error: '%s' is %s, not a SPIR-V binary: %s\n", path, what, instead);
  return true;
}

static bool spirv_magic(const unsigned char *b, size_t n)
{
  return n >= 4 && ((b[0] == 0x03 && b[1] == 0x02 && b[2] == 0x23 && b[3] == 0x07) ||
                    (b[0] == 0x07 && b[1] == 0x23 && b[2] == 0x02 && b[3] == 0x03));
}

/* --float-atomics=LIST: add, min-max (or none). */
static bool parse_float_atomics(const char *v, k2s_options *o)
{
  o->float_atomic_add = o->float_atomic_min_max = false;
  while (*v) {
    size_t n = strcspn(v, ",");
    if (n == 3 && strncmp(v, "add", 3) == 0)
      o->float_atomic_add = true;
    else if (n == 7 && strncmp(v, "min-max", 7) == 0)
      o->float_atomic_min_max = true;
    else if (!(n == 4 && strncmp(v, "none", 4) == 0))
      return false;
    v += n + (v[n] == ',');
  }
  return true;
}

static void print_diags(FILE *msg, const k2s_result *r, bool verbose)
{
  for (size_t i = 0; i < k2s_result_diagnostic_count(r); i++) {
    const k2s_diagnostic *d = k2s_result_diagnostic(r, i);
    if (d->severity == K2S_NOTE && !verbose)
      continue;
    const char *sev = d->severity == K2S_ERROR     ? "error"
                      : d->severity == K2S_WARNING ? "warning"
                                                   : "note";
    fprintf(msg, "k2s: %s: ", sev);
    if (d->pass)
      fprintf(msg, "in pass '%s': ", d->pass);
    const char *nl = strchr(d->message, '\n');
    int first = nl ? (int)(nl - d->message) : (int)strlen(d->message);
    fprintf(msg, "%.*s", first, d->message);
    if (d->word_offset >= 0 && !strstr(d->message, "(word "))
      fprintf(msg, " (word %lld)", (long long)d->word_offset);
    fprintf(msg, "%s\n", nl ? nl : "");
  }
}

/* Translate one input and write its outputs (all or none); messages go to msg.
 * Returns the exit status for it. Safe to run in several threads at once. */
int k2s_cli_translate(const char *input, const char *output, const char *reflect, const char *dmap,
                      const k2s_options *o, FILE *msg)
{
  size_t len;
  const char *why = NULL;
  unsigned char *bytes = read_all(input, &len, &why);
  if (!bytes) {
    fprintf(msg, "k2s: error: cannot read '%s': %s\n", input, why ? why : "unknown error");
    return EXIT_USAGE;
  }
  if (len == 0) {
    fprintf(msg, "k2s: error: '%s' is empty, not a SPIR-V module\n", input);
    free(bytes);
    return EXIT_USAGE;
  }
  if (!spirv_magic(bytes, len) && explain_not_spirv(msg, input, bytes, len)) {
    free(bytes);
    return EXIT_USAGE;
  }
  if (len % 4 != 0) {
    fprintf(msg,
            "k2s: error: '%s' is %zu bytes, not a whole number of 32-bit words; not a "
            "SPIR-V binary\n",
            input, len);
    free(bytes);
    return EXIT_USAGE;
  }
  size_t n_words = len / 4;
  uint32_t *words = malloc(len);
  if (!words) {
    fprintf(msg, "k2s: error: out of memory reading '%s'\n", input);
    free(bytes);
    return EXIT_USAGE;
  }
  memcpy(words, bytes, len);
  free(bytes);

  if (o->validate_input || o->validate_output)
    k2s_validator_start();
  k2s_result *r = NULL;
  k2s_status s = k2s_translate(words, n_words, o, &r);
  free(words);
  if (!r) {
    fprintf(msg, "k2s: error: out of memory\n");
    return EXIT_TRANSLATION;
  }
  if (k2s_result_log(r))
    fputs(k2s_result_log(r), msg);
  print_diags(msg, r, o->verbose);
  int rc = s == K2S_OK ? 0 : s == K2S_ERROR_INPUT ? EXIT_USAGE : EXIT_TRANSLATION;
  if (rc == 0) {
    size_t n;
    const uint32_t *out = k2s_result_words(r, &n);
    /* Only what is written is made (the library makes the text on request). */
    const char *json = reflect ? k2s_result_reflection_json(r) : NULL;
    const char *csv = dmap ? k2s_result_descriptor_map(r) : NULL;
    if ((reflect && !json) || (dmap && !csv)) {
      fprintf(msg, "k2s: error: no reflection was produced (the pipeline that ran does "
                      "not include the kernel-interface passes)\n");
      rc = EXIT_TRANSLATION;
    } else {
      /* All outputs or none (src/output_files.c). */
      k2s_output outs[3] = {{.what = "-o", .path = output, .data = out, .len = n * 4}};
      int n_outs = 1;
      if (reflect)
        outs[n_outs++] = (k2s_output){.what = "--reflect", .path = reflect, .data = json,
                                      .len = strlen(json)};
      if (dmap)
        outs[n_outs++] = (k2s_output){.what = "--descriptormap", .path = dmap, .data = csv,
                                      .len = strlen(csv)};
      char err[PATH_MAX + 256];
      if (!k2s_write_outputs(outs, n_outs, err, sizeof err)) {
        fprintf(msg, "k2s: error: %s\n", err);
        rc = EXIT_TRANSLATION;
      }
    }
  }
  k2s_result_free(r);
  return rc;
}

/* The input list lives until exit; freed there so that leak checkers see no leak on any of
 * main's many return paths. */
static const char **cli_inputs;

static void free_cli_inputs(void)
{
  free(cli_inputs);
}

int main(int argc, char **argv)
{
  k2s_options o;
  k2s_options_init(&o);
  const char *input = NULL, *output = NULL, *reflect = NULL, *dmap = NULL;
  const char **inputs = cli_inputs = calloc((size_t)argc, sizeof(*inputs));
  int n_inputs = 0;
  unsigned jobs = 1;
  if (!inputs)
    return fail_usage("%s", "out of memory");
  atexit(free_cli_inputs);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "-h") == 0 || opt_flag(a, "help")) {
      usage(stdout);
      printf("\nPasses (in pipeline order):\n");
      list_passes();
      return 0;
    } else if (opt_flag(a, "version")) {
      printf("k2s %s\n", k2s_version());
      return 0;
    } else if (opt_flag(a, "list-passes")) {
      list_passes();
      return 0;
    } else if (strcmp(a, "-o") == 0) {
      if (++i >= argc)
        return fail_usage("%s needs a file name", a);
      output = argv[i];
    } else if ((v = take_value(argc, argv, &i, "target-env"))) {
      if (strcmp(v, "vulkan1.1") == 0)
        o.target_env = K2S_ENV_VULKAN_1_1;
      else if (strcmp(v, "vulkan1.2") == 0)
        o.target_env = K2S_ENV_VULKAN_1_2;
      else if (strcmp(v, "vulkan1.3") == 0)
        o.target_env = K2S_ENV_VULKAN_1_3;
      else
        return fail_usage("unknown target environment '%s' (vulkan1.1, vulkan1.2, vulkan1.3)", v);
    } else if ((v = take_value(argc, argv, &i, "passes"))) {
      o.passes = v;
    } else if ((v = take_value(argc, argv, &i, "print-after"))) {
      o.print_after = v;
    } else if (opt_flag(a, "time-passes")) {
      o.time_passes = true;
    } else if (opt_flag(a, "validate-after-each")) {
      o.validate_after_each = true;
    } else if (opt_flag(a, "no-validate-input")) {
      o.validate_input = false;
    } else if (opt_flag(a, "no-validate-output")) {
      o.validate_output = false;
    } else if (opt_flag(a, "no-cleanup")) {
      o.no_cleanup = true;
    } else if (opt_flag(a, "strip-debug")) {
      o.strip_debug = true;
    } else if (opt_flag(a, "verbose") || strcmp(a, "-v") == 0) {
      o.verbose = true;
    } else if ((v = take_value(argc, argv, &i, "reflect"))) {
      reflect = v;
    } else if ((v = take_value(argc, argv, &i, "descriptormap"))) {
      dmap = v;
    } else if (opt_flag(a, "pod-ubo")) {
      o.pod_mode = K2S_POD_UBO;
    } else if (opt_flag(a, "pod-pushconstant")) {
      o.pod_mode = K2S_POD_PUSH_CONSTANT;
    } else if ((v = take_value(argc, argv, &i, "cluster-pod-kernel-args"))) {
      if (strcmp(v, "0") && strcmp(v, "1"))
        return fail_usage("-cluster-pod-kernel-args takes 0 or 1, not '%s'", v);
      o.cluster_pod_args = v[0] == '1';
    } else if (opt_flag(a, "cluster-pod-kernel-args")) {
      o.cluster_pod_args = true;
    } else if ((v = take_value(argc, argv, &i, "max-pushconstant-size"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (*end || !*v || n > 65536)
        return fail_usage("bad -max-pushconstant-size '%s'", v);
      o.max_push_constant_size = (uint32_t)n;
    } else if ((v = take_value(argc, argv, &i, "printf-buffer-size"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (*end || !*v || n < 16 || n % 4 || n > (1ul << 30))
        return fail_usage("bad -printf-buffer-size '%s' (bytes: a multiple of 4, 16 to 2^30)", v);
      o.printf_buffer_size = (uint32_t)n;
    } else if (opt_flag(a, "constant-args-ubo")) {
      o.constant_args_ubo = true;
    } else if (opt_flag(a, "distinct-kernel-descriptor-sets")) {
      o.distinct_kernel_sets = true;
    } else if (opt_flag(a, "module-constants-in-storage-buffer")) {
      o.module_constants_in_storage_buffer = true;
    } else if ((v = take_value(argc, argv, &i, "pointers"))) {
      if (strcmp(v, "auto") == 0)
        o.pointers = K2S_POINTERS_AUTO;
      else if (strcmp(v, "logical") == 0)
        o.pointers = K2S_POINTERS_LOGICAL;
      else if (strcmp(v, "physical") == 0)
        o.pointers = K2S_POINTERS_PHYSICAL;
      else
        return fail_usage("--pointers takes auto, logical or physical, not '%s'", v);
    } else if (opt_flag(a, "narrow-buffer-indices")) {
      o.narrow_buffer_indices = true;
    } else if (opt_flag(a, "scalar-block-layout")) {
      o.scalar_block_layout = true;
    } else if (opt_flag(a, "loop-guard")) {
      o.loop_guard = true;
    } else if ((v = take_value(argc, argv, &i, "unroll-hints"))) {
      if (strcmp(v, "auto") == 0)
        o.unroll_hints = K2S_UNROLL_HINTS_AUTO;
      else if (strcmp(v, "none") == 0)
        o.unroll_hints = K2S_UNROLL_HINTS_NONE;
      else
        return fail_usage("--unroll-hints takes auto or none, not '%s'", v);
    } else if ((v = take_value(argc, argv, &i, "math"))) {
      if (strcmp(v, "precise") == 0)
        o.math = K2S_MATH_PRECISE;
      else if (strcmp(v, "native") == 0)
        o.math = K2S_MATH_NATIVE;
      else
        return fail_usage("--math takes precise or native, not '%s'", v);
    } else if ((v = take_value(argc, argv, &i, "fma"))) {
      if (strcmp(v, "fused") == 0)
        o.fma_fused = true;
      else if (strcmp(v, "any") == 0)
        o.fma_fused = false;
      else
        return fail_usage("--fma takes fused or any, not '%s'", v);
    } else if (opt_flag(a, "cl-native-math")) { /* clspv's spelling */
      o.math = K2S_MATH_NATIVE;
    } else if (opt_flag(a, "physical-storage-buffers")) { /* clspv's spelling */
      o.pointers = K2S_POINTERS_PHYSICAL;
    } else if ((v = opt_value(a, "fp64")) || (v = opt_value(a, "fp16"))) {
      /* clspv's -fp64=0 / -fp16=0: the device lacks the type (=1: it has it). */
      if (strcmp(v, "0") && strcmp(v, "1"))
        return fail_usage("%s takes 0 or 1", a);
      uint32_t bit = strstr(a, "fp64") ? K2S_FEATURE_FLOAT64 : K2S_FEATURE_FLOAT16;
      if (v[0] == '0')
        o.missing_features |= bit;
      else
        o.missing_features &= ~bit;
    } else if ((v = opt_value(a, "cl-std"))) {
      /* A front-end option (clspv takes it): the SPIR-V is compiled already. */
      fprintf(stderr, "k2s: note: %s ignored: the input is compiled already\n", a);
    } else if (opt_flag(a, "cl-fast-relaxed-math")) {
      o.fast_relaxed_math = true;
    } else if (opt_flag(a, "cl-denorms-are-zero")) {
      o.denorms_are_zero = true;
    } else if (opt_flag(a, "no-int8")) {
      o.missing_features |= K2S_FEATURE_INT8;
    } else if (opt_flag(a, "no-int16")) {
      o.missing_features |= K2S_FEATURE_INT16;
    } else if (opt_flag(a, "no-int64")) {
      o.missing_features |= K2S_FEATURE_INT64;
    } else if (opt_flag(a, "no-fp16")) {
      o.missing_features |= K2S_FEATURE_FLOAT16;
    } else if (opt_flag(a, "no-fp64")) {
      o.missing_features |= K2S_FEATURE_FLOAT64;
    } else if (opt_flag(a, "no-8bit-storage")) {
      o.missing_features |= K2S_FEATURE_STORAGE8;
    } else if (opt_flag(a, "no-16bit-storage")) {
      o.missing_features |= K2S_FEATURE_STORAGE16;
    } else if (opt_flag(a, "no-int64-atomics")) {
      o.missing_features |= K2S_FEATURE_INT64_ATOMICS;
    } else if ((v = opt_value(a, "float-atomics"))) {
      if (!parse_float_atomics(v, &o))
        return fail_usage("--float-atomics takes a comma-separated list of add, min-max or "
                          "none, not '%s'",
                          v);
    } else if (opt_flag(a, "no-float-controls")) {
      o.missing_features |= K2S_FEATURE_FLOAT_CONTROLS;
    } else if (opt_flag(a, "no-storage-image-read-without-format")) {
      o.missing_features |= K2S_FEATURE_STORAGE_IMAGE_READ_WITHOUT_FORMAT;
    } else if ((v = take_value(argc, argv, &i, "image-format"))) {
      if (!strchr(v, '=') || !strchr(v, ':'))
        return fail_usage("--image-format takes KERNEL:ARG=ORDER:TYPE, not '%s'", v);
      o.image_formats = o.image_formats ? join_formats(o.image_formats, v) : v;
      if (!o.image_formats)
        return fail_usage("out of memory at '%s'", v);
    } else if (opt_flag(a, "no-subgroups")) {
      o.missing_features |= K2S_FEATURE_SUBGROUP_OPS;
    } else if (opt_flag(a, "denorm-preserve")) {
      o.denorm_preserve = true;
    } else if (opt_flag(a, "emulate-ftz")) {
      o.emulate_ftz = true;
    } else if ((v = opt_value(a, "max-memory")) || (v = opt_value(a, "max-time"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (*end || !*v || *v == '-' || n > UINT32_MAX)
        return fail_usage("bad resource budget '%s' (a whole number: MB for --max-memory, "
                          "seconds for --max-time, 0 for automatic/none)",
                          a);
      if (strncmp(a + (a[1] == '-' ? 2 : 1), "max-memory", 10) == 0)
        o.max_memory_mb = (uint32_t)n;
      else
        o.max_seconds = (uint32_t)n;
    } else if ((v = take_value(argc, argv, &i, "jobs")) || (v = take_value(argc, argv, &i, "j"))) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (*end || !*v || *v == '-' || n == 0 || n > 256)
        return fail_usage("--jobs takes a number of threads from 1 to 256, not '%s'", v);
      jobs = (unsigned)n;
    } else if (a[0] == '-' && a[1] != 0) {
      return unknown_option(a);
    } else {
      if (!input)
        input = a;
      inputs[n_inputs++] = a;
    }
  }
  if (!input)
    return fail_usage("%s", "no input file");
  if (!output)
    return fail_usage("%s", "no output file (-o FILE, or -o - for stdout)");

  if (n_inputs > 1 || k2s_is_directory_target(output))
    return k2s_cli_batch(inputs, n_inputs, output, reflect, dmap, jobs, &o);
  return k2s_cli_translate(input, output, reflect, dmap, &o, stderr);
}
