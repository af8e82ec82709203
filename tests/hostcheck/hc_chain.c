/*
 * hc_chain.c - TEST-ONLY program: a program's own SIGSEGV handling under
 * the host-access check's handler (HIPVIS_HOSTCHECK=1 with libhipvis.so
 * preloaded; docs/hostcheck.md). Each case takes a real fault that is not
 * the check's (a write to a page the program made read-only itself) and
 * says which handler saw it.
 *
 * usage: hc_chain CASE
 *   after     sigaction() installs handler B after hipvis's: B is called, and
 *             sigaction(SIGSEGV, NULL, &old) reports B
 *   signal    the same through signal()
 *   before    handler A came from libhc_before.so's constructor (preloaded
 *             ahead of libhipvis.so): A is called
 *   replace   A, then B installed over it: B is called, A is not, and the
 *             old disposition sigaction reported when B went in was A
 *   default   no handler: the fault kills the process with SIGSEGV
 *   resethand B with SA_RESETHAND: the first fault reaches B, the second
 *             one the default action (SIGSEGV)
 * Prints one line per handler call and a summary; exit status 0, 2 on bad
 * arguments, 1 when a check failed.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t b_calls;
static char *page;
static long page_size;

/* Makes the faulting write succeed on return. */
static void handler_b(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    b_calls++;
    if (sig == SIGSEGV && (char *)si->si_addr >= page && (char *)si->si_addr < page + page_size)
        mprotect(page, (size_t)page_size, PROT_READ | PROT_WRITE);
}

static void handler_b_plain(int sig)
{
    (void)sig;
    b_calls++;
    mprotect(page, (size_t)page_size, PROT_READ | PROT_WRITE);
}

static void fault(void)
{
    mprotect(page, (size_t)page_size, PROT_READ);
    page[10] = 'x';   /* faults: the page is read-only */
}

static int install_b(int flags, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler_b;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGSEGV, &sa, old);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hc_chain CASE\n");
        return 2;
    }
    const char *c = argv[1];
    page_size = sysconf(_SC_PAGESIZE);
    page = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return 1;
    int bad = 0;
    if (!strcmp(c, "after") || !strcmp(c, "resethand")) {
        install_b(!strcmp(c, "resethand") ? SA_RESETHAND : 0, NULL);
        struct sigaction now;
        sigaction(SIGSEGV, NULL, &now);
        bad |= now.sa_sigaction != handler_b;
        fault();
        printf("b_calls %d, reported %s\n", (int)b_calls, now.sa_sigaction == handler_b ? "B" : "other");
        fflush(stdout);
        if (!strcmp(c, "resethand"))
            fault();   /* the default action now */
        bad |= b_calls != 1;
    } else if (!strcmp(c, "signal")) {
        bad |= signal(SIGSEGV, handler_b_plain) == SIG_ERR;
        fault();
        printf("b_calls %d\n", (int)b_calls);
        bad |= b_calls != 1;
    } else if (!strcmp(c, "before") || !strcmp(c, "replace")) {
        volatile int *a_calls = dlsym(RTLD_DEFAULT, "hc_before_calls");
        void (*a_page)(char *, long) = (void (*)(char *, long))dlsym(RTLD_DEFAULT, "hc_before_page");
        void *a_handler = dlsym(RTLD_DEFAULT, "hc_before_handler");
        if (!a_calls || !a_page || !a_handler) {
            fprintf(stderr, "hc_chain: libhc_before.so is not loaded\n");
            return 1;
        }
        a_page(page, page_size);
        struct sigaction old;
        memset(&old, 0, sizeof old);
        if (!strcmp(c, "replace")) {
            install_b(0, &old);
            bad |= (void *)old.sa_sigaction != a_handler;
        }
        fault();
        printf("a_calls %d, b_calls %d%s\n", *a_calls, (int)b_calls,
               !strcmp(c, "replace") ? ((void *)old.sa_sigaction == a_handler ? ", old was A" : ", old was not A") : "");
        bad |= !strcmp(c, "replace") ? (*a_calls != 0 || b_calls != 1) : (*a_calls != 1 || b_calls != 0);
    } else if (!strcmp(c, "default")) {
        fault();
        printf("survived\n");
        bad = 1;
    } else {
        fprintf(stderr, "hc_chain: unknown case '%s'\n", c);
        return 2;
    }
    printf("%s\n", bad ? "FAIL" : "ok");
    return bad;
}
