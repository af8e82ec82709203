/* hipvis-dump end to end, and zstd(1) on a trace (skippable frames). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <zstd.h>

#include "format/codec_int.h"
#include "harness.h"
#include "tutil.h"

/* Runs a shell command; its exit status, -1 if it did not exit. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static size_t count_lines(const char *path)
{
    size_t len, n = 0;
    uint8_t *b = tu_slurp(path, &len);
    for (size_t i = 0; b && i < len; i++)
        n += b[i] == '\n';
    free(b);
    return n;
}

/* The file's text (NUL-terminated), "" when missing. */
static char *text_of(const char *path)
{
    size_t len;
    uint8_t *b = tu_slurp(path, &len);
    char *s = malloc(len + 1);
    if (b)
        memcpy(s, b, len);
    s[b ? len : 0] = '\0';
    free(b);
    return s;
}

static char trace[256], out[256], err[256];
static struct hv_reclist recs;
static uint8_t *bytes;
static size_t nbytes;
static struct tu_frame frames[512];
static int nframes;

/* One trace shared by the tool tests: 3000 records of every type. */
static void setup(void)
{
    if (bytes)
        return;
    hv_reclist_generate(&recs, 41, 3000);
    snprintf(trace, sizeof trace, "%s", tu_path("tool.zst"));
    snprintf(out, sizeof out, "%s", tu_path("out.txt"));
    snprintf(err, sizeof err, "%s", tu_path("err.txt"));
    if (tu_write_trace(trace, &recs, recs.n, 16 << 10, 1) == 0)
        bytes = tu_slurp(trace, &nbytes);
    nframes = bytes ? tu_frames(bytes, nbytes, frames, 512) : -1;
}

static void test_dump_text(void)
{
    setup();
    CHECK(nframes > 5);
    CHECK(sh("%s %s > %s 2> %s", hv_t_dump_path, trace, out, err) == 0);
    CHECKF(count_lines(out) == recs.n + 1, "%zu lines", count_lines(out));   /* + "# footer" */
    CHECK(count_lines(err) == 0);
    char *t = text_of(out);
    /* The first record is a call with seq 2: "#2 ts tid api(result) stream=0x..". */
    CHECKF(!strncmp(t, "#2 ", 3) && strstr(t, ") stream=0x") && strstr(t, "\n# footer calls=7"), "%.200s", t);
    free(t);
    CHECK(sh("%s --header --stats %s > %s", hv_t_dump_path, trace, out) == 0);
    t = text_of(out);
    CHECKF(!strncmp(t, "# header format_version=2 ", 26) && strstr(t, "# stats records=3000 "), "%.200s", t);
    free(t);
    /* From stdin too. */
    CHECK(sh("%s - < %s > %s", hv_t_dump_path, trace, out) == 0 && count_lines(out) == recs.n + 1);
}

static void test_dump_json(void)
{
    setup();
    if (sh("command -v python3 > /dev/null") != 0) {
        printf("     (python3 not found: JSON validity not checked)\n");
        return;
    }
    for (int raw = 0; raw < 2; raw++) {
        CHECK(sh("%s --json %s %s > %s", hv_t_dump_path, raw ? "--raw" : "", trace, out) == 0);
        CHECK(sh("python3 tests/format/check_json.py --footer < %s > %s", out, err) == 0);
        char *n = text_of(err);
        CHECKF(strtoul(n, NULL, 10) == recs.n, "checker counted %s", n);
        free(n);
    }
}

static void test_dump_truncated(void)
{
    setup();
    CHECK(nframes > 5);
    const struct tu_frame *f = &frames[nframes / 2];
    uint64_t salvaged = 0;
    for (const struct tu_frame *p = frames; p < f; p++)
        salvaged += p->nrecords;
    const char *cut = tu_path("cut.zst");
    CHECK(tu_spit(cut, bytes, f->off + (f->end - f->off) / 2) == 0);
    CHECK(sh("%s %s > %s 2> %s", hv_t_dump_path, cut, out, err) == 2);
    char want[128], *e = text_of(err);
    snprintf(want, sizeof want, "truncated at byte %zu:", f->off);
    CHECKF(strstr(e, want) != NULL, "stderr: %s", e);
    snprintf(want, sizeof want, "(%llu records salvaged)", (unsigned long long)salvaged);
    CHECKF(strstr(e, want) != NULL, "stderr: %s", e);
    free(e);
    CHECK(count_lines(out) == salvaged);
}

static void test_dump_corrupt(void)
{
    setup();
    const struct tu_frame *f = &frames[nframes / 2];
    uint8_t *bad = malloc(nbytes);
    memcpy(bad, bytes, nbytes);
    bad[(f->off + f->end) / 2] ^= 0x55;
    const char *path = tu_path("bad.zst");
    CHECK(tu_spit(path, bad, nbytes) == 0);
    free(bad);
    CHECK(sh("%s %s > %s 2> %s", hv_t_dump_path, path, out, err) == 2);
    char want[64], *e = text_of(err);
    snprintf(want, sizeof want, "corrupt at byte %zu:", f->off);
    CHECKF(strstr(e, want) != NULL, "stderr: %s", e);
    free(e);
    /* Everything but the damaged frame, and the footer after it. */
    CHECKF(count_lines(out) == recs.n - f->nrecords + 1, "%zu lines", count_lines(out));
}

static void test_dump_usage(void)
{
    setup();
    CHECK(sh("%s > %s 2> %s", hv_t_dump_path, out, err) == 2);
    char *e = text_of(err);
    CHECK(strstr(e, "usage:") != NULL);
    free(e);
    CHECK(sh("%s --bogus %s 2> /dev/null", hv_t_dump_path, trace) == 2);
    CHECK(sh("%s %s %s 2> /dev/null", hv_t_dump_path, trace, trace) == 2);
    CHECK(sh("%s --help > /dev/null", hv_t_dump_path) == 0);
    CHECK(sh("%s /nonexistent/t.zst 2> /dev/null", hv_t_dump_path) == 1);
    CHECK(sh("%s tests/format/check_json.py 2> %s", hv_t_dump_path, err) == 2);
    e = text_of(err);
    CHECKF(strstr(e, "foreign at byte 0") != NULL, "%s", e);
    free(e);
}

/* zstd(1) accepts a trace: it skips the header and footer frames, checks
 * every data frame's checksum, and decodes to the chunks back to back. */
static void test_zstd_cli(void)
{
    setup();
    if (sh("command -v zstd > /dev/null") != 0) {
        printf("     (zstd not found: not checked)\n");
        return;
    }
    CHECK(sh("zstd -q -t %s", trace) == 0);
    CHECK(sh("zstd -q -dc %s > %s", trace, out) == 0);
    size_t want = 0, len;
    for (int i = 0; i < nframes; i++)
        if (frames[i].kind == TU_DATA)
            want += (size_t)ZSTD_getFrameContentSize(bytes + frames[i].off, frames[i].end - frames[i].off);
    uint8_t *raw = tu_slurp(out, &len);
    uint32_t magic = 0;
    if (raw && len >= 4)
        memcpy(&magic, raw, 4);
    free(raw);
    CHECKF(len == want && magic == HV_CHUNK_MAGIC_V2, "zstd -dc gave %zu bytes, chunks hold %zu", len, want);
}

/* Kernel names come from the string table, even when the string record
 * follows the launch that uses it (the reader adds strings as chunks are
 * read, ahead of delivery). */
static void test_dump_kernel_names(void)
{
    _Alignas(8) uint8_t buf[sizeof(struct hv_call) + 48] = { 0 };
    struct hv_call *c = (void *)buf;
    c->h = (struct hv_rec_header){ HV_REC_CALL, sizeof *c, 9, 5, 100 };
    c->api = HV_API_hipLaunchKernel;
    c->stream = 0x1000;
    c->a.launch.name_id = 7;
    c->a.launch.grid[0] = 64;
    c->a.launch.block[0] = 256;
    struct hv_string *s = (void *)(buf + sizeof *c);
    s->h = (struct hv_rec_header){ HV_REC_STRING, 48, 9, 5, 101 };
    s->id = 7;
    s->len = 11;
    memcpy(s + 1, "my_kernel<1>", 11);
    struct tu_buf t = { 0 };
    tu_put_header(&t, HV_FORMAT_VERSION);
    tu_put_chunk(&t, HV_CHUNK_MAGIC, 0, 2, buf, sizeof buf);
    const char *path = tu_path("names.zst");
    CHECK(tu_spit(path, t.b, t.len) == 0);
    free(t.b);
    CHECK(sh("%s %s > %s", hv_t_dump_path, path, out) == 0);
    char *txt = text_of(out);
    CHECKF(strstr(txt, "#5 100 9 hipLaunchKernel(0) stream=0x1000 ") && strstr(txt, " kernel=my_kernel<1 grid=[64,0,0] block=[256,0,0]"),
           "%s", txt);
    free(txt);
    CHECK(sh("%s --json %s > %s", hv_t_dump_path, path, out) == 0);
    txt = text_of(out);
    CHECKF(strstr(txt, "\"api\":\"hipLaunchKernel\",\"api_id\":30,\"op\":\"launch\"") &&
           strstr(txt, "\"kernel\":\"my_kernel<1\",\"name_id\":7,\"grid\":[64,0,0]"), "%s", txt);
    free(txt);
}

void hv_tests_tools(void)
{
    RUN(test_dump_text);
    RUN(test_dump_kernel_names);
    RUN(test_dump_json);
    RUN(test_dump_truncated);
    RUN(test_dump_corrupt);
    RUN(test_dump_usage);
    RUN(test_zstd_cli);
    free(bytes);
    hv_reclist_free(&recs);
}
