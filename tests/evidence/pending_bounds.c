/*
 * pending_bounds.c - TEST-ONLY program: the rewrite check's pending lists
 * at their bounds (src/tracer/evidence/payload.c: at most 64 streams with copies
 * waiting for their observation, 32 copies a stream), on the HIP runtime
 * test double. tests/evidence/evidence.py runs it under libhipvis.so with
 * HIPVIS_REWRITE_EVERY=1 (every eligible copy checked) and reads the
 * payload records back. Each phase ends with a hipDeviceSynchronize, which
 * observes every stream and so empties every list:
 *   1. one pinned H2D async copy on each of 70 non-blocking streams: the
 *      copies of the first 64 streams are checked (payload `when` 0), the
 *      last 6 find no free list (`when` 2, unchecked);
 *   2. one copy on each of the last 3 streams: checked, since phase 1's
 *      synchronize freed the lists;
 *   3. 40 copies on one stream: 32 checked, 8 not;
 *   4. one copy on each of the first 10 streams, each from its own 64-byte
 *      slice of the pinned buffer, then the host rewrites stream 7's slice
 *      before the synchronize: one `when` 1 (observed rewritten) record,
 *      for that slice, after the synchronize (the observation finds a list
 *      that is not the first in use).
 * Prints "pending_bounds: src=0x... streams=70", exit status 0, 1 when a
 * runtime call failed.
 */
#define OK_PROG "pending_bounds"
#include "../observe/hip_ok.h"

#include <stdio.h>
#include <string.h>

#define STREAMS 70
#define SLICE 64

int main(void)
{
    hipStream_t s[STREAMS];
    unsigned char *host = NULL;
    void *dev = NULL;
    OK(hipHostMalloc((void **)&host, STREAMS * SLICE, 0));
    OK(hipMalloc(&dev, STREAMS * SLICE));
    if (!host || !dev)
        return 1;
    memset(host, 1, STREAMS * SLICE);
    for (int i = 0; i < STREAMS; i++)
        OK(hipStreamCreateWithFlags(&s[i], hipStreamNonBlocking));
    printf("pending_bounds: src=%p streams=%d\n", (void *)host, STREAMS);

    for (int i = 0; i < STREAMS; i++)   /* 1 */
        OK(hipMemcpyAsync((char *)dev + i * SLICE, host + i * SLICE, SLICE, hipMemcpyHostToDevice, s[i]));
    OK(hipDeviceSynchronize());

    for (int i = STREAMS - 3; i < STREAMS; i++)   /* 2 */
        OK(hipMemcpyAsync((char *)dev + i * SLICE, host + i * SLICE, SLICE, hipMemcpyHostToDevice, s[i]));
    OK(hipDeviceSynchronize());

    for (int k = 0; k < 40; k++)   /* 3 */
        OK(hipMemcpyAsync(dev, host, SLICE, hipMemcpyHostToDevice, s[0]));
    OK(hipDeviceSynchronize());

    for (int i = 0; i < 10; i++)   /* 4 */
        OK(hipMemcpyAsync((char *)dev + i * SLICE, host + i * SLICE, SLICE, hipMemcpyHostToDevice, s[i]));
    host[7 * SLICE + 5] = 2;
    OK(hipDeviceSynchronize());

    for (int i = 0; i < STREAMS; i++)
        OK(hipStreamDestroy(s[i]));
    OK(hipFree(dev));
    OK(hipHostFree(host));
    return ok_failed;
}
