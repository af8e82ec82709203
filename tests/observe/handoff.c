/*
 * handoff.c - TEST-ONLY program: host happens-before across threads with
 * per-thread sequence numbers (issue 13, docs/trace-format.md "Ordering
 * without a shared counter"), on the HIP runtime test double.
 *
 * Thread A copies pinned -> A_buf on a non-blocking stream and synchronizes
 * that stream; thread B replays a graph that reads A_buf on another
 * non-blocking stream. The only thing that orders A's observation before
 * B's replay is how the threads hand over:
 *   mutex    A sets a ready bit under a mutex after its sync; B polls it under the mutex
 *   condvar  A signals a condition variable after its sync; B waits on it
 *   flag     A stores an atomic flag (release) after its sync; B spins on it (acquire)
 *   race     B replays without waiting for A's sync (A waits for B's replay before
 *            synchronizing): the replay is concurrent with the copy -> a hazard
 *   alone    as mutex, with the main thread as A while it is the only thread that
 *            has traced (its clock reads take no fence, docs/trace-format.md), and
 *            B's first traced call the replay of round 0: the handover that makes
 *            the process multi-threaded must order like any other
 * Every handover repeats ROUNDS times with fresh copies. The analyzer must
 * order the first three (no finding) and report the last.
 * usage: handoff MODE
 */
#define OK_PROG "handoff"
#include "hip_ok.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1024
#define ROUNDS 20

static int mode;   /* 0 mutex, 1 condvar, 2 flag, 3 race, 4 alone (mutex, A on the main thread) */
static void *a_buf, *b_buf, *pinned;
static hipStream_t sa, sb, cap;
static hipGraphExec_t exec;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready_round = -1;         /* under mu */
static _Atomic int flag_round = -1;
static _Atomic int replayed_round = -1;
static _Atomic int copied_round = -1;   /* race: B replays after A's copy, before A's sync */

static void *thread_a(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        memset(pinned, r, N);
        OK(hipMemcpyAsync(a_buf, pinned, N, hipMemcpyHostToDevice, sa));
        atomic_store_explicit(&copied_round, r, memory_order_release);
        if (mode == 3)   /* race: B replays before A observes its copy */
            while (atomic_load_explicit(&replayed_round, memory_order_acquire) < r) {
            }
        OK(hipStreamSynchronize(sa));
        switch (mode) {
        case 0:
        case 1:
        case 4:
            pthread_mutex_lock(&mu);
            ready_round = r;
            if (mode == 1)
                pthread_cond_signal(&cv);
            pthread_mutex_unlock(&mu);
            break;
        case 2:
            atomic_store_explicit(&flag_round, r, memory_order_release);
            break;
        default:
            break;
        }
        /* Next round only once B replayed this one (the copy of round r+1
         * must not overwrite what round r's replay reads). */
        while (atomic_load_explicit(&replayed_round, memory_order_acquire) < r) {
        }
    }
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        switch (mode) {
        case 0:
        case 4:
            for (;;) {
                pthread_mutex_lock(&mu);
                int done = ready_round >= r;
                pthread_mutex_unlock(&mu);
                if (done)
                    break;
            }
            break;
        case 1:
            pthread_mutex_lock(&mu);
            while (ready_round < r)
                pthread_cond_wait(&cv, &mu);
            pthread_mutex_unlock(&mu);
            break;
        case 2:
            while (atomic_load_explicit(&flag_round, memory_order_acquire) < r) {
            }
            break;
        default:   /* race: after A's copy, but no handover of A's observation */
            while (atomic_load_explicit(&copied_round, memory_order_acquire) < r) {
            }
            break;
        }
        OK(hipGraphLaunch(exec, sb));
        OK(hipStreamSynchronize(sb));
        atomic_store_explicit(&replayed_round, r, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"mutex", "condvar", "flag", "race", "alone"};
    mode = -1;
    for (int i = 0; argc == 2 && i < 5; i++)
        if (!strcmp(argv[1], modes[i]))
            mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: handoff mutex|condvar|flag|race|alone\n");
        return 2;
    }
    OK(hipMalloc(&a_buf, N));
    OK(hipMalloc(&b_buf, N));
    OK(hipHostMalloc(&pinned, N, 0));
    OK(hipStreamCreateWithFlags(&sa, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&sb, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&cap, hipStreamNonBlocking));
    hipGraph_t g;
    OK(hipStreamBeginCapture(cap, hipStreamCaptureModeThreadLocal));
    OK(hipMemcpyAsync(b_buf, a_buf, N, hipMemcpyDeviceToDevice, cap));
    OK(hipStreamEndCapture(cap, &g));
    OK(hipGraphInstantiate(&exec, g, NULL, NULL, 0));
    OK(hipDeviceSynchronize());
    pthread_t ta, tb;
    pthread_create(&tb, NULL, thread_b, NULL);
    if (mode == 4) {
        thread_a(NULL);   /* B has made no traced call before round 0's handover */
    } else {
        pthread_create(&ta, NULL, thread_a, NULL);
        pthread_join(ta, NULL);
    }
    pthread_join(tb, NULL);
    OK(hipDeviceSynchronize());
    return ok_failed;
}
