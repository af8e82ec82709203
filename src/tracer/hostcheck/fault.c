/*
 * The SIGSEGV handler of the host-access check and the program's view of
 * SIGSEGV (hc_int.h).
 *
 * Installed only with HIPVIS_HOSTCHECK on, with SA_SIGINFO (the faulting
 * address), SA_ONSTACK (a stack overflow still reaches a handler the
 * program chained on its alternate stack), SA_NODEFER (a fault inside a
 * chained handler is not a blocked synchronous signal, which the kernel
 * would turn into a kill) and SA_RESTART. A fault that is not on a page
 * the check protected goes to the disposition the program set: its
 * handler, called as the kernel would have called it (its mask blocked,
 * SA_RESETHAND honoured), or the default action, re-run.
 *
 * While the handler is in place the program's own sigaction() / signal()
 * for SIGSEGV only change that chained disposition (and report it back),
 * so a handler installed after hipvis (Python's faulthandler, a JVM, a
 * runtime) does not displace the check, and one installed before is still
 * called for its own faults. Every other signal, and SIGSEGV while the
 * check is off, goes straight to the C library. Calls made with the raw
 * rt_sigaction system call are not seen (docs/hostcheck.md).
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "tracer/core/realsym.h"
#include "tracer/core/safecopy.h"
#include "tracer/core/tracer.h"
#include "tracer/evidence/evidence.h"
#include "tracer/hostcheck/hc_int.h"

/* glibc's public alias of sigaction (GLIBC_2.2.5): the real one, whatever
 * this library exports as `sigaction`. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static struct sigaction prog;              /* the program's SIGSEGV disposition */
static _Atomic int installed;              /* our handler is the kernel's */
static _Atomic uint32_t prog_owner;        /* spin lock over prog and installed: holder's tid */
static __thread uint64_t retry_addr __attribute__((tls_model("initial-exec")));

static uint32_t self_tid(void) { return (uint32_t)syscall(SYS_gettid); }

/* Takes the lock unless this thread holds it (a handler of the program
 * calling sigaction while this thread was in here): returns whether it did. */
static int prog_lock(uint32_t me)
{
    if (atomic_load_explicit(&prog_owner, memory_order_acquire) == me)
        return 0;
    for (;;) {
        uint32_t free_ = 0;
        if (atomic_compare_exchange_weak_explicit(&prog_owner, &free_, me, memory_order_acquire,
                                                  memory_order_relaxed))
            return 1;
    }
}

static void prog_unlock(int took)
{
    if (took)
        atomic_store_explicit(&prog_owner, 0, memory_order_release);
}

/* ---- the faulting thread's frames ---- */

/* libunwind's unw_backtrace, loaded at setup (stacks.c): it steps through
 * the signal frame into the interrupted code and is safe in a handler
 * with its per-thread cache; NULL without it (frame pointers then). */
static int (*unwind)(void **, int);

void hc_fault_unwinder(int (*fn)(void **, int)) { unwind = fn; }

uint32_t hc_fault_stack(const void *ucontext, uint64_t *pc, uint32_t max)
{
#if defined(__x86_64__)
    const ucontext_t *uc = ucontext;
    uint64_t ip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
    uint32_t n = 0;
    pc[n++] = ip;
    if (unwind) {
        void *buf[64];
        int got = unwind(buf, 64), at = -1;
        for (int i = 0; i < got && at < 0; i++)
            if ((uint64_t)(uintptr_t)buf[i] == ip)
                at = i;
        for (int i = at + 1; at >= 0 && i < got && n < max; i++)
            pc[n++] = (uint64_t)(uintptr_t)buf[i];
        if (at >= 0)
            return n;
    }
    /* Frame pointers, each read checked (a frame without one ends the walk). */
    uint64_t fp = (uint64_t)uc->uc_mcontext.gregs[REG_RBP], sp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
    while (n < max && fp >= sp && fp - sp < (64u << 20) && !(fp & 7)) {
        uint64_t fr[2];
        if (hv_safe_read(fr, (const void *)(uintptr_t)fp, sizeof fr) != (ssize_t)sizeof fr || !fr[1])
            break;
        pc[n++] = fr[1];
        if (fr[0] <= fp)
            break;
        fp = fr[0];
    }
    return n;
#else
    (void)ucontext;
    (void)max;
    pc[0] = 0;
    return 0;
#endif
}

/* ---- chaining ---- */

/* What the kernel would have done with the program's disposition. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    uint32_t me = self_tid();
    int took = prog_lock(me);
    struct sigaction p = prog;
    if ((p.sa_flags & SA_RESETHAND) && p.sa_handler != SIG_DFL && p.sa_handler != SIG_IGN) {
        prog.sa_handler = SIG_DFL;
        prog.sa_flags &= ~SA_SIGINFO;
    }
    prog_unlock(took);
    if (p.sa_handler == SIG_DFL || p.sa_handler == SIG_IGN) {
        /* A fault cannot be ignored: the default action, by re-running
         * the faulting instruction (or re-sending a sent signal) with the
         * handler out of the way. */
        struct sigaction d;
        memset(&d, 0, sizeof d);
        d.sa_handler = SIG_DFL;
        __sigaction(sig, &d, NULL);
        atomic_store(&installed, 0);
        if (si->si_code <= 0)
            raise(sig);
        return;
    }
    sigset_t mask = p.sa_mask, old;
    if (!(p.sa_flags & SA_NODEFER))
        sigaddset(&mask, sig);
    pthread_sigmask(SIG_BLOCK, &mask, &old);
    if (p.sa_flags & SA_SIGINFO)
        p.sa_sigaction(sig, si, uc);
    else
        p.sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* SEGV_ACCERR: a page mprotect revoked; SEGV_PKUERR: one hc_key denies. */
    if (si && (si->si_code == SEGV_ACCERR || si->si_code == SEGV_PKUERR)) {
        uint64_t addr = (uint64_t)(uintptr_t)si->si_addr;
        int write = 1;
#if defined(__x86_64__)
        write = (((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;   /* page-fault error code bit 1 */
#endif
        uint32_t tid = self_tid();
        struct hc_op op;
        enum hc_verdict v = hc_table_fault(addr, write, tid, &op);
        if (v == HC_RETRY && retry_addr != addr) {
            /* Its range was released while the fault was on its way: the
             * access runs again; a second fault there is not ours. */
            retry_addr = addr;
            errno = saved;
            return;
        }
        retry_addr = 0;
        if (v == HC_HIT) {
            uint64_t pc[HV_HC_MAX_FRAMES];
            struct hv_thread_ctx *t = &hv_tls;
            struct hc_access_in a = {.addr = addr, .ts = hv_ticks_ordered(), .after = t->seq, .tid = tid,
                                     .write = (uint8_t)write, .flags = t->depth ? HV_HC_IN_CALL : 0, .pc = pc,
                                     .npc = hc_fault_stack(uc, pc, HV_HC_MAX_FRAMES), .ucontext = uc};
#if !defined(__x86_64__)
            a.write = 2;   /* not known: hv_host_access.access says unknown */
#endif
            hc_queue_push(&a, &op);
        } else if (v == HC_UNRELATED) {
            atomic_fetch_add_explicit(&hc_counts.unrelated, 1, memory_order_relaxed);
        }
        if (v == HC_HIT || v == HC_UNRELATED) {
            errno = saved;
            return;
        }
    }
    errno = saved;
    chain(sig, si, uc);
}

int hc_fault_install(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
    int took = prog_lock(self_tid());
    int rc = 0;
    if (!atomic_load(&installed)) {
        rc = __sigaction(SIGSEGV, &sa, &old);
        if (rc == 0) {
            prog = old;
            atomic_store(&installed, 1);
        }
    }
    prog_unlock(took);
    return rc;
}

void hc_fault_restore(void)
{
    int took = prog_lock(self_tid());
    if (atomic_load(&installed)) {
        __sigaction(SIGSEGV, &prog, NULL);
        atomic_store(&installed, 0);
    }
    prog_unlock(took);
}

/* ---- the program's sigaction and signal ---- */

/* The program's view of SIGSEGV while the handler is in place: *old gets
 * the chained disposition, *act replaces it. 1 when handled here. */
static int virtual_segv(int sig, const struct sigaction *act, struct sigaction *old, int *rc)
{
    if (sig != SIGSEGV || !atomic_load_explicit(&installed, memory_order_acquire))
        return 0;
    int took = prog_lock(self_tid());
    if (!atomic_load(&installed)) {
        prog_unlock(took);
        return 0;
    }
    if (old)
        *old = prog;
    if (act)
        prog = *act;
    prog_unlock(took);
    *rc = 0;
    return 1;
}

HV_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
HV_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    int rc;
    if (virtual_segv(sig, act, old, &rc))
        return rc;
    return __sigaction(sig, act, old);
}

/*
 * signal() and its aliases set a disposition through the C library's
 * internal sigaction, which this library cannot see: for SIGSEGV while the
 * handler is in place they set the chained disposition here, with BSD
 * semantics (signal, bsd_signal: SA_RESTART, the signal blocked in its
 * handler) or System V ones (sysv_signal: reset to the default, not
 * blocked); otherwise they are the C library's own (found at load, so
 * that a first call from a signal handler does not look it up).
 */
typedef sighandler_t (*signal_fn)(int, sighandler_t);
static signal_fn real_signal, real_bsd_signal, real_sysv_signal;

__attribute__((constructor)) static void find_signal_fns(void)
{
    real_signal = (signal_fn)hv_real_dlsym(RTLD_NEXT, "signal");
    real_bsd_signal = (signal_fn)hv_real_dlsym(RTLD_NEXT, "bsd_signal");
    real_sysv_signal = (signal_fn)hv_real_dlsym(RTLD_NEXT, "sysv_signal");
}

static sighandler_t set_handler(int sig, sighandler_t h, int flags, signal_fn *real, const char *name)
{
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = h;
    sigemptyset(&act.sa_mask);
    if (!(flags & SA_NODEFER))
        sigaddset(&act.sa_mask, sig);
    act.sa_flags = flags;
    int rc;
    if (h != SIG_ERR && virtual_segv(sig, &act, &old, &rc))
        return old.sa_handler;
    if (!*real)
        *real = (signal_fn)hv_real_dlsym(RTLD_NEXT, name);
    if (!*real) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return (*real)(sig, h);
}

HV_EXPORT sighandler_t signal(int sig, sighandler_t h);
HV_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART, &real_signal, "signal");
}
HV_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h);
HV_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART, &real_bsd_signal, "bsd_signal");
}
HV_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h);
HV_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, (int)(SA_RESETHAND | SA_NODEFER), &real_sysv_signal, "sysv_signal");
}
HV_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t h);
HV_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t h) { return sysv_signal(sig, h); }
