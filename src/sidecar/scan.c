/* Segment discovery; see sidecar/scan.h. */
#include "sidecar/scan.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "ring/shm_layout.h"
#include "sidecar/log.h"

int sc_scan_open(struct sc_scan *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    s->dir = dir;
    DIR *d = opendir(dir);
    if (!d)
        return -errno;
    closedir(d);
    s->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (s->ifd >= 0 && inotify_add_watch(s->ifd, dir, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
        close(s->ifd);
        s->ifd = -1;
    }
    if (s->ifd < 0)
        sc_log("inotify on %s unavailable (%s): new segments are found by the periodic scan only", dir,
               strerror(errno));
    return 0;
}

void sc_scan_close(struct sc_scan *s)
{
    if (s->ifd >= 0)
        close(s->ifd);
    free(s->v);
    memset(s, 0, sizeof *s);
    s->ifd = -1;
}

static struct sc_seen *find(struct sc_scan *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0)
            return &s->v[i];
    return NULL;
}

void sc_scan_forget(struct sc_scan *s, const char *name)
{
    struct sc_seen *e = find(s, name);
    if (e)
        *e = s->v[--s->n];
}

void sc_scan_keep(struct sc_scan *s, const char *name)
{
    struct sc_seen *e = find(s, name);
    if (e)
        e->state = SC_SEEN_KEPT;
}

/* The entry for a name present in the directory; NULL when it is not a
 * segment name or has vanished. A new inode under a known name starts over. */
static struct sc_seen *note(struct sc_scan *s, const char *name)
{
    uint64_t uid, pid;
    char path[1024];
    struct stat st;
    if (strlen(name) >= sizeof s->v->name || hv_shm_parse_name(name, &uid, &pid) != 0)
        return NULL;
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    if (lstat(path, &st) != 0)
        return NULL;
    struct sc_seen *e = find(s, name);
    if (e && (e->dev != st.st_dev || e->ino != st.st_ino) && e->state != SC_SEEN_ACTIVE) {
        e->state = SC_SEEN_NEW;
        e->dev = st.st_dev;
        e->ino = st.st_ino;
    }
    if (!e) {
        if (!HV_GROW(s->v, s->n, s->cap, 64))
            return NULL;
        e = &s->v[s->n++];
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%s", name);
        e->dev = st.st_dev;
        e->ino = st.st_ino;
    }
    e->mark = 1;
    return e;
}

static void read_events(struct sc_scan *s)
{
    /* Aligned as the kernel's records are. */
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(s->ifd, buf, sizeof buf);
        if (n <= 0)
            return;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (ev->len)
                note(s, ev->name);
            p += sizeof *ev + ev->len;
        }
    }
}

static void full_scan(struct sc_scan *s)
{
    DIR *d = opendir(s->dir);
    if (!d)
        return;
    for (size_t i = 0; i < s->n; i++)
        s->v[i].mark = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        note(s, de->d_name);
    closedir(d);
    for (size_t i = 0; i < s->n;) {
        if (!s->v[i].mark && s->v[i].state != SC_SEEN_ACTIVE)
            s->v[i] = s->v[--s->n];
        else
            i++;
    }
}

void sc_scan_poll(struct sc_scan *s, int timeout_ms, int full, void (*fn)(void *ctx, struct sc_seen *e), void *ctx)
{
    if (s->ifd >= 0) {
        struct pollfd pfd = {.fd = s->ifd, .events = POLLIN};
        if (poll(&pfd, 1, timeout_ms) > 0)
            read_events(s);
    } else if (timeout_ms > 0) {
        poll(NULL, 0, timeout_ms);
    }
    if (full)
        full_scan(s);
    /* fn may forget entries (moving the last one into i): walk backwards. */
    for (size_t i = s->n; i-- > 0;) {
        struct sc_seen *e = &s->v[i];
        if (e->state == SC_SEEN_NEW || e->state == SC_SEEN_PENDING || (full && e->state == SC_SEEN_BUSY))
            fn(ctx, e);
    }
}
