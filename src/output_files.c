/*
 * The CLI's output files: written so that a run never harms what is at a path.
 *
 * - A symbolic link is written through: the file it points at (after the whole
 *   chain, also a dangling one) gets the data; the link stays.
 * - Something that is not a regular file (a FIFO, a character device such as
 *   /dev/null, a process substitution's /dev/fd/N, a socket) is opened and
 *   written in place, never replaced by a regular file.
 * - A regular file, or a new one, is written to a temporary file created with
 *   mkstemp (O_CREAT|O_EXCL: never through a planted symlink, never a
 *   predictable name) in the target's own directory, given the old file's mode
 *   and owner (new files: 0666 less the umask), flushed, and renamed over the
 *   target. Where a rename would change what the file is (more than one hard
 *   link, an owner k2s cannot give the new file, a directory k2s cannot create
 *   files in) it is rewritten in place instead.
 * - A file k2s may not write (a read-only file, for a user other than root)
 *   is an error, as for any program that opens it for writing.
 * - All outputs of a run or none: every temporary file is complete before any
 *   target changes; writes in place come first, then the renames, which only
 *   fail on a vanished directory.
 * - Two outputs naming the same file (also through links) are an error.
 * Messages carry the real errno text.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "output_files.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { HOW_STDOUT, HOW_IN_PLACE, HOW_REPLACE, HOW_REWRITE };

static bool failf(char *err, size_t n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return false;
}

static char *dir_of(const char *path)
{
  char *c = strdup(path);
  if (!c)
    return NULL;
  char *d = strdup(dirname(c));
  free(c);
  return d;
}

static char *base_of(const char *path)
{
  char *c = strdup(path);
  if (!c)
    return NULL;
  char *b = strdup(basename(c));
  free(c);
  return b;
}

/* Follows the chain of symbolic links at path (not in its directories, which
 * the kernel follows anyway) to the path of the file to write; *why gets the
 * errno on failure. */
static char *follow_links(const char *path, int *why)
{
  char *cur = strdup(path);
  for (int hop = 0; cur; hop++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur; /* missing (created there) or not a link */
    if (hop == 40) {
      free(cur);
      *why = ELOOP;
      return NULL;
    }
    char target[PATH_MAX];
    ssize_t k = readlink(cur, target, sizeof target - 1);
    if (k < 0) {
      *why = errno;
      free(cur);
      return NULL;
    }
    target[k] = 0;
    char *next;
    if (target[0] == '/') {
      next = strdup(target);
    } else {
      char *d = dir_of(cur);
      next = d ? malloc(strlen(d) + strlen(target) + 2) : NULL;
      if (next)
        sprintf(next, "%s/%s", d, target);
      free(d);
    }
    free(cur);
    cur = next;
  }
  *why = ENOMEM;
  return NULL;
}

/* The canonical name of a file that may not exist yet: its directory's real
 * path plus its base name. */
static char *canonical(const char *path, int *why)
{
  char *d = dir_of(path), *b = base_of(path);
  char *rd = d ? realpath(d, NULL) : NULL;
  char *r = NULL;
  if (!rd)
    *why = d ? errno : ENOMEM;
  else if ((r = malloc(strlen(rd) + strlen(b) + 2)))
    sprintf(r, "%s/%s", strcmp(rd, "/") == 0 ? "" : rd, b);
  free(d);
  free(b);
  free(rd);
  return r;
}

static bool write_all(int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len) {
    ssize_t k = write(fd, p, len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return false;
    p += k;
    len -= (size_t)k;
  }
  return true;
}

static void drop_temps(k2s_output *outs, int n)
{
  for (int i = 0; i < n; i++)
    if (outs[i].tmp) {
      unlink(outs[i].tmp);
      free(outs[i].tmp);
      outs[i].tmp = NULL;
    }
}

static void free_all(k2s_output *outs, int n)
{
  drop_temps(outs, n);
  for (int i = 0; i < n; i++) {
    free(outs[i].final);
    outs[i].final = NULL;
  }
}

/* Creates outs->tmp beside outs->final holding the data, with the mode and
 * owner of *old (NULL for a new file). Returns 0, or the errno; EACCES/EPERM
 * from the directory or from fchown mean "rewrite in place instead". */
static int write_temp(k2s_output *o, const struct stat *old)
{
  char *d = dir_of(o->final), *b = base_of(o->final);
  char *tmp = d && b ? malloc(strlen(d) + strlen(b) + 16) : NULL;
  if (!tmp) {
    free(d);
    free(b);
    return ENOMEM;
  }
  sprintf(tmp, "%s/.%s.k2s-XXXXXX", d, b);
  free(d);
  free(b);
  int fd = mkstemp(tmp); /* O_CREAT|O_EXCL, mode 0600 */
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return e;
  }
  o->tmp = tmp;
  int e = 0;
  mode_t mode;
  if (old) {
    mode = old->st_mode & 07777;
    if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0)
      e = EPERM; /* the new file would change owner: rewrite in place */
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (!e && fchmod(fd, mode) != 0)
    e = errno;
  if (!e && !write_all(fd, o->data, o->len))
    e = errno ? errno : EIO;
  if (!e && fsync(fd) != 0 && errno != EINVAL)
    e = errno;
  if (close(fd) != 0 && !e)
    e = errno;
  if (e) {
    unlink(tmp);
    free(tmp);
    o->tmp = NULL;
  }
  return e;
}

static bool prepare(k2s_output *o, char *err, size_t n)
{
  if (strcmp(o->path, "-") == 0) {
    o->how = HOW_STDOUT;
    return true;
  }
  struct stat st;
  /* Not a regular file (following links: /dev/fd/N of a process
   * substitution is a link to a pipe): written in place. */
  if (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      return failf(err, n, "cannot write '%s': %s", o->path, strerror(EISDIR));
    o->how = HOW_IN_PLACE;
    o->final = strdup(o->path);
    return o->final || failf(err, n, "out of memory");
  }
  int why = 0;
  o->final = follow_links(o->path, &why);
  if (!o->final)
    return failf(err, n, "cannot write '%s': %s", o->path, strerror(why));
  bool exists = stat(o->final, &st) == 0;
  if (!exists && errno != ENOENT)
    return failf(err, n, "cannot write '%s': %s", o->path, strerror(errno));
  if (exists && access(o->final, W_OK) != 0)
    return failf(err, n, "cannot write '%s': %s", o->path, strerror(errno));
  if (exists && st.st_nlink > 1) {
    o->how = HOW_REWRITE; /* a rename would split the hard links */
    return true;
  }
  int e = write_temp(o, exists ? &st : NULL);
  if (e == 0) {
    o->how = HOW_REPLACE;
    return true;
  }
  if (exists && (e == EACCES || e == EPERM || e == EROFS)) {
    o->how = HOW_REWRITE; /* the directory is not ours, or the owner would change */
    return true;
  }
  return failf(err, n, "cannot write '%s': %s", o->path, strerror(e));
}

/* Two outputs that are one file would leave it holding one of them. */
static bool distinct(k2s_output *outs, int n, char *err, size_t en)
{
  if (n < 2)
    return true;
  char **canon = calloc((size_t)n, sizeof *canon);
  struct stat *st = calloc((size_t)n, sizeof *st);
  bool *has_st = calloc((size_t)n, sizeof *has_st);
  bool ok = canon && st && has_st;
  if (!ok)
    failf(err, en, "out of memory");
  for (int i = 0; ok && i < n; i++) {
    if (outs[i].how == HOW_STDOUT)
      continue;
    has_st[i] = stat(outs[i].final, &st[i]) == 0;
    int why = 0;
    canon[i] = canonical(outs[i].final, &why);
    if (!canon[i])
      ok = failf(err, en, "cannot write '%s': %s", outs[i].path, strerror(why));
  }
  for (int i = 0; ok && i < n; i++)
    for (int j = i + 1; ok && j < n; j++) {
      bool same;
      if (outs[i].how == HOW_STDOUT || outs[j].how == HOW_STDOUT)
        same = outs[i].how == outs[j].how;
      else
        same = strcmp(canon[i], canon[j]) == 0 ||
               (has_st[i] && has_st[j] && st[i].st_dev == st[j].st_dev &&
                st[i].st_ino == st[j].st_ino);
      if (same)
        ok = failf(err, en, "%s '%s' and %s '%s' name the same file; each output needs its own",
                   outs[i].what, outs[i].path, outs[j].what, outs[j].path);
    }
  for (int i = 0; canon && i < n; i++)
    free(canon[i]);
  free(canon);
  free(st);
  free(has_st);
  return ok;
}

static bool write_in_place(k2s_output *o, char *err, size_t n)
{
  if (o->how == HOW_STDOUT) {
    if (fwrite(o->data, 1, o->len, stdout) != o->len || fflush(stdout) != 0)
      return failf(err, n, "cannot write to standard output: %s", strerror(errno));
    return true;
  }
  /* A device or FIFO: no O_TRUNC, no O_CREAT (it exists). A regular file with
   * hard links or a foreign owner: truncated and rewritten. */
  int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | (o->how == HOW_REWRITE ? O_TRUNC : 0);
  int fd = open(o->final, flags);
  if (fd < 0)
    return failf(err, n, "cannot write '%s': %s", o->path, strerror(errno));
  bool ok = write_all(fd, o->data, o->len);
  int e = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok)
    return failf(err, n, "cannot write '%s': %s", o->path, strerror(e ? e : EIO));
  return true;
}

bool k2s_write_outputs(k2s_output *outs, int n, char *err, size_t err_size)
{
  for (int i = 0; i < n; i++) {
    outs[i].final = NULL;
    outs[i].tmp = NULL;
  }
  bool ok = true;
  for (int i = 0; ok && i < n; i++)
    ok = prepare(&outs[i], err, err_size);
  if (ok)
    ok = distinct(outs, n, err, err_size);
  /* Writes in place cannot be undone; they come before any rename, so a
   * failing one leaves every regular target untouched. */
  for (int i = 0; ok && i < n; i++)
    if (outs[i].how != HOW_REPLACE)
      ok = write_in_place(&outs[i], err, err_size);
  for (int i = 0; ok && i < n; i++)
    if (outs[i].how == HOW_REPLACE) {
      if (rename(outs[i].tmp, outs[i].final) != 0)
        ok = failf(err, err_size, "cannot write '%s': %s", outs[i].path, strerror(errno));
      else {
        free(outs[i].tmp);
        outs[i].tmp = NULL;
      }
    }
  free_all(outs, n);
  return ok;
}
