/* Consumer side of a segment; see sidecar/segment.h. */
#include "sidecar/segment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/rec_layout.h"

#define RING_MIN_BYTES (16u * 1024u)
#define RING_MAX_BYTES (1024ull * 1024u * 1024u)

static enum sc_open_status fail(struct sc_segment *s, enum sc_open_status st, char *why, size_t whylen,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static enum sc_open_status fail(struct sc_segment *s, enum sc_open_status st, char *why, size_t whylen,
                                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    sc_segment_close(s);
    return st;
}

/* Ownership and kind of the opened file: the checks that keep one user's
 * sidecar from reading (or being fed) another user's data. */
static enum sc_open_status check_file(struct sc_segment *s, const struct stat *st, uint64_t name_uid, char *why,
                                      size_t whylen)
{
    uid_t me = geteuid();
    if (!S_ISREG(st->st_mode))
        return fail(s, SC_SEG_REFUSED, why, whylen, "not a regular file");
    if (st->st_uid != me)
        return fail(s, SC_SEG_REFUSED, why, whylen, "owned by uid %u, not by this sidecar's uid %u",
                    (unsigned)st->st_uid, (unsigned)me);
    if ((st->st_mode & 07777) != 0600)
        return fail(s, SC_SEG_REFUSED, why, whylen, "mode %04o, not 0600", (unsigned)(st->st_mode & 07777));
    if (st->st_nlink != 1)
        return fail(s, SC_SEG_REFUSED, why, whylen, "%lu hard links, not 1", (unsigned long)st->st_nlink);
    if (name_uid != (uint64_t)st->st_uid)
        return fail(s, SC_SEG_REFUSED, why, whylen, "name says uid %llu, owner is uid %u",
                    (unsigned long long)name_uid, (unsigned)st->st_uid);
    return SC_SEG_OK;
}

/* The header fields that address memory must match the geometry we compute
 * from ring_bytes ourselves; anything else is a corrupt or foreign segment. */
static enum sc_open_status check_header(struct sc_segment *s, const struct hv_shm_header *h, uint64_t name_pid,
                                        uint64_t file_bytes, char *why, size_t whylen)
{
    struct hv_shm_geometry g;
    if (h->version != HV_SHM_VERSION)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "segment version %u, this sidecar reads %u", h->version,
                    HV_SHM_VERSION);
    if (h->header_bytes != sizeof *h)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "header_bytes %u, expected %zu", h->header_bytes, sizeof *h);
    if (h->pid != name_pid)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "header pid %llu differs from the name's %llu",
                    (unsigned long long)h->pid, (unsigned long long)name_pid);
    if (h->uid != (uint64_t)geteuid())
        return fail(s, SC_SEG_CORRUPT, why, whylen, "header uid %llu differs from the owner", (unsigned long long)h->uid);
    uint64_t rb = h->ring_bytes;
    if (rb < RING_MIN_BYTES || rb > RING_MAX_BYTES || (rb & (rb - 1)) != 0)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "ring_bytes %llu is not a power of two in 16 KiB..1 GiB",
                    (unsigned long long)rb);
    hv_shm_geometry(rb, &g);
    if (h->collector_offset != g.collector_offset || h->collector_bytes != g.collector_bytes ||
        h->rings_offset != g.rings_offset || h->ring_stride != g.ring_stride || h->nslots != HV_MAX_RINGS)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "geometry does not match ring_bytes %llu (built for another "
                    "hipvis version?)", (unsigned long long)rb);
    if (h->clock != HV_CLOCK_MONOTONIC && h->clock != HV_CLOCK_TSC_MONOTONIC)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "unknown clock %u", h->clock);
    if (file_bytes < g.rings_offset)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "file is %llu bytes, header needs %llu",
                    (unsigned long long)file_bytes, (unsigned long long)g.rings_offset);
    uint32_t state = atomic_load(&h->state);
    if (state < HV_SHM_LIVE || state > HV_SHM_FINALIZED)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "unknown state %u", state);
    return SC_SEG_OK;
}

static void copy_info(struct sc_seg_info *in, const struct hv_shm_header *h)
{
    in->pid = h->pid;
    in->ppid = h->ppid;
    in->uid = h->uid;
    in->proc_start_ticks = h->proc_start_ticks;
    in->tsc0 = h->tsc0;
    in->ns0 = h->ns0;
    in->clock = h->clock;
    in->nslots = h->nslots;
    in->ring_bytes = h->ring_bytes;
    in->ring_stride = h->ring_stride;
    in->rings_offset = h->rings_offset;
    in->collector_offset = h->collector_offset;
    in->file = h->file;
    /* Strings come from another process: terminate them ourselves. */
    struct hv_file_header *f = &in->file;
    f->hipvis_version[sizeof f->hipvis_version - 1] = '\0';
    f->host[sizeof f->host - 1] = '\0';
    f->runtime_path[sizeof f->runtime_path - 1] = '\0';
    f->runtime_version[sizeof f->runtime_version - 1] = '\0';
    f->exe[sizeof f->exe - 1] = '\0';
    f->knobs[sizeof f->knobs - 1] = '\0';
    hv_header_argv_sanitize(f);
    f->pid = h->pid;
    f->transport = HV_TRANSPORT_SHM;
    f->clock = HV_CLOCK_TSC_MONOTONIC == h->clock ? HV_CLOCK_TSC_MONOTONIC : HV_CLOCK_MONOTONIC;
}

enum sc_open_status sc_segment_open(struct sc_segment *s, const char *dir, const char *name, char *why,
                                    size_t whylen)
{
    uint64_t uid, pid;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (hv_shm_parse_name(name, &uid, &pid) != 0)
        return fail(s, SC_SEG_REFUSED, why, whylen, "not a segment name");
    if ((size_t)snprintf(s->path, sizeof s->path, "%s/%s", dir, name) >= sizeof s->path)
        return fail(s, SC_SEG_REFUSED, why, whylen, "path too long");
    /* O_NOFOLLOW: a symlink planted in a shared directory is refused, not followed. */
    s->fd = open(s->path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (s->fd < 0) {
        int e = errno;
        if (e == ENOENT)
            return fail(s, SC_SEG_GONE, why, whylen, "vanished");
        return fail(s, SC_SEG_REFUSED, why, whylen, "cannot open: %s",
                    e == ELOOP ? "it is a symbolic link" : strerror(e));
    }
    struct stat st;
    if (fstat(s->fd, &st) != 0)
        return fail(s, SC_SEG_GONE, why, whylen, "fstat: %s", strerror(errno));
    enum sc_open_status rc = check_file(s, &st, uid, why, whylen);
    if (rc != SC_SEG_OK)
        return rc;
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    /* One consumer per ring (SPSC): a second sidecar on the same directory
     * leaves segments another one holds alone. The lock dies with its holder,
     * so a restarted sidecar takes over. */
    if (flock(s->fd, LOCK_EX | LOCK_NB) != 0)
        return fail(s, errno == EWOULDBLOCK ? SC_SEG_BUSY : SC_SEG_REFUSED, why, whylen,
                    "locked by another sidecar");
    /* The magic is stored last: zero (or a file still empty) means the
     * producer is still writing the header; anything else is not ours. */
    uint64_t magic = 0;
    ssize_t got = pread(s->fd, &magic, sizeof magic, 0);
    if (got == (ssize_t)sizeof magic && magic != 0 && magic != HV_SHM_MAGIC)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "bad magic %016llx", (unsigned long long)magic);
    if (got != (ssize_t)sizeof magic || magic == 0)
        return fail(s, SC_SEG_NOT_READY, why, whylen, "header not complete (%lld bytes, no magic)",
                    (long long)st.st_size);
    if ((uint64_t)st.st_size < sizeof(struct hv_shm_header))
        return fail(s, SC_SEG_CORRUPT, why, whylen, "%lld bytes, shorter than its header", (long long)st.st_size);
    /* Validate a private copy read with pread: a file that shrinks meanwhile
     * gives a short read here, not a SIGBUS. The magic was stored last
     * (release); the read happens after we saw it, so the header is complete. */
    struct hv_shm_header *h = malloc(sizeof *h);
    if (!h)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "out of memory");
    if (pread(s->fd, h, sizeof *h, 0) != (ssize_t)sizeof *h) {
        free(h);
        return fail(s, SC_SEG_CORRUPT, why, whylen, "header shrank while being read");
    }
    rc = check_header(s, h, pid, (uint64_t)st.st_size, why, whylen);
    if (rc == SC_SEG_OK)
        copy_info(&s->info, h);
    free(h);
    if (rc != SC_SEG_OK)
        return rc;
    s->hdr_bytes = s->info.rings_offset;
    void *m = mmap(NULL, s->hdr_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
    if (m == MAP_FAILED)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "mmap: %s", strerror(errno));
    s->hdr = m;
    s->col = (const struct hv_collector *)((const char *)m + s->info.collector_offset);
    s->rings = calloc(s->info.nslots, sizeof *s->rings);
    s->bad = calloc(s->info.nslots, 1);
    if (!s->rings || !s->bad)
        return fail(s, SC_SEG_CORRUPT, why, whylen, "out of memory");
    return SC_SEG_OK;
}

void sc_segment_close(struct sc_segment *s)
{
    if (s->rings) {
        for (uint32_t i = 0; i < s->hi; i++)
            if (s->rings[i])
                munmap(s->rings[i], s->info.ring_stride);
    }
    free(s->rings);
    free(s->bad);
    if (s->hdr)
        munmap(s->hdr, s->hdr_bytes);
    if (s->fd >= 0)
        close(s->fd);
    s->rings = NULL;
    s->bad = NULL;
    s->hdr = NULL;
    s->fd = -1;
}

uint32_t sc_segment_slots(const struct sc_segment *s)
{
    uint32_t n = atomic_load_explicit(&s->col->nrings, memory_order_acquire);
    /* nrings may run past the table while a claim fails; the slot table is the truth. */
    return n > s->info.nslots ? s->info.nslots : n;
}

int sc_segment_ring_sane(const struct sc_segment *s, const struct hv_ring *r)
{
    return r->capacity == s->info.ring_bytes && r->data_offset == hv_rec_padded(sizeof(struct hv_ring));
}

struct hv_ring *sc_segment_ring(struct sc_segment *s, uint32_t slot, const char **why)
{
    *why = NULL;
    if (slot >= s->info.nslots || s->bad[slot])
        return NULL;
    if (s->rings[slot])
        return s->rings[slot];
    /* Acquire pairs with the producer's release: the ring is initialised. */
    uint64_t off = atomic_load_explicit(&s->hdr->slot_offset[slot], memory_order_acquire);
    if (off == 0)
        return NULL;
    struct stat st;
    if (off != s->info.rings_offset + (uint64_t)slot * s->info.ring_stride) {
        *why = "slot offset does not match the layout";
    } else if (fstat(s->fd, &st) != 0 || (uint64_t)st.st_size < off + s->info.ring_stride) {
        *why = "ring lies beyond the end of the file";
    } else {
        /* MAP_POPULATE: the producer's pages exist already; mapping them all
         * now costs one call instead of a fault per page during the first
         * drain, when the ring may be nearly full. */
        void *m = mmap(NULL, s->info.ring_stride, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, s->fd,
                       (off_t)off);
        if (m == MAP_FAILED) {
            *why = "cannot map the ring";
        } else if (!sc_segment_ring_sane(s, m)) {
            munmap(m, s->info.ring_stride);
            *why = "ring header does not match the segment's ring size";
        } else {
            s->rings[slot] = m;
            if (slot >= s->hi)
                s->hi = slot + 1;
            return m;
        }
    }
    s->bad[slot] = 1;
    return NULL;
}

void sc_segment_counts(const struct sc_segment *s, struct sc_counts *c)
{
    memset(c, 0, sizeof *c);
    c->made = atomic_load_explicit(&s->col->no_ring_made, memory_order_relaxed);
    c->dropped[HV_DROP_NO_RING] = atomic_load_explicit(&s->col->no_ring_drops, memory_order_relaxed);
    for (uint32_t i = 0; i < s->hi; i++) {
        const struct hv_ring *r = s->rings[i];
        if (!r)
            continue;
        c->made += atomic_load_explicit(&r->made, memory_order_relaxed);
        c->calls += atomic_load_explicit(&r->calls, memory_order_relaxed);
        for (int k = 0; k < HV_DROP__COUNT; k++)
            c->dropped[k] += atomic_load_explicit(&r->dropped[k], memory_order_relaxed);
    }
    /* Every traced call is counted in its thread's ring (raw producers: the
     * collector's seq); there even when the process was killed before it
     * could close. */
    c->calls += atomic_load_explicit(&s->col->seq, memory_order_relaxed);
    c->released = atomic_load_explicit(&s->hdr->consumer.released, memory_order_relaxed);
    uint64_t filed = atomic_load_explicit(&s->hdr->consumer.filed, memory_order_relaxed);
    if (atomic_load_explicit(&s->hdr->consumer.filed_valid, memory_order_relaxed) && c->released > filed)
        c->consumer_lost = c->released - filed;
}

uint64_t sc_counts_in_flight(const struct sc_counts *c)
{
    uint64_t accounted = c->released;
    for (int k = 0; k < HV_DROP__COUNT; k++)
        accounted += c->dropped[k];
    return c->made > accounted ? c->made - accounted : 0;
}

int sc_segment_pid_alive(const struct sc_segment *s)
{
    uint64_t start;
    char state;
    if (hv_shm_proc_start(s->info.pid, &start, &state) != 0)
        return 0;
    if (state == 'Z' || state == 'X')
        return 0;
    /* A different start time: the pid was reused by another process. */
    return s->info.proc_start_ticks == 0 || start == s->info.proc_start_ticks;
}

void sc_segment_unlink(struct sc_segment *s)
{
    struct stat st;
    if (lstat(s->path, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino)
        unlink(s->path);
}
