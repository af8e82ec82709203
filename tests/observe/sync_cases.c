/*
 * sync_cases.c - TEST-ONLY program: one host observation per case, between
 * a write of buffer A and a graph replay that reads A (a captured D2D copy
 * A -> B), on the HIP runtime test double. tests/observe/observe.py runs it
 * under libhipvis.so and checks what the analyzer concludes against the
 * runtime's rules (docs/semantics.md, "Host observations").
 *
 * usage: sync_cases CASE [STREAMS]
 *   null-sync-nonblocking   copy on a non-blocking stream, hipStreamSynchronize(NULL), replay
 *                           on another non-blocking stream: NOT ordered (CLR waits for blocking
 *                           streams only)
 *   null-query-nonblocking  the same with a successful hipStreamQuery(NULL)
 *   null-sync-blocking      copy on a blocking stream, hipStreamSynchronize(NULL): ordered
 *   device-sync-nonblocking copy on a non-blocking stream, hipDeviceSynchronize: ordered
 *   stream-sync-nonblocking copy on a non-blocking stream, hipStreamSynchronize(it): ordered
 *   legacy-handle-replay    copy on NULL, replay on hipStreamLegacy, no sync: same stream, same
 *                           epoch (a hazard on the one legacy stream)
 *   legacy-handle-sync      copy on NULL, hipStreamSynchronize(hipStreamLegacy), replay on NULL:
 *                           ordered
 *   pageable-blocking-copy  blocking hipMemcpy H2D from pageable memory on NULL, replay on a
 *                           non-blocking stream: NOT ordered (the copy may return once staged)
 *   pinned-blocking-copy    the same from pinned memory: ordered
 * STREAMS (default 0): extra non-blocking streams created first, as PyTorch's pools do.
 * Exit status 0, 2 on bad arguments, 1 when a runtime call failed.
 */
#define OK_PROG "sync_cases"
#include "hip_ok.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096


/* A graph whose one node reads A (copies it to B), replayed on `s`. */
static hipGraphExec_t reader_graph(hipStream_t cap, void *a, void *b)
{
    hipGraph_t g;
    hipGraphExec_t x = NULL;
    OK(hipStreamBeginCapture(cap, hipStreamCaptureModeThreadLocal));
    OK(hipMemcpyAsync(b, a, N, hipMemcpyDeviceToDevice, cap));
    OK(hipStreamEndCapture(cap, &g));
    OK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
    OK(hipGraphDestroy(g));
    return x;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: sync_cases CASE [STREAMS]\n");
        return 2;
    }
    const char *c = argv[1];
    int extra = argc == 3 ? atoi(argv[2]) : 0;
    for (int i = 0; i < extra; i++) {
        hipStream_t s;
        OK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    }
    void *a, *b, *pinned;
    OK(hipMalloc(&a, N));
    OK(hipMalloc(&b, N));
    OK(hipHostMalloc(&pinned, N, 0));
    char *pageable = calloc(1, N);
    hipStream_t nb, reader, blocking;
    OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
    OK(hipStreamCreateWithFlags(&reader, hipStreamNonBlocking));
    OK(hipStreamCreate(&blocking));
    hipStream_t capture;
    OK(hipStreamCreateWithFlags(&capture, hipStreamNonBlocking));
    hipGraphExec_t x = reader_graph(capture, a, b);
    OK(hipDeviceSynchronize());   /* setup complete: nothing pending below but the case */

    if (!strcmp(c, "null-sync-nonblocking")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, nb));
        OK(hipStreamSynchronize(NULL));
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "null-query-nonblocking")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, nb));
        hipError_t q;
        while ((q = hipStreamQuery(NULL)) == hipErrorNotReady) {
        }
        OK(q);
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "null-sync-blocking")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, blocking));
        OK(hipStreamSynchronize(NULL));
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "device-sync-nonblocking")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, nb));
        OK(hipDeviceSynchronize());
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "stream-sync-nonblocking")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, nb));
        OK(hipStreamSynchronize(nb));
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "legacy-handle-replay")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, NULL));
        OK(hipGraphLaunch(x, hipStreamLegacy));
    } else if (!strcmp(c, "legacy-handle-sync")) {
        OK(hipMemcpyAsync(a, pinned, N, hipMemcpyHostToDevice, NULL));
        OK(hipStreamSynchronize(hipStreamLegacy));
        OK(hipGraphLaunch(x, NULL));
    } else if (!strcmp(c, "pageable-blocking-copy")) {
        OK(hipMemcpy(a, pageable, N, hipMemcpyHostToDevice));
        OK(hipGraphLaunch(x, reader));
    } else if (!strcmp(c, "pinned-blocking-copy")) {
        OK(hipMemcpy(a, pinned, N, hipMemcpyHostToDevice));
        OK(hipGraphLaunch(x, reader));
    } else {
        fprintf(stderr, "sync_cases: unknown case %s\n", c);
        return 2;
    }
    OK(hipDeviceSynchronize());
    OK(hipGraphExecDestroy(x));
    free(pageable);
    return ok_failed;
}
