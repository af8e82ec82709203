/*
 * A process that dies before the writer thread's first timed flush still
 * leaves its losses in the file: every frame forced out by a full chunk
 * carries the drop totals. Runs the real writer thread with a timed flush
 * that never comes, counts one drop, produces several chunks' worth of
 * records, and copies the file as it stands once frames are on disk (what
 * a SIGKILL at that instant would leave). lifecycle.sh then checks that
 * copy for a drops record.
 *   writer_crash DIR   -> DIR/crash-copy.zst (the "crashed" file) and
 *                         DIR/clean.<pid>.zst (the same run, stopped cleanly)
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/trace_writer.h"
#include "tracer/record/collector.h"
#include "tracer/record/writer_thread.h"

static struct hv_collector col;
static struct hv_writer_thread wt;

static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char buf[65536];
    ssize_t n;
    if (in < 0 || out < 0)
        return -1;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n)
            return -1;
    close(in);
    close(out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: writer_crash DIR\n");
        return 2;
    }
    char tmpl[600], copy[600];
    snprintf(tmpl, sizeof tmpl, "%s/clean.%%p.zst", argv[1]);
    snprintf(copy, sizeof copy, "%s/crash-copy.zst", argv[1]);
    hv_collector_init(&col, 64 * 1024);
    /* flush_ms far beyond the run: only full chunks write frames. */
    hv_writer_init(&wt, &col, tmpl, 1, 1000000000u, 1);
    struct hv_file_header h;
    memset(&h, 0, sizeof h);
    h.pid = (uint64_t)getpid();
    if (hv_writer_start(&wt, &h) != 0)
        return 1;
    struct hv_thread_ctx t;
    memset(&t, 0, sizeof t);
    t.tid = 1;
    hv_thread_set_ring(&t, hv_collector_claim(&col, 1));
    if (!t.ring)
        return 1;
    hv_ring_count_drop(t.ring, HV_DROP_RING_FULL);   /* the loss the file must show */

    const char *path = hv_trace_writer_path(wt.out);
    struct stat st;
    uint64_t seq = 1;
    off_t header_only = -1;
    for (int tries = 0; tries < 200000; tries++) {
        /* 4 MiB of incompressible-enough records, 8 per batch */
        for (int i = 0; i < 8; i++) {
            struct hv_rec_header *r = hv_emit_begin(&t, HV_REC_CALL, 512, seq);
            if (!r) {
                sched_yield();
                continue;
            }
            /* a call record for no api (0), then bytes zstd cannot squeeze */
            memset(r + 1, 0, sizeof(struct hv_call) - sizeof *r);
            uint64_t *p = (uint64_t *)((struct hv_call *)r + 1);
            for (size_t k = 0; k < (512 - sizeof(struct hv_call)) / 8; k++)
                p[k] = seq * 0x9e3779b97f4a7c15ull + k;
            hv_emit_commit(&t, r);
            seq++;
        }
        if (stat(path, &st) != 0)
            return 1;
        if (header_only < 0)
            header_only = st.st_size;
        if (st.st_size > header_only + 4096)
            break;
    }
    if (st.st_size <= header_only + 4096) {
        fprintf(stderr, "writer_crash: no frame was forced out\n");
        return 1;
    }
    /* Let the frame's write finish (frames are written with one write(2),
     * but stat may see it part-way): wait until the size settles. */
    for (off_t last = -1; last != st.st_size;) {
        last = st.st_size;
        usleep(20000);
        stat(path, &st);
    }
    if (copy_file(path, copy) != 0)
        return 1;
    hv_writer_stop(&wt, seq - 1);
    printf("writer_crash: %llu records produced, copy at %lld bytes\n", (unsigned long long)(seq - 1),
           (long long)st.st_size);
    return 0;
}
