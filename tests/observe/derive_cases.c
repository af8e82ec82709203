/*
 * derive_cases.c - TEST-ONLY program: every way a stream's epoch advances,
 * its capture state changes and a copy's memory kinds are decided, in one
 * scripted sequence on the HIP runtime test double (two devices:
 * HIPDOUBLE_DEVICES=2), each observation followed by a copy on every stream
 * it may or may not cover, so that each stream's epoch shows in a record.
 * tests/observe/observe.py runs it under libhipvis.so and checks, with
 * tests/observe/derive_streams.py and derive_kinds.py, that every such field
 * the library recorded at the call is the one a reader derives from the
 * records alone (the rules of src/tracer/core/stream_table.h and allocmap.h): the
 * premise of deriving them off the calling thread (argument records,
 * docs/performance.md).
 *
 * The observations: a legacy-NULL stream synchronize (the device's blocking
 * streams), a successful NULL-stream query, a stream synchronize, a
 * successful stream query, an event synchronize, a blocking copy, a blocking
 * memset, a device synchronize on each device, and hipStreamLegacy's own
 * synchronize; the streams: blocking, non-blocking, the legacy stream, the
 * per-thread stream, and one created on device 1 and used from device 0.
 * The captures: one stream alone, then a capture forked to a second stream
 * through an event and joined back before it ends. The memory kinds
 * (tests/observe/derive_kinds.py): Default-kind copies between device,
 * pinned, registered, managed and pageable memory, inside and outside an
 * allocation, before and after a free and a re-allocation.
 * Exit status 0, 1 when a runtime call failed.
 */
#define OK_PROG "derive_cases"
#include "hip_ok.h"

#include <stdio.h>

#define N 256

static char host[N];
static void *dev;

/* One async copy on each stream: each record shows that stream's epoch now. */
static void touch(hipStream_t *s, int n)
{
    for (int i = 0; i < n; i++)
        OK(hipMemcpyAsync(dev, host, N, hipMemcpyHostToDevice, s[i]));
}

/* A capture on `a` alone, then one forked to `b` (b waits on an event of a)
 * and joined back (a waits on an event of b) before it ends: between the
 * fork and the end, calls on both are captured; after it, neither is. */
static void capture(hipStream_t a, hipStream_t b, hipStream_t *s)
{
    hipGraph_t g;
    hipEvent_t fork, join;
    OK(hipEventCreate(&fork));
    OK(hipEventCreate(&join));
    OK(hipStreamBeginCapture(a, hipStreamCaptureModeThreadLocal));
    touch(s, 2);   /* a captured, b not */
    OK(hipStreamEndCapture(a, &g));
    OK(hipGraphDestroy(g));
    OK(hipStreamBeginCapture(a, hipStreamCaptureModeThreadLocal));
    OK(hipEventRecord(fork, a));
    OK(hipStreamWaitEvent(b, fork, 0));
    touch(s, 2);   /* both captured */
    OK(hipEventRecord(join, b));
    OK(hipStreamWaitEvent(a, join, 0));
    OK(hipStreamEndCapture(a, &g));
    OK(hipGraphDestroy(g));
    OK(hipEventDestroy(join));
    OK(hipEventDestroy(fork));
}

/* Every pair of memory kinds through hipMemcpyDefault, whose direction the
 * record derives from both sides' kinds; then the same after the device
 * buffer is freed (its address is unknown memory) and allocated again. */
static void kinds(hipStream_t s)
{
    static char registered[N], pageable[N];
    void *pinned = NULL, *managed = NULL, *device = NULL;
    OK(hipHostMalloc(&pinned, N, 0));
    OK(hipMallocManaged(&managed, N, hipMemAttachGlobal));
    OK(hipMalloc(&device, N));
    OK(hipHostRegister(registered, N, 0));
    void *side[] = {device, pinned, registered, managed, pageable, (char *)device + N / 2};
    const int k = (int)(sizeof side / sizeof side[0]);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++)
                if (i != j)
                    OK(hipMemcpyAsync(side[i], side[j], N / 4, hipMemcpyDefault, s));
        OK(hipStreamSynchronize(s));
        if (round == 0) {
            OK(hipFree(device));
            (void)hipMemcpyAsync(pinned, device, N / 4, hipMemcpyDefault, s);   /* freed: the runtime may refuse */
            OK(hipStreamSynchronize(s));
            OK(hipMalloc(&device, N));
            side[0] = device;
            side[k - 1] = (char *)device + N / 2;
        }
    }
    OK(hipHostUnregister(registered));
    (void)hipMemcpyAsync(device, registered, N / 4, hipMemcpyDefault, s);   /* unregistered: pageable */
    OK(hipStreamSynchronize(s));
    OK(hipFree(device));
    OK(hipFree(managed));
    OK(hipHostFree(pinned));
}

int main(void)
{
    hipStream_t blocking, nonblocking, other;
    hipEvent_t ev;
    OK(hipSetDevice(0));
    OK(hipMalloc(&dev, N));
    OK(hipStreamCreate(&blocking));
    OK(hipStreamCreateWithFlags(&nonblocking, hipStreamNonBlocking));
    OK(hipEventCreate(&ev));
    OK(hipSetDevice(1));
    OK(hipStreamCreateWithFlags(&other, hipStreamNonBlocking));   /* device 1's */
    OK(hipSetDevice(0));
    hipStream_t all[] = {blocking, nonblocking, NULL, hipStreamPerThread, other};
    const int n = (int)(sizeof all / sizeof all[0]);
    touch(all, n);
    OK(hipStreamSynchronize(NULL));        /* legacy: the blocking streams of device 0 */
    touch(all, n);
    (void)hipStreamQuery(NULL);            /* runs the work (not ready), then */
    OK(hipStreamQuery(NULL));              /* a successful query observes as a synchronize */
    touch(all, n);
    OK(hipStreamSynchronize(nonblocking)); /* one stream */
    touch(all, n);
    (void)hipStreamQuery(blocking);
    OK(hipStreamQuery(blocking));
    touch(all, n);
    OK(hipEventRecord(ev, blocking));
    OK(hipEventSynchronize(ev));           /* the event's stream */
    touch(all, n);
    OK(hipMemcpy(dev, host, N, hipMemcpyHostToDevice));   /* blocking copy: the NULL stream */
    touch(all, n);
    OK(hipMemset(dev, 0, N));              /* blocking memset: the NULL stream, an epoch record */
    touch(all, n);
    OK(hipStreamSynchronize(hipStreamLegacy));   /* the legacy stream alone */
    touch(all, n);
    OK(hipDeviceSynchronize());            /* every stream of device 0 */
    touch(all, n);
    OK(hipSetDevice(1));
    OK(hipDeviceSynchronize());            /* device 1's: `other` only */
    OK(hipSetDevice(0));
    touch(all, n);
    OK(hipStreamSynchronize(hipStreamPerThread));
    touch(all, n);
    capture(blocking, nonblocking, all);   /* all[0], all[1] */
    touch(all, n);
    kinds(nonblocking);
    OK(hipDeviceSynchronize());
    OK(hipEventDestroy(ev));
    OK(hipStreamDestroy(other));
    OK(hipStreamDestroy(nonblocking));
    OK(hipStreamDestroy(blocking));
    OK(hipFree(dev));
    return ok_failed;
}
