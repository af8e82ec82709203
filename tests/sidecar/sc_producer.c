/*
 * Load generator for the sidecar tests (TEST-ONLY): a HIP program on the
 * runtime double that issues calls at a fixed rate and says how many it made.
 *
 *   sc_producer RATE SECONDS [KILL_AFTER|fork|execfail]
 *
 * RATE calls per second (hipMemcpyAsync on one stream, a hipStreamSynchronize
 * every 256 copies so the double's queue stays short), paced in 1 ms steps,
 * for SECONDS. Prints "pid P calls N" (every HIP call it made, setup
 * included) on stdout at the end. With KILL_AFTER, it prints the line and
 * SIGKILLs itself once it has made that many calls: a crash at a known
 * point. With "fork", it forks after its setup calls and both processes run
 * the loop, each printing its own line (the child counts from the fork).
 * With "execfail", it tries to exec a program that does not exist after its
 * setup calls (the tracer closes and then reopens its segment), then goes on.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t calls;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Counts every call made, whatever it returns: each is one traced call. */
#define CALL(x) ((void)(x), calls++)

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sc_producer RATE SECONDS [KILL_AFTER|fork|execfail]\n");
        return 2;
    }
    double rate = atof(argv[1]), secs = atof(argv[2]);
    int do_fork = argc > 3 && !strcmp(argv[3], "fork");
    int exec_fail = argc > 3 && !strcmp(argv[3], "execfail");
    uint64_t kill_after = argc > 3 && !do_fork && !exec_fail ? strtoull(argv[3], NULL, 10) : 0;
    static int host[16];
    void *dev = NULL;
    hipStream_t s = NULL;
    CALL(hipMalloc(&dev, sizeof host));
    CALL(hipStreamCreate(&s));
    if (exec_fail)
        execl("/nonexistent/hipvis-test", "hipvis-test", (char *)NULL);
    pid_t child = do_fork ? fork() : -1;
    if (child == 0)
        calls = 0;
    uint64_t t0 = now_ns(), end = t0 + (uint64_t)(secs * 1e9), copies = 0;
    for (;;) {
        uint64_t t = now_ns();
        if (t >= end)
            break;
        /* Catch up to where the rate says we should be, then sleep 1 ms. */
        uint64_t due = (uint64_t)((double)(t - t0) * rate / 1e9);
        while (copies < due) {
            CALL(hipMemcpyAsync(dev, host, sizeof host, hipMemcpyHostToDevice, s));
            if (++copies % 256 == 0)
                CALL(hipStreamSynchronize(s));
            if (kill_after && calls >= kill_after) {
                printf("pid %ld calls %llu\n", (long)getpid(), (unsigned long long)calls);
                fflush(stdout);
                raise(SIGKILL);
            }
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    CALL(hipStreamSynchronize(s));
    CALL(hipStreamDestroy(s));
    CALL(hipFree(dev));
    printf("pid %ld calls %llu\n", (long)getpid(), (unsigned long long)calls);
    fflush(stdout);
    if (child > 0)
        waitpid(child, NULL, 0);
    return 0;
}
