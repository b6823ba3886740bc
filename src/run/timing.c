/* The timing line shared by k2s-run (Vulkan timestamps) and k2s-clref (OpenCL event
 * profiling), so one parser reads both (docs/gpu-bench.md). */
#include "argspec.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

bool k2s_report_times(FILE *out, const double *us, unsigned n, unsigned warmup, const char *clock)
{
  if (n == 0)
    return true;
  double *sorted = malloc(n * sizeof *sorted);
  if (!sorted) {
    k2s_error("out of memory");
    return false;
  }
  memcpy(sorted, us, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, cmp_double);
  double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  /* The first line is the older format (the best run), which scripts still read. */
  fprintf(out, "time: %.3f us\n", sorted[0]);
  fprintf(out, "time: min=%.3f median=%.3f max=%.3f us runs=%u warmup=%u clock=%s\n", sorted[0],
          median, sorted[n - 1], n, warmup, clock);
  free(sorted);
  return true;
}
