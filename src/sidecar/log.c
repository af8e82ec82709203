#include "sidecar/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

int sc_log_quiet;

static void vlog(const char *fmt, va_list ap)
{
    char when[32], msg[2048];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* One fprintf per line: lines of a crashing sidecar are never interleaved halves. */
    fprintf(stderr, "hipvis-sidecar: %s %s\n", when, msg);
}

void sc_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void sc_info(const char *fmt, ...)
{
    if (sc_log_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}
