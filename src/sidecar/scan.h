/*
 * Finding segments: inotify on the segment directory for new names as they
 * appear, plus a full directory scan every --scan-ms (a fallback for missed
 * events or no inotify, and what finds the segments that existed before the
 * sidecar started). The table remembers each name with the inode it had and
 * what became of it, so a refused or corrupt segment is reported once, not
 * at every scan, and a new file under an old name is looked at afresh.
 */
#ifndef HV_SIDECAR_SCAN_H
#define HV_SIDECAR_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum sc_seen_state {
    SC_SEEN_NEW = 0,      /* not looked at yet */
    SC_SEEN_ACTIVE,       /* being drained */
    SC_SEEN_SKIPPED,      /* refused or corrupt: reported once, never retried */
    SC_SEEN_PENDING,      /* header not complete: retried every cycle for a while */
    SC_SEEN_BUSY,         /* held by another sidecar: retried at full scans */
    SC_SEEN_KEPT,         /* left undrained (no trace file could be created): for a later sidecar */
};

struct sc_seen {
    char name[256];
    dev_t dev;
    ino_t ino;
    int state;            /* enum sc_seen_state */
    uint64_t since_ns;    /* PENDING: first seen */
    int mark;             /* full scan: still present */
};

struct sc_scan {
    const char *dir;
    int ifd;              /* inotify descriptor, -1 without */
    struct sc_seen *v;
    size_t n, cap;
};

/* 0, or -errno when the directory cannot be read at all. */
int sc_scan_open(struct sc_scan *s, const char *dir);
void sc_scan_close(struct sc_scan *s);

/* Waits up to timeout_ms for directory events, then returns the entries to
 * look at (new names, changed inodes, pending and, on a full scan, busy
 * ones) through fn. Entries whose file disappeared are forgotten on full
 * scans, except ACTIVE ones (their owner forgets them). */
void sc_scan_poll(struct sc_scan *s, int timeout_ms, int full, void (*fn)(void *ctx, struct sc_seen *e), void *ctx);
void sc_scan_forget(struct sc_scan *s, const char *name);
/* Marks a name KEPT: never looked at again by this sidecar unless a new
 * file appears under it. */
void sc_scan_keep(struct sc_scan *s, const char *name);

#endif
