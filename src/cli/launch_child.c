/*
 * The command as a child: fork, exec, pass on signals, wait (launch_child.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/launch_child.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

static volatile sig_atomic_t child;   /* its pid while it runs, else 0 */

static void pass_on(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    pid_t pid = (pid_t)child;
    /* SI_KERNEL: the terminal signalled its foreground group, which the
     * child is in; from the child itself: it meant its parent. */
    if (pid > 0 && si->si_code != SI_KERNEL && !(si->si_code == SI_USER && si->si_pid == pid))
        kill(pid, sig);
}

/* The exec's errno through a close-on-exec pipe: EOF means it ran. */
static int exec_errno(int fd)
{
    int e = 0;
    ssize_t n;
    do
        n = read(fd, &e, sizeof e);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof e ? e : 0;
}

int hv_launch_run_child(const char *prog, char **argv, int *status)
{
    sigset_t fwd, old;
    sigemptyset(&fwd);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&fwd, forwarded[i]);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        fprintf(stderr, "%s: pipe: %s\n", prog, strerror(errno));
        return 2;
    }
    /* Blocked until the handlers know the child's pid: a signal in between
     * waits rather than being lost or killing the launcher alone. */
    sigprocmask(SIG_BLOCK, &fwd, &old);
    pid_t pid = fork();
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(pipefd[0]);
        execvp(argv[0], argv);
        int e = errno;
        if (write(pipefd[1], &e, sizeof e) < 0) {
        }
        _exit(127);
    }
    int fork_errno = errno;
    close(pipefd[1]);
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(pipefd[0]);
        fprintf(stderr, "%s: fork: %s\n", prog, strerror(fork_errno));
        return 2;
    }
    child = pid;
    struct sigaction sa, before[NFORWARDED];
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = pass_on;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, &before[i]);
    sigprocmask(SIG_SETMASK, &old, NULL);

    int e = exec_errno(pipefd[0]);
    close(pipefd[0]);
    pid_t w;
    do
        w = waitpid(pid, status, 0);
    while (w < 0 && errno == EINTR);
    /* Reaped: its pid may be reused, so nothing more is passed on. */
    sigprocmask(SIG_BLOCK, &fwd, NULL);
    child = 0;
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &before[i], NULL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (e) {
        fprintf(stderr, "%s: %s: %s\n", prog, argv[0], strerror(e));
        return e == ENOENT ? 127 : 126;
    }
    if (w < 0) {
        fprintf(stderr, "%s: waitpid: %s\n", prog, strerror(errno));
        return 2;
    }
    return 0;
}

int hv_launch_exit_like(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (!WIFSIGNALED(status))
        return 1;
    int sig = WTERMSIG(status);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    return 128 + sig;
}
