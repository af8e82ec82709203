#include "sidecar/guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

/* The sidecar is single-threaded, so one jump target suffices. */
static sigjmp_buf *volatile target;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    (void)uc;
    if (target)
        siglongjmp(*target, 1);
    /* A SIGBUS outside a guarded access is a real bug: die of it. */
    signal(sig, SIG_DFL);
    raise(sig);
}

int sc_guard_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGBUS, &sa, NULL);
}

int sc_guarded(void (*fn)(void *), void *arg)
{
    sigjmp_buf jb;
    if (sigsetjmp(jb, 1)) {
        target = NULL;
        return -1;
    }
    target = &jb;
    fn(arg);
    target = NULL;
    return 0;
}
