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

void sc_alerts_emit(struct sc_alerts *a, const struct hv_group *g, const char *exe, const char *trace)
{
    if (a->fd < 0)
        return;
    char when[32];
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    /* One line: where and when, then the finding's members exactly as
     * hipvis-analyze --json writes them (the report's per-group writer). */
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    hv_json_obj(&w);
    hv_json_kstr(&w, "time", when);
    hv_json_kstr(&w, "host", a->host);
    hv_json_kstr(&w, "exe", exe ? exe : "");
    hv_json_kstr(&w, "trace", trace ? trace : "");
    struct hv_report_opts ro = {.fail_on = HV_SEV_NONE};
    hv_report_json_group(&w, g, &ro);
    hv_json_obj_end(&w);
    hv_json_eol(&w);
    size_t n = 0;
    char *line = hv_json_take(&w, &n);
    if (line && write(a->fd, line, n) == (ssize_t)n) {
        a->written++;
    } else {
        if (!a->failed)
            sc_log("alerts: cannot write an alert line: %s", line ? strerror(errno) : "out of memory");
        a->failed++;
    }
    free(line);
}

void sc_alerts_close(struct sc_alerts *a)
{
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}
