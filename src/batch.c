/* k2s's batch mode (asset pipelines): `k2s a.spv b.spv ... -o OUTDIR/ [--jobs N]`.
 *
 * Each input becomes OUTDIR/NAME.spv with its reflection NAME.json and descriptor
 * map NAME.csv beside it, written all or none per input (src/output_files.c); one
 * input failing does not stop the others, and the exit status is non-zero when any
 * failed. Inputs are translated in N threads (the library is thread-safe); each
 * input's messages are collected and printed whole, after a line naming the input,
 * so threads never interleave them. Long batches report progress on stderr. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

enum { PROGRESS_MIN_INPUTS = 16 };

typedef struct batch {
  const char *const *inputs;
  char **outputs, **jsons, **csvs;
  int n;
  const k2s_options *o;
  atomic_int next, done, failed;
  int worst;
  pthread_mutex_t lock; /* stderr, worst, progress */
  time_t last_progress;
  int printed_done; /* the count the last progress line showed (-1: none) */
} batch;

bool k2s_is_directory_target(const char *output)
{
  struct stat st;
  if (!output || strcmp(output, "-") == 0)
    return false;
  size_t n = strlen(output);
  return (n && output[n - 1] == '/') || (stat(output, &st) == 0 && S_ISDIR(st.st_mode));
}

/* OUTDIR/NAME.EXT for input path `in`: NAME is its file name without the extension. */
static char *output_name(const char *outdir, const char *in, const char *ext)
{
  const char *base = strrchr(in, '/');
  base = base ? base + 1 : in;
  const char *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  size_t n = strlen(outdir);
  bool slash = n && outdir[n - 1] == '/';
  size_t len = n + 1 + stem + strlen(ext) + 1;
  char *p = malloc(len);
  if (p)
    snprintf(p, len, "%s%s%.*s%s", outdir, slash ? "" : "/", (int)stem, base, ext);
  return p;
}

static void progress(batch *b, bool final)
{
  time_t now = time(NULL);
  if (b->n < PROGRESS_MIN_INPUTS || (!final && now == b->last_progress))
    return;
  int done = atomic_load(&b->done);
  if (final && done == b->printed_done)
    return; /* the last line already said it */
  b->last_progress = now;
  b->printed_done = done;
  fprintf(stderr, "k2s: progress: %d of %d inputs done, %d failed\n", done, b->n,
          atomic_load(&b->failed));
}

static void run_one(batch *b, int i)
{
  char *text = NULL;
  size_t len = 0;
  FILE *msg = open_memstream(&text, &len);
  int rc = k2s_cli_translate(b->inputs[i], b->outputs[i], b->jsons[i], b->csvs[i], b->o,
                             msg ? msg : stderr);
  if (msg)
    fclose(msg);
  atomic_fetch_add(&b->done, 1);
  if (rc)
    atomic_fetch_add(&b->failed, 1);
  pthread_mutex_lock(&b->lock);
  if (rc)
    fprintf(stderr, "k2s: %s: failed (exit %d)%s\n", b->inputs[i], rc, len ? ":" : "");
  else if (len)
    fprintf(stderr, "k2s: %s:\n", b->inputs[i]);
  if (len)
    fputs(text, stderr);
  if (rc > b->worst)
    b->worst = rc;
  progress(b, false);
  pthread_mutex_unlock(&b->lock);
  free(text);
}

static void *worker(void *arg)
{
  batch *b = arg;
  for (int i; (i = atomic_fetch_add(&b->next, 1)) < b->n;)
    run_one(b, i);
  return NULL;
}

/* The output directory: made when missing (one level, like `mkdir`), else refused
 * unless it is a directory. */
static bool make_outdir(const char *outdir)
{
  /* "file/" does not stat as the file: look at the name without its slashes. */
  char path[PATH_MAX];
  size_t n = strlen(outdir);
  while (n > 1 && outdir[n - 1] == '/')
    n--;
  snprintf(path, sizeof path, "%.*s", (int)n, outdir);
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return true;
    fprintf(stderr, "k2s: error: -o %s: exists and is not a directory\n", outdir);
    return false;
  }
  if (mkdir(path, 0777) == 0)
    return true;
  fprintf(stderr, "k2s: error: cannot create the output directory '%s': %s\n", outdir,
          strerror(errno));
  return false;
}

static void free_names(batch *b)
{
  for (int i = 0; i < b->n; i++) {
    free(b->outputs[i]);
    free(b->jsons[i]);
    free(b->csvs[i]);
  }
  free(b->outputs);
  free(b->jsons);
  free(b->csvs);
}

int k2s_cli_batch(const char *const *inputs, int n_inputs, const char *outdir, const char *reflect,
                  const char *dmap, unsigned jobs, const k2s_options *o)
{
  enum { EXIT_USAGE = 2 };
  if (!outdir) {
    fprintf(stderr, "k2s: error: %d inputs need -o OUTDIR/ (a directory for their outputs)\n",
            n_inputs);
    return EXIT_USAGE;
  }
  if (!k2s_is_directory_target(outdir)) {
    fprintf(stderr,
            "k2s: error: %d inputs need -o to name a directory (end it with '/' to have it "
            "created), not the file '%s'\n",
            n_inputs, outdir);
    return EXIT_USAGE;
  }
  if (reflect || dmap) {
    fprintf(stderr,
            "k2s: error: %s names one file; in batch mode each input's reflection "
            "goes beside its output (OUTDIR/NAME.json and NAME.csv)\n",
            reflect ? "--reflect" : "--descriptormap");
    return EXIT_USAGE;
  }
  batch b = {.inputs = inputs, .n = n_inputs, .o = o, .printed_done = -1};
  b.outputs = calloc((size_t)n_inputs, sizeof(char *));
  b.jsons = calloc((size_t)n_inputs, sizeof(char *));
  b.csvs = calloc((size_t)n_inputs, sizeof(char *));
  if (!b.outputs || !b.jsons || !b.csvs) {
    free_names(&b);
    fprintf(stderr, "k2s: error: out of memory\n");
    return EXIT_USAGE;
  }
  int rc = 0;
  for (int i = 0; i < n_inputs && !rc; i++) {
    if (strcmp(inputs[i], "-") == 0) {
      fprintf(stderr, "k2s: error: standard input ('-') cannot be one of several inputs\n");
      rc = EXIT_USAGE;
      break;
    }
    b.outputs[i] = output_name(outdir, inputs[i], ".spv");
    b.jsons[i] = output_name(outdir, inputs[i], ".json");
    b.csvs[i] = output_name(outdir, inputs[i], ".csv");
    if (!b.outputs[i] || !b.jsons[i] || !b.csvs[i]) {
      fprintf(stderr, "k2s: error: out of memory\n");
      rc = EXIT_USAGE;
    }
    for (int j = 0; j < i && !rc; j++)
      if (strcmp(b.outputs[i], b.outputs[j]) == 0) {
        fprintf(stderr, "k2s: error: '%s' and '%s' would both write '%s'\n", inputs[j], inputs[i],
                b.outputs[i]);
        rc = EXIT_USAGE;
      }
  }
  if (rc || !make_outdir(outdir)) {
    free_names(&b);
    return rc ? rc : EXIT_USAGE;
  }
  pthread_mutex_init(&b.lock, NULL);
  if (jobs > (unsigned)n_inputs)
    jobs = (unsigned)n_inputs;
  pthread_t *threads = calloc(jobs, sizeof(*threads));
  unsigned started = 0;
  /* The main thread works too; a thread that cannot start leaves its share to it. */
  for (unsigned t = 1; threads && t < jobs; t++)
    if (pthread_create(&threads[started], NULL, worker, &b) == 0)
      started++;
  worker(&b);
  for (unsigned t = 0; t < started; t++)
    pthread_join(threads[t], NULL);
  free(threads);
  progress(&b, true);
  int failed = atomic_load(&b.failed);
  fprintf(stderr, "k2s: %d of %d inputs translated into %s%s%d failed\n", n_inputs - failed,
          n_inputs, outdir, failed ? "; " : ", ", failed);
  pthread_mutex_destroy(&b.lock);
  free_names(&b);
  return b.worst;
}
