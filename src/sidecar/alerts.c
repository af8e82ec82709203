/* Alert lines; see sidecar/alerts.h. */
#include "sidecar/alerts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/report/report.h"
#include "common/safe_file.h"
#include "sidecar/log.h"

int sc_alerts_open(struct sc_alerts *a, const char *path)
{
    memset(a, 0, sizeof *a);
    a->fd = -1;
    gethostname(a->host, sizeof a->host - 1);
    if (!path)
        return 0;
    /* Never through a symlink or into another user's file (safe_file.h);
     * 0600: alerts quote findings, which name the program's buffers. */
    int fd = hv_file_open_append(path, 0600);
    a->fd = fd < 0 ? -1 : fd;
    return fd < 0 ? fd : 0;
}

/* The finding object exactly as hipvis-analyze --json writes it (the
 * report's per-group writer). Returns a malloc'ed "{...}" or NULL. */
static char *finding_json(const struct hv_group *g)
{
    char *obj = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&obj, &len);
    if (!m)
        return NULL;
    struct hv_report_opts ro = {.fail_on = HV_SEV_NONE};
    hv_report_json_group(m, g, &ro);
    if (fclose(m) != 0) {
        free(obj);
        return NULL;
    }
    return obj;
}

/* A JSON string value, escaped by the analyzer's own escaper. */
static char *json_string(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    hv_json_str(m, s ? s : "");
    fclose(m);
    return buf;
}

void sc_alerts_emit(struct sc_alerts *a, const struct hv_group *g, const char *exe, const char *trace)
{
    if (a->fd < 0)
        return;
    char *obj = finding_json(g);
    char *jh = json_string(a->host), *je = json_string(exe), *jt = json_string(trace);
    char when[32];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *line = NULL;
    int n = obj && obj[0] == '{' && jh && je && jt
                ? asprintf(&line, "{\"time\":\"%s\",\"host\":%s,\"exe\":%s,\"trace\":%s,%s\n", when, jh, je, jt,
                           obj + 1)
                : -1;
    if (n > 0 && write(a->fd, line, (size_t)n) == n) {
        a->written++;
    } else {
        if (!a->failed)
            sc_log("alerts: cannot write an alert line: %s", n > 0 ? strerror(errno) : "out of memory");
        a->failed++;
    }
    free(line);
    free(obj);
    free(jh);
    free(je);
    free(jt);
}

void sc_alerts_close(struct sc_alerts *a)
{
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}
