/*
 * Runs the fuzz target over saved inputs without libFuzzer, so regression
 * inputs and the seed corpus are replayed by `meson test` in the gcc and the
 * sanitizer builds. Arguments are files or directories (one level deep).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "%s: out of memory\n", path);
    return 1;
  }
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

int main(int argc, char **argv)
{
  int files = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad += run_file(argv[i]);
      files++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.')
        continue;
      size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
      char *p = malloc(len);
      snprintf(p, len, "%s/%s", argv[i], e->d_name);
      if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
        bad += run_file(p);
        files++;
      }
      free(p);
    }
    if (d)
      closedir(d);
  }
  printf("replayed %d inputs\n", files);
  return bad ? 1 : 0;
}
