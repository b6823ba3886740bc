/* k2s-run's crash guard: the run happens in a child process, so a driver that
 * dies on the kernel's behalf still gets a message and an exit status saying
 * the result is not to be trusted. Lavapipe has no bounds checks on Workgroup
 * memory (robustBufferAccess and robustBufferAccess2 cover buffers only), so
 * an out-of-bounds `local` access in a kernel ends the process with SIGSEGV;
 * without this guard k2s-run died with no word about why.
 * K2S_RUN_NO_GUARD=1 runs in-process (for debuggers). */
#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void k2s_run_guard(void)
{
    const char *off = getenv("K2S_RUN_NO_GUARD");
    if (off && *off && strcmp(off, "0") != 0)
        return;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return; /* cannot fork: run unguarded */
    if (pid == 0)
        return; /* the child does the work */
    /* The parent only waits; signals such as SIGINT reach both. */
    signal(SIGINT, SIG_IGN);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    if (WIFEXITED(st))
        exit(WEXITSTATUS(st));
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    if (sig == SIGINT) {
        signal(SIGINT, SIG_DFL);
        raise(SIGINT);
    }
    fprintf(stderr,
            "k2s-run: error: the run crashed (signal %d, %s) inside the Vulkan driver or "
            "k2s-run; no result is to be trusted. On lavapipe this is how an out-of-bounds "
            "access to local (Workgroup) memory ends: check the kernel's local indices and "
            "the local:BYTES sizes of its arguments\n",
            sig, strsignal(sig));
    exit(3);
}
