/* The writer: naming, exclusive creation, mode, size checks, write errors. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/trace_path_int.h"
#include "format/trace_writer.h"
#include "harness.h"
#include "tutil.h"

static void test_path_expand(void)
{
    char buf[256];
    const char host[8] = { 'n', 'o', '/', 'n', 'u', 'l', 'l', '!' };   /* no NUL inside */
    CHECK(hv_path_expand("a/%p-%h-%%-%x%", 123, host, sizeof host, buf, sizeof buf) > 0);
    CHECKF(!strcmp(buf, "a/123-no_null!-%-%x%"), "%s", buf);
    CHECK(hv_path_expand("%h.%p", 0, "", 64, buf, sizeof buf) > 0 && !strcmp(buf, "unknown.0"));
    CHECK(hv_path_expand("t.%p", UINT64_MAX, NULL, 0, buf, sizeof buf) > 0 && !strcmp(buf, "t.18446744073709551615"));
    CHECK(hv_path_expand("trace.%p.zst", 4242, "h", 2, buf, 8) == -ENAMETOOLONG);
    CHECK(hv_path_expand("1234567", 1, "h", 2, buf, 8) == 7);
    CHECK(hv_path_expand("12345678", 1, "h", 2, buf, 8) == -ENAMETOOLONG);
}

static void test_path_suffix(void)
{
    char buf[64];
    static const char *const cases[][2] = {
        { "t.zst", "t.3.zst" },         { "dir.d/t", "dir.d/t.3" },     { ".hidden", ".hidden.3" },
        { "a/b.c.zst", "a/b.c.3.zst" }, { "a/.h.zst", "a/.h.3.zst" },   { "plain", "plain.3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(hv_path_suffixed(cases[i][0], 3, buf, sizeof buf) > 0);
        CHECKF(!strcmp(buf, cases[i][1]), "%s -> %s", cases[i][0], buf);
    }
    CHECK(hv_path_suffixed("abcdef.zst", 12345, buf, 8) == -ENAMETOOLONG);
}

/* Same name three times: three files, none overwritten; mode 0600 under any umask. */
static void test_exclusive_and_mode(void)
{
    struct hv_file_header h;
    hv_gen_header(&h, 555);
    char tmpl[256], p0[256], p1[256], p2[256];
    snprintf(tmpl, sizeof tmpl, "%s/x.%%p.zst", tu_dir());
    struct hv_trace_writer *w0, *w1, *w2;
    mode_t old = umask(022);
    CHECK(hv_trace_writer_open(tmpl, &h, 3, &w0) == 0);
    umask(027);
    CHECK(hv_trace_writer_open(tmpl, &h, 3, &w1) == 0);
    CHECK(hv_trace_writer_open(tmpl, &h, 3, &w2) == 0);
    umask(old);
    strcpy(p0, hv_trace_writer_path(w0));
    strcpy(p1, hv_trace_writer_path(w1));
    strcpy(p2, hv_trace_writer_path(w2));
    char want[300];
    snprintf(want, sizeof want, "%s/x.555.zst", tu_dir());
    CHECKF(!strcmp(p0, want), "%s", p0);
    snprintf(want, sizeof want, "%s/x.555.1.zst", tu_dir());
    CHECKF(!strcmp(p1, want), "%s", p1);
    snprintf(want, sizeof want, "%s/x.555.2.zst", tu_dir());
    CHECKF(!strcmp(p2, want), "%s", p2);
    struct stat st;
    /* Owner-only whatever the umask allows (docs/output-files.md: payload bytes). */
    CHECK(stat(p0, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(stat(p1, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(hv_trace_writer_file_bytes(w0) == 8 + hv_trace_header_bytes(&h));
    CHECK(st.st_size == (off_t)(8 + hv_trace_header_bytes(&h)));   /* header written at open */
    CHECK(hv_trace_writer_close(w0, NULL) == 0);
    hv_trace_writer_abandon(w1);
    CHECK(hv_trace_writer_close(w2, NULL) == 0);
    /* A header-only trace (no records, no footer) reads as empty. */
    struct hv_reader *r;
    const struct hv_rec_header *rec;
    CHECK(hv_reader_open(p1, &r, NULL) == 0);
    CHECK(hv_reader_header(r)->pid == 555);
    CHECK(hv_reader_next(r, &rec) == 0 && hv_reader_footer(r) == NULL);
    CHECK(hv_reader_next(r, &rec) == 0);
    hv_reader_close(r);
    /* A directory that does not exist: -errno, nothing allocated. */
    CHECK(hv_trace_writer_open("/nonexistent-dir/t.zst", &h, 3, &w0) == -ENOENT && w0 == NULL);
}

static void test_add_checks(void)
{
    struct hv_file_header h;
    hv_gen_header(&h, 556);
    struct hv_trace_writer *w;
    CHECK(hv_trace_writer_open(tu_path("add.zst"), &h, 1, &w) == 0);
    _Alignas(8) uint8_t buf[64] = { 0 };
    struct hv_rec_header *r = (void *)buf;
    r->type = HV_REC_EPOCH;
    static const uint16_t bad[] = { 0, 8, 16, 12, 30, 65535 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r->size = bad[i];
        CHECKF(hv_trace_writer_add(w, r) == -EINVAL, "size %u", bad[i]);
    }
    CHECK(hv_trace_writer_pending(w) == 0);
    r->size = 48;
    CHECK(hv_trace_writer_add(w, r) == 0 && hv_trace_writer_pending(w) == 48);
    CHECK(hv_trace_writer_set_chunk_bytes(w, 1) == HV_WRITER_MIN_CHUNK_BYTES);
    CHECK(hv_trace_writer_pending(w) == 0);   /* flushed first */
    CHECK(hv_trace_writer_set_chunk_bytes(w, (size_t)1 << 30) == HV_WRITER_MAX_CHUNK_BYTES);
    CHECK(hv_trace_writer_set_chunk_bytes(w, 4096) == 4096);
    struct hv_file_footer f = { .records_written = 999, .chunks = 999 };
    CHECK(hv_trace_writer_close(w, &f) == 0);
    struct hv_reader *rd;
    CHECK(hv_reader_open(tu_path("add.zst"), &rd, NULL) == 0);
    CHECK(tu_read_all(rd, 0, NULL, NULL, NULL) == 1);
    const struct hv_file_footer *ff = hv_reader_footer(rd);
    CHECK(ff && ff->records_written == 1 && ff->chunks == 1);   /* the writer's own counts */
    hv_reader_close(rd);
}

/* Warming the chunk buffers a slice at a time (hv_trace_writer_warm, the
 * writer thread's between drains) in async mode, with records going in
 * between the slices: it ends after the open chunk and the 4 spares, and
 * never writes over a record already in the open chunk. */
static void test_warm(void)
{
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 77, 60000);
    struct hv_file_header h;
    hv_gen_header(&h, 557);
    struct hv_trace_writer *w;
    CHECK(hv_trace_writer_open(tu_path("warm.zst"), &h, 1, &w) == 0);
    CHECK(hv_trace_writer_set_async(w) == 0);
    /* The slices start once the compression thread has populated the
     * buffers (hv_trace_writer_ready); until then a slice writes nothing. */
    for (int i = 0; i < 10000 && !hv_trace_writer_ready(w); i++)
        nanosleep(&(struct timespec){0, 1000000}, NULL);   /* 10 s at most */
    CHECK(hv_trace_writer_ready(w));
    size_t next = 0, slices = 0;
    /* No time budget: one slice writes 8 pages. */
    while (hv_trace_writer_warm(w, 0) && slices < 100000) {
        slices++;
        for (size_t k = 0; k < 50 && next < l.n; k++)
            CHECK(hv_trace_writer_add(w, hv_reclist_get(&l, next++)) == 0);
    }
    /* At least the spares' pages (the open chunk's are partly the records'). */
    CHECKF(slices >= 4 * (HV_WRITER_DEFAULT_CHUNK_BYTES / 4096) / 8, "%zu slices", slices);
    CHECK(hv_trace_writer_warm(w, 0) == 0);
    while (next < l.n)
        CHECK(hv_trace_writer_add(w, hv_reclist_get(&l, next++)) == 0);
    CHECK(hv_trace_writer_close(w, NULL) == 0);
    struct hv_reader *rd;
    struct hv_reclist got = { 0 };
    CHECK(hv_reader_open(tu_path("warm.zst"), &rd, NULL) == 0);
    CHECK(tu_read_all(rd, 1, &got, NULL, NULL) == l.n);
    size_t same = 0;
    for (size_t i = 0; i < got.n && i < l.n; i++) {
        const struct hv_rec_header *a = hv_reclist_get(&l, i), *b = hv_reclist_get(&got, i);
        same += a->size == b->size && !memcmp(a, b, a->size);
    }
    CHECKF(same == l.n, "%zu of %zu records intact after %zu warm slices", same, l.n, slices);
    hv_reader_close(rd);
    hv_reclist_free(&l);
    hv_reclist_free(&got);
}

/* The disk fills up (RLIMIT_FSIZE in a child): failed frames are counted
 * and cut off again, so the file stays a readable trace of what made it. */
static void test_write_errors(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    const char *path = tu_path("full.zst");
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 21, 20000);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { 150000, 150000 };
        setrlimit(RLIMIT_FSIZE, &rl);
        struct hv_file_header h;
        struct hv_trace_writer *w;
        hv_gen_header(&h, 1);
        struct hv_trace_writer_stats st = { 0 };
        if (hv_trace_writer_open(path, &h, 1, &w) == 0) {
            /* Chunk sizes vary, so a small frame can still fit after a large
             * one failed: the reader then sees the lost chunk as a gap. */
            for (size_t i = 0; i < l.n; i++) {
                if (i % 1000 == 0)
                    hv_trace_writer_set_chunk_bytes(w, i % 3000 ? 64 << 10 : 2048);
                hv_trace_writer_add(w, hv_reclist_get(&l, i));
            }
            hv_trace_writer_flush(w);
            hv_trace_writer_stats(w, &st);
            hv_trace_writer_close(w, NULL);
        }
        _exit(write(fds[1], &st, sizeof st) == sizeof st ? 0 : 1);
    }
    close(fds[1]);
    struct hv_trace_writer_stats st;
    int status;
    ssize_t got = read(fds[0], &st, sizeof st);
    close(fds[0]);
    waitpid(pid, &status, 0);
    CHECK(got == (ssize_t)sizeof st && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECKF(st.records_lost > 0 && st.last_error == -EFBIG, "lost %llu err %d",
           (unsigned long long)st.records_lost, st.last_error);
    CHECK(st.records_written + st.records_lost == l.n);
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (uint64_t)sb.st_size == st.file_bytes);
    struct hv_reader *r;
    struct hv_read_error err;
    int nerr;
    CHECK(hv_reader_open(path, &r, NULL) == 0);
    size_t n = tu_read_all(r, 0, NULL, &err, &nerr);
    CHECKF(n == st.records_written && nerr == 0, "read %zu, written %llu, errors %d (%s)", n,
           (unsigned long long)st.records_written, nerr, err.what);
    struct hv_reader_stats rs;
    hv_reader_stats(r, &rs);
    CHECK(rs.chunks == st.chunks_written);
    hv_reader_close(r);
    hv_reclist_free(&l);
}

/* A truly full disk (issue 18): the footer, which carries the loss counts,
 * is still written. A 256 KiB tmpfs; the trace grows until its end is less
 * than a footer frame short of a page boundary (so an unreserved footer
 * would need a page of its own), then another file takes every free page,
 * then the trace writes on until a frame fails. The footer must be there
 * and account for every record. Needs CAP_SYS_ADMIN for the mount:
 * otherwise it says so and checks nothing. */
static void full_disk_body(const char *dir)
{
    char path[600], fill[600];
    snprintf(path, sizeof path, "%s/t.zst", dir);
    snprintf(fill, sizeof fill, "%s/fill", dir);
    const size_t footer_frame = 8 + sizeof(struct hv_file_footer);
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, 7, 20000);
    struct hv_file_header h;
    struct hv_trace_writer *w = NULL;
    hv_gen_header(&h, 1);
    CHECK(hv_trace_writer_open(path, &h, 1, &w) == 0);
    size_t i = 0;
    if (w) {
        /* One record per frame until the end sits just short of a page end. */
        while (i < 5000 && 4096 - hv_trace_writer_file_bytes(w) % 4096 >= footer_frame) {
            hv_trace_writer_add(w, hv_reclist_get(&l, i++));
            hv_trace_writer_flush(w);
        }
        CHECKF(4096 - hv_trace_writer_file_bytes(w) % 4096 < footer_frame, "end at %llu",
               (unsigned long long)hv_trace_writer_file_bytes(w));
        int fd = open(fill, O_WRONLY | O_CREAT | O_EXCL, 0600);
        CHECK(fd >= 0);
        static char block[4096];
        while (fd >= 0 && write(fd, block, sizeof block) > 0) {
        }
        CHECK(errno == ENOSPC);
        if (fd >= 0)
            close(fd);
        struct hv_trace_writer_stats st = { 0 };
        while (i < l.n && st.last_error == 0) {
            for (int k = 0; k < 50 && i < l.n; k++)
                hv_trace_writer_add(w, hv_reclist_get(&l, i++));
            hv_trace_writer_flush(w);
            hv_trace_writer_stats(w, &st);
        }
        CHECKF(st.last_error == -ENOSPC, "last error %d", st.last_error);
        struct hv_file_footer f;
        memset(&f, 0, sizeof f);
        f.calls = i;
        f.records_made = i;
        f.dropped[HV_DROP_WRITE_ERROR] = st.records_lost;
        hv_trace_writer_close(w, &f);
        struct hv_reader *r = NULL;
        CHECK(hv_reader_open(path, &r, NULL) == 0);
        if (r) {
            size_t n = tu_read_all(r, 0, NULL, NULL, NULL);
            const struct hv_file_footer *ff = hv_reader_footer(r);
            CHECKF(ff != NULL, "no footer on a full disk (%zu records read of %zu)", n, i);
            CHECK(ff && ff->records_written == n && ff->records_written + ff->dropped[HV_DROP_WRITE_ERROR] == i);
            CHECK(ff && ff->dropped[HV_DROP_WRITE_ERROR] > 0);
            hv_reader_close(r);
        }
    }
    hv_reclist_free(&l);
}

static void test_full_disk_footer(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tu_path("fulldisk"));
    CHECK(mkdir(dir, 0700) == 0 || errno == EEXIST);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=256k,mode=0700") != 0) {
        printf("  (full disk footer: cannot mount a tmpfs: %s; not checked)\n", strerror(errno));
        return;
    }
    full_disk_body(dir);   /* a failed CHECK returns from it: unmount here either way */
    CHECK(umount2(dir, MNT_DETACH) == 0);
}

void hv_tests_writer(void)
{
    RUN(test_path_expand);
    RUN(test_path_suffix);
    RUN(test_exclusive_and_mode);
    RUN(test_add_checks);
    RUN(test_warm);
    RUN(test_write_errors);
    RUN(test_full_disk_footer);
}
