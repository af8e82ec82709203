/*
 * TEST-ONLY: N LTTng-UST events of the hvbench:call tracepoint, back to back
 * (the CTF trace babeltrace2's counter reads in make bench-format).
 *   lttng_loop N
 */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "lttng_tp.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    static char dst[64], src[64];
    for (long i = 0; i < n; i++)
        tracepoint(hvbench, call, (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, 64, 3, 0x1000);
    printf("lttng_loop: %ld events\n", n);
    return 0;
}
