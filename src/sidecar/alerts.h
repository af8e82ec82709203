/*
 * The alerts file: one JSON line per NEW finding group, appended once, when
 * the streaming analysis first sees it. Each line is the finding object of
 * `hipvis-analyze --json` (schema in docs/analysis.md) with four fields put
 * in front: "time" (UTC, ISO 8601), "host", "exe" and "trace" (the file the
 * sidecar was writing for that process). The count and seqs are those at
 * the moment the group appeared; the trace has the rest.
 *
 * Lines are written with one write(2) on an O_APPEND descriptor, so a tailing
 * reader (or a second sidecar on the same file) never sees half a line.
 */
#ifndef HV_SIDECAR_ALERTS_H
#define HV_SIDECAR_ALERTS_H

#include <stdint.h>

#include "analyze/findings.h"

struct sc_alerts {
    int fd;                    /* -1: alerts off */
    char host[64];
    uint64_t written, failed;
};

/* path NULL: alerts off. 0, or -errno. */
int sc_alerts_open(struct sc_alerts *a, const char *path);
void sc_alerts_emit(struct sc_alerts *a, const struct hv_group *g, const char *exe, const char *trace);
void sc_alerts_close(struct sc_alerts *a);

#endif
