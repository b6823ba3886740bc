/*
 * In-process identity round trip: k2s_parse + k2s_write of one module,
 * repeated, reporting the best time and the throughput. No file I/O, no
 * process start, no validation: just the engine's parse and write.
 *
 * usage: parse_write MODULE.spv [REPEATS]     (built by bench/roundtrip.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "k2s_internal.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: parse_write MODULE.spv [REPEATS]\n");
    return 2;
  }
  int repeats = argc > 2 ? atoi(argv[2]) : 10;
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t *w = malloc(len);
  if (!w || fread(w, 1, len, f) != (size_t)len) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  fclose(f);
  size_t n = len / 4;
  double best_parse = 1e9, best_total = 1e9;
  size_t instrs = 0;
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    k2s_parse_error err;
    k2s_module *m = k2s_parse(w, n, &err);
    if (!m) {
      fprintf(stderr, "parse failed: %s\n", err.message);
      return 1;
    }
    double t1 = now();
    size_t n_out;
    uint32_t *out = k2s_write(m, &n_out);
    double t2 = now();
    if (n_out != n || memcmp(out, w, len) != 0) {
      fprintf(stderr, "round trip is not identical\n");
      return 1;
    }
    if (r == 0) {
      for (int s = 0; s < K2S_SEC_COUNT; s++)
        k2s_foreach_instr(i, &m->sec[s]) instrs++;
      k2s_foreach_function(fn, m) {
        instrs += 2;
        k2s_foreach_instr(i, &fn->head) instrs++;
        k2s_foreach_block(b, fn) {
          instrs++;
          k2s_foreach_instr(i, &b->body) instrs++;
        }
      }
    }
    k2s_module_free(m);
    if (t1 - t0 < best_parse)
      best_parse = t1 - t0;
    if (t2 - t0 < best_total)
      best_total = t2 - t0;
  }
  double mb = len / 1e6;
  printf("module: %.2f MB, %zu instructions\n", mb, instrs);
  printf("parse:        %8.2f ms  %8.1f MB/s\n", best_parse * 1e3, mb / best_parse);
  printf("parse+write:  %8.2f ms  %8.1f MB/s  (best of %d)\n", best_total * 1e3, mb / best_total,
         repeats);
  return 0;
}
