/* Diagnostics: collected on the module, never printed or fatal here. */
#include <stdio.h>

#include "k2s_internal.h"

struct k2s_diag_node {
  k2s_diag_node *next;
  k2s_diagnostic d;
};

void k2s_diag(k2s_module *m, k2s_severity sev, const k2s_instr *at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = k2s_vsprintf(&m->arena, fmt, ap);
  va_end(ap);
  k2s_diag_node *n = k2s_alloc(&m->arena, sizeof(*n));
  n->d.severity = sev;
  n->d.pass = m->pass;
  n->d.word_offset = at && at->offset != K2S_NEW_OFFSET ? (int64_t)at->offset : -1;
  if (at)
    msg = k2s_sprintf(&m->arena, "%s\n  at: %s", msg, k2s_print_instr(m, at));
  n->d.message = msg;
  if (m->diags_last)
    m->diags_last->next = n;
  else
    m->diags = n;
  m->diags_last = n;
  m->n_diags++;
  if (sev == K2S_ERROR)
    m->failed = true;
}

const k2s_diagnostic *k2s_module_diag(const k2s_module *m, size_t i)
{
  k2s_diag_node *n = m->diags;
  while (n && i--)
    n = n->next;
  return n ? &n->d : NULL;
}
