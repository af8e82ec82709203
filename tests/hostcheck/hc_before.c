/*
 * hc_before.c - TEST-ONLY library for tests/hostcheck/hc_chain: its
 * constructor installs a SIGSEGV handler before libhipvis.so's constructor
 * installs the host-access check's (it is preloaded ahead of it), the way
 * a runtime or an interpreter set up early does. The handler counts its
 * calls and makes the page the test faults on writable again.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

__attribute__((visibility("default"))) volatile int hc_before_calls;
static char *fault_page;
static long fault_size;

__attribute__((visibility("default"))) void hc_before_page(char *p, long n)
{
    fault_page = p;
    fault_size = n;
}

__attribute__((visibility("default"))) void hc_before_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    hc_before_calls++;
    if (fault_page && (char *)si->si_addr >= fault_page && (char *)si->si_addr < fault_page + fault_size)
        mprotect(fault_page, (size_t)fault_size, PROT_READ | PROT_WRITE);
}

__attribute__((constructor)) static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = hc_before_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
}
