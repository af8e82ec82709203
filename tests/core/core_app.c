/*
 * A small HIP program for the tracer's lifecycle tests: loops, threads that
 * exit, fork, exec and a process killed mid-loop. It runs on the TEST-ONLY
 * runtime double (or on the real runtime, where calls fail with "no device"
 * but are traced all the same).
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void copies(int n)
{
    static int host[64];
    void *dev = NULL;
    hipStream_t s = NULL;
    hipMalloc(&dev, sizeof host);
    hipStreamCreate(&s);
    for (int i = 0; i < n; i++) {
        host[0] = i;
        hipMemcpyAsync(dev, host, sizeof host, hipMemcpyHostToDevice, s);
        hipStreamSynchronize(s);
    }
    hipStreamDestroy(s);
    hipFree(dev);
}

static void *thread_main(void *arg)
{
    copies((int)(intptr_t)arg);
    return NULL;
}

static int run_threads(int nthreads, int n)
{
    pthread_t th[64];
    if (nthreads > 64)
        nthreads = 64;
    for (int i = 0; i < nthreads; i++)
        pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)n);
    for (int i = 0; i < nthreads; i++)
        pthread_join(th[i], NULL);
    /* Threads that exited gave their rings back; new ones must still trace. */
    for (int i = 0; i < nthreads; i++)
        pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)n);
    for (int i = 0; i < nthreads; i++)
        pthread_join(th[i], NULL);
    return 0;
}

static int run_fork(int n)
{
    copies(n);
    pid_t pid = fork();
    if (pid == 0) {
        copies(n);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    copies(n);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

/* Prints a line per 100 iterations so the test knows when to kill it. */
static _Noreturn void run_forever(void)
{
    for (long i = 0;; i++) {
        copies(1);
        if (i % 100 == 99) {
            printf("iter %ld\n", i + 1);
            fflush(stdout);
            usleep(1000);
        }
    }
}

/* A thread cancelled in the middle of its copies (usleep is a cancellation
 * point): its ring is handed back by the thread-exit path all the same. */
static void *cancel_main(void *arg)
{
    (void)arg;
    for (;;) {
        copies(1);
        usleep(100);
    }
    return NULL;
}

static int run_cancel(int n)
{
    pthread_t th;
    pthread_create(&th, NULL, cancel_main, NULL);
    copies(n);
    usleep(20000);
    pthread_cancel(th);
    pthread_join(th, NULL);
    copies(n);
    return 0;
}

/* vfork + exec: the child shares our memory and must not close our trace. */
static int run_vfork(int n)
{
    copies(n);
    pid_t pid = vfork();
    if (pid == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    copies(n);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "loop";
    int n = argc > 2 ? atoi(argv[2]) : 10;
    if (strcmp(mode, "loop") == 0) {
        copies(n);
        return 0;
    }
    if (strcmp(mode, "threads") == 0)
        return run_threads(argc > 3 ? atoi(argv[3]) : 4, n);
    if (strcmp(mode, "fork") == 0)
        return run_fork(n);
    if (strcmp(mode, "forever") == 0)
        run_forever();
    if (strcmp(mode, "exec") == 0) {
        copies(n);
        char count[16];
        snprintf(count, sizeof count, "%d", n);
        execl("/proc/self/exe", argv[0], "loop", count, (char *)NULL);
        perror("execl");
        return 1;
    }
    if (strcmp(mode, "execfail") == 0) {
        /* exec fails: tracing resumes into a second file of the same pid. */
        copies(n);
        execl("/nonexistent/hipvis-no-such-program", "x", (char *)NULL);
        copies(n);
        return 0;
    }
    if (strcmp(mode, "cancel") == 0)
        return run_cancel(n);
    if (strcmp(mode, "vfork") == 0)
        return run_vfork(n);
    if (strcmp(mode, "crash") == 0) {
        /* Dies by SIGSEGV without any chance to close the trace. */
        copies(n);
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return 3;
    }
    fprintf(stderr, "usage: %s loop|threads|fork|forever|exec|execfail|cancel|vfork|crash [N] [threads]\n",
            argv[0]);
    return 2;
}
