/* k2s-run's crash guard (guard.c). */
#ifndef K2S_RUN_GUARD_H
#define K2S_RUN_GUARD_H

/* Forks: returns in the child, which does the run; the parent waits and exits
 * with the child's status, or with 3 and a message when a signal killed it. */
void k2s_run_guard(void);

#endif
